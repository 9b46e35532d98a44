"""bgcore: a fast, rules-exact backgammon engine core.

>>> import bgcore
>>> pos = bgcore.Position.initial()
>>> [str(m) for m in pos.legal_moves((6, 5))][:3]
['24/13', '24/18 13/8', '24/18 8/3']
"""

from __future__ import annotations

import os

from . import (
    acey,  # noqa: F401 - registers acey-deucey, so that Position.initial starts it
    batch,
    encode,
    matfile,  # noqa: F401 - registers the .mat codec behind Match.from_mat and Match.to_mat
)
from .bot import Bot
from .cube import CubeAction, CubeDecision
from .dice import Dice
from .errors import (
    IllegalActionError,
    IllegalMoveError,
    InvalidMatchIdError,
    InvalidPositionError,
    InvalidSeedError,
    MatFileError,
    NetworkError,
)
from .fair import ProvablyFairDice, verify
from .game import Game
from .gametree import perft
from .match import Match
from .met import eq_to_mwc, match_equity, mwc_to_eq
from .move import Move
from .position import GameResult, LegalMoves, Outcome, Position
from .rollouts import RolloutResult, rollout
from .rules import ROLLS, VARIANTS
from .selfplay import DuelResult, duel

try:
    from ._version import __version__
except ImportError:  # pragma: no cover - a build outside git without setuptools-scm
    __version__ = "0+unknown"

__all__ = [
    "Position",
    "Move",
    "LegalMoves",
    "GameResult",
    "Outcome",
    "VARIANTS",
    "ROLLS",
    "InvalidPositionError",
    "IllegalMoveError",
    "IllegalActionError",
    "Game",
    "Bot",
    "Match",
    "InvalidMatchIdError",
    "MatFileError",
    "NetworkError",
    "CubeDecision",
    "CubeAction",
    "Dice",
    "ProvablyFairDice",
    "verify",
    "InvalidSeedError",
    "get_include",
    "perft",
    "match_equity",
    "eq_to_mwc",
    "mwc_to_eq",
    "batch",
    "encode",
    "rollout",
    "RolloutResult",
    "duel",
    "DuelResult",
    "__version__",
]


def get_include() -> str:
    """The folder to put on Cython's include path to ``cimport bgcore.movegen``.

    It holds the ``bgcore`` package with its ``.pxd`` files (like
    ``numpy.get_include()`` for numpy's headers)::

        cythonize(extensions, include_path=[bgcore.get_include()])

    and then, in the ``.pyx``::

        from bgcore.movegen cimport bg_board, bg_movegen_new, bg_generate
    """
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
