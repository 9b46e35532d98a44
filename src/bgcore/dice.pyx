# cython: language_level=3
"""Seeded dice: reproducible streams of unbiased rolls, in C.

``Dice(seed, stream)`` is the Python face; ``dice.pxd`` is the C-level API
(``bg_dice`` and ``bg_dice_*``) for Cython code that rolls without Python in
the loop, such as native rollouts that give game i of a rollout stream i.

Compatibility promise
---------------------
The same seed and stream give the same rolls, dice and 64-bit draws on every
platform and in every release of bgcore.  The algorithm below is part of the
API: it will never change under these names (a different one would come
under new names), and the tests check it against fixed sequences and against
an independent pure-Python implementation of this description.

The algorithm (all arithmetic on unsigned 64-bit words, modulo 2**64)
--------------------------------------------------------------------
* ``mix(z)``, SplitMix64's output function:
  ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31)``,
  and ``G = 0x9E3779B97F4A7C15``.
* Seeding ``(seed, stream)``: ``x = seed ^ mix(stream + G)``, then the
  xoshiro256** state is ``s[k] = mix(x + (k + 1) * G)`` for k = 0..3 (the
  first four outputs of SplitMix64 started at ``x``).  The four words are
  distinct, so the state is never all zero; for one seed, distinct streams
  start from distinct states.
* Draws: xoshiro256** (Blackman and Vigna, 2018): ``result = rotl(s[1] * 5,
  7) * 9; t = s[1] << 17; s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2];
  s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)``.
* A value in [0, n), Lemire's method: draw x, let ``m = x * n`` as a
  128-bit product; while the low 64 bits of m are below ``2**64 mod n``,
  draw x again; the value is the high 64 bits of m.  Every value has
  probability exactly 1/n (2**64 mod n is 16 for n = 36 and 4 for n = 6).
* A roll: ``v`` = a value in [0, 36), ``die1 = v // 6 + 1``,
  ``die2 = v % 6 + 1`` (the 36 ordered rolls equally likely).  A die: a
  value in [0, 6), plus 1.  ``rolls(n)`` gives the same rolls as n calls of
  ``roll()``, and rolls and dice draw from one stream in the order made.
"""

import operator
import secrets

import numpy as np

from libc.stdint cimport uint8_t, uint32_t, uint64_t

from bgcore.errors import InvalidSeedError

cdef extern from "bg_dice.h":
    uint64_t BG_SPLITMIX_GAMMA
    uint64_t bg_splitmix_mix(uint64_t z) noexcept nogil
    uint64_t bg_splitmix_next(uint64_t *x) noexcept nogil
    uint64_t bg_xoshiro_next(uint64_t *s) noexcept nogil
    uint32_t bg_xoshiro_below(uint64_t *s, uint32_t n) noexcept nogil

__all__ = ["Dice"]

#: What ``Dice.getstate()`` gives: (seed, stream, the four xoshiro256** words).
DiceState = tuple[int, int, tuple[int, int, int, int]]


# The C-level API (dice.pxd).

cdef void bg_dice_seed(bg_dice *d, uint64_t seed, uint64_t stream) noexcept nogil:
    cdef uint64_t x = seed ^ bg_splitmix_mix(stream + BG_SPLITMIX_GAMMA)
    cdef int k
    for k in range(4):
        d.s[k] = bg_splitmix_next(&x)


cdef uint64_t bg_dice_next64(bg_dice *d) noexcept nogil:
    return bg_xoshiro_next(d.s)


cdef uint32_t bg_dice_below(bg_dice *d, uint32_t n) noexcept nogil:
    return bg_xoshiro_below(d.s, n)


cdef void bg_dice_roll(bg_dice *d, int *die1, int *die2) noexcept nogil:
    cdef uint32_t v = bg_xoshiro_below(d.s, 36)
    die1[0] = <int>(v // 6) + 1
    die2[0] = <int>(v % 6) + 1


cdef int bg_dice_die(bg_dice *d) noexcept nogil:
    return <int>bg_xoshiro_below(d.s, 6) + 1


cdef void bg_dice_rolls(bg_dice *d, uint8_t *out, size_t n) noexcept nogil:
    # The state is worked on in a local copy: stores through out (a char
    # pointer, which may alias anything) would otherwise reload it each roll.
    cdef bg_dice local = d[0]
    cdef size_t i
    cdef uint32_t v
    for i in range(n):
        v = bg_xoshiro_below(local.s, 36)
        out[2 * i] = <uint8_t>(v // 6 + 1)
        out[2 * i + 1] = <uint8_t>(v % 6 + 1)
    d[0] = local


# The Python face.

cdef tuple _ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))  # by v = 6 * (die1 - 1) + die2 - 1
cdef object _WORD_MAX = 2**64 - 1
# Above this many rolls, rolls() lets other Python threads run meanwhile.
cdef Py_ssize_t _NOGIL_ROLLS = 1 << 14


