"""GNU Backgammon Position IDs, Match IDs and gnubg IDs, and eXtreme Gammon XGIDs.

The Position ID functions work on the 26-slot board of :mod:`bgcore` (see
:class:`bgcore.Position`): a tuple of 26 ints, slots 1-24 the points in the
on-roll player's numbering (positive: that player's checkers, negative: the
opponent's), slot 25 the on-roll player's bar and slot 0 the opponent's bar
(negative).

>>> board = decode_position_id("4HPwATDgc/ABMA")
>>> board[6], board[19], board[24], board[1]
(5, -5, 2, -2)
>>> encode_position_id(board)
'4HPwATDgc/ABMA'

:class:`MatchId` reads and writes gnubg's Match ID, the cube, score and turn
that go with a Position ID; :func:`gnubg_id` joins the two as gnubg shows them.

>>> m = MatchId.decode("cAkAAAAAAAAA")
>>> m.player_on_roll, m.cube, m.cube_owner, m.match_length
(1, 1, None, 0)
>>> gnubg_id("4HPwATDgc/ABMA", m)
'4HPwATDgc/ABMA:cAkAAAAAAAAA'
"""

from __future__ import annotations

import base64
import binascii
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from .errors import InvalidMatchIdError, InvalidPositionError

__all__ = [
    "encode_position_id",
    "decode_position_id",
    "XGID",
    "board_from_gnubg",
    "board_to_gnubg",
    "MatchId",
    "GameState",
    "Resignation",
    "encode_match_id",
    "decode_match_id",
    "gnubg_id",
    "parse_gnubg_id",
    "MAX_MATCH_LENGTH",
    "MAX_CUBE",
    "CUBE_LIMIT",
]

Board = tuple[int, ...]  # 26 ints, see the module docstring

_POSITION_ID_RE = re.compile(r"[A-Za-z0-9+/]{14}")


def board_to_gnubg(board: Sequence[int]) -> tuple[list[int], list[int]]:
    """Split a board into gnubg's ``anBoard``: (opponent's 25 counts, on-roll player's 25).

    Each list is in its owner's numbering, index 0 = point 1, index 24 = bar.
    """
    mine = [0] * 25
    theirs = [0] * 25
    for p in range(1, 25):
        c = board[p]
        if c > 0:
            mine[p - 1] = c
        elif c < 0:
            theirs[24 - p] = -c
    mine[24] = board[25]
    theirs[24] = -board[0]
    return theirs, mine


def board_from_gnubg(theirs: Sequence[int], mine: Sequence[int]) -> tuple[int, ...]:
    """Join gnubg's two 25-count arrays into a board; raises if a point is held by both."""
    board = [0] * 26
    for p in range(1, 25):
        m, t = mine[p - 1], theirs[24 - p]
        if m and t:
            raise InvalidPositionError(f"point {p} holds checkers of both players ({m} and {t})")
        board[p] = m - t
    board[25] = mine[24]
    board[0] = -theirs[24]
    return tuple(board)


def encode_position_id(board: Sequence[int]) -> str:
    """The 14-character GNU Backgammon Position ID of ``board``.

    gnubg writes the opponent's checkers first and the player on roll's second,
    each point (then the bar) as that many 1-bits and a 0-bit, least
    significant bit first, in 10 bytes of base64 without padding.
    """
    bits = 0
    nbits = 0
    for side in board_to_gnubg(board):
        for count in side:
            bits |= ((1 << count) - 1) << nbits
            nbits += count + 1
    if nbits > 80:
        raise InvalidPositionError("a Position ID holds at most 15 checkers a side")
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


