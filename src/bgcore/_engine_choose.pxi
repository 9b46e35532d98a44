# Included by _engine.pyx (one extension module, split in two files): how a lane
# chooses. Moves by a built-in policy, a native network or a Python policy, the
# evaluations of truncated games, and cube actions by gnubg's 0-ply theory.
# It uses _engine.pyx's types and constants; the game loop there calls these.

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
    cdef int which = _mover(L) ^ L.swap
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
    cdef int d1, d2, n, k, best = 0, which = _mover(L) ^ L.swap, ply = L.ply
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
    if job.cube and kind == NETWORK and n > 1 and L.ply == ply + 1:
        # The chosen child was evaluated from the new mover's side: its
        # probabilities serve that player's cube turn, when the nets are its.
        for k in range(5):
            L.cache[k] = w.out5[5 * best + k]
        L.cache_nets[0] = job.contact[which]
        L.cache_nets[1] = job.race[which]
        L.cached = 1
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
        if L.game < 0 or L.waiting or _kind(job, L) != kind or (job.cube and not L.cube_done):
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
    if _mover(L):  # the evaluator speaks for player 1
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


cdef object _probabilities(bg_worker *w, PyObject *evaluator, int n):
    """A Python evaluator's probabilities of the n boards gathered in the
    buffer, checked: float64 (n, 5).  GIL held."""
    boards = np.frombuffer(PyBytes_FromStringAndSize(<char *>w.children, 26 * n), dtype=np.int8).reshape(n, 26)
    arr = np.asarray((<object>evaluator)(boards), dtype=np.float64)
    if arr.shape != (n, 5):
        raise ValueError(f"an evaluator must return shape ({n}, 5), not {arr.shape}")
    # (float32's rounding may stray from [0, 1]: a softmax's sum of three outcomes can be 1 + 2**-23)
    if not (np.isfinite(arr).all() and (arr >= -1e-6).all() and (arr <= 1 + 1e-6).all()):
        raise ValueError("an evaluator must return probabilities in [0, 1]")
    return np.ascontiguousarray(arr)


cdef int _call_evaluator(bg_worker *w, int n) noexcept:
    """Score the n truncated games gathered in the buffer and finish them;
    -1 on failure (the exception is kept for the caller).  GIL held."""
    cdef bg_job *job = w.job
    cdef const double[:, ::1] p
    cdef int i
    try:
        p = _probabilities(w, job.evaluator, n)
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


# -- the cube ------------------------------------------------------------------------------------------------------

cdef int _theory_probabilities(bg_worker *w, bg_lane *L, int k, double *out) noexcept nogil:
    """Policy k's cube evaluator's probabilities of L's board (its mover's
    view) into out: 0; 1 + slot while a Python evaluator (slot) has not
    seen the board yet; -1 for a net that refuses to evaluate.  Nets reuse
    the last move choice's evaluation of the board when it was theirs."""
    cdef bg_job *job = w.job
    cdef int j, slot
    if job.theory[k] == PYTHON_THEORY:
        slot = job.theory_slot[k]
        if not L.python_ready[slot]:
            return 1 + slot
        for j in range(5):
            out[j] = L.python_p[slot][j]
        return 0
    if not (L.cached and L.cache_nets[0] == job.theory_nets[k][0] and L.cache_nets[1] == job.theory_nets[k][1]):
        if nn_eval(job.theory_nets[k][0], job.theory_nets[k][1], L.board.pt, 1, job.checkers, w.out5,
                   w.nn_scratch) < 0:
            return -1
        for j in range(5):
            L.cache[j] = w.out5[j]
        L.cache_nets[0] = job.theory_nets[k][0]
        L.cache_nets[1] = job.theory_nets[k][1]
        L.cached = 1
    for j in range(5):
        out[j] = L.cache[j]  # float to double, exactly as numpy converts them
    return 0


