"""``bgcore bench``: a quick benchmark of batch generation, the Python API and rollouts.

This is not ``bench/compare.py`` (the full benchmark, against gnubg, with
interleaved rounds and medians): every figure here is one timing of this
run, on this machine, as busy as it is now.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.table import Table

from .. import __version__, batch
from ..position import Position
from ..rollouts import rollout
from ..selfplay import play
from .common import UsageError, console

__all__ = ["add_parser", "run", "Workload", "measure"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench",
        help="a quick benchmark (a few seconds): batch generation, the Python API, rollouts",
        description="Time batch move generation, Position.legal_moves and pubeval rollouts, each for about "
        "--seconds, on 1 thread and on --threads, and print what this run measured. For the full benchmark "
        "(against gnubg, medians of interleaved rounds) see bench/compare.py in the repository.",
    )
    p.add_argument("--seconds", type=float, default=0.4, help="time per workload, 0.05 to 60 (default 0.4)")
    p.add_argument(
        "--threads",
        type=int,
        default=min(os.cpu_count() or 1, 64),
        help="threads of the multi-threaded rows (default: all cores, here %(default)s; 1: none)",
    )
    p.set_defaults(run=run)


@dataclass
class Workload:
    """``work()`` does some ``unit``s (results, moves, games) each call and says how many."""

    name: str
    threads: int
    unit: str
    work: Callable[[], int]


def measure(workload: Workload, seconds: float) -> tuple[int, float]:
    """(units done, seconds) of calling ``workload.work`` for about ``seconds`` (at least once)."""
    done = 0
    start = time.perf_counter()
    while True:
        done += workload.work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed


def _workloads(threads: int) -> tuple[str, list[Workload]]:
    """What the workloads run on, and the workloads."""
    data = play(200, "random", seed=2026)  # about 19,000 positions met in self-play
    boards = data.boards
    dice = np.random.default_rng(2026).integers(1, 7, size=(len(boards), 2), dtype=np.int8)
    step = max(1, len(boards) // 2000)
    sample = [Position(b.tolist()) for b in boards[::step]]
    rolls = [(int(a), int(b)) for a, b in dice[::step]]
    about = (
        f"batch: {len(boards):,} boards met in random self-play, with random dice\n"
        f"Position.legal_moves: {len(sample):,} of them, every move built; rollouts: from the start"
    )

    def generate(k: int) -> Callable[[], int]:
        return lambda: len(batch.generate(boards, dice, threads=k)[0])

    def count(k: int) -> Callable[[], int]:
        return lambda: int(batch.count(boards, dice, threads=k).sum())

    def legal_moves() -> int:
        return sum(len(list(p.legal_moves(r))) for p, r in zip(sample, rolls, strict=True))

    def games(k: int) -> Callable[[], int]:
        return lambda: rollout(Position.initial(), games=1296 * k, policy="pubeval", threads=k).games

    counts = [1] if threads == 1 else [1, threads]
    rows = [Workload("batch.generate", k, "results", generate(k)) for k in counts]
    rows += [Workload("batch.count", k, "results", count(k)) for k in counts]
    rows.append(Workload("Position.legal_moves", 1, "moves", legal_moves))
    rows += [Workload("rollout, pubeval", k, "games", games(k)) for k in counts]
    return about, rows


def run(args: argparse.Namespace) -> int:
    if not 0.05 <= args.seconds <= 60:
        raise UsageError(f"--seconds takes 0.05 to 60, not {args.seconds}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads takes 1 to 64, not {args.threads}")
    table = Table()
    table.add_column("workload")
    table.add_column("threads", justify="right")
    table.add_column("done", justify="right")
    table.add_column("seconds", justify="right")
    table.add_column("per second", justify="right")
    with Console(stderr=True).status("timing..."):
        about, workloads = _workloads(args.threads)
        for w in workloads:
            done, seconds = measure(w, args.seconds)
            table.add_row(w.name, str(w.threads), f"{done:,} {w.unit}", f"{seconds:.2f}", f"{done / seconds:,.0f}")
    out = console()
    out.print(f"bgcore {__version__}, Python {platform.python_version()}, {os.cpu_count()} cores")
    out.print("One timing of each workload, from this run only.")
    out.print(about)
    out.print(table)
    return 0
