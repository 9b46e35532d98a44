"""bgcore.bot: a Bot's action in every kind of state, checked against an
independent computation through the public API (its moves), against
:meth:`Game.cube_decision` (its cube actions), by brute force (its
resignations) and against gnubg's 0-ply cubeful ``findbestmoves`` (its moves
with gnubg's own evaluator)."""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from bgcore import Bot, Game, IllegalActionError, Match, Outcome, Position, nn
from bgcore.bot import certain_loss
from bgcore.cube import CubeInfo, cube_decision, cubeful_equity, position_class
from bgcore.game import Action
from bgcore.ids import MatchId, encode_position_id
from bgcore.met import mwc_to_eq
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

Probabilities = Sequence[float]


# --- evaluators ------------------------------------------------------------------------------------


def pips(boards: np.ndarray) -> np.ndarray:
    """A cheap evaluator of the pip race: consistent probabilities, gammons more likely far behind."""
    b = np.asarray(boards, dtype=np.float64)
    slots = np.arange(26)
    mine = (np.where(b > 0, b, 0) * slots).sum(axis=1)
    theirs = (np.where(b < 0, -b, 0) * (25 - slots)).sum(axis=1)
    win = 1.0 / (1.0 + np.exp((mine - theirs - 8.0) / 20.0))
    wg, lg = 0.4 * win**3, 0.4 * (1.0 - win) ** 3
    return np.stack([win, wg, 0.1 * wg, lg, 0.1 * lg], axis=1)


def constant(p: Probabilities) -> Callable[[np.ndarray], np.ndarray]:
    """An evaluator giving every board the same probabilities."""
    return lambda boards: np.tile(np.asarray(p, dtype=np.float64), (len(boards), 1))


def tiny_network(seed: int = 0) -> nn.Network:
    """A small random network: consistent (softmax) outputs, fast."""
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 0.3, (198, 8)), np.zeros(8)), (rng.normal(0, 0.5, (8, 6)), np.zeros(6))]
    return nn.Network(layers, ["sigmoid"], encoding="tesauro198", output="softmax")


def refuses(boards: np.ndarray) -> np.ndarray:
    raise AssertionError("the bot asked the evaluator where it need not")


# --- games in a given state ------------------------------------------------------------------------


def game_at(position: Position, **fields: object) -> Game:
    """A game in ``position`` (the player on roll's view) and the Match ID's ``fields``; the
    options ``beavers``, ``variant``, ``max_cube`` go to the game."""
    options = {k: fields.pop(k) for k in ("beavers", "variant", "max_cube", "dice_seed") if k in fields}
    seed = options.pop("dice_seed", 1)
    fields.setdefault("jacoby", False)
    state = MatchId(**fields)  # type: ignore[arg-type]
    return Game.from_ids(encode_position_id(position.board), state.encode(), dice=seed, **options)


POSITIONS = selfplay_positions(120, seed=11, policy="heuristic")
MIDGAME = [p for p in POSITIONS if position_class(p).name == "CONTACT"]


# --- the independent computation of a move's value -------------------------------------------------


def sane(p: Probabilities) -> list[float]:
    win, wg, wbg, lg, lbg = (min(max(float(v), 0.0), 1.0) for v in p)
    wg = min(wg, win)
    lg = min(lg, 1.0 - win)
    return [win, wg, min(wbg, wg), lg, min(lbg, lg)]


def mover_value(game: Game, move: object, evaluator: Callable[[np.ndarray], np.ndarray]) -> float:
    """The value of ``move`` for the mover, one move at a time through the public API: minus
    the opponent's cubeful equity (1 - its MWC in a match) with a live cube, else the
    mover's cubeless equity as the game counts it."""
    after = game.position.play(move)  # type: ignore[arg-type]
    result = after.result()
    if result is None:
        p = sane(np.asarray(evaluator(after.to_array()[np.newaxis, :]))[0])
    else:  # the mover has won: the opponent on roll has lost
        p = [0.0, 0.0, 0.0, float(result.outcome >= 2), float(result.outcome == 3)]
    limit = 4096 if game.max_cube is None else game.max_cube
    if game.cube_enabled and 2 * game.cube <= limit:
        theirs = CubeInfo(
            match_length=game.match_length,
            score=game.score,
            cube=game.cube,
            cube_owner=game.cube_owner,
            on_roll=1 - game.on_roll,
            crawford=game.crawford,
            jacoby=game.jacoby,
            beavers=game.beavers,
        )
        value = cubeful_equity(p, after, theirs)
        return 1.0 - value if game.match_length else -value
    mine = [1.0 - p[0], p[3], p[4], p[1], p[2]]
    return game.cubeless_equity(mine)


