"""A game of backgammon: the opening roll, turns, the doubling cube,
resignations and scoring, in the spirit of python-chess's ``Board``.

A :class:`Game` is mutable: each action (:meth:`Game.roll`, :meth:`Game.play`,
:meth:`Game.double`, :meth:`Game.take`, ...) changes it and is recorded in
:attr:`Game.history`; :meth:`Game.undo` takes the last one back.  An illegal
action raises :class:`~bgcore.IllegalActionError` (or
:class:`~bgcore.IllegalMoveError` for a move) saying why, and changes nothing.

>>> game = Game(dice=7)              # seeded dice: the same game on every machine
>>> game.roll((6, 1))                # the opening: player 0's die, then player 1's
(6, 1)
>>> game.turn, game.dice             # player 0 rolled the 6 and plays 6-1
(0, (6, 1))
>>> game.play("13/7 8/7")
>>> game.turn, game.dice             # player 1 to roll (or double)
(1, None)
>>> game.double(); game.take()
>>> game.cube, game.cube_owner       # the taker owns the cube
(2, 0)
>>> game.undo().action, game.undo().action, game.cube   # take and double taken back
(<Action.TAKE: 'take'>, <Action.DOUBLE: 'double'>, 1)
>>> game.roll()                      # from the seeded dice
(2, 2)
>>> game.gnubg_id()                  # GNU Backgammon's Position ID and Match ID
'4NvgATDgc/ABMA:cAkJAAAAAAAE'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

import bgcore.met as met

from ._gameids import GameIds
from ._gamestate import Action, ApplyArgument, DiceSource, End, GameOutcome, Record, _State
from .cube import CubeDecision
from .cube import cube_decision as _cube_decision
from .cube import cubeful_equity as _cubeful_equity
from .dice import Dice
from .errors import IllegalActionError, IllegalMoveError
from .ids import CUBE_LIMIT, _brief
from .move import Move, check_dice
from .position import LegalMoves, Outcome, Position

if TYPE_CHECKING:
    from .policy import Evaluator

__all__ = ["Action", "DiceSource", "End", "Game", "GameOutcome", "Record", "MAX_AUTOMATIC_DOUBLES"]

#: The most automatic doubles a game allows: gnubg's limit, which takes the
#: cube to its largest value (:data:`bgcore.ids.CUBE_LIMIT`, 4096 = 2**12).
MAX_AUTOMATIC_DOUBLES = CUBE_LIMIT.bit_length() - 1

#: Variants a game can be played in; tabla starts as standard.  In
#: acey-deucey (:mod:`bgcore.acey`) every checker starts off the board, the
#: winner of the opening roll rolls again to start, and a move may give its
#: player another roll.
GAME_VARIANTS = ("standard", "nackgammon", "hypergammon", "tabla", "acey-deucey")


def dice_source(dice: int | DiceSource | None) -> DiceSource:
    """A dice source from what :class:`Game` and :class:`~bgcore.Match` take:
    a seed, a source with ``roll()``, or None for a fresh random seed."""
    if dice is None or (isinstance(dice, int) and not isinstance(dice, bool)):
        return Dice(dice)
    if isinstance(dice, DiceSource):
        return dice
    raise TypeError(f"dice is a seed (int), a dice source with roll() or None, not {type(dice).__name__}")


class Game(GameIds):
    """A game of backgammon between players 0 and 1.

    ``match_length=0`` is money play; otherwise ``score`` gives the points of
    players 0 and 1 before this game.  ``crawford`` turns the Crawford rule on
    (match play): the game is then the Crawford game when one player (only)
    is one point short and ``post_crawford`` is False.  ``jacoby`` (money
    play): gammons and backgammons count single while the cube is centred.
    ``beavers`` (money play): a player doubled may redouble at once (a
    beaver, one per double), keeping the cube; the doubler then takes or
    drops, as in gnubg.  ``cube=False`` plays without the doubling cube;
    ``max_cube`` caps its value (a power of two up to
    :data:`~bgcore.ids.CUBE_LIMIT`, 4096, gnubg's largest cube, which is also
    the cap without it).  ``automatic_doubles`` (money play): how many ties of
    the opening roll double the cube (centred), at most (0 to
    :data:`MAX_AUTOMATIC_DOUBLES`, 12, as gnubg).  ``dice`` is a seed (int), a
    dice source (anything with ``roll()``) or None for a fresh random seed.
    """

    def __init__(
        self,
        variant: str = "standard",
        *,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = True,
        jacoby: bool = False,
        beavers: bool = False,
        cube: bool = True,
        max_cube: int | None = None,
        dice: int | DiceSource | None = None,
        post_crawford: bool = False,
        automatic_doubles: int = 0,
    ) -> None:
        if variant not in GAME_VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; choose from {', '.join(GAME_VARIANTS)}")
        if isinstance(match_length, bool) or not isinstance(match_length, int) or not 0 <= match_length <= 32767:
            raise ValueError(f"match_length must be 0 (money) or 1-32767 points, not {_brief(match_length)}")
        try:
            s0, s1 = score
        except (TypeError, ValueError):
            raise ValueError(f"score is a pair of points, not {_brief(score)}") from None
        for s in (s0, s1):
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise ValueError(f"scores are points >= 0, not {_brief(score)}")
        if match_length and max(s0, s1) >= match_length:
            raise ValueError(f"score {_brief(s0)}-{_brief(s1)} has already won a {match_length}-point match")
        if max_cube is not None and (
            isinstance(max_cube, bool)
            or not isinstance(max_cube, int)
            or not 1 <= max_cube <= CUBE_LIMIT
            or max_cube & (max_cube - 1)
        ):
            raise ValueError(f"max_cube must be a power of two from 1 to {CUBE_LIMIT}, not {_brief(max_cube)}")
        if (
            isinstance(automatic_doubles, bool)
            or not isinstance(automatic_doubles, int)
            or not 0 <= automatic_doubles <= MAX_AUTOMATIC_DOUBLES
        ):
            raise ValueError(
                f"automatic_doubles must be an int from 0 to {MAX_AUTOMATIC_DOUBLES}, not {_brief(automatic_doubles)}"
            )
        if match_length and (jacoby or beavers or automatic_doubles):
            raise ValueError("the Jacoby rule, beavers and automatic doubles are for money play (match_length=0)")
        self.variant = variant
        self.match_length = match_length
        self.score = (s0, s1)
        self.crawford_rule = bool(crawford)
        self.post_crawford = bool(post_crawford)
        self.jacoby = bool(jacoby)
        self.beavers = bool(beavers)
        self.cube_enabled = bool(cube) and variant != "tabla"
        self.max_cube = max_cube
        self.automatic_doubles = automatic_doubles
        self._dice_source = dice_source(dice)
        self._state = _State(
            position=_start(variant),
            turn=0,
            on_roll=0,
            dice=None,
            opening=True,
            cube=1,
            cube_owner=None,
            doubled=False,
            resigned=None,
            outcome=None,
            dice_state=None,
        )
        self._undo: list[_State] = []
        self._history: list[Record] = []

    # --- state -----------------------------------------------------------

    @property
    def position(self) -> Position:
        """The board, seen from the player on roll (:attr:`on_roll`)."""
        return self._state.position

    @property
    def turn(self) -> int:
        """The player to act: the player on roll, or the other one when a
        double or a resignation awaits an answer."""
        return self._state.turn

    @property
    def on_roll(self) -> int:
        """The player whose turn it is to roll and move (gnubg's dice owner)."""
        return self._state.on_roll

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to play, as rolled, or None before the roll."""
        return self._state.dice

    @property
    def opening(self) -> bool:
        """True until the opening roll is made."""
        return self._state.opening

    @property
    def cube(self) -> int:
        """The cube's value."""
        return self._state.cube

    @property
    def cube_owner(self) -> int | None:
        """The player who owns the cube, or None while it is centred."""
        return self._state.cube_owner

    @property
    def again(self) -> bool:
        """Acey-deucey: the player on roll rolls again within the same turn
        (after winning the opening roll, or after 1-2 and its double played
        in full), with no cube action first."""
        return self._state.again

    @property
    def doubled(self) -> bool:
        """A double waits for an answer from :attr:`turn`."""
        return self._state.doubled

    @property
    def beavered(self) -> bool:
        """A beaver waits for the doubler's answer (:attr:`turn` is then the
        doubler, who takes or drops at the cube's new value)."""
        s = self._state
        return s.doubled and s.turn == s.on_roll

    @property
    def resigned(self) -> Outcome | None:
        """The kind of resignation waiting for an answer from :attr:`turn`, if any."""
        return self._state.resigned

    @property
    def crawford(self) -> bool:
        """This is the Crawford game: nobody may double."""
        if not (self.match_length and self.crawford_rule) or self.post_crawford:
            return False
        short = [self.match_length - s == 1 for s in self.score]
        return short[0] != short[1]

    @property
    def history(self) -> tuple[Record, ...]:
        """Every action so far, oldest first."""
        return tuple(self._history)

    @property
    def result(self) -> GameOutcome | None:
        """The outcome once the game is over, else None."""
        return self._state.outcome

    def is_over(self) -> bool:
        """True once the game has ended (borne off, dropped or resigned)."""
        return self._state.outcome is not None

    # --- what may be done --------------------------------------------------

    def _may_double(self) -> str | None:
        """Why the player to act may not double now (None: they may)."""
        s = self._state
        if s.outcome is not None:
            return "the game is over"
        if not self.cube_enabled:
            return "this game is played without the doubling cube"
        if s.opening:
            return "no cube action before the first move"
        if s.doubled or s.resigned is not None:
            return "an offer waits for an answer"
        if s.dice is not None:
            return "doubling comes before rolling, and the dice are rolled"
        if s.again:
            return "the turn goes on: the player on roll rolls again first"
        if self.crawford:
            return "nobody may double in the Crawford game"
        if s.cube_owner is not None and s.cube_owner != s.on_roll:
            return f"player {1 - s.on_roll} owns the cube"
        if 2 * s.cube > self._cube_limit():
            return f"the cube is at its limit ({self._cube_limit()})"
        return None

    def _cube_limit(self) -> int:
        return CUBE_LIMIT if self.max_cube is None else self.max_cube

    def legal_actions(self) -> list[Action]:
        """What :attr:`turn` may do now (empty once the game is over)."""
        s = self._state
        if s.outcome is not None:
            return []
        if s.resigned is not None:
            return [Action.ACCEPT, Action.REJECT]
        if s.doubled:
            # Dropping is the way out of a double (a resignation then would
            # have no place in gnubg's Match ID).
            actions = [Action.TAKE, Action.DROP]
            if self._may_beaver() is None:
                actions.append(Action.BEAVER)
            return actions
        if s.dice is None:
            actions = [Action.ROLL]
            if self._may_double() is None:
                actions.append(Action.DOUBLE)
        else:
            actions = [Action.MOVE]
        if not s.opening:
            actions.append(Action.RESIGN)
        return actions

    def legal_moves(self) -> LegalMoves | tuple[()]:
        """The legal moves of the rolled dice (empty when nothing is to be moved)."""
        s = self._state
        if s.dice is None or s.outcome is not None or s.doubled or s.resigned is not None:
            return ()
        return s.position.legal_moves(s.dice)

    # --- actions -------------------------------------------------------------

    def _push(self, record: Record, **changes: object) -> None:
        self._undo.append(self._state)
        self._history.append(record)
        changes.setdefault("dice_state", None)  # only a roll rewinds the dice on undo
        changes.setdefault("again", False)  # only a move that rolls again sets it
        fields = {**self._state.__dict__, **changes}
        self._state = _State(**fields)

    def _dice_state(self) -> object:
        getstate = getattr(self._dice_source, "getstate", None)
        return getstate() if callable(getstate) else None

    def _need(self, action: Action) -> None:
        if action not in self.legal_actions():
            s = self._state
            if s.outcome is not None:
                why = "the game is over"
            elif s.resigned is not None:
                why = f"player {s.turn} must accept or reject the resignation"
            elif s.doubled:
                offer = "the beaver" if self.beavered else "the double"
                why = f"player {s.turn} must take or drop {offer}"
                if action is Action.BEAVER and not self.beavered:
                    why = self._may_beaver() or why
            elif s.dice is not None:
                why = f"player {s.turn} must move the {s.dice[0]}-{s.dice[1]}"
            elif action is Action.DOUBLE:
                why = self._may_double() or "not now"
            else:
                why = f"player {s.turn} must roll" + (" (the opening roll)" if s.opening else "")
            raise IllegalActionError(f"cannot {action.value}: {why}")

    def apply(self, action: Action | str, argument: ApplyArgument = None) -> tuple[int, int] | None:
        """Do ``action`` (an :class:`Action` or its value, such as ``"roll"``),
        one entry for whatever :meth:`legal_actions` offers: MOVE plays
        ``argument``, the move (as :meth:`play`); ROLL rolls ``argument``, the
        dice, or the game's own (as :meth:`roll`, whose dice it returns);
        RESIGN offers ``argument``, the kind (as :meth:`resign`, single by
        default); the others take no argument.

        >>> game = Game(dice=7)
        >>> game.apply(Action.ROLL, (6, 1))
        (6, 1)
        >>> game.apply(Action.MOVE, "13/7 8/7"); game.apply("double"); game.apply("take")
        >>> game.cube, [a.value for a in game.legal_actions()]
        (2, ['roll', 'resign'])

        An agent's loop, here playing the first legal move of every roll:

        >>> while not game.is_over():
        ...     action = game.legal_actions()[0]
        ...     _ = game.apply(action, game.legal_moves()[0] if action is Action.MOVE else None)
        >>> game.result.end.value
        'borne off'
        """
        if isinstance(action, str):
            try:
                action = Action(action)
            except ValueError:
                raise ValueError(
                    f"unknown action {action!r}; choose from {', '.join(a.value for a in Action)}"
                ) from None
        elif not isinstance(action, Action):
            raise TypeError(f"apply() takes an Action or its value, not {type(action).__name__}")
        if action is Action.MOVE:
            if argument is None:
                raise TypeError("apply(Action.MOVE, move) takes the move to play (a Move or its notation)")
            self.play(argument)  # type: ignore[arg-type]
            return None
        if action is Action.ROLL:
            return self.roll(argument)  # type: ignore[arg-type]
        if action is Action.RESIGN:
            self.resign(Outcome.SINGLE if argument is None else argument)  # type: ignore[arg-type]
            return None
        if argument is not None:
            raise TypeError(f"apply(Action.{action.name}) takes no argument, not {_brief(argument)}")
        getattr(self, action.value)()
        return None

    def roll(self, dice: Sequence[int] | None = None) -> tuple[int, int]:
        """Roll the dice (from the game's source, or ``dice`` as given) and
        return them.

        The opening roll is one die for each player (``dice`` given: player
        0's, then player 1's); ties are rolled again (doubling the cube when
        automatic doubles are on), and the player with the higher die plays
        both (in acey-deucey, that player then rolls both dice to begin).
        """
        self._need(Action.ROLL)
        given = None if dice is None else check_dice(dice)
        if given is not None:
            given = (int(dice[0]), int(dice[1]))  # type: ignore[index]
        s = self._state
        before = self._dice_state()
        if not s.opening:
            rolled = given if given is not None else self._draw()
            self._push(Record(s.on_roll, Action.ROLL, dice=rolled), dice=rolled, dice_state=before)
            return rolled
        cube = s.cube
        while True:
            rolled = given if given is not None else self._draw()
            if rolled[0] != rolled[1]:
                break
            if given is not None:
                raise IllegalActionError(f"the opening roll cannot be a tie ({rolled[0]}-{rolled[1]}): roll again")
            if self.cube_enabled and cube < 2**self.automatic_doubles and self._auto_double_room(cube):
                cube *= 2
        first = 0 if rolled[0] > rolled[1] else 1
        dice_first = (max(rolled), min(rolled))
        position = s.position if first == s.on_roll else s.position.flip()
        self._push(
            Record(first, Action.ROLL, dice=rolled),
            dice=None if self.variant == "acey-deucey" else dice_first,
            again=self.variant == "acey-deucey",  # the winner rolls both dice to begin
            opening=False,
            on_roll=first,
            turn=first,
            position=position,
            cube=cube,
            dice_state=before,
        )
        return dice_first

    def _auto_double_room(self, cube: int) -> bool:
        return 2 * cube <= self._cube_limit()

    def _draw(self) -> tuple[int, int]:
        rolled = self._dice_source.roll()
        a, b = rolled
        if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= 6 and 1 <= b <= 6):
            raise ValueError(f"the dice source rolled {rolled!r}, not two dice 1-6")
        return int(a), int(b)

    def play(self, move: Move | str) -> None:
        """Play a legal move of the rolled dice (a :class:`Move` or its
        notation, such as ``"13/7 8/7"``); the empty move (or ``""``) when no
        move is possible.  The other player is on roll next, unless the game
        is over or (acey-deucey) the move rolls again."""
        self._need(Action.MOVE)
        s = self._state
        assert s.dice is not None
        if isinstance(move, str):
            move = s.position.parse_move(move, s.dice)
        elif not isinstance(move, Move):
            raise TypeError(f"play() takes a Move or its notation, not {type(move).__name__}")
        if move.dice != check_dice(s.dice):
            raise IllegalMoveError(f"{move} was played with {move.dice[0]}-{move.dice[1]}, not {s.dice[0]}-{s.dice[1]}")
        after = s.position.play(move)  # the opponent's view; raises when illegal
        record = Record(s.on_roll, Action.MOVE, move=move)
        result = after.result()
        if result is not None:
            # result's winner is 1: the player who moved, seen from the opponent
            outcome = self._outcome(s.on_roll, result.outcome, End.BORNE_OFF, s.cube, s.cube_owner)
            self._push(record, position=after.flip(), dice=None, outcome=outcome)
            return
        if getattr(move, "again", False):  # acey-deucey: 1-2 and its double played in full
            self._push(record, position=after, dice=None, again=True)
            return
        other = 1 - s.on_roll
        self._push(record, position=after, dice=None, on_roll=other, turn=other)

    def double(self) -> None:
        """Offer to double: the opponent must take, drop (or beaver)."""
        self._need(Action.DOUBLE)
        s = self._state
        self._push(Record(s.on_roll, Action.DOUBLE), doubled=True, turn=1 - s.on_roll)

    def take(self) -> None:
        """Take the double: the cube goes to twice its value, owned by the
        doubler's opponent (the taker, or the beaverer when the doubler takes
        a beaver), and the doubler rolls."""
        self._need(Action.TAKE)
        s = self._state
        self._push(
            Record(s.turn, Action.TAKE), doubled=False, cube=2 * s.cube, cube_owner=1 - s.on_roll, turn=s.on_roll
        )

    def drop(self) -> None:
        """Refuse the double (or the beaver): the other player wins the cube's
        value before the answer, as a single game."""
        self._need(Action.DROP)
        s = self._state
        outcome = GameOutcome(1 - s.turn, s.cube, Outcome.SINGLE, End.DROPPED, s.cube)
        self._push(Record(s.turn, Action.DROP), doubled=False, outcome=outcome)

    def _may_beaver(self) -> str | None:
        s = self._state
        if not (self.beavers and self.match_length == 0):
            return "beavers are off (a money-play option)"
        if not s.doubled:
            return "no double to beaver"
        if self.beavered:
            return "a double is beavered once (no raccoons)"
        if 4 * s.cube > self._cube_limit():
            return f"the cube would pass its limit ({self._cube_limit()})"
        return None

    def beaver(self) -> None:
        """Take and redouble at once (money play with beavers), as gnubg: the
        cube goes to twice its value, owned by the beaverer, and the doubler
        answers: a take doubles it again (four times its value before the
        double, the beaverer's cube), a drop loses twice the old value.

        >>> game = Game(beavers=True, dice=1)
        >>> game.roll((6, 1)); game.play("13/7 8/7"); game.double(); game.beaver()
        (6, 1)
        >>> game.cube, game.cube_owner, game.turn, game.legal_actions()
        (2, 0, 1, [<Action.TAKE: 'take'>, <Action.DROP: 'drop'>])
        >>> game.match_id()      # gnubg's ID: the doubler, player 1, to answer
        'QRkAAAAAAAAE'
        >>> game.take(); game.cube, game.cube_owner, game.turn
        (4, 0, 1)
        """
        self._need(Action.BEAVER)
        s = self._state
        self._push(Record(s.turn, Action.BEAVER), cube=2 * s.cube, cube_owner=s.turn, turn=s.on_roll)

    def resign(self, kind: Outcome | int | str = Outcome.SINGLE) -> None:
        """Offer to resign a single game, a gammon or a backgammon (an
        :class:`~bgcore.Outcome`, its points 1-3, or its name): the opponent
        accepts or rejects."""
        self._need(Action.RESIGN)
        outcome = _as_outcome(kind)
        s = self._state
        self._push(Record(s.turn, Action.RESIGN, kind=outcome), resigned=outcome, turn=1 - s.turn)

    def accept(self) -> None:
        """Accept the resignation: the game ends for its value."""
        self._need(Action.ACCEPT)
        s = self._state
        assert s.resigned is not None
        outcome = self._outcome(s.turn, s.resigned, End.RESIGNED, s.cube, s.cube_owner)
        self._push(Record(s.turn, Action.ACCEPT), resigned=None, outcome=outcome)

    def reject(self) -> None:
        """Reject the resignation: the game goes on, the resigner to act."""
        self._need(Action.REJECT)
        s = self._state
        self._push(Record(s.turn, Action.REJECT), resigned=None, turn=1 - s.turn)

    def force(
        self,
        move: Move | None = None,
        *,
        winner: int | None = None,
        kind: Outcome | int | str = Outcome.SINGLE,
        points: int | None = None,
    ) -> None:
        """Do what a record of a game played elsewhere says, although the
        rules forbid it: play ``move`` as written, or end the game with
        ``winner``'s win.  For replaying such records (servers and programs
        do not all keep the rules as bgcore does): :func:`bgcore.matfile.read`
        uses it where GNU Backgammon's ``import mat`` does the same.  The
        rest of the game stays under the rules; :meth:`undo` takes it back.

        ``force(move)``: the player on roll, the dice rolled, plays the steps
        of ``move`` (a :class:`~bgcore.Move` of those dice) legal or not, as
        gnubg applies a move it imports: each step takes one of their
        checkers 1 to 6 points on (bearing off from the home board), hitting
        a lone opposing checker where it lands; a step from a point without
        their checker or onto two or more opposing checkers raises
        :class:`~bgcore.IllegalMoveError`.  The empty move passes the turn
        unplayed.  Recorded as the player's :attr:`Action.MOVE`, its hits as
        they happened.  ``force()`` before the roll: the player on roll's turn
        passes unrolled (a turn the record leaves out, as gnubg reads one),
        recorded as a :attr:`Action.MOVE` with no move.

        ``force(winner=0 or 1, kind=..., points=...)``: the game ends at
        once, whoever is to act and whatever offer waits: the other player
        resigned ``kind`` (single, gammon or backgammon) and ``winner`` wins
        ``points``, by default the kind times the cube (before a double that
        waits for an answer; no Jacoby rule), as gnubg scores a resignation
        it imports.  Recorded as the loser's :attr:`Action.RESIGN`, the last
        record of the game; :attr:`result` ends :attr:`End.RESIGNED`.

        >>> game = Game(dice=1)
        >>> game.roll((6, 4)); game.force(Move([(24, 18), (13, 9), (6, 5)], (6, 4)))
        (6, 4)
        >>> game.turn, game.history[-1].move       # played, though three steps
        (1, Move(((24, 18), (13, 9), (6, 5)), dice=(6, 4), hits=(False, False, False)))
        >>> game.force(winner=1, kind="gammon")    # player 0 resigns, player 1 to act
        >>> game.result
        GameOutcome(winner=1, points=2, kind=<Outcome.GAMMON: 2>, end=<End.RESIGNED: 'resigned'>, cube=1)
        """
        s = self._state
        if s.outcome is not None:
            raise IllegalActionError("cannot force: the game is over")
        if winner is not None:
            if move is not None:
                raise ValueError("force() plays a move or ends the game, not both")
            if winner not in (0, 1) or isinstance(winner, bool):
                raise ValueError(f"the winner is player 0 or 1, not {winner!r}")
            outcome = _as_outcome(kind)
            if points is None:
                points = int(outcome) * s.cube
            elif isinstance(points, bool) or not isinstance(points, int) or points < 1:
                raise ValueError(f"points are an int >= 1, not {points!r}")
            result = GameOutcome(winner, points, outcome, End.RESIGNED, s.cube)
            self._push(Record(1 - winner, Action.RESIGN, kind=outcome), doubled=False, resigned=None, outcome=result)
            return
        if s.doubled or s.resigned is not None or s.opening or self.variant == "acey-deucey":
            raise IllegalActionError("cannot force a move: an offer waits, the game has not begun, or acey-deucey")
        other = 1 - s.on_roll
        if move is None and s.dice is None:  # a turn the record leaves out
            self._push(Record(s.on_roll, Action.MOVE), position=s.position.flip(), on_roll=other, turn=other)
            return
        if not isinstance(move, Move):
            raise TypeError(f"force() takes a Move, a winner or nothing, not {type(move).__name__}")
        if s.dice is None:
            raise IllegalActionError("cannot force a move: the dice are not rolled")
        if move.dice != check_dice(s.dice):
            raise IllegalMoveError(f"{move} was played with {move.dice[0]}-{move.dice[1]}, not {s.dice[0]}-{s.dice[1]}")
        board = list(s.position.board)  # the mover's view: slot 25 their bar, slot 0 the opponent's
        hits = []
        for src, dst in move.steps:  # in the move's order, as gnubg applies them
            if not 1 <= src - dst <= 6 or board[src] < 1 or (dst and board[dst] < -1):
                raise IllegalMoveError(f"{move} cannot be played even outside the rules: the step {src}/{dst}")
            board[src] -= 1
            hits.append(bool(dst) and board[dst] == -1)
            if hits[-1]:  # the blot goes to the opponent's bar
                board[dst], board[0] = 0, board[0] - 1
            if dst:  # (0 is off the board)
                board[dst] += 1
        after = Position(board, checkers=s.position.checkers).flip()
        record = Record(s.on_roll, Action.MOVE, move=Move(move.steps, move.dice, hits))
        over = after.result()
        if over is not None:
            self._push(
                record,
                position=after.flip(),
                dice=None,
                outcome=self._outcome(s.on_roll, over.outcome, End.BORNE_OFF, s.cube, s.cube_owner),
            )
            return
        self._push(record, position=after, dice=None, on_roll=other, turn=other)

    def undo(self) -> Record:
        """Take back the last action and return it; the dice source is
        rewound too when it can be (``getstate``/``setstate``)."""
        if not self._undo:
            raise IllegalActionError("nothing to undo")
        undone = self._state
        self._state = self._undo.pop()
        setstate = getattr(self._dice_source, "setstate", None)
        if undone.dice_state is not None and callable(setstate):
            setstate(undone.dice_state)
        return self._history.pop()

    def _outcome(self, winner: int, kind: Outcome, end: End, cube: int, owner: int | None) -> GameOutcome:
        multiplier = int(kind)
        if kind is Outcome.BACKGAMMON:
            multiplier = self._backgammon_value()  # tabla's "mars" counts 2, whether or not a checker is left behind
        if self.jacoby and self.match_length == 0 and owner is None:
            multiplier = 1
        return GameOutcome(winner, multiplier * cube, kind, end, cube)

    # --- match equity ------------------------------------------------------------

    def cubeless_equity(self, probabilities: Sequence[float]) -> float:
        """Cubeless equity per unit of cube, from gnubg's five outputs (win, win
        gammon, win backgammon, lose gammon, lose backgammon) of the player to
        act, each result counted as this game scores it: at a match score,
        gammons are valued at the score's prices; in money play under the
        Jacoby rule they count single while the cube is centred; in tabla a
        backgammon counts 2 (see :func:`bgcore.met.cubeless_equity`).

        >>> game = Game(jacoby=True, dice=1)
        >>> game.roll((6, 1)); game.cubeless_equity((0.75, 0.25, 0.0, 0.0, 0.0))   # the gammons count single
        (6, 1)
        0.5
        """
        return met.cubeless_equity(
            probabilities,
            match_length=self.match_length,
            score=self.score if self.match_length else (0, 0),
            cube=self.cube,
            turn=self.turn,
            crawford=self.crawford,
            jacoby=self.jacoby and not self.match_length,
            cube_owner=self.cube_owner,
            backgammon_value=self._backgammon_value(),
        )

    def mwc(self, probabilities: Sequence[float]) -> float:
        """The match winning chance of the player to act from gnubg's five
        outputs, the cube where it is (a money game has none: MoneyGameError)."""
        return met.cubeless_mwc(
            probabilities,
            match_length=self.match_length,
            score=self.score,
            cube=self.cube,
            turn=self.turn,
            crawford=self.crawford,
            backgammon_value=self._backgammon_value(),
        )

    def _backgammon_value(self) -> int:
        return 2 if self.variant == "tabla" else 3  # tabla's "mars" counts 2

    # --- the cube ----------------------------------------------------------------

    def cubeful_equity(self, probabilities: Iterable[float]) -> float:
        """gnubg's 0-ply cubeful equity of the player on roll, before rolling
        (see :func:`bgcore.cube.cubeful_equity`).

        ``probabilities`` are the cubeless (win, win gammon, win backgammon,
        lose gammon, lose backgammon) of :attr:`on_roll` in :attr:`position`,
        gammons counting backgammons.  Money play: per unit of the cube, the
        player's option to double counted; match play: the match winning chance.

        >>> p = (0.694006, 0.091628, 0.002363, 0.049151, 0.000909)
        >>> round(Game(jacoby=True).cubeful_equity(p), 4)
        0.6313
        >>> round(Game(match_length=7, score=(3, 4)).cubeful_equity(p), 4)
        0.4826
        """
        return _cubeful_equity(probabilities, self.position, self)

    def cube_decision(self, evaluator: Evaluator) -> CubeDecision:
        """gnubg's 0-ply cube decision for the player on roll, from
        ``evaluator``'s probabilities of :attr:`position`.

        ``evaluator`` takes (n, 26) int8 boards, each seen by its player on
        roll, and returns their (n, 5) cubeless probabilities (see
        :data:`bgcore.policy.Evaluator`).  The cube and score are this game's;
        see :func:`bgcore.cube.cube_decision` for the values and names.

        >>> import numpy as np
        >>> def evaluator(boards):  # the same probabilities for any board
        ...     return np.tile([0.694006, 0.091628, 0.002363, 0.049151, 0.000909], (len(boards), 1))
        >>> d = Game(jacoby=True, beavers=True).cube_decision(evaluator)
        >>> d.action.text, round(d.no_double, 4), round(d.double_take, 4), d.response.value
        ('Double, take', 0.6291, 0.6313, 'take')
        """
        probabilities = np.asarray(evaluator(self.position.to_array()[np.newaxis, :]), dtype=np.float64)
        if probabilities.shape != (1, 5):
            raise ValueError(f"the evaluator returned shape {probabilities.shape} for one board, not (1, 5)")
        return _cube_decision(probabilities[0].tolist(), self.position, self)

    def _repr_svg_(self) -> str:
        """The board, cube and dice as an SVG picture, for Jupyter (:func:`bgcore.svg.board`)."""
        from .svg import board  # only when drawn: keeps ``import bgcore`` light

        return board(self)

    def __repr__(self) -> str:
        where = "money" if not self.match_length else f"{self.score[0]}-{self.score[1]} to {self.match_length}"
        state = "over" if self.is_over() else f"player {self.turn} to act"
        return f"<Game {self.variant} {where}, cube {self.cube}, {state}: {self.position!r}>"


def _start(variant: str) -> Position:
    """The starting position of a game of ``variant``."""
    return Position.initial("standard" if variant == "tabla" else variant)


def _as_outcome(kind: Outcome | int | str) -> Outcome:
    if isinstance(kind, Outcome):
        return kind
    if isinstance(kind, str):
        try:
            return Outcome[kind.upper()]
        except KeyError:
            raise ValueError(f"a resignation is single, gammon or backgammon, not {kind!r}") from None
    if isinstance(kind, int) and not isinstance(kind, bool) and 1 <= kind <= 3:
        return Outcome(kind)
    raise ValueError(f"a resignation is single, gammon or backgammon (1-3 points), not {kind!r}")
