"""The native core's Python-level helpers and its guard rails."""

from __future__ import annotations

import pytest

from bgcore import Position, _core
from bgcore.selfplay import ROLLS, selfplay_positions


def test_validate_and_flip() -> None:
    start = Position.initial()
    assert _core.validate(start._bytes) is None
    assert _core.flip(start._bytes) == start._bytes
    bad = bytes([0] * 25 + [16])
    assert "15" in _core.validate(bad)
    with pytest.raises(ValueError, match="26 slots"):
        _core.validate(b"\x00" * 25)


def test_keys_differ_between_boards() -> None:
    keys = {_core.board_key(p._bytes) for p in selfplay_positions(300, seed=4)}
    distinct = {p for p in selfplay_positions(300, seed=4)}
    assert len(keys) == len(distinct)


def test_count_many_matches_python_api() -> None:
    positions = selfplay_positions(100, seed=8)
    boards = b"".join(p._bytes for p in positions for _ in ROLLS)
    dice = bytes(d for _ in positions for r in ROLLS for d in r)
    expected = sum(len(p.legal_moves(r)) for p in positions for r in ROLLS)
    assert _core.count_many(boards, dice) == expected


def test_count_many_rejects_bad_rows() -> None:
    start = Position.initial()._bytes
    with pytest.raises(ValueError, match="generation 1"):
        _core.count_many(start + bytes([0] * 25 + [16]), bytes([3, 1, 3, 1]))
    with pytest.raises(ValueError, match="generation 0: dice"):
        _core.count_many(start, bytes([7, 1]))
    with pytest.raises(ValueError, match="26 bytes"):
        _core.count_many(start[:-1], bytes([3, 1]))


def test_generate_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        _core.generate(bytes([0] * 25 + [16]), 3, 1)
    with pytest.raises(ValueError, match="dice"):
        _core.generate(Position.initial()._bytes, 0, 1)
    results = _core.generate(Position.initial()._bytes, 3, 1)
    with pytest.raises(IndexError):
        results.board(len(results))
    assert results.index(b"\x00" * 26) == -1
