"""``bgcore demo``: the opening position, a roll's legal moves and a speed figure."""

from __future__ import annotations

import argparse
import time

from .. import __version__
from ..position import Position
from .common import UsageError
from .inputs import DiceError, read_dice

__all__ = ["add_parser", "run", "demo"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo",
        help="show the opening, a roll's legal moves and a speed figure",
        description="Show the opening position, the legal moves of a roll and how many move generations "
        "per second Position.legal_moves makes here.",
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


def run(args: argparse.Namespace) -> int:
    try:
        dice = read_dice([args.dice])
    except DiceError as exc:
        raise UsageError(f"--dice: {exc}") from None
    if not 0 <= args.seconds <= 60:
        raise UsageError(f"--seconds takes 0 to 60, not {args.seconds}")
    demo(dice, args.seconds)
    return 0
