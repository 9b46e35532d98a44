"""``python -m bgcore demo``: the opening position, a roll's legal moves and a speed figure;
``python -m bgcore perft``: the perft table."""

from __future__ import annotations

import argparse
import os
import sys
import time

from . import Position, __version__


def demo(dice: tuple[int, int], seconds: float) -> None:
    pos = Position.initial()
    print(f"bgcore {__version__}\n")
    print(pos)
    moves = pos.legal_moves(dice)
    print(f"\n{dice[0]}-{dice[1]}: {len(moves)} legal moves")
    for m in moves:
        print("  ", m)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for r in rolls:
            pos.legal_moves(r)
        n += len(rolls)
    elapsed = time.perf_counter() - start
    print(
        f"\n{n / elapsed:,.0f} move generations per second through Position.legal_moves "
        f"(opening position, all 21 rolls; see bench/movegen.py for the native figure)"
    )


def perft_table(variant: str, depth: int, threads: int) -> None:
    """Print perft 1..depth of ``variant``'s start as a markdown table."""
    from .gametree import perft_counts

    pos = Position.initial(variant)
    print(
        f"perft from the {variant} starting position ({threads} thread(s)); unweighted: "
        "21 distinct rolls per ply; weighted: 36 ordered rolls"
    )
    print()
    print("| depth | unweighted | weighted | seconds | leaves/s |")
    print("|---:|---:|---:|---:|---:|")
    for d in range(1, depth + 1):
        start = time.perf_counter()
        plain, weighted = perft_counts(pos, d, threads=threads)
        elapsed = time.perf_counter() - start
        rate = f"{plain / elapsed:,.0f}" if elapsed > 0 else "-"
        print(f"| {d} | {plain:,} | {weighted:,} | {elapsed:.2f} | {rate} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bgcore", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="show the opening, a roll's legal moves and a speed figure")
    p.add_argument("--dice", default="31", help="the roll, e.g. 31 or 6-5 (default 31)")
    p.add_argument("--seconds", type=float, default=1.0, help="how long to time (default 1)")
    p = sub.add_parser("perft", help="print perft 1..DEPTH from a starting position")
    p.add_argument("--depth", type=int, default=3, help="deepest ply (default 3)")
    p.add_argument("--variant", default="standard", choices=["standard", "nackgammon", "hypergammon"])
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="native threads (default: all cores)")
    args = parser.parse_args(argv)
    if args.command == "perft":
        if not 1 <= args.depth <= 6:
            parser.error("--depth takes 1 to 6")
        if args.threads < 1:
            parser.error("--threads takes a positive number")
        perft_table(args.variant, args.depth, args.threads)
        return 0
    digits = [c for c in args.dice if c.isdigit()]
    if len(digits) != 2 or not all("1" <= c <= "6" for c in digits):
        parser.error(f"--dice takes two digits 1-6, not {args.dice!r}")
    demo((int(digits[0]), int(digits[1])), args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
