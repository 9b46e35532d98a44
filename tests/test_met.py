"""bgcore.met without the oracle: the shipped table, the Crawford conventions, conversions and errors.

The comparisons with gnubg itself are in test_met_gnubg.py.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import math
from importlib import resources
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bgcore
from bgcore import met
from bgcore.errors import MatchEquityError, MoneyGameError
from bgcore.met import (
    MAX_AWAY,
    POST_CRAWFORD,
    PRE_CRAWFORD,
    MatchState,
    cubeless_equity,
    cubeless_mwc,
    eq_to_mwc,
    eq_to_mwc_at,
    match_equity,
    mwc_to_eq,
    mwc_to_eq_at,
)

AWAYS = range(1, MAX_AWAY + 1)


def state(match_length: int, score: tuple[int, int], cube: int = 1, turn: int = 0, crawford: bool = False) -> dict:
    return dict(match_length=match_length, score=score, cube=cube, turn=turn, crawford=crawford)


# -- the shipped table ---------------------------------------------------------------------------------------------


def test_shipped_file_keeps_its_notices() -> None:
    text = resources.files("bgcore").joinpath("data", "Kazaross-XG2.xml").read_text()
    assert "Copyright (C) 2011 Neil Kazaross" in text
    assert "Copying and distribution of this file, with or without modification," in text
    assert "notice and this notice are preserved." in text
    assert met.MET_NAME == "Kazaross XG2 25 point MET"


def test_table_shape_and_symmetry() -> None:
    assert MAX_AWAY == 25
    assert len(PRE_CRAWFORD) == 25 and all(len(row) == 25 for row in PRE_CRAWFORD)
    assert len(POST_CRAWFORD) == 25
    for i in range(25):
        assert PRE_CRAWFORD[i][i] == 0.5
        for j in range(25):
            assert PRE_CRAWFORD[i][j] + PRE_CRAWFORD[j][i] == pytest.approx(1.0, abs=1e-12)
            if i + 1 < 25:  # further from winning is worse
                assert PRE_CRAWFORD[i + 1][j] < PRE_CRAWFORD[i][j]
    assert all(a > b for a, b in itertools.pairwise(POST_CRAWFORD))


def test_known_entries() -> None:
    assert PRE_CRAWFORD[0][1] == 0.67736  # Crawford game, 1-away 2-away
    assert PRE_CRAWFORD[1][3] == 0.66870
    assert PRE_CRAWFORD[24][24] == 0.5
    assert POST_CRAWFORD[0] == 0.5  # double match point
    assert POST_CRAWFORD[1] == 0.48803  # the leader's free drop at 2-away
    assert POST_CRAWFORD[23] == 0.00182
    # gnubg's extension past 24-away (the file says 0.00123 and gnubg ignores it)
    assert POST_CRAWFORD[24] == pytest.approx(0.25 * 0.5 * 0.00336 + 0.75 * 0.5 * 0.00203, abs=1e-15)


def test_product_code_does_not_import_gnubg() -> None:
    tree = ast.parse(resources.files("bgcore").joinpath("met.py").read_text())
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not any("gnubg" in name for name in imported)


def test_exports() -> None:
    assert bgcore.match_equity is match_equity
    assert bgcore.eq_to_mwc is eq_to_mwc and bgcore.mwc_to_eq is mwc_to_eq
    assert {"match_equity", "eq_to_mwc", "mwc_to_eq"} <= set(bgcore.__all__)


# -- match_equity --------------------------------------------------------------------------------------------------


def test_match_equity_reads_the_tables() -> None:
    for a in AWAYS:
        for b in AWAYS:
            if a > 1 and b > 1:
                assert match_equity(a, b) == PRE_CRAWFORD[a - 1][b - 1]
            elif a == 1 and b == 1:
                assert match_equity(a, b) == 0.5
            elif a == 1:  # the leader
                assert match_equity(a, b, crawford=True) == PRE_CRAWFORD[0][b - 1]
                assert match_equity(a, b) == 1.0 - POST_CRAWFORD[b - 1]
            else:  # the trailer
                assert match_equity(a, b, crawford=True) == PRE_CRAWFORD[a - 1][0]
                assert match_equity(a, b) == POST_CRAWFORD[a - 1]


def test_match_equity_is_complementary() -> None:
    for a in AWAYS:
        for b in AWAYS:
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0, abs=1e-12)
            if (a == 1) != (b == 1):
                assert match_equity(a, b, crawford=True) + match_equity(b, a, crawford=True) == pytest.approx(1.0)


def test_crawford_game_versus_post_crawford() -> None:
    # The leader is better off in the Crawford game, which the trailer must win
    # without the cube, than in the post-Crawford game at the same score.
    for b in range(2, MAX_AWAY + 1):
        assert match_equity(1, b, crawford=True) > match_equity(1, b)
    assert match_equity(1, 2, crawford=True) == 0.67736
    assert match_equity(1, 2) == pytest.approx(0.51197)


def test_match_over() -> None:
    for b in AWAYS:
        assert match_equity(0, b) == 1.0 and match_equity(b, 0) == 0.0
        assert match_equity(0, b, crawford=True) == 1.0


@pytest.mark.parametrize(
    "args,kwargs,message",
    [
        ((26, 3), {}, "away must be 0..25, not 26"),
        ((3, -1), {}, "opponent_away must be 0..25, not -1"),
        ((0, 0), {}, "cannot both be 0"),
        ((3, 4), {"crawford": True}, "needs exactly one side 1-away, not 3-away, 4-away"),
        ((1, 1), {"crawford": True}, "needs exactly one side 1-away, not 1-away, 1-away"),
    ],
)
def test_match_equity_errors(args: tuple, kwargs: dict, message: str) -> None:
    with pytest.raises(MatchEquityError, match=message):
        match_equity(*args, **kwargs)


@pytest.mark.parametrize("args", [(2.0, 3), (2, "3"), (True, 3), (None, 1)])
def test_match_equity_types(args: tuple) -> None:
    with pytest.raises(TypeError):
        match_equity(*args)


def test_errors_are_value_errors() -> None:
    assert issubclass(MatchEquityError, ValueError)
    assert issubclass(MoneyGameError, MatchEquityError)


# -- equity <-> MWC ------------------------------------------------------------------------------------------------


def test_eq_to_mwc_ends_are_the_cube_outcomes() -> None:
    # 7-point match at 2-3: player 0 is 5-away, player 1 4-away; the cube is on 2.
    s = state(7, (2, 3), cube=2, turn=0)
    assert eq_to_mwc_at(1.0, **s) == pytest.approx(match_equity(3, 4))
    assert eq_to_mwc_at(-1.0, **s) == pytest.approx(match_equity(5, 2))
    mid = (match_equity(3, 4) + match_equity(5, 2)) / 2
    assert eq_to_mwc_at(0.0, **s) == pytest.approx(mid)
    s1 = state(7, (2, 3), cube=2, turn=1)
    assert eq_to_mwc_at(1.0, **s1) == pytest.approx(match_equity(2, 5))
    assert eq_to_mwc_at(-1.0, **s1) == pytest.approx(match_equity(4, 3))


def test_pre_crawford_game_leads_to_the_crawford_game() -> None:
    # 5-point match at 3-2: player 0 2-away; winning a single game makes the next the Crawford game.
    s = state(5, (3, 2), turn=0)
    assert eq_to_mwc_at(1.0, **s) == pytest.approx(match_equity(1, 3, crawford=True))
    assert eq_to_mwc_at(-1.0, **s) == pytest.approx(match_equity(2, 2))


def test_crawford_and_post_crawford_games_lead_to_post_crawford() -> None:
    # 7-point match at 6-3: player 0 1-away, player 1 4-away.
    crawford_game = state(7, (6, 3), turn=1, crawford=True)
    assert match_equity(3, 1) == POST_CRAWFORD[2]
    assert eq_to_mwc_at(1.0, **crawford_game) == pytest.approx(POST_CRAWFORD[2])
    assert eq_to_mwc_at(-1.0, **crawford_game) == pytest.approx(0.0)
    post = state(7, (6, 3), cube=2, turn=1)
    assert eq_to_mwc_at(1.0, **post) == pytest.approx(POST_CRAWFORD[1])
    assert eq_to_mwc_at(-1.0, **post) == pytest.approx(0.0)
    # The leader's view of the same post-Crawford game.
    lead = state(7, (6, 3), cube=2, turn=0)
    assert eq_to_mwc_at(1.0, **lead) == pytest.approx(1.0)
    assert eq_to_mwc_at(-1.0, **lead) == pytest.approx(1.0 - POST_CRAWFORD[1])


def test_cube_beyond_the_match_is_capped() -> None:
    s = state(5, (3, 3), cube=4, turn=0)
    assert eq_to_mwc_at(1.0, **s) == pytest.approx(1.0)
    assert eq_to_mwc_at(-1.0, **s) == pytest.approx(0.0)
    assert eq_to_mwc_at(0.2, **s) == pytest.approx(0.6)


@given(
    st.integers(1, MAX_AWAY).flatmap(
        lambda n: st.tuples(
            st.just(n), st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from([1, 2, 4, 8]), st.integers(0, 1)
        )
    ),
    st.floats(-3.0, 3.0),
)
def test_round_trip(args: tuple[int, int, int, int, int], equity: float) -> None:
    n, s0, s1, cube, turn = args
    s = state(n, (s0, s1), cube=cube, turn=turn)
    mwc = eq_to_mwc_at(equity, **s)
    assert mwc_to_eq_at(mwc, **s) == pytest.approx(equity, abs=1e-9)
    # more equity is more MWC
    assert eq_to_mwc_at(equity + 0.1, **s) > mwc


@dataclasses.dataclass(frozen=True)
class FrozenGame:
    match_length: int
    score: tuple[int, int]
    cube: int
    turn: int
    crawford: bool


class PropertyGame:
    """Attributes behind properties, as a Game class may have them."""

    def __init__(self) -> None:
        self._score = [4, 2]

    @property
    def match_length(self) -> int:
        return 5

    @property
    def score(self) -> list[int]:
        return self._score

    @property
    def cube(self) -> int:
        return 1

    @property
    def turn(self) -> int:
        return 1

    @property
    def crawford(self) -> bool:
        return True


def test_game_objects() -> None:
    games = [FrozenGame(5, (4, 2), 1, 1, True), PropertyGame(), SimpleNamespace(**state(5, (4, 2), 1, 1, True))]
    for game in games:
        assert isinstance(game, MatchState)
        assert eq_to_mwc(0.3, game) == eq_to_mwc_at(0.3, **state(5, (4, 2), 1, 1, True))
        assert mwc_to_eq(0.1, game) == mwc_to_eq_at(0.1, **state(5, (4, 2), 1, 1, True))


def test_game_without_attributes() -> None:
    game = SimpleNamespace(match_length=5, score=(0, 0), turn=0, crawford=False)
    assert not isinstance(game, MatchState)
    with pytest.raises(TypeError, match=r"eq_to_mwc\(\) takes a game with .*SimpleNamespace has no 'cube'"):
        eq_to_mwc(0.0, game)


def test_money_game() -> None:
    money = SimpleNamespace(**state(0, (0, 0)))
    for call in (lambda: eq_to_mwc(0.1, money), lambda: mwc_to_eq(0.5, money)):
        with pytest.raises(MoneyGameError, match="money game"):
            call()
    with pytest.raises(MoneyGameError):
        cubeless_mwc((0.5, 0.1, 0.0, 0.1, 0.0), **state(0, (0, 0)))


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (state(26, (0, 0)), "match_length must be 1..25 or 0 for money, not 26"),
        (state(-3, (0, 0)), "match_length must be 1..25"),
        (state(5, (5, 0)), r"score\[0\] must be 0..4 in a 5-point match"),
        (state(5, (0, -1)), r"score\[1\] must be 0..4"),
        (state(5, (0, 1, 2)), "score must be two ints"),
        (state(5, (0, 0), cube=3), "cube must be a power of 2"),
        (state(5, (0, 0), cube=0), "cube must be a power of 2"),
        (state(5, (0, 0), turn=2), "turn must be 0 or 1"),
        (state(5, (0, 0), crawford=True), "needs exactly one side 1-away, not 5-away, 5-away"),
        (state(5, (4, 4), crawford=True), "needs exactly one side 1-away, not 1-away, 1-away"),
        (state(5, (4, 0), cube=2, crawford=True), "cube cannot be turned in the Crawford game"),
    ],
)
def test_state_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(MatchEquityError, match=message):
        eq_to_mwc_at(0.0, **kwargs)
    with pytest.raises(MatchEquityError, match=message):
        mwc_to_eq_at(0.5, **kwargs)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_equity_must_be_finite(value: float) -> None:
    with pytest.raises(MatchEquityError, match="must be finite"):
        eq_to_mwc_at(value, **state(5, (0, 0)))
    with pytest.raises(MatchEquityError, match="must be finite"):
        mwc_to_eq_at(value, **state(5, (0, 0)))


def test_wrong_types() -> None:
    with pytest.raises(TypeError, match="equity must be a number"):
        eq_to_mwc_at("0.1", **state(5, (0, 0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="match_length must be an int"):
        eq_to_mwc_at(0.1, **state(5.0, (0, 0)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="score must be two ints"):
        eq_to_mwc_at(0.1, **state(5, "00"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="crawford must be a bool"):
        eq_to_mwc_at(0.1, **state(5, (0, 0), crawford="no"))  # type: ignore[arg-type]


# -- cubeless evaluations ------------------------------------------------------------------------------------------


def hand_mwc(p: tuple[float, ...], n: int, score: tuple[int, int], cube: int, turn: int, crawford: bool) -> float:
    """The cubeless MWC computed from match_equity alone."""
    win, wg, wbg, lg, lbg = p
    me, opp = n - score[turn], n - score[1 - turn]
    post = crawford or 1 in (me, opp)

    def after(a: int, b: int) -> float:
        a, b = max(a, 0), max(b, 0)
        if a == 0 or b == 0:
            return match_equity(a, b)
        if post:
            return match_equity(a, b)
        return match_equity(a, b, crawford=(a == 1) != (b == 1))

    return (
        (win - wg) * after(me - cube, opp)
        + (wg - wbg) * after(me - 2 * cube, opp)
        + wbg * after(me - 3 * cube, opp)
        + (1 - win - lg) * after(me, opp - cube)
        + (lg - lbg) * after(me, opp - 2 * cube)
        + lbg * after(me, opp - 3 * cube)
    )


PROBS = [
    (0.5, 0.0, 0.0, 0.0, 0.0),
    (0.62, 0.21, 0.012, 0.09, 0.004),
    (0.3, 0.05, 0.0, 0.25, 0.02),
    (1.0, 1.0, 1.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 1.0, 0.4),
]


@pytest.mark.parametrize("p", PROBS)
def test_cubeless_mwc_by_hand(p: tuple[float, ...]) -> None:
    cases = [
        (7, (0, 0), 1, 0, False),
        (7, (3, 5), 1, 1, False),
        (7, (5, 3), 2, 0, False),
        (7, (6, 3), 1, 1, True),
        (7, (6, 3), 2, 1, False),
        (7, (6, 3), 2, 0, False),
        (11, (9, 8), 1, 0, False),
        (25, (0, 24), 1, 0, True),
        (3, (0, 0), 4, 1, False),
        (1, (0, 0), 1, 0, False),
    ]
    for n, score, cube, turn, crawford in cases:
        s = state(n, score, cube, turn, crawford)
        expected = hand_mwc(p, n, score, cube, turn, crawford)
        assert cubeless_mwc(p, **s) == pytest.approx(expected, abs=1e-12)
        eq = cubeless_equity(p, **s)
        assert eq_to_mwc_at(eq, **s) == pytest.approx(expected, abs=1e-12)


def test_cubeless_equity_money() -> None:
    p = (0.62, 0.21, 0.012, 0.09, 0.004)
    money = 2 * 0.62 - 1 + (0.21 - 0.09) + (0.012 - 0.004)
    assert cubeless_equity(p) == pytest.approx(money, abs=1e-15)
    assert cubeless_equity(p, cube=4, score=(3, 7), turn=1) == cubeless_equity(p)  # per unit of cube
    with pytest.raises(MatchEquityError, match="no Crawford game"):
        cubeless_equity(p, crawford=True)


def test_gammons_do_not_count_at_double_match_point() -> None:
    p = (0.55, 0.3, 0.1, 0.2, 0.05)
    s = state(9, (8, 8))
    assert cubeless_mwc(p, **s) == pytest.approx(0.55)
    assert cubeless_equity(p, **s) == pytest.approx(0.1)


def test_gammons_count_double_when_they_win_the_match() -> None:
    # 2-away 4-away, cube 1: a gammon wins the match.
    s = state(5, (3, 1))
    p = (0.5, 0.2, 0.0, 0.0, 0.0)
    win, lose = match_equity(1, 4, crawford=True), match_equity(2, 3)
    assert cubeless_mwc(p, **s) == pytest.approx(0.3 * win + 0.2 * 1.0 + 0.5 * lose)


@pytest.mark.parametrize(
    "p,message",
    [
        ((0.5, 0.1, 0.0, 0.1), "five numbers .* not 4"),
        ((0.5, 0.1, 0.0, 0.1, 0.0, 0.0), "not 6"),
        ((1.2, 0.1, 0.0, 0.1, 0.0), r"the win probability must be in \[0, 1\]"),
        ((0.5, -0.1, 0.0, 0.1, 0.0), r"the win gammon probability must be in \[0, 1\]"),
        ((0.5, 0.6, 0.0, 0.1, 0.0), "win gammon 0.6 is more than win 0.5"),
        ((0.5, 0.1, 0.2, 0.1, 0.0), "win backgammon 0.2 is more than win gammon 0.1"),
        ((0.7, 0.1, 0.0, 0.4, 0.0), "lose gammon 0.4 is more than the losses"),
        ((0.5, 0.1, 0.0, 0.1, 0.2), "lose backgammon 0.2 is more than lose gammon 0.1"),
        ((0.5, math.nan, 0.0, 0.1, 0.0), "must be finite"),
    ],
)
def test_probability_errors(p: tuple[float, ...], message: str) -> None:
    with pytest.raises(MatchEquityError, match=message):
        cubeless_mwc(p, **state(7, (0, 0)))
    with pytest.raises(MatchEquityError, match=message):
        cubeless_equity(p)


def test_probability_types() -> None:
    with pytest.raises(TypeError, match="five numbers"):
        cubeless_equity("0.5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a number"):
        cubeless_equity((0.5, "0.1", 0, 0, 0))  # type: ignore[arg-type]


def test_numpy_inputs() -> None:
    np = pytest.importorskip("numpy")
    p = np.array([0.62, 0.21, 0.012, 0.09, 0.004], dtype=np.float32)
    s = state(7, (np.int64(2), np.int64(3)), cube=np.int32(2), turn=np.int8(1), crawford=np.bool_(False))
    assert cubeless_mwc(p, **s) == pytest.approx(cubeless_mwc(tuple(float(x) for x in p), **state(7, (2, 3), 2, 1)))
    assert match_equity(np.int16(3), np.int16(5)) == match_equity(3, 5)


def test_the_jacoby_rule_counts_gammons_single_on_a_centred_cube() -> None:
    p = (0.62, 0.21, 0.012, 0.09, 0.004)
    assert cubeless_equity(p, jacoby=True) == pytest.approx(2 * 0.62 - 1, abs=1e-15)
    for owner in (0, 1):  # a turned cube: gammons count again
        assert cubeless_equity(p, jacoby=True, cube_owner=owner, cube=2) == cubeless_equity(p)
    assert cubeless_equity(p, cube_owner=None) == cubeless_equity(p)  # no Jacoby rule, no difference
    with pytest.raises(MatchEquityError, match="Jacoby rule is for money play"):
        cubeless_equity(p, jacoby=True, **state(7, (0, 0)))
    with pytest.raises(MatchEquityError, match="cube_owner must be None"):
        cubeless_equity(p, cube_owner=2)
    with pytest.raises(TypeError, match="jacoby must be a bool"):
        cubeless_equity(p, jacoby="yes")  # type: ignore[arg-type]


def test_a_backgammon_worth_two_counts_as_a_gammon() -> None:
    p = (0.62, 0.21, 0.012, 0.09, 0.004)
    assert cubeless_equity(p, backgammon_value=2) == pytest.approx(2 * 0.62 - 1 + (0.21 - 0.09), abs=1e-15)
    s = state(7, (3, 2), cube=2)
    as_gammons = (0.62, 0.21, 0.0, 0.09, 0.0)  # every backgammon a gammon: the same results, counted so
    assert cubeless_mwc(p, **s, backgammon_value=2) == pytest.approx(cubeless_mwc(as_gammons, **s), abs=1e-15)
    assert cubeless_equity(p, **s, backgammon_value=2) == pytest.approx(cubeless_equity(as_gammons, **s), abs=1e-15)
    for bad in (1, 4):
        with pytest.raises(MatchEquityError, match="backgammon_value must be 3, or 2"):
            cubeless_equity(p, backgammon_value=bad)
        with pytest.raises(MatchEquityError, match="backgammon_value must be 3, or 2"):
            cubeless_mwc(p, **s, backgammon_value=bad)
