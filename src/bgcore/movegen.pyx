# cython: language_level=3
"""The legal-move generator: board checks, the hash key, the table of results
and the enumerator behind ``bg_generate``, ``bg_generate_boards`` and
``bg_count`` (the C-level API declared in ``movegen.pxd``).

No Python objects and no threads: every function runs without the GIL and
allocates nothing per generated move.  Boards are copied on the C stack
(copy-make), results go into a caller-owned buffer, and each distinct result is
found once through a 64-bit key (an additive Zobrist-style hash) in an
open-addressing table, with a full board compare when two keys agree.  Only
plays that another play may repeat are looked up: doubles never are (see the
doubles section), nor most plays of non-doubles (``_second_die``); bg_count
counts those by their sources' bits, without playing them.  The whole
enumerator lives in this one module because Cython inlines ``cdef inline``
functions only within a module.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp, memset

cdef extern from "bg_platform.h":
    void bg_masks(const int8_t *pt, uint32_t *mine, uint32_t *blocked) noexcept nogil
    void bg_flip_pt(const int8_t *b, int8_t *out) noexcept nogil
    int bg_top_bit(unsigned long x) noexcept nogil
    uint32_t bg_blots(const int8_t *pt) noexcept nogil
    int bg_board_plainly_valid(const int8_t *pt, int checkers) noexcept nogil
    int bg_popcount(unsigned int x) noexcept nogil
    void bg_popcount_init() noexcept nogil
    ctypedef struct bg_board_regs:
        pass
    bg_board_regs bg_board_load(const int8_t *pt) noexcept nogil
    void bg_board_store(int8_t *out, bg_board_regs r) noexcept nogil

cdef enum:
    BG_TABLE_BITS = 13
    BG_TABLE_MIN_BITS = 7  # each generation starts with a 128-slot table
    BG_TABLE_SIZE = 8192   # 1 << BG_TABLE_BITS, at least twice BG_MAX_RESULTS

ctypedef struct bg_slot:
    uint64_t key
    uint32_t stamp
    uint32_t index

cdef struct bg_movegen:
    # Scratch state of one generator (opaque outside this module).
    bg_slot table[BG_TABLE_SIZE]
    uint64_t keys[BG_MAX_RESULTS]  # the key of each result in the table
    uint16_t claimed[BG_MAX_RESULTS]  # the results in the table, to re-insert when growing
    int nclaimed
    int bits               # the table in use is the first 1 << bits slots
    uint32_t epoch
    char *boards           # result i's board is at boards + i * board_stride
    char *cursor           # where the next result's board goes
    char *moves            # result i's move at moves + i * move_stride; NULL: none kept
    int board_stride
    int move_stride
    int count_only         # results no lookup needs are counted, not written (bg_count)
    int capacity
    int count
    int best               # priority of the results kept so far
    int overflow
    int low_die_first      # non-doubles, second pass: the lower die played first
    int high_die
    int dice[2]            # the die played first, then the other (a double: dice[0])
    uint32_t blocked       # bit p: the opponent holds point p
    uint32_t movable[7]    # for each die rolled: the sources it takes to an open point
    bg_move path

API_VERSION = BG_API_VERSION
MAX_RESULTS = BG_MAX_RESULTS

# A board's 64-bit key is sum(WEIGHT[i] * pt[i]) mod 2**64 with a random odd
# weight per slot: an additive cousin of Zobrist hashing, where moving a
# checker costs one multiply-add per slot it changes.  Equal keys of
# different boards are told apart by a full compare.
cdef uint64_t WEIGHT[26]


cdef uint64_t _splitmix64(uint64_t *state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_weights() noexcept nogil:
    cdef uint64_t state = 0x6267636F7265  # "bgcore"
    cdef int i
    for i in range(26):
        WEIGHT[i] = _splitmix64(&state) | 1


_init_weights()
bg_popcount_init()


cdef uint64_t bg_hash(const bg_board *b) noexcept nogil:
    cdef uint64_t key = 0
    cdef int i
    for i in range(26):
        key += WEIGHT[i] * <uint64_t><int64_t>b.pt[i]
    return key



cdef bg_movegen *bg_movegen_new() noexcept nogil:
    cdef bg_movegen *g = <bg_movegen *>malloc(sizeof(bg_movegen))
    if g != NULL:
        memset(g, 0, sizeof(bg_movegen))
        g.epoch = 1
    return g


cdef void bg_movegen_free(bg_movegen *g) noexcept nogil:
    free(g)


cdef int bg_checkers(const bg_board *b, int side) noexcept nogil:
    cdef int i, n = 0
    for i in range(26):
        if side == 0 and b.pt[i] > 0:
            n += b.pt[i]
        elif side == 1 and b.pt[i] < 0:
            n -= b.pt[i]
    return n


cdef int bg_validate(const bg_board *b) noexcept nogil:
    if bg_board_plainly_valid(b.pt, BG_MAX_CHECKERS):
        return BG_OK  # batches check every row: the common case, without a call
    return bg_check(b, BG_MAX_CHECKERS, NULL)


cdef int bg_check(const bg_board *b, int checkers, int *slot) noexcept nogil:
    cdef int i, v, mine = 0, theirs = 0, code = BG_OK, at = -1
    if bg_board_plainly_valid(b.pt, checkers):
        # Batches check every row: the common case in a few vector operations.
        if slot != NULL:
            slot[0] = -1
        return BG_OK
    for i in range(26):
        v = b.pt[i]
        if <unsigned int>(v + BG_MAX_CHECKERS) > 2 * BG_MAX_CHECKERS:
            code, at = -BG_ERR_COUNT, i
            break
        if v > 0:
            mine += v
        else:
            theirs -= v
    if code == BG_OK:
        if b.pt[BG_BAR] < 0:
            code, at = -BG_ERR_BAR, BG_BAR
        elif b.pt[0] > 0:
            code, at = -BG_ERR_BAR, 0
        elif mine > checkers or theirs > checkers:
            code = -BG_ERR_TOO_MANY
    if slot != NULL:
        slot[0] = at
    return code


cdef void bg_flip(const bg_board *b, bg_board *out) noexcept nogil:
    bg_flip_pt(b.pt, out.pt)


cdef inline void _new_epoch(bg_movegen *g) noexcept nogil:
    g.epoch += 1
    if g.epoch == 0:  # wrapped: forget every stamp once in 2**32 calls
        memset(g.table, 0, sizeof(g.table))
        g.epoch = 1


cdef inline void _restart(bg_movegen *g, int prio) noexcept nogil:
    """Drop the results kept so far: plays of a higher priority were found."""
    g.best = prio
    g.count = 0
    g.nclaimed = 0
    g.cursor = g.boards
    g.bits = BG_TABLE_MIN_BITS
    _new_epoch(g)


cdef inline bg_board *_board_at(bg_movegen *g, uint32_t i) noexcept nogil:
    return <bg_board *>(g.boards + <size_t>i * <size_t>g.board_stride)


cdef inline void _record(bg_movegen *g, int depth, int hits) noexcept nogil:
    """Keep the move of result g.count: the first ``depth`` steps of the
    path, with these hit flags; nothing when the caller wants boards only."""
    cdef bg_move *m
    if g.moves == NULL:
        return
    m = <bg_move *>(g.moves + <size_t>g.count * <size_t>g.move_stride)
    memcpy(m, &g.path, sizeof(bg_move))
    m.nsteps = <uint8_t>depth
    m.hits = <uint8_t>hits


cdef inline int _probe(bg_movegen *g, const bg_board *b, uint64_t key) noexcept nogil:
    """The slot holding ``b``, or the empty slot where it belongs."""
    cdef int mask = (1 << g.bits) - 1
    cdef int h = <int>(key >> (64 - g.bits))
    cdef bg_slot *slot
    while True:
        slot = &g.table[h]
        if slot.stamp != g.epoch:
            return h
        if slot.key == key and (b == NULL or memcmp(_board_at(g, slot.index), b.pt, 26) == 0):
            return h
        h = (h + 1) & mask


cdef void _grow(bg_movegen *g) noexcept nogil:
    """Quadruple the table (it starts small to stay in L1; it grows with the
    results found, whether they are in it or not) and re-insert the results
    it holds."""
    cdef int j, h
    cdef uint32_t i
    while 2 * g.count > (1 << g.bits) and g.bits < BG_TABLE_BITS:
        g.bits += 2
    if g.bits > BG_TABLE_BITS:
        g.bits = BG_TABLE_BITS
    _new_epoch(g)
    for j in range(g.nclaimed):
        i = g.claimed[j]
        h = _probe(g, NULL, g.keys[i])
        while g.table[h].stamp == g.epoch:  # an equal key of another board
            h = (h + 1) & ((1 << g.bits) - 1)
        g.table[h].stamp = g.epoch
        g.table[h].key = g.keys[i]
        g.table[h].index = i


cdef inline bint _claim(bg_movegen *g, bg_slot *slot, uint64_t key) noexcept nogil:
    """Give the empty ``slot`` to a new result; False when the buffer is full."""
    if g.count >= g.capacity:
        g.overflow = 1
        return False
    slot.stamp = g.epoch
    slot.key = key
    slot.index = <uint32_t>g.count
    g.keys[g.count] = key
    g.claimed[g.nclaimed] = <uint16_t>g.count
    g.nclaimed += 1
    return True


cdef inline void _insert(bg_movegen *g, const bg_board *b, uint64_t key, int depth) noexcept nogil:
    cdef int h = _probe(g, b, key)
    cdef bg_slot *slot = &g.table[h]
    if slot.stamp == g.epoch:
        return  # seen before
    if not _claim(g, slot, key):
        return
    memcpy(g.cursor, b, sizeof(bg_board))
    g.cursor += g.board_stride
    _record(g, depth, g.path.hits & ((1 << depth) - 1))
    g.count += 1
    if 2 * g.count > (1 << g.bits) and g.bits < BG_TABLE_BITS:
        _grow(g)


cdef inline int _apply(bg_board *b, int src, int dst) noexcept nogil:
    """Move one checker src -> dst (0: off) on b; return 1 if it hits."""
    b.pt[src] -= 1
    if dst == 0:
        return 0
    if b.pt[dst] == -1:
        b.pt[dst] = 1
        b.pt[0] -= 1
        return 1
    b.pt[dst] += 1
    return 0


cdef inline uint64_t _step_key(const bg_board *b, int src, int dst) noexcept nogil:
    """How the step src -> dst (0: off) on b changes b's key."""
    cdef uint64_t change = 0 - WEIGHT[src]
    if dst:
        if b.pt[dst] == -1:
            change += 2 * WEIGHT[dst] - WEIGHT[0]
        else:
            change += WEIGHT[dst]
    return change


