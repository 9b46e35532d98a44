"""A numpy network as a rollout policy: one call scores every candidate move
of every game in flight.

The network here is a small two-layer perceptron with random weights over
TD-Gammon's 198 inputs (``bgcore.encode.tesauro198``): put your trained
weights in its place.  Run it as ``python examples/numpy_network_policy.py``.
"""

from __future__ import annotations

import sys

import numpy as np

from bgcore import Position, encode, rollout


class Network:
    """198 inputs, a tanh hidden layer, one output: the mover's score of a
    position after its move (higher is better)."""

    def __init__(self, hidden: int = 40, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.standard_normal((198, hidden)).astype(np.float32) / np.sqrt(198)
        self.w2 = rng.standard_normal(hidden).astype(np.float32) / np.sqrt(hidden)

    def __call__(self, children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        # children: every candidate of every waiting game, each seen by its
        # mover before the flip; offsets: where each game's candidates start.
        return np.tanh(encode.tesauro198(children) @ self.w1) @ self.w2


def main(games: int = 1296) -> None:
    result = rollout(Position.initial(), games=games, policy=Network(), seed=1, in_flight=512)
    print(result)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1296)
