# cython: language_level=3
"""Batch generation over arrays of boards and rolls: the Python face of
``_batchrun``, behind ``bgcore.batch``.

Here are what touches Python objects: the checks of arrays and arguments
(``call``, ``ready``, ``find_invalid``), the numpy arrays returned (row
buffers handed over without a copy), and the objects ``Batch`` and
``Primed``.  The rows themselves are checked and generated in C without
the GIL by ``_batchrun``, by the calling thread alone or by several, in one
call from batch.py (``call``, or ``rows`` for arrays it converted).
"""

from libc.stdint cimport int8_t, int64_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
cimport numpy as cnp
import numpy as np

from bgcore.movegen cimport BG_MAX_CHECKERS
from bgcore._results import row_problem
from bgcore._pool import MAX_THREADS as _MAX_THREADS
from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_prime, bg_pool_forget
from bgcore._batchrun cimport (bg_rows, bg_kit, bg_batch, bg_rows_obtain, bg_rows_release, bg_rows_trim,
                               bg_rows_kept, bg_forget_kept, bg_find_invalid, bg_run_rows, bg_kit_take, bg_kit_give,
                               bg_batch_setup, bg_batch_hire, bg_batch_run, bg_batch_complete, bg_batch_clear,
                               BG_KEPT, BG_STREAM_COPY_ROWS)

cnp.import_array()


# --- checks and the arrays handed over ----------------------------------------

cdef int _check_shapes(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice) except -1:
    """ValueError unless boards are rows of 26 and dice as many rows of 2."""
    if boards.shape[1] != 26 or dice.shape[1] != 2 or dice.shape[0] != boards.shape[0]:
        raise ValueError(f"boards must be (n, 26) and dice (n, 2), not ({boards.shape[0]}, {boards.shape[1]}) "
                         f"and ({dice.shape[0]}, {dice.shape[1]})")
    return 0


def find_invalid(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice):
    """The first row whose board or roll is invalid, or None."""
    cdef Py_ssize_t row
    _check_shapes(boards, dice)
    if boards.shape[0] == 0:
        return None
    with nogil:
        row = bg_find_invalid(&boards[0, 0], &dice[0, 0], boards.shape[0])
    return None if row < 0 else row


cdef class _RowBuffer:
    """The owner of a row buffer that a numpy array views: the buffer goes
    back to ``bg_rows_release`` when the array (its base) goes."""
    cdef void *data

    def __dealloc__(self):
        bg_rows_release(self.data)


cdef int _rows_obtain(bg_rows *r, Py_ssize_t capacity) except -1:
    """An empty ``r`` with room for ``capacity`` rows (at least one) to start
    with (``bg_rows_obtain``), or MemoryError.  GIL held."""
    if bg_rows_obtain(r, capacity) < 0:
        raise MemoryError()
    return 0


cdef object _take_rows(bg_rows *r):
    """The rows as an int8 (rows, 26) numpy array that owns their memory, or
    None when there are none; ``r`` is left without memory.  The whole pages
    past the rows are returned to the system first."""
    cdef _RowBuffer owner
    cdef cnp.ndarray arr
    cdef cnp.npy_intp dims[2]
    if r.rows == 0:
        return None
    bg_rows_trim(r)
    owner = _RowBuffer.__new__(_RowBuffer)
    owner.data = r.data  # from here on the owner frees it, whatever fails
    dims[0] = r.rows
    dims[1] = 26
    r.data = NULL
    r.capacity = 0
    r.rows = 0
    arr = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_INT8, owner.data)
    cnp.set_array_base(arr, owner)
    return arr


cdef Py_ssize_t _run_with_kit(bg_rows *out, const int8_t *boards, const uint8_t *dice, int64_t *counts,
                              Py_ssize_t start, Py_ssize_t stop, bint flip) except -3:
    """``bg_run_rows`` over rows [start, stop), with a kit of its own and the GIL
    released: ``counts`` gets the numbers of results or, with ``out``, the
    ends of each row's results in it.  Returns -1 or the first invalid row."""
    cdef bg_kit *kit = bg_kit_take(False)
    cdef Py_ssize_t rc
    cdef int cancel = 0
    cdef int64_t base = 0
    if kit == NULL:
        raise MemoryError()
    with nogil:
        rc = bg_run_rows(kit.g, out, kit.scratch, boards, dice, counts, &base if out != NULL else NULL,
                         start, stop, flip, &cancel)
    bg_kit_give(kit, False)
    if rc == -2:
        raise MemoryError()
    return rc


