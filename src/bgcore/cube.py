"""The doubling cube at 0-ply, as GNU Backgammon estimates it from cubeless probabilities.

Given a board's cubeless probabilities (an evaluator's, or gnubg's own) for
the player on roll, this module gives gnubg's 0-ply cubeful equity of any cube
state and its cube decision: no double, double/take or double/pass, which is
proper, and the doubled player's reply. It follows gnubg's ``eval.c`` exactly
(checked against the gnubg 1.1.0a16 package on thousands of self-play
positions, money and match): the C is ``bgcore/_csrc/bg_cube.h``, which the
native engine calls directly.

The model (Rick Janowski's, generalised to match play by Joern Thyssen):

- from the probabilities p = (win, win gammon, win backgammon, lose gammon,
  lose backgammon), gammons counting backgammons, the average win
  W = 1 + (wg + wbg) / win and loss L = 1 + (lg + lbg) / (1 - win);
- a *live cube* equity, linear in the winning chance between the ends
  (0, -L) and (1, W) and the points where the cube turns: the take point
  (L - 1/2) / (W + L + 1/2) at -1 and the cash point (L + 1) / (W + L + 1/2)
  at +1, each used only where the cube's owner can reach it (with the cube
  centred and the Jacoby rule, gammons count single and the ends are flat);
  in match play the points and values come from the match equity table;
- the 0-ply cubeful equity ``(1 - x) * dead + x * live``, ``dead`` the
  cubeless equity, ``x`` the cube efficiency of the position's class
  (:func:`cube_efficiency`);
- a decision compares no double, double/take (the same blend with the cube
  doubled and the opponent's) and double/pass.

Money values are equities per unit of the current cube (as gnubg prints them:
double/pass is 1.0); match values are match winning chances (MWC). The cube
and score come from a :class:`CubeState`: a :class:`CubeInfo`, or a
:class:`~bgcore.Game` as it is.

>>> from bgcore import Position
>>> start = Position.initial()        # gnubg's 0-ply probabilities of the opening position
>>> p = (0.5214856, 0.1541756, 0.0075655, 0.1296508, 0.0074966)
>>> d = cube_decision(p, start, CubeInfo(jacoby=True, beavers=True))
>>> round(d.no_double, 4), round(d.double_take, 4), d.double_pass, d.action.text
(0.0897, -0.2285, 1.0, 'No double, beaver')
"""

from __future__ import annotations

import enum
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import bgcore._cube as _cube

from .errors import MatchEquityError
from .met import _cube_value, _flag, _probabilities, _score, met_arrays
from .position import Position

__all__ = [
    "PositionClass",
    "CubeAction",
    "Response",
    "CubeState",
    "CubeInfo",
    "CubeDecision",
    "position_class",
    "cube_efficiency",
    "cubeful_equity",
    "cube_decision",
]


class PositionClass(enum.IntEnum):
    """gnubg's class of a position (its ``positionclass`` number), which sets the cube efficiency.

    gnubg tells these apart for a standard board; its hypergammon classes and
    the bear-off databases its package does not load never occur.
    """

    #: A side has borne off every checker: the cube is dead.
    OVER = 0
    #: No contact, each side at most 6 checkers, all in its home board (gnubg's
    #: two-sided database; gnubg reads these cubeful equities from it).
    BEAROFF_TWO_SIDED = 4
    #: No contact, every checker in its home board (gnubg's one-sided database).
    BEAROFF_ONE_SIDED = 6
    #: No contact.
    RACE = 8
    #: Contact, and a side has at most about 6 checkers left in play.
    CRASHED = 9
    #: Contact.
    CONTACT = 10


