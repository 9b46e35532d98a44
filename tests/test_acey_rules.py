"""Acey-deucey rules, example by example, each result worked out by hand.

The rules are numbered as in the spec (1 start, 2 entering, 3 the bar, 4
bearing off, 5 using the dice, 6 the 1-2 roll, 7 distinct outcomes, 8
scoring).  Every position is seen from the mover, who moves from the 24-point
towards the 1-point; a checker enters with a die of n on the (25 - n)-point.
Each expected set of outcomes is checked against the fast generator and
against the slow reference of ``acey_reference`` alike.
"""

from __future__ import annotations

import pytest

import acey_reference as ref
from bgcore.acey import AceyDeuceyMove, AceyDeuceyPosition
from bgcore.errors import IllegalMoveError, InvalidPositionError
from bgcore.position import GameResult, Outcome

Board = tuple[int, ...]


Checkers = dict[int, int] | None


def board(mine: Checkers = None, theirs: Checkers = None, waiting: tuple[int, int] = (0, 0)) -> Board:
    """A 28-slot board: ``mine`` the mover's checkers by point (25 = the bar),
    ``theirs`` the opponent's by point in the mover's numbering (0 = their bar),
    both as positive counts; ``waiting`` (mover, opponent)."""
    b = [0] * 28
    for point, n in (mine or {}).items():
        b[point] += n
    for point, n in (theirs or {}).items():
        b[point] -= n
    b[26], b[27] = waiting
    return tuple(b)


def position(mine: Checkers = None, theirs: Checkers = None, waiting: tuple[int, int] = (0, 0)) -> AceyDeuceyPosition:
    """The position of :func:`board` (validated by AceyDeuceyPosition)."""
    b = board(mine, theirs, waiting)
    return AceyDeuceyPosition(b[:26], waiting=(b[26], b[27]))


def outcomes(pos: AceyDeuceyPosition, dice: tuple[int, int]) -> set[tuple[Board, bool]]:
    """The fast generator's distinct outcomes, checked to be listed once each
    and to be the reference's."""
    moves = pos.legal_moves(dice)
    listed = [(tuple(b), bool(a)) for b, a in zip(moves.boards().tolist(), moves.again().tolist(), strict=True)]
    assert len(set(listed)) == len(listed), "an outcome listed twice"
    assert set(listed) == ref.outcomes(pos.to_array().tolist(), dice), "the reference disagrees"
    return set(listed)


def notations(pos: AceyDeuceyPosition, dice: tuple[int, int]) -> set[str]:
    return {str(m) for m in pos.legal_moves(dice)}


# --- rule 1: the start ------------------------------------------------------------------------------


def test_start_position() -> None:
    # Every checker waits: an empty board, 15 waiting a side, 375 pips each (15 x 25).
    start = AceyDeuceyPosition.initial()
    assert start == AceyDeuceyPosition() == AceyDeuceyPosition([0] * 26, waiting=(15, 15))
    assert start.waiting == (15, 15)
    assert start.to_array().tolist() == [0] * 26 + [15, 15]
    assert start.pip_count() == (375, 375)
    assert start.borne_off() == (0, 0)
    assert start.result() is None


def test_start_six_five() -> None:
    # 6-5 from the start: enter two checkers (6 -> the 19-point, 5 -> the 20-point), or
    # enter one and move it on with the other die: 19/14 or 20/14, the same checker on
    # the 14-point either way.  Two outcomes.
    start = AceyDeuceyPosition.initial()
    assert [str(m) for m in start.legal_moves((6, 5))] == ["bar/20 bar/19", "bar/14"]
    assert outcomes(start, (6, 5)) == {
        (board({19: 1, 20: 1}, waiting=(13, 15)), False),
        (board({14: 1}, waiting=(14, 15)), False),
    }


def test_start_six_six() -> None:
    # 6-6 from the start: four steps of 6, each entering a checker on the 19-point or moving
    # one on (19 -> 13 -> 7 -> 1).  A checker that took k steps is on 19, 13, 7 or 1 for
    # k = 1..4, so the outcomes are the partitions of 4: 1+1+1+1, 2+1+1, 2+2, 3+1, 4.
    start = AceyDeuceyPosition.initial()
    assert notations(start, (6, 6)) == {"bar/19(4)", "bar/13 bar/19(2)", "bar/13(2)", "bar/7 bar/19", "bar/1"}
    assert outcomes(start, (6, 6)) == {
        (board({19: 4}, waiting=(11, 15)), False),
        (board({13: 1, 19: 2}, waiting=(12, 15)), False),
        (board({13: 2}, waiting=(13, 15)), False),
        (board({7: 1, 19: 1}, waiting=(13, 15)), False),
        (board({1: 1}, waiting=(14, 15)), False),
    }


