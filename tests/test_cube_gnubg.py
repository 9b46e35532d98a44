"""bgcore.cube against GNU Backgammon (the gnubg 1.1.0a16 package): 0-ply cubeful equities, cube decisions, classes.

bgcore is given gnubg's own 0-ply cubeless probabilities of each position
(and, for a two-sided bear-off, the cubeful money equities gnubg reads from
its database), and must reproduce gnubg's 0-ply cubeful values to 1e-4 in
equity and 1e-5 in MWC, and its decisions exactly.  Three routes into gnubg:

- in bulk, gnubg's own C functions through ctypes on its extension module
  (as ``oracle.py`` calls its move generator): ``GeneralCubeDecisionE`` and
  ``FindCubeDecision`` are what its ``hint`` prints under "Cube analysis",
  ``GeneralEvaluationE`` the cubeful equity its move scores use (the doubling
  option counted); all at 0 ply, exact floats, fast;
- its printed words: ``command("eval")`` and ``command("hint")`` with the C
  stdout captured, on a sample, to tie the ctypes calls to what gnubg shows;
- ``gnubg.findbestmoves``' 0-ply cubeful scores of the opening 3-1, which are
  minus the opponent's cubeful equity after each move.

gnubg's evaluation cache is turned off here: its key for a cubeful
evaluation does not tell money play with the cube centred (no Jacoby rule,
no beavers) from a match at double match point with the cube at 1, so with
the cache on one of them is served the other's equity.

The bulk comparison over 2,200 self-play positions takes about 25 s and is
marked slow; a subset of it runs unmarked.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from bgcore import Position
from bgcore.cube import CubeInfo, cube_decision, cube_efficiency, cubeful_equity, position_class
from bgcore.ids import MatchId, board_to_gnubg, gnubg_id
from bgcore.met import eq_to_mwc_at, mwc_to_eq_at
from bgcore.selfplay import selfplay_positions
from strategies import home_boards, random_boards

oracle.require()
gnubg = importlib.import_module("gnubg")

EQUITY_TOL = 1e-4
MWC_TOL = 1e-5

Board = (ctypes.c_uint * 25) * 2
Outputs = ctypes.c_float * 7  # gnubg's NUM_ROLLOUT_OUTPUTS: five probabilities, cubeless, cubeful


class _CubeInfo(ctypes.Structure):
    """gnubg's cubeinfo (eval.h)."""

    _fields_ = [
        ("nCube", ctypes.c_int),
        ("fCubeOwner", ctypes.c_int),
        ("fMove", ctypes.c_int),
        ("nMatchTo", ctypes.c_int),
        ("anScore", ctypes.c_int * 2),
        ("fCrawford", ctypes.c_int),
        ("fJacoby", ctypes.c_int),
        ("fBeavers", ctypes.c_int),
        ("arGammonPrice", ctypes.c_float * 4),
        ("bgv", ctypes.c_int),
    ]


class _EvalContext(ctypes.Structure):
    """gnubg's evalcontext: bit fields fCubeful:1, nPlies:4, fUsePrune:1, fDeterministic:1; then rNoise."""

    _fields_ = [("bits", ctypes.c_uint), ("rNoise", ctypes.c_float)]


CUBEFUL_0PLY = _EvalContext(1 | (0 << 1) | (1 << 6), 0.0)  # cubeful, 0 plies, deterministic


