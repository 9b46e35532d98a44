# cython: language_level=3
"""The generator's Python face: board checks and their wording, flips, the
``Results`` of one roll held in native memory, and the Position and Move
objects (and their hashes) built from them, for ``bgcore.position``.

Every check of a board goes through ``bg_check`` in ``movegen``; every
message about a bad board is worded here (``board_problem``).
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_DECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.bytes cimport PyBytes_FromStringAndSize

from bgcore.movegen cimport (bg_board, bg_move, bg_result, bg_movegen, bg_movegen_new, bg_check,
                             bg_flip, bg_checkers, bg_hash, bg_generate, BG_MAX_RESULTS,
                             BG_MAX_CHECKERS, BG_BAR, BG_ERR_BAD_DICE, BG_ERR_COUNT, BG_ERR_BAR,
                             BG_ERR_TOO_MANY, BG_ERR_OVERFLOW)

from bgcore.errors import InvalidPositionError

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    PyTypeObject PyMemberDescr_Type
    PyObject *bg_alloc "PyType_GenericAlloc"(PyTypeObject *cls, Py_ssize_t nitems) except NULL

cdef extern from "structmember.h":
    enum: T_OBJECT_EX

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

    A caller builds Python objects only for the results it looks at: bytes
    and tuples, or the Move and Position objects of bgcore (``moves``,
    ``children``, ...) built here in one call.
    """
    cdef bg_result *_data
    cdef int _count
    cdef bytes _origin     # the board the results come from (26 bytes)

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
        _load(board, &b)
        return self._index(&b)

    cdef int _index(self, const bg_board *b) noexcept:
        cdef int i
        for i in range(self._count):
            if memcmp(self._data[i].board.pt, b.pt, 26) == 0:
                return i
        return -1

    cdef object _move(self, Py_ssize_t i, tuple dice, uint64_t dice_key):
        """Result i's Move (see ``move``) of the roll ``dice`` (``dice_key``: its
        dice packed as ``_dice_key`` does), knowing the board it came from."""
        cdef bg_move m = self._sorted(i)
        cdef int k
        cdef uint64_t key = dice_key << 3 | m.nsteps
        cdef object pair, hits
        cdef tuple steps = PyTuple_New(m.nsteps)
        for k in range(m.nsteps):
            pair = _PAIRS[26 * m.src[k] + m.dst[k]]
            Py_INCREF(pair)
            PyTuple_SET_ITEM(steps, k, pair)
            key = _step_key(key, m.src[k], m.dst[k], m.hits >> k & 1)
        hits = _HITS[(1 << m.nsteps) - 1 + m.hits]
        cdef object h = _mix(key)  # move_hash
        cdef object move = _alloc(_move_type)
        _fill(move, _move_slots[0], steps)
        _fill(move, _move_slots[1], hits)
        _fill(move, _move_slots[2], dice)
        _fill(move, _move_slots[3], h)
        _fill(move, _move_slots[4], self._origin)
        return move

    def move_at(self, Py_ssize_t i, tuple dice not None):
        """Result ``i``'s Move of the roll ``dice`` (high die first, as the
        Move keeps it): steps and hits as ``move`` gives them."""
        self._check(i)
        return self._move(i, dice, _dice_key(dice))

    def moves(self, tuple dice not None):
        """Every result's Move of the roll ``dice`` (see ``move_at``), in order."""
        cdef Py_ssize_t i
        cdef list out = PyList_New(self._count)
        cdef object move
        cdef uint64_t dice_key = _dice_key(dice)
        for i in range(self._count):
            move = self._move(i, dice, dice_key)
            Py_INCREF(move)
            PyList_SET_ITEM(out, i, move)
        return out

    def child(self, Py_ssize_t i, checkers):
        """The Position after result ``i``, seen by the opponent (now on roll)."""
        self._check(i)
        return _flipped_position(&self._data[i].board, checkers)

    def children(self, checkers):
        """Every result's Position, seen by the opponent (now on roll), in order."""
        cdef Py_ssize_t i
        cdef list out = PyList_New(self._count)
        cdef object pos
        for i in range(self._count):
            pos = _flipped_position(&self._data[i].board, checkers)
            Py_INCREF(pos)
            PyList_SET_ITEM(out, i, pos)
        return out

    def find(self, tuple steps not None):
        """The index of the result that playing ``steps`` ((from, to) pairs, in
        that order) on the board reaches, or -1 when a step cannot be played
        there or the board reached is not a legal result.

        A step can be played when its source holds one of the mover's
        checkers, no checker is left on the bar (unless it moves from there)
        and its destination is not held by two or more of the opponent's, so
        a move's steps in any order they can be played in find its result
        (whichever dice they use: only the board reached counts).
        """
        cdef bg_board b
        if self._origin is None:
            return -1
        _load(self._origin, &b)
        if not _play_steps(&b, steps):
            return -1
        return self._index(&b)