def check_move(bot: Bot, game: Game, evaluator: Callable[[np.ndarray], np.ndarray]) -> None:
    action, move = bot.act(game)
    assert action is Action.MOVE
    moves = list(game.legal_moves())
    values = [mover_value(game, m, evaluator) for m in moves]
    best = max(values)
    first = next(i for i, v in enumerate(values) if v >= best - 1e-9)
    assert move == moves[first], (game.gnubg_id(), str(move), str(moves[first]), values)
    ranked = bot.rank(game)
    assert ranked[0][0] == move and len(ranked) == len(moves)
    assert [e for _, e in ranked] == sorted((e for _, e in ranked), reverse=True)


# --- every kind of state ---------------------------------------------------------------------------


def test_the_opening_roll_asks_nothing() -> None:
    game = Game(dice=3)
    assert Bot(refuses).act(game) == (Action.ROLL, None)


def test_the_move_after_the_opening_roll() -> None:
    game = Game(dice=3)
    game.roll((3, 1))
    check_move(Bot(pips), game, pips)
    assert str(Bot().act(game)[1]) == "8/5 6/5"  # wildbg's choice, as the networks guide shows


DOUBLE_TAKE = (0.694006, 0.091628, 0.002363, 0.049151, 0.000909)  # gnubg: "Double, take" (docs/guides/cube.md)
DOUBLE_PASS = (0.85, 0.10, 0.0, 0.02, 0.0)
TOO_GOOD = (0.95, 0.80, 0.05, 0.0, 0.0)
NO_DOUBLE = (0.55, 0.10, 0.0, 0.08, 0.0)
BEAVER = (0.30, 0.05, 0.0, 0.15, 0.01)
START = MIDGAME[3]


DOUBLING_STATES = [
    {},
    {"jacoby": True},
    {"beavers": True},
    {"cube": 2, "cube_owner": 0},
    {"match_length": 7, "score": (3, 4)},
    {"match_length": 7, "score": (5, 2), "cube": 2, "cube_owner": 0},  # a dead cube: 2-away with a 2-cube
    {"match_length": 5, "score": (1, 4)},  # post-Crawford: the trailer doubles
]


@pytest.mark.parametrize("p", [DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD, NO_DOUBLE, BEAVER])
@pytest.mark.parametrize("fields", DOUBLING_STATES)
def test_before_the_roll_the_bot_doubles_as_the_cube_decision_says(p: Probabilities, fields: dict) -> None:
    game = game_at(START, **fields)
    assert Action.DOUBLE in game.legal_actions()
    decision = game.cube_decision(constant(p))
    action, argument = Bot(constant(p)).act(game)
    assert argument is None
    assert action is (Action.DOUBLE if decision.action.doubles else Action.ROLL), decision.action.text
    assert Bot(constant(p)).cube_decision(game) == decision


def test_the_grid_above_meets_every_kind_of_decision() -> None:
    texts = {
        game_at(START, **fields).cube_decision(constant(p)).action.text
        for p in (DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD, NO_DOUBLE, BEAVER)
        for fields in DOUBLING_STATES
    }
    assert {
        "Double, take",
        "Double, pass",
        "Redouble, pass",
        "No double, take",
        "No redouble, take",
        "Too good to double, pass",
        "Never redouble, take (dead cube)",
        "No double, beaver",
    } <= texts


@pytest.mark.parametrize(
    "fields",
    [
        {"cube": 2, "cube_owner": 1},  # the opponent's cube
        {"match_length": 5, "score": (4, 2), "crawford": True},  # the Crawford game
        {"cube": 4, "cube_owner": 0, "max_cube": 4},  # the cube at its limit
    ],
)
def test_without_access_to_the_cube_the_bot_rolls_unasked(fields: dict) -> None:
    game = game_at(START, **fields)
    assert Action.DOUBLE not in game.legal_actions()
    assert Bot(refuses).act(game) == (Action.ROLL, None)


