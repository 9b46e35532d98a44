"""Seeded random self-play: reproducible positions from every phase of a game.

Used to build test and benchmark corpora.

>>> positions = selfplay_positions(5, seed=1)
>>> len(positions), positions[0] == Position.initial()
(5, True)
"""

from __future__ import annotations

import random

from .position import Position

__all__ = ["selfplay_positions", "ROLLS"]

#: The 21 distinct rolls, higher die first.
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


def selfplay_positions(count: int, seed: int = 0, variant: str = "standard") -> list[Position]:
    """``count`` positions (player on roll's view) met in seeded random self-play.

    Each game starts from ``Position.initial(variant)``; every turn rolls two
    random dice and plays a uniformly random legal move; a finished game starts
    a new one. The same arguments always give the same positions.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    rng = random.Random(seed)
    start = Position.initial(variant)
    pos = start
    out: list[Position] = []
    while len(out) < count:
        out.append(pos)
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        pos = moves.position_after(rng.randrange(len(moves)))
        if pos.is_game_over():
            pos = start
    return out