# --- batches over several threads -------------------------------------------

cdef enum:
    # Fewest rows worth a thread of their own: waking a kept native thread
    # and waiting for it costs tens of microseconds (starting one, the first
    # time, more than a hundred), the time of up to a couple of hundred
    # generations.
    _MIN_ROWS_PER_THREAD = 256
    # Rows in a piece that a thread takes at a time (``_piece_rows``): each
    # piece costs a turn of the lock and a copy of its staged part, so larger
    # pieces cost less, while the staged part (about half a piece: some
    # 200 KB of results at 1,024 rows and 16 results a row) still stays in
    # the core's L2 cache until it is copied to its place.  The last pieces
    # of a batch are a quarter of the size.
    _PIECE_ROWS_MIN = 256
    _PIECE_ROWS_MAX = 1024
    # Rows of results reserved per board before a batch starts (a typical
    # corpus has about 16); the buffer grows when that is not enough, and
    # pages never written cost nothing.
    _RESERVE_PER_ROW = 32


MIN_ROWS_PER_THREAD = _MIN_ROWS_PER_THREAD
PIECE_ROWS_MIN = _PIECE_ROWS_MIN
PIECE_ROWS_MAX = _PIECE_ROWS_MAX
RESERVE_PER_ROW = _RESERVE_PER_ROW
STREAM_COPY_ROWS = BG_STREAM_COPY_ROWS


