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
from libc.string cimport memcpy, memset
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
from bgcore._cube cimport bg_met, bg_cube_state, bg_cube_decision, bg_cube_judge

import numpy as np

cdef extern from "bg_eval.h":
    int bg_is_race(const int8_t *pt) noexcept nogil
    float bg_pubeval(const int8_t *pt, int race, int checkers) noexcept nogil
    float bg_race_score(const int8_t *pt, int checkers) noexcept nogil

cdef extern from "bg_cubeplay.h" nogil:
    ctypedef struct bg_cubeplay_rules:
        int32_t length
        int32_t away[2]
        int32_t crawford, jacoby, beavers, limit
    ctypedef struct bg_cubeplay_branch:
        int32_t cube, owner, over, points
    int bg_cubeplay_may_double(const bg_cubeplay_rules *r, const bg_cubeplay_branch *b, int player) noexcept
    void bg_cubeplay_end(bg_cubeplay_branch *b, int winner, int32_t points) noexcept
    void bg_cubeplay_borne_off(const bg_cubeplay_rules *r, bg_cubeplay_branch *b, int winner, int kind) noexcept
    int bg_cubeplay_turn(const bg_cubeplay_rules *r, bg_cubeplay_branch *b, int mover, const bg_met *m,
                         const int8_t *pt, const double *p, const double *q) noexcept
    bg_cube_state bg_cubeplay_state(const bg_cubeplay_rules *r, const bg_cubeplay_branch *b, int player) noexcept

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
    # Cube modes: cubeless games; a cubeful rollout (two branches on one
    # board, played to the end); money games and whole matches of a duel.
    CUBELESS = 0
    CUBE_ROLLOUT = 1
    CUBE_GAMES = 2
    CUBE_MATCHES = 3
    # A player's cube evaluator: none (no cube theory), nets, a Python callable.
    NO_THEORY = 0
    NATIVE_THEORY = 1
    PYTHON_THEORY = 2

# Dice stream numbers: games use 0 .. 2**62 - 1 for their rolls; random
# choices and the strata permutations have ranges of their own.
cdef uint64_t CHOICE_STREAMS = 1ULL << 62
cdef int64_t MAX_PLIES = 2147483647  # a game's (a match's) plies are counted in 32 bits
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
    # The cube (cube modes only).  The mover is player (ply + starter) & 1.
    uint8_t starter        # the player who moved first (cube duels: the opening roll's)
    uint8_t cube_done      # the cube turn before this ply's roll is over
    uint8_t crawford_state # matches: 0 before the Crawford game, 1 in it, 2 after
    uint8_t cached         # cache holds the board's probabilities by cache_nets
    uint8_t python_ready[2]  # python_p[k] holds the board's probabilities by Python evaluator k
    bg_cubeplay_rules rules
    bg_cubeplay_branch branch[2]
    int32_t score[2]       # matches: each player's points
    int32_t games, net     # matches: games played, player 0's points over them
    int64_t match_plies
    float cache[5]         # the mover's probabilities by the nets that chose the last move
    const bg_nn *cache_nets[2]
    double python_p[2][5]


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
    # The cube: the mode, the branches (rollouts: no double, double/take;
    # duels: one), the rules of a rollout's or a money duel's games, each
    # policy's cube theory (the nets, or a Python evaluator's slot) and the
    # match equity table.  cube_y: (end - first, cube_columns) outcomes.
    int cube, branches, match_length
    bg_cubeplay_rules rules
    bg_cubeplay_branch root[2]
    int theory[2]
    const bg_nn *theory_nets[2][2]
    int theory_slot[2]
    PyObject *theory_python[2]
    bg_met met
    double *cube_y
    int cube_columns
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
    if job.cube == CUBE_ROLLOUT:
        L.rules = job.rules
        L.branch[0] = job.root[0]
        L.branch[1] = job.root[1]
        _new_ply(L)
    elif job.cube == CUBE_GAMES:
        L.rules = job.rules
        _new_game(job, L)
    elif job.cube == CUBE_MATCHES:
        L.score[0] = L.score[1] = 0
        L.games = L.net = 0
        L.match_plies = 0
        L.crawford_state = 0
        _new_game(job, L)


