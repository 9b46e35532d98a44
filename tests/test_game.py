"""Scenario tests for bgcore.Game: the opening, turns, the cube, resignations
and scoring, each rule on its own."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcore import Game, IllegalActionError, IllegalMoveError, InvalidMatchIdError, Outcome, Position, met
from bgcore.game import MAX_AUTOMATIC_DOUBLES, Action, End, GameOutcome
from bgcore.ids import CUBE_LIMIT, MatchId, encode_position_id
from test_ids import refused_quickly


def opened(**options: object) -> Game:
    """A game after the opening roll 3-1 (player 0) and 8/5 6/5."""
    game = Game(**options)  # type: ignore[arg-type]
    game.roll((3, 1))
    game.play("8/5 6/5")
    return game


def test_opening_roll_gives_both_dice_to_the_higher() -> None:
    game = Game(dice=1)
    assert game.opening and game.legal_actions() == [Action.ROLL]
    assert game.roll((2, 5)) == (5, 2)
    assert (game.turn, game.on_roll, game.dice, game.opening) == (1, 1, (5, 2), False)
    assert game.legal_actions() == [Action.MOVE, Action.RESIGN]
    with pytest.raises(IllegalActionError, match="tie"):
        Game(dice=1).roll((4, 4))


def test_opening_ties_are_rolled_again() -> None:
    class Scripted:
        def __init__(self, rolls: list[tuple[int, int]]) -> None:
            self.rolls = rolls

        def roll(self) -> tuple[int, int]:
            return self.rolls.pop(0)

    game = Game(dice=Scripted([(3, 3), (6, 6), (2, 4)]))
    assert game.roll() == (4, 2) and game.on_roll == 1 and game.cube == 1
    doubled = Game(dice=Scripted([(3, 3), (6, 6), (1, 1), (2, 4)]), automatic_doubles=2)
    assert doubled.roll() == (4, 2) and doubled.cube == 4 and doubled.cube_owner is None


def test_no_cube_action_before_the_first_move() -> None:
    game = Game(dice=2)
    with pytest.raises(IllegalActionError, match="before the first move"):
        game.double()
    game.roll((6, 1))
    with pytest.raises(IllegalActionError, match="must move the 6-1"):
        game.double()


def test_turns_alternate_and_the_position_is_seen_by_the_player_on_roll() -> None:
    game = opened()
    assert game.turn == 1 and game.dice is None
    assert game.position == Position.initial().play(Position.initial().parse_move("8/5 6/5", (3, 1)))
    assert Action.DOUBLE in game.legal_actions()
    game.roll((6, 4))
    game.play("24/14")
    assert game.turn == 0 and game.position.board[11] == -1


def test_illegal_moves_change_nothing() -> None:
    game = Game()
    game.roll((3, 1))
    history = game.history
    with pytest.raises(IllegalMoveError):
        game.play("24/18")
    with pytest.raises(TypeError):
        game.play(42)  # type: ignore[arg-type]
    assert game.history == history and game.dice == (3, 1)


def test_double_take_gives_the_taker_the_cube() -> None:
    game = opened()
    game.double()
    assert game.doubled and game.turn == 0 and game.on_roll == 1
    assert game.legal_actions() == [Action.TAKE, Action.DROP]
    game.take()
    assert (game.cube, game.cube_owner, game.turn, game.doubled) == (2, 0, 1, False)
    with pytest.raises(IllegalActionError, match="owns the cube"):
        game.double()
    game.roll((2, 1))
    game.play("13/11 6/5")
    game.double()  # the owner redoubles
    game.take()
    assert (game.cube, game.cube_owner) == (4, 1)


def test_drop_ends_the_game_for_the_value_before_the_double() -> None:
    game = opened()
    game.double()
    game.take()
    game.roll((2, 1))
    game.play("13/11 6/5")
    game.double()
    game.drop()
    assert game.is_over() and game.legal_actions() == []
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.kind, game.result.end) == (
        0,
        2,
        Outcome.SINGLE,
        End.DROPPED,
    )
    with pytest.raises(IllegalActionError, match="game is over"):
        game.roll()


def test_a_beaver_awaits_the_doublers_answer_as_in_gnubg() -> None:
    """gnubg's play.c: the beaver doubles the cube to the beaverer, the
    doubler takes (doubling it again, still the beaverer's) or drops."""
    game = opened(beavers=True)
    game.double()
    assert Action.BEAVER in game.legal_actions()
    game.beaver()
    assert (game.cube, game.cube_owner, game.turn, game.on_roll, game.doubled) == (2, 0, 1, 1, True)
    assert game.beavered and game.legal_actions() == [Action.TAKE, Action.DROP]  # no raccoon
    with pytest.raises(IllegalActionError, match="take or drop the beaver"):
        game.beaver()
    dropped = opened(beavers=True)
    dropped.double()
    dropped.beaver()
    dropped.drop()  # the doubler loses the doubled value
    assert dropped.result == GameOutcome(0, 2, Outcome.SINGLE, End.DROPPED, 2)
    game.take()
    assert (game.cube, game.cube_owner, game.turn, game.doubled, game.beavered) == (4, 0, 1, False, False)
    assert game.legal_actions() == [Action.ROLL, Action.RESIGN]  # the cube is the beaverer's
    assert [r.action for r in (game.undo(), game.undo())] == [Action.TAKE, Action.BEAVER]
    assert (game.cube, game.cube_owner, game.turn, game.doubled) == (1, None, 0, True)
    plain = opened()
    plain.double()
    with pytest.raises(IllegalActionError, match="cannot beaver"):
        plain.beaver()
    with pytest.raises(ValueError, match="money play"):
        Game(match_length=5, beavers=True)


def test_a_pending_beaver_reads_back_from_its_ids() -> None:
    game = opened(beavers=True)
    game.double()
    game.beaver()
    again = Game.from_ids(game.gnubg_id())  # a beaver in the ID: beavers on
    assert again.beavers and again.beavered and again.match_id() == game.match_id()
    assert again.legal_actions() == [Action.TAKE, Action.DROP]
    with pytest.raises(InvalidMatchIdError, match="beavers=False"):
        Game.from_ids(game.gnubg_id(), beavers=False)
    with pytest.raises(IllegalActionError, match="pending beaver"):
        game.xgid()  # XG's "B": gnubg reads none, nor does from_xgid
    board = game.gnubg_id().split(":")[0]
    state = game.match_state()
    for bad, message in [
        (dataclasses.replace(state, match_length=5, jacoby=False), "match play"),
        (dataclasses.replace(state, cube_owner=state.player_on_roll), "owned by the player not on roll"),
        (dataclasses.replace(state, cube=1, cube_owner=None), "owned by the player not on roll"),
    ]:
        with pytest.raises(InvalidMatchIdError, match=message):
            Game.from_ids(board, bad.encode())
    doubled = opened()
    doubled.double()
    owned = dataclasses.replace(doubled.match_state(), cube=2, cube_owner=0)  # player 1 doubles player 0's cube
    with pytest.raises(InvalidMatchIdError, match="doubles a cube the opponent owns"):
        Game.from_ids(board, owned.encode())
    with pytest.raises(InvalidMatchIdError, match="above the largest"):
        Game.from_ids(board, dataclasses.replace(doubled.match_state(), cube=8192).encode())


def test_a_beaver_needs_room_under_the_cube_limit() -> None:
    game = opened(beavers=True, max_cube=4)
    game.double()
    assert Action.BEAVER in game.legal_actions()  # 1 -> 2, taken at 4
    capped = opened(beavers=True, max_cube=2)
    capped.double()
    assert Action.BEAVER not in capped.legal_actions()


def test_max_cube_caps_doubles() -> None:
    game = opened(max_cube=2)
    game.double()
    game.take()
    game.roll((2, 1))
    game.play("13/11 6/5")
    assert Action.DOUBLE not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="limit"):
        game.double()
    with pytest.raises(ValueError, match="power of two"):
        Game(max_cube=3)


