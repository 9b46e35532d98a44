"""Exceptions raised by bgcore.

Like python-chess, the errors about bad positions and illegal moves subclass
:class:`ValueError`, so ``except ValueError`` catches every bad-input case.
"""

from __future__ import annotations

__all__ = ["InvalidPositionError", "IllegalMoveError", "InvalidMatchIdError"]


class InvalidPositionError(ValueError):
    """A position, Position ID, XGID or board array that is not a legal board."""


class IllegalMoveError(ValueError):
    """A move that is not legal (or not well-formed) in the given position and roll."""


class InvalidMatchIdError(ValueError):
    """A GNU Backgammon Match ID (or match state) that gnubg would not write or read."""
