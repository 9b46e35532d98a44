"""Match equity: match winning chances (MWC) at a match score, and equity <-> MWC.

The table is GNU Backgammon's default, Kazaross-XG2 (Copyright (C) 2011 Neil
Kazaross; transcribed for GNU Backgammon by Michael Petch), shipped unchanged
with its notices in ``bgcore/data/Kazaross-XG2.xml`` and read from there at
import. It covers matches up to 25 points:

- the pre-Crawford table: ``PRE_CRAWFORD[i][j]`` is the MWC of a player
  ``i + 1`` points away against an opponent ``j + 1`` away, at the start of a
  game with the cube in the middle. Its 1-away row is the *Crawford game*
  (no doubling). The table is symmetric: ``PRE_CRAWFORD[j][i] == 1 -
  PRE_CRAWFORD[i][j]``, 0.5 on the diagonal.
- the post-Crawford row: ``POST_CRAWFORD[j]`` is the MWC of the trailer
  ``j + 1`` away against a leader 1-away in a game *after* the Crawford game
  (the trailer may double). ``POST_CRAWFORD[0]`` is 0.5 (double match point)
  and ``POST_CRAWFORD[1]`` only 0.48803: at 2-away the trailer doubles at
  once, and the leader may pass for one point when the game starts badly (the
  free drop), worth 1.2% to the leader. Every even count is below the odd
  count under it by the value of such a drop (4-away 0.31002, 3-away 0.32264).

These are gnubg's ``aafMET`` and ``aafMETPostCrawford[0]`` (its row for
player 1 is the same, ``player="both"``) for this file, indexes included:
``gnubg.met(25)`` returns ``[PRE_CRAWFORD, POST_CRAWFORD, POST_CRAWFORD]``
(in float32).
Like gnubg, the file's post-Crawford entry for 25-away is not used: no
post-Crawford game of a 25-point match has the trailer 25 away, and gnubg
extends the row past 24-away with Zadeh's recursion (trailer's gammon rate
0.25), giving 0.00118125 where the file says 0.00123.

The Crawford rule, as gnubg reads it (``getMEAtScore``): a score where one
side is 1-away is either the Crawford game (``crawford=True``, the first game
after a side reached 1-away; the pre-Crawford table) or a post-Crawford game
(``crawford=False``; the post-Crawford row). The flag means the same as
gnubg's ``fCrawford`` and as :class:`MatchState`'s ``crawford``: *this game is
the Crawford game*.

>>> match_equity(3, 5)
0.64795
>>> match_equity(1, 2, crawford=True), match_equity(1, 2)   # Crawford game, then post-Crawford
(0.67736, 0.51197)

Equities are per unit of cube: +1 is winning the cube's value, -1 losing it.
:func:`eq_to_mwc` maps equity linearly between those two outcomes, as gnubg's
``eq2mwc`` does; :func:`cubeless_mwc` weighs the six outcomes of a game
(gnubg's five outputs) by the MWC after each.

>>> eq_to_mwc_at(0.0, match_length=7, score=(2, 3), cube=2, turn=0, crawford=False)
0.413955
"""

from __future__ import annotations

import math
import numbers
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import NamedTuple, Protocol, runtime_checkable

from .errors import MatchEquityError, MoneyGameError

__all__ = [
    "match_equity",
    "MatchState",
    "eq_to_mwc",
    "mwc_to_eq",
    "eq_to_mwc_at",
    "mwc_to_eq_at",
    "cubeless_equity",
    "cubeless_mwc",
    "MatchEquityError",
    "MoneyGameError",
    "MAX_AWAY",
    "MET_NAME",
    "PRE_CRAWFORD",
    "POST_CRAWFORD",
    "met_arrays",
]

#: The file the table is read from, inside the package.
MET_FILE = "Kazaross-XG2.xml"

