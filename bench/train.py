"""Training by self-play TD(0) (``bgcore.train``): its speed on 1 and 2
threads and in two processes, and the strength a 2-thread run reaches from
zero in a time budget, with its learning curve.

Run from the repository root::

    python bench/train.py [--minutes 30] [--rounds 3] [--speed-games 20000] [--out DIR]

Speed: a 198-80-5 network (TD-Gammon's inputs, sigmoid units) is first
trained for ``--warm`` games (so that its games have the length of real
ones), then trains ``--speed-games`` more from there, timed on one thread,
on two, and in one worker process alone against two at once (each process
one thread, nothing shared: the machine's own scaling); on two threads
also with ``overlap=True`` (each round played while the previous one's
steps run).  The rounds are
interleaved; the figures are medians.  Target (bgcore issue 30): 2 threads
over 1 at least 0.9 of two processes over one.

Strength: a 198-80-5 network trained from zero on 2 threads for
``--minutes`` of wall time (``bgcore.train.train(..., seconds=...)``),
duels of ``--eval-games`` games against pubeval every ``--eval-every``
games, then the trained network and the best one in duels of
``--final-games`` duplicate games against pubeval.  Targets: at least
+0.35 points per game after 30 minutes (goal +0.45).  ``DIR`` gets the
networks (``td.npz``, ``td-best.npz``, ``td.json``) and ``curve.json``
(the learning curve, which ``tools/plot_train.py`` draws); the command
that trains the same network again (the games reached, the seed) is
printed at the end.
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from bgcore.nn import Network
from bgcore.selfplay import duel
from bgcore.train import train
from processes import WorkerProcesses
from timing import machine_line

SEED = 30
LR = [(0, 0.1), (1_000_000, 0.05), (2_500_000, 0.02)]


def _timed(path: str, games: int, seed: int, threads: int, overlap: bool = False) -> float:
    """Seconds to train the network in ``path`` for ``games`` more games."""
    began = time.perf_counter()
    train(games, network=Network.load(path), seed=seed, threads=threads, overlap=overlap)
    return time.perf_counter() - began


def speed(args: argparse.Namespace, work: Path) -> dict[str, float]:
    start = work / "warm.npz"
    train(args.warm, hidden=80, seed=SEED, threads=2).network.save(start)
    times: dict[str, list[float]] = {
        "1 thread": [],
        "2 threads": [],
        "2, overlap": [],
        "1 process": [],
        "2 processes": [],
    }
    with WorkerProcesses(_timed, (str(start), args.speed_games)) as workers:
        for r in range(args.rounds):
            times["1 thread"].append(_timed(str(start), args.speed_games, r, 1))
            times["2 threads"].append(_timed(str(start), args.speed_games, r, 2))
            times["2, overlap"].append(_timed(str(start), args.speed_games, r, 2, True))
            times["1 process"].append(max(workers.run(1, r, 1)))
            times["2 processes"].append(max(workers.run(2, r, 1)))
    rates = {k: (2 if k == "2 processes" else 1) * args.speed_games / statistics.median(v) for k, v in times.items()}
    for k, v in rates.items():
        print(f"  {k:<12} {v:8,.0f} games/s")
    processes = rates["2 processes"] / rates["1 process"]
    for name in ("2 threads", "2, overlap"):
        threads = rates[name] / rates["1 thread"]
        ok = "met" if threads >= 0.9 * processes else "NOT met"
        print(
            f"  {name} / 1 thread: {threads:.2f}x, 2 processes / 1: {processes:.2f}x ({threads / processes:.2f}: {ok})"
        )
    return rates


def strength(args: argparse.Namespace, work: Path) -> dict[str, object]:
    out = work / "td.npz"
    result = train(
        10**12,
        hidden=80,
        lr=LR,
        seed=SEED,
        threads=2,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        out=out,
        seconds=60 * args.minutes,
        progress=args.progress,
    )
    print(f"  {result.games:,} games in {result.seconds:.0f} s ({result.games / result.seconds:,.0f} games/s)")
    for e in result.history:
        print(f"  {e.games:>10,} games {e.seconds:7.0f} s  {e.points:+.3f} ({e.low:+.3f} to {e.high:+.3f})")
    finals = {}
    for name, net in (("trained", result.network), ("best", result.best)):
        d = duel(net, "pubeval", games=args.final_games, seed=SEED, threads=2)
        finals[name] = (d.points, d.stderr)
        print(f"  {name} vs pubeval over {args.final_games:,} duplicate games: {d.points:+.3f} ± {d.stderr:.3f}")
    lr = ",".join(f"{g}:{r}" if g else f"{r}" for g, r in LR)
    command = f"bgcore train --hidden 80 --games {result.games} --lr {lr} --seed {SEED} --threads 2 --out td.npz"
    print(f"  the same network again: {command}")
    points = finals["trained"][0]
    target, goal = ("met" if points >= 0.35 else "NOT met"), ("met" if points >= 0.45 else "not met")
    print(f"  target +0.35: {target}; goal +0.45: {goal}")
    curve = {
        "command": command,
        "minutes": args.minutes,
        "games": result.games,
        "seconds": result.seconds,
        "history": [e.__dict__ for e in result.history],
        "final": {k: {"points": p, "stderr": s, "games": args.final_games} for k, (p, s) in finals.items()},
    }
    (work / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="the strength run's wall time (0: none)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (0: no timing)")
    parser.add_argument("--warm", type=int, default=30_000, help="games before timing")
    parser.add_argument("--speed-games", type=int, default=20_000, help="games timed a round")
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--final-games", type=int, default=10_000)
    parser.add_argument("--progress", action="store_true", help="the progress bar on stderr")
    parser.add_argument("--out", default="bench-train", help="where the networks and the curve go")
    args = parser.parse_args()
    work = Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    print(machine_line())
    print(f"load average {os.getloadavg()}")
    if args.rounds:
        print(
            f"speed: 198-80-5, TD(0), {args.speed_games:,} games a round after {args.warm:,}, medians of "
            f"{args.rounds} rounds"
        )
        speed(args, work)
    if args.minutes:
        print(f"strength: 198-80-5 from zero, 2 threads, {args.minutes:g} minutes, lr {LR}, seed {SEED}")
        strength(args, work)
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
