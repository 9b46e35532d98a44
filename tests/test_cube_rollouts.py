"""Cubeful rollouts: the engine's games against a Python model (bgcore.Game
with Game.cube_decision on the same dice), the pass's value, the Jacoby rule,
Crawford and post-Crawford games, determinism, the result and bad input."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import bgcore._engine as _engine
import cube_model as model
from bgcore import Game, IllegalActionError, Position, nets, rollout
from bgcore.acey import AceyDeuceyPosition
from bgcore.cube import CubeAction, CubeInfo, Response, cube_decision
from bgcore.ids import MatchId
from bgcore.met import match_equity, met_arrays
from bgcore.policy import for_engine, greedy
from bgcore.rollouts import BLOCK, CubefulRolloutResult, RolloutResult, _cube_evaluator, _cube_spec

# Slow as a whole: its games replay in Python against the model and its rollouts
# play wildbg (35 s in all here), more than 10 minutes under the sanitizers, which
# run the quick suite; selfplay's cube duels exercise the same C there.
pytestmark = pytest.mark.slow

SPAWN = multiprocessing.get_context("spawn")
WILDBG = nets.wildbg()
#: Player 0 on roll, 114 pips to 133, facing an anchor: near the doubling point (docs/guides/cube.md).
CONTACT = "LR7hAQOMrw+CAA"


def start(position_id: str = CONTACT, beavers: bool = False, **state: Any) -> Game:
    """A game before player 0's roll at ``position_id``, in the state of a Match ID's fields."""
    return Game.from_ids(position_id, MatchId(**state).encode(), beavers=beavers)


def engine_points(game: Game, games: int, seed: int, policy: Any = WILDBG) -> np.ndarray:
    """The engine's points for the player on roll, each game and branch, as a rollout plays them unstratified."""
    cube = _cube_spec(game.position, game, policy)
    theory = _cube_evaluator(policy, 15)
    pre, post = met_arrays()
    engine = for_engine(policy)
    _, _, points = _engine.play_cubeful(
        game.position.to_array().tobytes(),
        15,
        seed,
        0,
        games,
        (engine, engine),
        (theory, theory),
        pre,
        post,
        rules=cube.rules,
        root=cube.root,
    )
    return points


#: Start states (a Match ID's fields) and whether anybody can double in them.
STARTS = {
    "money, Jacoby and beavers": (dict(jacoby=True, beavers=True), True),
    "money, player 0 owns a 4-cube": (dict(cube=4, cube_owner=0, jacoby=False), True),
    "money, the opponent owns a 2-cube": (dict(cube=2, cube_owner=1, jacoby=False), True),
    "7 points, 3-4": (dict(match_length=7, score=(3, 4)), True),
    "7 points, 2-away 4-away, the opponent's 2-cube": (dict(match_length=7, score=(5, 3), cube=2, cube_owner=1), True),
    "7 points, 2-away 4-away, a dead 2-cube": (dict(match_length=7, score=(5, 3), cube=2, cube_owner=0), False),
    "7 points, post-Crawford": (dict(match_length=7, score=(2, 6)), True),
    "7 points, the Crawford game": (dict(match_length=7, score=(6, 2), crawford=True), False),
}


@pytest.mark.parametrize(("state", "doubles"), STARTS.values(), ids=STARTS.keys())
def test_the_engines_games_are_the_models(state: dict[str, Any], doubles: bool) -> None:
    """Game for game and branch for branch, the engine scores what
    bgcore.Game scores when Game.cube_decision makes the same decisions."""
    game = start(**state)
    log = model.Log()
    expected = model.rollout_games(game, 150, 3, WILDBG, WILDBG, log)
    points = engine_points(game, 150, 3)
    assert points.shape == expected.shape
    assert np.array_equal(points, expected)
    assert (log["double"] > 0) == doubles


