"""bgcore.train and its C core (bgcore._train): gradients against a float64
numpy reference and finite differences, one step against a hand-computed one,
TD(lambda) targets against the lambda-return's definition, seeds, threads,
checkpoints and a short training run."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import bgcore._train as _train
from bgcore import encode
from bgcore.nn import Network
from bgcore.selfplay import duel, play
from bgcore.train import initial_network, learning_rate, network_parameters, train

SHAPES = [
    ("tesauro198", "sigmoid", (198, 7, 5), [("sigmoid", 1.0, 0.0)]),
    ("tesauro198", "softmax", (198, 6, 5, 6), [("tanh", 1.0, 0.0), ("relu", 1.0, 0.0)]),
    ("wildbg_contact", "softmax", (202, 9, 6), [("hardsigmoid", 0.2, 0.5)]),
    ("wildbg_race", "sigmoid", (186, 4, 3, 5), [("sigmoid", 1.0, 0.0), ("tanh", 1.0, 0.0)]),
]


def _boards(n: int, race: bool = False) -> np.ndarray:
    data = play(6, "pubeval", seed=3)
    boards = data.boards[encode.is_race(data.boards)] if race else data.boards
    return np.ascontiguousarray(boards[:: max(1, len(boards) // n)][:n])


def _inputs(encoding: str, boards: np.ndarray) -> np.ndarray:
    return np.asarray(getattr(encode, encoding)(boards), dtype=np.float64)


def _act(x: np.ndarray, name: str, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """The activation and its derivative, from their definitions."""
    if name == "sigmoid":
        a = 1.0 / (1.0 + np.exp(-x))
        return a, a * (1.0 - a)
    if name == "tanh":
        return np.tanh(x), 1.0 - np.tanh(x) ** 2
    if name == "relu":
        return np.maximum(x, 0.0), (x > 0).astype(np.float64)
    z = alpha * x + beta
    return np.clip(z, 0.0, 1.0), np.where((z > 0) & (z < 1), alpha, 0.0)


def _reference(layout, shape, params, x, targets):  # type: ignore[no-untyped-def]
    """The loss summed over rows and its gradient, float64, by the chain rule."""
    _, output, sizes, acts = shape
    p = params.astype(np.float64)
    ws, bs, at = [], [], 0
    for i, o in itertools.pairwise(sizes):
        ws.append(p[at : at + i * o].reshape(i, o))
        bs.append(p[at + i * o : at + i * o + o])
        at += i * o + o
    hs, slopes = [x], []
    for layer in range(len(ws) - 1):
        a, s = _act(hs[-1] @ ws[layer] + bs[layer], *acts[layer])
        hs.append(a)
        slopes.append(s)
    z = hs[-1] @ ws[-1] + bs[-1]
    if output == "sigmoid":
        v = 1.0 / (1.0 + np.exp(-z))
        loss = 0.5 * ((v - targets) ** 2).sum()
        delta = (v - targets) * v * (1.0 - v)
    else:
        e = np.exp(z - z.max(axis=1, keepdims=True))
        v = e / e.sum(axis=1, keepdims=True)
        loss = -(targets * np.log(v)).sum()
        delta = v * targets.sum(axis=1, keepdims=True) - targets
    grads = []
    for layer in range(len(ws) - 1, -1, -1):
        grads = [(hs[layer].T @ delta).ravel(), delta.sum(axis=0), *grads]
        if layer:
            delta = (delta @ ws[layer].T) * slopes[layer - 1]
    return loss, np.concatenate(grads), v


def _setup(shape, seed=0):  # type: ignore[no-untyped-def]
    encoding, output, sizes, acts = shape
    layout = _train.Layout(encoding, output, sizes, acts)
    rng = np.random.default_rng(seed)
    params = rng.normal(0.0, 0.4, layout.params).astype(np.float32)
    boards = _boards(12, race=encoding == "wildbg_race")
    targets = rng.random((len(boards), layout.targets)).astype(np.float32)
    if output == "softmax":
        targets /= targets.sum(axis=1, keepdims=True)
    return layout, params, boards, targets


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}-{s[1]}-{len(s[2]) - 2}")
def test_gradient_matches_the_chain_rule_and_finite_differences(shape) -> None:  # type: ignore[no-untyped-def]
    layout, params, boards, targets = _setup(shape)
    x = _inputs(shape[0], boards)
    grad, loss = _train.gradient(layout, params, boards, targets)
    ref_loss, ref_grad, ref_out = _reference(layout, shape, params, x, targets.astype(np.float64))
    assert loss == pytest.approx(ref_loss, rel=1e-4)
    np.testing.assert_allclose(grad, ref_grad, rtol=2e-4, atol=2e-4 * np.abs(ref_grad).max())
    np.testing.assert_allclose(_train.outputs(layout, params, boards), ref_out, rtol=1e-4, atol=1e-6)
    # central differences of the float64 reference's loss, on a sample of parameters
    rng = np.random.default_rng(1)
    for i in rng.choice(layout.params, 25, replace=False):
        step = np.zeros(layout.params)
        step[i] = 1e-6
        up = _reference(layout, shape, params + step, x, targets.astype(np.float64))[0]
        down = _reference(layout, shape, params - step, x, targets.astype(np.float64))[0]
        assert grad[i] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-4 * np.abs(ref_grad).max())


def test_outputs_agree_with_the_engines_network() -> None:
    net = initial_network(20, seed=4)
    layout = _train.Layout("tesauro198", "sigmoid", (198, 20, 5), [("sigmoid", 1.0, 0.0)])
    boards = _boards(30)
    np.testing.assert_allclose(_train.outputs(layout, network_parameters(net), boards), net(boards), atol=2e-6)


@pytest.mark.parametrize("threads", [1, 2])
def test_one_step_is_the_hand_computed_one(threads: int) -> None:
    shape = SHAPES[0]
    layout, params, boards, targets = _setup(shape, seed=5)
    x = _inputs(shape[0], boards)
    order = np.array([3, 0, 7, 5, 1], dtype=np.int64)
    _, g, _ = _reference(layout, shape, params, x[order], targets[order].astype(np.float64))
    expected = params.astype(np.float64) - 0.05 * g
    after = params.copy()
    _train.sgd(layout, after, boards, targets, order, 0.05, 5, threads)
    np.testing.assert_allclose(after, expected, rtol=1e-5, atol=1e-6)
    # two minibatches: the second's gradient is taken after the first step
    after2 = params.copy()
    _train.sgd(layout, after2, boards, targets, np.concatenate([order, order]), 0.05, 5, threads)
    _, g2, _ = _reference(layout, shape, expected.astype(np.float32), x[order], targets[order].astype(np.float64))
    np.testing.assert_allclose(after2, expected - 0.05 * g2, rtol=1e-4, atol=1e-5)


def test_sgd_gives_the_same_bits_on_any_thread_count() -> None:
    layout, params, boards, targets = _setup(SHAPES[1], seed=6)
    order = np.random.default_rng(0).integers(0, len(boards), 500).astype(np.int64)
    runs = []
    for threads in (1, 2, 3):
        p = params.copy()
        _train.sgd(layout, p, boards, targets, order, 0.01, 100, threads)
        runs.append(p)
    assert not np.array_equal(runs[0], params)
    for p in runs[1:]:
        np.testing.assert_array_equal(p, runs[0])


def _turn(v: np.ndarray, six: bool) -> np.ndarray:
    """Outcomes seen from the other side."""
    return v[[3, 4, 5, 0, 1, 2]] if six else np.array([1.0 - v[0], v[3], v[4], v[1], v[2]])


def _six(v5: np.ndarray) -> np.ndarray:
    w, wg, wb, lg, lb = v5
    return np.array([w - wg, wg - wb, wb, 1.0 - w - lg, lg - lb, lb])


@pytest.mark.parametrize("output", ["sigmoid", "softmax"])
@pytest.mark.parametrize("lam", [0.0, 0.6, 1.0])
def test_lambda_targets_are_the_lambda_return(output: str, lam: float) -> None:
    rng = np.random.default_rng(2)
    lengths, points = [4, 1, 6], [2, 1, 3]
    game = np.repeat(np.arange(3), lengths).astype(np.int64)
    ply = np.concatenate([np.arange(n) for n in lengths]).astype(np.int32)
    v = rng.random((len(game), 5)).astype(np.float32)
    v[:, 1] *= v[:, 0]  # a valid shape: gammons within wins
    v[:, 3] *= 1 - v[:, 0]
    six = output == "softmax"
    got = _train.lambda_targets(v, game, ply, np.array(points, np.int8)[game], lam, output)
    row = 0
    for n, pts in zip(lengths, points, strict=True):
        z5 = np.array([1.0, pts >= 2, pts >= 3, 0.0, 0.0])
        z = np.eye(6)[pts - 1] if six else z5
        for t in range(n):
            # sum over k of (1 - lam) lam^(k-1) V_{t+k} seen from t, plus lam^(n-t-1) of the result
            total = np.zeros(6 if six else 5)
            for k in range(1, n - t):
                value = v[row + t + k].astype(np.float64)
                value = _six(value) if six else value
                total += (1 - lam) * lam ** (k - 1) * (_turn(value, six) if k % 2 else value)
            last = n - 1 - t  # plies from t to the game's last position
            total += lam**last * (_turn(z, six) if last % 2 else z)
            np.testing.assert_allclose(got[row + t], total, atol=1e-6)
        row += n


def test_lambda_targets_refuse_broken_games() -> None:
    v = np.full((2, 5), 0.5, np.float32)
    with pytest.raises(ValueError, match="plies"):
        _train.lambda_targets(v, np.zeros(2, np.int64), np.array([0, 2], np.int32), np.ones(2, np.int8), 0.0, "sigmoid")
    with pytest.raises(ValueError, match="won by"):
        _train.lambda_targets(
            v, np.arange(2, dtype=np.int64), np.zeros(2, np.int32), np.zeros(2, np.int8), 0.0, "sigmoid"
        )


def test_layout_refuses_inconsistent_shapes() -> None:
    with pytest.raises(ValueError, match="inputs"):
        _train.Layout("tesauro198", "sigmoid", (200, 5), [])
    with pytest.raises(ValueError, match="output"):
        _train.Layout("tesauro198", "sigmoid", (198, 6), [])


def test_same_seed_same_weights_on_any_thread_count() -> None:
    a = train(300, hidden=10, round_games=100, seed=7, lam=0.5, threads=1)
    b = train(300, hidden=10, round_games=100, seed=7, lam=0.5, threads=2)
    c = train(300, hidden=10, round_games=100, seed=8, lam=0.5, threads=1)
    assert all(np.array_equal(x, y) for x, y in zip(a.network.weights, b.network.weights, strict=True))
    assert not np.array_equal(a.network.weights[0], c.network.weights[0])
    assert a.games == 300 and a.positions > 300 * 20


def test_checkpoints_resume_to_the_same_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "net.npz"
    straight = train(400, hidden=6, round_games=100, seed=2, eval_every=200, eval_games=50)
    train(200, hidden=6, round_games=100, seed=2, eval_every=200, eval_games=50, out=out)
    state = json.loads((tmp_path / "net.json").read_text())
    assert state["games"] == 200 and len(state["history"]) == 1
    resumed = train(400, round_games=100, seed=2, eval_every=200, eval_games=50, out=out, resume=True)
    assert resumed.games == 400 and len(resumed.history) == 2
    assert [e.points for e in resumed.history] == [e.points for e in straight.history]
    loaded = Network.load(out)
    for w, x in zip(loaded.weights, straight.network.weights, strict=True):
        np.testing.assert_array_equal(w, x)
    best = Network.load(tmp_path / "net-best.npz")
    chosen = straight.history.index(max(straight.history, key=lambda e: e.points))
    assert best.sizes == (198, 6, 5) and chosen in (0, 1)


def test_a_short_run_learns_to_beat_random_and_its_start() -> None:
    result = train(2000, hidden=20, round_games=500, seed=1)
    assert duel(result.network, "random", games=400, seed=1).points > 1.0
    assert duel(result.network, initial_network(20, seed=1), games=400, seed=1).points > 0.8


def test_learning_rate_schedule() -> None:
    assert learning_rate(0.3, 10**6) == 0.3
    with pytest.raises(ValueError, match="game 0"):
        learning_rate([(5, 0.1)], 0)
    with pytest.raises(ValueError, match="increase"):
        learning_rate([(0, 0.1), (0, 0.2)], 0)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"games": -1}, ValueError),
        ({"games": 1.5}, TypeError),
        ({"games": 10, "lam": 2.0}, ValueError),
        ({"games": 10, "lr": -0.1}, ValueError),
        ({"games": 10, "threads": 0}, ValueError),
        ({"games": 10, "encoding": "nope"}, ValueError),
        ({"games": 10, "resume": True}, ValueError),
    ],
)
def test_train_refuses_bad_arguments(kwargs, error) -> None:  # type: ignore[no-untyped-def]
    games = kwargs.pop("games")
    with pytest.raises(error):
        train(games, **kwargs)


def test_a_time_budget_stops_at_a_round_boundary() -> None:
    result = train(10**9, hidden=4, round_games=100, seconds=0.3, seed=1)
    assert 0 < result.games < 10**9 and result.games % 100 == 0
    again = train(result.games, hidden=4, round_games=100, seed=1)  # the games reached train the same network
    assert np.array_equal(again.network.weights[0], result.network.weights[0])


def test_overlap_gives_the_same_weights_on_any_thread_count_and_resumes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runs = [train(700, hidden=6, round_games=100, seed=4, overlap=True, threads=t) for t in (1, 2, 3)]
    for r in runs[1:]:
        assert all(np.array_equal(x, y) for x, y in zip(r.network.weights, runs[0].network.weights, strict=True))
    plain = train(700, hidden=6, round_games=100, seed=4)
    assert not np.array_equal(plain.network.weights[0], runs[0].network.weights[0])  # rounds played a round later
    out = tmp_path / "net.npz"
    kwargs = {"hidden": 6, "round_games": 100, "seed": 4, "overlap": True, "eval_every": 300, "eval_games": 20}
    straight = train(700, threads=2, **kwargs)  # type: ignore[arg-type]
    train(300, out=out, threads=2, **kwargs)  # type: ignore[arg-type]
    resumed = train(700, out=out, resume=True, threads=2, **kwargs)  # type: ignore[arg-type]
    assert all(np.array_equal(x, y) for x, y in zip(resumed.network.weights, straight.network.weights, strict=True))