@pytest.mark.parametrize("p", [DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD, NO_DOUBLE, BEAVER])
@pytest.mark.parametrize("beavers", [False, True])
@pytest.mark.parametrize("match", [False, True])
def test_a_double_is_answered_as_the_decisions_response_says(p: Probabilities, beavers: bool, match: bool) -> None:
    fields: dict = {"match_length": 7, "score": (2, 4)} if match else {"beavers": beavers}
    game = game_at(START, double_offered=True, **fields)
    decision = game.cube_decision(constant(p))  # the doubler's, with the reply
    action, _ = Bot(constant(p)).act(game)
    expected = {"take": Action.TAKE, "pass": Action.DROP, "beaver": Action.BEAVER}[decision.response.value]
    if expected is Action.BEAVER and Action.BEAVER not in game.legal_actions():
        expected = Action.TAKE
    assert action is expected
    if p is BEAVER and beavers and not match:
        assert action is Action.BEAVER


@pytest.mark.parametrize(
    ("p", "take"), [(DOUBLE_TAKE, True), (NO_DOUBLE, True), (BEAVER, False), ((0.05, 0.0, 0.0, 0.6, 0.2), False)]
)
def test_a_beaver_is_taken_unless_taking_is_worse_than_dropping(p: Probabilities, take: bool) -> None:
    game = game_at(START, double_offered=True, beavers=True)
    game.beaver()
    assert game.beavered and game.turn == game.on_roll
    action, _ = Bot(constant(p)).act(game)
    # the doubler's value of taking, per unit of the beavered cube: the cube doubled again, the beaverer's
    state = CubeInfo(cube=2 * game.cube, cube_owner=1 - game.on_roll, on_roll=game.on_roll, beavers=True)
    value = 2 * cubeful_equity(p, game.position, state)
    assert (value > -1.0) is take
    assert action is (Action.TAKE if take else Action.DROP)


def test_after_the_roll_the_bot_plays_the_best_move() -> None:
    for k, position in enumerate(MIDGAME[:12]):
        game = game_at(position, dice=ROLLS[k % 21], jacoby=bool(k % 2))
        check_move(Bot(pips), game, pips)


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"jacoby": True},
        {"cube": 2, "cube_owner": 0},
        {"cube": 4, "cube_owner": 1},
        {"match_length": 7, "score": (3, 4)},
        {"match_length": 7, "score": (6, 3), "crawford": True},
        {"match_length": 7, "score": (6, 3)},  # post-Crawford
        {"match_length": 5, "score": (2, 1), "cube": 2, "cube_owner": 1},
        {"match_length": 9, "score": (5, 1), "cube": 4, "cube_owner": 0},  # a dead cube for player 0
        {"cube": 4, "cube_owner": 0, "max_cube": 4},  # a cube at its limit: cubeless
    ],
)
def test_moves_in_every_cube_state(fields: dict) -> None:
    evaluator = tiny_network(2)
    for k, position in enumerate(POSITIONS[::7]):
        if position.is_game_over():
            continue
        game = game_at(position, dice=ROLLS[(5 * k) % 21], player_on_roll=k % 2, **fields)
        check_move(Bot(evaluator), game, evaluator)


def test_a_move_that_wins_counts_its_result() -> None:
    board = [0] * 26
    board[1], board[2], board[20] = 1, 1, -3
    game = game_at(Position(board), dice=(2, 1), cube=2, cube_owner=0)
    bot = Bot(constant((1.0, 1.0, 1.0, 0.0, 0.0)))  # the evaluator thinks the opponent always wins big
    action, move = bot.act(game)
    assert action is Action.MOVE and str(move) == "2/off 1/off"
    assert bot.rank(game)[0][1] == pytest.approx(1.0)  # a single game: the opponent has borne off 12
    board[20] = -15
    game = game_at(Position(board), dice=(2, 1), cube=2, cube_owner=0)
    assert bot.rank(game)[0][1] == pytest.approx(2.0)  # a gammon: it has borne off none


