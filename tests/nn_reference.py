"""Plain-Python references for bgcore's network code: wildbg's two input
encodings, the value of a finished game, a numpy forward pass and the map
from six exclusive outcomes to bgcore's five; written from the definitions
(wildbg's ``crates/engine/src/inputs.rs``, ONNX's operators), not from the C.

Also wildbg's two published input vectors, re-typed as data from the tests of
``crates/engine/src/inputs.rs`` in carsten-wenderdel/wildbg (MIT or
Apache-2.0, Carsten Wenderdel), with the positions they encode.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Board = Sequence[int]


def _wildbg_units(n: int) -> list[float]:
    """wildbg's four units of n >= 0 checkers on a point."""
    if n == 1:
        return [1.0, 0.0, 0.0, 0.0]
    if n == 2:
        return [0.0, 1.0, 0.0, 0.0]
    if n >= 3:
        return [0.0, 0.0, 1.0, float(n - 3)]
    return [0.0, 0.0, 0.0, 0.0]


def _off(b: Board, checkers: int) -> tuple[int, int]:
    """The mover's and the opponent's checkers off."""
    return checkers - sum(v for v in b if v > 0), checkers - sum(-v for v in b if v < 0)


def wildbg_contact(b: Board, checkers: int = 15) -> list[float]:
    """wildbg's ContactInputsGen: off counts, the mover's bar and points
    1..24, the opponent's bar and checkers on the mover's points 1..24."""
    mine, theirs = _off(b, checkers)
    x = [float(mine), float(theirs)]
    x += _wildbg_units(b[25])
    for p in range(1, 25):
        x += _wildbg_units(max(b[p], 0))
    x += _wildbg_units(-b[0])
    for p in range(1, 25):
        x += _wildbg_units(max(-b[p], 0))
    return x


def wildbg_race(b: Board, checkers: int = 15) -> list[float]:
    """wildbg's RaceInputsGen: off counts, the mover's points 1..23, the
    opponent's checkers on the mover's points 2..24."""
    mine, theirs = _off(b, checkers)
    x = [float(mine), float(theirs)]
    for p in range(1, 24):
        x += _wildbg_units(max(b[p], 0))
    for p in range(2, 25):
        x += _wildbg_units(max(-b[p], 0))
    return x


def is_contact(b: Board) -> bool:
    """Some mover checker (bar = 25) above some opponent checker (bar = 0)."""
    mover = [p for p in range(1, 26) if b[p] > 0]
    opponent = [p for p in range(0, 25) if b[p] < 0]
    return bool(mover and opponent and max(mover) > min(opponent))


def game_value(b: Board, checkers: int = 15) -> list[float] | None:
    """bgcore's five outputs of a finished game for the mover; None while
    both sides have checkers on the board."""
    mine = sum(v for v in b if v > 0)
    theirs = sum(-v for v in b if v < 0)
    if mine and theirs:
        return None
    if not mine:
        gammon = theirs == checkers
        backgammon = gammon and any(b[p] < 0 for p in range(0, 7))
        return [1.0, float(gammon), float(backgammon), 0.0, 0.0]
    gammon = mine == checkers
    backgammon = gammon and any(b[p] > 0 for p in range(19, 26))
    return [0.0, 0.0, 0.0, float(gammon), float(backgammon)]


def six_to_five(p6: np.ndarray) -> np.ndarray:
    """Exclusive (win normal, win gammon, win backgammon, lose normal, lose
    gammon, lose backgammon) to gnubg's cumulative five."""
    wn, wg, wb, _ln, lg, lb = (p6[..., i] for i in range(6))
    return np.stack([wn + wg + wb, wg + wb, wb, lg + lb, lb], axis=-1)


def activate(x: np.ndarray, name: str, alpha: float = 0.2, beta: float = 0.5) -> np.ndarray:
    """ONNX's activations, in float64."""
    if name == "relu":
        return np.maximum(x, 0.0)
    if name == "hardsigmoid":
        return np.clip(alpha * x + beta, 0.0, 1.0)
    if name == "sigmoid":
        return 1.0 / (1.0 + np.exp(-x))
    if name == "tanh":
        return np.tanh(x)
    raise ValueError(name)


def forward(
    x: np.ndarray,
    layers: Sequence[tuple[np.ndarray, np.ndarray]],
    activations: Sequence[tuple[str, float, float]],
    output: str,
) -> np.ndarray:
    """The network's five outputs for inputs x (n, inputs), in float64:
    weights (inputs, outputs), each hidden layer's activation, the output
    layer a softmax of six exclusive outcomes or five sigmoids."""
    h = np.asarray(x, dtype=np.float64)
    for (w, b), act in zip(layers[:-1], activations, strict=True):
        h = activate(h @ w.astype(np.float64) + b, *act)
    w, b = layers[-1]
    z = h @ w.astype(np.float64) + b
    if output == "sigmoid":
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return six_to_five(e / e.sum(axis=1, keepdims=True))


# --- wildbg's published vectors ----------------------------------------------------
#
# inputs.rs, contact_tests::contact_cvs_line and race_tests::race_cvs_line: the
# position `x 1:1, 2:2, 3:3, 4:4, 5:5; o 24:1, O_BAR: 1` (contact) and the same
# without the opponent's checker on the bar (race), each also with the sides
# switched.  wildbg's `pips` are bgcore's 26 slots (x: the player on roll,
# positive; index 0 the opponent's bar, 25 the mover's).


def _board(mine: dict[int, int], theirs: dict[int, int]) -> list[int]:
    b = [0] * 26
    for p, n in mine.items():
        b[p] = n
    for p, n in theirs.items():
        b[p] = -n
    return b


WILDBG_CONTACT_BOARD = _board({1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, {24: 1, 0: 1})
WILDBG_CONTACT_SWITCHED = _board({1: 1, 25: 1}, {24: 1, 23: 2, 22: 3, 21: 4, 20: 5})
WILDBG_RACE_BOARD = _board({1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, {24: 1})
WILDBG_RACE_SWITCHED = _board({1: 1}, {24: 1, 23: 2, 22: 3, 21: 4, 20: 5})


def _z(n: int) -> str:
    return ";".join(["0"] * n)


# The strings as inputs.rs spells them, its long runs of zeros written _z(n) (the
# published strings have 202 and 186 fields).
WILDBG_CONTACT_VECTOR = (
    "0;13;0;0;0;0;1;0;0;0;0;1;0;0;0;0;1;0;0;0;1;1;0;0;1;2;" + _z(76) + ";1;0;0;0;" + _z(92) + ";1;0;0;0"
)
WILDBG_CONTACT_SWITCHED_VECTOR = "13;0;1;0;0;0;1;0;0;0;" + _z(174) + ";1;2;0;0;1;1;0;0;1;0;0;1;0;0;1;0;0;0"
WILDBG_RACE_VECTOR = "0;14;1;0;0;0;0;1;0;0;0;0;1;0;0;0;1;1;0;0;1;2;" + _z(160) + ";1;0;0;0"
WILDBG_RACE_SWITCHED_VECTOR = "14;0;1;0;0;0;" + _z(160) + ";0;0;1;2;0;0;1;1;0;0;1;0;0;1;0;0;1;0;0;0"


def parse(vector: str) -> list[float]:
    return [float(v) for v in vector.split(";")]
