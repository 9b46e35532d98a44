"""Jellyfish ``.mat`` match files: the plain-text match records that GNU
Backgammon, eXtreme Gammon and BGBlitz import and export.

:func:`write` (also :meth:`bgcore.Match.to_mat`) writes a match the way GNU
Backgammon's ``export match mat`` does, byte for byte from the ``N point
match`` line on; :func:`read` (also :meth:`bgcore.Match.from_mat`) reads one
back and replays every game through the rules, so that an illegal move, a
score that does not add up or a double the rules forbid raises
:class:`~bgcore.errors.MatFileError` naming the game and the move.

>>> from bgcore import Match
>>> match = Match(1, dice=3)
>>> game = match.game
>>> game.roll((5, 2)); game.play("13/11 13/8")
(5, 2)
>>> game.roll((4, 1)); game.play("24/23 13/9")
(4, 1)
>>> game.resign("single"); game.accept()
>>> text = match.to_mat(("Alice", "Bob"))
>>> print(text)
<BLANKLINE>
 1 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1) 52: 13/11 13/8              41: 24/23 13/9
                                  Wins 1 point
<BLANKLINE>
>>> again = Match.from_mat(text)
>>> again.score, again.winner, [str(r.move) for r in again.game.history if r.move is not None]
((0, 1), 1, ['13/11 13/8', '24/23 13/9'])

The file's format, as GNU Backgammon writes it:

- optional comment lines first (``; [Site "..."]``, ``; [Event "..."]``,
  ``; [Round "..."]``, ``; [EventDate "YYYY.MM.DD"]``, ``; [Variation "..."]``,
  ``; [Transcriber "..."]``, then free comments), a blank line and
  `` N point match`` (``0`` for a money session);
- for each game `` Game N``, the score before it (`` Name : score`` for each
  player, the first padded to 31 characters), then numbered lines of two
  columns, player 0 left and player 1 right: a roll and its move (``52: 13/11
  13/8``, each single-die step on its own, highest point first, 25 for the
  bar, 0 for off, ``*`` on a hit), `` Doubles => 2``, `` Takes``, `` Drops``,
  `` Beavers => 4``; the left column is 27 characters wide after ``NNN) ``;
- ``Wins N point(s)`` in the winner's column once a game is over: N is the
  cube times 1, 2 or 3 for a game borne off or resigned (before the Jacoby
  rule), the cube before the double for a drop.  For a drop in the left
  column it stands on the drop's own line (gnubg reads a ``Wins`` line after
  a lone ``Drops`` there as a resignation), below a drop in the right column;
  a resignation is nothing but that line.  gnubg writes no ``and the match``
  and no mark for the Crawford game (its import finds that game from the
  scores).

Reading is more tolerant: blank and comment lines anywhere, other column
widths, ``bar``/``Bar``/``off``, ``24/13`` or ``13/7(2)``, missing or
misplaced stars, XG's ``Cannot Move``, ``Wins N points and the match``, a
game without its ``Wins`` line (the next score tells how it ended), the
``; [Crawford "Off"]``, ``; [Jacoby "On"]``, ``; [Beaver "On"]`` and ``;
[CubeLimit "N"]`` tags of eXtreme Gammon.  Without those tags a money
session is read with beavers when the file has one, and with the Jacoby
rule when the scores need it.

What the format cannot say: a rejected resignation (it is left out), a
resignation by a player who is not to act (bgcore's :class:`Game` has none),
raccoons, illegal plays.  gnubg's import plays a roll's only play even when
the file says the player resigned instead, so a resignation after rolling a
lost turn or a forced move is written with that play (and read back as the
resignation with the dice rolled).  A file that stops right after a roll
leaves that roll to be played, unless it has no legal play: then the lost
turn is played, as gnubg does.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import MatFileError
from .game import Action, DiceSource, End, Game, Record
from .match import Match
from .move import Move
from .notation import parse_notation
from .position import Outcome, Position

__all__ = ["MatFile", "MatWarning", "read", "write"]

#: bgcore's variants as gnubg's ``; [Variation "..."]`` tag names them (standard has none).
VARIATIONS = {"nackgammon": "NackGammon", "hypergammon": "HyperGammon (3)"}


# --- writing -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Rec:
    """One of gnubg's move records, as its exporter sees them."""

    kind: str  # move, dice (rolled, not moved), double, beaver, take, drop, resign
    player: int
    dice: tuple[int, int] = (0, 0)
    move: Move | None = None
    points: int = 0