cdef inline void _new_ply(bg_lane *L) noexcept nogil:
    """The cube turn before L's next roll is to come; nothing is known of its board."""
    L.cube_done = 0
    L.cached = 0
    L.python_ready[0] = L.python_ready[1] = 0


cdef void _new_game(bg_job *job, bg_lane *L) noexcept nogil:
    """A cube duel's next game on L (the rules already L's in money play):
    the initial position, the cube centred at 1, and the opening roll, whose
    higher die moves first (Game's way: player 0's die, then player 1's;
    ties roll again), kept for ply 0."""
    cdef int d1, d2, k
    L.board = job.start
    L.ply = 0
    L.branch[0].cube = 1
    L.branch[0].owner = -1
    L.branch[0].over = 0
    L.branch[0].points = 0
    if job.cube == CUBE_MATCHES:
        for k in range(2):
            L.rules.away[k] = job.match_length - L.score[k]
        L.rules.length = job.match_length
        L.rules.jacoby = L.rules.beavers = 0
        L.rules.limit = job.rules.limit
        if L.crawford_state == 1:
            L.crawford_state = 2
        elif L.crawford_state == 0 and (L.rules.away[0] == 1) != (L.rules.away[1] == 1):
            L.crawford_state = 1
        L.rules.crawford = L.crawford_state == 1
    bg_dice_roll(&L.dice, &d1, &d2)
    while d1 == d2:
        bg_dice_roll(&L.dice, &d1, &d2)
    L.starter = d2 > d1
    L.first[0] = (d1 - 1) * 6 + d2 - 1
    _new_ply(L)


cdef inline void _roll(bg_job *job, bg_lane *L, int *d1, int *d2) noexcept nogil:
    cdef int r
    if (job.stratify and L.ply < 2) or (job.cube >= CUBE_GAMES and L.ply == 0):
        r = L.first[L.ply]
        d1[0] = r // 6 + 1
        d2[0] = r % 6 + 1
        return
    bg_dice_roll(&L.dice, d1, d2)
    if job.opening and L.ply == 0:
        while d1[0] == d2[0]:  # the opening roll: doubles are rolled again
            bg_dice_roll(&L.dice, d1, d2)


cdef inline int _mover(const bg_lane *L) noexcept nogil:
    """The player on roll: 0 moved first (on roll at a rollout's start)."""
    return (L.ply + L.starter) & 1


cdef inline int _kind(bg_job *job, bg_lane *L) noexcept nogil:
    return job.policy[_mover(L) ^ L.swap]


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


cdef void _game_over(bg_worker *w, bg_lane *L, const double *y, int plies) noexcept nogil:
    """A cube mode's game is over on L, in every branch: write its outcome
    (a rollout's: the cubeless y and each branch's points; a money duel's:
    player 0's points) and start the next game, or in a match score it and
    play on until the match is won (then write who won it, player 0's net
    points and the games)."""
    cdef bg_job *job = w.job
    cdef int64_t i = L.game - job.first
    cdef int32_t points
    cdef int b
    if job.cube != CUBE_MATCHES:
        for b in range(job.branches):
            job.cube_y[job.cube_columns * i + b] = L.branch[b].points
        _finish(w, L, y, plies)
        return
    points = L.branch[0].points
    L.score[0 if points > 0 else 1] += points if points > 0 else -points
    L.net += points
    L.games += 1
    L.match_plies += plies
    if L.score[0] < job.match_length and L.score[1] < job.match_length:
        _new_game(job, L)
        return
    job.cube_y[3 * i] = L.score[0] >= job.match_length
    job.cube_y[3 * i + 1] = L.net
    job.cube_y[3 * i + 2] = L.games
    _finish(w, L, y, <int>(L.match_plies if L.match_plies < MAX_PLIES else MAX_PLIES))


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
        if _mover(L):  # player 1 won
            y[3] = kind >= 2
            y[4] = kind >= 3
        else:
            y[0] = 1.0
            y[1] = kind >= 2
            y[2] = kind >= 3
        if job.cube:
            for p in range(job.branches):
                bg_cubeplay_borne_off(&L.rules, &L.branch[p], _mover(L), kind)
            _game_over(w, L, y, L.ply + 1)
        else:
            _finish(w, L, y, L.ply + 1)
        return
    bg_flip(child, &L.board)
    L.ply += 1
    if job.truncate >= 0 and L.ply >= job.truncate:
        L.waiting = 1
    if job.cube:
        _new_ply(L)