# --- rule 2: entering ---------------------------------------------------------------------------------


def test_entering_onto_a_blocked_point_is_not_allowed() -> None:
    # The opponent holds the mover's 20-point (two checkers), so a 5 cannot enter.  With 5-5
    # nothing can move at all: a lost turn, the one empty move, the board unchanged.
    pos = position(theirs={20: 2}, waiting=(15, 13))
    moves = pos.legal_moves((5, 5))
    assert len(moves) == 1 and moves[0].steps == () and str(moves[0]) == ""
    assert outcomes(pos, (5, 5)) == {(board(theirs={20: 2}, waiting=(15, 13)), False)}
    # With 5-3 the 3 enters (the 22-point) and the 5 must be played by that checker (22/17),
    # since no 5 can enter: one outcome, 'bar/17'.
    assert notations(pos, (5, 3)) == {"bar/17"}
    assert outcomes(pos, (5, 3)) == {(board({17: 1}, {20: 2}, waiting=(14, 13)), False)}


def test_hitting_on_entry() -> None:
    # A lone opponent checker on the mover's 20-point; the mover has one on the bar and 14
    # waiting.  6-5: the bar checker enters first, with the 6 (19) or the 5 (20, hitting).
    #   6 first: bar/19, then 5: a waiting checker to 20 (hit), or 19/14 (the blot stays);
    #   5 first: bar/20*, then 6: a waiting checker to 19 (as above), or 20/14 (after the hit).
    # Three outcomes; a hit checker goes to the opponent's bar (slot 0).
    pos = position({25: 1}, {20: 1}, waiting=(14, 14))
    assert notations(pos, (6, 5)) == {"bar/20* bar/19", "bar/14", "bar/20*/14"}
    assert outcomes(pos, (6, 5)) == {
        (board({19: 1, 20: 1}, {0: 1}, waiting=(13, 14)), False),
        (board({14: 1}, {20: 1}, waiting=(14, 14)), False),
        (board({14: 1}, {0: 1}, waiting=(14, 14)), False),
    }


def test_moving_board_checkers_while_some_wait() -> None:
    # One checker on the 13-point, 14 waiting, 6-5.  Entering and moving mix freely:
    #   6: enter (19) or 13/7;  5: enter (20) or 13/8;  and the second die after either.
    # Five outcomes: enter both; enter one and move it (to 14); enter one and move the 13
    # (13/8 with bar/19, 13/7 with bar/20); or move the 13 with both (13/2).
    pos = position({13: 1}, waiting=(14, 15))
    assert notations(pos, (6, 5)) == {"bar/20 bar/19", "bar/14", "bar/19 13/8", "bar/20 13/7", "13/2"}
    assert outcomes(pos, (6, 5)) == {
        (board({13: 1, 19: 1, 20: 1}, waiting=(12, 15)), False),
        (board({13: 1, 14: 1}, waiting=(13, 15)), False),
        (board({8: 1, 19: 1}, waiting=(13, 15)), False),
        (board({7: 1, 20: 1}, waiting=(13, 15)), False),
        (board({2: 1}, waiting=(14, 15)), False),
    }


# --- rule 3: the bar ---------------------------------------------------------------------------------


def test_bar_before_waiting_checkers() -> None:
    # One checker on the bar, 13 waiting, one on the 10-point; the opponent holds the 20-point.
    # 6-5: the bar checker must enter first, and only the 6 can enter it (19).  Then the 5:
    # no checker can enter on 20, so 19/14 or 10/5.  A waiting checker may not enter (nor the
    # 10 move) while the bar checker is still on the bar: no outcome leaves it there.
    pos = position({25: 1, 10: 1}, {20: 2}, waiting=(13, 13))
    assert notations(pos, (6, 5)) == {"bar/14", "bar/19 10/5"}
    assert outcomes(pos, (6, 5)) == {
        (board({14: 1, 10: 1}, {20: 2}, waiting=(13, 13)), False),
        (board({19: 1, 5: 1}, {20: 2}, waiting=(13, 13)), False),
    }


