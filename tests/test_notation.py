"""Move notation: gnubg's formatting, parsing, and parse/format round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgcore import IllegalMoveError, Position
from bgcore.notation import format_steps, parse_notation

START = Position.initial()


@pytest.mark.parametrize(
    "steps,hits,text",
    [
        ([(24, 18), (13, 10)], {10}, "24/18 13/10*"),
        ([(25, 22), (13, 10)], set(), "bar/22 13/10"),
        ([(6, 0), (5, 0)], set(), "6/off 5/off"),
        ([(8, 5), (8, 5)], set(), "8/5(2)"),
        ([(24, 18), (18, 13)], {18}, "24/18*/13"),
        ([(24, 18), (18, 13)], set(), "24/13"),
        ([(13, 10), (10, 7), (13, 10)], {10}, "13/10*/7 13/10"),
        ([(24, 22), (24, 22), (22, 20), (22, 20)], set(), "24/20(2)"),
        ([(25, 24), (23, 22), (21, 20), (19, 18)], {24, 22, 20, 18}, "bar/24* 23/22* 21/20* 19/18*"),
        ([(24, 18), (13, 18)], {18}, "24/18* 13/18"),
        ([], set(), ""),
    ],
)
def test_format_steps(steps: list, hits: set, text: str) -> None:
    assert format_steps(steps, hits) == text


@pytest.mark.parametrize(
    "text,steps",
    [
        ("24/18 13/10*", [(24, 18, False), (13, 10, True)]),
        ("bar/22", [(25, 22, False)]),
        ("25/22", [(25, 22, False)]),
        ("6/off", [(6, 0, False)]),
        ("6/0", [(6, 0, False)]),
        ("8/5(2)", [(8, 5, False), (8, 5, False)]),
        ("24/18/13", [(24, 18, False), (18, 13, False)]),
        ("  BAR/22*   13/10 ", [(25, 22, True), (13, 10, False)]),
        ("", []),
    ],
)
def test_parse_notation(text: str, steps: list) -> None:
    assert parse_notation(text) == steps


@pytest.mark.parametrize(
    "bad",
    ["24-18", "24/", "/18", "18/24", "off/3", "24/bar", "6/off*", "8/5(5)", "8/5(0)", "26/20", "24/18 x", "24//18"],
)
def test_parse_notation_rejects(bad: str) -> None:
    with pytest.raises(IllegalMoveError):
        parse_notation(bad)


def test_parse_move_forms() -> None:
    m = START.parse_move("24/13", (6, 5))
    assert START.parse_move("24/18/13", (5, 6)) == m
    assert START.parse_move("24/18 18/13", (6, 5)) == m
    assert str(m) == "24/13"
    assert str(START.parse_move("8/5 6/5", (3, 1))) == "8/5 6/5"
    assert str(START.parse_move("13/11(2) 6/4(2)", (2, 2))) == "13/11(2) 6/4(2)"


def test_parse_move_errors_say_why() -> None:
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        START.parse_move("24/18 13/10", (6, 2))
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        START.parse_move("24/18", (6, 5))  # must use both dice
    with pytest.raises(IllegalMoveError, match="cannot be passed"):
        START.parse_move("", (6, 5))
    with pytest.raises(ValueError):
        START.parse_move("24/18 13/8", (6, 7))
    with pytest.raises(TypeError):
        START.parse_move(None, (6, 5))  # type: ignore[arg-type]


def test_parse_move_chooses_the_hit_the_text_names() -> None:
    # a lone checker on 24, opposing blots on 18 and 19; 6-5 reaches 13 via either
    board = [0] * 26
    board[24] = 1
    board[18] = -1
    board[19] = -1
    board[1] = -13
    pos = Position(board)
    via18 = pos.parse_move("24/18*/13", (6, 5))
    via19 = pos.parse_move("24/19*/13", (6, 5))
    assert via18 != via19
    assert pos.parse_move("24/18/13", (6, 5)) == via18
    assert str(via18) == "24/18*/13" and str(via19) == "24/19*/13"
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        pos.parse_move("24/13", (6, 5))


def test_lost_turn_is_the_empty_move() -> None:
    pos = Position.from_position_id("u5sDAgK3OwcAQA")  # on the bar against a 5-point board
    m = pos.parse_move("", (4, 1))
    assert not m and str(m) == "" and pos.parse_move("-", (1, 4)) == m
    assert pos.play(m) == pos.flip()


@given(st.text(max_size=30))
def test_fuzz_parse_move(text: str) -> None:
    try:
        move = START.parse_move(text, (6, 5))
    except IllegalMoveError:
        return
    assert move in START.legal_moves((6, 5))
