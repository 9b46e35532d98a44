"""Self-play: whole games between policies in the native engine.

:func:`play` records every position met, for training value networks;
:func:`duel` sets two policies against each other on the same dice.

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

import numpy as np

import bgcore._engine as _engine

from .nn import NativeEvaluator
from .policy import Policy, check_int, check_policy, for_engine, policy_name
from .position import Position
from .rollouts import MAX_GAMES, at_most, interval95

__all__ = ["play", "SelfPlay", "duel", "DuelResult", "selfplay_positions", "heuristic_score"]

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


@dataclass(frozen=True)
class DuelResult:
    """The outcome of :func:`duel`, for ``policy_a``.

    ``points``: mean points per game won by ``policy_a`` (negative when it
    lost more), ``stderr`` its standard error (from pairs of games on the same
    dice, which cancels most of the luck), ``wins``: games won by ``policy_a``
    and by ``policy_b``, ``games``, and ``policies``: the names of
    ``policy_a`` and ``policy_b`` (a callable's ``__name__``; not compared:
    equal games give equal results).  Printed, it gives the points per game
    with their standard error and 95% interval (± 1.96 standard errors).

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

    def _points_text(self) -> tuple[str, str]:
        lo, hi = interval95(self.points, self.stderr)
        return f"{self.points:+.3f} ± {self.stderr:.3f}", f"{lo:+.3f} to {hi:+.3f}"

    def __str__(self) -> str:
        a, b = self.policies
        points, interval = self._points_text()
        rows = ((f"points per game for {a}", f"{points}   95%: {interval}"), ("games won", self._won()))
        width = max(len(label) for label, _ in rows)
        title = f"duel of {self.games:,} games, {a} against {b}, on duplicate dice (± standard error)"
        return "\n".join([title, *(f"  {label:<{width}}  {value}" for label, value in rows)])

    def _won(self) -> str:
        return f"{self.wins[0]:,}-{self.wins[1]:,}"

    def __repr__(self) -> str:
        a, b = self.policies
        points, interval = self._points_text()
        return (
            f"<DuelResult of {self.games:,} games, {a} against {b}: {a} {points} points per game "
            f"(95% interval {interval}), won {self._won()}>"
        )


def duel(
    policy_a: Policy,
    policy_b: Policy,
    games: int = 1000,
    seed: int = 0,
    *,
    start: Position | None = None,
    threads: int = 1,
) -> DuelResult:
    """Duplicate play: ``games`` games of ``policy_a`` against ``policy_b``.

    Games 2k and 2k + 1 are played on the same dice with the colours swapped:
    ``policy_a`` moves first in the even games, ``policy_b`` in the odd ones.
    ``games`` counts games, not pairs (an odd count leaves the last one
    unpaired).
    """
    games = at_most(check_int(games, "games", 1), "games", MAX_GAMES, "2**63 - 1")
    seed = check_int(seed, "seed", 0, _MAX_SEED)
    threads = check_int(threads, "threads", 1, 64)
    position, opening = _start(start)
    policies = (check_policy(policy_a, "policy_a"), check_policy(policy_b, "policy_b"))
    y, _, _ = _engine.play_games(
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
    points = _points(y).astype(np.float64)
    points[1::2] *= -1  # policy_a is player 1 in the odd games
    # Units: each pair's two games (and a last, unpaired game); the ratio
    # estimator's standard error over units.
    sums = np.add.reduceat(points, np.arange(0, games, 2))
    sizes = np.add.reduceat(np.ones(games), np.arange(0, games, 2))
    mean = float(points.mean())
    units = len(sums)
    if units > 1:
        stderr = math.sqrt(float(((sums - mean * sizes) ** 2).sum()) / (units * (units - 1))) / float(sizes.mean())
    else:
        stderr = math.nan
    won = int((points > 0).sum())
    names = (policy_name(policies[0]), policy_name(policies[1]))
    return DuelResult(points=mean, stderr=stderr, wins=(won, games - won), games=games, policies=names)


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