def test_the_cube_stops_at_gnubgs_limit() -> None:
    """gnubg's MAX_CUBE, 4096, is the cap without max_cube, and max_cube's
    largest value; gnubg allows at most 12 automatic doubles (set.c)."""
    top = Game.from_ids("4HPwATDgc/ABMA:CwEAAAAAAAAE")  # player 0 owns a 2048-cube
    assert (top.cube, top.cube_owner, top.max_cube) == (2048, 0, None)
    top.double()
    top.take()
    assert top.cube == 4096 == CUBE_LIMIT
    top.roll((6, 5))
    top.play("24/13")
    assert Action.DOUBLE not in top.legal_actions()
    with pytest.raises(IllegalActionError, match="limit \\(4096\\)"):
        top.double()
    assert Game(max_cube=4096).max_cube == 4096
    with pytest.raises(ValueError, match="power of two from 1 to 4096"):
        Game(max_cube=8192)
    assert Game(automatic_doubles=MAX_AUTOMATIC_DOUBLES).automatic_doubles == 12
    with pytest.raises(ValueError, match="automatic_doubles must be an int from 0 to 12"):
        Game(automatic_doubles=13)


def test_automatic_doubles_stop_at_their_count_and_at_the_cube_limit() -> None:
    class Ties:
        def __init__(self, ties: int) -> None:
            self.rolls = [(k % 6 + 1, k % 6 + 1) for k in range(ties)] + [(2, 4)]

        def roll(self) -> tuple[int, int]:
            return self.rolls.pop(0)

    assert Game(dice=Ties(20), automatic_doubles=12).roll() == (4, 2)
    for ties, options, cube in [
        (20, {"automatic_doubles": 12}, 4096),
        (3, {"automatic_doubles": 12}, 8),
        (20, {"automatic_doubles": 12, "max_cube": 16}, 16),
    ]:
        game = Game(dice=Ties(ties), **options)  # type: ignore[arg-type]
        game.roll()
        assert game.cube == cube and game.cube_owner is None


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        ('Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:999999999999")', "ValueError", "5 digits"),
        ('Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:999999999999:0:1:00:0:0:0:0:10")', "ValueError", "5 digits"),
        ('Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:99999")', "ValueError", "99999"),
        ("Game(automatic_doubles=10**12)", "ValueError", "from 0 to 12"),
        ("Game(max_cube=2**(10**6))", "ValueError", "power of two from 1 to 4096"),
        ("Game(max_cube=2**64 + 1)", "ValueError", "power of two from 1 to 4096"),
        ("Game(match_length=5, score=(10**5000, 0))", "ValueError", "an integer of 16610 bits-0 has already won"),
        ("Game(match_length=10**5000)", "ValueError", "not an integer of 16610 bits"),
    ],
)
def test_hostile_counts_and_exponents_are_refused_at_once(call: str, error: str, message: str) -> None:
    refused_quickly(call, error, message)


