"""A hypothesis state machine plays random legal actions in games and
matches and checks the invariants of every state it meets."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import oracle
from bgcore import Game, IllegalActionError, Match
from bgcore.game import Action
from bgcore.ids import MatchId

# gnubg, where it serves as the oracle, must load every state the machine
# meets as written (tests/test_game_gnubg.py says which states it cannot hold).
GNUBG = None if oracle.unavailable_reason() else __import__("gnubg")


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
            if game.resigned is None and not game.beavered:  # an XGID holds neither (gnubg reads no "B")
                assert Game.from_xgid(game.xgid(), beavers=game.beavers).gnubg_id() == game.gnubg_id()
            if GNUBG is not None and not game.doubled and not game.resigned:
                money = game.match_length == 0
                loaded = oracle.gnubg_reads(game.gnubg_id())
                assert oracle.comparable(loaded, money) == oracle.comparable(game.gnubg_id(), money)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