class Gnubg:
    """gnubg's cube functions through ctypes."""

    def __init__(self) -> None:
        lib = oracle.library()
        c_int, ref = ctypes.c_int, ctypes.POINTER
        lib.SetCubeInfo.argtypes = [ref(_CubeInfo), *[c_int] * 4, ref(c_int * 2), *[c_int] * 4]
        lib.GeneralCubeDecisionENoLocking.argtypes = [
            ref(Outputs * 2),
            ref(Board),
            ref(_CubeInfo),
            ref(_EvalContext),
            ctypes.c_void_p,
        ]
        lib.GeneralEvaluationENoLocking.argtypes = [ref(Outputs), ref(Board), ref(_CubeInfo), ref(_EvalContext)]
        lib.FindCubeDecision.argtypes = [ref(ctypes.c_float * 4), ref(Outputs * 2), ref(_CubeInfo)]
        lib.EvaluatePerfectCubeful.argtypes = [ref(Board), ref(ctypes.c_float * 4), c_int]
        lib.ClassifyPosition.argtypes = [ref(Board), c_int]
        lib.EvalEfficiency.argtypes = [ref(Board), c_int, c_int]
        lib.EvalEfficiency.restype = ctypes.c_float
        lib.GetEvalCacheEntries.restype = ctypes.c_uint
        lib.EvalCacheResize.argtypes = [ctypes.c_uint]
        self.lib = lib

    @staticmethod
    def board(position: Position) -> Any:
        return oracle.gnubg_board(position.board)

    def cubeinfo(self, s: CubeInfo) -> _CubeInfo:
        ci = _CubeInfo()
        score = (ctypes.c_int * 2)(*s.score)
        owner = -1 if s.cube_owner is None else s.cube_owner
        args = (s.cube, owner, s.on_roll, s.match_length, ctypes.byref(score), s.crawford, s.jacoby, s.beavers, 0)
        assert self.lib.SetCubeInfo(ctypes.byref(ci), *args) == 0, s
        return ci

    def decision(self, board: Any, s: CubeInfo) -> tuple[tuple[float, ...], float, float, list[float], int]:
        """(probabilities, no double, double/take, FindCubeDecision's four equities, its decision)."""
        ci = self.cubeinfo(s)
        out = (Outputs * 2)()
        assert self.lib.GeneralCubeDecisionENoLocking(out, board, ci, CUBEFUL_0PLY, None) == 0
        equities = (ctypes.c_float * 4)()
        action = self.lib.FindCubeDecision(equities, out, ci)
        return tuple(out[0][:5]), out[0][6], out[1][6], list(equities), action

    def cubeful(self, board: Any, s: CubeInfo) -> float:
        out = Outputs()
        assert self.lib.GeneralEvaluationENoLocking(out, board, self.cubeinfo(s), CUBEFUL_0PLY) == 0
        return float(out[6])

    def bearoff(self, board: Any) -> tuple[float, ...]:
        """The cubeful money equities of a two-sided bear-off: cubeless, owned, centred, opponent's."""
        equities = (ctypes.c_float * 4)()
        assert self.lib.EvaluatePerfectCubeful(board, equities, 0) == 0
        return tuple(equities)


@pytest.fixture(scope="module")
def g() -> Iterator[Gnubg]:
    gnubg_ = Gnubg()
    entries = gnubg_.lib.GetEvalCacheEntries()
    gnubg_.lib.EvalCacheResize(0)
    try:
        yield gnubg_
    finally:
        gnubg_.lib.EvalCacheResize(entries)


# -- the states ----------------------------------------------------------------------------------------------------


def money_states() -> Iterator[CubeInfo]:
    """Every money cube position (centred at 1, owned at 2 by either player) with and without Jacoby and beavers."""
    for jacoby in (False, True):
        for beavers in (False, True):
            for cube, owner in ((1, None), (2, 0), (2, 1)):
                for on_roll in (0, 1):
                    yield CubeInfo(cube=cube, cube_owner=owner, on_roll=on_roll, jacoby=jacoby, beavers=beavers)


#: Scores that need care: the Crawford game and after it, double match point, 2-away 2-away, dead cubes,
#: automatic redoubles, long matches.
SPECIAL = [
    (7, (6, 3), 1, None, True),
    (7, (3, 6), 1, None, True),
    (7, (6, 3), 1, None, False),
    (7, (6, 3), 2, 1, False),
    (5, (4, 4), 1, None, False),
    (5, (3, 3), 1, None, False),
    (5, (3, 3), 2, 0, False),
    (3, (1, 0), 2, 1, False),
    (5, (1, 2), 2, 0, False),
    (9, (5, 2), 4, 1, False),
    (25, (0, 0), 1, None, False),
    (25, (23, 10), 8, 0, False),
    (15, (13, 14), 1, None, True),
    (2, (1, 1), 1, None, False),
    (1, (0, 0), 1, None, False),
]


