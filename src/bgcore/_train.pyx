# cython: language_level=3
"""Training's native parts, behind ``bgcore.train``: TD(lambda) targets of
self-played games, and minibatch gradient steps over a round's positions
(the backward pass is ``_csrc/bg_nn_train.h``).

``Layout`` describes a trainable network (``bg_nnt``): its parameters are
one flat float32 vector, each layer's weights (inputs x outputs, row-major)
then its bias.  ``sgd`` runs minibatches of positions through it: each
minibatch's positions are cut into chunks of ``CHUNK`` boards, each chunk's
gradient summed into a buffer of its own (chunks shared among threads), and
the buffers added in chunk order while the step is applied (the parameters
shared among threads).  Nothing in the sums depends on which thread did
what: the parameters after a round are the same to the bit for any number
of threads.
"""

from libc.stdint cimport int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
cimport numpy as cnp
import numpy as np

from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_submit, bg_pool_wait

cnp.import_array()

cdef extern from "bg_nn_train.h":
    enum:
        BG_NN_MAX_LAYERS
        BG_NN_SIGMOID5
        BG_NN_SOFTMAX6

    ctypedef struct bg_nnt:
        int encoding
        int output
        int layers
        int inputs[8]
        int outputs[8]
        size_t params

    int bg_nnt_targets(int output) noexcept nogil
    const char *bg_nnt_setup(bg_nnt *t, int encoding, int output, int layers, const int *sizes,
                             const int *activation, const float *alpha, const float *beta) noexcept nogil
    size_t bg_nnt_scratch_floats(const bg_nnt *t) noexcept nogil
    void bg_nnt_outputs(const bg_nnt *t, const float *params, const int8_t *boards, int64_t n, int checkers,
                        float *out, float *scratch) noexcept nogil
    double bg_nnt_chunk(const bg_nnt *t, const float *params, const int8_t *boards, const float *targets,
                        const int64_t *order, int64_t lo, int64_t hi, int checkers, float *grad,
                        float *scratch) noexcept nogil
    const char *bg_nnt_kernel() noexcept nogil
    int bg_nnt_use_kernels(const char *name) noexcept nogil
    void bg_nnt_apply(float *params, float *const *bufs, int nbufs, size_t lo, size_t hi, float step) noexcept nogil

# The names of the C enums, in their order.
from bgcore._nn import ENCODINGS, ACTIVATIONS, OUTPUTS

cdef enum:
    # Boards whose gradients go into one buffer: the unit of work the threads share.
    _CHUNK = 32
    _MAX_THREADS = 64

CHUNK = _CHUNK
#: Every set of kernels, the portable one first.
KERNELS = ("generic", "avx2", "avx512")


def kernel():
    """The kernels training uses: ``"avx512"``, ``"avx2"`` or ``"generic"``."""
    return bg_nnt_kernel().decode()


def use_kernels(str name):
    """Use at most the kernels ``name`` (one of KERNELS, or ``"auto"``), for
    tests and timings; ValueError for a name this processor cannot run."""
    if bg_nnt_use_kernels(name.encode()) < 0:
        raise ValueError(f"kernels {name!r} are unknown or not supported here (kernels: {', '.join(KERNELS)}, auto)")


