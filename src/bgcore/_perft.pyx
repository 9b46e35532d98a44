# cython: language_level=3
"""Perft in C: the leaves of the game tree below a board, over the 21
distinct rolls, counted without the GIL (behind ``bgcore.perft``).

With several threads, the positions after the first ply are shared among the
calling thread and threads of the pool (``_pool``), each with a generator and
buffers of its own.  With ``progress``, the pool's threads do all the work
while the calling thread watches: about ten times a second it takes the GIL,
calls ``progress(done, total)`` (the positions after the first ply walked so
far, and their number) and checks for Ctrl-C; an exception there stops the
walk (no thread takes a new position) and is raised once the threads are done.
"""

from libc.stdint cimport int64_t
from libc.stdlib cimport malloc, calloc, free
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK,
                               PyLockStatus, PY_LOCK_ACQUIRED)

from bgcore.movegen cimport (bg_board, bg_movegen, bg_movegen_new, bg_movegen_free, bg_validate,
                             bg_flip, bg_checkers, bg_generate_boards, bg_count, BG_MAX_RESULTS)
from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_submit, bg_pool_wait

from bgcore._results import board_problem

cdef extern from "pythread.h":
    # Not in Cython's declarations: a wait with a timeout (PY_TIMEOUT_T microseconds).
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock lock, long long microseconds,
                                             int intr_flag) nogil

cdef extern from "Python.h":
    int PyErr_CheckSignals() except -1

cdef enum:
    _MAX_DEPTH = 12        # deeper walks would take years
    _WATCH_MICROSECONDS = 100000   # how often a watched walk reports its progress
    _MAX_THREADS = 64      # the library's bound on threads (bgcore.policy.check_int's callers)

#: The deepest walk and the most threads :func:`perft` takes.
MAX_DEPTH = _MAX_DEPTH
MAX_THREADS = _MAX_THREADS


ctypedef struct bg_walker:
    # What one thread needs to walk a tree: a generator and a result buffer
    # per ply (a child's results are walked while its parent's are held).
    bg_movegen *g
    bg_board *bufs[_MAX_DEPTH + 1]


cdef int _walker_init(bg_walker *w, int depth) noexcept nogil:
    """0, or -1 when out of memory (free it with _walker_free either way)."""
    cdef int i
    w.g = bg_movegen_new()
    for i in range(depth + 1):
        w.bufs[i] = <bg_board *>malloc(BG_MAX_RESULTS * sizeof(bg_board))
        if w.bufs[i] == NULL:
            return -1
    return 0 if w.g != NULL else -1


cdef void _walker_free(bg_walker *w) noexcept nogil:
    cdef int i
    for i in range(_MAX_DEPTH + 1):
        free(w.bufs[i])
        w.bufs[i] = NULL
    bg_movegen_free(w.g)
    w.g = NULL


cdef int _walk(bg_walker *w, const bg_board *b, int depth,
               int64_t *plain, int64_t *weighted) noexcept nogil:
    """Add the leaf counts ``depth`` plies below b to plain and weighted; 0 or -1."""
    cdef int64_t p, q, sub_p, sub_q
    cdef int d1, d2, n, k
    cdef bg_board child
    cdef bg_board *out = w.bufs[depth]
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            if depth == 1:
                n = bg_count(w.g, b, d1, d2, out)
                p = q = n
            else:
                n = bg_generate_boards(w.g, b, d1, d2, out, BG_MAX_RESULTS)
                p = q = 0
                for k in range(n):
                    if bg_checkers(&out[k], 0) == 0:
                        p += 1  # the game is over: a leaf
                        q += 1
                        continue
                    bg_flip(&out[k], &child)
                    sub_p = sub_q = 0
                    if _walk(w, &child, depth - 1, &sub_p, &sub_q) < 0:
                        return -1
                    p += sub_p
                    q += sub_q
            if n < 0:
                return -1
            plain[0] += p
            weighted[0] += q if d1 == d2 else 2 * q
    return 0


ctypedef struct bg_share:
    # The positions after the first ply, shared among threads: each takes the
    # next one under the lock and adds its counts to its own totals.
    bg_board *children     # seen by the side to move
    int *weights           # 1 for a double's child, 2 for the others'
    Py_ssize_t n, next
    Py_ssize_t done        # children walked to the end
    int depth              # plies below each child
    int active             # workers that have not returned (and the caller's guard while it submits)
    PyThread_type_lock lock
    PyThread_type_lock finished  # watched: held until the last worker returns (else NULL)


