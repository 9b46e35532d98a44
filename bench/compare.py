"""bgcore's batch API against other backgammon move generators, in one run.

Run from the repository root::

    python bench/compare.py [--positions N] [--repeats R] [--markdown]

On one fixed, seeded corpus (``corpus.py``: N self-play positions times the 21
rolls) it times, interleaved in the same run, R repeats each:

* ``bgcore.batch.generate`` (every child board built) and ``bgcore.batch.count``
  (counts only), with 1 and with 2 threads, and ``_batch.count_many`` for
  reference;
* gnubg's C ``GenerateMoves`` from a native loop (``gnubg_native.py``);
* on evenly spread subsets: bgcore's Python API ``len(Position.legal_moves(roll))``
  and, when the gnubg package is installed, ``gnubg.findbestmoves`` through
  gnubg's Python API (it also evaluates every move at 0-ply, so it is slow);
* on the same subset as ``len(Position.legal_moves(roll))``, one call per
  generation as a bot makes them (``calls.py``): ``batch.generate`` and
  ``batch.count`` of one row, ``list(Position.legal_moves(roll))``,
  ``Position.children(roll)`` and ``Position.play(move)``, reported per call
  (and per move or position) after the table.

OpenSpiel (``pyspiel``) and gym-backgammon are detected only: no workload is
written for them, and "not installed" is printed when they are missing.

Before timing it checks that every bgcore workload, gnubg's C generator and
gnubg's ``findbestmoves`` find the same totals (a lost turn counts as one
result; gnubg reports it as 0 moves) and exits 1 if not.  It prints medians:
generations/s, results/s, ns per generation and the speed relative to
``batch.generate`` with 1 thread, then bgcore's speed relative to gnubg's C
generator.  Each ratio is given twice: of the two medians, and as the median of
the ratios within each round.  The 2-thread speedups come from a second run of
R interleaved rounds of the four batch workloads alone: on the shared 2-core
virtual machine where this was written, rounds that also held gnubg's long
single-threaded loop (about 0.1 s) often gave 2 threads 1.1x one, the batch
workloads alone 1.4-1.7x (the same after 0.1 s of sleep instead).  The same
rounds time ``batch.count`` in one worker process alone and in two at once
(``processes.py``): nothing is shared between processes, so their ratio is
what the machine's second core gives this code at that time, the ceiling for
2 threads.  For the smaller batches the same is timed with ``batch.generate``
itself: each worker writes its results into a buffer of its own, which stays
in its core's cache, where two threads write one result between them.
``--markdown`` prints the same as a GitHub markdown table with the command
line and the machine, for the README.
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import importlib.util
import shlex
import statistics
import sys
from collections.abc import Sequence

import gnubg_native
from calls import call_lines, call_workloads
from corpus import Corpus, build_corpus, count_batch, count_bgcore, generate_batch
from processes import CountingProcesses, GeneratingProcesses
from timing import (
    CountMismatch,
    Workload,
    base_parser,
    check_args,
    format_table,
    gnubg_c_workload,
    machine_line,
    print_header,
    python_api_workload,
    time_interleaved,
)

__all__ = ["main"]

#: Modules detected but not timed, with the package that provides each.
DETECTED_ONLY = {"pyspiel": "OpenSpiel (open_spiel)", "gym_backgammon": "gym-backgammon"}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = base_parser(__doc__)
    parser.add_argument(
        "--findbestmoves-positions",
        type=int,
        default=20,
        help="positions of the gnubg.findbestmoves subset, 0 to skip it (default 20)",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="print the table as GitHub markdown, with the command line and the machine",
    )
    return check_args(parser, parser.parse_args(argv), "findbestmoves_positions")


def batch_workloads(corpus: Corpus, expected: int) -> list[Workload]:
    """batch.generate and batch.count with 1 and 2 threads (generate 1-thread first: the baseline)."""
    workloads = []
    for threads in (1, 2):
        plural = "s" if threads > 1 else ""
        for name, fn in (("generate", generate_batch), ("count", count_batch)):
            total = fn(corpus, threads)
            if total != expected:
                raise CountMismatch(
                    f"batch.{name}(threads={threads}) counts {total:,} results, count_many {expected:,}"
                )
            workloads.append(
                Workload(
                    f"bgcore batch.{name}, {threads} thread{plural}",
                    lambda fn=fn, threads=threads: fn(corpus, threads),
                    len(corpus),
                    total,
                )
            )
    return workloads


#: Positions of the smaller batches whose 2-thread scaling is timed too (x 21
#: rolls: 4,116 and 20,013 rows), the sizes a bot's search hands over.
SMALL_BATCH_POSITIONS = (196, 953)


def small_batches(corpus: Corpus) -> list[Corpus]:
    """The smaller batches whose 2-thread scaling is timed (SMALL_BATCH_POSITIONS)."""
    return [corpus.subset(positions) for positions in SMALL_BATCH_POSITIONS]


#: Calls of batch.generate per request to a worker process, so that a request
#: takes about 10 ms and the pipe's round trip is a small part of it.
SMALL_BATCH_CALLS_PER_REQUEST = (8, 2)


def small_batch_workloads(
    parts: list[Corpus], workers: GeneratingProcesses
) -> tuple[list[Workload], list[tuple[str, str, str]]]:
    """batch.generate with 1 and 2 threads on each of ``parts``, and in one
    worker process alone and two at once (``workers`` hold the parts, in
    order), and their pairs."""
    workloads: list[Workload] = []
    pairs: list[tuple[str, str, str]] = []
    for index, (part, times) in enumerate(zip(parts, SMALL_BATCH_CALLS_PER_REQUEST, strict=True)):
        names = []
        for threads in (1, 2):
            name = f"bgcore batch.generate on {len(part):,} rows, {threads} thread{'s' if threads > 1 else ''}"
            total = generate_batch(part, threads)
            workloads.append(
                Workload(name, lambda part=part, threads=threads: generate_batch(part, threads), len(part), total)
            )
            names.append(name)
        pairs.append((f"batch.generate on {len(part):,} rows, 2 threads vs 1", names[1], names[0]))
        for processes in (1, 2):
            name = f"bgcore batch.generate on {len(part):,} rows, " + (
                "1 process" if processes == 1 else "2 processes at once"
            )
            got = workers.generate(processes, batch=index, times=times)
            if got != processes * times * total:
                raise CountMismatch(f"{name}: {got:,} results, expected {processes * times * total:,}")
            workloads.append(
                Workload(
                    name,
                    lambda index=index, processes=processes, times=times: workers.generate(
                        processes, batch=index, times=times
                    ),
                    processes * times * len(part),
                    got,
                )
            )
            names.append(name)
        pairs.append(
            (
                f"batch.generate on {len(part):,} rows, 2 processes at once vs 1 (nothing shared)",
                names[3],
                names[2],
            )
        )
    return workloads, pairs


def process_workloads(workers: CountingProcesses, corpus: Corpus, expected: int) -> list[Workload]:
    """batch.count (1 thread) in one worker process, and in two at once (twice the generations)."""
    for processes in (1, 2):
        total = workers.count(processes)
        if total != processes * expected:
            raise CountMismatch(f"{processes} processes count {total:,} results, expected {processes * expected:,}")
    return [
        Workload("bgcore batch.count, 1 process", lambda: workers.count(1), len(corpus), expected),
        Workload("bgcore batch.count, 2 processes at once", lambda: workers.count(2), 2 * len(corpus), 2 * expected),
    ]


def findbestmoves_workload(corpus: Corpus, positions: int) -> Workload:
    """``gnubg.findbestmoves`` (gnubg's Python API, 0-ply) over a subset of ``positions`` positions.

    Raises ImportError without gnubg and :class:`CountMismatch` unless its
    total (a lost turn, an empty list, counted as one result) equals bgcore's.
    """
    import gnubg

    sub = corpus.subset(positions)
    # findbestmoves(board, cubeinfo, evalcontext, dice): positional only, and
    # cubeinfo and evalcontext are required (None crashes it).
    cube, context = gnubg_native.oracle.money_cubeinfo(), gnubg.evalcontext()
    calls = [(gnubg_native.oracle.gnubg_tuple(pos.board), roll) for pos, roll in sub.generations()]

    def run() -> int:
        return sum(len(gnubg.findbestmoves(board, cube, context, roll)) or 1 for board, roll in calls)

    total, native = run(), count_bgcore(sub)
    if total != native:
        raise CountMismatch(f"gnubg.findbestmoves counts {total:,} results, bgcore {native:,}")
    print(
        f"findbestmoves subset: {len(sub.positions):,} positions x {len(sub.rolls)} rolls = "
        f"{len(sub):,} generations, {total:,} results, agrees with bgcore (evalcontext {context})"
    )
    return Workload("gnubg.findbestmoves (Python API, 0-ply eval)", run, len(sub), total)


GNUBG = "gnubg GenerateMoves (native loop, C)"

#: (label, faster workload, slower workload) for the speedups of 2 threads.
THREAD_PAIRS = [
    ("batch.generate, 2 threads vs 1", "bgcore batch.generate, 2 threads", "bgcore batch.generate, 1 thread"),
    ("batch.count, 2 threads vs 1", "bgcore batch.count, 2 threads", "bgcore batch.count, 1 thread"),
    (
        "batch.count, 2 processes at once vs 1 (nothing shared: the machine's own scaling)",
        "bgcore batch.count, 2 processes at once",
        "bgcore batch.count, 1 process",
    ),
]
#: The same for bgcore against gnubg's C generator.
GNUBG_PAIRS = [
    (f"{name[len('bgcore ') :]} vs gnubg GenerateMoves", name, GNUBG)
    for name in (
        "bgcore batch.generate, 1 thread",
        "bgcore batch.count, 1 thread",
        "bgcore batch.generate, 2 threads",
        "bgcore batch.count, 2 threads",
    )
]


def ratio_lines(by_name: dict[str, Workload], pairs: list[tuple[str, str, str]]) -> list[str]:
    """Each pair's speed ratio (of the medians, and the median of the rounds' own ratios)."""
    return [
        f"{label}: {by_name[a].rate / by_name[b].rate:.2f}x "
        f"(median of the {len(by_name[a].seconds)} rounds' own ratios: {paired_ratio(by_name[a], by_name[b]):.2f}x)"
        for label, a, b in pairs
        if a in by_name and b in by_name
    ]


def paired_ratio(a: Workload, b: Workload) -> float:
    """The median over the timed rounds of a's speed over b's within each round.

    Both ran in the same round, minutes apart at most, so a machine that slows
    down for a while slows both: the ratio of each round is steadier than the
    ratio of the two medians.
    """
    return statistics.median(
        (a.generations / ta) / (b.generations / tb) for ta, tb in zip(a.seconds, b.seconds, strict=False)
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Build the corpus, check every total agrees, time the workloads and print the table."""
    args = parse_args(argv)
    command = shlex.join(["python", "bench/compare.py", *(sys.argv[1:] if argv is None else argv)])
    corpus = build_corpus(args.positions, args.seed)
    print_header(corpus)
    expected = count_bgcore(corpus)
    print(f"bgcore results: {expected:,} ({expected / len(corpus):.2f} per generation)")

    try:
        workloads = batch_workloads(corpus, expected)
        workloads.append(
            Workload("bgcore _batch.count_many (reference)", lambda: count_bgcore(corpus), len(corpus), expected)
        )
        try:
            workloads.append(gnubg_c_workload(corpus, expected))
        except gnubg_native.GnubgUnavailable as exc:
            print(f"gnubg GenerateMoves skipped: {exc}")
        if args.api_positions:
            workloads.append(python_api_workload(corpus, args.api_positions))
            workloads += call_workloads(corpus, args.api_positions)
        if args.findbestmoves_positions:
            try:
                workloads.append(findbestmoves_workload(corpus, args.findbestmoves_positions))
            except ImportError as exc:
                print(f"gnubg.findbestmoves skipped: the gnubg package is not installed ({exc})")
    except CountMismatch as exc:
        print(f"MISMATCH: {exc}", file=sys.stderr)
        return 1
    for module, package in DETECTED_ONLY.items():
        if importlib.util.find_spec(module) is None:
            print(f"{package}: not installed")
        else:
            print(f"{package}: installed, but compare.py has no workload for it (not timed)")

    time_interleaved(workloads, args.repeats)
    baseline = workloads[0]
    by_name = {w.name: w for w in workloads}
    # Thread scaling is timed again with the batch workloads alone (see the
    # module docstring: gnubg's long single-threaded rounds in between often
    # cut the 2-thread rounds' speed on a shared virtual machine).
    parts = small_batches(corpus)
    with (
        CountingProcesses(corpus.boards, corpus.dice, processes=2) as workers,
        GeneratingProcesses([(part.boards, part.dice) for part in parts], processes=2) as generating,
    ):
        small, small_pairs = small_batch_workloads(parts, generating)
        scaling = batch_workloads(corpus, expected) + small + process_workloads(workers, corpus, expected)
        time_interleaved(scaling, args.repeats)
    thread_lines = ratio_lines({w.name: w for w in scaling}, THREAD_PAIRS + small_pairs)
    gnubg_lines = ratio_lines(by_name, GNUBG_PAIRS)
    one_call_lines = call_lines(workloads)
    one_call_note = f"One call at a time (medians of the {args.repeats} rounds above):"
    scaling_note = (
        f"2 threads vs 1, timed in a second run of {args.repeats} interleaved rounds of the four "
        "batch workloads, batch.generate on 4,116 and 20,013 rows of the corpus (with 1 and 2 "
        "threads, and in worker processes, one alone and two at once), and batch.count in "
        "worker processes (see compare.py):"
    )
    print()
    if args.markdown:
        print(
            f"`{command}`, medians of {args.repeats} interleaved repeats; ns/gen also as (min-max); "
            f"the last column is generations/s relative to {baseline.name}."
        )
        print()
        print(f"Machine: {machine_line()}.")
        print()
        print(
            f"Corpus: {len(corpus.positions):,} self-play positions (seed {corpus.seed}) x "
            f"{len(corpus.rolls)} rolls = {len(corpus):,} generations, {expected:,} results."
        )
        print()
        print(format_table(workloads, baseline, "vs generate (1 thread)", markdown=True))
        print()
        for line in gnubg_lines:
            print(f"- {line}")
        if one_call_lines:
            print()
            print(one_call_note)
            print()
            for line in one_call_lines:
                print(f"- {line}")
        print()
        print(scaling_note)
        print()
        for line in thread_lines:
            print(f"- {line}")
    else:
        print(
            f"medians of {args.repeats} interleaved repeats (ns/gen also as min-max); "
            f"'vs generate' = generations/s relative to {baseline.name}"
        )
        print(format_table(workloads, baseline, "vs generate (1 thread)"))
        print()
        for line in gnubg_lines:
            print(line)
        if one_call_lines:
            print()
            print(one_call_note)
            for line in one_call_lines:
                print(line)
        print()
        print(scaling_note)
        for line in thread_lines:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