def test_no_double_in_the_crawford_game() -> None:
    game = Game(match_length=5, score=(4, 2))
    assert game.crawford
    game.roll((3, 1))
    game.play("8/5 6/5")
    assert Action.DOUBLE not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="Crawford"):
        game.double()
    assert not Game(match_length=5, score=(4, 2), post_crawford=True).crawford
    assert not Game(match_length=5, score=(4, 4)).crawford  # both one short: after the Crawford game
    assert not Game(match_length=5, score=(4, 2), crawford=False).crawford


@pytest.mark.parametrize("kind,points", [("single", 1), (Outcome.GAMMON, 2), (3, 3)])
def test_resignations_score_their_kind_times_the_cube(kind: object, points: int) -> None:
    game = opened()
    game.resign(kind)  # type: ignore[arg-type]
    assert game.turn == 0 and game.legal_actions() == [Action.ACCEPT, Action.REJECT]
    game.accept()
    assert game.result is not None and (game.result.winner, game.result.points) == (0, points)
    assert game.result.end is End.RESIGNED


def test_a_rejected_resignation_goes_back_to_the_resigner() -> None:
    game = opened()
    game.resign("gammon")
    game.reject()
    assert game.turn == 1 and game.resigned is None and game.legal_actions()[0] is Action.ROLL
    with pytest.raises(ValueError, match="single, gammon or backgammon"):
        game.resign("triple")


