"""Workloads of a caller that asks for one thing at a time, as a bot does.

On an evenly spread subset of the corpus (all 21 rolls of each position),
each workload makes one call per generation, from a plain Python loop whose
own cost is part of the figure:

* ``batch.generate`` and ``batch.count`` with one row per call (int8 boards
  and uint8 dice of shape (1, 26) and (1, 2), views of the corpus arrays);
* ``list(Position.legal_moves(roll))``: every Move object built;
* ``Position.children(roll)``: every resulting position, no Move built;
* ``Position.play(move)`` of one legal move per generation, as
  ``legal_moves`` gave it, and rebuilt with ``Move(...)`` (a move that does
  not come from this position's ``legal_moves`` is checked by generating the
  roll again).

Each check its total against ``_batch.count_many`` on the same subset
(:class:`timing.CountMismatch` otherwise).  :func:`call_lines` gives each
one's median per call (or per move or position) for the report.

>>> from corpus import build_corpus
>>> workloads = call_workloads(build_corpus(20), 4)
one-call subset: 4 positions spread over the corpus x 21 rolls = 84 calls of each, ... results
>>> [w.generations for w in workloads]
[84, 84, 84, 84, 84, 84]
>>> for w in workloads:
...     w.measure()
>>> len(call_lines(workloads))
6
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bgcore import Move, Position, batch
from corpus import Corpus, count_bgcore
from timing import CountMismatch, Workload

__all__ = ["call_workloads", "call_lines"]

GENERATE = "bgcore batch.generate, 1 row a call"
COUNT = "bgcore batch.count, 1 row a call"
LIST = "bgcore list(Position.legal_moves)"
CHILDREN = "bgcore Position.children"
PLAY = "bgcore Position.play (a move of its legal_moves)"
PLAY_REBUILT = "bgcore Position.play (the move rebuilt with Move())"


def call_workloads(corpus: Corpus, positions: int) -> list[Workload]:
    """The workloads above, on a subset of ``positions`` positions of ``corpus``."""
    sub = corpus.subset(positions)
    expected = count_bgcore(sub)
    rows = [(sub.boards[i : i + 1], sub.dice[i : i + 1]) for i in range(len(sub))]
    pairs = list(sub.generations())
    # One legal move per generation, the middle one; a lost turn plays the empty move.
    plays: list[tuple[Position, Move]] = []
    for pos, roll in pairs:
        moves = pos.legal_moves(roll)
        plays.append((pos, moves[len(moves) // 2]))
    rebuilt = [(pos, Move(m.steps, m.dice, m.hits)) for pos, m in plays]

    def generate_rows() -> int:
        total = 0
        for b, d in rows:
            total += len(batch.generate(b, d)[0])
        return total

    def count_rows() -> int:
        return int(np.concatenate([batch.count(b, d) for b, d in rows]).sum())

    def list_moves() -> int:
        total = 0
        for pos, roll in pairs:
            total += len(list(pos.legal_moves(roll)))
        return total

    def children() -> int:
        total = 0
        for pos, roll in pairs:
            total += len(pos.children(roll))
        return total

    def play(calls: Sequence[tuple[Position, Move]]) -> int:
        for pos, move in calls:
            pos.play(move)
        return len(calls)

    workloads = [
        Workload(GENERATE, generate_rows, len(sub), expected),
        Workload(COUNT, count_rows, len(sub), expected),
        Workload(LIST, list_moves, len(sub), expected),
        Workload(CHILDREN, children, len(sub), expected),
        Workload(PLAY, lambda: play(plays), len(sub), len(plays)),
        Workload(PLAY_REBUILT, lambda: play(rebuilt), len(sub), len(rebuilt)),
    ]
    for w in workloads:
        got = w.run()
        if got != w.results:
            raise CountMismatch(f"{w.name} counts {got:,}, expected {w.results:,}")
    for (pos, _), (_, move), (_, again) in zip(pairs, plays, rebuilt, strict=True):
        if pos.play(move) != pos.play(again):
            raise CountMismatch(f"{move} and its rebuilt copy lead to different positions")
    print(
        f"one-call subset: {len(sub.positions):,} positions spread over the corpus x {len(sub.rolls)} rolls = "
        f"{len(sub):,} calls of each, {expected:,} results"
    )
    return workloads


def call_lines(workloads: Sequence[Workload]) -> list[str]:
    """Each workload's median cost per call (and per move or position where it builds many)."""
    by_name = {w.name: w for w in workloads}
    lines = []
    for name in (GENERATE, COUNT, PLAY, PLAY_REBUILT):
        if name in by_name:
            w = by_name[name]
            lines.append(f"{name[len('bgcore ') :]}: {1e6 * w.median / w.generations:.2f} µs a call")
    for name, what in ((LIST, "moves"), (CHILDREN, "positions")):
        if name in by_name:
            w = by_name[name]
            lines.append(
                f"{name[len('bgcore ') :]}: {w.results / w.median / 1e6:.2f} M {what}/s "
                f"({1e6 * w.median / w.generations:.2f} µs a call, {w.results / w.generations:.1f} {what} a call)"
            )
    return lines