def test_bar_blocked_freezes_everything() -> None:
    # As above but the opponent holds the 19-point too: the bar checker cannot enter with
    # either die, so nothing moves (not the 10-point checker, no waiting checker): a lost turn.
    pos = position({25: 1, 10: 1}, {19: 2, 20: 2}, waiting=(13, 11))
    assert notations(pos, (6, 5)) == {""}
    assert outcomes(pos, (6, 5)) == {(tuple(pos.to_array().tolist()), False)}


def test_two_on_the_bar_then_waiting() -> None:
    # Two on the bar and 13 waiting, the board open, 4-4: both bar checkers enter first (21),
    # then two more steps of 4: enter two waiting checkers, enter one and move a checker on
    # (21/17), or move twice (21/17/13, or two checkers 21/17 each).  Every outcome has the
    # bar empty; the steps after the bar may enter waiting checkers.
    pos = position({25: 2}, waiting=(13, 15))
    assert outcomes(pos, (4, 4)) == {
        (board({21: 4}, waiting=(11, 15)), False),
        (board({21: 2, 17: 1}, waiting=(12, 15)), False),
        (board({21: 1, 13: 1}, waiting=(13, 15)), False),
        (board({17: 2}, waiting=(13, 15)), False),
    }


# --- rule 4: bearing off -------------------------------------------------------------------------------


def test_no_bear_off_while_a_checker_waits() -> None:
    # Fourteen on the 6-point, one waiting: not all home, so 6/off is not allowed.  6-5:
    #   6: only the waiting checker can enter (19);  5: enter (20) or 6/1.
    # Outcomes: the entered checker moves on (bar/14), or enters and a 6/1 (bar/19 6/1).
    # With the 5 entering, the 6 moves it on (20/14) - 6/off is still not allowed, the
    # checker on 20 being out of the home board.
    pos = position({6: 14}, waiting=(1, 15))
    assert notations(pos, (6, 5)) == {"bar/14", "bar/19 6/1"}
    assert outcomes(pos, (6, 5)) == {
        (board({6: 14, 14: 1}, waiting=(0, 15)), False),
        (board({6: 13, 1: 1, 19: 1}, waiting=(0, 15)), False),
    }


def test_no_bear_off_while_on_the_bar() -> None:
    # Fourteen on the 6-point, one on the bar (the opponent has one on the mover's 12-point
    # and 14 waiting).  6-5: the bar checker enters first.
    #   6 first: bar/19, then the 5: 19/14 or 6/1.
    #   5 first: bar/20, then the 6: 20/14; 6/off is not allowed, the 20 being outside.
    # Two outcomes, none bearing off.
    pos = position({6: 14, 25: 1}, {12: 1}, waiting=(0, 14))
    assert outcomes(pos, (6, 5)) == {
        (board({6: 14, 14: 1}, {12: 1}, waiting=(0, 14)), False),
        (board({6: 13, 1: 1, 19: 1}, {12: 1}, waiting=(0, 14)), False),
    }


def test_bear_off_after_coming_home_in_the_same_roll() -> None:
    # Fourteen on the 6-point, one on the 7-point (none borne off), 6-1:
    #   6 first: 7/1 (6/off not allowed, the 7 is out), then 1: 6/5 or 1/off (all home now).
    #   1 first: 7/6 (now all home), then 6: 6/off; or 6/5, then 6: 7/1.
    # 7/1 1/off and 7/6 6/off reach the same board: two outcomes.
    pos = position({6: 14, 7: 1}, {20: 15})
    assert outcomes(pos, (6, 1)) == {
        (board({6: 13, 5: 1, 1: 1}, {20: 15}), False),
        (board({6: 14}, {20: 15}), False),
    }


def test_bear_off_exact_and_larger() -> None:
    # One on the 5-point and one on the 2-point (13 off), 5-2:
    #   5/off then 2/off (both exact): the game is over;
    #   2/off then 5/off: the same;
    #   5/3 (the 2), then the 5 is larger than the highest point (3): 3/off, one left on 2.
    #   (The 5 cannot bear off the checker on 2 while the 5-point is occupied.)
    # Two outcomes.
    opponent = {24: 15}
    pos = position({5: 1, 2: 1}, opponent)
    assert outcomes(pos, (5, 2)) == {
        (board({}, opponent), False),
        (board({2: 1}, opponent), False),
    }


