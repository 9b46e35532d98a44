"""The Position value: variants, conversions, game state, play, errors."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from bgcore import GameResult, IllegalMoveError, InvalidPositionError, Move, Outcome, Position
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions
from refused import refused


@pytest.fixture(scope="module")
def selfplay() -> list[Position]:
    """Positions of every phase, standard and hypergammon (3 checkers a side)."""
    return (
        selfplay_positions(150, seed=7)
        + selfplay_positions(50, seed=8, policy="heuristic")
        + selfplay_positions(40, seed=9, variant="hypergammon")
    )


def test_initial_variants() -> None:
    std = Position.initial()
    assert std == Position() == Position.initial("standard")
    assert std.pip_count() == (167, 167) and std.borne_off() == (0, 0)
    nack = Position.initial("nackgammon")
    assert nack.board[23] == 2 and nack.board[24] == 2 and nack.pip_count() == (194, 194)
    hyper = Position.initial("hypergammon")
    assert hyper.checkers == 3 and hyper.borne_off() == (0, 0) and hyper.pip_count() == (69, 69)
    for pos in (std, nack, hyper):
        assert pos.flip() == pos and not pos.is_game_over() and pos.result() is None
    with pytest.raises(ValueError, match="unknown variant"):
        Position.initial("tabula")


def test_value_semantics() -> None:
    pos = Position.from_position_id("sHPwATDgc/ABMA")
    assert hash(pos) == hash(Position(pos.board)) and pos != pos.flip()
    assert pos.flip().flip() == pos
    assert eval(repr(pos), {"Position": Position}) == pos
    hyper = Position.initial("hypergammon")
    assert eval(repr(hyper), {"Position": Position}) == hyper
    assert pickle.loads(pickle.dumps(hyper)) == hyper and copy.copy(pos) == pos
    with pytest.raises(AttributeError):
        pos.board = (0,) * 26  # type: ignore[misc]


def test_array_round_trip() -> None:
    pos = Position.initial()
    a = pos.to_array()
    assert a.dtype == np.int8 and a.shape == (26,)
    assert a[24] == 2 and a[1] == -2 and a[6] == 5 and a[19] == -5
    a[6] = 0  # a copy: the position is unchanged
    assert pos.board[6] == 5
    assert Position.from_array(pos.to_array()) == pos
    assert Position.from_array(list(pos.board)) == pos
    with pytest.raises(InvalidPositionError):
        Position.from_array(np.zeros(25, dtype=np.int8))
    with pytest.raises(TypeError):
        Position.from_array(np.zeros(26, dtype=float))


@pytest.mark.parametrize(
    "board,match",
    [
        ([0] * 25, "26 slots"),
        ([0] * 25 + [-1], "bar"),
        ([1] + [0] * 25, "bar"),
        ([0] * 6 + [16] + [0] * 19, "slot 6"),
        ([0] * 6 + [10, 6] + [0] * 18, "16 checkers"),
        ([0] * 6 + [-10, -6] + [0] * 18, "16 checkers"),
    ],
)
def test_bad_boards(board: list[int], match: str) -> None:
    with pytest.raises(InvalidPositionError, match=match):
        Position(board)


def test_bad_board_types() -> None:
    with pytest.raises(TypeError):
        Position("4HPwATDgc/ABMA")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Position(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Position([0.5] * 26)  # type: ignore[list-item]
    with pytest.raises(InvalidPositionError):
        Position(checkers=0)
    with pytest.raises(InvalidPositionError):
        Position.initial("hypergammon").flip().__class__(Position.initial().board, checkers=3)


@pytest.mark.parametrize("checkers", [2**31, 2**40, 2**64, 10**30, -(2**40), 16, 0, -1])
def test_checkers_out_of_range_are_refused_fast(checkers: int) -> None:
    message = refused(lambda: Position(Position.initial().board, checkers=checkers), InvalidPositionError, "")
    assert message == f"checkers per side must be 1-15, not {checkers}"
    refused(lambda: Position.from_position_id("4HPwATDgc/ABMA", checkers=checkers), InvalidPositionError, "1-15")
    refused(lambda: Position(Position.initial().board, checkers=float(checkers)), TypeError, "must be an int")


def test_bad_dice() -> None:
    pos = Position.initial()
    for dice in [(0, 1), (7, 1), (1,), (1, 2, 3)]:
        with pytest.raises(ValueError):
            pos.legal_moves(dice)
    for dice in ["12", 12, None, (1.5, 2)]:
        with pytest.raises(TypeError):
            pos.legal_moves(dice)  # type: ignore[arg-type]
    assert len(pos.legal_moves((np.int64(3), np.int8(1)))) == 16


def test_legal_moves_sequence() -> None:
    pos = Position.initial()
    moves = pos.legal_moves((1, 3))
    assert moves.dice == (3, 1) and len(moves) == 16
    listed = list(moves)
    assert moves[-1] == listed[-1] and moves[1:3] == listed[1:3]
    assert all(m in moves for m in listed)
    assert Move([(24, 21), (21, 20)], dice=(3, 1)) in moves  # another path to a legal result
    assert Move([(6, 3)], dice=(3, 1)) not in moves and "8/5" not in moves
    assert Move([(24, 21), (24, 23)], dice=(6, 1)) not in moves
    with pytest.raises(IndexError):
        moves[16]
    assert repr(moves).startswith("<LegalMoves 3-1 (16): 24/23 24/21, 24/20,")
    assert moves.positions() == [pos.play(m) for m in moves]


def test_play_and_illegal_moves() -> None:
    pos = Position.initial()
    after = pos.play(pos.parse_move("24/18 13/10", (6, 3)))
    assert after.board[1] == -1 and after.board[7] == -1 and after.pip_count() == (167, 158)
    with pytest.raises(IllegalMoveError):
        pos.play(Move([(24, 18)], dice=(6, 3)))  # only one die
    with pytest.raises(IllegalMoveError):
        pos.play(Move([(6, 0), (6, 3)], dice=(6, 3)))  # bearing off from outside home
    with pytest.raises(TypeError):
        pos.play("24/18 13/10")  # type: ignore[arg-type]


def board_of(**points: int) -> Position:
    """A position from p<N>=count keywords (negative counts: the opponent)."""
    board = [0] * 26
    for name, count in points.items():
        board[int(name[1:])] = count
    return Position(board)


def texts(pos: Position, dice: tuple[int, int]) -> list[str]:
    return sorted(str(m) for m in pos.legal_moves(dice))


def test_bear_off_rules() -> None:
    # 6-1, one checker on 6 and two on 2: 6/off 2/1, or 6/5 then 5/off (written 6/off)
    assert texts(board_of(p6=1, p2=2, p20=-12), (6, 1)) == ["6/off", "6/off 2/1"]
    # a lone checker: one result, reached by playing both dice
    (move,) = board_of(p6=1, p20=-12).legal_moves((6, 1))
    assert move.steps == ((6, 5), (5, 0))
    # a larger die bears off from the highest point only
    assert texts(board_of(p5=1, p3=1, p1=-2, p20=-11), (6, 6)) == ["5/off 3/off"]
    # no bearing off while a checker is outside home; it may come home first
    (move,) = board_of(p8=1, p6=1, p20=-13).legal_moves((6, 6))
    assert str(move) == "8/off 6/off" and move.steps == ((8, 2), (6, 0), (2, 0))
    assert all("off" not in t for t in texts(board_of(p24=1, p6=2, p18=-2, p20=-2, p1=-9), (5, 1)))


def test_bar_rules() -> None:
    # the bar checker enters first, then may move on
    assert "bar/18" in texts(board_of(p25=1, p10=14, p1=-2), (4, 3))
    # closed board: a lost turn, one empty move
    closed = board_of(p25=1, p14=14, p19=-2, p20=-2, p21=-2, p22=-2, p23=-2, p24=-2)
    assert texts(closed, (6, 5)) == [""]
    # two on the bar with 6-5 and the 5-point (20) closed: enter one with the 6 only
    assert texts(board_of(p25=2, p13=13, p20=-2, p1=-13), (6, 5)) == ["bar/19"]


def test_larger_die_rule() -> None:
    # a lone checker on 8: 5 then 2 and 2 then 5 are both blocked, so one die plays
    assert texts(board_of(p8=1, p1=-2, p6=-2, p20=-11), (5, 2)) == ["8/3"]
    # either die alone is playable but not both: the larger one must be played
    assert texts(board_of(p24=1, p8=1, p18=-2, p20=-2, p1=-11), (6, 4)) == ["8/2"]


def test_game_over_and_results() -> None:
    # the player on roll bears off the last checker
    board = [0] * 26
    board[1] = 1
    board[24] = -3
    pos = Position(board, checkers=15)
    (move,) = pos.legal_moves((2, 1))
    end = pos.play(move)
    assert end.is_game_over() and len(end.legal_moves((6, 6))) == 0
    assert end.result() == GameResult(1, Outcome.SINGLE)  # the opponent had borne off 12
    assert end.result().points == 1
    gammon = Position([0] * 10 + [-15] + [0] * 15)  # on roll has none left
    assert gammon.result() == GameResult(0, Outcome.GAMMON)
    in_home = Position([0] * 6 + [-15] + [0] * 19)  # the loser is in the winner's home
    assert in_home.result() == GameResult(0, Outcome.BACKGAMMON)
    bg = [0] * 26
    bg[0] = -1
    bg[10] = -14
    assert Position(bg).result() == GameResult(0, Outcome.BACKGAMMON)
    bg2 = [0] * 26
    bg2[20] = 15
    assert Position(bg2).result() == GameResult(1, Outcome.BACKGAMMON)
    with pytest.raises(InvalidPositionError):
        Position([0] * 26).result()


def test_str_diagram() -> None:
    text = str(Position.from_position_id("sHPwATDgc/ABMA"))
    assert "sHPwATDgc/ABMA" in text and "pips 165" in text and "BAR" in text


def test_children_are_the_positions_the_legal_moves_lead_to(selfplay) -> None:
    for pos in selfplay:
        for roll in ROLLS:
            children = pos.children(roll)
            expected = [pos.play(m) for m in pos.legal_moves(roll)]
            assert children == expected
            assert [hash(c) for c in children] == [hash(Position(c.board, checkers=c.checkers)) for c in expected]
            assert children == pos.legal_moves(roll).positions()
            assert all(c.checkers == pos.checkers for c in children)
            assert children == pos.children(roll[::-1])


def test_children_of_special_positions() -> None:
    closed = Position([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0, -2, -2, -2, -2, -2, -2, 1])
    assert closed.children((6, 5)) == [closed.flip()]  # a lost turn: the same board, the opponent on roll
    over = Position([0] * 6 + [-15] + [0] * 19)
    assert over.is_game_over() and over.children((6, 6)) == [] and len(over.legal_moves((6, 6))) == 0
    pos = Position.initial()
    for dice in [(0, 1), (7, 1), (1,), (1, 2, 3)]:
        with pytest.raises(ValueError):
            pos.children(dice)
    for dice in ["12", 12, None, (1.5, 2)]:
        with pytest.raises(TypeError):
            pos.children(dice)  # type: ignore[arg-type]
    assert len(pos.children((np.int64(3), np.int8(1)))) == 16


def test_play_whatever_the_move_came_from(selfplay) -> None:
    """A legal move plays the same whether it came from this position's
    legal_moves, from an equal position's, from a pickle or from Move();
    played on another position it is checked there."""
    for i, pos in enumerate(selfplay[:120]):
        roll = ROLLS[i % len(ROLLS)]
        same = Position(pos.board, checkers=pos.checkers)
        other = selfplay[i + 1]
        other_moves = other.legal_moves(roll)
        for m in pos.legal_moves(roll):
            after = pos.play(m)
            rebuilt = Move(m.steps, m.dice, m.hits)
            assert rebuilt == m and hash(rebuilt) == hash(m)
            assert same.play(m) == after == pos.play(rebuilt) == pos.play(pickle.loads(pickle.dumps(m)))
            assert m in pos.legal_moves(roll) and rebuilt in pos.legal_moves(roll)
            if m in other_moves:
                assert other.play(m) == other.play(rebuilt) == other_moves.position_after(other_moves._index_of(m))
            else:
                with pytest.raises(IllegalMoveError):
                    other.play(m)
                with pytest.raises(IllegalMoveError):
                    other.play(rebuilt)


def test_legal_moves_build_each_move_once() -> None:
    pos = Position.initial()
    moves = pos.legal_moves((6, 5))
    one = moves[3]  # built alone
    listed = list(moves)
    assert listed[3] == one and listed[3] is not one
    assert list(moves)[3] is listed[3] and moves[3] is listed[3]  # kept after the first iteration
    assert moves[:] == listed and moves[::2] == listed[::2] and moves[-1] is listed[-1]


def test_a_subclass_registers_its_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Position.initial starts a variant that a subclass names in its class
    statement (as AceyDeuceyPosition does), without position.py importing it."""
    import bgcore.position as position_module

    monkeypatch.setattr(position_module, "_SUBCLASS_VARIANTS", dict(position_module._SUBCLASS_VARIANTS))

    class EmptyBoard(Position, variant="empty-board"):
        @classmethod
        def initial(cls, variant: str = "empty-board") -> EmptyBoard:
            assert variant == "empty-board"
            return cls([0] * 26)

    start = Position.initial("empty-board")
    assert type(start) is EmptyBoard and start.borne_off() == (15, 15)
    with pytest.raises(ValueError, match="choose from standard, nackgammon, hypergammon, acey-deucey, empty-board"):
        Position.initial("tabula")

    class Plain(Position):  # names no variant: registers none, and starts only the table's
        pass

    assert type(Plain.initial("nackgammon")) is Plain
    with pytest.raises(ValueError, match="unknown variant"):
        Plain.initial("empty-board")
    assert set(position_module._SUBCLASS_VARIANTS) == {"acey-deucey", "empty-board"}


def test_acey_deucey_starts_from_position_and_pickles() -> None:
    from bgcore.acey import AceyDeuceyPosition

    start = Position.initial("acey-deucey")
    assert type(start) is AceyDeuceyPosition and start == AceyDeuceyPosition()
    assert start.waiting == (15, 15) and pickle.loads(pickle.dumps(start)) == start
    with pytest.raises(ValueError, match="unknown variant"):
        Position.initial(["acey-deucey"])  # type: ignore[arg-type]