include "_engine_choose.pxi"  # how a lane chooses: moves, evaluations, cube actions


cdef void _work(void *arg) noexcept nogil:
    """A worker's share: games claimed one at a time until none are left."""
    cdef bg_worker *w = <bg_worker *>arg
    cdef bg_job *job = w.job
    cdef bint python_a = job.policy[0] == CALLABLE_A or job.policy[1] == CALLABLE_A
    cdef bint python_b = job.policy[0] == CALLABLE_B or job.policy[1] == CALLABLE_B
    cdef bint python_theory = job.theory[0] == PYTHON_THEORY or job.theory[1] == PYTHON_THEORY
    cdef int i, kind, rc
    cdef bg_lane *L
    for i in range(w.nlanes):
        _start(w, &w.lanes[i])
    while w.active > 0 and not bg_flag_get(&job.failed):
        for i in range(w.nlanes):
            L = &w.lanes[i]
            if L.game < 0 or L.waiting:
                continue
            if job.cube and not L.cube_done:
                rc = _cube_turn(w, L)
                if rc < 0:
                    w.bad_net = 1
                    bg_flag_set(&job.failed)
                    return
                if rc > 0 or L.game < 0 or not L.cube_done:  # waits for Python, or a new game
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
        if python_theory and _cube_python_pass(w) < 0:
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


cdef int _setup(bg_job *job, bytes start, int checkers, uint64_t seed, int64_t first, int64_t count,
                tuple policies, list callables, list errors, int threads, int lanes) except -1:
    """The fields of a job every entry point sets: the start, the players'
    policies, the games; no cube, truncation, evaluator nor records."""
    cdef int i
    if len(start) != 26 or not 1 <= threads <= MAX_THREADS or lanes < 1 or count < 0:
        raise ValueError("play_games: bad arguments")
    memset(job, 0, sizeof(bg_job))
    job.start = (<bg_board *><char *>start)[0]
    job.checkers = checkers
    job.seed = seed
    for i in range(2):
        job.policy[i] = _kind_of(policies[i], callables, &job.contact[i], &job.race[i])
    job.truncate = -1
    job.first = first
    job.end = first + count
    job.next = first
    job.errors = <PyObject *>errors
    for i, c in enumerate(callables):
        job.callables[i] = <PyObject *>c
    return 0


cdef size_t _nn_bytes(bg_job *job):
    """The scratch a worker's network calls need (0: no networks)."""
    cdef size_t n = 0
    cdef int i
    for i in range(2):
        if job.policy[i] == NETWORK:
            n = max(n, nn_scratch_bytes(job.contact[i], job.race[i]))
        if job.theory[i] == NATIVE_THEORY:
            n = max(n, nn_scratch_bytes(job.theory_nets[i][0], job.theory_nets[i][1]))
    if job.eval_contact != NULL:
        n = max(n, nn_scratch_bytes(job.eval_contact, job.eval_race))
    return n