# gnubg's extension of an explicit post-Crawford row (matchequity.c,
# initPostCrawfordMET with GAMMONRATE and its free-drop constants).
_GAMMON_RATE = 0.25
_FREE_DROP_2_AWAY = 0.015
_FREE_DROP_4_AWAY = 0.004

# Probabilities may break their bounds by this much (float32 outputs, rounding).
_PROBABILITY_SLACK = 1e-6


def _read_met() -> tuple[str, tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """(name, pre-Crawford table, post-Crawford row) as gnubg builds them from the shipped file."""
    data = resources.files("bgcore").joinpath("data").joinpath(MET_FILE).read_bytes()
    root = ET.fromstring(data)
    name = (root.findtext("info/name") or MET_FILE).strip()
    length = int((root.findtext("info/length") or "0").strip())
    pre_table = root.find("pre-crawford-table")
    post_table = root.find("post-crawford-table")
    if pre_table is None or post_table is None or pre_table.get("type") != "explicit":
        raise RuntimeError(f"{MET_FILE}: explicit pre- and post-Crawford tables expected")
    if post_table.get("type") != "explicit" or post_table.get("player", "both") != "both":
        raise RuntimeError(f"{MET_FILE}: one explicit post-Crawford row for both players expected")
    pre = tuple(tuple(float(me.text or "") for me in row.iter("me")) for row in pre_table.iter("row"))
    rows = [[float(me.text or "") for me in row.iter("me")] for row in post_table.iter("row")]
    if len(pre) != length or any(len(row) != length for row in pre) or len(rows) != 1 or len(rows[0]) < length - 1:
        raise RuntimeError(f"{MET_FILE}: a {length} x {length} table and a post-Crawford row expected")
    # gnubg keeps the first length - 1 post-Crawford entries and extends the rest.
    post = rows[0][: length - 1]
    for i in range(length - 1, length):
        post.append(
            _GAMMON_RATE * 0.5 * (post[i - 4] if i >= 4 else 1.0)
            + (1.0 - _GAMMON_RATE) * 0.5 * (post[i - 2] if i >= 2 else 1.0)
            - (_FREE_DROP_2_AWAY if i == 1 else 0.0)
            - (_FREE_DROP_4_AWAY if i == 3 else 0.0)
        )
    for i in range(length):
        for j in range(length):
            if abs(pre[i][j] + pre[j][i] - 1.0) > 1e-9:
                raise RuntimeError(f"{MET_FILE}: the table is not symmetric at {i + 1}-away, {j + 1}-away")
    return name, pre, tuple(post)


MET_NAME: str
#: ``PRE_CRAWFORD[i][j]``: MWC at ``i + 1``-away against ``j + 1``-away, before the
#: Crawford rule is used up (the 1-away row and column are the Crawford game).
PRE_CRAWFORD: tuple[tuple[float, ...], ...]
#: ``POST_CRAWFORD[j]``: MWC of a trailer ``j + 1``-away against a leader 1-away, after the Crawford game.
POST_CRAWFORD: tuple[float, ...]
MET_NAME, PRE_CRAWFORD, POST_CRAWFORD = _read_met()

#: The longest away count (and match length) the table covers.
MAX_AWAY = len(PRE_CRAWFORD)


@runtime_checkable
class MatchState(Protocol):
    """What the equity <-> MWC conversions read of a game.

    Any object with these attributes (plain attributes or properties) will do.
    """

    @property
    def match_length(self) -> int:
        """Points to win the match; 0 for a money game."""
        ...

    @property
    def score(self) -> Sequence[int]:
        """Points of players 0 and 1 before this game."""
        ...

    @property
    def cube(self) -> int:
        """The cube's value (1 when centred and never turned)."""
        ...

    @property
    def turn(self) -> int:
        """The player (0 or 1) whose equity or MWC is converted."""
        ...

    @property
    def crawford(self) -> bool:
        """True when this game is the Crawford game."""
        ...


# -- argument checks ---------------------------------------------------------------------------------------------


def _int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return int(value)


def _flag(value: object, name: str) -> bool:
    if isinstance(value, bool) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)
    raise TypeError(f"{name} must be a bool, not {value!r}")


