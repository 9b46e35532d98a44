"""The Move value: construction, checks, equality, immutability."""

from __future__ import annotations

import copy
import pickle

import pytest

from bgcore import Move, Position


def test_move_value_semantics() -> None:
    m = Move([(24, 18), (13, 10)], dice=(3, 6), hits=[False, True])
    assert m.dice == (6, 3) and m.steps == ((24, 18), (13, 10)) and m.hits == (False, True)
    assert m.hit_points == frozenset({10}) and m.pips == 9 and len(m) == 2 and m
    same = Move(((24, 18), (13, 10)), dice=(6, 3), hits=(False, True))
    assert m == same and hash(m) == hash(same) and len({m, same}) == 1
    assert m != Move([(24, 18), (13, 10)], dice=(6, 3))
    assert eval(repr(m), {"Move": Move}) == m
    assert pickle.loads(pickle.dumps(m)) == m and copy.deepcopy(m) == m
    with pytest.raises(AttributeError):
        m.dice = (1, 1)  # type: ignore[misc]


@pytest.mark.parametrize(
    "steps,dice,hits,exc",
    [
        ([(24, 25)], (1, 2), None, ValueError),  # backwards
        ([(26, 20)], (6, 1), None, ValueError),  # no point 26
        ([(6, -1)], (6, 1), None, ValueError),
        ([(6, 0)], (6, 1), [True], ValueError),  # off cannot hit
        ([(6, 5)] * 5, (1, 1), None, ValueError),  # five steps
        ([(6, 5)], (1, 1), [True, False], ValueError),
        ([(6, 5)], (0, 1), None, ValueError),
        ([(6, 5)], (1, 2, 3), None, ValueError),
        ([(6, 5)], "12", None, TypeError),
        ([(6, 5)], (1.0, 2), None, TypeError),
        ([(6, 5)], (True, 2), None, TypeError),
        ([6], (1, 2), None, TypeError),
        ([("6", "5")], (1, 2), None, TypeError),
    ],
)
def test_move_rejects_bad_input(steps, dice, hits, exc) -> None:
    with pytest.raises(exc):
        Move(steps, dice=dice, hits=hits)


def test_legal_moves_are_canonical_and_playable() -> None:
    pos = Position.initial()
    for m in pos.legal_moves((6, 6)):
        assert list(m.steps) == sorted(m.steps, reverse=True)
        assert m.dice == (6, 6)
        assert pos.play(m).flip() != pos
