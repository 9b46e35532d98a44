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

import threading
from typing import Callable, Sequence

import numpy as np

from . import _core
from .errors import InvalidPositionError

__all__ = ["generate", "count", "release_buffers"]

_PIECES_PER_THREAD = 8


def _prepare(boards: object, dice: object) -> tuple[np.ndarray, np.ndarray]:
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
    # wrap to 44); 8-bit ones cannot wrap into a valid value, and the native
    # check below catches the rest.
    if b.dtype != np.int8 and b.size and (b.min() < -15 or b.max() > 15):
        row = int(np.argmax((b < -15).any(axis=1) | (b > 15).any(axis=1)))
        raise InvalidPositionError(f"row {row}: a slot holds more than 15 checkers")
    if d.dtype not in (np.int8, np.uint8) and d.size and (d.min() < 1 or d.max() > 6):
        raise _bad_dice(d)
    b8 = np.ascontiguousarray(b, dtype=np.int8).reshape(-1, 26)
    d8 = np.ascontiguousarray(d, dtype=np.uint8).reshape(-1, 2)
    if b8.shape[0]:
        bad = _core.find_invalid(b8, d8)
        if bad is not None:
            if (d[bad[0]] < 1).any() or (d[bad[0]] > 6).any():
                raise _bad_dice(d)
            raise InvalidPositionError(f"row {bad[0]}: {bad[1]}")
    return b8, d8


def _bad_dice(d: np.ndarray) -> InvalidPositionError:
    row = int(np.argmax(((d < 1) | (d > 6)).any(axis=1)))
    return InvalidPositionError(f"row {row}: dice must be 1-6, not {d[row].tolist()}")


#: Rows of results reserved per board before a batch starts (a typical corpus
#: has about 16); the buffer grows when that is not enough, and pages never
#: written cost nothing.
_RESERVE_PER_ROW = 32

#: Scratch buffers of the threads of a batch, kept for the next one (at most
#: _MAX_SPARE_BYTES in all): see :func:`release_buffers`.
_spare_outputs: list[_core.Output] = []
_MAX_SPARE_BYTES = 1 << 27


def _check_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    return threads


def _spare_output(rows: int) -> _core.Output:
    return _spare_outputs.pop() if _spare_outputs else _core.Output(rows)


def _keep_output(out: _core.Output) -> None:
    out.clear()
    if sum(o.nbytes for o in _spare_outputs) + out.nbytes <= _MAX_SPARE_BYTES:
        _spare_outputs.append(out)


def _in_threads(k: int, work: Callable[[int], None]) -> None:
    """Run ``work(0)`` .. ``work(k - 1)`` in k threads; re-raise the first error."""
    errors: list[BaseException] = []

    def guarded(w: int) -> None:
        try:
            work(w)
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    pool = [threading.Thread(target=guarded, args=(w,)) for w in range(k)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise errors[0]


def _share_pieces(n: int, k: int, do_piece: Callable[[int, int, int], None]) -> None:
    """Let k threads take pieces of the n rows in turn: ``do_piece(w, start, stop)``
    runs in thread w for rows [start, stop)."""
    # Positions differ in cost (a bear-off is quick, a double in contact is
    # not), so fixed equal shares of rows would leave one thread waiting.
    pieces = min(n, _PIECES_PER_THREAD * k)
    queue = iter([(n * i // pieces, n * (i + 1) // pieces) for i in range(pieces)])
    lock = threading.Lock()

    def work(w: int) -> None:
        while True:
            with lock:
                piece = next(queue, None)
            if piece is None:
                return
            do_piece(w, *piece)

    _in_threads(k, work)


def _count(b8: np.ndarray, d8: np.ndarray, threads: int) -> np.ndarray:
    n = b8.shape[0]
    counts = np.zeros(n, dtype=np.int64)
    k = max(1, min(threads, n))
    if k == 1:
        _core.count_rows(b8, d8, counts, 0, n)
        return counts
    _share_pieces(n, k, lambda _, start, stop: _core.count_rows(b8, d8, counts, start, stop))
    return counts


def _generate(b8: np.ndarray, d8: np.ndarray, threads: int, flip: bool) -> tuple[np.ndarray, np.ndarray]:
    n = b8.shape[0]
    counts = np.zeros(n, dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    k = max(1, min(threads, n))
    if k == 1:
        # One thread writes straight into the buffer the caller gets.
        out = _core.Output(_RESERVE_PER_ROW * n)
        out.run(b8, d8, counts, 0, n, flip)
        np.cumsum(counts, out=offsets[1:])
        return _as_children(out.take()), offsets
    # Each thread appends the pieces it takes to a scratch buffer of its own;
    # once every count is known, the threads copy their pieces to their
    # places in the result, in parallel.
    scratch = [_spare_output(_RESERVE_PER_ROW * n // k) for _ in range(k)]
    placed: list[list[tuple[int, int, int]]] = [[] for _ in range(k)]

    def generate_piece(w: int, start: int, stop: int) -> None:
        at = scratch[w].rows
        scratch[w].run(b8, d8, counts, start, stop, flip)
        placed[w].append((start, stop, at))

    try:
        _share_pieces(n, k, generate_piece)
        np.cumsum(counts, out=offsets[1:])
        result = _core.Output(int(offsets[-1]))
        result.extend(int(offsets[-1]))

        def copy_pieces(w: int) -> None:
            for start, stop, at in placed[w]:
                result.copy_rows(scratch[w], at, int(offsets[start]), int(offsets[stop] - offsets[start]))

        _in_threads(k, copy_pieces)
    finally:
        for out in scratch:
            _keep_output(out)
    return _as_children(result.take()), offsets


def _as_children(buffer: object) -> np.ndarray:
    if buffer is None:
        return np.empty((0, 26), dtype=np.int8)
    return np.asarray(buffer)


def generate(boards: np.ndarray | Sequence, dice: np.ndarray | Sequence, *, threads: int = 1,
             flip: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct legal result of each (board, roll) row.

    Returns ``(children, offsets)``: ``children`` int8 (m, 26) with board i's
    results in rows ``offsets[i]:offsets[i + 1]``, each seen from the player
    who moved (or, with ``flip=True``, from the opponent, now on roll). A lost
    turn gives one row, the board itself.  ``threads`` native threads share
    the rows, with the GIL released.  An invalid row raises
    :class:`InvalidPositionError` naming it, before anything is written.

    ``children`` holds exactly its ``m * 26`` bytes.  When it goes away, its
    memory (if over 2 MiB) and the threads' scratch buffers are kept for the
    next call, whose pages are then already mapped; :func:`release_buffers`
    returns them to the system.
    """
    _check_threads(threads)
    b8, d8 = _prepare(boards, dice)
    return _generate(b8, d8, threads, bool(flip))


def count(boards: np.ndarray | Sequence, dice: np.ndarray | Sequence, *, threads: int = 1) -> np.ndarray:
    """The number of distinct legal results of each (board, roll) row (int64, n)."""
    _check_threads(threads)
    b8, d8 = _prepare(boards, dice)
    return _count(b8, d8, threads)


def release_buffers() -> None:
    """Free the memory kept between batches.

    :func:`generate` keeps the scratch buffers of its threads, and the buffer
    of the last result array that went away, for the next batch: writing into
    pages that are already mapped spares a page fault and the kernel's
    zeroing of each page.  This returns that memory to the system.
    """
    _spare_outputs.clear()
    _core.release_buffers()
