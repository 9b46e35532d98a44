"""bgcore.met against GNU Backgammon (the gnubg package): its MET, eq2mwc, mwc2eq and cubeless evaluations.

gnubg computes in float32, bgcore in float64: MWCs agree to 1e-6. An equity
is an MWC difference divided by W - L (the MWCs after winning and losing the
cube), which magnifies gnubg's rounding where W - L is small (0.00182 for the
leader in the Crawford game of a 25-point match at 24-0), so equities are
compared to 1e-6 of MWC: to within 1e-6 / (W - L).
"""

from __future__ import annotations

import random

import pytest

import oracle
from bgcore.ids import board_to_gnubg
from bgcore.met import (
    MAX_AWAY,
    POST_CRAWFORD,
    PRE_CRAWFORD,
    cubeless_equity,
    cubeless_mwc,
    eq_to_mwc_at,
    match_equity,
    mwc_to_eq_at,
)
from bgcore.selfplay import selfplay_positions

oracle.require()
gnubg = pytest.importorskip("gnubg")

TOL = 1e-6


@pytest.fixture(scope="module")
def gnubg_met() -> list:
    return gnubg.met(MAX_AWAY)


def cubeinfo(s: dict, owner: int = -1) -> dict:
    """gnubg's cubeinfo for a bgcore match state (the cube owner does not change MWCs)."""
    return gnubg.cubeinfo(s["cube"], owner, s["turn"], s["match_length"], tuple(s["score"]), int(s["crawford"]), 0)


def valid_states(match_length: int):
    """Every legal (score, crawford) of a match: the Crawford game wherever one side is 1-away, and post-Crawford."""
    for s0 in range(match_length):
        for s1 in range(match_length):
            one_away = (match_length - s0 == 1) + (match_length - s1 == 1)
            yield (s0, s1), False
            if one_away == 1:
                yield (s0, s1), True


def test_tables(gnubg_met: list) -> None:
    pre, post0, post1 = gnubg_met
    assert len(pre) == MAX_AWAY and len(post0) == len(post1) == MAX_AWAY
    for i in range(MAX_AWAY):
        assert POST_CRAWFORD[i] == pytest.approx(post0[i], abs=TOL)
        assert POST_CRAWFORD[i] == pytest.approx(post1[i], abs=TOL)
        for j in range(MAX_AWAY):
            assert PRE_CRAWFORD[i][j] == pytest.approx(pre[i][j], abs=TOL)


def test_match_equity_every_score(gnubg_met: list) -> None:
    """match_equity(a, b, crawford) is gnubg's getMEAtScore: pre-Crawford table, or post-Crawford row."""
    pre, post0, post1 = gnubg_met
    for a in range(1, MAX_AWAY + 1):
        for b in range(1, MAX_AWAY + 1):
            if (a > 1 and b > 1) or a == b == 1:
                expected = pre[a - 1][b - 1]
                assert match_equity(a, b) == pytest.approx(expected, abs=TOL)
                continue
            # one side 1-away: the Crawford game reads the pre-Crawford table ...
            assert match_equity(a, b, crawford=True) == pytest.approx(pre[a - 1][b - 1], abs=TOL)
            # ... a post-Crawford game the post-Crawford row (gnubg's getME: player 0 is "a")
            expected = 1.0 - post1[b - 1] if a == 1 else post0[a - 1]
            assert match_equity(a, b) == pytest.approx(expected, abs=TOL)


def eq_tol(s: dict) -> float:
    """1e-6 of MWC as equity at this state."""
    return TOL / (eq_to_mwc_at(1.0, **s) - eq_to_mwc_at(-1.0, **s))


def check(s: dict, equities: list[float]) -> None:
    ci = cubeinfo(s)
    for eq in equities:
        mwc = gnubg.eq2mwc(eq, ci)
        assert eq_to_mwc_at(eq, **s) == pytest.approx(mwc, abs=TOL), (s, eq)
        assert mwc_to_eq_at(mwc, **s) == pytest.approx(gnubg.mwc2eq(mwc, ci), abs=eq_tol(s)), (s, mwc)


@pytest.mark.parametrize("match_length", [1, 2, 3, 5, 7, 11, 17, 25])
def test_eq2mwc_every_score(match_length: int) -> None:
    rng = random.Random(match_length)
    for score, crawford in valid_states(match_length):
        for turn in (0, 1):
            cubes = [1] if crawford else [1, 2, 4]
            for cube in cubes:
                s = dict(match_length=match_length, score=score, cube=cube, turn=turn, crawford=crawford)
                check(s, [-1.0, 0.0, 1.0, rng.uniform(-3.0, 3.0)])


