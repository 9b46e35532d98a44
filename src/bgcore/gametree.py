"""Perft (``bgcore.perft``): counting the leaves of the game tree, the move generator's acid test.

>>> from bgcore import Position
>>> perft(Position.initial(), 1)
447
>>> perft(Position.initial(), 1, weighted=True)  # the 36 ordered rolls
637

A deep walk takes long: depth 4 from the start counts some 66 billion
leaves (minutes), each depth several hundred times the one before.
``progress=True`` shows a progress bar on stderr over the positions after the
first ply, and a callable gets ``(done, total)`` of them about ten times a
second and once at the end; either way Ctrl-C stops the walk.

>>> seen = []
>>> perft(Position.initial(), 2, progress=lambda done, total: seen.append((done, total)))
202782
>>> seen[-1]
(447, 447)
"""

from __future__ import annotations

from collections.abc import Callable

import bgcore._acey as _acey
import bgcore._perft as _perft

from .acey import AceyDeuceyPosition
from .acey import perft_counts as acey_perft_counts
from .policy import check_int
from .position import Position
from .rules import ROLLS

__all__ = ["perft", "perft_counts", "Progress"]

#: What ``progress`` may be: False (quiet), True (a progress bar on stderr),
#: or ``callback(done, total)``: the positions after the first ply walked so far, and their number.
Progress = bool | Callable[[int, int], object]


def perft_counts(position: Position, depth: int, *, threads: int = 1, progress: Progress = False) -> tuple[int, int]:
    """(unweighted, weighted) perft of ``position`` from one walk of the tree.

    With ``threads`` (1 to 64) > 1 the positions after the first ply are
    shared among the calling thread and native threads of the pool, without
    the GIL; ``progress`` as for :func:`perft`.
    """
    if not isinstance(position, Position):
        raise TypeError(f"perft() takes a Position, not {type(position).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"depth must be an int, not {type(depth).__name__}")
    threads = check_int(threads, "threads", 1, _perft.MAX_THREADS)
    acey_deucey = isinstance(position, AceyDeuceyPosition)
    low, high = (1, _acey.MAX_PERFT_DEPTH) if acey_deucey else (0, _perft.MAX_DEPTH)
    if not low <= depth <= high:
        raise ValueError(f"depth must be {low} to {high}, not {depth}")
    if position.is_game_over():
        return 1, 1
    if progress is False or depth < 2:
        if acey_deucey:
            assert isinstance(position, AceyDeuceyPosition)
            return acey_perft_counts(position, depth, threads=threads)
        return _perft.perft(position._bytes, depth, threads)
    report = _Bar(depth) if progress is True else progress
    try:
        if acey_deucey:
            return _by_first_ply(position, depth, threads, report)
        # the pool's threads walk while this one reports (and Ctrl-C stops them)
        counts: tuple[int, int] = _perft.perft(position._bytes, depth, threads, report)
        return counts
    finally:
        if isinstance(report, _Bar):
            report.close()


def _by_first_ply(
    position: Position, depth: int, threads: int, report: Callable[[int, int], object]
) -> tuple[int, int]:
    """Perft as the sum of the subtrees below the first ply (acey-deucey's),
    reported after each: the same counts as one walk, in steps that Ctrl-C
    can stop."""
    subtrees: list[tuple[Position, int]] = []  # (the position after a first-ply move, 1 or 2 rolls)
    plain = weighted = 0
    for d1, d2 in ROLLS:
        rolls = 1 if d1 == d2 else 2
        for after in position.legal_moves((d2, d1)).positions():
            if after.is_game_over():
                plain += 1
                weighted += rolls
            else:
                subtrees.append((after, rolls))
    for done, (after, rolls) in enumerate(subtrees, 1):
        p, q = perft_counts(after, depth - 1, threads=threads)
        plain += p
        weighted += rolls * q
        report(done, len(subtrees))
    return plain, weighted


class _Bar:
    """A rich progress bar on stderr over the positions after the first ply,
    gone once the walk is done; on stderr that is not a terminal (a log), a
    line at each tenth of them instead."""

    def __init__(self, depth: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.depth = depth
        self.console = Console(stderr=True)
        self.progress = Progress(
            TextColumn(f"perft {depth}"),
            MofNCompleteColumn(),
            TextColumn("first-ply positions"),
            BarColumn(bar_width=None),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self.task = self.progress.add_task("perft", total=None)
        self.live = self.console.is_terminal
        self.tenths = 0  # the tenths of the walk written to a log
        if self.live:
            self.progress.start()

    def __call__(self, done: int, total: int) -> None:
        self.progress.update(self.task, completed=done, total=total)
        tenths = 10 * done // max(total, 1)
        if not self.live and tenths > self.tenths:
            self.tenths = tenths
            elapsed = self.progress.tasks[0].elapsed or 0.0
            self.console.print(
                f"perft {self.depth}: {done}/{total} first-ply positions in {elapsed:.1f} s", highlight=False
            )

    def close(self) -> None:
        if self.live:
            self.progress.stop()


def perft(
    position: Position, depth: int, *, weighted: bool = False, threads: int = 1, progress: Progress = False
) -> int:
    """The number of leaf positions ``depth`` plies after ``position``.

    Each ply sums over the 21 distinct rolls (or the 36 ordered ones, each
    with weight 1, when ``weighted``) and over the distinct results of each
    roll, and then the other side is on roll. A lost turn is one result; a
    finished game is a leaf. Runs in C without the GIL, on ``threads`` (1 to
    64). ``depth``: 0 to 12. An acey-deucey position counts as
    :func:`bgcore.acey.perft` says.

    ``progress`` (for deep walks, depth 2 or more): True shows a progress
    bar on stderr; a callable is called with ``(done, total)``, the
    positions after the first ply walked so far and their number, about ten
    times a second (after each of them in acey-deucey) and once at the end.
    The pool's threads then walk while the calling thread reports, and
    Ctrl-C (or an exception from the callable) stops the walk.  Quiet by
    default.
    """
    plain, weighted_count = perft_counts(position, depth, threads=threads, progress=progress)
    return weighted_count if weighted else plain