cdef inline bint _same_theory(bg_job *job, int a, int b) noexcept nogil:
    if job.theory[a] != job.theory[b]:
        return False
    if job.theory[a] == PYTHON_THEORY:
        return job.theory_slot[a] == job.theory_slot[b]
    return job.theory_nets[a][0] == job.theory_nets[b][0] and job.theory_nets[a][1] == job.theory_nets[b][1]


cdef int _cube_turn(bg_worker *w, bg_lane *L) noexcept nogil:
    """The cube turn of L's mover, before its roll (none before a game's
    first move), in every branch where it may double: see bg_cubeplay.h.
    0 once played (a duel's game passed is over, and L has moved on); 1 +
    slot while it waits for Python evaluator slot's probabilities; -1 for a
    net that refuses to evaluate."""
    cdef bg_job *job = w.job
    cdef int mover = _mover(L), who = _mover(L) ^ L.swap, b, rc
    cdef bint open_cube = False
    cdef double p[5]
    cdef double q[5]
    cdef const double *answer = NULL
    cdef double y[5]
    if L.ply > 0 and job.theory[who] != NO_THEORY:
        for b in range(job.branches):
            open_cube = open_cube or bg_cubeplay_may_double(&L.rules, &L.branch[b], mover)
    if not open_cube:
        L.cube_done = 1
        return 0
    rc = _theory_probabilities(w, L, who, p)
    if rc:
        return rc
    if job.theory[who ^ 1] != NO_THEORY:
        answer = p
        if not _same_theory(job, who, who ^ 1):
            rc = _theory_probabilities(w, L, who ^ 1, q)
            if rc:
                return rc
            answer = q
    for b in range(job.branches):
        if bg_cubeplay_may_double(&L.rules, &L.branch[b], mover):
            bg_cubeplay_turn(&L.rules, &L.branch[b], mover, &job.met, L.board.pt, p, answer)
    L.cube_done = 1
    if job.cube != CUBE_ROLLOUT and L.branch[0].over:  # a duel's game ends at a pass
        y[0] = y[1] = y[2] = y[3] = y[4] = 0.0
        _game_over(w, L, y, L.ply)
    return 0


cdef int _call_theory(bg_worker *w, int slot, int n) noexcept:
    """Python evaluator slot's probabilities of the n boards gathered for
    cube turns, kept in their lanes; -1 on failure (kept for the caller).
    GIL held."""
    cdef bg_job *job = w.job
    cdef const double[:, ::1] p
    cdef bg_lane *L
    cdef int i, k
    try:
        p = _probabilities(w, job.theory_python[slot], n)
    except BaseException as exc:
        (<list>job.errors).append(exc)
        bg_flag_set(&job.failed)
        return -1
    for i in range(n):
        L = &w.lanes[w.pending[i]]
        for k in range(5):
            L.python_p[slot][k] = p[i, k]
        L.python_ready[slot] = 1
    return 0


cdef int _cube_python_pass(bg_worker *w) noexcept nogil:
    """The cube turns waiting for a Python evaluator: the boards of each
    evaluator in one call, until every lane has played its turn."""
    cdef bg_job *job = w.job
    cdef int i, rc, n, slot, rc_slot
    cdef bg_lane *L
    while True:
        n = 0
        slot = -1
        for i in range(w.nlanes):
            L = &w.lanes[i]
            if L.game < 0 or L.waiting or L.cube_done:
                continue
            rc = _cube_turn(w, L)
            if rc < 0:
                w.bad_net = 1
                bg_flag_set(&job.failed)
                return -1
            if rc == 0:
                continue
            rc_slot = rc - 1
            if slot < 0:
                slot = rc_slot
            if rc_slot == slot:  # (w.cap >= lanes: room for every lane's board)
                memcpy(w.children[n].pt, L.board.pt, 26)
                w.pending[n] = i
                n += 1
        if n == 0:
            return 0
        with gil:
            if _call_theory(w, slot, n) < 0:
                return -1
