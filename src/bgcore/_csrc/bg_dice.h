/* The arithmetic of bgcore's dice (dice.pyx, whose docstring states the
   algorithm and the promise that it never changes): SplitMix64's step and
   mixer, xoshiro256**, and the 64 x 32 -> 96-bit product behind Lemire's
   unbiased bounded draw.  Header-only: every helper is static inline.

   The product has three exact implementations that give the same bits: a
   128-bit integer (GCC, Clang), _umul128 (MSVC on x64), and 32-bit halves
   everywhere else (also with BG_DICE_PORTABLE_MUL defined, for testing). */
#ifndef BG_DICE_H
#define BG_DICE_H

#include <stdint.h>

#if defined(_MSC_VER)
#include <intrin.h>
#define BG_DICE_INLINE static __inline
#else
#define BG_DICE_INLINE static inline
#endif

#define BG_SPLITMIX_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* SplitMix64's output function: a bijection of 64-bit words. */
BG_DICE_INLINE uint64_t bg_splitmix_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* One SplitMix64 step: advance *x by the golden gamma, return the mix. */
BG_DICE_INLINE uint64_t bg_splitmix_next(uint64_t *x) {
    *x += BG_SPLITMIX_GAMMA;
    return bg_splitmix_mix(*x);
}

BG_DICE_INLINE uint64_t bg_rotl64(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna, 2018): the next output of state s. */
BG_DICE_INLINE uint64_t bg_xoshiro_next(uint64_t *s) {
    const uint64_t result = bg_rotl64(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bg_rotl64(s[3], 45);
    return result;
}

/* x * n for n < 2**32: the high 64 bits returned, the low 64 in *lo. */
BG_DICE_INLINE uint64_t bg_mul_hi(uint64_t x, uint32_t n, uint64_t *lo) {
#if defined(__SIZEOF_INT128__) && !defined(BG_DICE_PORTABLE_MUL)
    unsigned __int128 m = (unsigned __int128)x * n;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#elif defined(_MSC_VER) && defined(_M_X64) && !defined(BG_DICE_PORTABLE_MUL)
    uint64_t hi;
    *lo = _umul128(x, n, &hi);
    return hi;
#else
    /* x = a * 2**32 + b: x * n = (a * n + (b * n >> 32)) * 2**32 + (b * n mod 2**32),
       and a * n + (b * n >> 32) < 2**64 since a, b, n < 2**32. */
    uint64_t bn = (x & 0xFFFFFFFFu) * n;
    uint64_t mid = (x >> 32) * n + (bn >> 32);
    *lo = x * n;
    return mid >> 32;
#endif
}

/* Lemire's method: a uniform value in [0, n) from xoshiro state s, for
   1 <= n < 2**32.  The high word of x * n for a uniform 64-bit x, drawing
   x again while the low word is below 2**64 mod n (never for a power of
   two; with probability (2**64 mod n) / 2**64 otherwise). */
BG_DICE_INLINE uint32_t bg_xoshiro_below(uint64_t *s, uint32_t n) {
    uint64_t lo;
    uint64_t hi = bg_mul_hi(bg_xoshiro_next(s), n, &lo);
    if (lo < n) {
        const uint64_t threshold = (uint64_t)(0 - (uint64_t)n) % n;
        while (lo < threshold)
            hi = bg_mul_hi(bg_xoshiro_next(s), n, &lo);
    }
    return (uint32_t)hi;
}

#endif
