# cython: language_level=3
"""Networks evaluated in C, behind ``bgcore.nn`` (the forward pass is
``_csrc/bg_nn.c``; ``_nn.pxd`` is the C-level API for the engine).

``Native`` is the base of ``bgcore.nn.Network`` (one net: ``_bind`` packs its
arrays for the kernels) and ``bgcore.nn.Composite`` (a contact and a race
net: ``_bind_pair``).  Calling one checks the boards, releases the GIL and
evaluates them all in one ``bg_nn_eval``.
"""

from libc.stdint cimport int8_t, uintptr_t
from libc.stdlib cimport malloc, calloc, free
cimport numpy as cnp
import numpy as np

from bgcore.movegen cimport bg_board, bg_check, BG_MAX_CHECKERS
from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_submit, bg_pool_wait
from bgcore._results import board_problem
from bgcore.encode import _prepare
from bgcore.errors import InvalidPositionError

cnp.import_array()

cdef extern from "bg_nn.h":
    int bg_nn_padded(int n) noexcept nogil
    size_t bg_nn_packed_floats(int inputs, int outputs) noexcept nogil
    void bg_nn_pack(int first, const float *w, int inputs, int outputs, float *out) noexcept nogil
    const char *bg_nn_problem(const bg_nn *net) noexcept nogil
    size_t bg_nn_scratch_bytes(const bg_nn *contact, const bg_nn *race) noexcept nogil
    int bg_nn_eval(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
                   float *out5, void *scratch) noexcept nogil
    const char *bg_nn_kernel() noexcept nogil
    int bg_nn_use_kernels(const char *name) noexcept nogil

cdef extern from "bg_encode.h":
    int bg_game_value(const int8_t *pt, int checkers, float *out5) noexcept nogil

#: The names of the C enums, in their order: encodings (BG_ENC_*), hidden
#: layers' activations (BG_NN_RELU ...) and output kinds (BG_NN_SOFTMAX6, BG_NN_SIGMOID5).
ENCODINGS = ("tesauro198", "wildbg_contact", "wildbg_race")
ACTIVATIONS = ("relu", "hardsigmoid", "sigmoid", "tanh")
OUTPUTS = ("softmax", "sigmoid")

cdef enum:
    # A call's scratch on the C stack up to this size (a wildbg net needs 15 KB).
    STACK_SCRATCH = 32768
    # Boards a thread takes at least: fewer are not worth waking it for.
    MIN_PIECE = 64
    MAX_THREADS = 64


# One thread's share of a call: consecutive boards.
cdef struct nn_piece:
    const bg_nn *contact
    const bg_nn *race
    const int8_t *boards
    size_t n
    int checkers
    float *out5
    void *scratch
    bg_pool_thread *thread
    bint submitted
    int rc


cdef void _piece_task(void *arg) noexcept nogil:
    cdef nn_piece *p = <nn_piece *>arg
    p.rc = bg_nn_eval(p.contact, p.race, p.boards, p.n, p.checkers, p.out5, p.scratch)


