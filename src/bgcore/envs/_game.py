"""The game logic the environments share, over numpy arrays of boards.

Boards are int8 rows of 26 (:meth:`bgcore.Position.to_array`'s convention).
Nothing here loops over boards in Python: one call handles every board of a
vector environment at once, and a single environment passes one row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .. import batch, encode
from ..dice import Dice
from ..movegen import MAX_RESULTS
from ..policy import Policy, check_policy, scores
from ..position import Position
from ..rules import CHECKERS

#: The size of the action space: bgcore's generator holds at most this many
#: distinct results of one roll (``bgcore.movegen.MAX_RESULTS``, its fixed
#: capacity; a roll with more would raise an error rather than be cut short),
#: so every legal move has an index below it.  The most found for one roll
#: is 2,226 (a 1-1 found by a local search); self-play rarely passes 1,000.
ACTIONS: int = MAX_RESULTS

#: The observation kinds: TD-Gammon's 198 inputs or the raw 26 counts.
OBSERVATIONS = ("tesauro", "board")

#: The default reward of an illegal action, which ends the episode: the
#: worst a game can score, so that no illegal action pays better than a legal one.
ILLEGAL_REWARD = -3.0

_INITIAL = Position.initial().to_array()
_ROWS = np.arange(26)


def flip(boards: np.ndarray) -> np.ndarray:
    """The same boards seen from the other side (a new C-contiguous int8 array)."""
    out: np.ndarray = np.negative(boards[..., ::-1], dtype=np.int8, order="C")
    return out


def points(after: np.ndarray) -> np.ndarray:
    """The points each board's mover has won (int64, (m,); 0 while the game goes on).

    ``after`` (m, 26) holds boards just after the mover's move, before the
    flip (the children of :func:`bgcore.batch.generate` with ``flip=False``):
    1 for a single game, 2 for a gammon (the loser has borne no checker off),
    3 for a backgammon (a gammon with a loser's checker on the bar or in the
    winner's home board), as :meth:`bgcore.Position.result` scores it.
    """
    out = np.zeros(len(after), dtype=np.int64)
    # The mover has no checker left on the board.  (A max down the columns of
    # the transposed copy runs across boards, several times faster than
    # one 26-byte reduction per board.)
    won = np.flatnonzero(np.ascontiguousarray(after.T).max(axis=0) <= 0)
    if len(won):
        b = after[won]  # only the loser's checkers are left: all <= 0
        gammon = b.sum(axis=1, dtype=np.int64) == -CHECKERS
        in_home = b[:, :7].min(axis=1) < 0  # slot 0: the loser's bar; 1-6: the winner's home
        out[won] = 1 + gammon * (1 + in_home)
    return out


def points_one(after: np.ndarray) -> int:
    """:func:`points` of one board (shape (26,)), with a quick exit while the game goes on."""
    if after.max() > 0:
        return 0
    return int(points(after[None, :])[0])


def choose_one(policy: Policy, children: np.ndarray, rng: np.random.Generator) -> int:
    """:func:`choose` for the children of one board: the row its policy plays."""
    if len(children) == 1:
        return 0
    if isinstance(policy, str) and policy == "random":
        return int(rng.integers(0, len(children)))
    return int(np.argmax(scores(policy, children, np.array([0, len(children)], dtype=np.int64))))


def choose(policy: Policy, children: np.ndarray, offsets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The row of ``children`` each board's policy plays (int64, one per board).

    ``children`` and ``offsets`` are :func:`bgcore.batch.generate`'s (every
    board has at least one child); ``"random"`` draws from ``rng``, uniformly
    over each board's children; the other policies play the highest score,
    the first of equal ones, as bgcore's game engine does.
    """
    starts = offsets[:-1]
    counts = offsets[1:] - starts
    if isinstance(policy, str) and policy == "random":
        picks: np.ndarray = starts + (rng.random(len(counts)) * counts).astype(np.int64)
        return picks
    score = scores(policy, children, offsets)
    is_best = score == np.repeat(np.maximum.reduceat(score, starts), counts)
    rows: np.ndarray = np.flatnonzero(is_best)
    if len(rows) == len(counts):  # one best child per board (each has at least one): the usual case
        return rows
    rows = np.where(is_best, np.arange(len(score)), len(score))
    first: np.ndarray = np.minimum.reduceat(rows, starts)
    return first


def seeded_dice(seed: int | None, dice: Dice | None, rng: np.random.Generator) -> Dice:
    """The dice of a ``reset(seed=...)``: ``Dice(seed)`` for a seed, else the
    dice already in use, else dice seeded from the env's ``np_random``."""
    if seed is not None:
        return Dice(seed)
    if dice is not None:
        return dice
    return Dice(int(rng.integers(2**63)))


def opening_rolls(dice: Dice, n: int) -> np.ndarray:
    """n opening rolls (uint8, (n, 2)): each player rolls one die, again while
    they tie; column 0 is the agent's die, column 1 the opponent's."""
    rolls = dice.rolls(n)
    tied = np.flatnonzero(rolls[:, 0] == rolls[:, 1])
    while len(tied):
        rolls[tied] = dice.rolls(len(tied))
        tied = tied[rolls[tied, 0] == rolls[tied, 1]]
    return rolls


class _Openings:
    """The starting position's children for each of the 30 opening rolls
    (computed once): row ``index[d1, d2]`` of ``offsets`` bounds roll d1-d2's."""

    def __init__(self) -> None:
        rolls = np.array([(a, b) for a in range(1, 7) for b in range(1, 7) if a != b], dtype=np.uint8)
        self.rolls = rolls
        self.children, self.offsets = batch.generate(initial_boards(len(rolls)), rolls)
        self.index = np.zeros((7, 7), dtype=np.int64)
        self.index[rolls[:, 0], rolls[:, 1]] = np.arange(len(rolls))
        self.best: dict[str, np.ndarray] = {}

    def chosen(self, policy: str) -> np.ndarray:
        """A built-in scoring policy's choice for each roll (rows of ``children``)."""
        rows = self.best.get(policy)
        if rows is None:
            rows = self.best[policy] = choose(policy, self.children, self.offsets, np.random.default_rng(0))
        return rows


_OPENINGS: list[_Openings] = []


def opening_moves(policy: Policy, rolls: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The boards after the opponent's opening moves (its side, before the flip):
    ``policy`` plays each of ``rolls`` (non-doubles) from the starting position.

    The start's children of every opening roll are generated once; a built-in
    scoring policy's choice among them is fixed, and ``"random"`` picks one
    uniformly (from ``rng``), so that neither calls the generator again.  A
    callable is called as for any other move.
    """
    if not isinstance(policy, str):
        children, offsets = batch.generate(initial_boards(len(rolls)), rolls)
        picked: np.ndarray = children[choose(policy, children, offsets, rng)]
        return picked
    if not _OPENINGS:
        _OPENINGS.append(_Openings())
    table = _OPENINGS[0]
    which = table.index[rolls[:, 0], rolls[:, 1]]
    if policy == "random":
        starts = table.offsets[which]
        rows = starts + (rng.random(len(which)) * (table.offsets[which + 1] - starts)).astype(np.int64)
    else:
        rows = table.chosen(policy)[which]
    moved: np.ndarray = table.children[rows]
    return moved


def initial_boards(n: int) -> np.ndarray:
    """n copies of the standard starting position (int8, (n, 26))."""
    return np.repeat(_INITIAL[None, :], n, axis=0)


def observe(boards: np.ndarray, kind: str, *, opponent_on_roll: bool = False) -> npt.NDArray[Any]:
    """The observations of boards seen by the agent: TD-Gammon's inputs
    (float32) or a copy of the counts (int8)."""
    if kind == "tesauro":
        return encode.tesauro198(boards, opponent_on_roll=opponent_on_roll)
    copy: npt.NDArray[Any] = np.array(boards, dtype=np.int8)
    return copy


# Every prefix mask at once in 8 KiB: row k of this read-only view (4097 rows
# of 4096, each starting one byte earlier in 4096 ones then 4096 zeros) has k
# leading ones.  Indexing it with the counts copies each row from the cache.
_ONES_THEN_ZEROS = np.concatenate([np.ones(ACTIONS, dtype=np.int8), np.zeros(ACTIONS, dtype=np.int8)])
_PREFIXES = np.lib.stride_tricks.as_strided(
    _ONES_THEN_ZEROS[ACTIONS:], shape=(ACTIONS + 1, ACTIONS), strides=(-1, 1), writeable=False
)


def prefix_mask(counts: np.ndarray) -> np.ndarray:
    """The action masks (int8, (n, ACTIONS), a new array) of boards with
    ``counts`` legal moves: row i starts with ``counts[i]`` ones."""
    mask: np.ndarray = _PREFIXES[counts]
    return mask


def check_observation(observation: object) -> str:
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be 'tesauro' or 'board', not {observation!r}")
    return str(observation)


def check_opponent(opponent: Any) -> Policy:
    return check_policy(opponent, "opponent")


def generate(boards: np.ndarray, dice: np.ndarray, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The children (the mover's view, before the flip) and offsets of boards and rolls."""
    return batch.generate(boards, dice, threads=threads)
