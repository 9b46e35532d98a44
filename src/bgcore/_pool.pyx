# cython: language_level=3
"""A pool of native threads kept between jobs: batch generation, perft and
the other native loops share it.

Starting a native thread costs its caller tens of microseconds with the GIL
held, and the new thread starts work later still: a fair share of a short
batch.  A kept thread waits on its ``go`` lock instead and wakes when handed a
task.  At most ``KEPT`` idle threads are kept; more end after their job.

Waking a sleeping thread still takes tens of microseconds (on a virtual
machine, where an idle virtual CPU is halted, up to a hundred), so a job that
knows it will need threads before its work is ready primes them
(``bg_pool_prime``): they wake at once and spin, and the task is then handed
over with a compare-and-swap rather than a wake-up.  Priming still pays
for the wake-up, only earlier.  So a thread whose task returned lingers:
it spins for a while (``set_linger``, ``DEFAULT_LINGER`` seconds at first)
before it sleeps, and a job that comes meanwhile primes it or hands it its
task with a compare-and-swap too, paying for no wake-up at all.  Spinning
costs the core's time, so a thread stops lingering once two jobs in a row
came later than that (until one comes in time again), and only as many
threads linger at once as there are CPUs besides the caller's.

Threads run without the GIL and never touch Python objects.  The stack of
idle threads is only used with the GIL held, which guards it.  A forked child
has none of its parent's threads: ``_forget_in_child`` drops the records of
the idle ones and raises the epoch, so that threads a job held at the fork are
neither run nor kept in the child (the job's own thread does their work).
"""

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int64_t
from libc.stdlib cimport calloc, free
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

import os

cdef extern from "pythread.h":
    # Cython's declaration takes a function that needs the GIL; ours runs without it.
    unsigned long PyThread_start_new_thread(void (*func)(void *) noexcept nogil, void *arg) nogil
    unsigned long PYTHREAD_INVALID_THREAD_ID
    # Cython's declaration needs the GIL, which a pool thread ending itself lacks.
    void _free_lock "PyThread_free_lock"(PyThread_type_lock lock) noexcept nogil

cdef extern from "bg_platform.h":
    int bg_flag_get(volatile int *p) noexcept nogil
    void bg_flag_set(volatile int *p) noexcept nogil
    void bg_flag_clear(volatile int *p) noexcept nogil
    void bg_pause() noexcept nogil
    ptrdiff_t bg_load_acquire(volatile ptrdiff_t *p) noexcept nogil
    void bg_store_release(volatile ptrdiff_t *p, ptrdiff_t v) noexcept nogil
    int bg_cas(volatile ptrdiff_t *p, ptrdiff_t expected, ptrdiff_t desired) noexcept nogil

cdef extern from "bg_clock.h":
    int64_t bg_clock_ns() noexcept nogil

cdef enum:
    _KEPT = 16             # idle threads kept at most
    # Pauses a waiting caller spins for before it sleeps on the lock: a
    # sleeping thread takes tens of microseconds to wake, and a job's threads
    # usually finish within a few hundred microseconds of each other (pause
    # is slow on recent x86, so the spin is shorter elsewhere).
    _WAIT_SPINS = 16384
    # Pauses a primed thread spins for, waiting for its task, before it
    # sleeps again: a little longer than checking a batch's arrays takes.
    _PRIME_SPINS = 16384

    # handoff: where a primed thread stands (it is written by the thread and
    # by its job's thread, with compare-and-swap once it spins)
    _NOT_PRIMED = 0
    _SPINNING = 1          # waiting for a task
    _HANDED = 2            # a task was handed over while it spun: it runs it
    _EXPIRED = 3           # it stopped spinning: none came in time, or its job gave up
    _LINGERING = 4         # its task returned and it spins for the next one (set_linger)
    # Pauses between looks at the clock while a thread lingers.
    _LINGER_CHECK_SPINS = 64
    # Jobs in a row that came later than the linger time, after which a
    # thread sleeps at once after its tasks: one late job may be a pause
    # between quick ones, two are a pattern.
    _LATE_JOBS_TO_SLEEP = 2

