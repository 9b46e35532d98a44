"""bgcore: a fast, rules-exact backgammon engine core.

>>> import bgcore
>>> pos = bgcore.Position.initial()
>>> [str(m) for m in pos.legal_moves((6, 5))][:3]
['24/13', '24/18 13/8', '24/18 8/3']
"""

from __future__ import annotations

import os

from . import batch
from .errors import IllegalMoveError, InvalidPositionError
from .move import Move
from .perft import perft
from .position import VARIANTS, GameResult, LegalMoves, Outcome, Position

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
    "InvalidPositionError",
    "IllegalMoveError",
    "get_include",
    "perft",
    "batch",
    "__version__",
]


def get_include() -> str:
    """The folder holding bgcore's ``.pxd`` files, for ``cimport bgcore._core``.

    Add it (its parent, really: ``include_path=[os.path.dirname(bgcore.get_include())]``)
    to ``cythonize``'s include path.
    """
    return os.path.dirname(os.path.abspath(__file__))
