"""Match IDs without gnubg: known IDs, the bit layout, round trips, strictness and fuzzing.

test_matchid_gnubg.py checks the same IDs, and many more, against gnubg itself.
"""

from __future__ import annotations

import base64
import dataclasses
import pickle

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import bgcore
from bgcore.errors import InvalidMatchIdError, InvalidPositionError
from bgcore.ids import (
    MAX_CUBE,
    MAX_MATCH_LENGTH,
    GameState,
    MatchId,
    Resignation,
    decode_match_id,
    encode_match_id,
    gnubg_id,
    parse_gnubg_id,
)
from test_ids import refused_quickly

START = "4HPwATDgc/ABMA"

# Match IDs with their fields; each one checked against gnubg in test_matchid_gnubg.py.
KNOWN_IDS: list[tuple[str, MatchId]] = [
    # gnubg's manual: money game, player 1 on roll, before the roll
    ("cAkAAAAAAAAA", MatchId(player_on_roll=1)),
    # gnubg's manual: 2-4 in a 9-point match, player 1 rolled 52, player 0 owns a 2-cube
    # (written before the Jacoby bit existed: 0 there reads as "Jacoby on")
    (
        "QYkqASAAIAAA",
        MatchId(cube=2, cube_owner=0, player_on_roll=1, dice=(5, 2), match_length=9, score=(2, 4), jacoby=True),
    ),
    # written by gnubg 1.1.0a16 in play: money session, Jacoby on (bit 66 clear) and off (set)
    ("MAEPAAAAAAAA", MatchId(dice=(6, 3))),
    ("cIkJAAAAAAAE", MatchId(player_on_roll=1, dice=(3, 2), jacoby=False)),
    # ... a new 7-point match, player 0 rolled 62; then player 0 offers to resign a gammon
    ("MAHrAAAAAAAE", MatchId(dice=(6, 2), match_length=7)),
    ("MEnrAAAAAAAE", MatchId(turn=1, resignation=Resignation.GAMMON, dice=(6, 2), match_length=7)),
    # player 1 doubles to 2 at 3-4 in a 7-point match; player 0 must answer
    ("cRHgADAAIAAE", MatchId(cube=2, player_on_roll=1, double_offered=True, match_length=7, score=(3, 4))),
    # the largest of everything: a 32768-cube owned by player 1, 64-point match, 63-63, Crawford
    (
        "n4EECPAD+AEE",
        MatchId(cube=MAX_CUBE, cube_owner=1, crawford=True, dice=(1, 1), match_length=64, score=(63, 63)),
    ),
    # a money session 32767-0, game over, player 1 to act after a dropped double
    (
        "cAwAAPD/BwAA",
        MatchId(player_on_roll=1, game_state=GameState.DROPPED, score=(32767, 0)),
    ),
    # written by gnubg 1.1.0a16 in play: player 1 doubled, player 0 beavered: the cube is 2,
    # player 0's, and player 1 (on roll) answers
    (
        "QRkAAAAAAAAE",
        MatchId(cube=2, cube_owner=0, player_on_roll=1, turn=1, double_offered=True, jacoby=False),
    ),
]

# gnubg writes the real score at the end of a match, past the length, and its
# reader (MatchFromID) refuses it: these are checked against gnubg's writer only.
FINAL_IDS: list[tuple[str, MatchId]] = [
    # a 1-point match: player 0 wins the opening 64 and resigns a gammon (the brief of issue 27)
    (
        "MEMzAAAAEAAE",
        MatchId(
            game_state=GameState.RESIGNED,
            turn=0,
            resignation=Resignation.GAMMON,
            dice=(6, 4),
            match_length=1,
            score=(0, 2),
        ),
    ),
]

# (field, first bit, width): what gnubg's manual and matchid.c say, checked here and against gnubg.
LAYOUT = [
    ("cube log2", 0, 4),
    ("cube owner", 4, 2),
    ("player on roll", 6, 1),
    ("crawford", 7, 1),
    ("game state", 8, 3),
    ("turn", 11, 1),
    ("double offered", 12, 1),
    ("resignation", 13, 2),
    ("die 1", 15, 3),
    ("die 2", 18, 3),
    ("match length", 21, 15),
    ("score 0", 36, 15),
    ("score 1", 51, 15),
    ("not jacoby", 66, 1),
]


def key_of(match_id: str) -> int:
    """The 72 bits of a Match ID as one little-endian integer."""
    return int.from_bytes(base64.b64decode(match_id), "little")


