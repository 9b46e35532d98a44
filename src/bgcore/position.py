"""The :class:`Position` value and its lazy :class:`LegalMoves` sequence.

A position is always seen from the player on roll: that player moves from
their 24-point towards their 1-point and bears off from points 1-6.

>>> pos = Position.initial()
>>> pos
Position.from_position_id('4HPwATDgc/ABMA')
>>> moves = pos.legal_moves((3, 1))
>>> len(moves), str(moves[0])
(16, '24/23 24/21')
>>> m = pos.parse_move("8/5 6/5", (3, 1))
>>> after = pos.play(m)  # the opponent is now on roll
>>> after.pip_count()
(167, 163)
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, TypeVar, overload

import numpy as np

import bgcore._results as _results

from .diagram import render
from .errors import IllegalMoveError, InvalidPositionError
from .ids import XGID, decode_position_id, encode_position_id
from .move import Move, check_dice
from .notation import parse_notation
from .rules import CHECKERS, VARIANTS

__all__ = ["Position", "LegalMoves", "GameResult", "Outcome"]


_BOARD = struct.Struct("26b")
_STANDARD = VARIANTS["standard"].board

#: The variants played with a subclass of Position, by name: such a subclass
#: names its variant in its class statement (``class
#: AceyDeuceyPosition(Position, variant="acey-deucey")``), which enters it
#: here, so that :meth:`Position.initial` starts it while this module imports
#: none of them (``import bgcore`` imports them all).
_SUBCLASS_VARIANTS: dict[str, type[Position]] = {}


class Outcome(enum.IntEnum):
    """How a game was won; the value is the points it scores (before the cube)."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class GameResult(NamedTuple):
    """The result of a finished game.

    ``winner`` is 0 when the player on roll of the position has won, 1 when the
    opponent has (after :meth:`Position.play` the winner is the opponent).
    """

    winner: int
    outcome: Outcome

    @property
    def points(self) -> int:
        """Points scored with the cube at 1."""
        return int(self.outcome)


def _as_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    index: int = value.__index__()
    return index


