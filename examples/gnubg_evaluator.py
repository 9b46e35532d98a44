"""GNU Backgammon's neural network as the evaluator of truncated rollouts.

Each game is played for a few plies by bgcore's pubeval policy, then
``gnubg.evaluate`` (the ``gnubg`` package on PyPI) scores the position
reached: a truncated rollout with gnubg's 0-ply evaluation at the leaves.
Run it as ``python examples/gnubg_evaluator.py`` (``pip install gnubg``).
"""

from __future__ import annotations

import sys

import numpy as np

from bgcore import Position, rollout


def gnubg_evaluator(boards: np.ndarray) -> np.ndarray:
    """(n, 26) boards, each seen by its player on roll, to gnubg's five
    outputs for that player (win, win gammon, win backgammon, lose gammon,
    lose backgammon)."""
    import gnubg

    out = np.empty((len(boards), 5))
    for i, board in enumerate(boards):
        position_id = Position.from_array(board).position_id()
        out[i] = gnubg.evaluate(gnubg.positionfromid(position_id))[:5]
    return out.clip(0.0, 1.0)


def main(games: int = 1296) -> None:
    start = Position.from_position_id("4HPwATDgc/ABMA")
    print("gnubg at the start:", np.round(gnubg_evaluator(start.to_array()[None])[0], 4))
    result = rollout(start, games=games, policy="pubeval", truncate=4, evaluator=gnubg_evaluator, seed=1)
    print(result)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1296)
