"""The lines of a Jellyfish ``.mat`` file, read into items for
:mod:`bgcore.matfile` to replay: the header and its tags, each game's
section and score line, the pieces of each line with their column; and how
GNU Backgammon's import reads a move the rules forbid and Snowie's position
after an illegal play.  Private: :func:`bgcore.matfile.read` is the way in.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Protocol

from .errors import MatFileError
from .move import Move
from .notation import parse_notation
from .position import Position

__all__ = ["Item", "Notes", "Parsed", "Section", "gnubg_moves", "header", "options", "parse_games", "snowie_position"]


class Notes(Protocol):
    """Where reading goes when the file breaks the rules (``matfile._Notes``)."""

    strict: bool

    def odd(
        self, why: str, then: str = "", *, game: int | None = None, move: int | None = None, line: int | None = None
    ) -> None:
        """Refuse ``why`` (strict), or note it with ``then``, what lenient reading does instead."""


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


def _int(digits: str) -> int:
    """A number of the file; absurdly long ones (which Python would refuse to
    convert) become 10**9, which no check accepts."""
    return int(digits) if len(digits) <= 9 else 10**9


@dataclass(frozen=True)
class Item:
    """One piece of a game's line: a roll and its move, a double (or
    beaver), a take, a drop or a ``Wins``, with its column (the player),
    line and move number."""

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
class Section:
    """One game of the file: its number, the line of `` Game N``, its score
    line and its other lines (line number, text)."""

    number: int
    line: int
    score: tuple[int, str] | None = None
    lines: list[tuple[int, str]] = field(default_factory=list)


Parsed = tuple[Section, tuple[int, int], tuple[str, str], list[Item]]


def parse_item(piece: str, column: int, line: int, move_no: int | None, game: int, notes: Notes) -> Item | None:
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
            return Item("roll", column, line, move_no, dice=dice, text=piece, illegal=illegal.group(1))
        if _NO_MOVE.fullmatch(text):
            text = ""
        return Item("roll", column, line, move_no, dice=dice, text=text)
    m = _CUBE_ITEM.fullmatch(piece)
    if m:
        kind = "beaver" if m.group(1).lower().startswith("beaver") else "double"
        return Item(kind, column, line, move_no, value=_int(m.group(2)) if m.group(2) else None)
    if _TAKE_ITEM.fullmatch(piece):
        return Item("take", column, line, move_no)
    if _DROP_ITEM.fullmatch(piece):
        return Item("drop", column, line, move_no)
    m = _WINS_ITEM.fullmatch(piece)
    if m:
        return Item("wins", column, line, move_no, value=_int(m.group(1)), and_match=bool(m.group(2)))
    if piece.lower().startswith("raccoon"):
        raise MatFileError("raccoons are not supported", game=game, move=move_no, line=line)
    odd(f"cannot read {piece!r}", "passed over, as gnubg does")
    return None


def parse_line(raw: str, line: int, last_move: int | None, game: int, notes: Notes) -> tuple[int | None, list[Item]]:
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
        item = parse_item(raw[start:end].strip(), 1 if (k or first_right) else 0, line, move_no, game, notes)
        if item is not None:
            items.append(item)
    return move_no, items


def options(tags: dict[str, str], length: int) -> dict[str, object]:
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


def parse_games(lines: list[str], start: int, notes: Notes) -> list[Parsed]:
    """Each game of the file from line ``start`` on: its section, the score
    line's score and names, and its items."""
    parsed: list[Parsed] = []
    for section in _sections(lines, start):
        if section.score is None:
            raise MatFileError("the game has no score line", game=section.number, line=section.line)
        line, raw = section.score
        m = _SCORE_RE.fullmatch(raw)
        if not m or not m.group("n0") or not m.group("n1"):
            raise MatFileError(f"cannot read the score line {raw.strip()!r}", game=section.number, line=line)
        items: list[Item] = []
        move_no: int | None = None
        for number, raw_line in section.lines:
            move_no, found = parse_line(raw_line, number, move_no, section.number, notes)
            items.extend(found)
        score = (_int(m.group("s0")), _int(m.group("s1")))
        parsed.append((section, score, (m.group("n0"), m.group("n1")), items))
    return parsed


def header(lines: list[str]) -> tuple[int, int, dict[str, str], list[str]]:
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


def _sections(lines: list[str], start: int) -> list[Section]:
    sections: list[Section] = []
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
            sections.append(Section(number, index + 1))
        elif not sections:
            raise MatFileError(f"expected 'Game 1', found {stripped!r}", line=index + 1)
        elif sections[-1].score is None:
            sections[-1].score = (index + 1, raw)
        else:
            sections[-1].lines.append((index + 1, raw))
    return sections


def _atoi(text: str) -> int:
    """C's atoi, as gnubg reads Snowie's numbers: a leading integer, else 0."""
    found = re.match(r"\s*([-+]?\d{1,9})", text)
    return int(found.group(1)) if found else 0


def snowie_position(text: str, checkers: int) -> tuple[Position, int]:
    """The board of a Snowie position (``Illegal play (...)``: 40 fields
    separated by ';', the board seen from the player of field 4), and that
    player."""
    fields = text.split(";")
    if len(fields) < 40:
        raise ValueError(f"Snowie's position has 40 fields, not {len(fields)}")
    numbers = [_atoi(f) for f in fields[:40]]
    board = [-abs(numbers[37]), *numbers[13:37], abs(numbers[12])]
    return Position(board, checkers=checkers), int(numbers[4] != 0)


def gnubg_moves(text: str, dice: tuple[int, int], position: Position) -> list[Move]:
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
