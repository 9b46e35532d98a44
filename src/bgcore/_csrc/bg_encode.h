/* Network inputs of boards, and the value of a finished game; header-only
   (static inline, C99, no allocation, no state but read-only tables, so safe
   on any number of threads).

   Boards are bgcore's 26 signed bytes seen from the player on roll, "the
   mover" (bg_eval.h and movegen.pxd describe them): pt[1..24] the points in
   the mover's numbering (positive: the mover's checkers, negative: the
   opponent's), pt[25] the mover's bar (>= 0), pt[0] the opponent's bar
   (<= 0); a side's checkers off are ``checkers`` less those on the board.
   Nothing here checks its board: it must be valid for ``checkers`` (1..15,
   bg_check).

   Each encoding is written once, as the list of its non-zero inputs
   (bg_encode_sparse): a network's first layer adds only the weight rows of
   those, and the dense vector (bg_encode_dense) is that list scattered over
   zeros.  The encodings:

   - BG_ENC_TESAURO198: TD-Gammon's 198 inputs (bgcore.encode.tesauro198
     documents them); four units of a count n: n >= 1, n >= 2, n >= 3 and
     (n - 3) / 2 when n > 3.
   - BG_ENC_WILDBG_CONTACT, BG_ENC_WILDBG_RACE: the inputs of wildbg's
     contact and race networks (carsten-wenderdel/wildbg, crates/engine/src/
     inputs.rs); four units of a count n: (1,0,0,0) for one checker,
     (0,1,0,0) for two, (0,0,1,n-3) for three or more.  Contact (202): [0]
     the mover's checkers off, [1] the opponent's (counts, not scaled),
     [2..5] the mover's bar, [6..101] the mover's points 1..24, [102..105]
     the opponent's bar, [106..201] the opponent's checkers on the mover's
     points 1..24.  Race (186): [0..1] the checkers off, [2..93] the mover's
     points 1..23, [94..185] the opponent's checkers on the mover's points
     2..24 (in a race the mover has nothing on 24 or the bar, the opponent
     nothing on 1 or the bar: those are not inputs).

   bgcore._encode wraps these over numpy arrays, bg_nn.c feeds networks with
   them. */
#ifndef BG_ENCODE_H
#define BG_ENCODE_H

#include <stdint.h>
#include <string.h>

#if defined(_MSC_VER)
#define BG_ENCODE_INLINE static __inline
#else
#define BG_ENCODE_INLINE static inline
#endif

enum {
    BG_ENC_TESAURO198 = 0,
    BG_ENC_WILDBG_CONTACT = 1,
    BG_ENC_WILDBG_RACE = 2,
    BG_ENC_COUNT = 3
};

/* Room for any encoding's non-zero inputs with at most 15 checkers a side
   (each side's checkers give at most 15 point units, plus the bars, the
   checkers off and the turn: 35 at most) and the scratch entries the
   writers leave past them. */
#define BG_ENC_MAX_NONZERO 64

/* The number of inputs of an encoding, 0 for an unknown one. */
BG_ENCODE_INLINE int bg_encode_inputs(int encoding) {
    switch (encoding) {
    case BG_ENC_TESAURO198: return 198;
    case BG_ENC_WILDBG_CONTACT: return 202;
    case BG_ENC_WILDBG_RACE: return 186;
    default: return 0;
    }
}

/* The units of a count n = 0..15, TD-Gammon's: n >= 1, n >= 2, n >= 3,
   (n - 3) / 2.  Its non-zero units are the first min(n, 4). */
static const float bg_enc_tesauro_table[16][4] = {
    {0.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f, 0.0f},
    {1.0f, 1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f, 0.5f}, {1.0f, 1.0f, 1.0f, 1.0f},
    {1.0f, 1.0f, 1.0f, 1.5f}, {1.0f, 1.0f, 1.0f, 2.0f}, {1.0f, 1.0f, 1.0f, 2.5f},
    {1.0f, 1.0f, 1.0f, 3.0f}, {1.0f, 1.0f, 1.0f, 3.5f}, {1.0f, 1.0f, 1.0f, 4.0f},
    {1.0f, 1.0f, 1.0f, 4.5f}, {1.0f, 1.0f, 1.0f, 5.0f}, {1.0f, 1.0f, 1.0f, 5.5f},
    {1.0f, 1.0f, 1.0f, 6.0f}
};