cdef inline void _store(bg_movegen *g, const bg_board *b, int depth,
                        int src, int dst, bint claimed) noexcept nogil:
    """Append the result of b plus the last step src -> dst: ``claimed``, it
    has its slot in the table; else no other play reaches it (so no lookup
    needs it), and when only counting (``bg_count``) its board is not even
    written."""
    cdef int hit, last = depth - 1
    cdef bg_board *r
    if g.count >= g.capacity:
        g.overflow = 1
        return
    if g.count_only and not claimed:
        g.cursor += g.board_stride  # result i's board stays at boards + i * board_stride
        g.count += 1
        return
    r = <bg_board *>g.cursor
    g.cursor += g.board_stride
    memcpy(r, b, sizeof(bg_board))
    hit = _apply(r, src, dst)
    if g.moves != NULL:
        g.path.src[last] = <uint8_t>src
        g.path.dst[last] = <uint8_t>dst
        _record(g, depth, (g.path.hits & ((1 << last) - 1)) | (hit << last))
    g.count += 1


cdef inline void _write_unique(bg_movegen *g, const bg_board *b, int depth, uint32_t sources,
                               int d) noexcept nogil:
    """Append the results of b plus a last step of die d from each of these
    sources, highest first, none of which another play reaches: written in a
    loop of their own when no move is kept (bg_generate_boards)."""
    cdef int src, dst, n = 0, value, hit
    cdef int8_t *out
    cdef bg_board_regs parent
    # A set holds at most 15 sources (points with a checker of ours): with
    # room for 16 more results, no store in the loop needs a check.
    if g.moves != NULL or g.count_only or g.capacity - g.count < 16:
        while sources:
            src = _pop_source(&sources)
            _store(g, b, depth, src, src - d if src > d else BG_OFF, False)
        return
    parent = bg_board_load(b.pt)
    out = <int8_t *>g.cursor
    while sources:
        src = _pop_source(&sources)
        bg_board_store(out, parent)
        out[src] = b.pt[src] - 1
        if src > d:
            # A blot hit (-1) becomes our 1 and goes to the bar, without a
            # branch: whether a step hits follows no pattern.
            dst = src - d
            value = b.pt[dst]
            hit = value == -1
            out[dst] = <int8_t>(value + 1 + hit)
            out[0] = <int8_t>(b.pt[0] - hit)
        out += g.board_stride
        n += 1
    g.cursor = <char *>out
    g.count += n


