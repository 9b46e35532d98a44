# cython: language_level=3
"""C-level API of bgcore's move generator.

Other Cython extensions can ``cimport`` this file (see ``bgcore.get_include()``)
and call the generator without the GIL, in the way numpy.random's ``bitgen_t``
is shared::

    from bgcore._core cimport bg_board, bg_result, bg_movegen, bg_generate

The board is the 26-count array that wildbg and bgsage share, seen from the
player on roll: ``pt[1]`` .. ``pt[24]`` are the points in that player's
numbering (positive: the player's checkers, negative: the opponent's),
``pt[25]`` is the player's bar (>= 0) and ``pt[0]`` the opponent's bar (<= 0).
Borne-off checkers are not stored: they follow from the side's checker total.
"""

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    BG_NPOINTS = 26        # slots of a board: opponent's bar, 24 points, own bar
    BG_BAR = 25            # the player on roll's bar (a move's source)
    BG_OFF = 0             # a move's destination when bearing off
    BG_MAX_CHECKERS = 15   # per side
    BG_MAX_RESULTS = 4096  # capacity that holds every legal position's results
    BG_TABLE_BITS = 13
    BG_TABLE_MIN_BITS = 7  # each generation starts with a 128-slot table
    BG_TABLE_SIZE = 8192   # 1 << BG_TABLE_BITS, at least twice BG_MAX_RESULTS

# Error codes returned (negated) by bg_generate and bg_validate.
cdef enum:
    BG_OK = 0
    BG_ERR_BAD_DICE = 1
    BG_ERR_COUNT = 2       # a slot outside -15..15, or a bar of the wrong sign
    BG_ERR_TOO_MANY = 3    # more than 15 checkers on one side
    BG_ERR_OVERFLOW = 4    # the caller's buffer is too small

ctypedef struct bg_board:
    int8_t pt[26]

ctypedef struct bg_move:
    uint8_t nsteps         # 0 (a lost turn) to 4
    uint8_t hits           # bit i set when step i hits a blot
    uint8_t src[4]         # 25 = bar
    uint8_t dst[4]         # 0 = off

ctypedef struct bg_result:
    bg_board board         # the position after the move, mover still on roll
    bg_move move           # one canonical way to reach it

ctypedef struct bg_slot:
    uint64_t key
    uint32_t stamp
    uint32_t index

ctypedef struct bg_movegen:
    # Scratch state of one generator; one per thread. Caller-owned: allocate
    # with bg_movegen_new() (or embed it) and call bg_movegen_init() once.
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
    int doubles
    int second_order       # non-doubles: playing the lower die first
    int high_die
    int ndice
    int dice[4]
    uint32_t blocked       # bit p: the opponent holds point p
    bg_move path

cdef void bg_movegen_init(bg_movegen *g) noexcept nogil
cdef bg_movegen *bg_movegen_new() noexcept nogil
cdef void bg_movegen_free(bg_movegen *g) noexcept nogil

cdef int bg_validate(const bg_board *b) noexcept nogil
cdef void bg_flip(const bg_board *b, bg_board *out) noexcept nogil
cdef int bg_checkers(const bg_board *b, int side) noexcept nogil
cdef uint64_t bg_hash(const bg_board *b) noexcept nogil

# Writes every distinct legal result of rolling d1-d2 on board b into out
# (capacity BG_MAX_RESULTS always suffices) and returns their number, or a
# negated error code.  A lost turn gives one result, b itself, with an empty
# move.  The board is not validated here: call bg_validate first on
# untrusted input.
cdef int bg_generate(bg_movegen *g, const bg_board *b, int d1, int d2,
                     bg_result *out, int capacity) noexcept nogil

# The same without the moves: every distinct result's board, written straight
# into ``boards`` (at most ``capacity`` of them, else -BG_ERR_OVERFLOW).  The
# fast path for callers that only need the positions.
cdef int bg_generate_boards(bg_movegen *g, const bg_board *b, int d1, int d2,
                            bg_board *boards, int capacity) noexcept nogil

# The number of distinct results alone (or a negated error code).  ``scratch``
# (BG_MAX_RESULTS boards) holds what the generator must compare; most results
# are never written, which makes this faster than bg_generate_boards.
cdef int bg_count(bg_movegen *g, const bg_board *b, int d1, int d2, bg_board *scratch) noexcept nogil
