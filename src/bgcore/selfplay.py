"""Self-play: whole games between policies in the native engine.

:func:`play` records every position met, for training value networks;
:func:`duel` sets two policies against each other on the same dice, with or
without the doubling cube, and :func:`duel_matches` plays whole matches.
A :class:`Player` is a policy with a cube strategy: gnubg's 0-ply cube theory
on its evaluator's probabilities, or none (it never doubles and always takes).

>>> data = play(20, "pubeval", seed=1)
>>> data.boards.shape[1], int(data.game[-1]), bool((data.ply[data.game == 0] == range((data.game == 0).sum())).all())
(26, 19, True)
>>> result = duel("pubeval", "random", games=200, seed=1)
>>> result.wins[0] > result.wins[1]
True

:func:`selfplay_positions` is the pure-Python sampler of positions that the
test and benchmark corpora are built from.

>>> positions = selfplay_positions(5, seed=1)
>>> len(positions), positions[0] == Position.initial()
(5, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import bgcore._engine as _engine

from .ids import CUBE_LIMIT
from .met import MAX_AWAY, met_arrays
from .nn import NativeEvaluator
from .policy import (
    Evaluator,
    Policy,
    check_evaluator,
    check_int,
    check_policy,
    evaluator_for_engine,
    for_engine,
    policy_name,
)
from .position import Position
from .rollouts import MAX_GAMES, _cube_evaluator, at_most, interval95

__all__ = [
    "play",
    "SelfPlay",
    "Player",
    "CUBE_STRATEGIES",
    "duel",
    "DuelResult",
    "duel_matches",
    "MatchResult",
    "selfplay_positions",
    "heuristic_score",
]

_MAX_SEED = 2**64 - 1


def _start(start: Position | None) -> tuple[Position, bool]:
    """The start position and whether its first roll is an opening roll."""
    if start is None:
        return Position.initial(), True
    if not isinstance(start, Position):
        raise TypeError(f"start must be a Position or None, not {type(start).__name__}")
    if start.is_game_over():
        raise ValueError("start is a finished game")
    return start, False


def _points(y: np.ndarray) -> np.ndarray:
    """Each game's points for player 0 (+1 to +3 won, -1 to -3 lost) from its outcome."""
    points: np.ndarray = np.where(y[:, 0] > 0, 1 + y[:, 1] + y[:, 2], -(1 + y[:, 3] + y[:, 4])).astype(np.int8)
    return points


@dataclass(frozen=True)
class SelfPlay:
    """The positions of self-played games, one row each, games in order and
    each game's positions from its start.

    ``boards`` (int8 (n, 26)): the position before each roll, seen by the
    player on roll; ``game`` (int64), ``ply`` (int32, from 0) and ``player``
    (int8: 0 for the player who moved first, else 1) of each row;
    ``results`` (int8, one per game): the points player 0 won (1 to 3) or lost
    (-1 to -3).  The final positions, where nobody rolls, are not rows.
    """

    boards: np.ndarray
    game: np.ndarray
    ply: np.ndarray
    player: np.ndarray
    results: np.ndarray


def play(
    games: int, policy: Policy = "pubeval", seed: int = 0, *, start: Position | None = None, threads: int = 1
) -> SelfPlay:
    """Play ``games`` games of ``policy`` against itself and record them.

    From the initial position (``start=None``) the first roll is an opening
    roll (no doubles); from another ``start`` its player on roll rolls as
    usual.  Game ``i`` rolls from stream ``i`` of :class:`bgcore.Dice`
    (``seed``): the data do not depend on ``threads``.
    """
    games = at_most(check_int(games, "games", 0), "games", MAX_GAMES, "2**63 - 1")
    seed = check_int(seed, "seed", 0, _MAX_SEED)
    threads = check_int(threads, "threads", 1, 64)
    position, opening = _start(start)
    engine = for_engine(check_policy(policy), position.checkers)
    boards, game, ply, y = recorded(position, opening, engine, seed, 0, games, threads)
    return SelfPlay(boards, game, ply, (ply & 1).astype(np.int8), _points(y))