def _records(game: Game) -> list[_Rec]:
    """The game's history as gnubg records it: a roll and its move are one
    record, an accepted resignation is one, a rejected one leaves no trace.

    A player who rolls and resigns without moving is recorded with the roll
    only, unless the roll has a single play (a lost turn or a forced move):
    gnubg's import plays that play, so it is written as played.  (When that
    play would bear off the last checker, gnubg reads the game as won by the
    player who resigned: no way of writing it gets past gnubg.)
    """
    result = game.result
    history: list[Record] = []  # without the rejected resignations
    for rec in game.history:
        if rec.action is Action.REJECT:
            history.pop()
        else:
            history.append(rec)
    # the checkers alone, followed through the rolls and moves (a move the
    # rules forbid, which Game.force played, included)
    board = Game("standard" if game.variant == "tabla" else game.variant, cube=False)
    out: list[_Rec] = []
    k = 0
    while k < len(history):
        rec = history[k]
        following = history[k + 1] if k + 1 < len(history) else None
        if rec.action is Action.ROLL:
            assert rec.dice is not None
            dice = rec.dice
            board.roll(dice)
            if k == 0:  # the opening: the two players' dice, the higher one first
                dice = (max(dice), min(dice))
            move = None
            if following is not None and following.action is Action.MOVE:
                move = following.move
                k += 1
            elif following is not None and following.action is Action.RESIGN:
                plays = board.legal_moves()
                if len(plays) == 1 and board.position.play(plays[0]).result() is None:
                    move = plays[0]
            if move is None:
                out.append(_Rec("dice", rec.player, dice))
            else:
                out.append(_Rec("move", rec.player, dice, move))
                board.force(move)
        elif rec.action is Action.RESIGN:
            if result is not None:  # accepted, or forced (a pending one is not recorded)
                points = int(result.kind) * result.cube if following is not None else result.points
                out.append(_Rec("resign", rec.player, points=points))
        elif rec.action is Action.DROP:
            assert result is not None
            out.append(_Rec("drop", rec.player, points=result.points))
        elif rec.action in (Action.DOUBLE, Action.TAKE, Action.BEAVER):
            out.append(_Rec(rec.action.value, rec.player))
        k += 1
    return out


def _format_move(move: Move) -> str:
    """A move as gnubg's ``FormatMovePlain`` writes it: every single-die step,
    highest source first, 25 for the bar and 0 for off, a star where a step
    first lands on a blot, a space after each step but a fourth."""
    landed: set[int] = set()
    text = ""
    for k, (src, dst) in enumerate(sorted(move.steps, reverse=True)):
        star = "*" if dst and dst in move.hit_points and dst not in landed else ""
        landed.add(dst)
        text += f"{src}/{dst}{star}" + (" " if k < 3 else "")
    return text


def _wins(points: int) -> str:
    return f"Wins {points} point{'s' if points > 1 else ''}"


def _write_game(out: list[str], number: int, game: Game, names: tuple[str, str]) -> None:
    """Append one game as gnubg's ``ExportGameJF`` writes it."""
    out.append(f" Game {number}\n")
    first = f"{names[0]} : {game.score[0]}"
    out.append(f" {first:<31}{names[1]} : {game.score[1]}\n")
    result = game.result
    records = _records(game)
    i = 0  # gnubg's half-line counter: even = left column (player 0), odd = right
    cube = 1
    rolled = False
    for n, rec in enumerate(records):
        if rec.kind == "move":
            rolled = False
            assert rec.move is not None
            text = f"{rec.dice[0]}{rec.dice[1]}: " + _format_move(rec.move)
        elif rec.kind == "dice":
            rolled = True
            text = f"{rec.dice[0]}{rec.dice[1]}: "
        elif rec.kind == "double":
            cube *= 2
            text = f" Doubles => {cube}"
        elif rec.kind == "beaver":
            cube *= 2
            text = f" Beavers => {cube}"
        elif rec.kind == "take":
            text = " Takes"
        elif rec.kind == "drop":
            text = " Drops" + ("\n      " if i & 1 else " " * 23) + _wins(rec.points)
        else:  # resign: "Wins" in the winner's column, on a line of its own if that column is taken
            line_open = bool(i & 1) or rolled  # (a roll alone leaves its line open)
            if rec.player == 1:
                text = ("\n" if line_open else "") + "      " + _wins(rec.points) + "\n"
            elif i & 1:  # the right column of the open line: after a move, or a roll alone
                text = (" " * 24 if rolled else " ") + _wins(rec.points) + "\n"
            else:  # player 1's roll alone may hold the right column (a resignation out of turn)
                text = ("\n" if rolled else "") + " " * 34 + _wins(rec.points) + "\n"
        if i == 0 and rec.kind in ("move", "dice") and rec.player == 1:
            # player 1 won the opening roll: the left column stays empty.
            # (gnubg does this for a move only, and writes an opening roll not
            # yet moved in the left column whoever rolled it.)
            out.append("  1)" + " " * 29)
            i = 1
        if i & 1 or rec.kind == "resign":
            out.append(text)
            if rec.kind != "dice":
                out.append("\n")
        elif rec.kind != "dice":
            out.append(f"{(i >> 1) + 1:3d}) {text:<27} ")
        else:
            out.append(f"{(i >> 1) + 1:3d}) {text:<3}")
        if rec.kind == "drop":
            out.append("\n" if i & 1 else "\n\n")
        if rec.kind == "move" and n == len(records) - 1 and result is not None and result.end is End.BORNE_OFF:
            points = int(result.kind) * result.cube  # as gnubg: before the Jacoby rule
            out.append((" " * 34 if i & 1 else "\n      ") + _wins(points) + "\n\n")
        i += 1


def _check_text(value: str, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} is a str, not {type(value).__name__}")
    if "\n" in value or "\r" in value or '"]' in value:
        raise ValueError(f"{what} {value!r} has a line break or '\"]' in it")
    return value


