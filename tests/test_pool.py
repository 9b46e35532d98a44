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


@pytest.fixture
def linger_restored():
    """Threads linger as by default again after the test (and are ended)."""
    batch.release_buffers()
    yield
    batch.set_thread_linger(_pool.DEFAULT_LINGER)
    batch.release_buffers()


def test_threads_linger_2_ms_by_default() -> None:
    """A fresh process's pool threads linger DEFAULT_LINGER (2 ms) after a
    task: right after a 2-thread call its thread is lingering (in at least
    one of 5 tries, allowing for a busy machine pausing the process, or a
    slow build, for longer than that)."""
    import subprocess
    import sys

    if _pool.linger_slots() < 1:
        pytest.skip("one usable CPU: no thread lingers")
    code = (
        "from bgcore import Position, _pool, batch, perft\n"
        "seen = []\n"
        "for _ in range(5):\n"
        "    perft(Position.initial(), 2, threads=2)\n"
        "    seen.append(_pool.lingering())\n"
        "print(_pool.DEFAULT_LINGER, batch.set_thread_linger(0), max(seen))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0.002", "0.002", "1"]


def test_lingering_threads_take_the_next_batch_without_waking(corpus, linger_restored) -> None:
    """With set_thread_linger, a thread whose task returned is handed the next
    batch's work (primed, or submitted as perft does) without a wake-up; set
    back to 0, it sleeps after its next task and is woken for the one after.

    The task handed over after the setting goes to 0 is perft's, submitted
    straight to the lingering thread: a batch's would prime it first, and a
    prime that outlasts its spin (a stalled caller, on a loaded machine)
    would make the thread sleep, rightly, before the batch's work came."""
    _, boards, dice = corpus
    expected = batch.count(boards, dice)
    children, offsets = batch.generate(boards, dice)
    batch.release_buffers()
    batch.set_thread_linger(0.5)
    assert (batch.count(boards, dice, threads=2) == expected).all()
    woken = _pool.wakeups()
    assert woken >= 1 and _pool.idle_threads() == 1
    for _ in range(3):
        got_children, got_offsets = batch.generate(boards, dice, threads=2)
        assert (got_offsets == offsets).all() and (got_children == children).all()
        assert (batch.count(boards, dice, threads=2) == expected).all()
        assert perft(Position.initial(), 2, threads=2) == perft(Position.initial(), 2)
    assert _pool.wakeups() == woken
    assert batch.set_thread_linger(0) == 0.5
    assert perft(Position.initial(), 2, threads=2) == perft(Position.initial(), 2)  # handed over, then it sleeps
    assert _pool.wakeups() == woken
    time.sleep(0.01)
    assert (batch.count(boards, dice, threads=2) == expected).all()
    assert _pool.wakeups() > woken


def test_a_thread_whose_calls_come_late_twice_sleeps_at_once(corpus, linger_restored) -> None:
    """A thread goes on lingering after one call that came late, stops after
    two in a row (the next call wakes it however soon it comes), and
    lingers again once a call comes in time."""
    _, boards, dice = corpus
    expected = batch.count(boards, dice)
    batch.set_thread_linger(0.05)

    def call(late: bool = False) -> int:
        if late:
            time.sleep(0.2)  # the thread's lingering runs out
        assert (batch.count(boards, dice, threads=2) == expected).all()
        return _pool.wakeups()

    assert call() == 1  # a new thread: it lingers after its first task
    assert call(late=True) == 2  # woken, 0.2 s late: one late call, it lingers
    assert call() == 2  # handed over while lingering
    assert call(late=True) == 3
    assert call(late=True) == 4  # two late calls in a row: it sleeps at once
    assert call() == 5  # woken, however soon; this call came in time
    assert call() == 5  # so it lingered again
    assert call() == 5