cdef inline void _count_unique(bg_movegen *g, uint32_t sources) noexcept nogil:
    """bg_count: one result for each of these sources of the last step, none
    of which another play reaches; nothing is written."""
    cdef int n = bg_popcount(sources)
    if g.count + n > g.capacity:
        g.overflow = 1
        return
    g.cursor += n * g.board_stride
    g.count += n


cdef inline void _lookup_store(bg_movegen *g, const bg_board *b, uint64_t key,
                               int src, int dst) noexcept nogil:
    """The result of b (whose key is ``key``) plus the second die's step
    src -> dst, which other plays may reach too: kept unless the table
    holds it already.

    The key of the result is computed first; the board is written straight
    into the result buffer, and built apart only to compare on equal keys.
    """
    cdef int h, mask
    cdef bg_slot *slot
    cdef bg_board tmp
    key += _step_key(b, src, dst)
    mask = (1 << g.bits) - 1
    h = <int>(key >> (64 - g.bits))
    while True:
        slot = &g.table[h]
        if slot.stamp != g.epoch:
            break
        if slot.key == key:
            tmp = b[0]
            _apply(&tmp, src, dst)
            if memcmp(_board_at(g, slot.index), tmp.pt, 26) == 0:
                return
        h = (h + 1) & mask
    if not _claim(g, slot, key):
        return
    _store(g, b, 2, src, dst, True)
    if 2 * g.count > (1 << g.bits) and g.bits < BG_TABLE_BITS:
        _grow(g)


