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
from typing import Literal, overload

import numpy as np

import bgcore._batch as _batch
import bgcore._pool as _pool
import bgcore._results as _results

from .errors import InvalidPositionError
from .ids import _brief
from .rules import CHECKERS

__all__ = ["generate", "count", "release_buffers", "set_thread_linger"]


def _prepare(boards: object, dice: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shape- and type-checked 8-bit copies (or views) of boards and dice, and
    the dice as given (for messages).  Board and dice values are checked
    while generating."""
    done = _batch.ready(boards, dice)  # 8-bit arrays that need nothing done, checked in C
    if done is not None:
        return done
    b = np.asarray(boards)
    d = np.asarray(dice)
    # An empty sequence is no rows (numpy cannot know its rows' length).
    if b.shape == (0,):
        b = b.reshape(0, 26)
    if d.shape == (0,):
        d = d.reshape(0, 2)
    if b.ndim != 2 or b.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (n, 26), not {b.shape}")
    if d.shape != (b.shape[0], 2):
        raise InvalidPositionError(f"dice must have shape ({b.shape[0]}, 2), not {d.shape}")
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


def _prime(boards: object, threads: int) -> _batch.Primed | None:
    """The pool threads a batch of ``boards`` will use besides the caller's,
    woken now: waking one takes longer than converting the arrays does, which
    they then spend getting ready rather than the batch waiting for them."""
    try:
        n = len(boards)  # type: ignore[arg-type]
    except TypeError:
        return None  # (not rows: _prepare says why)
    k = _batch.threads_for(n, threads)
    return _batch.Primed(k - 1) if k > 1 else None


def _check_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= _pool.MAX_THREADS:
        raise ValueError(f"threads must be an int from 1 to {_pool.MAX_THREADS}, not {_brief(threads)}")
    return threads


@overload
def _rows(
    b8: np.ndarray,
    d8: np.ndarray,
    d: np.ndarray,
    threads: int,
    flip: bool,
    store: Literal[True],
    primed: _batch.Primed | None,
) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def _rows(
    b8: np.ndarray,
    d8: np.ndarray,
    d: np.ndarray,
    threads: int,
    flip: bool,
    store: Literal[False],
    primed: _batch.Primed | None,
) -> np.ndarray: ...
def _rows(
    b8: np.ndarray, d8: np.ndarray, d: np.ndarray, threads: int, flip: bool, store: bool, primed: _batch.Primed | None
) -> tuple[np.ndarray, np.ndarray] | np.ndarray:
    """``_batch.rows`` for the checked arrays: the calling thread alone, or k
    native threads (the caller's among them, and those ``primed``) taking
    pieces of the rows in turn; raises the error naming an invalid row."""
    n = b8.shape[0]
    k = _batch.threads_for(n, threads)
    done = _batch.rows(b8, d8, k, _batch.piece_rows(n, k), flip, store, _batch.RESERVE_PER_ROW * n, primed)
    if done is None:
        raise _invalid(b8, d8, d)
    return done


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
    GIL released.  The native threads are kept for the next call (at most
    16), and woken first thing.  An invalid board or roll raises
    :class:`InvalidPositionError` naming the first invalid row, and no result
    is returned; so do arrays of the wrong shape (empty sequences are no
    rows), and arrays of other than integers raise :class:`TypeError`.

    Boards and dice given as C-contiguous int8 arrays (or uint8 dice) need no
    conversion, and the whole call is one native call: the quick way to call.
    A batch of at most 64 rows, the way to ask for one row at a time, is done
    so from any integer arrays, with the GIL held.

    ``children`` holds exactly its ``m * 26`` bytes.  When it goes away, its
    memory (if over 2 MiB reserved) is kept for a later call of about its
    size, whose pages are then already mapped: up to four buffers, at most
    128 MiB written in all; :func:`release_buffers` returns them to the
    system.
    """
    done = _batch.call(boards, dice, threads, flip, True)  # arrays that need no conversion, all in C
    if done is not None:
        return done
    _check_threads(threads)
    primed = _prime(boards, threads)
    return _rows(*_prepare(boards, dice), threads, bool(flip), True, primed)


def count(
    boards: np.ndarray | Sequence[Sequence[int]], dice: np.ndarray | Sequence[Sequence[int]], *, threads: int = 1
) -> np.ndarray:
    """The number of distinct legal results of each (board, roll) row (int64, n).

    Nothing is kept: the results go to a small scratch buffer per thread.
    ``threads`` and errors as for :func:`generate`.
    """
    done = _batch.call(boards, dice, threads, False, False)
    if done is not None:
        return done
    _check_threads(threads)
    primed = _prime(boards, threads)
    return _rows(*_prepare(boards, dice), threads, False, False, primed)


def release_buffers() -> None:
    """Free the memory kept between batches.

    When the array :func:`generate` returned goes away, its memory (if over
    2 MiB reserved) is kept for a later call of about its size, whose pages
    are then already mapped: that spares a page fault and the kernel's
    zeroing of each page.  Up to four such buffers are kept, at most 128 MiB
    written in all (the least recently released goes first).  The native threads of multi-threaded calls
    are kept too (up to 16, waiting without using the CPU once
    they have lingered, see :func:`set_thread_linger`), each with its
    generator and small buffers (about 480 KB), and so are up to 16 such sets
    for the calling threads.  This returns the memory to the system and ends
    those threads.
    """
    _batch.release_buffers()


def set_thread_linger(seconds: float) -> float:
    """Let the native threads spin for up to ``seconds`` after each task,
    waiting for the next one, rather than sleep at once; returns the previous
    setting.  The default is 0.002 (2 ms); 0 makes them sleep at once.

    Waking a sleeping thread costs its caller a system call, and the thread
    starts tens of microseconds later (on a virtual machine whose idle
    virtual CPU halts, more): a fair part of a batch of a few thousand rows.
    A thread that lingers is handed its next task without either, which
    serves calls with ``threads`` > 1 that follow each other closely (a
    search, a training loop).  The price is up to ``seconds`` of a core's
    time after each call, as with OpenMP's default wait policy, so once two
    calls in a row come later than ``seconds`` after the last, a thread
    sleeps at once after each task, until a call comes in time again.  At most
    one thread per CPU besides the caller's lingers at a time.  The setting
    applies to every job of the thread pool (batches,
    :func:`bgcore.perft.perft`, rollouts), from the next task on; a thread
    that :func:`release_buffers` ends stops when its lingering does.

    ``seconds`` must lie within [0, 1]; anything else raises
    :class:`ValueError`.

    >>> previous = set_thread_linger(0)
    >>> set_thread_linger(previous)
    0.0
    >>> previous
    0.002
    """
    return _pool.set_linger(seconds)
