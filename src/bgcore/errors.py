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
    "MatFileError",
    "NetworkError",
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


class MatFileError(ValueError):
    """A Jellyfish ``.mat`` match file that cannot be read, or whose games do
    not replay under the rules (an illegal move, a wrong score, a double the
    rules forbid...).  ``game`` and ``move`` are the game number and move
    number of the file where the trouble is (None where there is none), and
    ``line`` the line number (1-based, None when unknown); the message names
    them too."""

    def __init__(
        self, message: str, *, game: int | None = None, move: int | None = None, line: int | None = None
    ) -> None:
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move is not None:
            where.append(f"move {move}")
        if line is not None:
            where.append(f"line {line}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.game = game
        self.move = move
        self.line = line


class NetworkError(ValueError):
    """A network that :class:`bgcore.nn.Network` cannot hold: arrays of the
    wrong shapes or with NaN or infinite values, an unknown encoding,
    activation or output kind, a saved file of an unknown format version, or
    an ONNX graph that is not a chain of dense layers (the message names the
    node)."""