cdef int _eval_threads(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
                       float *out5, int threads) except -2:
    """bg_nn_eval of the boards in ``threads`` pieces, the calling thread's
    and the pool's (a thread the pool cannot give leaves its piece to the
    caller); the result is the same to the bit whatever the threads."""
    cdef nn_piece *pieces = <nn_piece *>calloc(threads, sizeof(nn_piece))
    cdef size_t need = bg_nn_scratch_bytes(contact, race)
    cdef int i, rc = 0
    if pieces == NULL:
        raise MemoryError()
    try:
        for i in range(threads):
            pieces[i].contact = contact
            pieces[i].race = race
            pieces[i].checkers = checkers
            pieces[i].boards = boards + 26 * (n * i // threads)
            pieces[i].out5 = out5 + 5 * (n * i // threads)
            pieces[i].n = n * (i + 1) // threads - n * i // threads
            pieces[i].scratch = malloc(need)
            if pieces[i].scratch == NULL:
                raise MemoryError()
            if i > 0:
                pieces[i].thread = bg_pool_take()
        with nogil:
            for i in range(1, threads):
                if pieces[i].thread != NULL:
                    pieces[i].submitted = bg_pool_submit(pieces[i].thread, _piece_task, &pieces[i])
            _piece_task(&pieces[0])
            for i in range(1, threads):
                if pieces[i].submitted:
                    bg_pool_wait(pieces[i].thread)
                else:
                    _piece_task(&pieces[i])
        for i in range(threads):
            rc = min(rc, pieces[i].rc)
    finally:
        for i in range(threads):
            bg_pool_give(pieces[i].thread)
            free(pieces[i].scratch)
        free(pieces)
    return rc


cdef size_t nn_scratch_bytes(const bg_nn *contact, const bg_nn *race) noexcept nogil:
    return bg_nn_scratch_bytes(contact, race)


cdef int nn_eval(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
                 float *out5, void *scratch) noexcept nogil:
    return bg_nn_eval(contact, race, boards, n, checkers, out5, scratch)


cdef int native_nets(object evaluator, const bg_nn **contact, const bg_nn **race) except -1:
    cdef Native e
    if not isinstance(evaluator, Native):
        return 0
    e = <Native>evaluator
    if e.contact == NULL:
        return 0
    contact[0] = e.contact
    race[0] = e.race
    return 1


#: Every set of kernels, the portable one first.
KERNELS = ("generic", "avx2", "avx512")


def kernel():
    """The kernels in use: ``"avx512"``, ``"avx2"`` (x86-64 with AVX2 and FMA) or ``"generic"``."""
    return bg_nn_kernel().decode()


def use_kernels(str name):
    """Use at most the kernels ``name`` (one of KERNELS, or ``"auto"`` for the
    best this processor runs), for tests and timings; not while another
    thread evaluates.  ValueError for a name this processor cannot run."""
    if bg_nn_use_kernels(name.encode()) < 0:
        raise ValueError(f"kernels {name!r} are unknown or not supported here (kernels: {', '.join(KERNELS)}, auto)")


cdef cnp.ndarray _aligned(Py_ssize_t count):
    """A zeroed float32 array of ``count`` whose data starts on a 64-byte line."""
    cdef cnp.ndarray raw = np.zeros(count + 16, dtype=np.float32)
    cdef Py_ssize_t skip = ((64 - <uintptr_t>cnp.PyArray_DATA(raw) % 64) % 64) // 4
    return raw[skip:skip + count]


cdef Py_ssize_t _first_invalid(const int8_t *b, Py_ssize_t n, int checkers) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if bg_check(<const bg_board *>(b + 26 * i), checkers, NULL) < 0:
            return i
    return -1


cdef cnp.ndarray _boards(object boards, int checkers, bint *single):
    """``boards`` as a checked C-contiguous int8 (n, 26) array."""
    cdef cnp.ndarray a
    cdef Py_ssize_t bad
    if not 1 <= checkers <= BG_MAX_CHECKERS:
        raise InvalidPositionError(f"checkers per side must be 1-{BG_MAX_CHECKERS}, not {checkers}")
    single[0] = False
    if (type(boards) is np.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>boards) == cnp.NPY_INT8
            and cnp.PyArray_NDIM(<cnp.ndarray>boards) == 2 and cnp.PyArray_DIMS(<cnp.ndarray>boards)[1] == 26
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>boards)):
        a = <cnp.ndarray>boards
    else:
        a, lead = _prepare(boards, checkers)
        single[0] = len(lead) == 0
    with nogil:
        bad = _first_invalid(<const int8_t *>cnp.PyArray_DATA(a), cnp.PyArray_DIMS(a)[0], checkers)
    if bad >= 0:
        raise InvalidPositionError(f"row {bad}: {board_problem(bytes(a[bad]), checkers)}")
    return a


def game_values(boards, int checkers=BG_MAX_CHECKERS):
    """Which boards are finished games, and their values for the player on
    roll (bgcore's five outputs; zeros for the others): bool (n,), float32 (n, 5)."""
    cdef bint single
    cdef cnp.ndarray a = _boards(boards, checkers, &single)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(a)[0], i
    cdef cnp.ndarray done = np.zeros(n, dtype=np.bool_)
    cdef cnp.ndarray values = np.zeros((n, 5), dtype=np.float32)
    cdef const int8_t *b = <const int8_t *>cnp.PyArray_DATA(a)
    cdef char *d = <char *>cnp.PyArray_DATA(done)
    cdef float *v = <float *>cnp.PyArray_DATA(values)
    with nogil:
        for i in range(n):
            d[i] = <char>bg_game_value(b + 26 * i, checkers, v + 5 * i)
    return done, values