def _word(value, str what):
    """``value`` as a Python int in [0, 2**64), or InvalidSeedError / TypeError."""
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    if not 0 <= v <= _WORD_MAX:
        raise InvalidSeedError(f"{what} must be an integer from 0 to 2**64 - 1, not {v}")
    return v


cdef class Dice:
    """Seeded dice: a reproducible stream of unbiased backgammon rolls.

    ``Dice(seed, stream=0)`` starts stream ``stream`` of ``seed`` (each an
    integer from 0 to 2**64 - 1); every (seed, stream) pair is its own
    stream, so a rollout can give game i the stream (seed, i).  With
    ``seed=None`` the seed is drawn from the operating system (``secrets``)
    and can be read back from ``.seed`` to replay the game.

    **Compatibility promise:** the same seed and stream give the same rolls on
    every platform and in every release of bgcore.  The algorithm (SplitMix64
    seeding, xoshiro256**, Lemire's unbiased bounded draw) is described
    exactly in the ``bgcore.dice`` module docstring and checked by the tests
    against fixed sequences and an independent implementation.

    ``roll()`` gives an ordered roll ``(die1, die2)``, each of the 36 with
    probability 1/36 (doubles are ``(k, k)``); ``die()`` one die, for the
    opening roll; ``rolls(n)`` an (n, 2) uint8 array, filled in C, of the
    same rolls as n calls of ``roll()``.  ``getstate()`` / ``setstate()``
    save and restore the position in the stream (a game can take back a roll
    exactly); ``copy()`` and pickling keep it too.

    A Dice is not meant to be shared between threads: give each its own
    (another stream of the same seed, say).
    """

    def __cinit__(self):
        bg_dice_seed(&self.state, 0, 0)   # never an all-zero state, even unseeded

    def __init__(self, seed=None, stream=0):
        if seed is None:
            seed = secrets.randbits(64)
        self._seed = _word(seed, "seed")
        self._stream = _word(stream, "stream")
        bg_dice_seed(&self.state, self._seed, self._stream)

    @property
    def seed(self):
        """The seed this stream started from (drawn from the OS when none was given)."""
        return self._seed

    @property
    def stream(self):
        """The stream number within the seed."""
        return self._stream

    def roll(self):
        """The next roll: a tuple ``(die1, die2)`` of two dice 1-6, in the order rolled."""
        return _ROLLS[bg_xoshiro_below(self.state.s, 36)]

    def die(self):
        """The next single die, 1-6 (the opening roll takes one per player)."""
        return <int>bg_xoshiro_below(self.state.s, 6) + 1

    def rolls(self, Py_ssize_t n):
        """The next ``n`` rolls as a C-contiguous (n, 2) uint8 array (ready for
        ``bgcore.batch``): the same as n calls of ``roll()``."""
        if n < 0:
            raise ValueError(f"the number of rolls cannot be negative ({n})")
        out = np.empty((n, 2), dtype=np.uint8)
        if n == 0:
            return out
        cdef uint8_t[:, ::1] view = out
        cdef uint8_t *p = &view[0, 0]
        cdef bg_dice local = self.state
        if n >= _NOGIL_ROLLS:
            with nogil:
                bg_dice_rolls(&local, p, <size_t>n)
        else:
            bg_dice_rolls(&local, p, <size_t>n)
        self.state = local
        return out

    def getstate(self):
        """``(seed, stream, (s0, s1, s2, s3))``: the seed, the stream and the four
        xoshiro256** words, the exact position in the stream (for ``setstate``)."""
        return (self._seed, self._stream, (self.state.s[0], self.state.s[1], self.state.s[2], self.state.s[3]))

    def setstate(self, state):
        """Go back (or forward) to a position that ``getstate()`` gave, of this or
        another Dice: the next rolls are those that followed it there."""
        try:
            seed, stream, words = state
            words = tuple(words)
        except (TypeError, ValueError):
            raise InvalidSeedError(
                f"a dice state is (seed, stream, (s0, s1, s2, s3)) as getstate() gives it, not {state!r}"
            ) from None
        if len(words) != 4:
            raise InvalidSeedError(f"a dice state has four 64-bit words, not {len(words)}")
        seed = _word(seed, "seed")
        stream = _word(stream, "stream")
        words = [_word(w, "a state word") for w in words]
        if not any(words):
            raise InvalidSeedError("a dice state cannot be all zero")
        self._seed = seed
        self._stream = stream
        for k in range(4):
            self.state.s[k] = words[k]

    def copy(self):
        """An independent Dice at the same position in the same stream."""
        cdef Dice other = Dice.__new__(type(self))
        other.state = self.state
        other._seed = self._seed
        other._stream = self._stream
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (type(self), (self._seed, self._stream), self.getstate())

    def __setstate__(self, state):
        self.setstate(state)

    def __eq__(self, other):
        if not isinstance(other, Dice):
            return NotImplemented
        return self.getstate() == (<Dice>other).getstate()

    def __repr__(self):
        return f"{type(self).__name__}(seed={self._seed}, stream={self._stream})"