def id_of(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def field(key: int, name: str) -> int:
    for n, first, width in LAYOUT:
        if n == name:
            return key >> first & ((1 << width) - 1)
    raise KeyError(name)


@st.composite
def match_ids(draw: st.DrawFn) -> MatchId:
    """Any valid MatchId: every field over its whole range, money play and matches."""
    length = draw(st.sampled_from([0, 0, 1, 2, 3, 5, 7, 9, 11, 17, 25, MAX_MATCH_LENGTH]) | st.integers(0, 64))
    state = draw(st.sampled_from(GameState))
    cube = 1 << draw(st.integers(0, 15))
    resignation = draw(st.sampled_from(Resignation))
    if length:
        score = [draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1))]
        if state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED) and draw(st.booleans()):
            # the winner of the last game: up to what the game was worth past the length
            times = {GameState.DROPPED: 1, GameState.RESIGNED: int(resignation) or 3}.get(state, 3)
            score[draw(st.integers(0, 1))] = draw(st.integers(length, min(length - 1 + times * cube, 2**15 - 1)))
        crawford = draw(st.booleans())
    else:
        score = [draw(st.integers(0, 2**15 - 1)), draw(st.integers(0, 2**15 - 1))]
        crawford = False
    return MatchId(
        cube=cube,
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=crawford,
        game_state=state,
        turn=draw(st.none() | st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=resignation,
        dice=draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6))),
        match_length=length,
        score=tuple(score),
        jacoby=draw(st.none() | st.booleans()),
    )


@pytest.mark.parametrize(("text", "match"), KNOWN_IDS, ids=[t for t, _ in KNOWN_IDS])
def test_known_ids(text: str, match: MatchId) -> None:
    assert MatchId.decode(text) == match
    assert match.encode() == text
    assert decode_match_id(text) == match and encode_match_id(match) == text


def test_defaults() -> None:
    m = MatchId()
    assert (m.cube, m.cube_owner, m.player_on_roll, m.turn, m.crawford) == (1, None, 0, 0, False)
    assert (m.game_state, m.double_offered, m.resignation, m.dice) == (GameState.PLAYING, False, Resignation.NONE, None)
    assert (m.match_length, m.score, m.jacoby) == (0, (0, 0), True)
    assert m.encode() == "MAEAAAAAAAAA"
    assert repr(m) == "MatchId()"


def test_turn_defaults_to_the_player_who_must_answer() -> None:
    assert MatchId(player_on_roll=1).turn == 1
    assert MatchId(player_on_roll=1, double_offered=True).turn == 0
    assert MatchId(player_on_roll=0, resignation=Resignation.SINGLE).turn == 1
    assert MatchId(player_on_roll=0, double_offered=True, turn=0).turn == 0  # stated: kept


def test_jacoby_defaults_to_gnubg_settings() -> None:
    assert MatchId().jacoby is True  # money play: gnubg plays with the Jacoby rule by default
    assert MatchId(match_length=7).jacoby is False  # gnubg writes "no Jacoby" in matches
    assert MatchId(match_length=7, jacoby=True).encode()[-1] == "A"
    assert MatchId(match_length=7).encode()[-1] == "E"


def test_dice_are_kept_higher_first() -> None:
    assert MatchId(dice=(1, 3)).dice == (3, 1)
    assert MatchId(dice=[2, 5]) == MatchId(dice=(5, 2))
    assert MatchId(dice=(1, 3)).encode() == MatchId(dice=(3, 1)).encode()
    # older gnubg wrote the dice as rolled; such IDs read, and are written back higher first
    low_first = id_of(key_of(MatchId(dice=(3, 1)).encode()) & ~(0b111111 << 15) | 1 << 15 | 3 << 18)
    assert MatchId.decode(low_first).dice == (3, 1)
    assert MatchId.decode(low_first).encode() != low_first


@pytest.mark.parametrize(("name", "first", "width"), LAYOUT)
def test_layout(name: str, first: int, width: int) -> None:
    """Each field sits where the table says: changing one field flips only its bits."""
    base = MatchId(cube=1, cube_owner=0, match_length=64, dice=(3, 3), jacoby=True)
    changed: dict[str, object] = {
        "cube log2": {"cube": MAX_CUBE},
        "cube owner": {"cube_owner": None},
        "player on roll": {"player_on_roll": 1, "turn": 0},
        "crawford": {"crawford": True},
        "game state": {"game_state": GameState.DROPPED},
        "turn": {"turn": 1},
        "double offered": {"double_offered": True, "turn": 0},
        "resignation": {"resignation": Resignation.BACKGAMMON, "turn": 0},
        "die 1": {"dice": (6, 3)},
        "die 2": {"dice": (3, 1)},
        "match length": {"match_length": 9},
        "score 0": {"score": (63, 0)},
        "score 1": {"score": (0, 63)},
        "not jacoby": {"jacoby": False},
    }[name]
    other = dataclasses.replace(base, **changed)
    diff = key_of(base.encode()) ^ key_of(other.encode())
    mask = ((1 << width) - 1) << first
    assert diff and diff & ~mask == 0, f"{name}: {diff:#x} outside {mask:#x}"
    assert key_of(MatchId().encode()) >> 67 == 0  # bits 67-71 stay clear


