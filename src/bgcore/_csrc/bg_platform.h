/* Portable low-level helpers of bgcore's native modules: board masks and
   flips with SSE2 where the compiler targets it (every x86-64 build), a
   non-temporal copy, bit scans, a spin-wait hint and atomics for flags
   shared between threads.
   Header-only: every helper is static inline, so each module that includes
   it gets them inlined into its hot loops. */
#ifndef BG_PLATFORM_H
#define BG_PLATFORM_H

#include <stddef.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define BG_HAVE_SSE2 1
#include <emmintrin.h>
#else
#define BG_HAVE_SSE2 0
#endif

#if defined(_MSC_VER)
#include <intrin.h>
#define BG_INLINE static __inline
#else
#define BG_INLINE static inline
#endif

/* memcpy(dst, src, n) with non-temporal stores (SSE2), which write whole
   lines to memory without reading them first and without keeping them in
   the cache; elsewhere, and for a copy too short to have whole lines,
   memcpy.  The stores are fenced before it returns, so that a flag or lock
   set after it publishes them to other threads as plain stores would be. */
BG_INLINE void bg_copy_nontemporal(void *dst, const void *src, size_t n) {
#if BG_HAVE_SSE2
    char *d = (char *)dst;
    const char *s = (const char *)src;
    size_t head = (16 - ((size_t)d & 15)) & 15;
    if (n < 256) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; d += 64, s += 64, n -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    memcpy(d, s, n);
    _mm_sfence();
#else
    memcpy(dst, src, n);
#endif
}

/* Bit p of *mine: pt[p] > 0; of *blocked: pt[p] <= -2 (p = 0..25). */
BG_INLINE void bg_masks(const signed char *pt, unsigned int *mine, unsigned int *blocked) {
#if BG_HAVE_SSE2
    __m128i lo = _mm_loadu_si128((const __m128i *)pt);
    __m128i hi = _mm_loadu_si128((const __m128i *)(pt + 10));
    __m128i zero = _mm_setzero_si128(), minus1 = _mm_set1_epi8(-1);
    *mine = (unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(lo, zero))
          | ((unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8(hi, zero)) << 10);
    *blocked = (unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(lo, minus1))
             | ((unsigned int)_mm_movemask_epi8(_mm_cmplt_epi8(hi, minus1)) << 10);
#else
    unsigned int m = 0, b = 0;
    int p;
    for (p = 0; p < 26; p++) {
        m |= (unsigned int)(pt[p] > 0) << p;
        b |= (unsigned int)(pt[p] <= -2) << p;
    }
    *mine = m;
    *blocked = b;
#endif
}

/* 1 when every slot is in -15..15, pt[25] >= 0, pt[0] <= 0 and neither side
   has more than `checkers` checkers: a board that needs no closer look.  0
   says nothing (a scalar pass finds what is wrong, if anything): always so
   without SSE2. */
BG_INLINE int bg_board_plainly_valid(const signed char *pt, int checkers) {
#if BG_HAVE_SSE2
    __m128i lo = _mm_loadu_si128((const __m128i *)pt);
    /* Slots 16..25: the high load's first 6 bytes (slots 10..15) are in lo. */
    __m128i hi = _mm_srli_si128(_mm_loadu_si128((const __m128i *)(pt + 10)), 6);
    __m128i zero = _mm_setzero_si128();
    /* In range when v + 15 is 0..30 as an unsigned byte. */
    __m128i widest = _mm_max_epu8(_mm_add_epi8(lo, _mm_set1_epi8(15)), _mm_add_epi8(hi, _mm_set1_epi8(15)));
    /* Own checkers (the positive parts) and the opponent's (positive part
       minus the value), slots 0..15 and 16..25 added bytewise: at most 30
       each when in range, so no byte overflows. */
    __m128i mine = _mm_add_epi8(_mm_and_si128(lo, _mm_cmpgt_epi8(lo, zero)),
                                _mm_and_si128(hi, _mm_cmpgt_epi8(hi, zero)));
    __m128i theirs = _mm_sub_epi8(mine, _mm_add_epi8(lo, hi));
    __m128i sums;
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(widest, _mm_set1_epi8(30)), zero)) != 0xFFFF
            || pt[25] < 0 || pt[0] > 0)
        return 0;
    /* Each SAD leaves two 64-bit partial sums: add the halves, then mine's
       total is in 32-bit lane 0 and the opponent's in lane 2. */
    sums = _mm_add_epi64(_mm_unpacklo_epi64(_mm_sad_epu8(mine, zero), _mm_sad_epu8(theirs, zero)),
                         _mm_unpackhi_epi64(_mm_sad_epu8(mine, zero), _mm_sad_epu8(theirs, zero)));
    return (_mm_movemask_epi8(_mm_cmpgt_epi32(sums, _mm_set1_epi32(checkers))) & 0x0F0F) == 0;