def _real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    result = float(value)
    if not math.isfinite(result):
        raise MatchEquityError(f"{name} must be finite, not {result!r}")
    return result


def _away(value: object, name: str) -> int:
    away = _int(value, name)
    if not 0 <= away <= MAX_AWAY:
        raise MatchEquityError(
            f"{name} must be 0..{MAX_AWAY}, not {away} (the table covers matches up to {MAX_AWAY} points)"
        )
    return away


def _probabilities(probabilities: Iterable[float]) -> tuple[float, float, float, float, float]:
    """gnubg's five outputs, checked: (win, win gammon, win backgammon, lose gammon, lose backgammon)."""
    if isinstance(probabilities, (str, bytes)) or not isinstance(probabilities, Iterable):
        raise TypeError(f"probabilities must be five numbers, not {type(probabilities).__name__}")
    values = tuple(probabilities)
    if len(values) != 5:
        raise MatchEquityError(
            "probabilities must be five numbers (win, win gammon, win backgammon, lose gammon, lose backgammon),"
            f" not {len(values)}"
        )
    names = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")
    win, wg, wbg, lg, lbg = (_real(v, f"the {n} probability") for v, n in zip(values, names, strict=True))
    slack = _PROBABILITY_SLACK
    for v, n in zip((win, wg, wbg, lg, lbg), names, strict=True):
        if not -slack <= v <= 1.0 + slack:
            raise MatchEquityError(f"the {n} probability must be in [0, 1], not {v!r}")
    if wg > win + slack:
        raise MatchEquityError(f"win gammon {wg!r} is more than win {win!r} (gammons are counted in the wins)")
    if wbg > wg + slack:
        raise MatchEquityError(f"win backgammon {wbg!r} is more than win gammon {wg!r} (backgammons are gammons)")
    if lg > 1.0 - win + slack:
        raise MatchEquityError(f"lose gammon {lg!r} is more than the losses, 1 - win = {1.0 - win!r}")
    if lbg > lg + slack:
        raise MatchEquityError(f"lose backgammon {lbg!r} is more than lose gammon {lg!r} (backgammons are gammons)")
    return win, wg, wbg, lg, lbg


def _cube_value(cube: object) -> int:
    value = _int(cube, "cube")
    if value < 1 or value & (value - 1):
        raise MatchEquityError(f"cube must be a power of 2 (1, 2, 4, ...), not {value}")
    return value


class _Score(NamedTuple):
    """A checked match state, from the point of view of the player ``turn``."""

    away: int  # the player's points to go
    opponent_away: int
    cube: int
    post_crawford_next: bool  # the games after this one are post-Crawford


def _score(match_length: object, score: object, cube: object, turn: object, crawford: object) -> _Score:
    length = _int(match_length, "match_length")
    if length == 0:
        raise MoneyGameError("a money game (match_length 0) has no match winning chance")
    if not 1 <= length <= MAX_AWAY:
        raise MatchEquityError(
            f"match_length must be 1..{MAX_AWAY} or 0 for money, not {length}"
            f" (the table covers matches up to {MAX_AWAY} points)"
        )
    if isinstance(score, (str, bytes)) or not isinstance(score, Iterable):
        raise TypeError(f"score must be two ints (players 0 and 1), not {type(score).__name__}")
    points = tuple(score)
    if len(points) != 2:
        raise MatchEquityError(f"score must be two ints (players 0 and 1), not {len(points)}")
    s0, s1 = (_int(p, f"score[{k}]") for k, p in enumerate(points))
    for k, s in enumerate((s0, s1)):
        if not 0 <= s < length:
            raise MatchEquityError(
                f"score[{k}] must be 0..{length - 1} in a {length}-point match (the match is still on), not {s}"
            )
    value = _cube_value(cube)
    player = _int(turn, "turn")
    if player not in (0, 1):
        raise MatchEquityError(f"turn must be 0 or 1, not {player}")
    is_crawford = _flag(crawford, "crawford")
    away = (length - s0, length - s1)
    if is_crawford:
        if (away[0] == 1) == (away[1] == 1):
            raise MatchEquityError(
                f"crawford=True (the Crawford game) needs exactly one side 1-away, not {away[0]}-away, {away[1]}-away"
            )
        if value != 1:
            raise MatchEquityError(f"the cube cannot be turned in the Crawford game, and it is at {value}")
    return _Score(
        away=away[player],
        opponent_away=away[1 - player],
        cube=value,
        post_crawford_next=is_crawford or 1 in away,
    )


