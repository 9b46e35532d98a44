"""Rollouts: the outcome probabilities of a position, estimated by playing it
out many times in the native engine.

>>> from bgcore import Position, rollout
>>> board = [0] * 26
>>> board[1], board[24] = 3, -3     # each side's last three checkers on its ace point
>>> result = rollout(Position(board), games=1296, policy="race")
>>> round(result.probabilities[0], 4), result.stderr[0]   # exactly 1/6 + 5/6 * 5/6
(0.8611, 0.0)

The first two rolls decide this race, and stratification gives each of the
1,296 pairs of them one game: the estimate is exact.

A rollout is reproducible: the same start, policy and seed give the same
result, to the last bit, whatever ``threads``, ``in_flight`` or ``executor``.
Game ``i`` rolls from stream ``i`` of :class:`bgcore.Dice` (seed ``seed``),
and with ``stratify`` (the default) its first two rolls are stratum
``s = strata[i % 1296]`` of a permutation of the 36 x 36 pairs of rolls drawn
for its block of 1,296 games (gnubg's quasi-random dice, rotated per block).

Statistics.  Each game gives a vector ``y`` of the five outputs (0 or 1 for a
game played out; the evaluator's probabilities for a truncated one).  The
estimate is their mean.  Without stratification the standard errors are the
sample standard deviations over the square root of the games.  With it, a full
block has one game per stratum and the spread between strata must not count:
its variance is estimated from pairs of strata whose rolls are alike (the same
first roll; for the reply, a-b paired with b-a, which leads to the same results,
and the doubles 1-1 with 2-2, 3-3 with 4-4, 5-5 with 6-6), as the sum of the
pairs' squared differences (the collapsed-strata estimator, slightly
conservative through the doubles' pairs).  The games of a last, partial block
are a random subset of the strata and count with the plain sample variance.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

import bgcore._acey as _acey
import bgcore._engine as _engine

from .acey import AceyDeuceyPosition
from .cube import _RESPONSES, CubeAction, CubeDecision, CubeInfo, Response
from .cube import _state as _cube_state
from .errors import IllegalActionError
from .ids import CUBE_LIMIT
from .met import _after, _score, met_arrays
from .nn import NativeEvaluator
from .policy import (
    Evaluator,
    Greedy,
    Policy,
    check_evaluator,
    check_int,
    check_policy,
    evaluator_for_engine,
    for_engine,
    policy_name,
)
from .position import Position
from .rules import CHECKERS

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "rollout",
    "RolloutResult",
    "CubefulRolloutResult",
    "BLOCK",
    "MAX_GAMES",
    "MAX_IN_FLIGHT",
    "MAX_TRUNCATE",
    "interval95",
    "policy_name",
    "at_most",
]

#: Games per block of the stratified first rolls: every pair of a roll (36
#: ordered rolls) and its reply.
BLOCK = 1296

_OUTPUTS = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")
# Cubeless money equity = 2 win - 1 + (wg - lg) + (wbg - lbg), as gnubg.
_EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
_MAX_SEED = 2**64 - 1
#: The most games a rollout plays: game numbers are 64-bit signed integers in the engine.
MAX_GAMES = 2**63 - 1
#: The most games a thread keeps in flight (the buffer of a Python policy's candidates grows with them).
MAX_IN_FLIGHT = 2**16
#: The longest truncation, in plies (the engine counts a game's plies in 32 bits).
MAX_TRUNCATE = 2**31 - 1


def _pair_strata() -> tuple[np.ndarray, np.ndarray]:
    """The 648 pairs of alike strata (see the module docstring)."""
    lo: list[int] = []
    hi: list[int] = []
    for s in range(BLOCK):
        first, reply = divmod(s, 36)
        a, b = divmod(reply, 6)
        partner = b * 6 + a if a != b else (a ^ 1) * 7
        t = first * 36 + partner
        if s < t:
            lo.append(s)
            hi.append(t)
    return np.array(lo), np.array(hi)


_PAIRS = _pair_strata()


@dataclass(frozen=True)
class _Stats:
    """Sufficient statistics of consecutive blocks, one row per block."""

    games: np.ndarray  # (b,) games in the block
    sums: np.ndarray  # (b, 5) sum of y
    squares: np.ndarray  # (b, 5, 5) sum of y y^T
    pairs: np.ndarray  # (b, 5, 5) sum over pairs of strata of d d^T (full, stratified blocks)


def _outer_sum(v: np.ndarray) -> np.ndarray:
    """The sum of the rows' outer products, added row by row (not by BLAS,
    whose order of additions may depend on the machine and the alignment):
    a block's statistics are the same bits wherever it was played."""
    return np.asarray((v[:, :, None] * v[:, None, :]).sum(axis=0))