#else
    (void)pt;
    (void)checkers;
    return 0;
#endif
}

/* Bit p: pt[p] == -1, a blot of the opponent (p = 0..25). */
BG_INLINE unsigned int bg_blots(const signed char *pt) {
#if BG_HAVE_SSE2
    __m128i minus1 = _mm_set1_epi8(-1);
    return (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)pt), minus1))
         | ((unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(pt + 10)), minus1)) << 10);
#else
    unsigned int m = 0;
    int p;
    for (p = 0; p < 26; p++)
        m |= (unsigned int)(pt[p] == -1) << p;
    return m;
#endif
}

/* Board b seen from the other side: out[i] = -b[25 - i] (out may be b). */
#if BG_HAVE_SSE2
BG_INLINE __m128i bg_reverse16(__m128i x) {
    x = _mm_shuffle_epi32(x, 0x1B);
    x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xB1), 0xB1);
    return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
}
#endif
BG_INLINE void bg_flip_pt(const signed char *b, signed char *out) {
#if BG_HAVE_SSE2
    /* Both loads happen before either store, so out may alias b. */
    __m128i lo = _mm_loadu_si128((const __m128i *)b);
    __m128i hi = _mm_loadu_si128((const __m128i *)(b + 10));
    __m128i zero = _mm_setzero_si128();
    _mm_storeu_si128((__m128i *)out, _mm_sub_epi8(zero, bg_reverse16(hi)));
    _mm_storeu_si128((__m128i *)(out + 10), _mm_sub_epi8(zero, bg_reverse16(lo)));
#else
    signed char tmp[26];
    int i;
    memcpy(tmp, b, 26);
    for (i = 0; i < 26; i++)
        out[i] = (signed char)-tmp[25 - i];
#endif
}

/* A board held in registers (SSE2: two overlapping 16-byte halves), to
   write many copies of it: the copies' byte stores cannot make the compiler
   read the board again. */
#if BG_HAVE_SSE2
typedef struct { __m128i lo, hi; } bg_board_regs;
BG_INLINE bg_board_regs bg_board_load(const signed char *pt) {
    bg_board_regs r;
    r.lo = _mm_loadu_si128((const __m128i *)pt);
    r.hi = _mm_loadu_si128((const __m128i *)(pt + 10));
    return r;
}
BG_INLINE void bg_board_store(signed char *out, bg_board_regs r) {
    _mm_storeu_si128((__m128i *)(out + 10), r.hi);
    _mm_storeu_si128((__m128i *)out, r.lo);
}
#else
typedef struct { signed char pt[26]; } bg_board_regs;
BG_INLINE bg_board_regs bg_board_load(const signed char *pt) {
    bg_board_regs r;
    memcpy(r.pt, pt, 26);
    return r;
}
BG_INLINE void bg_board_store(signed char *out, bg_board_regs r) { memcpy(out, r.pt, 26); }
#endif

