/* The doubling cube at 0-ply, as GNU Backgammon estimates it: position
   classes, cube efficiency, cubeful equities and cube decisions from
   cubeless probabilities.  Header-only (every function is static inline,
   C99, no allocation, no state), so safe on any number of threads without
   the GIL.

   The specification is GNU Backgammon's eval.c and matchequity.c (its
   ClassifyPosition, EvalEfficiency, Cl2CfMoney, Cl2CfMatch and the three
   functions behind it, GetPoints, GetDPEq, GetECF3, FindBestCubeDecision,
   with the cubeful bear-off case of EvaluatePositionCubeful4), rewritten
   here for bgcore's boards, in double precision and from the point of view
   of the player on roll.  Checked against the gnubg 1.1.0a16 package by
   tests/test_cube_gnubg.py.

   The model.  From cubeless probabilities p = (win, win gammon, win
   backgammon, lose gammon, lose backgammon), gammons counting backgammons,
   gnubg interpolates a "live cube" equity linearly in the winning chance
   between the points where the cube changes hands (take point, cash
   point; in match play from the match equity table, GetPoints) and the
   ends (the average win and loss), and blends it with the dead-cube
   (cubeless) equity: E = (1 - x) E_dead + x E_live, x the cube efficiency
   of the position's class.  Money equities are per unit of the cube of
   their state; match values are match winning chances (MWC).

   Boards are bgcore's 26 signed bytes seen from the player on roll (see
   bg_eval.h): pt[1..24] the points in the mover's numbering (positive:
   the mover's checkers), pt[25] the mover's bar, pt[0] the opponent's bar
   (<= 0).  No function checks its arguments: bgcore.cube does. */
#ifndef BG_CUBE_H
#define BG_CUBE_H

#include <stdint.h>

#if defined(_MSC_VER)
#define BG_CUBE_INLINE static __inline
#else
#define BG_CUBE_INLINE static inline
#endif

/* --- position classes --------------------------------------------------

   gnubg's positionclass numbers for the classes a standard board can fall
   in (its hypergammon classes, 1-3, need its variant; 5 and 7 name bear-off
   databases the gnubg package does not load). */
enum {
    BG_CLASS_OVER = 0,      /* a side has borne off every checker */
    BG_CLASS_BEAROFF2 = 4,  /* no contact, each side <= 6 checkers, all home */
    BG_CLASS_BEAROFF1 = 6,  /* no contact, every checker home */
    BG_CLASS_RACE = 8,      /* no contact */
    BG_CLASS_CRASHED = 9,   /* contact, a side's board crashed */
    BG_CLASS_CONTACT = 10
};

/* A side's checkers, counted in that side's own numbering: n[0..23] its
   points 1-24, n[24] its bar. */
typedef struct {
    int n[25];
} bg_cube_side;

BG_CUBE_INLINE void bg_cube_sides(const int8_t *pt, bg_cube_side *mine, bg_cube_side *theirs) {
    for (int p = 1; p <= 24; p++) {
        mine->n[p - 1] = pt[p] > 0 ? pt[p] : 0;
        theirs->n[24 - p] = pt[p] < 0 ? -pt[p] : 0;
    }
    mine->n[24] = pt[25];
    theirs->n[24] = -pt[0];
}

/* The side's rearmost occupied slot (24: the bar), -1 when it has none. */
BG_CUBE_INLINE int bg_cube_back(const bg_cube_side *s) {
    int i = 24;
    while (i >= 0 && s->n[i] == 0)
        i--;
    return i;
}

BG_CUBE_INLINE int bg_cube_total(const bg_cube_side *s) {
    int t = 0;
    for (int i = 0; i < 25; i++)
        t += s->n[i];
    return t;
}

/* gnubg calls a contact position "crashed" when a side has few checkers
   left in play, counting a stack on its ace point (and 2-point) as dead. */
BG_CUBE_INLINE int bg_cube_crashed(const bg_cube_side *s) {
    const int limit = 6;
    int tot = bg_cube_total(s), ace = s->n[0], two = s->n[1];
    if (tot <= limit)
        return 1;
    if (ace > 1)
        return tot <= limit + ace || (two > 1 && 1 + tot - (ace + two) <= limit);
    return tot <= limit + two - 1;
}

/* Whether both sides fit a bear-off database of `points` points and
   `checkers` checkers (gnubg's isBearoff). */
