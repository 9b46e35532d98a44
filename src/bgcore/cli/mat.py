"""``bgcore mat FILE``: read a Jellyfish .mat file as GNU Backgammon does, and print each game's result."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.table import Table

from .. import matfile
from ..errors import MatFileError
from ..game import End, Game
from ..position import Outcome
from .common import console, plural

__all__ = ["add_parser", "run"]

_KINDS = {Outcome.SINGLE: "single game", Outcome.GAMMON: "gammon", Outcome.BACKGAMMON: "backgammon"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "mat",
        help="read a .mat match file and print each game's result and the score",
        description="Read a Jellyfish .mat file (as GNU Backgammon, eXtreme Gammon and BGBlitz write them), "
        "replay every game, and print each game's result and the final score. What the file holds that the "
        "rules forbid (a resignation out of turn, odd points, a roll left unplayed, an illegal play, a match "
        "continued from elsewhere) is kept as GNU Backgammon's import keeps it and listed as a warning; with "
        "--strict it is an error naming the game, the move and the line.",
    )
    p.add_argument("file", metavar="FILE", help="the .mat file")
    p.add_argument("--strict", action="store_true", help="refuse what the rules forbid instead of warning")
    p.set_defaults(run=run)


def _result(game: Game, names: tuple[str, str]) -> tuple[str, str, str, str]:
    """(winner, points, cube, how) of a game, or what became of an unfinished one."""
    outcome = game.result
    if outcome is None:
        return "-", "-", str(game.cube), "not finished"
    kind = _KINDS[outcome.kind]
    how = {End.BORNE_OFF: kind, End.DROPPED: "double dropped", End.RESIGNED: f"resigned: {kind}"}[outcome.end]
    return names[outcome.winner], str(outcome.points), str(outcome.cube), how


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        mat = matfile.read(path, strict=args.strict)
    except OSError as exc:
        raise OSError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except MatFileError as exc:
        raise MatFileError(f"{args.file}: {exc}") from None
    match = mat.match
    names = (mat.names[0] or "player 0", mat.names[1] or "player 1")
    what = f"{match.length}-point match" if match.length else "money session"
    games = [g for g in match.games if g.history or g.result is not None]
    title = f"{path.name}: {what}, {names[0]} vs {names[1]}, {plural(len(games), 'game')}"
    table = Table()
    table.add_column("game", justify="right")
    table.add_column("score before", justify="center")
    table.add_column("winner")
    table.add_column("points", justify="right")
    table.add_column("cube", justify="right")
    table.add_column("how")
    for number, game in enumerate(games, 1):
        winner, points, cube, how = _result(game, names)
        crawford = " (Crawford)" if game.crawford else ""
        table.add_row(str(number), f"{game.score[0]}-{game.score[1]}{crawford}", winner, points, cube, how)
    out = console()
    out.print(title)
    out.print(table)
    for warning in mat.warnings:
        out.print(f"warning: {warning}", markup=False)
    s0, s1 = match.score
    if match.length:  # a match's last game may score past the length: the match ends at it
        s0, s1 = min(s0, match.length), min(s1, match.length)
    final = f"{names[0]} {s0}, {names[1]} {s1}"
    if match.winner is not None:
        out.print(f"Final score: {final}: {names[match.winner]} wins the match.")
    elif match.length:
        out.print(f"Score: {final}: the match is not over.")
    else:
        out.print(f"Session score: {final}.")
    return 0
