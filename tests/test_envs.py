"""The reinforcement-learning environments: Gymnasium's and PettingZoo's checkers,
masks against the legal moves, rewards against Position.result(), every move
checked legal, seeding, illegal actions, the vector env's autoreset."""

from __future__ import annotations

import subprocess
import sys
import warnings
from functools import cache
from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from bgcore import Dice, Position, encode  # noqa: E402
from bgcore.envs import ACTIONS, ENV_ID, BackgammonEnv, BackgammonVectorEnv, _game  # noqa: E402
from bgcore.envs import backgammon_aec_v0 as aec  # noqa: E402
from bgcore.movegen import MAX_RESULTS  # noqa: E402
from bgcore.rules import ROLLS  # noqa: E402

START = Position.initial()


def pubeval_callable(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The built-in "pubeval" policy as a callable."""
    return encode.pubeval(children).astype(np.float64)


@cache
def replies_of(position: Position) -> frozenset[Position]:
    """Every position the player on roll can leave for the other side, over all rolls."""
    return frozenset(child for roll in ROLLS for child in position.children(roll))


def outcome_reward(final: Position, agent_on_roll: bool) -> int:
    """The agent's points from a finished board seen from its side: ``agent_on_roll``
    says whether ``final`` is as the agent would roll next (the opponent moved
    last) or as the agent left it (the agent moved last)."""
    result = final.result()
    assert result is not None, "the game is not over"
    # result.winner is 0 when the side "on roll" in final (the positive side, the agent) has won
    return result.points if result.winner == 0 else -result.points


def random_action(info: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.integers(info["num_moves"]))


# --- packaging ---------------------------------------------------------------


def test_import_bgcore_does_not_import_gymnasium() -> None:
    code = "import sys, bgcore; print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    ("missing", "module"), [("gymnasium", "bgcore.envs"), ("pettingzoo", "bgcore.envs.backgammon_aec_v0")]
)
def test_a_missing_extra_names_it(missing: str, module: str) -> None:
    code = f"import sys; sys.modules[{missing!r}] = None\nimport {module}"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode != 0
    assert "ImportError" in run.stderr and 'pip install "bgcore-engine[rl]"' in run.stderr and missing in run.stderr


def test_registered_and_action_space_is_the_generators_capacity() -> None:
    env = gym.make(ENV_ID)
    assert isinstance(env.unwrapped, BackgammonEnv)
    assert env.action_space == gym.spaces.Discrete(MAX_RESULTS) and ACTIONS == 4096
    vec = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", opponent="random")
    assert isinstance(vec, BackgammonVectorEnv) and vec.num_envs == 3
    assert vec.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="opponent"):
        BackgammonEnv("best")
    with pytest.raises(ValueError, match="observation"):
        BackgammonEnv(observation="pixels")
    with pytest.raises(ValueError, match="illegal_reward"):
        BackgammonEnv(illegal_reward=float("nan"))
    with pytest.raises(ValueError, match="num_envs"):
        BackgammonVectorEnv(0)
    env = BackgammonEnv()
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step(1.5)  # type: ignore[arg-type]


# --- Gymnasium's and PettingZoo's checkers ---------------------------------------


@pytest.mark.parametrize("observation", ["tesauro", "board"])
@pytest.mark.parametrize("opponent", ["random", "pubeval", "race", pubeval_callable])
def test_check_env_passes_without_warnings(observation: str, opponent: object) -> None:
    env = gym.make(ENV_ID, opponent=opponent, observation=observation)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        check_env(env.unwrapped)


# api_test warns about every env whose observations are dicts (the action-mask
# convention), unless it is one of PettingZoo's own games, by name.
DICT_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("observation", ["tesauro", "board"])
def test_pettingzoo_api_test_passes(observation: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec.env(observation=observation), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_WARNINGS


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(aec.env, num_cycles=300)


# --- the single-agent env ---------------------------------------------------------


@pytest.mark.parametrize("observation", ["tesauro", "board"])
def test_masks_moves_children_and_observations_match_the_position(observation: str) -> None:
    env = BackgammonEnv("random", observation)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=11)
    for _ in range(150):
        pos = env.position
        moves = env.legal_moves()
        k = len(moves)
        assert info["num_moves"] == k >= 1
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (ACTIONS,)
        assert info["action_mask"][:k].all() and not info["action_mask"][k:].any()
        assert tuple(info["dice"]) == env.dice and moves.dice == tuple(sorted(env.dice, reverse=True))
        expected = encode.tesauro198(pos.to_array()) if observation == "tesauro" else pos.to_array()
        assert obs.dtype == env.observation_space.dtype and np.array_equal(obs, expected)
        kids = env.children()
        assert [Position.from_array(row) for row in kids] == [pos.play(m).flip() for m in moves]
        assert [Position.from_array(row).flip() for row in kids] == pos.children(env.dice)
        obs, _, terminated, truncated, info = env.step(random_action(info, rng))
        assert not truncated
        if terminated:
            obs, info = env.reset()


def test_rewards_are_the_games_points_and_every_move_is_legal() -> None:
    rng = np.random.default_rng(2)
    seen = set()
    for seed in range(40):
        env = BackgammonEnv("pubeval" if seed % 2 else "random", "board")
        obs, info = env.reset(seed=seed)
        assert env.position == START or env.position in replies_of(START)
        while True:
            pos, dice = env.position, env.dice
            assert dice is not None
            action = random_action(info, rng)
            mine = pos.play(pos.legal_moves(dice)[action])  # the opponent to roll
            obs, reward, terminated, _, info = env.step(action)
            final = Position.from_array(obs)
            assert final == env.position
            if mine.is_game_over():  # the agent's move ended the game
                assert terminated and final == mine.flip()
                assert reward == outcome_reward(final, agent_on_roll=False) > 0
            elif terminated:  # the opponent's
                assert final in replies_of(mine) and final.is_game_over()
                assert reward == outcome_reward(final, agent_on_roll=True) < 0
            else:
                assert reward == 0 and final in replies_of(mine) and not final.is_game_over()
            if terminated:
                seen.add(reward)
                assert not info["action_mask"].any() and info["num_moves"] == 0
                break
    assert seen >= {-2.0, -1.0, 1.0}  # singles and gammons both ways (random play loses many gammons)


def test_seeded_games_roll_bgcore_dice_in_order() -> None:
    """reset(seed=s) rolls Dice(s): the opening (one die each, again on a tie),
    then, each step, the opponent's roll and the agent's."""
    rng = np.random.default_rng(3)
    for seed in range(12):
        env = BackgammonEnv("pubeval", "board")
        _, info = env.reset(seed=seed)
        dice = Dice(seed)
        while True:
            agent, opponent = dice.roll()
            if agent != opponent:
                break
        if agent > opponent:
            assert env.position == START and env.dice == (agent, opponent)
        else:  # the opponent opened with the two dice, then the agent rolled
            assert env.position in set(START.children((agent, opponent)))
            assert env.dice == dice.roll()
        terminated = False
        while not terminated:
            before = env.position
            action = random_action(info, rng)
            mine = before.play(before.legal_moves(env.dice)[action])  # type: ignore[arg-type]
            _, _, terminated, _, info = env.step(action)
            if mine.is_game_over():
                break
            their_roll = dice.roll()
            if not terminated:
                assert env.position in set(mine.children(their_roll)) and env.dice == dice.roll()


def test_final_turn_units_say_who_would_roll() -> None:
    rng = np.random.default_rng(8)
    env = BackgammonEnv("random")
    signs = set()
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        assert tuple(obs[196:]) == (1.0, 0.0)
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(random_action(info, rng))
            if not terminated:
                assert tuple(obs[196:]) == (1.0, 0.0)
        # after the agent's winning move the opponent would roll; after the opponent's, the agent
        assert tuple(obs[196:]) == ((0.0, 1.0) if reward > 0 else (1.0, 0.0))
        assert np.array_equal(obs, encode.tesauro198(env.position.to_array(), opponent_on_roll=reward > 0))
        signs.add(reward > 0)
    assert signs == {True, False}


def test_same_seed_same_game_and_other_seeds_differ() -> None:
    def play(seed: int) -> list[Any]:
        env = BackgammonEnv("random")
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        trace: list[Any] = [obs.tobytes(), info["dice"].tobytes()]
        for _ in range(60):
            obs, reward, terminated, _, info = env.step(random_action(info, rng))
            trace += [obs.tobytes(), reward, info["dice"].tobytes()]
            if terminated:
                obs, info = env.reset()  # continues the seeded streams
        return trace

    assert play(5) == play(5)
    assert play(5) != play(6)


@pytest.mark.parametrize("action", [-1, "past", ACTIONS - 1, ACTIONS, 10**9])
def test_an_illegal_action_ends_the_episode_with_the_penalty(action: object) -> None:
    env = BackgammonEnv("random", "board", illegal_reward=-2.5)
    obs, info = env.reset(seed=3)
    board = env.position
    index = info["num_moves"] if action == "past" else action
    obs2, reward, terminated, truncated, info2 = env.step(index)  # type: ignore[arg-type]
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.5, True, False, True)
    assert np.array_equal(obs2, obs) and env.position == board
    assert not info2["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    assert BackgammonEnv().illegal_reward == -3.0


def test_a_lost_turn_is_one_empty_move() -> None:
    env = BackgammonEnv("random", "board")
    env.reset(seed=0)
    closed = Position.from_position_id("u5sDAgK3OwcAQA")  # the mover on the bar against a closed board
    env._board = closed.to_array()[None]
    env._roll = np.array([[4, 1]], dtype=np.uint8)
    env._children, _ = _game.generate(env._board, env._roll)
    info = env._info()
    assert info["num_moves"] == 1 and str(env.legal_moves()[0]) == ""
    _, reward, terminated, _, info = env.step(0)
    assert reward == 0 and not terminated and not info["illegal_action"]


# --- the pieces ------------------------------------------------------------------


def test_points_agree_with_position_result() -> None:
    rng = np.random.default_rng(4)
    boards = []
    for _ in range(3000):
        b = np.zeros(26, dtype=np.int8)
        left = int(rng.integers(1, 16)) if rng.random() < 0.5 else 15  # the loser's checkers on the board
        for _ in range(left):
            b[int(rng.choice([0, *range(1, 25)]))] -= 1
        if rng.random() < 0.3:  # the loser's checkers kept out of the winner's home and off the bar
            b[19] += b[0] + b[1:7].sum()
            b[0] = 0
            b[1:7] = 0
        boards.append(b)
        assert int(_game.points(b[None])[0]) == Position(b.tolist()).result().points  # type: ignore[union-attr]
        assert _game.points_one(b) == int(_game.points(b[None])[0])
    assert set(_game.points(np.array(boards)).tolist()) == {1, 2, 3}
    assert _game.points(START.to_array()[None]).tolist() == [0]


@pytest.mark.parametrize("policy", ["pubeval", "race", "random", pubeval_callable])
def test_opening_moves_are_the_policys_moves(policy: object) -> None:
    rolls = np.array([(a, b) for a in range(1, 7) for b in range(1, 7) if a != b] * 4, dtype=np.uint8)
    got = _game.opening_moves(policy, rolls, np.random.default_rng(0))  # type: ignore[arg-type]
    children, offsets = _game.generate(_game.initial_boards(len(rolls)), rolls)
    if policy == "random":
        for i, roll in enumerate(rolls):
            assert any(np.array_equal(got[i], c) for c in children[offsets[i] : offsets[i + 1]]), roll
    else:
        assert np.array_equal(got, children[_game.choose(policy, children, offsets, np.random.default_rng(0))])  # type: ignore[arg-type]


def test_choose_plays_the_first_best_and_random_stays_in_range() -> None:
    children = np.zeros((6, 26), dtype=np.int8)
    offsets = np.array([0, 3, 4, 6])

    def fixed(c: np.ndarray, o: np.ndarray) -> np.ndarray:
        return np.array([1.0, 5.0, 5.0, -1.0, 2.0, 7.0])

    assert _game.choose(fixed, children, offsets, np.random.default_rng()).tolist() == [1, 3, 5]
    picks = np.array([_game.choose("random", children, offsets, np.random.default_rng(s)) for s in range(200)])
    assert set(picks[:, 0]) == {0, 1, 2} and set(picks[:, 1]) == {3} and set(picks[:, 2]) == {4, 5}


def opponent_trace(opponent: object, seed: int = 9, steps: int = 80) -> list[bytes]:
    """The observations of random play against ``opponent`` from ``reset(seed)``, games restarted as they end."""
    env = BackgammonEnv(opponent)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=seed)
    out = [obs.tobytes()]
    for _ in range(steps):
        obs, _, terminated, _, info = env.step(random_action(info, rng))
        out.append(obs.tobytes())
        if terminated:
            obs, info = env.reset()
    return out


def vector_trace(opponent: object, n: int = 16, steps: int = 40) -> list[bytes]:
    """The observations and rewards of random play in n games against ``opponent``."""
    env = BackgammonVectorEnv(n, opponent)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=12)
    out = [obs.tobytes()]
    for _ in range(steps):
        obs, rewards, *_rest, info = env.step((rng.random(n) * info["num_moves"]).astype(np.int64))
        out += [obs.tobytes(), rewards.tobytes()]
    return out


def test_a_callable_opponent_plays_as_the_built_in_policy() -> None:
    assert opponent_trace(pubeval_callable) == opponent_trace("pubeval")


# --- PettingZoo --------------------------------------------------------------------


def test_aec_games_are_legal_and_rewards_are_the_points() -> None:
    rng = np.random.default_rng(5)
    env = aec.raw_env(observation="board")
    for seed in range(10):
        env.reset(seed=seed)
        while True:
            agent = env.agent_selection
            obs = env.observe(agent)
            other = env.observe("player_1" if agent == "player_0" else "player_0")
            pos = Position.from_array(obs["observation"])
            assert Position.from_array(other["observation"]) == pos.flip() and not other["action_mask"].any()
            info = env.infos[agent]
            moves = pos.legal_moves(info["dice"])
            assert info["num_moves"] == len(moves) == obs["action_mask"].sum()
            assert obs["action_mask"][: len(moves)].all()
            action = int(rng.integers(len(moves)))
            after = pos.play(moves[action])
            env.step(action)
            if env.terminations[agent]:
                result = after.result()
                assert result is not None and result.winner == 1  # the mover, as after.play() sees it
                assert env.rewards[agent] == result.points and sum(env.rewards.values()) == 0
                final = env.observe(agent)["observation"]
                assert Position.from_array(final) == after.flip()  # the mover's side after its winning move
                break
            assert env.rewards[agent] == 0
            nxt = env.agent_selection
            assert nxt != agent and Position.from_array(env.observe(nxt)["observation"]) == after


def test_aec_opening_roll_decides_who_starts() -> None:
    env = aec.raw_env(observation="board")
    starters = set()
    for seed in range(20):
        env.reset(seed=seed)
        dice = Dice(seed)
        while True:
            first, second = dice.roll()
            if first != second:
                break
        agent = env.agent_selection
        assert agent == ("player_0" if first > second else "player_1")
        assert env.infos[agent]["dice"] == (first, second)
        assert Position.from_array(env.observe(agent)["observation"]) == START
        starters.add(agent)
    assert starters == {"player_0", "player_1"}


def test_aec_illegal_action() -> None:
    env = aec.raw_env(illegal_reward=-4.0)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(ACTIONS - 1)
    assert all(env.terminations.values())
    assert env.infos[agent]["illegal_action"]
    assert env._cumulative_rewards[agent] == -4.0 and sum(env._cumulative_rewards.values()) == -4.0


# --- the vector env ------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "pubeval"])
def test_vector_games_are_legal_and_autoreset(opponent: str) -> None:
    n = 8
    env = BackgammonVectorEnv(n, opponent, "board")
    rng = np.random.default_rng(6)
    obs, info = env.reset(seed=21)
    finished = 0
    for i in range(n):  # the agent opened with the higher die, or the opponent opened
        if Position.from_array(obs[i]) == START:
            assert info["dice"][i, 0] > info["dice"][i, 1]
        else:
            assert Position.from_array(obs[i]) in replies_of(START)
    for _ in range(150):
        boards = [Position.from_array(b) for b in obs]
        assert np.array_equal(env.boards(), obs)
        children, offsets = env.legal_children()
        for i, pos in enumerate(boards):
            dice = tuple(int(d) for d in info["dice"][i])
            kids = pos.children(dice)  # type: ignore[arg-type]
            assert info["num_moves"][i] == len(kids) == offsets[i + 1] - offsets[i]
            mask = info["action_mask"][i]
            assert mask[: len(kids)].all() and not mask[len(kids) :].any()
            assert [Position.from_array(c).flip() for c in children[offsets[i] : offsets[i + 1]]] == kids
        actions = (rng.random(n) * info["num_moves"]).astype(np.int64)
        mine = [boards[i].children(tuple(int(d) for d in info["dice"][i]))[a] for i, a in enumerate(actions)]  # type: ignore[arg-type]
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any() and not info["illegal_action"].any()
        for i in range(n):
            new = Position.from_array(obs[i])
            if terminated[i]:
                finished += 1
                assert info["_final_obs"][i]
                final = Position.from_array(info["final_obs"][i])
                if mine[i].is_game_over():
                    assert final == mine[i].flip() and rewards[i] == outcome_reward(final, agent_on_roll=False)
                else:
                    assert final in replies_of(mine[i]) and final.is_game_over()
                    assert rewards[i] == outcome_reward(final, agent_on_roll=True)
                assert new == START or new in replies_of(START)  # a new game, after its opening roll
                if new == START:  # the agent opened: its die is the first and the higher
                    assert info["dice"][i, 0] > info["dice"][i, 1]
            else:
                assert rewards[i] == 0 and new in replies_of(mine[i]) and not new.is_game_over()
                assert "_final_obs" not in info or not info["_final_obs"][i]
    assert finished >= 2


def test_vector_tesauro_observations_and_final_turn_units() -> None:
    env = BackgammonVectorEnv(16, "random")
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=2)
    won_by_agent = lost_by_agent = 0
    for _ in range(200):
        assert obs.dtype == np.float32 and obs.shape == (16, 198)
        assert np.array_equal(obs, encode.tesauro198(env.boards()))
        actions = (rng.random(16) * info["num_moves"]).astype(np.int64)
        obs, rewards, terminated, _, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            final = info["final_obs"][i]
            assert tuple(final[196:]) == ((0.0, 1.0) if rewards[i] > 0 else (1.0, 0.0))
            won_by_agent += rewards[i] > 0
            lost_by_agent += rewards[i] < 0
    assert won_by_agent >= 3 and lost_by_agent >= 3


def test_vector_same_seed_reproduces() -> None:
    def run(seed: int) -> list[bytes]:
        env = BackgammonVectorEnv(32, "random")
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        out = [obs.tobytes()]
        for _ in range(60):
            obs, rewards, terminated, _, info = env.step((rng.random(32) * info["num_moves"]).astype(np.int64))
            out += [obs.tobytes(), rewards.tobytes(), terminated.tobytes(), info["dice"].tobytes()]
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_vector_illegal_actions_end_only_their_games() -> None:
    env = BackgammonVectorEnv(4, "random", "board", illegal_reward=-5.0)
    obs, info = env.reset(seed=8)
    actions = np.zeros(4, dtype=np.int64)
    actions[1] = info["num_moves"][1]
    actions[3] = -7
    new, rewards, terminated, _, info = env.step(actions)
    assert info["illegal_action"].tolist() == [False, True, False, True]
    assert rewards[1] == rewards[3] == -5.0 and terminated[1] and terminated[3]
    assert np.array_equal(info["final_obs"][[1, 3]], obs[[1, 3]])
    assert info["_final_obs"][[1, 3]].all()
    for i in (1, 3):
        assert Position.from_array(new[i]) == START or Position.from_array(new[i]) in replies_of(START)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.zeros(4))


def test_vector_callable_opponent_matches_the_built_in() -> None:
    assert vector_trace(pubeval_callable) == vector_trace("pubeval")


# --- evaluators as opponents ---------------------------------------------------------


def test_an_evaluator_opponent_plays_its_lowest_equity_for_the_agent() -> None:
    """The opponent's reply by an evaluator is the result whose equity for
    the agent (now on roll) the evaluator rates lowest, from the Position API."""
    from bgcore import batch, nets, selfplay

    wildbg = nets.wildbg()
    positions = selfplay.selfplay_positions(12, seed=4, policy="heuristic")
    boards = np.stack([p.to_array() for p in positions])
    dice = np.array([ROLLS[i % len(ROLLS)] for i in range(len(boards))], dtype=np.uint8)
    children, offsets = batch.generate(boards, dice)
    chosen = _game.choose("wildbg", children, offsets, np.random.default_rng(0))
    for i, position in enumerate(positions):
        results = list(position.legal_moves(tuple(int(d) for d in dice[i])).positions())  # the agent's view
        p = wildbg.evaluate(results).astype(np.float64)
        equity = 2 * p[:, 0] - 1 + (p[:, 1] - p[:, 3]) + (p[:, 2] - p[:, 4])
        for k, after in enumerate(results):
            if after.is_game_over():  # the opponent bore off: the agent lost
                equity[k] = -float(after.result().outcome)  # type: ignore[union-attr]
        assert chosen[i] - offsets[i] == int(np.argmin(equity))


def test_network_opponents_by_name_object_and_greedy_play_alike() -> None:
    from bgcore import nets
    from bgcore.policy import greedy

    wildbg = nets.wildbg()
    base = opponent_trace("wildbg", seed=3, steps=60)
    assert opponent_trace(wildbg, seed=3, steps=60) == base
    assert opponent_trace(greedy(lambda b: wildbg(b)), seed=3, steps=60) == base
    assert opponent_trace("pubeval", seed=3, steps=60) != base
    assert vector_trace("wildbg", n=8, steps=30) == vector_trace(wildbg, n=8, steps=30)
