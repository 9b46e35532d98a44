"""Rollout speed: games per second of the native engine's policies on 1 and 2
threads, of a numpy policy, of the plain Python loop over the Position API and
(when installed) of OpenSpiel's random playouts, in one run.

Every workload plays whole games from the initial position.  The rounds are
interleaved (each round times every workload once, in a rotating order) and
the figures are medians; the 2-thread ratios are the medians of each round's
own ratio, which a shared machine's slow spells disturb less.

    python bench/rollout.py [--repeats 7] [--markdown]

The targets of the rollout issue are checked at the end, from this run.
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bgcore import Position, encode, rollout
from processes import WorkerProcesses
from timing import machine_line

SEED = 2026


@dataclass
class Games:
    """A workload: ``run()`` plays ``games`` games and returns a checksum that
    must be the same every time (the engine is deterministic for a seed)."""

    name: str
    games: int
    run: Callable[[], object]
    seconds: list[float] = field(default_factory=list)
    check: object = None

    def measure(self) -> None:
        start = time.perf_counter()
        got = self.run()
        self.seconds.append(time.perf_counter() - start)
        if self.check is not None and got != self.check:
            raise RuntimeError(f"{self.name}: a pass gave {got}, the first gave {self.check}")
        self.check = got

    @property
    def rate(self) -> float:
        """Games per second, from the median pass."""
        return self.games / statistics.median(self.seconds)


def paired(a: Games, b: Games) -> float:
    """The median over rounds of a's games/s over b's in the same round."""
    return statistics.median((a.games / ta) / (b.games / tb) for ta, tb in zip(a.seconds, b.seconds, strict=True))


def python_loop(games: int) -> Callable[[], object]:
    """Random play as a user writes it with the Position API."""

    def run() -> object:
        rng = random.Random(SEED)
        start = Position.initial()
        won = 0
        for _ in range(games):
            pos, ply = start, 0
            while not pos.is_game_over():
                moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
                pos = pos.play(rng.choice(moves))
                ply += 1
            won += ply % 2  # the first player won
        return won

    return run


def play(policy: object, games: int, threads: int) -> object:
    """A rollout of the initial position (module level: worker processes run it too)."""
    return rollout(Position.initial(), games=games, policy=policy, seed=SEED, threads=threads).probabilities


def native(policy: object, games: int, threads: int) -> Callable[[], object]:
    return lambda: play(policy, games, threads)


def linear_policy() -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A numpy linear policy: fixed random weights over the TD-Gammon inputs."""
    weights = np.random.default_rng(SEED).standard_normal(198).astype(np.float32)

    def policy(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        return encode.tesauro198(children) @ weights

    return policy


def open_spiel(games: int) -> Callable[[], object] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")

    def run() -> object:
        rng = random.Random(SEED)
        won = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            won += state.returns()[0] > 0
        return won

    return run


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload's games (default 1)")
    parser.add_argument("--markdown", action="store_true", help="print the table as GitHub markdown")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.scale <= 0:
        parser.error("--repeats must be >= 1 and --scale > 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)

    def n(games: int) -> int:
        return max(1, round(games * args.scale))

    workloads = [
        Games("Python loop over Position (random)", n(300), python_loop(n(300))),
        Games("random, 1 thread", n(12960), native("random", n(12960), 1)),
        Games("random, 2 threads", n(12960), native("random", n(12960), 2)),
        Games("pubeval, 1 thread", n(6480), native("pubeval", n(6480), 1)),
        Games("pubeval, 2 threads", n(6480), native("pubeval", n(6480), 2)),
        Games("race, 1 thread", n(6480), native("race", n(6480), 1)),
        Games("numpy linear policy (tesauro198 @ w), 1 thread", n(2592), native(linear_policy(), n(2592), 1)),
    ]
    # The machine's own scaling: the same 1-thread rollout in one worker
    # process alone, and in two at once (nothing shared).
    workers = WorkerProcesses(play, ("pubeval", n(6480), 1), processes=2)
    workloads += [
        Games("pubeval, 1 process alone", n(6480), lambda: workers.run(1)),
        Games("pubeval, 2 processes at once", 2 * n(6480), lambda: workers.run(2)),
    ]
    spiel = open_spiel(n(100))
    if spiel is not None:
        workloads.append(Games("OpenSpiel random playouts (pyspiel)", n(100), spiel))
    by_name = {w.name: w for w in workloads}

    print(machine_line())
    try:
        for w in workloads:  # warm-up, untimed; also the checksums
            w.measure()
            w.seconds.clear()
        for r in range(args.repeats):
            for w in workloads[r % len(workloads) :] + workloads[: r % len(workloads)]:
                w.measure()
    finally:
        workers.close()

    loop = by_name["Python loop over Position (random)"]
    print(f"\nmedians of {args.repeats} interleaved rounds, games from the initial position")
    header = ("workload", "games", "games/s", "µs/game", "vs Python loop")
    if args.markdown:
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    else:
        print(f"{header[0]:<48}{header[1]:>8}{header[2]:>12}{header[3]:>10}{header[4]:>16}")
    for w in workloads:
        cells = (w.name, f"{w.games:,}", f"{w.rate:,.0f}", f"{1e6 / w.rate:,.1f}", f"{paired(w, loop):.1f}x")
        if args.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(f"{cells[0]:<48}{cells[1]:>8}{cells[2]:>12}{cells[3]:>10}{cells[4]:>16}")

    random_ratio = paired(by_name["random, 1 thread"], loop)
    pubeval = by_name["pubeval, 1 thread"].rate
    two = {p: paired(by_name[f"{p}, 2 threads"], by_name[f"{p}, 1 thread"]) for p in ("random", "pubeval")}
    machine = paired(by_name["pubeval, 2 processes at once"], by_name["pubeval, 1 process alone"])
    linear = by_name["numpy linear policy (tesauro198 @ w), 1 thread"].rate
    targets = [
        ("native random vs the Python loop", f"{random_ratio:.1f}x", ">= 30x", random_ratio >= 30),
        ("pubeval games/s per thread", f"{pubeval:,.0f}", ">= 5,000", pubeval >= 5000),
        ("random, 2 threads vs 1", f"{two['random']:.2f}x", ">= 1.9x", two["random"] >= 1.9),
        ("pubeval, 2 threads vs 1", f"{two['pubeval']:.2f}x", ">= 1.9x", two["pubeval"] >= 1.9),
        ("numpy linear policy games/s", f"{linear:,.0f}", ">= 3,000", linear >= 3000),
    ]
    print(f"\nthe machine's own scaling, pubeval in 2 processes at once vs 1 alone: {machine:.2f}x")
    print("\ntargets (this run):")
    for name, got, want, ok in targets:
        print(f"  {name:<36}{got:>10}  (target {want}): {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