def test_field_values_in_the_key() -> None:
    m = MatchId(
        cube=8,
        cube_owner=1,
        player_on_roll=1,
        game_state=GameState.RESIGNED,
        turn=0,
        resignation=Resignation.BACKGAMMON,
        dice=(4, 6),
        match_length=21,
        score=(20, 13),
        jacoby=False,
    )
    key = key_of(m.encode())
    expected = {
        "cube log2": 3,
        "cube owner": 1,
        "player on roll": 1,
        "crawford": 0,
        "game state": 3,
        "turn": 0,
        "double offered": 0,
        "resignation": 3,
        "die 1": 6,
        "die 2": 4,
        "match length": 21,
        "score 0": 20,
        "score 1": 13,
        "not jacoby": 1,
    }
    assert {name: field(key, name) for name in expected} == expected
    assert field(key_of(MatchId().encode()), "cube owner") == 3  # centred


@given(match_ids())
def test_round_trip(match: MatchId) -> None:
    text = match.encode()
    assert len(text) == 12
    assert MatchId.decode(text) == match
    assert MatchId.decode(f"  {text}\n").encode() == text


@given(match_ids())
def test_repr_and_replace(match: MatchId) -> None:
    names = {"MatchId": MatchId, "GameState": GameState, "Resignation": Resignation}
    assert eval(repr(match), names) == match
    assert dataclasses.replace(match) == match
    assert pickle.loads(pickle.dumps(match)) == match
    assert hash(MatchId.decode(match.encode())) == hash(match)


@given(st.integers(0, 2**72 - 1))
@example(0)
@example(2**72 - 1)
def test_any_key_is_read_or_refused(key: int) -> None:
    """Every 12-character ID is read or refused with InvalidMatchIdError, never anything else.

    An ID that is read comes back the same, except for bits 67-71 (ignored)
    and dice stored lower first (written higher first).
    """
    text = id_of(key)
    try:
        m = MatchId.decode(text)
    except InvalidMatchIdError:
        return
    canonical = key & ((1 << 67) - 1)
    d1, d2 = field(key, "die 1"), field(key, "die 2")
    if d1 < d2:
        canonical = canonical & ~(0b111111 << 15) | d2 << 15 | d1 << 18
    assert m.encode() == id_of(canonical)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "12 characters"),
        ("cAkAAAAAAAA", "12 characters"),  # 11
        ("cAkAAAAAAAAAA", "12 characters"),  # 13
        ("cAkAAAAAAA=A", "12 characters"),  # padding is not base64 data here
        ("cAkAAAAA AAA", "12 characters"),
        ("cAkAAAAAAAA!", "12 characters"),
        ("cAkAAAAA-_AA", "12 characters"),  # the URL-safe alphabet is not gnubg's
        ("4HPwATDgc/ABMA", "12 characters"),  # a Position ID
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "12 characters"),  # a gnubg ID
        (id_of(0b10 << 4 | 1 << 8), "cube owner bits 2"),
        (id_of(0b11 << 4 | 5 << 8), "game state 5"),
        (id_of(0b11 << 4 | 7 << 8), "game state 7"),
        (id_of(0b11 << 4 | 1 << 8 | 7 << 15 | 1 << 18), "dice 7 and 1"),
        (id_of(0b11 << 4 | 1 << 8 | 6 << 15 | 7 << 18), "dice 6 and 7"),
        (id_of(0b11 << 4 | 1 << 8 | 3 << 15), "dice 3 and 0"),
        (id_of(0b11 << 4 | 1 << 8 | 3 << 18), "dice 0 and 3"),
        (id_of(0b11 << 4 | 1 << 8 | 65 << 21), "match length 65"),
        (id_of(0b11 << 4 | 1 << 8 | 32767 << 21), "match length 32767"),
        (id_of(0b11 << 4 | 1 << 8 | 1 << 7), "no Crawford game"),  # Crawford in money play
        (id_of(0b11 << 4 | 1 << 8 | 7 << 21 | 8 << 36), "score 8 is outside 0-6"),
        (id_of(0b11 << 4 | 1 << 8 | 7 << 21 | 9 << 51), "score 9 is outside 0-6"),
        (id_of(0b11 << 4 | 1 << 8 | 7 << 21 | 7 << 36), "finished game"),  # 7-0 while playing
        (id_of(0b11 << 4 | 2 << 8 | 7 << 21 | 7 << 36 | 7 << 51), "finished game"),  # 7-7
    ],
)
def test_bad_match_ids(bad: str, message: str) -> None:
    with pytest.raises(InvalidMatchIdError, match=message):
        MatchId.decode(bad)