class Position:
    """An immutable, hashable backgammon position seen from the player on roll.

    ``board`` is 26 ints: slots 1-24 the points in the on-roll player's
    numbering (positive: that player's checkers, negative: the opponent's),
    slot 25 the on-roll player's bar (>= 0) and slot 0 the opponent's bar
    (<= 0). ``checkers`` is how many checkers each side plays with (15, or 3
    in hypergammon); those not on the board have been borne off.
    """

    __slots__ = ("_board_cache", "_bytes", "_checkers", "_hash")

    _board_cache: tuple[int, ...] | None
    _bytes: bytes
    _checkers: int
    _hash: int

    def __init__(self, board: Sequence[int] | None = None, *, checkers: int = CHECKERS) -> None:
        if board is None:
            board = _STANDARD
        if isinstance(board, (str, bytes)):
            raise TypeError("Position(board) takes 26 ints; use Position.from_position_id for an ID")
        try:
            values = [_as_int(v, "a board slot") for v in board]
        except TypeError as exc:
            if not hasattr(board, "__iter__"):
                raise TypeError(f"a board is a sequence of 26 ints, not {type(board).__name__}") from None
            raise exc
        checkers = _as_int(checkers, "checkers")
        if not 1 <= checkers <= CHECKERS:  # before the core, whose C int a huge count would overflow
            raise InvalidPositionError(f"checkers per side must be 1-{CHECKERS}, not {checkers}")
        data = _results.check_board(values, checkers)
        object.__setattr__(self, "_board_cache", tuple(values))
        object.__setattr__(self, "_bytes", data)
        object.__setattr__(self, "_checkers", checkers)
        object.__setattr__(self, "_hash", _results.position_hash(data, checkers))

    @staticmethod
    def _trusted(data: bytes, checkers: int) -> Position:
        """Build from the core's 26 signed bytes, skipping validation."""
        return _results.position(data, checkers)

    @property
    def _board(self) -> tuple[int, ...]:
        board = self._board_cache
        if board is None:
            board = _BOARD.unpack(self._bytes)
            object.__setattr__(self, "_board_cache", board)
        return board

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __init_subclass__(cls, variant: str | None = None) -> None:
        """A subclass that plays a variant of its own names it (``variant=``),
        for :meth:`Position.initial`."""
        super().__init_subclass__()
        if variant is not None:
            _SUBCLASS_VARIANTS[variant] = cls

    # --- constructors and conversions -----------------------------------

    @classmethod
    def initial(cls, variant: str = "standard") -> Position:
        """The starting position of ``variant``: standard, nackgammon,
        hypergammon, or acey-deucey (an :class:`~bgcore.acey.AceyDeuceyPosition`,
        every checker off the board: a subclass's variant, which it registers)."""
        if cls is Position and isinstance(variant, str) and variant in _SUBCLASS_VARIANTS:
            return _SUBCLASS_VARIANTS[variant].initial(variant)
        try:
            board, checkers = VARIANTS[variant]
        except (KeyError, TypeError):
            choices = ", ".join((*VARIANTS, *_SUBCLASS_VARIANTS))
            raise ValueError(f"unknown variant {variant!r}; choose from {choices}") from None
        return cls(board, checkers=checkers)

    @classmethod
    def from_position_id(cls, position_id: str, *, checkers: int = CHECKERS) -> Position:
        """Read a GNU Backgammon Position ID (player on roll's view)."""
        return cls(decode_position_id(position_id), checkers=checkers)

    def position_id(self) -> str:
        """The GNU Backgammon Position ID, byte-exact with gnubg."""
        return encode_position_id(self._board)

    @classmethod
    def from_xgid(cls, xgid: str, *, checkers: int = CHECKERS) -> Position:
        """Read a full XGID (``XGID=`` optional), oriented to the player on roll."""
        return cls(XGID.parse(xgid).board, checkers=checkers)

    def xgid(self) -> str:
        """An XGID of this position, player on roll at the bottom, cube and score neutral."""
        return XGID(self._board).format()

    @classmethod
    def from_array(cls, array: Sequence[int] | np.ndarray, *, checkers: int = CHECKERS) -> Position:
        """Read the 26-count array of wildbg and bgsage (see the class docstring)."""
        a = np.asarray(array)
        if a.shape != (26,):
            raise InvalidPositionError(f"a board array has shape (26,), not {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"a board array holds integers, not {a.dtype}")
        return cls([int(v) for v in a], checkers=checkers)

    def to_array(self) -> np.ndarray:
        """The board as a new numpy int8 array of 26 counts."""
        array: np.ndarray = np.frombuffer(self._bytes, dtype=np.int8).copy()
        return array

    @property
    def board(self) -> tuple[int, ...]:
        """The 26 signed counts (see the class docstring)."""
        return self._board

    @property
    def checkers(self) -> int:
        """Checkers each side plays with."""
        return self._checkers

    def flip(self) -> Position:
        """The same board seen from the other player."""
        return _results.flipped_position(self._bytes, self._checkers)

    # --- counts and game state -------------------------------------------

    def pip_count(self) -> tuple[int, int]:
        """Pips to bear off: (player on roll, opponent); a checker on the bar counts 25."""
        b = self._board
        mine = sum(b[p] * p for p in range(1, 26) if b[p] > 0)
        theirs = sum(-b[p] * (25 - p) for p in range(0, 25) if b[p] < 0)
        return mine, theirs

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        b = self._board
        mine = sum(v for v in b if v > 0)
        theirs = -sum(v for v in b if v < 0)
        return self._checkers - mine, self._checkers - theirs

    def is_game_over(self) -> bool:
        """True when a side has borne off all its checkers."""
        return 0 in _results.on_board(self._bytes)

    def result(self) -> GameResult | None:
        """Who won a finished game and how (None while the game goes on).

        >>> Position([0] * 6 + [15] + [0] * 19).result()  # the opponent is off
        GameResult(winner=1, outcome=<Outcome.GAMMON: 2>)
        >>> Position.initial().result() is None
        True
        """
        b = self._board
        mine = sum(v for v in b if v > 0)
        theirs = -sum(v for v in b if v < 0)
        if mine and theirs:
            return None
        if not mine and not theirs:
            raise InvalidPositionError("both sides have borne off every checker")
        if not mine:  # the player on roll has won
            loser_left, winner = theirs, 0
            in_home = b[0] < 0 or any(b[p] < 0 for p in range(1, 7))
        else:
            loser_left, winner = mine, 1
            in_home = b[25] > 0 or any(b[p] > 0 for p in range(19, 25))
        if loser_left < self._checkers:
            outcome = Outcome.SINGLE
        elif in_home:
            outcome = Outcome.BACKGAMMON
        else:
            outcome = Outcome.GAMMON
        return GameResult(winner, outcome)

    # --- moves -------------------------------------------------------------

    def legal_moves(self, dice: tuple[int, int]) -> LegalMoves:
        """Every legal play of ``dice``, one :class:`Move` per distinct result.

        A lost turn gives exactly one move, the empty one; a finished game
        gives none. The sequence is lazy: Move objects are built on access.
        """
        rolled = check_dice(dice)
        return LegalMoves(self, rolled, _results.legal(self._bytes, rolled[0], rolled[1]))

    def children(self, dice: tuple[int, int]) -> list[Position]:
        """The positions every legal play of ``dice`` leads to, each seen from the
        opponent (now on roll): one per distinct result, in the order of
        :meth:`legal_moves`, built without a :class:`Move`.

        A lost turn gives one position, this one flipped; a finished game
        gives none.  Bad dice raise as :meth:`legal_moves` does.

        >>> pos = Position.initial()
        >>> kids = pos.children((3, 1))
        >>> len(kids), kids[0] == pos.play(pos.legal_moves((3, 1))[0])
        (16, True)
        >>> kids[0].pip_count()  # the opponent's view: 167 to go, the mover's 163
        (167, 163)
        """
        rolled = check_dice(dice)
        results = _results.legal(self._bytes, rolled[0], rolled[1])
        return [] if results is None else results.children(self._checkers)

    def play(self, move: Move) -> Position:
        """The position after ``move``, seen from the opponent (now on roll).

        Raises :class:`IllegalMoveError` if ``move`` is not legal here.
        """
        if not isinstance(move, Move):
            raise TypeError(f"play() takes a Move, not {type(move).__name__}; see parse_move()")
        if move._origin == self._bytes:  # a move of this board's legal_moves: legal here
            return _results.after(self._bytes, move._steps, self._checkers)
        results = _results.legal(self._bytes, move._dice[0], move._dice[1])
        index = -1 if results is None else results.find(move._steps)
        if results is None or index < 0:
            raise IllegalMoveError(
                f"{str(move) or 'the empty move'} is not legal with {move.dice[0]}-{move.dice[1]} in {self!r}"
            )
        return results.child(index, self._checkers)

    def parse_move(self, text: str, dice: tuple[int, int]) -> Move:
        """The legal move that ``text`` (standard notation) denotes with ``dice``.

        Accepts ``24/18 13/10*``, ``bar/22``, ``25/22``, ``6/off``, ``6/0``,
        ``8/5(2)``, ``24/18/13``; the stars are optional. Raises
        :class:`IllegalMoveError` naming why when no legal move matches, or
        when the text fits several.
        """
        steps = parse_notation(text)
        moves = self.legal_moves(dice)
        if not moves:
            raise IllegalMoveError("the game is over: there is no move to play")
        net = _net((src, dst) for src, dst, _ in steps)
        starred = {dst for _, dst, star in steps if star}
        landings = {dst for _, dst, _ in steps if dst}
        middles = {src for src, _, _ in steps} & landings
        best: list[Move] = []
        best_cost: tuple[int, int] | None = None
        for move in moves:
            if _net(move.steps) != net:
                continue
            hit_points = move.hit_points
            if not starred <= hit_points:
                continue
            visited = {dst for _, dst in move.steps}
            # first: points the text names but the play passes by, or hits it does not name;
            # then: hits without their star (stars are optional)
            cost = (len(hit_points - landings) + len(middles - visited), len(hit_points ^ starred))
            if best_cost is None or cost < best_cost:
                best, best_cost = [move], cost
            elif cost == best_cost:
                best.append(move)
        return _the_match(best, bool(steps), text, moves.dice, self)

    # --- dunder methods ---------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._bytes == other._bytes and self._checkers == other._checkers

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        extra = "" if self._checkers == CHECKERS else f", checkers={self._checkers}"
        return f"Position.from_position_id({self.position_id()!r}{extra})"

    def __str__(self) -> str:
        return render(self._board, self.pip_count(), self.borne_off(), self.position_id())

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, for Jupyter (:func:`bgcore.svg.board`)."""
        from .svg import board  # only when drawn: keeps ``import bgcore`` light

        return board(self)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            (Position, (self._board,), None, None, None)
            if self._checkers == CHECKERS
            else (_position_with_checkers, (self._board, self._checkers))
        )


def _position_with_checkers(board: tuple[int, ...], checkers: int) -> Position:
    return Position(board, checkers=checkers)


_results.register(Position, Move)


class LegalMoves(Sequence[Move]):
    """The legal moves of one roll, built lazily over the native result buffer.

    Supports ``len()``, indexing, iteration and ``in``, like python-chess's
    ``LegalMoveGenerator``; :meth:`position_after` gives the position a move
    leads to without building the Move.  Iterating builds every Move at once
    (in native code), and keeps them for the next iteration.
    """

    __slots__ = ("_dice", "_moves", "_position", "_results")

    _moves: list[Move] | None

    def __init__(self, position: Position, dice: tuple[int, int], results: _results.Results | None) -> None:
        self._position = position
        self._dice = dice
        self._results = results
        self._moves = None

    @property
    def dice(self) -> tuple[int, int]:
        """The roll, higher die first."""
        return self._dice

    def __len__(self) -> int:
        return 0 if self._results is None else len(self._results)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return self._list()[index]
        n = len(self)
        i = index.__index__()
        if i < 0:
            i += n
        results = self._results
        if results is None or not 0 <= i < n:
            raise IndexError("legal move index out of range")
        if self._moves is not None:
            return self._moves[i]
        return results.move_at(i, self._dice)

    def _list(self) -> list[Move]:
        """Every move, built on first use."""
        moves = self._moves
        if moves is None:
            moves = self._moves = [] if self._results is None else self._results.moves(self._dice)
        return moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def _index_of(self, move: Move) -> int:
        """Index of the result ``move`` reaches, or -1 when it is not legal."""
        if self._results is None or move.dice != self._dice:
            return -1
        return self._results.find(move.steps)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._index_of(move) >= 0

    def position_after(self, index: int) -> Position:
        """The position after move ``index``, seen from the opponent (now on roll)."""
        if self._results is None or not 0 <= index < len(self._results):
            raise IndexError("legal move index out of range")
        return self._results.child(index, self._position._checkers)

    def positions(self) -> list[Position]:
        """Every position the moves lead to, each seen from the opponent (now on roll)."""
        return [] if self._results is None else self._results.children(self._position._checkers)

    def __repr__(self) -> str:
        shown = ", ".join(str(m) or "(no move)" for m in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalMoves {self._dice[0]}-{self._dice[1]} ({len(self)}): {shown}{more}>"


M = TypeVar("M", bound=Move)


def _the_match(found: list[M], any_steps: bool, text: str, dice: tuple[int, int], position: Position) -> M:
    """The one legal move that notation ``text`` matched (``found``), else
    IllegalMoveError saying why: none (a pass where a move exists, or no
    such move) or several."""
    hi, lo = dice
    if not found:
        if not any_steps:
            raise IllegalMoveError(f"{hi}-{lo} has a legal move here: the turn cannot be passed")
        raise IllegalMoveError(f"{text.strip()!r} is not a legal move with {hi}-{lo} in {position!r}")
    if len(found) > 1:
        options = ", ".join(str(m) for m in found)
        raise IllegalMoveError(f"{text.strip()!r} is ambiguous with {hi}-{lo}: it could be {options}")
    return found[0]


def _net(steps: Iterable[tuple[int, int]]) -> list[int]:
    """How many of the mover's checkers each slot gains (index 0: borne off)."""
    net = [0] * 26
    for src, dst in steps:
        net[src] -= 1
        net[dst] += 1
    return net
