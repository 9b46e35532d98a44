"""``bgcore moves ID DICE``: every legal play of a roll, or ranked by a policy."""

from __future__ import annotations

import argparse

from rich.table import Table

from .common import UsageError, add_position_argument, console, plural
from .inputs import (
    DiceError,
    load_policy,
    policy_argument,
    policy_label,
    rank_moves,
    read_dice,
    read_position,
    score_label,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "moves",
        help="list the legal plays of a roll in gnubg notation, optionally ranked by a policy",
        description="List every legal play of DICE (one per distinct result) in GNU Backgammon's notation. "
        "With --policy, best first with the policy's score of the result (an evaluator's: the mover's cubeless "
        "equity after the play).",
    )
    add_position_argument(p)
    p.add_argument(
        "dice",
        metavar="DICE",
        nargs="*",
        help="the roll: 31, 3-1 or 3 1 (optional when the XGID or gnubg ID has dice rolled)",
    )
    p.add_argument(
        "--policy",
        type=policy_argument,
        metavar="POLICY",
        help="rank the plays: pubeval (Tesauro's evaluator), race (the race score), random (a shuffle), "
        "wildbg (wildbg's networks) or a network's .npz file (bgcore.nn.Network.save)",
    )
    p.add_argument("--seed", type=int, default=0, help="the shuffle's seed for --policy random (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    spec = read_position(args.position)
    if args.dice:
        try:
            dice = read_dice(args.dice)
        except DiceError as exc:
            raise UsageError(str(exc)) from None
    elif spec.game is not None and spec.game.dice is not None:
        dice = spec.game.dice
    else:
        raise UsageError("DICE is missing (the position has no dice rolled): give them as 31, 3-1 or 3 1")
    hi, lo = max(dice), min(dice)
    if spec.position.is_game_over():
        print(f"{hi}-{lo}: the game is over, there is nothing to play")
        return 0
    if args.policy is None:
        moves = spec.position.legal_moves(dice)
        plays = [str(m) for m in moves]
        if plays == [""]:
            print(f"{hi}-{lo}: no legal play, the turn is lost")
            return 0
        print(f"{hi}-{lo}: {plural(len(plays), 'legal play')}")
        for play in plays:
            print(play)
        return 0
    policy = load_policy(args.policy)
    ranked = rank_moves(spec.position, dice, policy, seed=args.seed)
    if len(ranked) == 1 and not ranked[0][0]:
        print(f"{hi}-{lo}: no legal play, the turn is lost")
        return 0
    if args.policy == "random":
        title = f"{hi}-{lo}: {plural(len(ranked), 'legal play')} in a random order (seed {args.seed})"
    else:
        title = f"{hi}-{lo}: {plural(len(ranked), 'legal play')}, best first by {policy_label(args.policy)}"
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("play")
    if args.policy != "random":
        table.add_column(score_label(policy, policy_label(args.policy)), justify="right")
    for i, (move, score) in enumerate(ranked, 1):
        row = [str(i), str(move)]
        if score is not None:
            row.append(f"{score:.3f}")
        table.add_row(*row)
    out = console()
    out.print(title)
    out.print(table)
    return 0
