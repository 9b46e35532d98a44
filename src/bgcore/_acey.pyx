# cython: language_level=3
"""Acey-deucey in C: the variant's legal-move generator, perft and random
games (behind ``bgcore.acey``).  The rules are in ``docs/acey-deucey.md``.

A board here is 28 signed bytes (``ad_board``): the 26 slots of a standard
board (the mover's view), then the checkers still waiting to enter, the
mover's (slot 26) and the opponent's (slot 27).  The standard generator
(``movegen``) never sees these boards: its 26-byte layout, its masks and its
proofs of which plays repeat each other stay as they are, and the standard
variant pays nothing for this one.

The enumerator is plain: every order of the dice and every source is played
out on a copy of the board (copy-make), and distinct outcomes are found
through a hash table.  A play's leaves are gathered first, so that the
backgammon rules (the most dice, else the larger die) pick among them, and
then merged into the outcomes.  An outcome is the board after the play (the
mover still on roll) and whether the mover rolls again: after 1-2 played in
full, the named double played in full.
"""

cimport cython
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memcmp, memset

import numpy as np

from bgcore.dice cimport bg_dice, bg_dice_seed, bg_dice_roll, bg_dice_below

cdef extern from "bg_platform.h":
    void bg_flip_pt(const int8_t *b, int8_t *out) noexcept nogil

cdef enum:
    AD_SLOTS = 28          # 26 board slots, then the waiting checkers
    AD_WAITING = 26        # the mover's checkers waiting to enter
    AD_THEIR_WAITING = 27  # the opponent's
    AD_BAR = 25
    AD_CHECKERS = 15
    AD_MAX_STEPS = 6       # 1-2, then four of the named double
    MAX_DEPTH = 8          # perft: deeper walks would take years
    MAX_PLIES = 100000     # a random game this long is a bug, not a game

# Dice stream numbers, as in ``_engine``: game i rolls from stream i, its
# random choices come from stream 2**62 + i.
cdef uint64_t CHOICE_STREAMS = 1ULL << 62

# Error codes, returned negated.
cdef enum:
    AD_ERR_NOMEM = 1
    AD_ERR_TOO_LONG = 2

SLOTS = AD_SLOTS
MAX_PERFT_DEPTH = MAX_DEPTH


ctypedef struct ad_board:
    int8_t s[28]

ctypedef struct ad_move:
    uint8_t nsteps         # 0 (a lost turn) to 6
    uint8_t hits           # bit k set when step k hits a blot
    uint8_t named          # the double named after 1-2 (0: none)
    uint8_t again          # 1: the mover rolls again
    uint8_t src[6]         # 25: the bar, or a waiting checker when the bar is empty
    uint8_t dst[6]         # 0: off

ctypedef struct ad_result:
    ad_board board         # the mover still on roll
    ad_move move

ctypedef struct ad_list:
    # A growable array of results; ``prio`` (when not NULL) ranks leaves.
    ad_result *items
    int *prio
    int count
    int capacity

ctypedef struct ad_set:
    # Distinct results: a list and an open-addressing table of indices + 1.
    ad_list list
    uint32_t *slots
    uint64_t *keys
    int bits

ctypedef struct ad_gen:
    ad_list leaves         # the plays of one roll, before the rules choose
    ad_set stage           # 1-2's plays, before the named double
    ad_set out             # the outcomes
    int failed


# --- lists and sets ---------------------------------------------------------------

cdef int _list_push(ad_list *l, const ad_result *r, int prio) noexcept nogil:
    """Append r; -1 when out of memory."""
    cdef int cap
    cdef void *p
    if l.count == l.capacity:
        cap = 2 * l.capacity if l.capacity else 256
        p = realloc(l.items, cap * sizeof(ad_result))
        if p == NULL:
            return -1
        l.items = <ad_result *>p
        p = realloc(l.prio, cap * sizeof(int))
        if p == NULL:
            return -1
        l.prio = <int *>p
        l.capacity = cap
    l.items[l.count] = r[0]
    l.prio[l.count] = prio
    l.count += 1
    return 0


cdef void _list_free(ad_list *l) noexcept nogil:
    free(l.items)
    free(l.prio)
    memset(l, 0, sizeof(ad_list))


