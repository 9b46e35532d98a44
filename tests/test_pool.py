"""The pool of native threads kept between jobs (bgcore._pool), driven
through batches and perft: threads are kept, capped, ended on request, and a
forked child never waits for its parent's threads."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from bgcore import Position, _batch, _pool, batch, perft
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Position], np.ndarray, np.ndarray]:
    positions = selfplay_positions(60, seed=32)
    pairs = [(p, r) for p in positions for r in ROLLS]
    boards = np.stack([p.to_array() for p, _ in pairs])
    dice = np.array([r for _, r in pairs])
    return pairs, boards, dice


def _os_threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _threads_reach(count: int, seconds: float = 10.0) -> bool:
    """Whether the process's OS threads number ``count`` within ``seconds``
    (threads told to end take a moment to go)."""
    deadline = time.monotonic() + seconds
    while _os_threads() != count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts OS threads through /proc")
def test_native_threads_are_kept_for_the_next_batch(corpus) -> None:
    """A batch's native threads wait for the next one (none is started again),
    at most 16 are kept, and release_buffers ends them."""
    _, boards, dice = corpus
    expected = batch.count(boards, dice)
    batch.release_buffers()
    time.sleep(0.05)
    base = _os_threads()
    for _ in range(3):
        assert (batch.count(boards, dice, threads=3) == expected).all()
        assert _os_threads() == base + 2  # the caller's thread is the third
        _children, offsets = batch.generate(boards, dice, threads=3)
        assert (np.diff(offsets) == expected).all() and _os_threads() == base + 2
    many = 20
    tiled = -(-many * 256 // len(boards))  # rows enough for 20 threads
    counts = batch.count(np.concatenate([boards] * tiled), np.concatenate([dice] * tiled), threads=many)
    assert (counts == np.concatenate([expected] * tiled)).all()
    assert _threads_reach(base + _pool.KEPT)  # the rest end after their batch
    batch.release_buffers()
    assert _threads_reach(base)


def _in_forked_child(work) -> None:
    """Run ``work`` (True when all is well) in a forked child; fail when it
    returns False, raises, or has not finished within 30 s."""
    pid = os.fork()
    if pid == 0:
        try:
            ok = bool(work())
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("a batch in the forked child waited for threads that exist only in the parent")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_starts_threads_of_its_own(corpus) -> None:
    """The parent's kept threads do not exist in a forked child: the child's
    batches start their own instead of waiting for them forever, and a batch
    made before the fork runs (without the parent's threads) or goes away
    without leaving them to later batches; so do threads primed before it."""
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    expected = batch.count(boards, dice)
    batch.count(boards, dice, threads=3)  # threads kept in the parent

    def later_batches() -> bool:
        return (batch.count(boards, dice, threads=3) == expected).all() and (
            np.diff(batch.generate(boards, dice, threads=2)[1]) == expected
        ).all()

    _in_forked_child(later_batches)
    for run_it in (False, True):
        counts = np.full(len(b8), -1, np.int64)
        job = _batch.Batch(b8, d8, counts, 3, 64, False, False, 0)  # holds two pool threads

        def with_the_batch(run_it: bool = run_it, counts: np.ndarray = counts) -> bool:
            nonlocal job
            if run_it:
                job.run()
                if not (counts == expected).all():
                    return False
            job = None
            return later_batches()

        _in_forked_child(with_the_batch)
        del job
    for use_them in (False, True):
        primed = _batch.Primed(2)  # spinning in the parent

        def with_primed(use_them: bool = use_them) -> bool:
            nonlocal primed
            if use_them:
                counts = np.full(len(b8), -1, np.int64)
                _batch.Batch(b8, d8, counts, 3, 64, False, False, 0, primed).run()
                if not (counts == expected).all():
                    return False
            primed = None
            return later_batches()

        _in_forked_child(with_primed)
        del primed


def test_primed_threads_run_a_batch_or_go_back_to_the_pool(corpus) -> None:
    """Threads woken ahead of a batch run it whether the batch comes at once
    or after they gave up spinning; those no batch takes go back to the pool."""
    _, boards, dice = corpus
    b8, d8 = boards.astype(np.int8), dice.astype(np.uint8)
    expected = batch.count(boards, dice)
    batch.release_buffers()
    for pause in (0.0, 0.05):  # 50 ms: long after a primed thread sleeps again
        primed = _batch.Primed(2)
        assert primed.threads == 2 and _pool.idle_threads() == 0
        time.sleep(pause)
        counts = np.full(len(b8), -1, np.int64)
        job = _batch.Batch(b8, d8, counts, 2, 64, False, False, 0, primed)  # takes one of the two
        assert primed.threads == 1
        job.run()
        assert (counts == expected).all()
        del job
        assert _pool.idle_threads() == 1
        del primed  # the one not taken is stopped and kept
        assert _pool.idle_threads() == 2
    for _ in range(3):
        _batch.Primed(2)  # none taken
        assert _pool.idle_threads() == 2
    batch.release_buffers()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts OS threads through /proc")
def test_perft_shares_the_pool_with_batches(corpus) -> None:
    """perft with threads runs on the pool's threads (kept afterwards, used
    by the next batch) and counts what one thread counts."""
    _, boards, dice = corpus
    batch.release_buffers()
    time.sleep(0.05)
    base = _os_threads()
    assert _pool.idle_threads() == 0
    start = Position.initial()
    alone = perft(start, 3)
    assert perft(start, 3, threads=3) == alone == 116_154_993
    assert _pool.idle_threads() == 2 and _os_threads() == base + 2
    assert (batch.count(boards, dice, threads=3) == batch.count(boards, dice)).all()
    assert _os_threads() == base + 2  # the same two threads
    _pool.release()
    assert _threads_reach(base) and _pool.idle_threads() == 0
