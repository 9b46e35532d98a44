# cython: language_level=3
"""The doubling cube at 0-ply for other Cython modules (bg_cube.h, header-only).

``from bgcore._cube cimport ...`` gives a module these declarations; the C
functions are static inline, compiled into the module that uses them, and
run without the GIL, allocating nothing.  Boards are ``bg_board``'s 26
signed bytes; a state is the player on roll's (see ``bg_cube_state``); the
match equity table is ``bgcore.met.met_arrays()``'s, as a ``bg_met``.
"""

from libc.stdint cimport int8_t, int32_t

cdef extern from "bg_cube.h" nogil:
    # gnubg's positionclass numbers
    enum:
        BG_CLASS_OVER
        BG_CLASS_BEAROFF2
        BG_CLASS_BEAROFF1
        BG_CLASS_RACE
        BG_CLASS_CRASHED
        BG_CLASS_CONTACT

    # the cube's owner, seen by the player on roll
    enum:
        BG_CUBE_CENTRED
        BG_CUBE_MINE
        BG_CUBE_THEIRS

    # the doubled player's reply
    enum:
        BG_TAKE
        BG_PASS
        BG_BEAVER

    ctypedef struct bg_cube_state:
        int32_t away          # match: points the player on roll needs; 0: money play
        int32_t opp_away
        int32_t cube
        int32_t owner         # BG_CUBE_CENTRED, BG_CUBE_MINE, BG_CUBE_THEIRS
        int32_t crawford      # match: the Crawford game
        int32_t jacoby        # money: the Jacoby rule
        int32_t beavers       # money: beavers allowed

    ctypedef struct bg_met:
        const double *pre     # size x size, row-major: MWC at i+1-away against j+1-away
        const double *post    # size: a trailer j+1-away against a leader 1-away, post-Crawford
        int32_t size

    ctypedef struct bg_cube_decision:
        double no_double
        double double_take
        double double_pass
        double best
        int32_t action        # gnubg's cubedecision number
        int32_t response      # BG_TAKE, BG_PASS or BG_BEAVER

    # gnubg's ClassifyPosition of a standard board
    int bg_position_class(const int8_t *pt) noexcept
    # gnubg's EvalEfficiency for a class; plies: the evaluation's depth (0-1 or 2+)
    double bg_cube_efficiency(const int8_t *pt, int pc, int plies) noexcept
    # the 0-ply equity of a state without a double now (money: per cube; match: MWC)
    double bg_cube_no_double(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                             const double *bearoff) noexcept
    # the 0-ply cubeful equity of the player on roll, doubling option included
    double bg_cubeful(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                      const double *bearoff) noexcept
    # the 0-ply cube decision of the player on roll
    void bg_cube_decide(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                        const double *bearoff, bg_cube_decision *out) noexcept
    # gnubg's judgement of three outcomes (no double, double/take, double/pass): action, best, reply
    void bg_cube_judge(const double *v, const bg_cube_state *s, const bg_met *m, double win, int win_gammon,
                       bg_cube_decision *out) noexcept