cdef inline int _threads_for(Py_ssize_t n, Py_ssize_t threads) noexcept:
    return <int>max(1, min(threads, n // _MIN_ROWS_PER_THREAD))


cdef inline Py_ssize_t _piece_rows(Py_ssize_t n, int k) noexcept:
    return min(<Py_ssize_t>_PIECE_ROWS_MAX, max(<Py_ssize_t>_PIECE_ROWS_MIN, n // (2 * k)))


def threads_for(Py_ssize_t n, object threads):
    """Threads for n rows: at most ``threads`` (a positive int), and at most
    one per MIN_ROWS_PER_THREAD rows (a small batch gets fewer)."""
    return _threads_for(n, min(threads, max(n, 1)))  # (threads may not fit a C integer)


def piece_rows(Py_ssize_t n, int k):
    """Rows in a piece for n rows shared by k threads: half a thread's share,
    within [PIECE_ROWS_MIN, PIECE_ROWS_MAX], so that a small batch still has
    pieces enough for the threads to finish together."""
    return _piece_rows(n, k)


cdef class Primed:
    """Pool threads taken for a batch and woken ahead of it (``bg_pool_prime``):
    they spin until the batch hands them their work, so that they are running
    by the time its rows are ready rather than tens of microseconds later.
    The batch takes them in ``Batch()``; those it does not take are stopped
    and given back when this goes.
    """
    cdef bg_pool_thread *threads[BG_KEPT]
    cdef int n, taken

    def __cinit__(self, int count):
        """Take and prime up to ``count`` threads (fewer when none can be had)."""
        cdef bg_pool_thread *t
        while self.n < min(count, BG_KEPT):
            t = bg_pool_take()
            if t == NULL:
                break
            bg_pool_prime(t)  # (a thread not primed is woken when handed its work)
            self.threads[self.n] = t
            self.n += 1

    def __dealloc__(self):
        while self.taken < self.n:
            bg_pool_give(self.threads[self.taken])
            self.taken += 1

    @property
    def threads(self):
        """Threads held, not yet taken by a batch."""
        return self.n - self.taken

    cdef bg_pool_thread *take(self) noexcept:
        """A thread not yet taken, or NULL."""
        if self.taken == self.n:
            return NULL
        self.taken += 1
        return self.threads[self.taken - 1]


cdef class Batch:
    """The rows of one batch, shared by several native threads.

    Threads take pieces of consecutive rows in turn (positions differ in cost,
    so fixed shares would leave one waiting); the last pieces are smaller, so
    that the threads run out of work together.  The threads besides the
    caller's come from the pool (taken when the batch is made, or from a
    ``Primed`` set already running, and given back when it goes).  A thread
    generates a piece into its own small staging buffer until the sizes of all earlier pieces are
    known, then writes the rest of it straight to its place in the result
    (``_generate_piece`` in _batchrun.pyx); staged rows are copied there once their place is
    known.  ``run`` does the work (the calling thread is one of the threads);
    ``finish`` places what is left and hands the result over.

    ``counts[i]`` gets row i's number of results or, when the batch keeps
    them (``store``), where they end in the result: ``offsets[i + 1]``, all of
    them once ``finish`` has returned (until then, rows of pieces not yet
    placed still hold their numbers of results).
    """
    cdef object keep                  # the arrays the pointers in job view
    cdef bg_batch job
    cdef bint ran, running, finished

    def __cinit__(self, const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice, int64_t[::1] counts,
                  int threads, Py_ssize_t piece_rows, bint flip, bint store, Py_ssize_t reserve_rows,
                  Primed primed=None):
        _check_shapes(boards, dice)
        if counts.shape[0] != boards.shape[0]:
            raise ValueError("inconsistent batch")
        self.keep = (boards, dice, counts)
        _batch_init(&self.job, &boards[0, 0] if boards.shape[0] else NULL, &dice[0, 0] if boards.shape[0] else NULL,
                    &counts[0] if boards.shape[0] else NULL, boards.shape[0], threads, piece_rows, flip, store,
                    reserve_rows, primed)

    def __dealloc__(self):
        bg_batch_clear(&self.job)

    @property
    def bad_row(self):
        """The lowest invalid row a thread met, or None."""
        return None if self.job.bad_row < 0 else self.job.bad_row

    def run(self):
        """Generate the batch's rows: workers 1.. in the pool's native threads,
        worker 0 in the calling thread, the GIL released until all are done."""
        if self.ran:
            raise RuntimeError("the batch has run already")
        self.ran = self.running = True
        try:
            _batch_run(&self.job)
        finally:
            self.running = False

    def finish(self):
        """After ``run``: place what is left and hand the result over as an int8
        (rows, 26) numpy array (None when empty)."""
        cdef bg_batch *job = &self.job
        if job.nomem:
            raise MemoryError()
        if not job.store or self.finished:
            raise RuntimeError("the batch keeps no results, or they were handed over already")
        if not self.ran or self.running or job.cancel or job.known != job.npieces:
            raise RuntimeError("the batch was not completed")
        self.finished = True
        return _batch_finish(job)


cdef int _batch_init(bg_batch *job, const int8_t *boards, const uint8_t *dice, int64_t *counts, Py_ssize_t n,
                     int threads, Py_ssize_t piece_rows, bint flip, bint store, Py_ssize_t reserve_rows,
                     Primed primed) except -1:
    """Set up a zeroed ``job`` for n rows (see ``Batch``); ``bg_batch_clear``
    frees what it holds, whether this succeeded or not."""
    cdef int i
    if threads < 1 or piece_rows < 1:
        raise ValueError("inconsistent batch")
    if bg_batch_setup(job, boards, dice, counts, n, threads, piece_rows, flip, store) < 0:
        raise MemoryError()
    for i in range(1, threads):
        # A thread that cannot be had leaves its pieces to the others
        # (worker 0 takes pieces until none is left).
        if bg_batch_hire(&job.workers[i], primed.take() if primed is not None else NULL) < 0:
            raise MemoryError()
    if store:
        _rows_obtain(&job.result, reserve_rows)
    return 0


cdef int _batch_run(bg_batch *job) except -1:
    """Generate the rows, the calling thread among the workers, the GIL
    released until all are done."""
    bg_batch_run(job)
    if job.nomem:
        raise MemoryError()
    return 0


cdef object _batch_finish(bg_batch *job):
    """After a complete ``_batch_run`` of a batch that keeps its results: place
    what is left and hand the result over (``_take_rows``)."""
    if bg_batch_complete(job) < 0:
        raise MemoryError()
    return _take_rows(&job.result)


def rows(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice, int threads, Py_ssize_t piece_rows,
         bint flip, bint store, Py_ssize_t reserve_rows, Primed primed=None):
    """``generate`` (``store``) or ``count`` of ``bgcore.batch`` over checked
    8-bit arrays, in one call (see ``_rows``).

    ``threads`` native threads share the rows (one: the calling thread
    alone, into a buffer of ``reserve_rows`` rows to start with; more: in
    pieces of ``piece_rows``, see ``Batch``, with the threads ``primed``
    first).  Returns ``(children, offsets)`` or the counts, or None when a
    row is invalid (batch.py names it).
    """
    _check_shapes(boards, dice)
    n = boards.shape[0]
    return _rows(&boards[0, 0] if n else NULL, &dice[0, 0] if n else NULL, n, threads, piece_rows, flip, store,
                 reserve_rows, primed)


cdef object _rows(const int8_t *boards, const uint8_t *dice, Py_ssize_t n, int threads, Py_ssize_t piece_rows,
                  bint flip, bint store, Py_ssize_t reserve_rows, Primed primed):
    """``rows`` over n rows of boards and dice: the numpy arrays returned are
    made here, and a batch on several threads lives in C rather than in a
    ``Batch``."""
    cdef Py_ssize_t rc
    cdef cnp.npy_intp dims[2]
    cdef cnp.ndarray offsets
    cdef object children = None
    cdef int64_t *ends
    cdef bg_rows out
    cdef bg_batch job
    dims[0] = n + 1 if store else n
    offsets = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT64, 0)
    ends = <int64_t *>cnp.PyArray_DATA(offsets)
    if store:
        ends[0] = 0
        ends += 1
    if n and threads == 1:
        if store:
            _rows_obtain(&out, reserve_rows)
            try:
                rc = _run_with_kit(&out, boards, dice, ends, 0, n, flip)
                if rc != -1:
                    return None
                children = _take_rows(&out)
            finally:
                bg_rows_release(out.data)  # (NULL once taken)
        elif _run_with_kit(NULL, boards, dice, ends, 0, n, False) != -1:
            return None
    elif n:
        memset(&job, 0, sizeof(job))
        try:
            _batch_init(&job, boards, dice, ends, n, threads, piece_rows, flip, store, reserve_rows, primed)
            _batch_run(&job)
            if job.bad_row >= 0:
                return None
            if store:
                children = _batch_finish(&job)
        finally:
            bg_batch_clear(&job)
    if not store:
        return offsets
    if children is None:
        dims[0] = 0
        dims[1] = 26
        children = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT8, 0)
    return children, offsets


def kept_buffers():
    """The capacities in bytes of the result buffers kept for reuse, the least
    recently released first."""
    cdef size_t caps[16]
    cdef int n = min(bg_rows_kept(caps, 16), 16)
    return [caps[i] for i in range(n)]


def release_buffers():
    """Free the result buffer and the threads' working memory kept for reuse,
    and end the idle pool threads."""
    bg_forget_kept()
    bg_pool_forget()


def count_many(const unsigned char[::1] boards, const unsigned char[::1] dice):
    """Total distinct results over many (board, roll) pairs, without the GIL.

    ``boards`` holds n boards of 26 signed bytes back to back, ``dice`` n
    pairs of dice; an invalid board raises ValueError naming its index.  A native loop for
    benchmarks and batch work: no Python object per generation.
    """
    cdef Py_ssize_t n = dice.shape[0] // 2, i, rc
    cdef long long total = 0
    if boards.shape[0] != 26 * n or dice.shape[0] != 2 * n:
        raise ValueError("boards must hold 26 bytes and dice 2 bytes per generation")
    if n == 0:
        return 0
    cdef int64_t *counts = <int64_t *>malloc(n * sizeof(int64_t))
    if counts == NULL:
        raise MemoryError()
    try:
        rc = _run_with_kit(NULL, <const int8_t *>&boards[0], &dice[0], counts, 0, n, False)
        if rc >= 0:
            raise ValueError(f"generation {rc}: {row_problem(bytes(boards[26 * rc:26 * rc + 26]), dice[2 * rc], dice[2 * rc + 1])}")
        for i in range(n):
            total += counts[i]
    finally:
        free(counts)
    return total



# --- the whole call in C ----------------------------------------------------

cdef enum:
    # Most rows a batch may have to be done by ``call`` with the GIL held, in
    # the calling thread, from integer arrays of any width.  A bot asks for
    # one row at a time, where checking and wrapping the arrays in Python
    # cost several times the generation; batches this small (a few µs a row
    # at most) never get a second thread.
    SMALL_ROWS = 64


SMALL_MAX_ROWS = SMALL_ROWS


cdef bint _rows_of(object obj, Py_ssize_t width, Py_ssize_t n) noexcept:
    """Whether ``obj`` is an aligned, native-order C-contiguous integer array of
    shape (n, width) (n < 0: any number of rows)."""
    if not cnp.PyArray_Check(obj):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>obj
    if cnp.PyArray_NDIM(a) != 2 or cnp.PyArray_DIMS(a)[1] != width:
        return False
    if n >= 0 and cnp.PyArray_DIMS(a)[0] != n:
        return False
    return (cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_ISBEHAVED_RO(a)
            and cnp.PyArray_ISINTEGER(a))


cdef bint _narrow(cnp.ndarray a, Py_ssize_t count, int lo, int hi, int8_t *out) noexcept:
    """Copy an integer array's ``count`` values into ``out`` as bytes; False
    when one lies outside [lo, hi] (batch.py words the error)."""
    cdef Py_ssize_t i
    cdef long long v
    cdef unsigned long long u
    cdef const char *p = <const char *>cnp.PyArray_DATA(a)
    cdef int size = <int>cnp.PyArray_ITEMSIZE(a)
    cdef bint signed = cnp.PyArray_ISSIGNED(a)
    for i in range(count):
        # (One type per branch: a conditional expression of a signed and an
        # unsigned type would be unsigned.)
        if signed:
            if size == 1:
                v = (<const int8_t *>p)[i]
            elif size == 2:
                v = (<const short *>p)[i]
            elif size == 4:
                v = (<const int *>p)[i]
            elif size == 8:
                v = (<const long long *>p)[i]
            else:
                return False
        else:
            if size == 1:
                v = (<const uint8_t *>p)[i]
            elif size == 2:
                v = (<const unsigned short *>p)[i]
            elif size == 4:
                v = (<const unsigned int *>p)[i]
            elif size == 8:
                u = (<const unsigned long long *>p)[i]
                if u > <unsigned long long>hi:
                    return False
                v = <long long>u
            else:
                return False
        if v < lo or v > hi:
            return False
        out[i] = <int8_t>v
    return True


def ready(object boards, object dice):
    """``(boards, dice as uint8, dice)`` when both are arrays a batch can use as
    they are: int8 boards of shape (n, 26) and int8 or uint8 dice of shape
    (n, 2), aligned and C-contiguous; else None (batch.py converts them).

    The common case, checked in C: numpy's own checks and conversions cost
    tens of microseconds a call, paid alone before any thread starts.
    """
    cdef cnp.ndarray b, d
    cdef Py_ssize_t n
    if not cnp.PyArray_Check(boards) or cnp.PyArray_NDIM(<cnp.ndarray>boards) != 2:
        return None
    b = <cnp.ndarray>boards
    n = cnp.PyArray_DIMS(b)[0]
    if not _rows_of(b, 26, n) or cnp.PyArray_TYPE(b) != cnp.NPY_INT8 or not _rows_of(dice, 2, n):
        return None
    d = <cnp.ndarray>dice
    if cnp.PyArray_TYPE(d) == cnp.NPY_UINT8:
        return boards, dice, dice
    if cnp.PyArray_TYPE(d) == cnp.NPY_INT8:
        return boards, d.view(np.uint8), dice  # a negative die reads as a large one: invalid all the same
    return None


def call(object boards, object dice, object threads, object flip, bint store):
    """``generate`` (``store``) or ``count`` of ``bgcore.batch``, all in C: checks,
    generation and the numpy arrays returned.

    A batch of at most SMALL_ROWS rows runs with the GIL held, in the calling
    thread; a larger one runs as ``rows`` does, on as many threads as
    ``threads_for`` gives.  Between the checks of a batch and its numpy
    arrays, the Python steps of batch.py would each cost several times what
    they do warm, after a large batch's rows have filled the core's caches.

    Returns None whenever the call needs batch.py's own handling: boards or
    dice that are not integer arrays of shape (n, 26) and (n, 2) laid out in
    C order (of more than SMALL_ROWS rows: int8 boards and int8 or uint8
    dice), a value outside what its row may hold, threads that are not a
    positive int, or an invalid row.  batch.py then takes the call from the
    start and raises its error, so every message is worded in one place.
    Nothing has been done then, but for a large batch with an invalid row,
    generated up to that row.
    """
    cdef Py_ssize_t n, m, i
    cdef int8_t board_copy[SMALL_ROWS * 26]
    cdef uint8_t dice_copy[SMALL_ROWS * 2]
    cdef const int8_t *b
    cdef const uint8_t *d
    cdef cnp.ndarray arr, out, offsets
    cdef cnp.npy_intp dims[2]
    cdef bg_kit *kit
    cdef Py_ssize_t rc
    cdef int cancel = 0
    cdef int64_t base = 0
    cdef bint flipped
    cdef int k
    if type(threads) is not int or not 1 <= threads <= _MAX_THREADS:
        return None  # (batch.py says what is wrong)
    if not _rows_of(boards, 26, -1):
        return None
    arr = <cnp.ndarray>boards
    n = cnp.PyArray_DIMS(arr)[0]
    if not _rows_of(dice, 2, n):
        return None
    if n > SMALL_ROWS:
        if cnp.PyArray_TYPE(arr) != cnp.NPY_INT8 or cnp.PyArray_ITEMSIZE(<cnp.ndarray>dice) != 1:
            return None
        # (A negative int8 die reads as a large uint8 one: invalid all the same.)
        k = threads_for(n, threads)
        return _rows(<const int8_t *>cnp.PyArray_DATA(arr), <const uint8_t *>cnp.PyArray_DATA(<cnp.ndarray>dice),
                     n, k, _piece_rows(n, k), bool(flip), store, _RESERVE_PER_ROW * n,
                     Primed(k - 1) if k > 1 else None)
    if cnp.PyArray_TYPE(arr) == cnp.NPY_INT8:
        b = <const int8_t *>cnp.PyArray_DATA(arr)
    elif _narrow(arr, 26 * n, -BG_MAX_CHECKERS, BG_MAX_CHECKERS, board_copy):
        b = board_copy
    else:
        return None
    arr = <cnp.ndarray>dice
    if cnp.PyArray_ITEMSIZE(arr) == 1:
        # A negative int8 die reads as a large uint8 one: invalid all the same.
        d = <const uint8_t *>cnp.PyArray_DATA(arr)
    elif _narrow(arr, 2 * n, 1, 6, <int8_t *>dice_copy):
        d = dice_copy
    else:
        return None
    flipped = store and flip
    dims[0] = n if not store else n + 1
    offsets = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT64, 0)
    kit = bg_kit_take(False)
    if kit == NULL:
        raise MemoryError()
    if not store:
        rc = bg_run_rows(kit.g, NULL, kit.scratch, b, d, <int64_t *>cnp.PyArray_DATA(offsets), NULL,
                         0, n, False, &cancel)
    else:
        (<int64_t *>cnp.PyArray_DATA(offsets))[0] = 0
        rc = bg_run_rows(kit.g, &kit.staging, kit.scratch, b, d, <int64_t *>cnp.PyArray_DATA(offsets) + 1, &base,
                         0, n, flipped, &cancel)
        m = kit.staging.rows
        if rc == -1:
            dims[0] = m
            dims[1] = 26
            try:
                out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT8, 0)
            except BaseException:
                bg_kit_give(kit, False)
                raise
            if m:
                memcpy(cnp.PyArray_DATA(out), kit.staging.data, 26 * m)
    bg_kit_give(kit, False)
    if rc == -2:
        raise MemoryError()
    if rc != -1:
        return None
    return (out, offsets) if store else offsets
