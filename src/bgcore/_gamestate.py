"""The records of a :class:`~bgcore.Game`: what a player may do, how a game
ends, its outcome, each action of its history, and the snapshot of
everything an action may change (for undo).  :mod:`bgcore.game` re-exports
the public names; this module sits below it so that the game's pieces
(its IDs, its import of records) can build on them without a cycle."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .move import Move
from .position import Outcome, Position

__all__ = ["Action", "ApplyArgument", "DiceSource", "End", "GameOutcome", "Record"]


@runtime_checkable
class DiceSource(Protocol):
    """Anything that rolls two dice: :class:`~bgcore.Dice`,
    :class:`~bgcore.ProvablyFairDice` or a user's own source."""

    def roll(self) -> tuple[int, int]:
        """Two dice, each 1-6."""
        ...


class Action(enum.Enum):
    """What a player may do (see :meth:`Game.legal_actions`)."""

    ROLL = "roll"
    MOVE = "move"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RESIGN = "resign"
    ACCEPT = "accept"
    REJECT = "reject"


class End(enum.Enum):
    """How a game ended."""

    BORNE_OFF = "borne off"
    DROPPED = "dropped"
    RESIGNED = "resigned"


@dataclass(frozen=True)
class GameOutcome:
    """The result of a finished game: who won, how many points (the kind's
    multiplier times the cube, after the Jacoby rule and tabla's "mars"),
    the kind of win and how the game ended."""

    winner: int
    points: int
    kind: Outcome
    end: End
    cube: int


@dataclass(frozen=True)
class Record:
    """One action of :attr:`Game.history`: who did what.  ``dice`` for a roll
    (as rolled: for the opening, player 0's die then player 1's), ``move`` for a
    move, ``kind`` for a resignation."""

    player: int
    action: Action
    dice: tuple[int, int] | None = None
    move: Move | None = None
    kind: Outcome | None = None


#: What :meth:`Game.apply` takes with an action: a move (MOVE), dice (ROLL),
#: a kind of resignation (RESIGN) or nothing.
ApplyArgument = Move | str | Sequence[int] | Outcome | int | None


@dataclass(frozen=True)
class _State:
    """Everything an action may change, for undo."""

    position: Position
    turn: int
    on_roll: int
    dice: tuple[int, int] | None
    opening: bool
    cube: int
    cube_owner: int | None
    doubled: bool
    resigned: Outcome | None
    outcome: GameOutcome | None
    dice_state: object
    again: bool = False  # acey-deucey: the player on roll rolls again, within the same turn
