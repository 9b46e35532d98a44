"""The generator's Python face (bgcore._results): one wording of every board
check, flips, keys and the Results of one roll."""

from __future__ import annotations

import pytest

from bgcore import InvalidPositionError, Position, _batch, _results, movegen
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

START = Position.initial()


def test_board_problem_and_flip() -> None:
    assert _results.board_problem(START._bytes) is None
    assert _results.flip(START._bytes) == START._bytes
    assert _results.board_problem(bytes([0] * 25 + [16])) == "slot 25 holds 16 checkers (at most 15 a side)"
    with pytest.raises(ValueError, match="26 slots"):
        _results.board_problem(b"\x00" * 25)


@pytest.mark.parametrize(
    "board,checkers,message",
    [
        ([0] * 25 + [-1], 15, r"slot 25 is the on-roll player's bar and cannot be negative \(-1\)"),
        ([1] + [0] * 25, 15, r"slot 0 is the opponent's bar and cannot be positive \(1\)"),
        ([0] * 7 + [300] + [0] * 18, 15, r"slot 7 holds 300 checkers \(at most 15 a side\)"),
        ([0] * 7 + [-16] + [0] * 18, 15, r"slot 7 holds -16 checkers"),
        ([0] * 6 + [4] + [0] * 19, 3, r"the player on roll has 4 checkers on the board, more than 3"),
        ([0] * 6 + [-9, 9] + [0] * 18, 8, r"the player on roll has 9 checkers"),
        ([0] * 6 + [-9, 8] + [0] * 18, 8, r"the opponent has 9 checkers on the board, more than 8"),
        ([0] * 25, 15, r"26 slots \(0 to 25\), not 25"),
        ([0] * 26, 0, r"checkers per side must be 1-15, not 0"),
    ],
)
def test_check_board_says_what_is_wrong(board: list[int], checkers: int, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        _results.check_board(board, checkers)
    if len(board) == 26 and 1 <= checkers <= 15 and all(-128 <= v <= 127 for v in board):
        # the batch API's wording (from the bytes) is the same
        with pytest.raises(InvalidPositionError) as raised:
            _results.check_board(board, checkers)
        assert _results.board_problem(bytes(v & 0xFF for v in board), checkers) == str(raised.value)


def test_check_board_gives_the_bytes_of_a_valid_board() -> None:
    assert _results.check_board(list(START.board), 15) == START._bytes
    assert _results.check_board([0] * 26, 1) == bytes(26)


def test_keys_differ_between_boards() -> None:
    keys = {_results.board_key(p._bytes) for p in selfplay_positions(300, seed=4)}
    distinct = {p for p in selfplay_positions(300, seed=4)}
    assert len(keys) == len(distinct)


def test_generate_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="slot 25 holds 16"):
        _results.generate(bytes([0] * 25 + [16]), 3, 1)
    with pytest.raises(ValueError, match="dice"):
        _results.generate(START._bytes, 0, 1)
    results = _results.generate(START._bytes, 3, 1)
    with pytest.raises(IndexError):
        results.board(len(results))
    assert results.index(b"\x00" * 26) == -1


def test_on_board_counts_both_sides() -> None:
    assert _results.on_board(START._bytes) == (15, 15)
    assert _results.on_board(Position.initial("hypergammon")._bytes) == (3, 3)


def test_the_c_api_names_its_version() -> None:
    assert movegen.API_VERSION == 2 and movegen.MAX_RESULTS == 4096


def test_count_many_matches_python_api() -> None:
    positions = selfplay_positions(100, seed=8)
    boards = b"".join(p._bytes for p in positions for _ in ROLLS)
    dice = bytes(d for _ in positions for r in ROLLS for d in r)
    expected = sum(len(p.legal_moves(r)) for p in positions for r in ROLLS)
    assert _batch.count_many(boards, dice) == expected


def test_count_many_rejects_bad_rows() -> None:
    start = START._bytes
    with pytest.raises(ValueError, match="generation 1: slot 25 holds 16"):
        _batch.count_many(start + bytes([0] * 25 + [16]), bytes([3, 1, 3, 1]))
    with pytest.raises(ValueError, match=r"generation 0: dice must be 1-6, not \[7, 1\]"):
        _batch.count_many(start, bytes([7, 1]))
    with pytest.raises(ValueError, match="26 bytes"):
        _batch.count_many(start[:-1], bytes([3, 1]))
