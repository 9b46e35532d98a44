"""The fast acey-deucey generator against the slow reference of ``acey_reference``.

For random positions (seeded) and every one of the 21 rolls, the distinct
outcomes (board after the move, whether the mover rolls again) listed by
:meth:`AceyDeuceyPosition.legal_moves` must be exactly the reference's, each
listed once.  Cheaper invariants (checkers conserved, hits to the bar, no bear
-off before all are home, steps that replay to the board they claim) are
checked on every move as well.

1-2 can have tens of thousands of outcomes, which the pure-Python reference
takes a while to list, so the default run checks it on fewer positions than
the other rolls; the slow sweep (``-m slow`` selects it alone) checks more,
other positions.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import acey_reference as ref
from bgcore.acey import AceyDeuceyMoves, AceyDeuceyPosition, perft

SEED = 20240521

#: Under .ci/sanitize.sh every Python allocation goes through the sanitizer's
#: malloc (PYTHONMALLOC=malloc), which makes the pure-Python reference many
#: times slower: there the sweeps take a tenth of the positions, and the C
#: generator still meets every roll of each.
SCALE = 10 if "ASAN_OPTIONS" in os.environ or "TSAN_OPTIONS" in os.environ else 1
#: The default sweep: positions for each roll but 1-2, and for 1-2.
POSITIONS = 2000 // SCALE
POSITIONS_12 = 80 // SCALE
#: The slow sweep (other seeds, so it checks new positions).
SLOW_POSITIONS = 5000 // SCALE
SLOW_POSITIONS_12 = 240 // SCALE
#: Random positions whose variety is checked (built only, at any scale).
COVERAGE = 2000

OTHER_ROLLS = [roll for roll in ref.ROLLS if roll != (2, 1)]

_cache: dict[tuple[int, int], list[list[int]]] = {}


def positions(seed: int, n: int) -> list[list[int]]:
    """The ``n`` random positions of ``seed`` (built once per run)."""
    if (seed, n) not in _cache:
        _cache[(seed, n)] = ref.random_positions(seed, n)
    return _cache[(seed, n)]


def fast_outcomes(moves: AceyDeuceyMoves) -> list[ref.Outcome]:
    """The fast generator's outcomes, in its order (duplicates kept)."""
    boards = moves.boards()
    assert boards.dtype == np.int8 and boards.shape == (len(moves), 28)
    again = moves.again()
    assert again.dtype == np.bool_ and again.shape == (len(moves),)
    return [(tuple(b), bool(a)) for b, a in zip(boards.tolist(), again.tolist(), strict=True)]


def describe(board: Sequence[int], roll: tuple[int, int], fast: list[ref.Outcome], slow: set[ref.Outcome]) -> str:
    """A reproduction of a disagreement, for the failure message."""
    extra = sorted(set(fast) - slow)[:3]
    missing = sorted(slow - set(fast))[:3]
    return (
        f"AceyDeuceyPosition.from_array({list(board)}).legal_moves({roll}): "
        f"{len(fast)} listed ({len(set(fast))} distinct), the reference has {len(slow)}; "
        f"listed but not in the reference: {extra}; in the reference but not listed: {missing}"
    )


