/* The doubling cube in the games the native engine plays (bgcore's
   _engine.pyx): cubeful rollouts and cube duels.  Header-only, C99, no
   allocation, no state: any number of threads may call it without the GIL.

   A game's cube lives in a "branch": its value, its owner and, once the
   game has ended in that branch, player 0's points.  A cubeful rollout
   plays two branches on one board (the same dice and the same cubeless
   checker play): no double at the start, and double/take; a duel plays one.
   Players are 0 and 1 (0: on roll at the start of a rollout); the theory is
   bg_cube.h's 0-ply cube decision, as gnubg's rollouts use it (its
   BasicCubefulRollout): the player on roll doubles on "double, take",
   "double, pass", "double, beaver" and their redouble forms, never on an
   optional double nor when too good; the doubled player answers by its own
   probabilities.  bgcore.Game's rules decide what is legal: the cube at
   most its limit (Game's max_cube, 4096 by default), beavers only in money
   play and only when the cube can grow twice more, gammons single under the
   Jacoby rule while the cube is centred. */
#ifndef BG_CUBEPLAY_H
#define BG_CUBEPLAY_H

#include "bg_cube.h"

/* The rules and score of the game being played. */
typedef struct {
    int32_t length;  /* points to win the match; 0: money play */
    int32_t away[2]; /* match play: the points players 0 and 1 need */
    int32_t crawford; /* match play: this game is the Crawford game */
    int32_t jacoby, beavers; /* money play */
    int32_t limit;    /* the largest cube (a power of two): no double, nor beaver, past it */
} bg_cubeplay_rules;

typedef struct {
    int32_t cube;
    int32_t owner;  /* -1: centred, else the player who owns it */
    int32_t over;   /* the game has ended in this branch */
    int32_t points; /* once over: player 0's points, negative when player 0 lost */
} bg_cubeplay_branch;

/* What happened at a cube turn. */
enum { BG_PLAY_ON = 0, BG_DOUBLE_TAKEN = 1, BG_DOUBLE_PASSED = 2, BG_BEAVER_TAKEN = 3, BG_BEAVER_PASSED = 4 };

/* Branch b's cube state as `player` sees it, on roll. */
BG_CUBE_INLINE bg_cube_state bg_cubeplay_state(const bg_cubeplay_rules *r, const bg_cubeplay_branch *b, int player) {
    bg_cube_state s;
    s.away = r->length ? r->away[player] : 0;
    s.opp_away = r->length ? r->away[1 - player] : 0;
    s.cube = b->cube;
    s.owner = b->owner < 0 ? BG_CUBE_CENTRED : (b->owner == player ? BG_CUBE_MINE : BG_CUBE_THEIRS);
    s.crawford = r->length ? r->crawford : 0;
    s.jacoby = r->length ? 0 : r->jacoby;
    s.beavers = r->length ? 0 : r->beavers;
    return s;
}

/* Whether `player`, on roll, may usefully double in b: the game goes on
   there, the cube is below its limit and the theory has it available (the
   player's or centred; in match play not in the Crawford game nor once the
   cube's value wins the match for the player). */
BG_CUBE_INLINE int bg_cubeplay_may_double(const bg_cubeplay_rules *r, const bg_cubeplay_branch *b, int player) {
    if (b->over || 2 * b->cube > r->limit)
        return 0;
    bg_cube_state s = bg_cubeplay_state(r, b, player);
    return bg_cube_available(&s);
}

/* The game ends in b: `winner` wins `points`. */
BG_CUBE_INLINE void bg_cubeplay_end(bg_cubeplay_branch *b, int winner, int32_t points) {
    b->over = 1;
    b->points = winner == 0 ? points : -points;
}

/* The game is borne off: `winner` wins kind (1: single, 2: gammon, 3:
   backgammon) times the cube of every branch still playing, a single game
   under the Jacoby rule while the cube is centred. */
BG_CUBE_INLINE void bg_cubeplay_borne_off(const bg_cubeplay_rules *r, bg_cubeplay_branch *b, int winner, int kind) {
    if (b->over)
        return;
    if (!r->length && r->jacoby && b->owner < 0)
        kind = 1;
    bg_cubeplay_end(b, winner, kind * b->cube);
}

/* Whether a decision turns the cube (gnubg's rollouts: not the optional
   ones, nor "too good"). */
BG_CUBE_INLINE int bg_cubeplay_doubles(int action) {
    return action == BG_DOUBLE_TAKE || action == BG_DOUBLE_PASS || action == BG_DOUBLE_BEAVER ||
           action == BG_REDOUBLE_TAKE || action == BG_REDOUBLE_PASS;
}

/* The cube turn of `mover` in branch b (bg_cubeplay_may_double true),
   before its roll, on board pt (the mover's view): the mover decides by
   its probabilities p of the board; when it doubles, the opponent answers
   by its probabilities q of the same board (the mover's view; q == p when
   both use one evaluator), or always takes (q NULL: a player without cube
   theory).  A pass ends b, the doubler winning the cube before the double;
   a take gives the taker the cube at twice its value; a beaver (money
   play with beavers, room for the cube at four times its value) makes the
   doubler take at four times the value (the beaverer owning it) unless,
   by p, passing for twice the value is better.  Returns BG_PLAY_ON, ... */
BG_CUBE_INLINE int bg_cubeplay_turn(const bg_cubeplay_rules *r, bg_cubeplay_branch *b, int mover, const bg_met *m,
                                    const int8_t *pt, const double *p, const double *q) {
    bg_cube_state s = bg_cubeplay_state(r, b, mover);
    bg_cube_decision d, t;
    double x = bg_cube_efficiency(pt, bg_position_class(pt), 0);
    bg_cube_decide(p, &s, m, x, NULL, &d);
    if (!bg_cubeplay_doubles(d.action))
        return BG_PLAY_ON;
    int response = BG_TAKE;
    if (q == p) {
        response = d.response;
    } else if (q) {
        bg_cube_decide(q, &s, m, x, NULL, &t);
        response = t.response;
    }
    if (response == BG_PASS) {
        bg_cubeplay_end(b, mover, b->cube);
        return BG_DOUBLE_PASSED;
    }
    if (response == BG_BEAVER && 4 * b->cube <= r->limit) {
        bg_cube_state beavered = s;
        beavered.cube = 4 * s.cube;
        beavered.owner = BG_CUBE_THEIRS;
        /* per unit of the cube before the double: 4 units of the beavered cube */
        double take = 4.0 * bg_cube_no_double(p, &beavered, m, x, NULL);
        if (take < -2.0) {
            bg_cubeplay_end(b, 1 - mover, 2 * b->cube);
            return BG_BEAVER_PASSED;
        }
        b->cube *= 4;
        b->owner = 1 - mover;
        return BG_BEAVER_TAKEN;
    }
    b->cube *= 2;
    b->owner = 1 - mover;
    return BG_DOUBLE_TAKEN;
}

#endif /* BG_CUBEPLAY_H */
