"""Invariants of the move generator, checked by hypothesis on many positions."""

from __future__ import annotations

from hypothesis import given

from bgcore import Position
from strategies import positions, rolls


def on_board(pos: Position) -> tuple[int, int]:
    return sum(v for v in pos.board if v > 0), -sum(v for v in pos.board if v < 0)


@given(positions, rolls)
def test_move_invariants(pos: Position, dice: tuple[int, int]) -> None:
    moves = pos.legal_moves(dice)
    if pos.is_game_over():
        assert len(moves) == 0
        return
    assert len(moves) >= 1
    results = [pos.play(m) for m in moves]
    assert len(set(results)) == len(results), "every result appears once"
    used = {len(m) for m in moves}
    assert len(used) == 1, "every move plays the same number of dice"
    hi, lo = dice if dice[0] >= dice[1] else dice[::-1]
    for m, after in zip(moves, results, strict=False):
        mine_before, theirs_before = pos.borne_off()
        theirs_after, mine_after = after.borne_off()
        # checkers are conserved: on the board plus borne off is the total
        assert after.checkers == pos.checkers
        assert theirs_after == theirs_before  # the opponent bears nothing off
        assert mine_after - mine_before == sum(1 for _, d in m.steps if d == 0)
        hits = sum(m.hits)
        assert after.board[25] + pos.board[0] == hits  # hit checkers went to the bar
        # each step moves exactly a die's pips (or less, bearing off with a larger die)
        dist = sorted((s - d for s, d in m.steps), reverse=True)
        if all(d for _, d in m.steps):
            if hi == lo:
                assert dist == [hi] * len(m)
            elif len(m) == 2:
                assert dist == [hi, lo]
            else:
                assert len(m) <= 1 and set(dist) <= {hi, lo}
        assert all(s - d <= hi for s, d in m.steps)
        # pips: the mover's pip count falls by the pips moved
        assert pos.pip_count()[0] - after.pip_count()[1] == m.pips
        # notation round trip
        assert pos.parse_move(str(m), dice) == m


@given(positions)
def test_flip_and_ids(pos: Position) -> None:
    assert pos.flip().flip() == pos
    assert Position.from_position_id(pos.position_id(), checkers=pos.checkers) == pos
    assert Position.from_xgid(pos.xgid(), checkers=pos.checkers) == pos
    assert Position.from_array(pos.to_array(), checkers=pos.checkers) == pos
    mine, theirs = pos.pip_count()
    assert pos.flip().pip_count() == (theirs, mine)
    assert pos.flip().borne_off() == pos.borne_off()[::-1]


@given(positions, rolls)
def test_dice_order_does_not_matter(pos: Position, dice: tuple[int, int]) -> None:
    assert list(pos.legal_moves(dice)) == list(pos.legal_moves(dice[::-1]))
