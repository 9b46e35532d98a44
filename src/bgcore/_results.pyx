# cython: language_level=3
"""The generator's Python face: board checks and their wording, flips, and
the ``Results`` of one roll held in native memory, for ``bgcore.position``.

Every check of a board goes through ``bg_check`` in ``movegen``; every
message about a bad board is worded here (``board_problem``).
"""

from libc.stdint cimport int8_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp

from bgcore.movegen cimport (bg_board, bg_move, bg_result, bg_movegen, bg_movegen_new, bg_check,
                             bg_flip, bg_checkers, bg_hash, bg_generate, BG_MAX_RESULTS,
                             BG_MAX_CHECKERS, BG_BAR, BG_ERR_BAD_DICE, BG_ERR_COUNT, BG_ERR_BAR,
                             BG_ERR_TOO_MANY, BG_ERR_OVERFLOW)

from bgcore.errors import InvalidPositionError

cdef bg_movegen *_GEN = bg_movegen_new()
cdef bg_result *_OUT = <bg_result *>malloc(BG_MAX_RESULTS * sizeof(bg_result))
if _GEN == NULL or _OUT == NULL:
    raise MemoryError("bgcore could not allocate its move generator")


cdef int _load(bytes data, bg_board *b) except -1:
    if len(data) != 26:
        raise ValueError(f"a board has 26 slots, not {len(data)}")
    memcpy(b.pt, <const char *>data, 26)
    return 0


cdef str _describe(const bg_board *b, int code, int slot, object value, int checkers):
    """The words for bg_check's ``code`` about ``b`` (``value``: what the
    caller gave for ``slot``, which ``b`` may hold clamped)."""
    cdef int mine, theirs
    if code == BG_ERR_COUNT:
        return f"slot {slot} holds {value} checkers (at most {BG_MAX_CHECKERS} a side)"
    if code == BG_ERR_BAR and slot == BG_BAR:
        return f"slot 25 is the on-roll player's bar and cannot be negative ({value})"
    if code == BG_ERR_BAR:
        return f"slot 0 is the opponent's bar and cannot be positive ({value})"
    if code == BG_ERR_TOO_MANY:
        mine = bg_checkers(b, 0)
        theirs = bg_checkers(b, 1)
        if mine > checkers:
            return f"the player on roll has {mine} checkers on the board, more than {checkers}"
        return f"the opponent has {theirs} checkers on the board, more than {checkers}"
    return f"invalid board (error {code})"


def board_problem(bytes board, int checkers=BG_MAX_CHECKERS):
    """What is wrong with ``board`` (26 signed bytes) for sides of ``checkers``
    checkers, or None when it is a valid board."""
    cdef bg_board b
    cdef int slot
    _load(board, &b)
    cdef int code = -bg_check(&b, checkers, &slot)
    if code == 0:
        return None
    return _describe(&b, code, slot, b.pt[slot] if slot >= 0 else None, checkers)


def row_problem(bytes board, int die1, int die2):
    """What is wrong with a row of a batch: its board, else its roll (None: nothing)."""
    problem = board_problem(board)
    if problem is None and not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        problem = f"dice must be 1-6, not [{die1}, {die2}]"
    return problem


def check_board(list values, int checkers):
    """The 26 signed bytes of a board given as 26 ints, checked for sides of
    ``checkers`` checkers; :class:`InvalidPositionError` saying what is wrong."""
    cdef bg_board b
    cdef int i, slot, code
    cdef object v
    if not 1 <= checkers <= BG_MAX_CHECKERS:
        raise InvalidPositionError(f"checkers per side must be 1-{BG_MAX_CHECKERS}, not {checkers}")
    if len(values) != 26:
        raise InvalidPositionError(f"a board has 26 slots (0 to 25), not {len(values)}")
    for i in range(26):
        v = values[i]
        # Out-of-range counts are clamped only to be held in a byte: bg_check
        # rejects them all the same, and the message quotes the value given.
        b.pt[i] = <int8_t>(v if -127 <= v <= 127 else (127 if v > 0 else -127))
    code = -bg_check(&b, checkers, &slot)
    if code:
        raise InvalidPositionError(_describe(&b, code, slot, values[slot] if slot >= 0 else None, checkers))
    return (<char *>b.pt)[:26]


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
    """Every distinct legal result of rolling ``die1``-``die2`` on ``board``
    (ValueError for a bad board or roll)."""
    cdef bg_board b
    cdef int n
    _load(board, &b)
    if bg_check(&b, BG_MAX_CHECKERS, NULL) < 0:
        raise ValueError(board_problem(board))
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError(f"dice must be two integers from 1 to 6, not {die1} and {die2}")
    n = bg_generate(_GEN, &b, die1, die2, _OUT, BG_MAX_RESULTS)
    if n < 0:
        raise ValueError(f"the generator failed (error {-n})")
    cdef Results res = Results.__new__(Results)
    res._data = <bg_result *>malloc(n * sizeof(bg_result))
    if res._data == NULL:
        raise MemoryError()
    memcpy(res._data, _OUT, n * sizeof(bg_result))
    res._count = n
    return res
