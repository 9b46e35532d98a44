"""Perft: counting the leaves of the game tree, the move generator's acid test.

>>> from bgcore import Position
>>> perft(Position.initial(), 1)
447
>>> perft(Position.initial(), 1, weighted=True)  # the 36 ordered rolls
637
"""

from __future__ import annotations

from . import _core
from .position import Position

__all__ = ["perft"]


def perft(position: Position, depth: int, *, weighted: bool = False) -> int:
    """The number of leaf positions ``depth`` plies after ``position``.

    Each ply sums over the 21 distinct rolls (or the 36 ordered ones, each
    with weight 1, when ``weighted``) and over the distinct results of each
    roll, and then the other side is on roll. A lost turn is one result; a
    finished game is a leaf. Runs in C without the GIL.
    """
    if not isinstance(position, Position):
        raise TypeError(f"perft() takes a Position, not {type(position).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    return _core.perft(position._bytes, depth, bool(weighted))
