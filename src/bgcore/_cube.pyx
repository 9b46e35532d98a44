# cython: language_level=3, autotestdict=False
"""The native side of ``bgcore.cube``: bg_cube.h's functions for one board or
one set of probabilities at a time, without the GIL.

Arguments are checked by ``bgcore.cube``, not here: ``board`` the 26 bytes
of a valid board (signed counts), ``p`` five probabilities, ``state`` the seven ints of a
``bg_cube_state`` (away, opp_away, cube, owner, crawford, jacoby, beavers),
``bearoff`` None or four equities, ``pre`` and ``post`` the match equity
table (``bgcore.met.met_arrays()``).
"""

from libc.stdint cimport int8_t

# The declarations are _cube.pxd's, which Cython reads for this module.


def position_class(const unsigned char[::1] board):
    """gnubg's position class number of ``board`` (its 26 bytes)."""
    cdef int pc
    with nogil:
        pc = bg_position_class(<const int8_t *>&board[0])
    return pc


def efficiency(const unsigned char[::1] board, int pc, int plies):
    """The cube efficiency of ``board`` (its 26 bytes), of class ``pc``, for an evaluation ``plies`` deep."""
    cdef double x
    with nogil:
        x = bg_cube_efficiency(<const int8_t *>&board[0], pc, plies)
    return x


cdef int _unpack(tuple p, tuple state, object bearoff, const double[::1] pre, const double[::1] post,
                 double *probs, bg_cube_state *s, double *exact, bg_met *m) except -1:
    cdef int k
    for k in range(5):
        probs[k] = p[k]
    s.away, s.opp_away, s.cube, s.owner, s.crawford, s.jacoby, s.beavers = state
    if bearoff is not None:
        for k in range(4):
            exact[k] = bearoff[k]
    m.pre = &pre[0]
    m.post = &post[0]
    m.size = post.shape[0]
    return 0


def cubeful(tuple p, tuple state, double x, object bearoff, const double[::1] pre, const double[::1] post):
    """The 0-ply cubeful equity (money: per cube; match: MWC) of the player on roll."""
    cdef double probs[5]
    cdef double exact[4]
    cdef bg_cube_state s
    cdef bg_met m
    cdef double value
    cdef const double *e = NULL if bearoff is None else exact
    _unpack(p, state, bearoff, pre, post, probs, &s, exact, &m)
    with nogil:
        value = bg_cubeful(probs, &s, &m, x, e)
    return value


def decide(tuple p, tuple state, double x, object bearoff, const double[::1] pre, const double[::1] post):
    """The 0-ply cube decision: (no double, double/take, double/pass, best, action, response)."""
    cdef double probs[5]
    cdef double exact[4]
    cdef bg_cube_state s
    cdef bg_met m
    cdef bg_cube_decision d
    cdef const double *e = NULL if bearoff is None else exact
    _unpack(p, state, bearoff, pre, post, probs, &s, exact, &m)
    with nogil:
        bg_cube_decide(probs, &s, &m, x, e, &d)
    return d.no_double, d.double_take, d.double_pass, d.best, d.action, d.response