ctypedef struct bg_share_worker:
    bg_share *share
    bg_walker walker
    int64_t plain, weighted
    int failed


cdef int _add_active(bg_share *s, int change) noexcept nogil:
    """Add change to the workers still active; the new count.  The last one
    out lets a watching caller go."""
    cdef int active
    PyThread_acquire_lock(s.lock, WAIT_LOCK)
    s.active += change
    active = s.active
    PyThread_release_lock(s.lock)
    if active == 0 and s.finished != NULL:
        PyThread_release_lock(s.finished)
    return active


cdef void _share_work(void *arg) noexcept nogil:
    cdef bg_share_worker *w = <bg_share_worker *>arg
    cdef bg_share *s = w.share
    cdef Py_ssize_t i
    cdef int64_t p, q
    while True:
        PyThread_acquire_lock(s.lock, WAIT_LOCK)
        i = s.next
        s.next += 1
        PyThread_release_lock(s.lock)
        if i >= s.n:
            break
        p = q = 0
        if _walk(&w.walker, &s.children[i], s.depth, &p, &q) < 0:
            w.failed = 1
            break
        w.plain += p
        w.weighted += q * s.weights[i]
        PyThread_acquire_lock(s.lock, WAIT_LOCK)
        s.done += 1
        PyThread_release_lock(s.lock)
    _add_active(s, -1)


cdef int _first_ply(bg_walker *w, const bg_board *b, bg_share *s,
                    int64_t *plain, int64_t *weighted) noexcept nogil:
    """The positions one ply below b into s (finished games counted as
    leaves instead); 0 or -1."""
    cdef int d1, d2, n, k
    cdef bg_board *out = w.bufs[0]
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            n = bg_generate_boards(w.g, b, d1, d2, out, BG_MAX_RESULTS)
            if n < 0:
                return -1
            for k in range(n):
                if bg_checkers(&out[k], 0) == 0:
                    plain[0] += 1
                    weighted[0] += 1 if d1 == d2 else 2
                    continue
                bg_flip(&out[k], &s.children[s.n])
                s.weights[s.n] = 1 if d1 == d2 else 2
                s.n += 1
    return 0


def perft(bytes board, object depth, object threads=1, object progress=None):
    """(unweighted, weighted) leaf counts ``depth`` plies below a valid
    ``board``, from one walk of the tree; ``threads`` share the positions
    after the first ply; ``progress(done, total)`` is called as they are
    walked (see the module docstring).  See :func:`bgcore.perft`."""
    cdef bg_board b
    if len(board) != 26:
        raise ValueError(f"a board has 26 slots, not {len(board)}")
    b = (<bg_board *><const char *>board)[0]
    # The counts are checked as Python ints, before they become C ints that a
    # huge one would overflow.
    if depth < 0:
        raise ValueError(f"depth must be >= 0, not {depth}")
    if depth > _MAX_DEPTH:
        raise ValueError(f"depth {depth} is out of reach (at most {_MAX_DEPTH})")
    if not 1 <= threads <= _MAX_THREADS:
        raise ValueError(f"threads must be 1 to {_MAX_THREADS}, not {threads}")
    if bg_validate(&b) < 0:
        raise ValueError(board_problem(board))
    if depth == 0 or bg_checkers(&b, 0) == 0 or bg_checkers(&b, 1) == 0:
        return 1, 1
    if depth == 1 or (threads == 1 and progress is None):
        return _perft_alone(&b, depth)
    return _perft_shared(&b, depth, threads, progress)


cdef tuple _perft_alone(const bg_board *b, int depth):
    cdef bg_walker w
    cdef int64_t plain = 0, weighted = 0
    cdef int rc
    _walker_clear(&w)
    if _walker_init(&w, depth) < 0:
        _walker_free(&w)
        raise MemoryError()
    with nogil:
        rc = _walk(&w, b, depth, &plain, &weighted)
    _walker_free(&w)
    if rc < 0:
        raise RuntimeError("perft met a board the generator rejects")
    return plain, weighted


cdef inline void _walker_clear(bg_walker *w) noexcept nogil:
    cdef int i
    w.g = NULL
    for i in range(_MAX_DEPTH + 1):
        w.bufs[i] = NULL


