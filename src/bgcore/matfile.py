"""Jellyfish ``.mat`` match files: the plain-text match records that GNU
Backgammon, eXtreme Gammon, BGBlitz and the backgammon servers write.

:func:`write` (also :meth:`bgcore.Match.to_mat`) writes a match the way GNU
Backgammon's ``export match mat`` does, byte for byte from the ``N point
match`` line on; :func:`read` (also :meth:`bgcore.Match.from_mat`) reads one
back, from its text or its path, and replays every game.  The format is
described in the games guide (docs/guides/games.md, "Match files").

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

Reading takes a file as GNU Backgammon's ``import mat`` takes it: column
widths, move numbers, ``bar``/``off``, ``24/13`` or ``13/7(2)``, stars,
XG's ``Cannot Move`` and ``???``, ``and the match``, comments anywhere, a
game without its ``Wins`` line (the next score tells how it ended), and XG's
``; [Crawford "Off"]``, ``; [Jacoby "On"]``, ``; [Beaver "On"]`` and ``;
[CubeLimit "N"]`` tags (without them a money session is read with beavers
when it has one, and with the Jacoby rule when the scores need it).

It keeps what the rules forbid but servers write, where gnubg keeps it,
and lists each in :attr:`MatFile.warnings` (a :class:`MatWarning`: what,
the game, the move and the line): a resignation by the player who is not
to act, or for points that are no single game, gammon or backgammon times
the cube (gnubg rounds the points over the cube up to one of them:
``Wins 100 points`` at cube 1 is a resigned backgammon, 3 points); a roll
written without its move though it has plays, or a turn left out (the
turn passes unplayed); a move the rules forbid, and Snowie's ``Illegal
play (...)`` (played as written, by :meth:`~bgcore.Game.force`); a first
game at a score other than 0-0 (a match continued from elsewhere) or a
score line that does not follow from the games before (the game is played
at it); a resignation before the opening roll, takes and drops with no
double, games after the match is over, pieces that cannot be read (passed
over).  ``strict=True`` refuses all of these with a
:class:`~bgcore.errors.MatFileError` naming the game, the move and the line.

What the format cannot say: a rejected resignation (it is left out),
raccoons, a roll left unplayed that had a single play (gnubg's import
plays it).  gnubg's import plays a roll's only play even when the file says
the player resigned instead, so a resignation after rolling a lost turn or
a forced move is written with that play (and read back as the resignation
with the dice rolled).  A file that stops right after a roll leaves that
roll to be played, unless it has no legal play: then the lost turn is
played, as gnubg does.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import bgcore.match as _match_module

from ._matlines import Item as _Item
from ._matlines import Parsed as _Parsed
from ._matlines import Section as _Section
from ._matlines import gnubg_moves as _gnubg_moves
from ._matlines import header as _header
from ._matlines import options as _options
from ._matlines import parse_games
from ._matlines import snowie_position as _snowie_position
from .errors import MatFileError
from .game import Action, DiceSource, End, Game, Record
from .match import Match
from .move import Move
from .position import Outcome, Position

__all__ = ["MatFile", "MatWarning", "read", "write"]

#: The names :func:`write` gives the players unless told, and :func:`read` of a file with no game.
DEFAULT_NAMES = ("Player 0", "Player 1")

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
                plays = list(board.legal_moves())
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
        elif rec.action is Action.MOVE:  # a turn passed unrolled (Game.force): gnubg's import passes it too
            board.force()
        elif rec.action is Action.DROP:
            assert result is not None
            out.append(_Rec("drop", rec.player, points=result.points))
        elif rec.action is Action.TAKE and out and out[-1].kind == "beaver":
            pass  # gnubg writes no "Takes" of a beaver: the doubler's next roll says it
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
    # gnubg pads the first column to 31 characters; a longer one still needs a space.
    out.append(f" {first:<31}{'' if len(first) < 31 else ' '}{names[1]} : {game.score[1]}\n")
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
    names: Sequence[str] = DEFAULT_NAMES,
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
    for k, name in enumerate(pair):
        _check_text(name, "a name")
        # The score line "Name : 0   Other : 0" is read up to the first name's
        # colon and back from the last one, so only the first name must be
        # free of colons; a name starting as a comment would hide the line.
        if (not k and ":" in name) or not name.strip() or name != name.strip() or name[0] in ";#":
            raise ValueError(
                f"a name cannot be empty, have spaces around it, start with ';' or '#' "
                f"or (the first one) have a ':': {name!r}"
            )
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


_KINDS = {Outcome.SINGLE: "single game", Outcome.GAMMON: "gammon", Outcome.BACKGAMMON: "backgammon"}


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
        """Lenient: a roll or a double in the column of the player not on
        roll passes the turn of the player on roll, unplayed (gnubg's import
        turns the board to the player of the record); a player who rolls
        again drops the roll not played."""
        game = self.game
        if self.notes.strict or game.doubled or game.opening:
            return
        if game.dice is None and game.on_roll != item.column:
            self.odd(item, f"player {game.on_roll}'s turn is missing", "it passes unplayed, as gnubg does")
            game.force()
        elif game.dice is not None and game.on_roll != item.column:
            game.force(Move([], game.dice))  # (noted at the roll)
        elif game.dice is not None and item.kind == "roll":
            self.odd(item, f"player {item.column} rolls again", "the roll not played is dropped, as gnubg does")
            game.undo()

    def apply(self, item: _Item, following: _Item | None) -> None:
        game = self.game
        if game.beavered and item.kind not in ("take", "drop"):
            game.take()  # gnubg writes no "Takes" of a beaver: the doubler's next roll says it
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
                game.beaver()  # the doubler then takes or drops at 4 times the old cube
            else:
                game.double()
        elif item.kind in ("take", "drop"):
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
        elif game.opening:  # (gnubg's import takes no notice of it)
            self.odd(item, "a resignation before the opening roll", "passed over, as gnubg does")
            return
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


def _replay(
    parsed: list[_Parsed], length: int, options: dict[str, object], dice: int | DiceSource | None, notes: _Notes
) -> Match:
    """The match the parsed games make, replayed; lenient reading plays each
    game at its score line's score, as gnubg does."""
    match: Match | None = None
    for k, (section, score, _, items) in enumerate(parsed):
        assert section.score is not None
        where = {"game": section.number, "line": section.score[0]}
        if match is not None:
            if not match.game.is_over():
                _finish_from_score(match, section.number, section, score, notes)
            if match.is_over():
                have = match.score
                why = f"the match was over after game {k} ({have[0]}-{have[1]})"
                notes.odd(
                    why, "the games after it are passed over, as gnubg does", game=section.number, line=section.line
                )
                break
        have = (0, 0) if match is None else match.score
        if score != have:
            if length and max(score) >= length:
                why = f"the score line says {score[0]}-{score[1]}: the match is over"
                notes.odd(why, "this game and those after it are passed over, as gnubg does", **where)
                break
            then = "the match starts there (continued from elsewhere)" if match is None else "the game is played at it"
            why = f"the score line says {score[0]}-{score[1]}, but the games before make it {have[0]}-{have[1]}"
            notes.odd(why, then + ", as gnubg does", **where)
        if match is None:
            match = _new_match(length, options, dice, score)
        else:
            match.new_game(score=score)
        _Replay(match, section.number, items, last=k == len(parsed) - 1, notes=notes).run()
    return _new_match(length, options, dice, (0, 0)) if match is None else match