cdef Results _generate(bytes board, int die1, int die2, bint over_is_none):
    """Every distinct legal result of rolling ``die1``-``die2`` on ``board``
    (ValueError for a bad board or roll); None for a finished game when
    ``over_is_none``."""
    cdef bg_board b
    cdef int n
    _load(board, &b)
    if bg_check(&b, BG_MAX_CHECKERS, NULL) < 0:
        raise ValueError(board_problem(board))
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise ValueError(f"dice must be two integers from 1 to 6, not {die1} and {die2}")
    if over_is_none and (bg_checkers(&b, 0) == 0 or bg_checkers(&b, 1) == 0):
        return None
    n = bg_generate(_GEN, &b, die1, die2, _OUT, BG_MAX_RESULTS)
    if n < 0:
        raise ValueError(f"the generator failed (error {-n})")
    cdef Results res = Results.__new__(Results)
    res._data = <bg_result *>malloc(n * sizeof(bg_result))
    if res._data == NULL:
        raise MemoryError()
    memcpy(res._data, _OUT, n * sizeof(bg_result))
    res._count = n
    res._origin = board
    return res


def generate(bytes board, int die1, int die2):
    """Every distinct legal result of rolling ``die1``-``die2`` on ``board``
    (ValueError for a bad board or roll)."""
    return _generate(board, die1, die2, False)


def legal(bytes board, int die1, int die2):
    """``generate``'s Results, or None when a side has borne off every checker
    (the game is over: no move at all)."""
    return _generate(board, die1, die2, True)


# --- hashes of positions and moves -------------------------------------------
#
# Built from the native board or move, with no tuple to build and hash: the
# generator's 64-bit board key, or a move's fields packed into 53 bits (one
# value per move), through a 64-bit finalizer (MurmurHash3's) so that every
# bit of the hash depends on every field.  The top 61 bits are the hash, a
# non-negative value that Python keeps as it is.

cdef inline Py_hash_t _mix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= <uint64_t>0xFF51AFD7ED558CCD
    x ^= x >> 33
    x *= <uint64_t>0xC4CEB9FE1A85EC53
    x ^= x >> 33
    return <Py_hash_t>(x >> 3)


cdef inline Py_hash_t _board_hash(const bg_board *b, int checkers) noexcept nogil:
    return _mix(bg_hash(b) + <uint64_t>checkers * <uint64_t>0x9E3779B97F4A7C15)


def position_hash(bytes board, int checkers):
    """The hash of a Position of ``board`` (26 bytes) and ``checkers``."""
    cdef bg_board b
    _load(board, &b)
    return _board_hash(&b, checkers)


cdef uint64_t _dice_key(tuple dice) except? 0:
    """A roll's part of a move's packed fields."""
    cdef int hi = dice[0], lo = dice[1]
    if not (1 <= lo <= hi <= 6):
        raise ValueError(f"a roll is two dice 1-6, high first, not {dice!r}")
    return <uint64_t>hi << 3 | <uint64_t>lo


cdef inline uint64_t _step_key(uint64_t key, int src, int dst, int hit) noexcept nogil:
    return key << 11 | <uint64_t>(src << 6 | dst << 1 | hit)


def move_hash(tuple steps not None, tuple hits not None, tuple dice not None):
    """The hash of a Move of ``steps`` ((from, to) pairs, at most four),
    ``hits`` (one flag per step) and ``dice`` (high die first)."""
    cdef uint64_t key = _dice_key(dice)
    cdef Py_ssize_t k, n = len(steps)
    cdef int src, dst
    if n > 4 or len(hits) != n:
        raise ValueError("a move has at most four steps, and one hit flag per step")
    key = key << 3 | <uint64_t>n
    for k in range(n):
        src, dst = steps[k]
        if not (0 <= src <= 25 and 0 <= dst <= 25):
            raise ValueError(f"step {src}/{dst} is not between points 0 and 25")
        key = _step_key(key, src, dst, 1 if hits[k] else 0)
    return _mix(key)


# --- Position and Move objects built here -----------------------------------
#
# Position and Move are slotted Python classes (bgcore.position, bgcore.move)
# that refuse attribute assignment.  The ones built from the generator's
# results need no checks, and building them here spares the Python frames of
# a constructor: each is allocated by its type (its slots empty) and its
# slots are filled where their member descriptors say they lie, as
# ``object.__setattr__`` would fill them (without the lookups).

cdef PyTypeObject *_position_type = NULL
cdef PyTypeObject *_move_type = NULL
cdef Py_ssize_t _position_slots[4]     # offsets of _board_cache, _bytes, _checkers, _hash
cdef Py_ssize_t _move_slots[5]         # of _steps, _hits, _dice, _hash, _origin
cdef object _classes = None            # keeps both types alive

