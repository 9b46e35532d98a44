"""Move generation speed: bgcore against GNU Backgammon's C generator.

Run from the repository root::

    python bench/movegen.py [--positions N] [--repeats R] [--api-positions M]

On one fixed, seeded corpus (``corpus.py``: N self-play positions times the 21
rolls) it times, interleaved in the same run:

* bgcore's native loop ``bgcore._batch.count_many`` (no GIL, no Python object
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

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import sys
from collections.abc import Sequence

import gnubg_native
from corpus import build_corpus, count_bgcore
from timing import (
    CountMismatch,
    Workload,
    base_parser,
    check_args,
    format_table,
    gnubg_c_workload,
    print_header,
    python_api_workload,
    time_interleaved,
)

__all__ = ["main"]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = base_parser(__doc__)
    return check_args(parser, parser.parse_args(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """Build the corpus, check the counts agree, time the workloads and print the table."""
    args = parse_args(argv)
    corpus = build_corpus(args.positions, args.seed)
    print_header(corpus)

    bgcore_total = count_bgcore(corpus)
    workloads = [
        Workload("bgcore _batch.count_many (native loop)", lambda: count_bgcore(corpus), len(corpus), bgcore_total)
    ]
    print(f"bgcore results: {bgcore_total:,} ({bgcore_total / len(corpus):.2f} per generation)")

    gnubg: Workload | None = None
    try:
        gnubg = gnubg_c_workload(corpus, bgcore_total)
        workloads.append(gnubg)
    except gnubg_native.GnubgUnavailable as exc:
        print(f"gnubg figures skipped: {exc}")
    except CountMismatch as exc:
        print(f"MISMATCH: {exc}", file=sys.stderr)
        return 1
    if args.api_positions:
        try:
            workloads.append(python_api_workload(corpus, args.api_positions))
        except CountMismatch as exc:
            print(f"MISMATCH: {exc}", file=sys.stderr)
            return 1

    time_interleaved(workloads, args.repeats)
    print()
    print(
        f"medians of {args.repeats} interleaved repeats (ns/gen also as min-max); "
        "'vs gnubg' = generations/s relative to gnubg's"
    )
    print(format_table(workloads, gnubg, "vs gnubg"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