def _state(game: MatchState, caller: str) -> _Score:
    values = []
    for name in ("match_length", "score", "cube", "turn", "crawford"):
        try:
            values.append(getattr(game, name))
        except AttributeError:
            raise TypeError(
                f"{caller}() takes a game with match_length, score, cube, turn and crawford;"
                f" {type(game).__name__} has no {name!r}"
            ) from None
    return _score(*values)


# -- lookups -----------------------------------------------------------------------------------------------------


def _lookup(away: int, opponent_away: int, crawford: bool) -> float:
    """MWC at a live score (both 1..MAX_AWAY), checked; ``crawford``: this is the Crawford game."""
    if crawford or (away > 1 and opponent_away > 1):
        return PRE_CRAWFORD[away - 1][opponent_away - 1]
    if away == 1:
        return 1.0 - POST_CRAWFORD[opponent_away - 1]
    return POST_CRAWFORD[away - 1]


def match_equity(away: int, opponent_away: int, *, crawford: bool = False) -> float:
    """The chance that a player ``away`` points from winning the match wins it against an opponent ``opponent_away``.

    Each count is 1..25; ``away == 0`` is a match won (1.0) and
    ``opponent_away == 0`` one lost (0.0). The value is at the start of a game
    at that score with the cube in the middle.

    ``crawford`` says that this game is the Crawford game, as gnubg's
    ``fCrawford`` and :class:`MatchState`'s ``crawford`` do. It matters only
    when one side is 1-away: ``True`` gives the Crawford game (the
    pre-Crawford table's 1-away row, as printed in METs), ``False`` a
    post-Crawford game, in which the trailer can double. ``crawford=True``
    needs exactly one side 1-away.

    >>> match_equity(2, 2), match_equity(4, 2), match_equity(2, 4)
    (0.5, 0.3313, 0.6687)
    >>> match_equity(5, 1, crawford=True)   # the trailer in the Crawford game
    0.15821
    >>> match_equity(5, 1)                  # the trailer after it
    0.19012
    >>> match_equity(0, 3), match_equity(7, 0)
    (1.0, 0.0)
    >>> match_equity(26, 3)
    Traceback (most recent call last):
    ...
    bgcore.errors.MatchEquityError: away must be 0..25, not 26 (the table covers matches up to 25 points)
    >>> match_equity(3, 4, crawford=True)
    Traceback (most recent call last):
    ...
    bgcore.errors.MatchEquityError: crawford=True (the Crawford game) needs exactly one side 1-away, not 3-away, 4-away
    """
    a = _away(away, "away")
    b = _away(opponent_away, "opponent_away")
    is_crawford = _flag(crawford, "crawford")
    if a == 0 and b == 0:
        raise MatchEquityError("away and opponent_away cannot both be 0: one player wins the match")
    if a == 0:
        return 1.0
    if b == 0:
        return 0.0
    if is_crawford and (a == 1) == (b == 1):
        raise MatchEquityError(
            f"crawford=True (the Crawford game) needs exactly one side 1-away, not {a}-away, {b}-away"
        )
    return _lookup(a, b, is_crawford)