cdef class Layout:
    """A trainable network's shape: ``encoding`` and ``output`` (names as in
    ``bgcore.nn``), ``sizes`` (the encoding's inputs, each layer's outputs),
    one (activation, alpha, beta) per hidden layer."""

    cdef bg_nnt net
    cdef readonly int targets
    cdef readonly Py_ssize_t params

    def __init__(self, str encoding, str output, tuple sizes, list activations):
        cdef int layers = len(sizes) - 1
        cdef int csizes[9]
        cdef int acts[8]
        cdef float alpha[8]
        cdef float beta[8]
        cdef const char *problem
        cdef int l
        if not 1 <= layers <= BG_NN_MAX_LAYERS or len(activations) != layers - 1:
            raise ValueError("a layout needs 2 to 9 sizes and one activation per hidden layer")
        for l in range(layers + 1):
            csizes[l] = sizes[l]
        for l in range(layers - 1):
            name, a, b = activations[l]
            acts[l] = ACTIVATIONS.index(name)
            alpha[l] = a
            beta[l] = b
        problem = bg_nnt_setup(&self.net, ENCODINGS.index(encoding), OUTPUTS.index(output), layers, csizes, acts,
                               alpha, beta)
        if problem != NULL:
            raise ValueError(problem.decode())
        self.targets = bg_nnt_targets(self.net.output)
        self.params = <Py_ssize_t>self.net.params


cdef void _check(Layout layout, const float[::1] params, const int8_t[:, ::1] boards, Py_ssize_t nt) except *:
    if params.shape[0] != layout.params:
        raise ValueError(f"{params.shape[0]} parameters, not the layout's {layout.params}")
    if boards.shape[1] != 26:
        raise ValueError("boards must be (n, 26)")
    if nt >= 0 and nt != boards.shape[0]:
        raise ValueError("one target row per board")


def outputs(Layout layout not None, const float[::1] params, const int8_t[:, ::1] boards, int checkers=15):
    """The training forward pass: float32 (n, 5) sigmoids or (n, 6) softmax
    probabilities of valid, unfinished boards (their player on roll's view)."""
    _check(layout, params, boards, -1)
    cdef Py_ssize_t n = boards.shape[0], i
    out = np.empty((n, layout.targets), dtype=np.float32)
    cdef float[:, ::1] o = out
    cdef float *scratch = <float *>malloc(bg_nnt_scratch_floats(&layout.net) * sizeof(float))
    if scratch == NULL:
        raise MemoryError()
    if n:
        with nogil:
            bg_nnt_outputs(&layout.net, &params[0], &boards[0, 0], n, checkers, &o[0, 0], scratch)
    free(scratch)
    return out


def gradient(Layout layout not None, const float[::1] params, const int8_t[:, ::1] boards,
             const float[:, ::1] targets, int checkers=15):
    """The sum over the boards of their loss's gradient (float32, the
    parameters' layout) and the sum of their losses (float)."""
    _check(layout, params, boards, targets.shape[0])
    if targets.shape[1] != layout.targets:
        raise ValueError(f"targets must have {layout.targets} columns")
    cdef Py_ssize_t n = boards.shape[0], i
    grad = np.zeros(layout.params, dtype=np.float32)
    cdef float[::1] g = grad
    cdef double loss = 0.0
    cdef float *scratch = <float *>malloc(bg_nnt_scratch_floats(&layout.net) * sizeof(float))
    if scratch == NULL:
        raise MemoryError()
    if n:
        with nogil:
            loss = bg_nnt_chunk(&layout.net, &params[0], &boards[0, 0], &targets[0, 0], NULL, 0, n, checkers, &g[0],
                                scratch)
    free(scratch)
    return grad, loss