def test_eq2mwc_random_states() -> None:
    rng = random.Random(20240611)
    for _ in range(400):
        n = rng.randint(1, MAX_AWAY)
        score = (rng.randrange(n), rng.randrange(n))
        one_away = [n - p == 1 for p in score]
        crawford = sum(one_away) == 1 and rng.random() < 0.5
        cube = 1 if crawford else 2 ** rng.randint(0, 6)
        s = dict(match_length=n, score=score, cube=cube, turn=rng.randint(0, 1), crawford=crawford)
        check(s, [rng.uniform(-3.0, 3.0) for _ in range(3)])
        # the cube's owner does not matter
        ci = cubeinfo(s, owner=rng.choice([-1, 0, 1]))
        eq = rng.uniform(-1.0, 1.0)
        assert eq_to_mwc_at(eq, **s) == pytest.approx(gnubg.eq2mwc(eq, ci), abs=TOL), s


def evaluate(board: tuple[int, ...], s: dict) -> tuple[tuple[float, ...], float]:
    """gnubg's 0-ply cubeless evaluation: five outputs of the player on roll, and its cubeless equity."""
    context = gnubg.evalcontext(0, 0, 1, 0, 0)  # cubeless, 0-ply, deterministic
    theirs, mine = board_to_gnubg(board)
    out = gnubg.evaluate((theirs, mine), cubeinfo(s), context)
    return tuple(out[:5]), out[5]


def test_cubeless_money() -> None:
    money = dict(match_length=0, score=(0, 0), cube=1, turn=0, crawford=False)
    for pos in selfplay_positions(60, seed=5):
        if pos.is_game_over():
            continue
        p, equity = evaluate(pos.board, money)
        assert cubeless_equity(p) == pytest.approx(equity, abs=TOL)


def test_cubeless_match() -> None:
    """gnubg's cubeless match equity (Utility with gammon prices) and its MWC (eq2mwc of it)."""
    rng = random.Random(99)
    positions = [p for p in selfplay_positions(120, seed=6) if not p.is_game_over()]
    for pos in positions:
        n = rng.choice([1, 2, 3, 5, 7, 9, 13, 25])
        score = (rng.randrange(n), rng.randrange(n))
        crawford = sum(n - x == 1 for x in score) == 1 and rng.random() < 0.5
        cube = 1 if crawford else 2 ** rng.randint(0, 3)
        s = dict(match_length=n, score=score, cube=cube, turn=rng.randint(0, 1), crawford=crawford)
        p, equity = evaluate(pos.board, s)
        assert cubeless_equity(p, **s) == pytest.approx(equity, abs=eq_tol(s)), (s, p)
        assert cubeless_mwc(p, **s) == pytest.approx(gnubg.eq2mwc(equity, cubeinfo(s)), abs=TOL), (s, p)


@pytest.mark.parametrize("owner", [-1, 0, 1])
def test_jacoby_gammon_prices_in_money_play(owner: int) -> None:
    """gnubg's money gammon price under the Jacoby rule (its cubeinfo applies
    it in money play): 0 on a centred cube, 1 once it is turned. The equity
    of the five outputs at those prices is bgcore's under the Jacoby rule.
    (gnubg's own cubeless equity, Utility, counts gammons whatever the cube:
    the prices enter its cubeful formulas.)"""
    ci = gnubg.cubeinfo(1 if owner < 0 else 2, owner, 0, 0, (0, 0), 0, 0)
    assert ci["jacoby"] == 1
    (gammon, _), (backgammon, _) = ci["gammonprice"]
    assert (gammon, backgammon) == ((0.0, 0.0) if owner < 0 else (1.0, 1.0))
    for pos in selfplay_positions(20, seed=8 + owner):
        if pos.is_game_over():
            continue
        p, _ = evaluate(pos.board, dict(match_length=0, score=(0, 0), cube=1, turn=0, crawford=False))
        win, wg, wbg, lg, lbg = p
        at_prices = 2 * win - 1 + gammon * (wg - lg) + backgammon * (wbg - lbg)
        owned = None if owner < 0 else owner
        assert cubeless_equity(p, jacoby=True, cube_owner=owned, cube=ci["cube"]) == pytest.approx(at_prices, abs=TOL)