def test_every_cube_path_is_exercised_by_the_model_tests() -> None:
    log = model.Log()
    for state, _ in STARTS.values():
        model.rollout_games(start(**state), 150, 3, WILDBG, WILDBG, log)
    assert log["double"] > 0 and log["take"] > 0 and log["pass"] > 0 and log["gammon"] > 0


def test_a_python_evaluator_plays_the_native_networks_games() -> None:
    """greedy() of a function calling the nets goes through the engine's
    Python path, for the moves and for the cube: the same games."""
    game = start(jacoby=True, beavers=True)
    native = rollout(game, games=BLOCK, policy=WILDBG, seed=4, cube=True)
    python = rollout(game, games=BLOCK, policy=greedy(lambda boards: WILDBG(boards)), seed=4, cube=True)
    assert python == native
    assert python.policy == "greedy(<lambda>)" and native.policy == "Composite"


def race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    board = [0] * 26
    for point, n in mine.items():
        board[point] = n
    for point, n in theirs.items():
        board[point] = -n
    return Position(board)


@pytest.mark.parametrize(("cube", "owner"), [(1, None), (2, 0)])
def test_a_pass_ends_the_game_at_the_cube_before_the_double(cube: int, owner: int | None) -> None:
    """Player 0's last three checkers on its 6-point against ten of the
    opponent's on theirs (five borne off: no gammon): player 0 wins, by
    bearing off or, at its second turn, by a double the opponent passes,
    for the cube's value before the double."""
    position = race({6: 3}, {19: 10})
    game = Game.from_ids(position.position_id(), MatchId(cube=cube, cube_owner=owner, jacoby=False).encode())
    log = model.Log()
    assert (model.rollout_games(game, 100, 1, WILDBG, WILDBG, log)[:, 0] == cube).all()
    assert log["pass"] > 20
    points = engine_points(game, 300, 1)
    assert (points[:, 0] == cube).all()
    assert (points[:, 1] == 2 * cube).all()  # doubled at the start and taken: the opponent owns the cube


def test_gammons_count_single_under_jacoby_only_with_the_cube_centred() -> None:
    """Player 0 bears off its last two checkers at once, the opponent has not
    borne off and has checkers in player 0's home board: a backgammon."""
    position = _backgammon_board()
    for jacoby, no_double in ((True, 1.0), (False, 3.0)):
        game = Game.from_ids(position.position_id(), MatchId(jacoby=jacoby).encode())
        result = rollout(game, games=50, policy="wildbg", cube=True)
        assert (result.no_double, result.no_double_stderr) == (no_double, 0.0)
        assert result.double_take == 6.0  # the cube turned: gammons count, per unit of the cube before it
        assert result.cubeless.probabilities == (1.0, 1.0, 1.0, 0.0, 0.0)


def _backgammon_board() -> Position:
    """Player 0's last two checkers on its ace point; 13 of the opponent's on player 0's 3-point, 2 on its 24."""
    board = [0] * 26
    board[1] = 2
    board[3] = -13
    board[24] = -2
    return Position(board)


def mwc_after(length: int, score: tuple[int, int], crawford: bool, points: float) -> float:
    """Player 0's match winning chance after a game it wins (points > 0) or loses, from the table."""
    away = [length - score[0], length - score[1]]
    post = crawford or 1 in away
    if points > 0:
        away[0] -= int(points)
    else:
        away[1] += int(points)
    if min(away) <= 0:
        return 1.0 if away[0] <= 0 else 0.0
    return match_equity(away[0], away[1], crawford=not post and 1 in away)


@pytest.mark.parametrize(("score", "crawford"), [((3, 4), False), ((2, 6), False), ((6, 2), True), ((4, 5), False)])
def test_a_match_rollout_averages_the_match_winning_chances_after_each_game(
    score: tuple[int, int], crawford: bool
) -> None:
    game = start(match_length=7, score=score, crawford=crawford)
    result = rollout(game, games=200, policy="wildbg", seed=2, cube=True, stratify=False)
    points = engine_points(game, 200, 2)
    values = np.vectorize(lambda k: mwc_after(7, score, crawford, k))(points)
    assert result.mwc
    assert result.no_double == pytest.approx(values[:, 0].mean(), abs=1e-12)
    if crawford:
        assert points.shape[1] == 1 and result.double_take is None and result.response is None
        assert result.action is CubeAction.NO_DOUBLE_DEAD_CUBE and result.decision is None
    else:
        assert result.double_take == pytest.approx(values[:, 1].mean(), abs=1e-12)
        assert result.double_pass == mwc_after(7, score, crawford, 1)
        assert result.decision is not None and result.decision.mwc