def test_bear_off_with_a_larger_die_from_the_highest_point_only() -> None:
    # One on the 6-point and one on the 1-point, 5-4.  The 5 and the 4 cannot bear off the
    # checker on 1 while the 6-point is occupied (neither is the highest point), so:
    #   5: 6/1, then 4: from the highest (1): 1/off;  4: 6/2, then 5: from the highest (2): 2/off.
    # Both leave one checker on the 1-point: one outcome.
    opponent = {24: 15}
    pos = position({6: 1, 1: 1}, opponent)
    assert outcomes(pos, (5, 4)) == {(board({1: 1}, opponent), False)}
    # Two on the 3-point and one on the 1-point, 6-5: each die is larger than the highest
    # point (3), so both bear off from it: 3/off(2), one outcome.
    pos = position({3: 2, 1: 1}, opponent)
    assert notations(pos, (6, 5)) == {"3/off(2)"}
    assert outcomes(pos, (6, 5)) == {(board({1: 1}, opponent), False)}


# --- rule 5: using the dice ------------------------------------------------------------------------------


def test_both_dice_when_possible() -> None:
    # A lone checker on the 13-point (14 off); the opponent holds the mover's 7-point.  6-5:
    # 13/7 is blocked, so the 6 cannot be played first; 13/8 then 8/2 plays both, and must
    # be played: one outcome '13/2' (13/8 alone is not legal).
    pos = position({13: 1}, {7: 2}, waiting=(0, 13))
    assert notations(pos, (6, 5)) == {"13/2"}
    assert outcomes(pos, (6, 5)) == {(board({2: 1}, {7: 2}, waiting=(0, 13)), False)}


def test_larger_die_when_only_one_can_be_played() -> None:
    # A lone checker on the 13-point; the opponent holds the 2-point.  6-5: 13/7 or 13/8 can
    # each be played, but not both (either way the checker would land on 2).  The larger die
    # must be played: only 13/7.
    pos = position({13: 1}, {2: 2}, waiting=(0, 13))
    assert notations(pos, (6, 5)) == {"13/7"}
    assert outcomes(pos, (6, 5)) == {(board({7: 1}, {2: 2}, waiting=(0, 13)), False)}


def test_smaller_die_when_the_larger_cannot_be_played() -> None:
    # As above, with the 7-point held as well: the 6 can never be played; the 5 can (13/8),
    # and then the 6 still cannot (8/2 blocked).  One outcome: 13/8.
    pos = position({13: 1}, {2: 2, 7: 2}, waiting=(0, 11))
    assert notations(pos, (6, 5)) == {"13/8"}
    assert outcomes(pos, (6, 5)) == {(board({8: 1}, {2: 2, 7: 2}, waiting=(0, 11)), False)}


def test_double_partly_playable() -> None:
    # A lone checker on the 13-point (14 off); the opponent holds the 1-point.  4-4: 13/9/5,
    # then 5/1 is blocked, and the checker, now home, cannot bear off: the 4 is smaller
    # than its point.  Two of the four steps: one outcome, the checker on the 5-point.
    pos = position({13: 1}, {1: 2}, waiting=(0, 13))
    assert notations(pos, (4, 4)) == {"13/5"}
    assert outcomes(pos, (4, 4)) == {(board({5: 1}, {1: 2}, waiting=(0, 13)), False)}


def test_an_entered_checker_moves_on_only_to_open_points() -> None:
    # Fifteen waiting, the opponent holds the mover's 18-point: 6-1.
    #   6 first: enter (19), then the 1: enter (24), or 19/18 - blocked.
    #   1 first: enter (24), then the 6: enter (19), or 24/18 - blocked.
    # One outcome: both entered.
    pos = position(theirs={18: 2}, waiting=(15, 13))
    assert notations(pos, (6, 1)) == {"bar/24 bar/19"}
    assert outcomes(pos, (6, 1)) == {(board({19: 1, 24: 1}, {18: 2}, waiting=(13, 13)), False)}


# --- rule 6: the 1-2 roll ---------------------------------------------------------------------------------


