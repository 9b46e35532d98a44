# cython: language_level=3
"""Evaluations and network inputs over arrays of boards, behind ``bgcore.encode``.

Every function takes a C-contiguous (n, 26) int8 array (``bgcore.encode``
converts other input) and the checkers a side plays with, checks each row
with ``bg_check`` and computes it with the C of ``bg_eval.h``, without the
GIL.  A row that is not a valid board raises ``InvalidPositionError`` naming
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
    void bg_tesauro198(const int8_t *pt, int checkers, int opponent_on_roll, float *out) noexcept nogil


cdef Py_ssize_t _rows(const int8_t[:, ::1] boards, int checkers) except -1:
    """The number of rows, once the width and ``checkers`` are checked."""
    if boards.shape[1] != 26:
        raise InvalidPositionError(f"boards must have shape (n, 26), not ({boards.shape[0]}, {boards.shape[1]})")
    if not 1 <= checkers <= BG_MAX_CHECKERS:
        raise InvalidPositionError(f"checkers per side must be 1-{BG_MAX_CHECKERS}, not {checkers}")
    return boards.shape[0]


cdef object _invalid(const int8_t[:, ::1] boards, Py_ssize_t row, int checkers):
    """The error about invalid row ``row``."""
    data = bytes(boards[row])
    return InvalidPositionError(f"row {row}: {board_problem(data, checkers)}")


cdef inline bint _bad(const int8_t *pt, int checkers) noexcept nogil:
    return bg_check(<const bg_board *>pt, checkers, NULL) < 0


def first_invalid(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """The first row that is not a valid board for sides of ``checkers``, or None."""
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef const int8_t *b
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if _bad(b + 26 * i, checkers):
                    bad = i
                    break
    return None if bad < 0 else bad


def tesauro198(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS, bint opponent_on_roll=False):
    """TD-Gammon's 198 inputs of each board: float32 (n, 198)."""
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef cnp.ndarray out = np.empty((n, 198), dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    cdef const int8_t *b
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if _bad(b + 26 * i, checkers):
                    bad = i
                    break
                bg_tesauro198(b + 26 * i, checkers, opponent_on_roll, o + 198 * i)
    if bad >= 0:
        raise _invalid(boards, bad, checkers)
    return out


def is_race(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """Whether each board is a race (no contact left): bool (n,)."""
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef cnp.ndarray out = np.empty(n, dtype=np.bool_)
    cdef uint8_t *o = <uint8_t *>cnp.PyArray_DATA(out)
    cdef const int8_t *b
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if _bad(b + 26 * i, checkers):
                    bad = i
                    break
                o[i] = <uint8_t>bg_is_race(b + 26 * i)
    if bad >= 0:
        raise _invalid(boards, bad, checkers)
    return out


def pubeval_scores(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS, const uint8_t[::1] race=None,
                   bint plain=False):
    """pubeval's score of each board: float32 (n,).

    ``race``: None to take each board's own ``bg_is_race``, else n flags
    (nonzero: the race weights).  ``plain``: Tesauro's term-by-term dot
    product (``bg_pubeval_plain``) instead of the tables, for tests and
    timings.
    """
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef cnp.ndarray out = np.empty(n, dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    cdef const int8_t *b
    cdef const uint8_t *flags = NULL
    cdef int r
    if race is not None:
        if race.shape[0] != n:
            raise ValueError(f"race must have {n} flags, one per board, not {race.shape[0]}")
        if n:
            flags = &race[0]
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if _bad(b + 26 * i, checkers):
                    bad = i
                    break
                r = bg_is_race(b + 26 * i) if flags == NULL else flags[i] != 0
                if plain:
                    o[i] = bg_pubeval_plain(b + 26 * i, r, checkers)
                else:
                    o[i] = bg_pubeval(b + 26 * i, r, checkers)
    if bad >= 0:
        raise _invalid(boards, bad, checkers)
    return out


def race_scores(const int8_t[:, ::1] boards, int checkers=BG_MAX_CHECKERS):
    """The race policy's score of each board: float32 (n,)."""
    cdef Py_ssize_t n = _rows(boards, checkers), i, bad = -1
    cdef cnp.ndarray out = np.empty(n, dtype=np.float32)
    cdef float *o = <float *>cnp.PyArray_DATA(out)
    cdef const int8_t *b
    if n:
        b = &boards[0, 0]
        with nogil:
            for i in range(n):
                if _bad(b + 26 * i, checkers):
                    bad = i
                    break
                o[i] = bg_race_score(b + 26 * i, checkers)
    if bad >= 0:
        raise _invalid(boards, bad, checkers)
    return out