class CubeAction(enum.IntEnum):
    """A cube decision as gnubg names it (its ``cubedecision`` number): see :attr:`text`.

    "Re" forms are for a cube the player on roll owns; "optional" ones when
    doubling changes the equity by at most 1e-5; "too good" when playing on
    for a gammon beats cashing; "dead cube" in match play when the player on
    roll may not usefully double (the Crawford game, or a cube that already
    wins the match); "not available" when the opponent owns the cube.
    """

    DOUBLE_TAKE = 0
    DOUBLE_PASS = 1
    NO_DOUBLE_TAKE = 2
    TOO_GOOD_TAKE = 3
    TOO_GOOD_PASS = 4
    DOUBLE_BEAVER = 5
    NO_DOUBLE_BEAVER = 6
    REDOUBLE_TAKE = 7
    REDOUBLE_PASS = 8
    NO_REDOUBLE_TAKE = 9
    TOO_GOOD_REDOUBLE_TAKE = 10
    TOO_GOOD_REDOUBLE_PASS = 11
    NO_REDOUBLE_BEAVER = 12
    NO_DOUBLE_DEAD_CUBE = 13
    NO_REDOUBLE_DEAD_CUBE = 14
    NOT_AVAILABLE = 15
    OPTIONAL_DOUBLE_TAKE = 16
    OPTIONAL_REDOUBLE_TAKE = 17
    OPTIONAL_DOUBLE_BEAVER = 18
    OPTIONAL_DOUBLE_PASS = 19
    OPTIONAL_REDOUBLE_PASS = 20

    @property
    def text(self) -> str:
        """gnubg's words for it ("Proper cube action: ..." in its hint).

        >>> CubeAction.TOO_GOOD_PASS.text, CubeAction.NO_REDOUBLE_DEAD_CUBE.text
        ('Too good to double, pass', 'Never redouble, take (dead cube)')
        """
        return _ACTION_TEXT[self]

    @property
    def doubles(self) -> bool:
        """True when doubling is right (or, for the optional ones, as good as not doubling).

        >>> CubeAction.REDOUBLE_PASS.doubles, CubeAction.TOO_GOOD_TAKE.doubles
        (True, False)
        """
        return self in _DOUBLES


_ACTION_TEXT = {
    CubeAction.DOUBLE_TAKE: "Double, take",
    CubeAction.DOUBLE_PASS: "Double, pass",
    CubeAction.NO_DOUBLE_TAKE: "No double, take",
    CubeAction.TOO_GOOD_TAKE: "Too good to double, take",
    CubeAction.TOO_GOOD_PASS: "Too good to double, pass",
    CubeAction.DOUBLE_BEAVER: "Double, beaver",
    CubeAction.NO_DOUBLE_BEAVER: "No double, beaver",
    CubeAction.REDOUBLE_TAKE: "Redouble, take",
    CubeAction.REDOUBLE_PASS: "Redouble, pass",
    CubeAction.NO_REDOUBLE_TAKE: "No redouble, take",
    CubeAction.TOO_GOOD_REDOUBLE_TAKE: "Too good to redouble, take",
    CubeAction.TOO_GOOD_REDOUBLE_PASS: "Too good to redouble, pass",
    CubeAction.NO_REDOUBLE_BEAVER: "No redouble, beaver",
    CubeAction.NO_DOUBLE_DEAD_CUBE: "Never double, take (dead cube)",
    CubeAction.NO_REDOUBLE_DEAD_CUBE: "Never redouble, take (dead cube)",
    CubeAction.NOT_AVAILABLE: "Cube not available",
    CubeAction.OPTIONAL_DOUBLE_TAKE: "Optional double, take",
    CubeAction.OPTIONAL_REDOUBLE_TAKE: "Optional redouble, take",
    CubeAction.OPTIONAL_DOUBLE_BEAVER: "Optional double, beaver",
    CubeAction.OPTIONAL_DOUBLE_PASS: "Optional double, pass",
    CubeAction.OPTIONAL_REDOUBLE_PASS: "Optional redouble, pass",
}

_DOUBLES = frozenset(
    {
        CubeAction.DOUBLE_TAKE,
        CubeAction.DOUBLE_PASS,
        CubeAction.DOUBLE_BEAVER,
        CubeAction.REDOUBLE_TAKE,
        CubeAction.REDOUBLE_PASS,
        CubeAction.OPTIONAL_DOUBLE_TAKE,
        CubeAction.OPTIONAL_REDOUBLE_TAKE,
        CubeAction.OPTIONAL_DOUBLE_BEAVER,
        CubeAction.OPTIONAL_DOUBLE_PASS,
        CubeAction.OPTIONAL_REDOUBLE_PASS,
    }
)


