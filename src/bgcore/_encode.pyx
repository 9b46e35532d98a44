# cython: language_level=3
"""Evaluations and network inputs over arrays of boards, behind ``bgcore.encode``.

Every function takes a C-contiguous (n, 26) int8 array (``bgcore.encode``
converts other input) and the checkers a side plays with, checks every row
with ``bg_check`` first and then computes them with the C of ``bg_eval.h`` and ``bg_encode.h``,
without the GIL.  A row that is not a valid board raises ``InvalidPositionError`` naming
it, worded by ``bgcore._results.board_problem``; nothing is returned then.
"""

from libc.stdint cimport int8_t, uint8_t
cimport numpy as cnp
import numpy as np

from bgcore.movegen cimport bg_board, bg_check, BG_MAX_CHECKERS
from bgcore._results import board_problem
from bgcore.errors import InvalidPositionError

cnp.import_array()

cdef extern from "bg_eval.h":
    int bg_is_race(const int8_t *pt) noexcept nogil
    float bg_pubeval(const int8_t *pt, int race, int checkers) noexcept nogil
    float bg_pubeval_plain(const int8_t *pt, int race, int checkers) noexcept nogil
    float bg_race_score(const int8_t *pt, int checkers) noexcept nogil

cdef extern from "bg_encode.h":
    enum:
        BG_ENC_TESAURO198
        BG_ENC_WILDBG_CONTACT
        BG_ENC_WILDBG_RACE
    int bg_encode_inputs(int encoding) noexcept nogil
    int bg_encode_dense(int encoding, const int8_t *pt, int checkers, int opponent_on_roll, float *out) noexcept nogil


cdef Py_ssize_t _rows(const int8_t[:, ::1] boards, int checkers) except -1:
    """The number of rows, once the width and ``checkers`` are checked."""
    if boards.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (n, 26), not ({boards.shape[0]}, {boards.shape[1]})")
    if not 1 <= checkers <= BG_MAX_CHECKERS:
        raise InvalidPositionError(f"checkers per side must be 1-{BG_MAX_CHECKERS}, not {checkers}")
    return boards.shape[0]


cdef Py_ssize_t _scan(const int8_t[:, ::1] boards, int checkers) except -2:
    """The first row that is not a valid board, or -1 (shape errors raise)."""
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef const int8_t *b
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if bg_check(<const bg_board *>(b + 26 * i), checkers, NULL) < 0:
                    bad = i
                    break
    return bad


cdef const int8_t *_checked(const int8_t[:, ::1] boards, int checkers) except? NULL:
    """The rows, once every one is checked (InvalidPositionError names the
    first bad one); NULL when there are none."""
    cdef Py_ssize_t bad = _scan(boards, checkers)
    if bad >= 0:
        data = bytes(boards[bad])
        raise InvalidPositionError(f"row {bad}: {board_problem(data, checkers)}")
    return &boards[0, 0] if boards.shape[0] else NULL


def first_invalid(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """The first row that is not a valid board for sides of ``checkers``, or None."""
    cdef Py_ssize_t bad = _scan(boards, checkers)
    return None if bad < 0 else bad


cdef _dense(const int8_t[:, ::1] boards, int checkers, int encoding, bint opponent_on_roll):
    """The inputs of ``encoding`` of each board: float32 (n, its inputs)."""
    cdef const int8_t *b = _checked(boards, checkers)
    cdef Py_ssize_t n = boards.shape[0], i
    cdef int width = bg_encode_inputs(encoding)
    cdef cnp.ndarray out = np.empty((n, width), dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(n):
            bg_encode_dense(encoding, b + 26 * i, checkers, opponent_on_roll, o + width * i)
    return out


def tesauro198(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS, bint opponent_on_roll=False):
    """TD-Gammon's 198 inputs of each board: float32 (n, 198)."""
    return _dense(boards, checkers, BG_ENC_TESAURO198, opponent_on_roll)


def wildbg_contact(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """wildbg's 202 contact-network inputs of each board: float32 (n, 202)."""
    return _dense(boards, checkers, BG_ENC_WILDBG_CONTACT, False)


def wildbg_race(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """wildbg's 186 race-network inputs of each board: float32 (n, 186)."""
    return _dense(boards, checkers, BG_ENC_WILDBG_RACE, False)


def is_race(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """Whether each board is a race (no contact left): bool (n,)."""
    cdef const int8_t *b = _checked(boards, checkers)
    cdef Py_ssize_t n = boards.shape[0], i
    cdef cnp.ndarray out = np.empty(n, dtype=np.bool_)
    cdef uint8_t *o = <uint8_t *>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(n):
            o[i] = <uint8_t>bg_is_race(b + 26 * i)
    return out


def pubeval_scores(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS, const uint8_t[::1] race=None,
                   bint plain=False):
    """pubeval's score of each board: float32 (n,).

    ``race``: None to take each board's own ``bg_is_race``, else n flags
    (nonzero: the race weights).  ``plain``: Tesauro's term-by-term dot
    product (``bg_pubeval_plain``) instead of the tables, for tests and
    timings.
    """
    cdef const int8_t *b = _checked(boards, checkers)
    cdef Py_ssize_t n = boards.shape[0], i
    cdef cnp.ndarray out = np.empty(n, dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    cdef const uint8_t *flags = NULL
    cdef int r
    if race is not None:
        if race.shape[0] != n:
            raise ValueError(f"race must have {n} flags, one per board, not {race.shape[0]}")
        if n:
            flags = &race[0]
    with nogil:
        for i in range(n):
            r = bg_is_race(b + 26 * i) if flags == NULL else flags[i] != 0
            if plain:
                o[i] = bg_pubeval_plain(b + 26 * i, r, checkers)
            else:
                o[i] = bg_pubeval(b + 26 * i, r, checkers)
    return out


def race_scores(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """The race policy's score of each board: float32 (n,)."""
    cdef const int8_t *b = _checked(boards, checkers)
    cdef Py_ssize_t n = boards.shape[0], i
    cdef cnp.ndarray out = np.empty(n, dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    with nogil:
        for i in range(n):
            o[i] = bg_race_score(b + 26 * i, checkers)
    return out
