"""Match IDs against GNU Backgammon itself (the gnubg package).

Encoding: ``gnubg.matchid(cubeinfo, posinfo)``. ``gnubg.cubeinfo(cube value,
cube owner, player on move, match length, score, crawford, bgv)`` gives a
dict with ``cube``, ``cubeowner`` (-1 when centred), ``move`` (the player on
roll, gnubg's fMove), ``matchto``, ``score``, ``crawford`` and ``jacoby``;
``gnubg.posinfo(player on roll, resigned, doubled, gamestate, dice)`` gives
``turn`` (the player to act, fTurn), ``resigned``, ``doubled``,
``gamestate`` and ``dice`` ((0, 0) before the roll). ``gnubg.cubeinfo``
zeroes the score in money play, refuses a score at the match length and sets
``jacoby`` from gnubg's own rules (on for money, off in a match); gnubg reads
the dicts back as they are, so those two entries are overwritten with the
values under test.

Decoding: gnubg's C ``MatchFromID``, which its extension module exports,
through ctypes; and ``gnubg.setgnubgid`` / ``gnubg.gnubgid`` for states gnubg
can load into a game.
"""

from __future__ import annotations

import base64
import ctypes
import importlib
import random
from typing import Any

import pytest
from hypothesis import given, settings

import oracle
from bgcore.errors import InvalidMatchIdError
from bgcore.ids import (
    GameState,
    MatchId,
    Resignation,
    board_to_gnubg,
    encode_position_id,
    gnubg_id,
    parse_gnubg_id,
)
from bgcore.selfplay import selfplay_positions
from strategies import random_boards
from test_matchid import FINAL_IDS, KNOWN_IDS, LAYOUT, id_of, key_of, match_ids

oracle.require()
gnubg = pytest.importorskip("gnubg")


