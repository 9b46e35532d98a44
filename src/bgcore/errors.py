"""Exceptions raised by bgcore.

Like python-chess, the errors about bad positions and illegal moves subclass
:class:`ValueError`, so ``except ValueError`` catches every bad-input case.
"""

from __future__ import annotations

__all__ = [
    "InvalidPositionError",
    "IllegalMoveError",
    "IllegalActionError",
    "InvalidMatchIdError",
    "MatchEquityError",
    "MoneyGameError",
]


class InvalidPositionError(ValueError):
    """A position, Position ID, XGID or board array that is not a legal board."""


class IllegalMoveError(ValueError):
    """A move that is not legal (or not well-formed) in the given position and roll."""


class IllegalActionError(ValueError):
    """A game action (roll, double, take, resign, ...) that the rules do not allow now."""


class MatchEquityError(ValueError):
    """A score, away count, cube, equity or set of probabilities that match equity is not defined for."""


class MoneyGameError(MatchEquityError):
    """A match winning chance asked of a money game (match length 0), where there is none."""


class InvalidMatchIdError(ValueError):
    """A GNU Backgammon Match ID (or match state) that gnubg would not write or read."""
