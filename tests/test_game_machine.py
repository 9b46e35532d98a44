"""A hypothesis state machine plays random legal actions in games and
matches and checks the invariants of every state it meets, against gnubg
where it serves as the oracle: every state, finished games and matches and
pending beavers included, is the state gnubg holds."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import oracle
from bgcore import Bot, Game, IllegalActionError, Match, nn
from bgcore.game import Action
from bgcore.ids import MatchId

# gnubg, where it serves as the oracle, must load every state the machine
# meets as written (tests/test_game_gnubg.py says which states it cannot hold).
GNUBG = oracle.optional()
if GNUBG is not None:
    from test_game_gnubg import gnubg_game_ends, imported_as_played
    from test_matfile_gnubg import command, quiet


@pytest.fixture(scope="module", autouse=True)
def _gnubg_waits_for_commands() -> Iterator[None]:
    """Both gnubg players human, no automatic rolls or games, one beaver;
    gnubg's defaults are put back afterwards."""
    if GNUBG is None:
        yield
        return
    command("set player 0 human", "set player 1 human", "set automatic game off", "set automatic roll off")
    command("set beavers 1")
    yield
    command("set beavers 3", "set automatic game on", "set automatic roll on", "set player 0 gnubg")


def _tiny_network() -> nn.Network:
    """A small random network (softmax outputs: consistent probabilities), cheap enough for every step."""
    rng = np.random.default_rng(29)
    layers = [(rng.normal(0, 0.3, (198, 8)), np.zeros(8)), (rng.normal(0, 0.5, (8, 6)), np.zeros(6))]
    return nn.Network(layers, ["sigmoid"], encoding="tesauro198", output="softmax")


#: A bot acting wherever the machine has got to: its action must be legal and keep every invariant.
BOT = Bot(_tiny_network())


def checkers_on_board(game: Game) -> tuple[int, int]:
    board = game.position.board
    return sum(v for v in board if v > 0), -sum(v for v in board if v < 0)