def test_12_names_a_double_and_rolls_again() -> None:
    # A lone checker on the 24-point (14 off), the opponent all waiting.  1-2: 24/21 (either
    # order).  Then a named double d, four steps from 21: 1-1 to 17, 2-2 to 13, 3-3 to 9,
    # 4-4 to 5, 5-5 to 1 - each in full, so the mover rolls again; 6-6: 21/15/9/3, and the
    # fourth 6 bears off the last checker (all home, larger than 3): the game is over, so no
    # roll again.  Six outcomes.
    pos = position({24: 1}, waiting=(0, 15))
    theirs = (0, 15)
    assert outcomes(pos, (2, 1)) == {
        (board({17: 1}, waiting=theirs), True),
        (board({13: 1}, waiting=theirs), True),
        (board({9: 1}, waiting=theirs), True),
        (board({5: 1}, waiting=theirs), True),
        (board({1: 1}, waiting=theirs), True),
        (board({}, waiting=theirs), False),
    }
    moves = {m.named: m for m in pos.legal_moves((2, 1))}
    assert sorted(moves) == [1, 2, 3, 4, 5, 6]
    assert str(moves[1]) == "24/21 + 1-1: 21/17" and moves[1].again
    assert len(moves[1].steps) == 6
    assert str(moves[6]) == "24/21 + 6-6: 21/off" and not moves[6].again
    # The game ends at once: the last checker borne off, the mover has won.
    assert pos.play(moves[6]).result() == GameResult(1, Outcome.BACKGAMMON)  # seen from the loser


def test_12_from_the_start() -> None:
    # From the start the 1-2 enters two checkers (bar/24 bar/23) or one moved on (bar/22),
    # and then any named double can be played in full on the empty board, so every outcome
    # rolls again: 177 of them.  (The other 20 rolls: 14 non-doubles with 2 outcomes each as
    # 6-5 above, 6 doubles with 5 each as 6-6 above; perft of the start at depth 1 is
    # 177 + 28 + 30 = 235.)
    start = AceyDeuceyPosition.initial()
    moves = start.legal_moves((2, 1))
    assert len(moves) == 177 and moves.again().all()
    assert str(moves[0]) == "bar/24 bar/23 + 1-1: bar/24(4)" and moves[0].named == 1
    # e.g. enter two with the 1-2, then name 6-6 and enter four more on the 19-point:
    assert (board({24: 1, 23: 1, 19: 4}, waiting=(9, 15)), True) in outcomes(start, (2, 1))


def test_12_where_the_2_cannot_be_played() -> None:
    # A lone checker on 13 (14 off); the opponent holds 11 and 10.  1-2: the 2 cannot be
    # played first (13/11 blocked), and after 13/12 neither (12/10 blocked): only the 1 -
    # no double is named, no roll again.
    pos = position({13: 1}, {11: 2, 10: 2}, waiting=(0, 11))
    moves = pos.legal_moves((2, 1))
    assert [(str(m), m.named, m.again) for m in moves] == [("13/12", None, False)]
    assert outcomes(pos, (2, 1)) == {(board({12: 1}, {11: 2, 10: 2}, waiting=(0, 11)), False)}


def test_12_where_the_1_cannot_be_played() -> None:
    # The opponent holds 12 and 10: 13/12 is blocked, 13/11 is open but then 11/10 is
    # blocked: only the 2 - no double, no roll again.
    pos = position({13: 1}, {12: 2, 10: 2}, waiting=(0, 11))
    moves = pos.legal_moves((2, 1))
    assert [(str(m), m.named, m.again) for m in moves] == [("13/11", None, False)]
    assert outcomes(pos, (2, 1)) == {(board({11: 1}, {12: 2, 10: 2}, waiting=(0, 11)), False)}


def test_12_prefers_the_2_when_only_one_die_plays() -> None:
    # The opponent holds only the 10-point: 13/12 then 12/10 is blocked, 13/11 then 11/10 is
    # blocked; each die alone can be played, and the larger, the 2, must be: 13/11 alone.
    pos = position({13: 1}, {10: 2}, waiting=(0, 13))
    assert [(str(m), m.named, m.again) for m in pos.legal_moves((2, 1))] == [("13/11", None, False)]


def test_12_lost_entirely() -> None:
    # Fifteen waiting, the opponent holds the 24- and 23-points: neither the 1 nor the 2 can
    # enter: a lost turn, the empty move, no double.
    pos = position(theirs={24: 2, 23: 2}, waiting=(15, 11))
    moves = pos.legal_moves((2, 1))
    assert len(moves) == 1 and moves[0].steps == () and moves[0].named is None and not moves[0].again


