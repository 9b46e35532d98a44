#!/usr/bin/env python3
"""Fuzz harness: GNU Backgammon Position IDs (``Position.from_position_id``).

A valid ID must give a position that survives :func:`fuzzlib.check_position`'s
round trips; anything else must be refused with a documented error.
"""

from __future__ import annotations

import fuzzlib

from bgcore import Position


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the ID's text."""
    position = fuzzlib.attempt(Position.from_position_id, fuzzlib.text_of(data))
    if isinstance(position, Position):
        fuzzlib.check_position(position)


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
