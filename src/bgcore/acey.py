"""Acey-deucey: every checker starts off the board, and 1-2 earns a double.

The rules, their sources and the choices made where sources differ are in the
documentation's *Acey-deucey* page.  In short: each side's fifteen checkers
wait off the board and enter as from the bar (a die of n on the mover's
(25 - n)-point) whenever the mover likes, the bar first; bearing off needs
all fifteen home; after playing 1-2 in full the mover names a double, plays
it, and after playing that in full rolls again.

:class:`AceyDeuceyPosition` is a :class:`~bgcore.Position` with one more
count per side, the checkers still ``waiting`` to enter; its board arrays
have 28 slots (the 26 of a standard board, then the mover's and the
opponent's waiting checkers).  Its moves are :class:`AceyDeuceyMove`: up to
six steps (1-2, then four of the named double), the named double and
whether the mover rolls again.  Entering is written as from the bar.

>>> pos = AceyDeuceyPosition.initial()
>>> pos.waiting, pos.pip_count()
((15, 15), (375, 375))
>>> [str(m) for m in pos.legal_moves((6, 5))]
['bar/20 bar/19', 'bar/14']
>>> moves = pos.legal_moves((2, 1))
>>> move = moves[0]
>>> str(move), move.named, move.again
('bar/24 bar/23 + 1-1: bar/24(4)', 1, True)
>>> after = pos.play(move)  # the mover rolls again: still on roll
>>> after.waiting
(9, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import overload

import numpy as np

import bgcore._acey as _acey
import bgcore._results as _results

from .diagram import render
from .errors import IllegalMoveError, InvalidPositionError
from .ids import decode_position_id
from .move import Move, check_dice
from .notation import format_steps, parse_notation
from .policy import check_int
from .position import GameResult, Outcome, Position, _net, _the_match
from .rules import CHECKERS, ROLLS

__all__ = ["AceyDeuceyPosition", "AceyDeuceyMove", "AceyDeuceyMoves", "perft", "perft_counts"]

_NO_BOARD = (0,) * 26


class AceyDeuceyMove(Move):
    """One way to play a roll in acey-deucey.

    ``steps`` are the single-die steps in the order played (25 enters a
    checker: from the bar, or a waiting one when the bar is empty).  After
    1-2 played in full, ``named`` is the double the mover named and the
    steps go on with it; ``again`` tells whether the mover rolls again (the
    named double was played in full).  ``str()`` writes the 1-2 and the
    double apart: ``'bar/23 24/22 + 6-6: 13/7(2) 22/16(2)'``.

    >>> m = AceyDeuceyMove([(25, 23), (25, 24)] + [(25, 19)] * 4, dice=(2, 1), named=6, again=True)
    >>> str(m), m.pips
    ('bar/24 bar/23 + 6-6: bar/19(4)', 27)
    """

    __slots__ = ("_after", "_again", "_named")

    _named: int | None
    _again: bool
    # A move from AceyDeuceyPosition.legal_moves knows its outcome's board
    # (``_after``, 28 bytes) as a Move knows its ``_origin``: no part of
    # equality, hashing or pickling.
    _after: bytes | None

    def __init__(
        self,
        steps: Iterable[tuple[int, int]],
        dice: tuple[int, int],
        hits: Iterable[bool] | None = None,
        *,
        named: int | None = None,
        again: bool = False,
    ) -> None:
        step_list = list(steps)
        hit_list = None if hits is None else list(hits)
        rolled = check_dice(dice)
        if named is not None:
            if isinstance(named, bool) or not isinstance(named, int) or not 1 <= named <= 6:
                raise ValueError(f"the named double is a die 1-6, not {named!r}")
            if rolled != (2, 1):
                raise ValueError(f"only 1-2 names a double, not {rolled[0]}-{rolled[1]}")
            if len(step_list) < 2:
                raise ValueError("a double is named only after the 1 and the 2 are both played")
        limit = 6 if named is not None else 4
        if len(step_list) > limit:
            raise ValueError(f"this move has at most {limit} steps, not {len(step_list)}")
        if again and (named is None or len(step_list) != 6):
            raise ValueError("only a named double played in full rolls again")
        # Move checks steps, hits and dice; its limit of four steps is for
        # one roll's dice, and the named double's steps are a second roll.
        first, rest = step_list[:4], step_list[4:]
        first_hits = None if hit_list is None else hit_list[:4]
        super().__init__(first, rolled, first_hits)
        if rest:
            tail = Move(rest, (named or 1, named or 1), None if hit_list is None else hit_list[4:])
            object.__setattr__(self, "_steps", self._steps + tail._steps)
            object.__setattr__(self, "_hits", self._hits + tail._hits)
        object.__setattr__(self, "_named", named)
        object.__setattr__(self, "_again", bool(again))
        object.__setattr__(self, "_after", None)
        object.__setattr__(self, "_hash", hash((self._hash, self._steps, named, bool(again))))

    @property
    def named(self) -> int | None:
        """The double named after 1-2 (None for any other move)."""
        return self._named

    @property
    def again(self) -> bool:
        """True when the mover rolls again: 1-2 and the named double played in full."""
        return self._again

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        mine = (self._steps, self._hits, self._dice, self._named, self._again)
        return mine == (
            other._steps,
            other._hits,
            other._dice,
            getattr(other, "_named", None),
            getattr(other, "_again", False),
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if self._named is None:
            return super().__str__()
        hit = [dst for (_, dst), h in zip(self._steps, self._hits, strict=True) if h]
        first = format_steps(
            self._steps[:2], {d for (_, d), h in zip(self._steps[:2], self._hits[:2], strict=True) if h}
        )
        rest = format_steps(self._steps[2:], set(hit) - set(hit[: sum(self._hits[:2])]))
        d = self._named
        return f"{first} + {d}-{d}: {rest}".rstrip()

    def __repr__(self) -> str:
        return (
            f"AceyDeuceyMove({self._steps!r}, dice={self._dice!r}, hits={self._hits!r}, "
            f"named={self._named!r}, again={self._again!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:  # type: ignore[override]
        return (_move, (self._steps, self._dice, self._hits, self._named, self._again))


def _move(
    steps: tuple[tuple[int, int], ...], dice: tuple[int, int], hits: tuple[bool, ...], named: int | None, again: bool
) -> AceyDeuceyMove:
    return AceyDeuceyMove(steps, dice, hits, named=named, again=again)


def _check_waiting(waiting: object) -> tuple[int, int]:
    """(mover, opponent) checkers waiting to enter, checked."""
    if not isinstance(waiting, (tuple, list)) or len(waiting) != 2:
        raise InvalidPositionError(f"waiting is a pair of counts (mover, opponent), not {waiting!r}")
    counts = []
    for w in waiting:
        if isinstance(w, bool) or not isinstance(w, (int, np.integer)) or not 0 <= w <= CHECKERS:
            raise InvalidPositionError(f"checkers waiting to enter are counts 0-{CHECKERS}, not {waiting!r}")
        counts.append(int(w))
    return counts[0], counts[1]


class AceyDeuceyPosition(Position, variant="acey-deucey"):
    """A position of acey-deucey, seen from the player on roll.

    ``board`` is the 26-slot board of :class:`~bgcore.Position`; ``waiting``
    the checkers of (the mover, the opponent) that have not yet entered.  A
    side with checkers waiting has borne none off (bearing off needs all
    fifteen home).  ``AceyDeuceyPosition()`` is the start: an empty board,
    fifteen waiting a side.

    >>> AceyDeuceyPosition([0] * 19 + [2] + [0] * 6, waiting=(13, 15))
    AceyDeuceyPosition.from_position_id('AAAAAAAYAAAAAA', waiting=(13, 15))
    >>> AceyDeuceyPosition([0] * 19 + [2] + [0] * 6, waiting=(12, 15))
    Traceback (most recent call last):
    ...
    bgcore.errors.InvalidPositionError: the mover has 2 checkers on the board and 12 waiting: ...
    """

    __slots__ = ("_waiting",)

    _waiting: tuple[int, int]

    def __init__(self, board: Sequence[int] | None = None, *, waiting: tuple[int, int] | None = None) -> None:
        if board is None:
            board = _NO_BOARD
            if waiting is None:
                waiting = (CHECKERS, CHECKERS)
        super().__init__(board, checkers=CHECKERS)
        counts = _check_waiting((0, 0) if waiting is None else waiting)
        b = self._board
        on_board = (sum(v for v in b if v > 0), -sum(v for v in b if v < 0))
        for side, name in ((0, "the mover"), (1, "the opponent")):
            w, n = counts[side], on_board[side]
            if n + w > CHECKERS:
                raise InvalidPositionError(
                    f"{name} has {n} checkers on the board and {w} waiting: more than {CHECKERS}"
                )
            if w and n + w != CHECKERS:
                raise InvalidPositionError(
                    f"{name} has {n} checkers on the board and {w} waiting: a side with checkers waiting "
                    f"has all {CHECKERS} on the board or waiting"
                )
        object.__setattr__(self, "_waiting", counts)
        object.__setattr__(self, "_hash", hash((self._hash, counts)))

    @classmethod
    def _from_bytes(cls, data: bytes) -> AceyDeuceyPosition:
        """From the native 28-byte board (trusted: it came from the generator)."""
        pos = cls.__new__(cls)
        object.__setattr__(pos, "_board_cache", None)
        object.__setattr__(pos, "_bytes", data[:26])
        object.__setattr__(pos, "_checkers", CHECKERS)
        waiting = (data[26], data[27])
        object.__setattr__(pos, "_waiting", waiting)
        object.__setattr__(pos, "_hash", hash((_results.position_hash(data[:26], CHECKERS), waiting)))
        return pos

    @property
    def _data(self) -> bytes:
        return self._bytes + bytes(self._waiting)

    @property
    def waiting(self) -> tuple[int, int]:
        """Checkers waiting to enter: (the mover's, the opponent's)."""
        return self._waiting

    # --- constructors and conversions -----------------------------------------

    @classmethod
    def initial(cls, variant: str = "acey-deucey") -> AceyDeuceyPosition:
        """The start: every checker waiting to enter."""
        if variant != "acey-deucey":
            raise ValueError(f"an AceyDeuceyPosition starts acey-deucey, not {variant!r}; see Position.initial")
        return cls()

    @classmethod
    def from_position_id(  # type: ignore[override]
        cls, position_id: str, *, waiting: tuple[int, int] = (0, 0)
    ) -> AceyDeuceyPosition:
        """The board of a GNU Backgammon Position ID, with ``waiting`` checkers
        (an ID has no room for them)."""
        return cls(decode_position_id(position_id), waiting=waiting)

    @classmethod
    def from_xgid(cls, xgid: str, **_: object) -> AceyDeuceyPosition:
        """Not available: an XGID cannot say which checkers are waiting to enter."""
        raise InvalidPositionError("an XGID has no room for checkers waiting to enter: use from_array or the board")

    def xgid(self) -> str:
        """Not available: an XGID cannot say which checkers are waiting to enter."""
        raise InvalidPositionError("an XGID has no room for checkers waiting to enter: use to_array")

    def position_id(self) -> str:
        """The board's GNU Backgammon Position ID, once no checker waits to
        enter: an ID has no room for them (InvalidPositionError while some
        wait, rather than the ID of a board without them).

        >>> AceyDeuceyPosition.initial().position_id()
        Traceback (most recent call last):
        ...
        bgcore.errors.InvalidPositionError: a Position ID has no room for the checkers waiting to enter (15, 15): ...
        >>> AceyDeuceyPosition.from_position_id("4HPwATDgc/ABMA").position_id()
        '4HPwATDgc/ABMA'
        """
        if any(self._waiting):
            mover, opponent = self._waiting
            raise InvalidPositionError(
                f"a Position ID has no room for the checkers waiting to enter ({mover}, {opponent}): use to_array"
            )
        return Position.position_id(self)

    @classmethod
    def from_array(  # type: ignore[override]
        cls, array: Sequence[int] | np.ndarray
    ) -> AceyDeuceyPosition:
        """Read the 28-slot array of :meth:`to_array`."""
        a = np.asarray(array)
        if a.shape != (28,):
            raise InvalidPositionError(f"an acey-deucey board array has shape (28,), not {a.shape}")
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"a board array holds integers, not {a.dtype}")
        values = [int(v) for v in a]
        return cls(values[:26], waiting=(values[26], values[27]))

    def to_array(self) -> np.ndarray:
        """The board as a new int8 array of 28 slots: the 26 of a standard
        board, then the mover's and the opponent's waiting checkers."""
        array: np.ndarray = np.frombuffer(self._data, dtype=np.int8).copy()
        return array

    def flip(self) -> AceyDeuceyPosition:
        """The same position seen from the other player."""
        return AceyDeuceyPosition._from_bytes(_results.flip(self._bytes) + bytes(self._waiting[::-1]))

    # --- counts and game state ------------------------------------------------

    def pip_count(self) -> tuple[int, int]:
        """Pips to bear off: (mover, opponent); a checker waiting or on the bar counts 25."""
        mine, theirs = super().pip_count()
        return mine + 25 * self._waiting[0], theirs + 25 * self._waiting[1]

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (mover, opponent)."""
        mine, theirs = super().borne_off()
        return mine - self._waiting[0], theirs - self._waiting[1]

    def is_game_over(self) -> bool:
        """True when a side has borne off all its checkers."""
        return CHECKERS in self.borne_off()

    def result(self) -> GameResult | None:
        """Who won a finished game and how (None while it goes on); waiting
        checkers count as on the bar: a loser with one waiting, and none
        borne off, loses a backgammon.

        >>> AceyDeuceyPosition([0] * 26, waiting=(0, 15)).result()
        GameResult(winner=0, outcome=<Outcome.BACKGAMMON: 3>)
        """
        off = self.borne_off()
        if off[0] < CHECKERS and off[1] < CHECKERS:
            return None
        if off == (CHECKERS, CHECKERS):
            raise InvalidPositionError("both sides have borne off every checker")
        b = self._board
        if off[0] == CHECKERS:
            winner, loser_off = 0, off[1]
            in_home = self._waiting[1] > 0 or b[0] < 0 or any(b[p] < 0 for p in range(1, 7))
        else:
            winner, loser_off = 1, off[0]
            in_home = self._waiting[0] > 0 or b[25] > 0 or any(b[p] > 0 for p in range(19, 25))
        if loser_off:
            return GameResult(winner, Outcome.SINGLE)
        return GameResult(winner, Outcome.BACKGAMMON if in_home else Outcome.GAMMON)

    # --- moves ------------------------------------------------------------------

    def legal_moves(self, dice: tuple[int, int]) -> AceyDeuceyMoves:  # type: ignore[override]
        """Every legal play of ``dice``, one per distinct outcome (the board
        after it and whether the mover rolls again).  A lost turn gives one
        move, the empty one; a finished game none."""
        rolled = check_dice(dice)
        if self.is_game_over():
            return AceyDeuceyMoves(self, rolled, b"", b"")
        return AceyDeuceyMoves(self, rolled, *_acey.generate(self._data, rolled[0], rolled[1]))

    def children(self, dice: tuple[int, int]) -> list[Position]:
        """The positions every legal play of ``dice`` leads to, each seen from
        the player on roll next (the mover again when the move rolls again)."""
        return list(self.legal_moves(dice).positions())

    def play(self, move: Move) -> AceyDeuceyPosition:
        """The position after ``move``, seen from the player on roll next: the
        opponent, or the mover when ``move.again``."""
        if not isinstance(move, Move):
            raise TypeError(f"play() takes a Move, not {type(move).__name__}; see parse_move()")
        after = getattr(move, "_after", None)
        if after is not None and move._origin == self._data:  # one of this position's legal moves
            return _after(after, move.again)  # type: ignore[attr-defined]
        moves = self.legal_moves(move.dice)
        index = moves._index_of(move)
        if index < 0:
            raise IllegalMoveError(
                f"{str(move) or 'the empty move'} is not legal with {move.dice[0]}-{move.dice[1]} in {self!r}"
            )
        return moves.position_after(index)

    def parse_move(self, text: str, dice: tuple[int, int]) -> AceyDeuceyMove:
        """The legal move ``text`` denotes: standard notation, and after 1-2
        the named double as ``+ 6-6:`` followed by its steps (``bar/23
        24/22 + 6-6: 13/7(2) 22/16(2)``).  Raises :class:`IllegalMoveError`
        when no legal move matches or when several do."""
        if not isinstance(text, str):
            raise TypeError(f"move notation is a str, not {type(text).__name__}")
        moves = self.legal_moves(dice)
        if not moves:
            raise IllegalMoveError("the game is over: there is no move to play")
        first, plus, rest = text.partition("+")
        named: int | None = None
        steps = parse_notation(first)
        if plus:
            double, colon, tail = rest.partition(":")
            parts = double.strip().split("-")
            if not colon or len(parts) != 2 or parts[0] != parts[1] or parts[0] not in "123456" or len(parts[0]) != 1:
                raise IllegalMoveError(f"after '+' comes the named double, such as '6-6:', in {text!r}")
            named = int(parts[0])
            steps += parse_notation(tail)
        net = _net((src, dst) for src, dst, _ in steps)
        starred = {dst for _, dst, star in steps if star}
        matches = [
            m for m in moves if _net(m.steps) == net and (named is None or m.named == named) and starred <= m.hit_points
        ]
        if len(matches) > 1:  # stars are optional: prefer the move whose hits they name
            exact = [m for m in matches if m.hit_points == starred]
            matches = exact or matches
        if len(matches) > 1 and named is None and any(m.again for m in matches):
            matches = [m for m in matches if m.again]  # rolling again unless a double is named
        return _the_match(matches, bool(steps), text, moves.dice, self)

    # --- dunder methods -----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return isinstance(other, AceyDeuceyPosition) and self._bytes == other._bytes and self._waiting == other._waiting

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        # the board's ID (Position's), which the waiting checkers complete
        return f"AceyDeuceyPosition.from_position_id({Position.position_id(self)!r}, waiting={self._waiting!r})"

    def __str__(self) -> str:

        w = self._waiting
        board = render(self._board, self.pip_count(), self.borne_off(), Position.position_id(self))
        return f"{board}\nWaiting to enter: {w[0]} (on roll), {w[1]}"

    def __reduce__(self) -> tuple[object, ...]:
        return (_position, (self._board, self._waiting))


