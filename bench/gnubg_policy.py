"""GNU Backgammon's 0-ply evaluator as a bgcore policy, for benchmarks and tests.

:class:`GnubgZeroPly` is a move-scoring policy (``policy(children, offsets)``,
:mod:`bgcore.policy`): it scores each candidate result by minus the cubeless
money equity that ``gnubg.evaluate`` gives the opponent, on roll after the
move (0-ply, cubeless, deterministic: gnubg's own 0-ply checker play).  A
finished game is gnubg's to score too (its evaluator rates a game over by its
result).  The engine hands a Python policy the children of every game in
flight at once; the boards are converted to gnubg's layout in numpy, then
evaluated one ``gnubg.evaluate`` call each (gnubg has no batch call), under a
lock: gnubg is process-global state, and with ``threads=2`` the engine's two
workers may call the policy in turn.  (A cache by board was tried and
dropped: in duels against pubeval 97% of the boards were new, and the
lookups cost more than the hits saved; gnubg keeps its own cache.)

Test and benchmark code, never bgcore's: gnubg is reached through
``gnubg_native.oracle`` (tests/oracle.py); :class:`GnubgZeroPly` raises
ImportError without it.  bench/test_strength.py checks its choices against
``gnubg.findbestmoves``.
"""

from __future__ import annotations

import importlib
import threading
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import gnubg_native

__all__ = ["GnubgZeroPly", "gnubg_layout"]


def gnubg_layout(boards: np.ndarray) -> np.ndarray:
    """bgcore boards (int8 (n, 26), each seen by its player on roll) as gnubg's
    ``TanBoard`` rows, int64 (n, 50): the opponent's 25 counts then the player
    on roll's, each in its owner's numbering (index 0 = point 1, 24 = the bar),
    as :func:`bgcore.ids.board_to_gnubg` gives them one board at a time.

    >>> from bgcore import Position
    >>> from bgcore.ids import board_to_gnubg
    >>> board = Position.initial().to_array()
    >>> theirs, mine = board_to_gnubg(board)
    >>> gnubg_layout(board[None])[0].tolist() == theirs + mine
    True
    """
    b = np.asarray(boards, dtype=np.int64).reshape(-1, 26)
    out = np.zeros((len(b), 50), dtype=np.int64)
    out[:, :24] = np.maximum(-b[:, 24:0:-1], 0)  # theirs: my point p is their point 25 - p
    out[:, 24] = -b[:, 0]
    out[:, 25:49] = np.maximum(b[:, 1:25], 0)
    out[:, 49] = b[:, 25]
    return out


class GnubgZeroPly:
    """gnubg's 0-ply cubeless checker play as a bgcore move-scoring policy.

    Called as ``policy(children, offsets)`` (children int8 (m, 26), each the
    mover's view after a move), it returns float64 (m,): minus the
    opponent's cubeless equity by gnubg after each move, the mover's equity.
    :meth:`evaluate` gives gnubg's outputs of boards seen by the player on
    roll.  The counters ``calls``, ``boards`` and ``seconds`` (spent inside) time it.
    Raises ImportError without gnubg.
    """

    __name__ = "gnubg 0-ply"

    def __init__(self) -> None:
        reason = gnubg_native.oracle.unavailable_reason()
        if reason is not None:
            raise ImportError(f"gnubg cannot serve: {reason}")
        gnubg: Any = importlib.import_module("gnubg")
        self._evaluate = gnubg.evaluate
        self._cubeinfo = gnubg_native.oracle.money_cubeinfo()  # not cubeinfo(): its defaults follow gnubg's match
        self._context = gnubg.evalcontext(0, 0, 1, 0, 0)  # cubeful 0, plies 0, deterministic, no pruning, no noise
        self._lock = threading.Lock()
        self.calls = 0
        self.boards = 0
        self.seconds = 0.0

    def evaluate(self, boards: np.ndarray) -> npt.NDArray[np.float64]:
        """gnubg's six outputs of each board (int8 (n, 26), the player on roll's
        view): win, win gammon, win backgammon, lose gammon, lose backgammon and
        the cubeless equity, float64 (n, 6)."""
        b = np.ascontiguousarray(np.asarray(boards, dtype=np.int8).reshape(-1, 26))
        with self._lock:
            start = time.perf_counter()
            rows = gnubg_layout(b).tolist()
            evaluate, cubeinfo, context = self._evaluate, self._cubeinfo, self._context
            out = np.array([evaluate((row[:25], row[25:]), cubeinfo, context) for row in rows], dtype=np.float64)
            self.calls += 1
            self.boards += len(b)
            self.seconds += time.perf_counter() - start
        return out.reshape(-1, 6)

    def __call__(self, children: np.ndarray, offsets: np.ndarray | None = None) -> npt.NDArray[np.float64]:
        """The mover's equity after each child: minus gnubg's equity of the
        opponent, on roll (the child flipped)."""
        opponent = np.negative(np.asarray(children, dtype=np.int8)[:, ::-1])
        scores: npt.NDArray[np.float64] = -self.evaluate(opponent)[:, 5]
        return scores

    def __repr__(self) -> str:
        return "GnubgZeroPly()"