def match_states(rng: random.Random, count: int) -> Iterator[CubeInfo]:
    for length, score, cube, owner, crawford in SPECIAL:
        for on_roll in (0, 1):
            yield CubeInfo(
                match_length=length, score=score, cube=cube, cube_owner=owner, on_roll=on_roll, crawford=crawford
            )
    for _ in range(count):
        length = rng.randint(1, 25)
        score = (rng.randrange(length), rng.randrange(length))
        crawford = sum(length - s == 1 for s in score) == 1 and rng.random() < 0.5
        cube = 1 if crawford else 2 ** rng.randint(0, 4)
        owner = None if crawford or (cube == 1 and rng.random() < 0.7) else rng.randint(0, 1)
        yield CubeInfo(
            match_length=length, score=score, cube=cube, cube_owner=owner, on_roll=rng.randint(0, 1), crawford=crawford
        )


def positions(count: int) -> list[Position]:
    """Self-play positions, random and heuristic (more races and bear-offs), games in play."""
    found = selfplay_positions(count, seed=3) + selfplay_positions(count, seed=4, policy="heuristic")
    return [p for p in found if not p.is_game_over()]


# -- the comparison ----------------------------------------------------------------------------------------------


def _mwc(s: CubeInfo, equity: float) -> float:
    """gnubg's match equity (normalised to the cube) as an MWC."""
    return eq_to_mwc_at(
        equity, match_length=s.match_length, score=s.score, cube=s.cube, turn=s.on_roll, crawford=s.crawford
    )


def compare(g: Gnubg, position: Position, states: list[CubeInfo]) -> list[str]:
    """Where bgcore and gnubg differ on ``position`` in ``states`` (empty: nowhere)."""
    problems = []
    board = g.board(position)
    exact = g.bearoff(board) if position_class(position) == 4 else None
    for s in states:
        p, nd, dt, equities, action = g.decision(board, s)
        cubeful = g.cubeful(board, s)
        d = cube_decision(p, position, s, bearoff_equities=exact)
        mine = cubeful_equity(p, position, s, bearoff_equities=exact)
        if s.match_length:
            tol = MWC_TOL
            optimal, drop = _mwc(s, equities[0]), _mwc(s, equities[3])
        else:
            tol = EQUITY_TOL
            optimal, drop = equities[0], equities[3]
        pairs = [(nd, d.no_double), (dt, d.double_take), (drop, d.double_pass), (optimal, d.best), (cubeful, mine)]
        if action != d.action or any(abs(a - b) > tol for a, b in pairs) or d.mwc != bool(s.match_length):
            problems.append(f"{position.position_id()} {s}: gnubg {pairs=} {action}, bgcore {d.action!r}")
        # A decision that names the reply names the one bgcore gives (bar "too good, take": the doubler keeps
        # the cube, whatever the reply would be).
        words = d.action.text.split(", ")[-1]
        named = words in ("take", "pass", "beaver") and "Too good" not in d.action.text
        if named and words != d.response.value:
            problems.append(f"{position.position_id()} {s}: {d.action.text!r} but the reply is {d.response}")
    return problems


def run(g: Gnubg, found: list[Position], seed: int) -> None:
    rng = random.Random(seed)
    money = list(money_states())
    problems: list[str] = []
    for position in found:
        problems += compare(g, position, money + list(match_states(rng, 12)))
    assert not problems, f"{len(problems)} differences, the first: " + "\n".join(problems[:10])


def test_cube_against_gnubg_quick(g: Gnubg) -> None:
    run(g, positions(90)[::2], seed=1)


@pytest.mark.slow
def test_cube_against_gnubg_2200_positions(g: Gnubg) -> None:
    """2,200 self-play positions, each in 24 money states and 42 match states: about 145,000 comparisons."""
    found = positions(1100)
    assert len(found) >= 2000
    run(g, found, seed=2)