cdef inline uint64_t _key(const ad_result *r) noexcept nogil:
    """A 64-bit key of the board and the extra roll."""
    cdef uint64_t w[4]
    cdef uint64_t h = 0x6163657964657563  # "aceydeuc"
    cdef int i
    w[3] = 0
    memcpy(w, r.board.s, AD_SLOTS)
    w[3] ^= <uint64_t>r.move.again << 40
    for i in range(4):
        h = (h ^ w[i]) * <uint64_t>0x9E3779B97F4A7C15
        h ^= h >> 29
    return h


cdef inline bint _same(const ad_result *a, const ad_result *b) noexcept nogil:
    return a.move.again == b.move.again and memcmp(a.board.s, b.board.s, AD_SLOTS) == 0


cdef void _set_clear(ad_set *t) noexcept nogil:
    t.list.count = 0
    if t.slots != NULL:
        memset(t.slots, 0, (<size_t>1 << t.bits) * sizeof(uint32_t))


cdef int _set_rehash(ad_set *t, int bits) noexcept nogil:
    cdef uint32_t *slots = <uint32_t *>malloc((<size_t>1 << bits) * sizeof(uint32_t))
    cdef int i, mask = (1 << bits) - 1, h
    if slots == NULL:
        return -1
    memset(slots, 0, (<size_t>1 << bits) * sizeof(uint32_t))
    for i in range(t.list.count):
        h = <int>(t.keys[i] & mask)
        while slots[h]:
            h = (h + 1) & mask
        slots[h] = i + 1
    free(t.slots)
    t.slots = slots
    t.bits = bits
    return 0


cdef int _set_add(ad_set *t, const ad_result *r) noexcept nogil:
    """Add r unless an equal result is there; -1 when out of memory."""
    cdef uint64_t key = _key(r)
    cdef int h, mask
    cdef uint32_t i
    cdef void *p
    if t.slots == NULL or 2 * (t.list.count + 1) > (1 << t.bits):
        if _set_rehash(t, t.bits + 1 if t.slots != NULL else 10) < 0:
            return -1
    mask = (1 << t.bits) - 1
    h = <int>(key & mask)
    while t.slots[h]:
        i = t.slots[h] - 1
        if t.keys[i] == key and _same(&t.list.items[i], r):
            return 0
        h = (h + 1) & mask
    if t.list.count == t.list.capacity:
        if _list_push(&t.list, r, 0) < 0:
            return -1
        p = realloc(t.keys, t.list.capacity * sizeof(uint64_t))
        if p == NULL:
            return -1
        t.keys = <uint64_t *>p
    else:
        t.list.items[t.list.count] = r[0]
        t.list.count += 1
    t.keys[t.list.count - 1] = key
    t.slots[h] = t.list.count
    return 0


cdef void _set_free(ad_set *t) noexcept nogil:
    _list_free(&t.list)
    free(t.slots)
    free(t.keys)
    memset(t, 0, sizeof(ad_set))


cdef ad_gen *_gen_new() noexcept nogil:
    cdef ad_gen *g = <ad_gen *>malloc(sizeof(ad_gen))
    if g != NULL:
        memset(g, 0, sizeof(ad_gen))
    return g


cdef void _gen_free(ad_gen *g) noexcept nogil:
    if g == NULL:
        return
    _list_free(&g.leaves)
    _set_free(&g.stage)
    _set_free(&g.out)
    free(g)


# --- the rules ------------------------------------------------------------------------

cdef inline int _on_board(const int8_t *s) noexcept nogil:
    """The mover's checkers on the board (bar included) and waiting."""
    cdef int i, n = s[AD_WAITING]
    for i in range(1, 26):
        if s[i] > 0:
            n += s[i]
    return n


cdef inline bint _game_over(const int8_t *s) noexcept nogil:
    """A side has borne off all its checkers (the mover, after its move)."""
    return _on_board(s) == 0