KEPT = _KEPT
#: The most native threads one call of the library takes: every ``threads=``
#: argument is 1 to this (a larger count would start that many OS threads).
MAX_THREADS = 64
#: Seconds a thread lingers after a task, until set_linger changes it.  A
#: wake-up costs up to about a hundred microseconds: lingering longer serves
#: jobs that come back a little later too, such as a loop that runs a
#: 1-thread batch or its own work between two 2-thread ones.  OpenMP
#: runtimes spin longer still by default (libgomp 300,000 spins, LLVM's
#: libomp 200 ms).
DEFAULT_LINGER = 0.002


cdef struct bg_pool_thread:
    PyThread_type_lock go    # released to hand the thread its task (or to end it)
    PyThread_type_lock done  # released by the thread when the task has returned
    bg_task task             # what it runs next; NULL: end the thread
    void *arg
    volatile int finished    # set when the task has returned (bg_flag_get/set)
    bint submitted           # a task was handed over (or the thread primed) and not waited for yet
    unsigned long epoch      # _epoch when the thread was started
    volatile ptrdiff_t handoff  # _NOT_PRIMED, or what a primed thread does
    bg_task handed           # the task handed to a primed or lingering thread, and its argument
    void *handed_arg
    unsigned long wakeups    # times it woke from go (written by the thread alone)
    # Written by the thread alone: when its last task returned (bg_clock_ns,
    # 0 before the first), how many jobs in a row came later than the
    # linger time after it, and whether that task was a prime that no task
    # came to in time (its job is still coming: the same job, not a new one).
    int64_t idle_since
    int late_jobs
    bint mid_job


cdef bg_pool_thread *_idle[_KEPT]
cdef int _nidle = 0
cdef unsigned long _epoch = 0  # raised in a forked child
# How long a thread spins for its next task after one returns, in
# nanoseconds (0: it sleeps at once).  Written with the GIL held, read by
# the threads (bg_load_acquire).
cdef volatile ptrdiff_t _linger_ns = <ptrdiff_t>(DEFAULT_LINGER * 1e9)
# Threads lingering now, and how many may at once: one per CPU besides the
# caller's, so that lingering threads never take a CPU from the work.
cdef volatile ptrdiff_t _lingering = 0


def _usable_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


cdef ptrdiff_t _linger_slots = max(0, _usable_cpus() - 1)


cdef void _thread_free(bg_pool_thread *t) noexcept nogil:
    if t.go != NULL:
        _free_lock(t.go)
    if t.done != NULL:
        _free_lock(t.done)
    free(t)


cdef ptrdiff_t _linger(bg_pool_thread *t, int64_t ns) noexcept nogil:
    """Spin while t lingers (``_LINGERING``), for at most ``ns`` nanoseconds:
    ``_HANDED`` or ``_SPINNING`` when a job handed it a task or primed it
    meanwhile, else ``_NOT_PRIMED`` (it will sleep)."""
    cdef int64_t deadline = bg_clock_ns() + ns
    cdef int spins = 0
    cdef ptrdiff_t state = bg_load_acquire(&t.handoff)
    while state == _LINGERING:
        bg_pause()
        spins += 1
        if spins == _LINGER_CHECK_SPINS:
            spins = 0
            if bg_clock_ns() >= deadline and bg_cas(&t.handoff, _LINGERING, _NOT_PRIMED):
                return _NOT_PRIMED
        state = bg_load_acquire(&t.handoff)
    return state


cdef bint _add_lingering(ptrdiff_t delta) noexcept nogil:
    """Count a thread in (+1, unless every slot is taken: False) or out (-1)
    of the lingering ones."""
    cdef ptrdiff_t now = bg_load_acquire(&_lingering)
    while delta < 0 or now < _linger_slots:
        if bg_cas(&_lingering, now, now + delta):
            return True
        now = bg_load_acquire(&_lingering)
    return False


cdef int64_t _linger_time(bg_pool_thread *t) noexcept nogil:
    """How long t is to linger after its task (counted in the lingering
    threads), or 0 when it sleeps at once: lingering is off, its last jobs
    came late (unless its job is still coming), or threads linger on every
    spare CPU."""
    cdef int64_t linger = bg_load_acquire(&_linger_ns)
    if linger <= 0 or (t.late_jobs >= _LATE_JOBS_TO_SLEEP and not t.mid_job) or not _add_lingering(1):
        return 0
    return linger


