"""The machine's own 2-core scaling for bgcore's code, without threads.

:class:`WorkerProcesses` keeps worker processes that each run one task on
demand; :class:`CountingProcesses` is the one whose workers hold the corpus
and run ``bgcore.batch.count`` (one thread) over it, and
:class:`GeneratingProcesses` the one whose workers run ``batch.generate``
(one thread) over batches they hold, each result written to memory as a
2-thread ``batch.generate`` writes it.  Timing one of
them alone against two at once shows how much a second core adds to this very
code when nothing is shared: on a shared virtual machine the host may run the
two virtual CPUs on one physical core's two hyperthreads, or slow one of them,
and then threads cannot scale either.  ``compare.py`` times both next to the
2-thread batch workloads, in the same rounds.

>>> import numpy as np
>>> from bgcore import Position
>>> boards = np.stack([Position.initial().to_array()] * 3)
>>> dice = np.array([[3, 1], [6, 6], [2, 1]])
>>> with CountingProcesses(boards, dice, processes=2) as workers:
...     workers.count(1), workers.count(2)
(42, 84)
>>> with GeneratingProcesses([(boards, dice)], processes=2) as workers:
...     workers.generate(1, batch=0, times=3), workers.generate(2, batch=0, times=1)
(126, 84)
>>> CountingProcesses(boards, dice, processes=0)
Traceback (most recent call last):
ValueError: processes must be >= 1, not 0
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

__all__ = ["WorkerProcesses", "CountingProcesses", "GeneratingProcesses"]


def _serve(conn: Connection, task: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """A worker: run the task each time it is asked (with the request's own
    arguments after ``args``), until told to stop (None)."""
    while (request := conn.recv()) is not None:
        conn.send(task(*args, *request))


def _count(boards: np.ndarray, dice: np.ndarray) -> int:
    from bgcore import batch

    return int(batch.count(boards, dice).sum())


def _generate(batches: list[tuple[np.ndarray, np.ndarray]], batch_index: int, times: int) -> int:
    """Rows of results of ``times`` calls of ``batch.generate`` on one of ``batches``."""
    from bgcore import batch

    boards, dice = batches[batch_index]
    return sum(len(batch.generate(boards, dice)[0]) for _ in range(times))


class WorkerProcesses:
    """``processes`` worker processes (started with ``spawn``), each running
    ``task(*args)`` (a module-level function) when asked."""

    def __init__(self, task: Callable[..., Any], args: tuple[Any, ...], processes: int = 2) -> None:
        if processes < 1:
            raise ValueError(f"processes must be >= 1, not {processes}")
        context = multiprocessing.get_context("spawn")
        self._conns: list[Connection] = []
        self._procs = []
        for _ in range(processes):
            ours, theirs = context.Pipe()
            proc = context.Process(target=_serve, args=(theirs, task, args), daemon=True)
            proc.start()
            self._conns.append(ours)
            self._procs.append(proc)

    def run(self, processes: int, *request: Any) -> list[Any]:
        """The task's results from the first ``processes`` workers, run all at
        once (``task(*args, *request)``)."""
        if not 1 <= processes <= len(self._conns):
            raise ValueError(f"processes must be 1-{len(self._conns)}, not {processes}")
        conns = self._conns[:processes]
        for conn in conns:
            conn.send(request)
        return [conn.recv() for conn in conns]

    def close(self) -> None:
        """Stop the workers and wait for them."""
        for conn, proc in zip(self._conns, self._procs, strict=False):
            if proc.is_alive():
                conn.send(None)
            proc.join(timeout=10)
            conn.close()
        self._conns, self._procs = [], []

    def __enter__(self) -> WorkerProcesses:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CountingProcesses(WorkerProcesses):
    """Worker processes that each count ``boards``/``dice`` with ``bgcore.batch.count``."""

    def __init__(self, boards: np.ndarray, dice: np.ndarray, processes: int = 2) -> None:
        super().__init__(_count, (boards, dice), processes)

    def count(self, processes: int) -> int:
        """Total results counted by the first ``processes`` workers, all at once."""
        return sum(self.run(processes))


class GeneratingProcesses(WorkerProcesses):
    """Worker processes that each hold ``batches`` (pairs of boards and dice)
    and run ``bgcore.batch.generate`` on one of them when asked."""

    def __init__(self, batches: list[tuple[np.ndarray, np.ndarray]], processes: int = 2) -> None:
        super().__init__(_generate, (batches,), processes)

    def generate(self, processes: int, *, batch: int, times: int) -> int:
        """Total rows of results of the first ``processes`` workers, each
        generating batch number ``batch`` ``times`` times, all at once."""
        return sum(self.run(processes, batch, times))