cdef int _sources(const int8_t *s, int d, int maxsrc, uint8_t *out) noexcept nogil:
    """The sources (highest first, none above maxsrc) from which die d plays:
    25 enters a checker, from the bar or, the bar empty, a waiting one."""
    cdef int n = 0, p, top = 0
    cdef bint open_entry = s[AD_BAR - d] >= -1
    if s[AD_BAR] > 0:  # the bar first, as in backgammon
        if open_entry and maxsrc >= AD_BAR:
            out[0] = AD_BAR
            return 1
        return 0
    if s[AD_WAITING] > 0 and open_entry and maxsrc >= AD_BAR:
        out[0] = AD_BAR
        n = 1
    if s[AD_WAITING] == 0:
        for p in range(24, 0, -1):
            if s[p] > 0:
                top = p
                break
    # Bearing off needs all fifteen home: none waiting, none on the bar
    # (both checked above), none above the 6-point.
    for p in range(maxsrc if maxsrc < 24 else 24, 0, -1):
        if s[p] <= 0:
            continue
        if p > d:
            if s[p - d] >= -1:
                out[n] = <uint8_t>p
                n += 1
        elif 0 < top <= 6 and (p == d or p == top):
            out[n] = <uint8_t>p
            n += 1
    return n


cdef inline void _step(ad_result *r, int src, int d) noexcept nogil:
    """Play die d from src on r's board and record the step."""
    cdef int8_t *s = r.board.s
    cdef int dst = src - d if src > d else 0
    cdef int k = r.move.nsteps
    if src == AD_BAR and s[AD_BAR] == 0:
        s[AD_WAITING] -= 1
    else:
        s[src] -= 1
    if dst:
        if s[dst] == -1:
            s[dst] = 1
            s[0] -= 1
            r.move.hits |= <uint8_t>(1 << k)
        else:
            s[dst] += 1
    r.move.src[k] = <uint8_t>src
    r.move.dst[k] = <uint8_t>dst
    r.move.nsteps = <uint8_t>(k + 1)


cdef int _walk(ad_gen *g, const ad_result *r, const int *dice, int ndice, int depth,
               int maxsrc, int high) noexcept nogil:
    """Play dice[depth:] from r in every legal way (a double's sources never
    above maxsrc: each set of steps once); its leaves go to g.leaves ranked
    by the backgammon rules: the most dice, then the larger die.  0 or -1."""
    cdef uint8_t srcs[25]
    cdef int i, n, d = dice[depth]
    cdef ad_result child
    n = _sources(r.board.s, d, maxsrc, srcs)
    if n == 0:
        # Ranked 2 * dice played, + 1 for a single die that is the larger.
        return _list_push(&g.leaves, r, 2 * depth + (depth == 1 and dice[0] == high))
    for i in range(n):
        child = r[0]
        _step(&child, srcs[i], d)
        if depth + 1 == ndice:
            if _list_push(&g.leaves, &child, 2 * ndice) < 0:
                return -1
        elif _walk(g, &child, dice, ndice, depth + 1, srcs[i] if dice[0] == dice[1] else AD_BAR, high) < 0:
            return -1
    return 0


cdef int _play_roll(ad_gen *g, const ad_result *start, int d1, int d2, ad_set *into,
                    int named) noexcept nogil:
    """Add the legal plays of d1-d2 from start to ``into``; ``named``: a
    double named after 1-2, whose full play earns another roll.  0 or -1."""
    cdef int dice[4]
    cdef int i, best = -1, high = d1 if d1 > d2 else d2
    cdef ad_result *r
    g.leaves.count = 0
    dice[0] = d1
    dice[1] = d2
    if d1 == d2:
        dice[2] = dice[3] = d1
        if _walk(g, start, dice, 4, 0, AD_BAR, high) < 0:
            return -1
    else:
        if _walk(g, start, dice, 2, 0, AD_BAR, high) < 0:
            return -1
        dice[0] = d2
        dice[1] = d1
        if _walk(g, start, dice, 2, 0, AD_BAR, high) < 0:
            return -1
    for i in range(g.leaves.count):
        if g.leaves.prio[i] > best:
            best = g.leaves.prio[i]
    for i in range(g.leaves.count):
        if g.leaves.prio[i] != best:
            continue
        r = &g.leaves.items[i]
        if named:
            r.move.named = <uint8_t>named
            r.move.again = best == 8 and _on_board(r.board.s) > 0
        if _set_add(into, r) < 0:
            return -1
    return 0


