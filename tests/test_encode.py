"""bgcore.encode against plain-Python definitions: TD-Gammon's 198 inputs,
Tesauro's pubeval (its setx and dot product), the race policy's score and the
race test, on hypothesis boards and fixed examples; errors."""

from __future__ import annotations

import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import nn_reference
from bgcore import InvalidPositionError, Position, _encode, batch, encode
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions
from strategies import home_boards, positions, random_boards, rolls

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "bgcore" / "_csrc" / "bg_eval.h"

# pubeval's weights, WT.race (WR) and WT.cntc (WC), copied here from OpenBSD's
# src/games/backgammon/common_source/pubeval.c ("Public domain, Gerry
# Tesauro."): a copy independent of GNU Backgammon's pub_eval.c, which
# bg_eval.h quotes.  test_header_weights checks that the two agree; the
# reference pubeval below uses these.
# fmt: off
WR = [
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
]
WC = [
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
]
# fmt: on

ALL_OFF = 99999999.0


# --- plain-Python definitions ---------------------------------------------


def on_board(b) -> int:
    """The mover's checkers on the board, bar included."""
    return sum(v for v in b[1:26] if v > 0)


def ref_is_race(b) -> bool:
    mover = [p for p in range(1, 26) if b[p] > 0]
    opponent = [q for q in range(0, 25) if b[q] < 0]
    return not mover or not opponent or max(mover) < min(opponent)


