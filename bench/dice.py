"""Dice speed: rolls per second of ``Dice.rolls`` (filled in C) and of ``Dice.roll()``.

Run from the repository root::

    python bench/dice.py [--rolls N] [--calls M] [--repeats R]

It times ``Dice.rolls(N)`` (a new (N, 2) uint8 array each time, its
allocation included: the default 100,000 rolls fill 200 KB, which stay in the
caches, so this is about the speed of the C loop), ``Dice.rolls(100 N)``
(20 MB: the first touch of the new array's pages shows too), and M calls each
of ``Dice.roll()`` and ``Dice.die()`` from Python.  It prints the median and
the best of R timed repeats, as rolls per second.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

from bgcore import Dice

__all__ = ["main"]


def per_second(work: Callable[[], object], count: int, repeats: int) -> tuple[float, float]:
    """Median and best of ``repeats`` timings of ``work()`` (after one untimed
    run), as ``count`` per second."""
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times), count / min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=100_000, help="rolls per Dice.rolls call (default 100,000)")
    parser.add_argument("--calls", type=int, default=1_000_000, help="calls of roll() and die() (default 1,000,000)")
    parser.add_argument("--repeats", type=int, default=21, help="timed repeats (default 21)")
    args = parser.parse_args(argv)
    if args.rolls < 1 or args.calls < 1 or args.repeats < 1:
        parser.error("--rolls, --calls and --repeats must be >= 1")

    dice = Dice(20240611)
    n, big, calls = args.rolls, 100 * args.rolls, args.calls

    def roll_loop() -> None:
        roll = dice.roll
        for _ in range(calls):
            roll()

    def die_loop() -> None:
        die = dice.die
        for _ in range(calls):
            die()

    rows = [
        (f"Dice.rolls({n:,})", per_second(lambda: dice.rolls(n), n, args.repeats)),
        (f"Dice.rolls({big:,})", per_second(lambda: dice.rolls(big), big, args.repeats)),
        (f"Dice.roll() x {calls:,}", per_second(roll_loop, calls, args.repeats)),
        (f"Dice.die() x {calls:,}", per_second(die_loop, calls, args.repeats)),
    ]
    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, {args.repeats} repeats")
    width = max(len(name) for name, _ in rows)
    print(f"{'':<{width}}  {'median rolls/s':>15}  {'best rolls/s':>15}")
    for name, (median, best) in rows:
        print(f"{name:<{width}}  {median:>15,.0f}  {best:>15,.0f}")


if __name__ == "__main__":
    main()