cdef int ad_generate(ad_gen *g, const ad_board *b, int d1, int d2) noexcept nogil:
    """Every distinct outcome of rolling d1-d2 on b, into g.out; their
    number, or -1 when out of memory."""
    cdef ad_result start
    cdef int i, named
    cdef bint acey_deucey = (d1 == 1 and d2 == 2) or (d1 == 2 and d2 == 1)
    memset(&start, 0, sizeof(ad_result))
    start.board = b[0]
    _set_clear(&g.out)
    if not acey_deucey:
        if _play_roll(g, &start, d1, d2, &g.out, 0) < 0:
            return -1
        return g.out.list.count
    # 1-2: the 1 and the 2 as a roll of their own; only when both are played,
    # each double the player may name, played from each of their results.
    _set_clear(&g.stage)
    if _play_roll(g, &start, 2, 1, &g.stage, 0) < 0:
        return -1
    if g.stage.list.count == 0 or g.stage.list.items[0].move.nsteps < 2:
        for i in range(g.stage.list.count):
            if _set_add(&g.out, &g.stage.list.items[i]) < 0:
                return -1
        return g.out.list.count
    for i in range(g.stage.list.count):
        if _game_over(g.stage.list.items[i].board.s):  # the 1-2 bore off the last checker
            if _set_add(&g.out, &g.stage.list.items[i]) < 0:
                return -1
            continue
        for named in range(1, 7):
            if _play_roll(g, &g.stage.list.items[i], named, named, &g.out, named) < 0:
                return -1
    return g.out.list.count


cdef inline void ad_flip(const ad_board *b, ad_board *out) noexcept nogil:
    """The board seen from the other player (out may be b)."""
    cdef int8_t w = b.s[AD_WAITING]
    bg_flip_pt(b.s, out.s)
    out.s[AD_WAITING] = b.s[AD_THEIR_WAITING]
    out.s[AD_THEIR_WAITING] = w


# --- Python entry points ------------------------------------------------------------

cdef ad_board _board_from(bytes board) except *:
    cdef ad_board b
    if len(board) != AD_SLOTS:
        raise ValueError(f"an acey-deucey board is {AD_SLOTS} bytes, not {len(board)}")
    memcpy(b.s, <const char *>board, AD_SLOTS)
    return b


def generate(bytes board, int d1, int d2):
    """The outcomes of rolling d1-d2 on ``board`` (28 bytes, checked by the
    caller), as two byte strings: the boards after (28 bytes each, the mover
    still on roll) and the moves (16 bytes each: the fields of ``ad_move``)."""
    cdef ad_board b = _board_from(board)
    cdef ad_gen *g = _gen_new()
    cdef int n, i
    cdef bytearray boards, moves
    cdef char *bp
    cdef char *mp
    if g == NULL:
        raise MemoryError()
    try:
        with nogil:
            n = ad_generate(g, &b, d1, d2)
        if n < 0:
            raise MemoryError()
        boards = bytearray(n * AD_SLOTS)
        moves = bytearray(n * sizeof(ad_move))
        bp = boards
        mp = moves
        for i in range(n):
            memcpy(bp + i * AD_SLOTS, g.out.list.items[i].board.s, AD_SLOTS)
            memcpy(mp + i * sizeof(ad_move), &g.out.list.items[i].move, sizeof(ad_move))
        return bytes(boards), bytes(moves)
    finally:
        _gen_free(g)


cdef int _perft(ad_gen **gens, const ad_board *b, int depth, int64_t *plain,
                int64_t *weighted) noexcept nogil:
    """Add the leaves ``depth`` plies below b (21 rolls a ply; a roll again
    is a ply of the same player); 0 or -1."""
    cdef ad_gen *g = gens[depth]
    cdef int d1, d2, n, k
    cdef int64_t p, q
    cdef ad_board child
    cdef ad_result *r
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            n = ad_generate(g, b, d1, d2)
            if n < 0:
                return -1
            if depth == 1:
                p = q = n
            else:
                p = q = 0
                for k in range(n):
                    r = &g.out.list.items[k]
                    if _game_over(r.board.s):
                        p += 1
                        q += 1
                        continue
                    if r.move.again:
                        child = r.board
                    else:
                        ad_flip(&r.board, &child)
                    if _perft(gens, &child, depth - 1, &p, &q) < 0:
                        return -1
            plain[0] += p
            weighted[0] += q if d1 == d2 else 2 * q
    return 0


def perft(bytes board, int depth):
    """(unweighted, weighted) leaves ``depth`` plies below ``board``."""
    cdef ad_board b = _board_from(board)
    cdef ad_gen *gens[MAX_DEPTH + 1]
    cdef int64_t plain = 0, weighted = 0
    cdef int i, rc = -1
    if not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be 1-{MAX_DEPTH}, not {depth}")
    memset(gens, 0, sizeof(gens))
    try:
        for i in range(depth + 1):
            gens[i] = _gen_new()
            if gens[i] == NULL:
                raise MemoryError()
        with nogil:
            rc = _perft(gens, &b, depth, &plain, &weighted)
        if rc < 0:
            raise MemoryError()
        return plain, weighted
    finally:
        for i in range(depth + 1):
            _gen_free(gens[i])


