"""The generator's Python face (bgcore._results): one wording of every board
check, flips, keys and the Results of one roll."""

from __future__ import annotations

import pytest

from bgcore import InvalidPositionError, Move, Position, _batch, _results, movegen
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


def test_position_and_move_objects_built_natively() -> None:
    """Results builds Position and Move objects equal, field for field and in
    hash, to those their constructors build."""
    for pos in selfplay_positions(40, seed=3) + selfplay_positions(10, seed=3, variant="hypergammon"):
        for roll in ROLLS[::4]:
            res = _results.legal(pos._bytes, *roll[::-1] if roll[0] < roll[1] else roll)
            for i, move in enumerate(res.moves(roll)):
                steps, hits = res.move(i)
                assert (move.steps, move.hits, move.dice) == (steps, hits, roll)
                assert move == res.move_at(i, roll) == Move(steps, roll, hits)
                assert hash(move) == hash(Move(steps, roll, hits))
                assert move._origin is pos._bytes
                assert _results.after(pos._bytes, move.steps, pos.checkers)._bytes == res.flipped(i)
                assert res.find(move.steps) == i
                child = res.child(i, pos.checkers)
                assert child._bytes == res.flipped(i) and child._board_cache is None  # unpacked when asked for
                assert child == Position(child.board, checkers=pos.checkers)
                assert hash(child) == hash(Position(child.board, checkers=pos.checkers))
    assert _results.legal(Position([0] * 6 + [-15] + [0] * 19)._bytes, 6, 6) is None
    assert len(_results.generate(Position([0] * 6 + [-15] + [0] * 19)._bytes, 6, 6)) == 1
    flipped = _results.flipped_position(START._bytes, 15)
    assert flipped == START.flip() and flipped.checkers == 15


def test_find_plays_steps_in_the_order_given() -> None:
    res = _results.legal(START._bytes, 3, 1)
    assert res.find(((24, 21), (21, 20))) == res.find(((24, 23), (23, 20))) >= 0  # 24/20 either way
    assert res.find(((24, 20),)) == res.find(((24, 21), (21, 20)))  # the same result board
    assert res.find(((8, 5), (6, 5))) >= 0 and res.find(((6, 5), (8, 5))) >= 0
    assert res.find(((5, 2),)) == -1  # no checker on 5
    assert res.find(((13, 10),)) == -1  # one die left unplayed: not a result
    assert res.find(((24, 21), (6, 5))) >= 0
    assert res.find(((21, 18),)) == -1
    bar = _results.legal(Position([0] * 6 + [14] + [0] * 12 + [-2] * 6 + [1])._bytes, 6, 5)
    assert bar.find(((6, 1),)) == -1 and bar.find(((25, 20), (6, 0))) == -1  # the bar first


def test_register_wants_slotted_classes() -> None:
    class Loose:
        pass

    class Slotted:
        __slots__ = ("_board_cache", "_bytes", "_checkers", "_hash")

    with pytest.raises(TypeError, match="slots"):
        _results.register(Loose, Move)
    with pytest.raises(TypeError, match="slots"):
        _results.register(Slotted, Slotted)
    with pytest.raises(ValueError, match="high first"):
        _results.legal(START._bytes, 3, 1).moves((1, 3))
