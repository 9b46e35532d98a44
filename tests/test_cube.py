"""bgcore.cube without gnubg: classes, efficiencies, Janowski's money formulae, invariants and argument checks.

gnubg itself is the oracle in test_cube_gnubg.py; here the money formulae are
checked against a plain-Python rewrite of Janowski's interpolation, and the
rest against properties that hold whatever the probabilities.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcore import Game, Position
from bgcore.cube import (
    CubeAction,
    CubeDecision,
    CubeInfo,
    CubeState,
    PositionClass,
    Response,
    cube_decision,
    cube_efficiency,
    cubeful_equity,
    position_class,
)
from bgcore.errors import InvalidPositionError, MatchEquityError
from bgcore.met import MAX_AWAY, cubeless_equity, cubeless_mwc, eq_to_mwc_at, mwc_to_eq_at


def board(mine: dict[int, int], theirs: dict[int, int]) -> tuple[int, ...]:
    """A board from the on-roll player's checkers and the opponent's, both by point in the mover's numbering."""
    b = [0] * 26
    for p, n in mine.items():
        b[p] += n
    for p, n in theirs.items():
        b[p] -= n
    return tuple(b)


# -- classes and efficiency ----------------------------------------------------------------------------------------

RACE = board({6: 5, 8: 5, 10: 5}, {19: 5, 17: 5, 15: 5})  # no contact; pips 6*5 + 8*5 + 10*5 = 120


@pytest.mark.parametrize(
    ("b", "expected"),
    [
        (Position.initial().board, PositionClass.CONTACT),
        (RACE, PositionClass.RACE),
        (board({1: 5, 2: 5, 3: 5}, {24: 5, 23: 5, 22: 5}), PositionClass.BEAROFF_ONE_SIDED),
        (board({1: 3, 6: 3}, {24: 6}), PositionClass.BEAROFF_TWO_SIDED),
        (board({1: 3, 6: 4}, {24: 6}), PositionClass.BEAROFF_ONE_SIDED),  # 7 checkers: too many for two-sided
        (board({1: 3, 7: 3}, {24: 6}), PositionClass.RACE),  # one outside the home board
        (board({}, {24: 6}), PositionClass.OVER),
        (board({2: 2}, {}), PositionClass.OVER),
        # contact, and the opponent has 5 checkers left: crashed
        (board({6: 5, 8: 5, 13: 5}, {3: 2, 5: 3}), PositionClass.CRASHED),
        # 10 checkers left, 4 of them dead on the ace point: crashed
        (board({1: 4, 2: 1, 6: 3, 20: 2}, {10: 15}), PositionClass.CRASHED),
        # 11 left, 3 on the ace and 3 on the 2-point: crashed; with 2 on the 2-point: still contact
        (board({1: 3, 2: 3, 6: 3, 20: 2}, {10: 15}), PositionClass.CRASHED),
        (board({1: 3, 2: 2, 6: 4, 20: 2}, {10: 15}), PositionClass.CONTACT),
        # no ace-point stack: 8 left, 3 of them on the 2-point
        (board({2: 3, 6: 3, 20: 2}, {10: 15}), PositionClass.CRASHED),
        # a checker on the bar facing the opponent's checkers: contact
        (board({25: 1, 3: 14}, {2: 1, 22: 14}), PositionClass.CONTACT),
    ],
)
def test_position_class(b: tuple[int, ...], expected: PositionClass) -> None:
    assert position_class(b) is expected
    assert position_class(Position(b)) is expected


