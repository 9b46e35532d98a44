"""The numpy batch API: exact results, layout, threads and errors."""

from __future__ import annotations

import numpy as np
import pytest

from bgcore import InvalidPositionError, Position, batch
from bgcore.selfplay import ROLLS, selfplay_positions


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Position], np.ndarray, np.ndarray]:
    positions = selfplay_positions(120, seed=31) + selfplay_positions(30, seed=31, variant="hypergammon")
    pairs = [(p, r) for i, p in enumerate(positions) for r in ROLLS[i % 3::3]]
    boards = np.stack([p.to_array() for p, _ in pairs])
    dice = np.array([r for _, r in pairs])
    return pairs, boards, dice


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("flip", [False, True])
def test_generate_matches_legal_moves(corpus, threads: int, flip: bool) -> None:
    pairs, boards, dice = corpus
    children, offsets = batch.generate(boards, dice, threads=threads, flip=flip)
    assert children.dtype == np.int8 and children.shape == (offsets[-1], 26)
    assert offsets.dtype == np.int64 and offsets[0] == 0 and len(offsets) == len(pairs) + 1
    assert children.nbytes == 26 * offsets[-1]
    for i, (pos, roll) in enumerate(pairs):
        moves = pos.legal_moves(roll)
        expected = [pos.play(m) for m in moves] if moves else [pos.flip()]
        if not flip:
            expected = [p.flip() for p in expected]
        got = [Position.from_array(a, checkers=pos.checkers) for a in children[offsets[i]:offsets[i + 1]]]
        assert sorted(got, key=lambda p: p.board) == sorted(expected, key=lambda p: p.board)
    counts = batch.count(boards, dice, threads=threads)
    assert counts.tolist() == np.diff(offsets).tolist()


def test_lost_turn_gives_the_board_itself() -> None:
    pos = Position.from_position_id("u5sDAgK3OwcAQA")
    children, offsets = batch.generate(pos.to_array()[None], [[4, 1]])
    assert offsets.tolist() == [0, 1] and (children[0] == pos.to_array()).all()


def test_empty_batch() -> None:
    children, offsets = batch.generate(np.zeros((0, 26), np.int8), np.zeros((0, 2), np.int8), threads=2)
    assert children.shape == (0, 26) and offsets.tolist() == [0]
    assert batch.count(np.zeros((0, 26), np.int8), np.zeros((0, 2), np.int8)).shape == (0,)


def test_invalid_rows_are_named() -> None:
    boards = np.stack([Position.initial().to_array()] * 4)
    dice = np.array([[3, 1]] * 4)
    bad = boards.copy()
    bad[2, 25] = 3  # 18 checkers
    with pytest.raises(InvalidPositionError, match="row 2"):
        batch.generate(bad, dice)
    bad = boards.copy()
    bad[1, 5] = 40
    with pytest.raises(InvalidPositionError, match="row 1"):
        batch.count(bad, dice)
    bad_dice = dice.copy()
    bad_dice[3] = [7, 1]
    with pytest.raises(InvalidPositionError, match="row 3"):
        batch.generate(boards, bad_dice)
    with pytest.raises(ValueError, match="shape"):
        batch.generate(boards[:, :25], dice)
    with pytest.raises(ValueError, match="shape"):
        batch.generate(boards, dice[:3])
    with pytest.raises(TypeError):
        batch.generate(boards.astype(float), dice)
    with pytest.raises(ValueError, match="threads"):
        batch.count(boards, dice, threads=0)


def test_repeated_calls_hold_fresh_results(corpus) -> None:
    """Calls of many sizes in a row: results never leak from one call into the next."""
    _, boards, dice = corpus
    expected = batch.generate(boards, dice)[0].copy()
    for size in (len(boards), 7, len(boards) // 2, 1, len(boards)):
        for threads in (1, 2):
            children, offsets = batch.generate(boards[:size], dice[:size], threads=threads)
            assert (children == expected[: offsets[-1]]).all()
            del children
