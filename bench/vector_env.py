"""Vector environment speed: env-steps per second of ``BackgammonVectorEnv``
against Gymnasium's ``SyncVectorEnv`` over as many single ``BackgammonEnv``s,
in one run.

Both play the same policy of actions, a random legal action (uniform below
``info["num_moves"]``, the count of ones in the action mask), against the same
opponent, with same-step autoreset, for each opponent policy ("pubeval", the
default, and "random").  A pass resets every env with one seed (untimed) and
then times a fixed number of steps; each pass gives the same trajectory, and
its checksum (games finished, points won) must be the same every time.  The
rounds are interleaved (each round times every workload once, in a rotating
order), the rates are medians, and the ratios are the medians of each round's
own ratio, which a shared machine's slow spells disturb less.  Each pass is also
timed in this process's CPU time (``time.process_time``), which time slices
lost to other processes do not count; both ratios are printed.

    python bench/vector_env.py [--envs 256] [--repeats 11] [--steps 150]

The target of the reinforcement-learning issue (the vector env at least 20x
the SyncVectorEnv's env-steps/s at 256 envs) is checked at the end, from this
run's wall-clock ratio, for each opponent.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv

from bgcore.envs import BackgammonEnv, BackgammonVectorEnv
from timing import machine_line

SEED = 2026
TARGET = 20.0


@dataclass
class Steps:
    """A workload: ``steps`` steps of a vector env of ``envs`` games."""

    name: str
    env: VectorEnv[Any, Any, Any]
    envs: int
    steps: int
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    check: object = None

    def measure(self) -> None:
        run = episodes(self.env, self.steps)
        start, cpu = time.perf_counter(), time.process_time()
        got = run()
        self.seconds.append(time.perf_counter() - start)
        self.cpu.append(time.process_time() - cpu)
        if self.check is not None and got != self.check:
            raise RuntimeError(f"{self.name}: a pass gave {got}, the first gave {self.check}")
        self.check = got

    @property
    def env_steps(self) -> int:
        return self.envs * self.steps

    @property
    def rate(self) -> float:
        """Env-steps per second, from the median pass."""
        return self.env_steps / statistics.median(self.seconds)


def episodes(env: VectorEnv[Any, Any, Any], steps: int) -> Callable[[], object]:
    """Reset ``env`` (seeded) and return the timed part: ``steps`` steps of
    random legal actions, giving (games finished, points won)."""
    _, info = env.reset(seed=SEED)
    rng = np.random.default_rng(SEED)

    def run() -> object:
        nonlocal info
        finished, points = 0, 0.0
        for _ in range(steps):
            actions = (rng.random(len(info["num_moves"])) * info["num_moves"]).astype(np.int64)
            _, rewards, terminated, _, info = env.step(actions)
            finished += int(terminated.sum())
            points += float(rewards.sum())
        return finished, points

    return run


def paired(a: Steps, b: Steps, *, cpu: bool = False) -> float:
    """The median over rounds of a's env-steps/s over b's in the same round
    (from wall-clock time, or from this process's CPU time)."""
    times = zip(a.cpu, b.cpu, strict=True) if cpu else zip(a.seconds, b.seconds, strict=True)
    return statistics.median((a.env_steps / ta) / (b.env_steps / tb) for ta, tb in times)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=256, help="games in each vector env (default 256)")
    parser.add_argument("--repeats", type=int, default=11, help="timed rounds (default 11)")
    parser.add_argument("--steps", type=int, default=150, help="steps of the native vector env per pass (default 150)")
    args = parser.parse_args(argv)
    if args.envs < 1 or args.repeats < 1 or args.steps < 10:
        parser.error("--envs and --repeats must be >= 1, --steps >= 10")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    n = args.envs
    pairs: list[tuple[Steps, Steps]] = []
    for opponent in ("pubeval", "random"):
        native = Steps(f"BackgammonVectorEnv, {opponent}", BackgammonVectorEnv(n, opponent), n, args.steps)
        sync_env = SyncVectorEnv(
            [lambda opponent=opponent: BackgammonEnv(opponent) for _ in range(n)],
            autoreset_mode=AutoresetMode.SAME_STEP,
        )
        sync = Steps(f"SyncVectorEnv of BackgammonEnv, {opponent}", sync_env, n, max(1, args.steps // 10))
        pairs.append((native, sync))
    workloads = [w for pair in pairs for w in pair]

    print(machine_line())
    for w in workloads:  # warm-up, untimed; also the checksums
        w.measure()
        w.seconds.clear()
        w.cpu.clear()
    for r in range(args.repeats):
        for w in workloads[r % len(workloads) :] + workloads[: r % len(workloads)]:
            w.measure()

    print(f"\nmedians of {args.repeats} interleaved rounds, {n} envs, random legal actions, same-step autoreset")
    print(f"{'workload':<44}{'steps':>8}{'env-steps/s':>14}{'µs/env-step':>14}{'CPU µs/env-step':>18}")
    for w in workloads:
        cpu = statistics.median(w.cpu) / w.env_steps * 1e6
        print(f"{w.name:<44}{w.steps:>8}{w.rate:>14,.0f}{1e6 / w.rate:>14.2f}{cpu:>18.2f}")
    print(
        "\ntargets (this run; the ratio from wall-clock time, and from CPU time, which other processes disturb less):"
    )
    for native, sync in pairs:
        ratio = paired(native, sync)
        verdict = "met" if ratio >= TARGET else "NOT met"
        print(
            f"  {native.name} vs {sync.name}: {ratio:.1f}x (CPU time: {paired(native, sync, cpu=True):.1f}x)"
            f" (target >= {TARGET:.0f}x): {verdict}"
        )
    for w in workloads:
        w.env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
