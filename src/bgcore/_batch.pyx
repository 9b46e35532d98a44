# cython: language_level=3
"""Batch generation over arrays of boards and rolls, behind ``bgcore.batch``.

Rows are checked and generated in C without the GIL, by the calling thread
alone or by several (``Batch``, on threads of the pool in ``_pool``), in one
call from batch.py (``call``, or ``rows`` for arrays it converted).  Results
go into row buffers from ``bg_rowbuf.c``, handed to numpy without a copy.
Each thread works with a kit (a generator and small buffers) kept between
calls.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
cimport numpy as cnp
import numpy as np
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

from bgcore.movegen cimport (bg_board, bg_movegen, bg_movegen_new, bg_movegen_free, bg_validate,
                             bg_generate_boards, bg_count, BG_MAX_RESULTS, BG_MAX_CHECKERS, BG_ERR_BAD_DICE,
                             BG_ERR_OVERFLOW)
from bgcore._results import row_problem
from bgcore._pool cimport (bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_prime, bg_pool_submit, bg_pool_wait,
                           bg_pool_forget)

cnp.import_array()

cdef extern from "bg_platform.h":
    void bg_flip_pt(const int8_t *b, int8_t *out) noexcept nogil
    void bg_copy_nontemporal(void *dst, const void *src, size_t n) noexcept nogil
    int bg_flag_get(volatile int *p) noexcept nogil
    void bg_flag_set(volatile int *p) noexcept nogil
    ptrdiff_t bg_load_acquire(volatile ptrdiff_t *p) noexcept nogil
    void bg_store_release(volatile ptrdiff_t *p, ptrdiff_t v) noexcept nogil

cdef extern from "bg_rowbuf.h":
    size_t bg_buf_capacity(const char *data) noexcept nogil
    char *bg_buf_alloc(size_t n) noexcept nogil
    void bg_buf_free(char *data) noexcept nogil
    char *bg_buf_obtain(size_t n) noexcept
    void bg_buf_release(void *data) noexcept
    void bg_buf_forget() noexcept
    int bg_buf_kept(size_t *capacities, int max) noexcept
    void bg_buf_trim(char *data, size_t used) noexcept nogil


# --- batch generation ----------------------------------------------------

cdef Py_ssize_t _find_invalid(const int8_t *boards, const uint8_t *dice, Py_ssize_t n) noexcept nogil:
    """The first row whose board or roll is invalid, or -1."""
    cdef Py_ssize_t i
    for i in range(n):
        if _check_row(&boards[26 * i], &dice[2 * i]):
            return i
    return -1


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
        row = _find_invalid(&boards[0, 0], &dice[0, 0], boards.shape[0])
    return None if row < 0 else row


ctypedef struct bg_rows:
    int8_t *data           # rows of 26 bytes, from bg_buf_alloc / bg_buf_obtain
    Py_ssize_t rows
    Py_ssize_t capacity


cdef int _rows_grow(bg_rows *r, Py_ssize_t need) noexcept nogil:
    """Room for ``need`` rows in all; 0, or -1 when out of memory."""
    cdef Py_ssize_t k = max(2 * r.capacity, need)
    cdef int8_t *grown = <int8_t *>bg_buf_alloc(<size_t>k * 26)
    if grown == NULL:
        return -1
    if r.rows:
        memcpy(grown, r.data, r.rows * 26)
    bg_buf_free(<char *>r.data)
    r.data = grown
    r.capacity = k
    return 0


cdef int _check_row(const int8_t *board, const uint8_t *dice) noexcept nogil:
    """0 for a valid board and roll, else a BG_ERR_ code."""
    cdef int rc = bg_validate(<const bg_board *>board)
    if rc < 0:
        return -rc
    if dice[0] < 1 or dice[0] > 6 or dice[1] < 1 or dice[1] > 6:
        return BG_ERR_BAD_DICE
    return 0


cdef Py_ssize_t _run_rows(bg_movegen *g, bg_rows *out, bg_board *scratch,
                          const int8_t *boards, const uint8_t *dice, int64_t *counts,
                          const int64_t *ends_base, Py_ssize_t start, Py_ssize_t stop, bint flip,
                          volatile int *cancel) noexcept nogil:
    """Check and generate rows [start, stop) in order.  The results are
    appended to ``out`` or, when it is NULL, written to ``scratch``
    (BG_MAX_RESULTS boards) and dropped.

    ``counts[i]`` gets row i's number of results or, when ``ends_base`` is
    not NULL (only with an ``out``), where they end: ``ends_base[0]`` plus
    ``out``'s rows after them (the caller's offsets[i + 1], with no pass over
    the rows afterwards).

    Returns -1 when every row is done, the index of an invalid row (nothing
    after it is generated), -2 when out of memory, or -3 when ``cancel[0]``
    was set (by another thread that met an invalid row).
    """
    cdef Py_ssize_t i = start, room
    cdef int n, k
    cdef bg_board *row
    while i < stop:
        if bg_flag_get(cancel):
            return -3
        if _check_row(&boards[26 * i], &dice[2 * i]):
            return i
        if out == NULL:
            n = bg_count(g, <const bg_board *>&boards[26 * i], dice[2 * i], dice[2 * i + 1], scratch)
        else:
            # Results go straight into the buffer; a row that does not fit
            # is generated again after growing (rare: buffers start with room
            # for 32 results a row).
            room = out.capacity - out.rows
            row = <bg_board *>(out.data + 26 * out.rows)
            n = bg_generate_boards(g, <const bg_board *>&boards[26 * i], dice[2 * i], dice[2 * i + 1],
                                   row, <int>min(room, BG_MAX_RESULTS))
            if n == -BG_ERR_OVERFLOW and room < BG_MAX_RESULTS:
                if _rows_grow(out, out.rows + BG_MAX_RESULTS + 32 * (stop - i)) < 0:
                    return -2
                continue
            if flip:
                for k in range(n):
                    bg_flip_pt(row[k].pt, row[k].pt)
            out.rows += n
        counts[i] = n if ends_base == NULL else ends_base[0] + out.rows
        i += 1
    return -1


cdef void _to_ends(int64_t *counts, Py_ssize_t start, Py_ssize_t stop, int64_t base) noexcept nogil:
    """Turn the numbers of results of rows [start, stop) into where each row's
    results end, when the first begins at row ``base``."""
    cdef Py_ssize_t i
    for i in range(start, stop):
        base += counts[i]
        counts[i] = base


cdef class _RowBuffer:
    """The owner of a row buffer that a numpy array views: the buffer goes
    back to ``bg_buf_release`` when the array (its base) goes."""
    cdef void *data

    def __dealloc__(self):
        bg_buf_release(self.data)


cdef int _rows_obtain(bg_rows *r, Py_ssize_t capacity) except -1:
    """An empty ``r`` with room for ``capacity`` rows (at least one) to start
    with, from ``bg_buf_obtain``: the buffer of an earlier batch that has been
    released, when one is of about that size.  GIL held."""
    r.data = <int8_t *>bg_buf_obtain(<size_t>max(capacity, 1) * 26)
    if r.data == NULL:
        raise MemoryError()
    r.rows = 0
    r.capacity = <Py_ssize_t>(bg_buf_capacity(<char *>r.data) // 26)
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
    bg_buf_trim(<char *>r.data, r.rows * 26)
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


# --- working memory of a thread, kept between calls -------------------------

ctypedef struct bg_kit:
    bg_movegen *g          # a generator of its own
    bg_board *scratch      # BG_MAX_RESULTS boards, where counted results go
    bg_rows staging        # results waiting for their place (batches over threads)


cdef enum:
    _KEPT = 16             # kits kept at most, of each kind (as many as the pool keeps threads)


ctypedef struct bg_stack:
    # Things kept for later calls, last in first out.  Used with the GIL
    # held, which guards it.
    void *items[_KEPT]
    int n


cdef inline bint _keep(bg_stack *kept, void *item) noexcept:
    """Keep ``item``; False (not kept) when ``kept`` is full."""
    if kept.n == _KEPT:
        return False
    kept.items[kept.n] = item
    kept.n += 1
    return True


cdef inline void *_unkeep(bg_stack *kept) noexcept:
    """The item kept last, taken out; NULL when there is none."""
    if kept.n == 0:
        return NULL
    kept.n -= 1
    return kept.items[kept.n]


#: Kits kept for the next call: a thread's generator and buffers (about
#: 1.1 MB with pieces of 1,024 rows) allocated per call cost a page fault per
#: 4 KiB each time, because the allocator hands freed blocks of that size
#: back to the system.
cdef bg_stack _kits
#: Kits of the pool's threads, kept apart from those of calling threads: a
#: kit holds the generator's table and the staging buffer, warm in the cache
#: of the core that used it last.  Taken and given back in the same order as
#: the pool's idle threads (both last in, first out), a pool thread mostly
#: gets the kit it had in its last batch.
cdef bg_stack _pool_kits

cdef enum:
    # A staging buffer grown past this many rows (a thread waited long for
    # another's pieces) is freed rather than kept.
    _STAGING_KEPT_ROWS = 65536


cdef void _kit_free(bg_kit *kit) noexcept nogil:
    if kit != NULL:
        bg_movegen_free(kit.g)
        free(kit.scratch)
        bg_buf_free(<char *>kit.staging.data)
        free(kit)


cdef bg_kit *_kit_take(bint pool=False) noexcept:
    """A kept kit (one of the pool threads' with ``pool``), or a new one;
    NULL when out of memory.  GIL held."""
    cdef bg_kit *kit = <bg_kit *>_unkeep(&_pool_kits if pool else &_kits)
    if kit != NULL:
        return kit
    kit = <bg_kit *>calloc(1, sizeof(bg_kit))
    if kit == NULL:
        return NULL
    kit.g = bg_movegen_new()
    kit.scratch = <bg_board *>malloc(BG_MAX_RESULTS * sizeof(bg_board))
    if kit.g == NULL or kit.scratch == NULL:
        _kit_free(kit)
        return NULL
    return kit


cdef void _kit_empty(bg_kit *kit) noexcept nogil:
    """Empty the kit's staging buffer (and free it when it grew large)."""
    kit.staging.rows = 0
    if kit.staging.capacity > _STAGING_KEPT_ROWS:
        bg_buf_free(<char *>kit.staging.data)
        kit.staging.data = NULL
        kit.staging.capacity = 0


cdef void _kit_give(bg_kit *kit, bint pool=False) noexcept:
    """Keep ``kit`` for a later call (with the pool threads' kits when
    ``pool``), or free it.  GIL held."""
    if kit == NULL:
        return
    _kit_empty(kit)
    if not _keep(&_pool_kits if pool else &_kits, kit):
        _kit_free(kit)


cdef void _kits_forget() noexcept:
    """Free every kept kit.  GIL held."""
    while _kits.n:
        _kit_free(<bg_kit *>_unkeep(&_kits))
    while _pool_kits.n:
        _kit_free(<bg_kit *>_unkeep(&_pool_kits))


cdef Py_ssize_t _run_with_kit(bg_rows *out, const int8_t *boards, const uint8_t *dice, int64_t *counts,
                              Py_ssize_t start, Py_ssize_t stop, bint flip) except -3:
    """``_run_rows`` over rows [start, stop), with a kit of its own and the GIL
    released: ``counts`` gets the numbers of results or, with ``out``, the
    ends of each row's results in it.  Returns -1 or the first invalid row."""
    cdef bg_kit *kit = _kit_take()
    cdef Py_ssize_t rc
    cdef int cancel = 0
    cdef int64_t base = 0
    if kit == NULL:
        raise MemoryError()
    with nogil:
        rc = _run_rows(kit.g, out, kit.scratch, boards, dice, counts, &base if out != NULL else NULL,
                       start, stop, flip, &cancel)
    _kit_give(kit)
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
    # Boards from which a batch on several threads copies its staged rows to
    # their place with non-temporal stores (``_place_staged``).  The results
    # of such a batch (some 3 MB at 16 a board) outgrow a core's own caches,
    # so copied lines would not stay there until anyone reads them, while a
    # plain copy first reads every line it overwrites and fills the cache
    # that the rows still being generated work in.  A smaller batch's
    # results can stay in the cache, where the caller reads them next.
    _STREAM_COPY_ROWS = 8192


MIN_ROWS_PER_THREAD = _MIN_ROWS_PER_THREAD
PIECE_ROWS_MIN = _PIECE_ROWS_MIN
PIECE_ROWS_MAX = _PIECE_ROWS_MAX
RESERVE_PER_ROW = _RESERVE_PER_ROW
STREAM_COPY_ROWS = _STREAM_COPY_ROWS


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


cdef extern from "pythread.h":
    # Declared here because Cython's own declaration takes a function that
    # needs the GIL; the thread runs without one.
    unsigned long PyThread_start_new_thread(void (*func)(void *) noexcept nogil, void *arg) nogil
    unsigned long PYTHREAD_INVALID_THREAD_ID
    # Cython's declaration needs the GIL, which a pool thread ending itself lacks.
    void bg_free_lock "PyThread_free_lock"(PyThread_type_lock lock) noexcept nogil


ctypedef struct bg_staged:
    Py_ssize_t piece       # a piece with rows in staging
    Py_ssize_t at          # the staging row where they begin
    Py_ssize_t skip        # rows of the piece before them (written straight)
    bint unplaced          # the whole piece: its rows get their ends when it is placed


ctypedef struct bg_worker:
    bg_kit *kit            # its generator, scratch and staging (results waiting for their place)
    bg_staged *staged      # the staged parts, in order
    Py_ssize_t first       # staged[first:count] are not placed yet
    Py_ssize_t count
    Py_ssize_t capacity    # of staged (grown as needed)
    void *job              # the bg_batch it works for
    bg_pool_thread *thread  # the pool's native thread that runs it (NULL: the caller's)


ctypedef struct bg_batch:
    const int8_t *boards
    const uint8_t *dice
    int64_t *counts        # per row: its number of results or, when the results are
                           # kept, where they end in the result (offsets[1:])
    Py_ssize_t n, npieces, next_piece, bad_row
    Py_ssize_t piece_rows  # rows of each of the first ``big`` pieces
    Py_ssize_t big         # pieces of piece_rows rows; the rest are a quarter of that
    volatile ptrdiff_t known   # pieces whose offsets are known (bg_load_acquire/bg_store_release)
    Py_ssize_t *sizes      # results per piece, -1 until generated
    Py_ssize_t *offsets    # first result row of each piece (<= known)
    bint flip, store
    int nomem
    volatile int cancel    # set when a thread meets an invalid row or runs out of memory
    bg_rows result
    bg_worker *workers
    int nworkers
    PyThread_type_lock lock  # guards next_piece, sizes, offsets, bad_row, nomem and raising known


cdef enum:
    _CHUNK_ROWS = 16       # rows generated between looks for a piece's place

    # How a piece's rows are being written (_generate_piece)
    _STAGED = 0            # to staging: the piece's place is not known yet
    _STRAIGHT = 1          # straight into the result, at the piece's place
    _TAIL = 2              # to staging again: no room left for any row's results


cdef inline Py_ssize_t _small_rows(Py_ssize_t piece_rows) noexcept nogil:
    """Rows of a piece near the end of a batch."""
    return max(1, piece_rows // 4)


cdef inline Py_ssize_t _piece_start(bg_batch *job, Py_ssize_t p, Py_ssize_t *stop) noexcept nogil:
    """The first row of piece p; ``stop[0]`` gets the row after its last."""
    cdef Py_ssize_t start, rows
    if p < job.big:
        rows = job.piece_rows
        start = p * rows
    else:
        rows = _small_rows(job.piece_rows)
        start = job.big * job.piece_rows + (p - job.big) * rows
    stop[0] = min(job.n, start + rows)
    return start


cdef inline Py_ssize_t _piece_offset(bg_batch *job, Py_ssize_t p) noexcept nogil:
    """Where piece p begins in the result, or -1 while an earlier piece is
    unsized.  Without the lock: a thread staging a piece looks every few rows."""
    if bg_load_acquire(&job.known) >= p:
        return job.offsets[p]
    return -1


cdef inline Py_ssize_t _straight_rows(bg_batch *job, Py_ssize_t pos, Py_ssize_t rows) noexcept nogil:
    """How many of ``rows`` rows can be generated into the result from row
    ``pos`` on, however many results they have (BG_MAX_RESULTS each at most),
    so that the result never needs to grow under a thread writing into it
    (0 when ``pos`` lies past the result: the piece waits for ``finish``)."""
    if pos + BG_MAX_RESULTS > job.result.capacity:
        return 0
    return min(rows, (job.result.capacity - pos) // BG_MAX_RESULTS)


cdef inline void _place_staged(bg_batch *job, Py_ssize_t at, const int8_t *rows, Py_ssize_t count) noexcept nogil:
    """Copy ``count`` staged rows to row ``at`` of the result (with non-temporal
    stores from _STREAM_COPY_ROWS boards on)."""
    if job.n >= _STREAM_COPY_ROWS:
        bg_copy_nontemporal(job.result.data + 26 * at, rows, 26 * count)
    else:
        memcpy(job.result.data + 26 * at, rows, 26 * count)


cdef int _staged_grow(bg_worker *w) noexcept nogil:
    """Twice the room for staged parts; 0, or -1 when out of memory."""
    cdef Py_ssize_t k = max(16, 2 * w.capacity)
    cdef bg_staged *grown = <bg_staged *>realloc(w.staged, k * sizeof(bg_staged))
    if grown == NULL:
        return -1
    w.staged = grown
    w.capacity = k
    return 0


cdef Py_ssize_t _generate_piece(bg_batch *job, bg_worker *w, Py_ssize_t p,
                                Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Generate piece p (rows [start, stop)) and size it; returns ``_run_rows``'s
    code (-1: done).

    The rows go to the worker's staging buffer until the piece's place is
    known (every earlier piece sized); from then on the staged rows are copied
    there and the rest are written straight into the result, which spares
    copying them later.  Two threads taking pieces in turn learn their place
    about halfway through a piece.  What is still staged at the end is listed
    for ``_batch_place``.  Each row's end in the result goes to ``job.counts``
    once the piece's place is known (for a piece staged whole: once it is
    placed, by ``_batch_place``).
    """
    cdef bg_rows *staging = &w.kit.staging
    cdef bg_rows straight
    cdef Py_ssize_t before = staging.rows, i = start, end, off = 0, rows, rc = -1, known
    cdef Py_ssize_t written = 0  # rows of results at the piece's place (from off on)
    cdef int64_t base            # where the rows of the buffer being written to begin
    cdef int mode = _STAGED
    while i < stop and rc == -1:
        end = min(stop, i + _CHUNK_ROWS)
        if mode == _STAGED:
            off = _piece_offset(job, p)
            if off >= 0:
                _to_ends(job.counts, start, i, off)
                mode = _TAIL
                if _straight_rows(job, off + staging.rows - before, 1):
                    written = staging.rows - before
                    _place_staged(job, off, staging.data + 26 * before, written)
                    staging.rows = before
                    mode = _STRAIGHT
        if mode == _STRAIGHT:
            rows = _straight_rows(job, off + written, end - i)
            if rows:
                end = i + rows
            else:
                mode = _TAIL
        if mode == _STRAIGHT:
            straight.data = job.result.data + 26 * (off + written)
            straight.rows = 0
            straight.capacity = BG_MAX_RESULTS * (end - i)
            base = off + written
            rc = _run_rows(w.kit.g, &straight, w.kit.scratch, job.boards, job.dice,
                           job.counts, &base, i, end, job.flip, &job.cancel)
            written += straight.rows
        else:
            base = off + written - before  # staging's rows from ``before`` on follow ``written``
            rc = _run_rows(w.kit.g, staging, w.kit.scratch, job.boards, job.dice,
                           job.counts, &base if mode == _TAIL else NULL, i, end, job.flip, &job.cancel)
        i = end
    if rc != -1:
        return rc
    if staging.rows > before or mode == _STAGED:
        if w.count == w.capacity and _staged_grow(w) < 0:
            return -2
        w.staged[w.count].piece = p
        w.staged[w.count].at = before
        w.staged[w.count].skip = written
        w.staged[w.count].unplaced = mode == _STAGED
        w.count += 1
    PyThread_acquire_lock(job.lock, WAIT_LOCK)
    job.sizes[p] = written + staging.rows - before
    known = job.known
    while known < job.npieces and job.sizes[known] >= 0:
        job.offsets[known + 1] = job.offsets[known] + job.sizes[known]
        known += 1
    bg_store_release(&job.known, known)  # after the offsets it makes known
    PyThread_release_lock(job.lock)
    return -1


cdef void _batch_work(bg_batch *job, bg_worker *w) noexcept nogil:
    """Take and generate pieces until none is left (or the batch is cancelled)."""
    cdef Py_ssize_t p, start, stop, rc
    cdef bg_rows *staging = &w.kit.staging
    while True:
        PyThread_acquire_lock(job.lock, WAIT_LOCK)
        p = job.next_piece
        job.next_piece += 1
        PyThread_release_lock(job.lock)
        if p >= job.npieces or bg_flag_get(&job.cancel):
            break
        start = _piece_start(job, p, &stop)
        if not job.store:
            rc = _run_rows(w.kit.g, NULL, w.kit.scratch, job.boards, job.dice,
                           job.counts, NULL, start, stop, job.flip, &job.cancel)
        elif staging.capacity < 32 * job.piece_rows and _rows_grow(staging, 32 * job.piece_rows) < 0:
            rc = -2
        else:
            rc = _generate_piece(job, w, p, start, stop)
        if rc != -1:
            PyThread_acquire_lock(job.lock, WAIT_LOCK)
            if rc >= 0 and (job.bad_row < 0 or rc < job.bad_row):
                job.bad_row = rc
            if rc == -2:
                job.nomem = 1
            bg_flag_set(&job.cancel)
            PyThread_release_lock(job.lock)
            return
        if job.store:
            _batch_place(job, w)
    # Pieces still waiting for another thread's earlier ones (a few at
    # most) are placed by Batch.finish, rather than waited for here.


cdef void _batch_place(bg_batch *job, bg_worker *w) noexcept nogil:
    """Copy the worker's staged pieces whose place is known (and fits) to the
    result; a piece staged whole gets its rows' ends then too."""
    cdef Py_ssize_t known = bg_load_acquire(&job.known), off, size, start, stop
    cdef bg_staged *part
    while w.first < w.count and w.staged[w.first].piece < known:
        part = &w.staged[w.first]
        off = job.offsets[part.piece] + part.skip
        size = job.sizes[part.piece] - part.skip
        if off + size > job.result.capacity:
            break  # left for Batch.finish, which grows the result
        _place_staged(job, off, w.kit.staging.data + 26 * part.at, size)
        if part.unplaced:
            start = _piece_start(job, part.piece, &stop)
            _to_ends(job.counts, start, stop, off)
        w.first += 1
    if w.count and w.first == w.count:  # (staging holds rows only of listed parts)
        w.first = w.count = 0
        w.kit.staging.rows = 0


cdef void _batch_task(void *arg) noexcept nogil:
    """What a pool thread runs: its worker's share of the batch."""
    cdef bg_worker *w = <bg_worker *>arg
    _batch_work(<bg_batch *>w.job, w)


cdef class Primed:
    """Pool threads taken for a batch and woken ahead of it (``bg_pool_prime``):
    they spin until the batch hands them their work, so that they are running
    by the time its rows are ready rather than tens of microseconds later.
    The batch takes them in ``Batch()``; those it does not take are stopped
    and given back when this goes.
    """
    cdef bg_pool_thread *threads[_KEPT]
    cdef int n, taken

    def __cinit__(self, int count):
        """Take and prime up to ``count`` threads (fewer when none can be had)."""
        cdef bg_pool_thread *t
        while self.n < min(count, _KEPT):
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
    (``_generate_piece``); staged rows are copied there once their place is
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
        _batch_clear(&self.job)

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
    """Set up a zeroed ``job`` for n rows (see ``Batch``); ``_batch_clear``
    frees what it holds, whether this succeeded or not."""
    cdef Py_ssize_t i
    if threads < 1 or piece_rows < 1:
        raise ValueError("inconsistent batch")
    job.n = n
    job.boards = boards
    job.dice = dice
    job.counts = counts
    # After the first ``big`` pieces, the rest (``threads`` pieces' worth
    # of rows, plus n % piece_rows) go in pieces a quarter the size (at
    # least one row), so that threads run out of work at about the same
    # time rather than one waiting for the other's last whole piece.
    job.piece_rows = piece_rows
    job.big = max(0, job.n // piece_rows - threads)
    job.npieces = job.big + (job.n - job.big * piece_rows + _small_rows(piece_rows) - 1) // _small_rows(piece_rows)
    job.bad_row = -1
    job.flip = flip
    job.store = store
    job.lock = PyThread_allocate_lock()
    job.sizes = <Py_ssize_t *>malloc((job.npieces + 1) * sizeof(Py_ssize_t))
    job.offsets = <Py_ssize_t *>malloc((job.npieces + 1) * sizeof(Py_ssize_t))
    job.workers = <bg_worker *>calloc(threads, sizeof(bg_worker))
    if job.lock == NULL or job.sizes == NULL or job.offsets == NULL or job.workers == NULL:
        raise MemoryError()
    job.nworkers = threads
    for i in range(threads):
        job.workers[i].job = job
    job.workers[0].kit = _kit_take()
    if job.workers[0].kit == NULL:
        raise MemoryError()
    for i in range(1, threads):
        # A thread that cannot be had leaves its pieces to the others
        # (worker 0 takes pieces until none is left).
        job.workers[i].thread = primed.take() if primed is not None else NULL
        if job.workers[i].thread == NULL:
            job.workers[i].thread = bg_pool_take()
        if job.workers[i].thread != NULL:
            job.workers[i].kit = _kit_take(True)
            if job.workers[i].kit == NULL:
                raise MemoryError()
    for i in range(job.npieces + 1):
        job.sizes[i] = -1
    job.offsets[0] = 0
    if store:
        _rows_obtain(&job.result, reserve_rows)
    return 0


cdef void _batch_clear(bg_batch *job) noexcept:
    """Give back the threads and kits ``job`` holds, and free the rest."""
    cdef int i
    if job.workers != NULL:
        for i in range(job.nworkers):
            bg_pool_give(job.workers[i].thread)
            _kit_give(job.workers[i].kit, i > 0)
            free(job.workers[i].staged)
        free(job.workers)
        job.workers = NULL
    bg_buf_release(job.result.data)
    job.result.data = NULL
    free(job.sizes)
    free(job.offsets)
    job.sizes = job.offsets = NULL
    if job.lock != NULL:
        PyThread_free_lock(job.lock)
        job.lock = NULL


cdef int _batch_run(bg_batch *job) except -1:
    """Generate the rows, the calling thread among the workers, the GIL
    released until all are done."""
    cdef int i
    cdef bg_worker *workers = job.workers
    with nogil:
        for i in range(1, job.nworkers):
            # A thread taken before a fork runs nothing in the child:
            # its worker's pieces go to the others.
            bg_pool_submit(workers[i].thread, _batch_task, &workers[i])
        _batch_work(job, &workers[0])
        for i in range(1, job.nworkers):
            bg_pool_wait(workers[i].thread)
    if job.nomem:
        raise MemoryError()
    return 0


cdef object _batch_finish(bg_batch *job):
    """After a complete ``_batch_run`` of a batch that keeps its results: place
    what is left and hand the result over (``_take_rows``)."""
    cdef Py_ssize_t total = job.offsets[job.npieces]
    cdef int i
    if total > job.result.capacity:
        # Every piece placed so far lies within the old capacity.
        job.result.rows = job.result.capacity
        if _rows_grow(&job.result, total) < 0:
            raise MemoryError()
    for i in range(job.nworkers):
        _batch_place(job, &job.workers[i])  # every place is known now, and fits
    job.result.rows = total
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
                bg_buf_release(out.data)  # (NULL once taken)
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
            _batch_clear(&job)
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
    cdef int n = min(bg_buf_kept(caps, 16), 16)
    return [caps[i] for i in range(n)]


def release_buffers():
    """Free the result buffer and the threads' working memory kept for reuse,
    and end the idle pool threads."""
    bg_buf_forget()
    _kits_forget()
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
    if type(threads) is not int or threads < 1:
        return None
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
    kit = _kit_take()
    if kit == NULL:
        raise MemoryError()
    if not store:
        rc = _run_rows(kit.g, NULL, kit.scratch, b, d, <int64_t *>cnp.PyArray_DATA(offsets), NULL,
                       0, n, False, &cancel)
    else:
        (<int64_t *>cnp.PyArray_DATA(offsets))[0] = 0
        rc = _run_rows(kit.g, &kit.staging, kit.scratch, b, d, <int64_t *>cnp.PyArray_DATA(offsets) + 1, &base,
                       0, n, flipped, &cancel)
        m = kit.staging.rows
        if rc == -1:
            dims[0] = m
            dims[1] = 26
            try:
                out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT8, 0)
            except BaseException:
                _kit_give(kit)
                raise
            if m:
                memcpy(cnp.PyArray_DATA(out), kit.staging.data, 26 * m)
    _kit_give(kit)
    if rc == -2:
        raise MemoryError()
    if rc != -1:
        return None
    return (out, offsets) if store else offsets
