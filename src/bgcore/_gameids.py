"""GNU Backgammon's Match IDs and gnubg IDs, and eXtreme Gammon's XGIDs, of a
:class:`~bgcore.Game`, both ways: the ID half of the game, a mixin that
:class:`~bgcore.Game` inherits (so that ``game.py`` holds the rules and
this module the formats).  Its doctests use :class:`~bgcore.Game`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from ._gamestate import End, _State
from .errors import IllegalActionError, InvalidMatchIdError, InvalidPositionError
from .ids import (
    CUBE_LIMIT,
    XGID,
    GameState,
    MatchId,
    Resignation,
    decode_position_id,
    encode_position_id,
    parse_gnubg_id,
)
from .position import Outcome, Position
from .rules import VARIANTS

__all__ = ["GameIds"]

_G = TypeVar("_G", bound="GameIds")


class GameIds:
    """The IDs of a game (see :class:`~bgcore.Game`, which is one)."""

    if TYPE_CHECKING:  # what the game that inherits this gives it
        _state: _State
        variant: str
        match_length: int
        score: tuple[int, int]
        jacoby: bool
        beavers: bool
        max_cube: int | None

        def __init__(self, variant: str = "standard", **options: object) -> None: ...

        @property
        def position(self) -> Position: ...

        @property
        def crawford(self) -> bool: ...

        @property
        def beavered(self) -> bool: ...

    def _score_now(self) -> tuple[int, int]:
        """The score with a finished game's points added, past the length if
        they take the winner there: gnubg writes the real score."""
        points = list(self.score)
        outcome = self._state.outcome
        if outcome is not None:
            points[outcome.winner] += outcome.points
        return points[0], points[1]

    def match_state(self) -> MatchId:
        """The fields of GNU Backgammon's Match ID for this game (see :class:`~bgcore.ids.MatchId`).

        A finished game is written as gnubg holds it once it has replayed the
        game's records (loading or importing a match): borne off, the loser is
        on roll (gnubg passes the dice after every move); resigned, the
        resignation stays and the resigner is to act, as before the offer.
        """
        s = self._state
        on_roll, turn = s.on_roll, s.turn
        resigned = s.resigned
        if s.outcome is None:
            state = GameState.PLAYING
        elif s.outcome.end is End.BORNE_OFF:
            state = GameState.OVER
            on_roll = turn = 1 - s.outcome.winner
        elif s.outcome.end is End.RESIGNED:
            state = GameState.RESIGNED
            turn, resigned = on_roll, s.outcome.kind
        else:
            state = GameState.DROPPED
        return MatchId(
            cube=s.cube,
            cube_owner=s.cube_owner,
            player_on_roll=on_roll,
            crawford=self.crawford,
            game_state=state,
            turn=turn,
            double_offered=s.doubled,
            resignation=Resignation(0 if resigned is None else int(resigned)),
            dice=s.dice,
            match_length=self.match_length,
            score=self._score_now(),
            jacoby=self.jacoby if self.match_length == 0 else False,
        )

    def match_id(self) -> str:
        """GNU Backgammon's 12-character Match ID of this game, byte for byte.

        >>> from bgcore import Game
        >>> game = Game(match_length=7, score=(2, 4), dice=3)
        >>> game.roll((5, 2)); game.match_id()
        (5, 2)
        'MIHqACAAIAAE'

        At the end of a match the winner's score passes the length by what the
        last game was worth, as gnubg writes it: a gammon resigned at once in
        a 1-point match is 2-0.

        >>> game = Game(match_length=1, dice=3)
        >>> game.roll((6, 4)); game.resign("gammon"); game.accept(); game.match_id()
        (6, 4)
        'MEMzAAAAEAAE'
        """
        return self.match_state().encode()

    def gnubg_id(self) -> str:
        """``PositionID:MatchID``, as gnubg shows and reads it (not in
        acey-deucey, whose checkers waiting to enter an ID cannot hold).  The
        board is seen by the Match ID's player on roll: after the last checker
        is borne off, the loser."""
        if self.variant == "acey-deucey":
            raise InvalidPositionError("a Position ID has no room for acey-deucey's checkers waiting to enter")
        outcome = self._state.outcome
        borne_off = outcome is not None and outcome.end is End.BORNE_OFF
        position = self.position.flip() if borne_off else self.position
        return f"{encode_position_id(position.board)}:{self.match_id()}"

    @classmethod
    def from_ids(cls: type[_G], position_id: str, match_id: str | None = None, **options: object) -> _G:
        """The game a Position ID and a Match ID describe (or a gnubg ID
        ``PositionID:MatchID`` alone).  The other options (``variant``,
        ``beavers``, ``dice``, ...) are as for :class:`Game`; a finished
        game cannot be read back."""
        if match_id is None:
            board, state = parse_gnubg_id(position_id)
        else:
            board, state = decode_position_id(position_id), MatchId.decode(match_id)
        return cls._from_state(board, state, **options)

    @classmethod
    def _from_state(cls: type[_G], board: Sequence[int], state: MatchId, **options: object) -> _G:
        if state.game_state is not GameState.PLAYING:
            raise InvalidMatchIdError(f"the ID describes a game that is not being played ({state.game_state.name})")
        if state.cube > CUBE_LIMIT:
            raise InvalidMatchIdError(f"the cube {state.cube} is above the largest a game plays ({CUBE_LIMIT})")
        # A beaver leaves the double offered with the doubler to answer, the
        # cube doubled and owned by the beaverer (gnubg's play.c).
        beavered = state.double_offered and state.turn == state.player_on_roll
        if beavered:
            if state.match_length:
                raise InvalidMatchIdError("a beaver (the doubler to answer) in match play, which has none")
            if state.cube_owner != 1 - state.player_on_roll or state.cube < 2:
                raise InvalidMatchIdError("a beaver turns the cube to 2 or more, owned by the player not on roll")
            if not options.setdefault("beavers", True):
                raise InvalidMatchIdError("the ID holds a beaver, and beavers=False")
        elif state.double_offered and state.cube_owner == 1 - state.player_on_roll:
            raise InvalidMatchIdError(f"player {state.player_on_roll} doubles a cube the opponent owns")
        if state.match_length:
            options.setdefault("crawford", True)
            short = [state.match_length - p == 1 for p in state.score]
            if state.crawford and short[0] == short[1]:
                raise InvalidMatchIdError(
                    f"score {state.score} in a {state.match_length}-point match is no Crawford game"
                )
            options["post_crawford"] = not state.crawford and short[0] != short[1]
            if state.crawford and state.cube != 1:
                raise InvalidMatchIdError("the cube is turned in the Crawford game")
        else:
            options.setdefault("jacoby", state.jacoby)
        game = cls(match_length=state.match_length, score=state.score, **options)  # type: ignore[arg-type]
        if game.variant == "acey-deucey":
            raise InvalidPositionError("an ID has no room for acey-deucey's checkers waiting to enter")
        checkers = VARIANTS["standard" if game.variant == "tabla" else game.variant].checkers
        position = Position(board, checkers=checkers)
        if position.is_game_over():
            raise InvalidPositionError("the position is a finished game")
        if state.double_offered and (state.dice is not None or state.resignation):
            raise InvalidMatchIdError("a double is offered after the roll or with a resignation")
        if not beavered and (state.double_offered or state.resignation) == (state.turn == state.player_on_roll):
            raise InvalidMatchIdError("the player to act must answer the offer, and only then")
        game._state = _State(
            position=position,
            turn=state.turn,
            on_roll=state.player_on_roll,
            dice=state.dice,
            opening=False,
            cube=state.cube,
            cube_owner=state.cube_owner,
            doubled=state.double_offered,
            resigned=Outcome(int(state.resignation)) if state.resignation else None,
            outcome=None,
            dice_state=None,
        )
        return game

    def xgid(self) -> str:
        """The game's full XGID: board, cube, turn, dice, score, Crawford or
        Jacoby/beavers, match length and cube limit."""
        s = self._state
        if s.outcome is not None:
            raise IllegalActionError("a finished game has no XGID")
        if self.beavered:
            # XG's "B" is not read by gnubg, nor by from_xgid: no convention to write.
            raise IllegalActionError("an XGID of a pending beaver is not written: the doubler must answer first")
        if self.variant == "acey-deucey":
            raise InvalidPositionError("an XGID has no room for acey-deucey's checkers waiting to enter")
        dice_field = "00" if s.dice is None else f"{s.dice[0]}{s.dice[1]}"
        if s.doubled:
            dice_field = "D"
        flags = int(self.crawford) if self.match_length else int(self.jacoby) + 2 * int(self.beavers)
        # gnubg reads XG's bottom player as its player 1; with a double
        # offered, XG's turn is still the doubler's.
        owner = 0 if s.cube_owner is None else (1 if s.cube_owner == 1 else -1)
        max_exponent = 10 if self.max_cube is None else self.max_cube.bit_length() - 1
        return XGID(
            s.position.board,
            cube_exponent=s.cube.bit_length() - 1,
            cube_position=owner,
            turn=1 if s.on_roll == 1 else -1,
            dice_field=dice_field,
            score_bottom=self.score[1],
            score_top=self.score[0],
            crawford_jacoby=flags,
            match_length=self.match_length,
            max_cube=max_exponent,
        ).format()

    @classmethod
    def from_xgid(cls: type[_G], xgid: str, **options: object) -> _G:
        """The game an XGID describes (XG's bottom player is player 1, as in gnubg)."""
        x = XGID.parse(xgid)
        on_roll = 1 if x.turn == 1 else 0
        if x.dice_field in ("B", "R"):
            raise InvalidMatchIdError("a beaver or raccoon in an XGID is not supported; take it first")
        doubled = x.dice_field == "D"
        if x.match_length:
            crawford = bool(x.crawford_jacoby & 1)
        else:
            crawford = False
            options.setdefault("jacoby", bool(x.crawford_jacoby & 1))
            options.setdefault("beavers", bool(x.crawford_jacoby & 2))
        options.setdefault("max_cube", 2**x.max_cube)
        state = MatchId(
            cube=2**x.cube_exponent,
            cube_owner={0: None, 1: 1, -1: 0}[x.cube_position],
            player_on_roll=on_roll,
            crawford=crawford,
            double_offered=doubled,
            dice=x.dice,
            match_length=x.match_length,
            score=(x.score_top, x.score_bottom),
        )
        board = x.board
        game = cls._from_state(board, state, **options)
        if x.dice is not None:
            game._state = _State(**{**game._state.__dict__, "dice": x.dice})
        return game