def test_two_sided_bearoffs(g: Gnubg) -> None:
    """gnubg's cubeful database in money play, and the cube efficiency it implies in match play."""
    found = [p for p in positions(1500) if position_class(p) == 4]
    assert len(found) >= 20
    rng = random.Random(5)
    problems: list[str] = []
    for position in found:
        problems += compare(g, position, list(money_states()) + list(match_states(rng, 20)))
    assert not problems, "\n".join(problems[:10])


# -- classes and efficiency ----------------------------------------------------------------------------------------


def test_classes_equal_gnubg_classify(g: Gnubg) -> None:
    found = positions(1100)
    over = [0] * 26
    over[19:25] = [-2, -3, -3, -3, -2, -2]  # the player on roll has borne off every checker
    boards = [p.board for p in found] + [tuple(over), tuple(-v for v in reversed(over))]
    seen = set()
    for board in boards:
        theirs, mine = board_to_gnubg(board)
        expected = gnubg.classify((tuple(theirs), tuple(mine)))
        assert position_class(board) == expected, (Position(board).position_id(), expected)
        seen.add(expected)
    assert seen == {0, 4, 6, 8, 9, 10}


@settings(max_examples=400, deadline=None)
@given(st.one_of(random_boards(), home_boards()))
def test_random_boards_classify_as_gnubg(b: tuple[int, ...]) -> None:
    theirs, mine = board_to_gnubg(b)
    assert position_class(b) == gnubg.classify((tuple(theirs), tuple(mine)))


@pytest.mark.parametrize("plies", [0, 1, 2, 3])
def test_efficiency_equals_gnubg(g: Gnubg, plies: int) -> None:
    for position in positions(300):
        board = g.board(position)
        expected = g.lib.EvalEfficiency(board, g.lib.ClassifyPosition(board, 0), plies)
        assert cube_efficiency(position, plies=plies) == pytest.approx(expected, abs=1e-6), position.position_id()


# -- what gnubg prints ------------------------------------------------------------------------------------------


@contextlib.contextmanager
def captured() -> Iterator[list[str]]:
    """gnubg's C-level stdout, as text, once the block ends."""
    sys.stdout.flush()
    saved = os.dup(1)
    out: list[str] = []
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            yield out
        finally:
            ctypes.CDLL(None).fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
            tmp.seek(0)
            out.append(tmp.read().decode("utf-8", "replace"))


def command(*lines: str) -> str:
    with captured() as out:
        for line in lines:
            gnubg.command(line)
    return out[0]


_VALUE = r"([+-]?\s*\d+\.\d+)(%?)"


def _number(text: str, percent: str) -> float:
    value = float(text.replace(" ", ""))
    return value / 100 if percent else value


def printed(position: Position, s: CubeInfo) -> tuple[float, dict[str, float], str | None]:
    """gnubg's printed 0-ply cubeful equity (``eval``'s: without a double now), its cube analysis (name ->
    value) and proper action (``hint``'s; None when the player on roll cannot double)."""
    match = MatchId(
        match_length=s.match_length,
        score=s.score,
        cube=s.cube,
        cube_owner=s.cube_owner,
        player_on_roll=s.on_roll,
        crawford=s.crawford,
        jacoby=s.jacoby,
    )
    command(f"set beavers {int(s.beavers)}")
    with captured():
        gnubg.setgnubgid(gnubg_id(position.position_id(), match))
    evaluation = command("eval")
    static = re.search(r"^static:.*\s" + _VALUE + r"\s*$", evaluation, re.M)
    assert static, evaluation
    cubeful = _number(*static.groups())
    hint = command("hint")
    analysis = {
        m.group(1): _number(m.group(2), m.group(3))
        for m in re.finditer(r"^\d\. ([A-Za-z ,]+?)\s{2,}" + _VALUE, hint, re.M)
    }
    proper = re.search(r"^Proper cube action: (.*?)(?: \(\d+(?:\.\d+)?%\))?$", hint, re.M)
    return cubeful, analysis, proper.group(1) if proper else None


