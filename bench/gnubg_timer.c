/*
 * gnubg_timer.c - a native loop over GNU Backgammon's move generator.
 *
 * Compiled at run time by gnubg_native.py (cc -O2 -shared -fPIC) so that the
 * benchmark measures gnubg's C GenerateMoves without any Python or ctypes
 * overhead per generation, just like bgcore._batch.count_many measures
 * bgcore's generator.  gnubg is not linked: the caller passes the address of
 * GenerateMoves, taken from gnubg's extension module with ctypes.
 */

/* gnubg's movelist (eval.h).  GenerateMoves points amMoves at its own static
 * array, so nothing has to be allocated or freed here. */
typedef struct {
    unsigned int cMoves;
    unsigned int cMaxMoves;
    unsigned int cMaxPips;
    int iMoveBest;
    float rBestScore;
    void *amMoves;
} movelist;

/* int GenerateMoves(movelist *pml, const TanBoard anBoard, int n0, int n1, int fPartial);
 * TanBoard is unsigned int[2][25]: [0] the opponent, [1] the player on roll. */
typedef int (*generate_moves_fn)(movelist *pml, const unsigned int anBoard[2][25],
                                 int n0, int n1, int fPartial);

/*
 * Run GenerateMoves on n (board, dice) pairs, `repeats` times over.
 *
 *   generate_moves: the address of gnubg's GenerateMoves
 *   boards:         n TanBoards back to back (n * 2 * 25 unsigned ints)
 *   dice:           n rolls back to back (n * 2 ints)
 *
 *   lost_turns:     if not NULL, receives the number of calls that returned
 *                   no move at all (cMoves == 0: the roll cannot be played)
 *
 * Returns the total of pml->cMoves over all n * repeats calls (so the caller
 * can check it against bgcore's count and the compiler cannot drop the work),
 * or -1 on bad arguments.  gnubg reports a lost turn as 0 moves where bgcore
 * counts its one result (the empty move), so bgcore's total equals
 * total + *lost_turns.
 */
long long time_gnubg(void *generate_moves, const unsigned int *boards, const int *dice,
                     int n, int repeats, long long *lost_turns)
{
    generate_moves_fn gen = (generate_moves_fn)generate_moves;
    movelist ml;
    long long total = 0, lost = 0;
    int r, i;

    if (gen == 0 || boards == 0 || dice == 0 || n < 0 || repeats < 0)
        return -1;
    for (r = 0; r < repeats; r++) {
        for (i = 0; i < n; i++) {
            gen(&ml, (const unsigned int (*)[25])(boards + (long)i * 50),
                dice[2 * i], dice[2 * i + 1], 0);
            total += ml.cMoves;
            lost += ml.cMoves == 0;
        }
    }
    if (lost_turns)
        *lost_turns = lost;
    return total;
}