@pytest.mark.parametrize("variant", ["tabla", "nackgammon", "hypergammon"])
def test_moves_in_the_other_variants(variant: str) -> None:
    match = Match(3 if variant == "tabla" else 0, variant=variant, dice=5)
    game = match.game
    bot = Bot(pips)
    checked = 0
    while not game.is_over() and checked < 12:  # the pip race's bots hit back and forth: a game may not end
        action, argument = bot.act(game)
        if action is Action.MOVE and len(game.legal_moves()) > 1:
            check_move(bot, game, pips)
            checked += 1
        assert action in game.legal_actions()
        if variant == "tabla":
            assert action is not Action.DOUBLE
        game.apply(action, argument)
    assert checked >= 5


def test_acey_deucey_is_played_without_doubling_and_every_double_taken() -> None:
    game = Game("acey-deucey", dice=4)
    bot = Bot(tiny_network(1))
    seen = set()
    while not game.is_over():
        action, argument = bot.act(game)
        assert action in game.legal_actions() and action is not Action.DOUBLE
        seen.add(action)
        game.apply(action, argument)
        if Action.DOUBLE in game.legal_actions() and game.turn == 0 and Action.DOUBLE not in seen:
            game.double()  # player 0 doubles once: the bot takes
            assert bot.act(game) == (Action.TAKE, None)
            seen.add(Action.DOUBLE)
    assert {Action.ROLL, Action.MOVE, Action.DOUBLE} <= seen and game.cube == 2


def test_acey_deucey_moves_by_the_mapped_board() -> None:
    """Waiting checkers count as on the bar, and a move that rolls again is valued for the mover still on roll."""
    for seed in range(100):  # a game whose first roll after the opening is 1-2
        game = Game("acey-deucey", dice=seed)
        game.roll()
        game.roll()
        if game.dice is not None and sorted(game.dice) == [1, 2]:
            break
    moves = game.legal_moves()
    bot = Bot(pips)
    _, chosen = bot.act(game)
    boards = moves.boards()
    again = moves.again()
    values = []
    for board, rolls_again in zip(boards, again, strict=True):
        standard = board[:26].copy()
        standard[25] += board[26]
        standard[0] -= board[27]
        if rolls_again:
            values.append(game.cubeless_equity(sane(pips(standard[np.newaxis, :])[0])))
        else:
            q = sane(pips(-standard[::-1][np.newaxis, :])[0])
            values.append(game.cubeless_equity([1.0 - q[0], q[3], q[4], q[1], q[2]]))
    assert chosen == moves[int(np.argmax(values))]
    assert any(again)


# --- resignations ------------------------------------------------------------------------------------


