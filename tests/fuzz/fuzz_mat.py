#!/usr/bin/env python3
"""Fuzz harness: Jellyfish ``.mat`` files (``bgcore.matfile.read``, which
``bgcore.Match.from_mat`` wraps).

A file that reads must write (``Match.to_mat``) a file that reads back to the
same match: the same length, score, number of games and current position.
"""

from __future__ import annotations

import fuzzlib

from bgcore import matfile


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the file's text."""
    text = fuzzlib.text_of(data)
    read = fuzzlib.attempt(matfile.read, text, dice=0)
    if not isinstance(read, matfile.MatFile):
        return
    match = read.match
    written = match.to_mat(read.names)  # the names read must write back
    again = fuzzlib.attempt(matfile.read, written, dice=0)
    if not isinstance(again, matfile.MatFile):
        raise fuzzlib.Finding(f"the match read from {text!r} writes a file that does not read back:\n{written}")
    copy = again.match
    if (again.names, copy.length, copy.score, len(copy.games), copy.game.position) != (
        read.names,
        match.length,
        match.score,
        len(match.games),
        match.game.position,
    ):
        raise fuzzlib.Finding(f"the match read from {text!r} writes a file that reads back differently:\n{written}")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
