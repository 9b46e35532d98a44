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
from typing import Sequence

import numpy as np

from . import _core
from .errors import InvalidPositionError

__all__ = ["generate", "count"]

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
    if b.size and (b.min() < -15 or b.max() > 15):
        row = int(np.argmax((b < -15).any(axis=1) | (b > 15).any(axis=1)))
        raise InvalidPositionError(f"row {row}: a slot holds more than 15 checkers")
    if d.size and (d.min() < 1 or d.max() > 6):
        row = int(np.argmax(((d < 1) | (d > 6)).any(axis=1)))
        raise InvalidPositionError(f"row {row}: dice must be 1-6, not {d[row].tolist()}")
    b8 = np.ascontiguousarray(b, dtype=np.int8).reshape(-1, 26)
    d8 = np.ascontiguousarray(d, dtype=np.uint8).reshape(-1, 2)
    if b8.shape[0]:
        bad = _core.find_invalid(b8, d8)
        if bad is not None:
            raise InvalidPositionError(f"row {bad[0]}: {bad[1]}")
    return b8, d8


def _run(b8: np.ndarray, d8: np.ndarray, threads: int, flip: bool, store: bool):
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    n = b8.shape[0]
    counts = np.zeros(n, dtype=np.int64)
    k = max(1, min(threads, n))
    # Several threads take pieces of rows from a queue: positions differ in
    # cost (a bear-off is quick, a double in contact is not), so equal
    # shares of rows would leave one thread waiting for the other.
    pieces = 1 if k == 1 else min(n, _PIECES_PER_THREAD * k)
    bounds = [n * i // pieces for i in range(pieces + 1)]
    chunks = [_core.Chunk(bounds[i], bounds[i + 1]) for i in range(pieces)]
    queue = iter(chunks)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work() -> None:
        while not errors:
            with lock:
                chunk = next(queue, None)
            if chunk is None:
                return
            try:
                chunk.run(b8, d8, counts, flip, store)
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)

    if k == 1:
        work()
    else:
        pool = [threading.Thread(target=work) for _ in range(k)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    if errors:
        raise errors[0]
    return counts, chunks


def generate(boards: np.ndarray | Sequence, dice: np.ndarray | Sequence, *, threads: int = 1,
             flip: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct legal result of each (board, roll) row.

    Returns ``(children, offsets)``: ``children`` int8 (m, 26) with board i's
    results in rows ``offsets[i]:offsets[i + 1]``, each seen from the player
    who moved (or, with ``flip=True``, from the opponent, now on roll). A lost
    turn gives one row, the board itself.  ``threads`` native threads share
    the rows, with the GIL released.  An invalid row raises
    :class:`InvalidPositionError` naming it, before anything is written.
    """
    b8, d8 = _prepare(boards, dice)
    counts, chunks = _run(b8, d8, threads, bool(flip), True)
    offsets = np.zeros(b8.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    # One chunk: its native buffer becomes the array, no copy.
    buffer = chunks[0].take() if len(chunks) == 1 else _core.join_chunks(chunks)
    if buffer is None:
        return np.empty((0, 26), dtype=np.int8), offsets
    return np.asarray(buffer), offsets


def count(boards: np.ndarray | Sequence, dice: np.ndarray | Sequence, *, threads: int = 1) -> np.ndarray:
    """The number of distinct legal results of each (board, roll) row (int64, n)."""
    b8, d8 = _prepare(boards, dice)
    counts, _ = _run(b8, d8, threads, False, False)
    return counts
