"""``bgcore show ID [--svg FILE]``: the board as text (and as a picture), with the cube,
score and dice of an XGID or a gnubg ID."""

from __future__ import annotations

import argparse

from ..game import Game
from .common import add_position_argument
from .inputs import read_position

__all__ = ["add_parser", "run", "game_lines"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "show",
        help="draw a position (and the cube, score and dice of an XGID or gnubg ID)",
        description="Draw a position as text, the player on roll (X) at the bottom, moving from 24 to 1. "
        "For an XGID or a gnubg ID, also the dice, the cube and the score.",
    )
    add_position_argument(p)
    p.add_argument("--svg", metavar="FILE", help="also write the board as an SVG picture to FILE")
    p.set_defaults(run=run)


def game_lines(game: Game) -> list[str]:
    """The dice, cube and score of ``game``, X being the player on roll."""
    x = game.on_roll
    name = {x: "X", 1 - x: "O"}
    lines = []
    if game.beavered:  # O beavered X's double: X answers, the cube already O's at twice its value
        lines.append(f"O beavers (the cube at {game.cube}): X to take, the cube to {2 * game.cube}, or drop")
    elif game.doubled:
        lines.append(f"X doubles to {2 * game.cube}: O to take or drop")
    elif game.resigned is not None:
        lines.append(
            f"{name[1 - game.turn]} offers to resign ({game.resigned.name.lower()}): "
            f"{name[game.turn]} to accept or reject"
        )
    elif game.dice is not None:
        lines.append(f"X to play {game.dice[0]}-{game.dice[1]}")
    else:
        lines.append("X to roll")
    if not game.cube_enabled:
        lines.append("No cube")
    elif game.cube_owner is None:
        lines.append(f"Cube: {game.cube}, centred")
    else:
        lines.append(f"Cube: {game.cube}, owned by {name[game.cube_owner]}")
    score = f"X {game.score[x]}, O {game.score[1 - x]}"
    if game.match_length:
        extra = " (Crawford game)" if game.crawford else ""
        lines.append(f"Score: {score} in a {game.match_length}-point match{extra}")
    else:
        rules = [r for r, on in (("Jacoby rule", game.jacoby), ("beavers", game.beavers)) if on]
        extra = f" ({', '.join(rules)})" if rules else ""
        lines.append(f"Money game{extra}" + (f", session score {score}" if any(game.score) else ""))
    return lines


def run(args: argparse.Namespace) -> int:
    spec = read_position(args.position)
    if args.svg:
        from .. import svg

        picture = svg.board(spec.game if spec.game is not None else spec.position)
        with open(args.svg, "w", encoding="utf-8") as f:  # main() reports an OSError
            f.write(picture)
    print(spec.position)
    if spec.game is not None:
        for line in game_lines(spec.game):
            print(line)
        print(f"gnubg ID: {spec.game.gnubg_id()}")
        if not spec.game.beavered:  # an XGID holds no pending beaver
            print(spec.game.xgid())
    else:
        print(spec.position.xgid())
    if args.svg:
        print(f"SVG written to {args.svg}")
    return 0
