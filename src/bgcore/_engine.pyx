# cython: language_level=3
"""The native game engine: whole games played in C, many at once on each
thread, behind ``bgcore.rollout``, ``bgcore.selfplay.play`` and ``bgcore.duel``.

Each thread keeps ``lanes`` games in flight.  A step plays one ply of every
lane: it rolls, generates the children (``bg_generate_boards``) and chooses
one.  A built-in policy scores the children in C as soon as they are
generated; a network (``bgcore.nn.Network`` or ``Composite``) evaluates them
in C too, seen by the opponent (``bg_flip``), in one batch per lane, and the
lane plays the child whose cubeless equity is lowest for the opponent; a
Python policy is called once per step with the children of every lane
waiting for it, so that one numpy (or torch) call scores thousands of
candidates.  A finished game writes its outcome and its lane claims the next
game.  Games truncated after ``truncate`` plies are scored by the evaluator:
a network in C, a Python evaluator in one call per step.  Nothing in a
native step allocates or touches a Python object: each worker's buffers
(the children, a network's outputs and scratch) are allocated when the job
starts.

A game's course depends only on the seed, its index and the policies, never
on the thread count, the lanes or the process that plays it: its rolls come
from its own stream of bgcore's dice (``seed``, the game's index; in a duel
the index of its pair, so both colours see the same rolls), random choices
from a second stream of its own, and the stratified first rolls of a rollout
from a permutation drawn for its block of 1,296 games.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from libc.math cimport isfinite
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.ref cimport PyObject
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

from bgcore.movegen cimport (bg_board, bg_movegen, bg_movegen_new, bg_movegen_free, bg_flip, bg_checkers,
                             bg_generate_boards, BG_MAX_RESULTS)
from bgcore.dice cimport bg_dice, bg_dice_seed, bg_dice_roll, bg_dice_below
from bgcore._pool cimport bg_pool_thread, bg_pool_take, bg_pool_give, bg_pool_submit, bg_pool_wait
from bgcore._nn cimport bg_nn, native_nets, nn_eval, nn_scratch_bytes

import numpy as np

cdef extern from "bg_eval.h":
    int bg_is_race(const int8_t *pt) noexcept nogil
    float bg_pubeval(const int8_t *pt, int race, int checkers) noexcept nogil
    float bg_race_score(const int8_t *pt, int checkers) noexcept nogil

cdef extern from "bg_platform.h":
    int bg_flag_get(volatile int *p) noexcept nogil
    void bg_flag_set(volatile int *p) noexcept nogil

cdef enum:
    # Policy kinds: built-in ones, a network (the player's own nets in the
    # job), then the two Python callables a duel may set against each other.
    RANDOM = 0
    PUBEVAL = 1
    RACE = 2
    NETWORK = 3
    CALLABLE_A = 4
    CALLABLE_B = 5
    STRATA = 1296          # the first two rolls: 36 x 36 strata per block
    MAX_THREADS = 64

# Dice stream numbers: games use 0 .. 2**62 - 1 for their rolls; random
# choices and the strata permutations have ranges of their own.
cdef uint64_t CHOICE_STREAMS = 1ULL << 62
cdef uint64_t STRATA_STREAMS = 1ULL << 63
BLOCK = STRATA
POLICIES = ("random", "pubeval", "race")


ctypedef struct bg_lane:
    bg_board board         # the player on roll's view
    bg_dice dice           # the game's rolls
    bg_dice choice         # the random policy's picks
    int64_t game           # its index; -1: the lane is idle
    int32_t ply            # plies played; the mover is player ply & 1
    uint8_t first[2]       # stratified rolls of plies 0 and 1 (0..35 each)
    uint8_t swap           # duel: player p plays policy p ^ swap
    uint8_t waiting        # truncated: waits for the evaluator
    int32_t start, count   # its children in the worker's buffer (Python policies)


ctypedef struct bg_job:
    bg_board start
    int checkers
    uint64_t seed
    int policy[2]          # kind of player 0 (on roll at the start) and player 1
    const bg_nn *contact[2]  # a NETWORK player's nets (race: NULL or the contact net for one net)
    const bg_nn *race[2]
    const bg_nn *eval_contact  # a native truncation evaluator's nets (NULL: a Python one)
    const bg_nn *eval_race
    int truncate           # plies, or -1
    int stratify, opening, duel, record
    int64_t first, end     # games [first, end)
    int64_t next           # the next unclaimed game (under lock)
    PyThread_type_lock lock
    double *y              # (end - first, 5): outcomes, player 0's view
    int32_t *plies         # plies played per game
    PyObject *callables[2] # CALLABLE_A, CALLABLE_B
    PyObject *evaluator
    PyObject *errors       # a list: exceptions raised by Python callables
    volatile int failed


ctypedef struct bg_worker:
    bg_job *job
    bg_movegen *g
    bg_lane *lanes
    int nlanes, active
    bg_board *scratch      # BG_MAX_RESULTS: a built-in policy's children
    bg_board *children     # cap: the children of lanes waiting for Python
    double *scores
    int64_t *offsets       # nlanes + 1
    int *pending           # lanes whose children are in the buffer
    int cap
    uint16_t perm[STRATA]  # the strata of the block perm_block
    int64_t perm_block
    # Self-play records: the position before each ply, its game and ply.
    int8_t *rec_boards
    int64_t *rec_game
    int32_t *rec_ply
    int64_t nrec, rec_cap
    float *out5            # cap: a network's five outputs per board
    void *nn_scratch       # a network call's scratch (NULL without networks)
    int oom, bad_net
    char apart[64]         # keeps the next worker's hot fields off this one's last cache line


cdef void _strata(uint64_t seed, int64_t block, uint16_t *perm) noexcept nogil:
    """The strata of a block's games: a permutation of 0..1295 (Fisher-Yates)."""
    cdef bg_dice d
    cdef int i, j
    cdef uint16_t t
    bg_dice_seed(&d, seed, STRATA_STREAMS + <uint64_t>block)
    for i in range(STRATA):
        perm[i] = i
    for i in range(STRATA - 1, 0, -1):
        j = bg_dice_below(&d, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t


cdef int64_t _claim(bg_job *job) noexcept nogil:
    cdef int64_t g
    PyThread_acquire_lock(job.lock, WAIT_LOCK)
    g = job.next
    if g < job.end:
        job.next += 1
    PyThread_release_lock(job.lock)
    return g if g < job.end else -1


cdef void _start(bg_worker *w, bg_lane *L) noexcept nogil:
    """Start the next unclaimed game on L, or leave L idle."""
    cdef bg_job *job = w.job
    cdef int64_t g = _claim(job)
    cdef uint16_t s
    L.game = g
    if g < 0:
        return
    w.active += 1
    L.board = job.start
    L.ply = 0
    L.swap = <uint8_t>(job.duel and (g & 1))
    L.waiting = job.truncate == 0
    bg_dice_seed(&L.dice, job.seed, <uint64_t>(g // 2 if job.duel else g))
    bg_dice_seed(&L.choice, job.seed, CHOICE_STREAMS + <uint64_t>g)
    if job.stratify:
        if g // STRATA != w.perm_block:
            w.perm_block = g // STRATA
            _strata(job.seed, w.perm_block, w.perm)
        s = w.perm[g % STRATA]
        L.first[0] = s // 36
        L.first[1] = s % 36


cdef inline void _roll(bg_job *job, bg_lane *L, int *d1, int *d2) noexcept nogil:
    cdef int r
    if job.stratify and L.ply < 2:
        r = L.first[L.ply]
        d1[0] = r // 6 + 1
        d2[0] = r % 6 + 1
        return
    bg_dice_roll(&L.dice, d1, d2)
    if job.opening and L.ply == 0:
        while d1[0] == d2[0]:  # the opening roll: doubles are rolled again
            bg_dice_roll(&L.dice, d1, d2)


cdef inline int _kind(bg_job *job, bg_lane *L) noexcept nogil:
    return job.policy[(L.ply & 1) ^ L.swap]


cdef int _record(bg_worker *w, bg_lane *L) noexcept nogil:
    """Keep the position L's mover is about to roll in; -1 when out of memory."""
    cdef int64_t cap
    cdef void *p
    if w.nrec == w.rec_cap:
        cap = 2 * w.rec_cap if w.rec_cap else 4096
        p = realloc(w.rec_boards, cap * 26)
        if p == NULL:
            return -1
        w.rec_boards = <int8_t *>p
        p = realloc(w.rec_game, cap * sizeof(int64_t))
        if p == NULL:
            return -1
        w.rec_game = <int64_t *>p
        p = realloc(w.rec_ply, cap * sizeof(int32_t))
        if p == NULL:
            return -1
        w.rec_ply = <int32_t *>p
        w.rec_cap = cap
    memcpy(&w.rec_boards[26 * w.nrec], L.board.pt, 26)
    w.rec_game[w.nrec] = L.game
    w.rec_ply[w.nrec] = L.ply
    w.nrec += 1
    return 0


cdef void _finish(bg_worker *w, bg_lane *L, const double *y, int plies) noexcept nogil:
    """Write L's game's outcome (player 0's view) and start the next game."""
    cdef bg_job *job = w.job
    cdef int64_t i = L.game - job.first
    cdef int k
    for k in range(5):
        job.y[5 * i + k] = y[k]
    job.plies[i] = plies
    w.active -= 1
    _start(w, L)


cdef void _advance(bg_worker *w, bg_lane *L, const bg_board *child) noexcept nogil:
    """L's mover plays to child (its view): the game ends, or the opponent is on roll."""
    cdef bg_job *job = w.job
    cdef double y[5]
    cdef int p, kind, opp
    if bg_checkers(child, 0) == 0:
        opp = bg_checkers(child, 1)
        kind = 1
        if opp == job.checkers:
            kind = 2
            if child.pt[0] < 0:
                kind = 3
            for p in range(1, 7):
                if child.pt[p] < 0:
                    kind = 3
        y[0] = y[1] = y[2] = y[3] = y[4] = 0.0
        if L.ply & 1:  # player 1 won
            y[3] = kind >= 2
            y[4] = kind >= 3
        else:
            y[0] = 1.0
            y[1] = kind >= 2
            y[2] = kind >= 3
        _finish(w, L, y, L.ply + 1)
        return
    bg_flip(child, &L.board)
    L.ply += 1
    if job.truncate >= 0 and L.ply >= job.truncate:
        L.waiting = 1


cdef inline float _score(int kind, const bg_board *b, int checkers) noexcept nogil:
    if kind == PUBEVAL:
        return bg_pubeval(b.pt, bg_is_race(b.pt), checkers)
    return bg_race_score(b.pt, checkers)


cdef inline double _equity(const float *p) noexcept nogil:
    """Cubeless money equity of five outputs, in double, in the order
    ``bgcore.policy.Greedy`` computes it with numpy (the same bits)."""
    return ((((2.0 * <double>p[0] - 1.0) + <double>p[1]) - <double>p[3]) + <double>p[2]) - <double>p[4]


cdef int _net_choice(bg_worker *w, const bg_lane *L, int n) noexcept nogil:
    """The child (of n in w.scratch) that leaves L's opponent the lowest
    equity by the mover's nets, the first of equal ones; -1 for a net that
    refuses to evaluate.  The children are flipped to the opponent's view to
    be evaluated in one batch, the chosen one flipped back."""
    cdef bg_job *job = w.job
    cdef int which = (L.ply & 1) ^ L.swap
    cdef int k, best = 0
    cdef double e, low = 0.0
    for k in range(n):
        bg_flip(&w.scratch[k], &w.scratch[k])
    if nn_eval(job.contact[which], job.race[which], <const int8_t *>w.scratch, n, job.checkers, w.out5,
               w.nn_scratch) < 0:
        return -1
    for k in range(n):
        e = _equity(&w.out5[5 * k])
        if k == 0 or e < low:
            low = e
            best = k
    bg_flip(&w.scratch[best], &w.scratch[best])
    return best


cdef int _native_ply(bg_worker *w, bg_lane *L, int kind) noexcept nogil:
    """One ply of L with a policy run in C; -1 on failure (-2: a network's)."""
    cdef bg_job *job = w.job
    cdef int d1, d2, n, k, best = 0
    cdef float s, top
    if job.record and _record(w, L) < 0:
        return -1
    _roll(job, L, &d1, &d2)
    n = bg_generate_boards(w.g, &L.board, d1, d2, w.scratch, BG_MAX_RESULTS)
    if n <= 0:
        return -1
    if n > 1:
        if kind == RANDOM:
            best = bg_dice_below(&L.choice, n)
        elif kind == NETWORK:
            best = _net_choice(w, L, n)
            if best < 0:
                return -2
        else:
            top = _score(kind, &w.scratch[0], job.checkers)
            for k in range(1, n):
                s = _score(kind, &w.scratch[k], job.checkers)
                if s > top:
                    top = s
                    best = k
    _advance(w, L, &w.scratch[best])
    return 0


cdef int _call_policy(bg_worker *w, int which, int npending, int nch) noexcept:
    """Score the buffered children with Python callable ``which``; -1 on
    failure (the exception is kept for the caller).  GIL held."""
    cdef const double[::1] scores
    cdef int i
    try:
        children = np.frombuffer(PyBytes_FromStringAndSize(<char *>w.children, 26 * nch),
                                 dtype=np.int8).reshape(nch, 26)
        offsets = np.empty(npending + 1, dtype=np.int64)
        for i in range(npending):
            offsets[i] = w.lanes[w.pending[i]].start
        offsets[npending] = nch
        arr = np.asarray((<object>w.job.callables[which])(children, offsets), dtype=np.float64)
        if arr.shape != (nch,):
            raise ValueError(f"a policy must return one score per child, shape ({nch},), not {arr.shape}")
        if not np.isfinite(arr).all():
            raise ValueError("a policy returned a score that is NaN or infinite")
        scores = np.ascontiguousarray(arr)
        memcpy(w.scores, &scores[0], nch * sizeof(double))
    except BaseException as exc:
        (<list>w.job.errors).append(exc)
        bg_flag_set(&w.job.failed)
        return -1
    return 0


cdef int _flush(bg_worker *w, int which, int npending, int nch) noexcept nogil:
    cdef int i, k, best
    cdef double top
    cdef bg_lane *L
    if npending == 0:
        return 0
    with gil:
        if _call_policy(w, which, npending, nch) < 0:
            return -1
    for i in range(npending):
        L = &w.lanes[w.pending[i]]
        best = 0
        top = w.scores[L.start]
        for k in range(1, L.count):
            if w.scores[L.start + k] > top:
                top = w.scores[L.start + k]
                best = k
        _advance(w, L, &w.children[L.start + best])
    return 0


cdef int _python_pass(bg_worker *w, int kind) noexcept nogil:
    """One ply of every lane whose mover plays Python callable ``kind``."""
    cdef bg_job *job = w.job
    cdef int i, n, d1, d2, npending = 0, nch = 0
    cdef bg_lane *L
    for i in range(w.nlanes):
        L = &w.lanes[i]
        if L.game < 0 or L.waiting or _kind(job, L) != kind:
            continue
        if w.cap - nch < BG_MAX_RESULTS:
            if _flush(w, kind - CALLABLE_A, npending, nch) < 0:
                return -1
            npending = nch = 0
        if job.record and _record(w, L) < 0:
            return -1
        _roll(job, L, &d1, &d2)
        n = bg_generate_boards(w.g, &L.board, d1, d2, &w.children[nch], w.cap - nch)
        if n <= 0:
            return -1
        L.start = nch
        L.count = n
        nch += n
        w.pending[npending] = i
        npending += 1
    return _flush(w, kind - CALLABLE_A, npending, nch)


cdef void _finish_truncated(bg_worker *w, bg_lane *L, const double *p) noexcept nogil:
    """Finish L's truncated game with the evaluator's outputs p (its player on roll's view)."""
    cdef double y[5]
    cdef int k
    if L.ply & 1:  # the evaluator speaks for player 1
        y[0] = 1.0 - p[0]
        y[1] = p[3]
        y[2] = p[4]
        y[3] = p[1]
        y[4] = p[2]
    else:
        for k in range(5):
            y[k] = p[k]
    L.waiting = 0
    _finish(w, L, y, L.ply)


cdef int _call_evaluator(bg_worker *w, int n) noexcept:
    """Score the n truncated games gathered in the buffer and finish them;
    -1 on failure (the exception is kept for the caller).  GIL held."""
    cdef bg_job *job = w.job
    cdef const double[:, ::1] p
    cdef int i
    try:
        boards = np.frombuffer(PyBytes_FromStringAndSize(<char *>w.children, 26 * n),
                               dtype=np.int8).reshape(n, 26)
        arr = np.asarray((<object>job.evaluator)(boards), dtype=np.float64)
        if arr.shape != (n, 5):
            raise ValueError(f"an evaluator must return shape ({n}, 5), not {arr.shape}")
        # (float32's rounding may stray from [0, 1]: a softmax's sum of three outcomes can be 1 + 2**-23)
        if not (np.isfinite(arr).all() and (arr >= -1e-6).all() and (arr <= 1 + 1e-6).all()):
            raise ValueError("an evaluator must return probabilities in [0, 1]")
        p = np.ascontiguousarray(arr)
    except BaseException as exc:
        (<list>job.errors).append(exc)
        bg_flag_set(&job.failed)
        return -1
    for i in range(n):
        _finish_truncated(w, &w.lanes[w.pending[i]], &p[i, 0])
    return 0


cdef int _native_evaluate(bg_worker *w, int n) noexcept nogil:
    """Score the n truncated games gathered in the buffer with the job's
    nets and finish them; -1 for a net that refuses to evaluate."""
    cdef bg_job *job = w.job
    cdef double p[5]
    cdef int i, k
    if nn_eval(job.eval_contact, job.eval_race, <const int8_t *>w.children, n, job.checkers, w.out5,
               w.nn_scratch) < 0:
        return -1
    for i in range(n):
        for k in range(5):
            p[k] = w.out5[5 * i + k]  # float to double, exactly as numpy converts them
        _finish_truncated(w, &w.lanes[w.pending[i]], p)
    return 0


cdef int _flush_truncated(bg_worker *w, int n) noexcept nogil:
    if n == 0:
        return 0
    if w.job.eval_contact != NULL:
        if _native_evaluate(w, n) < 0:
            w.bad_net = 1
            bg_flag_set(&w.job.failed)
            return -1
        return 0
    with gil:
        return _call_evaluator(w, n)


cdef int _evaluate(bg_worker *w) noexcept nogil:
    """Score every truncated game with the evaluator (in batches as large
    as the buffer: one call of a Python evaluator) and finish it."""
    cdef int i, n = 0
    cdef bg_lane *L
    for i in range(w.nlanes):
        L = &w.lanes[i]
        if L.game >= 0 and L.waiting:
            if n == w.cap:
                if _flush_truncated(w, n) < 0:
                    return -1
                n = 0
            memcpy(w.children[n].pt, L.board.pt, 26)
            w.pending[n] = i
            n += 1
    return _flush_truncated(w, n)


cdef void _work(void *arg) noexcept nogil:
    """A worker's share: games claimed one at a time until none are left."""
    cdef bg_worker *w = <bg_worker *>arg
    cdef bg_job *job = w.job
    cdef bint python_a = job.policy[0] == CALLABLE_A or job.policy[1] == CALLABLE_A
    cdef bint python_b = job.policy[0] == CALLABLE_B or job.policy[1] == CALLABLE_B
    cdef int i, kind, rc
    cdef bg_lane *L
    for i in range(w.nlanes):
        _start(w, &w.lanes[i])
    while w.active > 0 and not bg_flag_get(&job.failed):
        for i in range(w.nlanes):
            L = &w.lanes[i]
            if L.game < 0 or L.waiting:
                continue
            kind = _kind(job, L)
            if kind < CALLABLE_A:
                rc = _native_ply(w, L, kind)
                if rc < 0:
                    if rc == -2:
                        w.bad_net = 1
                    else:
                        w.oom = 1
                    bg_flag_set(&job.failed)
                    return
        if python_a and _python_pass(w, CALLABLE_A) < 0:
            return
        if python_b and _python_pass(w, CALLABLE_B) < 0:
            return
        if job.truncate >= 0 and _evaluate(w) < 0:
            return


cdef int _worker_init(bg_worker *w, bg_job *job, int lanes, bint python, size_t nn_bytes) noexcept nogil:
    w.job = job
    w.nlanes = lanes
    w.perm_block = -1
    w.g = bg_movegen_new()
    w.lanes = <bg_lane *>calloc(lanes, sizeof(bg_lane))
    w.scratch = <bg_board *>malloc(BG_MAX_RESULTS * sizeof(bg_board))
    # Room for a typical step of every lane at once (about 20 children a
    # roll), and always for one more roll's worst case.
    w.cap = (lanes * 32 if python else 0) + BG_MAX_RESULTS
    w.children = <bg_board *>malloc(w.cap * sizeof(bg_board))
    w.scores = <double *>malloc(w.cap * sizeof(double))
    w.pending = <int *>malloc(lanes * sizeof(int))
    if w.g == NULL or w.lanes == NULL or w.scratch == NULL or w.children == NULL or w.scores == NULL \
            or w.pending == NULL:
        return -1
    if nn_bytes:  # a network's outputs for any batch the worker evaluates, and its scratch
        w.out5 = <float *>malloc(w.cap * 5 * sizeof(float))
        w.nn_scratch = malloc(nn_bytes)
        if w.out5 == NULL or w.nn_scratch == NULL:
            return -1
    return 0


cdef void _worker_free(bg_worker *w) noexcept nogil:
    bg_movegen_free(w.g)
    free(w.lanes)
    free(w.scratch)
    free(w.children)
    free(w.scores)
    free(w.pending)
    free(w.out5)
    free(w.nn_scratch)
    free(w.rec_boards)
    free(w.rec_game)
    free(w.rec_ply)


cdef int _kind_of(object policy, list callables, const bg_nn **contact, const bg_nn **race) except -1:
    """The kind of a player's policy; a network's nets into *contact and *race."""
    if isinstance(policy, str):
        return POLICIES.index(policy)
    if native_nets(policy, contact, race):
        return NETWORK
    for i, c in enumerate(callables):
        if c is policy:
            return CALLABLE_A + i
    callables.append(policy)
    return CALLABLE_A + len(callables) - 1


def play_games(bytes start not None, int checkers, uint64_t seed, int64_t first, int64_t count, tuple policies,
               *, int truncate=-1, evaluator=None, bint stratify=False, bint opening=False, bint duel=False,
               bint record=False, int lanes=256, int threads=1):
    """Play games ``first`` .. ``first + count - 1`` from ``start`` (26 bytes,
    the view of player 0, on roll) and return ``(y, plies, records)``: each
    game's outcome from player 0's view (float64 (count, 5): win, win gammon,
    win backgammon, lose gammon, lose backgammon; an evaluator's estimate for
    a truncated game), the plies played, and with ``record`` the positions met
    ``(boards, game, ply)`` in no particular order (else None).

    ``policies``: player 0's and player 1's, each a name of ``POLICIES``, a
    network (``bgcore.nn.Network`` or ``Composite``: it plays the child that
    leaves the opponent the lowest cubeless equity, run in C) or a callable
    ``policy(children, offsets)``; in a duel, odd games swap them.
    ``evaluator``: a network (run in C) or a Python callable.  The caller has
    checked every argument: this is the engine's raw entry point.
    """
    cdef bg_job job
    cdef bg_worker *workers
    cdef bg_pool_thread *pool[MAX_THREADS]
    cdef list callables = []
    cdef list errors = []
    cdef int i, nthreads, nlanes
    cdef bint python
    cdef double[:, ::1] y
    cdef int32_t[::1] plies
    cdef int64_t total = 0, at
    cdef size_t nn_bytes = 0
    if len(start) != 26 or not 1 <= threads <= MAX_THREADS or lanes < 1 or count < 0:
        raise ValueError("play_games: bad arguments")
    job.start = (<bg_board *><char *>start)[0]
    job.checkers = checkers
    job.seed = seed
    job.eval_contact = job.eval_race = NULL
    for i in range(2):
        job.contact[i] = job.race[i] = NULL
        job.policy[i] = _kind_of(policies[i], callables, &job.contact[i], &job.race[i])
        if job.policy[i] == NETWORK:
            nn_bytes = max(nn_bytes, nn_scratch_bytes(job.contact[i], job.race[i]))
    if evaluator is not None and native_nets(evaluator, &job.eval_contact, &job.eval_race):
        nn_bytes = max(nn_bytes, nn_scratch_bytes(job.eval_contact, job.eval_race))
    job.truncate = truncate
    job.stratify = stratify
    job.opening = opening
    job.duel = duel
    job.record = record
    job.first = first
    job.end = first + count
    job.next = first
    job.failed = 0
    job.errors = <PyObject *>errors
    job.evaluator = <PyObject *>evaluator
    job.callables[0] = job.callables[1] = NULL
    for i, c in enumerate(callables):
        job.callables[i] = <PyObject *>c
    if truncate >= 0 and evaluator is None:
        raise ValueError("play_games: truncate needs an evaluator")
    y_arr = np.zeros((count, 5), dtype=np.float64)
    plies_arr = np.zeros(count, dtype=np.int32)
    y = y_arr
    plies = plies_arr
    job.y = &y[0, 0] if count else NULL
    job.plies = &plies[0] if count else NULL
    python = bool(callables) or (truncate >= 0 and job.eval_contact == NULL)
    nthreads = <int>min(threads, max(count, 1))
    nlanes = <int>min(lanes, max((count + nthreads - 1) // nthreads, 1))
    job.lock = PyThread_allocate_lock()
    workers = <bg_worker *>calloc(nthreads, sizeof(bg_worker))
    try:
        if job.lock == NULL or workers == NULL:
            raise MemoryError()
        for i in range(nthreads):
            if _worker_init(&workers[i], &job, nlanes, python, nn_bytes) < 0:
                raise MemoryError()
        for i in range(1, nthreads):
            pool[i] = bg_pool_take()
        with nogil:
            for i in range(1, nthreads):
                if pool[i] != NULL:
                    bg_pool_submit(pool[i], _work, &workers[i])
            _work(&workers[0])
            for i in range(1, nthreads):
                if pool[i] != NULL:
                    bg_pool_wait(pool[i])
        for i in range(1, nthreads):
            bg_pool_give(pool[i])
        if errors:
            raise errors[0]
        for i in range(nthreads):
            if workers[i].oom:
                raise MemoryError("the game engine ran out of memory")
            if workers[i].bad_net:
                raise ValueError("a network refused to evaluate: it is inconsistent")
        if job.next < job.end:  # a forked child whose pool threads never ran
            raise RuntimeError("the game engine left games unplayed")
        records = None
        if record:
            for i in range(nthreads):
                total += workers[i].nrec
            boards = np.empty((total, 26), dtype=np.int8)
            games = np.empty(total, dtype=np.int64)
            ply = np.empty(total, dtype=np.int32)
            at = 0
            for i in range(nthreads):
                n = workers[i].nrec
                if n:
                    boards[at:at + n] = np.frombuffer(
                        PyBytes_FromStringAndSize(<char *>workers[i].rec_boards, 26 * n), dtype=np.int8
                    ).reshape(n, 26)
                    games[at:at + n] = np.frombuffer(
                        PyBytes_FromStringAndSize(<char *>workers[i].rec_game, 8 * n), dtype=np.int64)
                    ply[at:at + n] = np.frombuffer(
                        PyBytes_FromStringAndSize(<char *>workers[i].rec_ply, 4 * n), dtype=np.int32)
                at += n
            records = (boards, games, ply)
        return y_arr, plies_arr, records
    finally:
        if workers != NULL:
            for i in range(nthreads):
                _worker_free(&workers[i])
            free(workers)
        if job.lock != NULL:
            PyThread_free_lock(job.lock)


def strata(uint64_t seed, int64_t block):
    """The strata of block ``block``'s games (int16 (1296,)): game j of the
    block rolls ``s // 36`` then ``s % 36`` (ordered rolls, die1 = r // 6 + 1,
    die2 = r % 6 + 1) for its first two plies, s = strata[j]."""
    cdef uint16_t perm[STRATA]
    cdef int i
    _strata(seed, block, perm)
    out = np.empty(STRATA, dtype=np.int16)
    for i in range(STRATA):
        out[i] = perm[i]
    return out