def test_12_named_double_not_fully_played() -> None:
    # A lone checker on 24 (14 off), the opponent holds the 13-point.  1-2: 24/21.  Then:
    #   1-1: 21/17, in full: roll again.
    #   2-2: 21/19/17/15, then 15/13 is blocked: three steps, no roll again.
    #   3-3: 21/18/15/12/9 in full: roll again.
    #   4-4: 21/17, then 17/13 is blocked: one step, no roll again.
    #   5-5: 21/16/11/6/1 in full: roll again.
    #   6-6: 21/15/9/3/off: the game is over, no roll again.
    # Rule 7: (17, again) and (17, no roll again) are two distinct outcomes.
    theirs = {13: 2}
    pos = position({24: 1}, theirs, waiting=(0, 13))
    w = (0, 13)
    assert outcomes(pos, (2, 1)) == {
        (board({17: 1}, theirs, w), True),
        (board({15: 1}, theirs, w), False),
        (board({9: 1}, theirs, w), True),
        (board({17: 1}, theirs, w), False),
        (board({1: 1}, theirs, w), True),
        (board({}, theirs, w), False),
    }
    by_name = {(m.named, m.again): str(m) for m in pos.legal_moves((2, 1))}
    assert by_name[(4, False)] == "24/21 + 4-4: 21/17"
    assert by_name[(1, True)] == "24/21 + 1-1: 21/17"


def test_12_named_double_that_cannot_be_played_at_all() -> None:
    # Fifteen waiting; the opponent holds the mover's 22-, 21-, 20- and 19-points.  1-2:
    # the 1 enters on 24, the 2 on 23; moving on (24/22, 23/22) is blocked, so the 1-2
    # enters two: bar/24 bar/23.  Then, from {24, 23} with 13 waiting:
    #   2-2: entering on 23 is open (24/22 and 23/21 are not): bar/23(4), in full, roll again.
    #   3-3: enter on 22, 24/21, 23/20: all blocked - nothing: the turn ends, no roll again.
    #   4-4: enter on 21, 24/20, 23/19: all blocked - nothing either.
    #   (1-1, 5-5 via 23/18, 6-6 via 24/18 or 23/17 are played in other ways.)
    # So naming 3-3 or 4-4 leaves the 1-2's board, without a roll again.
    theirs = {22: 2, 21: 2, 20: 2, 19: 2}
    pos = position(theirs=theirs, waiting=(15, 7))
    after_12 = board({24: 1, 23: 1}, theirs, (13, 7))
    result = outcomes(pos, (2, 1))
    assert (after_12, False) in result
    assert (board({24: 1, 23: 5}, theirs, (9, 7)), True) in result  # + 2-2: bar/23(4)
    unplayable = [m for m in pos.legal_moves((2, 1)) if m.named in (3, 4)]
    assert len(unplayable) == 1, "3-3 and 4-4 reach the same outcome: listed once"
    assert len(unplayable[0].steps) == 2 and not unplayable[0].again
    assert str(unplayable[0]) == f"bar/24 bar/23 + {unplayable[0].named}-{unplayable[0].named}:"


def test_12_game_ends_during_the_12() -> None:
    # One on the 2-point and one on the 1-point (13 off).  1-2:
    #   2 first: 2/off (exact), then 1: 1/off - the game is over;
    #   1 first: 1/off, then 2: 2/off - over; or 2/1, then 2 bears off from the highest
    #   point (1): one checker left on the 1-point, and a double is named: any d bears it
    #   off with its first step (the game over, no roll again).
    # Only one outcome: every checker off, no roll again.
    opponent = {24: 15}
    pos = position({2: 1, 1: 1}, opponent)
    assert outcomes(pos, (2, 1)) == {(board({}, opponent), False)}
    moves = pos.legal_moves((2, 1))
    assert len(moves) == 1 and not moves[0].again
    after = pos.play(moves[0])
    assert after.is_game_over()
    # Seen from the loser: all 15 on its own 1-point (not in the winner's home), none off.
    assert after.result() == GameResult(1, Outcome.GAMMON)


def test_12_bar_first_in_the_named_double() -> None:
    # One on the bar, 14 waiting; the opponent has a blot on the mover's 23-point (and 14
    # waiting) and holds the 21- and 20-points.  1-2: the bar checker enters first:
    #   with the 1 (24), then the 2: enter on 23 (hit) or 24/22;
    #   with the 2 (23, hitting), then the 1: enter on 24, or 23/22.
    # So 1-2 leaves {24, 23*}, {22} via 24, or {22*} via 23 (the hit): the bar is empty in
    # all, and the named double enters or moves freely.  For 6-6 from {24, 23*}: enter on 19
    # four times (9 left waiting), or 24/18, 23/17, and so on, all in full: roll again.
    theirs = {23: 1, 21: 2, 20: 2}
    pos = position({25: 1}, theirs, waiting=(14, 10))
    result = outcomes(pos, (2, 1))
    assert (board({24: 1, 23: 1, 19: 4}, {0: 1, 21: 2, 20: 2}, (9, 10)), True) in result
    assert all(after[25] == 0 for after, _ in result), "the bar checker always enters"
    assert all(m.steps[0][0] == 25 for m in pos.legal_moves((2, 1)))