def _after(state: _Score, points: int, won: bool) -> float:
    """The player's MWC after this game, won or lost for ``points`` (as gnubg's ``getME``)."""
    away = state.away - points if won else state.away
    opponent_away = state.opponent_away if won else state.opponent_away - points
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    if state.post_crawford_next:
        return _lookup(away, opponent_away, crawford=False)
    # A pre-Crawford game that takes a side to 1-away makes the next game the Crawford game.
    return _lookup(away, opponent_away, crawford=away == 1 or opponent_away == 1)


def _cube_mwcs(state: _Score) -> tuple[float, float]:
    """The player's MWC after winning and after losing the cube's value."""
    return _after(state, state.cube, True), _after(state, state.cube, False)


# -- equity <-> MWC ----------------------------------------------------------------------------------------------


def _eq_to_mwc(equity: object, state: _Score) -> float:
    eq = _real(equity, "equity")
    win, lose = _cube_mwcs(state)
    return 0.5 * ((win - lose) * eq + (win + lose))


def _mwc_to_eq(mwc: object, state: _Score) -> float:
    value = _real(mwc, "mwc")
    win, lose = _cube_mwcs(state)
    return (2.0 * value - (win + lose)) / (win - lose)


def eq_to_mwc_at(
    equity: float, *, match_length: int, score: Sequence[int], cube: int, turn: int, crawford: bool
) -> float:
    """The MWC of player ``turn`` for an ``equity`` (per unit of cube) at a match state, as gnubg's ``eq2mwc``.

    Equity -1 is the MWC after losing the cube's value, +1 after winning it,
    and the map is linear in between (and beyond, for gammons). ``score`` is
    the points of players 0 and 1 before this game, ``crawford`` says whether
    this game is the Crawford game (a side 1-away otherwise means a
    post-Crawford game). ``match_length`` 0 (money) raises
    :class:`MoneyGameError`.

    >>> eq_to_mwc_at(1.0, match_length=5, score=(0, 0), cube=1, turn=0, crawford=False) == match_equity(4, 5)
    True
    >>> eq_to_mwc_at(0.25, match_length=5, score=(3, 1), cube=2, turn=1, crawford=False)
    0.3125
    >>> eq_to_mwc_at(0.5, match_length=0, score=(0, 0), cube=1, turn=0, crawford=False)
    Traceback (most recent call last):
    ...
    bgcore.errors.MoneyGameError: a money game (match_length 0) has no match winning chance
    """
    return _eq_to_mwc(equity, _score(match_length, score, cube, turn, crawford))


def mwc_to_eq_at(mwc: float, *, match_length: int, score: Sequence[int], cube: int, turn: int, crawford: bool) -> float:
    """The equity (per unit of cube) of player ``turn`` for an ``mwc``: the inverse of :func:`eq_to_mwc_at`.

    >>> state = dict(match_length=9, score=(4, 6), cube=2, turn=0, crawford=False)
    >>> round(mwc_to_eq_at(eq_to_mwc_at(-0.37, **state), **state), 12)
    -0.37
    >>> round(mwc_to_eq_at(match_equity(2, 5), match_length=9, score=(6, 4), cube=1, turn=0, crawford=False), 12)
    1.0
    """
    return _mwc_to_eq(mwc, _score(match_length, score, cube, turn, crawford))


def eq_to_mwc(equity: float, game: MatchState) -> float:
    """The MWC for the equity (per unit of cube) of player ``game.turn`` in ``game``.

    ``game`` is any :class:`MatchState`; see :func:`eq_to_mwc_at`.

    >>> from types import SimpleNamespace
    >>> game = SimpleNamespace(match_length=7, score=(6, 3), cube=1, turn=1, crawford=True)
    >>> eq_to_mwc(0.0, game), eq_to_mwc(1.0, game) == match_equity(3, 1)
    (0.16132, True)
    """
    return _eq_to_mwc(equity, _state(game, "eq_to_mwc"))


