"""GNU Backgammon Position IDs and eXtreme Gammon XGIDs.

Both functions work on the 26-slot board of :mod:`bgcore` (see
:class:`bgcore.Position`): a tuple of 26 ints, slots 1-24 the points in the
on-roll player's numbering (positive: that player's checkers, negative: the
opponent's), slot 25 the on-roll player's bar and slot 0 the opponent's bar
(negative).

>>> board = decode_position_id("4HPwATDgc/ABMA")
>>> board[6], board[19], board[24], board[1]
(5, -5, 2, -2)
>>> encode_position_id(board)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InvalidPositionError

__all__ = [
    "encode_position_id",
    "decode_position_id",
    "XGID",
    "board_from_gnubg",
    "board_to_gnubg",
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


@dataclass(frozen=True)
class XGID:
    """The fields of an eXtreme Gammon position ID.

    ``board`` is always seen from the player on roll (whatever ``turn`` says);
    the other fields are kept as written, in XG's bottom/top terms.

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
        try:
            nums = [int(f) for f in fields[1:4]] + [int(f) for f in fields[5:10]]
        except ValueError:
            raise InvalidPositionError(f"an XGID's fields 2-4 and 6-10 are integers: {text!r}") from None
        cube, cube_pos, turn, s_bottom, s_top, cj, length, max_cube = nums
        dice = fields[4]
        if not 0 <= cube <= 15:
            raise InvalidPositionError(f"XGID cube exponent {cube} is outside 0-15")
        if cube_pos not in (-1, 0, 1):
            raise InvalidPositionError(f"XGID cube position {cube_pos} is not -1, 0 or 1")
        if turn not in (-1, 1):
            raise InvalidPositionError(f"XGID turn {turn} is not 1 or -1")
        if not (dice in ("00", "D", "B", "R") or re.fullmatch(r"[1-6]{2}", dice)):
            raise InvalidPositionError(f"XGID dice {dice!r} are not 00, D, B, R or two digits 1-6")
        if min(s_bottom, s_top, cj, length, max_cube) < 0:
            raise InvalidPositionError(f"XGID scores, flags and lengths cannot be negative: {text!r}")
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