cdef class Native:
    """An evaluator run in C: boards (each seen by its player on roll) to
    bgcore's five outputs.  Bound to its nets by a subclass."""

    def __cinit__(self, *args, **kwargs):
        self.contact = NULL
        self.race = NULL

    def _bind(self, str encoding, str output, list weights, list biases, list activations, list alphas,
              list betas):
        """Pack one net's layers (weights float32 C-contiguous (inputs, outputs),
        biases float32 (outputs,), one activation name and alpha, beta per hidden
        layer) and evaluate with it.  The caller has checked them."""
        cdef Py_ssize_t l, layers = len(weights)
        cdef const float[:, ::1] w
        cdef cnp.ndarray packed, bias
        cdef const char *problem
        if self.contact != NULL:
            raise RuntimeError("this evaluator is bound already")
        if not 1 <= layers <= BG_NN_MAX_LAYERS:
            raise ValueError(f"a network has 1 to {BG_NN_MAX_LAYERS} layers, not {layers}")
        keep = []
        self.net.encoding = ENCODINGS.index(encoding)
        self.net.output = OUTPUTS.index(output)
        self.net.layers = <int>layers
        for l in range(layers):
            w = weights[l]
            packed = _aligned(<Py_ssize_t>bg_nn_packed_floats(<int>w.shape[0], <int>w.shape[1]))
            bg_nn_pack(l == 0, &w[0, 0], <int>w.shape[0], <int>w.shape[1], <float *>cnp.PyArray_DATA(packed))
            bias = _aligned(bg_nn_padded(<int>w.shape[1]))
            bias[:w.shape[1]] = biases[l]
            self.net.layer[l].inputs = <int>w.shape[0]
            self.net.layer[l].outputs = <int>w.shape[1]
            self.net.layer[l].weights = <const float *>cnp.PyArray_DATA(packed)
            self.net.layer[l].bias = <const float *>cnp.PyArray_DATA(bias)
            self.net.layer[l].activation = ACTIVATIONS.index(activations[l]) if l + 1 < layers else 0
            self.net.layer[l].alpha = alphas[l] if l + 1 < layers else 0.0
            self.net.layer[l].beta = betas[l] if l + 1 < layers else 0.0
            keep += [packed, bias]
        problem = bg_nn_problem(&self.net)
        if problem != NULL:
            raise ValueError(problem.decode())
        self._keep = keep
        self.contact = self.race = &self.net

    def _bind_pair(self, Native contact not None, Native race not None):
        """Evaluate races with ``race``'s net, the other boards with ``contact``'s."""
        if self.contact != NULL:
            raise RuntimeError("this evaluator is bound already")
        if contact.contact == NULL or race.contact == NULL:
            raise ValueError("both networks must be bound")
        self._keep = (contact, race)
        self.contact = contact.contact
        self.race = race.contact

    def __call__(self, boards, *, int checkers=BG_MAX_CHECKERS, int threads=1):
        """bgcore's five outputs of each board (its player on roll's win, win
        gammon, win backgammon, lose gammon and lose backgammon chances):
        float32 (n, 5), or (5,) for one board.  ``threads`` (1 to 64): native
        threads that share a large batch (at least 64 boards each); the
        result does not depend on them."""
        cdef bint single
        cdef cnp.ndarray a, out
        cdef cnp.npy_intp dims[2]
        cdef char stack[STACK_SCRATCH]
        cdef void *scratch = stack
        cdef size_t need
        cdef int rc
        if self.contact == NULL:
            raise TypeError("this evaluator has no network")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1 to {MAX_THREADS}, not {threads}")
        a = _boards(boards, checkers, &single)
        dims[0] = cnp.PyArray_DIMS(a)[0]
        dims[1] = 5
        out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_FLOAT32, 0)
        threads = min(threads, max(1, dims[0] // MIN_PIECE))
        if threads > 1:
            if _eval_threads(self.contact, self.race, <const int8_t *>cnp.PyArray_DATA(a), <size_t>dims[0],
                             checkers, <float *>cnp.PyArray_DATA(out), threads) < 0:
                raise ValueError("inconsistent network")
            return out
        need = bg_nn_scratch_bytes(self.contact, self.race)
        if need > STACK_SCRATCH:
            scratch = malloc(need)
            if scratch == NULL:
                raise MemoryError()
        with nogil:
            rc = bg_nn_eval(self.contact, self.race, <const int8_t *>cnp.PyArray_DATA(a), <size_t>dims[0],
                            checkers, <float *>cnp.PyArray_DATA(out), scratch)
        if scratch != <void *>stack:
            free(scratch)
        if rc < 0:
            raise ValueError("inconsistent network")
        return out[0] if single else out