def decode_position_id(position_id: str) -> tuple[int, ...]:
    """The board of a GNU Backgammon Position ID (strict: 14 base64 characters)."""
    if not isinstance(position_id, str):
        raise TypeError(f"a Position ID is a str, not {type(position_id).__name__}")
    text = position_id.strip()
    if not _POSITION_ID_RE.fullmatch(text):
        raise InvalidPositionError(f"a Position ID is 14 characters of A-Z a-z 0-9 + /: {position_id!r}")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex admits only valid text
        raise InvalidPositionError(f"bad base64 in Position ID {position_id!r}") from exc
    bits = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[], []]
    pos = 0
    for side in sides:
        for _ in range(25):
            count = 0
            while pos < 80 and bits >> pos & 1:
                count += 1
                pos += 1
            if pos >= 80:
                raise InvalidPositionError(f"Position ID {position_id!r} has too many checkers (it ends early)")
            pos += 1  # the 0-bit closing this point
            side.append(count)
        if sum(side) > 15:
            raise InvalidPositionError(f"Position ID {position_id!r} has {sum(side)} checkers on one side (at most 15)")
    if bits >> pos:
        raise InvalidPositionError(f"Position ID {position_id!r} has stray bits after the board")
    return board_from_gnubg(sides[0], sides[1])


_XGID_POS_RE = re.compile(r"[-A-Oa-o]{26}")
# A number field of an XGID: a few ASCII digits, so that no field can make a huge integer.
_XGID_NUMBER_RE = re.compile(r"-?[0-9]{1,5}")

CUBE_LIMIT = 1 << 12
"""The largest cube a game is played with: gnubg's ``MAX_CUBE`` (4096). gnubg
doubles no further, and its XGID reader refuses a cube exponent above 12."""

_CUBE_EXPONENT_LIMIT = CUBE_LIMIT.bit_length() - 1
_MAX_XGID_LENGTH = 32767  # the longest match a Game plays
_MAX_SCORE = (1 << 15) - 1  # a 15-bit field: a money session's running total, or a finished match's score


