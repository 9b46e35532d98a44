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


@pytest.mark.parametrize("threads", [1, 2])
def test_buffers_grow_when_the_reservation_is_short(corpus, monkeypatch, threads: int) -> None:
    """With no room reserved, every row takes the grow-and-generate-again path."""
    _, boards, dice = corpus
    expected, expected_offsets = batch.generate(boards, dice)
    expected = expected.copy()
    batch.release_buffers()
    monkeypatch.setattr(batch, "_RESERVE_PER_ROW", 0)
    children, offsets = batch.generate(boards, dice, threads=threads, flip=True)
    assert (offsets == expected_offsets).all()
    assert (children == np.stack([Position.from_array(a).flip().to_array() for a in expected])).all()


def test_kept_buffers_are_reused_without_stale_rows(corpus) -> None:
    """Buffers over 2 MiB are kept for the next batch; a smaller batch that reuses
    one gets exactly its own rows, and release_buffers lets them go."""
    _, boards, dice = corpus
    expected, offsets = batch.generate(boards, dice)
    expected = expected.copy()
    big_boards, big_dice = np.concatenate([boards] * 8), np.concatenate([dice] * 8)
    assert 26 * batch._RESERVE_PER_ROW * len(big_boards) > 2 << 20  # large enough to be kept
    half = len(boards) // 2
    for threads in (1, 2, 1, 2):
        children, _ = batch.generate(big_boards, big_dice, threads=threads)
        assert (children == np.concatenate([expected] * 8)).all()
        del children
        children, _ = batch.generate(boards[:half], dice[:half], threads=threads)
        assert children.shape == (offsets[half], 26) and (children == expected[: offsets[half]]).all()
        del children
    batch.release_buffers()
    assert (batch.generate(boards, dice)[0] == expected).all()


def test_output_buffer_checks_its_ranges() -> None:
    from bgcore import _core

    out = _core.Output(4)
    with pytest.raises(IndexError):
        out.copy_rows(_core.Output(4), 0, 0, 1)
    out.extend(3)
    with pytest.raises(ValueError, match="shrink"):
        out.extend(2)
    assert out.rows == 3 and out.take() is not None and out.rows == 0 and out.take() is None


@pytest.mark.parametrize("board_type", [np.int8, np.int16, np.int64])
@pytest.mark.parametrize("dice_type", [np.int8, np.uint8, np.int32, np.uint64])
def test_every_integer_type_is_checked(board_type, dice_type) -> None:
    """Values that would wrap when narrowed to 8 bits are caught, whatever the type."""
    boards = np.stack([Position.initial().to_array()] * 3).astype(board_type)
    dice = np.array([[3, 1]] * 3, dtype=dice_type)
    assert batch.count(boards, dice).tolist() == [16] * 3
    bad = boards.copy()
    bad[1, 6] = 16 if board_type == np.int8 else 256 + 5  # 256 + 5 would wrap to 5
    with pytest.raises(InvalidPositionError, match="row 1"):
        batch.generate(bad, dice)
    bad_dice = dice.copy()
    bad_dice[2, 0] = 7 if dice_type in (np.int8, np.uint8) else 256 + 3
    with pytest.raises(InvalidPositionError, match=r"row 2: dice must be 1-6, not \[(7|259), 1\]"):
        batch.count(boards, bad_dice)
    if dice_type == np.int8:
        bad_dice[2, 0] = -1
        with pytest.raises(InvalidPositionError, match=r"row 2: dice must be 1-6, not \[-1, 1\]"):
            batch.generate(boards, bad_dice)