def test_match_ids_that_gnubg_writes_at_the_end_of_a_match() -> None:
    # gnubg adds a finished game's points to the score: 7-3 in a 7-point match, game over
    m = MatchId(game_state=GameState.OVER, match_length=7, score=(7, 3))
    assert MatchId.decode(m.encode()) == m
    assert MatchId(game_state=GameState.DROPPED, match_length=5, score=(0, 5)).score == (0, 5)
    for text, match in FINAL_IDS:
        assert MatchId.decode(text) == match and match.encode() == text


@pytest.mark.parametrize("length", [1, 3, 7, 64])
@pytest.mark.parametrize("cube", [1, 4, MAX_CUBE])
@pytest.mark.parametrize(
    ("state", "resignation", "times"),
    [
        (GameState.OVER, Resignation.NONE, 3),  # borne off: a backgammon at most
        (GameState.DROPPED, Resignation.NONE, 1),  # the cube before the double
        (GameState.RESIGNED, Resignation.SINGLE, 1),
        (GameState.RESIGNED, Resignation.GAMMON, 2),
        (GameState.RESIGNED, Resignation.BACKGAMMON, 3),
    ],
)
def test_the_exact_bounds_of_a_finished_games_score(
    length: int, cube: int, state: GameState, resignation: Resignation, times: int
) -> None:
    """The winner had at most length - 1 and won at most ``times`` the cube;
    the loser stays below the length; the field holds 15 bits."""
    top = min(length - 1 + times * cube, 2**15 - 1)
    fields = dict(game_state=state, resignation=resignation, cube=cube, match_length=length)
    for winner in (0, 1):
        score = [length - 1, length - 1]
        score[winner] = top
        m = MatchId(**fields, score=tuple(score))  # type: ignore[arg-type]
        assert MatchId.decode(m.encode()) == m
        if top < 2**15 - 1:
            score[winner] = top + 1
            with pytest.raises(InvalidMatchIdError, match=f"score {top + 1} is outside 0-{top}"):
                MatchId(**fields, score=tuple(score))  # type: ignore[arg-type]
        score[1 - winner] = length  # both at the length
        with pytest.raises(InvalidMatchIdError, match="only the winner"):
            MatchId(**fields, score=(length, length))  # type: ignore[arg-type]
    with pytest.raises(InvalidMatchIdError, match="only the winner of a finished game reaches it"):
        MatchId(game_state=GameState.PLAYING, match_length=length, score=(length, 0))