def race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A board from the player on roll's points (``theirs`` in the opponent's own numbering)."""
    board = [0] * 26
    for point, n in mine.items():
        board[point] += n
    for point, n in theirs.items():
        board[25 - point] -= n
    return Position(board)


def test_the_bot_resigns_a_certain_loss_and_only_that() -> None:
    lost = race({19: 15}, {1: 1})  # its checkers all in the opponent's home board; the opponent's last on its 1-point
    game = game_at(lost)
    assert Bot(refuses).act(game) == (Action.RESIGN, Outcome.BACKGAMMON)
    game = game_at(race({1: 14, 9: 1}, {1: 1}), dice=(2, 1))
    assert Bot(refuses).act(game) == (Action.RESIGN, Outcome.GAMMON)
    game = game_at(race({1: 14, 9: 1}, {1: 1}))
    assert Bot(refuses).act(game) == (Action.RESIGN, Outcome.SINGLE)
    game = game_at(race({1: 14, 9: 1}, {6: 2}))  # 2-1 leaves the opponent a checker: not certain
    assert Bot(pips).act(game)[0] is not Action.RESIGN


def test_no_second_offer_straight_after_a_rejection() -> None:
    game = game_at(race({19: 15}, {1: 1}))
    game.resign(Outcome.SINGLE)
    game.reject()
    assert Bot(pips).act(game) == (Action.ROLL, None)  # the same state: no offer again, the bot rolls on
    game.roll((6, 6))
    assert Bot(pips).act(game) == (Action.RESIGN, Outcome.BACKGAMMON)  # after the roll it offers again


def contact(position: Position) -> bool:
    return position_class(position).name not in ("RACE", "BEAROFF_ONE_SIDED", "BEAROFF_TWO_SIDED", "OVER")


def brute_force_loss(position: Position, dice: tuple[int, int] | None) -> Outcome | None:
    """Play it out: every play of the player's rolls, every roll of the opponent's, its best play."""
    if contact(position):
        return None
    least: Outcome | None = None
    for roll in ROLLS if dice is None else [dice]:
        moves = position.legal_moves(roll)
        for move in moves:
            after = position.play(move)
            if after.result() is not None:
                return None  # the player can win
            for theirs in ROLLS:
                finishing = [after.play(m) for m in after.legal_moves(theirs) if after.play(m).result() is not None]
                if not finishing:
                    return None
                outcome = finishing[0].result()
                assert outcome is not None and outcome.winner == 1  # the opponent, who just moved
                least = outcome.outcome if least is None else min(least, outcome.outcome)
    return least


@st.composite
def endgames(draw: st.DrawFn) -> tuple[Position, tuple[int, int] | None]:
    mine = {p: 0 for p in range(1, 26)}
    for _ in range(draw(st.integers(1, 15))):
        mine[draw(st.integers(1, 24))] += 1
    lowest = min((p for p, n in mine.items() if n), default=25)
    theirs: dict[int, int] = {}
    for _ in range(draw(st.integers(1, 3))):
        point = draw(st.integers(1, 9))
        if 25 - point > lowest or draw(st.booleans()):  # mostly behind the player's checkers: no contact
            theirs[point] = theirs.get(point, 0) + 1
    if not theirs:
        theirs = {1: 1}
    board = [0] * 26
    for point, n in mine.items():
        board[point] = n
    for point, n in theirs.items():
        if board[25 - point] > 0:
            return Position.initial(), None
        board[25 - point] -= n
    dice = draw(st.one_of(st.none(), st.sampled_from(ROLLS)))
    return Position(board), dice


@settings(max_examples=150, deadline=None)
@given(endgames())
def test_certain_loss_is_what_playing_it_out_gives(case: tuple[Position, tuple[int, int] | None]) -> None:
    position, dice = case
    assert certain_loss(position, dice) == brute_force_loss(position, dice)


def test_certain_loss_in_acey_deucey_is_none() -> None:
    from bgcore.acey import AceyDeuceyPosition

    assert certain_loss(AceyDeuceyPosition.initial()) is None


@pytest.mark.parametrize(
    ("p", "fields", "kind", "accepts"),
    [
        ((0.0, 0.0, 0.0, 0.0, 0.0), {}, Outcome.SINGLE, True),  # it wins a single game, no more
        ((0.0, 0.0, 0.0, 0.3, 0.0), {}, Outcome.SINGLE, False),  # and a gammon 30% of the time
        ((0.0, 0.0, 0.0, 0.3, 0.0), {}, Outcome.GAMMON, True),
        ((0.0, 0.0, 0.0, 0.3, 0.0), {"jacoby": True}, Outcome.SINGLE, True),  # gammons count single
        ((0.0, 0.0, 0.0, 0.3, 0.0), {"jacoby": True, "cube": 2, "cube_owner": 1}, Outcome.SINGLE, False),
        ((0.2, 0.0, 0.0, 0.0, 0.0), {}, Outcome.SINGLE, True),  # a single is more than it expects
        ((0.0, 0.0, 0.0, 1.0, 1.0), {}, Outcome.GAMMON, False),
        ((0.0, 0.0, 0.0, 1.0, 1.0), {}, Outcome.BACKGAMMON, True),
        ((0.0, 0.0, 0.0, 0.9, 0.0), {"match_length": 5, "score": (2, 4)}, Outcome.SINGLE, True),  # 1 point wins it
        ((0.0, 0.0, 0.0, 0.3, 0.0), {"match_length": 5, "score": (0, 0)}, Outcome.SINGLE, False),
    ],
)
def test_a_resignation_is_accepted_when_worth_what_the_bot_expects(
    p: Probabilities, fields: dict, kind: Outcome, accepts: bool
) -> None:
    """Player 0 (on roll, the resigner) offers; ``p`` are its chances; the bot is player 1."""
    game = game_at(START, resignation=int(kind), **fields)
    assert game.turn == 1 and game.resigned is kind
    assert Bot(constant(p)).act(game) == (Action.ACCEPT if accepts else Action.REJECT, None)


def test_a_resignation_after_the_roll_counts_the_resigners_best_play() -> None:
    def gammons(boards: np.ndarray) -> np.ndarray:
        """The player on roll wins for sure, a gammon unless the opponent has borne a checker off."""
        none_off = (np.where(boards < 0, -boards, 0).sum(axis=1) == 15).astype(float)
        return np.stack([np.ones(len(boards)), none_off, 0 * none_off, 0 * none_off, 0 * none_off], axis=1)

    game = game_at(race({1: 14, 9: 1}, {1: 1}), dice=(6, 5), resignation=1)  # 6-5 bears one off: a single
    assert Bot(gammons).act(game) == (Action.ACCEPT, None)
    game = game_at(race({1: 14, 9: 1}, {1: 1}), dice=(2, 1), resignation=1)  # 2-1 does not: a gammon
    assert Bot(gammons).act(game) == (Action.REJECT, None)
    game = game_at(race({1: 14, 9: 1}, {1: 1}), resignation=1)  # before the roll: by the resigner's board
    assert Bot(constant((0.0, 0.0, 0.0, 0.5, 0.0))).act(game) == (Action.REJECT, None)


def test_two_bots_play_every_kind_of_game_to_the_end_with_legal_actions() -> None:
    bot = Bot(tiny_network(3))
    for k, match in enumerate(
        [
            Match(0, dice=1, jacoby=True, beavers=True),
            Match(0, dice=2, max_cube=2),
            Match(0, dice=3, cube=False),
            Match(3, dice=4),
            Match(5, dice=5, score=(3, 4)),
            Match(3, dice=6, variant="tabla"),
            Match(0, dice=7, variant="hypergammon"),
            Match(0, dice=8, variant="acey-deucey", cube=False),
            Match(31, dice=9, score=(28, 29)),  # beyond the match equity table: played as money
        ]
    ):
        for _ in range(3):
            game = match.game
            steps = 0
            while not game.is_over():
                action, argument = bot.act(game)
                assert action in game.legal_actions(), (k, game)
                game.apply(action, argument)
                steps += 1
                assert steps < 2000
            if match.is_over() or not match.length:
                break
            match.new_game()


# --- refusals ----------------------------------------------------------------------------------------


def test_refusals() -> None:
    with pytest.raises(TypeError, match="a Bot takes an evaluator"):
        Bot(3)  # type: ignore[arg-type]
    over = Game(dice=1)
    over.roll((6, 5))
    over.resign()
    over.accept()
    with pytest.raises(IllegalActionError, match="the game is over"):
        Bot(pips).act(over)
    with pytest.raises(TypeError, match="act\\(\\) takes a Game"):
        Bot(pips).act(Position.initial())  # type: ignore[arg-type]
    game = Game(dice=1)
    game.roll((6, 5))
    with pytest.raises(ValueError, match=r"returned shape \(\d+, 4\)"):
        Bot(lambda boards: np.zeros((len(boards), 4))).act(game)
    with pytest.raises(ValueError, match="NaN"):
        Bot(lambda boards: np.full((len(boards), 5), np.nan)).act(game)
    with pytest.raises(IllegalActionError, match="once the dice are rolled"):
        Bot(pips).rank(Game(dice=1))
    with pytest.raises(ValueError, match="acey-deucey has no cube decision"):
        Bot(pips).cube_decision(Game("acey-deucey"))
    with pytest.raises(ValueError, match="boards are an \\(n, 26\\) array"):
        Bot(pips).probabilities(np.zeros(26, dtype=np.int8))


def test_the_default_evaluator_is_wildbg() -> None:
    assert type(Bot().evaluator).__name__ == "Composite"
    assert repr(Bot(pips)).startswith("Bot(<function pips")


# --- gnubg: the moves of its 0-ply cubeful findbestmoves ---------------------------------------------


@pytest.fixture(scope="module")
def gnubg() -> Iterator[object]:
    """gnubg, its evaluation cache off (it serves money and DMP cubeful evaluations the same entry)."""
    oracle.require()
    lib = oracle.library()
    lib.GetEvalCacheEntries.restype = ctypes.c_uint
    lib.EvalCacheResize.argtypes = [ctypes.c_uint]
    entries = lib.GetEvalCacheEntries()
    lib.EvalCacheResize(0)
    try:
        yield importlib.import_module("gnubg")
    finally:
        lib.EvalCacheResize(entries)


def gnubg_evaluator(gnubg: object) -> Callable[[np.ndarray], np.ndarray]:
    """gnubg's own 0-ply cubeless probabilities of each board."""
    g: object = gnubg
    context = g.evalcontext(0, 0, 1, 0, 0)  # type: ignore[attr-defined]
    cubeless = oracle.money_cubeinfo()

    def evaluate(boards: np.ndarray) -> np.ndarray:
        rows = [g.evaluate(oracle.gnubg_tuple(b.tolist()), cubeless, context)[:5] for b in boards]  # type: ignore[attr-defined]
        return np.array(rows, dtype=np.float64)

    return evaluate