class GameMachine(RuleBasedStateMachine):
    """Random actions on one match (money or to a few points), a new game
    whenever one ends; every rejected action must leave the state as it was."""

    @initialize(
        length=st.sampled_from([0, 1, 3, 5]),
        seed=st.integers(0, 2**32),
        beavers=st.booleans(),
        jacoby=st.booleans(),
        max_cube=st.sampled_from([None, 4, 64]),
    )
    def start(self, length: int, seed: int, beavers: bool, jacoby: bool, max_cube: int | None) -> None:
        money = length == 0
        self.match = Match(length, dice=seed, beavers=beavers and money, jacoby=jacoby and money, max_cube=max_cube)
        self.snapshots: list[tuple[object, tuple[object, ...]]] = []
        self.checked_ends: set[int] = set()  # the games whose end gnubg has imported

    @property
    def game(self) -> Game:
        return self.match.game

    def _act(self, action: Action, *args: object) -> None:
        before = (self.game._state, self.game.history)
        getattr(self.game, action.value if action is not Action.MOVE else "play")(*args)
        self.snapshots.append(before)

    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        actions = self.game.legal_actions()
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        if action is Action.MOVE:
            moves = self.game.legal_moves()
            self._act(action, moves[data.draw(st.integers(0, len(moves) - 1))])
        elif action is Action.RESIGN:
            self._act(action, data.draw(st.sampled_from(["single", "gammon", "backgammon"])))
        else:
            self._act(action)

    @rule(rng=st.randoms(use_true_random=False), steps=st.integers(1, 300))
    def play_on(self, rng: random.Random, steps: int) -> None:
        """Rolls and moves only, for a while: games get to their bear-off."""
        for _ in range(steps):
            actions = self.game.legal_actions()
            if Action.MOVE in actions:
                self._act(Action.MOVE, rng.choice(list(self.game.legal_moves())))
            elif Action.ROLL in actions:
                self._act(Action.ROLL)
            else:
                return  # over, or an offer to answer

    @rule(steps=st.integers(1, 40))
    def a_bot_acts(self, steps: int) -> None:
        """A bot takes over both sides, in whatever state the game is, for a few actions."""
        for _ in range(steps):
            if self.game.is_over():
                return
            action, argument = BOT.act(self.game)
            assert action in self.game.legal_actions(), (action, self.game.gnubg_id())
            before = (self.game._state, self.game.history)
            self.game.apply(action, argument)
            self.snapshots.append(before)

    @precondition(lambda self: Action.DOUBLE in self.game.legal_actions() and self.game.beavers)
    @rule()
    def double_and_beaver(self) -> None:
        """A beaver, when the cube has room for it: the doubler to answer."""
        self._act(Action.DOUBLE)
        if Action.BEAVER in self.game.legal_actions():
            self._act(Action.BEAVER)

    @rule(action=st.sampled_from(list(Action)))
    def any_action_is_done_or_refused_cleanly(self, action: Action) -> None:
        legal = action in self.game.legal_actions()
        before = (self.game._state, self.game.history)
        if legal:
            return
        with pytest.raises((IllegalActionError, ValueError)):
            if action is Action.MOVE:
                self.game.play("24/23")
            elif action is Action.RESIGN:
                self.game.resign("single")
            else:
                getattr(self.game, action.value)()
        assert (self.game._state, self.game.history) == before

    @precondition(lambda self: bool(self.snapshots))
    @rule()
    def undo(self) -> None:
        state, history = self.snapshots.pop()
        self.game.undo()
        assert (self.game._state, self.game.history) == (state, history)

    @precondition(lambda self: self.game.is_over() and not self.match.is_over())
    @rule()
    def next_game(self) -> None:
        self.match.new_game()
        self.snapshots = []

    @invariant()
    def checkers_are_conserved(self) -> None:
        game = self.game
        mine, theirs = checkers_on_board(game)
        borne = game.position.borne_off()
        assert mine + borne[0] == theirs + borne[1] == game.position.checkers

    @invariant()
    def the_cube_is_a_power_of_two_within_its_limit(self) -> None:
        game = self.game
        assert game.cube >= 1 and game.cube & (game.cube - 1) == 0
        if game.max_cube is not None:
            assert game.cube <= game.max_cube
        assert game.cube_owner in (None, 0, 1)
        if game.crawford:
            assert game.cube == 1 and not game.doubled

    @invariant()
    def scores_and_crawford_agree(self) -> None:
        match = self.match
        total = [0, 0]
        crawford_games = 0
        for game in match.games:
            if game.result is not None:
                assert game.result.points == game.cube * (
                    1 if game.result.end.value == "dropped" else game.result.points // game.cube
                )
                total[game.result.winner] += game.result.points
            crawford_games += game.crawford
        assert tuple(total) == match.score
        assert crawford_games <= 1
        if match.length:
            assert max(self.game.score) < match.length

    @invariant()
    def the_match_id_round_trips(self) -> None:
        game = self.game
        state = game.match_state()
        assert MatchId.decode(game.match_id()) == state
        if not game.is_over() and not game.opening:
            again = Game.from_ids(game.gnubg_id(), beavers=game.beavers, max_cube=game.max_cube)
            assert again.match_id() == game.match_id() and again.position == game.position
            assert again.legal_actions() == game.legal_actions()
            if game.resigned is None and not game.beavered:  # an XGID holds neither (gnubg reads no "B")
                assert Game.from_xgid(game.xgid(), beavers=game.beavers).gnubg_id() == game.gnubg_id()

    @invariant()
    def gnubg_holds_the_same_state(self) -> None:
        """A game being played loads into gnubg as written; gnubg steps back
        from a pending double (SetMatchID) and keeps no resignation, so
        those are made by its commands from the state before the offer; a
        finished game is read as gnubg imports the match."""
        game = self.game
        if GNUBG is None:
            return
        money = game.match_length == 0
        if game.is_over():
            self._check_the_end_against_gnubgs_import()
            return
        if game.opening:
            return  # no roll yet: gnubg's ID has no state for it
        if game.doubled and game.match_length:
            doubler, cube = game.on_roll, game.cube
            if cube >= game.match_length - game.score[doubler]:
                return  # gnubg refuses to double a dead cube (play.c CommandDouble); bgcore allows it
        offers = [r for r in game.history if r.action in (Action.DOUBLE, Action.BEAVER, Action.RESIGN)]
        pending = 2 if game.beavered else 1 if game.doubled or game.resigned is not None else 0
        taken_back = [game.undo() for _ in range(pending)]
        assert [r.action for r in taken_back] == [r.action for r in offers[len(offers) - pending :]][::-1]
        before = game.gnubg_id()
        for record in reversed(taken_back):  # the same offers again: no dice, the same state
            game.apply(record.action, record.kind)
        command("set beavers 1")  # an import sets it to the match's
        with quiet():
            GNUBG.setgnubgid(before)
        for record in reversed(taken_back):
            kind = "" if record.kind is None else f" {record.kind.name.lower()}"
            command(f"{record.action.value}{kind}")
        assert oracle.comparable(GNUBG.gnubgid(), money) == oracle.comparable(game.gnubg_id(), money)

    def _check_the_end_against_gnubgs_import(self) -> None:
        number = len(self.match.games)
        if number in self.checked_ends or not all(imported_as_played(g) for g in self.match.games):
            return  # gnubg's import plays the resigner's roll (and wins the game with it, maybe)
        self.checked_ends.add(number)
        open_beavers = [g for g in self.match.games if _beaver_left_open(g)]
        if open_beavers and open_beavers[0] is not self.game:
            return  # gnubg's import eats the first roll after an earlier game's beaver (test_game_gnubg)
        with tempfile.TemporaryDirectory() as folder:
            theirs = gnubg_game_ends(self.match, Path(folder))[-1]
            if open_beavers:
                _clear_gnubgs_beaver_flag(Path(folder))
        if open_beavers and self.game.history[-1].action is not Action.DROP:
            return  # a beaver taken, then the game resigned: gnubg writes no take, and imports none
        money = self.match.length == 0
        assert oracle.comparable(theirs, money) == oracle.comparable(self.game.gnubg_id(), money)


def _beaver_left_open(game: Game) -> bool:
    """The game ended with no roll after its last beaver: gnubg's import
    keeps that beaver's flag, and takes the beaver at the next roll it reads."""
    history = game.history
    beavers = [k for k, record in enumerate(history) if record.action is Action.BEAVER]
    return game.is_over() and bool(beavers) and all(r.action is not Action.ROLL for r in history[beavers[-1] :])


def _clear_gnubgs_beaver_flag(folder: Path) -> None:
    """A taken beaver, imported: gnubg's import forgets a dropped beaver's flag."""
    taken = Match(0, beavers=True, dice=5)
    for action, argument in [("roll", (3, 1)), ("move", "8/5 6/5"), ("double", None), ("beaver", None)]:
        taken.game.apply(action, argument)
    for action, argument in [("take", None), ("roll", (6, 5)), ("move", "24/13")]:
        taken.game.apply(action, argument)
    gnubg_game_ends(taken, folder)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(
    max_examples=100, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