def write(
    match: Match,
    names: Sequence[str] = ("Player 0", "Player 1"),
    *,
    site: str | None = None,
    event: str | None = None,
    round: str | None = None,
    date: datetime.date | None = None,
    transcriber: str | None = None,
    comment: str | None = None,
) -> str:
    """The match as a ``.mat`` file: every game so far, the current one as
    far as it has gone (see :meth:`bgcore.Match.to_mat`).

    ``names`` are players 0 and 1 (no ``:`` nor line break in them); the
    keywords give gnubg's header tags and a free comment.  Besides gnubg's
    tags, a money session says ``; [Jacoby "On"|"Off"]`` and ``; [Beaver
    "On"|"Off"]``, a match played without the Crawford rule ``; [Crawford
    "Off"]``, and a cube limit ``; [CubeLimit "N"]`` (eXtreme Gammon's tags;
    gnubg passes over them).  A rejected resignation leaves no trace: the
    format has no place for it.

    >>> from bgcore import Match
    >>> match = Match(0, dice=1)
    >>> game = match.game
    >>> game.roll((3, 1)); game.play("8/5 6/5")
    (3, 1)
    >>> game.double(); game.drop()
    >>> print(write(match, ("Ann", "Ben")))
    ; [Jacoby "Off"]
    ; [Beaver "Off"]
    <BLANKLINE>
     0 point match
    <BLANKLINE>
     Game 1
     Ann : 0                        Ben : 0
      1) 31: 8/5 6/5                  Doubles => 2
      2)  Drops                       Wins 1 point
    <BLANKLINE>
    <BLANKLINE>
    """
    if isinstance(names, str) or len(names) != 2:
        raise ValueError(f"names are two names, players 0 and 1, not {names!r}")
    pair = (str(names[0]), str(names[1]))
    for name in pair:
        _check_text(name, "a name")
        if ":" in name or not name.strip() or name != name.strip():
            raise ValueError(f"a name cannot be empty, have a ':' or spaces around it: {name!r}")
    variant = match.variant
    if variant not in ("standard", *VARIATIONS):
        raise ValueError(f"a .mat file has no place for the {variant} variant")
    out: list[str] = []
    for tag, value in (("Site", site), ("Event", event), ("Round", round)):
        if value is not None:
            out.append(f'; [{tag} "{_check_text(value, tag)}"]\n')
    if date is not None:
        if not isinstance(date, datetime.date) or date.year <= 1900:
            raise ValueError(f"date is a datetime.date after 1900, not {date!r}")
        out.append(f'; [EventDate "{date.year:04d}.{date.month:02d}.{date.day:02d}"]\n')
    if variant in VARIATIONS:
        out.append(f'; [Variation "{VARIATIONS[variant]}"]\n')
    if match.length and not match.crawford_rule:
        out.append('; [Crawford "Off"]\n')
    if not match.length:
        out.append(f'; [Jacoby "{"On" if match.jacoby else "Off"}"]\n')
        out.append(f'; [Beaver "{"On" if match.beavers else "Off"}"]\n')
    if match.max_cube is not None:
        out.append(f'; [CubeLimit "{match.max_cube}"]\n')
    if transcriber is not None:
        out.append(f'; [Transcriber "{_check_text(transcriber, "Transcriber")}"]\n')
    if comment:
        out.append("\n" + "".join(f"; {line}\n" for line in comment.splitlines()))
    out.append("\n")
    out.append(f" {match.length} point match\n\n")
    for number, game in enumerate(match.games, 1):
        _write_game(out, number, game, pair)
    return "".join(out)


# --- reading -----------------------------------------------------------------------


@dataclass(frozen=True)
class MatWarning:
    """Something unusual that :func:`read` kept rather than refused (see
    :mod:`bgcore.matfile`): what it was, the game number, the move number
    and the line (1-based; None where there is none).  ``str()`` names them
    as :class:`~bgcore.errors.MatFileError` does."""

    message: str
    game: int | None = None
    move: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        return str(MatFileError(self.message, game=self.game, move=self.move, line=self.line))


@dataclass
class MatFile:
    """What :func:`read` found in a ``.mat`` file: the replayed match, the
    players' names, the header's ``; [Tag "value"]`` tags, its other
    comment lines, and the warnings: what the file holds that the rules
    forbid, kept as GNU Backgammon's import keeps it (empty when strict)."""

    match: Match
    names: tuple[str, str]
    tags: dict[str, str] = field(default_factory=dict)
    comment: str = ""
    warnings: tuple[MatWarning, ...] = ()


_HEADER_RE = re.compile(r"\s*(\d+)\s+[Pp]oint\s+[Mm]atch\b")
_TAG_RE = re.compile(r'\[\s*([A-Za-z][\w ]*?)\s+"(.*)"\s*\]')
_GAME_RE = re.compile(r"\s*Game\s+(\d+)\s*", re.IGNORECASE)
_SCORE_RE = re.compile(r"\s*(?P<n0>[^:]*?)\s*:\s*(?P<s0>\d+)\s+(?P<n1>.*?)\s*:\s*(?P<s1>\d+)\s*")
_NUMBER_RE = re.compile(r"\s*(\d+)\)")
_START_RE = re.compile(r"(?<![\w/*])(?:[1-6][1-6]:|(?i:doubles?|beavers?|raccoons?|takes?|drops?|passes|wins?)\b)")
_ROLL_ITEM = re.compile(r"([1-6])([1-6]):(.*)", re.DOTALL)
_ILLEGAL = re.compile(r"illegal\s+play\s*(?:\((.*))?", re.IGNORECASE | re.DOTALL)
_CUBE_ITEM = re.compile(r"(doubles?|beavers?)(?:\s*=>?\s*(\d+))?", re.IGNORECASE)
_TAKE_ITEM = re.compile(r"takes?", re.IGNORECASE)
_DROP_ITEM = re.compile(r"drops?|passes", re.IGNORECASE)
_WINS_ITEM = re.compile(r"wins?\s+(\d+)\s+points?(\s+and\s+the\s+match)?\s*\.?", re.IGNORECASE)
_NO_MOVE = re.compile(r"cannot\s+move|\?+", re.IGNORECASE)
_VARIANTS = {
    "backgammon": "standard",
    "standard": "standard",
    "nackgammon": "nackgammon",
    "hypergammon": "hypergammon",
    "hypergammon (3)": "hypergammon",
}
_OFF = ("off", "no", "false", "0")
_KINDS = {Outcome.SINGLE: "single game", Outcome.GAMMON: "gammon", Outcome.BACKGAMMON: "backgammon"}