# --- rule 7: distinct outcomes -------------------------------------------------------------------------


def test_finished_game_has_no_moves() -> None:
    # The mover has borne off all fifteen: the game is over, no move at all.
    pos = position(theirs={24: 15})
    assert pos.is_game_over()
    assert len(pos.legal_moves((6, 5))) == 0 and len(pos.legal_moves((2, 1))) == 0
    with pytest.raises(IllegalMoveError):
        pos.parse_move("", (6, 5))
    # The opponent has borne off all fifteen (the mover 15 on its 13-point): over too.
    pos = position({13: 15})
    assert pos.is_game_over() and len(pos.legal_moves((6, 5))) == 0
    assert ref.outcomes(pos.to_array().tolist(), (6, 5)) == set()


def test_outcomes_and_positions_agree() -> None:
    # outcomes() is (26-slot board, the mover's waiting, again) of boards() and again().
    pos = position({24: 1}, waiting=(0, 15))
    moves = pos.legal_moves((2, 1))
    boards = moves.boards()
    for (b26, waiting, again), row, a in zip(moves.outcomes(), boards.tolist(), moves.again().tolist(), strict=True):
        assert list(b26) == row[:26] and waiting == row[26] and again == a


# --- rule 8: scoring -----------------------------------------------------------------------------------


def test_single_game() -> None:
    # The mover has borne off all; the opponent one (14 left on the mover's 12-point).
    assert position(theirs={12: 14}).result() == GameResult(0, Outcome.SINGLE)


def test_gammon() -> None:
    # The opponent has borne off none, none waiting, none on the bar or in the mover's home.
    assert position(theirs={12: 15}).result() == GameResult(0, Outcome.GAMMON)


def test_backgammon_with_a_waiting_checker() -> None:
    # Fourteen on the 12-point and one still waiting: a backgammon.
    assert position(theirs={12: 14}, waiting=(0, 1)).result() == GameResult(0, Outcome.BACKGAMMON)
    # Fifteen waiting (the documented example), or one on the bar, or one in the mover's home.
    assert AceyDeuceyPosition([0] * 26, waiting=(0, 15)).result() == GameResult(0, Outcome.BACKGAMMON)
    assert position(theirs={12: 14, 0: 1}).result() == GameResult(0, Outcome.BACKGAMMON)
    assert position(theirs={12: 14, 3: 1}).result() == GameResult(0, Outcome.BACKGAMMON)


def test_the_opponent_wins() -> None:
    # Seen from the loser: the opponent has borne off all fifteen; the mover has one waiting.
    assert position({13: 14}, waiting=(1, 0)).result() == GameResult(1, Outcome.BACKGAMMON)
    assert position({13: 15}).result() == GameResult(1, Outcome.GAMMON)
    assert position({13: 10}).result() == GameResult(1, Outcome.SINGLE)
    assert position({13: 14}, {1: 1}).result() is None  # the game goes on


# --- notation ---------------------------------------------------------------------------------------------


def test_notation_round_trip() -> None:
    # Entering is written as from the bar; after 1-2 the double follows '+ d-d:'.
    start = AceyDeuceyPosition.initial()
    move = start.parse_move("bar/20 bar/19", (6, 5))
    assert move.steps in (((25, 20), (25, 19)), ((25, 19), (25, 20)))
    assert str(move) == "bar/20 bar/19"
    move = start.parse_move("bar/24 bar/23 + 6-6: bar/19(4)", (2, 1))
    assert move.named == 6 and move.again and len(move.steps) == 6
    assert str(move) == "bar/24 bar/23 + 6-6: bar/19(4)"
    for m in start.legal_moves((2, 1))[:40]:
        assert start.parse_move(str(m), (2, 1)) == m


def test_notation_of_hits_and_bear_offs() -> None:
    pos = position({25: 1}, {20: 1}, waiting=(14, 14))
    assert str(pos.parse_move("bar/20*/14", (6, 5))) == "bar/20*/14"
    pos = position({3: 2, 1: 1}, {24: 15})
    assert str(pos.parse_move("3/off(2)", (6, 5))) == "3/off(2)"


