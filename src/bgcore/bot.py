"""A bot that plays the whole game: moves, the cube and resignations, from any evaluator.

A :class:`Bot` wraps an evaluator (``evaluator(boards) -> (n, 5)``
probabilities, see :data:`bgcore.policy.Evaluator`; wildbg's networks,
:func:`bgcore.nets.wildbg`, by default) and answers every state of a
:class:`~bgcore.Game` with the action it takes there: ``act(game)`` returns
``(action, argument)`` for :meth:`~bgcore.Game.apply`.  It looks
one ply ahead, as GNU Backgammon does at 0 plies:

- **moves**: the result with the best equity for the mover.  With the cube in
  play it is gnubg's 0-ply cubeful equity: minus the opponent's cubeful
  equity (their doubling option counted, :func:`bgcore.cube.cubeful_equity`)
  after the move, in the cube state the move leaves; in match play the same
  in match winning chances.  That is what gnubg's ``findbestmoves`` ranks by
  at 0 plies (the tests check it against gnubg).  Without a live cube
  (``cube=False``, tabla, acey-deucey, a cube at its limit) it is the cubeless
  equity as the game scores it (the Jacoby rule, tabla's "mars", the match
  score).  A move that ends the game counts its result, not the evaluator's
  opinion.  Ties go to the first move in the generator's order, and one
  evaluator call scores every result of the roll.
- **the cube**: gnubg's 0-ply decision (:meth:`cube_decision`, the same as
  :meth:`~bgcore.Game.cube_decision`): the bot doubles
  when the proper action doubles ("Double, take", "Double, pass", the
  redoubles, the optional ones, as gnubg's bot at 0 plies), not when it is too
  good or no double; doubled, it takes, passes or beavers as the decision's
  response says (a beaver where the game allows one, else a take).  Facing
  a beaver it takes unless taking is worse than dropping: the double/take
  equity at the beavered cube is at most -1 (gnubg's bot takes every
  beaver it judged right).  In acey-deucey, whose positions gnubg's cube
  theory does not know, the bot never doubles and takes every double.
- **resigning**: only when the loss is certain by the position itself, so
  that resigning costs nothing: no contact, the opponent bears off its last
  checkers whatever it rolls next, and no roll of the bot's (or the roll it
  has made) bears off all of its own.  It then resigns the least its best
  play can lose (a single game once it can bear off a checker, a backgammon
  while every play leaves a checker in the opponent's home board or on the
  bar, else a gammon).  It does not offer again straight after a rejection.
- **accepting**: when the resignation is worth at least what the bot expects
  by playing on, within 1e-6: its cubeless equity by the evaluator (the
  resigner's roll, if made, played as well as the evaluator sees), counted as
  the game scores it; in match play the two match winning chances.

A bot plays a money game against itself:

>>> from bgcore import Bot, Game
>>> bot = Bot()
>>> game = Game(dice=3)
>>> while not game.is_over():
...     _ = game.apply(*bot.act(game))
>>> [(r.player, r.action.value) for r in game.history if r.action.value not in ("roll", "move")]
[(0, 'double'), (1, 'drop')]
>>> game.result
GameOutcome(winner=0, points=1, kind=<Outcome.SINGLE: 1>, end=<End.DROPPED: 'dropped'>, cube=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

import bgcore._cube as _cube

from .cube import CubeDecision, CubeInfo, CubeState, PositionClass, Response, cube_decision, cubeful_equity
from .cube import _state as _cube_state_tuple
from .errors import IllegalActionError
from .game import Action, Game
from .ids import CUBE_LIMIT
from .met import MAX_AWAY, cubeless_equity, met_arrays, mwc_to_eq
from .nets import OnnxWildbg, wildbg
from .nn import NativeEvaluator
from .position import Outcome, Position
from .rules import ROLLS

if TYPE_CHECKING:
    from ._gamestate import ApplyArgument
    from .move import Move
    from .policy import Evaluator

__all__ = ["Bot", "certain_loss"]

# What a resignation must be worth, at least, against the bot's expectation (gnubg's
# tolerance in its own acceptance, play.c): float rounding does not refuse a fair offer.
_ACCEPT_SLACK = 1e-6

# The six exclusive results of a game for the player to act, as probabilities
# (win, win gammon, win backgammon, lose gammon, lose backgammon): lose a single
# game, win a single game, a gammon, a backgammon, lose a gammon, a backgammon.
_RESULTS = (
    (0.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 0.0, 0.0, 0.0, 0.0),
    (1.0, 1.0, 0.0, 0.0, 0.0),
    (1.0, 1.0, 1.0, 0.0, 0.0),
    (0.0, 0.0, 0.0, 1.0, 0.0),
    (0.0, 0.0, 0.0, 1.0, 1.0),
)


class Bot:
    """A player for every state of a :class:`~bgcore.Game`, by ``evaluator``'s
    probabilities one ply ahead (see the module's documentation for its rules).

    ``evaluator``: ``boards -> (n, 5)`` probabilities, boards ``(n, 26)`` int8
    each seen by its player on roll (a :class:`bgcore.nn.Network`, a
    :class:`~bgcore.nn.Composite` or any callable; :func:`bgcore.nets.wildbg`
    when None).  Its outputs are made consistent before use, as gnubg does
    with its networks': clipped to [0, 1], gammons at most the wins and
    backgammons at most the gammons.
    """

    def __init__(self, evaluator: Evaluator | None = None) -> None:
        if evaluator is None:
            evaluator = wildbg()
        elif not callable(evaluator):
            raise TypeError(f"a Bot takes an evaluator, boards -> (n, 5) probabilities, not {evaluator!r}")
        self._evaluator = evaluator
        # bgcore's own evaluators read hypergammon's boards when told the checker count.
        self._counts_checkers = isinstance(evaluator, (NativeEvaluator, OnnxWildbg))

    @property
    def evaluator(self) -> Evaluator:
        """The evaluator the bot plays by."""
        return self._evaluator

    def __repr__(self) -> str:
        return f"Bot({self._evaluator!r})"

    # --- the evaluator ---------------------------------------------------------------------

    def probabilities(self, boards: npt.ArrayLike, *, checkers: int = 15) -> npt.NDArray[np.float64]:
        """The evaluator's probabilities of ``boards`` ((n, 26) int8, each seen
        by its player on roll; ``checkers`` a side, for hypergammon), made
        consistent: float64 (n, 5).

        >>> import numpy as np
        >>> bot = Bot(lambda boards: np.tile([0.6, 0.7, 0.1, -0.1, 0.2], (len(boards), 1)))
        >>> bot.probabilities(np.zeros((1, 26), dtype=np.int8)).tolist()   # wg <= win, lg <= 1 - win, ...
        [[0.6, 0.6, 0.1, 0.0, 0.0]]
        """
        rows = np.ascontiguousarray(boards, dtype=np.int8)
        if rows.ndim != 2 or rows.shape[1] != 26:
            raise ValueError(f"boards are an (n, 26) array, not shape {rows.shape}")
        evaluator = cast(Any, self._evaluator)
        raw = evaluator(rows, checkers=checkers) if self._counts_checkers else evaluator(rows)
        p = np.array(raw, dtype=np.float64)
        if p.shape == (5,) and len(rows) == 1:  # bgcore's networks give one board's outputs flat
            p = p.reshape(1, 5)
        if p.shape != (len(rows), 5):
            raise ValueError(
                f"the evaluator returned shape {np.shape(raw)} for {len(rows)} boards, not ({len(rows)}, 5)"
            )
        if not np.isfinite(p).all():
            raise ValueError("the evaluator returned NaN or infinite probabilities")
        np.clip(p, 0.0, 1.0, out=p)
        np.minimum(p[:, 1], p[:, 0], out=p[:, 1])
        np.minimum(p[:, 2], p[:, 1], out=p[:, 2])
        np.minimum(p[:, 3], 1.0 - p[:, 0], out=p[:, 3])
        np.minimum(p[:, 4], p[:, 3], out=p[:, 4])
        return p

    def _position_probabilities(self, position: Position) -> npt.NDArray[np.float64]:
        """The consistent probabilities of the player on roll in ``position`` (acey-deucey's as mapped)."""
        p: npt.NDArray[np.float64] = self.probabilities(_board26(position)[np.newaxis, :], checkers=position.checkers)
        return np.asarray(p[0], dtype=np.float64)

    # --- what to do ------------------------------------------------------------------------

    def act(self, game: Game) -> tuple[Action, ApplyArgument]:
        """The action the bot takes in ``game`` for :attr:`~bgcore.Game.turn`,
        and its argument: ``game.apply(*bot.act(game))`` plays it.  A move
        comes as a :class:`~bgcore.Move`, a resignation as its
        :class:`~bgcore.Outcome`; the roll is left to the game's dice.

        >>> from bgcore import Game
        >>> game = Game(dice=1)
        >>> Bot().act(game)
        (<Action.ROLL: 'roll'>, None)
        >>> game.roll((3, 1))
        (3, 1)
        >>> action, move = Bot().act(game)
        >>> action, str(move)
        (<Action.MOVE: 'move'>, '8/5 6/5')
        """
        if not isinstance(game, Game):
            raise TypeError(f"act() takes a Game, not {type(game).__name__}")
        if game.is_over():
            raise IllegalActionError("the game is over: there is nothing to do")
        if game.resigned is not None:
            return (Action.ACCEPT if self._accepts(game) else Action.REJECT), None
        if game.doubled:
            return self._answer(game), None
        if game.opening:
            return Action.ROLL, None
        resignation = self._resignation(game)
        if resignation is not None:
            return Action.RESIGN, resignation
        if game.dice is None:
            doubles = Action.DOUBLE in game.legal_actions() and self._doubles(game)
            return (Action.DOUBLE if doubles else Action.ROLL), None
        moves, values = self._move_values(game)
        return Action.MOVE, moves[int(np.argmax(values))]

    def rank(self, game: Game) -> list[tuple[Move, float]]:
        """The legal moves of the rolled dice, best first, each with the
        mover's equity after it as the bot sees it: per unit of the cube in
        money play (cubeful with a live cube), gnubg's normalised equity of
        the match winning chance in match play (as gnubg's hint prints).
        Equal ones keep the generator's order.

        >>> from bgcore import Game
        >>> game = Game(dice=1)
        >>> game.roll((6, 5))
        (6, 5)
        >>> [(str(move), round(equity, 3)) for move, equity in Bot().rank(game)[:2]]
        [('24/13', 0.02), ('24/18 13/8', -0.033)]
        """
        if game.dice is None or game.is_over() or game.doubled or game.resigned is not None:
            raise IllegalActionError("the moves are ranked once the dice are rolled, with no offer waiting")
        moves, values = self._move_values(game)
        if game.match_length and game.match_length <= MAX_AWAY and self._live_cube(game):
            # the cubeful values are match winning chances: shown as gnubg's equity
            values = np.array([mwc_to_eq(float(v), game) for v in values])
        order = sorted(range(len(moves)), key=lambda i: -values[i])
        return [(moves[i], float(values[i])) for i in order]

    def cube_decision(self, game: Game) -> CubeDecision:
        """gnubg's 0-ply cube decision for the player on roll, by this bot's
        evaluator: :meth:`~bgcore.Game.cube_decision`
        with the evaluator's outputs made consistent.  A match longer than
        the match equity table (25 points) is decided as money play at the
        cube's value.  Acey-deucey, whose boards gnubg's theory does not
        know, raises ValueError.

        >>> from bgcore import Game
        >>> game = Game(dice=1)
        >>> game.roll((3, 1)); game.play("8/5 6/5")
        (3, 1)
        >>> Bot().cube_decision(game).action.text
        'No double, take'
        """
        if game.variant == "acey-deucey":
            raise ValueError("acey-deucey has no cube decision here: gnubg's cube theory knows standard boards")
        p = self._position_probabilities(game.position)
        return cube_decision(p.tolist(), game.position, _table_state(game))

    # --- the cube ----------------------------------------------------------------------------

    def _doubles(self, game: Game) -> bool:
        if game.variant == "acey-deucey":
            return False
        return self.cube_decision(game).action.doubles

    def _answer(self, game: Game) -> Action:
        """Take, drop or beaver a double; take or drop a beaver."""
        if game.variant == "acey-deucey":
            return Action.TAKE
        if game.beavered:
            return Action.TAKE if self._beaver_take_value(game) > -1.0 else Action.DROP
        response = self.cube_decision(game).response
        if response is Response.PASS:
            return Action.DROP
        if response is Response.BEAVER and Action.BEAVER in game.legal_actions():
            return Action.BEAVER
        return Action.TAKE

    def _beaver_take_value(self, game: Game) -> float:
        """The doubler's value of taking the beaver, per unit of the beavered
        cube (dropping is -1): the cube doubled again, the beaverer's."""
        on_roll = game.on_roll
        state = CubeInfo(cube=2 * game.cube, cube_owner=1 - on_roll, on_roll=on_roll, jacoby=game.jacoby, beavers=True)
        p = self._position_probabilities(game.position)
        return 2.0 * cubeful_equity(p.tolist(), game.position, state)

    def _live_cube(self, game: Game) -> bool:
        """Whether the cube theory values the moves: a cube that someone may still turn."""
        limit = CUBE_LIMIT if game.max_cube is None else game.max_cube
        return game.cube_enabled and game.variant != "acey-deucey" and 2 * game.cube <= limit

    # --- moves -------------------------------------------------------------------------------

    def _move_values(self, game: Game) -> tuple[Sequence[Move], npt.NDArray[np.float64]]:
        """The legal moves and the mover's value after each: cubeful equity
        (money) or match winning chance (match) with a live cube, else the
        cubeless equity as the game scores it (a match's as gnubg normalises it)."""
        assert game.dice is not None
        moves = game.position.legal_moves(game.dice)
        boards, again = _children(moves)
        checkers = game.position.checkers
        p = self.probabilities(boards, checkers=checkers)
        _score_finished(boards, p, checkers)
        if self._live_cube(game):  # never acey-deucey: every child is the opponent's to roll
            state = _opponents_view(game)
            pre, post = met_arrays()
            values = np.empty(len(p))
            for i, (row, board) in enumerate(zip(p.tolist(), boards, strict=True)):
                data = board.tobytes()
                x = _cube.efficiency(data, _cube.position_class(data), 0)
                values[i] = _cube.cubeful(tuple(row), state, x, None, pre, post)
            return moves, (1.0 - values) if game.match_length and game.match_length <= MAX_AWAY else -values
        mover = np.where(again[:, np.newaxis], p, _flipped(p)) if again is not None else _flipped(p)
        return moves, _cubeless_values(game, mover)

    # --- resignations -------------------------------------------------------------------------

    def _resignation(self, game: Game) -> Outcome | None:
        """What the bot resigns now (see the module's documentation), or None."""
        if game.variant == "acey-deucey":
            return None
        loss = certain_loss(game.position, game.dice)
        if loss is None:
            return None
        history = game.history  # a copy: read only when there is something to offer
        return None if history and history[-1].action is Action.REJECT else loss

    def _accepts(self, game: Game) -> bool:
        offered = game.resigned
        assert offered is not None
        if game.dice is None:  # the resigner is on roll, before rolling
            mine = _flipped(self._position_probabilities(game.position)[np.newaxis, :])
        else:  # the resigner's best play of its roll, by the evaluator: the least it leaves the bot
            moves = game.position.legal_moves(game.dice)
            boards, again = _children(moves)
            p = self.probabilities(boards, checkers=game.position.checkers)
            _score_finished(boards, p, game.position.checkers)
            mine = np.where(again[:, np.newaxis], _flipped(p), p) if again is not None else p
        expected = float(_cubeless_values(game, mine).min())
        resigned = float(_cubeless_values(game, np.array([_RESULTS[int(offered)]]))[0])
        return resigned >= expected - _ACCEPT_SLACK


def certain_loss(position: Position, dice: tuple[int, int] | None = None) -> Outcome | None:
    """The least the player on roll in ``position`` will lose for certain, if
    the loss is certain by the board alone; else None.

    Certain: no contact, the opponent bears off its last checkers with any
    roll, and no roll of the player's (``dice``, when rolled) bears off all
    of its own.  The least loss is over every play of those rolls: a single
    game when one of them bears off a checker, a backgammon when each leaves
    a checker on the bar or in the opponent's home board, else a gammon.
    Acey-deucey positions give None.

    >>> from bgcore import Position
    >>> board = [0] * 26
    >>> board[19], board[24] = 15, -1   # all in the opponent's home board, its last checker on its 1-point
    >>> certain_loss(Position(board))
    <Outcome.BACKGAMMON: 3>
    >>> board[19], board[1], board[9] = 0, 14, 1   # one checker outside: most rolls save the gammon, not 2-1
    >>> certain_loss(Position(board)), certain_loss(Position(board), (2, 1))
    (<Outcome.SINGLE: 1>, <Outcome.GAMMON: 2>)
    >>> board[24], board[19] = 0, -2    # its last two on its 6-point: 2-1 does not bear them off
    >>> certain_loss(Position(board)) is None
    True
    """
    if getattr(position, "waiting", None) is not None:
        return None
    board = position.board
    if -sum(v for v in board if v < 0) > 2 or _contact(position):
        return None  # more than two checkers: no roll but a double bears them all off
    theirs = position.flip()
    for roll in ROLLS:
        if not any(child.is_game_over() for child in theirs.children(roll)):
            return None
    least: Outcome | None = None
    for roll in ROLLS if dice is None else (dice,):
        for child in position.children(roll):  # the opponent's view: the player's checkers negative
            if child.is_game_over():
                return None  # the player can get off first
            left = np.minimum(child.to_array(), 0)  # the opponent gone: the player's loss
            result = Position._trusted(left.tobytes(), position.checkers).result()
            assert result is not None
            least = result.outcome if least is None else min(least, result.outcome)
    return least


# --- helpers --------------------------------------------------------------------------------------


def _contact(position: Position) -> bool:
    """Whether the sides can still hit: gnubg's class above a race."""
    return _cube.position_class(position.to_array().tobytes()) > PositionClass.RACE


def _board26(position: Position) -> npt.NDArray[np.int8]:
    """A standard board for the evaluator: acey-deucey's waiting checkers on the bar."""
    array = cast(npt.NDArray[np.int8], position.to_array())
    if len(array) == 26:
        return array
    board: npt.NDArray[np.int8] = array[:26].copy()
    board[25] += array[26]
    board[0] -= array[27]
    return board


def _children(moves: Any) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_] | None]:
    """The boards every move leads to, each seen by the player on roll next,
    and (acey-deucey) whether that is the mover again; None: never."""
    boards = getattr(moves, "boards", None)
    if boards is None:
        data = b"".join(child._bytes for child in moves.positions())
        return np.frombuffer(data, dtype=np.int8).reshape(-1, 26).copy(), None
    rows = cast(npt.NDArray[np.int8], boards())  # the mover's view: 26 slots and the waiting checkers
    again = cast(npt.NDArray[np.bool_], moves.again())
    board = rows[:, :26].copy()
    board[:, 25] += rows[:, 26]
    board[:, 0] -= rows[:, 27]
    flipped = np.negative(board[:, ::-1])
    return np.where(again[:, np.newaxis], board, flipped).astype(np.int8), again


