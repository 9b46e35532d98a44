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

   Each encoding is written once (bg_encode) for two forms: the list of its
   non-zero inputs (bg_encode_sparse), of which a network's first layer
   adds only the weight rows, and the dense vector (bg_encode_dense).  The
   encodings:

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
   writer leaves past them (up to three). */
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

/* The four units of a count n = 0..15: [0] TD-Gammon's (n >= 1, n >= 2,
   n >= 3, (n - 3) / 2), [1] wildbg's ((1,0,0,0), (0,1,0,0), (0,0,1,n-3)). */
static const float bg_enc_units_table[2][16][4] = {
    {
        {0.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f, 0.0f},
        {1.0f, 1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f, 0.5f}, {1.0f, 1.0f, 1.0f, 1.0f},
        {1.0f, 1.0f, 1.0f, 1.5f}, {1.0f, 1.0f, 1.0f, 2.0f}, {1.0f, 1.0f, 1.0f, 2.5f},
        {1.0f, 1.0f, 1.0f, 3.0f}, {1.0f, 1.0f, 1.0f, 3.5f}, {1.0f, 1.0f, 1.0f, 4.0f},
        {1.0f, 1.0f, 1.0f, 4.5f}, {1.0f, 1.0f, 1.0f, 5.0f}, {1.0f, 1.0f, 1.0f, 5.5f},
        {1.0f, 1.0f, 1.0f, 6.0f},
    },
    {
        {0.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f},
        {0.0f, 0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 2.0f},
        {0.0f, 0.0f, 1.0f, 3.0f}, {0.0f, 0.0f, 1.0f, 4.0f}, {0.0f, 0.0f, 1.0f, 5.0f},
        {0.0f, 0.0f, 1.0f, 6.0f}, {0.0f, 0.0f, 1.0f, 7.0f}, {0.0f, 0.0f, 1.0f, 8.0f},
        {0.0f, 0.0f, 1.0f, 9.0f}, {0.0f, 0.0f, 1.0f, 10.0f}, {0.0f, 0.0f, 1.0f, 11.0f},
        {0.0f, 0.0f, 1.0f, 12.0f},
    },
};

/* Input i is value: dense, out[i] = value (every input is written, zeros
   too); sparse, (i, value) appended when value is not zero, written in any
   case at k without a branch (the arrays have room past the count). */
BG_ENCODE_INLINE int bg_enc_put(int dense, int i, float value, uint16_t *idx, float *out, int k) {
    if (dense) {
        out[i] = value;
        return k;
    }
    idx[k] = (uint16_t)i;
    out[k] = value;
    return k + (value != 0.0f);
}

/* 0, 1, 2, 3 in four uint16_t in memory order, as one 64-bit integer: base
   times 0x0001000100010001 plus these are inputs base .. base + 3. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BG_ENC_STEPS 0x0000000100020003ULL
#else
#define BG_ENC_STEPS 0x0003000200010000ULL
#endif

/* The four units of a count n (0..15) from inputs base on, by table (0:
   TD-Gammon's, 1: wildbg's).  Counts vary from board to board, so there is
   no branch on them.  The sparse form writes the non-zero units in order
   (the same entries as bg_enc_put of each unit would append) without
   testing each: TD-Gammon's are the first min(n, 4), wildbg's one unit
   (n = 1..3) or units 2 and 3 (n > 3).  Entries past the count are scratch. */
BG_ENCODE_INLINE int bg_enc_units(int dense, int table, int n, int base, uint16_t *idx, float *out, int k) {
    const float *v = bg_enc_units_table[table][n];
    int u;
    if (dense) {
        for (u = 0; u < 4; u++)
            out[base + u] = v[u];
        return k;
    }
    if (table == 0) {  /* the four entries in two stores (memcpy: any alignment) */
        uint64_t four = (uint64_t)(uint16_t)base * 0x0001000100010001ULL + BG_ENC_STEPS;
        memcpy(idx + k, &four, sizeof four);
        memcpy(out + k, v, 4 * sizeof(float));
        return k + (n < 4 ? n : 4);
    }
    idx[k] = (uint16_t)(base + (n < 3 ? n - 1 : 2));
    out[k] = 1.0f;
    idx[k + 1] = (uint16_t)(base + 3);
    out[k + 1] = v[3];
    return k + (n > 0) + (n > 3);
}

/* The mover's and the opponent's checkers on a slot of count x, by masks
   rather than a branch (compilers branch on the ternary, and the signs of
   a board's slots are not predictable). */
BG_ENCODE_INLINE int bg_enc_mine(int x) {
    return x & -(x > 0);
}
BG_ENCODE_INLINE int bg_enc_theirs(int x) {
    return -x & -(x < 0);
}

/* The mover's (side 0) and the opponent's (side 1) checkers on the board. */
BG_ENCODE_INLINE void bg_enc_on_board(const int8_t *pt, int *mine, int *theirs) {
    int p, m = 0, t = 0;
    for (p = 0; p <= 25; p++) {
        m += bg_enc_mine(pt[p]);
        t += bg_enc_theirs(pt[p]);
    }
    *mine = m;
    *theirs = t;
}

/* The slots lo..hi (within 1..24) that hold checkers of a side (0: the
   mover's, 1: the opponent's) as bits 1 << p; all of them for the dense
   form, which writes every input.  The sparse form then visits only the
   occupied points (a board holds a side's checkers on a dozen points at
   most), in order, by the lowest or highest bit left. */
BG_ENCODE_INLINE uint32_t bg_enc_slots(int dense, const int8_t *pt, int side, int lo, int hi) {
    uint32_t m = 0;
    int p;
    for (p = lo; p <= hi; p++)
        m |= (uint32_t)(dense || (side ? pt[p] < 0 : pt[p] > 0)) << p;
    return m;
}