def gnubg_dicts(m: MatchId, dice: tuple[int, int] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """gnubg's cubeinfo and posinfo dicts for ``m`` (``dice`` as rolled, if given)."""
    owner = -1 if m.cube_owner is None else m.cube_owner
    # gnubg.cubeinfo refuses a score at the match length (it has no match equity there), zeroes
    # the score in money play and sets jacoby by its own rules; with a cube far above the match
    # (256 in a 31-point match) it reads its match equity table out of bounds and may crash:
    # it gets a cube of 1 and a live score, and the dict the values under test
    playing = tuple(min(s, m.match_length - 1) for s in m.score) if m.match_length else m.score
    ci = dict(gnubg.cubeinfo(1, owner, m.player_on_roll, m.match_length, playing, int(m.crawford), 0))
    ci["cube"] = m.cube
    ci["score"] = m.score
    ci["jacoby"] = int(m.jacoby)
    rolled = dice or m.dice or (0, 0)
    pi = gnubg.posinfo(m.turn, int(m.resignation), int(m.double_offered), int(m.game_state), rolled)
    return ci, pi


def gnubg_encode(m: MatchId, dice: tuple[int, int] | None = None) -> str:
    ci, pi = gnubg_dicts(m, dice)
    result: str = gnubg.matchid(ci, pi)
    return result


_I = ctypes.c_int
_match_from_id: Any = None


def gnubg_read(text: str) -> dict[str, Any] | None:
    """gnubg's own reading of a Match ID (its C ``MatchFromID``), or None when gnubg refuses it.

    The dice come sorted higher first, as gnubg writes them back.
    """
    global _match_from_id
    if _match_from_id is None:
        module = importlib.import_module("gnubg._gnubg")
        fn = ctypes.CDLL(module.__file__).MatchFromID
        fn.argtypes = [ctypes.c_void_p] + [ctypes.POINTER(_I)] * 7 + [ctypes.c_void_p] + [ctypes.POINTER(_I)] * 3
        fn.argtypes += [ctypes.c_char_p]
        fn.restype = _I
        _match_from_id = fn
    dice = (ctypes.c_uint * 2)()
    score = (_I * 2)()
    turn, resigned, doubled, move, owner, crawford, length, cube, jacoby, state = (_I() for _ in range(10))
    pointers = (turn, resigned, doubled, move, owner, crawford, length)
    rc = _match_from_id(
        dice,
        *(ctypes.byref(p) for p in pointers),
        score,
        ctypes.byref(cube),
        ctypes.byref(jacoby),
        ctypes.byref(state),
        text.encode("ascii"),
    )
    if rc != 0:
        return None
    return {
        "cube": cube.value,
        "cube_owner": owner.value,
        "player_on_roll": move.value,
        "crawford": crawford.value,
        "game_state": state.value,
        "turn": turn.value,
        "double_offered": doubled.value,
        "resignation": resigned.value,
        "dice": (max(dice), min(dice)),
        "match_length": length.value,
        "score": (score[0], score[1]),
        "jacoby": jacoby.value,
    }


def as_gnubg_reads(m: MatchId) -> dict[str, Any]:
    """A MatchId in the terms of gnubg_read."""
    return {
        "cube": m.cube,
        "cube_owner": -1 if m.cube_owner is None else m.cube_owner,
        "player_on_roll": m.player_on_roll,
        "crawford": int(m.crawford),
        "game_state": int(m.game_state),
        "turn": m.turn,
        "double_offered": int(m.double_offered),
        "resignation": int(m.resignation),
        "dice": m.dice or (0, 0),
        "match_length": m.match_length,
        "score": m.score,
        "jacoby": int(m.jacoby),
    }


def test_dict_mapping() -> None:
    """What gnubg.cubeinfo and gnubg.posinfo put where (printed with -s)."""
    ci = gnubg.cubeinfo(2, 0, 1, 7, (2, 3), 0, 0)
    pi = gnubg.posinfo(1, 2, 0, 1, (3, 1))
    print(ci, pi, sep="\n")
    assert {k: ci[k] for k in ("cube", "cubeowner", "move", "matchto", "score", "crawford", "jacoby")} == {
        "cube": 2,
        "cubeowner": 0,
        "move": 1,
        "matchto": 7,
        "score": (2, 3),
        "crawford": 0,
        "jacoby": 0,  # no Jacoby rule in a match
    }
    assert pi == {"dice": (3, 1), "turn": 1, "resigned": 2, "doubled": 0, "gamestate": 1}
    money = gnubg.cubeinfo(1, -1, 0, 0, (5, 9), 0, 0)
    assert money["score"] == (0, 0) and money["jacoby"] == 1 and money["cubeowner"] == -1


@pytest.mark.parametrize(("text", "match"), KNOWN_IDS, ids=[t for t, _ in KNOWN_IDS])
def test_known_ids(text: str, match: MatchId) -> None:
    assert gnubg_encode(match) == text
    assert gnubg_read(text) == as_gnubg_reads(match)


@pytest.mark.parametrize(("name", "first", "width"), LAYOUT)
def test_layout(name: str, first: int, width: int) -> None:
    """Every value of every field lands in gnubg's ID at the bits the table gives."""
    base = MatchId(cube_owner=0, match_length=0, jacoby=True)  # all fields 0 in the key
    assert key_of(gnubg_encode(base)) == 1 << 8  # ... but game state 1, playing
    values: dict[str, list[tuple[dict[str, Any], int]]] = {
        "cube log2": [({"cube": 1 << n}, n) for n in range(16)],
        "cube owner": [({"cube_owner": 1}, 1), ({"cube_owner": None}, 3)],
        "player on roll": [({"player_on_roll": 1, "turn": 0}, 1)],
        "crawford": [({"crawford": True, "match_length": 1}, 1)],
        "game state": [({"game_state": s}, int(s)) for s in GameState],
        "turn": [({"turn": 1}, 1)],
        "double offered": [({"double_offered": True, "turn": 0}, 1)],
        "resignation": [({"resignation": r, "turn": 0}, int(r)) for r in Resignation],
        "die 1": [({"dice": (d, 1)}, d) for d in range(1, 7)],
        "die 2": [({"dice": (6, d)}, d) for d in range(1, 7)],
        "match length": [({"match_length": n}, n) for n in range(65)],
        "score 0": [({"score": (1 << b, 0)}, 1 << b) for b in range(15)] + [({"score": (2**15 - 1, 0)}, 2**15 - 1)],
        "score 1": [({"score": (0, 1 << b)}, 1 << b) for b in range(15)] + [({"score": (0, 2**15 - 1)}, 2**15 - 1)],
        "not jacoby": [({"jacoby": False}, 1)],
    }[name]
    for changes, expected in values:
        m = MatchId(**{**_fields(base), **changes})
        key = key_of(gnubg_encode(m))
        assert key >> first & ((1 << width) - 1) == expected, (name, changes)
        assert key_of(m.encode()) == key


def _fields(m: MatchId) -> dict[str, Any]:
    return {name: getattr(m, name) for name in m.__dataclass_fields__}


def test_gnubg_sorts_the_dice() -> None:
    m = MatchId(dice=(1, 3))
    assert gnubg_encode(m, dice=(1, 3)) == gnubg_encode(m, dice=(3, 1)) == m.encode()


def random_match(rng: random.Random) -> MatchId:
    length = rng.choice([0, 0, 0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 64, rng.randint(1, 64)])
    state = GameState(rng.choice([1, 1, 1, 0, 2, 3, 4]))
    if length:
        score = [rng.randrange(length), rng.randrange(length)]
        if state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED) and rng.random() < 0.3:
            score[rng.randrange(2)] = length
    else:
        score = [rng.choice([0, rng.randrange(20), rng.randrange(2**15)]) for _ in range(2)]
    return MatchId(
        cube=1 << rng.choice([0, 0, 1, 2, 3, rng.randrange(16)]),
        cube_owner=rng.choice([None, 0, 1]),
        player_on_roll=rng.randrange(2),
        crawford=bool(length) and rng.random() < 0.2,
        game_state=state,
        turn=rng.choice([None, 0, 1]),
        double_offered=rng.random() < 0.2,
        resignation=rng.choice([0, 0, 0, 1, 2, 3]),
        dice=rng.choice([None, (rng.randint(1, 6), rng.randint(1, 6))]),
        match_length=length,
        score=(score[0], score[1]),
        jacoby=rng.choice([None, True, False]),
    )


