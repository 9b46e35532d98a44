# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""bgcore's native core: board checks and the legal-move enumerator.

Everything below ``# --- C level`` runs without the GIL and allocates nothing
per generated move: boards are copied on the C stack (copy-make), results go
into a caller-owned buffer and each distinct result is found once through a
64-bit key (an additive Zobrist-style hash) in an open-addressing table, with a full board compare
when two keys agree.  The Python-facing part at the end is a thin wrapper for
``bgcore.position`` and friends.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memcmp, memset
from cython.view cimport array as cvarray
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK)

import os

# --- C level ---------------------------------------------------------------

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


cdef uint64_t bg_hash(const bg_board *b) noexcept nogil:
    cdef uint64_t key = 0
    cdef int i
    for i in range(26):
        key += WEIGHT[i] * <uint64_t><int64_t>b.pt[i]
    return key


cdef void bg_movegen_init(bg_movegen *g) noexcept nogil:
    memset(g, 0, sizeof(bg_movegen))
    g.epoch = 1


cdef bg_movegen *bg_movegen_new() noexcept nogil:
    cdef bg_movegen *g = <bg_movegen *>malloc(sizeof(bg_movegen))
    if g != NULL:
        bg_movegen_init(g)
    return g


cdef void bg_movegen_free(bg_movegen *g) noexcept nogil:
    free(g)


cdef int bg_checkers(const bg_board *b, int side) noexcept nogil:
    """Checkers on the board (bar included) of side 0 (on roll) or 1."""
    cdef int i, n = 0
    for i in range(26):
        if side == 0 and b.pt[i] > 0:
            n += b.pt[i]
        elif side == 1 and b.pt[i] < 0:
            n -= b.pt[i]
    return n


cdef int bg_validate(const bg_board *b) noexcept nogil:
    cdef int i, v, mine = 0, theirs = 0, bad = 0
    for i in range(26):
        v = b.pt[i]
        bad |= <unsigned int>(v + BG_MAX_CHECKERS) > 2 * BG_MAX_CHECKERS
        if v > 0:
            mine += v
        else:
            theirs -= v
    if bad or b.pt[BG_BAR] < 0 or b.pt[0] > 0:
        return -BG_ERR_COUNT
    if mine > BG_MAX_CHECKERS or theirs > BG_MAX_CHECKERS:
        return -BG_ERR_TOO_MANY
    return BG_OK


cdef void bg_flip(const bg_board *b, bg_board *out) noexcept nogil:
    bg_flip_pt(b.pt, out.pt)


cdef inline void _new_epoch(bg_movegen *g) noexcept nogil:
    g.epoch += 1
    if g.epoch == 0:  # wrapped: forget every stamp once in 2**32 calls
        memset(g.table, 0, sizeof(g.table))
        g.epoch = 1


cdef inline void _set(bg_board *b, uint64_t *key, int i, int value) noexcept nogil:
    key[0] += WEIGHT[i] * <uint64_t>(value - b.pt[i])
    b.pt[i] = <int8_t>value


cdef inline void _restart(bg_movegen *g, int prio) noexcept nogil:
    """Drop the results kept so far: plays of a higher priority were found."""
    g.best = prio
    g.count = 0
    g.nclaimed = 0
    g.cursor = g.boards
    g.bits = BG_TABLE_MIN_BITS
    _new_epoch(g)


cdef void _leaf(bg_movegen *g, const bg_board *b, uint64_t key, int depth) noexcept nogil:
    """Keep b if it uses the most dice (the larger die when only one plays)."""
    cdef int prio
    if g.doubles:
        prio = depth
    else:
        prio = 2 * depth
        if depth == 1 and g.dice[0] == g.high_die:
            prio += 1
    if prio < g.best:
        return
    if prio > g.best:
        _restart(g, prio)
    _insert(g, b, key, depth)


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


cdef inline void _leaf_step(bg_movegen *g, const bg_board *b, uint64_t key, int depth,
                     int src, int dst) noexcept nogil:
    """The leaf after playing the last die (src -> dst) on b, without a copy.

    The key of the result is computed first; the board is written straight
    into the result buffer, and built apart only to compare on equal keys.
    """
    cdef int h, mask, last = depth - 1
    cdef bg_slot *slot
    cdef bg_board tmp
    if g.best < 4:  # every die played: the highest priority
        _restart(g, 4)
    key -= WEIGHT[src]
    if dst:
        if b.pt[dst] == -1:
            key += 2 * WEIGHT[dst] - WEIGHT[0]
        else:
            key += WEIGHT[dst]
    if g.doubles:
        # Every step has the same length, so the checkers' net change on each
        # point fixes the set of steps (going down each chain of points d
        # apart from the top), and the steps fix the hits; sources never
        # increase along a play, so each set of steps is played once: two
        # plays of all four dice never reach the same position.
        _store(g, b, key, depth, src, dst, False)
        return
    if not g.second_order and last == 1 and dst and g.path.dst[0] \
            and src != g.path.dst[0] and dst != g.path.src[0] \
            and (src != BG_BAR or g.path.src[0] != BG_BAR):
        # High die first, nothing borne off, not two checkers entering, and
        # the second checker neither starts where the first ended nor ends
        # where it started: the four points fix the two steps, so no other
        # play reaches this position (what the low die first would repeat
        # is skipped in _play, and is looked up when it is not), and no
        # lookup is needed.
        _store(g, b, key, depth, src, dst, False)
        return
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
    _store(g, b, key, depth, src, dst, True)
    if 2 * g.count > (1 << g.bits) and g.bits < BG_TABLE_BITS:
        _grow(g)


