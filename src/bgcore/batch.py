"""Batch move generation over numpy arrays, without the GIL.

Boards are int8 rows of 26 in :meth:`bgcore.Position.to_array`'s convention,
dice are rows of two.  No Python object is built per result.

>>> import numpy as np
>>> from bgcore import Position
>>> boards = np.stack([Position.initial().to_array()] * 2)
>>> children, offsets = generate(boards, np.array([[3, 1], [6, 6]]))
>>> offsets.tolist(), children.shape
([0, 16, 27], (27, 26))
>>> count(boards, [[3, 1], [6, 6]]).tolist()
[16, 11]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import _batch, _results
from .errors import InvalidPositionError
from .rules import CHECKERS

__all__ = ["generate", "count", "release_buffers"]


def _prepare(boards: object, dice: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shape- and type-checked 8-bit copies (or views) of boards and dice, and
    the dice as given (for messages).  Board and dice values are checked
    while generating."""
    done = _batch.ready(boards, dice)  # 8-bit arrays that need nothing done, checked in C
    if done is not None:
        return done
    b = np.asarray(boards)
    d = np.asarray(dice)
    if b.ndim != 2 or b.shape[1] != 26:
        raise ValueError(f"boards must have shape (n, 26), not {b.shape}")
    if d.shape != (b.shape[0], 2):
        raise ValueError(f"dice must have shape ({b.shape[0]}, 2), not {d.shape}")
    for name, a in (("boards", b), ("dice", d)):
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"{name} must hold integers, not {a.dtype}")
    # Wider integers are range-checked before they are narrowed (300 would
    # wrap to 44); 8-bit ones cannot wrap into a valid value.
    first: list[tuple[int, str]] = []
    if b.dtype != np.int8 and b.size and (b.min() < -CHECKERS or b.max() > CHECKERS):
        row = int(np.argmax((b < -CHECKERS).any(axis=1) | (b > CHECKERS).any(axis=1)))
        try:
            _results.check_board([int(v) for v in b[row]], CHECKERS)
        except InvalidPositionError as exc:
            first.append((row, f"row {row}: {exc}"))
    if d.dtype not in (np.int8, np.uint8) and d.size and (d.min() < 1 or d.max() > 6):
        row = int(np.argmax(((d < 1) | (d > 6)).any(axis=1)))
        first.append((row, f"row {row}: dice must be 1-6, not {d[row].tolist()}"))
    stop = min(first)[0] if first else b.shape[0]
    b8 = np.ascontiguousarray(b[:stop], dtype=np.int8).reshape(-1, 26)
    d8 = np.ascontiguousarray(d[:stop], dtype=np.uint8).reshape(-1, 2)
    if first:  # a row before it may be invalid in another way
        raise _invalid(b8, d8, d) if _batch.find_invalid(b8, d8) is not None else InvalidPositionError(min(first)[1])
    return b8, d8, d


def _invalid(b8: np.ndarray, d8: np.ndarray, d: np.ndarray) -> InvalidPositionError:
    """The error naming the first invalid row of b8 and d8 (one is known to exist)."""
    row = _batch.find_invalid(b8, d8)
    problem = _results.board_problem(b8[row].tobytes())
    if problem is None:
        problem = f"dice must be 1-6, not {d[row].tolist()}"
    return InvalidPositionError(f"row {row}: {problem}")


#: Rows of results reserved per board before a batch starts (a typical corpus
#: has about 16); the buffer grows when that is not enough, and pages never
#: written cost nothing.
_RESERVE_PER_ROW = 32

#: Rows in a piece that a thread takes at a time (see _piece_rows): each piece
#: costs a turn of the lock and a copy of its staged part, so larger pieces
#: cost less, while the staged part (about half a piece: some 200 KB of
#: results at 1,024 rows and 16 results a row) still stays in the core's L2
#: cache until it is copied to its place.  The last pieces of a batch are a
#: quarter of the size.
_PIECE_ROWS_MIN = 256
_PIECE_ROWS_MAX = 1024


#: Fewest rows worth a thread of their own: waking a kept native thread and
#: waiting for it costs about 15-60 µs here (starting one, the first time,
#: 100-140 µs), up to a couple of hundred generations.
_MIN_ROWS_PER_THREAD = 256