BG_CUBE_INLINE int bg_cube_fits(const bg_cube_side *a, const bg_cube_side *b, int points, int checkers) {
    return bg_cube_back(a) < points && bg_cube_back(b) < points && bg_cube_total(a) <= checkers &&
           bg_cube_total(b) <= checkers;
}

/* gnubg's ClassifyPosition for a standard board (with gnubg's one-sided
   6-point and two-sided 6x6 bear-off databases, those of its package). */
BG_CUBE_INLINE int bg_position_class(const int8_t *pt) {
    bg_cube_side mine, theirs;
    bg_cube_sides(pt, &mine, &theirs);
    int back = bg_cube_back(&mine), their_back = bg_cube_back(&theirs);
    if (back < 0 || their_back < 0)
        return BG_CLASS_OVER;
    /* The rearmost checkers in the two numberings pass each other: contact. */
    if (back + their_back > 22)
        return bg_cube_crashed(&theirs) || bg_cube_crashed(&mine) ? BG_CLASS_CRASHED : BG_CLASS_CONTACT;
    if (bg_cube_fits(&mine, &theirs, 6, 6))
        return BG_CLASS_BEAROFF2;
    if (bg_cube_fits(&mine, &theirs, 6, 15))
        return BG_CLASS_BEAROFF1;
    return BG_CLASS_RACE;
}

/* The cube efficiency x of gnubg's EvalEfficiency: how much of the live
   cube's value a position of the class keeps.  gnubg 1.1.0a16 has two
   sets, by the depth of the evaluation that uses it (its evalcontext's
   plies): 0-1 ply and 2+ ply.  Races scale with the pips of the player on
   roll.  The constants are gnubg's floats. */
BG_CUBE_INLINE double bg_cube_efficiency(const int8_t *pt, int pc, int plies) {
    int shallow = plies <= 1;
    switch (pc) {
    case BG_CLASS_OVER:
        return 0.0; /* the cube is dead */
    case BG_CLASS_CONTACT:
    case BG_CLASS_CRASHED:
        return shallow ? 0.76f : 0.68f;
    case BG_CLASS_RACE: {
        int pips = 0;
        for (int p = 1; p <= 25; p++)
            if (pt[p] > 0)
                pips += p * pt[p];
        double x = shallow ? pips * (double)0.0025f + 0.6f : pips * (double)0.00125f + 0.55f;
        double top = shallow ? 0.8f : 0.7f, bottom = 0.6f;
        return x > top ? top : (x < bottom ? bottom : x);
    }
    default: /* the bear-offs (one-sided for money and match, two-sided for match) */
        return 0.6f;
    }
}

/* --- cube states and the match equity table ---------------------------- */

enum { BG_CUBE_CENTRED = -1, BG_CUBE_MINE = 0, BG_CUBE_THEIRS = 1 };

/* The cube and score as the player on roll sees them.  away == 0: money
   play (jacoby, beavers apply); else match play, away and opp_away the
   points the player on roll and the opponent need (1 .. the table's size),
   crawford set in the Crawford game.  In a post-Crawford game one side is
   1-away and crawford is 0. */
typedef struct {
    int32_t away, opp_away;
    int32_t cube;
    int32_t owner; /* BG_CUBE_CENTRED, BG_CUBE_MINE or BG_CUBE_THEIRS */
    int32_t crawford;
    int32_t jacoby, beavers;
} bg_cube_state;

/* A match equity table (bgcore.met's): pre[(i - 1) * size + (j - 1)] the
   MWC at i-away against j-away before the Crawford rule is used up (its
   1-away row: the Crawford game); post[j - 1] the MWC of a trailer j-away
   against a leader 1-away after the Crawford game. */
typedef struct {
    const double *pre;
    const double *post;
    int32_t size;
} bg_met;

/* The MWC of a side a-away against b-away at the start of a game (<= 0:
   that side has won); post: the game is post-Crawford. */
BG_CUBE_INLINE double bg_met_at(const bg_met *m, int a, int b, int post) {
    if (a <= 0)
        return 1.0;
    if (b <= 0)
        return 0.0;
    if (post)
        return a == 1 ? 1.0 - m->post[b - 1] : m->post[a - 1];
    return m->pre[(a - 1) * m->size + (b - 1)];
}

