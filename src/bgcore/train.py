"""Train a backgammon player from zero: self-play temporal-difference learning.

:func:`train` improves a :class:`bgcore.nn.Network` by TD(λ) on games it
plays against itself, as TD-Gammon did.  It works in rounds of
``round_games`` games:

1. the native engine plays the round's games, many in flight on each thread,
   the network choosing every move (the child that leaves the opponent the
   lowest cubeless equity) and every position met recorded;
2. each position gets its TD(λ) target, the λ-return: ``(1 - λ) V' + λ G'``
   from the next position's value ``V'`` and target ``G'`` (turned to this
   side), a game's last position its result; λ = 0 is TD(0), each position's
   target the next one's value;
3. the positions, shuffled, go through minibatch gradient steps of
   ``batch`` positions: the squared error of five sigmoid outputs
   (TD-Gammon's update: ``lr`` times ``(target - V) ∇V`` summed over the
   minibatch) or the cross-entropy of six exclusive outcomes.

The gradients are computed in C (``bgcore/_csrc/bg_nn_train.h``): a Python
step per position would cost more than playing the position (a network of 80
hidden units plays about 60 games a second per core in Python against
thousands in C), and C runs without the GIL, the minibatch's chunks of
positions on several threads at once.  Each chunk's gradient is summed into
a buffer of its own and the buffers are added in order, so the weights after
a run depend on the seed and the settings, never on ``threads``.

Every ``eval_every`` games the network plays a duplicate duel against
pubeval (:func:`bgcore.selfplay.duel`, ``eval_games`` games on the same dice
each time); ``out`` keeps the latest network (a ``.npz`` file of
:meth:`bgcore.nn.Network.save`), ``out``'s ``-best.npz`` sibling the best one
yet and its ``.json`` sibling the state a later ``train(..., resume=True)``
continues from, to the same weights as a run never stopped.

>>> result = train(200, hidden=8, round_games=100, seed=1)
>>> result.network.sizes, result.games
((198, 8, 5), 200)
>>> bool((train(200, hidden=8, round_games=100, seed=1).network.weights[0] == result.network.weights[0]).all())
True
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

import bgcore._train as _train

from .nn import ACTIVATIONS, ENCODINGS, OUTPUTS, Network
from .position import Position
from .rollouts import interval95
from .selfplay import duel, recorded

__all__ = ["train", "Training", "Evaluation", "initial_network", "learning_rate", "network_parameters"]

_MAX_SEED = 2**63 - 1
#: A learning-rate schedule: ``(from_game, lr)`` steps, the first from game 0.
Schedule = Sequence[tuple[int, float]]


@dataclass(frozen=True)
class Evaluation:
    """One duel against pubeval during training: after ``games`` training
    games, ``points`` per game (± ``stderr``) over ``duel_games`` duplicate
    games, its 95% interval ``low`` to ``high``, ``seconds`` into the run."""

    games: int
    points: float
    stderr: float
    low: float
    high: float
    duel_games: int
    seconds: float


@dataclass
class Training:
    """What :func:`train` returns: the trained ``network``, the ``best`` one
    by the evaluations (the trained one without evaluations), the
    ``history`` of evaluations, the ``games`` trained on (in all, resumed
    runs included; ``resumed_at`` of them before this call), the
    ``seconds`` of this call and its ``positions``."""

    network: Network
    best: Network
    history: list[Evaluation] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0
    positions: int = 0
    resumed_at: int = 0


def _check_int(value: object, what: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"{what} must be {bound}, not {value}")
    return int(value)


def _schedule(lr: float | Schedule) -> list[tuple[int, float]]:
    steps = [(0, float(lr))] if isinstance(lr, (int, float)) else [(int(g), float(r)) for g, r in lr]
    if not steps or steps[0][0] != 0:
        raise ValueError("a learning-rate schedule starts at game 0")
    if any(b[0] <= a[0] for a, b in itertools.pairwise(steps)):
        raise ValueError("a learning-rate schedule's games must increase")
    if not all(math.isfinite(r) and r > 0 for _, r in steps):
        raise ValueError("learning rates must be finite and > 0")
    return steps


def learning_rate(lr: float | Schedule, games: int) -> float:
    """The learning rate after ``games`` games under ``lr`` (a constant, or
    ``(from_game, lr)`` steps).

    >>> learning_rate([(0, 0.1), (100_000, 0.02)], 99_999), learning_rate([(0, 0.1), (100_000, 0.02)], 100_000)
    (0.1, 0.02)
    """
    rate = 0.0
    for start, value in _schedule(lr):
        if games >= start:
            rate = value
    return rate


def initial_network(
    hidden: int | Sequence[int] = 80,
    *,
    encoding: str = "tesauro198",
    output: str = "sigmoid",
    activation: str = "sigmoid",
    seed: int = 0,
) -> Network:
    """A network of random weights to train from: ``hidden`` units (one int,
    or one per hidden layer), weights uniform in ±1/√inputs, biases zero.

    >>> initial_network(40, seed=1).sizes
    (198, 40, 5)
    """
    widths = [hidden] if isinstance(hidden, int) else list(hidden)
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}: one of {', '.join(ENCODINGS)}")
    if output not in OUTPUTS:
        raise ValueError(f"unknown output kind {output!r}: one of {', '.join(OUTPUTS)}")
    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}: one of {', '.join(ACTIVATIONS)}")
    for w in widths:
        _check_int(w, "hidden", 1, 4096)
    rng = np.random.default_rng(_check_int(seed, "seed", 0, _MAX_SEED))
    sizes = [ENCODINGS[encoding], *widths, OUTPUTS[output]]
    layers = []
    for i, o in itertools.pairwise(sizes):
        bound = 1.0 / math.sqrt(i)
        layers.append((rng.uniform(-bound, bound, (i, o)).astype(np.float32), np.zeros(o, np.float32)))
    return Network(layers, [activation] * len(widths), encoding=encoding, output=output)


def _layout(net: Network) -> _train.Layout:
    acts = []
    for a in net.activations:
        name, alpha, beta = (a, 1.0, 0.0) if isinstance(a, str) else a
        acts.append((name, float(alpha), float(beta)))
    return _train.Layout(net.encoding, net.output, net.sizes, acts)


def network_parameters(net: Network) -> np.ndarray:
    """The network's weights and biases as one float32 vector, each layer's
    weights (row-major) then its bias: the layout the gradients have."""
    parts = []
    for w, b in zip(net.weights, net.biases, strict=True):
        parts += [w.ravel(), b]
    return np.concatenate(parts).astype(np.float32)


def _with_parameters(net: Network, params: np.ndarray) -> Network:
    layers, at = [], 0
    for w, b in zip(net.weights, net.biases, strict=True):
        layers.append((params[at : at + w.size].reshape(w.shape), params[at + w.size : at + w.size + b.size]))
        at += w.size + b.size
    return Network(layers, list(net.activations), encoding=net.encoding, output=net.output)


def _paths(out: str | os.PathLike[str]) -> tuple[Path, Path, Path]:
    path = Path(out)
    stem = path.with_suffix("") if path.suffix == ".npz" else path
    return path, stem.with_name(stem.name + "-best.npz"), stem.with_name(stem.name + ".json")


_Played = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _play(net: Network, first: int, count: int, seed: int, threads: int) -> _Played:
    """Games first .. first + count - 1 played by net: their positions (boards,
    game, ply; games in order, each game's plies in order) and each row's
    game's points for its winner (1 to 3, whoever won: the last mover)."""
    boards, game, ply, y = recorded(Position.initial(), True, net, seed, first, count, threads)
    points = np.where(y[:, 0] > 0, 1 + y[:, 1] + y[:, 2], 1 + y[:, 3] + y[:, 4]).astype(np.int8)
    return boards, game, ply, points[game - first]


def _learn(
    net: Network,
    layout: _train.Layout,
    params: np.ndarray,
    played: _Played,
    *,
    first: int,
    seed: int,
    lam: float,
    lr: float,
    batch: int,
    threads: int,
) -> int:
    """The steps on a round's positions (params, net's, updated in place), their
    targets from net's values; the positions' count."""
    boards, game, ply, points = played
    values = net(boards, threads=threads)
    targets = _train.lambda_targets(values, game, ply, points, lam, net.output)
    shuffle = np.random.default_rng((seed, first)).permutation(len(boards)).astype(np.int64)
    _train.sgd(layout, params, boards, targets, shuffle, lr, batch, threads)
    return len(boards)


def _evaluate(net: Network, games: int, seed: int, threads: int, trained: int, began: float) -> Evaluation:
    result = duel(net, "pubeval", games=games, seed=seed, threads=threads)
    low, high = interval95(result.points, result.stderr)
    return Evaluation(trained, result.points, result.stderr, low, high, games, time.perf_counter() - began)


def train(
    games: int,
    *,
    network: Network | None = None,
    hidden: int | Sequence[int] = 80,
    encoding: str = "tesauro198",
    output: str = "sigmoid",
    activation: str = "sigmoid",
    lam: float = 0.0,
    lr: float | Schedule = 0.1,
    batch: int = 16,
    round_games: int = 512,
    threads: int = 1,
    seed: int = 0,
    eval_every: int = 0,
    eval_games: int = 2000,
    eval_seed: int = 12345,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool = False,
    seconds: float | None = None,
    overlap: bool = False,
    on_round: Callable[[int, Training], None] | None = None,
) -> Training:
    """Train a network by TD(``lam``) self-play until it has ``games`` games.

    ``network``: the one to train (its shape and settings), else
    :func:`initial_network` of ``hidden``, ``encoding``, ``output``,
    ``activation`` and ``seed``.  ``lr``: the step per position, a constant
    or ``(from_game, lr)`` steps; ``batch``: positions per step;
    ``round_games``: games played between rounds of steps.  ``eval_every``
    (0: never): games between duels of ``eval_games`` games against pubeval
    (dice ``eval_seed``).  ``out``: where checkpoints go (see the module);
    ``resume`` continues the run ``out``'s files describe.  ``progress``
    shows a bar with games/s and the latest strength; ``seconds`` stops the
    run after the first round that ends later than that (a time budget: the
    games it reached, given as ``games``, train the same network again);
    ``overlap`` plays each round's games while the previous round's steps
    run (on 2 threads or more: ``threads - 1`` play, one steps; both keep
    the cores busy), so that a round is played by the network as it was two
    rounds before, not one (the same weights on any number of threads); the
    rounds after a checkpoint are played by the network checkpointed, so
    that resuming still gives the same weights (but for a run stopped by
    ``seconds`` between checkpoints).  ``on_round(games, training)`` is
    called after each round.

    The same seed and settings give the same weights on any number of
    ``threads`` (with the same kernels: see :func:`bgcore._train.kernel`).
    """
    games = _check_int(games, "games", 0)
    batch = _check_int(batch, "batch", 1, 1 << 20)
    round_games = _check_int(round_games, "round_games", 1, 1 << 24)
    threads = _check_int(threads, "threads", 1, 64)
    seed = _check_int(seed, "seed", 0, _MAX_SEED)
    eval_every = _check_int(eval_every, "eval_every", 0)
    eval_games = _check_int(eval_games, "eval_games", 2)
    eval_seed = _check_int(eval_seed, "eval_seed", 0, _MAX_SEED)
    if not (isinstance(lam, (int, float)) and 0.0 <= lam <= 1.0):
        raise ValueError(f"lam must be a number from 0 to 1, not {lam!r}")
    schedule = _schedule(lr)
    done, history, best_points, earlier = 0, [], -math.inf, 0.0
    paths = _paths(out) if out is not None else None
    if resume:
        if paths is None:
            raise ValueError("resume needs out, the checkpoint to resume")
        state = json.loads(paths[2].read_text())
        network = Network.load(paths[0])
        done = int(state["games"])
        history = [Evaluation(**e) for e in state["history"]]
        best_points = max((e.points for e in history), default=-math.inf)
        earlier = float(state["seconds"])
    elif network is None:
        network = initial_network(hidden, encoding=encoding, output=output, activation=activation, seed=seed)
    layout = _layout(network)
    params = network_parameters(network)
    best = Network.load(paths[1]) if resume and paths is not None and paths[1].exists() else network
    result = Training(network, best, history, done, resumed_at=done)
    began = time.perf_counter() - earlier  # evaluations' times count from the run's start
    bar = _Progress(done, games) if progress else None
    next_eval = (done // eval_every + 1) * eval_every if eval_every else None

    def checkpoint() -> None:
        if paths is None:
            return
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        result.network.save(paths[0])
        result.best.save(paths[1])
        state = {
            "games": result.games,
            "seed": seed,
            "seconds": time.perf_counter() - began,
            "history": [asdict(e) for e in result.history],
        }
        paths[2].write_text(json.dumps(state, indent=1) + "\n")

    # With overlap on 2 threads or more, a thread of its own plays the next
    # round (on threads - 1 native threads) while the steps run on one; on
    # one thread the next round is played first: the same games either way.
    pool = ThreadPoolExecutor(1) if overlap and threads > 1 else None
    play_threads, learn_threads = (threads - 1, 1) if pool is not None else (threads, threads)
    ahead: Future[_Played] | None = None  # the next round's games
    try:
        while result.games < games and (seconds is None or time.perf_counter() - began - earlier < seconds):
            count = min(round_games, games - result.games)
            first = result.games
            played = ahead.result() if ahead is not None else _play(result.network, first, count, seed, play_threads)
            ahead = None
            after, rest = first + count, games - first - count
            checkpointed = next_eval is not None and (after >= next_eval or rest == 0)
            if overlap and rest > 0 and not checkpointed:
                args = (result.network, after, min(round_games, rest), seed, play_threads)
                if pool is not None:
                    ahead = pool.submit(_play, *args)
                else:
                    ahead = Future()
                    ahead.set_result(_play(*args))
            result.positions += _learn(
                result.network,
                layout,
                params,
                played,
                first=first,
                seed=seed,
                lam=float(lam),
                lr=learning_rate(schedule, first),
                batch=batch,
                threads=learn_threads,
            )
            result.games += count
            result.network = _with_parameters(network, params)
            out_of_time = seconds is not None and time.perf_counter() - began - earlier >= seconds
            if next_eval is not None and (result.games >= next_eval or result.games == games or out_of_time):
                e = _evaluate(result.network, eval_games, eval_seed, threads, result.games, began)
                result.history.append(e)
                if e.points > best_points:
                    best_points = e.points
                    result.best = result.network
                while next_eval <= result.games:
                    next_eval += eval_every
                checkpoint()
            if bar is not None:
                bar.update(result.games, time.perf_counter() - began - earlier, result.history)
            if on_round is not None:
                on_round(result.games, result)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    if not result.history:
        result.best = result.network
    checkpoint()
    result.seconds = time.perf_counter() - began - earlier
    return result


class _Progress:
    """A rich progress bar on stderr: games, games/s and the latest duel."""

    def __init__(self, done: int, games: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.start = done
        self.progress = Progress(
            TextColumn("train {task.completed:,}/{task.total:,} games"),
            BarColumn(),
            TextColumn("{task.fields[line]}"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        self.task = self.progress.add_task("train", total=games, completed=done, line="")
        self.progress.start()

    def update(self, done: int, seconds: float, history: list[Evaluation]) -> None:
        line = f"{(done - self.start) / seconds:,.0f} games/s" if seconds > 0 else ""
        if history:
            e = history[-1]
            line += f"  vs pubeval {e.points:+.3f} ({e.low:+.3f} to {e.high:+.3f})"
        self.progress.update(self.task, completed=done, line=line)

    def close(self) -> None:
        self.progress.stop()