class Response(enum.Enum):
    """The doubled player's reply."""

    TAKE = "take"
    PASS = "pass"
    #: Take and redouble at once, keeping the cube (money play with beavers).
    BEAVER = "beaver"


@runtime_checkable
class CubeState(Protocol):
    """What the cube functions read of a game: any object with these attributes will do.

    :class:`CubeInfo` is one, :class:`~bgcore.Game` another. Players are 0
    and 1; the probabilities and board are those of ``on_roll``.
    """

    @property
    def match_length(self) -> int:
        """Points to win the match; 0 for money play."""
        ...

    @property
    def score(self) -> Sequence[int]:
        """Points of players 0 and 1 before this game (match play)."""
        ...

    @property
    def cube(self) -> int:
        """The cube's value."""
        ...

    @property
    def cube_owner(self) -> int | None:
        """The player who owns the cube, or None while it is centred."""
        ...

    @property
    def on_roll(self) -> int:
        """The player on roll: the one who may double."""
        ...

    @property
    def crawford(self) -> bool:
        """True in the Crawford game (nobody may double)."""
        ...

    @property
    def jacoby(self) -> bool:
        """Money play: gammons count single while the cube is centred."""
        ...

    @property
    def beavers(self) -> bool:
        """Money play: a doubled player may redouble at once, keeping the cube."""
        ...


@dataclass(frozen=True)
class CubeInfo:
    """A cube state (gnubg's ``cubeinfo``): the cube, its owner, who is on roll, and the score or money rules.

    The default is money play, cube centred at 1, player 0 on roll. A state
    that cannot occur raises :class:`~bgcore.MatchEquityError` (a
    :class:`ValueError`) at once.

    >>> CubeInfo(match_length=7, score=(6, 4), crawford=True).crawford
    True
    >>> CubeInfo(match_length=7, score=(3, 4), crawford=True)
    Traceback (most recent call last):
    ...
    bgcore.errors.MatchEquityError: crawford=True (the Crawford game) needs exactly one side 1-away, not 4-away, 3-away
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        _state(self)


@dataclass(frozen=True)
class CubeDecision:
    """gnubg's 0-ply cube decision for the player on roll.

    Money play: equities per unit of the current cube (double/pass is 1.0);
    match play (``mwc``): match winning chances.
    """

    #: Playing on without doubling.
    no_double: float
    #: Doubling, and the opponent takes.
    double_take: float
    #: Doubling, and the opponent passes.
    double_pass: float
    #: The value of the proper action, as gnubg's optimum (no double when too good).
    best: float
    #: The proper action, in gnubg's words.
    action: CubeAction
    #: The doubled player's proper reply to a double.
    response: Response
    #: The values are match winning chances (match play), not equities.
    mwc: bool


# -- checks ------------------------------------------------------------------------------------------------------


def _player(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a player, 0 or 1, not {value!r}")
    if value not in (0, 1):
        raise MatchEquityError(f"{name} must be a player, 0 or 1, not {value}")
    return int(value)


# The largest cube the native code takes (its point counts stay far inside 32 bits).
_MAX_CUBE = 2**20

_FIELDS = ("match_length", "score", "cube", "cube_owner", "on_roll", "crawford", "jacoby", "beavers")


def _state(state: object) -> tuple[int, int, int, int, int, int, int]:
    """A cube state as bg_cube_state's seven ints, from the on-roll player's view, checked."""
    values = {}
    for name in _FIELDS:
        try:
            values[name] = getattr(state, name)
        except AttributeError:
            raise TypeError(f"a cube state has {', '.join(_FIELDS)}; {type(state).__name__} has no {name!r}") from None
    on_roll = _player(values["on_roll"], "on_roll")
    owner = values["cube_owner"]
    relative = -1 if owner is None else (0 if _player(owner, "cube_owner") == on_roll else 1)
    crawford = _flag(values["crawford"], "crawford")
    jacoby = _flag(values["jacoby"], "jacoby")
    beavers = _flag(values["beavers"], "beavers")
    length = values["match_length"]
    if isinstance(length, bool) or not isinstance(length, numbers.Integral):
        raise TypeError(f"match_length must be an int, not {type(length).__name__}")
    cube = values["cube"]
    if length == 0:  # money play: the score is not used
        _cube_value(cube)
        if crawford:
            raise MatchEquityError("a money game (match_length 0) has no Crawford game")
        away = opp_away = 0
    else:
        if jacoby or beavers:
            raise MatchEquityError("the Jacoby rule and beavers are for money play (match_length 0)")
        checked = _score(length, values["score"], cube, on_roll, crawford)
        away, opp_away = checked.away, checked.opponent_away
    if cube > _MAX_CUBE:
        raise MatchEquityError(f"cube must be at most {_MAX_CUBE}, not {cube}")
    return away, opp_away, int(cube), relative, int(crawford), int(jacoby), int(beavers)


def _board(board: Position | Sequence[int]) -> bytes:
    """The board's 26 signed bytes, checked (a standard board: 15 checkers a side at most)."""
    position = board if isinstance(board, Position) else Position(board)
    return position.to_array().tobytes()