def finish(game: Game, board: list[int], dice: tuple[int, int], move: str) -> None:
    """Put ``board`` (player on roll's view) in place and play the last move."""
    game._state = game._state.__class__(**{**game._state.__dict__, "position": Position(board)})
    game._state = game._state.__class__(**{**game._state.__dict__, "dice": dice})
    game.play(move)


def bearoff_board(opponent: dict[int, int]) -> list[int]:
    """The player on roll has one checker left on the 1-point; the opponent
    has ``opponent`` (their checkers by slot in the mover's numbering)."""
    board = [0] * 26
    board[1] = 1
    for slot, n in opponent.items():
        board[slot] = -n
    return board


@pytest.mark.parametrize(
    "opponent,kind",
    [
        ({20: 14}, Outcome.SINGLE),  # the loser has borne one off
        ({20: 15}, Outcome.GAMMON),
        ({3: 1, 20: 14}, Outcome.BACKGAMMON),  # a checker in the winner's home board
        ({0: 1, 20: 14}, Outcome.BACKGAMMON),  # on the bar
    ],
)
def test_borne_off_games_score_single_gammon_backgammon(opponent: dict[int, int], kind: Outcome) -> None:
    game = opened()
    game.double()
    game.take()
    finish(game, bearoff_board(opponent), (2, 1), "1/off")
    assert game.result is not None
    assert (game.result.winner, game.result.kind, game.result.points, game.result.end) == (
        1,
        kind,
        2 * int(kind),
        End.BORNE_OFF,
    )


def test_jacoby_counts_gammons_single_while_the_cube_is_centred() -> None:
    game = opened(jacoby=True)
    finish(game, bearoff_board({20: 15}), (2, 1), "1/off")
    assert game.result is not None and (game.result.kind, game.result.points) == (Outcome.GAMMON, 1)
    turned = opened(jacoby=True)
    turned.double()
    turned.take()
    finish(turned, bearoff_board({20: 15}), (2, 1), "1/off")
    assert turned.result is not None and turned.result.points == 4


def test_tabla_has_no_cube_and_a_mars_counts_two() -> None:
    game = opened(variant="tabla")
    assert Action.DOUBLE not in game.legal_actions()
    finish(game, bearoff_board({3: 1, 20: 14}), (2, 1), "1/off")
    assert game.result is not None and (game.result.kind, game.result.points) == (Outcome.BACKGAMMON, 2)


def test_undo_restores_the_exact_state_and_rewinds_the_dice() -> None:
    game = Game(dice=5)
    snapshots = []
    for _ in range(12):
        snapshots.append((game._state, game.history))
        action = game.legal_actions()[0]
        if action is Action.ROLL:
            game.roll()
        else:
            game.play(game.legal_moves()[0])
    rolled = [r.dice for r in game.history if r.action is Action.ROLL]
    while snapshots:
        state, history = snapshots.pop()
        game.undo()
        assert game._state == state and game.history == history
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        game.undo()
    again = []
    for _ in range(12):
        if game.legal_actions()[0] is Action.ROLL:
            game.roll()
            again.append(game.history[-1].dice)
        else:
            game.play(game.legal_moves()[0])
    assert again == rolled


