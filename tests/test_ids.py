"""Position IDs and XGIDs: known values, round trips, strictness and fuzzing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgcore import InvalidPositionError, Position
from bgcore.ids import XGID, decode_position_id, encode_position_id
from strategies import random_boards

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_start_position_id_and_xgid() -> None:
    pos = Position.initial()
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert pos.xgid() == START_XGID
    assert Position.from_xgid(START_XGID) == pos
    assert Position.from_xgid(START_XGID[5:]) == pos  # prefix optional


def test_xgid_turn_orients_the_board() -> None:
    # 2 checkers on the bottom player's bar, top player on roll
    text = "XGID=-b----E-C---eE---c-e----BB:0:0:-1:00:0:0:0:0:10"
    with pytest.raises(InvalidPositionError):
        Position.from_xgid(text)  # 17 bottom checkers
    text = "XGID=-b----E-C---eE---c-e---AA-:1:1:-1:63:2:3:0:7:10"
    x = XGID.parse(text)
    assert x.dice == (6, 3) and x.match_length == 7 and x.turn == -1
    pos = Position.from_xgid(text)
    # on roll: the lower-case player, whose 24-point is the bottom player's 1-point
    assert pos.board[24] == 2 and pos.board[19] == -5
    assert pos.board[1] == -1 and pos.board[2] == -1
    assert x.format() == text


@given(random_boards())
def test_position_id_round_trip(board: tuple[int, ...]) -> None:
    pid = encode_position_id(board)
    assert len(pid) == 14
    assert decode_position_id(pid) == board


@given(random_boards())
def test_xgid_round_trip(board: tuple[int, ...]) -> None:
    pos = Position(board)
    assert Position.from_xgid(pos.xgid()) == pos
    assert XGID.parse(pos.xgid()).format() == pos.xgid()


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "4HPwATDgc/ABM",
        "4HPwATDgc/ABMAA",
        "4HPwATDgc/AB!A",
        "////////////////",
        "//////////////",  # 80 one-bits: no point ends
        "4HPwATDgc/AB=A",
    ],
)
def test_bad_position_ids(bad: str) -> None:
    with pytest.raises(InvalidPositionError):
        Position.from_position_id(bad)


def test_position_id_with_both_players_on_a_point() -> None:
    # the opponent's 24-point is the player's 1-point: put both there
    board = [0] * 26
    theirs = [0] * 25
    mine = [0] * 25
    mine[0] = 1
    theirs[23] = 1
    bits = ""
    for side in (theirs, mine):
        for c in side:
            bits += "1" * c + "0"
    value = int(bits[::-1], 2)
    import base64

    pid = base64.b64encode(value.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidPositionError, match="both"):
        Position.from_position_id(pid)
    assert board


def test_position_id_with_sixteen_checkers() -> None:
    bits = "1" * 16 + "0" * 25 + "0" * 25
    pid = __import__("base64").b64encode(int(bits[::-1], 2).to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position.from_position_id(pid)


@pytest.mark.parametrize(
    "bad",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",  # 9 fields
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",  # 25 characters
        "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",  # z is not a count
        "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",  # turn 2
        "XGID=-b----E-C---eE---c-e----B-:0:5:1:00:0:0:0:0:10",  # cube owner 5
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:07:0:0:0:0:10",  # die 7
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",  # not a number
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10",  # negative score
        "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  # bottom checker on top's bar
        "XGID=-bB---E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",  # 17 checkers
        "XGID=-b----E-C---eE---c-e----B-:13:0:1:00:0:0:0:0:10",  # a cube of 8192: gnubg refuses it
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:13",  # a cube limit of 8192
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",  # flags beyond Crawford/Jacoby and beavers
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:32768:0:0:0:10",  # a score no ID carries
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:32768:10",  # a match longer than a Game plays
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:010000",  # six digits
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:1_0",  # Python's int() reads it; no XGID has it
        "XGID=-b----E-C---eE---c-e----B-:٣:0:1:00:0:0:0:0:10",  # an Arabic-Indic 3, int() reads that too
    ],
)
def test_bad_xgids(bad: str) -> None:
    with pytest.raises(InvalidPositionError):
        Position.from_xgid(bad)


@pytest.mark.parametrize("value", [None, 42, b"4HPwATDgc/ABMA"])
def test_ids_reject_wrong_types(value: object) -> None:
    with pytest.raises(TypeError):
        Position.from_position_id(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Position.from_xgid(value)  # type: ignore[arg-type]


@given(st.text(max_size=40))
def test_fuzz_position_id_text(text: str) -> None:
    try:
        pos = Position.from_position_id(text)
    except InvalidPositionError:
        return
    assert pos.position_id() == text.strip()


@given(st.binary(max_size=20))
def test_fuzz_position_id_bytes(data: bytes) -> None:
    text = data.decode("latin-1")
    try:
        pos = Position.from_position_id(text)
    except InvalidPositionError:
        return
    assert pos.position_id() == text.strip()


@given(st.text(alphabet="XGID=-ABCDEabcdeoO0123456789:", max_size=60))
def test_fuzz_xgid(text: str) -> None:
    try:
        pos = Position.from_xgid(text)
    except InvalidPositionError:
        return
    assert Position.from_xgid(pos.xgid()) == pos


@given(st.lists(st.sampled_from("-AaBbOo"), min_size=26, max_size=26), st.sampled_from(["1", "-1"]))
def test_fuzz_xgid_boards(chars: list[str], turn: str) -> None:
    text = "".join(chars) + f":0:0:{turn}:00:0:0:0:0:10"
    try:
        pos = Position.from_xgid(text)
    except InvalidPositionError:
        return
    assert Position.from_xgid(pos.xgid()) == pos


def test_xgid_exponents_up_to_gnubgs_cube_limit() -> None:
    """gnubg's largest cube is 4096 (2**12): its XGID reader takes a cube
    exponent of 12 and refuses 13 (tests/test_game_gnubg.py asks it)."""
    top = XGID.parse("XGID=-b----E-C---eE---c-e----B-:12:1:1:00:0:0:0:0:12")
    assert (top.cube_exponent, top.max_cube) == (12, 12)
    with pytest.raises(InvalidPositionError, match="cube exponent 13 is outside 0-12"):
        XGID.parse("XGID=-b----E-C---eE---c-e----B-:13:1:1:00:0:0:0:0:10")


def refused_quickly(call: str, error: str, message: str) -> None:
    """``call`` (a statement, bgcore's names imported) raises ``error`` with
    ``message`` in its text, within a second.  It runs in a child process, so
    that a regression (Python raising 2 to a 12-digit power) fails the test
    instead of hanging or swamping the test run."""
    code = textwrap.dedent(
        f"""
        import time
        from bgcore import Game, Position
        from bgcore.errors import *
        from bgcore.ids import XGID, MatchId
        start = time.perf_counter()
        try:
            {call}
        except {error} as exc:
            print(f"{{time.perf_counter() - start:.6f}} {{exc}}")
        else:
            print("no error")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seconds, _, text = done.stdout.strip().partition(" ")
    assert seconds != "no", f"{call} raised nothing"
    assert float(seconds) < 1.0 and message in text, done.stdout


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('XGID.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:999999999999")', "at most 5 digits"),
        ('XGID.parse("XGID=-b----E-C---eE---c-e----B-:999999999999:0:1:00:0:0:0:0:10")', "at most 5 digits"),
        ('XGID.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:99999")', "limit exponent 99999"),
        ('XGID.parse("XGID=-b----E-C---eE---c-e----B-:99999:0:1:00:0:0:0:0:10")', "cube exponent 99999"),
        ('Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:" + "9" * 5000)', "5 digits"),
    ],
)
def test_hostile_xgid_fields_are_refused_at_once(call: str, message: str) -> None:
    refused_quickly(call, "InvalidPositionError", message)