#: (src, dst) step tuples by 26 * src + dst, and hit-flag tuples by
#: (1 << nsteps) - 1 + hits: shared by every Move built here (tuples are
#: immutable), so a move allocates only its tuple of steps.
cdef tuple _PAIRS = tuple([(s, d) for s in range(26) for d in range(26)])
cdef tuple _HITS = tuple([tuple([bool(h >> k & 1) for k in range(n)]) for n in range(5) for h in range(1 << n)])


cdef int _find_slots(type cls, tuple names, Py_ssize_t *out) except -1:
    """The offsets of ``cls``'s object slots ``names`` (all its slots) in its instances."""
    cdef Py_ssize_t i
    cdef PyMemberDef *member
    if cls.__base__ is not object or cls.__dictoffset__ or len(cls.__slots__) != len(names):
        raise TypeError(f"{cls.__name__} must derive from object alone and have the slots {names}")
    for i, name in enumerate(names):
        descr = cls.__dict__.get(name)
        if type(descr) is not <object>&PyMemberDescr_Type:
            raise TypeError(f"{cls.__name__}.{name} is not a slot")
        member = (<PyMemberDescrObject *>descr).d_member
        if member.type != T_OBJECT_EX or not 0 < member.offset <= cls.__basicsize__ - sizeof(PyObject *):
            raise TypeError(f"{cls.__name__}.{name} is not an object slot")
        out[i] = member.offset
    return 0


def register(type position_class, type move_class):
    """Tell this module the Position and Move classes it builds (by
    bgcore.position, once at import)."""
    global _position_type, _move_type, _classes
    cdef Py_ssize_t position_slots[4]
    cdef Py_ssize_t move_slots[5]
    _find_slots(position_class, ("_board_cache", "_bytes", "_checkers", "_hash"), position_slots)
    _find_slots(move_class, ("_steps", "_hits", "_dice", "_hash", "_origin"), move_slots)
    memcpy(_position_slots, position_slots, sizeof(position_slots))
    memcpy(_move_slots, move_slots, sizeof(move_slots))
    _classes = (position_class, move_class)
    _position_type = <PyTypeObject *>position_class
    _move_type = <PyTypeObject *>move_class


cdef inline void _fill(object obj, Py_ssize_t offset, object value) noexcept:
    """Set an empty slot of a new object (at ``offset``) to ``value``."""
    Py_INCREF(value)
    (<PyObject **>(<char *><PyObject *>obj + offset))[0] = <PyObject *>value


cdef inline object _alloc(PyTypeObject *cls):
    """A new instance of ``cls`` with its slots empty."""
    if cls == NULL:
        raise RuntimeError("bgcore.position has not registered its classes")
    cdef PyObject *p = bg_alloc(cls, 0)
    cdef object obj = <object>p   # a second reference ...
    Py_DECREF(obj)                # ... given back
    return obj


cdef object _position(bytes data, object checkers, const bg_board *b):
    """A Position of 26 trusted bytes (``b``: the same board)."""
    cdef object h = _board_hash(b, checkers)
    cdef object pos = _alloc(_position_type)
    _fill(pos, _position_slots[0], None)
    _fill(pos, _position_slots[1], data)
    _fill(pos, _position_slots[2], checkers)
    _fill(pos, _position_slots[3], h)
    return pos


cdef object _flipped_position(const bg_board *b, object checkers):
    """The Position of ``b`` seen from the other side."""
    cdef bg_board f
    bg_flip(b, &f)
    return _position(PyBytes_FromStringAndSize(<char *>f.pt, 26), checkers, &f)


cdef bint _play_steps(bg_board *b, tuple steps) except -1:
    """Play ``steps`` ((from, to) pairs) on ``b`` in order; False, with ``b``
    partly played, when one cannot be played (see ``Results.find``)."""
    cdef int src, dst
    for step in steps:
        src, dst = step
        if not (1 <= src <= 25 and 0 <= dst <= 24):
            return False
        if b.pt[src] <= 0 or (src != BG_BAR and b.pt[BG_BAR] > 0):
            return False
        if dst:
            if b.pt[dst] < -1:
                return False
            if b.pt[dst] == -1:
                b.pt[dst] = 0
                b.pt[0] -= 1
            b.pt[dst] += 1
        b.pt[src] -= 1
    return True


def after(bytes board, tuple steps not None, checkers):
    """The Position after playing ``steps`` ((from, to) pairs, in that order)
    on ``board``, seen by the opponent (now on roll), for a move known to be
    legal there: nothing else is checked.  ValueError when a step cannot be
    played at all."""
    cdef bg_board b
    _load(board, &b)
    if not _play_steps(&b, steps):
        raise ValueError(f"the steps {steps} cannot be played on this board")
    return _flipped_position(&b, checkers)


def position(bytes data, checkers):
    """A Position of 26 bytes from the generator (or a Position's own): no checks."""
    cdef bg_board b
    _load(data, &b)
    return _position(data, checkers, &b)


def flipped_position(bytes data, checkers):
    """The Position of a Position's 26 bytes seen from the other side."""
    cdef bg_board b
    _load(data, &b)
    return _flipped_position(&b, checkers)