cdef void _thread_main(void *arg) noexcept nogil:
    """A kept thread: run each task it is handed, until handed NULL.  After a
    task it lingers (spins) unless its jobs came late (``_linger_time``),
    where a job can hand it the next task, or prime it, without waking it."""
    cdef bg_pool_thread *t = <bg_pool_thread *>arg
    cdef bg_task task
    cdef void *task_arg
    cdef int64_t linger
    cdef ptrdiff_t state
    while True:
        PyThread_acquire_lock(t.go, WAIT_LOCK)
        t.wakeups += 1
        if t.idle_since and not t.mid_job:  # woken for a new job: did it come late?
            if bg_clock_ns() - t.idle_since > bg_load_acquire(&_linger_ns):
                t.late_jobs += 1
            else:
                t.late_jobs = 0
        t.mid_job = False
        task = t.task
        task_arg = t.arg
        if task == NULL:
            break
        while True:
            task(task_arg)
            linger = _linger_time(t)
            # The thread's own reset, before its job can see it done.
            bg_store_release(&t.handoff, _LINGERING if linger > 0 else _NOT_PRIMED)
            t.idle_since = bg_clock_ns()
            bg_flag_set(&t.finished)
            PyThread_release_lock(t.done)
            if linger <= 0:
                break
            state = _linger(t, linger)
            _add_lingering(-1)
            if state == _NOT_PRIMED:
                break  # (woken later, it counts the job as late)
            if not t.mid_job:
                t.late_jobs = 0  # a new job, in time
            t.mid_job = False
            if state == _HANDED:
                task = t.handed
                task_arg = t.handed_arg
            else:
                # Primed (and maybe given up on already, before this
                # thread saw it): _primed spins, runs what it is handed or
                # returns, and the job's bg_pool_wait gets its done.
                task = _primed
                task_arg = t
    _thread_free(t)


cdef inline bint _alive(bg_pool_thread *t) noexcept nogil:
    """Whether t's thread runs in this process (not only in a parent it was
    forked from)."""
    return t != NULL and t.epoch == _epoch


cdef bg_pool_thread *bg_pool_take() noexcept:
    # GIL held: CPython 3.10 and 3.11 read the thread state of the GIL's
    # holder when starting a thread.
    global _nidle
    cdef bg_pool_thread *t
    if _nidle:
        _nidle -= 1
        return _idle[_nidle]
    t = <bg_pool_thread *>calloc(1, sizeof(bg_pool_thread))
    if t == NULL:
        return NULL
    t.go = PyThread_allocate_lock()
    t.done = PyThread_allocate_lock()
    if t.go == NULL or t.done == NULL:
        _thread_free(t)
        return NULL
    # Both held: the thread waits for go, its job for done.
    PyThread_acquire_lock(t.go, WAIT_LOCK)
    PyThread_acquire_lock(t.done, WAIT_LOCK)
    t.task = NULL
    t.epoch = _epoch
    if PyThread_start_new_thread(_thread_main, t) == PYTHREAD_INVALID_THREAD_ID:
        _thread_free(t)
        return NULL
    return t


cdef void _primed(void *arg) noexcept nogil:
    """The task of a primed thread: spin until handed its real task, and run
    it; or stop when none comes in time, or when its job gives up."""
    cdef bg_pool_thread *t = <bg_pool_thread *>arg
    cdef int spins = 0
    cdef ptrdiff_t state = bg_load_acquire(&t.handoff)
    while state == _SPINNING and spins < _PRIME_SPINS:
        bg_pause()
        spins += 1
        state = bg_load_acquire(&t.handoff)
    if state == _SPINNING and bg_cas(&t.handoff, _SPINNING, _EXPIRED):
        # bg_pool_submit, if it comes, waits for this and takes the thread
        # over while it lingers (or wakes it).
        t.mid_job = True
        return
    if bg_load_acquire(&t.handoff) == _HANDED:
        t.handed(t.handed_arg)


cdef inline bint _take_lingering(bg_pool_thread *t, ptrdiff_t state) noexcept nogil:
    """Move t from lingering to ``state`` (primed, or handed ``t.handed``)
    without waking it; False when it does not linger (it sleeps, or is about
    to)."""
    bg_flag_clear(&t.finished)
    if not bg_cas(&t.handoff, _LINGERING, state):
        return False
    t.submitted = True
    return True