/* The index of the highest set bit of x (x != 0). */
#if defined(_MSC_VER)
BG_INLINE int bg_top_bit(unsigned long x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
#else
/* clz ^ 31 rather than 31 - clz: GCC turns the first into one bsr. */
BG_INLINE int bg_top_bit(unsigned long x) { return __builtin_clz((unsigned int)x) ^ 31; }
#endif

/* The number of set bits of x: the instruction where the build targets it;
   on other x86 builds (baseline x86-64 has no POPCNT, and GCC would call
   libgcc for __builtin_popcount) the instruction when bg_popcount_init()
   found it at run time, else a branch-free bit count. */
#if defined(__POPCNT__) || defined(__aarch64__)
BG_INLINE void bg_popcount_init(void) {}
BG_INLINE int bg_popcount(unsigned int x) { return __builtin_popcount(x); }
#else
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define BG_POPCNT_AT_RUN_TIME 1
static int bg_have_popcnt;
BG_INLINE void bg_popcount_init(void) {
    __builtin_cpu_init();
    bg_have_popcnt = __builtin_cpu_supports("popcnt");
}
#else
BG_INLINE void bg_popcount_init(void) {}
#endif
BG_INLINE int bg_popcount(unsigned int x) {
#ifdef BG_POPCNT_AT_RUN_TIME
    if (bg_have_popcnt) {
        unsigned int n;
        __asm__("popcnt %1, %0" : "=r"(n) : "r"(x) : "cc");
        return (int)n;
    }
#endif
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}
#endif

/* A hint that the thread is spinning (pause on x86, yield on ARM). */
#if BG_HAVE_SSE2
#define bg_pause() _mm_pause()
#elif defined(_M_ARM64)
#define bg_pause() __yield()
#elif defined(__aarch64__) || defined(__arm__)
#define bg_pause() __asm__ __volatile__("yield")
#else
#define bg_pause() ((void)0)
#endif

/* Flags set once by one thread and polled by others without a lock are read
   and written atomically (relaxed).  Counters published after the data they
   make visible are stored with release and loaded with acquire semantics;
   a state two threads race to change is changed by compare-and-swap.
   MSVC: a volatile access orders memory only under /volatile:ms, the default
   on x86 and x64 but not on ARM64, where an explicit fence is needed. */
#if defined(_MSC_VER)
#if defined(_M_ARM64)
#define BG_HW_FENCE() __dmb(_ARM64_BARRIER_ISH)
#else
#define BG_HW_FENCE() ((void)0)
#endif
BG_INLINE int bg_flag_get(volatile int *p) { return *p; }
BG_INLINE void bg_flag_set(volatile int *p) { *p = 1; }
BG_INLINE void bg_flag_clear(volatile int *p) { *p = 0; }
BG_INLINE ptrdiff_t bg_load_acquire(volatile ptrdiff_t *p) {
    ptrdiff_t v = *p;
    BG_HW_FENCE();
    _ReadWriteBarrier();
    return v;
}
BG_INLINE void bg_store_release(volatile ptrdiff_t *p, ptrdiff_t v) {
    _ReadWriteBarrier();
    BG_HW_FENCE();
    *p = v;
}
/* Set *p to desired if it holds expected (a full barrier); 1 when it did. */
BG_INLINE int bg_cas(volatile ptrdiff_t *p, ptrdiff_t expected, ptrdiff_t desired) {
#if defined(_WIN64)
    return _InterlockedCompareExchange64((volatile __int64 *)p, desired, expected) == expected;
#else
    return _InterlockedCompareExchange((volatile long *)p, desired, expected) == expected;
#endif
}
#else
BG_INLINE int bg_flag_get(volatile int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
BG_INLINE void bg_flag_set(volatile int *p) { __atomic_store_n(p, 1, __ATOMIC_RELAXED); }
BG_INLINE void bg_flag_clear(volatile int *p) { __atomic_store_n(p, 0, __ATOMIC_RELAXED); }
BG_INLINE ptrdiff_t bg_load_acquire(volatile ptrdiff_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
BG_INLINE void bg_store_release(volatile ptrdiff_t *p, ptrdiff_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
BG_INLINE int bg_cas(volatile ptrdiff_t *p, ptrdiff_t expected, ptrdiff_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#endif

#endif /* BG_PLATFORM_H */