@dataclass(frozen=True)
class XGID:
    """The fields of an eXtreme Gammon position ID.

    ``board`` is always seen from the player on roll (whatever ``turn`` says);
    the other fields are kept as written, in XG's bottom/top terms.
    ``cube_exponent`` and ``max_cube`` are powers of two, 0 to 12 (the cube
    goes up to :data:`CUBE_LIMIT`, 4096; gnubg reads no larger one); the other
    numbers have at most 5 digits, so that a hostile XGID builds no huge
    integer.

    >>> x = XGID.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    >>> x.dice, x.board[6], x.board[24]
    ((5, 2), 5, 2)
    >>> x.format()
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
    """

    board: tuple[int, ...]
    cube_exponent: int = 0
    cube_position: int = 0  # 1: bottom player owns it, -1: top player, 0: centred
    turn: int = 1  # 1: the bottom player (upper-case) is on roll, -1: the top player
    dice_field: str = "00"  # "00" to roll, two digits once rolled, or D/B/R
    score_bottom: int = 0
    score_top: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 10

    @property
    def dice(self) -> tuple[int, int] | None:
        """The rolled dice, or None when the player has not rolled (or a cube action)."""
        if len(self.dice_field) == 2 and self.dice_field.isdigit() and self.dice_field != "00":
            return int(self.dice_field[0]), int(self.dice_field[1])
        return None

    @classmethod
    def parse(cls, text: str) -> XGID:
        """Read a full XGID; the ``XGID=`` prefix is optional."""
        if not isinstance(text, str):
            raise TypeError(f"an XGID is a str, not {type(text).__name__}")
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        fields = body.split(":")
        if len(fields) != 10:
            raise InvalidPositionError(f"an XGID has 10 fields separated by ':', not {len(fields)}: {text!r}")
        pos = fields[0]
        if not _XGID_POS_RE.fullmatch(pos):
            raise InvalidPositionError(f"an XGID's first field is 26 characters of '-', A-O and a-o: {pos!r}")
        numbers = fields[1:4] + fields[5:10]
        if not all(_XGID_NUMBER_RE.fullmatch(f) for f in numbers):
            raise InvalidPositionError(f"an XGID's fields 2-4 and 6-10 are integers of at most 5 digits: {text!r}")
        cube, cube_pos, turn, s_bottom, s_top, cj, length, max_cube = (int(f) for f in numbers)
        dice = fields[4]
        # Exponents are bounded before anything raises 2 to them.
        if not 0 <= cube <= _CUBE_EXPONENT_LIMIT:
            raise InvalidPositionError(
                f"XGID cube exponent {cube} is outside 0-{_CUBE_EXPONENT_LIMIT} (the cube is at most {CUBE_LIMIT})"
            )
        if not 0 <= max_cube <= _CUBE_EXPONENT_LIMIT:
            raise InvalidPositionError(
                f"XGID cube limit exponent {max_cube} is outside 0-{_CUBE_EXPONENT_LIMIT}"
                f" (the cube is at most {CUBE_LIMIT})"
            )
        if cube_pos not in (-1, 0, 1):
            raise InvalidPositionError(f"XGID cube position {cube_pos} is not -1, 0 or 1")
        if turn not in (-1, 1):
            raise InvalidPositionError(f"XGID turn {turn} is not 1 or -1")
        if not (dice in ("00", "D", "B", "R") or re.fullmatch(r"[1-6]{2}", dice)):
            raise InvalidPositionError(f"XGID dice {dice!r} are not 00, D, B, R or two digits 1-6")
        if not 0 <= cj <= 3:
            raise InvalidPositionError(
                f"XGID Crawford/Jacoby flags {cj} are not 0-3 (bit 0 Crawford or Jacoby, bit 1 beavers)"
            )
        if not 0 <= length <= _MAX_XGID_LENGTH:
            raise InvalidPositionError(f"XGID match length {length} is outside 0-{_MAX_XGID_LENGTH}")
        for name, points in (("bottom", s_bottom), ("top", s_top)):
            if not 0 <= points <= _MAX_SCORE:
                raise InvalidPositionError(f"XGID {name} player's score {points} is outside 0-{_MAX_SCORE}")
        bottom = [0] * 26  # signed counts in the bottom player's numbering, + = bottom
        for i, ch in enumerate(pos):
            if ch != "-":
                n = ord(ch.upper()) - ord("A") + 1
                bottom[i] = n if ch.isupper() else -n
        if bottom[0] > 0 or bottom[25] < 0:
            raise InvalidPositionError(
                "an XGID's first character is the top player's bar (lower case) "
                "and its last the bottom player's bar (upper case)"
            )
        if sum(c for c in bottom if c > 0) > 15 or -sum(c for c in bottom if c < 0) > 15:
            raise InvalidPositionError(f"XGID {text!r} has more than 15 checkers on one side")
        board = tuple(bottom) if turn == 1 else tuple(-bottom[25 - i] for i in range(26))
        return cls(board, cube, cube_pos, turn, dice, s_bottom, s_top, cj, length, max_cube)

    def format(self) -> str:
        """Write the XGID back (``XGID=`` prefix included)."""
        b = self.board if self.turn == 1 else tuple(-self.board[25 - i] for i in range(26))
        chars = []
        for c in b:
            if c == 0:
                chars.append("-")
            elif c > 0:
                chars.append(chr(ord("A") + c - 1))
            else:
                chars.append(chr(ord("a") - c - 1))
        fields = [
            "".join(chars),
            self.cube_exponent,
            self.cube_position,
            self.turn,
            self.dice_field,
            self.score_bottom,
            self.score_top,
            self.crawford_jacoby,
            self.match_length,
            self.max_cube,
        ]
        return "XGID=" + ":".join(str(f) for f in fields)


# --- Match IDs -------------------------------------------------------------------------------------------------------

MAX_MATCH_LENGTH = 64
"""The longest match gnubg reads from a Match ID (its ``MAXSCORE``; 0 is money play)."""

MAX_CUBE = 1 << 15
"""The largest cube a Match ID holds (its log2 has 4 bits)."""