def _int(digits: str) -> int:
    """A number of the file; absurdly long ones (which Python would refuse to
    convert) become 10**9, which no check accepts."""
    return int(digits) if len(digits) <= 9 else 10**9


@dataclass(frozen=True)
class _Item:
    kind: str  # roll, double, beaver, take, drop, wins
    column: int
    line: int
    move_no: int | None
    dice: tuple[int, int] = (0, 0)
    text: str = ""
    value: int | None = None
    and_match: bool = False
    illegal: str | None = None  # a roll's "Illegal play (...)": Snowie's position after it


@dataclass
class _Section:
    number: int
    line: int
    score: tuple[int, str] | None = None
    lines: list[tuple[int, str]] = field(default_factory=list)


class _Notes:
    """Where reading goes when the file breaks the rules: strict reading
    refuses (MatFileError), lenient reading notes it and goes on."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[MatWarning] = []

    def odd(
        self, why: str, then: str = "", *, game: int | None = None, move: int | None = None, line: int | None = None
    ) -> None:
        """Refuse ``why``, or note it with ``then``, what lenient reading does instead."""
        if self.strict:
            raise MatFileError(why, game=game, move=move, line=line)
        self.note(f"{why}; {then}" if then else why, game=game, move=move, line=line)

    def note(self, why: str, *, game: int | None = None, move: int | None = None, line: int | None = None) -> None:
        """Note what strict reading accepts too (lenient reading only)."""
        if not self.strict:
            self.found.append(MatWarning(why, game, move, line))


def _parse_item(piece: str, column: int, line: int, move_no: int | None, game: int, notes: _Notes) -> _Item | None:
    def odd(why: str, then: str) -> None:
        notes.odd(why, then, game=game, move=move_no, line=line)

    m = _ROLL_ITEM.fullmatch(piece)
    if m:
        text = m.group(3).strip()
        dice = (int(m.group(1)), int(m.group(2)))
        illegal = _ILLEGAL.fullmatch(text)
        if illegal or "illegal" in text.lower():
            if not illegal or illegal.group(1) is None:  # (gnubg records nothing of it)
                odd(f"an illegal play is recorded ({piece!r}) without its position", "passed over, as gnubg does")
                return None
            return _Item("roll", column, line, move_no, dice=dice, text=piece, illegal=illegal.group(1))
        if _NO_MOVE.fullmatch(text):
            text = ""
        return _Item("roll", column, line, move_no, dice=dice, text=text)
    m = _CUBE_ITEM.fullmatch(piece)
    if m:
        kind = "beaver" if m.group(1).lower().startswith("beaver") else "double"
        return _Item(kind, column, line, move_no, value=_int(m.group(2)) if m.group(2) else None)
    if _TAKE_ITEM.fullmatch(piece):
        return _Item("take", column, line, move_no)
    if _DROP_ITEM.fullmatch(piece):
        return _Item("drop", column, line, move_no)
    m = _WINS_ITEM.fullmatch(piece)
    if m:
        return _Item("wins", column, line, move_no, value=_int(m.group(1)), and_match=bool(m.group(2)))
    if piece.lower().startswith("raccoon"):
        raise MatFileError("raccoons are not supported", game=game, move=move_no, line=line)
    odd(f"cannot read {piece!r}", "passed over, as gnubg does")
    return None


def _parse_line(raw: str, line: int, last_move: int | None, game: int, notes: _Notes) -> tuple[int | None, list[_Item]]:
    """The items of one line of a game, each with its column; and the move number."""
    m = _NUMBER_RE.match(raw)
    base = m.end() if m else 0
    move_no = _int(m.group(1)) if m else last_move
    if m and not raw[base:].strip():
        return move_no, []  # a move number alone ("24)"): nothing was played
    starts = [found.start() for found in _START_RE.finditer(raw, base)]
    why = None
    if not starts or raw[base : starts[0]].strip():
        why = f"cannot read {raw.strip()!r}"
    elif len(starts) > 2:
        why = f"more than two columns in {raw.strip()!r}"
    # The left column starts right after "N) " (or near the margin on a line
    # without a number), the right one some 30 characters further.
    first_right = bool(starts) and (starts[0] - base > 10 if m else starts[0] >= 15)
    if why is None and first_right and len(starts) == 2:
        why = f"cannot tell the columns of {raw.strip()!r}"
    if why is not None:
        notes.odd(why, "the line is passed over", game=game, move=move_no, line=line)
        return move_no, []
    ends = [*starts[1:], len(raw)]
    items = []
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        item = _parse_item(raw[start:end].strip(), 1 if (k or first_right) else 0, line, move_no, game, notes)
        if item is not None:
            items.append(item)
    return move_no, items


def _options(tags: dict[str, str], length: int) -> dict[str, object]:
    """Match options from eXtreme Gammon's and gnubg's header tags."""
    options: dict[str, object] = {}
    lowered = {key.strip().lower(): value.strip() for key, value in tags.items()}
    variation = lowered.get("variation")
    if variation is not None:
        variant = _VARIANTS.get(variation.lower())
        if variant is None:
            raise MatFileError(f"the {variation!r} variation is not supported")
        options["variant"] = variant
    if length and "crawford" in lowered:
        options["crawford"] = lowered["crawford"].lower() not in _OFF
    if not length:
        for tag, option in (("jacoby", "jacoby"), ("beaver", "beavers")):
            if tag in lowered:
                options[option] = lowered[tag].lower() not in _OFF
    if "cubelimit" in lowered:
        try:
            limit = _int(lowered["cubelimit"].strip())
        except ValueError:
            raise MatFileError(f"cannot read the cube limit {lowered['cubelimit']!r}") from None
        options["max_cube"] = limit
    return options


def _atoi(text: str) -> int:
    """C's atoi, as gnubg reads Snowie's numbers: a leading integer, else 0."""
    found = re.match(r"\s*([-+]?\d{1,9})", text)
    return int(found.group(1)) if found else 0


def _snowie_position(text: str, checkers: int) -> tuple[Position, int]:
    """The board of a Snowie position (``Illegal play (...)``: 40 fields
    separated by ';', the board seen from the player of field 4), and that
    player."""
    fields = text.split(";")
    if len(fields) < 40:
        raise ValueError(f"Snowie's position has 40 fields, not {len(fields)}")
    numbers = [_atoi(f) for f in fields[:40]]
    board = [-abs(numbers[37]), *numbers[13:37], abs(numbers[12])]
    return Position(board, checkers=checkers), int(numbers[4] != 0)


def _steps_between(before: Position, after: Position) -> list[tuple[int, int]]:
    """Steps of the player on roll that take ``before`` to ``after`` (both
    seen from that player): their checkers paired highest first, a journey
    of more than 6 points cut into hops that land on no opposing checker."""
    b, a = before.board, after.board
    sources = [p for p in range(25, 0, -1) for _ in range(max(b[p], 0) - max(a[p], 0))]
    targets = [p for p in range(24, 0, -1) for _ in range(max(a[p], 0) - max(b[p], 0))]
    targets += [0] * (len(sources) - len(targets))
    steps: list[tuple[int, int]] = []
    for src, dst in zip(sources, targets, strict=True):
        while src - dst > 6:
            hop = next((h for h in range(6, 0, -1) if src - h > dst and b[src - h] >= 0), 0)
            if not hop:
                break
            steps.append((src, src - hop))
            src -= hop
        steps.append((src, dst))
    return steps


def _gnubg_moves(text: str, dice: tuple[int, int], position: Position) -> list[Move]:
    """The moves gnubg's import would try for ``text`` that is no legal play
    of ``dice`` as written: a single step of both dice split over a point
    free of opposing checkers (the rest of the text dropped), or the steps
    as written, a double's long steps cut into single dice."""
    try:
        steps = [(src, dst) for src, dst, _ in parse_notation(text)]
    except ValueError:
        return []
    if not steps:
        return []
    first, second = dice
    tries: list[list[tuple[int, int]]] = []
    if first != second:
        src, dst = steps[0]
        if src - dst == first + second:
            tries += [[(src, src - d), (src - d, dst)] for d in (first, second) if position.board[src - d] >= 0]
        tries.append(steps)
    else:
        cut: list[tuple[int, int]] = []
        for src, dst in steps:
            while src - dst > first:
                cut.append((src, src - first))
                src -= first
            cut.append((src, dst))
        tries.append(sorted(cut, key=lambda step: -step[0]))
    moves = []
    for tried in tries:
        with contextlib.suppress(ValueError):  # more than four steps
            moves.append(Move(tried, dice))
    return moves