def lambda_targets(const float[:, ::1] values, const int64_t[::1] game, const int32_t[::1] ply,
                   const int8_t[::1] points, double lam, str output):
    """The TD(lambda) targets of a round's positions.

    The rows are the positions met (before each roll, each seen by its
    player on roll), games in order and each game's plies in order from 0;
    ``values``: the network's five outputs of each (float32 (n, 5));
    ``points``: the points each row's game was won by (1 to 3, by the
    player who moved last).  A game's last position has its outcome as its
    target; an earlier one ``(1 - lam) V' + lam G'``, where V' and G' are
    the next position's value and target seen from this side (the five or
    six outcomes turned around).  Float32 (n, 5) for ``output="sigmoid"``,
    (n, 6) exclusive outcomes for ``"softmax"``.
    """
    cdef Py_ssize_t n = values.shape[0], i
    cdef int six = output == "softmax", k, K = 6 if output == "softmax" else 5
    cdef double nxt[6]
    cdef double cur[6]
    cdef double v[6]
    cdef double w, wg, wb, lg, lb
    cdef int pts
    if values.shape[1] != 5 or game.shape[0] != n or ply.shape[0] != n or points.shape[0] != n:
        raise ValueError("values (n, 5), game, ply and points of n rows")
    if output not in OUTPUTS:
        raise ValueError(f"unknown output kind {output!r}")
    out = np.empty((n, K), dtype=np.float32)
    cdef float[:, ::1] o = out
    for i in range(n - 1, -1, -1):
        if i + 1 == n or game[i + 1] != game[i]:
            pts = points[i]
            if not 1 <= pts <= 3:
                raise ValueError(f"row {i}: a game won by {pts} points")
            for k in range(6):
                cur[k] = 0.0
            if six:
                cur[pts - 1] = 1.0
            else:
                cur[0] = 1.0
                cur[1] = pts >= 2
                cur[2] = pts >= 3
        else:
            if ply[i + 1] != ply[i] + 1:
                raise ValueError(f"row {i}: the plies of a game must follow one another")
            w, wg, wb, lg, lb = values[i + 1, 0], values[i + 1, 1], values[i + 1, 2], values[i + 1, 3], \
                values[i + 1, 4]
            # the next position's value from this side: its winner is this side's loser
            if six:
                v[0] = (1.0 - w) - lg
                v[1] = lg - lb
                v[2] = lb
                v[3] = w - wg
                v[4] = wg - wb
                v[5] = wb
                for k in range(6):
                    cur[k] = (1.0 - lam) * v[k] + lam * (nxt[(k + 3) % 6])
            else:
                v[0] = 1.0 - w
                v[1] = lg
                v[2] = lb
                v[3] = wg
                v[4] = wb
                cur[0] = (1.0 - lam) * v[0] + lam * (1.0 - nxt[0])
                cur[1] = (1.0 - lam) * v[1] + lam * nxt[3]
                cur[2] = (1.0 - lam) * v[2] + lam * nxt[4]
                cur[3] = (1.0 - lam) * v[3] + lam * nxt[1]
                cur[4] = (1.0 - lam) * v[4] + lam * nxt[2]
        for k in range(K):
            o[i, k] = <float>cur[k]
            nxt[k] = cur[k]
    return out


# --- minibatch steps, shared among threads -------------------------------------------

cdef struct sgd_job:
    const bg_nnt *net
    float *params
    const int8_t *boards
    const float *targets
    const int64_t *order
    int checkers, K, threads
    int64_t lo, size     # the minibatch: order[lo .. lo + size)
    int chunks
    float **bufs         # one gradient per chunk of a minibatch
    double *losses       # one per chunk
    float step
    int phase            # 0: gradients of the chunks, 1: the step


cdef struct sgd_part:
    sgd_job *job
    int index
    float *scratch
    bg_pool_thread *thread
    bint submitted