def test_notation_errors() -> None:
    start = AceyDeuceyPosition.initial()
    with pytest.raises(IllegalMoveError):
        start.parse_move("bar/18", (6, 5))  # no 7 to play
    with pytest.raises(IllegalMoveError):
        start.parse_move("bar/24 bar/23 + 6-5: bar/19 bar/20", (2, 1))  # a named double is a double
    with pytest.raises(IllegalMoveError):
        start.parse_move("", (6, 5))  # the turn cannot be passed
    with pytest.raises(ValueError):
        AceyDeuceyMove([(25, 20)], dice=(6, 5), named=6)  # only 1-2 names a double
    with pytest.raises(ValueError):
        AceyDeuceyMove([(25, 20), (25, 19)], dice=(6, 5), again=True)  # only a full named double


# --- play ---------------------------------------------------------------------------------------------------


def test_play_flips_for_the_opponent() -> None:
    # After 'bar/20 bar/19' from the start the opponent is on roll: the mover's checkers on
    # its 20- and 19-points are the new mover's opponent checkers on its 5- and 6-points.
    start = AceyDeuceyPosition.initial()
    after = start.play(start.parse_move("bar/20 bar/19", (6, 5)))
    assert after.waiting == (15, 13)
    assert after.to_array().tolist() == list(board(theirs={5: 1, 6: 1}, waiting=(15, 13)))
    assert after == AceyDeuceyPosition.from_array(board({20: 1, 19: 1}, waiting=(13, 15))).flip()


def test_play_again_keeps_the_mover() -> None:
    # A 1-2 with a named double played in full: the mover rolls again, the position is not
    # flipped: 'bar/24 bar/23 + 1-1: bar/24(4)' leaves 6 entered, 9 waiting.
    start = AceyDeuceyPosition.initial()
    move = start.legal_moves((2, 1))[0]
    assert move.again
    after = start.play(move)
    assert after.waiting == (9, 15)
    assert after.to_array().tolist() == list(board({24: 5, 23: 1}, waiting=(9, 15)))
    # A move rebuilt from its steps is played the same way (found among the legal moves).
    rebuilt = AceyDeuceyMove(move.steps, dice=(2, 1), named=1, again=True)
    assert start.play(rebuilt) == after


def test_play_rejects_an_illegal_move() -> None:
    start = AceyDeuceyPosition.initial()
    with pytest.raises(IllegalMoveError):
        start.play(AceyDeuceyMove([(24, 18)], dice=(6, 5)))
    with pytest.raises(TypeError):
        start.play("bar/20 bar/19")  # type: ignore[arg-type]


# --- invalid input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "waiting",
    [(16, 0), (-1, 0), (0, 16), (1.0, 0), (True, 0), (1, 2, 3), (1,), 5, "ab"],
    ids=repr,
)
def test_bad_waiting_counts(waiting: object) -> None:
    with pytest.raises(InvalidPositionError):
        AceyDeuceyPosition([0] * 26, waiting=waiting)  # type: ignore[arg-type]
    assert issubclass(InvalidPositionError, ValueError)


def test_waiting_inconsistent_with_the_board() -> None:
    # Two on the board and 12 waiting: a side with checkers waiting has all 15 on the board
    # or waiting (it has borne none off).
    with pytest.raises(InvalidPositionError, match="a side with checkers waiting"):
        AceyDeuceyPosition([0] * 19 + [2] + [0] * 6, waiting=(12, 15))
    # More than fifteen: two on the board and 14 waiting.
    with pytest.raises(InvalidPositionError, match="more than 15"):
        AceyDeuceyPosition([0] * 19 + [2] + [0] * 6, waiting=(14, 15))
    # The same for the opponent.
    with pytest.raises(InvalidPositionError):
        AceyDeuceyPosition([0] * 5 + [-2] + [0] * 20, waiting=(15, 12))


def test_bad_arrays() -> None:
    with pytest.raises(InvalidPositionError):
        AceyDeuceyPosition.from_array([0] * 26)
    with pytest.raises(InvalidPositionError):
        AceyDeuceyPosition.from_array([0] * 26 + [16, 15])
    with pytest.raises(TypeError):
        AceyDeuceyPosition.from_array([0.0] * 26 + [15.0, 15.0])
    with pytest.raises(InvalidPositionError):
        AceyDeuceyPosition.initial().xgid()