cdef int _random_game(ad_gen *g, const ad_board *start, uint64_t seed, uint64_t game,
                      int first0, int first1, double *y) noexcept nogil:
    """Play game ``game`` with uniform random choices; y gets its five
    outcomes from the starting mover's view.  0, or a negated error."""
    cdef bg_dice dice, choice
    cdef ad_board b = start[0]
    cdef int d1, d2, n, ply = 0, mover = 0, i, left, loser_in_home
    cdef int8_t *s
    bg_dice_seed(&dice, seed, game)
    bg_dice_seed(&choice, seed, CHOICE_STREAMS + game)
    while ply < MAX_PLIES:
        if ply == 0 and first0 >= 0:
            d1, d2 = first0 // 6 + 1, first0 % 6 + 1
        elif ply == 1 and first1 >= 0:
            d1, d2 = first1 // 6 + 1, first1 % 6 + 1
        else:
            bg_dice_roll(&dice, &d1, &d2)
        ply += 1
        n = ad_generate(g, &b, d1, d2)
        if n < 0:
            return -AD_ERR_NOMEM
        i = bg_dice_below(&choice, <uint32_t>n) if n > 1 else 0
        b = g.out.list.items[i].board
        if _game_over(b.s):
            # The mover won: gammon when the loser bore none off, backgammon
            # when one of its checkers is also on the bar, waiting or in the
            # winner's home board.
            s = b.s
            left = s[AD_THEIR_WAITING]
            loser_in_home = s[AD_THEIR_WAITING] > 0 or s[0] < 0
            for i in range(0, 25):
                if s[i] < 0:
                    left -= s[i]
                    if 1 <= i <= 6:
                        loser_in_home = 1
            memset(y, 0, 5 * sizeof(double))
            if mover == 0:
                y[0] = 1
                y[1] = left == AD_CHECKERS
                y[2] = left == AD_CHECKERS and loser_in_home
            else:
                y[3] = left == AD_CHECKERS
                y[4] = left == AD_CHECKERS and loser_in_home
            return 0
        if not g.out.list.items[i].move.again:
            ad_flip(&b, &b)
            mover ^= 1
    return -AD_ERR_TOO_LONG


@cython.boundscheck(False)  # k < count rows of y and of strata, checked below
@cython.wraparound(False)
def random_games(bytes board, uint64_t seed, int64_t first, int64_t count, first_rolls=None):
    """Games first .. first + count - 1 from ``board`` with random choices:
    float64 (count, 5), each row a game's outcomes from the starting mover's
    view.  ``first_rolls`` (int16 (count,), optional): stratum s of each game,
    whose first two rolls are s // 36 and s % 36 (ordered rolls)."""
    cdef ad_board b = _board_from(board)
    cdef ad_gen *g
    cdef int64_t k
    cdef int rc = 0
    cdef short[::1] strata
    cdef double[:, ::1] y
    cdef bint use_strata = first_rolls is not None
    if count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    out = np.zeros((count, 5), dtype=np.float64)
    y = out
    if use_strata:
        strata = np.ascontiguousarray(first_rolls, dtype=np.int16)
        if strata.shape[0] != count:
            raise ValueError("first_rolls needs one stratum per game")
        if count and not 0 <= min(strata) <= max(strata) < 1296:
            raise ValueError("a stratum is a pair of ordered rolls, 0-1295")
    g = _gen_new()
    if g == NULL:
        raise MemoryError()
    try:
        with nogil:
            for k in range(count):
                if use_strata:
                    rc = _random_game(g, &b, seed, <uint64_t>(first + k), strata[k] // 36, strata[k] % 36, &y[k, 0])
                else:
                    rc = _random_game(g, &b, seed, <uint64_t>(first + k), -1, -1, &y[k, 0])
                if rc < 0:
                    break
    finally:
        _gen_free(g)
    if rc == -AD_ERR_NOMEM:
        raise MemoryError()
    if rc < 0:
        raise RuntimeError(f"an acey-deucey game went on for {MAX_PLIES} plies")
    return out
