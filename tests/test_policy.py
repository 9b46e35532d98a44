"""Policies: evaluators as greedy players, in C (networks) and in Python
(greedy), the same games either way; names, checks and the Python scores."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import numpy as np
import pytest

from bgcore import Position, duel, nets, nn, rollout
from bgcore.policy import (
    Greedy,
    check_evaluator,
    check_policy,
    evaluator_for_engine,
    for_engine,
    greedy,
    is_evaluator,
    policy_name,
    scores,
)
from bgcore.rules import ROLLS
from bgcore.selfplay import SelfPlay, play


def random_net(seed: int = 0, hidden: int = 24, output: str = "sigmoid") -> nn.Network:
    """A small TD-Gammon-style network with random weights."""
    rng = np.random.default_rng(seed)
    width = 5 if output == "sigmoid" else 6
    layers = [
        (rng.normal(0, 0.3, (198, hidden)), rng.normal(0, 0.3, hidden)),
        (rng.normal(0, 0.3, (hidden, width)), rng.normal(0, 0.3, width)),
    ]
    return nn.Network(layers, ["sigmoid"], encoding="tesauro198", output=output)


def in_python(evaluator: Callable[..., object]) -> Greedy:
    """The evaluator's greedy policy through the engine's Python path (a
    plain function is not recognised as a native network)."""
    return greedy(lambda boards: evaluator(boards))


def equity(p: np.ndarray) -> np.ndarray:
    """Cubeless money equity of (n, 5) outputs, written from its definition."""
    p = np.asarray(p, dtype=np.float64)
    return 2 * p[:, 0] - 1 + (p[:, 1] - p[:, 3]) + (p[:, 2] - p[:, 4])


def same_games(a: SelfPlay, b: SelfPlay) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("boards", "game", "ply", "results"))


# --- the same games in C and in Python --------------------------------------


@pytest.mark.parametrize(
    "evaluator",
    [random_net(0), random_net(1, output="softmax"), nets.wildbg()],
    ids=["198-24-5 sigmoid", "198-24-6 softmax", "wildbg"],
)
def test_a_network_plays_the_same_games_in_c_and_in_python(evaluator: nn.NativeEvaluator) -> None:
    native = play(40, evaluator, seed=11)
    python = play(40, in_python(evaluator), seed=11)
    assert same_games(native, python)
    assert len(native.boards) > 40 * 20  # whole games were played


def test_the_same_games_with_three_checkers_a_side() -> None:
    """Hypergammon: the net and the finished games count 3 checkers a side."""
    start = Position.initial("hypergammon")
    net = random_net(2)
    native = play(60, net, seed=4, start=start)
    python = play(60, in_python(lambda b, checkers=15: net(b, checkers=3)), seed=4, start=start)
    assert same_games(native, python)
    assert set(np.abs(native.results).tolist()) > {1}  # gammons: counted with 3 checkers


def test_rollouts_and_duels_agree_in_c_and_in_python() -> None:
    net = random_net(3)
    start = Position.from_position_id("4HPwATDgc/ABMA")
    assert rollout(start, games=300, policy=net, seed=5) == rollout(start, games=300, policy=in_python(net), seed=5)
    a = duel(net, "pubeval", games=60, seed=2)
    b = duel(in_python(net), "pubeval", games=60, seed=2)
    assert (a.points, a.wins) == (b.points, b.wins)


def test_a_network_evaluator_of_truncated_games_agrees_with_python() -> None:
    net = nets.wildbg()
    start = Position.initial()
    kwargs = dict(games=500, seed=8, truncate=6, policy="pubeval")
    native = rollout(start, evaluator=net, **kwargs)  # type: ignore[arg-type]
    assert native == rollout(start, evaluator=lambda b: net(b), **kwargs)  # type: ignore[arg-type]
    assert native == rollout(start, evaluator="wildbg", **kwargs)  # type: ignore[arg-type]
    # truncated after 6 plies, the estimate is the net's, not 0 or 1
    assert 0.3 < native.probabilities[0] < 0.7 and native.stderr[0] < 0.05


def test_a_network_plays_and_evaluates_in_one_rollout() -> None:
    net = random_net(4)
    start = Position.initial()
    both = rollout(start, games=400, policy=net, truncate=3, evaluator=net, seed=1)
    assert both == rollout(start, games=400, policy=in_python(net), truncate=3, evaluator=lambda b: net(b), seed=1)


# --- what the greedy player plays, from the Position API ----------------------


def test_each_move_leaves_the_opponent_the_lowest_equity() -> None:
    """Every recorded move of a network's self-play is, for some roll, the
    legal move whose result the net rates lowest for the opponent (a game
    won on the spot counts its result)."""
    net = random_net(5)
    data = play(3, net, seed=6)
    for row in range(len(data.boards) - 1):
        if data.game[row + 1] != data.game[row]:
            continue
        before = Position.from_array(data.boards[row])
        after = Position.from_array(data.boards[row + 1])  # the opponent on roll
        best_for_some_roll = False
        for dice in {(a, b) for a, b in ROLLS} | {(b, a) for a, b in ROLLS}:
            children = [m for m in before.legal_moves(dice).positions()]  # the opponent's view
            if after not in children:
                continue
            e = equity(net.evaluate(children))
            best_for_some_roll |= children.index(after) == int(np.argmin(e))
        assert best_for_some_roll, f"game {data.game[row]} ply {data.ply[row]}: not the best move of any roll"


def test_equal_equities_go_to_the_first_result_and_a_win_is_taken() -> None:
    """A net with zero weights rates every position alike (equity 0): each
    move is then the generator's first result, unless one wins the game."""
    zeros = nn.Network([(np.zeros((198, 6)), np.zeros(6))], encoding="tesauro198", output="softmax")
    assert equity(zeros(Position.initial().to_array())[None]) == 0.0

    def first_or_win(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        mine = np.where(children > 0, children, 0).sum(axis=1)
        return (mine == 0).astype(float)  # 1 for a win, else 0: the engine plays the first of the highest

    assert same_games(play(30, zeros, seed=3), play(30, first_or_win, seed=3))
    assert same_games(play(30, zeros, seed=3), play(30, in_python(zeros), seed=3))


def test_a_strong_network_beats_pubeval() -> None:
    """wildbg's nets, one ply deep, win about 0.5 points a game from pubeval;
    a sign error (the mover's equity for the opponent's) would lose."""
    result = duel("wildbg", "pubeval", games=200, seed=1)
    assert result.points > 0.2
    assert result.policies == ("wildbg", "pubeval")


# --- names, checks and the Python scores -----------------------------------


def test_evaluator_objects_are_policies_and_plain_callables_stay_move_scorers() -> None:
    net = random_net()
    wildbg = nets.wildbg()
    assert check_policy(net) is net and check_policy(wildbg) is wildbg and check_policy("wildbg") == "wildbg"
    assert is_evaluator(net) and is_evaluator(wildbg) and not is_evaluator(len) and not is_evaluator("wildbg")
    assert for_engine(net) is net and for_engine(greedy(net)) is net
    assert isinstance(for_engine("wildbg"), nn.Composite) and for_engine("wildbg") is for_engine(greedy("wildbg"))
    assert for_engine("pubeval") == "pubeval"

    def scorer(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        return np.zeros(len(children))

    assert for_engine(scorer) is scorer
    slow = in_python(net)
    assert for_engine(slow) is slow
    assert for_engine(slow, 3) == Greedy(slow.evaluator, 3)


def test_policy_names() -> None:
    assert policy_name("wildbg") == "wildbg"
    assert policy_name(random_net()) == "Network" and policy_name(nets.wildbg()) == "Composite"
    assert policy_name(greedy(nets.wildbg())) == "greedy(Composite)"
    assert rollout(Position.initial(), games=20, policy="wildbg").policy == "wildbg"
    assert rollout(Position.initial(), games=20, policy=greedy("wildbg")).policy == "greedy(wildbg)"


def test_greedy_refuses_what_is_not_an_evaluator() -> None:
    with pytest.raises(TypeError, match="greedy takes an evaluator"):
        greedy(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="greedy takes an evaluator"):
        greedy(greedy(len))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'wildbg'"):
        greedy("gnubg")
    with pytest.raises(ValueError, match="'random', 'pubeval', 'race', 'wildbg', an evaluator"):
        check_policy("gnubg")
    with pytest.raises(ValueError, match="evaluator="):
        check_evaluator(greedy(len), 3)
    with pytest.raises(ValueError, match="evaluator="):
        check_evaluator("pubeval", 3)
    assert check_evaluator("wildbg", 3) == "wildbg" and evaluator_for_engine("wildbg") is for_engine("wildbg")


@pytest.mark.parametrize(
    ("evaluator", "message"),
    [
        (lambda b: np.zeros((len(b), 4)), r"shape \(\d+, 5\)"),
        (lambda b: np.full((len(b), 5), np.nan), r"probabilities in \[0, 1\]"),
        (lambda b: np.full((len(b), 5), 1.5), r"probabilities in \[0, 1\]"),
        (lambda b: 1 / 0, "division by zero"),
    ],
)
def test_a_bad_python_evaluator_stops_the_games_with_its_error(evaluator: object, message: str) -> None:
    with pytest.raises((ValueError, ZeroDivisionError), match=message):
        rollout(Position.initial(), games=10, policy=greedy(evaluator))  # type: ignore[arg-type]


def test_greedy_pickles_with_its_network() -> None:
    policy = greedy(random_net(6))
    again = pickle.loads(pickle.dumps(policy))
    start = Position.initial()
    assert rollout(start, games=50, policy=again, seed=2) == rollout(start, games=50, policy=policy, seed=2)
    assert pickle.loads(pickle.dumps(greedy("wildbg"))) == greedy("wildbg")


def test_scores_are_the_movers_equity_after_each_move() -> None:
    start = Position.initial()
    moves = start.legal_moves((6, 5))
    children = np.stack([after.flip().to_array() for after in moves.positions()])  # the mover's view
    wildbg = nets.wildbg()
    got = scores(wildbg, children)
    assert np.array_equal(got, -equity(wildbg(children[:, ::-1] * -1)))
    assert str(moves[int(np.argmax(got))]) == "24/13"
    with pytest.raises(ValueError, match="random"):
        scores("random", children)


def test_a_winning_move_scores_its_result() -> None:
    children = np.zeros((1, 26), dtype=np.int8)
    children[0, 10] = -15  # the mover bore off its last checker; the opponent none: a gammon
    never_wins = nn.Network([(np.zeros((198, 5)), np.full(5, -50.0))], encoding="tesauro198", output="sigmoid")
    assert scores(never_wins, children).tolist() == [2.0]
    assert scores(greedy(lambda b: np.zeros((len(b), 5))), children).tolist() == [2.0]