cdef inline uint32_t _step(bg_movegen *g, bg_board *nb, uint32_t mine,
                           int depth, int src, int dst) noexcept nogil:
    """Play die ``depth`` as src -> dst (0: off) on nb, a copy of the board;
    record the step when moves are kept; return the new mask of own
    checkers."""
    cdef uint8_t bit = <uint8_t>(1 << depth)
    cdef int hit = 0, value
    nb.pt[src] -= 1
    if nb.pt[src] == 0:
        mine &= ~(<uint32_t>1 << src)
    if dst:
        mine |= <uint32_t>1 << dst
        value = nb.pt[dst]
        hit = value == -1  # a blot hit becomes our 1, without a branch
        nb.pt[dst] = <int8_t>(value + 1 + hit)
        nb.pt[0] -= hit
    if g.moves != NULL:
        g.path.hits = (g.path.hits & ~bit) | (bit if hit else 0)
        g.path.src[depth] = <uint8_t>src
        g.path.dst[depth] = <uint8_t>dst
    return mine


cdef inline uint32_t _sources(bg_movegen *g, uint32_t mine, int maxsrc, int d) noexcept nogil:
    """The sources (<= maxsrc; bit 25: the bar) whose checker can play die d;
    empty when die d cannot be played from them.

    ``mine`` has bit p set where the player on roll has checkers (25: bar);
    ``g.blocked`` has bit p set where the opponent holds p, which no move of
    the player on roll can change within a turn.
    """
    cdef int hi
    cdef uint32_t todo, legal
    if mine >> BG_BAR & 1:
        # A checker on the bar must enter first, on the opponent's home board.
        if g.blocked >> (BG_BAR - d) & 1:
            return 0
        return <uint32_t>1 << BG_BAR
    if not mine:
        return 0
    hi = bg_top_bit(mine)
    todo = mine & ((<uint32_t>2 << maxsrc) - 1)
    # Sources whose checker lands on the board on a point not held by the
    # opponent, and (all checkers home) those that bear off: the exact
    # point, or the highest one when the die is larger.
    legal = todo & g.movable[d]
    if hi <= 6:
        legal |= todo & (<uint32_t>1 << d)
        if hi < d:
            legal |= todo & (<uint32_t>1 << hi)
    return legal


cdef inline int _pop_source(uint32_t *legal) noexcept nogil:
    """Take the highest source out of the set."""
    cdef int src = bg_top_bit(legal[0])
    legal[0] ^= <uint32_t>1 << src
    return src


# --- non-doubles: the high die first, then the low die first ----------------

cdef void _leaf(bg_movegen *g, const bg_board *b, uint64_t key, int depth) noexcept nogil:
    """Keep b, a play of ``depth`` dice after which no die plays, if it uses
    the most dice (the larger die when only one plays)."""
    cdef int prio = 2 * depth
    if depth == 1 and g.dice[0] == g.high_die:
        prio += 1
    if prio < g.best:
        return
    if prio > g.best:
        _restart(g, prio)
    _insert(g, b, key, depth)


