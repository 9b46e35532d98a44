#!/usr/bin/env python3
"""Fuzz harness: batch move generation (``bgcore.batch.generate`` and ``count``)
on boards and dice built from the input.

Each row is a board of 26 bytes (raw int8 counts, or a valid board with a few
bytes changed, which the rules check accepts often enough to get past it) and
two dice (0-7: the invalid 0 and 7 included), handed over as int8 or wider
integer arrays or as lists. Either both calls refuse the batch with
``InvalidPositionError`` naming the first invalid row, or they give for each row
exactly what ``Position.children`` gives for it (a finished game aside: the batch
plays it on, where Position gives no play).
"""

from __future__ import annotations

import fuzzlib
import numpy as np

from bgcore import InvalidPositionError, Position, batch

_BOARDS = (Position.initial().to_array(), Position.initial("nackgammon").to_array(), np.zeros(26, dtype=np.int8))
_DTYPES = (np.int8, np.int16, np.int64, np.uint8, None)  # None: nested lists


def rows(reader: fuzzlib.Reader) -> tuple[np.ndarray, np.ndarray]:
    """The boards (int8, n x 26) and dice (int64, n x 2) an input describes."""
    n = reader.int_in(0, 6)
    boards = np.zeros((n, 26), dtype=np.int8)
    dice = np.zeros((n, 2), dtype=np.int64)
    for i in range(n):
        if reader.byte() & 1:
            boards[i] = [reader.signed8() for _ in range(26)]
        else:
            boards[i] = reader.pick(_BOARDS)
            for _ in range(reader.int_in(0, 3)):
                boards[i, reader.int_in(0, 25)] = reader.signed8() % 31 - 15
        dice[i] = reader.int_in(0, 7), reader.int_in(0, 7)
    return boards, dice


def first_invalid(boards: np.ndarray, dice: np.ndarray) -> int | None:
    """The first row whose board or roll Position refuses."""
    for i, (board, roll) in enumerate(zip(boards, dice, strict=True)):
        if not (1 <= roll[0] <= 6 and 1 <= roll[1] <= 6):
            return i
        try:
            Position(board.tolist())
        except InvalidPositionError:
            return i
    return None


Rows = np.ndarray | list[list[int]]


def convert(boards: np.ndarray, dice: np.ndarray, dtype: type | None) -> tuple[Rows, Rows]:
    """The rows as the input picks: nested lists, or arrays of a dtype."""
    if dtype is None:
        return boards.tolist(), dice.tolist()
    if dtype is np.uint8:
        return boards, dice.astype(np.uint8)
    return boards.astype(dtype), dice.astype(dtype)


def test_one_input(data: bytes) -> None:
    """One input: see the module's docstring."""
    reader = fuzzlib.Reader(data)
    boards, dice = rows(reader)
    given_boards, given_dice = convert(boards, dice, reader.pick(_DTYPES))
    threads = reader.int_in(1, 2)
    flip = bool(reader.byte() & 1)
    bad = first_invalid(boards, dice)
    generated = fuzzlib.attempt(batch.generate, given_boards, given_dice, threads=threads, flip=flip)
    counted = fuzzlib.attempt(batch.count, given_boards, given_dice, threads=threads)
    if bad is not None:
        for result in (generated, counted):
            if result is not fuzzlib.REFUSED:
                raise fuzzlib.Finding(f"row {bad} is invalid, yet the batch gave {result!r}")
        for call in (batch.generate, batch.count):
            try:
                call(given_boards, given_dice)
            except InvalidPositionError as exc:
                if not str(exc).startswith(f"row {bad}:"):
                    raise fuzzlib.Finding(
                        f"row {bad} is the first invalid row, but {call.__name__} says {exc}"
                    ) from exc
        return
    if not isinstance(generated, tuple) or not isinstance(counted, np.ndarray):
        raise fuzzlib.Finding(f"valid rows refused: {generated!r}, {counted!r}")
    children, offsets = generated
    if offsets.tolist() != [0, *np.cumsum(counted).tolist()]:
        raise fuzzlib.Finding(f"offsets {offsets.tolist()} do not match the counts {counted.tolist()}")
    for i, (board, roll) in enumerate(zip(boards, dice, strict=True)):
        position = Position(board.tolist())
        if position.is_game_over():
            continue  # Position gives no play; the batch plays the board on (tests/test_batch.py pins that)
        expected = [child.to_array().tobytes() for child in position.children((int(roll[0]), int(roll[1])))]
        got = children[offsets[i] : offsets[i + 1]]
        if not flip:
            got = np.stack([Position(row.tolist()).flip().to_array() for row in got]) if len(got) else got
        if sorted(row.tobytes() for row in got) != sorted(expected):
            raise fuzzlib.Finding(f"row {i}: the batch's results differ from Position.children of {roll.tolist()}")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