def test_encode_matches_gnubg_seeded() -> None:
    rng = random.Random(20240611)
    for _ in range(5000):
        m = random_match(rng)
        rolled = m.dice[::-1] if m.dice and rng.random() < 0.5 else m.dice  # gnubg gets them in either order
        assert m.encode() == gnubg_encode(m, rolled), m


@settings(max_examples=500)
@given(match_ids())
def test_encode_matches_gnubg(match: MatchId) -> None:
    assert match.encode() == gnubg_encode(match)


@settings(max_examples=500)
@given(match_ids())
def test_decode_matches_gnubg(match: MatchId) -> None:
    expected = None if _written_not_read_by_gnubg(match) else as_gnubg_reads(match)
    assert gnubg_read(match.encode()) == expected


def _stricter_than_gnubg(key: int) -> bool:
    """IDs gnubg reads but bgcore refuses: values gnubg never writes, or cannot load into a game."""
    owner, state = key >> 4 & 3, key >> 8 & 7
    d1, d2 = key >> 15 & 7, key >> 18 & 7
    length, s0, s1 = key >> 21 & 0x7FFF, key >> 36 & 0x7FFF, key >> 51 & 0x7FFF
    finished = state in (2, 3, 4)
    at_length = bool(length) and length in (s0, s1) and (not finished or s0 == s1)
    return owner == 2 or state > 4 or (d1 == 0) != (d2 == 0) or at_length


def _written_not_read_by_gnubg(match: MatchId) -> bool:
    """IDs bgcore reads but gnubg's reader refuses: the real score at the end of
    a match, past the length, which gnubg writes (and its ``MatchFromID``,
    checking every score against the length, will not read back)."""
    finished = match.game_state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
    return finished and max(match.score) > match.match_length > 0


def test_decode_random_ids_like_gnubg() -> None:
    """Random keys: refused by both, read the same by both, or refused by one of them for a stated reason."""
    rng = random.Random(7)
    counts = {"both": 0, "neither": 0, "stricter": 0, "laxer": 0}
    for i in range(20000):
        key = rng.getrandbits(72)
        if i % 2:  # a short match length and small scores, so that many keys are valid
            key &= ~(0x7FFF << 21 | 0x7FFF << 36 | 0x7FFF << 51)
            length = rng.choice([0, rng.randint(1, 70)])
            key |= length << 21 | rng.randint(0, length + 3) << 36 | rng.randint(0, length + 3) << 51
        text = id_of(key)
        theirs = gnubg_read(text)
        try:
            ours = MatchId.decode(text)
        except InvalidMatchIdError:
            if theirs is None:
                counts["neither"] += 1
            else:
                counts["stricter"] += 1
                assert _stricter_than_gnubg(key), (text, theirs)
            continue
        if theirs is None:
            counts["laxer"] += 1
            assert _written_not_read_by_gnubg(ours), text
            continue
        counts["both"] += 1
        assert theirs == as_gnubg_reads(ours), text
    print(counts)
    assert min(counts.values()) > 100


@pytest.mark.parametrize(("text", "match"), FINAL_IDS, ids=[t for t, _ in FINAL_IDS])
def test_gnubg_writes_a_finished_matchs_real_score_and_will_not_read_it(text: str, match: MatchId) -> None:
    assert gnubg_encode(match) == text
    assert gnubg_read(text) is None  # MatchFromID: every score must be within the match length


def test_gnubg_ignores_the_unused_bits() -> None:
    for text, match in KNOWN_IDS:
        spare = id_of(key_of(text) | 0b10101 << 67)
        assert gnubg_read(spare) == as_gnubg_reads(match)
        assert MatchId.decode(spare) == match