def _block_stats(y: np.ndarray, first: int, seed: int, stratify: bool) -> _Stats:
    """The statistics of games first .. first + len(y) - 1 (first a multiple of BLOCK), y one row a game."""
    n, k = y.shape
    starts = range(0, n, BLOCK)
    games = np.array([min(BLOCK, n - s) for s in starts], dtype=np.int64)
    sums = np.stack([y[s : s + BLOCK].sum(axis=0) for s in starts]) if n else np.zeros((0, k))
    squares = np.stack([_outer_sum(y[s : s + BLOCK]) for s in starts]) if n else np.zeros((0, k, k))
    pairs = np.zeros((len(games), k, k))
    if stratify:
        lo, hi = _PAIRS
        for k, s in enumerate(starts):
            if games[k] == BLOCK:
                game_of = np.argsort(_engine.strata(seed, (first + s) // BLOCK))  # stratum -> game
                d = y[s + game_of[lo]] - y[s + game_of[hi]]
                pairs[k] = _outer_sum(d)
    return _Stats(games, sums, squares, pairs)


def _merge(parts: Sequence[_Stats]) -> _Stats:
    return _Stats(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("games", "sums", "squares", "pairs")))


def _estimate(stats: _Stats, stratify: bool) -> tuple[np.ndarray, np.ndarray]:
    """The mean of y and its covariance matrix."""
    n = int(stats.games.sum())
    mean = stats.sums.sum(axis=0) / n
    if n < 2:
        return mean, np.full((len(mean), len(mean)), math.nan)
    per_game = (stats.squares.sum(axis=0) - n * np.outer(mean, mean)) / (n - 1)
    if stratify:
        full = stats.games == BLOCK
        total = stats.pairs[full].sum(axis=0) + stats.games[~full].sum() * per_game
    else:
        total = n * per_game
    return mean, total / n**2


@dataclass(frozen=True)
class RolloutResult:
    """A rollout's estimates, from the view of the player on roll at the start.

    ``probabilities``: win, win gammon, win backgammon, lose gammon, lose
    backgammon (gammons include backgammons), as gnubg's outputs; ``stderr``
    their standard errors.  ``equity``: cubeless money equity
    (``2 win - 1 + wg - lg + wbg - lbg``), or from a :class:`~bgcore.Game`
    the game's (:meth:`~bgcore.Game.cubeless_equity`: the Jacoby rule,
    tabla's backgammons, a match's gammon prices), and ``equity_stderr``.  ``mwc``:
    the match winning chance (cubeless, the cube where it is) when the start
    was a :class:`~bgcore.Game` at a match score, else None.  ``games``,
    ``seed`` and ``policy`` say how it was made: the policy's name (a
    built-in one's, or a callable's ``__name__``).

    Printed, it gives each estimate with its standard error, and the 95%
    interval (the estimate ± 1.96 standard errors) of the equity and the
    match winning chance; its repr is one line.

    >>> from bgcore import Position, rollout
    >>> rollout(Position.from_position_id("d3cLAADb7g4AAA"), games=2592, policy="race", seed=1)
    <RolloutResult of 2,592 games, race, seed 1: equity -0.16127 ± 0.01876 (95% interval -0.19803 to -0.12450)>
    """

    probabilities: tuple[float, float, float, float, float]
    stderr: tuple[float, float, float, float, float]
    equity: float
    equity_stderr: float
    games: int
    seed: int
    policy: str = field(compare=False)  # results are equal when their estimates are: the same games
    mwc: float | None = None
    mwc_stderr: float | None = None

    def __str__(self) -> str:
        estimates = zip(_OUTPUTS, self.probabilities, self.stderr, strict=True)
        rows = [f"{name:>16}  {p:8.5f} ± {e:.5f}" for name, p, e in estimates]
        lo, hi = interval95(self.equity, self.equity_stderr)
        rows.append(f"{'equity':>16}  {self.equity:+8.5f} ± {self.equity_stderr:.5f}   95%: {lo:+.5f} to {hi:+.5f}")
        if self.mwc is not None and self.mwc_stderr is not None:
            lo, hi = interval95(self.mwc, self.mwc_stderr)
            rows.append(f"{'mwc':>16}  {self.mwc:8.5f} ± {self.mwc_stderr:.5f}   95%: {lo:.5f} to {hi:.5f}")
        title = f"rollout of {self.games:,} games, {self.policy} for both sides, seed {self.seed} (± standard error)"
        return title + "\n" + "\n".join(rows)

    def __repr__(self) -> str:
        lo, hi = interval95(self.equity, self.equity_stderr)
        text = (
            f"<RolloutResult of {self.games:,} games, {self.policy}, seed {self.seed}: "
            f"equity {self.equity:+.5f} ± {self.equity_stderr:.5f} (95% interval {lo:+.5f} to {hi:+.5f})"
        )
        if self.mwc is not None and self.mwc_stderr is not None:
            lo, hi = interval95(self.mwc, self.mwc_stderr)
            text += f", mwc {self.mwc:.5f} ± {self.mwc_stderr:.5f} (95% interval {lo:.5f} to {hi:.5f})"
        return text + ">"


@dataclass(frozen=True)
class CubefulRolloutResult:
    """A cubeful rollout's estimates of the cube decision of the player on roll at the start.

    ``no_double``: the cubeful value of playing on without doubling now;
    ``double_take``: of doubling, the opponent taking (the cube at twice its
    value, the opponent's); ``double_pass``: of the opponent passing. Money
    play: equities per unit of the cube at the start (``double_pass`` is
    1.0); match play (``mwc``): match winning chances. Each with its
    standard error; ``take_gain_stderr`` is that of ``double_take -
    no_double``, small since both are played on the same dice. When the
    player on roll may not double (the opponent owns the cube, the Crawford
    game, a dead cube) only ``no_double`` is rolled out and the double's
    values, errors and ``response`` are None.

    ``action`` and ``response`` are the decision those values imply, by
    gnubg's rules (:func:`bgcore.cube.cube_decision`'s, with the rollout's
    cubeless winning chance for its "too good" and "double, pass" cases),
    ``best`` its value: the position's cubeful equity (or MWC). ``cubeless``
    is the rollout's cubeless result: the same games, the same numbers as
    ``rollout(..., cube=False)`` with the same seed.
    """

    no_double: float
    no_double_stderr: float
    double_take: float | None
    double_take_stderr: float | None
    double_pass: float | None
    take_gain_stderr: float | None
    best: float
    action: CubeAction
    response: Response | None
    mwc: bool
    cubeless: RolloutResult

    @property
    def games(self) -> int:
        """The games played."""
        return self.cubeless.games

    @property
    def seed(self) -> int:
        """The dice's seed."""
        return self.cubeless.seed

    @property
    def policy(self) -> str:
        """The name of the policy of both sides (its probabilities made the cube decisions)."""
        return self.cubeless.policy

    @property
    def decision(self) -> CubeDecision | None:
        """The result as a :class:`~bgcore.cube.CubeDecision` (None when the player on roll may not double)."""
        if self.double_take is None or self.double_pass is None or self.response is None:
            return None
        return CubeDecision(
            self.no_double, self.double_take, self.double_pass, self.best, self.action, self.response, self.mwc
        )

    def _rows(self) -> list[tuple[str, float, float | None]]:
        rows: list[tuple[str, float, float | None]] = [("no double", self.no_double, self.no_double_stderr)]
        if self.double_take is not None and self.double_pass is not None:
            rows.append(("double/take", self.double_take, self.double_take_stderr))
            rows.append(("double/pass", self.double_pass, None))
        return rows

    def __str__(self) -> str:
        unit = "match winning chances" if self.mwc else "equities per unit of the cube"
        lines = [
            f"cubeful rollout of {self.games:,} games, {self.policy} for both sides, seed {self.seed} "
            f"({unit}, ± standard error)"
        ]
        sign = "" if self.mwc else "+"
        for name, value, stderr in self._rows():
            text = f"{name:>22}  {value:{sign}8.5f}"
            if stderr is not None:
                lo, hi = interval95(value, stderr)
                text += f" ± {stderr:.5f}   95%: {lo:{sign}.5f} to {hi:{sign}.5f}"
            lines.append(text)
        if self.double_take is not None and self.take_gain_stderr is not None:
            gain = self.double_take - self.no_double
            lines.append(f"{'double/take - no double':>22}  {gain:+8.5f} ± {self.take_gain_stderr:.5f}")
        lines.append(f"{'cubeless equity':>22}  {self.cubeless.equity:+8.5f} ± {self.cubeless.equity_stderr:.5f}")
        lines.append(f"{'proper cube action':>22}  {self.action.text}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        values = ", ".join(f"{name} {value:.5f}" for name, value, _ in self._rows())
        return (
            f"<CubefulRolloutResult of {self.games:,} games, {self.policy}, seed {self.seed}: {values}: "
            f"{self.action.text}>"
        )


def at_most(value: int, what: str, high: int, said: str) -> int:
    """``value`` when it is at most ``high`` (``said`` in words), else a
    ValueError naming ``what``: the upper bound of a count from outside,
    checked before the engine takes it into a C integer."""
    if value > high:
        raise ValueError(f"{what} must be at most {said}, not {value}")
    return value


#: The normal distribution's two-sided 95% quantile.
_Z95 = 1.959963984540054


def interval95(estimate: float, stderr: float) -> tuple[float, float]:
    """The 95% interval of an estimate with its standard error (normal): ``estimate ± 1.96 stderr``.

    >>> [round(x, 4) for x in interval95(0.5, 0.01)]
    [0.4804, 0.5196]
    """
    return estimate - _Z95 * stderr, estimate + _Z95 * stderr


@dataclass(frozen=True)
class _Spec:
    """What every task of a rollout needs (picklable, for executors)."""

    board: bytes
    checkers: int
    seed: int
    policy: Policy
    truncate: int
    evaluator: Evaluator | str | None
    stratify: bool
    in_flight: int
    threads: int
    acey_deucey: bool = False  # board is acey-deucey's 28 slots: random games of _acey
    cube: _Cube | None = None  # a cubeful rollout's


@dataclass(frozen=True)
class _Cube:
    """A cubeful rollout's cube: the engine's rules and branches (no double;
    double/take when the player on roll may double), the start's cube state
    as bg_cube_state's seven ints, and for a match the score that turns
    points into match winning chances."""

    rules: tuple[int, int, int, int, int, int, int]
    root: tuple[tuple[int, int], ...]
    state: tuple[int, int, int, int, int, int, int]
    match: Any = None  # met's _Score of the player on roll, cube 1


def _first_rolls(seed: int, first: int, count: int) -> np.ndarray:
    """The stratum of each of games first .. first + count - 1 (first a multiple of BLOCK)."""
    blocks = [_engine.strata(seed, (first + s) // BLOCK) for s in range(0, count, BLOCK)]
    return np.concatenate(blocks)[:count] if blocks else np.zeros(0, dtype=np.int16)


def _acey_games(spec: _Spec, first: int, count: int) -> np.ndarray:
    """The outcomes of acey-deucey games first .. first + count - 1, played on
    ``spec.threads`` threads (each game's dice are its own: the split does
    not change them)."""
    strata = _first_rolls(spec.seed, first, count) if spec.stratify else None
    cuts = [count * k // spec.threads for k in range(spec.threads + 1)]

    def part(k: int) -> np.ndarray:
        lo, hi = cuts[k], cuts[k + 1]
        rolls = None if strata is None else strata[lo:hi]
        return _acey.random_games(spec.board, spec.seed, first + lo, hi - lo, rolls)

    if spec.threads == 1:
        return part(0)
    with ThreadPoolExecutor(spec.threads) as pool:
        return np.concatenate(list(pool.map(part, range(spec.threads))))


def _cube_evaluator(policy: Policy, checkers: int) -> NativeEvaluator | Evaluator | None:
    """The evaluator behind an evaluator policy, whose probabilities make its
    cube decisions (a native one runs in C); None for another policy."""
    engine = for_engine(policy, checkers)
    if isinstance(engine, NativeEvaluator):
        return engine
    if isinstance(engine, Greedy):
        return evaluator_for_engine(engine.evaluator, checkers)
    return None


def _values(points: np.ndarray, cube: _Cube) -> np.ndarray:
    """Each branch's points for the player on roll as its value: per unit of
    the cube at the start (money), or the match winning chance after the game."""
    if cube.match is None:
        return points / cube.state[2]
    values = np.empty(points.shape)
    for k in np.unique(points):
        values[points == k] = _after(cube.match, abs(int(k)), k > 0)
    return values


def _play(spec: _Spec, first: int, count: int) -> _Stats:
    """Games first .. first + count - 1 of a rollout, as block statistics
    (of the five outputs, then in a cubeful rollout each branch's value)."""
    if spec.acey_deucey:
        return _block_stats(_acey_games(spec, first, count), first, spec.seed, spec.stratify)
    policy = for_engine(spec.policy, spec.checkers)
    if spec.cube is not None:
        theory = _cube_evaluator(spec.policy, spec.checkers)
        pre, post = met_arrays()
        y, _, points = _engine.play_cubeful(
            spec.board,
            spec.checkers,
            spec.seed,
            first,
            count,
            (policy, policy),
            (theory, theory),
            pre,
            post,
            rules=spec.cube.rules,
            root=spec.cube.root,
            stratify=spec.stratify,
            lanes=spec.in_flight,
            threads=spec.threads,
        )
        return _block_stats(np.hstack([y, _values(points, spec.cube)]), first, spec.seed, spec.stratify)
    y, _, _ = _engine.play_games(
        spec.board,
        spec.checkers,
        spec.seed,
        first,
        count,
        (policy, policy),
        truncate=spec.truncate,
        evaluator=evaluator_for_engine(spec.evaluator, spec.checkers),
        stratify=spec.stratify,
        lanes=spec.in_flight,
        threads=spec.threads,
    )
    return _block_stats(y, first, spec.seed, spec.stratify)


def _start_position(start: object) -> tuple[Position, Game | None]:
    from .game import Game

    if isinstance(start, Position):
        return start, None
    if not isinstance(start, Game):
        raise TypeError(f"a rollout starts from a Position or a Game, not {type(start).__name__}")
    if start.is_over():
        raise IllegalActionError("the game is over: there is nothing to roll out")
    if start.opening:
        raise IllegalActionError("the game has not begun: roll out a Position, or a Game after the opening roll")
    if start.dice is not None or start.doubled or start.resigned is not None:
        raise IllegalActionError("a rollout starts before the roll: this game has rolled, or awaits an answer")
    return start.position, start


def _chunks(games: int, blocks_per_chunk: int) -> Iterator[tuple[int, int]]:
    step = blocks_per_chunk * BLOCK
    for first in range(0, games, step):
        yield first, min(step, games - first)


def _cube_spec(position: Position, game: Game | None, policy: Policy) -> _Cube:
    """The cube of a cubeful rollout of ``position`` (money, the cube
    centred) or ``game`` (its cube and score), checked."""
    if _cube_evaluator(policy, position.checkers) is None:
        raise ValueError(
            "a cubeful rollout needs an evaluator as its policy (a network, 'wildbg' or greedy(evaluator)), whose "
            f"probabilities make the cube decisions; {policy_name(policy)!r} has none"
        )
    if position.checkers != CHECKERS:
        raise ValueError(f"a cubeful rollout plays boards of {CHECKERS} checkers a side, not {position.checkers}")
    if game is None:
        state, match = _cube_state(CubeInfo()), None
    else:
        if not game.cube_enabled:
            raise ValueError("this game is played without the doubling cube: roll it out with cube=False")
        state = _cube_state(game)
        match = _score(game.match_length, game.score, 1, game.on_roll, game.crawford) if game.match_length else None
    away, opponent_away, cube, owner, crawford, jacoby, beavers = state
    limit = CUBE_LIMIT if game is None or game.max_cube is None else game.max_cube
    rules = (game.match_length if game is not None else 0, away, opponent_away, crawford, jacoby, beavers, limit)
    no_double = (cube, owner)  # the player on roll is the engine's player 0, as the state's owner says
    root: tuple[tuple[int, int], ...] = (no_double,)
    if _engine.may_double(rules, no_double, 0):
        root += ((2 * cube, 1),)
    return _Cube(rules, root, state, match)


@overload
def rollout(
    start: Position | Game,
    *,
    games: int = ...,
    policy: Policy = ...,
    seed: int = ...,
    truncate: int | None = ...,
    evaluator: Evaluator | str | None = ...,
    stratify: bool = ...,
    threads: int = ...,
    executor: Executor | Any | None = ...,
    progress: bool = ...,
    in_flight: int = ...,
    cube: Literal[False] = ...,
) -> RolloutResult: ...


@overload
def rollout(
    start: Position | Game,
    *,
    games: int = ...,
    policy: Policy = ...,
    seed: int = ...,
    truncate: int | None = ...,
    evaluator: Evaluator | str | None = ...,
    stratify: bool = ...,
    threads: int = ...,
    executor: Executor | Any | None = ...,
    progress: bool = ...,
    in_flight: int = ...,
    cube: Literal[True],
) -> CubefulRolloutResult: ...


@overload
def rollout(
    start: Position | Game,
    *,
    games: int = ...,
    policy: Policy = ...,
    seed: int = ...,
    truncate: int | None = ...,
    evaluator: Evaluator | str | None = ...,
    stratify: bool = ...,
    threads: int = ...,
    executor: Executor | Any | None = ...,
    progress: bool = ...,
    in_flight: int = ...,
    cube: bool,
) -> RolloutResult | CubefulRolloutResult: ...


def rollout(
    start: Position | Game,
    *,
    games: int = 1296,
    policy: Policy = "pubeval",
    seed: int = 0,
    truncate: int | None = None,
    evaluator: Evaluator | str | None = None,
    stratify: bool = True,
    threads: int = 1,
    executor: Executor | Any | None = None,
    progress: bool = False,
    in_flight: int = 256,
    cube: bool = False,
) -> RolloutResult | CubefulRolloutResult:
    """Roll out ``start``: play it to the end ``games`` times and average.

    ``start`` is a :class:`~bgcore.Position` (the player on roll, before the
    roll) or a :class:`~bgcore.Game` before its player's roll, whose score and
    cube give the match winning chance.  The games are cubeless; both sides
    play ``policy`` (see :mod:`bgcore.policy`).  An acey-deucey start (an
    :class:`~bgcore.acey.AceyDeuceyPosition`, or a game of that variant)
    plays the ``"random"`` policy, without truncation.

    ``truncate=n`` stops each game after n plies and scores it with
    ``evaluator`` (see :data:`bgcore.policy.Evaluator`).  ``stratify`` spreads
    the first two rolls over all 1,296 pairs (see the module docstring).
    ``threads`` native threads play at once; ``executor`` (any
    :class:`concurrent.futures.Executor`, or a ``dask.distributed.Client``)
    plays blocks of games on its workers instead, each with ``threads``
    threads: the result is the same to the last bit.  A Python policy or
    evaluator must then be picklable, and bgcore installed on the workers.
    ``progress`` shows a progress bar with games/s and the current equity.
    ``in_flight``: games each thread plays at once (a Python policy scores
    all their candidates in one call).

    ``cube=True`` rolls out the cube decision of the player on roll and
    returns a :class:`CubefulRolloutResult`: each game is played twice on
    the same board, once without a double now and once doubled and taken
    (when the player may double), each player doubling, taking, passing or
    beavering by gnubg's 0-ply cube theory (:mod:`bgcore.cube`) on the
    probabilities of ``policy``, which must be an evaluator (a network,
    ``"wildbg"`` or :func:`~bgcore.policy.greedy` of one); the moves are its
    cubeless greedy ones, so both branches and the cubeless rollout play the
    same checkers. A :class:`~bgcore.Game` gives its cube, score, Crawford
    game, Jacoby rule and beavers; a :class:`~bgcore.Position` is a money
    game with the cube centred; the cube goes up to the game's ``max_cube``.
    No truncation.

    The counts are bounded before any game is played: ``games`` at most
    :data:`MAX_GAMES`, ``threads`` 1 to 64, ``in_flight`` 1 to
    :data:`MAX_IN_FLIGHT`, ``truncate`` at most :data:`MAX_TRUNCATE`; a
    match longer than the match equity table covers is refused then too.
    """
    position, game = _start_position(start)
    games = at_most(check_int(games, "games", 1), "games", MAX_GAMES, "2**63 - 1")
    seed = check_int(seed, "seed", 0, _MAX_SEED)
    threads = check_int(threads, "threads", 1, 64)
    in_flight = at_most(check_int(in_flight, "in_flight", 1), "in_flight", MAX_IN_FLIGHT, f"{MAX_IN_FLIGHT:,}")
    plies = -1 if truncate is None else check_int(truncate, "truncate", 0)
    plies = at_most(plies, "truncate", MAX_TRUNCATE, "2**31 - 1 plies")
    if position.is_game_over():
        raise IllegalActionError("the position is a finished game: there is nothing to roll out")
    acey_deucey = isinstance(position, AceyDeuceyPosition)
    if acey_deucey and (policy != "random" or truncate is not None):
        raise ValueError("an acey-deucey rollout plays the random policy to the end: policy='random', no truncate")
    if game is not None and game.match_length:
        _linear(game.mwc)  # a match the equity table does not cover fails here, before any game is played
    cube_spec = None
    if cube:
        if truncate is not None or acey_deucey:
            raise ValueError("a cubeful rollout plays standard games to the end: no truncate, no acey-deucey")
        cube_spec = _cube_spec(position, game, check_policy(policy))
    spec = _Spec(
        cube=cube_spec,
        acey_deucey=acey_deucey,
        board=position.to_array().tobytes(),
        checkers=position.checkers,
        seed=seed,
        policy=check_policy(policy),
        truncate=plies,
        evaluator=check_evaluator(evaluator, truncate),
        stratify=bool(stratify),
        in_flight=in_flight,
        threads=threads,
    )
    parts: list[_Stats] = []
    bar = _Progress(games, spec.stratify) if progress else None
    try:
        if executor is None:
            for first, count in _chunks(games, 2 * threads):
                parts.append(_play(spec, first, count))
                if bar is not None:
                    bar.update(parts)
        else:
            nblocks = -(-games // BLOCK)
            futures = [executor.submit(_play, spec, first, count) for first, count in _chunks(games, -(-nblocks // 64))]
            for future in futures:
                parts.append(future.result())
                if bar is not None:
                    bar.update(parts)
    finally:
        if bar is not None:
            bar.close()
    if cube_spec is not None:
        return _cubeful_result(_merge(parts), spec, cube_spec, game)
    return _result(_merge(parts), spec, game)


class _Progress:
    """A rich progress bar on stderr: games, games/s and the equity so far,
    fitted to the terminal's width at each update (see :func:`_progress_line`)."""

    def __init__(self, games: int, stratify: bool) -> None:
        from rich.console import Console
        from rich.progress import Progress, TextColumn

        self.stratify = stratify
        self.console = Console(stderr=True)
        self.progress = Progress(TextColumn("{task.fields[line]}"), console=self.console)
        self.task = self.progress.add_task("rollout", total=games, line="")
        self.show(0, {"equity": "-", "rate": "-"})
        self.progress.start()

    def update(self, parts: list[_Stats]) -> None:
        stats = _merge(parts)
        mean, cov = _estimate(stats, self.stratify)
        done = int(stats.games.sum())
        elapsed = self.progress.tasks[0].elapsed or 0.0
        rate = f"{done / elapsed:,.0f}" if elapsed > 0 else "-"
        if len(mean) > 5:  # a cubeful rollout's: no double's value
            equity = f"{mean[5]:+.4f} ± {math.sqrt(max(cov[5, 5], 0.0)):.4f}"
        else:
            equity = f"{_EQUITY @ mean - 1:+.4f} ± {_sd(cov, _EQUITY):.4f}"
        self.progress.update(self.task, completed=done)
        self.show(done, {"equity": equity, "rate": rate})

    def show(self, done: int, fields: dict[str, str]) -> None:
        """The line of ``done`` games, at the console's width now, with its bar (rich markup)."""
        task = self.progress.tasks[0]
        total = int(task.total or 0)
        width = self.console.width - 1  # a line as wide as the terminal wraps on some terminals
        line, bar = _progress_line(width, done, total, fields, task.time_remaining if done else None)
        if bar:
            filled = bar * done // max(total, 1)
            line += f"  [bar.complete]{'━' * filled}[/][bar.back]{'━' * (bar - filled)}[/]"
        self.progress.update(self.task, line=line)

    def close(self) -> None:
        self.progress.stop()


def _progress_line(width: int, done: int, total: int, fields: dict[str, Any], left: float | None) -> tuple[str, int]:
    """The text of a rollout's progress line, at most ``width`` characters
    when it can be, and the width left for the bar (0: none).  The games done
    and their total come first and always; then the equity, the rate and the
    time left while they fit; the bar takes what remains."""
    count = f"{done:,}/{total:,}"
    heads = (f"rollout {count} games", f"{count} games", count)
    line = next((h for h in heads if len(h) <= width), heads[-1])
    eta = "" if left is None else f"{int(left) // 3600}:{int(left) // 60 % 60:02d}:{int(left) % 60:02d} left"
    for part in (f"equity {fields['equity']}", f"{fields['rate']} games/s", eta):
        if part and len(line) + 2 + len(part) <= width:
            line += "  " + part
    room = width - len(line) - 2
    return line, min(room, 30) if room >= 10 else 0


def _linear(f: Any) -> tuple[float, np.ndarray]:
    """f (affine in the five outputs, defined on valid ones) as constant + gradient."""
    base = f((0.0, 0.0, 0.0, 0.0, 0.0))
    win = f((1.0, 0.0, 0.0, 0.0, 0.0))
    wg = f((1.0, 1.0, 0.0, 0.0, 0.0))
    lg = f((0.0, 0.0, 0.0, 1.0, 0.0))
    grad = [win - base, wg - win, f((1.0, 1.0, 1.0, 0.0, 0.0)) - wg, lg - base, f((0.0, 0.0, 0.0, 1.0, 1.0)) - lg]
    return base, np.array(grad)


def _sd(cov: np.ndarray, a: np.ndarray) -> float:
    v = float(a @ cov @ a)
    return math.sqrt(max(v, 0.0)) if not math.isnan(v) else math.nan


def _result(stats: _Stats, spec: _Spec, game: Game | None) -> RolloutResult:
    mean, cov = _estimate(stats, spec.stratify)
    stderr = [math.sqrt(max(v, 0.0)) if not math.isnan(v) else math.nan for v in np.diag(cov)]
    mwc = mwc_stderr = None
    equity, equity_stderr = float(_EQUITY @ mean - 1.0), _sd(cov, _EQUITY)
    if game is not None:  # each result counted as the game scores it
        base, grad = _linear(game.cubeless_equity)
        equity, equity_stderr = float(base + grad @ mean), _sd(cov, grad)
    if game is not None and game.match_length:
        base, grad = _linear(game.mwc)
        mwc, mwc_stderr = float(base + grad @ mean), _sd(cov, grad)
    p = tuple(float(v) for v in mean)
    return RolloutResult(
        probabilities=p,  # type: ignore[arg-type]
        stderr=tuple(stderr),  # type: ignore[arg-type]
        equity=equity,
        equity_stderr=equity_stderr,
        games=int(stats.games.sum()),
        seed=spec.seed,
        policy=policy_name(spec.policy),
        mwc=mwc,
        mwc_stderr=mwc_stderr,
    )


def _columns(stats: _Stats, k: int) -> _Stats:
    """The statistics of the first k outputs."""
    return _Stats(stats.games, stats.sums[:, :k], stats.squares[:, :k, :k], stats.pairs[:, :k, :k])


def _cubeful_result(stats: _Stats, spec: _Spec, cube: _Cube, game: Game | None) -> CubefulRolloutResult:
    cubeless = _result(_columns(stats, 5), spec, game)
    mean, cov = _estimate(stats, spec.stratify)
    unit = np.eye(len(mean))
    no_double, no_double_stderr = float(mean[5]), _sd(cov, unit[5])
    double_take = double_take_stderr = double_pass = gain_stderr = None
    values = (no_double, no_double, no_double)  # no double to judge: the decision is the cube's state
    if len(cube.root) == 2:
        double_take, double_take_stderr = float(mean[6]), _sd(cov, unit[6])
        gain_stderr = _sd(cov, unit[6] - unit[5])
        double_pass = 1.0 if cube.match is None else _after(cube.match, cube.state[2], True)
        values = (no_double, double_take, double_pass)
    pre, post = met_arrays()
    win, win_gammon = cubeless.probabilities[0], cubeless.probabilities[1] > 0.0
    best, action, response = _engine.cube_judge(values, cube.state, win, win_gammon, pre, post)
    return CubefulRolloutResult(
        no_double=no_double,
        no_double_stderr=no_double_stderr,
        double_take=double_take,
        double_take_stderr=double_take_stderr,
        double_pass=double_pass,
        take_gain_stderr=gain_stderr,
        best=float(best),
        action=CubeAction(action),
        response=_RESPONSES[response] if double_take is not None else None,
        mwc=cube.match is not None,
        cubeless=cubeless,
    )