def _new_match(length: int, options: dict[str, object], dice: int | DiceSource | None, score: tuple[int, int]) -> Match:
    try:
        return Match(length, dice=dice, score=score, **options)  # type: ignore[arg-type]
    except ValueError as exc:
        raise MatFileError(f"cannot set up the match: {exc}") from None


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
    parsed = parse_games(lines, start, notes)
    options = _options(tags, length)
    if not length and "beavers" not in options:
        # gnubg writes no tag for it: a beaver in the file says they are allowed
        options["beavers"] = any(item.kind == "beaver" for *_, items in parsed for item in items)
    names = parsed[0][2] if parsed else DEFAULT_NAMES  # no game: no names, but ones write() takes

    def replay(extra: dict[str, object]) -> tuple[Match, list[MatWarning]]:
        replaying = _Notes(strict)
        match = _replay(parsed, length, {**options, **extra}, dice, replaying)
        return match, sorted(notes.found + replaying.found, key=lambda w: w.line or 0)

    # gnubg writes no tag for the Jacoby rule either (and plays money
    # sessions with it unless told otherwise): a money session that does not
    # replay cleanly without it is tried with it
    tries: list[dict[str, object]] = [{}] if length or "jacoby" in options else [{}, {"jacoby": True}]
    best: tuple[Match, list[MatWarning]] | None = None
    refused: MatFileError | None = None
    for extra in tries:
        try:
            found = replay(extra)
        except MatFileError as exc:
            refused = refused or exc
            continue
        if best is None or len(found[1]) < len(best[1]):
            best = found
        if not best[1]:
            break
    if best is None:
        assert refused is not None
        raise refused
    return MatFile(best[0], names, tags, "\n".join(comments), tuple(best[1]))


# Match.from_mat and Match.to_mat forward here: this module registers itself
# with the module it builds on (see bgcore.match._mat_codec).
_match_module._mat_codec.update(read=read, write=write)