class _Replay:
    """Plays one game's items through :class:`Game`.  Where the file breaks
    the rules, strict reading refuses it; lenient reading does what GNU
    Backgammon's import does (:meth:`Game.force` where the rules cannot),
    and notes it."""

    def __init__(self, match: Match, number: int, items: list[_Item], last: bool, notes: _Notes) -> None:
        self.match = match
        self.game = match.game
        self.number = number
        self.items = items
        self.last = last
        self.notes = notes
        self.beaver_take: int | None = None  # the doubler, whose "Takes" of a beaver is implied

    def run(self) -> None:
        for k, item in enumerate(self.items):
            following = self.items[k + 1] if k + 1 < len(self.items) else None
            try:
                self.apply(item, following)
            except MatFileError:
                raise
            except ValueError as exc:  # IllegalMoveError, IllegalActionError and the like
                raise self.error(item, str(exc)) from exc

    def error(self, item: _Item, why: str) -> MatFileError:
        return MatFileError(why, game=self.number, move=item.move_no, line=item.line)

    def odd(self, item: _Item, why: str, then: str) -> None:
        """Strict reading refuses ``why``; lenient reading notes it and what it did."""
        self.notes.odd(why, then, game=self.number, move=item.move_no, line=item.line)

    def actor(self, item: _Item, what: str) -> None:
        """The item's column must be the player who is to act."""
        if item.column != self.game.turn:
            raise self.error(item, f"{what} is in player {item.column}'s column, but player {self.game.turn} is to act")

    def ready(self, item: _Item) -> None:
        """Lenient: a roll or a double in the column of the player who has
        not rolled, the other having rolled and not moved: that turn passes
        unplayed (gnubg's import turns the board to the new player); a
        player who rolls again drops the roll not played."""
        game = self.game
        if self.notes.strict or game.dice is None:
            return
        if game.on_roll != item.column:
            game.force(Move([], game.dice))
        elif item.kind == "roll":
            self.odd(item, f"player {item.column} rolls again", "the roll not played is dropped, as gnubg does")
            game.undo()

    def apply(self, item: _Item, following: _Item | None) -> None:
        game = self.game
        beaver_take, self.beaver_take = self.beaver_take, None
        if game.is_over() and item.kind != "wins":
            self.odd(item, f"the game is over, yet the file goes on with {item.kind}", "passed over, as gnubg does")
            return
        if item.kind == "roll":
            self.roll(item, following)
        elif item.kind in ("double", "beaver"):
            beaver = item.kind == "beaver" or game.doubled
            if not beaver:
                self.ready(item)
            self.actor(item, "a beaver" if beaver else "a double")
            expected = game.cube * (4 if beaver else 2)
            if item.value is not None and item.value != expected:
                raise self.error(item, f"the cube goes to {expected}, not {item.value}")
            if beaver:
                game.beaver()
                self.beaver_take = game.on_roll
            else:
                game.double()
        elif item.kind in ("take", "drop"):
            if item.kind == "take" and beaver_take == item.column and not game.doubled:
                return  # the doubler "takes" the beaver: nothing to do
            if not game.doubled and not self.notes.strict:
                self.odd(item, f"a {item.kind} with no double to answer", "passed over, as gnubg does")
                return
            self.actor(item, f"a {item.kind}")
            game.take() if item.kind == "take" else game.drop()
        else:
            self.wins(item)

    def roll(self, item: _Item, following: _Item | None) -> None:
        game = self.game
        hi, lo = max(item.dice), min(item.dice)
        if game.opening:
            if hi == lo:
                raise self.error(item, f"the opening roll cannot be a double ({hi}{lo})")
            # the column tells who won the opening roll: the higher die is theirs
            game.roll((hi, lo) if item.column == 0 else (lo, hi))
        else:
            self.ready(item)
            self.actor(item, "a roll")
            game.roll(item.dice)
        if item.illegal is not None:
            self.illegal(item)
            return
        if item.text:
            try:
                move = self.parse(item.text)
            except ValueError as exc:
                if self.notes.strict:
                    raise
                self.as_written(item, str(exc))
                return
            game.play(move)
            return
        moves = list(game.legal_moves())
        if following is not None and following.kind == "wins" and following.column != item.column:
            return  # rolled, then resigned
        if following is None and self.last and any(moves):
            return  # the file stops after the roll
        if len(moves) == 1:
            game.play(moves[0])  # a lost turn, or the only play
        elif self.notes.strict or following is None or following.kind != "wins":
            # (a "Wins" in the roller's column: the other player resigns, noted there)
            why = f"no move is written for {hi}{lo}, which has {len(moves)} legal plays"
            self.odd(item, why, "the roll is left unplayed, as gnubg does")

    def parse(self, text: str) -> Move:
        game = self.game
        assert game.dice is not None
        try:
            return game.position.parse_move(text, game.dice)
        except ValueError:
            if "*" not in text:
                raise
            # gnubg takes no notice of the stars: a misplaced one is no error
            try:
                return game.position.parse_move(text.replace("*", ""), game.dice)
            except ValueError:
                pass
            raise

    def as_written(self, item: _Item, why: str) -> None:
        """Lenient: a move that is no legal play, played as gnubg's import
        plays it, or the roll left unplayed where gnubg leaves it."""
        for move in _gnubg_moves(item.text, item.dice, self.game.position):
            try:
                self.game.force(move)
            except ValueError:
                continue
            self.odd(item, why, f"played as {move}, as gnubg does")
            return
        self.odd(item, why, "not even playable as written: the roll is left unplayed, as gnubg does")

    def illegal(self, item: _Item) -> None:
        """Lenient: an illegal play recorded with the position after it (as
        Snowie writes it): the player's checkers go where it puts them."""
        game = self.game
        assert item.illegal is not None and game.dice is not None
        if self.notes.strict:
            raise self.error(item, f"an illegal play is recorded ({item.text!r}); bgcore replays legal moves only")
        try:
            after, seen_by = _snowie_position(item.illegal, game.position.checkers)
        except ValueError as exc:
            self.odd(
                item, f"cannot read the illegal play's position: {exc}", "the roll is left unplayed, as gnubg does"
            )
            return
        if seen_by != game.on_roll:
            after = after.flip()
        try:
            game.force(Move(_steps_between(game.position, after), game.dice))
        except ValueError:
            raise self.error(item, "the position after the illegal play is not the player's checkers moved") from None
        if game.position.flip() != after:
            game.undo()
            raise self.error(item, "the position after the illegal play is not the player's checkers moved")
        played = game.history[-1].move
        self.odd(item, "an illegal play is recorded", f"played as {played}, the position it gives, as gnubg does")

    def wins(self, item: _Item) -> None:
        game = self.game
        points = item.value
        assert points is not None
        result = game.result
        if result is None:
            self.resignation(item, points)
        elif result.winner != item.column:
            why = f"player {result.winner} won the game, but 'Wins' is in player {item.column}'s column"
            self.odd(item, why, "passed over, as gnubg does")
        elif points not in (result.points, int(result.kind) * result.cube):
            self.odd(item, f"the game is worth {result.points} point(s), not {points}", "passed over, as gnubg does")
        if item.and_match and not self.match.is_over():
            self.odd(item, "'and the match' is written, but the match goes on", "passed over")

    def resignation(self, item: _Item, points: int) -> None:
        """The loser resigned: by the rules, the player to act, in the other
        column; gnubg's import takes any player (and any points: the points
        over the cube, rounded up to single, gammon or backgammon)."""
        game = self.game
        loser = 1 - item.column
        cube = game.cube
        kind = Outcome.SINGLE if points <= cube else Outcome.GAMMON if points <= 2 * cube else Outcome.BACKGAMMON
        if game.doubled and game.turn == loser:
            # resigning instead of answering a double is dropping it
            if points == cube:
                game.drop()
                return
            why = f"a resignation of {points} points when a double is offered"
        elif game.opening:
            why = "a resignation before the opening roll"
        else:
            history = game.history
            if game.turn != loser and history and history[-1].action is Action.MOVE and history[-1].player == loser:
                # The loser resigned after rolling a lost turn or a forced move,
                # which gnubg writes as played: take the play back.
                played = game.undo().move
                assert played is not None
                if list(game.legal_moves()) != [played]:
                    game.play(played) if played in game.legal_moves() else game.force(played)
            if game.turn == loser:
                game.resign(kind)
                game.accept()
                result = game.result
                assert result is not None
                if points not in (result.points, int(kind) * result.cube):
                    why = f"no resignation at cube {cube} is worth {points} point(s)"
                    self.odd(item, why, f"scored as a resigned {_KINDS[kind]}, as gnubg does")
                return
            why = (
                f"player {loser} resigns (the 'Wins' is in player {item.column}'s column), but player "
                f"{game.turn} is to act; bgcore lets only the player to act resign"
            )
        if points != int(kind) * cube:
            why += f", and {points} point(s) at cube {cube} is no single game, gammon nor backgammon"
        self.odd(item, why, f"the game ends so, a resigned {_KINDS[kind]}, as gnubg does")
        game.force(winner=item.column, kind=kind)


