"""``bgcore moves ID DICE``: every legal play of a roll, or ranked by a policy;
with ``--rank``, each with the mover's chances and cubeless equity by a network."""

from __future__ import annotations

import argparse

from rich.table import Table

from ..policy import NETWORKS
from ..position import Position
from .common import UsageError, add_position_argument, console, plural
from .inputs import (
    POLICY_NAMES,
    DiceError,
    load_policy,
    policy_argument,
    policy_label,
    rank_moves,
    rank_plays,
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
        "equity after the play). With --rank, each play with the five chances of the player who makes it, after "
        "it (win, win gammon, win backgammon, lose gammon, lose backgammon) and the cubeless equity, by a network "
        "(wildbg unless --policy names a .npz file): GNU Backgammon's hint, cubeless.",
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
    p.add_argument(
        "--rank",
        action="store_true",
        help="each play's chances after it and its cubeless equity by a network, best first "
        "(--policy wildbg, the default, or a network's .npz file)",
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
    if args.rank and args.policy in POLICY_NAMES and args.policy not in NETWORKS:
        raise UsageError(f"--rank needs a network: --policy wildbg or a network's .npz file, not {args.policy!r}")
    if spec.position.is_game_over():
        print(f"{hi}-{lo}: the game is over, there is nothing to play")
        return 0
    if args.policy is None and not args.rank:
        moves = spec.position.legal_moves(dice)
        plays = [str(m) for m in moves]
        if plays == [""]:
            print(f"{hi}-{lo}: no legal play, the turn is lost")
            return 0
        print(f"{hi}-{lo}: {plural(len(plays), 'legal play')}")
        for play in plays:
            print(play)
        return 0
    if args.rank:
        return _print_ranked_plays(spec.position, dice, args.policy or "wildbg")
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


#: The headings of the mover's five chances after a play, in bgcore's order.
CHANCES = ("win", "w g", "w bg", "l g", "l bg")
#: What the headings of ``--rank`` mean, printed under its table.
RANK_NOTE = (
    "After each play, the mover's chances: win; w g, w bg: win a gammon, a backgammon;\n"
    "l g, l bg: lose a gammon, a backgammon (gammons count backgammons); equity: cubeless"
)


def _print_ranked_plays(position: Position, dice: tuple[int, int], policy: str) -> int:
    """``--rank``: the plays with the mover's chances and equity after each, best first."""
    hi, lo = max(dice), min(dice)
    plays = rank_plays(position, dice, load_policy(policy))
    if len(plays) == 1 and not plays[0].move:
        print(f"{hi}-{lo}: no legal play, the turn is lost")
        return 0
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("play")
    for heading in CHANCES:
        table.add_column(heading, justify="right")
    table.add_column("equity", justify="right")
    for i, play in enumerate(plays, 1):
        table.add_row(str(i), str(play.move), *(f"{p:.3f}" for p in play.chances), f"{play.equity:+.3f}")
    print(f"{hi}-{lo}: {plural(len(plays), 'legal play')}, best first by {policy_label(policy)}")
    console().print(table)
    print(RANK_NOTE)
    return 0