cdef inline void _second_die(bg_movegen *g, const bg_board *b, uint64_t key, uint32_t mine,
                             int src0, int dst0, bint hit0) noexcept nogil:
    """Play dice[1] in every legal way from b, the board after dice[0]'s step
    src0 -> dst0 (``hit0``: it hit); ``key`` is b's key."""
    cdef int d = g.dice[1], src, over
    cdef uint32_t legal = _sources(g, mine, BG_BAR, d)
    cdef uint32_t unique  # sources of results that no other play reaches
    cdef uint32_t looked_up
    cdef bint moved = legal != 0
    # Two plays of both dice reach the same position only when their steps
    # have the same net change on each point (and the same hits): the same
    # steps, or a checker's two steps chained through one point (src ->
    # src - a -> src - a - b) against the two dice in the other order, played
    # by one checker through src - b or, when src - b held a checker of ours,
    # by that checker going first and this one landing on src - b.  Plays
    # that bear off are looked up; of the others, exactly one of each such
    # group is kept without a lookup: the high die first's chain when it was
    # made, else its two-checker play, else the low die first's chain.
    if dst0 == BG_OFF:
        unique = 0
    elif g.low_die_first:
        if src0 == BG_BAR:
            # Entered with the low die: entering again repeats the entries
            # made high die first; this checker going on repeats the chain
            # through the high die's entry point when that was open and no
            # hit differs.  Any other checker's step is new.
            legal &= ~(<uint32_t>1 << BG_BAR)
            if legal >> dst0 & 1 and _made_high_first(g, b, src0, d, hit0):
                legal &= ~(<uint32_t>1 << dst0)
            unique = legal
        else:
            # Another checker's step repeats a play made high die first, so
            # only the checker that just moved may go on (and, all home, any
            # checker may bear off), unless the high die first made its chain
            # (through src0 - d) or, dst0 having held a checker of ours, that
            # checker's step and then this one's onto dst0.  What bears off
            # is looked up.
            if bg_top_bit(mine) > 6:
                legal &= <uint32_t>1 << dst0
            else:
                legal &= (<uint32_t>1 << dst0) | ((<uint32_t>2 << d) - 1)
            if dst0 > d and legal >> dst0 & 1 \
                    and (b.pt[dst0] > 1 or _made_high_first(g, b, src0, d, hit0)):
                legal &= ~(<uint32_t>1 << dst0)
            unique = legal & ~((<uint32_t>2 << d) - 1)
    else:
        # High die first: a chain (src == dst0, from the bar too) and two
        # checkers entering are kept; so is any play whose second checker
        # neither starts where the first ended nor ends where it started.
        # One that ends where the first started (src0 + d -> src0) repeats
        # the chain of its checker through src0 + d - high, made earlier in
        # this pass (higher source) when that point was open and held no
        # blot: then it is dropped.  Plays that bear off are looked up.
        unique = legal & ~((<uint32_t>2 << d) - 1)
        over = src0 + d
        if unique >> over & 1 and not (g.blocked >> (over - g.dice[0]) & 1) \
                and b.pt[over - g.dice[0]] != -1:
            legal &= ~(<uint32_t>1 << over)
            unique &= ~(<uint32_t>1 << over)
    if legal:
        if g.best < 4:  # every die played: the highest priority
            _restart(g, 4)
        if g.count_only:
            _count_unique(g, unique)
            legal &= ~unique
        while legal:
            # The unique sources above the highest other one, then that one
            # (looked up): the results stay in descending order of source.
            looked_up = legal & ~unique
            if not looked_up:
                _write_unique(g, b, 2, legal, d)
                break
            src = bg_top_bit(looked_up)
            if legal >> (src + 1):
                _write_unique(g, b, 2, legal & ~((<uint32_t>2 << src) - 1), d)
            legal &= (<uint32_t>1 << src) - 1
            _lookup_store(g, b, key, src, src - d if src > d else BG_OFF)
    if not moved:
        _leaf(g, b, key, 1)


cdef inline uint32_t _after_step(const bg_board *b, uint32_t mine, int src, int dst) noexcept nogil:
    """The mask of own checkers after the step src -> dst on b, without
    playing it."""
    if b.pt[src] == 1:
        mine &= ~(<uint32_t>1 << src)
    if dst:
        mine |= <uint32_t>1 << dst
    return mine