def test_efficiency() -> None:
    assert cube_efficiency(Position.initial()) == pytest.approx(0.76)
    assert cube_efficiency(Position.initial(), plies=1) == pytest.approx(0.76)
    assert cube_efficiency(Position.initial(), plies=2) == pytest.approx(0.68)
    # races: 0.6 + 0.0025 * pips in [0.6, 0.8] (2 plies: 0.55 + 0.00125 * pips in [0.6, 0.7])
    assert cube_efficiency(RACE) == pytest.approx(0.8)  # 120 pips: 0.9, capped
    short = board({7: 4, 6: 4}, {19: 8})  # 52 pips
    assert cube_efficiency(short) == pytest.approx(0.6 + 0.0025 * 52)
    assert cube_efficiency(short, plies=5) == pytest.approx(0.55 + 0.00125 * 52)
    assert cube_efficiency(board({7: 1}, {19: 8})) == pytest.approx(0.6175)  # 7 pips
    assert cube_efficiency(board({7: 1}, {19: 8}), plies=2) == pytest.approx(0.6)  # 0.55875, raised to the floor
    assert cube_efficiency(board({1: 15}, {24: 15})) == pytest.approx(0.6)  # a bear-off
    assert cube_efficiency(board({}, {24: 6})) == 0.0  # over: the cube is dead
    with pytest.raises(ValueError, match="plies must be >= 0"):
        cube_efficiency(RACE, plies=-1)
    with pytest.raises(TypeError, match="plies must be an int"):
        cube_efficiency(RACE, plies=1.0)  # type: ignore[arg-type]


# -- money: Janowski's formulae --------------------------------------------------------------------------------


# Next to a certain result gnubg treats the cube as dead (its float32 bounds).
DEAD_BELOW, DEAD_ABOVE = float(np.float32(1e-7)), float(np.float32(0.9999999))


def janowski(p: tuple[float, ...], owner: str, x: float, jacoby: bool = False) -> float:
    """A plain rewrite of the money model: live cube equity between the take and cash points, blended with the dead."""
    win, wg, wbg, lg, lbg = p
    gammons = not (jacoby and owner == "centred")
    dead = 2 * win - 1 + ((wg - lg) + (wbg - lbg) if gammons else 0.0)
    if not DEAD_BELOW < win < DEAD_ABOVE:
        return dead
    w = 1 + (wg + wbg) / win
    loss = 1 + (lg + lbg) / (1 - win)
    tp = (loss - 0.5) / (w + loss + 0.5)
    cp = (loss + 1) / (w + loss + 0.5)
    # the live equity is piecewise linear through these points, by the owner's access to the cube
    points = {
        "centred": [(0, -loss), (tp, -1), (cp, 1), (1, w)],
        "mine": [(0, -loss), (cp, 1), (1, w)],
        "theirs": [(0, -loss), (tp, -1), (1, w)],
    }[owner]
    if not gammons:
        points = [(0, -1), (tp, -1), (cp, 1), (1, 1)]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if win <= x1:
            live = y0 + (y1 - y0) * (win - x0) / (x1 - x0)
            break
    return (1 - x) * dead + x * live


@st.composite
def probabilities(draw: st.DrawFn) -> tuple[float, float, float, float, float]:
    """Consistent cubeless probabilities, gammons counting backgammons."""
    win = draw(st.floats(0.0, 1.0))
    wg = draw(st.floats(0.0, 1.0)) * win
    wbg = draw(st.floats(0.0, 1.0)) * wg
    lg = draw(st.floats(0.0, 1.0)) * (1 - win)
    lbg = draw(st.floats(0.0, 1.0)) * lg
    return win, wg, wbg, lg, lbg


efficiencies = st.floats(0.0, 1.0)


@given(probabilities(), efficiencies, st.booleans())
def test_money_is_janowski(p: tuple[float, ...], x: float, jacoby: bool) -> None:
    owners = {"centred": (1, None), "mine": (2, 0), "theirs": (2, 1)}
    for owner, (cube, who) in owners.items():
        state = CubeInfo(cube=cube, cube_owner=who, jacoby=jacoby)
        d = cube_decision(p, None, state, efficiency=x)
        assert d.no_double == pytest.approx(janowski(p, owner, x, jacoby), abs=1e-9)
        if owner != "theirs":
            # doubled: twice the equity of the opponent's 2-cube, in units of this one
            assert d.double_take == pytest.approx(2 * janowski(p, "theirs", x), abs=1e-9)
            assert d.double_pass == 1.0