def _bearoff(values: Iterable[float] | None) -> tuple[float, float, float, float] | None:
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"bearoff_equities must be four numbers, not {type(values).__name__}")
    out = tuple(values)
    if len(out) != 4:
        raise MatchEquityError(
            f"bearoff_equities must be four equities (cubeless, cube owned, centred, opponent's), not {len(out)}"
        )
    for v in out:
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"bearoff_equities must be numbers, not {type(v).__name__}")
        if not -1.0 <= float(v) <= 1.0:
            raise MatchEquityError(f"a bear-off equity (no gammons) is in [-1, 1], not {v!r}")
    e0, e1, e2, e3 = (float(v) for v in out)
    return e0, e1, e2, e3


def _efficiency(board: Position | Sequence[int] | None, efficiency: float | None) -> float:
    if efficiency is None:
        if board is None:
            raise TypeError("give the board (its class sets the cube efficiency) or efficiency=")
        return cube_efficiency(board)
    if isinstance(efficiency, bool) or not isinstance(efficiency, numbers.Real):
        raise TypeError(f"efficiency must be a number, not {type(efficiency).__name__}")
    x = float(efficiency)
    if not 0.0 <= x <= 1.0:
        raise MatchEquityError(f"efficiency must be in [0, 1], not {efficiency!r}")
    if board is not None:
        _board(board)
    return x


# -- the public functions ----------------------------------------------------------------------------------------


def position_class(board: Position | Sequence[int]) -> PositionClass:
    """gnubg's class of ``board`` (a :class:`~bgcore.Position` or 26 ints, player on roll's view).

    The same as ``gnubg.classify`` (gnubg's ``ClassifyPosition``) for
    standard boards. A board that is not one raises
    :class:`~bgcore.InvalidPositionError`.

    >>> from bgcore import Position
    >>> position_class(Position.initial()).name
    'CONTACT'
    >>> race = [0] * 26
    >>> race[6], race[8], race[18], race[20] = 8, 7, -8, -7   # no contact
    >>> position_class(race).name
    'RACE'
    """
    return PositionClass(_cube.position_class(_board(board)))


def cube_efficiency(board: Position | Sequence[int], *, plies: int = 0) -> float:
    """gnubg's cube efficiency of ``board``: the share of the live cube's value its class keeps.

    gnubg 1.1.0a16 uses 0.76 in contact (crashed or not) for 0- and 1-ply
    evaluations (0.68 from 2 plies), 0.6 in bear-offs, 0 once the game is
    over, and in races ``0.6 + 0.0025 * pips`` of the player on roll, between
    0.6 and 0.8 (from 2 plies ``0.55 + 0.00125 * pips``, between 0.6 and
    0.7). ``plies`` is the depth of the evaluation that uses it; this
    module's functions are 0-ply.

    >>> from bgcore import Position
    >>> round(cube_efficiency(Position.initial()), 6), round(cube_efficiency(Position.initial(), plies=2), 6)
    (0.76, 0.68)
    """
    if isinstance(plies, bool) or not isinstance(plies, numbers.Integral):
        raise TypeError(f"plies must be an int, not {type(plies).__name__}")
    if plies < 0:
        raise ValueError(f"plies must be >= 0, not {plies}")
    data = _board(board)
    return float(_cube.efficiency(data, _cube.position_class(data), min(int(plies), 2)))


