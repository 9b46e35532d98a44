#!/usr/bin/env python3
"""Fuzz harness: positions from arrays and sequences (``Position(board,
checkers=...)``, ``Position.from_array``).

The board is 20-30 values (26 is the only valid length) of a type and range
the input picks: lists or tuples of ints, numpy arrays of several integer
dtypes, now and then a value that is no int at all. A board either gives a
position that survives :func:`fuzzlib.check_position`, or is refused with a
documented error (``TypeError`` for values of the wrong type).
"""

from __future__ import annotations

import fuzzlib
import numpy as np

from bgcore import Position

_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.float64, np.bool_)
_ODD = (1.0, True, None, "3", 2**63, -(2**70), np.int64(2), np.float32(1))
# Checkers per side: ordinary counts, a few edge cases. (Far larger ones overflow
# a C long: `Position(board, checkers=2**40)` is known and being fixed elsewhere.)
_CHECKERS = (15, 3, 0, 1, 14, 16, -1, 127, 128, 255, 2**15, 2**31 - 1)


def board_of(reader: fuzzlib.Reader) -> list[object]:
    """20-30 values: mostly small counts, a wide int now and then, rarely no int."""
    values: list[object] = []
    for _ in range(reader.int_in(20, 30)):
        kind = reader.byte()
        if kind < 200:
            values.append(reader.signed8() % 33 - 16)
        elif kind < 250:
            values.append(reader.int_in(-(2**40), 2**40))
        else:
            values.append(reader.pick(_ODD))
    return values


def test_one_input(data: bytes) -> None:
    """One input: see the module's docstring."""
    reader = fuzzlib.Reader(data)
    mode = reader.int_in(0, 3)
    checkers = reader.pick(_CHECKERS)
    values = board_of(reader)
    allowed = (*fuzzlib.INPUT_ERRORS, TypeError)
    if mode == 0:
        position = fuzzlib.attempt(Position, values, checkers=checkers, allowed=allowed)
    elif mode == 1:
        position = fuzzlib.attempt(Position, tuple(values), checkers=checkers, allowed=allowed)
    else:
        dtype = reader.pick(_DTYPES)
        try:
            array: np.ndarray = np.array(values, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            return  # numpy cannot hold these values in that dtype: nothing of bgcore's to test
        call = Position.from_array if mode == 2 else Position
        position = fuzzlib.attempt(call, array, checkers=checkers, allowed=allowed)
    if isinstance(position, Position):
        fuzzlib.check_position(position, (reader.int_in(1, 6), reader.int_in(1, 6)))


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
