"""Games against GNU Backgammon itself: the gnubg ID and the XGID of every
state of seeded random games load into gnubg as the same game."""

from __future__ import annotations

import random

import pytest

import oracle
from bgcore import Match
from bgcore.game import Action

oracle.require()
gnubg = pytest.importorskip("gnubg")


@pytest.mark.parametrize("length,seed", [(0, 1), (3, 2), (5, 3), (7, 4), (11, 5)])
def test_gnubg_loads_every_state_as_written(length: int, seed: int) -> None:
    """gnubg steps back from a pending double and ends games its own way, so
    those states are left out; every other one reads back byte for byte."""
    match = Match(length, dice=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(400):
        game = match.game
        if game.is_over():
            if match.is_over():
                break
            match.new_game()
            continue
        actions = [a for a in game.legal_actions() if a is not Action.RESIGN]
        action = rng.choice(actions)
        if action is Action.MOVE:
            game.play(rng.choice(list(game.legal_moves())))
        else:
            getattr(game, action.value)()
        if game.is_over() or game.doubled or game.opening:
            continue
        ours = oracle.comparable(game.gnubg_id(), length == 0)
        assert oracle.comparable(oracle.gnubg_reads(game.gnubg_id()), length == 0) == ours
        assert oracle.comparable(oracle.gnubg_reads(game.xgid()), length == 0) == ours, game.xgid()
        checked += 1
    assert checked > 50
