"""Perft (``bgcore.perft``): counting the leaves of the game tree, the move generator's acid test.

>>> from bgcore import Position
>>> perft(Position.initial(), 1)
447
>>> perft(Position.initial(), 1, weighted=True)  # the 36 ordered rolls
637
"""

from __future__ import annotations

from . import _perft
from .acey import AceyDeuceyPosition
from .acey import perft_counts as acey_perft_counts
from .position import Position

__all__ = ["perft", "perft_counts"]


def perft_counts(position: Position, depth: int, *, threads: int = 1) -> tuple[int, int]:
    """(unweighted, weighted) perft of ``position`` from one walk of the tree.

    With ``threads`` > 1 the positions after the first ply are shared among
    the calling thread and native threads of the pool, without the GIL.
    """
    if not isinstance(position, Position):
        raise TypeError(f"perft() takes a Position, not {type(position).__name__}")
    if isinstance(position, AceyDeuceyPosition):
        return acey_perft_counts(position, depth, threads=threads)
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    if position.is_game_over():
        return 1, 1
    return _perft.perft(position._bytes, depth, threads)


def perft(position: Position, depth: int, *, weighted: bool = False, threads: int = 1) -> int:
    """The number of leaf positions ``depth`` plies after ``position``.

    Each ply sums over the 21 distinct rolls (or the 36 ordered ones, each
    with weight 1, when ``weighted``) and over the distinct results of each
    roll, and then the other side is on roll. A lost turn is one result; a
    finished game is a leaf. Runs in C without the GIL. An acey-deucey
    position counts as :func:`bgcore.acey.perft` says.
    """
    plain, weighted_count = perft_counts(position, depth, threads=threads)
    return weighted_count if weighted else plain