@pytest.fixture(scope="module")
def printing(g: Gnubg) -> Iterator[None]:
    """gnubg set to print 0-ply cube analyses with 6 digits, matches as MWC; its defaults put back after
    (but for one calculation thread: with none, gnubg's hint waits forever inside the package)."""
    command(
        "set threads 1",
        "set evaluation cubedecision evaluation plies 0",
        "set evaluation chequerplay evaluation plies 0",
        "set output digits 6",
        "set output mwc on",
    )
    try:
        yield
    finally:
        command(
            "set output mwc off",
            "set output digits 3",
            "set evaluation cubedecision evaluation plies 2",
            "set evaluation chequerplay evaluation plies 2",
            "set beavers 3",
            "set jacoby on",
        )


def test_printed_analysis(g: Gnubg, printing: None) -> None:
    """``eval``'s cubeful equity and ``hint``'s cube analysis, as gnubg prints them, on a sample."""
    rng = random.Random(8)
    found = positions(300)
    specials = list(match_states(rng, 0))
    checked = decisions = 0
    for position in rng.sample(found, 25):
        states = rng.sample(list(money_states()), 4) + rng.sample(specials, 3) + list(match_states(rng, 3))[-3:]
        p = gnubg.evaluate(
            oracle.gnubg_tuple(position.board), oracle.money_cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0)
        )[:5]
        exact = g.bearoff(g.board(position)) if position_class(position) == 4 else None
        for s in states:
            cubeful, analysis, proper = printed(position, s)
            tol = MWC_TOL if s.match_length else EQUITY_TOL
            d = cube_decision(p, position, s, bearoff_equities=exact)
            assert cubeful == pytest.approx(d.no_double, abs=tol), s
            checked += 1
            if proper is None:  # "You cannot double."
                continue
            assert proper == d.action.text, (position.position_id(), s)
            names = {"No double": d.no_double, "No redouble": d.no_double}
            for verb in ("Double", "Redouble"):
                names[f"{verb}, take"] = d.double_take
                names[f"{verb}, pass"] = d.double_pass
            assert analysis, position.position_id()
            for name, value in analysis.items():
                assert value == pytest.approx(names[name], abs=tol), (position.position_id(), s, name)
            decisions += 1
    assert checked == 250 and decisions > 100


# -- move scores ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        CubeInfo(),
        CubeInfo(jacoby=True),
        CubeInfo(cube=2, cube_owner=0),
        CubeInfo(cube=2, cube_owner=1),
        CubeInfo(match_length=7, score=(2, 4)),
        CubeInfo(match_length=5, score=(4, 2), crawford=True),
        CubeInfo(match_length=5, score=(2, 4), cube=2, cube_owner=1),
    ],
)
def test_findbestmoves_opening_31(g: Gnubg, state: CubeInfo) -> None:
    """gnubg's 0-ply cubeful move scores: minus the opponent's cubeful equity (with its doubling option) after each."""
    start = Position.initial()
    ci = gnubg.cubeinfo(
        state.cube,
        -1 if state.cube_owner is None else state.cube_owner,
        0,
        state.match_length,
        state.score,
        int(state.crawford),
        0,
    )
    ci["jacoby"] = int(state.jacoby)
    expected = sorted(
        m["score"]
        for m in gnubg.findbestmoves(oracle.gnubg_tuple(start.board), ci, gnubg.evalcontext(1, 0, 1, 0, 0), (3, 1))
    )
    replies = CubeInfo(**{**state.__dict__, "on_roll": 1})
    context = gnubg.evalcontext(0, 0, 1, 0, 0)
    scores = []
    for move in start.legal_moves((3, 1)):
        after = start.play(move)  # the opponent on roll
        p = gnubg.evaluate(oracle.gnubg_tuple(after.board), oracle.money_cubeinfo(), context)[:5]
        value = cubeful_equity(p, after, replies)
        if state.match_length:
            kw = dict(match_length=state.match_length, score=state.score, cube=state.cube, crawford=state.crawford)
            scores.append(mwc_to_eq_at(1.0 - value, turn=0, **kw))
        else:
            scores.append(-value)
    assert sorted(scores) == pytest.approx(expected, abs=EQUITY_TOL)