def _threads_for(n: int, threads: int) -> int:
    """Threads for n rows: at most ``threads``, fewer for a small batch."""
    return max(1, min(threads, n // _MIN_ROWS_PER_THREAD))


def _piece_rows(n: int, k: int) -> int:
    """Rows in a piece for n rows shared by k threads: half a thread's share,
    within [_PIECE_ROWS_MIN, _PIECE_ROWS_MAX], so that a small batch still has
    pieces enough for the threads to finish together."""
    return min(_PIECE_ROWS_MAX, max(_PIECE_ROWS_MIN, n // (2 * k)))


def _prime(boards: object, threads: int) -> _batch.Primed | None:
    """The pool threads a batch of ``boards`` will use besides the caller's,
    woken now: waking one takes longer than checking the arrays does, which
    they then spend getting ready rather than the batch waiting for them."""
    try:
        n = len(boards)  # type: ignore[arg-type]
    except TypeError:
        return None  # (not rows: _prepare says why)
    k = _threads_for(n, threads)
    return _batch.Primed(k - 1) if k > 1 else None


def _check_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    return threads


def _shared(
    b8: np.ndarray,
    d8: np.ndarray,
    counts: np.ndarray,
    k: int,
    flip: bool,
    store: bool,
    primed: _batch.Primed | None,
) -> _batch.Batch:
    """The batch after k native threads (the caller's among them, and those
    ``primed``) shared its pieces (see ``_batch.Batch``)."""
    n = len(b8)
    job = _batch.Batch(b8, d8, counts, k, _piece_rows(n, k), flip, store, _RESERVE_PER_ROW * n, primed)
    job.run()
    return job


def _count(
    b8: np.ndarray, d8: np.ndarray, d: np.ndarray, threads: int, primed: _batch.Primed | None = None
) -> np.ndarray:
    n = b8.shape[0]
    counts = np.empty(n, dtype=np.int64)  # every row is written by the native code
    k = _threads_for(n, threads)
    if k == 1:
        bad = _batch.count_rows(b8, d8, counts, 0, n)
    else:
        bad = _shared(b8, d8, counts, k, False, False, primed).bad_row
    if bad is not None:
        raise _invalid(b8, d8, d)
    return counts


def _generate(
    b8: np.ndarray, d8: np.ndarray, d: np.ndarray, threads: int, flip: bool, primed: _batch.Primed | None = None
) -> tuple[np.ndarray, np.ndarray]:
    n = b8.shape[0]
    offsets = np.empty(n + 1, dtype=np.int64)
    offsets[0] = 0
    ends = offsets[1:]  # where each board's results end: written by the native code
    k = _threads_for(n, threads)
    if k == 1:
        # One thread writes straight into the buffer the caller gets.
        out = _batch.Output(_RESERVE_PER_ROW * n)
        if out.run(b8, d8, ends, 0, n, flip) is not None:
            raise _invalid(b8, d8, d)
        buffer = out.take()
    else:
        job = _shared(b8, d8, ends, k, flip, True, primed)
        if job.bad_row is not None:
            raise _invalid(b8, d8, d)
        buffer = job.finish()
    children = np.empty((0, 26), dtype=np.int8) if buffer is None else np.asarray(buffer)
    return children, offsets


def generate(
    boards: np.ndarray | Sequence[Sequence[int]],
    dice: np.ndarray | Sequence[Sequence[int]],
    *,
    threads: int = 1,
    flip: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct legal result of each (board, roll) row.

    Returns ``(children, offsets)``: ``children`` int8 (m, 26) with board i's
    results in rows ``offsets[i]:offsets[i + 1]``, each seen from the player
    who moved (or, with ``flip=True``, from the opponent, now on roll). A lost
    turn gives one row, the board itself.  Up to ``threads`` native threads
    share the rows (pieces of 256-1,024 taken in turn, then of a quarter of
    that near the end; a batch uses at most one thread per 256 rows), with the
    GIL released.  The
    native threads are kept for the next call (at most 16), and woken while
    the call checks its arrays.  An invalid board or roll raises
    :class:`InvalidPositionError` naming the first invalid row, and no result
    is returned.

    A batch of at most 64 rows given as C-contiguous integer arrays (int8
    boards and int8 or uint8 dice need no conversion) is checked and
    generated in one native call with the GIL held: the quick way to ask
    for one row at a time.

    ``children`` holds exactly its ``m * 26`` bytes.  When it goes away, its
    memory (if over 2 MiB reserved) is kept for a later call of about its
    size, whose pages are then already mapped: up to four buffers, at most
    128 MiB written in all; :func:`release_buffers` returns them to the
    system.
    """
    done = _batch.small(boards, dice, threads, flip, True)  # a small batch of ready arrays, all in C
    if done is not None:
        return done
    _check_threads(threads)
    primed = _prime(boards, threads)
    return _generate(*_prepare(boards, dice), threads, bool(flip), primed)


def count(
    boards: np.ndarray | Sequence[Sequence[int]], dice: np.ndarray | Sequence[Sequence[int]], *, threads: int = 1
) -> np.ndarray:
    """The number of distinct legal results of each (board, roll) row (int64, n).

    Nothing is kept: the results go to a small scratch buffer per thread.
    ``threads`` and errors as for :func:`generate`.
    """
    done = _batch.small(boards, dice, threads, False, False)
    if done is not None:
        return done
    _check_threads(threads)
    primed = _prime(boards, threads)
    return _count(*_prepare(boards, dice), threads, primed)


def release_buffers() -> None:
    """Free the memory kept between batches.

    When the array :func:`generate` returned goes away, its memory (if over
    2 MiB reserved) is kept for a later call of about its size, whose pages
    are then already mapped: that spares a page fault and the kernel's
    zeroing of each page.  Up to four such buffers are kept, at most 128 MiB
    written in all (the least recently released goes first).  The native threads of multi-threaded calls
    are kept too (up to 16, waiting without using the CPU), each with its
    generator and small buffers (about 480 KB), and so are up to 16 such sets
    for the calling threads.  This returns the memory to the system and ends
    those threads.
    """
    _batch.release_buffers()
