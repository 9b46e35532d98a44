"""The numpy batch API: exact results, layout, threads and errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

from bgcore import InvalidPositionError, Position, _batch, batch, movegen
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Position], np.ndarray, np.ndarray]:
    positions = selfplay_positions(120, seed=31) + selfplay_positions(30, seed=31, variant="hypergammon")
    pairs = [(p, r) for i, p in enumerate(positions) for r in ROLLS[i % 3 :: 3]]
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
        got = [Position.from_array(a, checkers=pos.checkers) for a in children[offsets[i] : offsets[i + 1]]]
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


def _plainly_valid(board: list[int]) -> bool:
    """The board rules bg_check applies, written out."""
    return (
        all(-15 <= v <= 15 for v in board)
        and board[25] >= 0
        and board[0] <= 0
        and sum(v for v in board if v > 0) <= 15
        and -sum(v for v in board if v < 0) <= 15
    )


def test_row_checks_agree_with_the_rules_near_every_limit() -> None:
    # The native check takes a vector fast path for valid boards: boards on
    # both sides of each limit (slot range, bar signs, 15 checkers a side).
    rng = np.random.default_rng(7)
    boards = []
    for _ in range(4000):
        kind = rng.integers(4)
        if kind == 0:
            b = rng.integers(-128, 128, 26)
        elif kind == 1:
            b = rng.integers(-17, 18, 26) * (rng.random(26) < 0.15)
        elif kind == 2:
            b = rng.integers(-3, 4, 26) * (rng.random(26) < 0.5)
        else:
            b = np.zeros(26, int)
            np.add.at(b, rng.integers(1, 26, rng.integers(12, 18)), 1)
            for p in rng.integers(0, 25, rng.integers(12, 18)):
                if b[p] <= 0:
                    b[p] -= 1
        boards.append(b.astype(np.int8))
    dice = np.array([[3, 4]], np.uint8)
    for b in boards:
        found = _batch.find_invalid(b[None], dice) is None
        assert found == _plainly_valid(b.tolist()), b.tolist()


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
def test_buffers_grow_when_the_reservation_is_short(corpus, threads: int) -> None:
    """With no room reserved, every row takes the grow-and-generate-again path."""
    _, boards, dice = corpus
    expected, expected_offsets = batch.generate(boards, dice)
    expected = expected.copy()
    batch.release_buffers()
    piece_rows = _batch.piece_rows(len(boards), threads)
    done = _batch.rows(boards.astype(np.int8), dice.astype(np.uint8), threads, piece_rows, True, True, 0)
    assert done is not None
    children, offsets = done
    assert (offsets == expected_offsets).all()
    assert (children == np.stack([Position.from_array(a).flip().to_array() for a in expected])).all()


def test_kept_buffers_are_reused_without_stale_rows(corpus) -> None:
    """Buffers over 2 MiB are kept for the next batch; a smaller batch that reuses
    one gets exactly its own rows, and release_buffers lets them go."""
    _, boards, dice = corpus
    expected, offsets = batch.generate(boards, dice)
    expected = expected.copy()
    big_boards, big_dice = np.concatenate([boards] * 8), np.concatenate([dice] * 8)
    assert 26 * _batch.RESERVE_PER_ROW * len(big_boards) > 2 << 20  # large enough to be kept
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


@pytest.mark.parametrize("threads", [1, 2, 3, 5])
def test_native_code_writes_every_end_once(corpus, threads: int) -> None:
    """The calling thread alone and Batch write every row's end (offsets[1:])
    themselves, in every way a piece's rows can go (straight, staged whole,
    staged head, tail staged for want of room): arrays prefilled with -7 show
    any row left out.  ``rows`` makes its own offsets: the memory of a freed
    array of -7 is what the allocator hands it next."""
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    expected = np.cumsum(batch.count(b8, d8))
    n, total = len(b8), int(expected[-1])
    for reserve in (0, 32):
        decoy = np.full(n + 1, -7, np.int64)
        del decoy
        done = _batch.rows(b8, d8, 1, 1, False, True, reserve * n)
        assert done is not None and (done[1][1:] == expected).all() and done[1][0] == 0
    half = -(-(movegen.MAX_RESULTS + total // 2) // n)
    for piece_rows in (1, 3, 50, 256):
        for reserve in (0, 32, half):
            ends = np.full(n, -7, np.int64)
            job = _batch.Batch(b8, d8, ends, threads, piece_rows, False, True, reserve * n)
            job.run()
            assert job.bad_row is None
            assert np.asarray(job.finish()).shape == (total, 26)
            assert (ends == expected).all(), (piece_rows, reserve)
            counts = np.full(n, -7, np.int64)  # a batch that keeps no results gives counts
            _batch.Batch(b8, d8, counts, threads, piece_rows, False, False, 0).run()
            assert (counts == np.diff(expected, prepend=0)).all()


def test_pieces_are_half_a_threads_share_within_bounds() -> None:
    assert _batch.piece_rows(600, 2) == _batch.PIECE_ROWS_MIN  # pieces enough to finish together
    assert _batch.piece_rows(3000, 2) == 750
    assert _batch.piece_rows(3000, 3) == 500
    assert _batch.piece_rows(42000, 2) == _batch.PIECE_ROWS_MAX  # staged parts stay in the cache


def test_threads_for_a_batch() -> None:
    per = _batch.MIN_ROWS_PER_THREAD
    assert _batch.threads_for(0, 4) == 1 and _batch.threads_for(2 * per - 1, 4) == 1
    assert _batch.threads_for(2 * per, 4) == 2 and _batch.threads_for(100 * per, 4) == 4
    assert _batch.threads_for(3 * per, 10**30) == 3  # any positive int


@pytest.mark.parametrize("piece_rows", [1, 3, 50])
@pytest.mark.parametrize("room", ["none", "short", "half", "ample"])
def test_threads_place_pieces_of_any_size(corpus, piece_rows: int, room: str) -> None:
    """Many small pieces (threads wait for each other's earlier pieces), and
    results written straight to their place while the reserved result has room
    for any results of the next rows, staged otherwise (placed at the end when
    the reservation is too small), give the same rows."""
    _, boards, dice = corpus
    expected, expected_offsets = batch.generate(boards, dice)
    expected = expected.copy()
    n, total = len(boards), int(expected_offsets[-1])
    # Rows go straight to the result while BG_MAX_RESULTS results for the
    # next row still fit: "half" lets about half of them, "ample" all.
    row_room = movegen.MAX_RESULTS
    reserve = {
        "none": 0,
        "short": 32,
        "half": -(-(row_room + total // 2) // n),
        "ample": -(-(row_room + total) // n) + 1,
    }[room]
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    for threads in (2, 3, 5):
        children, offsets = _batch.rows(b8, d8, threads, piece_rows, False, True, reserve * n)
        assert (offsets == expected_offsets).all() and (children == expected).all()
        counts = _batch.rows(b8, d8, threads, piece_rows, False, False, reserve * n)
        assert (counts == np.diff(expected_offsets)).all()


@pytest.mark.parametrize("piece_rows", [1, 37, 1024])
def test_large_batches_place_staged_rows_with_streaming_stores(corpus, piece_rows: int) -> None:
    """From STREAM_COPY_ROWS boards on, threads copy their staged rows to their
    place with non-temporal stores: copies of any length at any alignment (rows
    are 26 bytes), mid-piece, whole pieces and at the end for want of room, give
    the rows and ends of one thread."""
    _, boards, dice = corpus
    reps = -(-_batch.STREAM_COPY_ROWS // len(boards))
    b8, d8 = np.tile(boards.astype(np.int8), (reps, 1)), np.tile(dice.astype(np.uint8), (reps, 1))
    n = len(b8)
    assert n >= _batch.STREAM_COPY_ROWS
    done = _batch.rows(b8, d8, 1, 1, False, True, 32 * n)
    assert done is not None
    expected, expected_offsets = done
    for threads in (2, 3):
        for reserve in (0, 32):
            done = _batch.rows(b8, d8, threads, piece_rows, False, True, reserve * n)
            assert done is not None
            children, offsets = done
            assert (offsets == expected_offsets).all() and (children == expected).all(), (threads, reserve)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_first_invalid_row_is_named_with_threads(corpus, threads: int) -> None:
    _, boards, dice = corpus
    bad = boards.copy()
    bad[[40, 700, 900], 25] = 9  # too many checkers on the bar
    bad_dice = dice.copy()
    bad_dice[[650, 20]] = [0, 3]
    with pytest.raises(
        InvalidPositionError, match=r"^row 40: the player on roll has \d+ checkers on the board, more than 15"
    ):
        batch.generate(bad, dice, threads=threads)
    with pytest.raises(InvalidPositionError, match=r"^row 40: "):
        batch.count(bad, dice, threads=threads)
    with pytest.raises(InvalidPositionError, match=r"^row 20: dice must be 1-6, not \[0, 3\]"):
        batch.generate(boards, bad_dice, threads=threads)


def test_native_calls_check_their_arguments(corpus) -> None:
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    counts = np.zeros(len(b8), np.int64)
    with pytest.raises(ValueError):
        _batch.Batch(b8, d8, counts[:-1], 2, 10, False, True, 100)
    with pytest.raises(ValueError, match="inconsistent"):
        _batch.rows(b8, d8, 2, 0, False, True, 100)
    for bad_boards, bad_dice in ((b8[:, :25], d8), (b8, d8[:, :1]), (b8[:-1], d8)):
        with pytest.raises(ValueError, match=r"must be \(n, 26\) and dice \(n, 2\)"):
            _batch.find_invalid(np.ascontiguousarray(bad_boards), np.ascontiguousarray(bad_dice))
        with pytest.raises(ValueError, match=r"must be \(n, 26\)"):
            _batch.rows(np.ascontiguousarray(bad_boards), np.ascontiguousarray(bad_dice), 1, 1, False, False, 0)
    job = _batch.Batch(b8, d8, counts, 2, 10, False, True, 100)
    with pytest.raises(RuntimeError, match="not completed"):
        job.finish()
    empty = _batch.rows(b8[:0], d8[:0], 1, 1, False, True, 0)
    assert empty is not None and empty[0].shape == (0, 26) and empty[1].tolist() == [0]


@pytest.mark.parametrize("board_type,dice_type", [(np.int8, np.uint8), (np.int64, np.int64), (np.int16, np.int8)])
def test_the_first_invalid_row_whatever_the_types(board_type, dice_type) -> None:
    """Range checks of wide integers do not jump ahead of an earlier invalid row."""
    boards = np.stack([Position.initial().to_array()] * 40).astype(board_type)
    dice = np.array([[3, 1]] * 40, dtype=dice_type)
    boards[3, 25] = 9  # too many checkers: invalid whatever the type
    dice[30] = [7, 1]
    with pytest.raises(
        InvalidPositionError, match=r"^row 3: the player on roll has 24 checkers on the board, more than 15"
    ):
        batch.generate(boards, dice)
    if board_type != np.int8:
        boards[20, 6] = 300
        with pytest.raises(InvalidPositionError, match=r"^row 3: "):
            batch.count(boards, dice)
        boards[3, 25] = 0
        with pytest.raises(InvalidPositionError, match=r"^row 20: slot 6 holds 300 checkers \(at most 15 a side\)"):
            batch.count(boards, dice)


@pytest.mark.parametrize("dice_type", [np.int8, np.uint8])
def test_ready_arrays_are_used_as_they_are(corpus, dice_type) -> None:
    """int8 boards with int8 or uint8 dice skip the conversions (``_batch.ready``)
    and give what converted arrays give; a negative int8 die is named as given."""
    _, boards, dice = corpus
    b8, d = boards.astype(np.int8), dice.astype(dice_type)
    ready = _batch.ready(b8, d)
    assert ready is not None and ready[0] is b8 and ready[1].dtype == np.uint8 and ready[2] is d
    for other in ((boards.astype(np.int16), d), (b8, dice.astype(np.int64)), (b8[:, ::-1], d), (b8, d[:-1])):
        assert _batch.ready(*other) is None
    expected, offsets = batch.generate(boards.astype(np.int64), dice.astype(np.int64), threads=2)
    for threads in (1, 2):
        children, got = batch.generate(b8, d, threads=threads)
        assert (got == offsets).all() and (children == expected).all()
    if dice_type == np.int8:
        d[100] = [-1, 3]
        with pytest.raises(InvalidPositionError, match=r"^row 100: dice must be 1-6, not \[-1, 3\]"):
            batch.count(b8, d, threads=2)


def test_a_batch_hands_its_result_over_once(corpus) -> None:
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    counts = np.zeros(len(b8), np.int64)
    job = _batch.Batch(b8, d8, counts, 2, 64, False, True, 16 * len(b8))
    job.run()
    with pytest.raises(RuntimeError, match="has run already"):
        job.run()
    first = np.asarray(job.finish())
    assert first.shape == (counts[-1], 26)  # counts holds where each row's results end
    with pytest.raises(RuntimeError, match="handed over"):
        job.finish()


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads RSS through /proc")
@pytest.mark.skipif(
    "ASAN_OPTIONS" in os.environ, reason="AddressSanitizer's allocator holds freed memory: RSS does not show a release"
)
def test_a_result_is_kept_by_what_it_holds_not_by_its_reservation(corpus) -> None:
    """A batch reserves 32 rows a board, twice what it usually writes: one of
    168,000 rows reserves over 128 MB but writes about 70 MB, and its memory
    is kept for the next call (the process holds on to it) until
    release_buffers."""
    _, boards, dice = corpus
    tiled = -(-168_000 // len(boards))
    big_boards, big_dice = np.concatenate([boards] * tiled), np.concatenate([dice] * tiled)
    assert 26 * _batch.RESERVE_PER_ROW * len(big_boards) > 128 << 20
    batch.release_buffers()
    for threads in (1, 2):
        before = _rss()
        children, _ = batch.generate(big_boards, big_dice, threads=threads)
        size = children.nbytes
        assert 40 << 20 < size < 128 << 20
        del children
        assert _rss() - before > size // 2  # kept
        batch.release_buffers()
        assert _rss() - before < size // 4  # given back


def test_a_small_batch_does_not_take_the_kept_buffer(corpus) -> None:
    """A kept buffer goes only to a batch of about its size, so a small result
    never holds a large buffer behind it."""
    _, boards, dice = corpus
    batch.release_buffers()  # no larger buffer kept by an earlier test
    big = batch.generate(np.concatenate([boards] * 8), np.concatenate([dice] * 8))[0]
    big_address = big.__array_interface__["data"][0]
    del big  # its buffer is kept
    small = batch.generate(boards[:3], dice[:3])[0]
    assert small.__array_interface__["data"][0] != big_address
    again = batch.generate(np.concatenate([boards] * 8), np.concatenate([dice] * 8))[0]
    assert again.__array_interface__["data"][0] == big_address  # reused by a batch of its size
    del again, small
    batch.release_buffers()


def test_buffers_of_a_few_sizes_are_kept_side_by_side(corpus) -> None:
    """Batches that alternate between sizes each find a buffer of their own
    size kept (a larger one does not evict a smaller one), up to four: the
    least recently released goes first."""
    _, boards, dice = corpus

    def run(tiles: int, threads: int = 1) -> int:
        children = batch.generate(np.concatenate([boards] * tiles), np.concatenate([dice] * tiles), threads=threads)[0]
        return int(children.__array_interface__["data"][0])

    def reserved(tiles: int) -> int:
        return 26 * _batch.RESERVE_PER_ROW * len(boards) * tiles

    sizes = (20, 8, 3)  # each less than half the one before, and all over 2 MiB reserved
    assert reserved(sizes[-1]) > 2 << 20
    batch.release_buffers()
    addresses = {k: run(k) for k in sizes}
    for threads in (2, 1):
        assert {k: run(k, threads) for k in sizes} == addresses  # each reused its own
        assert _batch.kept_buffers() == [reserved(k) for k in sizes]
    run(45)
    run(100)
    assert _batch.kept_buffers() == [reserved(k) for k in (8, 3, 45, 100)]
    batch.release_buffers()
    assert _batch.kept_buffers() == []


def test_a_batch_runs_once_and_its_threads_all_finish(corpus) -> None:
    """run() hands work to native threads and returns when every one is done: the
    counts are all written, whatever the number of threads."""
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    expected = batch.count(b8, d8)
    for threads in (1, 2, 4, 7):
        counts = np.full(len(b8), -1, np.int64)
        job = _batch.Batch(b8, d8, counts, threads, 16, False, False, 0)
        job.run()
        assert job.bad_row is None and (counts == expected).all()
        with pytest.raises(RuntimeError, match="has run already"):
            job.run()


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_ready_arrays_of_any_size_are_done_whole_in_c(corpus, threads: int) -> None:
    """int8 boards with int8 or uint8 dice go through ``_batch.call`` alone,
    whatever their size, and give what batch.py's conversions and
    ``_batch.rows`` give; an invalid row leaves the call to batch.py."""
    _, boards, dice = corpus
    wide_b, wide_d = boards.astype(np.int64), dice.astype(np.int64)
    assert _batch.call(wide_b, wide_d, threads, False, True) is None  # converted in batch.py
    expected, expected_offsets = batch.generate(wide_b, wide_d, threads=threads, flip=True)
    b8 = boards.astype(np.int8)
    for d in (dice.astype(np.uint8), dice.astype(np.int8)):
        done = _batch.call(b8, d, threads, True, True)
        assert done is not None
        children, offsets = done
        assert children.dtype == np.int8 and children.flags.c_contiguous and children.flags.owndata is False
        assert (offsets == expected_offsets).all() and (children == expected).all()
        counts = _batch.call(b8, d, threads, False, False)
        assert counts is not None and (counts == np.diff(expected_offsets)).all()
    bad = b8.copy()
    bad[800, 25] = 9  # too many checkers on the bar, late in the batch
    assert _batch.call(bad, dice.astype(np.uint8), threads, False, True) is None
    with pytest.raises(InvalidPositionError, match=r"^row 800: the player on roll has"):
        batch.generate(bad, dice.astype(np.uint8), threads=threads)


@pytest.mark.parametrize("board_type", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("dice_type", [np.int8, np.uint8, np.int32, np.int64, np.uint16])
def test_small_batches_match_the_general_path(corpus, board_type, dice_type) -> None:
    """Batches of up to SMALL_MAX_ROWS rows, done whole in C, give what the
    general path (batch.py's checks and conversions) gives, for every integer type."""
    _, boards, dice = corpus
    expected, expected_offsets = batch.generate(boards, dice)
    expected_flipped = batch.generate(boards, dice, flip=True)[0]
    expected_counts = batch.count(boards, dice)
    for start, size in ((0, 1), (5, 1), (3, 7), (100, _batch.SMALL_MAX_ROWS), (0, 0)):
        b = boards[start : start + size].astype(board_type)
        d = dice[start : start + size].astype(dice_type)
        lo, hi = expected_offsets[start], expected_offsets[start + size]
        assert _batch.call(b, d, 1, False, True) is not None  # the path under test
        children, offsets = batch.generate(b, d, threads=2)
        assert children.dtype == np.int8 and children.shape == (hi - lo, 26) and children.flags.c_contiguous
        assert offsets.dtype == np.int64 and (offsets == expected_offsets[start : start + size + 1] - lo).all()
        assert (children == expected[lo:hi]).all()
        assert (batch.generate(b, d, flip=True)[0] == expected_flipped[lo:hi]).all()
        counts = batch.count(b, d)
        assert counts.dtype == np.int64 and (counts == expected_counts[start : start + size]).all()


def test_small_batches_leave_the_rest_to_the_general_path(corpus) -> None:
    """Anything but ready integer arrays of at most SMALL_MAX_ROWS rows, and
    every error, go the general way (whose messages the tests above check)."""
    _, boards, dice = corpus
    b8, d8 = boards[:3].astype(np.int8), dice[:3].astype(np.uint8)
    n = _batch.SMALL_MAX_ROWS + 1
    big_b, big_d = boards[:n].astype(np.int8), dice[:n].astype(np.uint8)
    wide_b, wide_d = boards[:n].astype(np.int64), dice[:n].astype(np.int64)
    for args in (
        (b8.tolist(), d8, 1, False),  # not arrays
        (b8, d8.tolist(), 1, False),
        (np.asfortranarray(b8), d8, 1, False),  # not C order
        (boards.astype(np.int8)[:6:2], d8, 1, False),
        (b8.astype(float), d8, 1, False),  # not integers
        (b8.astype(bool), d8, 1, False),
        (b8.astype(">i4"), d8, 1, False),  # not native byte order
        (b8, d8[:2], 1, False),  # shapes
        (b8[:, :25].copy(), d8, 1, False),
        (b8[None], d8, 1, False),
        (wide_b, big_d, 1, False),  # too many rows for anything but 8-bit arrays
        (big_b, wide_d, 1, False),
        (b8, d8, 0, False),  # threads
        (b8, d8, True, False),
        (b8, d8, 1.0, False),
    ):
        assert _batch.call(*args, True) is None and _batch.call(*args, False) is None
    bad = b8.astype(np.int64)
    bad[1, 6] = 300  # out of any board's range
    assert _batch.call(bad, d8, 1, False, True) is None
    bad = b8.copy()
    bad[2, 25] = 3  # too many checkers
    assert _batch.call(bad, d8, 1, False, True) is None and _batch.call(bad, d8, 1, False, False) is None
    with pytest.raises(InvalidPositionError, match=r"^row 2: the player on roll has 18 checkers"):
        batch.count(bad, d8)
    bad_dice = d8.astype(np.int8)
    bad_dice[0] = [-1, 3]
    assert _batch.call(b8, bad_dice, 1, False, True) is None
    with pytest.raises(InvalidPositionError, match=r"^row 0: dice must be 1-6, not \[-1, 3\]"):
        batch.generate(b8, bad_dice)
    with pytest.raises(ValueError, match="threads"):
        batch.generate(b8, d8, threads=True)
    assert batch.count(big_b, big_d).shape == (n,)  # the general path
    over = np.zeros((1, 26), np.uint64)  # unsigned boards hold only finished games
    over[0, 6] = 15
    assert _batch.call(over, np.array([[6, 6]], np.uint64), 1, False, False).tolist() == [1]


@pytest.mark.parametrize("threads", [65, 10_000, 2**70])
@pytest.mark.parametrize("function", [batch.generate, batch.count])
def test_threads_past_the_librarys_bound_are_refused_before_any_thread_starts(function, threads: int) -> None:
    # 200,000 rows would otherwise start one thread per 256 rows (781).
    from refused import refused

    boards = np.tile(np.array(Position.initial().board, np.int8), (200_000, 1))
    dice = np.tile(np.array([3, 1], np.int8), (200_000, 1))
    refused(lambda: function(boards, dice, threads=threads), ValueError, r"^threads must be an int from 1 to 64, not ")
    assert len(function(boards[:1000], dice[:1000], threads=64)) > 0
