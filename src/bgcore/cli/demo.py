"""``bgcore demo``: the opening position, a roll's legal moves and a speed figure."""

from __future__ import annotations

import argparse
import time

from .. import __version__
from ..position import Position
from ..rules import ROLLS
from .common import UsageError
from .inputs import DiceError, read_dice

__all__ = ["add_parser", "run", "demo"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo",
        help="show the opening, a roll's legal moves and a speed figure",
        description="Show the opening position, the legal moves of a roll and how many move generations "
        "(a position and roll, all its legal moves) and positions (the distinct results) per second "
        "Position.legal_moves makes here.",
    )
    p.add_argument("--dice", default="31", help="the roll, e.g. 31 or 6-5 (default 31)")
    p.add_argument("--seconds", type=float, default=1.0, help="how long to time (default 1)")
    p.set_defaults(run=run)


def demo(dice: tuple[int, int], seconds: float) -> None:
    pos = Position.initial()
    print(f"bgcore {__version__}\n")
    print(pos)
    moves = pos.legal_moves(dice)
    print(f"\n{dice[0]}-{dice[1]}: {len(moves)} legal moves")
    for m in moves:
        print("  ", m)
    n = results = 0
    start = time.perf_counter()
    while True:  # at least once: a rate of what was done, never of nothing
        for r in ROLLS:
            results += len(pos.legal_moves(r))
        n += len(ROLLS)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    print(
        f"\n{n / elapsed:,.0f} move generations/s ({results / elapsed:,.0f} positions/s) through "
        "Position.legal_moves: the opening position, all 21 rolls.\n"
        "A move generation: one position and roll, all its legal moves; positions: the distinct positions they "
        "lead to (bgcore bench gives both for the batch API, bench/movegen.py the native figure)."
    )


def run(args: argparse.Namespace) -> int:
    try:
        dice = read_dice([args.dice])
    except DiceError as exc:
        raise UsageError(f"--dice: {exc}") from None
    if not 0 <= args.seconds <= 60:
        raise UsageError(f"--seconds takes 0 to 60, not {args.seconds}")
    demo(dice, args.seconds)
    return 0