def test_unused_bits_are_ignored() -> None:
    key = key_of("cAkAAAAAAAAA") | 0b11111 << 67
    assert id_of(key) == "cAkAAAAAAAD4"
    assert MatchId.decode("cAkAAAAAAAD4") == MatchId.decode("cAkAAAAAAAAA")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube": 0},
        {"cube": 3},
        {"cube": 2**16},
        {"cube": -2},
        {"cube_owner": 2},
        {"cube_owner": -1},
        {"player_on_roll": 2},
        {"turn": -1},
        {"crawford": 2},
        {"game_state": 5},
        {"game_state": -1},
        {"resignation": 4},
        {"dice": (0, 0)},
        {"dice": (7, 1)},
        {"dice": (1, 0)},
        {"match_length": -1},
        {"match_length": MAX_MATCH_LENGTH + 1},
        {"score": (-1, 0)},
        {"score": (0, 2**15)},
        {"crawford": True},  # money play
        {"match_length": 5, "score": (5, 0)},  # the game is still on
        {"match_length": 5, "score": (8, 0), "game_state": GameState.OVER},  # 4 + 3 at most
        {"match_length": 5, "score": (0, 7), "game_state": GameState.RESIGNED, "resignation": 2},  # 4 + 2
        {"match_length": 5, "score": (0, 10), "game_state": GameState.DROPPED, "cube": 4},  # 4 + 4
        {"match_length": 5, "score": (5, 5), "game_state": GameState.OVER},
        {"jacoby": 3},
    ],
)
def test_bad_fields(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidMatchIdError):
        MatchId(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube": "2"},
        {"cube": 2.0},
        {"player_on_roll": None},
        {"dice": "52"},
        {"dice": (5,)},
        {"dice": (5, 2, 1)},
        {"dice": 52},
        {"score": (1.0, 2)},
        {"score": 3},
        {"game_state": "PLAYING"},
    ],
)
def test_wrong_types(kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        MatchId(**kwargs)  # type: ignore[arg-type]


def test_positional_arguments_are_refused() -> None:
    with pytest.raises(TypeError):
        MatchId(2)  # type: ignore[misc]


def test_frozen() -> None:
    m = MatchId()
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.cube = 2  # type: ignore[misc]


@pytest.mark.parametrize("value", [None, 42, b"cAkAAAAAAAAA", ["cAkAAAAAAAAA"]])
def test_decode_rejects_wrong_types(value: object) -> None:
    with pytest.raises(TypeError):
        MatchId.decode(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_gnubg_id(value)  # type: ignore[arg-type]


@given(st.text(max_size=30))
@example("cAkAAAAAAAAA")
def test_fuzz_text(text: str) -> None:
    try:
        m = MatchId.decode(text)
    except InvalidMatchIdError:
        return
    assert MatchId.decode(m.encode()) == m


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=12, max_size=12))
def test_fuzz_base64(text: str) -> None:
    try:
        m = MatchId.decode(text)
    except InvalidMatchIdError:
        return
    assert MatchId.decode(m.encode()) == m


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidMatchIdError, ValueError)
    assert bgcore.InvalidMatchIdError is InvalidMatchIdError


# --- gnubg IDs --------------------------------------------------------------------------------------------------------


def test_gnubg_id_format_and_parse() -> None:
    m = MatchId.decode("cAkAAAAAAAAA")
    assert gnubg_id(START, m) == "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    assert gnubg_id(START, "cAkAAAAAAAAA") == "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    assert gnubg_id(f" {START} ", " cAkAAAAAAAAA\n") == "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    board, match = parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert board == bgcore.Position.initial().board
    assert match == m
    # gnubg takes the parts in either order
    assert parse_gnubg_id(" cAkAAAAAAAAA:4HPwATDgc/ABMA ") == (board, m)


@given(match_ids())
def test_gnubg_id_round_trip(match: MatchId) -> None:
    text = gnubg_id(START, match)
    assert len(text) == 27 and text[14] == ":"
    assert parse_gnubg_id(text) == (bgcore.Position.initial().board, match)


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ("", InvalidPositionError),
        ("4HPwATDgc/ABMA", InvalidPositionError),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA:", InvalidPositionError),
        ("4HPwATDgc/ABMA::cAkAAAAAAAAA", InvalidPositionError),
        ("4HPwATDgc/ABMA;cAkAAAAAAAAA", InvalidPositionError),
        ("4HPwATDgc/ABM:cAkAAAAAAAAA", InvalidPositionError),
        ("//////////////:cAkAAAAAAAAA", InvalidPositionError),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", InvalidMatchIdError),
        ("4HPwATDgc/ABMA:MIEHAAAAAAAA", InvalidMatchIdError),  # a die of 7
        ("4HPwATDgc/ABMA:4HPwATDgc/ABMA", InvalidMatchIdError),
        ("cAkAAAAAAAAA:cAkAAAAAAAAA", InvalidPositionError),
    ],
)
def test_bad_gnubg_ids(bad: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        parse_gnubg_id(bad)


def test_gnubg_id_checks_both_parts() -> None:
    with pytest.raises(InvalidPositionError):
        gnubg_id("4HPwATDgc/ABM", MatchId())
    with pytest.raises(InvalidMatchIdError):
        gnubg_id(START, "MIEHAAAAAAAA")
    with pytest.raises(TypeError):
        gnubg_id(None, MatchId())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("MatchId(cube=2**(10**6))", "not an integer of 1000001 bits"),
        ("MatchId(score=(2**(10**6), 0))", "a money score an integer of 1000001 bits is outside 0-32767"),
        ("MatchId(match_length=7, score=(0, 10**5000))", "score an integer of 16610 bits is outside 0-6"),
        ("MatchId(match_length=-(10**5000))", "match_length an integer of 16610 bits is outside 0-64"),
    ],
)
def test_huge_integers_are_refused_at_once(call: str, message: str) -> None:
    """Python will not print an integer of more than 4300 digits: the message gives its size."""
    refused_quickly(call, "InvalidMatchIdError", message)
