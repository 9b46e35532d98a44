#!/usr/bin/env python3
"""Fuzz harness: XGIDs (``bgcore.ids.XGID.parse``, ``Position.from_xgid``,
``Game.from_xgid``).

A parsed XGID must format to text that parses to the same fields; a game read
from one must write an XGID that reads back as the same game.
"""

from __future__ import annotations

import fuzzlib

from bgcore import Game, Position
from bgcore.ids import XGID


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the XGID's text."""
    text = fuzzlib.text_of(data)
    xgid = fuzzlib.attempt(XGID.parse, text)
    if isinstance(xgid, XGID) and XGID.parse(xgid.format()) != xgid:
        raise fuzzlib.Finding(f"{text!r} parses to {xgid!r}, whose text {xgid.format()!r} parses differently")
    position = fuzzlib.attempt(Position.from_xgid, text)
    if isinstance(position, Position):
        fuzzlib.check_position(position)
    game = fuzzlib.attempt(Game.from_xgid, text)
    if isinstance(game, Game):
        written = game.xgid()
        if Game.from_xgid(written).xgid() != written:
            raise fuzzlib.Finding(f"{text!r} reads as a game whose XGID {written!r} does not read back")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