/* Appends the non-zero units of a count n (0..15) at base: TD-Gammon's.
   Without branches on n (counts vary from board to board, so branches
   would be mispredicted): it writes all four and counts the non-zero ones,
   so idx and val need room for 4 entries past k. */
BG_ENCODE_INLINE int bg_enc_tesauro_units(int n, int base, uint16_t *idx, float *val, int k) {
    int u;
    for (u = 0; u < 4; u++) {
        idx[k + u] = (uint16_t)(base + u);
        val[k + u] = bg_enc_tesauro_table[n][u];
    }
    return k + (n < 4 ? n : 4);
}

/* wildbg's units (1,0,0,0), (0,1,0,0), (0,0,1,n-3): the first non-zero
   unit of a count n = 0..15 and how many there are; the first's value is
   1, the second's n - 3. */
static const uint8_t bg_enc_wildbg_first[16] = {0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
static const uint8_t bg_enc_wildbg_count[16] = {0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};

/* Appends wildbg's non-zero units of a count n (0..15) at base, without
   branches on n (idx and val need room for 2 entries past k). */
BG_ENCODE_INLINE int bg_enc_wildbg_units(int n, int base, uint16_t *idx, float *val, int k) {
    idx[k] = (uint16_t)(base + bg_enc_wildbg_first[n]);
    val[k] = 1.0f;
    idx[k + 1] = (uint16_t)(base + 3);
    val[k + 1] = (float)(n - 3);
    return k + bg_enc_wildbg_count[n];
}

/* Appends value at index i when it is not zero. */
BG_ENCODE_INLINE int bg_enc_put(int i, float value, uint16_t *idx, float *val, int k) {
    if (value != 0.0f) { idx[k] = (uint16_t)i; val[k++] = value; }
    return k;
}

/* The mover's (side 0) and the opponent's (side 1) checkers on the board. */
BG_ENCODE_INLINE void bg_enc_on_board(const int8_t *pt, int *mine, int *theirs) {
    int p, m = 0, t = 0;
    for (p = 0; p <= 25; p++) {
        m += pt[p] > 0 ? pt[p] : 0;
        t += pt[p] < 0 ? -pt[p] : 0;
    }
    *mine = m;
    *theirs = t;
}

/* The non-zero inputs of a board: idx[k] (ascending within each part, in
   the order the encoding lists its parts) and val[k] for k < the returned
   count; -1 for an unknown encoding.  idx and val hold BG_ENC_MAX_NONZERO
   entries (those past the count are scratch).
   opponent_on_roll: TD-Gammon's turn units (see bgcore.encode.tesauro198);
   ignored by the other encodings. */
BG_ENCODE_INLINE int bg_encode_sparse(int encoding, const int8_t *pt, int checkers, int opponent_on_roll,
                                      uint16_t *idx, float *val) {
    int p, n, k = 0, mine, theirs;
    bg_enc_on_board(pt, &mine, &theirs);
    switch (encoding) {
    case BG_ENC_TESAURO198:
        for (p = 1; p <= 24; p++)
            k = bg_enc_tesauro_units(pt[p] > 0 ? pt[p] : 0, 4 * (p - 1), idx, val, k);
        /* the opponent's point q is the mover's 25 - q: q = 1..24 ascending */
        for (p = 24; p >= 1; p--)
            k = bg_enc_tesauro_units(pt[p] < 0 ? -pt[p] : 0, 96 + 4 * (24 - p), idx, val, k);
        k = bg_enc_put(192, (float)pt[25] / 2.0f, idx, val, k);
        k = bg_enc_put(193, (float)(-pt[0]) / 2.0f, idx, val, k);
        k = bg_enc_put(194, (float)(checkers - mine) / 15.0f, idx, val, k);
        k = bg_enc_put(195, (float)(checkers - theirs) / 15.0f, idx, val, k);
        idx[k] = (uint16_t)(opponent_on_roll ? 197 : 196);
        val[k++] = 1.0f;
        return k;
    case BG_ENC_WILDBG_CONTACT:
        k = bg_enc_put(0, (float)(checkers - mine), idx, val, k);
        k = bg_enc_put(1, (float)(checkers - theirs), idx, val, k);
        k = bg_enc_wildbg_units(pt[25], 2, idx, val, k);
        for (p = 1; p <= 24; p++)
            k = bg_enc_wildbg_units(pt[p] > 0 ? pt[p] : 0, 2 + 4 * p, idx, val, k);
        k = bg_enc_wildbg_units(-pt[0], 102, idx, val, k);
        for (p = 1; p <= 24; p++)
            k = bg_enc_wildbg_units(pt[p] < 0 ? -pt[p] : 0, 102 + 4 * p, idx, val, k);
        return k;
    case BG_ENC_WILDBG_RACE:
        k = bg_enc_put(0, (float)(checkers - mine), idx, val, k);
        k = bg_enc_put(1, (float)(checkers - theirs), idx, val, k);
        for (p = 1; p <= 23; p++) {
            n = pt[p];
            k = bg_enc_wildbg_units(n > 0 ? n : 0, 4 * p - 2, idx, val, k);
        }
        for (p = 2; p <= 24; p++) {
            n = pt[p];
            k = bg_enc_wildbg_units(n < 0 ? -n : 0, 86 + 4 * p, idx, val, k);
        }
        return k;
    default:
        return -1;
    }
}

/* The dense inputs of a board into out[0 .. bg_encode_inputs(encoding));
   -1 for an unknown encoding (out untouched), else 0. */
BG_ENCODE_INLINE int bg_encode_dense(int encoding, const int8_t *pt, int checkers, int opponent_on_roll,
                                     float *out) {
    uint16_t idx[BG_ENC_MAX_NONZERO];
    float val[BG_ENC_MAX_NONZERO];
    int k, n = bg_encode_sparse(encoding, pt, checkers, opponent_on_roll, idx, val);
    if (n < 0)
        return -1;
    memset(out, 0, sizeof(float) * (size_t)bg_encode_inputs(encoding));
    for (k = 0; k < n; k++)
        out[idx[k]] = val[k];
    return 0;
}

/* TD-Gammon's 198 inputs (the dense form, for bgcore.encode). */
BG_ENCODE_INLINE void bg_tesauro198(const int8_t *pt, int checkers, int opponent_on_roll, float *out) {
    bg_encode_dense(BG_ENC_TESAURO198, pt, checkers, opponent_on_roll, out);
}

/* --- a finished game ------------------------------------------------------

   When a side has no checker left on the board the game is over: writes
   its value for the mover into out5 (bgcore's five outputs: win, win
   gammon, win backgammon, lose gammon, lose backgammon, gammons counting
   backgammons) and returns 1; returns 0 (out5 untouched) when both sides
   still have checkers on the board.  The loser is gammoned with no checker
   off, and backgammoned besides with a checker on the bar or in the
   winner's home board (the mover's points 1..6 when the mover won, 19..24
   when the mover lost). */
BG_ENCODE_INLINE int bg_game_value(const int8_t *pt, int checkers, float *out5) {
    int p, mine, theirs, gammon, backgammon = 0;
    bg_enc_on_board(pt, &mine, &theirs);
    if (mine != 0 && theirs != 0)
        return 0;
    out5[0] = out5[1] = out5[2] = out5[3] = out5[4] = 0.0f;
    if (mine == 0) {  /* the mover bore off the last checker: won */
        gammon = theirs == checkers;
        backgammon = gammon && pt[0] < 0;
        for (p = 1; p <= 6; p++)
            backgammon |= gammon && pt[p] < 0;
        out5[0] = 1.0f;
        out5[1] = (float)gammon;
        out5[2] = (float)backgammon;
    } else {          /* the opponent did: lost */
        gammon = mine == checkers;
        backgammon = gammon && pt[25] > 0;
        for (p = 19; p <= 24; p++)
            backgammon |= gammon && pt[p] > 0;
        out5[3] = (float)gammon;
        out5[4] = (float)backgammon;
    }
    return 1;
}

#endif /* BG_ENCODE_H */