def check_invariants(board: Sequence[int], roll: tuple[int, int], outcomes: list[ref.Outcome]) -> None:
    """Rules every outcome obeys, whatever the position (cheap checks, on all
    the outcomes at once: 1-2 may have tens of thousands)."""
    if ref.is_finished(board):
        assert outcomes == []
        return
    assert outcomes, "an unfinished game always has a move, if only the empty one"
    before = np.array(board, dtype=np.int64)
    after = np.array([b for b, _ in outcomes], dtype=np.int64)
    again = np.array([a for _, a in outcomes], dtype=bool)
    mine, theirs = ref.on_board(board)
    after_mine = after[:, 1:26].clip(min=0).sum(axis=1) + after[:, ref.MY_WAITING]
    after_theirs = -after[:, 0:25].clip(max=0).sum(axis=1) + after[:, ref.OPP_WAITING]
    # The opponent moves nothing: none borne off, none entered, a blot hit at most.
    assert (after_theirs == theirs).all() and (after[:, ref.OPP_WAITING] == before[ref.OPP_WAITING]).all()
    points, points_before = after[:, 1:25], before[1:25]
    assert ((points >= 0) | (points == points_before)).all(), "the opponent's points change only by a hit"
    hit = (points_before < 0) & (points >= 0)
    assert (~hit | (points_before == -1)).all(), "only a blot is hit"
    assert (before[ref.OPP_BAR] - after[:, ref.OPP_BAR] == hit.sum(axis=1)).all(), "hit checkers go to the bar"
    # The mover: 15 checkers in all, none back to waiting or to the bar.
    assert (after_mine <= mine).all()
    assert (after[:, ref.MY_WAITING] <= before[ref.MY_WAITING]).all()
    assert (after[:, ref.MY_BAR] <= before[ref.MY_BAR]).all()
    assert ((after[:, ref.MY_WAITING] == 0) | (after_mine == ref.CHECKERS)).all(), "waiting: none borne off"
    home = (after[:, ref.MY_WAITING] == 0) & (after[:, 7:26].max(axis=1) <= 0)
    assert ((after_mine == mine) | home).all(), "bearing off only with every checker home"
    if before[ref.MY_BAR]:
        # Still on the bar after the move: every step entered from it, nothing else moved.
        stuck = after[after[:, ref.MY_BAR] > 0]
        assert (stuck[:, ref.MY_WAITING] == before[ref.MY_WAITING]).all()
        assert (stuck[:, 1:25] >= np.where(points_before > 0, points_before, -99)).all()
    assert roll == (2, 1) or not again.any(), "only 1-2 rolls again"
    finished = (after_mine == 0) | (after_theirs == 0)
    assert not (again & finished).any(), "no roll again when the game is over"
    # Still legal positions (a sample: building one is slow).
    for b, _ in outcomes[:: max(1, len(outcomes) // 20)]:
        AceyDeuceyPosition.from_array(b)


def check_steps(board: Sequence[int], moves: AceyDeuceyMoves, every: int = 1) -> None:
    """Each move's steps replay, step by step under the reference's rules of a
    single step, to the board it claims; named doubles only after both dice of
    1-2; rolling again only after six steps."""
    hi, lo = moves.dice
    boards = moves.boards()
    for i in range(0, len(moves), every):
        move = moves[i]
        steps = list(move.steps)
        if move.named is None:
            dice = [hi] * 4 if hi == lo else [hi, lo]
            replayed = ref.replay(board, steps, dice)
        else:
            assert (hi, lo) == (2, 1) and len(steps) >= 2
            first = ref.replay(board, steps[:2], [2, 1])
            replayed = None if first is None else ref.replay(first, steps[2:], [move.named] * 4)
        assert replayed == tuple(boards[i].tolist()), f"{move!r} does not replay to its board from {list(board)}"
        assert move.again == (move.named is not None and len(steps) == 6 and not ref.is_finished(replayed))
        bear_offs = sum(1 for _, dst in steps if dst == 0)
        assert ref.on_board(replayed)[0] == ref.on_board(board)[0] - bear_offs


def run_sweep(boards: list[list[int]], roll: tuple[int, int], *, check_every: int) -> None:
    """Compare the fast generator with the reference on every board for
    ``roll``; on every ``check_every``-th board check the invariants and replay
    the steps too (on at most about 50 of its moves)."""
    failures = []
    for k, board in enumerate(boards):
        moves = AceyDeuceyPosition.from_array(board).legal_moves(roll)
        fast = fast_outcomes(moves)
        slow = ref.outcomes(board, roll)
        if len(set(fast)) != len(fast) or set(fast) != slow:
            failures.append(describe(board, roll, fast, slow))
        elif k % check_every == 0:
            check_invariants(board, roll, fast)
            check_steps(board, moves, every=max(1, len(moves) // 50))
    assert not failures, f"{len(failures)} of {len(boards)} positions disagree; first: " + "\n".join(failures[:3])


# --- the sweeps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("roll", OTHER_ROLLS, ids=lambda r: f"{r[0]}-{r[1]}")
def test_fast_equals_reference(roll: tuple[int, int]) -> None:
    run_sweep(positions(SEED, POSITIONS), roll, check_every=10)


def test_fast_equals_reference_12() -> None:
    run_sweep(positions(SEED, POSITIONS)[:POSITIONS_12], (2, 1), check_every=4)


@pytest.mark.slow
@pytest.mark.parametrize("roll", OTHER_ROLLS, ids=lambda r: f"{r[0]}-{r[1]}")
def test_fast_equals_reference_slow(roll: tuple[int, int]) -> None:
    run_sweep(positions(SEED + 1, SLOW_POSITIONS), roll, check_every=20)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_fast_equals_reference_12_slow(part: int) -> None:
    n = SLOW_POSITIONS_12 // 4
    run_sweep(positions(SEED + 2 + part, n), (2, 1), check_every=10)


@given(st.integers(0, 2**32 - 1), st.sampled_from(ref.ROLLS))
def test_invariants(seed: int, roll: tuple[int, int]) -> None:
    """Invariants alone (no reference) on positions hypothesis picks by seed."""
    board = ref.random_position(random.Random(seed))
    moves = AceyDeuceyPosition.from_array(board).legal_moves(roll)
    outcomes = fast_outcomes(moves)
    assert len(set(outcomes)) == len(outcomes), "no outcome listed twice"
    check_invariants(board, roll, outcomes)
    check_steps(board, moves, every=max(1, len(moves) // 20))


# --- the reference and its positions ----------------------------------------------------------------


def test_start_perft() -> None:
    """The reference counts the start's moves as perft does: 235 distinct
    outcomes over the 21 rolls, 440 over the 36 ordered rolls."""
    start = [0] * 26 + [15, 15]
    counts = {roll: len(ref.outcomes(start, roll)) for roll in ref.ROLLS}
    assert sum(counts.values()) == 235 == perft(AceyDeuceyPosition.initial(), 1)
    weighted = sum(n * (1 if roll[0] == roll[1] else 2) for roll, n in counts.items())
    assert weighted == 440 == perft(AceyDeuceyPosition.initial(), 1, weighted=True)


def test_reference_named_double_is_best_plays() -> None:
    """The bulk path the reference takes for the double named after 1-2 gives,
    start by start, what the plain rule-5 enumeration gives."""
    for board in positions(SEED, POSITIONS)[:300]:
        b = tuple(board)
        if ref.is_finished(b):
            continue
        for die in range(1, 7):
            boards, steps = ref.best_plays(b, [die] * 4)
            assert ref.named_double([b], die) == {(after, steps) for after in boards}


def test_reference_finished_game() -> None:
    """A finished game has no outcome; a lost turn has the board itself."""
    finished = [0] * 24 + [-1, 0, 0, 0]  # the mover has borne off all fifteen
    assert ref.outcomes(finished, (6, 5)) == set()
    assert len(AceyDeuceyPosition.from_array(finished).legal_moves((6, 5))) == 0
    closed = [0] * 28
    closed[19:25] = [-2] * 6  # the opponent holds the mover's 19- to 24-points
    closed[ref.MY_WAITING], closed[ref.OPP_WAITING] = 15, 3
    assert ref.outcomes(closed, (2, 1)) == {(tuple(closed), False)}


def test_random_positions_cover_the_cases() -> None:
    """The random positions are legal, unfinished, and cover what matters."""
    boards = positions(SEED, COVERAGE)
    assert boards == ref.random_positions(SEED, COVERAGE), "seeded: the same every run"
    seen = {
        "mover waiting": 0,
        "opponent waiting": 0,
        "mover on the bar": 0,
        "on the bar and waiting": 0,
        "opponent on the bar": 0,
        "mover may bear off": 0,
        "mover borne off some": 0,
        "opponent borne off some": 0,
        "mover has three or fewer left": 0,
        "all home but one waiting": 0,
        "all home but one on the bar": 0,
        "entry point blocked": 0,
        "entry blot": 0,
    }
    for board in boards:
        pos = AceyDeuceyPosition.from_array(board)  # legal, or this raises
        assert not pos.is_game_over()
        mine, theirs = ref.on_board(board)
        on_points = sum(v for v in board[1:25] if v > 0)
        seen["mover waiting"] += board[26] > 0
        seen["opponent waiting"] += board[27] > 0
        seen["mover on the bar"] += board[25] > 0
        seen["on the bar and waiting"] += board[25] > 0 and board[26] > 0
        seen["opponent on the bar"] += board[0] < 0
        seen["mover may bear off"] += ref.all_home(board)
        seen["mover borne off some"] += mine < 15
        seen["opponent borne off some"] += theirs < 15
        seen["mover has three or fewer left"] += mine <= 3
        seen["all home but one waiting"] += board[26] == 1 and all(board[p] <= 0 for p in range(7, 26))
        seen["all home but one on the bar"] += (
            board[25] == 1 and board[26] == 0 and on_points == mine - 1 and all(board[p] <= 0 for p in range(7, 25))
        )
        seen["entry point blocked"] += (board[25] or board[26]) and any(board[p] <= -2 for p in range(19, 25))
        seen["entry blot"] += (board[25] or board[26]) and any(board[p] == -1 for p in range(19, 25))
    rare = {name: n for name, n in seen.items() if n < len(boards) // 100}
    assert not rare, f"too few positions with {rare} of {len(boards)}"