@pytest.mark.parametrize(
    ("key", "gnubg_reads"),
    [
        (0b10 << 4 | 1 << 8, {"cube_owner": -1}),  # cube owner bits 2: gnubg reads a centred cube
        (3 << 4 | 5 << 8, {"game_state": 5}),
        (3 << 4 | 1 << 8 | 3 << 18, {"dice": (3, 0)}),
        (3 << 4 | 1 << 8 | 7 << 21 | 7 << 36, {"score": (7, 0)}),  # 7-0 in a 7-point match, still playing
    ],
)
def test_ids_gnubg_reads_but_bgcore_refuses(key: int, gnubg_reads: dict[str, Any]) -> None:
    theirs = gnubg_read(id_of(key))
    assert theirs is not None and gnubg_reads.items() <= theirs.items()
    assert _stricter_than_gnubg(key)
    with pytest.raises(InvalidMatchIdError):
        MatchId.decode(id_of(key))


# --- gnubg IDs ------------------------------------------------------------------------------------------------------


@settings(max_examples=300)
@given(random_boards(), match_ids())
def test_gnubg_id_matches_gnubg(board: tuple[int, ...], match: MatchId) -> None:
    ci, pi = gnubg_dicts(match)
    theirs = gnubg.gnubgid(board_to_gnubg(board), ci, pi)
    assert gnubg_id(encode_position_id(board), match) == theirs
    assert parse_gnubg_id(theirs) == (board, match)


def loadable(rng: random.Random) -> MatchId:
    """States gnubg's setgnubgid loads as they are.

    In play, no double or resignation pending, a Crawford game only at a score
    that makes one (never in a 1-point match, nor with the cube turned), the
    cube at most gnubg's 4096, no Jacoby rule in a match.
    """
    m = random_match(rng)
    crawford = bool(m.match_length > 1 and m.match_length - 1 in m.score and rng.random() < 0.5)
    score = tuple(min(s, m.match_length - 1) for s in m.score) if m.match_length else m.score
    return MatchId(
        **{
            **_fields(m),
            "game_state": GameState.PLAYING,
            "turn": m.player_on_roll,
            "double_offered": False,
            "resignation": Resignation.NONE,
            "crawford": crawford,
            "cube": 1 if crawford else min(m.cube, 4096),
            "cube_owner": None if crawford else m.cube_owner,
            "score": score,
            "jacoby": m.jacoby if not m.match_length else False,  # gnubg may reset it in a match
        }
    )


def test_setgnubgid_round_trip() -> None:
    """gnubg loads our gnubg IDs into a game and shows them back unchanged."""
    rng = random.Random(3)
    positions = [pos.position_id() for pos in selfplay_positions(40, seed=5)]
    for _ in range(300):
        m = loadable(rng)
        text = gnubg_id(rng.choice(positions), m)
        gnubg.setgnubgid("4HPwATDgc/ABMA:cAkAAAAAAAAA")
        gnubg.setgnubgid(text)
        assert f"{gnubg.positionid()}:{gnubg.matchid()}" == text, m
        if m.match_length or m.score == (0, 0):  # gnubgid() goes through a cubeinfo: no money score
            assert gnubg.gnubgid() == text, m
        ci, pi = gnubg.cubeinfo(), gnubg.posinfo()
        assert (ci["cube"], ci["move"], ci["matchto"], ci["crawford"]) == (
            m.cube,
            m.player_on_roll,
            m.match_length,
            int(m.crawford),
        )
        assert pi["turn"] == m.turn and pi["dice"] == (m.dice or (0, 0))
        if m.match_length:
            assert ci["score"] == m.score


def test_setgnubgid_reads_base64_either_way_round() -> None:
    """gnubg takes a gnubg ID's parts in either order, as parse_gnubg_id does."""
    gnubg.setgnubgid("4HPwATDgc/ABMA:MAEAAAAAAAAA")
    gnubg.setgnubgid("cIkKAAAAAAAA:4HPwATDgc/ABMA")
    assert gnubg.gnubgid() == "4HPwATDgc/ABMA:cIkKAAAAAAAA"
    assert parse_gnubg_id("cIkKAAAAAAAA:4HPwATDgc/ABMA") == parse_gnubg_id(gnubg.gnubgid())


def test_base64_of_the_key() -> None:
    """The Match ID is standard base64 of the 9-byte key, least significant byte first."""
    for text, _ in KNOWN_IDS:
        assert base64.b64encode(key_of(text).to_bytes(9, "little")).decode() == text
