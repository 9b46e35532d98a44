"""Move generation speed: bgcore against GNU Backgammon's C generator.

Run from the repository root::

    python bench/movegen.py [--positions N] [--repeats R] [--api-positions M]

On one fixed, seeded corpus (``corpus.py``: N self-play positions times the 21
rolls) it times, interleaved in the same run:

* bgcore's native loop ``bgcore._core.count_many`` (no GIL, no Python object
  per generation);
* gnubg's C ``GenerateMoves`` called from a native loop (``gnubg_native.py``),
  when the gnubg package and a C compiler are available;
* bgcore's public Python API, ``len(Position.legal_moves(roll))``, on an
  evenly spread subset of M positions.

Before timing it checks that bgcore and gnubg find the same total number of
results on the corpus (a lost turn counts as one result, the empty move) and
that the Python API agrees with the native loop.  It reports medians over R
repeats: generations/s, results/s, ns per generation and the speed relative
to gnubg.  The default run takes a few seconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import bgcore

import gnubg_native
from corpus import DEFAULT_POSITIONS, SEED, Corpus, build_corpus, count_bgcore, count_python_api, format_phases

__all__ = ["Workload", "main"]


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

    def ns_per_generation(self, seconds: float) -> float:
        return 1e9 * seconds / self.generations


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=DEFAULT_POSITIONS,
                        help=f"self-play positions in the corpus, each with all 21 rolls (default {DEFAULT_POSITIONS})")
    parser.add_argument("--repeats", type=int, default=15, help="timed passes per workload (default 15)")
    parser.add_argument("--api-positions", type=int, default=500,
                        help="positions of the Python-API subset, 0 to skip it (default 500)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"self-play seed (default {SEED})")
    args = parser.parse_args(argv)
    if args.positions < 1 or args.repeats < 1 or args.api_positions < 0:
        parser.error("--positions and --repeats must be >= 1, --api-positions >= 0")
    return args


def _gnubg_version() -> str:
    try:
        from importlib.metadata import version

        return version("gnubg")
    except Exception:  # noqa: BLE001 - only for the header line
        return "?"


def _header(corpus: Corpus) -> None:
    print(f"bgcore {bgcore.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()} {platform.system()}, {os.cpu_count()} CPUs")
    print(f"corpus: {len(corpus.positions):,} self-play positions (seed {corpus.seed}) "
          f"x {len(corpus.rolls)} rolls = {len(corpus):,} generations")
    print(f"phases: {format_phases(corpus.positions)}")


def _table(workloads: list[Workload], baseline: Workload | None) -> None:
    head = (f"{'workload':<44} {'generations':>11} {'gen/s':>12} {'results/s':>13} "
            f"{'ns/gen':>8} {'(min-max)':>15} {'vs gnubg':>9}")
    print(head)
    print("-" * len(head))
    for w in workloads:
        m = w.median
        spread = f"({w.ns_per_generation(min(w.seconds)):.0f}-{w.ns_per_generation(max(w.seconds)):.0f})"
        ratio = "-"
        if baseline is not None:
            # Speed ratio: this workload's generations/s over gnubg's.
            ratio = f"{(w.generations / m) / (baseline.generations / baseline.median):.2f}x"
        print(f"{w.name:<44} {w.generations:>11,} {w.generations / m:>12,.0f} {w.results / m:>13,.0f} "
              f"{w.ns_per_generation(m):>8.0f} {spread:>15} {ratio:>9}")


def main(argv: Sequence[str] | None = None) -> int:
    """Build the corpus, check the counts agree, time the workloads and print the table."""
    args = parse_args(argv)
    corpus = build_corpus(args.positions, args.seed)
    _header(corpus)

    bgcore_total = count_bgcore(corpus)
    workloads = [Workload("bgcore _core.count_many (native loop)",
                          lambda: count_bgcore(corpus), len(corpus), bgcore_total)]
    print(f"bgcore results: {bgcore_total:,} ({bgcore_total / len(corpus):.2f} per generation)")

    gnubg: Workload | None = None
    try:
        timer = gnubg_native.load_timer()
    except gnubg_native.GnubgUnavailable as exc:
        print(f"gnubg figures skipped: {exc}")
    else:
        data = gnubg_native.gnubg_corpus(corpus)
        count = timer.run(data)
        print(f"gnubg results:  {count.results:,} ({count.moves:,} moves + {count.lost_turns:,} lost turns, "
              "which gnubg reports as 0 moves and bgcore as the empty move)")
        if count.results != bgcore_total:
            print(f"MISMATCH: bgcore counts {bgcore_total:,} results, gnubg {count.results:,}", file=sys.stderr)
            return 1
        print("bgcore and gnubg agree")
        gnubg = Workload("gnubg GenerateMoves (native loop, C)",
                         lambda: timer.run(data).results, len(corpus), count.results)
        workloads.append(gnubg)

    if args.api_positions:
        sub = corpus.subset(args.api_positions)
        api_total = count_python_api(sub.positions, sub.rolls)
        if api_total != count_bgcore(sub):
            print(f"MISMATCH: the Python API counts {api_total:,} results, count_many "
                  f"{count_bgcore(sub):,}", file=sys.stderr)
            return 1
        workloads.append(Workload("bgcore Position.legal_moves (Python API)",
                                  lambda: count_python_api(sub.positions, sub.rolls), len(sub), api_total))
        print(f"Python API subset: {len(sub.positions):,} positions spread over the corpus x "
              f"{len(sub.rolls)} rolls = {len(sub):,} generations, {api_total:,} results")

    for w in workloads:  # warm-up, untimed
        w.run()
    for r in range(args.repeats):
        shift = r % len(workloads)  # rotate the order so no workload always runs first
        for w in workloads[shift:] + workloads[:shift]:
            w.measure()

    print()
    print(f"medians of {args.repeats} interleaved repeats (ns/gen also as min-max); "
          "'vs gnubg' = generations/s relative to gnubg's")
    _table(workloads, gnubg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