cdef inline int _low_first_new(bg_movegen *g, const bg_board *b, uint32_t mine,
                               int src, int dst) noexcept nogil:
    """Non-doubles, low die first (src -> dst, neither the bar nor off), plays
    of both dice already found: how many plays of both dice that start with
    this step are new, decided without playing it (what _second_die's
    low-die-first rule would find after it): 0, or 1 (this checker going on
    with the high die); -1 when all checkers are home after the step, where
    bearing off is open and the step is played out."""
    cdef int high = g.dice[1]
    if not (_after_step(b, mine, src, dst) >> 7):
        return -1
    if dst <= high or g.blocked >> (dst - high) & 1:
        return 0  # the checker that moved cannot go on; no other may
    if b.pt[dst] > 0:
        return 0  # the checker on dst moved high first, then this one came
    if _made_high_first(g, b, src, high, b.pt[dst] == -1):
        return 0
    return 1


cdef inline void _keep_chain(bg_movegen *g, const bg_board *b, int src, int mid,
                             int end) noexcept nogil:
    """Append b after one checker's two steps src -> mid -> end (all three on
    the board, mid not holding a checker of ours), which no other play
    reaches: counted only, or written when no move is kept."""
    cdef int8_t *out
    cdef int hits = 0, value
    if g.count >= g.capacity:
        g.overflow = 1
        return
    if not g.count_only:
        out = <int8_t *>g.cursor
        bg_board_store(out, bg_board_load(b.pt))
        out[src] = b.pt[src] - 1
        hits = b.pt[mid] == -1
        out[mid] = 0  # empty, or a blot hit
        value = b.pt[end]
        hits += value == -1
        out[end] = <int8_t>(value + 1 + (value == -1))
        out[0] = <int8_t>(b.pt[0] - hits)
    g.cursor += g.board_stride
    g.count += 1


cdef inline bint _counted_by_masks(bg_movegen *g, const bg_board *b, uint32_t mine,
                                   int src, int dst) noexcept nogil:
    """bg_count, the first die played as src -> dst (not off) on b: count what
    _second_die would keep after it from the mask of own checkers alone,
    without playing the step.  False (nothing counted) when the step must be
    played out: all home after it (bearing off is open: plays are looked
    up), the second die unplayable (a play of one die), or low die first
    from elsewhere than the bar (_low_first_new's case)."""
    cdef int second = g.dice[1], over
    cdef uint32_t nm = _after_step(b, mine, src, dst)
    cdef uint32_t legal
    if not (nm >> 7):
        return False
    if g.low_die_first and src != BG_BAR:
        return False
    legal = _sources(g, nm, BG_BAR, second)
    if not legal:
        return False
    # _second_die's rules for these cases; b's points read here are the same
    # before and after the step.
    if g.low_die_first:
        legal &= ~(<uint32_t>1 << BG_BAR)
        if legal >> dst & 1 and _made_high_first(g, b, src, second, b.pt[dst] == -1):
            legal &= ~(<uint32_t>1 << dst)
    else:
        over = src + second
        if legal >> over & 1 and not (g.blocked >> (over - g.dice[0]) & 1) \
                and b.pt[over - g.dice[0]] != -1:
            legal &= ~(<uint32_t>1 << over)
    if legal:
        if g.best < 4:
            _restart(g, 4)
        _count_unique(g, legal)
    return True


cdef inline bint _made_high_first(bg_movegen *g, const bg_board *b, int src, int high,
                                  bint hit) noexcept nogil:
    """Low die first from src, then the high die with the same checker (which
    can go on): True when the high die first from src, then the low die, made
    the same play already, i.e. the point src - high was open and no hit
    differs (``hit``: the low die's step hit).  b's point src - high is the
    same before and after the low die's step."""
    return not (g.blocked >> (src - high) & 1) and b.pt[src - high] != -1 and not hit


