#!/usr/bin/env python3
"""Fuzz harness: GNU Backgammon Match IDs (``bgcore.ids.MatchId.decode``).

A Match ID that decodes must encode to one that decodes to the same state
(the text itself need not come back: gnubg ignores bits 67-71 and reads dice
stored lower die first, and so does bgcore).
"""

from __future__ import annotations

import fuzzlib

from bgcore.ids import MatchId


def test_one_input(data: bytes) -> None:
    """One input: the bytes as the ID's text."""
    state = fuzzlib.attempt(MatchId.decode, fuzzlib.text_of(data))
    if not isinstance(state, MatchId):
        return
    again = MatchId.decode(state.encode())
    if again != state:
        raise fuzzlib.Finding(f"{state!r} encodes to {state.encode()!r}, which decodes to {again!r}")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
