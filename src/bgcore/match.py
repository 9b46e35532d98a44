"""A match to N points (or a money session): its games, the score and the
Crawford rule.

>>> match = Match(3, dice=11)
>>> game = match.game
>>> game.roll(), game.turn            # player 1 rolled the 6
((6, 2), 1)
>>> game.resign("single"); game.accept()
>>> match.score, match.is_over()
((1, 0), False)
>>> match.new_game() is match.game, match.game.score
(True, (1, 0))
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalActionError
from .game import DiceSource, Game, dice_source

__all__ = ["Match"]

# The .mat codec: bgcore.matfile builds on Match, so it hands its reader and
# writer down when it is imported (``import bgcore`` imports it) rather than
# Match importing it: the house reads from the bottom up.
_mat_codec: dict[str, Callable[..., Any]] = {}


def _mat(name: str) -> Callable[..., Any]:
    # bgcore/__init__.py imports matfile, and importing bgcore.match runs it first.
    return _mat_codec[name]


class Match:
    """Games to ``length`` points between players 0 and 1 (``length=0``: a
    money session keeping a running total).

    The Crawford game comes when a player first reaches one point short of
    the length (with ``crawford=True``); doubling returns in the games after
    it.  ``jacoby`` and ``beavers`` are money-play options; ``cube=False``
    plays every game without the doubling cube.  ``dice`` (a seed, a dice
    source or None) serves every game in turn.  ``score`` starts the match
    at that score (a match continued from elsewhere; its first game at a
    score one point short is the Crawford game).

    >>> Match(7, score=(6, 5), dice=1).game.crawford
    True
    """

    def __init__(
        self,
        length: int,
        *,
        crawford: bool = True,
        jacoby: bool = False,
        beavers: bool = False,
        dice: int | DiceSource | None = None,
        variant: str = "standard",
        max_cube: int | None = None,
        cube: bool = True,
        score: tuple[int, int] = (0, 0),
    ) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= 32767:
            raise ValueError(f"a match is 1-32767 points long, or 0 for money play, not {length!r}")
        self.length = length
        self.crawford_rule = bool(crawford)
        self.jacoby = bool(jacoby)
        self.beavers = bool(beavers)
        self.variant = variant
        self.max_cube = max_cube
        self.cube_enabled = bool(cube)
        self._dice = dice_source(dice)
        self._games: list[Game] = []
        self._crawford_played = False
        self._games.append(self._game(score))

    def _game(self, score: tuple[int, int]) -> Game:
        post = False
        if self.length and self.crawford_rule:
            short = [self.length - s == 1 for s in score]
            # The Crawford game is the first game once a player is one short.
            post = self._crawford_played or (short[0] and short[1])
        game = Game(
            self.variant,
            match_length=self.length,
            score=score,
            crawford=self.crawford_rule,
            jacoby=self.jacoby,
            beavers=self.beavers,
            max_cube=self.max_cube,
            cube=self.cube_enabled,
            dice=self._dice,
            post_crawford=post,
        )
        if game.crawford:
            self._crawford_played = True
        return game

    @property
    def game(self) -> Game:
        """The game being played (the last one, once the match is over)."""
        return self._games[-1]

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game of the match so far, the current one last."""
        return tuple(self._games)

    @property
    def score(self) -> tuple[int, int]:
        """Points of players 0 and 1: the current game's score, its points added once it is over."""
        game = self.game
        points = list(game.score)
        if game.result is not None:
            points[game.result.winner] += game.result.points
        return points[0], points[1]

    def is_over(self) -> bool:
        """True once a player has reached the length (never in money play)."""
        return bool(self.length) and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The player who won the match, or None."""
        if not self.is_over():
            return None
        return 0 if self.score[0] >= self.length else 1

    def new_game(self, *, score: tuple[int, int] | None = None) -> Game:
        """Start the next game once the current one is over: at the match's
        score, or at ``score`` when a record says so (a ``.mat`` file whose
        score line does not follow from the games before, as GNU
        Backgammon's import takes it); the match goes on from there."""
        if not self.game.is_over():
            raise IllegalActionError("the current game is not over")
        if self.is_over():
            raise IllegalActionError(f"the match is over: player {self.winner} won {self.score[0]}-{self.score[1]}")
        self._games.append(self._game(self.score if score is None else score))
        return self.game

    # --- .mat files ------------------------------------------------------------

    def to_mat(
        self,
        names: Sequence[str] = ("Player 0", "Player 1"),
        *,
        site: str | None = None,
        event: str | None = None,
        round: str | None = None,
        date: datetime.date | None = None,
        transcriber: str | None = None,
        comment: str | None = None,
    ) -> str:
        """The match as a Jellyfish ``.mat`` file, as GNU Backgammon's
        ``export match mat`` writes it: every game so far, the current one
        as far as it has gone.  ``names`` are players 0 and 1; the keywords
        give the header's ``; [Site "..."]``-style tags and a comment.  See
        :mod:`bgcore.matfile`.

        >>> match = Match(3, dice=5)
        >>> match.game.roll((3, 1)); match.game.play("8/5 6/5")
        (3, 1)
        >>> print(match.to_mat(("Ann", "Ben")))
        <BLANKLINE>
         3 point match
        <BLANKLINE>
         Game 1
         Ann : 0                        Ben : 0
          1) 31: 8/5 6/5
        """
        return _mat("write")(  # type: ignore[no-any-return]
            self,
            names,
            site=site,
            event=event,
            round=round,
            date=date,
            transcriber=transcriber,
            comment=comment,
        )

    @classmethod
    def from_mat(
        cls, source: str | os.PathLike[str], *, dice: int | DiceSource | None = None, strict: bool = False
    ) -> Match:
        """The match a Jellyfish ``.mat`` file records (its text, or a path),
        every game replayed; the last one is left where the file stops.
        ``dice`` (a seed, a dice source or None) serves the rolls from there
        on.  What the file holds that the rules forbid (a resignation out of
        turn, odd points, a roll left unplayed, an illegal play, a match
        continued from elsewhere...) is kept as GNU Backgammon's import keeps
        it; ``strict=True`` refuses it instead.  Raises
        :class:`~bgcore.errors.MatFileError` (a :class:`ValueError`) naming
        the game, the move and the line for anything it cannot read.
        :func:`bgcore.matfile.read` also gives the players' names, the
        header's tags and the warnings: what was unusual, and where.

        >>> match = Match.from_mat(Match(3, dice=5).to_mat())
        >>> match.length, match.score, match.game.opening
        (3, (0, 0), True)
        """
        return _mat("read")(source, dice=dice, strict=strict).match  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        what = "money session" if not self.length else f"{self.length}-point match"
        return f"<Match {what}, {len(self._games)} game(s), score {self.score[0]}-{self.score[1]}>"