def test_money_example() -> None:
    """W = 1.3, L = 1.25: take point 0.25 / 3.05, cash point 2.25 / 3.05."""
    p = (0.6, 0.18, 0.0, 0.1, 0.0)
    tp, cp = 0.75 / 3.05, 2.25 / 3.05
    live = -1 + 2 * (0.6 - tp) / (cp - tp)
    dead = 2 * 0.6 - 1 + 0.18 - 0.1
    assert cubeful_equity(p, efficiency=0.7) == pytest.approx(0.3 * dead + 0.7 * live)


# -- invariants ----------------------------------------------------------------------------------------------------


@st.composite
def states(draw: st.DrawFn) -> CubeInfo:
    """Any valid cube state, money or match."""
    on_roll = draw(st.integers(0, 1))
    if draw(st.booleans()):
        return CubeInfo(
            cube=draw(st.sampled_from([1, 2, 4, 64])),
            cube_owner=draw(st.sampled_from([None, 0, 1])),
            on_roll=on_roll,
            jacoby=draw(st.booleans()),
            beavers=draw(st.booleans()),
        )
    length = draw(st.integers(1, MAX_AWAY))
    score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    crawford = sum(length - s == 1 for s in score) == 1 and draw(st.booleans())
    cube = 1 if crawford else draw(st.sampled_from([1, 2, 4, 8, 32]))
    owner = None if crawford else draw(st.sampled_from([None, 0, 1]))
    return CubeInfo(match_length=length, score=score, cube=cube, cube_owner=owner, on_roll=on_roll, crawford=crawford)


@settings(max_examples=300)
@given(probabilities(), states(), efficiencies)
def test_decision_invariants(p: tuple[float, ...], state: CubeInfo, x: float) -> None:
    d = cube_decision(p, None, state, efficiency=x)
    assert isinstance(d, CubeDecision) and d.mwc == bool(state.match_length)
    # the cubeful equity is the value of the proper action
    assert cubeful_equity(p, None, state, efficiency=x) == d.best
    assert d.best in (d.no_double, d.double_take, d.double_pass)
    # double/pass: the cube's value won
    kw = dict(score=state.score, cube=state.cube, turn=state.on_roll, crawford=state.crawford)
    if state.match_length:
        assert d.double_pass == pytest.approx(eq_to_mwc_at(1.0, match_length=state.match_length, **kw))
        assert all(-1e-9 <= v <= 1 + 1e-9 for v in (d.no_double, d.double_take, d.double_pass, d.best))
    else:
        assert d.double_pass == 1.0
    # the reply: pass when a take gives the doubler at least as much
    take, drop = d.double_take, d.double_pass
    if state.match_length:
        take, drop = (mwc_to_eq_at(v, match_length=state.match_length, **kw) for v in (take, drop))
    assert (d.response is Response.PASS) == (take >= drop)
    if d.response is Response.BEAVER:
        assert not state.match_length and state.beavers and -2 <= take <= 0
    # nobody doubles a cube the opponent owns, nor in the Crawford game
    if state.cube_owner is not None and state.cube_owner != state.on_roll:
        assert d.action is CubeAction.NOT_AVAILABLE and d.best == d.no_double
    if state.crawford:
        assert d.action is CubeAction.NO_DOUBLE_DEAD_CUBE
    if d.action.doubles:
        assert d.best in (d.double_take, d.double_pass)


@given(probabilities(), states(), efficiencies)
def test_the_other_player_on_roll(p: tuple[float, ...], state: CubeInfo, x: float) -> None:
    """Players 0 and 1 are names: swapping them (score, owner, player on roll) changes nothing."""
    owner = None if state.cube_owner is None else 1 - state.cube_owner
    swapped = CubeInfo(
        **{**state.__dict__, "score": state.score[::-1], "cube_owner": owner, "on_roll": 1 - state.on_roll}
    )
    assert cube_decision(p, None, swapped, efficiency=x) == cube_decision(p, None, state, efficiency=x)