# (name, first bit, width): the 9-byte key read as one little-endian integer; bits 67-71 are unused.
_MATCH_KEY_LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),  # 0, 1, or 3 for a centred cube
    ("player_on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die_1", 15, 3),
    ("die_2", 18, 3),
    ("match_length", 21, 15),
    ("score_0", 36, 15),
    ("score_1", 51, 15),
    ("no_jacoby", 66, 1),
)

_MATCH_ID_RE = re.compile(r"[A-Za-z0-9+/]{12}")


class GameState(IntEnum):
    """gnubg's ``gamestate``, bits 8-10 of a Match ID."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2  # ended in play (the last checker borne off)
    RESIGNED = 3  # ended by an accepted resignation
    DROPPED = 4  # ended by a dropped double


class Resignation(IntEnum):
    """The resignation on offer (bits 13-14): what the resigning player gives up."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


_FINISHED = (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)


def _most_points(length: int, state: GameState, cube: int, resignation: Resignation) -> int:
    """The highest score a player may have in a Match ID of a ``length``-point match.

    gnubg writes the real score once a game is over: its winner, below the
    length before it, gains the cube times 1 (a dropped double), the
    resignation's 1-3 (a resignation) or at most 3 (borne off), within the
    field's 15 bits.  While a game is on, every score is below the length.
    """
    if state not in _FINISHED:
        return length - 1
    times = {GameState.DROPPED: 1, GameState.RESIGNED: int(resignation) or 3}.get(state, 3)
    return min(length - 1 + times * cube, _MAX_SCORE)


