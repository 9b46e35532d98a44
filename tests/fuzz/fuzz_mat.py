#!/usr/bin/env python3
"""Fuzz harness: Jellyfish ``.mat`` files (``bgcore.matfile.read``, which
``bgcore.Match.from_mat`` wraps).

A file that reads must write (``Match.to_mat``) a file that reads back to the
same match: the same length, score, number of games and current position.
"""

from __future__ import annotations

import fuzzlib

from bgcore import matfile

KNOWN_NAME_WIDTH = 25
KNOWN_NAME_ERROR = "a name cannot be empty"
DEFAULT_NAMES = ("Player 0", "Player 1")


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the file's text."""
    text = fuzzlib.text_of(data)
    read = fuzzlib.attempt(matfile.read, text, dice=0)
    if not isinstance(read, matfile.MatFile):
        return
    match = read.match
    # Known (matfile.py, reported; see tests/test_fuzz_regressions.py): read()
    # gives names that write() refuses (empty, or with a ':'), and a first name
    # of more than 25 characters is written with no space before the second
    # name, a score line that does not read back. The harness writes such
    # matches under other names.
    names = read.names if len(read.names[0]) <= KNOWN_NAME_WIDTH else DEFAULT_NAMES
    try:
        written = match.to_mat(names)
    except ValueError as exc:
        if not str(exc).startswith(KNOWN_NAME_ERROR):
            raise
        written = match.to_mat(DEFAULT_NAMES)
    again = fuzzlib.attempt(matfile.read, written, dice=0)
    if not isinstance(again, matfile.MatFile):
        raise fuzzlib.Finding(f"the match read from {text!r} writes a file that does not read back:\n{written}")
    copy = again.match
    if (copy.length, copy.score, len(copy.games), copy.game.position) != (
        match.length,
        match.score,
        len(match.games),
        match.game.position,
    ):
        raise fuzzlib.Finding(f"the match read from {text!r} writes a file that reads back differently:\n{written}")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