def test_the_cubeless_part_is_the_cubeless_rollout() -> None:
    game = start(match_length=7, score=(3, 4))
    cubeful = rollout(game, games=BLOCK + 100, policy="wildbg", seed=9, cube=True)
    assert cubeful.cubeless == rollout(game, games=BLOCK + 100, policy="wildbg", seed=9)
    assert cubeful.cubeless.mwc == rollout(game, games=BLOCK + 100, policy="wildbg", seed=9).mwc


def test_the_decision_is_judged_as_the_0_ply_one() -> None:
    """The rolled-out values go through gnubg's rules as cube_decision's do:
    the same values give the same action, the best value and the reply."""
    game = start(jacoby=True, beavers=True)
    result = rollout(game, games=BLOCK, policy="wildbg", seed=1, cube=True)
    assert result.double_take is not None and result.double_pass == 1.0
    decision = result.decision
    assert decision is not None and not decision.mwc
    assert result.best in (result.no_double, result.double_take, result.double_pass)
    if result.double_take > result.no_double and result.double_take < 1.0:
        assert result.action is CubeAction.DOUBLE_TAKE and result.response is Response.TAKE
    # a rolled-out "double, pass": double/take above 1, as the 0-ply judgement of those values
    pre, post = met_arrays()
    assert _engine.cube_judge((0.8, 1.3, 1.0), (0, 0, 1, -1, 0, 1, 1), 0.8, True, pre, post)[1:] == (
        CubeAction.DOUBLE_PASS,
        1,
    )


def test_a_cube_the_opponent_owns_rolls_out_no_double_only() -> None:
    game = start(cube=2, cube_owner=1, jacoby=False)
    result = rollout(game, games=300, policy="wildbg", seed=1, cube=True)
    assert result.double_take is None and result.double_pass is None and result.take_gain_stderr is None
    assert result.action is CubeAction.NOT_AVAILABLE and result.best == result.no_double
    assert "double/take" not in str(result) and "Cube not available" in str(result)


def test_the_same_seed_gives_the_same_bits_whatever_the_threads_lanes_and_executors() -> None:
    game = start(match_length=5, score=(1, 2))
    base = rollout(game, games=BLOCK + 300, policy="wildbg", seed=11, cube=True)
    for threads, in_flight in ((2, 256), (1, 1), (2, 7)):
        assert (
            rollout(game, games=BLOCK + 300, policy="wildbg", seed=11, cube=True, threads=threads, in_flight=in_flight)
            == base
        )
    with ThreadPoolExecutor(2) as pool:
        assert rollout(game, games=BLOCK + 300, policy="wildbg", seed=11, cube=True, executor=pool) == base
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:
        assert rollout(game, games=BLOCK + 300, policy=WILDBG, seed=11, cube=True, executor=pool) == base
    assert rollout(game, games=BLOCK + 300, policy="wildbg", seed=12, cube=True) != base


def test_a_python_evaluator_sees_every_cube_turn_in_flight() -> None:
    calls: list[int] = []

    def evaluate(boards: np.ndarray) -> np.ndarray:
        calls.append(len(boards))
        return np.asarray(WILDBG(boards), dtype=np.float64)

    rollout(start(), games=64, policy=greedy(evaluate), seed=1, cube=True, stratify=False, in_flight=64)
    assert max(calls) > 20  # the children of many games and the cube boards of many, in one call each