/* Whether the games after this one are post-Crawford. */
BG_CUBE_INLINE int bg_cube_post_next(const bg_cube_state *s) {
    return s->crawford || s->away == 1 || s->opp_away == 1;
}

/* The MWC of side k (0: the player on roll) after this game, in which it
   wins (won != 0) or loses `points`. */
BG_CUBE_INLINE double bg_cube_after(const bg_cube_state *s, const bg_met *m, int k, int won, int points) {
    int a = k ? s->opp_away : s->away, b = k ? s->away : s->opp_away;
    return won ? bg_met_at(m, a - points, b, bg_cube_post_next(s)) : bg_met_at(m, a, b - points, bg_cube_post_next(s));
}

/* The cubeless MWC of the player on roll: each of the six results weighed
   by the MWC after it (gnubg's eq2mwc of its gammon-price Utility). */
BG_CUBE_INLINE double bg_cube_dead_mwc(const double *p, const bg_cube_state *s, const bg_met *m) {
    int c = s->cube;
    return (p[0] - p[1]) * bg_cube_after(s, m, 0, 1, c) + (p[1] - p[2]) * bg_cube_after(s, m, 0, 1, 2 * c) +
           p[2] * bg_cube_after(s, m, 0, 1, 3 * c) + (1.0 - p[0] - p[3]) * bg_cube_after(s, m, 0, 0, c) +
           (p[3] - p[4]) * bg_cube_after(s, m, 0, 0, 2 * c) + p[4] * bg_cube_after(s, m, 0, 0, 3 * c);
}

/* Equity per unit of the state's cube <-> MWC: linear between losing the
   cube's value (-1) and winning it (+1), as gnubg's eq2mwc and mwc2eq. */
BG_CUBE_INLINE double bg_cube_mwc_to_eq(double mwc, const bg_cube_state *s, const bg_met *m) {
    double win = bg_cube_after(s, m, 0, 1, s->cube), lose = bg_cube_after(s, m, 0, 0, s->cube);
    return (2.0 * mwc - (win + lose)) / (win - lose);
}

/* --- money play ---------------------------------------------------------- */

/* gnubg's Cl2CfMoney: Rick Janowski's cubeful money equity, per unit of
   the state's cube. */
BG_CUBE_INLINE double bg_cube_money(const double *p, const bg_cube_state *s, double x) {
    double w = p[0];
    int jacoby = s->jacoby && s->owner == BG_CUBE_CENTRED; /* gammons count single */
    double dead = 2.0 * w - 1.0 + (jacoby ? 0.0 : (p[1] - p[3]) + (p[2] - p[4]));
    /* Next to a certain result the cube is dead (gnubg's float bounds). */
    if (!(w > (double)1e-7f) || !(w < (double)0.9999999f))
        return dead;
    double W = 1.0 + (p[1] + p[2]) / w;         /* the average win */
    double L = 1.0 + (p[3] + p[4]) / (1.0 - w); /* the average loss */
    double take = (L - 0.5) / (W + L + 0.5), cash = (L + 1.0) / (W + L + 0.5);
    double live;
    if (s->owner == BG_CUBE_CENTRED) {
        /* (0, -L), (take, -1), (cash, +1), (1, W); the Jacoby rule flattens the ends */
        if (w < take)
            live = jacoby ? -1.0 : -L + (L - 1.0) * w / take;
        else if (w < cash)
            live = -1.0 + 2.0 * (w - take) / (cash - take);
        else
            live = jacoby ? 1.0 : 1.0 + (W - 1.0) * (w - cash) / (1.0 - cash);
    } else if (s->owner == BG_CUBE_MINE) {
        /* (0, -L), (cash, +1), (1, W) */
        live = w < cash ? -L + (1.0 + L) * w / cash : 1.0 + (W - 1.0) * (w - cash) / (1.0 - cash);
    } else {
        /* (0, -L), (take, -1), (1, W) */
        live = w < take ? -L + (L - 1.0) * w / take : -1.0 + (W + 1.0) * (w - take) / (1.0 - take);
    }
    return dead * (1.0 - x) + live * x;
}

/* --- match play ---------------------------------------------------------- */

/* The gammon and backgammon rates of each side's wins: g[0], bg[0] of the
   player on roll's, g[1], bg[1] of the opponent's (gammons without
   backgammons). */