def _score_finished(boards: npt.NDArray[np.int8], p: npt.NDArray[np.float64], checkers: int) -> None:
    """Put the exact result in place of the evaluator's probabilities of each
    finished board (a side has borne off), for its player on roll."""
    done = ~(boards > 0).any(axis=1) | ~(boards < 0).any(axis=1)
    for i in np.flatnonzero(done):
        result = Position._trusted(boards[i].tobytes(), checkers).result()
        assert result is not None
        kind = int(result.outcome)
        p[i] = _RESULTS[kind] if result.winner == 0 else _RESULTS[(0, 0, 4, 5)[kind]]


def _flipped(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The other player's probabilities: (1 - win, lg, lbg, wg, wbg)."""
    return np.stack([1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2]], axis=1)


def _cubeless_values(game: Game, p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The cubeless equity of the player to act for each row of probabilities
    (that player's), as the game scores it: each of the six results valued
    once by :meth:`Game.cubeless_equity` (money, the Jacoby rule, tabla's
    backgammon, a match's score), which is linear in the results' chances."""
    if game.match_length > MAX_AWAY:  # beyond the match equity table: the points as in money play
        jacoby = game.jacoby and game.cube_owner is None
        results = [
            cubeless_equity(r, jacoby=jacoby, backgammon_value=2 if game.variant == "tabla" else 3) for r in _RESULTS
        ]
    else:
        results = [game.cubeless_equity(r) for r in _RESULTS]
    win, wg, wbg, lg, lbg = p.T
    chances = np.stack([1.0 - win - lg, win - wg, wg - wbg, wbg, lg - lbg, lbg], axis=1)
    return cast(npt.NDArray[np.float64], chances @ np.array(results))


def _table_state(game: Game) -> CubeState:
    """The cube state the theory reads: the game, or money play at the cube's
    value where the match is longer than the match equity table."""
    if game.match_length <= MAX_AWAY:
        return game
    return CubeInfo(cube=game.cube, cube_owner=game.cube_owner, on_roll=game.on_roll)


def _opponents_view(game: Game) -> tuple[int, int, int, int, int, int, int]:
    """The cube state after the mover's move, checked for the native code: the same cube, the opponent on roll."""
    table = game.match_length <= MAX_AWAY
    view = SimpleNamespace(  # a CubeInfo would check it twice
        match_length=game.match_length if table else 0,
        score=game.score if table else (0, 0),
        cube=game.cube,
        cube_owner=game.cube_owner,
        on_roll=1 - game.on_roll,
        crawford=game.crawford and table,
        jacoby=game.jacoby,
        beavers=game.beavers,
    )
    return _cube_state_tuple(view)