@pytest.mark.parametrize(
    "options,message",
    [
        ({"variant": "chess"}, "unknown variant"),
        ({"match_length": -1}, "match_length"),
        ({"match_length": 5, "score": (5, 0)}, "already won"),
        ({"score": (1,)}, "pair"),
        ({"automatic_doubles": -1}, "automatic_doubles"),
    ],
)
def test_bad_options_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game(**options)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game(dice="seven")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        "4HPwATDgc/ABMA",  # a Position ID without its Match ID
        "4HPwATDgc/ABMA:cAkAAAAAAAA",  # a Match ID one character short
        "4HPwATDgc/ABMA:!!!!!!!!!!!!",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA:extra",
        "AAAAAAAAAAAAAA:cAkAAAAAAAAA",  # nobody has a checker: a finished game
        "4HPwATDgc/ABMA:MALgACAAIAAE",  # the game is over (game state 2)
    ],
)
def test_junk_ids_give_clear_errors(text: str) -> None:
    with pytest.raises(ValueError):
        Game.from_ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "XGID=",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",  # nine fields
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",  # a die of 7
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10",  # a beaver pending
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10",  # a score at the length
        "XGID=-b----E-C---eE---c-e----B-:1:0:1:00:6:0:1:7:10",  # the cube turned in the Crawford game
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:0:1:7:10",  # no Crawford game at 3-0 to 7
    ],
)
def test_junk_xgids_give_clear_errors(text: str) -> None:
    with pytest.raises(ValueError):
        Game.from_xgid(text)


def test_ids_read_back_the_game() -> None:
    game = opened(match_length=7, score=(2, 4))
    game.double()
    again = Game.from_ids(*game.gnubg_id().split(":"))
    assert (again.cube, again.doubled, again.turn, again.on_roll, again.score) == (1, True, 0, 1, (2, 4))
    again.take()
    assert (again.cube, again.cube_owner) == (2, 0)
    crawford = Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10")
    assert crawford.crawford and crawford.score == (3, 6) and crawford.on_roll == 1


def test_equity_at_the_games_score() -> None:
    from bgcore import met

    probabilities = (0.6, 0.2, 0.01, 0.1, 0.0)
    money = opened()
    assert money.cubeless_equity(probabilities) == pytest.approx(0.31)
    with pytest.raises(met.MoneyGameError):
        money.mwc(probabilities)
    game = opened(match_length=7, score=(3, 5))
    assert game.turn == 1
    assert game.mwc(probabilities) == pytest.approx(
        met.cubeless_mwc(probabilities, match_length=7, score=(3, 5), cube=1, turn=1, crawford=False)
    )
    assert met.eq_to_mwc(game.cubeless_equity(probabilities), game) == pytest.approx(game.mwc(probabilities))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["standard", "nackgammon", "acey-deucey"]), data=st.data())
def test_apply_is_the_specific_method(seed: int, variant: str, data: st.DataObject) -> None:
    """An agent's loop over legal_actions() with apply() plays the same game,
    state and history, as the specific methods: play, roll, double, take,
    drop, beaver, resign, accept, reject."""
    options = {"variant": variant, "beavers": variant != "acey-deucey", "jacoby": True}
    by_apply, by_method = Game(dice=seed, **options), Game(dice=seed, **options)  # type: ignore[arg-type]
    for _ in range(120):
        actions = by_apply.legal_actions()
        assert actions == by_method.legal_actions()
        if not actions:
            break
        action = data.draw(st.sampled_from(actions))
        argument: object = None
        if action is Action.MOVE:
            argument = data.draw(st.sampled_from(list(by_apply.legal_moves())))
        elif action is Action.RESIGN:
            argument = data.draw(st.sampled_from([None, Outcome.GAMMON, 3, "backgammon"]))
        elif action is Action.ROLL and not by_apply.opening:
            argument = data.draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
        via = data.draw(st.sampled_from([action, action.value]))
        rolled = by_apply.apply(via, argument)  # type: ignore[arg-type]
        name = "play" if action is Action.MOVE else action.value
        args = () if argument is None else (argument,)
        assert rolled == getattr(by_method, name)(*args)
        assert (by_apply._state, by_apply.history) == (by_method._state, by_method.history)


def test_apply_refuses_what_it_cannot_do_and_changes_nothing() -> None:
    game = opened()
    before = (game._state, game.history)
    for call, error, message in [
        (lambda: game.apply("fly"), ValueError, "unknown action 'fly'; choose from roll, move"),
        (lambda: game.apply(3), TypeError, "an Action or its value, not int"),  # type: ignore[arg-type]
        (lambda: game.apply(Action.MOVE), TypeError, "takes the move"),
        (lambda: game.apply(Action.DOUBLE, "now"), TypeError, "takes no argument"),
        (lambda: game.apply(Action.TAKE), IllegalActionError, "cannot take"),
        (lambda: game.apply(Action.ROLL, (7, 1)), ValueError, "dice"),
    ]:
        with pytest.raises(error, match=message):
            call()
        assert (game._state, game.history) == before


