"""The cube, measured in one run: a cube-handling player against the same
evaluator without a cube, in money play and in 7-point matches, and the
speed of cubeful rollouts against cubeless ones.

Run from the repository root::

    python bench/cube.py [--games 10000] [--matches 1000] [--threads 1] [--evaluator wildbg|td]

Both sides move by the same evaluator (``bgcore.nets.wildbg()``, native, by
default).  The cube-handling side, ``Player(evaluator)``, doubles and answers
by gnubg's 0-ply cube theory on that evaluator's probabilities; the other
side, ``Player(evaluator, cube="none")``, never doubles and always takes.

- money play: ``selfplay.duel(..., cube=True)``, games from the initial
  position with the cube centred (no Jacoby rule, no beavers), on duplicate
  dice (pairs of games on the same dice with the seats swapped): points per
  game for the cube-handling side, with the standard error over the pairs;
- matches: ``selfplay.duel_matches`` of 7-point matches (Crawford rule), on
  duplicate dice too: the share of matches the cube-handling side wins;
- rollout speed: ``rollout(start, cube=True)`` (no double and double/take on
  the same dice) against ``rollout(start)`` of the same games, same
  evaluator, same threads, from a money position near the doubling point
  and from the initial position; in each round the two rollouts of a start
  run back to back (in turn first), and the ratio is the median of the
  rounds' own ratios of seconds (the games/s columns are each workload's
  median, which a busy machine's slow spells can move apart).

``--evaluator td`` swaps wildbg for a 198-80-5 network with random weights
(bench/nn.py's ``small_layers``), several times cheaper: a quick run of the
machinery and of the rollout timings only, as its cube figures measure an
untrained net (pubeval gives no probabilities, so no cube decisions).  The
targets of bgcore issue 29 are checked at the end, from this run.
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

from bgcore import Game, Position, rollout
from bgcore.ids import MatchId
from bgcore.rollouts import interval95
from bgcore.selfplay import Player, duel, duel_matches
from rollout import Games
from timing import machine_line

__all__ = ["main", "evaluator", "STARTS"]

SEED = 29
#: The rollouts' starts: a money game near the doubling point (docs/guides/cube.md's), and the opening.
STARTS = {
    "LR7hAQOMrw+CAA, money, cube centred": "LR7hAQOMrw+CAA",
    "initial position, money, cube centred": Position.initial().position_id(),
}


def evaluator(name: str) -> Any:
    """The evaluator of both sides by name: ``wildbg`` (native) or ``td`` (198-80-5, random weights)."""
    from rollout_nn import policy

    return policy(name)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="money games (default 10,000)")
    parser.add_argument("--matches", type=int, default=1000, help="7-point matches (default 1,000)")
    parser.add_argument("--length", type=int, default=7, help="the matches' length (default 7)")
    parser.add_argument("--rollout-games", type=int, default=1296, help="games of each timed rollout (default 1296)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved timing rounds (default 9)")
    parser.add_argument("--threads", type=int, default=1, help="native threads of every part (default 1)")
    parser.add_argument("--evaluator", choices=("wildbg", "td"), default="wildbg", help="both sides' evaluator")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the dice's seed (default {SEED})")
    args = parser.parse_args(argv)
    if min(args.games, args.matches, args.length, args.rollout_games, args.rounds, args.threads) < 1:
        parser.error("the counts must be at least 1")
    return args


def _cell(value: float, stderr: float, fmt: str) -> tuple[str, str]:
    lo, hi = interval95(value, stderr)
    return f"{value:{fmt}} ± {stderr:{fmt.lstrip('+')}}", f"{lo:{fmt}} to {hi:{fmt}}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    net = evaluator(args.evaluator)
    cubeful, cubeless = Player(net), Player(net, cube="none")
    print(machine_line())
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{args.evaluator} for both sides, {args.threads} thread(s), seed {args.seed}\n")

    began = time.perf_counter()
    money = duel(cubeful, cubeless, games=args.games, seed=args.seed, cube=True, threads=args.threads)
    money_seconds = time.perf_counter() - began
    began = time.perf_counter()
    matches = duel_matches(cubeful, cubeless, args.matches, args.length, args.seed, threads=args.threads)
    match_seconds = time.perf_counter() - began

    workloads: list[tuple[Games, Games]] = []
    for name, position_id in STARTS.items():
        start = Game.from_ids(position_id, MatchId().encode())
        options = dict(games=args.rollout_games, policy=net, seed=args.seed, threads=args.threads)
        workloads.append(
            (
                Games(f"{name}, cubeful", args.rollout_games, lambda s=start, o=options: rollout(s, cube=True, **o)),
                Games(f"{name}, cubeless", args.rollout_games, lambda s=start, o=options: rollout(s.position, **o)),
            )
        )
    timed = [w for pair in workloads for w in pair]
    for w in timed:  # warm-up, untimed; also the checksums (the engine is deterministic for a seed)
        w.measure()
        w.seconds.clear()
    for r in range(args.rounds):  # a ratio's two rollouts run back to back, in turn first
        for with_cube, without in workloads[r % len(workloads) :] + workloads[: r % len(workloads)]:
            for w in (with_cube, without) if r % 2 else (without, with_cube):
                w.measure()

    side = f"{args.evaluator} with the cube"
    points, points_interval = _cell(money.points, money.stderr, "+.3f")
    share, share_interval = _cell(100 * matches.share, 100 * matches.share_stderr, ".1f")
    print(f"{side} against {args.evaluator} that never doubles and always takes (duplicate dice)\n")
    print("| measure | games | result ± s.e. | 95% interval | target | seconds |\n|---|---|---|---|---|---|")
    print(
        f"| money play, points per game | {money.games:,} | {points} | {points_interval} | ≥ +0.2 "
        f"| {money_seconds:.1f} |"
    )
    print(
        f"| {args.length}-point matches won, % | {matches.matches:,} matches, {matches.games:,} games | {share} "
        f"| {share_interval} | ≥ 60 | {match_seconds:.1f} |"
    )
    print(f"\ncubeful against cubeless rollouts, medians of {args.rounds} interleaved rounds\n")
    print("| start | games | cubeless games/s | cubeful games/s | cubeful time / cubeless | target |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for name, (with_cube, without) in zip(STARTS, workloads, strict=True):
        ratio = statistics.median(tc / tl for tc, tl in zip(with_cube.seconds, without.seconds, strict=True))
        ratios.append(ratio)
        print(
            f"| {name} | {args.rollout_games:,} | {without.rate:,.0f} | {with_cube.rate:,.0f} | {ratio:.2f}x | ≤ 1.3x |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    targets = [
        ("money play, points per game", f"{money.points:+.3f}", money.points >= 0.2),
        (f"{args.length}-point matches won", f"{matches.share:.1%}", matches.share >= 0.6),
        ("cubeful / cubeless rollout time (worst start)", f"{max(ratios):.2f}x", max(ratios) <= 1.3),
    ]
    print("\ntargets (this run):")
    for name, got, ok in targets:
        print(f"  {name:<48}{got:>8}: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