def test_the_result_prints_its_three_values_errors_and_decision() -> None:
    result = rollout(start(jacoby=True, beavers=True), games=BLOCK, policy="wildbg", seed=1, cube=True)
    assert isinstance(result, CubefulRolloutResult) and isinstance(result.cubeless, RolloutResult)
    assert (result.games, result.seed, result.policy) == (BLOCK, 1, "wildbg")
    lines = str(result).splitlines()
    assert lines[0].startswith(f"cubeful rollout of {BLOCK:,} games, wildbg for both sides, seed 1")
    assert lines[1].split()[:4] == ["no", "double", f"{result.no_double:+.5f}", "±"]
    assert lines[2].split()[:3] == ["double/take", f"{result.double_take:+.5f}", "±"]
    assert lines[3].split() == ["double/pass", "+1.00000"]
    assert lines[-1].endswith(result.action.text)
    assert repr(result).startswith(f"<CubefulRolloutResult of {BLOCK:,} games, wildbg, seed 1: no double ")
    match = rollout(start(match_length=7, score=(3, 4)), games=100, policy="wildbg", cube=True)
    assert "match winning chances" in str(match) and f"{match.no_double:8.5f}" in str(match)


def test_a_clear_pass_at_0_ply_and_in_the_rollout() -> None:
    """A race player 0 wins (three checkers left against ten): the opponent
    passes at 0-ply (wildbg's tiny gammon chance makes it "too good") and in
    the rollout, whose every game gives player 0 the cube: double, pass."""
    position = race({6: 3}, {19: 10})
    game = Game.from_ids(position.position_id(), MatchId(jacoby=False).encode())
    zero = cube_decision(_probabilities(position), position, CubeInfo())
    result = rollout(game, games=BLOCK, policy="wildbg", seed=3, cube=True)
    assert zero.action in (CubeAction.DOUBLE_PASS, CubeAction.TOO_GOOD_PASS) and zero.response is Response.PASS
    assert (result.no_double, result.double_take, result.double_pass) == (1.0, 2.0, 1.0)
    assert result.action is CubeAction.DOUBLE_PASS and result.response is Response.PASS and result.best == 1.0


def _probabilities(position: Position) -> list[float]:
    return [float(p) for p in np.asarray(WILDBG(position.to_array()[np.newaxis, :]))[0]]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(policy="pubeval"), ValueError, "needs an evaluator as its policy"),
        (dict(policy="wildbg", truncate=4, evaluator="wildbg"), ValueError, "no truncate"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        rollout(start(), games=10, cube=True, **kwargs)


def test_the_games_max_cube_caps_the_rollouts_cube() -> None:
    """A game's max_cube is the engine's limit: with the cube at max_cube
    nobody may double, and below it the games are the model's game for game."""
    state = MatchId(cube=2, cube_owner=0, jacoby=False).encode()
    capped = rollout(Game.from_ids(CONTACT, state, max_cube=2), games=36, cube=True, policy=WILDBG)
    assert capped.double_take is None and capped.double_pass is None
    game = Game.from_ids(CONTACT, state, max_cube=4)
    log = model.Log()
    expected = model.rollout_games(game, 100, 3, WILDBG, WILDBG, log)
    assert log["double"] > 0 and np.array_equal(engine_points(game, 100, 3), expected)
    uncapped = Game.from_ids(CONTACT, state)
    assert not np.array_equal(engine_points(uncapped, 100, 3), expected)


def test_bad_starts() -> None:
    with pytest.raises(ValueError, match="without the doubling cube"):
        rollout(Game.from_ids(CONTACT, MatchId().encode(), cube=False), cube=True, policy="wildbg")
    with pytest.raises(ValueError, match="no acey-deucey"):
        rollout(AceyDeuceyPosition.initial(), cube=True, policy="random")
    with pytest.raises(ValueError, match="15 checkers a side, not 3"):
        rollout(Position.initial("hypergammon"), cube=True, policy="wildbg")
    opening = Game()
    with pytest.raises(IllegalActionError):
        rollout(opening, cube=True, policy="wildbg")
