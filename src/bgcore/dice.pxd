# cython: language_level=3
"""bgcore's dice at C level: seeded, reproducible streams of rolls for other
Cython extensions (rollouts that play thousands of games in C, each game
with its own stream), in the spirit of numpy.random's ``bitgen_t``.

``cimport`` it with ``bgcore.get_include()`` on Cython's include path::

    from bgcore.dice cimport bg_dice, bg_dice_seed, bg_dice_roll

    cdef bg_dice d                       # the caller owns the state: 32 bytes
    cdef int die1, die2
    bg_dice_seed(&d, seed, game)         # game i of a rollout: stream i
    bg_dice_roll(&d, &die1, &die2)

Every function runs without the GIL and allocates nothing.  A ``bg_dice``
is used by one thread at a time; give each thread or each game its own.

The algorithm is fixed: the same (seed, stream) gives the same draws on
every platform and in every release of bgcore (see ``bgcore.dice``).
``BG_DICE_API_VERSION`` is raised whenever a name here changes meaning or a
layout changes; names are only ever added within one version.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef enum:
    BG_DICE_API_VERSION = 1

# xoshiro256** state: never all zero once seeded.
ctypedef struct bg_dice:
    uint64_t s[4]

# Set d to the start of stream ``stream`` of ``seed``: every (seed, stream)
# pair is its own stream, and for one seed distinct streams never coincide.
cdef void bg_dice_seed(bg_dice *d, uint64_t seed, uint64_t stream) noexcept nogil
# The next 64-bit output of xoshiro256**.
cdef uint64_t bg_dice_next64(bg_dice *d) noexcept nogil
# A uniform value in [0, n) without bias (Lemire's method), 1 <= n < 2**32.
cdef uint32_t bg_dice_below(bg_dice *d, uint32_t n) noexcept nogil
# A roll of two dice, each 1..6, all 36 ordered rolls equally likely:
# v = bg_dice_below(d, 36), die1 = v / 6 + 1, die2 = v % 6 + 1.
cdef void bg_dice_roll(bg_dice *d, int *die1, int *die2) noexcept nogil
# One die, 1..6 (bg_dice_below(d, 6) + 1): the opening roll, one per player.
cdef int bg_dice_die(bg_dice *d) noexcept nogil
# n rolls into out[0 .. 2n): out[2k], out[2k + 1] are roll k's dice, the same
# rolls as n calls of bg_dice_roll.
cdef void bg_dice_rolls(bg_dice *d, uint8_t *out, size_t n) noexcept nogil


cdef class Dice:
    cdef bg_dice state          # a Cython caller may roll with &dice.state
    cdef uint64_t _seed
    cdef uint64_t _stream
