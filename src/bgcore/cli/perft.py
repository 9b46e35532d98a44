"""``bgcore perft [ID] --depth N``: the perft table, 1 to N plies."""

from __future__ import annotations

import argparse
import os
import time

from ..position import Position
from ..rules import VARIANTS
from .common import UsageError, add_position_argument
from .inputs import read_position

__all__ = ["add_parser", "run", "perft_table"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "perft",
        help="print perft 1..DEPTH (leaves of the game tree) from a position",
        description="Count the leaves of the game tree 1 to DEPTH plies from a position, as a markdown table: "
        "unweighted (21 distinct rolls a ply) and weighted (36 ordered rolls), with each depth's seconds "
        "and unweighted leaves per second.",
    )
    add_position_argument(p, optional=True, what="default: the starting position of --variant")
    p.add_argument("--depth", type=int, default=3, help="deepest ply, 1 to 6 (default 3)")
    p.add_argument(
        "--variant",
        default="standard",
        choices=[*VARIANTS, "acey-deucey"],
        help="the starting position, or the checkers an ID's position plays with (default standard)",
    )
    p.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="native threads (default: all cores, here %(default)s)"
    )
    p.set_defaults(run=run)


def perft_table(position: Position, label: str, depth: int, threads: int) -> None:
    """Print perft 1..depth of ``position`` as a markdown table."""
    from ..gametree import perft_counts

    print(
        f"perft from {label} ({threads} thread(s)); unweighted: 21 distinct rolls per ply; weighted: 36 ordered rolls"
    )
    print()
    print("| depth | unweighted | weighted | seconds | leaves/s |")
    print("|---:|---:|---:|---:|---:|")
    for d in range(1, depth + 1):
        start = time.perf_counter()
        plain, weighted = perft_counts(position, d, threads=threads)
        elapsed = time.perf_counter() - start
        rate = f"{plain / elapsed:,.0f}" if elapsed > 0 else "-"
        print(f"| {d} | {plain:,} | {weighted:,} | {elapsed:.2f} | {rate} |", flush=True)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.depth <= 6:
        raise UsageError(f"--depth takes 1 to 6, not {args.depth}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads takes 1 to 64, not {args.threads}")
    if args.position is not None and args.variant == "acey-deucey":
        raise UsageError("an ID or array cannot hold acey-deucey's checkers waiting to enter: perft from the start")
    if args.position is None:
        position = Position.initial(args.variant)
        label = f"the {args.variant} starting position"
    else:
        spec = read_position(args.position, checkers=VARIANTS[args.variant].checkers)
        position = spec.position
        label = f"Position ID {position.position_id()}"
    perft_table(position, label, args.depth, args.threads)
    return 0
