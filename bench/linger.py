"""2 threads vs 1 for back-to-back calls, with the pool's threads sleeping
after each task and lingering (``bgcore.batch.set_thread_linger``, by
default as long as the library does), side by side in one run.

Run from the repository root::

    python bench/linger.py [--rounds R] [--linger SECONDS]

For each batch of the corpus that ``compare.py`` times for 2-thread scaling
(4,116 and 20,013 rows, and the whole corpus), each round runs, for each of
the two settings in turn (their order alternating between rounds): two
untimed calls of ``batch.generate`` with 2 threads, one right after the
other, so that the pool's thread sleeps or lingers from then on (a thread
stops lingering once two calls in a row come late), then a timed call with 1
thread and a timed call with 2.  The 2-thread call thus comes one 1-thread call after the pool's
last task, as in a loop that alternates them (and as in ``compare.py``'s
rounds for 4,116 rows; for the larger batches other workloads, 10-20 ms of
them, run in between there).  A thread lingering for less than the
1-thread call takes sleeps before the 2-thread one.

It prints medians of each call and two ratios: of the medians, and the
median of each round's own ratio.  ``--linger`` must cover a 1-thread call
of the largest batch (about 6 ms) for the whole corpus to show the effect:
``--linger 0.02`` does.

Then it times what the calling thread alone pays to hand a 2-thread call's
work to the pool's thread, the first step of such a call (taking and
priming it, ``_batch.Primed(1)``): right after a 2-thread call of the
corpus, the thread lingering (the second setting), and after a 1-thread
call of it, the thread asleep since the 2-thread call (with 0).  Waking a
sleeping thread is a system call that, on a virtual machine, may cost tens
of microseconds, more the longer the thread has slept; the woken thread
starts later still.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from bgcore import _batch, _pool, batch
from compare import small_batches
from corpus import DEFAULT_POSITIONS, SEED, build_corpus
from timing import machine_line

__all__ = ["main"]


def _timed(boards: np.ndarray, dice: np.ndarray, threads: int) -> float:
    start = time.perf_counter()
    batch.generate(boards, dice, threads=threads)
    return time.perf_counter() - start


def _handover(boards: np.ndarray, dice: np.ndarray, lingers: bool, linger: float) -> float:
    """Seconds that taking and priming the pool's thread takes the caller,
    with the thread lingering or asleep."""
    batch.set_thread_linger(linger if lingers else 0)
    batch.generate(boards, dice, threads=2)
    if not lingers:
        batch.generate(boards, dice, threads=1)
    start = time.perf_counter()
    primed = _batch.Primed(1)
    took = time.perf_counter() - start
    del primed  # stopped and given back
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100, help="timed rounds (default 100)")
    parser.add_argument(
        "--linger",
        type=float,
        default=_pool.DEFAULT_LINGER,
        help=f"seconds the threads linger in the second setting (default {_pool.DEFAULT_LINGER:g}, the library's)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or not 0 < args.linger <= 1:
        parser.error("--rounds must be >= 1 and --linger within (0, 1]")
    corpus = build_corpus(DEFAULT_POSITIONS, SEED)
    parts = [*small_batches(corpus), corpus]
    settings = (0.0, args.linger)
    one: dict[tuple[int, float], list[float]] = {(i, s): [] for i in range(len(parts)) for s in settings}
    two: dict[tuple[int, float], list[float]] = {key: [] for key in one}
    previous = batch.set_thread_linger(0)
    try:
        for r in range(args.rounds):
            for i, part in enumerate(parts):
                for setting in settings if r % 2 == 0 else settings[::-1]:
                    batch.set_thread_linger(setting)
                    for _ in range(2):  # the second in time: lingering from then on, as in a loop
                        batch.generate(part.boards, part.dice, threads=2)
                    one[i, setting].append(_timed(part.boards, part.dice, 1))
                    two[i, setting].append(_timed(part.boards, part.dice, 2))
        handover: dict[bool, list[float]] = {True: [], False: []}
        for r in range(args.rounds):
            for lingers in (True, False) if r % 2 == 0 else (False, True):
                handover[lingers].append(_handover(corpus.boards, corpus.dice, lingers, args.linger))
    finally:
        batch.set_thread_linger(previous)
    print(f"`python bench/linger.py --rounds {args.rounds} --linger {args.linger:g}`, medians of {args.rounds} rounds")
    print()
    print(f"Machine: {machine_line()}.")
    print()
    print("| rows | threads linger | 1 thread | 2 threads | 2 threads vs 1 | (median of the rounds' ratios) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for i, part in enumerate(parts):
        for setting in settings:
            a, b = one[i, setting], two[i, setting]
            ratio = statistics.median(a) / statistics.median(b)
            own = statistics.median(x / y for x, y in zip(a, b, strict=True))
            print(
                f"| {len(part):,} | {setting * 1e3:g} ms | {statistics.median(a) * 1e6:,.0f} µs "
                f"| {statistics.median(b) * 1e6:,.0f} µs | {ratio:.2f}x | {own:.2f}x |"
            )
    print()
    print(
        "Handing a 2-thread call's work to the pool's thread (`_batch.Primed(1)`), the calling thread's "
        f"time, medians of {args.rounds}: {statistics.median(handover[True]) * 1e6:.1f} µs while it lingers, "
        f"{statistics.median(handover[False]) * 1e6:.1f} µs while it sleeps (after a 1-thread call)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
