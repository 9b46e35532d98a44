"""``bgcore train --hidden 80 --games 200000 --out net.npz``: a player trained
from zero by TD(λ) self-play (:func:`bgcore.train.train`).

The network goes to ``--out`` (a ``.npz`` file that ``bgcore play --policy``
and ``bgcore rollout --policy`` read), the best one by the duels against
pubeval to its ``-best.npz`` sibling, the run's state to its ``.json``
sibling (``--resume`` continues from it).
"""

from __future__ import annotations

import argparse
import sys

from ..nn import ACTIVATIONS, ENCODINGS, OUTPUTS
from ..train import train
from .common import UsageError, console, plural

__all__ = ["add_parser", "run", "parse_schedule"]


def parse_schedule(text: str) -> list[tuple[int, float]]:
    """``--lr``'s value: ``0.1`` (a constant) or ``0.1,100000:0.02`` (0.1,
    then 0.02 from game 100,000 on).

    >>> parse_schedule("0.1,100000:0.02")
    [(0, 0.1), (100000, 0.02)]
    """
    steps: list[tuple[int, float]] = []
    try:
        for i, part in enumerate(text.split(",")):
            games, _, rate = part.rpartition(":")
            if (i == 0) != (games == ""):
                raise ValueError
            steps.append((int(games or 0), float(rate)))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a learning rate or a schedule like 0.1,100000:0.02"
        ) from None
    return steps


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "train",
        help="train a network from zero by self-play TD(lambda) learning",
        description="Train a network by TD(lambda) self-play: games played in C by the network itself, its "
        "gradient steps in C. Every --eval-every games it plays a duplicate duel against pubeval and the run is "
        "checkpointed: OUT (the latest network), OUT's -best.npz sibling (the best by the duels) and its .json "
        "sibling (the run's state, for --resume). The same seed and options give the same network on any "
        "number of threads.",
    )
    p.add_argument("--out", required=True, metavar="OUT", help="the network's .npz file")
    p.add_argument("--games", type=int, default=200_000, help="training games in all (default 200000)")
    p.add_argument("--hidden", type=int, nargs="+", default=[80], help="hidden units, one number a layer (default 80)")
    p.add_argument("--encoding", choices=tuple(ENCODINGS), default="tesauro198", help="inputs (default tesauro198)")
    p.add_argument("--output", choices=tuple(OUTPUTS), default="sigmoid", help="outputs (default sigmoid: five)")
    p.add_argument("--activation", choices=ACTIVATIONS, default="sigmoid", help="hidden layers' (default sigmoid)")
    p.add_argument("--lambda", dest="lam", type=float, default=0.0, help="TD's lambda, 0 to 1 (default 0)")
    p.add_argument(
        "--lr",
        type=parse_schedule,
        default=[(0, 0.1)],
        help="the step per position, or a schedule: 0.1,100000:0.02 is 0.1 then 0.02 from game 100000 (default 0.1)",
    )
    p.add_argument("--batch", type=int, default=16, help="positions per gradient step (default 16)")
    p.add_argument("--round", type=int, default=512, help="games played between rounds of steps (default 512)")
    p.add_argument("--threads", type=int, default=1, help="native threads, 1 to 64 (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the weights and the dice (default 0)")
    p.add_argument("--eval-every", type=int, default=10_000, help="games between duels with pubeval (0: none)")
    p.add_argument("--eval-games", type=int, default=2000, help="games of each duel (default 2000)")
    p.add_argument(
        "--overlap",
        action="store_true",
        help="play each round while the previous round's steps run (faster on 2 threads or more; other weights)",
    )
    p.add_argument("--resume", action="store_true", help="continue the run OUT's files describe")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads takes 1 to 64, not {args.threads}")
    if args.games < 0:
        raise UsageError(f"--games takes a number >= 0, not {args.games}")
    progress = not args.no_progress and sys.stderr.isatty()
    result = train(
        args.games,
        hidden=args.hidden,
        encoding=args.encoding,
        output=args.output,
        activation=args.activation,
        lam=args.lam,
        lr=args.lr,
        batch=args.batch,
        round_games=args.round,
        threads=args.threads,
        seed=args.seed,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        out=args.out,
        resume=args.resume,
        overlap=args.overlap,
        progress=progress,
    )
    out = console()
    rate = (result.games - result.resumed_at) / result.seconds if result.seconds > 0 else 0.0
    out.print(
        f"trained {result.network!r}: {plural(result.games, 'game')}, {result.seconds:.1f} s this run "
        f"({rate:,.0f} games/s on {plural(args.threads, 'thread')}), saved to {args.out}"
    )
    for e in result.history:
        out.print(
            f"  after {e.games:>9,} games  vs pubeval {e.points:+.3f} ± {e.stderr:.3f} ppg "
            f"(95%: {e.low:+.3f} to {e.high:+.3f}, {e.duel_games:,} games)  {e.seconds:7.1f} s"
        )
    return 0
