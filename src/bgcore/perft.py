"""Perft: counting the leaves of the game tree, the move generator's acid test.

>>> from bgcore import Position
>>> perft(Position.initial(), 1)
447
>>> perft(Position.initial(), 1, weighted=True)  # the 36 ordered rolls
637
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from . import _core
from .position import Position
from .selfplay import ROLLS

__all__ = ["perft", "perft_counts"]


def perft_counts(position: Position, depth: int, *, threads: int = 1) -> tuple[int, int]:
    """(unweighted, weighted) perft of ``position`` from one walk of the tree.

    With ``threads`` > 1 the positions after the first ply are shared among
    native threads (the GIL is released while they count).
    """
    if not isinstance(position, Position):
        raise TypeError(f"perft() takes a Position, not {type(position).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int, not {threads!r}")
    if threads == 1 or depth < 2 or position.is_game_over():
        return _core.perft(position._bytes, depth)
    tasks: list[tuple[bytes, int]] = []  # (child seen by the side to move, roll weight)
    leaves = [0, 0]
    for dice in ROLLS:
        weight = 1 if dice[0] == dice[1] else 2
        for child in position.legal_moves(dice).positions():
            if child.is_game_over():
                leaves[0] += 1
                leaves[1] += weight
            else:
                tasks.append((child._bytes, weight))
    with ThreadPoolExecutor(max_workers=threads) as pool:
        counts = list(pool.map(lambda t: _core.perft(t[0], depth - 1), tasks))
    plain = leaves[0] + sum(p for p, _ in counts)
    weighted = leaves[1] + sum(w * q for (_, w), (_, q) in zip(tasks, counts))
    return plain, weighted


def perft(position: Position, depth: int, *, weighted: bool = False, threads: int = 1) -> int:
    """The number of leaf positions ``depth`` plies after ``position``.

    Each ply sums over the 21 distinct rolls (or the 36 ordered ones, each
    with weight 1, when ``weighted``) and over the distinct results of each
    roll, and then the other side is on roll. A lost turn is one result; a
    finished game is a leaf. Runs in C without the GIL.
    """
    plain, weighted_count = perft_counts(position, depth, threads=threads)
    return weighted_count if weighted else plain
