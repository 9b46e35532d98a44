#!/usr/bin/env python3
"""Fuzz harness: move notation (``Position.parse_move``).

The input is a line ``POSITION DICE MOVE``: a Position ID (the starting position
when it is not one), the roll as two characters (``31``; anything else is
passed on as it is, for the dice check) and the move's text. A move that
parses must be one of the position's legal plays, and its own notation must
parse back to it.
"""

from __future__ import annotations

import fuzzlib

from bgcore import Move, Position


def split(data: bytes) -> tuple[Position, object, str]:
    """The position, the dice and the move text of one input."""
    fields = fuzzlib.text_of(data).split(" ", 2)
    fields += [""] * (3 - len(fields))
    position_id, dice_text, move = fields
    position = fuzzlib.attempt(Position.from_position_id, position_id)
    if not isinstance(position, Position):
        position = Position.initial()
    dice: object = dice_text
    if len(dice_text) == 2 and dice_text.isascii() and dice_text.isdigit():
        dice = (int(dice_text[0]), int(dice_text[1]))
    return position, dice, move


def test_one_input(data: bytes) -> None:
    """One input: see the module's docstring."""
    position, dice, text = split(data)
    # TypeError: dice that are not two ints (the text itself) are documented as one.
    move = fuzzlib.attempt(position.parse_move, text, dice, allowed=(*fuzzlib.INPUT_ERRORS, TypeError))
    if not isinstance(move, Move):
        return
    assert isinstance(dice, tuple)
    if move not in position.legal_moves(dice):
        raise fuzzlib.Finding(f"{text!r} parses to {move}, not a legal play of {dice} in {position!r}")
    if position.parse_move(str(move), dice) != move:
        raise fuzzlib.Finding(f"{text!r} parses to {move}, whose notation does not parse back to it")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
