"""Seeded random self-play: reproducible positions from every phase of a game.

Used to build test and benchmark corpora.

>>> positions = selfplay_positions(5, seed=1)
>>> len(positions), positions[0] == Position.initial()
(5, True)
"""

from __future__ import annotations

import random

from .position import Position

__all__ = ["selfplay_positions", "heuristic_score"]


def heuristic_score(board: tuple[int, ...]) -> float:
    """A crude evaluation of a result board (mover's view, before the flip).

    Rewards made points (most in the home board), hits and progress, and
    punishes blots: enough to make self-play look like real play (few
    checkers on the bar, primes, races and bear-offs), not to play well.
    """
    score = 0.0
    for p in range(1, 25):
        c = board[p]
        if c >= 2:
            score += 1.5 if p <= 7 else 0.7
        elif c == 1:
            score -= 0.6 if p > 6 else 0.3
    score += 0.5 * -board[0]  # opposing checkers on the bar
    score -= 0.005 * sum(board[p] * p for p in range(1, 26) if board[p] > 0)
    return score


def selfplay_positions(count: int, seed: int = 0, variant: str = "standard", policy: str = "random") -> list[Position]:
    """``count`` positions (player on roll's view) met in seeded self-play.

    Each game starts from ``Position.initial(variant)``; every turn rolls two
    random dice and plays a legal move: a uniformly random one (``policy=
    "random"``, which reaches odd positions) or the best by
    :func:`heuristic_score` with random tie noise (``"heuristic"``, closer to
    real games). A finished game starts a new one. The same arguments always
    give the same positions.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    if policy not in ("random", "heuristic"):
        raise ValueError(f"policy must be 'random' or 'heuristic', not {policy!r}")
    rng = random.Random(seed)
    start = Position.initial(variant)
    pos = start
    out: list[Position] = []
    while len(out) < count:
        out.append(pos)
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        if policy == "random" or len(moves) == 1:
            choice = rng.randrange(len(moves))
        else:
            scores = [heuristic_score(p.flip().board) + 0.3 * rng.random() for p in moves.positions()]
            choice = max(range(len(moves)), key=scores.__getitem__)
        pos = moves.position_after(choice)
        if pos.is_game_over():
            pos = start
    return out