def _finish_from_score(match: Match, number: int, section: _Section, score: tuple[int, int], notes: _Notes) -> None:
    """The previous game stops without a result: the score of the next one
    tells who won it and how much; a drop or the resignation of the player
    to act must give that (in lenient reading, any resignation)."""
    before = match.score
    gains = (score[0] - before[0], score[1] - before[1])
    if min(gains) != 0 or max(gains) <= 0:
        raise MatFileError(
            f"game {number - 1} ends without a result, and {score[0]}-{score[1]} does not follow "
            f"from {before[0]}-{before[1]}",
            game=number,
            line=section.line,
        )
    winner = 0 if gains[0] else 1
    item = _Item("wins", winner, section.line, None, value=gains[winner])
    notes.note(
        f"game {number - 1} ends without a 'Wins' line: its result is the score's", game=number, line=section.line
    )
    try:
        _Replay(match, number - 1, [item], last=False, notes=notes).resignation(item, gains[winner])
    except ValueError as exc:
        why = str(exc).split(": ", 1)[-1] if isinstance(exc, MatFileError) else str(exc)
        raise MatFileError(
            f"game {number - 1} ends without a result, and the score {score[0]}-{score[1]} does not tell how: {why}",
            game=number,
            line=section.line,
        ) from None


def _header(lines: list[str]) -> tuple[int, int, dict[str, str], list[str]]:
    """The match length, the index of the line after it, the tags and the comments."""
    tags: dict[str, str] = {}
    comments: list[str] = []
    for index, raw in enumerate(lines):
        stripped = raw.strip()
        if stripped[:1] in (";", "#"):
            body = stripped[1:].strip()
            m = _TAG_RE.fullmatch(body)
            if m:
                tags[m.group(1)] = m.group(2)
            else:
                comments.append(body)
            continue
        m = _HEADER_RE.match(raw)
        if m:
            length = _int(m.group(1))
            if length > 32767:
                raise MatFileError(f"a match of {length} points is longer than 32767", line=index + 1)
            return length, index + 1, tags, comments
    raise MatFileError("no ' N point match' line: not a .mat match file")