cdef bint _low_first_by_masks(bg_movegen *g, const bg_board *b, uint32_t mine) noexcept nogil:
    """The low die first pass from the root b, when plays of both dice were
    found, no checker is on the bar and a checker stays outside home after
    any one step: _low_first_new's rules for every source at once, as masks
    (no new play bears off or enters).  The new plays, one checker's
    s -> s - low -> s - low - high each, are counted or written (bg_count,
    bg_generate_boards).  False (nothing done) in the other cases."""
    cdef int low = g.dice[0], high = g.dice[1], top
    cdef uint32_t above = mine & ~<uint32_t>0x7F  # points 7 and up, and the bar
    cdef uint32_t blots, new
    if g.best != 4 or g.moves != NULL or mine >> BG_BAR & 1 or not above:
        return False
    top = bg_top_bit(above)
    if above == <uint32_t>1 << top and b.pt[top] == 1 and top - low <= 6:
        return False  # the last checker outside may step home: bearing off opens
    blots = bg_blots(b.pt)
    # Sources whose checker plays the low die, then goes on with the high die
    # (to an open point on the board), from a point that held none of ours
    # (else that checker moved high first, then this one came), where the
    # high die first was closed or a hit differs (else _made_high_first).
    new = _sources(g, mine, BG_BAR, low) & ~((<uint32_t>2 << (low + high)) - 1) \
        & ~(g.blocked << (low + high)) & ~(mine << low) \
        & ((g.blocked << high) | (blots << high) | (blots << low))
    if g.count_only:
        _count_unique(g, new)
        return True
    while new:
        top = _pop_source(&new)
        _keep_chain(g, b, top, top - low, top - low - high)
    return True


cdef void _first_die(bg_movegen *g, const bg_board *b, uint32_t mine) noexcept nogil:
    """Play dice[0], then dice[1], in every legal way from b (the root, whose
    key is 0)."""
    cdef int d = g.dice[0], src, dst, new
    cdef bg_board nb
    cdef uint32_t nm
    cdef uint32_t legal = _sources(g, mine, BG_BAR, d)
    cdef bint moved = legal != 0
    while legal:
        src = _pop_source(&legal)
        dst = src - d if src > d else BG_OFF
        if g.low_die_first and g.best == 4 and src != BG_BAR and dst != BG_OFF:
            new = _low_first_new(g, b, mine, src, dst)
            if new == 0:
                continue
            if new == 1 and g.moves == NULL:
                _keep_chain(g, b, src, dst, dst - g.dice[1])
                continue
        elif g.count_only and dst != BG_OFF and _counted_by_masks(g, b, mine, src, dst):
            continue
        memcpy(&nb, b, sizeof(bg_board))
        nm = _step(g, &nb, mine, 0, src, dst)
        _second_die(g, &nb, _step_key(b, src, dst), nm, src, dst, dst != BG_OFF and b.pt[dst] == -1)
    if not moved:
        _leaf(g, b, 0, 0)


# --- doubles ------------------------------------------------------------------
#
# Every step has the same length, so the checkers' net change on each point
# fixes the set of steps (going down each chain of points d apart from the
# top), and the steps fix the hits; sources never increase along a play, so
# each set of steps is played once: two plays of as many dice never reach the
# same position.  Doubles need neither keys nor the table.

cdef inline bint _doubles_keeps(bg_movegen *g, int depth) noexcept nogil:
    """A play of ``depth`` dice after which no die plays is kept when no play
    of more dice was found (and the buffer has room)."""
    if depth < g.best:
        return False
    if depth > g.best:
        _restart(g, depth)
    if g.count >= g.capacity:
        g.overflow = 1
        return False
    return True


cdef inline void _doubles_leaf(bg_movegen *g, const bg_board *b, int depth) noexcept nogil:
    """Keep b, a play of ``depth`` dice after which no die plays, if no play
    of more dice was found."""
    if not _doubles_keeps(g, depth):
        return
    if not g.count_only:
        memcpy(g.cursor, b, sizeof(bg_board))
        _record(g, depth, g.path.hits & ((1 << depth) - 1))
    g.cursor += g.board_stride
    g.count += 1


cdef inline void _doubles_count_last(bg_movegen *g, uint32_t mine, int maxsrc) noexcept nogil:
    """bg_count: count the plays of the fourth die (sources <= maxsrc), from
    the mask of own checkers alone."""
    cdef uint32_t legal = _sources(g, mine, maxsrc, g.dice[0])
    if not legal:
        if _doubles_keeps(g, 3):
            g.cursor += g.board_stride
            g.count += 1
        return
    if g.best < 4:
        _restart(g, 4)
    _count_unique(g, legal)


cdef inline void _doubles_last(bg_movegen *g, const bg_board *b, uint32_t mine,
                               int maxsrc) noexcept nogil:
    """Play the fourth die from b in every legal way (sources <= maxsrc)."""
    cdef int d = g.dice[0]
    cdef uint32_t legal = _sources(g, mine, maxsrc, d)
    if not legal:
        _doubles_leaf(g, b, 3)
        return
    if g.best < 4:
        _restart(g, 4)
    _write_unique(g, b, 4, legal, d)


