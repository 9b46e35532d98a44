"""``bgcore rollout ID``: a position's outcome probabilities and equity, with standard errors."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable

from rich.table import Table

from ..rollouts import MAX_GAMES, CubefulRolloutResult, RolloutResult, interval95, rollout
from .common import UsageError, add_position_argument, console, plural
from .inputs import load_policy, policy_argument, policy_label, read_position

__all__ = ["add_parser", "run", "result_table", "cube_table", "PROGRESS_GAMES"]

#: Rollouts of more games than this show a progress bar (on stderr, when it is a terminal).
PROGRESS_GAMES = 20_000

_OUTCOMES = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rollout",
        help="roll a position out: outcome probabilities and equity with standard errors",
        description="Play the position out GAMES times (cubeless, both sides with POLICY, from the player on "
        "roll before the roll) and print the estimated probabilities of the player on roll, the cubeless money "
        "equity and, for an XGID or gnubg ID at a match score, the match winning chance, each with its standard "
        f"error. The first two rolls are stratified. A rollout of more than {PROGRESS_GAMES:,} games shows a "
        "progress bar on stderr when it is a terminal. With --cube, roll out the cube decision of the player on "
        "roll instead: no double and double/take on the same dice (the cube, score, Jacoby rule and beavers of "
        "an XGID or gnubg ID; a Position ID is a money game with the cube centred), both sides doubling and "
        "answering by gnubg's 0-ply cube theory on the policy's probabilities.",
    )
    add_position_argument(p)
    p.add_argument("--games", type=int, default=1296, help="games to play (default 1296)")
    p.add_argument(
        "--policy",
        type=policy_argument,
        default=None,
        metavar="POLICY",
        help="the policy of both sides: random, pubeval (the default), race, wildbg (wildbg's networks, one ply "
        "deep; the default with --cube) or a network's .npz file (bgcore.nn.Network.save)",
    )
    p.add_argument(
        "--cube",
        action="store_true",
        help="roll out the cube decision: no double, double/take and double/pass, the double/take gain (double/take "
        "minus no double) with their standard errors, and the proper cube action (the policy must be a network: "
        "wildbg or a .npz file)",
    )
    p.add_argument("--threads", type=int, default=1, help="native threads, 1 to 64 (default 1)")
    p.add_argument("--seed", type=int, default=0, help="the dice's seed (default 0): the same seed, the same result")
    p.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    p.set_defaults(run=run)


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.2f}%"


def _num(value: float | None, sign: str = "") -> str:
    return "-" if value is None or math.isnan(value) else f"{value:{sign}.4f}"


def result_table(result: RolloutResult) -> Table:
    """The estimates and standard errors of ``result`` as a rich table."""
    table = Table()
    table.add_column("outcome (player on roll)")
    table.add_column("estimate", justify="right")
    table.add_column("std. error", justify="right")
    for name, p, e in zip(_OUTCOMES, result.probabilities, result.stderr, strict=True):
        table.add_row(name, _pct(p), _pct(e))
    table.add_row("cubeless equity (money)", _num(result.equity, "+"), _num(result.equity_stderr))
    if result.mwc is not None:
        table.add_row("match winning chance", _pct(result.mwc), _pct(result.mwc_stderr or math.nan))
    return table


def cube_table(result: CubefulRolloutResult) -> Table:
    """The three values of a cubeful rollout and the double/take gain (double/take minus no double, with the
    error of a difference on the same dice), with standard errors and 95% intervals, as a rich table."""
    table = Table()
    table.add_column("cube action")
    table.add_column("match winning chance" if result.mwc else "equity (per cube)", justify="right")
    table.add_column("std. error", justify="right")
    table.add_column("95% interval", justify="right")

    def show(value: float) -> str:
        return _pct(value) if result.mwc else _num(value, "+")

    table.add_row("no double", *_estimate(result.no_double, result.no_double_stderr, show))
    if result.double_take is not None and result.double_pass is not None:
        table.add_row("double/take", *_estimate(result.double_take, result.double_take_stderr, show))
        table.add_row("double/pass", show(result.double_pass), "-", "-")
        # both branches roll the same dice: their difference is far surer than either value
        gain = result.double_take - result.no_double
        table.add_row("double/take gain", *_estimate(gain, result.take_gain_stderr, show))
    return table


def _estimate(value: float, stderr: float | None, show: Callable[[float], str]) -> tuple[str, str, str]:
    lo, hi = interval95(value, stderr or 0.0)
    return show(value), show(stderr or 0.0).lstrip("+"), f"{show(lo)} to {show(hi)}"


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games takes 1 to 2**63 - 1, not {args.games}")
    if not 1 <= args.threads <= 64:
        raise UsageError(f"--threads takes 1 to 64, not {args.threads}")
    if not 0 <= args.seed < 2**64:
        raise UsageError(f"--seed takes 0 to 2**64 - 1, not {args.seed}")
    spec = read_position(args.position)
    start = spec.game if spec.game is not None and (spec.game.match_length or args.cube) else spec.position
    if spec.game is not None and (spec.game.dice is not None or spec.game.doubled or spec.game.resigned):
        raise ValueError(
            f"the {spec.kind} is past the start of the turn (dice rolled, or an offer awaiting an answer): "
            "a rollout starts before the roll"
        )
    progress = not args.no_progress and args.games > PROGRESS_GAMES and sys.stderr.isatty()
    began = time.perf_counter()
    name = args.policy or ("wildbg" if args.cube else "pubeval")
    policy = load_policy(name)
    options = dict(games=args.games, policy=policy, seed=args.seed, threads=args.threads, progress=progress)
    result = rollout(start, cube=True, **options) if args.cube else rollout(start, **options)
    seconds = time.perf_counter() - began
    rate = f" ({result.games / seconds:,.0f} games/s)" if seconds > 0 else ""
    kind = "Cubeful rollout" if args.cube else "Rollout"
    title = (
        f"{kind} of {spec.position.position_id()}, {policy_label(name)} for both sides, seed {args.seed}\n"
        f"{plural(result.games, 'game')} on {plural(args.threads, 'thread')} in {seconds:.2f} s{rate}"
    )
    out = console()
    out.print(title)
    if isinstance(result, CubefulRolloutResult):
        out.print(cube_table(result))
        out.print(f"Proper cube action: {result.action.text}")
    else:
        out.print(result_table(result))
    return 0