BG_CUBE_INLINE void bg_cube_rates(const double *p, double g[2], double bg[2]) {
    g[0] = bg[0] = g[1] = bg[1] = 0.0;
    if (p[0] > 0.0) {
        g[0] = (p[1] - p[2]) / p[0];
        bg[0] = p[2] / p[0];
    }
    if (p[0] < 1.0) {
        g[1] = (p[3] - p[4]) / (1.0 - p[0]);
        bg[1] = p[4] / (1.0 - p[0]);
    }
}

/* The MWC of side k when it wins (won != 0) or loses a game worth `points`,
   a single game (1 - g - bg), a gammon (g, twice) or a backgammon (bg,
   three times): the rates are the winner's. */
BG_CUBE_INLINE double bg_cube_result(const bg_cube_state *s, const bg_met *m, int k, int won, int points,
                                     const double g[2], const double bg[2]) {
    int w = won ? k : 1 - k;
    return (1.0 - g[w] - bg[w]) * bg_cube_after(s, m, k, won, points) +
           g[w] * bg_cube_after(s, m, k, won, 2 * points) + bg[w] * bg_cube_after(s, m, k, won, 3 * points);
}

/* gnubg's GetPoints: the live-cube cash point of each side (cp[0]: the
   player on roll's winning chance at which it cashes, cp[1] the opponent's,
   each in its own winning chance).  It walks down from the highest cube
   both sides can still use: there the doubled cube is dead (the dead-cube
   take point, counting the opponent's automatic redouble), below it each
   cash point follows from the other side's one level up. */
BG_CUBE_INLINE void bg_cube_points(const double g[2], const double bg[2], const bg_cube_state *s, const bg_met *m,
                                   double cp[2]) {
    double live[2][16];
    int i = s->away - 1, j = s->opp_away - 1; /* gnubg's normalised score */
    int top = s->cube, n = 0;
    while (i >= 2 * top && j >= 2 * top) {
        top *= 2;
        n++;
    }
    for (int c = top; c >= s->cube; c >>= 1, n--) {
        for (int k = 0; k < 2; k++) {
            int mine = k ? j : i, theirs = k ? i : j;
            double dp = bg_cube_after(s, m, k, 1, c); /* double, pass */
            if (i < 2 * c || j < 2 * c) {
                /* The doubled cube is dead; the opponent (theirs) redoubles at
                   once when that is free for it. */
                int d = (mine < 2 * c && theirs >= 2 * c) ? 4 * c : 2 * c;
                double dtl = bg_cube_result(s, m, k, 0, d, g, bg);
                double dtw = bg_cube_result(s, m, k, 1, d, g, bg);
                live[k][n] = (dtl - dp) / (dtl - dtw);
            } else {
                double rdp = bg_cube_after(s, m, k, 0, 2 * c); /* redouble, pass */
                double dtw = bg_cube_result(s, m, k, 1, 2 * c, g, bg);
                live[k][n] = 1.0 - live[1 - k][n + 1] * (dp - dtw) / (rdp - dtw);
            }
        }
    }
    cp[0] = live[0][0];
    cp[1] = live[1][0];
}

/* Whether gnubg's match evaluation uses the cube at all (fDoCubeful): not
   when neither side can gain by it, at 2-away 2-away, nor in the Crawford
   game. */
BG_CUBE_INLINE int bg_cube_match_live(const bg_cube_state *s) {
    if (s->away <= s->cube && s->opp_away <= s->cube)
        return 0;
    if (s->away == 2 && s->opp_away == 2)
        return 0;
    return !s->crawford;
}

/* gnubg's Cl2CfMatch (Joern Thyssen's generalisation of Janowski's
   formulae): the cubeful MWC of the player on roll. */