@given(probabilities(), efficiencies, st.sampled_from([None, 0, 1]), st.booleans(), st.booleans())
def test_money_equity_is_per_cube(
    p: tuple[float, ...], x: float, owner: int | None, jacoby: bool, beavers: bool
) -> None:
    small = CubeInfo(cube=2, cube_owner=owner, jacoby=jacoby, beavers=beavers)
    large = CubeInfo(cube=256, cube_owner=owner, jacoby=jacoby, beavers=beavers)
    assert cube_decision(p, None, small, efficiency=x) == cube_decision(p, None, large, efficiency=x)


@given(probabilities(), states())
def test_a_dead_cube_is_cubeless(p: tuple[float, ...], state: CubeInfo) -> None:
    """With no efficiency left, playing on is worth the cubeless equity (MWC)."""
    nd = cube_decision(p, None, state, efficiency=0.0).no_double
    if state.match_length:
        kw = dict(score=state.score, cube=state.cube, turn=state.on_roll, crawford=state.crawford)
        assert nd == pytest.approx(cubeless_mwc(p, match_length=state.match_length, **kw), abs=1e-12)
    else:
        gammons = not (state.jacoby and state.cube_owner is None)
        assert nd == pytest.approx(cubeless_equity(p) if gammons else 2 * p[0] - 1, abs=1e-12)


def test_match_cube_dead() -> None:
    """At 2-away 2-away, in the Crawford game and with a cube that wins both sides the match, gnubg plays cubeless."""
    p = (0.6, 0.2, 0.01, 0.1, 0.0)
    for state in (
        CubeInfo(match_length=7, score=(5, 5)),
        CubeInfo(match_length=7, score=(6, 2), crawford=True, on_roll=1),
        CubeInfo(match_length=4, score=(1, 2), cube=4, cube_owner=1),
    ):
        kw = dict(score=state.score, cube=state.cube, turn=state.on_roll, crawford=state.crawford)
        d = cube_decision(p, None, state, efficiency=0.8)
        assert d.no_double == pytest.approx(cubeless_mwc(p, match_length=state.match_length, **kw))


def test_sure_win_and_no_win() -> None:
    """A certain single win cashes; a double with no chance to win is no double (gnubg 1.1.0a16)."""
    d = cube_decision((1.0, 0.0, 0.0, 0.0, 0.0), efficiency=0.76)
    assert d.action is CubeAction.DOUBLE_PASS and d.best == 1.0
    gammonish = cube_decision((1.0, 1.0, 0.0, 0.0, 0.0), efficiency=0.76)
    assert gammonish.action is CubeAction.TOO_GOOD_PASS and gammonish.best == 2.0
    lost = cube_decision((0.0, 0.0, 0.0, 0.0, 0.0), None, CubeInfo(match_length=5, score=(1, 3)), efficiency=0.76)
    assert lost.action is CubeAction.NO_DOUBLE_TAKE


def test_names() -> None:
    assert [a.text for a in CubeAction][:5] == [
        "Double, take",
        "Double, pass",
        "No double, take",
        "Too good to double, take",
        "Too good to double, pass",
    ]
    assert len({a.text for a in CubeAction}) == len(CubeAction) == 21
    assert [int(c) for c in PositionClass] == [0, 4, 6, 8, 9, 10]


# -- games -------------------------------------------------------------------------------------------------------


def test_a_game_is_a_cube_state() -> None:
    p = (0.5214856, 0.1541756, 0.0075655, 0.1296508, 0.0074966)
    game = Game(dice=3, jacoby=True, beavers=True)
    assert isinstance(game, CubeState)
    d = cube_decision(p, game.position, game)
    assert d == cube_decision(p, game.position, CubeInfo(jacoby=True, beavers=True))
    assert d.action is CubeAction.NO_DOUBLE_BEAVER
    match = Game(dice=3, match_length=7, score=(6, 3))
    assert match.crawford
    crawford = cube_decision(p, match.position, match)
    assert crawford.action is CubeAction.NO_DOUBLE_DEAD_CUBE and crawford.mwc


