"""Rollouts with networks as policies: the engine's native networks against the
same networks called from Python, beside pubeval, and their 2-thread scaling
against the machine's own (two processes), in one run.

Run from the repository root (needs the ``nn`` extra for onnxruntime)::

    python bench/rollout_nn.py [--rounds R] [--scale S] [--shared PATH]

Every workload rolls out the initial position (whole games, cubeless, both
sides the same policy, stratified first rolls) on one native thread unless
it says otherwise:

- ``pubeval``: the built-in linear evaluator, for scale;
- a 198-80-5 network (TD-Gammon's inputs, sigmoid hidden units and outputs,
  random weights) as a native ``bgcore.nn.Network`` (evaluated in C inside
  the engine, each lane's ~20 children in one batch), against the same
  weights as ``bgcore.policy.greedy`` of a numpy forward pass
  (``encode.tesauro198``, ``@``, ``np.exp``: called once per step with the
  children of every game in flight, BLAS on one thread);
- wildbg: ``bgcore.nets.wildbg()`` native against
  ``greedy(nets.wildbg(backend="onnxruntime"))`` (wildbg's ONNX files,
  onnxruntime with one intra-op thread);
- each native network on 2 threads, and in one worker process alone against
  two at once (``processes.py``: nothing shared, the machine's own scaling).

The rounds are interleaved (each times every workload once, in a rotated
order, so that a busy machine slows them alike); the figures are medians over
the rounds, and each ratio is the median of its rounds' own ratios.  The
targets of bgcore issue 28 are checked at the end: native / Python at least
3x (198-80-5) and 1.2x (wildbg); 2 threads over 1 at least 0.9 of two
processes over one.  The load average is printed before and after.
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nn import add_shared_argument, small_layers
from processes import WorkerProcesses
from rollout import Games, paired
from timing import machine_line

__all__ = ["main", "numpy_forward", "policy"]

SEED = 28


def numpy_forward(layers: list[tuple[np.ndarray, np.ndarray]]) -> Callable[[np.ndarray], np.ndarray]:
    """The 198-80-5 sigmoid network as a numpy evaluator (boards in, five outputs out).

    >>> import numpy as np
    >>> from bgcore import Position, nn
    >>> layers = small_layers()
    >>> net = nn.Network(layers, ["sigmoid"], encoding="tesauro198", output="sigmoid")
    >>> board = Position.initial().to_array()[None]
    >>> bool(np.abs(numpy_forward(layers)(board) - net(board)).max() < 1e-6)
    True
    """
    from bgcore import encode

    (w1, b1), (w2, b2) = layers

    def forward(boards: np.ndarray) -> np.ndarray:
        hidden = 1.0 / (1.0 + np.exp(-(encode.tesauro198(boards) @ w1 + b1)))
        out: np.ndarray = 1.0 / (1.0 + np.exp(-(hidden @ w2 + b2)))
        return out

    return forward


def policy(name: str, shared: str = "") -> Any:
    """A workload's policy by name: ``pubeval``, ``td`` / ``td-numpy`` (the
    198-80-5 net native / as greedy numpy), ``wildbg`` / ``wildbg-ort``
    (native / greedy onnxruntime from the folder ``shared``)."""
    from bgcore import nets, nn
    from bgcore.policy import greedy

    if name == "td":
        return nn.Network(small_layers(), ["sigmoid"], encoding="tesauro198", output="sigmoid")
    if name == "td-numpy":
        return greedy(numpy_forward(small_layers()))
    if name == "wildbg":
        return nets.wildbg()
    if name == "wildbg-ort":
        return greedy(nets.wildbg(backend="onnxruntime", path=shared))
    return name


def play(name: str, games: int, threads: int = 1, shared: str = "") -> float:
    """A rollout of the initial position with policy ``name``: its equity (a
    checksum; module level, so that worker processes run it too)."""
    from bgcore import Position, rollout

    return rollout(Position.initial(), games=games, policy=policy(name, shared), seed=SEED, threads=threads).equity


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's games (default 1)")
    add_shared_argument(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.scale <= 0:
        parser.error("--rounds must be >= 1 and --scale > 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    shared = str(args.shared)

    def n(games: int) -> int:
        return max(1, round(games * args.scale))

    def local(name: str, games: int, threads: int = 1) -> Games:
        label = f"{name}, {threads} thread{'s' if threads > 1 else ''}"
        chosen = policy(name, shared)  # made once, outside the timing

        def run() -> object:
            from bgcore import Position, rollout

            return rollout(Position.initial(), games=games, policy=chosen, seed=SEED, threads=threads).equity

        return Games(label, games, run)

    td, wb = n(2592), n(324)
    workloads = [
        local("pubeval", n(6480)),
        local("td", td),
        local("td-numpy", n(1296)),
        local("wildbg", wb),
        local("wildbg-ort", wb),
        local("td", 2 * td, threads=2),
        local("wildbg", 2 * wb, threads=2),
    ]
    workers = WorkerProcesses(play, (), processes=2)

    def processes(count: int, name: str, games: int) -> Games:
        label = f"{name}, 1 process alone" if count == 1 else f"{name}, {count} processes at once"
        return Games(label, count * games, lambda: workers.run(count, name, games))

    for name, games in (("td", td), ("wildbg", wb)):
        workloads += [processes(1, name, games), processes(2, name, games)]
    by_name = {w.name: w for w in workloads}

    print(machine_line())
    load_before = os.getloadavg()
    try:
        for w in workloads:  # warm-up, untimed; also the checksums
            w.measure()
            w.seconds.clear()
        for r in range(args.rounds):
            for w in workloads[r % len(workloads) :] + workloads[: r % len(workloads)]:
                w.measure()
    finally:
        workers.close()
    load_after = os.getloadavg()

    pubeval = by_name["pubeval, 1 thread"]
    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} (1 min)")
    print(f"\nmedians of {args.rounds} interleaved rounds, rollouts of the initial position\n")
    print("| workload | games | games/s | ms/game | vs pubeval |")
    print("|---|---:|---:|---:|---:|")
    for w in workloads:
        print(f"| {w.name} | {w.games:,} | {w.rate:,.0f} | {1e3 / w.rate:.3f} | {paired(w, pubeval):.3f}x |")

    def ratio(a: str, b: str) -> float:
        return paired(by_name[a], by_name[b])

    targets = [
        ("198-80-5 native / greedy numpy", ratio("td, 1 thread", "td-numpy, 1 thread"), 3.0),
        ("wildbg native / greedy onnxruntime", ratio("wildbg, 1 thread", "wildbg-ort, 1 thread"), 1.2),
    ]
    print()
    for name in ("td", "wildbg"):
        threads = ratio(f"{name}, 2 threads", f"{name}, 1 thread")
        machine = ratio(f"{name}, 2 processes at once", f"{name}, 1 process alone")
        print(f"{name}: 2 threads / 1 = {threads:.2f}x, 2 processes / 1 = {machine:.2f}x")
        targets.append((f"{name}: 2-thread scaling / 2-process scaling", threads / machine, 0.9))
    print("\ntargets (this run):")
    for label, got, want in targets:
        print(f"  {label:<48}{got:>6.2f}x  (target >= {want}x): {'met' if got >= want else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