BG_CUBE_INLINE double bg_cube_match(const double *p, const bg_cube_state *s, const bg_met *m, double x) {
    double dead = bg_cube_dead_mwc(p, s, m);
    if (!bg_cube_match_live(s))
        return dead;
    double g[2], bg[2], cp[2];
    bg_cube_rates(p, g, bg);
    bg_cube_points(g, bg, s, m, cp);
    int c = s->cube;
    double w = p[0];
    double cash = bg_cube_after(s, m, 0, 1, c), opp_cash = bg_cube_after(s, m, 0, 0, c);
    double tg = cp[0], opp_tg = 1.0 - cp[1]; /* too good for me, for the opponent */
    double live;
    int low = s->owner == BG_CUBE_MINE ? w <= tg : w <= opp_tg;
    if (low) {
        /* (0, MWC of my average loss) up to the point where the opponent
           (or I, owning the cube) would cash */
        double lose = bg_cube_result(s, m, 0, 0, c, g, bg);
        double at = s->owner == BG_CUBE_MINE ? tg : opp_tg;
        double end = s->owner == BG_CUBE_MINE ? cash : opp_cash;
        live = at > 0.0 ? lose + (end - lose) * w / at : lose;
    } else if (s->owner == BG_CUBE_CENTRED && w < tg) {
        /* the doubling window: opponent cashes at opp_tg, I cash at tg */
        live = opp_cash + (cash - opp_cash) * (w - opp_tg) / (tg - opp_tg);
    } else {
        /* up to (1, MWC of my average win) */
        double win = bg_cube_result(s, m, 0, 1, c, g, bg);
        double at = s->owner == BG_CUBE_THEIRS ? opp_tg : tg;
        double start = s->owner == BG_CUBE_THEIRS ? opp_cash : cash;
        live = at < 1.0 ? start + (win - start) * (w - at) / (1.0 - at) : win;
    }
    return dead * (1.0 - x) + live * x;
}

/* --- one cube state at 0-ply --------------------------------------------- */

/* The 0-ply equity of state s, without a double now (no_double): money per
   unit of s's cube, match as MWC.  bearoff: NULL, or the exact cubeful
   money equities of a two-sided bear-off, as gnubg's database gives them
   (cubeless, cube owned, centred, opponent's): gnubg then plays on the
   winning chance (bearoff[0] + 1) / 2 without gammons, takes money
   equities from the table and, in match play, the efficiency they imply
   (clamped to [0, x]). */
BG_CUBE_INLINE double bg_cube_no_double(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                                        const double *bearoff) {
    if (!bearoff)
        return s->away ? bg_cube_match(p, s, m, x) : bg_cube_money(p, s, x);
    const double *e = bearoff;
    double exact = s->owner == BG_CUBE_CENTRED ? e[2] : (s->owner == BG_CUBE_MINE ? e[1] : e[3]);
    if (!s->away)
        return exact;
    double q[5] = {(e[0] + 1.0) / 2.0, 0.0, 0.0, 0.0, 0.0};
    bg_cube_state money = {0, 0, 1, s->owner, 0, 0, 0};
    double full = bg_cube_money(q, &money, 1.0), xe = x;
    if ((full > e[0] ? full - e[0] : e[0] - full) > 0.0001)
        xe = (exact - e[0]) / (full - e[0]);
    xe = xe < 0.0 ? 0.0 : (xe > x ? x : xe);
    return bg_cube_match(q, s, m, xe);
}

/* The probabilities gnubg plays on: p, or the bear-off table's. */
BG_CUBE_INLINE const double *bg_cube_probs(const double *p, const double *bearoff, double q[5]) {
    if (!bearoff)
        return p;
    q[0] = (bearoff[0] + 1.0) / 2.0;
    q[1] = q[2] = q[3] = q[4] = 0.0;
    return q;
}

/* Whether the player on roll may double now (gnubg's GetDPEq): holding the
   cube or with it centred, and in match play not in the Crawford game nor
   when the cube's value already wins the match. */
BG_CUBE_INLINE int bg_cube_available(const bg_cube_state *s) {
    if (s->owner == BG_CUBE_THEIRS)
        return 0;
    return !s->away || (!s->crawford && s->away > s->cube);
}

/* The state after a double and a take: twice the cube, the opponent's. */
BG_CUBE_INLINE bg_cube_state bg_cube_doubled(const bg_cube_state *s) {
    bg_cube_state d = *s;
    d.cube = 2 * s->cube;
    d.owner = BG_CUBE_THEIRS;
    return d;
}

/* The three outcomes of the cube action: no double, double/take (money: in
   units of s's cube), double/pass. */
BG_CUBE_INLINE void bg_cube_options(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                                    const double *bearoff, double out[3]) {
    bg_cube_state d = bg_cube_doubled(s);
    out[0] = bg_cube_no_double(p, s, m, x, bearoff);
    out[1] = bg_cube_no_double(p, &d, m, x, bearoff) * (s->away ? 1.0 : 2.0);
    out[2] = s->away ? bg_cube_after(s, m, 0, 1, s->cube) : 1.0;
}