def ref_setx(b, checkers: int) -> list[float]:
    """Tesauro's setx, on his pos[]: our board with pos[26] = the mover's men off."""
    pos = [*list(b), checkers - on_board(b)]
    x = [0.0] * 122
    for j in range(1, 25):
        jm1 = j - 1
        n = pos[25 - j]
        if n != 0:
            if n == -1:
                x[5 * jm1 + 0] = 1.0
            if n == 1:
                x[5 * jm1 + 1] = 1.0
            if n >= 2:
                x[5 * jm1 + 2] = 1.0
            if n == 3:
                x[5 * jm1 + 3] = 1.0
            if n >= 4:
                x[5 * jm1 + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    return x


def ref_pubeval(b, race: bool, checkers: int = 15) -> float:
    if checkers - on_board(b) == checkers:
        return ALL_OFF
    w = WR if race else WC
    return sum(wi * xi for wi, xi in zip(w, ref_setx(b, checkers), strict=True))


def ref_race_score(b, checkers: int = 15) -> float:
    mine = {p: b[p] for p in range(1, 26) if b[p] > 0}
    top = max(mine, default=0)
    off = checkers - sum(mine.values())
    pips = -sum(n * p for p, n in mine.items())
    deep = sum(mine.get(p, 0) * (6 - p) for p in range(1, 7))
    gaps = sum(1 for p in range(1, 7) if p < top and p not in mine)
    blots = sum(1 for p in range(1, 25) if mine.get(p) == 1)
    contact = not ref_is_race(b)
    return pips + 4 * off - deep / 2 - 1.5 * gaps - (2 * blots if contact else 0)


def units(n: int) -> list[float]:
    return [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 2 if n > 3 else 0.0]


def ref_tesauro198(b, checkers: int = 15, opponent_on_roll: bool = False) -> list[float]:
    mover = [u for p in range(1, 25) for u in units(max(b[p], 0))]
    opponent = [u for q in range(1, 25) for u in units(max(-b[25 - q], 0))]
    theirs = sum(-v for v in b[0:25] if v < 0)
    return [
        *mover,
        *opponent,
        b[25] / 2,
        -b[0] / 2,
        (checkers - on_board(b)) / 15,
        (checkers - theirs) / 15,
        0.0 if opponent_on_roll else 1.0,
        1.0 if opponent_on_roll else 0.0,
    ]


# pubeval sums in float32 (and the tables in another order than the plain
# dot product): they agree to a few float32 ulps (3e-6 at most on 30,000
# random boards of scores up to 20).
SCORE_TOL = {"rtol": 1e-6, "atol": 2e-5}


# --- hypothesis boards --------------------------------------------------------

standard_boards = st.one_of(positions.map(lambda p: tuple(p.board)), random_boards(), home_boards())
batches = st.lists(standard_boards, min_size=1, max_size=24)
hyper_batches = st.lists(random_boards(max_checkers=3), min_size=1, max_size=24)


def as_array(boards: list[tuple[int, ...]]) -> np.ndarray:
    return np.array(boards, dtype=np.int8)


def as_float32(rows: list[list[float]]) -> list[list[float]]:
    """The values rounded to float32 (n / 15 is not a float32), as Python floats."""
    return np.array(rows, dtype=np.float32).tolist()


@given(batches)
def test_tesauro198_matches_definition(boards) -> None:
    got = encode.tesauro198(as_array(boards))
    assert got.dtype == np.float32 and got.shape == (len(boards), 198)
    assert got.tolist() == as_float32([ref_tesauro198(b) for b in boards])
    turned = encode.tesauro198(as_array(boards), opponent_on_roll=True)
    assert turned.tolist() == as_float32([ref_tesauro198(b, opponent_on_roll=True) for b in boards])


@given(hyper_batches)
def test_tesauro198_with_three_checkers(boards) -> None:
    got = encode.tesauro198(as_array(boards), checkers=3)
    assert got.tolist() == as_float32([ref_tesauro198(b, checkers=3) for b in boards])


@given(positions)
def test_tesauro198_second_half_is_the_flipped_first_half(pos: Position) -> None:
    x = encode.tesauro198(pos.to_array(), checkers=pos.checkers)
    y = encode.tesauro198(pos.flip().to_array(), checkers=pos.checkers)
    assert (x[96:192] == y[:96]).all() and (x[:96] == y[96:192]).all()
    assert x[[193, 192, 195, 194]].tolist() == y[192:196].tolist()


@given(batches)
def test_is_race_matches_definition(boards) -> None:
    assert encode.is_race(as_array(boards)).tolist() == [ref_is_race(b) for b in boards]


@given(batches)
def test_pubeval_matches_definition(boards) -> None:
    arr = as_array(boards)
    races = [ref_is_race(b) for b in boards]
    expected = np.array([ref_pubeval(b, r) for b, r in zip(boards, races, strict=True)])
    got = encode.pubeval(arr)
    assert got.dtype == np.float32 and got.shape == (len(boards),)
    np.testing.assert_allclose(got, expected, **SCORE_TOL)
    # Tesauro's term-by-term float dot product, in C: the tables' reference.
    np.testing.assert_allclose(_encode.pubeval_scores(arr, plain=True), expected, **SCORE_TOL)
    for race in (False, True):
        np.testing.assert_allclose(encode.pubeval(arr, race=race), [ref_pubeval(b, race) for b in boards], **SCORE_TOL)
    flags = [i % 2 == 0 for i in range(len(boards))]
    expected = [ref_pubeval(b, r) for b, r in zip(boards, flags, strict=True)]
    np.testing.assert_allclose(encode.pubeval(arr, race=flags), expected, **SCORE_TOL)


@given(hyper_batches)
def test_pubeval_with_three_checkers(boards) -> None:
    expected = [ref_pubeval(b, ref_is_race(b), checkers=3) for b in boards]
    np.testing.assert_allclose(encode.pubeval(as_array(boards), checkers=3), expected, **SCORE_TOL)


@given(batches)
def test_race_score_matches_definition(boards) -> None:
    got = encode.race_score(as_array(boards))
    assert got.dtype == np.float32
    assert got.tolist() == [ref_race_score(b) for b in boards]  # exact: halves of integers


@given(hyper_batches)
def test_race_score_with_three_checkers(boards) -> None:
    assert encode.race_score(as_array(boards), checkers=3).tolist() == [ref_race_score(b, 3) for b in boards]


# --- the policies' choices ------------------------------------------------------


def choice(policy, board, roll) -> tuple[np.ndarray, int]:
    """The results of ``roll`` on ``board`` (mover's view) and the index of the best."""
    children, _ = batch.generate(np.asarray(board, dtype=np.int8)[None], [roll])
    return children, int(np.argmax(policy(children)))


def best_move(policy, pos: Position, roll) -> str:
    """The policy's move: the one whose result (seen from the mover) scores highest."""
    moves = pos.legal_moves(roll)
    results = np.stack([pos.play(m).flip().to_array() for m in moves])
    return str(moves[int(np.argmax(policy(results)))])


@given(home_boards(), rolls)
def test_race_policy_bears_off_as_many_as_it_can(board, roll) -> None:
    assume(ref_is_race(board))
    children, best = choice(encode.race_score, board, roll)
    left = np.clip(children, 0, None).sum(axis=1)
    assert left[best] == left.min()


def test_race_policy_fills_the_gaps() -> None:
    board = [0] * 26
    board[8], board[6], board[4], board[3] = 2, 5, 4, 4  # gaps on the 5, 2 and 1 points
    board[20] = -15
    assert best_move(encode.race_score, Position(board), (3, 1)) == "8/5 3/2"  # two gaps filled
    children, best = choice(encode.race_score, board, (3, 1))
    assert children[best][1:10].tolist() == [0, 1, 3, 4, 1, 5, 0, 1, 0]
    assert sorted(encode.race_score(children))[-2] < encode.race_score(children[best])  # no tie


def test_pubeval_opening_three_one_makes_the_five_point() -> None:
    assert best_move(encode.pubeval, Position.initial(), (3, 1)) == "8/5 6/5"


@pytest.mark.parametrize("roll", ROLLS)
def test_pubeval_takes_the_last_checker_off(roll) -> None:
    board = [0] * 26
    board[1] = 1
    board[24] = -3
    children, best = choice(encode.pubeval, board, roll)
    assert on_board(children[best]) == 0
    assert encode.pubeval(children[best]) == np.float32(ALL_OFF)


# --- fixed examples --------------------------------------------------------------


def test_initial_position() -> None:
    start = Position.initial().to_array()
    assert not encode.is_race(start)
    # WC's dot product with the inputs of the start: 6.84055 (the reference, by hand:
    # the 6-, 8-, 13- and 24-point units and nothing else).
    assert encode.pubeval(start) == pytest.approx(ref_pubeval(start, False), abs=1e-4)
    assert encode.pubeval(start) == pytest.approx(6.84055, abs=1e-4)
    assert encode.race_score(start) == -174.5  # 167 pips, five empty home points
    x = encode.tesauro198(start)
    expected_mover = np.zeros(96)
    for p, n in ((6, 5), (8, 3), (13, 5), (24, 2)):
        expected_mover[4 * (p - 1) : 4 * p] = units(n)
    assert x[:96].tolist() == expected_mover.tolist() == x[96:192].tolist()
    assert x[192:].tolist() == [0, 0, 0, 0, 1, 0]


def test_all_off_and_bear_off_examples() -> None:
    done = [0] * 26
    done[20] = -15
    assert encode.pubeval(done) == np.float32(ALL_OFF)
    assert encode.pubeval(done, race=False) == np.float32(ALL_OFF)
    assert encode.race_score(done) == 4 * 15
    assert encode.tesauro198(done)[192:].tolist() == [0, 0, 1, 0, 1, 0]
    bear = [0] * 26
    bear[1], bear[2], bear[0] = 2, 1, -1  # two off-rolls left; an opponent checker on the bar
    x = encode.tesauro198(bear)
    assert x[192:196].tolist() == pytest.approx([0, 0.5, 12 / 15, 14 / 15])
    assert not encode.is_race(bear)  # the opponent's bar is point 0: they must come in past us
    assert encode.pubeval(bear) == pytest.approx(ref_pubeval(bear, False), abs=1e-5)
    # Contact weights: point p is block 24 - p (WC[5 * (24 - p):][:5]): two
    # on point 1 -> WC[117], one on point 2 -> WC[111]; one on the
    # opponent's bar: WC[120] / 2; 12 off: WC[121] * 12 / 15.
    by_hand = WC[117] + WC[111] + WC[120] / 2 + WC[121] * 12 / 15
    assert encode.pubeval(bear) == pytest.approx(by_hand, abs=1e-5)
    assert encode.pubeval(bear, race=True) == pytest.approx(WR[117] + WR[111] + WR[121] * 12 / 15, abs=1e-5)
    assert encode.race_score(bear) == -4 + 4 * 12 - (2 * 5 + 4) / 2 - 2  # one blot


def test_contact_rules() -> None:
    b = [0] * 26
    b[3], b[4] = 1, -1
    assert encode.is_race(b)  # ours on 3, theirs on 4: they have passed each other
    b[5] = 1
    assert not encode.is_race(b)
    only_bar = [0] * 26
    only_bar[25] = 1
    assert encode.is_race(only_bar)  # nobody to meet
    only_bar[24] = -1
    assert not encode.is_race(only_bar)


# --- the C header and its tables ----------------------------------------------------


def header_weights(name: str) -> list[Decimal]:
    match = re.search(rf"{name}\[122\] = \{{(.*?)\}};", HEADER.read_text(), re.S)
    assert match is not None
    return [Decimal(s) for s in re.findall(r"-?\d*\.\d+(?=f)", match.group(1))]


def test_header_weights() -> None:
    assert header_weights("bg_pubeval_wr") == [Decimal(str(w)) for w in WR]
    assert header_weights("bg_pubeval_wc") == [Decimal(str(w)) for w in WC]


def test_generated_tables_are_up_to_date() -> None:
    script = ROOT / "tools" / "gen_pubeval_tables.py"
    run = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


# --- shapes, conversions and errors ---------------------------------------------------


def test_shapes_and_conversions() -> None:
    start = Position.initial().to_array()
    assert encode.tesauro198(start).shape == (198,)
    assert encode.pubeval(start).shape == encode.race_score(start).shape == encode.is_race(start).shape == ()
    assert encode.tesauro198(np.zeros((0, 26), np.int8)).shape == (0, 198)
    assert encode.pubeval(np.zeros((0, 26), np.int8), race=[]).shape == (0,)
    stacked = np.stack([start, start])
    expected = encode.pubeval(stacked)
    for same in (stacked.astype(np.int64), stacked.astype(np.float64), stacked.tolist(), np.asfortranarray(stacked)):
        assert encode.pubeval(same).tolist() == expected.tolist()
    wide = np.zeros((2, 40), np.int8)
    wide[:, :26] = stacked
    assert encode.race_score(wide[:, :26]).tolist() == encode.race_score(stacked).tolist()


def test_invalid_boards_are_named() -> None:
    boards = np.stack([Position.initial().to_array()] * 3)
    boards[1, 25] = 3  # 18 checkers
    for f in (encode.tesauro198, encode.pubeval, encode.race_score, encode.is_race):
        with pytest.raises(InvalidPositionError, match="row 1: the player on roll has 18 checkers"):
            f(boards)
    with pytest.raises(InvalidPositionError, match="row 0: slot 25 is the on-roll player's bar"):
        encode.pubeval([[0] * 25 + [-1]])
    wide = boards.astype(np.int64)
    wide[1, 25] = 0
    wide[2, 6] = 300
    with pytest.raises(InvalidPositionError, match="row 2: slot 6 holds 300 checkers"):
        encode.pubeval(wide)
    wide[2, 6] = 5
    wide[1, 3] = 1  # 16 checkers, before the row of 300
    wide[2, 7] = -1000
    with pytest.raises(InvalidPositionError, match="row 1: the player on roll has 16"):
        encode.pubeval(wide)
    halves = boards[:1].astype(np.float64)
    halves[0, 4] = 0.5
    with pytest.raises(InvalidPositionError, match=r"row 0: slot 4 holds 0\.5, not a whole number"):
        encode.tesauro198(halves)
    three = [0] * 26
    three[6] = 4
    with pytest.raises(
        InvalidPositionError, match="row 0: the player on roll has 4 checkers on the board, more than 3"
    ):
        encode.race_score(three, checkers=3)


@pytest.mark.parametrize("shape", [(25,), (3, 25), (2, 2, 26), ()])
def test_wrong_shapes(shape) -> None:
    with pytest.raises(InvalidPositionError, match="shape"):
        encode.pubeval(np.zeros(shape, np.int8))


def test_wrong_arguments() -> None:
    start = Position.initial().to_array()
    for checkers in (0, 16, -1):
        with pytest.raises(InvalidPositionError, match="checkers per side must be 1-15"):
            encode.tesauro198(start, checkers=checkers)
    with pytest.raises(TypeError, match="integers"):
        encode.pubeval(np.array([["x"] * 26]))
    with pytest.raises(TypeError, match="integers"):
        encode.pubeval(np.zeros(26, bool))
    with pytest.raises(ValueError, match="one flag per board"):
        encode.pubeval(np.stack([start] * 3), race=[True, False])
    with pytest.raises(TypeError, match="race"):
        encode.pubeval(start, race=0.5)
    with pytest.raises(InvalidPositionError, match=r"shape \(n, 26\)"):
        _encode.pubeval_scores(np.zeros((1, 25), np.int8))


# --- wildbg's inputs ------------------------------------------------------------------


def test_wildbg_published_vectors() -> None:
    """wildbg's own test vectors (crates/engine/src/inputs.rs, re-typed in nn_reference)."""
    for f, board, vector in (
        (encode.wildbg_contact, nn_reference.WILDBG_CONTACT_BOARD, nn_reference.WILDBG_CONTACT_VECTOR),
        (encode.wildbg_contact, nn_reference.WILDBG_CONTACT_SWITCHED, nn_reference.WILDBG_CONTACT_SWITCHED_VECTOR),
        (encode.wildbg_race, nn_reference.WILDBG_RACE_BOARD, nn_reference.WILDBG_RACE_VECTOR),
        (encode.wildbg_race, nn_reference.WILDBG_RACE_SWITCHED, nn_reference.WILDBG_RACE_SWITCHED_VECTOR),
    ):
        assert f(board).tolist() == nn_reference.parse(vector)
    # the switched boards are the flips of the others
    assert Position(nn_reference.WILDBG_CONTACT_BOARD).flip().board == tuple(nn_reference.WILDBG_CONTACT_SWITCHED)
    assert Position(nn_reference.WILDBG_RACE_BOARD).flip().board == tuple(nn_reference.WILDBG_RACE_SWITCHED)


def test_wildbg_inputs_match_the_reference_on_selfplay_positions() -> None:
    """Thousands of positions met in random and heuristic self-play."""
    boards = [p.board for p in selfplay_positions(3000, seed=7)]
    boards += [p.board for p in selfplay_positions(2000, seed=8, policy="heuristic")]
    arr = as_array(boards)
    assert encode.wildbg_contact(arr).tolist() == [nn_reference.wildbg_contact(b) for b in boards]
    assert encode.wildbg_race(arr).tolist() == [nn_reference.wildbg_race(b) for b in boards]
    assert encode.is_race(arr).tolist() == [not nn_reference.is_contact(b) for b in boards]


@given(batches)
def test_wildbg_inputs_match_the_reference(boards) -> None:
    arr = as_array(boards)
    assert encode.wildbg_contact(arr).tolist() == [nn_reference.wildbg_contact(b) for b in boards]
    assert encode.wildbg_race(arr).tolist() == [nn_reference.wildbg_race(b) for b in boards]


@given(hyper_batches)
def test_wildbg_inputs_with_three_checkers(boards) -> None:
    arr = as_array(boards)
    assert encode.wildbg_contact(arr, checkers=3).tolist() == [nn_reference.wildbg_contact(b, 3) for b in boards]
    assert encode.wildbg_race(arr, checkers=3).tolist() == [nn_reference.wildbg_race(b, 3) for b in boards]


def test_wildbg_shapes_and_errors() -> None:
    start = Position.initial().to_array()
    assert encode.wildbg_contact(start).shape == (202,) and encode.wildbg_race(start).shape == (186,)
    assert encode.wildbg_contact(np.zeros((0, 26), np.int8)).shape == (0, 202)
    assert encode.wildbg_race(np.stack([start] * 3)).shape == (3, 186)
    bad = np.stack([start] * 2)
    bad[1, 25] = 3
    for f in (encode.wildbg_contact, encode.wildbg_race):
        with pytest.raises(InvalidPositionError, match="row 1: the player on roll has 18 checkers"):
            f(bad)
        with pytest.raises(InvalidPositionError, match="checkers per side must be 1-15"):
            f(start, checkers=16)