def recorded(
    position: Position,
    opening: bool,
    engine: str | NativeEvaluator | Callable[..., object],
    seed: int,
    first: int,
    count: int,
    threads: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Games ``first`` .. ``first + count - 1`` of ``engine`` (a policy as
    :func:`bgcore.policy.for_engine` gives it) against itself, recorded:
    the boards, game and ply of every position met (games in order, each
    game's plies in order) and each game's outcome (float64 (count, 5),
    player 0's view).  For :func:`play` and :mod:`bgcore.train`; the
    arguments are checked by the caller."""
    y, _, records = _engine.play_games(
        position.to_array().tobytes(),
        position.checkers,
        seed,
        first,
        count,
        (engine, engine),
        opening=opening,
        record=True,
        threads=threads,
    )
    assert records is not None
    boards, game, ply = records
    order = np.lexsort((ply, game))
    return boards[order], game[order], ply[order], y


#: A :class:`Player`'s ways with the cube: ``"theory"`` doubles, takes,
#: passes and beavers by gnubg's 0-ply cube theory (:mod:`bgcore.cube`) on
#: its evaluator's probabilities; ``"none"`` never doubles and always takes.
CUBE_STRATEGIES = ("theory", "none")


@dataclass(frozen=True)
class Player:
    """A player of a duel with the cube: a policy for the moves and a cube strategy.

    ``policy`` is any policy (:mod:`bgcore.policy`); ``cube`` one of
    :data:`CUBE_STRATEGIES`; ``evaluator`` the evaluator whose probabilities
    make the cube decisions (a network, ``"wildbg"`` or a callable ``boards
    -> (n, 5)``), by default the policy's own when it is an evaluator. A
    network decides in C; a Python evaluator is called once per step with
    the boards of every game in flight that has a cube decision to make.

    >>> Player("wildbg"), Player("pubeval", cube="none")
    (Player('wildbg', cube='theory'), Player('pubeval', cube='none'))
    >>> Player("pubeval")
    Traceback (most recent call last):
    ...
    ValueError: Player('pubeval', cube='theory') needs an evaluator for its cube decisions: evaluator=, or cube='none'
    """

    policy: Policy
    cube: str = "theory"
    evaluator: Evaluator | str | None = None

    def __post_init__(self) -> None:
        check_policy(self.policy)
        if self.cube not in CUBE_STRATEGIES:
            raise ValueError(f"cube must be one of {', '.join(map(repr, CUBE_STRATEGIES))}, not {self.cube!r}")
        if self.evaluator is not None:
            check_evaluator(self.evaluator, 0)
        if self.cube == "theory" and self.evaluator is None and _cube_evaluator(self.policy, 15) is None:
            raise ValueError(f"{self!r} needs an evaluator for its cube decisions: evaluator=, or cube='none'")

    def theory(self, checkers: int = 15) -> NativeEvaluator | Evaluator | None:
        """The evaluator of the player's cube decisions as the engine takes it (None: no cube theory)."""
        if self.cube != "theory":
            return None
        if self.evaluator is None:
            return _cube_evaluator(self.policy, checkers)
        return evaluator_for_engine(self.evaluator, checkers)

    @property
    def __name__(self) -> str:  # the player's name in results
        name = policy_name(self.policy)
        if self.evaluator is not None:
            name += f" with {policy_name(self.evaluator)}'s cube"
        return name if self.cube == "theory" else f"{name} without cube"

    def __repr__(self) -> str:
        evaluator = "" if self.evaluator is None else f", evaluator={self.evaluator!r}"
        return f"Player({self.policy!r}, cube={self.cube!r}{evaluator})"


def _player(player: Policy | Player, what: str) -> Player:
    if isinstance(player, Player):
        return player
    return Player(check_policy(player, what))


def _paired(values: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """sum(values) / sum(weights), and its standard error over the units of
    duplicate play: each pair of games (or matches) on the same dice, and a
    last unpaired one (the ratio estimator's)."""
    starts = np.arange(0, len(values), 2)
    sums = np.add.reduceat(values, starts)
    sizes = np.add.reduceat(weights, starts)
    mean = float(values.sum() / weights.sum())
    units = len(sums)
    if units < 2:
        return mean, math.nan
    return mean, math.sqrt(float(((sums - mean * sizes) ** 2).sum()) / (units * (units - 1))) / float(sizes.mean())


@dataclass(frozen=True)
class DuelResult:
    """The outcome of :func:`duel`, for ``policy_a``.

    ``points``: mean points per game won by ``policy_a`` (negative when it
    lost more), ``stderr`` its standard error (from pairs of games on the same
    dice, which cancels most of the luck), ``wins``: games won by ``policy_a``
    and by ``policy_b``, ``games``, and ``policies``: the names of
    ``policy_a`` and ``policy_b`` (a callable's ``__name__``; not compared:
    equal games give equal results).  ``cube``: the games were played with
    the doubling cube (the points count it).  Printed, it gives the points
    per game with their standard error and 95% interval (± 1.96 standard
    errors).

    >>> result = duel("race", "pubeval", games=200, seed=1)
    >>> result  # doctest: +ELLIPSIS
    <DuelResult of 200 games, race against pubeval: race -0.790 ± 0.069 points per game (95% interval ...), won 36-164>
    >>> print(result)
    duel of 200 games, race against pubeval, on duplicate dice (± standard error)
      points per game for race  -0.790 ± 0.069   95%: -0.926 to -0.654
      games won                 36-164
    """

    points: float
    stderr: float
    wins: tuple[int, int]
    games: int
    policies: tuple[str, str] = field(compare=False)
    cube: bool = False

    def _points_text(self) -> tuple[str, str]:
        lo, hi = interval95(self.points, self.stderr)
        return f"{self.points:+.3f} ± {self.stderr:.3f}", f"{lo:+.3f} to {hi:+.3f}"

    def __str__(self) -> str:
        a, b = self.policies
        points, interval = self._points_text()
        rows = ((f"points per game for {a}", f"{points}   95%: {interval}"), ("games won", self._won()))
        width = max(len(label) for label, _ in rows)
        games = f"{self.games:,} games" + (" with the cube" if self.cube else "")
        title = f"duel of {games}, {a} against {b}, on duplicate dice (± standard error)"
        return "\n".join([title, *(f"  {label:<{width}}  {value}" for label, value in rows)])

    def _won(self) -> str:
        return f"{self.wins[0]:,}-{self.wins[1]:,}"

    def __repr__(self) -> str:
        a, b = self.policies
        points, interval = self._points_text()
        games = f"{self.games:,} games" + (" with the cube" if self.cube else "")
        return (
            f"<DuelResult of {games}, {a} against {b}: {a} {points} points per game "
            f"(95% interval {interval}), won {self._won()}>"
        )


def duel(
    policy_a: Policy | Player,
    policy_b: Policy | Player,
    games: int = 1000,
    seed: int = 0,
    *,
    start: Position | None = None,
    threads: int = 1,
    cube: bool = False,
    jacoby: bool = False,
    beavers: bool = False,
) -> DuelResult:
    """Duplicate play: ``games`` games of ``policy_a`` against ``policy_b``.

    Games 2k and 2k + 1 are played on the same dice with the colours swapped:
    ``policy_a`` moves first in the even games, ``policy_b`` in the odd ones.
    ``games`` counts games, not pairs (an odd count leaves the last one
    unpaired).

    ``cube=True`` plays a money session with the doubling cube: each
    player is a :class:`Player` (a plain policy is ``Player(policy)``, whose
    cube theory needs an evaluator), each game starts from the initial
    position with the cube centred, the opening roll (both dice, rolled
    again on a tie, the higher die's owner moving first) from the game's
    dice, and ends at a pass or when borne off; ``jacoby`` and ``beavers``
    are the money-play options.  The points count the cube.

    >>> result = duel(Player("wildbg"), Player("wildbg", cube="none"), games=40, seed=1, cube=True)
    >>> result.cube, result.policies
    (True, ('wildbg', 'wildbg without cube'))
    """
    games = at_most(check_int(games, "games", 1), "games", MAX_GAMES, "2**63 - 1")
    seed = check_int(seed, "seed", 0, _MAX_SEED)
    threads = check_int(threads, "threads", 1, 64)
    position, opening = _start(start)
    if cube:
        if start is not None:
            raise ValueError("a duel with the cube plays games from the initial position: no start=")
        players = (_player(policy_a, "policy_a"), _player(policy_b, "policy_b"))
        rules = (0, 0, 0, 0, int(bool(jacoby)), int(bool(beavers)), CUBE_LIMIT)
        y = _cube_games(players, games, seed, threads, rules=rules)
        points = y[:, 0].copy()
    else:
        if jacoby or beavers or isinstance(policy_a, Player) or isinstance(policy_b, Player):
            raise ValueError("Players, jacoby and beavers are for duels with the cube: cube=True")
        policies = (check_policy(policy_a, "policy_a"), check_policy(policy_b, "policy_b"))
        outcomes, _, _ = _engine.play_games(
            position.to_array().tobytes(),
            position.checkers,
            seed,
            0,
            games,
            (for_engine(policies[0], position.checkers), for_engine(policies[1], position.checkers)),
            opening=opening,
            duel=True,
            threads=threads,
        )
        points = _points(outcomes).astype(np.float64)
    points[1::2] *= -1  # policy_a is player 1 in the odd games
    mean, stderr = _paired(points, np.ones(games))
    won = int((points > 0).sum())
    names = (policy_name(policy_a), policy_name(policy_b))
    return DuelResult(points=mean, stderr=stderr, wins=(won, games - won), games=games, policies=names, cube=cube)


def _cube_games(players: tuple[Player, Player], count: int, seed: int, threads: int, **options: Any) -> np.ndarray:
    """The engine's cube duel of two players from the initial position: its cube outcomes."""
    position = Position.initial()
    pre, post = met_arrays()
    a, b = players
    _, _, out = _engine.play_cubeful(
        position.to_array().tobytes(),
        position.checkers,
        seed,
        0,
        count,
        (for_engine(a.policy, position.checkers), for_engine(b.policy, position.checkers)),
        (a.theory(position.checkers), b.theory(position.checkers)),
        pre,
        post,
        duel=True,
        threads=threads,
        **options,
    )
    return out


@dataclass(frozen=True)
class MatchResult:
    """The outcome of :func:`duel_matches`, for ``policy_a``.

    ``share``: the share of the matches won by ``policy_a``, ``share_stderr``
    its standard error (pairs of matches on the same dice as units);
    ``wins``: matches won by ``policy_a`` and ``policy_b``; ``points``: the
    points per game won by ``policy_a`` over all the matches' games, with
    ``points_stderr``; ``matches``, ``length``, ``games`` (played in all)
    and ``policies`` (names, not compared).
    """

    share: float
    share_stderr: float
    wins: tuple[int, int]
    points: float
    points_stderr: float
    matches: int
    length: int
    games: int
    policies: tuple[str, str] = field(compare=False)

    def __str__(self) -> str:
        a, b = self.policies
        lo, hi = interval95(self.share, self.share_stderr)
        plo, phi = interval95(self.points, self.points_stderr)
        rows = (
            (f"matches won by {a}", f"{self.share:.1%} ± {self.share_stderr:.1%}   95%: {lo:.1%} to {hi:.1%}"),
            ("matches won", f"{self.wins[0]:,}-{self.wins[1]:,}"),
            (
                f"points per game for {a}",
                f"{self.points:+.3f} ± {self.points_stderr:.3f}   95%: {plo:+.3f} to {phi:+.3f}",
            ),
            ("games played", f"{self.games:,}"),
        )
        width = max(len(label) for label, _ in rows)
        title = (
            f"duel of {self.matches:,} {self.length}-point matches, {a} against {b}, on duplicate dice "
            "(± standard error)"
        )
        return "\n".join([title, *(f"  {label:<{width}}  {value}" for label, value in rows)])

    def __repr__(self) -> str:
        a, b = self.policies
        lo, hi = interval95(self.share, self.share_stderr)
        return (
            f"<MatchResult of {self.matches:,} {self.length}-point matches, {a} against {b}: {a} won "
            f"{self.share:.1%} ± {self.share_stderr:.1%} (95% interval {lo:.1%} to {hi:.1%}), "
            f"{self.points:+.3f} points per game>"
        )


def duel_matches(
    policy_a: Policy | Player,
    policy_b: Policy | Player,
    matches: int = 100,
    length: int = 7,
    seed: int = 0,
    *,
    threads: int = 1,
) -> MatchResult:
    """Duplicate play of whole ``length``-point matches with the cube and the Crawford rule.

    Each player is a :class:`Player` (a plain policy is ``Player(policy)``).
    Matches 2k and 2k + 1 roll the same dice (one stream for the whole
    match, each game's opening roll first) with the players' seats swapped;
    each game starts with the cube centred at 1, the Crawford game has no
    cube, and the cube decisions are made at the match score (the match
    equity table of :mod:`bgcore.met`; ``length`` at most 25).

    >>> result = duel_matches(Player("wildbg"), Player("wildbg", cube="none"), matches=10, length=3, seed=2)
    >>> result.matches, sum(result.wins), result.length
    (10, 10, 3)
    """
    matches = at_most(check_int(matches, "matches", 1), "matches", MAX_GAMES, "2**63 - 1")
    length = check_int(length, "length", 1, MAX_AWAY)
    seed = check_int(seed, "seed", 0, _MAX_SEED)
    threads = check_int(threads, "threads", 1, 64)
    players = (_player(policy_a, "policy_a"), _player(policy_b, "policy_b"))
    out = _cube_games(players, matches, seed, threads, match_length=length)
    won, net, games = out[:, 0].copy(), out[:, 1].copy(), out[:, 2]
    won[1::2] = 1.0 - won[1::2]  # policy_a is player 1 in the odd matches
    net[1::2] *= -1
    share, share_stderr = _paired(won, np.ones(matches))
    points, points_stderr = _paired(net, games)
    wins = int(won.sum())
    return MatchResult(
        share=share,
        share_stderr=share_stderr,
        wins=(wins, matches - wins),
        points=points,
        points_stderr=points_stderr,
        matches=matches,
        length=length,
        games=int(games.sum()),
        policies=(policy_name(players[0]), policy_name(players[1])),
    )


def heuristic_score(board: tuple[int, ...]) -> float:
    """A crude evaluation of a result board (mover's view, before the flip).

    Rewards made points (most in the home board), hits and progress, and
    punishes blots: enough to make self-play look like real play (few
    checkers on the bar, primes, races and bear-offs), not to play well.
    """
    score = 0.0
    for p in range(1, 25):
        c = board[p]
        if c >= 2:
            score += 1.5 if p <= 7 else 0.7
        elif c == 1:
            score -= 0.6 if p > 6 else 0.3
    score += 0.5 * -board[0]  # opposing checkers on the bar
    score -= 0.005 * sum(board[p] * p for p in range(1, 26) if board[p] > 0)
    return score


def selfplay_positions(count: int, seed: int = 0, variant: str = "standard", policy: str = "random") -> list[Position]:
    """``count`` positions (player on roll's view) met in seeded self-play.

    Each game starts from ``Position.initial(variant)``; every turn rolls two
    random dice and plays a legal move: a uniformly random one (``policy=
    "random"``, which reaches odd positions) or the best by
    :func:`heuristic_score` with random tie noise (``"heuristic"``, closer to
    real games). A finished game starts a new one. The same arguments always
    give the same positions.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    if policy not in ("random", "heuristic"):
        raise ValueError(f"policy must be 'random' or 'heuristic', not {policy!r}")
    rng = random.Random(seed)
    start = Position.initial(variant)
    pos = start
    out: list[Position] = []
    while len(out) < count:
        out.append(pos)
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        if policy == "random" or len(moves) == 1:
            choice = rng.randrange(len(moves))
        else:
            scores = [heuristic_score(p.flip().board) + 0.3 * rng.random() for p in moves.positions()]
            choice = max(range(len(moves)), key=scores.__getitem__)
        pos = moves.position_after(choice)
        if pos.is_game_over():
            pos = start
    return out
