# cython: language_level=3
"""Batches run in C (see _batchrun.pyx), for ``_batch``, their Python face.

Rows of boards and rolls are checked and generated without Python objects:
by one thread with a kit of its own (``bg_run_rows``), or shared among the
calling thread and pool threads in pieces (a ``bg_batch``).  Results go
into row buffers (``bg_rows``) from ``bg_rowbuf.c``, which this module
alone links, so that the buffers kept for reuse are one list.  Functions
marked "GIL held" use lists that the GIL guards; none raises.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t
from libc.stddef cimport ptrdiff_t
from cpython.pythread cimport PyThread_type_lock

from bgcore.movegen cimport bg_board, bg_movegen
from bgcore._pool cimport bg_pool_thread

cdef enum:
    BG_KEPT = 16           # kits kept at most, of each kind (as many as the pool keeps threads)
    # Boards from which a batch on several threads copies its staged rows to
    # their place with non-temporal stores (``_place_staged``).  The results
    # of such a batch (some 3 MB at 16 a board) outgrow a core's own caches,
    # so copied lines would not stay there until anyone reads them, while a
    # plain copy first reads every line it overwrites and fills the cache
    # that the rows still being generated work in.  A smaller batch's
    # results can stay in the cache, where the caller reads them next.
    BG_STREAM_COPY_ROWS = 8192


ctypedef struct bg_rows:
    int8_t *data           # rows of 26 bytes, from bg_buf_alloc / bg_buf_obtain
    Py_ssize_t rows
    Py_ssize_t capacity


# Working memory of a thread, kept between calls.
ctypedef struct bg_kit:
    bg_movegen *g          # a generator of its own
    bg_board *scratch      # BG_MAX_RESULTS boards, where counted results go
    bg_rows staging        # results waiting for their place (batches over threads)


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


# --- row buffers --------------------------------------------------------------

# An empty ``r`` with room for ``capacity`` rows (at least one) to start
# with: the buffer of an earlier batch that has been released, when one is
# of about that size.  -1 when out of memory.  GIL held.
cdef int bg_rows_obtain(bg_rows *r, Py_ssize_t capacity) noexcept
# Keep a buffer's data for a later bg_rows_obtain, or free it (NULL is
# ignored).  GIL held.
cdef void bg_rows_release(void *data) noexcept
# Give back the whole pages past r's rows, before they are handed over.
cdef void bg_rows_trim(bg_rows *r) noexcept nogil
# How many buffers are kept; the capacities in bytes of the first ``max``
# go to ``capacities``, the least recently released first.  GIL held.
cdef int bg_rows_kept(size_t *capacities, int max) noexcept
# Free the kept buffers and kits.  GIL held.
cdef void bg_forget_kept() noexcept

# --- rows on one thread ---------------------------------------------------------

# The first row whose board or roll is invalid, or -1.
cdef Py_ssize_t bg_find_invalid(const int8_t *boards, const uint8_t *dice, Py_ssize_t n) noexcept nogil
# Check and generate rows [start, stop) in order, into ``out`` or, when it
# is NULL, counted only (see _batchrun.pyx).  -1 when every row is done, the
# index of an invalid row, -2 when out of memory, -3 when cancelled.
cdef Py_ssize_t bg_run_rows(bg_movegen *g, bg_rows *out, bg_board *scratch,
                            const int8_t *boards, const uint8_t *dice, int64_t *counts,
                            const int64_t *ends_base, Py_ssize_t start, Py_ssize_t stop, bint flip,
                            volatile int *cancel) noexcept nogil
# A kept kit (one of the pool threads' with ``pool``), or a new one; NULL
# when out of memory.  GIL held.
cdef bg_kit *bg_kit_take(bint pool) noexcept
# Keep ``kit`` (NULL is ignored) for a later call, or free it.  GIL held.
cdef void bg_kit_give(bg_kit *kit, bint pool) noexcept

# --- rows shared among threads -----------------------------------------------------

# Set up a zeroed ``job`` for n rows on ``threads`` workers, worker 0 (the
# caller's) with its kit; -1 when out of memory.  bg_batch_clear frees what
# it holds, whether this succeeded or not.  GIL held.
cdef int bg_batch_setup(bg_batch *job, const int8_t *boards, const uint8_t *dice, int64_t *counts,
                        Py_ssize_t n, int threads, Py_ssize_t piece_rows, bint flip, bint store) noexcept
# Give worker ``w`` (not worker 0) ``thread``, or when that is NULL one from
# the pool, and a kit; -1 when out of memory.  A worker without a thread
# leaves its pieces to the others.  GIL held.
cdef int bg_batch_hire(bg_worker *w, bg_pool_thread *thread) noexcept
# Generate the rows, the calling thread among the workers, the GIL released
# until all are done (``job.nomem`` set when memory ran out).  GIL held.
cdef void bg_batch_run(bg_batch *job) noexcept
# After a complete bg_batch_run of a batch that keeps its results: place
# what is left, ``job.result`` holding every row; -1 when out of memory.
cdef int bg_batch_complete(bg_batch *job) noexcept nogil
# Give back the threads and kits ``job`` holds, and free the rest.  GIL held.
cdef void bg_batch_clear(bg_batch *job) noexcept