@st.composite
def game_states(draw: st.DrawFn) -> tuple[str, MatchId]:
    """A variant and a game state before the roll: money (Jacoby or not) or
    a match score, the cube centred or owned, Crawford where it may be."""
    variant = draw(st.sampled_from(["standard", "nackgammon", "hypergammon", "tabla"]))
    length = draw(st.sampled_from([0, 1, 3, 5, 7]))
    score = (draw(st.integers(0, max(length - 1, 0))), draw(st.integers(0, max(length - 1, 0)))) if length else (0, 0)
    crawford = bool(length) and sum(length - s == 1 for s in score) == 1 and draw(st.booleans())
    cube = 1 if crawford or variant == "tabla" else 2 ** draw(st.integers(0, 3))
    owner = None if cube == 1 else draw(st.sampled_from([None, 0, 1]))
    state = MatchId(
        cube=cube,
        cube_owner=owner,
        player_on_roll=draw(st.integers(0, 1)),
        crawford=crawford,
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()) and not length,
    )
    return variant, state


def certain(kind: Outcome, won: bool) -> tuple[float, float, float, float, float]:
    """The five outputs of a result known for sure."""
    gammon, backgammon = float(kind >= Outcome.GAMMON), float(kind is Outcome.BACKGAMMON)
    return (1.0, gammon, backgammon, 0.0, 0.0) if won else (0.0, 0.0, 0.0, gammon, backgammon)


def after_the_game(game: Game, player: int) -> float:
    """``player``'s match winning chance once ``game`` is over, from the
    score it leaves and the Crawford rule of the game after it."""
    result = game.result
    assert result is not None
    score = list(game.score)
    score[result.winner] += result.points
    if max(score) >= game.match_length:
        return float(score[player] >= game.match_length)
    post = game.crawford or game.post_crawford  # the Crawford game has been played
    following = Game(match_length=game.match_length, score=(score[0], score[1]), post_crawford=post)
    away = [game.match_length - s for s in score]
    return met.match_equity(away[player], away[1 - player], crawford=following.crawford)


@settings(max_examples=300, deadline=None)
@given(game_states(), st.sampled_from(list(Outcome)), st.booleans())
def test_a_certain_result_is_worth_what_the_game_scores_for_it(
    state: tuple[str, MatchId], kind: Outcome, won: bool
) -> None:
    """The cubeless equity of a result known for sure is the points the game
    scores for it, per unit of cube (money play: the Jacoby rule counts a
    gammon single on a centred cube, tabla a backgammon 2); at a match score
    its MWC is the match's after those points."""
    variant, ids = state
    board = Position.initial("standard" if variant == "tabla" else variant).board
    # The player to act, who wins or loses for sure: the answer to the
    # opponent's resignation (a win), or the player on roll, resigning.
    if won:
        offer = dataclasses.replace(ids, turn=1 - ids.player_on_roll, resignation=int(kind))
        game = Game.from_ids(encode_position_id(board), offer.encode(), variant=variant)
    else:
        game = Game.from_ids(encode_position_id(board), ids.encode(), variant=variant)
    player, cube = game.turn, game.cube
    p = certain(kind, won)
    equity = game.cubeless_equity(p)
    mwc = game.mwc(p) if game.match_length else None
    if mwc is not None:  # the equity is the MWC's, on the cube's scale
        assert met.eq_to_mwc(equity, game) == pytest.approx(mwc, abs=1e-12)
    if not won:
        game.resign(kind)
    game.accept()
    assert game.result is not None and game.result.kind is kind
    points = game.result.points if won else -game.result.points
    if mwc is None:
        assert equity == pytest.approx(points / cube, abs=1e-12)
    else:
        assert mwc == pytest.approx(after_the_game(game, player), abs=1e-12)