#if defined(__GNUC__) || defined(__clang__)
BG_ENCODE_INLINE int bg_enc_lowest(uint32_t m) {
    return __builtin_ctz(m);
}
BG_ENCODE_INLINE int bg_enc_highest(uint32_t m) {
    return 31 - __builtin_clz(m);
}
#else
BG_ENCODE_INLINE int bg_enc_lowest(uint32_t m) {
    int p = 0;
    while (!(m & 1u)) {
        m >>= 1;
        p++;
    }
    return p;
}
BG_ENCODE_INLINE int bg_enc_highest(uint32_t m) {
    int p = 31;
    while (!(m & 0x80000000u)) {
        m <<= 1;
        p--;
    }
    return p;
}
#endif

/* Each encoding, written once for both forms: dense (every input into
   out[0 .. bg_encode_inputs), idx unused; returns 0) or sparse (the
   non-zero inputs as idx[k], out[k]; returns their count).  -1 for an
   unknown encoding.  opponent_on_roll: TD-Gammon's turn units (see
   bgcore.encode.tesauro198); ignored by the other encodings. */
BG_ENCODE_INLINE int bg_encode(int dense, int encoding, const int8_t *pt, int checkers, int opponent_on_roll,
                               uint16_t *idx, float *out) {
    int p, k = 0, mine, theirs;
    uint32_t todo;
    bg_enc_on_board(pt, &mine, &theirs);
    switch (encoding) {
    case BG_ENC_TESAURO198:
        for (todo = bg_enc_slots(dense, pt, 0, 1, 24); todo; todo &= todo - 1) {
            p = bg_enc_lowest(todo);
            k = bg_enc_units(dense, 0, bg_enc_mine(pt[p]), 4 * (p - 1), idx, out, k);
        }
        /* the opponent's point q is the mover's 25 - q: q = 1..24 ascending */
        for (todo = bg_enc_slots(dense, pt, 1, 1, 24); todo; todo ^= 1u << p) {
            p = bg_enc_highest(todo);
            k = bg_enc_units(dense, 0, bg_enc_theirs(pt[p]), 96 + 4 * (24 - p), idx, out, k);
        }
        k = bg_enc_put(dense, 192, (float)pt[25] / 2.0f, idx, out, k);
        k = bg_enc_put(dense, 193, (float)(-pt[0]) / 2.0f, idx, out, k);
        k = bg_enc_put(dense, 194, (float)(checkers - mine) / 15.0f, idx, out, k);
        k = bg_enc_put(dense, 195, (float)(checkers - theirs) / 15.0f, idx, out, k);
        k = bg_enc_put(dense, 196, opponent_on_roll ? 0.0f : 1.0f, idx, out, k);
        k = bg_enc_put(dense, 197, opponent_on_roll ? 1.0f : 0.0f, idx, out, k);
        return k;
    case BG_ENC_WILDBG_CONTACT:
        k = bg_enc_put(dense, 0, (float)(checkers - mine), idx, out, k);
        k = bg_enc_put(dense, 1, (float)(checkers - theirs), idx, out, k);
        k = bg_enc_units(dense, 1, pt[25], 2, idx, out, k);
        for (todo = bg_enc_slots(dense, pt, 0, 1, 24); todo; todo &= todo - 1) {
            p = bg_enc_lowest(todo);
            k = bg_enc_units(dense, 1, bg_enc_mine(pt[p]), 2 + 4 * p, idx, out, k);
        }
        k = bg_enc_units(dense, 1, -pt[0], 102, idx, out, k);
        for (todo = bg_enc_slots(dense, pt, 1, 1, 24); todo; todo &= todo - 1) {
            p = bg_enc_lowest(todo);
            k = bg_enc_units(dense, 1, bg_enc_theirs(pt[p]), 102 + 4 * p, idx, out, k);
        }
        return k;
    case BG_ENC_WILDBG_RACE:
        k = bg_enc_put(dense, 0, (float)(checkers - mine), idx, out, k);
        k = bg_enc_put(dense, 1, (float)(checkers - theirs), idx, out, k);
        for (todo = bg_enc_slots(dense, pt, 0, 1, 23); todo; todo &= todo - 1) {
            p = bg_enc_lowest(todo);
            k = bg_enc_units(dense, 1, bg_enc_mine(pt[p]), 4 * p - 2, idx, out, k);
        }
        for (todo = bg_enc_slots(dense, pt, 1, 2, 24); todo; todo &= todo - 1) {
            p = bg_enc_lowest(todo);
            k = bg_enc_units(dense, 1, bg_enc_theirs(pt[p]), 86 + 4 * p, idx, out, k);
        }
        return k;
    default:
        return -1;
    }
}

/* The non-zero inputs of a board: idx[k] (ascending within each part, in
   the order the encoding lists its parts) and val[k] for k < the returned
   count; -1 for an unknown encoding.  idx and val hold BG_ENC_MAX_NONZERO
   entries (those past the count are scratch). */
BG_ENCODE_INLINE int bg_encode_sparse(int encoding, const int8_t *pt, int checkers, int opponent_on_roll,
                                      uint16_t *idx, float *val) {
    return bg_encode(0, encoding, pt, checkers, opponent_on_roll, idx, val);
}

/* The dense inputs of a board into out[0 .. bg_encode_inputs(encoding));
   -1 for an unknown encoding (out untouched), else 0. */
BG_ENCODE_INLINE int bg_encode_dense(int encoding, const int8_t *pt, int checkers, int opponent_on_roll,
                                     float *out) {
    return bg_encode(1, encoding, pt, checkers, opponent_on_roll, NULL, out);
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
