"""``bgcore bench``: a quick benchmark of batch generation, the Python API and rollouts.

This is not ``bench/compare.py`` (the full benchmark, against gnubg, with
interleaved rounds and medians): every figure here is one timing of this
run, on this machine, as busy as it is now.

Speeds are in the units ``bgcore demo`` uses, spelled out: *move
generations* per second (one position and roll, all its legal moves) and
*positions* per second (the distinct positions those moves lead to), and
games per second for rollouts.  A row on several threads is the same work
shared among them: with idle cores it runs up to that many times faster
than the 1-thread row, but when other programs keep the cores busy it can
run slower; the command says so when it happens.
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


@dataclass(frozen=True)
class Done:
    """What a workload did: move generations (a position and a roll, all its
    legal moves), the positions they led to, and games."""

    generations: int = 0
    positions: int = 0
    games: int = 0

    def __add__(self, other: Done) -> Done:
        return Done(self.generations + other.generations, self.positions + other.positions, self.games + other.games)


@dataclass
class Workload:
    """``work()`` does some of the workload each call and says what (a :class:`Done`)."""

    name: str
    threads: int
    work: Callable[[], Done]


def measure(workload: Workload, seconds: float) -> tuple[Done, float]:
    """(work done, seconds) of calling ``workload.work`` for about ``seconds`` (at least once)."""
    done = Done()
    start = time.perf_counter()
    while True:
        done += workload.work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed


def rates(done: Done, seconds: float) -> tuple[str, str, str]:
    """Move generations, positions and games per second ("-" for none)."""
    return tuple(  # type: ignore[return-value]
        f"{n / seconds:,.0f}" if n else "-" for n in (done.generations, done.positions, done.games)
    )


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

    def generate(k: int) -> Callable[[], Done]:
        return lambda: Done(len(boards), len(batch.generate(boards, dice, threads=k)[0]))

    def count(k: int) -> Callable[[], Done]:
        return lambda: Done(len(boards), int(batch.count(boards, dice, threads=k).sum()))

    def legal_moves() -> Done:
        return Done(len(sample), sum(len(list(p.legal_moves(r))) for p, r in zip(sample, rolls, strict=True)))

    def games(k: int) -> Callable[[], Done]:
        return lambda: Done(games=rollout(Position.initial(), games=1296 * k, policy="pubeval", threads=k).games)

    counts = [1] if threads == 1 else [1, threads]
    rows = [Workload("batch.generate", k, generate(k)) for k in counts]
    rows += [Workload("batch.count", k, count(k)) for k in counts]
    rows.append(Workload("Position.legal_moves", 1, legal_moves))
    rows += [Workload("rollout, pubeval", k, games(k)) for k in counts]
    return about, rows


def slower_rows(measured: list[tuple[Workload, Done, float]]) -> list[str]:
    """A line for each multi-threaded row that ran slower than its workload's 1-thread row."""
    alone = {w.name: (d, s) for w, d, s in measured if w.threads == 1}
    lines = []
    for w, done, seconds in measured:
        if w.threads == 1 or w.name not in alone:
            continue
        one, one_seconds = alone[w.name]
        # the workload's main unit: positions for move generation, games for rollouts
        unit, mine, theirs = (
            ("games/s", done.games / seconds, one.games / one_seconds)
            if done.games
            else ("positions/s", done.positions / seconds, one.positions / one_seconds)
        )
        if mine < theirs:
            lines.append(f"{w.name} on {w.threads} threads ran slower than on 1 ({mine:,.0f} vs {theirs:,.0f} {unit})")
    return lines


def _load() -> str:
    """The load average over the last minute, in words (where the system tells it)."""
    try:
        return f"; the load average is {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    except (AttributeError, OSError):
        return ""


def run(args: argparse.Namespace) -> int:
    if not 0.05 <= args.seconds <= 60:
        raise UsageError(f"--seconds takes 0.05 to 60, not {args.seconds}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads takes 1 to 64, not {args.threads}")
    table = Table()
    table.add_column("workload", no_wrap=True)
    table.add_column("threads", justify="right")
    table.add_column("move generations/s", justify="right")
    table.add_column("positions/s", justify="right")
    table.add_column("games/s", justify="right")
    measured = []
    with Console(stderr=True).status("timing..."):
        about, workloads = _workloads(args.threads)
        for w in workloads:
            done, seconds = measure(w, args.seconds)
            measured.append((w, done, seconds))
            table.add_row(w.name, str(w.threads), *rates(done, seconds))
    out = console()
    out.print(f"bgcore {__version__}, Python {platform.python_version()}, {os.cpu_count()} cores")
    out.print(f"One timing of each workload (about {args.seconds:g} s), from this run only.")
    out.print(about)
    out.print(table)
    out.print(
        "A move generation: one position and roll, all its legal moves; positions: the distinct positions they lead to."
    )
    if args.threads > 1:
        out.print(
            f"Rows on {args.threads} threads share the same work: with {args.threads} idle cores up to "
            f"{args.threads} times the 1-thread speed, less when other programs keep the cores busy."
        )
    slower = slower_rows(measured)
    if slower:
        out.print(
            "Note: " + "; ".join(slower) + f"{_load()}. The threads waited for busy cores: this run says little "
            "about threads; rerun on an idle machine (or see bench/compare.py, which interleaves rounds)."
        )
    return 0