cdef inline void _store(bg_movegen *g, const bg_board *b, uint64_t key, int depth,
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
    g.path.src[last] = <uint8_t>src
    g.path.dst[last] = <uint8_t>dst
    _record(g, depth, (g.path.hits & ((1 << last) - 1)) | (hit << last))
    g.count += 1


cdef extern from *:
    """
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #include <emmintrin.h>
    /* Bit p of *mine: pt[p] > 0; of *blocked: pt[p] <= -2 (p = 0..25). */
    static inline void bg_masks(const signed char *pt, unsigned int *mine, unsigned int *blocked) {
        __m128i lo = _mm_loadu_si128((const __m128i *)pt);
        __m128i hi = _mm_loadu_si128((const __m128i *)(pt + 10));
        __m128i zero = _mm_setzero_si128(), minus1 = _mm_set1_epi8(-1);
        unsigned int m = (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(lo, zero))
                       | ((unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(hi, zero)) << 10);
        unsigned int b = (unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(lo, minus1))
                       | ((unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(hi, minus1)) << 10);
        *mine = m;
        *blocked = b;
    }
    #else
    static inline void bg_masks(const signed char *pt, unsigned int *mine, unsigned int *blocked) {
        unsigned int m = 0, b = 0;
        int p;
        for (p = 0; p < 26; p++) {
            m |= (unsigned int)(pt[p] > 0) << p;
            b |= (unsigned int)(pt[p] <= -2) << p;
        }
        *mine = m;
        *blocked = b;
    }
    #endif
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #include <unistd.h>
    #endif
    /* Result buffers: a 64-byte header holding the capacity in bytes and
       how many of them may have been written (the rest are unmapped), then
       the data.  Large ones are 2 MiB-aligned and advised to use huge pages
       on Linux, which saves a page fault per 4 KiB written.

       One released large buffer is kept (bg_buf_release) and handed to the
       next batch asking for no more than it holds (bg_buf_obtain), so the
       pages that batch writes are already mapped: a fresh mapping costs a
       page fault and the kernel zeroing every page before it is written
       (168,000 rows: 1 thread took 99 ms a call with a fresh buffer against
       88 ms with a kept one, 2 threads 57 against 47 ms).  It is kept when
       at most BG_BUF_KEEP_MAX bytes of it may have been written: that is
       what it holds on to, whatever its capacity.  Both run with the GIL
       held, which guards the kept buffer. */
    #define BG_BUF_HEADER 64
    #define BG_BUF_BIG ((size_t)1 << 21)
    #define BG_BUF_KEEP_MAX ((size_t)1 << 27)
    static char *bg_kept = NULL;

    static size_t bg_buf_capacity(const char *data) {
        return data ? ((const size_t *)(data - BG_BUF_HEADER))[0] : 0;
    }
    static size_t bg_buf_written(const char *data) {
        return data ? ((const size_t *)(data - BG_BUF_HEADER))[1] : 0;
    }
    static void bg_buf_set_written(char *data, size_t n) {
        ((size_t *)(data - BG_BUF_HEADER))[1] = n;
    }
    static char *bg_buf_alloc(size_t n) {
        char *base = NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (n >= BG_BUF_BIG) {
            void *p = NULL;
            if (posix_memalign(&p, BG_BUF_BIG, n + BG_BUF_HEADER) != 0)
                return NULL;
            madvise(p, n + BG_BUF_HEADER, MADV_HUGEPAGE);
            base = (char *)p;
        } else
    #endif
        base = (char *)malloc(n + BG_BUF_HEADER);
        if (base == NULL)
            return NULL;
        ((size_t *)base)[0] = n;
        ((size_t *)base)[1] = n;
        return base + BG_BUF_HEADER;
    }
    static void bg_buf_free(char *data) {
        if (data)
            free(data - BG_BUF_HEADER);
    }
    static char *bg_buf_obtain(size_t n) {
        char *data = bg_kept;
        /* Only for a batch of about the same size: a small one would hold the
           whole buffer (where bg_buf_trim cannot give pages back). */
        if (data != NULL && bg_buf_capacity(data) >= n && n >= bg_buf_capacity(data) / 2) {
            bg_kept = NULL;
            bg_buf_set_written(data, bg_buf_capacity(data));  /* until trimmed */
            return data;
        }
        return bg_buf_alloc(n);
    }
    static void bg_buf_release(void *ptr) {
        char *data = (char *)ptr;
        size_t cap = bg_buf_capacity(data);
        if (data == NULL)
            return;
        if (cap >= BG_BUF_BIG && bg_buf_written(data) <= BG_BUF_KEEP_MAX && cap > bg_buf_capacity(bg_kept)) {
            bg_buf_free(bg_kept);
            bg_kept = data;
            return;
        }
        bg_buf_free(data);
    }
    static void bg_buf_forget(void) {
        bg_buf_free(bg_kept);
        bg_kept = NULL;
    }
    /* Give back the whole pages after the first `used` bytes (a kept buffer
       may have been written further by an earlier batch), so that what a
       caller holds is what it asked for. */
    static void bg_buf_trim(char *data, size_t used) {
    #if defined(__linux__) && defined(MADV_DONTNEED)
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t cap = bg_buf_capacity(data);
        size_t start = ((size_t)data + used + page - 1) & ~(page - 1);
        size_t end = ((size_t)data + cap) & ~(page - 1);
        if (cap >= BG_BUF_BIG && (end <= start || madvise((void *)start, end - start, MADV_DONTNEED) == 0))
            bg_buf_set_written(data, start - (size_t)data < cap ? start - (size_t)data : cap);
    #endif
        (void)data;
        (void)used;
    }
    /* Board b seen from the other side: out[i] = -b[25 - i] (b may be out). */
    #if defined(__SSE2__) || defined(_M_X64)
    static inline __m128i bg_reverse16(__m128i x) {
        x = _mm_shuffle_epi32(x, 0x1B);
        x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xB1), 0xB1);
        return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
    }
    static inline void bg_flip_pt(const signed char *b, signed char *out) {
        __m128i lo = _mm_loadu_si128((const __m128i *)b);
        __m128i hi = _mm_loadu_si128((const __m128i *)(b + 10));
        __m128i zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)out, _mm_sub_epi8(zero, bg_reverse16(hi)));
        _mm_storeu_si128((__m128i *)(out + 10), _mm_sub_epi8(zero, bg_reverse16(lo)));
    }
    #else
    static inline void bg_flip_pt(const signed char *b, signed char *out) {
        signed char tmp[26];
        int i;
        memcpy(tmp, b, 26);
        for (i = 0; i < 26; i++)
            out[i] = (signed char)-tmp[25 - i];
    }
    #endif
    /* Copy n bytes to memory this thread will not read again (a batch's
       result), with non-temporal stores in builds for SSE2 (every x86-64
       build; memcpy in others): they skip
       reading each destination line first and leave the cache to the
       generator.  Staged results copied so took 3.3-4.6 TSC ticks per
       26-byte row against 5.4-6.6 with memcpy (2 threads, benchmark corpus).
       The fence orders them before the stores that publish the rows. */
    static inline void bg_copy_out(char *dst, const char *src, size_t n) {
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
        size_t head = (16 - ((size_t)dst & 15)) & 15;
        if (n < 256) {
            memcpy(dst, src, n);
            return;
        }
        memcpy(dst, src, head);
        dst += head; src += head; n -= head;
        for (; n >= 64; n -= 64, dst += 64, src += 64) {
            _mm_stream_si128((__m128i *)dst, _mm_loadu_si128((const __m128i *)src));
            _mm_stream_si128((__m128i *)(dst + 16), _mm_loadu_si128((const __m128i *)(src + 16)));
            _mm_stream_si128((__m128i *)(dst + 32), _mm_loadu_si128((const __m128i *)(src + 32)));
            _mm_stream_si128((__m128i *)(dst + 48), _mm_loadu_si128((const __m128i *)(src + 48)));
        }
        memcpy(dst, src, n);
        _mm_sfence();
    #else
        memcpy(dst, src, n);
    #endif
    }
    /* The cancel flag of a batch: set once (0 -> 1) by one thread, polled by
       the others without the lock, so it is read and written atomically
       (relaxed).  The number of pieces of a batch whose places are known:
       raised under the batch's lock after their offsets are written
       (release), read without the lock by threads looking for their piece's
       place (acquire), which then see those offsets. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int bg_flag_get(volatile int *p) { return *p; }
    static __inline void bg_flag_set(volatile int *p) { *p = 1; }
    /* A volatile access alone orders memory only under /volatile:ms, the
       default on x86 and x64 but not on ARM64: fence explicitly there. */
    #if defined(_M_ARM64)
    #define BG_HW_FENCE() __dmb(_ARM64_BARRIER_ISH)
    #else
    #define BG_HW_FENCE() ((void)0)
    #endif
    static __inline Py_ssize_t bg_known_get(volatile Py_ssize_t *p) {
        Py_ssize_t v = *p;
        BG_HW_FENCE();
        _ReadWriteBarrier();
        return v;
    }
    static __inline void bg_known_set(volatile Py_ssize_t *p, Py_ssize_t v) {
        _ReadWriteBarrier();
        BG_HW_FENCE();
        *p = v;
    }
    #else
    static inline int bg_flag_get(volatile int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void bg_flag_set(volatile int *p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }
    static inline Py_ssize_t bg_known_get(volatile Py_ssize_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void bg_known_set(volatile Py_ssize_t *p, Py_ssize_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    #endif
    /* A hint that the thread is spinning (pause on x86, yield on ARM). */
    #if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
    #define bg_pause() _mm_pause()
    #elif defined(_M_ARM64)
    #define bg_pause() __yield()
    #elif defined(__aarch64__) || defined(__arm__)
    #define bg_pause() __asm__ __volatile__("yield")
    #else
    #define bg_pause() ((void)0)
    #endif
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int bg_top_bit(unsigned long x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
    #else
    static inline int bg_top_bit(unsigned long x) { return 31 - __builtin_clz((unsigned int)x); }
    #endif
    """
    int bg_top_bit(unsigned long x) noexcept nogil
    int bg_flag_get(volatile int *p) noexcept nogil
    void bg_copy_out(char *dst, const char *src, size_t n) noexcept nogil
    void bg_flag_set(volatile int *p) noexcept nogil
    void bg_pause() noexcept nogil
    Py_ssize_t bg_known_get(volatile Py_ssize_t *p) noexcept nogil
    void bg_known_set(volatile Py_ssize_t *p, Py_ssize_t v) noexcept nogil
    void bg_masks(const int8_t *pt, uint32_t *mine, uint32_t *blocked) noexcept nogil
    size_t bg_buf_capacity(const char *data) noexcept nogil
    char *bg_buf_alloc(size_t n) noexcept nogil
    void bg_buf_free(char *data) noexcept nogil
    char *bg_buf_obtain(size_t n) noexcept
    void bg_buf_release(void *data) noexcept
    void bg_buf_forget() noexcept
    void bg_buf_trim(char *data, size_t used) noexcept nogil
    void bg_flip_pt(const int8_t *b, int8_t *out) noexcept nogil


cdef inline uint32_t _make_step(bg_movegen *g, bg_board *nb, uint64_t *key, uint32_t mine,
                                int depth, int src, int dst) noexcept nogil:
    """Play die ``depth`` as src -> dst (0: off) on nb, a copy of the board;
    update its key and record the step; return the new mask of own checkers."""
    cdef int count
    cdef uint8_t bit = <uint8_t>(1 << depth)
    _set(nb, key, src, nb.pt[src] - 1)
    if nb.pt[src] == 0:
        mine &= ~(<uint32_t>1 << src)
    g.path.hits &= ~bit
    if dst:
        mine |= <uint32_t>1 << dst
        count = nb.pt[dst]
        if count == -1:
            _set(nb, key, 0, nb.pt[0] - 1)
            _set(nb, key, dst, 1)
            g.path.hits |= bit
        else:
            _set(nb, key, dst, count + 1)
    g.path.src[depth] = <uint8_t>src
    g.path.dst[depth] = <uint8_t>dst
    return mine


cdef inline uint32_t _legal(bg_movegen *g, const bg_board *b, uint32_t mine, int depth,
                            int maxsrc, int d, int *moved) noexcept nogil:
    """The sources (<= maxsrc; bit 25: the bar) whose checker plays die d next.

    Sets ``moved[0]`` when die d can be played at all, even when the set is
    cut down to sources whose plays were not made already (low die first).
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
        moved[0] = 1
        return <uint32_t>1 << BG_BAR
    if not mine:
        return 0
    hi = bg_top_bit(mine)
    if hi > maxsrc:
        todo = mine & ((<uint32_t>2 << maxsrc) - 1)
    else:
        todo = mine
    # Sources whose checker lands on the board on a point not held by the
    # opponent, and (all checkers home) those that bear off: the exact
    # point, or the highest one when the die is larger.
    legal = todo & ~(g.blocked << d) & ~((<uint32_t>2 << d) - 1)
    if hi <= 6:
        legal |= todo & (<uint32_t>1 << d)
        if hi < d:
            legal |= todo & (<uint32_t>1 << hi)
    if legal:
        moved[0] = 1
    if g.second_order and depth == 1 and hi > 6 and g.path.src[0] != BG_BAR \
            and g.path.dst[0] != BG_OFF:
        # Low die first, then the high die, with no bar entry and no bearing
        # off: moving another checker repeats a play made high die first, so
        # only the checker that just moved may go on, and not even it when
        # the high die first was open and no hit on the way makes a
        # difference.
        legal &= <uint32_t>1 << g.path.dst[0]
        if legal and _made_high_first(g, b, g.path.src[0], d, g.path.hits & 1):
            legal = 0
    elif g.second_order and depth == 1 and g.path.src[0] != BG_BAR \
            and g.path.dst[0] != BG_OFF:
        # All home: the same, but plays that bear off must still be made.
        legal &= (<uint32_t>1 << g.path.dst[0]) | ((<uint32_t>2 << d) - 1)
    return legal


cdef inline int _pop_source(uint32_t *legal) noexcept nogil:
    """Take the highest source out of the set."""
    cdef int src = bg_top_bit(legal[0])
    legal[0] ^= <uint32_t>1 << src
    return src


cdef inline void _play_last(bg_movegen *g, const bg_board *b, uint64_t key, uint32_t mine,
                            int depth, int maxsrc) noexcept nogil:
    """Play the last die, dice[depth], in every legal way from b (sources <= maxsrc)."""
    cdef int d = g.dice[depth], src, moved = 0
    cdef uint32_t legal = _legal(g, b, mine, depth, maxsrc, d, &moved)
    while legal:
        src = _pop_source(&legal)
        _leaf_step(g, b, key, depth + 1, src, src - d if src > d else BG_OFF)
    if not moved:
        _leaf(g, b, key, depth)


cdef inline bint _nothing_new(bg_movegen *g, const bg_board *b, uint32_t mine,
                              int src, int dst) noexcept nogil:
    """Non-doubles, low die first (src -> dst, neither the bar nor off), plays of
    both dice already found: True when no play of both dice that starts with
    this step is new, decided without playing it (what _legal's low-die-first
    rule would find after it)."""
    cdef int high = g.dice[1]
    cdef uint32_t nm = mine | (<uint32_t>1 << dst)
    if b.pt[src] == 1:
        nm &= ~(<uint32_t>1 << src)
    if bg_top_bit(nm) <= 6:
        return False  # all home after the step: bearing off is open, play it out
    if dst <= high or g.blocked >> (dst - high) & 1:
        return True  # the checker that moved cannot go on; no other may
    return _made_high_first(g, b, src, high, b.pt[dst] == -1)


cdef inline bint _made_high_first(bg_movegen *g, const bg_board *b, int src, int high,
                                  bint hit) noexcept nogil:
    """Low die first from src, then the high die with the same checker (which
    can go on): True when the high die first from src, then the low die, made
    the same play already, i.e. the point src - high was open and no hit
    differs (``hit``: the low die's step hit).  b's point src - high is the
    same before and after the low die's step."""
    return not (g.blocked >> (src - high) & 1) and b.pt[src - high] != -1 and not hit


cdef void _play(bg_movegen *g, const bg_board *b, uint64_t key, uint32_t mine,
                int depth, int maxsrc) noexcept nogil:
    """Play dice[depth:] (two or more) in every legal way from b (sources <= maxsrc)."""
    cdef int d = g.dice[depth], src, dst, moved = 0
    cdef bg_board nb
    cdef uint64_t nk
    cdef uint32_t nm
    cdef uint32_t legal = _legal(g, b, mine, depth, maxsrc, d, &moved)
    while legal:
        src = _pop_source(&legal)
        dst = src - d if src > d else BG_OFF
        if g.second_order and g.best == 4 and src != BG_BAR and dst != BG_OFF \
                and _nothing_new(g, b, mine, src, dst):
            continue
        memcpy(&nb, b, sizeof(bg_board))
        nk = key
        nm = _make_step(g, &nb, &nk, mine, depth, src, dst)
        # Doubles: sources never increase, so each set of steps comes once.
        if depth + 2 == g.ndice:
            _play_last(g, &nb, nk, nm, depth + 1, src if g.doubles else BG_BAR)
        else:
            _play(g, &nb, nk, nm, depth + 1, src if g.doubles else BG_BAR)
    if not moved:
        _leaf(g, b, key, depth)


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
    cdef uint64_t key = 0
    cdef uint32_t mine, blocked
    bg_masks(b.pt, &mine, &blocked)
    g.blocked = blocked & ~<uint32_t>1  # the opponent's bar is no point
    if d1 == d2:
        g.doubles = 1
        g.second_order = 0
        g.ndice = 4
        g.dice[0] = d1
        g.dice[1] = d1
        g.dice[2] = d1
        g.dice[3] = d1
        _play(g, b, key, mine, 0, BG_BAR)
    else:
        g.doubles = 0
        g.second_order = 0
        g.ndice = 2
        g.dice[0] = d1
        g.dice[1] = d2
        _play(g, b, key, mine, 0, BG_BAR)
        g.dice[0] = d2
        g.dice[1] = d1
        g.second_order = 1
        _play(g, b, key, mine, 0, BG_BAR)
    if g.overflow:
        return -BG_ERR_OVERFLOW
    return g.count


# --- Python level ----------------------------------------------------------

cdef bg_movegen *_SHARED_GEN = bg_movegen_new()
cdef bg_result *_SHARED_OUT = <bg_result *>malloc(BG_MAX_RESULTS * sizeof(bg_result))
if _SHARED_GEN == NULL or _SHARED_OUT == NULL:
    raise MemoryError("bgcore could not allocate its move generator")

MAX_RESULTS = BG_MAX_RESULTS

_ERRORS = {
    BG_ERR_BAD_DICE: "dice must be two integers from 1 to 6",
    BG_ERR_COUNT: "a slot holds more than 15 checkers, or a bar has the wrong sign",
    BG_ERR_TOO_MANY: "a side has more than 15 checkers",
    BG_ERR_OVERFLOW: "more results than the generator's capacity",
}


cdef int _load(bytes data, bg_board *b) except -1:
    if len(data) != 26:
        raise ValueError(f"a board has 26 slots, not {len(data)}")
    memcpy(b.pt, <const char *>data, 26)
    return 0


def validate(bytes board):
    """Return None if ``board`` (26 signed bytes) is a valid board, else the reason."""
    cdef bg_board b
    _load(board, &b)
    cdef int rc = bg_validate(&b)
    if rc < 0:
        return _ERRORS[-rc]
    return None


def flip(bytes board):
    """The same board seen from the other player."""
    cdef bg_board b, f
    _load(board, &b)
    bg_flip(&b, &f)
    return (<char *>f.pt)[:26]


def on_board(bytes board):
    """Checkers on the board (bars included): (player on roll, opponent)."""
    cdef bg_board b
    _load(board, &b)
    return bg_checkers(&b, 0), bg_checkers(&b, 1)


def board_key(bytes board):
    """The 64-bit key the generator's hash table uses for ``board``."""
    cdef bg_board b
    _load(board, &b)
    return bg_hash(&b)


cdef class Results:
    """The distinct results of one roll, held in native memory.

    Indexing gives nothing but bytes and tuples, so a caller builds Python
    objects only for the results it looks at.
    """
    cdef bg_result *_data
    cdef int _count

    def __cinit__(self):
        self._data = NULL
        self._count = 0

    def __dealloc__(self):
        free(self._data)

    def __len__(self):
        return self._count

    cdef int _check(self, Py_ssize_t i) except -1:
        if i < 0 or i >= self._count:
            raise IndexError("result index out of range")
        return 0

    def board(self, Py_ssize_t i):
        """The board after result ``i`` (26 signed bytes), mover still on roll."""
        self._check(i)
        return (<char *>self._data[i].board.pt)[:26]

    cdef bg_move _sorted(self, Py_ssize_t i):
        """Result i's move with its steps sorted: source, then destination, descending."""
        cdef bg_move m = self._data[i].move
        cdef int a, k, hits = 0
        cdef uint8_t s, d, h
        cdef uint8_t hit[4]
        for k in range(m.nsteps):
            hit[k] = (m.hits >> k) & 1
        for a in range(1, m.nsteps):  # insertion sort of at most four steps
            s, d, h = m.src[a], m.dst[a], hit[a]
            k = a - 1
            while k >= 0 and (m.src[k] < s or (m.src[k] == s and m.dst[k] < d)):
                m.src[k + 1], m.dst[k + 1], hit[k + 1] = m.src[k], m.dst[k], hit[k]
                k -= 1
            m.src[k + 1], m.dst[k + 1], hit[k + 1] = s, d, h
        for k in range(m.nsteps):
            hits |= hit[k] << k
        m.hits = <uint8_t>hits
        return m

    def move(self, Py_ssize_t i):
        """Result ``i``'s move as ((from, to) pairs, hit flags), highest source first.

        That order (source, then destination, both descending) is always a
        legal order to play the steps in.
        """
        self._check(i)
        cdef bg_move m = self._sorted(i)
        cdef int k
        return (tuple([(m.src[k], m.dst[k]) for k in range(m.nsteps)]),
                tuple([bool(m.hits >> k & 1) for k in range(m.nsteps)]))

    def flipped(self, Py_ssize_t i):
        """The board after result ``i`` seen by the opponent, now on roll (26 bytes)."""
        self._check(i)
        cdef bg_board f
        bg_flip(&self._data[i].board, &f)
        return (<char *>f.pt)[:26]

    def index(self, bytes board):
        """The index of the result equal to ``board``, or -1."""
        cdef bg_board b
        cdef int i
        _load(board, &b)
        for i in range(self._count):
            if memcmp(self._data[i].board.pt, b.pt, 26) == 0:
                return i
        return -1


def generate(bytes board, int die1, int die2):
    """Every distinct legal result of rolling ``die1``-``die2`` on ``board``.

    ``board`` must already be valid (see :func:`validate`).
    """
    cdef bg_board b
    cdef int n
    _load(board, &b)
    if bg_validate(&b) < 0:
        raise ValueError(validate(board))
    n = bg_generate(_SHARED_GEN, &b, die1, die2, _SHARED_OUT, BG_MAX_RESULTS)
    if n < 0:
        raise ValueError(_ERRORS[-n])
    cdef Results res = Results.__new__(Results)
    res._data = <bg_result *>malloc(n * sizeof(bg_result))
    if res._data == NULL:
        raise MemoryError()
    memcpy(res._data, _SHARED_OUT, n * sizeof(bg_result))
    res._count = n
    return res


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
            code = _check_row(<const int8_t *>&boards[26 * rc], &dice[2 * rc])
            raise ValueError(f"generation {rc}: {_ERRORS[code]}")
        for i in range(n):
            total += counts[i]
    finally:
        free(counts)
    return total


# --- batch generation ----------------------------------------------------

cdef int _find_invalid(const int8_t *boards, const uint8_t *dice, Py_ssize_t n,
                       Py_ssize_t *row) noexcept nogil:
    """The first bad row's error code (its index in row[0]), or 0."""
    cdef Py_ssize_t i
    cdef int rc
    for i in range(n):
        rc = _check_row(&boards[26 * i], &dice[2 * i])
        if rc:
            row[0] = i
            return rc
    return 0


cdef int _check_shapes(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice) except -1:
    """ValueError unless boards are rows of 26 and dice as many rows of 2."""
    if boards.shape[1] != 26 or dice.shape[1] != 2 or dice.shape[0] != boards.shape[0]:
        raise ValueError(f"boards must be (n, 26) and dice (n, 2), not ({boards.shape[0]}, {boards.shape[1]}) "
                         f"and ({dice.shape[0]}, {dice.shape[1]})")
    return 0


def find_invalid(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice):
    """(row, reason) of the first invalid board or roll, or None."""
    cdef Py_ssize_t row = -1
    cdef int code
    _check_shapes(boards, dice)
    with nogil:
        code = _find_invalid(&boards[0, 0], &dice[0, 0], boards.shape[0], &row)
    if code:
        return row, _ERRORS[code]
    return None


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
                    bg_flip(&row[k], &row[k])
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


cdef class Output:
    """A growing native buffer of result boards, 26 bytes a row.

    Its memory comes from ``bg_buf_obtain``: the buffer of an earlier batch
    that has been released, when it is large enough.  ``take`` hands the rows
    over as a buffer numpy can view without a copy.
    """
    cdef bg_rows buf

    def __cinit__(self, Py_ssize_t capacity):
        """Room for ``capacity`` rows to start with (it grows as needed)."""
        capacity = max(capacity, 1)
        self.buf.data = <int8_t *>bg_buf_obtain(<size_t>capacity * 26)
        if self.buf.data == NULL:
            raise MemoryError()
        self.buf.rows = 0
        self.buf.capacity = <Py_ssize_t>(bg_buf_capacity(<char *>self.buf.data) // 26)

    def __dealloc__(self):
        bg_buf_release(self.buf.data)

    @property
    def rows(self):
        """Rows held."""
        return self.buf.rows

    def run(self, const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice,
            int64_t[::1] ends, Py_ssize_t start, Py_ssize_t stop, bint flip):
        """Check rows [start, stop) and append their results, without the GIL.

        ``ends[i]`` gets the buffer's rows after row i's results (offsets[i + 1]
        when the buffer starts empty).  Returns None, or the index of the
        first invalid row (the rows before it are appended).
        """
        cdef Py_ssize_t rc
        if self.buf.data == NULL:
            raise MemoryError()
        rc = _run_checked(&self.buf, boards, dice, ends, start, stop, flip)
        return None if rc == -1 else rc

    def take(self):
        """Hand the rows over as an int8 (rows, 26) buffer, without a copy, or
        None when there are none.

        The memory past the rows is returned to the system (whole pages), and
        the buffer goes back to ``bg_buf_release`` when the returned object
        (and any numpy array viewing it) goes away.  The Output is left
        without memory.
        """
        return _take_rows(&self.buf)


cdef object _take_rows(bg_rows *r):
    cdef cvarray arr
    if r.rows == 0:
        return None
    bg_buf_trim(<char *>r.data, r.rows * 26)
    arr = cvarray(shape=(r.rows, 26), itemsize=1, format="b", mode="c", allocate_buffer=False)
    arr.data = <char *>r.data
    arr.callback_free_data = bg_buf_release
    r.data = NULL
    r.capacity = 0
    r.rows = 0
    return arr


def count_rows(const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice,
               int64_t[::1] counts, Py_ssize_t start, Py_ssize_t stop):
    """Check rows [start, stop) and write their numbers of results into
    ``counts``, without the GIL.  Returns None, or the first invalid row."""
    cdef Py_ssize_t rc = _run_checked(NULL, boards, dice, counts, start, stop, False)
    return None if rc == -1 else rc


# --- working memory of a thread, kept between calls -------------------------

ctypedef struct bg_kit:
    bg_movegen *g          # a generator of its own
    bg_board *scratch      # BG_MAX_RESULTS boards, where counted results go
    bg_rows staging        # results waiting for their place (batches over threads)


cdef enum:
    _KEPT = 16             # kits, and idle pool threads, kept at most


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
#: 480 KB with pieces of 256 rows) allocated per call cost a page fault per
#: 4 KiB each time, because the allocator hands freed blocks of that size
#: back to the system.
cdef bg_stack _kits

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


cdef bg_kit *_kit_take() noexcept:
    """A kept kit, or a new one; NULL when out of memory.  GIL held."""
    cdef bg_kit *kit = <bg_kit *>_unkeep(&_kits)
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


cdef void _kit_give(bg_kit *kit) noexcept:
    """Keep ``kit`` for a later call (or free it).  GIL held."""
    if kit == NULL:
        return
    _kit_empty(kit)
    if not _keep(&_kits, kit):
        _kit_free(kit)


cdef void _kits_forget() noexcept:
    """Free every kept kit.  GIL held."""
    while _kits.n:
        _kit_free(<bg_kit *>_unkeep(&_kits))


cdef Py_ssize_t _run_checked(bg_rows *out, const int8_t[:, ::1] boards, const uint8_t[:, ::1] dice,
                             int64_t[::1] counts, Py_ssize_t start, Py_ssize_t stop, bint flip) except -3:
    """``_run_with_kit`` over rows [start, stop) of arrays checked for shape
    and range.  Returns -1 or the first invalid row."""
    _check_shapes(boards, dice)
    if not 0 <= start <= stop <= min(boards.shape[0], counts.shape[0]):
        raise IndexError("rows out of range")
    if start == stop:
        return -1
    return _run_with_kit(out, &boards[0, 0], &dice[0, 0], &counts[0], start, stop, flip)


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


cdef struct bg_pool_thread


ctypedef struct bg_worker:
    bg_kit *kit            # its generator, scratch and staging (results waiting for their place)
    bg_staged *staged      # the staged parts, in order
    Py_ssize_t first       # staged[first:count] are not placed yet
    Py_ssize_t count
    Py_ssize_t capacity    # of staged (grown as needed)
    void *job              # the bg_batch it works for
    bg_pool_thread *thread  # the pool's native thread that runs it (NULL: the caller's)


cdef struct bg_pool_thread:
    PyThread_type_lock go    # released to hand the thread a worker to run (or to end it)
    PyThread_type_lock done  # released by the thread when that worker's share is done
    bg_worker *worker        # what it runs next; NULL: end the thread
    volatile int finished    # set when that worker's share is done (bg_flag_get/set)
    bg_kit *kit              # its working memory, kept as long as the thread
    unsigned long epoch      # _pool_epoch when it was started


ctypedef struct bg_batch:
    const int8_t *boards
    const uint8_t *dice
    int64_t *counts        # per row: its number of results or, when the results are
                           # kept, where they end in the result (offsets[1:])
    Py_ssize_t n, npieces, next_piece, bad_row
    Py_ssize_t piece_rows  # rows of each of the first ``big`` pieces
    Py_ssize_t big         # pieces of piece_rows rows; the rest are a quarter of that
    volatile Py_ssize_t known  # pieces whose offsets are known (bg_known_get/set)
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
    if bg_known_get(&job.known) >= p:
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
                    bg_copy_out(<char *>job.result.data + 26 * off, <char *>staging.data + 26 * before, 26 * written)
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
    bg_known_set(&job.known, known)  # after the offsets it makes known
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
    cdef Py_ssize_t known = bg_known_get(&job.known), off, size, start, stop
    cdef bg_staged *part
    while w.first < w.count and w.staged[w.first].piece < known:
        part = &w.staged[w.first]
        off = job.offsets[part.piece] + part.skip
        size = job.sizes[part.piece] - part.skip
        if off + size > job.result.capacity:
            break  # left for Batch.finish, which grows the result
        bg_copy_out(<char *>job.result.data + 26 * off, <char *>w.kit.staging.data + 26 * part.at, 26 * size)
        if part.unplaced:
            start = _piece_start(job, part.piece, &stop)
            _to_ends(job.counts, start, stop, off)
        w.first += 1
    if w.count and w.first == w.count:  # (staging holds rows only of listed parts)
        w.first = w.count = 0
        w.kit.staging.rows = 0


# --- the pool of native threads, kept between batches ------------------------
#
# Starting a native thread cost the calling thread 65-85 µs here (with the GIL
# held), and the new thread began work 100-140 µs after the batch did: as much
# as 2% of a 42,000-row batch's time over two threads.  A kept thread waits on
# its ``go`` lock instead and starts work 15-55 µs after it is released (the
# time an idle virtual CPU takes to wake).  Taken and given back with the GIL
# held, which guards the stack of idle threads.

cdef bg_stack _idle       # idle threads; more than _KEPT end after their batch

# Raised in a forked child: threads of an earlier epoch are the parent's, and
# do not exist in the child.
cdef unsigned long _pool_epoch = 0
POOL_KEPT = _KEPT


cdef void _pool_thread_free(bg_pool_thread *t) noexcept nogil:
    if t.go != NULL:
        bg_free_lock(t.go)
    if t.done != NULL:
        bg_free_lock(t.done)
    _kit_free(t.kit)
    free(t)


cdef void _pool_main(void *arg) noexcept nogil:
    """A kept thread: run each worker it is handed, until handed NULL."""
    cdef bg_pool_thread *t = <bg_pool_thread *>arg
    cdef bg_worker *w
    while True:
        PyThread_acquire_lock(t.go, WAIT_LOCK)
        w = t.worker
        if w == NULL:
            break
        _batch_work(<bg_batch *>w.job, w)
        bg_flag_set(&t.finished)
        PyThread_release_lock(t.done)
    _pool_thread_free(t)


cdef bg_pool_thread *_pool_take() noexcept:
    """An idle kept thread, or a new one; NULL when none can be had.  GIL held:
    CPython 3.10 and 3.11 read the thread state of the GIL's holder when
    starting a thread."""
    cdef bg_pool_thread *t = <bg_pool_thread *>_unkeep(&_idle)
    if t != NULL:
        return t
    t = <bg_pool_thread *>calloc(1, sizeof(bg_pool_thread))
    if t == NULL:
        return NULL
    t.go = PyThread_allocate_lock()
    t.done = PyThread_allocate_lock()
    t.kit = _kit_take()
    if t.go == NULL or t.done == NULL or t.kit == NULL:
        _pool_thread_free(t)
        return NULL
    # Both held: the thread waits for go, its caller for done.
    PyThread_acquire_lock(t.go, WAIT_LOCK)
    PyThread_acquire_lock(t.done, WAIT_LOCK)
    if PyThread_start_new_thread(_pool_main, t) == PYTHREAD_INVALID_THREAD_ID:
        _pool_thread_free(t)
        return NULL
    t.epoch = _pool_epoch
    return t


cdef inline bint _pool_alive(bg_pool_thread *t) noexcept nogil:
    """Whether t's thread runs in this process (not only in a parent it was
    forked from)."""
    return t != NULL and t.epoch == _pool_epoch


cdef void _pool_end(bg_pool_thread *t) noexcept:
    """Let an idle thread end (it frees itself)."""
    t.worker = NULL
    PyThread_release_lock(t.go)


cdef void _pool_give(bg_pool_thread *t) noexcept:
    """Keep an idle thread for a later batch, or end it.  GIL held."""
    if t == NULL:
        return
    if not _pool_alive(t):
        _pool_thread_free(t)  # taken by a batch before a fork: its thread is the parent's
        return
    _kit_empty(t.kit)
    if not _keep(&_idle, t):
        _pool_end(t)


cdef void _pool_forget() noexcept:
    """End every idle thread.  GIL held."""
    while _idle.n:
        _pool_end(<bg_pool_thread *>_unkeep(&_idle))


def _forget_pool_in_child():
    """A forked child has none of its parent's threads: drop the records of the
    idle ones (their kits' memory is freed; the locks go with them), and raise
    the epoch, so that threads held by batches at the fork are neither run
    (the batch's other threads take their pieces) nor kept when given back."""
    global _pool_epoch
    _pool_epoch += 1
    while _idle.n:
        _pool_thread_free(<bg_pool_thread *>_unkeep(&_idle))


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


cdef void _batch_start(bg_batch *job) noexcept nogil:
    """Hand workers 1.. to their pool threads."""
    cdef int i
    cdef bg_worker *w
    for i in range(1, job.nworkers):
        w = &job.workers[i]
        if _pool_alive(w.thread):
            w.thread.worker = w
            w.thread.finished = 0
            PyThread_release_lock(w.thread.go)


cdef enum:
    # Pauses the caller spins for the other threads to finish their last
    # pieces before it sleeps: a sleeping thread took 30-60 µs to wake here.
    # 4096 pauses took 62 µs on this machine's Xeon (so this is about 250 µs);
    # CPUs with cheaper pauses, or ARM's yield, spin for less.
    _JOIN_SPINS = 16384


cdef void _batch_join(bg_batch *job) noexcept nogil:
    """Wait until every pool thread has run its worker."""
    cdef int i, spins
    cdef bg_worker *w
    for i in range(1, job.nworkers):
        w = &job.workers[i]
        if _pool_alive(w.thread):
            spins = 0
            while not bg_flag_get(&w.thread.finished) and spins < _JOIN_SPINS:
                bg_pause()
                spins += 1
            PyThread_acquire_lock(w.thread.done, WAIT_LOCK)  # released by the thread at the end


cdef class Batch:
    """The rows of one batch, shared by several native threads.

    Threads take pieces of consecutive rows in turn (positions differ in cost,
    so fixed shares would leave one waiting); the last pieces are smaller, so
    that the threads run out of work together.  The threads besides the
    caller's come from the pool (taken when the batch is made, given back when
    it goes).  A thread generates a piece into
    its own small staging buffer until the sizes of all earlier pieces are
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
                  int threads, Py_ssize_t piece_rows, bint flip, bint store, Py_ssize_t reserve_rows):
        cdef Py_ssize_t i
        cdef bg_batch *job = &self.job
        _check_shapes(boards, dice)
        job.n = boards.shape[0]
        if counts.shape[0] != job.n or threads < 1 or piece_rows < 1:
            raise ValueError("inconsistent batch")
        self.keep = (boards, dice, counts)
        job.boards = &boards[0, 0] if job.n else NULL
        job.dice = &dice[0, 0] if job.n else NULL
        job.counts = &counts[0] if job.n else NULL
        # After the first ``big`` pieces, the rest (``threads`` pieces' worth
        # of rows, plus n % piece_rows) go in pieces a quarter the size (at
        # least one row), so that threads run out of work at about the same
        # time (with whole pieces, one waited 100 µs for the other's last).
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
            job.workers[i].thread = _pool_take()
            if job.workers[i].thread != NULL:
                job.workers[i].kit = job.workers[i].thread.kit
        for i in range(job.npieces + 1):
            job.sizes[i] = -1
        job.offsets[0] = 0
        if store:
            job.result.data = <int8_t *>bg_buf_obtain(<size_t>max(reserve_rows, 1) * 26)
            if job.result.data == NULL:
                raise MemoryError()
            job.result.capacity = <Py_ssize_t>(bg_buf_capacity(<char *>job.result.data) // 26)

    def __dealloc__(self):
        cdef int i
        cdef bg_batch *job = &self.job
        if job.workers != NULL:
            for i in range(job.nworkers):
                if job.workers[i].thread != NULL:
                    _pool_give(job.workers[i].thread)  # its kit goes with it
                else:
                    _kit_give(job.workers[i].kit)
                free(job.workers[i].staged)
            free(job.workers)
        bg_buf_release(job.result.data)
        free(job.sizes)
        free(job.offsets)
        if job.lock != NULL:
            PyThread_free_lock(job.lock)

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
        with nogil:
            _batch_start(&self.job)
            _batch_work(&self.job, &self.job.workers[0])
            _batch_join(&self.job)
        self.running = False
        if self.job.nomem:
            raise MemoryError()

    def finish(self):
        """After ``run``: place what is left and hand the result over as an int8
        (rows, 26) buffer (None when empty)."""
        cdef Py_ssize_t total
        cdef int i
        cdef bg_batch *job = &self.job
        if job.nomem:
            raise MemoryError()
        if not job.store or self.finished:
            raise RuntimeError("the batch keeps no results, or they were handed over already")
        if not self.ran or self.running or job.cancel or job.known != job.npieces:
            raise RuntimeError("the batch was not completed")
        self.finished = True
        total = job.offsets[job.npieces]
        if total > job.result.capacity:
            # Every piece placed so far lies within the old capacity.
            job.result.rows = job.result.capacity
            if _rows_grow(&job.result, total) < 0:
                raise MemoryError()
        for i in range(job.nworkers):
            _batch_place(job, &job.workers[i])  # every place is known now, and fits
        job.result.rows = total
        return _take_rows(&job.result)


def release_buffers():
    """Free the result buffer and the threads' working memory kept for reuse,
    and end the idle pool threads."""
    bg_buf_forget()
    _kits_forget()
    _pool_forget()


# --- perft ---------------------------------------------------------------

cdef int _perft(bg_movegen *g, bg_board **bufs, const bg_board *b, int depth,
               long long *plain, long long *weighted) noexcept nogil:
    """Add the leaf counts below b (depth plies) to plain and weighted; 0 or -1."""
    cdef long long p, w, sub_p, sub_w
    cdef int d1, d2, n, k
    cdef bg_board child
    cdef bg_board *out = bufs[depth]
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            n = bg_count(g, b, d1, d2, out) if depth == 1 else bg_generate_boards(g, b, d1, d2, out, BG_MAX_RESULTS)
            if n < 0:
                return -1
            if depth == 1:
                p = n
                w = n
            else:
                p = 0
                w = 0
                for k in range(n):
                    if bg_checkers(&out[k], 0) == 0:
                        p += 1  # the game is over: a leaf
                        w += 1
                        continue
                    bg_flip(&out[k], &child)
                    sub_p = 0
                    sub_w = 0
                    if _perft(g, bufs, &child, depth - 1, &sub_p, &sub_w) < 0:
                        return -1
                    p += sub_p
                    w += sub_w
            plain[0] += p
            weighted[0] += w if d1 == d2 else 2 * w
    return 0


def perft(bytes board, int depth):
    """(unweighted, weighted) leaf counts ``depth`` plies below a valid ``board``.

    See :func:`bgcore.perft`; both counts come from one walk of the tree.
    """
    cdef bg_board b
    cdef int i, rc = 0
    cdef long long plain = 0, weighted = 0
    _load(board, &b)
    if depth < 0:
        raise ValueError(f"depth must be >= 0, not {depth}")
    if depth > 12:
        raise ValueError(f"depth {depth} is out of reach (at most 12)")
    if bg_validate(&b) < 0:
        raise ValueError(validate(board))
    if depth == 0 or bg_checkers(&b, 0) == 0 or bg_checkers(&b, 1) == 0:
        return 1, 1
    cdef bg_movegen *g = bg_movegen_new()
    cdef bg_board *bufs[13]
    cdef bint ok = g != NULL
    for i in range(depth + 1):
        bufs[i] = <bg_board *>malloc(BG_MAX_RESULTS * sizeof(bg_board))
        ok = ok and bufs[i] != NULL
    if not ok:
        for i in range(depth + 1):
            free(bufs[i])
        bg_movegen_free(g)
        raise MemoryError()
    with nogil:
        rc = _perft(g, bufs, &b, depth, &plain, &weighted)
    for i in range(depth + 1):
        free(bufs[i])
    bg_movegen_free(g)
    if rc < 0:
        raise ValueError("perft met a board the generator rejects")
    return plain, weighted
