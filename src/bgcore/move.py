"""The :class:`Move` value: one legal play of a roll."""

from __future__ import annotations

import operator
from collections.abc import Iterable

from ._results import move_hash
from .errors import IllegalMoveError
from .notation import format_steps

__all__ = ["Move", "check_dice"]


def check_dice(dice: object) -> tuple[int, int]:
    """Return ``dice`` as a (high, low) pair, or raise for anything but two dice 1-6:
    :class:`TypeError` for what is not a pair of ints, :class:`IllegalMoveError`
    (a ``ValueError``) for the wrong number of dice or a die outside 1-6.

    >>> check_dice((3, 5)), check_dice([6, 6])
    ((5, 3), (6, 6))
    >>> check_dice((7, 1))
    Traceback (most recent call last):
    ...
    bgcore.errors.IllegalMoveError: dice must be 1-6, got 7-1
    """
    if type(dice) is tuple and len(dice) == 2:  # the common case, fast
        a, b = dice
        if type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6:
            return (a, b) if a >= b else (b, a)
    if isinstance(dice, (str, bytes)) or not hasattr(dice, "__iter__"):
        raise TypeError(f"dice are a pair of ints, not {type(dice).__name__}")
    values = tuple(dice)
    if len(values) != 2:
        raise IllegalMoveError(f"a roll is two dice, not {len(values)}: {values!r}")
    ints = []
    for v in values:
        if isinstance(v, bool):
            raise TypeError("a die is an int, not bool")
        try:
            ints.append(operator.index(v))
        except TypeError:
            raise TypeError(f"a die is an int, not {type(v).__name__}") from None
    a, b = ints
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise IllegalMoveError(f"dice must be 1-6, got {a}-{b}")
    return (a, b) if a >= b else (b, a)


class Move:
    """One way to play a roll: up to four single-die steps of one checker each.

    ``steps`` are ``(from, to)`` pairs in the mover's numbering (25 = bar,
    0 = off), in a canonical order (highest source first);
    ``hits[i]`` tells whether step ``i`` lands on a point where an opposing
    blot stood (and so hits it); ``dice`` is the roll, higher die first.
    The empty move (no steps) is a lost turn: it is falsy, like python-chess's
    null move.

    Moves come from :meth:`bgcore.Position.legal_moves` or
    :meth:`bgcore.Position.parse_move`; they are immutable and hashable.

    >>> m = Move([(24, 18), (13, 10)], dice=(6, 3), hits=[False, True])
    >>> str(m), m.pips
    ('24/18 13/10*', 9)
    >>> m
    Move(((24, 18), (13, 10)), dice=(6, 3), hits=(False, True))
    """

    __slots__ = ("_dice", "_hash", "_hits", "_origin", "_steps")

    _steps: tuple[tuple[int, int], ...]
    _hits: tuple[bool, ...]
    _dice: tuple[int, int]
    _hash: int
    # A move from Position.legal_moves knows the board it was generated on
    # (``_origin``, that position's own bytes): Position.play of it on that
    # board needs no generation to know it legal, only its steps played.  It
    # takes no part in equality, hashing or pickling.
    _origin: bytes | None

    def __init__(
        self,
        steps: Iterable[tuple[int, int]],
        dice: tuple[int, int],
        hits: Iterable[bool] | None = None,
    ) -> None:
        step_list = []
        for step in steps:
            try:
                src, dst = step
            except (TypeError, ValueError):
                raise TypeError(f"a step is a (from, to) pair, not {step!r}") from None
            if not (isinstance(src, int) and isinstance(dst, int)):
                raise TypeError(f"step points are ints: {step!r}")
            if not (1 <= src <= 25 and 0 <= dst <= 24 and src > dst):
                raise ValueError(f"step {src}/{dst} is not a forward move from 1-25 (bar) to 0-24 (0 = off)")
            step_list.append((int(src), int(dst)))
        if len(step_list) > 4:
            raise ValueError(f"a move has at most four steps, not {len(step_list)}")
        hit_list = [False] * len(step_list) if hits is None else [bool(h) for h in hits]
        if len(hit_list) != len(step_list):
            raise ValueError("hits needs one flag per step")
        for (src, dst), hit in zip(step_list, hit_list, strict=False):
            if hit and dst == 0:
                raise ValueError(f"step {src}/off cannot hit")
        object.__setattr__(self, "_steps", tuple(step_list))
        object.__setattr__(self, "_hits", tuple(hit_list))
        object.__setattr__(self, "_dice", check_dice(dice))
        object.__setattr__(self, "_hash", move_hash(self._steps, self._hits, self._dice))
        object.__setattr__(self, "_origin", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """The single-die steps as (from, to) pairs; 25 is the bar, 0 is off."""
        return self._steps

    @property
    def hits(self) -> tuple[bool, ...]:
        """One flag per step: True where the step hits a blot."""
        return self._hits

    @property
    def hit_points(self) -> frozenset[int]:
        """The points whose blots this move hits."""
        return frozenset(dst for (_, dst), hit in zip(self._steps, self._hits, strict=False) if hit)

    @property
    def dice(self) -> tuple[int, int]:
        """The roll this move plays, higher die first."""
        return self._dice

    @property
    def pips(self) -> int:
        """Pips moved (a bear-off with a larger die counts the point's distance)."""
        return sum(src - dst for src, dst in self._steps)

    def __bool__(self) -> bool:
        return bool(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self._steps, self._hits, self._dice) == (other._steps, other._hits, other._dice)

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return format_steps(self._steps, self.hit_points)

    def __repr__(self) -> str:
        return f"Move({self._steps!r}, dice={self._dice!r}, hits={self._hits!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[tuple[tuple[int, int], ...], tuple[int, int], tuple[bool, ...]]]:
        # pickling, copying
        return (Move, (self._steps, self._dice, self._hits))