def _brief(value: object) -> str:
    """``repr(value)`` for an error message, with an integer too long to print
    (Python prints at most 4300 digits, and slowly) given by its size."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_brief(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    return repr(value)


def _index(name: str, value: object) -> int:
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} is an int, not {type(value).__name__}") from None


def _in_range(name: str, value: object, low: int, high: int) -> int:
    n = _index(name, value)
    if not low <= n <= high:
        raise InvalidMatchIdError(f"{name} {_brief(n)} is outside {low}-{high}")
    return n


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    return bool(_in_range(name, value, 0, 1))


def _pair(name: str, value: object) -> tuple[int, int]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise TypeError(f"{name} is a pair of ints, not {_brief(value)}")
    return _index(name, value[0]), _index(name, value[1])


@dataclass(frozen=True, init=False)
class MatchId:
    """The fields of a GNU Backgammon Match ID: cube, score, turn and dice.

    Players are gnubg's 0 and 1 (0 is the bottom player, usually the human);
    the Position ID that goes with a Match ID holds the board as seen by
    ``player_on_roll``.

    - ``cube``: the cube value, a power of two from 1 to 2**15 (the ID holds
      its log2); ``cube_owner``: None when centred, else 0 or 1.
    - ``player_on_roll``: the player who rolls or has rolled (gnubg's
      ``fMove``, "dice owner"); ``turn``: the player who must act now
      (``fTurn``). They differ while a double or a resignation awaits an
      answer: the answer is ``turn``'s to give. ``turn`` defaults to
      ``player_on_roll``, or to the opponent when ``double_offered`` or a
      ``resignation`` is set.
    - ``crawford``: this game is the Crawford game (never in money play).
    - ``game_state``: a :class:`GameState`; ``resignation``: the
      :class:`Resignation` on offer.
    - ``dice``: None before the roll, else the two dice. The ID does not keep
      the order they were rolled in: gnubg writes the higher die first, and
      ``MatchId`` keeps them that way (``(1, 3)`` is stored as ``(3, 1)``).
    - ``match_length``: 0 for money play, else 1 to :data:`MAX_MATCH_LENGTH`;
      ``score``: the points of players 0 and 1. In a match a score stays below
      the length while a game is on; once it is over (``OVER``, ``RESIGNED``,
      ``DROPPED``) gnubg writes its winner's real score, which may pass the
      length by what the game was worth: at most ``length - 1 + 3 * cube``
      (``+ cube`` for a drop, ``+ resignation * cube`` for a resignation).
      In money play the scores are the session's totals, up to 2**15 - 1.
    - ``jacoby``: the Jacoby rule is in effect (the ID stores its negation in
      bit 66). gnubg writes True for a money game under its default settings
      and False in a match, which is the default here.

    The ID is 9 bytes of bit fields, bit 0 the lowest bit of the first byte
    (one little-endian integer), in standard base64 (12 characters, no
    padding); bits 67-71 are unused and written 0::

        bits  0-3   log2 of the cube         bits 15-17  die 1 (the higher)
        bits  4-5   cube owner (3: centred)  bits 18-20  die 2 (0, 0: not rolled)
        bit   6     player on roll           bits 21-35  match length
        bit   7     Crawford game            bits 36-50  score of player 0
        bits  8-10  game state               bits 51-65  score of player 1
        bit  11     turn                     bit  66     1 if no Jacoby rule
        bit  12     double offered
        bits 13-14  resignation offered (the resigning player is the one not on turn)

    >>> m = MatchId.decode("QYkqASAAIAAA")  # gnubg's manual: 2-4 in a 9-point match
    >>> m
    MatchId(cube=2, cube_owner=0, player_on_roll=1, dice=(5, 2), match_length=9, score=(2, 4), jacoby=True)
    >>> m.turn, m.game_state
    (1, <GameState.PLAYING: 1>)
    >>> m.encode()
    'QYkqASAAIAAA'
    >>> offer = MatchId(cube=2, player_on_roll=1, double_offered=True, match_length=7, score=(3, 4))
    >>> offer.turn, offer.encode()
    (0, 'cRHgADAAIAAE')
    """

    cube: int
    cube_owner: int | None
    player_on_roll: int
    crawford: bool
    game_state: GameState
    turn: int
    double_offered: bool
    resignation: Resignation
    dice: tuple[int, int] | None
    match_length: int
    score: tuple[int, int]
    jacoby: bool

    def __init__(
        self,
        *,
        cube: int = 1,
        cube_owner: int | None = None,
        player_on_roll: int = 0,
        crawford: bool = False,
        game_state: GameState | int = GameState.PLAYING,
        turn: int | None = None,
        double_offered: bool = False,
        resignation: Resignation | int = Resignation.NONE,
        dice: Sequence[int] | None = None,
        match_length: int = 0,
        score: Sequence[int] = (0, 0),
        jacoby: bool | None = None,
    ) -> None:
        cube = _index("cube", cube)
        if not 1 <= cube <= MAX_CUBE or cube & (cube - 1):
            raise InvalidMatchIdError(f"the cube is a power of two from 1 to {MAX_CUBE}, not {_brief(cube)}")
        owner = None if cube_owner is None else _in_range("cube_owner", cube_owner, 0, 1)
        on_roll = _in_range("player_on_roll", player_on_roll, 0, 1)
        crawford = _flag("crawford", crawford)
        state_number = _index("game_state", game_state)
        if not 0 <= state_number <= 4:
            raise InvalidMatchIdError(f"game_state {state_number} is not a GameState (0-4)")
        state = GameState(state_number)
        double_offered = _flag("double_offered", double_offered)
        resign_number = _index("resignation", resignation)
        if not 0 <= resign_number <= 3:
            raise InvalidMatchIdError(f"resignation {resign_number} is not a Resignation (0-3)")
        resign = Resignation(resign_number)
        if turn is None:
            to_act = 1 - on_roll if double_offered or resign else on_roll
        else:
            to_act = _in_range("turn", turn, 0, 1)
        rolled: tuple[int, int] | None = None
        if dice is not None:
            d1, d2 = _pair("dice", dice)
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise InvalidMatchIdError(f"dice are None or two numbers 1-6, not {(d1, d2)}")
            rolled = (max(d1, d2), min(d1, d2))
        length = _in_range("match_length", match_length, 0, MAX_MATCH_LENGTH)
        scores = _pair("score", score)
        if length == 0:
            for n in scores:
                _in_range("a money score", n, 0, _MAX_SCORE)
            if crawford:
                raise InvalidMatchIdError("money play has no Crawford game")
        else:
            top = _most_points(length, state, cube, resign)
            for player, n in enumerate(scores):
                if not 0 <= n <= top:
                    why = "" if state in _FINISHED or n < length else ": only the winner of a finished game reaches it"
                    raise InvalidMatchIdError(f"player {player}'s score {_brief(n)} is outside 0-{top}{why}")
            if min(scores) >= length:
                raise InvalidMatchIdError(
                    f"score {scores} in a {length}-point match: only the winner of a finished game reaches the length"
                )
        set_ = object.__setattr__
        set_(self, "cube", cube)
        set_(self, "cube_owner", owner)
        set_(self, "player_on_roll", on_roll)
        set_(self, "crawford", crawford)
        set_(self, "game_state", state)
        set_(self, "turn", to_act)
        set_(self, "double_offered", double_offered)
        set_(self, "resignation", resign)
        set_(self, "dice", rolled)
        set_(self, "match_length", length)
        set_(self, "score", scores)
        set_(self, "jacoby", length == 0 if jacoby is None else _flag("jacoby", jacoby))

    def __repr__(self) -> str:
        """The constructor call, with the fields that differ from their defaults."""
        default_turn = 1 - self.player_on_roll if self.double_offered or self.resignation else self.player_on_roll
        defaults: dict[str, object] = {
            "cube": 1,
            "cube_owner": None,
            "player_on_roll": 0,
            "crawford": False,
            "game_state": GameState.PLAYING,
            "turn": default_turn,
            "double_offered": False,
            "resignation": Resignation.NONE,
            "dice": None,
            "match_length": 0,
            "score": (0, 0),
            "jacoby": self.match_length == 0,
        }
        args = []
        for name, default in defaults.items():
            value = getattr(self, name)
            if value != default:
                shown = f"{type(value).__name__}.{value.name}" if isinstance(value, IntEnum) else repr(value)
                args.append(f"{name}={shown}")
        return f"MatchId({', '.join(args)})"

    def encode(self) -> str:
        """The 12-character Match ID, as gnubg writes it."""
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": 3 if self.cube_owner is None else self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": int(self.resignation),
            "die_1": self.dice[0] if self.dice else 0,
            "die_2": self.dice[1] if self.dice else 0,
            "match_length": self.match_length,
            "score_0": self.score[0],
            "score_1": self.score[1],
            "no_jacoby": int(not self.jacoby),
        }
        key = 0
        for name, first, _width in _MATCH_KEY_LAYOUT:
            key |= values[name] << first
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, match_id: str) -> MatchId:
        """Read a Match ID: 12 base64 characters (surrounding white space is ignored).

        Raises :class:`~bgcore.errors.InvalidMatchIdError` for what gnubg
        rejects (a die of 7, a match longer than 64 points, a score above the
        length, a Crawford game in money play) and for what it never writes:
        cube owner bits 2, game states 5-7, one die 0 and the other not, a
        score at the length while the game is still on. Bits 67-71 are
        ignored, as gnubg does; dice stored lower die first (older gnubg
        wrote them as rolled) are read, and written back higher first.

        >>> MatchId.decode("cAkAAAAAAAAA")
        MatchId(player_on_roll=1)
        >>> MatchId.decode("cAkAAAAAAAA")
        Traceback (most recent call last):
        ...
        bgcore.errors.InvalidMatchIdError: a Match ID is 12 characters of A-Z a-z 0-9 + /, not 'cAkAAAAAAAA'
        """
        if not isinstance(match_id, str):
            raise TypeError(f"a Match ID is a str, not {type(match_id).__name__}")
        text = match_id.strip()
        if not _MATCH_ID_RE.fullmatch(text):
            raise InvalidMatchIdError(f"a Match ID is 12 characters of A-Z a-z 0-9 + /, not {match_id!r}")
        try:
            raw = base64.b64decode(text, validate=True)
        except binascii.Error as exc:  # pragma: no cover - the regex admits only valid text
            raise InvalidMatchIdError(f"bad base64 in Match ID {match_id!r}") from exc
        key = int.from_bytes(raw, "little")
        f = {name: key >> first & ((1 << width) - 1) for name, first, width in _MATCH_KEY_LAYOUT}
        problem = None
        if f["cube_owner"] == 2:
            problem = "cube owner bits 2 (gnubg writes 0, 1, or 3 for a centred cube)"
        elif f["game_state"] > 4:
            problem = f"game state {f['game_state']} (gnubg's are 0-4)"
        elif f["die_1"] > 6 or f["die_2"] > 6 or (f["die_1"] == 0) != (f["die_2"] == 0):
            problem = f"dice {f['die_1']} and {f['die_2']} (both 0 before the roll, else 1-6)"
        elif f["match_length"] > MAX_MATCH_LENGTH:
            problem = f"match length {f['match_length']} (gnubg's matches are at most {MAX_MATCH_LENGTH} points)"
        if problem:
            raise InvalidMatchIdError(f"Match ID {text!r} has {problem}")
        try:
            return cls(
                cube=1 << f["cube_log2"],
                cube_owner=None if f["cube_owner"] == 3 else f["cube_owner"],
                player_on_roll=f["player_on_roll"],
                crawford=bool(f["crawford"]),
                game_state=f["game_state"],
                turn=f["turn"],
                double_offered=bool(f["double_offered"]),
                resignation=f["resignation"],
                dice=(f["die_1"], f["die_2"]) if f["die_1"] else None,
                match_length=f["match_length"],
                score=(f["score_0"], f["score_1"]),
                jacoby=not f["no_jacoby"],
            )
        except InvalidMatchIdError as exc:
            raise InvalidMatchIdError(f"Match ID {text!r}: {exc}") from None


def encode_match_id(match: MatchId) -> str:
    """The 12-character Match ID of ``match`` (the same as ``match.encode()``)."""
    return match.encode()


def decode_match_id(match_id: str) -> MatchId:
    """The fields of a Match ID (the same as ``MatchId.decode(match_id)``)."""
    return MatchId.decode(match_id)


def gnubg_id(position_id: str, match_id: str | MatchId) -> str:
    """gnubg's full ID, ``"PositionID:MatchID"``, after checking both parts.

    >>> gnubg_id("4HPwATDgc/ABMA", MatchId(match_length=5, dice=(6, 2)))
    '4HPwATDgc/ABMA:MAGrAAAAAAAE'
    """
    if not isinstance(position_id, str):
        raise TypeError(f"a Position ID is a str, not {type(position_id).__name__}")
    decode_position_id(position_id)
    if isinstance(match_id, MatchId):
        mid = match_id.encode()
    else:
        MatchId.decode(match_id)
        mid = match_id.strip()
    return f"{position_id.strip()}:{mid}"


def parse_gnubg_id(text: str) -> tuple[tuple[int, ...], MatchId]:
    """The board and the match of a gnubg ID ``"PositionID:MatchID"``.

    The two parts may come in either order, as gnubg accepts them; each must
    be valid (:class:`~bgcore.errors.InvalidPositionError` or
    :class:`~bgcore.errors.InvalidMatchIdError` otherwise, both
    ``ValueError``). The board is seen by the match's ``player_on_roll``.

    >>> board, match = parse_gnubg_id("4HPwATDgc/ABMA:cIkKAAAAAAAA")
    >>> board[6], match.dice, match.player_on_roll
    (5, (5, 2), 1)
    """
    if not isinstance(text, str):
        raise TypeError(f"a gnubg ID is a str, not {type(text).__name__}")
    parts = text.strip().split(":")
    if len(parts) != 2:
        raise InvalidPositionError(f"a gnubg ID is a Position ID and a Match ID joined by ':', not {text!r}")
    position_id, match_id = parts
    if len(position_id.strip()) == 12 and len(match_id.strip()) == 14:
        position_id, match_id = match_id, position_id
    return decode_position_id(position_id), MatchId.decode(match_id)