def mwc_to_eq(mwc: float, game: MatchState) -> float:
    """The equity (per unit of cube) of player ``game.turn`` in ``game`` for an MWC; the inverse of :func:`eq_to_mwc`.

    >>> from types import SimpleNamespace
    >>> money = SimpleNamespace(match_length=0, score=(0, 0), cube=1, turn=0, crawford=False)
    >>> mwc_to_eq(0.5, money)
    Traceback (most recent call last):
    ...
    bgcore.errors.MoneyGameError: a money game (match_length 0) has no match winning chance
    """
    return _mwc_to_eq(mwc, _state(game, "mwc_to_eq"))


# -- cubeless evaluations ----------------------------------------------------------------------------------------


def cubeless_mwc(
    probabilities: Iterable[float],
    *,
    match_length: int,
    score: Sequence[int],
    cube: int,
    turn: int,
    crawford: bool,
    backgammon_value: int = 3,
) -> float:
    """The MWC of player ``turn`` from gnubg's five outputs, the cube staying where it is.

    ``probabilities`` are (win, win gammon, win backgammon, lose gammon, lose
    backgammon) of player ``turn``, gammons counting backgammons. Each of the
    six results (a single game, gammon or backgammon won or lost) is weighed by
    the MWC after winning or losing 1, 2 or 3 times the cube (a match won or
    lost when that is enough). gnubg gets the same from its gammon prices:
    ``eq2mwc(Utility(...))``. ``backgammon_value`` is what a backgammon
    counts, times the cube: 3, or 2 where it counts as a gammon (tabla's
    "mars").

    >>> state = dict(match_length=7, score=(3, 5), cube=1, turn=0, crawford=False)
    >>> cubeless_mwc((0.6, 0.2, 0.01, 0.1, 0.0), **state) == (
    ...     0.4 * match_equity(3, 2) + 0.19 * match_equity(2, 2) + 0.01 * match_equity(1, 2, crawford=True)
    ...     + 0.3 * match_equity(4, 1, crawford=True) + 0.1 * 0.0)
    True
    >>> cubeless_mwc((0.5, 0.6, 0.0, 0.0, 0.0), **state)
    Traceback (most recent call last):
    ...
    bgcore.errors.MatchEquityError: win gammon 0.6 is more than win 0.5 (gammons are counted in the wins)
    """
    p = _probabilities(probabilities)
    backgammon = _backgammon_value(backgammon_value)
    return _cubeless_mwc(p, _score(match_length, score, cube, turn, crawford), backgammon)


def _backgammon_value(value: object) -> int:
    times = _int(value, "backgammon_value")
    if times not in (2, 3):
        raise MatchEquityError(f"backgammon_value must be 3, or 2 where a backgammon counts as a gammon, not {times}")
    return times


def _cubeless_mwc(probabilities: tuple[float, float, float, float, float], state: _Score, backgammon: int) -> float:
    win, wg, wbg, lg, lbg = probabilities
    c = state.cube
    return (
        (win - wg) * _after(state, c, True)
        + (wg - wbg) * _after(state, 2 * c, True)
        + wbg * _after(state, backgammon * c, True)
        + (1.0 - win - lg) * _after(state, c, False)
        + (lg - lbg) * _after(state, 2 * c, False)
        + lbg * _after(state, backgammon * c, False)
    )


