"""The fixed, seeded benchmark corpus of (board, dice) generations.

Positions come from seeded random self-play (:func:`bgcore.selfplay.selfplay_positions`),
so they cover a game's phases in realistic proportions; each position is
combined with all 21 rolls of :data:`bgcore.rules.ROLLS`.  The default
2,000 positions give 42,000 generations.  Generation ``i`` is position
``i // 21`` with roll ``i % 21``; every packed form below follows that order.

>>> c = build_corpus(10)
>>> len(c), len(c.boards_bytes), len(c.dice_bytes)
(210, 5460, 420)
>>> c.dice_bytes[:6] == bytes([1, 1, 2, 1, 2, 2])
True
>>> c.boards.shape, c.dice.shape
((210, 26), (210, 2))
>>> count_bgcore(c) == count_python_api(c.positions) == count_batch(c, threads=2) == generate_batch(c)
True

The workloads shared by the scripts and ``test_bench_movegen.py`` live here
too: :func:`count_bgcore` (bgcore's native loop ``_batch.count_many``),
:func:`count_batch` and :func:`generate_batch` (the numpy API
:mod:`bgcore.batch`) and :func:`count_python_api` (the public
``Position.legal_moves`` API).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bgcore import Position, _batch, batch
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

__all__ = [
    "SEED",
    "DEFAULT_POSITIONS",
    "PHASES",
    "Roll",
    "Corpus",
    "build_corpus",
    "phase",
    "phase_counts",
    "format_phases",
    "count_bgcore",
    "count_batch",
    "generate_batch",
    "count_python_api",
]

#: Seed of the self-play games; fixed so every run times the same corpus.
SEED = 20240611
#: Positions in the default corpus (times 21 rolls = 42,000 generations).
DEFAULT_POSITIONS = 2000
#: Game phases, in the order they are reported (see :func:`phase`).
PHASES: tuple[str, ...] = ("contact", "race", "bear-off", "on the bar")

Roll = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Corpus:
    """``positions`` times ``rolls``: the generations a benchmark runs.

    The packed forms are built on first use and cached.
    """

    positions: tuple[Position, ...]
    seed: int
    rolls: tuple[Roll, ...] = ROLLS

    def __len__(self) -> int:
        """The number of generations (positions times rolls)."""
        return len(self.positions) * len(self.rolls)

    def generations(self) -> Iterator[tuple[Position, Roll]]:
        """Every (position, roll) pair, in corpus order."""
        for pos in self.positions:
            for roll in self.rolls:
                yield pos, roll

    @cached_property
    def boards_bytes(self) -> bytes:
        """One board per generation: 26 signed bytes each, back to back."""
        return b"".join(pos._bytes * len(self.rolls) for pos in self.positions)

    @cached_property
    def dice_bytes(self) -> bytes:
        """Two dice per generation, higher die first, back to back."""
        return bytes(d for roll in self.rolls for d in roll) * len(self.positions)

    @cached_property
    def boards(self) -> np.ndarray:
        """:attr:`boards_bytes` as a read-only int8 (n, 26) array, the rows of :mod:`bgcore.batch`."""
        return np.frombuffer(self.boards_bytes, dtype=np.int8).reshape(-1, 26)

    @cached_property
    def dice(self) -> np.ndarray:
        """:attr:`dice_bytes` as a read-only uint8 (n, 2) array."""
        return np.frombuffer(self.dice_bytes, dtype=np.uint8).reshape(-1, 2)

    def subset(self, positions: int) -> Corpus:
        """A corpus of at most ``positions`` positions spread evenly over this one (all rolls).

        Sampling every k-th position keeps the phase mix of the whole corpus.
        """
        step = max(1, len(self.positions) // max(positions, 1))
        return Corpus(self.positions[::step][:positions], self.seed, self.rolls)


@functools.lru_cache(maxsize=8)
def build_corpus(positions: int = DEFAULT_POSITIONS, seed: int = SEED) -> Corpus:
    """The corpus of ``positions`` self-play positions from ``seed`` (cached per arguments).

    Half come from heuristic self-play (made points, primes, races and
    bear-offs, about 11 results per generation) and half from random self-play
    (loose, hitting games, about 21): together about 16 results per
    generation, the figure of real self-play corpora.
    """
    half = positions // 2
    mix = selfplay_positions(half, seed=seed, policy="heuristic")
    mix += selfplay_positions(positions - half, seed=seed + 1)
    return Corpus(tuple(mix), seed)


def phase(board: Sequence[int]) -> str:
    """The game phase of a board (player on roll's view), one of :data:`PHASES`.

    ``on the bar``: a checker of either side is on the bar; ``contact``: the
    sides can still hit or block each other; ``race``: no contact left;
    ``bear-off``: no contact and the player on roll has every checker home.

    >>> phase(Position.initial().board)
    'contact'
    >>> phase([0] * 6 + [15] + [0] * 12 + [-15] + [0] * 6)
    'bear-off'
    >>> phase([0] * 12 + [15] + [0] * 6 + [-15] + [0] * 6)
    'race'
    """
    if board[25] > 0 or board[0] < 0:
        return "on the bar"
    my_back = max((p for p in range(1, 25) if board[p] > 0), default=0)
    their_back = min((p for p in range(1, 25) if board[p] < 0), default=25)
    if my_back > their_back:
        return "contact"
    return "bear-off" if my_back <= 6 else "race"


def phase_counts(positions: Iterable[Position]) -> dict[str, int]:
    """How many of ``positions`` are in each phase, keyed in :data:`PHASES` order."""
    counts = dict.fromkeys(PHASES, 0)
    for pos in positions:
        counts[phase(pos.board)] += 1
    return counts


def format_phases(positions: Sequence[Position]) -> str:
    """One line: each phase's count and share of ``positions``."""
    total = max(len(positions), 1)
    return ", ".join(f"{name} {n:,} ({100 * n / total:.1f}%)" for name, n in phase_counts(positions).items())


def count_bgcore(corpus: Corpus) -> int:
    """Total results over the corpus with bgcore's native loop ``_batch.count_many`` (GIL released)."""
    return _batch.count_many(corpus.boards_bytes, corpus.dice_bytes)


def count_batch(corpus: Corpus, threads: int = 1) -> int:
    """Total results over the corpus with ``bgcore.batch.count`` (per-row counts, summed)."""
    return int(batch.count(corpus.boards, corpus.dice, threads=threads).sum())


def generate_batch(corpus: Corpus, threads: int = 1) -> int:
    """Total results over the corpus with ``bgcore.batch.generate`` (every child board built)."""
    children, _ = batch.generate(corpus.boards, corpus.dice, threads=threads)
    return len(children)


def count_python_api(positions: Iterable[Position], rolls: Sequence[Roll] = ROLLS) -> int:
    """Total results over ``positions`` times ``rolls`` through ``len(Position.legal_moves(roll))``."""
    return sum(len(pos.legal_moves(roll)) for pos in positions for roll in rolls)
