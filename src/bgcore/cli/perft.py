"""``bgcore perft [ID] --depth N``: the perft table, 1 to N plies.

Each depth takes several hundred times the one before (depth 4 from the
start: minutes; 5: days).  After each depth the command estimates the next
ones from the time it took and the leaves' growth, and says so on stderr
before a depth that would take more than :data:`WARN_SECONDS`; a progress bar
on stderr (when it is a terminal, or with ``--progress``) follows the
positions after the first ply of each depth that takes a while.

>>> [_duration(s) for s in (0.2, 42, 600, 7_200, 400_000, 4e8)]
['under a second', '42 seconds', '10 minutes', '2.0 hours', '4.6 days', '13 years']
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import bgcore._perft as _perft

from ..gametree import Progress, perft_counts
from ..position import Position
from ..rules import VARIANTS
from .common import UsageError, add_position_argument, plural
from .inputs import read_position

__all__ = ["add_parser", "run", "perft_table", "WARN_SECONDS", "BAR_SECONDS"]

#: A depth estimated to take longer than this is announced on stderr, with the estimate.
WARN_SECONDS = 30.0
#: A depth estimated to take longer than this gets a progress bar (when one is shown).
BAR_SECONDS = 1.0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "perft",
        help="print perft 1..DEPTH (leaves of the game tree) from a position",
        description="Count the leaves of the game tree 1 to DEPTH plies from a position, as a markdown table: "
        "unweighted (21 distinct rolls a ply) and weighted (36 ordered rolls), with each depth's seconds "
        "and unweighted leaves per second. Each depth takes several hundred times the one before (depth 4 "
        f"from the start: minutes, depth 5: days): a depth estimated to take more than {WARN_SECONDS:.0f} s is "
        "announced on stderr with its estimate, and a progress bar follows the long ones. Ctrl-C stops.",
    )
    add_position_argument(p, optional=True, what="default: the starting position of --variant")
    p.add_argument("--depth", type=int, default=3, help="deepest ply, 1 to 6 (default 3)")
    p.add_argument(
        "--variant",
        default="standard",
        choices=[*VARIANTS, "acey-deucey"],
        help="the starting position, or the checkers an ID's position plays with (default standard)",
    )
    cores = min(os.cpu_count() or 1, _perft.MAX_THREADS)
    p.add_argument(
        "--threads",
        type=int,
        default=cores,
        help=f"native threads, 1 to {_perft.MAX_THREADS} (default: all cores, at most {_perft.MAX_THREADS}; "
        "here %(default)s)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr for the depths that take a while (default: when stderr is a terminal)",
    )
    p.set_defaults(run=run)


def _duration(seconds: float) -> str:
    """A time in words, as precise as an estimate deserves."""
    if seconds < 1:
        return "under a second"
    for unit, size in (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600)):
        if seconds >= size:
            value = seconds / size
            return f"{value:,.0f} {unit}s" if value >= 10 else f"{value:.1f} {unit}s"
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    return plural(round(seconds), "second")


def _estimates(seconds: float, leaves: list[int], depth: int) -> list[tuple[int, float]]:
    """(depth, seconds) of each depth after ``len(leaves) - 1`` up to ``depth``,
    from the last one's ``seconds``: a walk's time grows as the leaves of
    the depth before it (each of them is expanded once), and the leaves as
    they grew last (``leaves[0]`` = 1, the position itself)."""
    done = len(leaves) - 1
    growth = leaves[-1] / max(leaves[-2], 1)
    out = []
    for d in range(done + 1, depth + 1):
        seconds *= growth
        out.append((d, seconds))
    return out


def perft_table(position: Position, label: str, depth: int, threads: int, *, progress: bool = False) -> None:
    """Print perft 1..depth of ``position`` as a markdown table (stdout),
    with the estimates of long depths (stderr) and, with ``progress``, a
    progress bar (stderr) for each depth estimated to take a while."""
    print(
        f"perft from {label} ({threads} thread(s)); unweighted: 21 distinct rolls per ply; weighted: 36 ordered rolls"
    )
    print()
    print("| depth | unweighted | weighted | seconds | leaves/s |")
    print("|---:|---:|---:|---:|---:|")
    leaves = [1]
    seconds = 0.0
    warned = False
    for d in range(1, depth + 1):
        ahead = _estimates(seconds, leaves, depth) if d > 1 else []
        estimate = ahead[0][1] if ahead else 0.0
        if estimate > WARN_SECONDS and not warned:
            said = ", ".join(f"depth {k} about {_duration(s)}" for k, s in ahead)
            print(
                f"perft: {said} (estimated from depth {d - 1}'s {seconds:.2f} s on {plural(threads, 'thread')}); "
                "Ctrl-C stops",
                file=sys.stderr,
                flush=True,
            )
            warned = True
        # Ctrl-C needs a watched walk (the pool's threads walk while this one checks for it): a quiet one
        # when there is no bar
        report: Progress = True if progress and estimate >= BAR_SECONDS else _quiet if d >= 3 else False
        start = time.perf_counter()
        plain, weighted = perft_counts(position, d, threads=threads, progress=report)
        seconds = time.perf_counter() - start
        rate = f"{plain / seconds:,.0f}" if seconds > 0 else "-"
        print(f"| {d} | {plain:,} | {weighted:,} | {seconds:.2f} | {rate} |", flush=True)
        leaves.append(plain)


def _quiet(done: int, total: int) -> None:
    """A watched walk's progress, not shown."""


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.depth <= 6:
        raise UsageError(f"--depth takes 1 to 6, not {args.depth}")
    if not 1 <= args.threads <= _perft.MAX_THREADS:
        raise UsageError(f"--threads takes 1 to {_perft.MAX_THREADS}, not {args.threads}")
    if args.position is not None and args.variant == "acey-deucey":
        raise UsageError("an ID or array cannot hold acey-deucey's checkers waiting to enter: perft from the start")
    if args.position is None:
        position = Position.initial(args.variant)
        label = f"the {args.variant} starting position"
    else:
        spec = read_position(args.position, checkers=VARIANTS[args.variant].checkers)
        position = spec.position
        label = f"Position ID {position.position_id()}"
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    perft_table(position, label, args.depth, args.threads, progress=progress)
    return 0