def cubeless_equity(
    probabilities: Iterable[float],
    *,
    match_length: int = 0,
    score: Sequence[int] = (0, 0),
    cube: int = 1,
    turn: int = 0,
    crawford: bool = False,
    jacoby: bool = False,
    cube_owner: int | None = None,
    backgammon_value: int = 3,
) -> float:
    """The cubeless equity of player ``turn``, per unit of cube, from gnubg's five outputs (see :func:`cubeless_mwc`).

    In a money game (``match_length`` 0, the default) it is gnubg's
    ``2 * win - 1 + (wg - lg) + (wbg - lbg)``, whatever the cube and score
    (they multiply the stake, not the equity). In a match it is the equity
    whose MWC is :func:`cubeless_mwc`, as gnubg's match ``Utility`` (gammons
    valued at the score's gammon prices).

    The game's rules change what gammons are worth. ``jacoby`` (money play):
    with the cube centred (``cube_owner`` None) gammons and backgammons count
    single, so the equity is ``2 * win - 1``: gnubg's gammon price is 0 there
    (its cubeless ``Utility`` counts them all the same). ``backgammon_value``:
    what a backgammon counts, times the cube: 3, or 2 where it counts as a
    gammon (tabla's "mars").

    >>> p = (0.6, 0.2, 0.01, 0.1, 0.0)
    >>> round(cubeless_equity(p), 12)
    0.31
    >>> round(cubeless_equity(p, jacoby=True), 12), round(cubeless_equity(p, jacoby=True, cube_owner=0), 12)
    (0.2, 0.31)
    >>> round(cubeless_equity(p, backgammon_value=2), 12)
    0.3
    >>> state = dict(match_length=7, score=(3, 5), cube=1, turn=0, crawford=False)
    >>> eq = cubeless_equity(p, **state)
    >>> abs(eq_to_mwc_at(eq, **state) - cubeless_mwc(p, **state)) < 1e-15
    True
    """
    p = _probabilities(probabilities)
    backgammon = _backgammon_value(backgammon_value)
    jacoby = _flag(jacoby, "jacoby")
    if cube_owner is not None and _int(cube_owner, "cube_owner") not in (0, 1):
        raise MatchEquityError(f"cube_owner must be None (centred), 0 or 1, not {cube_owner}")
    if _int(match_length, "match_length") != 0:
        if jacoby:
            raise MatchEquityError("the Jacoby rule is for money play (match_length 0)")
        state = _score(match_length, score, cube, turn, crawford)
        return _mwc_to_eq(_cubeless_mwc(p, state, backgammon), state)
    if _int(turn, "turn") not in (0, 1):
        raise MatchEquityError(f"turn must be 0 or 1, not {turn}")
    _cube_value(cube)
    if _flag(crawford, "crawford"):
        raise MatchEquityError("a money game (match_length 0) has no Crawford game")
    win, wg, wbg, lg, lbg = p
    if jacoby and cube_owner is None:
        return 2.0 * win - 1.0  # every win and loss counts single
    return 2.0 * win - 1.0 + (wg - lg) + (backgammon - 2) * (wbg - lbg)


# -- the table for native code -----------------------------------------------------------------------------------

_met_buffers: tuple[memoryview, memoryview] | None = None


def met_arrays() -> tuple[memoryview, memoryview]:
    """The table as read-only, C-contiguous float64 buffers, for native code (``bgcore.cube``'s C).

    ``(pre, post)``: ``pre`` the pre-Crawford table row by row (``MAX_AWAY ** 2``
    values, ``PRE_CRAWFORD[i][j]`` at ``i * MAX_AWAY + j``), ``post`` the
    post-Crawford row (``MAX_AWAY`` values). Built once; ``numpy.asarray``
    views them without a copy.

    >>> pre, post = met_arrays()
    >>> pre.format, pre.readonly, len(pre) == MAX_AWAY**2, len(post) == MAX_AWAY
    ('d', True, True, True)
    >>> pre[2 * MAX_AWAY + 4] == match_equity(3, 5), post[4] == match_equity(5, 1)
    (True, True)
    """
    global _met_buffers
    if _met_buffers is None:
        from array import array

        pre = array("d", [me for row in PRE_CRAWFORD for me in row])
        post = array("d", POST_CRAWFORD)
        _met_buffers = (memoryview(pre).toreadonly(), memoryview(post).toreadonly())
    return _met_buffers