/* gnubg's 0-ply cubeful equity of the player on roll, whose doubling
   option counts (GetECF3): money per unit of s's cube, match as MWC. */
BG_CUBE_INLINE double bg_cubeful(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                                 const double *bearoff) {
    if (!bg_cube_available(s))
        return bg_cube_no_double(p, s, m, x, bearoff);
    double o[3];
    bg_cube_options(p, s, m, x, bearoff, o);
    if (o[1] >= o[0] && o[2] >= o[0])
        return o[1] >= o[2] ? o[2] : o[1];
    return o[0];
}

/* --- the cube decision --------------------------------------------------- */

/* gnubg's cubedecision numbers (and GetCubeRecommendation's words). */
enum {
    BG_DOUBLE_TAKE = 0,             /* Double, take */
    BG_DOUBLE_PASS = 1,             /* Double, pass */
    BG_NODOUBLE_TAKE = 2,           /* No double, take */
    BG_TOOGOOD_TAKE = 3,            /* Too good to double, take */
    BG_TOOGOOD_PASS = 4,            /* Too good to double, pass */
    BG_DOUBLE_BEAVER = 5,           /* Double, beaver */
    BG_NODOUBLE_BEAVER = 6,         /* No double, beaver */
    BG_REDOUBLE_TAKE = 7,           /* Redouble, take */
    BG_REDOUBLE_PASS = 8,           /* Redouble, pass */
    BG_NO_REDOUBLE_TAKE = 9,        /* No redouble, take */
    BG_TOOGOODRE_TAKE = 10,         /* Too good to redouble, take */
    BG_TOOGOODRE_PASS = 11,         /* Too good to redouble, pass */
    BG_NO_REDOUBLE_BEAVER = 12,     /* No redouble, beaver */
    BG_NODOUBLE_DEADCUBE = 13,      /* Never double, take (dead cube) */
    BG_NO_REDOUBLE_DEADCUBE = 14,   /* Never redouble, take (dead cube) */
    BG_NOT_AVAILABLE = 15,          /* Cube not available */
    BG_OPTIONAL_DOUBLE_TAKE = 16,   /* Optional double, take */
    BG_OPTIONAL_REDOUBLE_TAKE = 17, /* Optional redouble, take */
    BG_OPTIONAL_DOUBLE_BEAVER = 18, /* Optional double, beaver */
    BG_OPTIONAL_DOUBLE_PASS = 19,   /* Optional double, pass */
    BG_OPTIONAL_REDOUBLE_PASS = 20  /* Optional redouble, pass */
};

/* The doubled player's reply. */
enum { BG_TAKE = 0, BG_PASS = 1, BG_BEAVER = 2 };

typedef struct {
    double no_double, double_take, double_pass; /* money: per unit of the cube; match: MWC */
    double best;                                /* the value of the proper action, as gnubg's optimum */
    int32_t action;                             /* BG_DOUBLE_TAKE, ... */
    int32_t response;                           /* BG_TAKE, BG_PASS or BG_BEAVER */
} bg_cube_decision;

/* gnubg's FindBestCubeDecision (as the gnubg 1.1.0a16 package has it) on
   equities e[3] (no double, double/take, double/pass; match play:
   normalised with mwc2eq), given the winning chance and whether a gammon
   can be won.  Sets *best to the index of the optimal equity. */
