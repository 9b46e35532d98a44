"""Seeded random matches for the .mat tests: random legal moves, random cube
decisions (doubles, takes, drops, beavers where allowed) and resignations,
some accepted and some rejected.  Test code, imported as ``matplay``."""

from __future__ import annotations

import random

from bgcore import Match
from bgcore.game import Action, Game

__all__ = ["random_match", "play_action", "summary", "scripted"]


def _forced_win(game: Game) -> bool:
    """The dice are rolled and their only play wins: gnubg's import plays a
    lone play even when the file says the player resigned instead."""
    moves = game.legal_moves()
    return len(moves) == 1 and game.position.play(moves[0]).result() is not None


def play_action(game: Game, rng: random.Random, *, double: float = 0.08, resign: float = 0.015) -> None:
    """One random legal action of the player to act."""
    actions = game.legal_actions()
    if Action.ACCEPT in actions:
        getattr(game, rng.choice(["accept", "accept", "reject"]))()
    elif Action.TAKE in actions:
        weights = {Action.TAKE: 6, Action.DROP: 4, Action.BEAVER: 1}
        # A beaver is always taken: gnubg's .mat import keeps a dropped
        # beaver's flag (ParseMatMove's static fBeaver) and eats the next roll.
        options = [Action.TAKE] if game.beavered else [a for a in actions if a in weights]
        choice = rng.choices(options, [weights[a] for a in options])[0]
        getattr(game, choice.value)()
    elif Action.RESIGN in actions and rng.random() < resign and len(game.history) > 1 and not _forced_win(game):
        # (not right after the opening roll: gnubg's export writes a roll not
        # yet moved in the left column, whoever rolled it)
        game.resign(rng.choice([1, 1, 2, 3]))
    elif Action.MOVE in actions:
        game.play(rng.choice(list(game.legal_moves())))
    elif Action.DOUBLE in actions and rng.random() < double:
        game.double()
    else:
        game.roll()


def random_match(
    length: int,
    seed: int,
    *,
    max_games: int = 6,
    finish: bool = True,
    double: float = 0.08,
    resign: float = 0.015,
    **options: object,
) -> Match:
    """A match (or money session) played at random from ``seed``.  It stops
    when the match is over or after ``max_games`` games; with
    ``finish=False`` the last game may stop anywhere."""
    rng = random.Random(seed)
    match = Match(length, dice=seed, **options)  # type: ignore[arg-type]
    stop_at = None if finish else rng.randrange(0, 200)
    steps = 0
    while True:
        game = match.game
        if game.is_over():
            if match.is_over() or len(match.games) >= max_games:
                break
            match.new_game()
            continue
        if stop_at is not None and len(match.games) == max_games and steps >= stop_at:
            break
        play_action(game, rng, double=double, resign=resign)
        steps += 1
    return match


def summary(match: Match) -> list[tuple[object, ...]]:
    """What a .mat file keeps of each game: the score before it, its actions
    (rolls with their moves, cube actions, accepted resignations) and its result."""
    out: list[tuple[object, ...]] = []
    for game in match.games:
        actions: list[tuple[object, ...]] = []
        history = game.history
        for k, rec in enumerate(history):
            following = history[k + 1] if k + 1 < len(history) else None
            if rec.action is Action.RESIGN:
                # accepted, or the end of the game (Game.force, as a record has it)
                if (following is None and game.result is not None) or (
                    following is not None and following.action is Action.ACCEPT
                ):
                    actions.append(("resign", rec.player, rec.kind))
            elif rec.action in (Action.ACCEPT, Action.REJECT):
                continue
            elif rec.action is Action.MOVE:  # (no move: a turn passed unrolled, by Game.force)
                actions.append(("move", rec.player, rec.move))
            else:
                actions.append((rec.action.value, rec.player, rec.dice))
        result = game.result
        outcome = None if result is None else (result.winner, result.points, result.kind, result.end, result.cube)
        actions_tuple = tuple(actions)
        out.append((game.score, actions_tuple, outcome))
    return out


def scripted() -> Match:
    """A 3-point match touching most records: player 1 winning the opening,
    hits, a bar entry, a double, a take and a redouble, a drop in each
    column, the Crawford game, a resignation in each column."""
    match = Match(3, dice=1)
    g = match.game
    g.roll((1, 3))  # player 1 wins the opening with 3-1
    g.play("8/5 6/5")
    g.roll((6, 4))
    g.play("24/18 13/9")
    g.roll((6, 2))
    g.play("13/7* 13/11")
    g.double()
    g.take()
    g.roll((4, 3))
    g.play("bar/21 13/10")
    g.roll((2, 2))
    g.play("24/20(2)")
    g.roll((3, 1))
    g.play("24/21 10/9")
    g.double()
    g.drop()  # player 0 drops in the left column: player 1 wins 2
    match.new_game()
    g = match.game
    assert g.crawford
    g.roll((5, 2))
    g.play("13/11 13/8")
    g.resign("single")
    g.accept()  # player 1 resigns: "Wins" in the left column
    match.new_game()
    g = match.game
    g.roll((5, 2))
    g.play("13/11 13/8")
    g.roll((6, 6))
    g.play("24/18(2) 13/7(2)")
    g.double()
    g.drop()  # player 1 drops in the right column: player 0 wins 1
    match.new_game()
    g = match.game
    g.roll((1, 4))
    g.play("24/23 13/9")
    g.resign("single")
    g.accept()  # player 0 resigns: "Wins" in the right column, and the match
    return match