cdef bint bg_pool_prime(bg_pool_thread *t) noexcept nogil:
    if not _alive(t) or t.submitted:
        return False
    if _take_lingering(t, _SPINNING):  # it runs _primed, as if handed it
        return True
    bg_store_release(&t.handoff, _SPINNING)
    return bg_pool_submit(t, _primed, t)


cdef bint bg_pool_submit(bg_pool_thread *t, bg_task task, void *arg) noexcept nogil:
    if not _alive(t) or task == NULL:
        return False
    if t.submitted:
        # Primed: hand the task over if the thread still spins, else wait
        # until it has stopped and wake it as usual.
        t.handed = task
        t.handed_arg = arg
        if bg_cas(&t.handoff, _SPINNING, _HANDED):
            return True
        bg_pool_wait(t)
    t.handed = task
    t.handed_arg = arg
    if _take_lingering(t, _HANDED):
        return True
    t.task = task  # (finished cleared by _take_lingering)
    t.arg = arg
    t.submitted = True
    PyThread_release_lock(t.go)
    return True


cdef void bg_pool_wait(bg_pool_thread *t) noexcept nogil:
    cdef int spins = 0
    if t == NULL or not t.submitted:
        return
    if not _alive(t):  # primed before a fork: its thread is the parent's
        t.submitted = False
        return
    if bg_load_acquire(&t.handoff) == _SPINNING:
        bg_cas(&t.handoff, _SPINNING, _EXPIRED)  # primed and never handed a task: stop it
    while not bg_flag_get(&t.finished) and spins < _WAIT_SPINS:
        bg_pause()
        spins += 1
    PyThread_acquire_lock(t.done, WAIT_LOCK)  # released by the thread after the task
    t.submitted = False  # (the thread reset its handoff before releasing done)


cdef void _end(bg_pool_thread *t) noexcept:
    """Let an idle thread end (it frees itself)."""
    t.task = NULL
    PyThread_release_lock(t.go)


cdef void bg_pool_give(bg_pool_thread *t) noexcept:
    global _nidle
    if t == NULL:
        return
    if not _alive(t):
        _thread_free(t)  # taken before a fork: its thread is the parent's
        return
    bg_pool_wait(t)  # primed and never handed a task
    if _nidle < _KEPT:
        _idle[_nidle] = t
        _nidle += 1
    else:
        _end(t)


cdef void bg_pool_forget() noexcept:
    global _nidle
    while _nidle:
        _nidle -= 1
        _end(_idle[_nidle])


def set_linger(object seconds):
    """Let pool threads spin for up to ``seconds`` for their next task after
    each one, unless their jobs came later twice in a row (0: sleep at once;
    DEFAULT_LINGER at first).  Returns the previous setting; ValueError for
    anything but a number within [0, 1]."""
    global _linger_ns
    cdef double old = bg_load_acquire(&_linger_ns) / 1e9
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (0 <= seconds <= 1):  # (NaN too)
        raise ValueError(f"seconds must be a number within [0, 1], not {seconds!r}")
    bg_store_release(&_linger_ns, <ptrdiff_t>(<double>seconds * 1e9))
    return old


def wakeups():
    """How many times the idle threads kept now have been woken from sleep, in
    all (a lingering thread handed its task is not)."""
    cdef int i
    cdef unsigned long total = 0
    for i in range(_nidle):
        total += _idle[i].wakeups
    return total


def lingering():
    """How many threads linger now (spin for their next task)."""
    return bg_load_acquire(&_lingering)


def linger_slots():
    """How many threads may linger at once: one per usable CPU but one."""
    return _linger_slots


def idle_threads():
    """How many idle native threads the pool keeps now."""
    return _nidle


def release():
    """End every idle thread of the pool."""
    bg_pool_forget()


def _forget_in_child():
    global _epoch, _nidle, _lingering
    _epoch += 1
    _lingering = 0  # threads lingering at the fork are the parent's
    while _nidle:
        _nidle -= 1
        _thread_free(_idle[_nidle])


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