cdef void _sgd_task(void *arg) noexcept nogil:
    cdef sgd_part *p = <sgd_part *>arg
    cdef sgd_job *j = p.job
    cdef int c
    cdef int64_t r
    cdef size_t lo, hi, P = j.net.params
    if j.phase == 0:
        c = p.index
        while c < j.chunks:
            r = j.lo + <int64_t>c * _CHUNK
            j.losses[c] = bg_nnt_chunk(j.net, j.params, j.boards, j.targets, j.order, r, min(r + _CHUNK, j.lo + j.size),
                                       j.checkers, j.bufs[c], p.scratch)
            c += j.threads
    else:
        # whole cache lines of parameters to each thread
        lo = (P * <size_t>p.index // <size_t>j.threads) & ~(<size_t>15)
        hi = P if p.index + 1 == j.threads else (P * <size_t>(p.index + 1) // <size_t>j.threads) & ~(<size_t>15)
        bg_nnt_apply(j.params, j.bufs, j.chunks, lo, hi, j.step)


cdef void _run(sgd_part *parts, int threads) noexcept nogil:
    cdef int i
    for i in range(1, threads):
        parts[i].submitted = parts[i].thread != NULL and bg_pool_submit(parts[i].thread, _sgd_task, &parts[i])
    _sgd_task(&parts[0])
    for i in range(1, threads):
        if parts[i].submitted:
            bg_pool_wait(parts[i].thread)
        else:
            _sgd_task(&parts[i])


def sgd(Layout layout not None, float[::1] params, const int8_t[:, ::1] boards, const float[:, ::1] targets,
        const int64_t[::1] order, double lr, int batch, int threads=1, int checkers=15):
    """Minibatch gradient steps, in place on ``params``: the rows
    ``order[0:batch]``, then ``order[batch:2 * batch]`` and so on (the last
    minibatch may be smaller); each step subtracts ``lr`` times the sum of
    its rows' gradients (``lr`` is the step of one position, as online TD's:
    a minibatch of one is Tesauro's update).  Returns the sum of the rows'
    losses, each taken before its own step."""
    _check(layout, params, boards, targets.shape[0])
    if targets.shape[1] != layout.targets:
        raise ValueError(f"targets must have {layout.targets} columns")
    if batch < 1 or not 1 <= threads <= _MAX_THREADS:
        raise ValueError("batch must be >= 1 and threads 1 to 64")
    cdef Py_ssize_t n = order.shape[0], i
    for i in range(n):
        if not 0 <= order[i] < boards.shape[0]:
            raise ValueError(f"order[{i}] = {order[i]} is not a row")
    cdef sgd_job job
    cdef int maxchunks = (batch + _CHUNK - 1) // _CHUNK, c
    cdef size_t P = <size_t>layout.params, floats = bg_nnt_scratch_floats(&layout.net)
    cdef sgd_part *parts = <sgd_part *>calloc(threads, sizeof(sgd_part))
    cdef double total = 0.0
    threads = min(threads, maxchunks)
    job.net = &layout.net
    job.params = &params[0]
    job.boards = &boards[0, 0] if boards.shape[0] else NULL
    job.targets = &targets[0, 0] if targets.shape[0] else NULL
    job.order = &order[0] if n else NULL
    job.checkers = checkers
    job.K = layout.targets
    job.threads = threads
    job.bufs = <float **>calloc(maxchunks, sizeof(float *))
    job.losses = <double *>calloc(maxchunks, sizeof(double))
    try:
        if parts == NULL or job.bufs == NULL or job.losses == NULL:
            raise MemoryError()
        for c in range(maxchunks):
            job.bufs[c] = <float *>calloc(P, sizeof(float))
            if job.bufs[c] == NULL:
                raise MemoryError()
        for i in range(threads):
            parts[i].job = &job
            parts[i].index = <int>i
            parts[i].scratch = <float *>malloc(floats * sizeof(float))
            if parts[i].scratch == NULL:
                raise MemoryError()
            if i > 0:
                parts[i].thread = bg_pool_take()
        with nogil:
            job.lo = 0
            while job.lo < n:
                job.size = min(<int64_t>batch, n - job.lo)
                job.chunks = <int>((job.size + _CHUNK - 1) // _CHUNK)
                job.step = <float>lr
                job.phase = 0
                _run(parts, threads)
                for c in range(job.chunks):
                    total += job.losses[c]
                job.phase = 1
                _run(parts, threads)
                job.lo += job.size
    finally:
        if parts != NULL:
            for i in range(threads):
                bg_pool_give(parts[i].thread)
                free(parts[i].scratch)
            free(parts)
        if job.bufs != NULL:
            for c in range(maxchunks):
                free(job.bufs[c])
            free(job.bufs)
        free(job.losses)
    return total
