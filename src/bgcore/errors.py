"""Exceptions raised by bgcore.

Like python-chess, the errors about bad positions and illegal moves subclass
:class:`ValueError`, and so does the error about a bad seed of the dice, so
``except ValueError`` catches every bad-input case.
"""

from __future__ import annotations

__all__ = [
    "InvalidPositionError",
    "IllegalMoveError",
    "IllegalActionError",
    "InvalidMatchIdError",
    "InvalidSeedError",
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


class InvalidSeedError(ValueError):
    """A seed, stream or saved state of :class:`bgcore.Dice` out of range
    (seeds and streams are integers from 0 to 2**64 - 1), or a server seed of
    :class:`bgcore.ProvablyFairDice` that cannot be used."""
