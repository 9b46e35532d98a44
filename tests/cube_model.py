"""A slow, independent model of the engine's games with the cube: bgcore.Game
(its rules for doubles, takes, drops, beavers, the Jacoby rule, the Crawford
game) and bgcore.Match play the games, Game.cube_decision makes the cube
decisions, and the dice come from the same streams as the engine's.

The engine (bg_cubeplay.h, _engine.pyx) must give the same points, game for
game; the model shares with it only gnubg's 0-ply theory (bgcore.cube) and
the greedy choice of moves (bgcore.policy.scores).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from bgcore import Dice, Game, Match
from bgcore._gamestate import Action
from bgcore.cube import CubeAction, CubeInfo, Response, cube_decision
from bgcore.policy import scores

#: The decisions on which gnubg's rollouts turn the cube.
DOUBLING = {
    CubeAction.DOUBLE_TAKE,
    CubeAction.DOUBLE_PASS,
    CubeAction.DOUBLE_BEAVER,
    CubeAction.REDOUBLE_TAKE,
    CubeAction.REDOUBLE_PASS,
}

Evaluator = Callable[[np.ndarray], Any]


class Log(Counter[str]):
    """What happened in the model's games: doubles, takes, drops, beavers, ..."""


def move(game: Game, policy: Any) -> None:
    """Roll the game's dice and play the move the engine's greedy policy plays."""
    game.roll()
    moves = game.legal_moves()
    assert moves
    if len(moves) == 1:
        game.play(moves[0])
        return
    children = np.stack([after.flip().to_array() for after in moves.positions()])
    game.play(moves[int(np.argmax(scores(policy, children)))])


def probabilities(evaluator: Evaluator, game: Game) -> list[float]:
    p = np.asarray(evaluator(game.position.to_array()[np.newaxis, :]), dtype=np.float64)
    return [float(v) for v in p[0]]


def cube_turn(game: Game, mine: Evaluator | None, theirs: Evaluator | None, log: Log) -> None:
    """The cube turn of the player on roll: it doubles by the theory on its
    evaluator ``mine`` (None: never); the opponent answers by ``theirs``
    (None: always takes); a beavered doubler takes unless passing is better."""
    if mine is None or Action.DOUBLE not in game.legal_actions():
        return
    decision = game.cube_decision(mine)
    if decision.action not in DOUBLING:
        return
    answer = Response.TAKE
    if theirs is mine:
        answer = decision.response
    elif theirs is not None:
        answer = game.cube_decision(theirs).response
    doubler, cube = game.on_roll, game.cube
    game.double()
    log["double"] += 1
    if answer is Response.PASS:
        game.drop()
        log["pass"] += 1
    elif answer is Response.BEAVER and Action.BEAVER in game.legal_actions():
        game.beaver()
        log["beaver"] += 1
        state = CubeInfo(cube=4 * cube, cube_owner=1 - doubler, on_roll=doubler, jacoby=game.jacoby, beavers=True)
        if 4 * cube_decision(probabilities(mine, game), game.position, state).no_double < -2:
            game.drop()
            log["beaver passed"] += 1
        else:
            game.take()
    else:
        game.take()
        log["take"] += 1


def play_out(game: Game, policies: tuple[Any, Any], theories: tuple[Any, Any], log: Log, *, first: bool) -> None:
    """Play ``game`` to its end: policies[k] and theories[k] are player k's;
    no cube turn before the first roll when ``first``."""
    while not game.is_over():
        if not first:
            me = game.on_roll
            cube_turn(game, theories[me], theories[1 - me], log)
            if game.is_over():
                break
        first = False
        move(game, policies[game.on_roll])
    if game.result is not None and game.result.kind.name != "SINGLE":
        log[game.result.kind.name.lower()] += 1


def points(game: Game, player: int) -> int:
    result = game.result
    assert result is not None
    return result.points if result.winner == player else -result.points


def rollout_games(start: Game, games: int, seed: int, policy: Any, evaluator: Evaluator, log: Log) -> np.ndarray:
    """Each game's points for the player on roll at ``start``, without a
    double at the start and doubled and taken (when the player may double
    and the theory does not call the cube dead),
    as the engine's cubeful rollout plays them without stratification."""
    me = start.on_roll
    dead = {CubeAction.NO_DOUBLE_DEAD_CUBE, CubeAction.NO_REDOUBLE_DEAD_CUBE, CubeAction.NOT_AVAILABLE}
    may_double = Action.DOUBLE in start.legal_actions() and start.cube_decision(evaluator).action not in dead
    branches = (False, True) if may_double else (False,)
    out = np.zeros((games, len(branches)))
    for g in range(games):
        for b, doubled in enumerate(branches):
            game = Game.from_ids(start.gnubg_id(), dice=Dice(seed, g), beavers=start.beavers, max_cube=start.max_cube)
            if doubled:
                game.double()
                game.take()
            play_out(game, (policy, policy), (evaluator, evaluator), log, first=True)
            out[g, b] = points(game, me)
    return out


def money_duel(
    games: int, seed: int, policies: tuple[Any, Any], theories: tuple[Any, Any], log: Log, **rules: bool
) -> np.ndarray:
    """Each game's points for seat 0 (policies[0] in the even games, the other one in the odd ones)."""
    out = np.zeros(games)
    for g in range(games):
        swap = g & 1
        seats = (policies[swap], policies[1 - swap]), (theories[swap], theories[1 - swap])
        game = Game(dice=Dice(seed, g // 2), **rules)
        game.roll()  # the opening roll: the higher die moves first
        game.play(_choice(game, seats[0][game.on_roll]))
        play_out(game, *seats, log, first=False)
        out[g] = points(game, 0)
    return out


def _choice(game: Game, policy: Any) -> Any:
    moves = game.legal_moves()
    assert moves
    if len(moves) == 1:
        return moves[0]
    children = np.stack([after.flip().to_array() for after in moves.positions()])
    return moves[int(np.argmax(scores(policy, children)))]


def matches(
    count: int, length: int, seed: int, policies: tuple[Any, Any], theories: tuple[Any, Any], log: Log
) -> np.ndarray:
    """Each match's (seat 0 won, seat 0's net points, games), as the engine's match duel gives them."""
    out = np.zeros((count, 3))
    for m in range(count):
        swap = m & 1
        seats = (policies[swap], policies[1 - swap]), (theories[swap], theories[1 - swap])
        match = Match(length, dice=Dice(seed, m // 2))
        net = games = 0
        while True:
            game = match.game
            if game.crawford:
                log["crawford"] += 1
            elif 1 in [length - s for s in match.score]:
                log["post-crawford"] += 1
            game.roll()
            game.play(_choice(game, seats[0][game.on_roll]))
            play_out(game, *seats, log, first=False)
            net += points(game, 0)
            games += 1
            if match.is_over():
                break
            match.new_game()
        out[m] = (match.winner == 0, net, games)
    return out
