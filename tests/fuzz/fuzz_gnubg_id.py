#!/usr/bin/env python3
"""Fuzz harness: gnubg IDs ``PositionID:MatchID`` (``bgcore.ids.parse_gnubg_id``,
``bgcore.Game.from_ids``).

A game read from an ID must write an ID (gnubg's and an XGID) that reads back
as the same game.
"""

from __future__ import annotations

import fuzzlib

from bgcore import Game, Position
from bgcore.ids import parse_gnubg_id


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the ID's text."""
    text = fuzzlib.text_of(data)
    parsed = fuzzlib.attempt(parse_gnubg_id, text)
    if not isinstance(parsed, tuple):
        return
    board, _state = parsed
    position = fuzzlib.attempt(Position, board)  # the ID decodes; the board may still break the rules
    if isinstance(position, Position):
        fuzzlib.check_position(position)
    game = fuzzlib.attempt(Game.from_ids, text)
    if not isinstance(game, Game):
        return
    gnubg = game.gnubg_id()
    if Game.from_ids(gnubg).gnubg_id() != gnubg:
        raise fuzzlib.Finding(f"{text!r} reads as a game whose gnubg ID {gnubg!r} does not read back")
    xgid = fuzzlib.attempt(game.xgid)  # an XGID cannot hold every state (a resignation, say)
    if isinstance(xgid, str) and Game.from_xgid(xgid).xgid() != xgid:
        raise fuzzlib.Finding(f"{text!r} reads as a game whose XGID {xgid!r} does not read back")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