cdef inline void _doubles_third(bg_movegen *g, const bg_board *b, uint32_t mine,
                                int maxsrc) noexcept nogil:
    """Play the third and fourth dice from b (sources <= maxsrc)."""
    cdef int d = g.dice[0], src, dst
    cdef bg_board nb
    cdef uint32_t nm
    cdef uint32_t legal = _sources(g, mine, maxsrc, d)
    if not legal:
        _doubles_leaf(g, b, 2)
        return
    while legal:
        src = _pop_source(&legal)
        dst = src - d if src > d else BG_OFF
        if g.count_only:
            # The last die needs only the mask of own checkers: no board.
            nm = mine
            if b.pt[src] == 1:
                nm &= ~(<uint32_t>1 << src)
            if dst:
                nm |= <uint32_t>1 << dst
            _doubles_count_last(g, nm, src)
        else:
            memcpy(&nb, b, sizeof(bg_board))
            nm = _step(g, &nb, mine, 2, src, dst)
            _doubles_last(g, &nb, nm, src)


cdef void _doubles(bg_movegen *g, const bg_board *b, uint32_t mine, int depth,
                   int maxsrc) noexcept nogil:
    """Play dice[depth:] (depth 0 or 1) of a double in every legal way from b
    (sources <= maxsrc)."""
    cdef int d = g.dice[0], src, dst
    cdef bg_board nb
    cdef uint32_t nm
    cdef uint32_t legal = _sources(g, mine, maxsrc, d)
    if not legal:
        _doubles_leaf(g, b, depth)
        return
    while legal:
        src = _pop_source(&legal)
        dst = src - d if src > d else BG_OFF
        memcpy(&nb, b, sizeof(bg_board))
        nm = _step(g, &nb, mine, depth, src, dst)
        if depth == 1:
            _doubles_third(g, &nb, nm, src)
        else:
            _doubles(g, &nb, nm, 1, src)


# --- entry points ---------------------------------------------------------------

cdef int bg_generate(bg_movegen *g, const bg_board *b, int d1, int d2,
                     bg_result *out, int capacity) noexcept nogil:
    return _generate(g, b, d1, d2, <char *>out, sizeof(bg_result), <char *>&out[0].move, capacity, 0)


cdef int bg_generate_boards(bg_movegen *g, const bg_board *b, int d1, int d2,
                            bg_board *boards, int capacity) noexcept nogil:
    return _generate(g, b, d1, d2, <char *>boards, sizeof(bg_board), NULL, capacity, 0)


cdef int bg_count(bg_movegen *g, const bg_board *b, int d1, int d2, bg_board *scratch) noexcept nogil:
    return _generate(g, b, d1, d2, <char *>scratch, sizeof(bg_board), NULL, BG_MAX_RESULTS, 1)


cdef int _generate(bg_movegen *g, const bg_board *b, int d1, int d2, char *boards, int stride,
                   char *moves, int capacity, int count_only) noexcept nogil:
    """Results go to ``boards`` (and their moves to ``moves``, unless NULL),
    ``stride`` bytes apart."""
    g.boards = boards
    g.board_stride = stride
    g.moves = moves
    g.move_stride = stride
    g.count_only = count_only
    if d1 < 1 or d1 > 6 or d2 < 1 or d2 > 6:
        return -BG_ERR_BAD_DICE
    if d1 < d2:
        d1, d2 = d2, d1
    _restart(g, -1)
    g.capacity = capacity
    g.overflow = 0
    g.high_die = d1
    g.path.hits = 0
    # Keys are relative to b (b's key is 0): they only ever meet keys of the
    # same generation, so the board itself need not be hashed.
    cdef uint32_t mine, blocked
    bg_masks(b.pt, &mine, &blocked)
    g.blocked = blocked & ~<uint32_t>1  # the opponent's bar is no point
    g.movable[d1] = ~(g.blocked << d1) & ~((<uint32_t>2 << d1) - 1)
    g.movable[d2] = ~(g.blocked << d2) & ~((<uint32_t>2 << d2) - 1)
    if d1 == d2:
        g.low_die_first = 0
        g.dice[0] = d1
        _doubles(g, b, mine, 0, BG_BAR)
    else:
        g.low_die_first = 0
        g.dice[0] = d1
        g.dice[1] = d2
        _first_die(g, b, mine)
        g.dice[0] = d2
        g.dice[1] = d1
        g.low_die_first = 1
        if not _low_first_by_masks(g, b, mine):
            _first_die(g, b, mine)
    if g.overflow:
        return -BG_ERR_OVERFLOW
    return g.count