def notation(steps: Sequence[int]) -> str:
    """A move tuple of gnubg's findbestmoves ((from, to) pairs, 25 the bar) in standard notation."""
    return " ".join(f"{'bar' if a == 25 else a}/{b}" for a, b in zip(steps[::2], steps[1::2], strict=True))


STATES = [
    {},
    {"jacoby": True},
    {"cube": 2, "cube_owner": 0},
    {"cube": 2, "cube_owner": 1},
    {"match_length": 7, "score": (2, 4)},
    {"match_length": 5, "score": (4, 2), "crawford": True},
    {"match_length": 5, "score": (2, 4), "cube": 2, "cube_owner": 1},
]


@pytest.mark.parametrize("fields", STATES)
def test_the_bots_moves_are_gnubgs_with_gnubgs_evaluator(gnubg: object, fields: dict) -> None:
    """On midgame positions (no move bears off, so gnubg's move tuples are whole), the bot's
    equity of every move is gnubg's 0-ply cubeful score, and its move is gnubg's best."""
    g: object = gnubg
    bot = Bot(gnubg_evaluator(gnubg))
    compared = 0
    for k, position in enumerate(MIDGAME[5:]):
        dice = ROLLS[(3 * k + 1) % 21]
        game = game_at(position, dice=dice, **fields)
        moves = list(game.legal_moves())
        if len(moves) < 3 or any(dst == 0 for m in moves for _, dst in m.steps):
            continue
        ci = g.cubeinfo(  # type: ignore[attr-defined]
            game.cube,
            -1 if game.cube_owner is None else game.cube_owner,
            game.on_roll,
            game.match_length,
            game.score,
            int(game.crawford),
            0,
        )
        ci["jacoby"] = int(game.jacoby)
        found = g.findbestmoves(oracle.gnubg_tuple(position.board), ci, g.evalcontext(1, 0, 1, 0, 0), dice)  # type: ignore[attr-defined]
        theirs = {position.play(position.parse_move(notation(e["move"]), dice)): e["score"] for e in found}
        ranked = bot.rank(game)
        assert len(theirs) == len(ranked)
        for move, equity in ranked:
            assert equity == pytest.approx(theirs[position.play(move)], abs=1e-4), (game.gnubg_id(), str(move))
        _, chosen = bot.act(game)
        assert theirs[position.play(chosen)] == pytest.approx(found[0]["score"], abs=1e-4)
        if found[0]["score"] - found[1]["score"] > 1e-4:
            assert position.play(chosen) == position.play(position.parse_move(notation(found[0]["move"]), dice))
        compared += 1
        if compared == 6:
            break
    assert compared == 6


def test_the_bots_cube_decision_is_gnubgs_with_gnubgs_evaluator(gnubg: object) -> None:
    """The same decision gnubg's hint takes at 0 plies, through Game.cube_decision (tests/test_cube_gnubg.py)."""
    bot = Bot(gnubg_evaluator(gnubg))
    for position in MIDGAME[:10]:
        for fields in STATES:
            if fields.get("crawford") or fields.get("cube_owner") == 1:
                continue
            game = game_at(position, **fields)
            p = gnubg_evaluator(gnubg)(position.to_array()[np.newaxis, :])[0]
            decision = cube_decision(p.tolist(), position, game)
            assert bot.cube_decision(game) == decision
            assert (bot.act(game)[0] is Action.DOUBLE) == decision.action.doubles


def test_rank_shows_match_values_as_gnubgs_equity() -> None:
    game = game_at(START, dice=(6, 5), match_length=7, score=(2, 4))
    ranked = Bot(pips).rank(game)
    assert ranked[0][1] == pytest.approx(mwc_to_eq(mover_value(game, ranked[0][0], pips), game))