def _position(board: tuple[int, ...], waiting: tuple[int, int]) -> AceyDeuceyPosition:
    return AceyDeuceyPosition(board, waiting=waiting)


_MOVE_BYTES = 16  # an ad_move: nsteps, hits, named, again, src[6], dst[6]


class AceyDeuceyMoves(Sequence[AceyDeuceyMove]):
    """The legal moves of one roll in acey-deucey, one per distinct outcome,
    built lazily over the generator's buffers (after 1-2 there may be tens of
    thousands)."""

    __slots__ = ("_boards", "_cache", "_dice", "_moves", "_n", "_position")

    def __init__(self, position: AceyDeuceyPosition, dice: tuple[int, int], boards: bytes, moves: bytes) -> None:
        self._position = position
        self._dice = dice
        self._boards = boards
        self._moves = moves
        self._n = len(boards) // _acey.SLOTS
        self._cache: dict[int, AceyDeuceyMove] = {}

    @property
    def dice(self) -> tuple[int, int]:
        """The roll, higher die first."""
        return self._dice

    def __len__(self) -> int:
        return self._n

    def _move(self, i: int) -> AceyDeuceyMove:
        move = self._cache.get(i)
        if move is None:
            raw = self._moves[i * _MOVE_BYTES : (i + 1) * _MOVE_BYTES]
            nsteps, hits, named, again = raw[0], raw[1], raw[2], raw[3]
            steps = [(raw[4 + k], raw[10 + k]) for k in range(nsteps)]
            move = AceyDeuceyMove(
                steps, self._dice, [bool(hits >> k & 1) for k in range(nsteps)], named=named or None, again=bool(again)
            )
            # Played on this position, the move needs no generation to be known legal.
            object.__setattr__(move, "_origin", self._position._data)
            object.__setattr__(move, "_after", self._boards[i * _acey.SLOTS : (i + 1) * _acey.SLOTS])
            self._cache[i] = move
        return move

    @overload
    def __getitem__(self, index: int) -> AceyDeuceyMove: ...

    @overload
    def __getitem__(self, index: slice) -> list[AceyDeuceyMove]: ...

    def __getitem__(self, index: int | slice) -> AceyDeuceyMove | list[AceyDeuceyMove]:
        if isinstance(index, slice):
            return [self._move(i) for i in range(*index.indices(self._n))]
        i = index.__index__()
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal move index out of range")
        return self._move(i)

    def __iter__(self) -> Iterator[AceyDeuceyMove]:
        return (self._move(i) for i in range(self._n))

    def _index_of(self, move: Move) -> int:
        """Index of the legal move equal to ``move``, or of one playing the
        same steps in another order; -1 when none."""
        if move.dice != self._dice:
            return -1
        named, again = getattr(move, "_named", None), getattr(move, "_again", False)
        parts = _parts(move)
        for i in range(self._n):
            m = self._move(i)
            if m.named == named and m.again == again and (m == move or _parts(m) == parts):
                return i
        return -1

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._index_of(move) >= 0

    def boards(self) -> np.ndarray:
        """The boards after each move, the mover still on roll: int8 (n, 28)
        (see :meth:`AceyDeuceyPosition.to_array`)."""
        boards: np.ndarray = np.frombuffer(self._boards, dtype=np.int8).reshape(self._n, _acey.SLOTS).copy()
        return boards

    def again(self) -> np.ndarray:
        """Whether each move rolls again: bool (n,)."""
        return np.frombuffer(self._moves, dtype=np.uint8).reshape(self._n, _MOVE_BYTES)[:, 3].astype(bool)

    def outcomes(self) -> list[tuple[tuple[int, ...], int, bool]]:
        """Each move's outcome, the mover still on roll: (the 26-slot board,
        the mover's checkers waiting, whether the mover rolls again)."""
        boards = self.boards().tolist()
        return [(tuple(b[:26]), b[26], bool(a)) for b, a in zip(boards, self.again().tolist(), strict=True)]

    def position_after(self, index: int) -> AceyDeuceyPosition:
        """The position after move ``index``, seen from the player on roll next."""
        if not 0 <= index < self._n:
            raise IndexError("legal move index out of range")
        again = self._moves[index * _MOVE_BYTES + 3]
        return _after(self._boards[index * _acey.SLOTS : (index + 1) * _acey.SLOTS], bool(again))

    def positions(self) -> list[AceyDeuceyPosition]:
        """Every position the moves lead to, each seen from the player on roll next."""
        return [self.position_after(i) for i in range(self._n)]

    def __repr__(self) -> str:
        shown = ", ".join(str(m) or "(no move)" for m in self[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<AceyDeuceyMoves {self._dice[0]}-{self._dice[1]} ({len(self)}): {shown}{more}>"


def _after(data: bytes, again: bool) -> AceyDeuceyPosition:
    """The position of the player on roll after a move reaching ``data``."""
    after = AceyDeuceyPosition._from_bytes(data)
    return after if again else after.flip()


def _parts(move: Move) -> tuple[list[tuple[tuple[int, int], bool]], list[tuple[tuple[int, int], bool]]]:
    """The steps of a move with their hits, as two multisets: 1-2 (or the whole
    roll), and the named double."""
    steps = list(zip(move.steps, move.hits, strict=True))
    cut = 2 if getattr(move, "_named", None) else len(steps)
    return sorted(steps[:cut]), sorted(steps[cut:])


def perft_counts(position: AceyDeuceyPosition, depth: int, *, threads: int = 1) -> tuple[int, int]:
    """(unweighted, weighted) perft of ``position`` from one walk of the tree
    (see :func:`perft`); with ``threads`` > 1 the subtrees below the first
    ply are walked on that many threads at once, without the GIL."""
    if not isinstance(position, AceyDeuceyPosition):
        raise TypeError(f"perft of acey-deucey takes an AceyDeuceyPosition, not {type(position).__name__}")
    depth = check_int(depth, "depth", 1, _acey.MAX_PERFT_DEPTH)
    threads = check_int(threads, "threads", 1, 64)
    if position.is_game_over():
        return 1, 1
    if threads == 1 or depth == 1:
        plain, heavy = _acey.perft(position._data, depth)
        return int(plain), int(heavy)
    # The first ply here, the subtrees below it on the threads: a subtree's
    # leaves count once per distinct roll, twice per ordered one of a non-double.
    subtrees: list[tuple[bytes, int]] = []
    plain = heavy = 0
    for d1, d2 in ROLLS:
        weight = 1 if d1 == d2 else 2
        for after in position.legal_moves((d2, d1)).positions():
            if after.is_game_over():
                plain += 1
                heavy += weight
            else:
                subtrees.append((after._data, weight))
    with ThreadPoolExecutor(threads) as pool:
        counts = pool.map(lambda tree: _acey.perft(tree[0], depth - 1), subtrees)
        for (_, weight), (p, q) in zip(subtrees, counts, strict=True):
            plain += p
            heavy += weight * q
    return int(plain), int(heavy)


def perft(position: AceyDeuceyPosition, depth: int, *, weighted: bool = False, threads: int = 1) -> int:
    """The leaves of the acey-deucey game tree ``depth`` plies below
    ``position``: each ply sums over the 21 distinct rolls (the 36 ordered
    rolls with ``weighted``) and over each roll's distinct outcomes; a roll
    again after 1-2 is a ply of the same player, and a finished game is a
    leaf.  :func:`bgcore.perft` calls this for an acey-deucey position.

    >>> start = AceyDeuceyPosition.initial()
    >>> perft(start, 1), perft(start, 1, weighted=True)
    (235, 440)
    >>> perft(start, 2, threads=2) == perft(start, 2)
    True
    """
    plain, heavy = perft_counts(position, depth, threads=threads)
    return heavy if weighted else plain