BG_CUBE_INLINE int bg_cube_action(const double e[3], const bg_cube_state *s, double win, int win_gammon, int *best) {
    const double nd = e[0], dt = e[1], dp = e[2];
    int centred = s->owner == BG_CUBE_CENTRED;
    int beaver = !s->away && s->beavers && dt >= -2.0 && dt <= 0.0;
    *best = 0;
    if (!bg_cube_available(s)) {
        if (s->away && s->owner != BG_CUBE_THEIRS)
            return centred ? BG_NODOUBLE_DEADCUBE : BG_NO_REDOUBLE_DEADCUBE;
        return BG_NOT_AVAILABLE;
    }
    /* "optional": the double changes the equity by at most gnubg's 1e-5 */
#define BG_CUBE_SAME(a, b) (((a) > (b) ? (a) - (b) : (b) - (a)) <= (double)1.0e-5f)
    if (dt >= nd && dp >= nd) {
        if (dp > dt) { /* double, take */
            int optional = BG_CUBE_SAME(dt, nd);
            *best = 1;
            if (beaver) {
                if (2.0 * dt < nd)
                    return BG_NODOUBLE_BEAVER; /* the beaver makes doubling wrong */
                return optional ? BG_OPTIONAL_DOUBLE_BEAVER : BG_DOUBLE_BEAVER;
            }
            if (win <= 0.0) /* a double that cannot win is no double (the optimum stays the take's) */
                return centred ? BG_NODOUBLE_TAKE : BG_NO_REDOUBLE_TAKE;
            if (optional)
                return centred ? BG_OPTIONAL_DOUBLE_TAKE : BG_OPTIONAL_REDOUBLE_TAKE;
            return centred ? BG_DOUBLE_TAKE : BG_REDOUBLE_TAKE;
        }
        /* double, pass: optional when passing gives what playing on does and
           playing on could still win a gammon that counts */
        *best = 2;
        if (BG_CUBE_SAME(nd, dp) && win_gammon && (s->away || !centred || !s->jacoby))
            return centred ? BG_OPTIONAL_DOUBLE_PASS : BG_OPTIONAL_REDOUBLE_PASS;
        return centred ? BG_DOUBLE_PASS : BG_REDOUBLE_PASS;
    }
#undef BG_CUBE_SAME
    /* no double; "too good" only with a gammon to play for */
    if (nd > dt && dt > dp)
        return win_gammon ? (centred ? BG_TOOGOOD_PASS : BG_TOOGOODRE_PASS)
                          : (centred ? BG_DOUBLE_PASS : BG_REDOUBLE_PASS);
    if (nd > dt && nd > dp)
        return win_gammon ? (centred ? BG_TOOGOOD_TAKE : BG_TOOGOODRE_TAKE)
                          : (centred ? BG_NODOUBLE_TAKE : BG_NO_REDOUBLE_TAKE);
    if (nd > dt) /* dp >= nd > dt */
        return beaver ? (centred ? BG_NODOUBLE_BEAVER : BG_NO_REDOUBLE_BEAVER)
                      : (centred ? BG_NODOUBLE_TAKE : BG_NO_REDOUBLE_TAKE);
    /* dt >= nd > dp */
    return win_gammon ? (centred ? BG_TOOGOOD_PASS : BG_TOOGOODRE_PASS) : (centred ? BG_DOUBLE_PASS : BG_REDOUBLE_PASS);
}

/* gnubg's judgement of the three outcomes v[3] of a cube action (no
   double, double/take, double/pass: money per unit of the cube, match MWC)
   of the player on roll in state s, whose winning chance is `win` and who
   can (win_gammon != 0) win a gammon: the proper action, its value and the
   doubled player's reply (pass when a take gives the doubler at least as
   much; a beaver, with beavers in money play, when the take leaves the
   doubler at most 0).  The values may be 0-ply estimates or a rollout's. */
BG_CUBE_INLINE void bg_cube_judge(const double v[3], const bg_cube_state *s, const bg_met *m, double win,
                                  int win_gammon, bg_cube_decision *out) {
    double e[3];
    int best;
    for (int k = 0; k < 3; k++)
        e[k] = s->away ? bg_cube_mwc_to_eq(v[k], s, m) : v[k];
    out->no_double = v[0];
    out->double_take = v[1];
    out->double_pass = v[2];
    out->action = bg_cube_action(e, s, win, win_gammon, &best);
    out->best = v[best];
    if (e[1] >= e[2])
        out->response = BG_PASS;
    else if (!s->away && s->beavers && e[1] >= -2.0 && e[1] <= 0.0)
        out->response = BG_BEAVER;
    else
        out->response = BG_TAKE;
}

/* gnubg's 0-ply cube decision for the player on roll (GeneralCubeDecisionE
   and FindCubeDecision): the three outcomes, judged by bg_cube_judge. */
BG_CUBE_INLINE void bg_cube_decide(const double *p, const bg_cube_state *s, const bg_met *m, double x,
                                   const double *bearoff, bg_cube_decision *out) {
    double q[5], v[3];
    const double *pp = bg_cube_probs(p, bearoff, q);
    bg_cube_options(p, s, m, x, bearoff, v);
    bg_cube_judge(v, s, m, pp[0], pp[1] > 0.0, out);
}

#endif /* BG_CUBE_H */