def test_a_primed_thread_its_job_is_slow_to_hand_work_to_waits_for_it(corpus, linger_restored) -> None:
    """A primed thread that stops spinning before its job hands it its work
    lingers for that job even after late calls, and the job's lateness still
    counts: the job wakes it once, and the next call once more."""
    _, boards, dice = corpus
    b8 = np.ascontiguousarray(boards, dtype=np.int8)
    d8 = np.ascontiguousarray(dice, dtype=np.uint8)
    expected = batch.count(boards, dice)
    batch.set_thread_linger(0.05)
    for _ in range(2):
        time.sleep(0.2)
        assert (batch.count(boards, dice, threads=2) == expected).all()
    woken = _pool.wakeups()  # one late call (the first started the thread)
    time.sleep(0.2)
    primed = _batch.Primed(1)  # woken by the second late one, and spinning ...
    time.sleep(0.01)  # ... until it gives up, long before this
    got = _batch.rows(b8, d8, 2, _batch.piece_rows(len(b8), 2), False, False, 0, primed)
    assert (got == expected).all()
    assert _pool.wakeups() == woken + 1  # it lingered for its job: no second wake-up
    assert (batch.count(boards, dice, threads=2) == expected).all()
    assert _pool.wakeups() == woken + 2  # the job was late all the same: it slept at once


def test_threads_linger_on_spare_cpus_only(corpus, linger_restored) -> None:
    """At most one thread per usable CPU but the caller's lingers; a forked
    child counts none of its parent's lingering threads."""
    _, boards, dice = corpus
    expected = batch.count(boards, dice)
    batch.set_thread_linger(0.5)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    assert _pool.linger_slots() == cpus - 1
    assert (batch.count(boards, dice, threads=4) == expected).all()
    assert _pool.idle_threads() == 3
    assert _pool.lingering() == min(3, cpus - 1)
    if not hasattr(os, "fork"):
        return
    pid = os.fork()
    if pid == 0:  # the child: exit 0 when right
        ok = _pool.lingering() == 0 and _pool.idle_threads() == 0
        ok = ok and (batch.count(boards, dice, threads=2) == expected).all()
        ok = ok and _pool.lingering() == min(1, cpus - 1)
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("seconds", [-0.001, 1.5, float("nan"), float("inf"), "0.1", None, True])
def test_thread_linger_must_be_seconds_within_0_and_1(seconds, linger_restored) -> None:
    batch.set_thread_linger(0.25)
    with pytest.raises(ValueError, match="within \\[0, 1\\]"):
        batch.set_thread_linger(seconds)
    assert batch.set_thread_linger(0) == 0.25  # unchanged


_HANDOFF_STRESS = """
import random, sys, time
import numpy as np
from bgcore import Position, _batch, batch, perft
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

pairs = [(p, r) for p in selfplay_positions(30, seed=5) for r in ROLLS]
boards = np.stack([p.to_array() for p, _ in pairs])
dice = np.array([r for _, r in pairs], dtype=np.uint8)
counts = batch.count(boards, dice)
children, offsets = batch.generate(boards, dice)
depth2 = perft(Position.initial(), 2)
rng = random.Random(int(sys.argv[1]))
for step in range(300):
    if step % 50 == 0:
        batch.set_thread_linger(rng.choice([0.0, 0.00005, 0.0003, 0.002]))
    op = rng.randrange(6)
    if op == 0:
        got_children, got_offsets = batch.generate(boards, dice, threads=rng.choice([2, 3]))
        assert (got_offsets == offsets).all() and (got_children == children).all(), step
    elif op == 1:
        assert (batch.count(boards, dice, threads=2) == counts).all(), step
    elif op == 2:
        _batch.Primed(rng.choice([1, 2]))  # woken (or kept spinning) and given back unused
    elif op == 3:
        assert perft(Position.initial(), 2, threads=2) == depth2, step
    elif op == 4:
        time.sleep(rng.uniform(0, 0.0006))  # around the lingering time
    else:
        batch.release_buffers()  # ends idle threads, lingering ones among them
print("ok")
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_handoffs_to_lingering_threads_race_safely(seed) -> None:
    """Random batches, perft, unused primed threads, pauses around the
    lingering time and ended threads, with lingering switched on and off:
    every result is right and nothing hangs (run in a child process, so that
    a hang fails the test rather than the suite)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _HANDOFF_STRESS, str(seed)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