def _sections(lines: list[str], start: int) -> list[_Section]:
    sections: list[_Section] = []
    for index in range(start, len(lines)):
        raw = lines[index]
        stripped = raw.strip()
        if not stripped or stripped[0] in ";#":
            continue
        m = _GAME_RE.fullmatch(raw)
        if m:
            number = _int(m.group(1))
            if number != len(sections) + 1:
                raise MatFileError(f"'Game {number}' where game {len(sections) + 1} should come", line=index + 1)
            sections.append(_Section(number, index + 1))
        elif not sections:
            raise MatFileError(f"expected 'Game 1', found {stripped!r}", line=index + 1)
        elif sections[-1].score is None:
            sections[-1].score = (index + 1, raw)
        else:
            sections[-1].lines.append((index + 1, raw))
    return sections


_Parsed = tuple[_Section, tuple[int, int], tuple[str, str], list[_Item]]


def _replay(
    parsed: list[_Parsed], length: int, options: dict[str, object], dice: int | DiceSource | None, notes: _Notes
) -> Match:
    """The match the parsed games make, replayed through the rules."""
    start = (0, 0) if notes.strict or not parsed else parsed[0][1]
    try:
        match = Match(length, dice=dice, score=start, **options)  # type: ignore[arg-type]
    except ValueError as exc:
        raise MatFileError(f"cannot set up the match: {exc}") from None
    for k, (section, score, _, items) in enumerate(parsed):
        assert section.score is not None
        where = {"game": section.number, "line": section.score[0]}
        have = match.score
        if not k and score != (0, 0):
            notes.odd(
                f"the score line says {score[0]}-{score[1]}, but the games before make it 0-0",
                "the match starts there, as gnubg takes it (a match continued from elsewhere)",
                **where,
            )
        if k:
            if not match.game.is_over():
                _finish_from_score(match, section.number, section, score, notes)
                have = match.score
            if match.is_over():
                notes.odd(
                    f"the match was over after game {k} ({have[0]}-{have[1]})",
                    "the games after it are passed over, as gnubg does",
                    game=section.number,
                    line=section.line,
                )
                break
            if notes.strict or score == have:
                match.new_game()
            elif length and max(score) >= length:
                notes.odd(
                    f"the score line says {score[0]}-{score[1]}: the match is over",
                    "this game and those after it are passed over, as gnubg does",
                    **where,
                )
                break
            else:
                notes.odd(
                    f"the score line says {score[0]}-{score[1]}, but the games before make it {have[0]}-{have[1]}",
                    "the game is played at the score line's score, as gnubg does",
                    **where,
                )
                match.new_game(score=score)
        if score != match.game.score:
            have = match.game.score
            raise MatFileError(
                f"the score line says {score[0]}-{score[1]}, but the games before make it {have[0]}-{have[1]}", **where
            )
        _Replay(match, section.number, items, last=k == len(parsed) - 1, notes=notes).run()
    return match