cdef object _run(bg_job *job, int64_t count, int threads, int lanes, bint python, list errors):
    """Play the job's games on ``threads`` threads and raise what failed;
    the records (boards, game, ply) when the job keeps them, else None."""
    cdef bg_worker *workers
    cdef bg_pool_thread *pool[MAX_THREADS]
    cdef int i, nthreads, nlanes
    cdef int64_t total = 0, at
    cdef size_t nn_bytes = _nn_bytes(job)
    nthreads = <int>min(threads, max(count, 1))
    nlanes = <int>min(lanes, max((count + nthreads - 1) // nthreads, 1))
    job.lock = PyThread_allocate_lock()
    workers = <bg_worker *>calloc(nthreads, sizeof(bg_worker))
    try:
        if job.lock == NULL or workers == NULL:
            raise MemoryError()
        for i in range(nthreads):
            if _worker_init(&workers[i], job, nlanes, python, nn_bytes) < 0:
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
        if not job.record:
            return None
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
        return boards, games, ply
    finally:
        if workers != NULL:
            for i in range(nthreads):
                _worker_free(&workers[i])
            free(workers)
        if job.lock != NULL:
            PyThread_free_lock(job.lock)


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
    cdef list callables = []
    cdef list errors = []
    cdef double[:, ::1] y
    cdef int32_t[::1] plies
    _setup(&job, start, checkers, seed, first, count, policies, callables, errors, threads, lanes)
    if evaluator is not None:
        native_nets(evaluator, &job.eval_contact, &job.eval_race)
    job.truncate = truncate
    job.stratify = stratify
    job.opening = opening
    job.duel = duel
    job.record = record
    job.evaluator = <PyObject *>evaluator
    if truncate >= 0 and evaluator is None:
        raise ValueError("play_games: truncate needs an evaluator")
    y_arr = np.zeros((count, 5), dtype=np.float64)
    plies_arr = np.zeros(count, dtype=np.int32)
    y = y_arr
    plies = plies_arr
    job.y = &y[0, 0] if count else NULL
    job.plies = &plies[0] if count else NULL
    python = bool(callables) or (truncate >= 0 and job.eval_contact == NULL)
    records = _run(&job, count, threads, lanes, python, errors)
    return y_arr, plies_arr, records


def play_cubeful(bytes start not None, int checkers, uint64_t seed, int64_t first, int64_t count, tuple policies,
                 tuple theories, const double[::1] pre not None, const double[::1] post not None, *,
                 tuple rules=(0, 0, 0, 0, 0, 0, 4096), tuple root=((1, -1),), int match_length=0,
                 bint stratify=False,
                 bint duel=False, int lanes=256, int threads=1):
    """Play games (or matches) with the cube: ``(y, plies, cube_y)``.

    Three modes.  A cubeful rollout (``duel`` false): games ``first`` ..
    ``first + count - 1`` from ``start`` (player 0 on roll, before the
    roll), one branch of the cube for each of ``root`` (``(cube, owner)``,
    owner -1 centred, else the player), all on the same board, played to
    the end: ``y`` the cubeless outcomes as ``play_games`` gives them,
    ``cube_y`` (count, len(root)) player 0's points in each branch.  A money
    duel (``duel``, ``match_length`` 0): games from the initial position,
    the cube centred at 1, odd games with the policies swapped on the dice
    of the game before, the opening roll choosing who moves first, each
    game ending at a pass; ``cube_y`` (count, 1) player 0's points.  A match
    duel (``match_length`` N): whole N-point matches, the Crawford rule on;
    ``cube_y`` (count, 3): whether player 0 won, player 0's net points and
    the games played (``plies``: all the match's plies).

    ``rules``: (length, player 0's away, player 1's away, crawford, jacoby,
    beavers, the cube's limit) of a rollout's or money duel's games (a
    match duel's limit is the same).  ``theories``: each
    policy's cube evaluator, a network (run in C) or a Python callable
    ``boards -> (n, 5)``, or None for a player that never doubles and always
    takes.  ``pre``, ``post``: the match equity table
    (``bgcore.met.met_arrays()``).  The caller has checked every argument.
    """
    cdef bg_job job
    cdef list callables = []
    cdef list errors = []
    cdef list pythons = []
    cdef double[:, ::1] y
    cdef double[:, ::1] cube_y
    cdef int32_t[::1] plies
    cdef int i, k
    _setup(&job, start, checkers, seed, first, count, policies, callables, errors, threads, lanes)
    job.stratify = stratify
    job.duel = duel
    job.match_length = match_length
    job.cube = CUBE_MATCHES if match_length else (CUBE_GAMES if duel else CUBE_ROLLOUT)
    job.branches = len(root)
    if not 1 <= job.branches <= 2 or len(rules) != 7 or len(theories) != 2:
        raise ValueError("play_cubeful: bad arguments")
    job.rules.length, job.rules.away[0], job.rules.away[1], job.rules.crawford, job.rules.jacoby, \
        job.rules.beavers, job.rules.limit = rules
    for i in range(job.branches):
        job.root[i].cube, job.root[i].owner = root[i]
    for i in range(2):
        theory = theories[i]
        if theory is None:
            job.theory[i] = NO_THEORY
        elif native_nets(theory, &job.theory_nets[i][0], &job.theory_nets[i][1]):
            job.theory[i] = NATIVE_THEORY
        else:
            job.theory[i] = PYTHON_THEORY
            for k, c in enumerate(pythons):
                if c is theory:
                    job.theory_slot[i] = k
                    break
            else:
                pythons.append(theory)
                job.theory_slot[i] = len(pythons) - 1
                job.theory_python[len(pythons) - 1] = <PyObject *>theory
    job.met.pre = &pre[0]
    job.met.post = &post[0]
    job.met.size = post.shape[0]
    job.cube_columns = 3 if match_length else job.branches
    y_arr = np.zeros((count, 5), dtype=np.float64)
    plies_arr = np.zeros(count, dtype=np.int32)
    cube_arr = np.zeros((count, job.cube_columns), dtype=np.float64)
    y = y_arr
    plies = plies_arr
    cube_y = cube_arr
    job.y = &y[0, 0] if count else NULL
    job.plies = &plies[0] if count else NULL
    job.cube_y = &cube_y[0, 0] if count else NULL
    _run(&job, count, threads, lanes, bool(callables) or bool(pythons), errors)
    return y_arr, plies_arr, cube_arr


def cube_judge(tuple values, tuple state, double win, bint win_gammon, const double[::1] pre not None,
               const double[::1] post not None):
    """bg_cube.h's judgement of a cube action's three values (no double,
    double/take, double/pass; money per unit of the cube, match MWC) in
    ``state`` (bg_cube_state's seven ints) for a player whose winning chance
    is ``win``: (best, action, response), as ``bgcore.cube.cube_decision``
    judges its 0-ply values; here a cubeful rollout's."""
    cdef double v[3]
    cdef bg_cube_state s
    cdef bg_met m
    cdef bg_cube_decision d
    v[0], v[1], v[2] = values
    s.away, s.opp_away, s.cube, s.owner, s.crawford, s.jacoby, s.beavers = state
    m.pre = &pre[0]
    m.post = &post[0]
    m.size = post.shape[0]
    bg_cube_judge(v, &s, &m, win, win_gammon, &d)
    return d.best, d.action, d.response


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


def may_double(tuple rules, tuple branch, int player):
    """Whether ``player`` on roll may usefully double in a game of ``rules``
    (as ``play_cubeful`` takes them) with the cube ``branch`` ((cube, owner),
    owner -1 centred, else the player): bg_cubeplay.h's rule."""
    cdef bg_cubeplay_rules r
    cdef bg_cubeplay_branch b
    r.length, r.away[0], r.away[1], r.crawford, r.jacoby, r.beavers, r.limit = rules
    b.cube, b.owner = branch
    b.over = b.points = 0
    return bool(bg_cubeplay_may_double(&r, &b, player))
