"""``bgcore convert ID``: a position as a Position ID, an XGID, a gnubg ID and the 26-count array."""

from __future__ import annotations

import argparse

from ..ids import MatchId, gnubg_id
from .common import add_position_argument
from .inputs import PositionSpec, read_position

__all__ = ["add_parser", "run", "FORMS"]

#: The forms ``--to`` writes, in the order ``convert`` prints them without it.
FORMS = ("id", "xgid", "gnubg", "array")
_LABELS = {"id": "Position ID", "gnubg": "gnubg ID", "array": "array"}  # an XGID says XGID= itself


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a position between Position ID, XGID, gnubg ID and the 26-count array",
        description="Write a position in another form. id: GNU Backgammon's Position ID (the board only); "
        "xgid: an XGID (an XGID or gnubg ID keeps its cube, score and dice; a board alone gets a neutral cube "
        "and score, the player on roll at the bottom); gnubg: PositionID:MatchID (a board alone gets gnubg's "
        "default Match ID: money game, player 0 on roll, before the roll); array: the 26 counts, comma-separated "
        "(slot 0 the opponent's bar, 1-24 the points of the player on roll, 25 their bar). "
        "Without --to, every form, one a line. An argument that starts with '-' is read as a position when it "
        "looks like one (an XGID without its prefix, an array).",
    )
    add_position_argument(p)
    p.add_argument("--to", choices=FORMS, help="the one form to write (default: all four, labelled)")
    p.set_defaults(run=run)


def convert(spec: PositionSpec, form: str) -> str:
    """``spec``'s position written as ``form`` (one of :data:`FORMS`)."""
    position, game = spec.position, spec.game
    if form == "id":
        return position.position_id()
    if form == "xgid":
        return game.xgid() if game is not None else position.xgid()
    if form == "gnubg":
        return game.gnubg_id() if game is not None else gnubg_id(position.position_id(), MatchId())
    return ",".join(str(v) for v in position.board)


def run(args: argparse.Namespace) -> int:
    spec = read_position(args.position)
    if args.to is not None:
        print(convert(spec, args.to))
        return 0
    for form in FORMS:
        text = convert(spec, form)
        print(text if form == "xgid" else f"{_LABELS[form]}: {text}")
    return 0