cdef tuple _perft_shared(const bg_board *b, int depth, int threads, object progress):
    cdef bg_share s
    cdef bg_share_worker *workers = NULL
    cdef bg_pool_thread **pool = NULL
    cdef int64_t plain = 0, weighted = 0
    cdef int i, rc = 0, submitted = 0
    cdef bint watch = progress is not None
    cdef int first = 0 if watch else 1  # the first worker on a pool thread (watched: all of them)
    s.children = <bg_board *>malloc(21 * BG_MAX_RESULTS * sizeof(bg_board))
    s.weights = <int *>malloc(21 * BG_MAX_RESULTS * sizeof(int))
    s.n = s.next = s.done = 0
    s.depth = depth - 1
    s.active = 0
    s.lock = PyThread_allocate_lock()
    s.finished = PyThread_allocate_lock() if watch else NULL
    workers = <bg_share_worker *>calloc(threads, sizeof(bg_share_worker))
    pool = <bg_pool_thread **>calloc(threads, sizeof(bg_pool_thread *))
    try:
        if s.children == NULL or s.weights == NULL or s.lock == NULL or workers == NULL or pool == NULL \
                or (watch and s.finished == NULL):
            raise MemoryError()
        if watch:
            PyThread_acquire_lock(s.finished, WAIT_LOCK)  # released by the last worker out
        for i in range(threads):
            workers[i].share = &s
            _walker_clear(&workers[i].walker)
            if _walker_init(&workers[i].walker, depth) < 0:
                raise MemoryError()
        for i in range(first, threads):
            pool[i] = bg_pool_take()  # none to be had: the others take its share
        with nogil:
            rc = _first_ply(&workers[0].walker, b, &s, &plain, &weighted)
            if rc == 0:
                s.active = 1  # the caller's guard while it submits (or its own share)
                for i in range(first, threads):
                    _add_active(&s, 1)
                    if bg_pool_submit(pool[i], _share_work, &workers[i]):
                        submitted += 1
                    else:
                        _add_active(&s, -1)
                if not watch or submitted == 0:
                    _share_work(&workers[0])  # (watched, with no thread to watch: the caller walks)
                else:
                    _add_active(&s, -1)
        if rc == 0 and watch and submitted:
            _watch(&s, progress)
        for i in range(threads):
            bg_pool_wait(pool[i])
        if watch:
            progress(_done(&s), s.n)
        for i in range(threads):
            plain += workers[i].plain
            weighted += workers[i].weighted
            if workers[i].failed:
                rc = -1
        if rc < 0:
            raise RuntimeError("perft met a board the generator rejects")
        return plain, weighted
    finally:
        if pool != NULL:
            for i in range(threads):
                bg_pool_wait(pool[i])  # (at once, but after an exception while watching)
                bg_pool_give(pool[i])
        if workers != NULL:
            for i in range(threads):
                _walker_free(&workers[i].walker)
        free(workers)
        free(pool)
        free(s.children)
        free(s.weights)
        if s.lock != NULL:
            PyThread_free_lock(s.lock)
        if s.finished != NULL:
            PyThread_free_lock(s.finished)


cdef int _watch(bg_share *s, object progress) except -1:
    """Report the progress of the pool's threads until the last returns; on
    an exception (Ctrl-C, or raised by progress) let no thread take another
    position, wait for the threads, and raise it."""
    cdef PyLockStatus got
    while True:
        with nogil:
            got = PyThread_acquire_lock_timed(s.finished, _WATCH_MICROSECONDS, 0)
        if got == PY_LOCK_ACQUIRED:
            return 0
        try:
            PyErr_CheckSignals()
            progress(_done(s), s.n)
        except BaseException:
            PyThread_acquire_lock(s.lock, WAIT_LOCK)
            s.next = s.n
            PyThread_release_lock(s.lock)
            with nogil:
                PyThread_acquire_lock(s.finished, WAIT_LOCK)
            raise


cdef Py_ssize_t _done(bg_share *s) noexcept nogil:
    """The children walked so far (read under the lock the workers write it under)."""
    cdef Py_ssize_t done
    PyThread_acquire_lock(s.lock, WAIT_LOCK)
    done = s.done
    PyThread_release_lock(s.lock)
    return done
