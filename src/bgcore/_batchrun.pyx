# cython: language_level=3
"""Batches run in C, for ``_batch`` (the C-level API is in _batchrun.pxd).

Rows are checked and generated without the GIL and without Python objects,
by the calling thread alone (``bg_run_rows``) or by several (a
``bg_batch``, on threads of the pool in ``_pool``).  Results go into row
buffers from ``bg_rowbuf.c``; ``_batch`` hands them to numpy without a
copy.  Each thread works with a kit (a generator and small buffers) kept
between calls.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t
from libc.stddef cimport ptrdiff_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

from bgcore.movegen cimport (bg_board, bg_movegen, bg_movegen_new, bg_movegen_free, bg_validate,
                             bg_generate_boards, bg_count, BG_MAX_RESULTS, BG_ERR_BAD_DICE, BG_ERR_OVERFLOW)
from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_submit, bg_pool_wait

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


# --- row buffers --------------------------------------------------------------

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


cdef int bg_rows_obtain(bg_rows *r, Py_ssize_t capacity) noexcept:
    r.data = <int8_t *>bg_buf_obtain(<size_t>max(capacity, 1) * 26)
    if r.data == NULL:
        return -1
    r.rows = 0
    r.capacity = <Py_ssize_t>(bg_buf_capacity(<char *>r.data) // 26)
    return 0


cdef void bg_rows_release(void *data) noexcept:
    bg_buf_release(data)


cdef void bg_rows_trim(bg_rows *r) noexcept nogil:
    bg_buf_trim(<char *>r.data, r.rows * 26)


cdef int bg_rows_kept(size_t *capacities, int max) noexcept:
    return bg_buf_kept(capacities, max)


cdef void bg_forget_kept() noexcept:
    bg_buf_forget()
    while _kits.n:
        _kit_free(<bg_kit *>_unkeep(&_kits))
    while _pool_kits.n:
        _kit_free(<bg_kit *>_unkeep(&_pool_kits))


# --- rows on one thread ---------------------------------------------------------

cdef int _check_row(const int8_t *board, const uint8_t *dice) noexcept nogil:
    """0 for a valid board and roll, else a BG_ERR_ code."""
    cdef int rc = bg_validate(<const bg_board *>board)
    if rc < 0:
        return -rc
    if dice[0] < 1 or dice[0] > 6 or dice[1] < 1 or dice[1] > 6:
        return BG_ERR_BAD_DICE
    return 0


cdef Py_ssize_t bg_find_invalid(const int8_t *boards, const uint8_t *dice, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if _check_row(&boards[26 * i], &dice[2 * i]):
            return i
    return -1


cdef Py_ssize_t bg_run_rows(bg_movegen *g, bg_rows *out, bg_board *scratch,
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


# --- working memory of a thread, kept between calls -------------------------

ctypedef struct bg_stack:
    # Things kept for later calls, last in first out.  Used with the GIL
    # held, which guards it.
    void *items[BG_KEPT]
    int n


cdef inline bint _keep(bg_stack *kept, void *item) noexcept:
    """Keep ``item``; False (not kept) when ``kept`` is full."""
    if kept.n == BG_KEPT:
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


cdef bg_kit *bg_kit_take(bint pool) noexcept:
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


cdef void bg_kit_give(bg_kit *kit, bint pool) noexcept:
    if kit == NULL:
        return
    _kit_empty(kit)
    if not _keep(&_pool_kits if pool else &_kits, kit):
        _kit_free(kit)


# --- rows shared among threads -----------------------------------------------------

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
    (0 when ``pos`` lies past the result: the piece waits for
    ``bg_batch_complete``)."""
    if pos + BG_MAX_RESULTS > job.result.capacity:
        return 0
    return min(rows, (job.result.capacity - pos) // BG_MAX_RESULTS)


cdef inline void _place_staged(bg_batch *job, Py_ssize_t at, const int8_t *rows, Py_ssize_t count) noexcept nogil:
    """Copy ``count`` staged rows to row ``at`` of the result (with non-temporal
    stores from BG_STREAM_COPY_ROWS boards on)."""
    if job.n >= BG_STREAM_COPY_ROWS:
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
    """Generate piece p (rows [start, stop)) and size it; returns ``bg_run_rows``'s
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
            rc = bg_run_rows(w.kit.g, &straight, w.kit.scratch, job.boards, job.dice,
                             job.counts, &base, i, end, job.flip, &job.cancel)
            written += straight.rows
        else:
            base = off + written - before  # staging's rows from ``before`` on follow ``written``
            rc = bg_run_rows(w.kit.g, staging, w.kit.scratch, job.boards, job.dice,
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
            rc = bg_run_rows(w.kit.g, NULL, w.kit.scratch, job.boards, job.dice,
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
    # most) are placed by bg_batch_complete, rather than waited for here.


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
            break  # left for bg_batch_complete, which grows the result
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


cdef int bg_batch_setup(bg_batch *job, const int8_t *boards, const uint8_t *dice, int64_t *counts,
                        Py_ssize_t n, int threads, Py_ssize_t piece_rows, bint flip, bint store) noexcept:
    cdef Py_ssize_t i
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
        return -1
    job.nworkers = threads
    for i in range(threads):
        job.workers[i].job = job
    job.workers[0].kit = bg_kit_take(False)
    if job.workers[0].kit == NULL:
        return -1
    for i in range(job.npieces + 1):
        job.sizes[i] = -1
    job.offsets[0] = 0
    return 0


cdef int bg_batch_hire(bg_worker *w, bg_pool_thread *thread) noexcept:
    w.thread = thread if thread != NULL else bg_pool_take()
    if w.thread != NULL:
        w.kit = bg_kit_take(True)
        if w.kit == NULL:
            return -1
    return 0


cdef void bg_batch_run(bg_batch *job) noexcept:
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


cdef int bg_batch_complete(bg_batch *job) noexcept nogil:
    cdef Py_ssize_t total = job.offsets[job.npieces]
    cdef int i
    if total > job.result.capacity:
        # Every piece placed so far lies within the old capacity.
        job.result.rows = job.result.capacity
        if _rows_grow(&job.result, total) < 0:
            return -1
    for i in range(job.nworkers):
        _batch_place(job, &job.workers[i])  # every place is known now, and fits
    job.result.rows = total
    return 0


cdef void bg_batch_clear(bg_batch *job) noexcept:
    cdef int i
    if job.workers != NULL:
        for i in range(job.nworkers):
            bg_pool_give(job.workers[i].thread)
            bg_kit_give(job.workers[i].kit, i > 0)
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
