"""Interleaved timing, reporting and the workloads shared by the benchmark scripts.

A :class:`Workload` is one function to time, with the number of generations it
covers and the total it must return every time (so a wrong or skipped pass
fails loudly); :func:`gnubg_c_workload` and :func:`python_api_workload`
build the ones both ``movegen.py`` and ``compare.py`` time, after checking
their totals (:class:`CountMismatch` otherwise).  :func:`time_interleaved` runs every workload once untimed and
then ``repeats`` timed rounds, rotating the order each round, so that a noisy
machine slows every workload alike; figures are medians over the rounds.

>>> w = Workload("sum", lambda: sum(range(10)), generations=10, results=45)
>>> time_interleaved([w], repeats=3)
>>> len(w.seconds), w.median > 0
(3, True)
>>> format_table([w], w, "vs sum", markdown=True).splitlines()[2].startswith("| sum | 10 |")
True
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import bgcore
import gnubg_native
from corpus import DEFAULT_POSITIONS, SEED, Corpus, count_bgcore, count_python_api, format_phases

__all__ = [
    "base_parser",
    "check_args",
    "Workload",
    "CountMismatch",
    "gnubg_c_workload",
    "python_api_workload",
    "time_interleaved",
    "cpu_model",
    "machine_line",
    "print_header",
    "format_table",
]


def base_parser(doc: str) -> argparse.ArgumentParser:
    """A parser with the options every timing script takes: corpus size, repeats, API subset, seed."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument(
        "--positions",
        type=int,
        default=DEFAULT_POSITIONS,
        help=f"self-play positions in the corpus, each with all 21 rolls (default {DEFAULT_POSITIONS})",
    )
    parser.add_argument("--repeats", type=int, default=15, help="timed passes per workload (default 15)")
    parser.add_argument(
        "--api-positions",
        type=int,
        default=500,
        help="positions of bgcore's Python-API subset, 0 to skip it (default 500)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help=f"self-play seed (default {SEED})")
    return parser


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace, *subsets: str) -> argparse.Namespace:
    """Exit with a usage error unless --positions and --repeats are >= 1 and the subset sizes >= 0."""
    if args.positions < 1 or args.repeats < 1:
        parser.error("--positions and --repeats must be >= 1")
    for name in ("api_positions", *subsets):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be >= 0")
    return args


@dataclass
class Workload:
    """One timed workload: ``run()`` must return ``results`` each time it is called."""

    name: str
    run: Callable[[], int]
    generations: int
    results: int
    seconds: list[float] = field(default_factory=list)

    def measure(self) -> None:
        """Time one call of ``run`` and check its total."""
        start = time.perf_counter()
        got = self.run()
        self.seconds.append(time.perf_counter() - start)
        if got != self.results:
            raise RuntimeError(f"{self.name}: counted {got:,} results, expected {self.results:,}")

    @property
    def median(self) -> float:
        """Median seconds per pass over the workload's generations."""
        return statistics.median(self.seconds)

    @property
    def rate(self) -> float:
        """Generations per second, from the median pass."""
        return self.generations / self.median

    def ns_per_generation(self, seconds: float) -> float:
        return 1e9 * seconds / self.generations


class CountMismatch(RuntimeError):
    """Two generators disagree on a corpus's total; ``str()`` says which and by how much."""


def gnubg_c_workload(corpus: Corpus, expected: int) -> Workload:
    """gnubg's C ``GenerateMoves`` over ``corpus`` from the native loop of ``gnubg_native``.

    Prints gnubg's totals; raises :class:`gnubg_native.GnubgUnavailable` without
    gnubg or a C compiler and :class:`CountMismatch` unless its results (moves
    plus lost turns) equal ``expected``, bgcore's total.
    """
    timer = gnubg_native.load_timer()
    data = gnubg_native.gnubg_corpus(corpus)
    count = timer.run(data)
    print(
        f"gnubg results:  {count.results:,} ({count.moves:,} moves + {count.lost_turns:,} lost turns, "
        "which gnubg reports as 0 moves and bgcore as the empty move)"
    )
    if count.results != expected:
        raise CountMismatch(f"bgcore counts {expected:,} results, gnubg {count.results:,}")
    print("bgcore and gnubg agree")
    return Workload("gnubg GenerateMoves (native loop, C)", lambda: timer.run(data).results, len(corpus), count.results)


def python_api_workload(corpus: Corpus, positions: int) -> Workload:
    """``len(Position.legal_moves(roll))`` over a subset of ``positions`` positions (all rolls).

    Raises :class:`CountMismatch` unless it agrees with ``_batch.count_many`` on the subset.
    """
    sub = corpus.subset(positions)
    total = count_python_api(sub.positions, sub.rolls)
    native = count_bgcore(sub)
    if total != native:
        raise CountMismatch(f"the Python API counts {total:,} results, count_many {native:,}")
    print(
        f"Python API subset: {len(sub.positions):,} positions spread over the corpus x "
        f"{len(sub.rolls)} rolls = {len(sub):,} generations, {total:,} results"
    )
    return Workload(
        "bgcore Position.legal_moves (Python API)", lambda: count_python_api(sub.positions, sub.rolls), len(sub), total
    )


def time_interleaved(workloads: Sequence[Workload], repeats: int) -> None:
    """One untimed warm-up pass of each workload, then ``repeats`` rounds in rotating order."""
    workloads = list(workloads)
    for w in workloads:
        w.run()
    for r in range(repeats):
        shift = r % len(workloads)  # no workload always runs first
        for w in workloads[shift:] + workloads[:shift]:
            w.measure()


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_line() -> str:
    """bgcore's version, Python, the OS and the CPU, in one line."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count()
    return (
        f"bgcore {bgcore.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()} {platform.system()}, {cpu_model()}, "
        f"{os.cpu_count()} CPUs ({usable} usable)"
    )


def print_header(corpus: Corpus) -> None:
    """The machine line and what the corpus holds."""
    print(machine_line())
    print(
        f"corpus: {len(corpus.positions):,} self-play positions (seed {corpus.seed}) "
        f"x {len(corpus.rolls)} rolls = {len(corpus):,} generations"
    )
    print(f"phases: {format_phases(corpus.positions)}")


def format_table(
    workloads: Sequence[Workload], baseline: Workload | None, ratio_label: str, markdown: bool = False
) -> str:
    """The table of median figures; the last column is generations/s relative to ``baseline``'s."""
    head = ("workload", "generations", "gen/s", "results/s", "ns/gen", "(min-max)", ratio_label)
    rows = []
    for w in workloads:
        m = w.median
        ratio = "-" if baseline is None else f"{w.rate / baseline.rate:.2f}x"
        rows.append(
            (
                w.name,
                f"{w.generations:,}",
                f"{w.rate:,.0f}",
                f"{w.results / m:,.0f}",
                f"{w.ns_per_generation(m):,.0f}",
                f"({w.ns_per_generation(min(w.seconds)):,.0f}-{w.ns_per_generation(max(w.seconds)):,.0f})",
                ratio,
            )
        )
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join([" --- "] + [" ---: "] * (len(head) - 1)) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*head), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    lines += [fmt.format(*row) for row in rows]
    return "\n".join(lines)
