# cython: language_level=3
"""bgcore's C-level API: the legal-move generator for other Cython extensions.

``cimport`` it with ``bgcore.get_include()`` on Cython's include path (as
numpy.random shares ``bitgen_t``)::

    from bgcore.movegen cimport (bg_board, bg_result, bg_movegen, bg_movegen_new,
                                 bg_movegen_free, bg_generate, BG_MAX_RESULTS)

Every function here runs without the GIL and allocates nothing but the
generator handle.  ``BG_API_VERSION`` is raised whenever a name here changes
meaning or a layout changes; names are only ever added within one version.

Boards (``bg_board``) are the 26-count array that wildbg and bgsage share,
seen from the player on roll: ``pt[1]`` .. ``pt[24]`` are the points in that
player's numbering (positive: the player's checkers, negative: the
opponent's), ``pt[25]`` is the player's bar (>= 0) and ``pt[0]`` the
opponent's bar (<= 0).  Borne-off checkers are not stored: they follow from
the side's checker total.  A ``bg_board`` is exactly 26 bytes with no padding,
so an array of them is a C-contiguous (n, 26) int8 array.

A ``bg_result`` (36 bytes) is the board after a play, the mover still on roll
(``bg_flip`` gives the opponent's view), and one ``bg_move`` reaching it: its
``nsteps`` single-die steps ``src[k] -> dst[k]`` (25: the bar, 0: off) in an
order they can be played in, bit k of ``hits`` set when step k hits a blot.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t

cdef enum:
    BG_API_VERSION = 2     # 1 was the transparent bg_movegen of bgcore 0.1

cdef enum:
    BG_NPOINTS = 26        # slots of a board: opponent's bar, 24 points, own bar
    BG_BAR = 25            # the player on roll's bar (a move's source)
    BG_OFF = 0             # a move's destination when bearing off
    BG_MAX_CHECKERS = 15   # per side
    BG_MAX_RESULTS = 4096  # a capacity that holds every position's results

# Error codes, returned negated.
cdef enum:
    BG_OK = 0
    BG_ERR_BAD_DICE = 1    # a die outside 1..6
    BG_ERR_COUNT = 2       # a slot outside -15..15
    BG_ERR_BAR = 3         # a bar of the wrong sign (pt[25] < 0 or pt[0] > 0)
    BG_ERR_TOO_MANY = 4    # more checkers on one side than it plays with
    BG_ERR_OVERFLOW = 5    # the caller's buffer is too small

ctypedef struct bg_board:
    int8_t pt[26]

ctypedef struct bg_move:
    uint8_t nsteps         # 0 (a lost turn) to 4
    uint8_t hits           # bit k set when step k hits a blot
    uint8_t src[4]         # 25 = bar
    uint8_t dst[4]         # 0 = off

ctypedef struct bg_result:
    bg_board board         # the position after the move, mover still on roll
    bg_move move           # one way to reach it

# The generator's scratch state (about 200 KB), opaque: one per thread.
cdef struct bg_movegen

# A new generator, or NULL when out of memory; free it with bg_movegen_free.
cdef bg_movegen *bg_movegen_new() noexcept nogil
cdef void bg_movegen_free(bg_movegen *g) noexcept nogil

# 0 for a valid board, else a negated error code (BG_ERR_COUNT, BG_ERR_BAR,
# BG_ERR_TOO_MANY).  The generators do not validate: call this first on
# untrusted input.
cdef int bg_validate(const bg_board *b) noexcept nogil
# The same for a side of ``checkers`` (1..15) checkers; ``slot``, when not
# NULL, gets the slot at fault (-1 when the fault is a side's total).
cdef int bg_check(const bg_board *b, int checkers, int *slot) noexcept nogil

# The board seen from the other player (out may be b).
cdef void bg_flip(const bg_board *b, bg_board *out) noexcept nogil
# Checkers on the board, bar included, of side 0 (on roll) or 1.
cdef int bg_checkers(const bg_board *b, int side) noexcept nogil
# A 64-bit key of the board (the generator's own hash), for tables of positions.
cdef uint64_t bg_hash(const bg_board *b) noexcept nogil

# Writes every distinct legal result of rolling d1-d2 on b into out (at most
# capacity; BG_MAX_RESULTS always suffices) and returns their number, or a
# negated error code.  A lost turn gives one result, b itself, with an empty
# move.
cdef int bg_generate(bg_movegen *g, const bg_board *b, int d1, int d2,
                     bg_result *out, int capacity) noexcept nogil

# The same without the moves: every distinct result's board, written straight
# into ``boards``.  The fast path for callers that need only the positions.
cdef int bg_generate_boards(bg_movegen *g, const bg_board *b, int d1, int d2,
                            bg_board *boards, int capacity) noexcept nogil

# The number of distinct results alone (or a negated error code).  ``scratch``
# (BG_MAX_RESULTS boards) holds the results the generator must compare; most
# are never written, which makes this the fastest of the three.
cdef int bg_count(bg_movegen *g, const bg_board *b, int d1, int d2,
                  bg_board *scratch) noexcept nogil