def _text(source: str | os.PathLike[str]) -> str:
    """A .mat file's text: ``source`` itself, or the file it names (a path,
    or a str of one line that names a file), UTF-8 or else Latin-1."""
    if isinstance(source, str):
        try:
            named = "\n" not in source and "\r" not in source and Path(source).is_file()
        except (OSError, ValueError):  # a name too long, a NUL in it
            named = False
        if not named:
            return source
    elif not isinstance(source, os.PathLike):
        raise TypeError(f"a .mat file is read from its text (a str) or a path, not {type(source).__name__}")
    data = Path(source).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read(source: str | os.PathLike[str], *, dice: int | DiceSource | None = None, strict: bool = False) -> MatFile:
    """Read a ``.mat`` file and replay its games (see :meth:`bgcore.Match.from_mat`).

    ``source`` is the file's text, or a path (a :class:`pathlib.Path`, or a
    str of one line naming a file).  What the file holds that the rules
    forbid is kept as GNU Backgammon's ``import mat`` keeps it, and listed
    in :attr:`MatFile.warnings`; with ``strict=True`` it raises
    :class:`~bgcore.errors.MatFileError` instead.  Anything that cannot be
    read (or replayed even so) raises it too.  ``dice`` (a seed, a dice
    source or None) serves the games played on from where the file stops.

    >>> mat = read('''
    ...  3 point match
    ...
    ...  Game 1
    ...  Ann : 0                        Ben : 0
    ...   1)                             64: 24/18 13/9
    ...   2) 62: 24/18* 13/11             Doubles => 2
    ... ''')
    >>> mat.names, mat.match.game.doubled, mat.match.game.turn
    (('Ann', 'Ben'), True, 0)
    >>> read(' 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 52: 24/20 13/8\\n', strict=True)
    Traceback (most recent call last):
    ...
    bgcore.errors.MatFileError: game 1, move 1, line 4: '24/20 13/8' is not a legal move with 5-2 in ...
    >>> read(' 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 52: 24/20 13/8\\n').warnings[0].line
    4
    """
    text = _text(source)
    lines = text.lstrip("\ufeff").splitlines()
    try:
        length, start, tags, comments = _header(lines)
    except MatFileError as exc:
        if not isinstance(source, str) or "\n" in source or "\r" in source:
            raise
        # one line: a path, perhaps, that names no file
        raise MatFileError(
            f"{exc}; read() takes the file's text, or a path, and {source[:80]!r} names no file"
        ) from None
    notes = _Notes(strict)
    sections = _sections(lines, start)
    parsed: list[_Parsed] = []
    for section in sections:
        if section.score is None:
            raise MatFileError("the game has no score line", game=section.number, line=section.line)
        line, raw = section.score
        m = _SCORE_RE.fullmatch(raw)
        if not m or not m.group("n0") or not m.group("n1"):
            raise MatFileError(f"cannot read the score line {raw.strip()!r}", game=section.number, line=line)
        items: list[_Item] = []
        move_no: int | None = None
        for number, raw_line in section.lines:
            move_no, found = _parse_line(raw_line, number, move_no, section.number, notes)
            items.extend(found)
        score = (_int(m.group("s0")), _int(m.group("s1")))
        parsed.append((section, score, (m.group("n0"), m.group("n1")), items))
    options = _options(tags, length)
    if not length and "beavers" not in options:
        # gnubg writes no tag for it: a beaver in the file says they are allowed
        options["beavers"] = any(item.kind == "beaver" for *_, items in parsed for item in items)
    names = parsed[0][2] if parsed else ("", "")

    def replay(extra: dict[str, object]) -> tuple[Match, list[MatWarning]]:
        replaying = _Notes(strict)
        match = _replay(parsed, length, {**options, **extra}, dice, replaying)
        return match, sorted(notes.found + replaying.found, key=lambda w: w.line or 0)

    # gnubg writes no tag for the Jacoby rule either (and plays money
    # sessions with it unless told otherwise): a money session that does not
    # replay cleanly without it is tried with it
    jacoby_unknown = not length and "jacoby" not in options
    try:
        match, warnings = replay({})
    except MatFileError:
        if not jacoby_unknown:
            raise
        try:
            match, warnings = replay({"jacoby": True})
        except MatFileError:
            pass
        else:
            return MatFile(match, names, tags, "\n".join(comments), tuple(warnings))
        raise
    if warnings and jacoby_unknown:
        with contextlib.suppress(MatFileError):
            again = replay({"jacoby": True})
            if len(again[1]) < len(warnings):
                match, warnings = again
    return MatFile(match, names, tags, "\n".join(comments), tuple(warnings))