# -- argument checks ---------------------------------------------------------------------------------------------

P = (0.6, 0.2, 0.01, 0.1, 0.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(cube=3), MatchEquityError, "cube must be a power of 2"),
        (dict(cube=2**21), MatchEquityError, "cube must be at most"),
        (dict(cube_owner=2), MatchEquityError, "cube_owner must be a player"),
        (dict(cube_owner="me"), TypeError, "cube_owner must be a player"),
        (dict(on_roll=-1), MatchEquityError, "on_roll must be a player"),
        (dict(crawford=True), MatchEquityError, "no Crawford game"),
        (dict(match_length=5, jacoby=True), MatchEquityError, "for money play"),
        (dict(match_length=5, score=(5, 0)), MatchEquityError, r"score\[0\] must be 0..4"),
        (dict(match_length=26), MatchEquityError, "match_length must be 1..25"),
        (dict(match_length=5, score=(1, 1), crawford=True), MatchEquityError, "exactly one side 1-away"),
        (dict(match_length=5, score=(4, 1), crawford=True, cube=2), MatchEquityError, "cannot be turned"),
        (dict(jacoby=2), TypeError, "jacoby must be a bool"),
    ],
)
def test_bad_states(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        CubeInfo(**kwargs)  # type: ignore[arg-type]


def test_bad_arguments() -> None:
    with pytest.raises(MatchEquityError, match="more than win"):
        cube_decision((0.5, 0.6, 0.0, 0.0, 0.0), efficiency=0.5)
    with pytest.raises(MatchEquityError, match="five numbers"):
        cubeful_equity((0.5, 0.1), efficiency=0.5)
    with pytest.raises(TypeError, match="give the board"):
        cubeful_equity(P)
    with pytest.raises(MatchEquityError, match=r"efficiency must be in \[0, 1\]"):
        cubeful_equity(P, efficiency=1.5)
    with pytest.raises(MatchEquityError, match=r"efficiency must be in \[0, 1\]"):
        cubeful_equity(P, efficiency=math.nan)
    with pytest.raises(TypeError, match="efficiency must be a number"):
        cubeful_equity(P, efficiency="high")  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError):
        cubeful_equity(P, [0] * 25)
    with pytest.raises(InvalidPositionError):
        position_class([20] + [0] * 25)
    with pytest.raises(TypeError, match="has no 'match_length'"):
        cubeful_equity(P, efficiency=0.5, state=object())  # type: ignore[arg-type]
    with pytest.raises(MatchEquityError, match="four equities"):
        cubeful_equity(P, efficiency=0.5, bearoff_equities=(0.1, 0.2))
    with pytest.raises(MatchEquityError, match=r"in \[-1, 1\]"):
        cubeful_equity(P, efficiency=0.5, bearoff_equities=(0.1, 0.2, 0.3, 1.5))
    with pytest.raises(TypeError, match="four numbers"):
        cubeful_equity(P, efficiency=0.5, bearoff_equities=0.3)  # type: ignore[arg-type]


def test_bearoff_equities() -> None:
    """With a bear-off database's exact money equities, money play takes them as they are."""
    exact = (0.2, 0.45, 0.4, 0.1)  # cubeless, owned, centred, opponent's
    assert cubeful_equity(P, efficiency=0.6, bearoff_equities=exact) == 0.4  # no double: double/take is 2 * 0.1
    d = cube_decision(P, None, CubeInfo(cube=2, cube_owner=1), efficiency=0.6, bearoff_equities=exact)
    assert d.no_double == 0.1 and d.action is CubeAction.NOT_AVAILABLE