def _arguments(
    probabilities: Iterable[float],
    board: Position | Sequence[int] | None,
    state: CubeState,
    efficiency: float | None,
    bearoff_equities: Iterable[float] | None,
) -> tuple[
    tuple[float, ...], tuple[int, int, int, int, int, int, int], float, tuple[float, ...] | None, memoryview, memoryview
]:
    p = _probabilities(probabilities)
    checked = _state(state)
    x = _efficiency(board, efficiency)
    pre, post = met_arrays()
    return p, checked, x, _bearoff(bearoff_equities), pre, post


def cubeful_equity(
    probabilities: Iterable[float],
    board: Position | Sequence[int] | None = None,
    state: CubeState = CubeInfo(),
    *,
    efficiency: float | None = None,
    bearoff_equities: Iterable[float] | None = None,
) -> float:
    """gnubg's 0-ply cubeful equity of the player on roll, before rolling: money per unit of the cube, match MWC.

    ``probabilities`` are the on-roll player's cubeless (win, win gammon, win
    backgammon, lose gammon, lose backgammon), gammons counting backgammons.
    ``board`` (on-roll player's view) sets the cube efficiency through its
    class (:func:`cube_efficiency`), unless ``efficiency`` is given. The
    player's option to double counts: this is the value of the proper cube
    action (:attr:`CubeDecision.best`), or of playing on when the player may
    not double. ``bearoff_equities``: for a two-sided bear-off (class
    ``BEAROFF_TWO_SIDED``), the exact cubeful money equities gnubg reads
    from its database, (cubeless, cube owned, centred, opponent's); gnubg
    then plays on those instead of the probabilities.

    >>> p = (0.70, 0.20, 0.01, 0.05, 0.00)
    >>> round(cubeful_equity(p, efficiency=0.76), 4)                       # money, cube centred
    0.892
    >>> round(cubeful_equity(p, None, CubeInfo(cube=2, cube_owner=1), efficiency=0.76), 4)  # theirs
    0.446
    >>> round(cubeful_equity(p, None, CubeInfo(match_length=5, score=(2, 1)), efficiency=0.76), 4)  # MWC
    0.6514
    """
    return float(_cube.cubeful(*_arguments(probabilities, board, state, efficiency, bearoff_equities)))


def cube_decision(
    probabilities: Iterable[float],
    board: Position | Sequence[int] | None = None,
    state: CubeState = CubeInfo(),
    *,
    efficiency: float | None = None,
    bearoff_equities: Iterable[float] | None = None,
) -> CubeDecision:
    """gnubg's 0-ply cube decision for the player on roll (its hint's "Cube analysis" at 0 plies).

    The arguments are :func:`cubeful_equity`'s. The decision compares the
    three outcomes as gnubg does (in match play on their equities), with its
    names and its rules: "too good" only when a gammon can be won, beavers
    (money play) when a take leaves the doubler at most 0, "optional" when
    doubling changes the equity by at most 1e-5.

    >>> p = (0.70, 0.20, 0.01, 0.05, 0.00)
    >>> d = cube_decision(p, efficiency=0.76)
    >>> d.action.text, d.response.value, round(d.no_double, 4), round(d.double_take, 4), d.double_pass
    ('Double, take', 'take', 0.8032, 0.892, 1.0)
    >>> d = cube_decision(p, None, CubeInfo(match_length=7, score=(5, 5)), efficiency=0.76)   # 2-away, 2-away
    >>> d.action.text, round(d.no_double, 4), round(d.double_take, 4), round(d.double_pass, 4)
    ('Double, pass', 0.6193, 0.7, 0.6774)
    """
    arguments = _arguments(probabilities, board, state, efficiency, bearoff_equities)
    nd, dt, dp, best, action, response = _cube.decide(*arguments)
    match = arguments[1][0] > 0  # the player on roll's away count: 0 in money play
    return CubeDecision(nd, dt, dp, best, CubeAction(action), _RESPONSES[response], match)


_RESPONSES = (Response.TAKE, Response.PASS, Response.BEAVER)
