/* Board evaluations for move choice and learning, header-only (every helper
   is static inline, C99, no allocation, no state but read-only tables, so
   safe on any number of threads):

   - bg_is_race: whether contact remains;
   - bg_pubeval: Gerald Tesauro's public-domain linear evaluator "pubeval";
   - bg_race_score: a pip-and-wastage score for a simple race policy.

   Network inputs (TD-Gammon's among them) are in bg_encode.h.

   Boards are bgcore's 26 signed bytes (movegen.pxd), seen from the player
   on roll, "the mover": pt[1..24] the points in the mover's numbering
   (positive: the mover's checkers, negative: the opponent's), pt[25] the
   mover's bar (>= 0), pt[0] the opponent's bar (<= 0).  A side's borne-off
   checkers are its total, ``checkers`` (15 in standard backgammon), less
   those on the board.  No function here checks its board: it must be valid
   for ``checkers`` (bg_check), else table indices run out of range.

   bgcore._encode wraps these over numpy arrays; bgcore.encode documents the
   encodings for Python. */
#ifndef BG_EVAL_H
#define BG_EVAL_H

#include <stdint.h>

#if defined(_MSC_VER)
#define BG_EVAL_INLINE static __inline
#else
#define BG_EVAL_INLINE static inline
#endif

/* --- contact ---------------------------------------------------------- */

/* 1 when no contact remains: every checker of the mover (the bar counting as
   point 25) is on a lower point than every checker of the opponent (their
   bar counting as point 0).  A side with no checker on the board is in
   contact with nobody. */
BG_EVAL_INLINE int bg_is_race(const int8_t *pt) {
    int top = 25, low = 0;
    while (top > 0 && pt[top] <= 0)   /* the mover's rearmost checker */
        top--;
    while (low < 25 && pt[low] >= 0)  /* the opponent's rearmost checker */
        low++;
    /* No mover checker: top is 0, and only pt[0] < 0 gives low == 0 (no
       contact either way); no opponent checker: low is 25 > any top < 25,
       and top == 25 means a mover on the bar with no opponent checker. */
    return top < low || top == 0 || low == 25;
}

/* --- pubeval ------------------------------------------------------------

   pubeval: Gerald Tesauro's linear move-selection evaluator (IBM Research,
   1993), "provided as a public service to the backgammon programming
   community" and placed in the public domain (OpenBSD's copy,
   src/games/backgammon/common_source/pubeval.c, heads it "Public domain,
   Gerry Tesauro.").  It was posted to the Usenet group rec.games.backgammon
   (archived at https://bkgm.com/rgb/rgb.cgi?view+610) as pubeval.c, whose
   rdwts() read the weights from the files WT.race and WT.cntc.

   The weights below are copied from GNU Backgammon's pub_eval.c (which
   embeds WT.race and WT.cntc as the arrays wr and wc) and were checked
   number by number against two independent copies: OpenBSD's pubeval.c and
   a Rust port that quotes WT.race and WT.cntc.  All three agree on all 244.

   The evaluator scores a board AFTER the mover's move, seen from the mover,
   before it is flipped to the opponent: Tesauro's pos[] is our pt[] with
   pos[26] = the mover's checkers off (pos[27] is never read).  Its input
   vector (setx) has 122 units:

     x[5*(24-p) + k], for each point p = 24 .. 1 (pos[25-j] for j = 1..24),
       with n = pt[p]:  k=0: n == -1 (an opponent blot),  k=1: n == 1,
       k=2: n >= 2,  k=3: n == 3,  k=4: (n-3)/2 when n >= 4, else 0;
       (the opponent's points with 2 or more checkers are not encoded);
     x[120] = the opponent's checkers on the bar / 2   (-pt[0] / 2);
     x[121] = the mover's checkers off / 15;

   and the score is the dot product with wr (race == 1) or wc (race == 0);
   with every checker of the mover off it is 99999999.  Tesauro sets race
   from the position BEFORE the move.  The mover's own bar is not an input. */

static const float bg_pubeval_wr[122] = {
    .00000f, -.17160f, .27010f, .29906f, -.08471f, .00000f, -1.40375f,
    -1.05121f, .07217f, -.01351f, .00000f, -1.29506f, -2.16183f, .13246f,
    -1.03508f, .00000f, -2.29847f, -2.34631f, .17253f, .08302f, .00000f,
    -1.27266f, -2.87401f, -.07456f, -.34240f, .00000f, -1.34640f, -2.46556f,
    -.13022f, -.01591f, .00000f, .27448f, .60015f, .48302f, .25236f, .00000f,
    .39521f, .68178f, .05281f, .09266f, .00000f, .24855f, -.06844f, -.37646f,
    .05685f, .00000f, .17405f, .00430f, .74427f, .00576f, .00000f, .12392f,
    .31202f, -.91035f, -.16270f, .00000f, .01418f, -.10839f, -.02781f, -.88035f,
    .00000f, 1.07274f, 2.00366f, 1.16242f, .22520f, .00000f, .85631f, 1.06349f,
    1.49549f, .18966f, .00000f, .37183f, -.50352f, -.14818f, .12039f, .00000f,
    .13681f, .13978f, 1.11245f, -.12707f, .00000f, -.22082f, .20178f, -.06285f,
    -.52728f, .00000f, -.13597f, -.19412f, -.09308f, -1.26062f, .00000f, 3.05454f,
    5.16874f, 1.50680f, 5.35000f, .00000f, 2.19605f, 3.85390f, .88296f, 2.30052f,
    .00000f, .92321f, 1.08744f, -.11696f, -.78560f, .00000f, -.09795f, -.83050f,
    -1.09167f, -4.94251f, .00000f, -1.00316f, -3.66465f, -2.56906f, -9.67677f,
    .00000f, -2.77982f, -7.26713f, -3.40177f, -12.32252f, .00000f, 3.42040f
};

static const float bg_pubeval_wc[122] = {
    .25696f, -.66937f, -1.66135f, -2.02487f, -2.53398f, -.16092f, -1.11725f,
    -1.06654f, -.92830f, -1.99558f, -1.10388f, -.80802f, .09856f, -.62086f,
    -1.27999f, -.59220f, -.73667f, .89032f, -.38933f, -1.59847f, -1.50197f,
    -.60966f, 1.56166f, -.47389f, -1.80390f, -.83425f, -.97741f, -1.41371f,
    .24500f, .10970f, -1.36476f, -1.05572f, 1.15420f, .11069f, -.38319f, -.74816f,
    -.59244f, .81116f, -.39511f, .11424f, -.73169f, -.56074f, 1.09792f, .15977f,
    .13786f, -1.18435f, -.43363f, 1.06169f, -.21329f, .04798f, -.94373f, -.22982f,
    1.22737f, -.13099f, -.06295f, -.75882f, -.13658f, 1.78389f, .30416f, .36797f,
    -.69851f, .13003f, 1.23070f, .40868f, -.21081f, -.64073f, .31061f, 1.59554f,
    .65718f, .25429f, -.80789f, .08240f, 1.78964f, .54304f, .41174f, -1.06161f,
    .07851f, 2.01451f, .49786f, .91936f, -.90750f, .05941f, 1.83120f, .58722f,
    1.28777f, -.83711f, -.33248f, 2.64983f, .52698f, .82132f, -.58897f, -1.18223f,
    3.35809f, .62017f, .57353f, -.07276f, -.36214f, 4.37655f, .45481f, .21746f,
    .10504f, -.61977f, 3.54001f, .04612f, -.18108f, .63211f, -.87046f, 2.47673f,
    -.48016f, -1.27157f, .86505f, -1.11342f, 1.24612f, -.82385f, -2.77082f,
    1.23606f, -1.59529f, .10438f, -1.30206f, -4.11520f, 5.62596f, -2.75800f
};

/* BEGIN GENERATED TABLES (tools/gen_pubeval_tables.py; do not edit) */
/* [0]: contact weights (wc), [1]: race weights (wr).  Derived from the
   weights above as tools/gen_pubeval_tables.py describes. */
static const float bg_pubeval_pt[2][24][32] = {
    { /* contact: point 1 to 24, count -15 to 15 and a pad */
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.23606f, 0.0f,
         -1.59529f, 0.10438f, -1.19768f, -1.95322f, -4.01082f, -6.06842f, -8.12602f, -10.18362f,
         -12.24122f, -14.2988205f, -16.35642f, -18.41402f, -20.47162f, -22.52922f, -24.58682f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.86505f, 0.0f,
         -1.11342f, 1.24612f, 0.42227f, -0.13928998f, -1.5246999f, -2.91011f, -4.29552f, -5.6809297f,
         -7.06634f, -8.45175f, -9.83716f, -11.22257f, -12.607979f, -13.993389f, -15.378799f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.63211f, 0.0f,
         -0.87046f, 2.47673f, 1.9965701f, 1.8409451f, 1.2051601f, 0.56937516f, -0.06640983f, -0.7021949f,
         -1.3379798f, -1.9737647f, -2.6095498f, -3.2453349f, -3.88112f, -4.516905f, -5.15269f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.10504f, 0.0f,
         -0.61977f, 3.54001f, 3.58613f, 3.44947f, 3.3589299f, 3.26839f, 3.17785f, 3.08731f,
         2.99677f, 2.90623f, 2.81569f, 2.72515f, 2.63461f, 2.54407f, 2.4535298f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.07276f, 0.0f,
         -0.36214f, 4.37655f, 4.8313603f, 4.48528f, 4.5940104f, 4.70274f, 4.81147f, 4.9202003f,
         5.02893f, 5.13766f, 5.2463903f, 5.35512f, 5.46385f, 5.5725803f, 5.68131f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.58897f, 0.0f,
         -1.18223f, 3.35809f, 3.97826f, 3.644855f, 3.93162f, 4.2183847f, 4.50515f, 4.791915f,
         5.07868f, 5.365445f, 5.65221f, 5.9389753f, 6.22574f, 6.512505f, 6.79927f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.83711f, 0.0f,
         -0.33248f, 2.64983f, 3.17681f, 3.0604901f, 3.4711502f, 3.8818102f, 4.29247f, 4.70313f,
         5.11379f, 5.5244503f, 5.93511f, 6.34577f, 6.7564297f, 7.1670904f, 7.57775f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.9075f, 0.0f,
         0.05941f, 1.8312f, 2.41842f, 2.475085f, 3.11897f, 3.762855f, 4.40674f, 5.0506253f,
         5.69451f, 6.338395f, 6.9822803f, 7.6261654f, 8.27005f, 8.913935f, 9.55782f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.06161f, 0.0f,
         0.07851f, 2.01451f, 2.5123699f, 2.47419f, 2.9338698f, 3.39355f, 3.85323f, 4.31291f,
         4.7725897f, 5.23227f, 5.69195f, 6.1516294f, 6.61131f, 7.0709896f, 7.53067f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.80789f, 0.0f,
         0.0824f, 1.78964f, 2.33268f, 1.99551f, 2.20138f, 2.40725f, 2.61312f, 2.81899f,
         3.02486f, 3.23073f, 3.4366f, 3.64247f, 3.84834f, 4.0542097f, 4.26008f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.64073f, 0.0f,
         0.31061f, 1.59554f, 2.25272f, 1.7226851f, 1.84983f, 1.9769751f, 2.10412f, 2.231265f,
         2.3584101f, 2.4855552f, 2.6127f, 2.7398453f, 2.86699f, 2.9941351f, 3.1212802f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.69851f, 0.0f,
         0.13003f, 1.2307f, 1.63938f, 1.125295f, 1.0198901f, 0.914485f, 0.80908f, 0.70367503f,
         0.59827f, 0.49286497f, 0.38746f, 0.28205502f, 0.17665005f, 0.071244955f, -0.034160018f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.75882f, 0.0f,
         -0.13658f, 1.78389f, 2.08805f, 1.967875f, 2.15186f, 2.335845f, 2.51983f, 2.703815f,
         2.8878f, 3.071785f, 3.25577f, 3.439755f, 3.62374f, 3.807725f, 3.99171f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.94373f, 0.0f,
         -0.22982f, 1.22737f, 1.09638f, 1.1958951f, 1.16442f, 1.1329451f, 1.10147f, 1.069995f,
         1.03852f, 1.007045f, 0.97557f, 0.944095f, 0.91262f, 0.881145f, 0.84967005f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.18435f, 0.0f,
         -0.43363f, 1.06169f, 0.8484f, 1.08568f, 1.1096699f, 1.13366f, 1.15765f, 1.1816399f,
         1.20563f, 1.22962f, 1.25361f, 1.2775999f, 1.30159f, 1.32558f, 1.34957f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.73169f, 0.0f,
         -0.56074f, 1.09792f, 1.25769f, 1.16685f, 1.23578f, 1.3047099f, 1.37364f, 1.44257f,
         1.5114999f, 1.5804299f, 1.64936f, 1.71829f, 1.78722f, 1.8561499f, 1.92508f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.74816f, 0.0f,
         -0.59244f, 0.81116f, 0.41605002f, 0.86828005f, 0.9254f, 0.98252004f, 1.0396401f, 1.09676f,
         1.15388f, 1.211f, 1.26812f, 1.32524f, 1.38236f, 1.4394801f, 1.4966f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.36476f, 0.0f,
         -1.05572f, 1.1542f, 1.26489f, 0.96260494f, 0.7710099f, 0.57941496f, 0.38781995f, 0.19622493f,
         0.0046299696f, -0.18696511f, -0.37856007f, -0.570155f, -0.7617501f, -0.9533452f, -1.14494f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.83425f, 0.0f,
         -0.97741f, -1.41371f, -1.16871f, -1.35886f, -1.30401f, -1.24916f, -1.19431f, -1.13946f,
         -1.08461f, -1.02976f, -0.97491f, -0.92006f, -0.86521f, -0.81036f, -0.75551f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.50197f, 0.0f,
         -0.60966f, 1.56166f, 1.08777f, 0.65971005f, -0.24223995f, -1.1441901f, -2.04614f, -2.9480898f,
         -3.8500402f, -4.7519903f, -5.65394f, -6.55589f, -7.45784f, -8.35979f, -9.261741f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.5922f, 0.0f,
         -0.73667f, 0.89032f, 0.50099003f, 0.09108502f, -0.70814997f, -1.507385f, -2.30662f, -3.1058547f,
         -3.90509f, -4.704325f, -5.50356f, -6.302795f, -7.10203f, -7.901265f, -8.7005005f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.10388f, 0.0f,
         -0.80802f, 0.09856f, -0.5223f, -0.541435f, -1.18143f, -1.821425f, -2.4614198f, -3.101415f,
         -3.7414098f, -4.381405f, -5.0214f, -5.661395f, -6.30139f, -6.941385f, -7.58138f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -0.16092f, 0.0f,
         -1.11725f, -1.06654f, -1.99484f, -2.06433f, -3.06212f, -4.05991f, -5.0577f, -6.0554895f,
         -7.05328f, -8.05107f, -9.04886f, -10.04665f, -11.044439f, -12.04223f, -13.04002f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.25696f, 0.0f,
         -0.66937f, -1.66135f, -3.68622f, -2.92834f, -4.1953297f, -5.46232f, -6.72931f, -7.9962997f,
         -9.263289f, -10.53028f, -11.79727f, -13.06426f, -14.331249f, -15.59824f, -16.865229f, 0.0f}
    },
    { /* race: point 1 to 24, count -15 to 15 and a pad */
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -2.77982f, -7.26713f, -10.6689f, -13.4283905f, -19.58965f, -25.75091f, -31.91217f, -38.073433f,
         -44.234688f, -50.39595f, -56.557213f, -62.718468f, -68.87973f, -75.04099f, -81.20225f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -1.00316f, -3.66465f, -6.2337103f, -8.503035f, -13.34142f, -18.179806f, -23.01819f, -27.856575f,
         -32.69496f, -37.533344f, -42.37173f, -47.210117f, -52.0485f, -56.886887f, -61.725273f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -0.09795f, -0.8305f, -1.92217f, -3.301755f, -5.7730103f, -8.244265f, -10.71552f, -13.186775f,
         -15.65803f, -18.129286f, -20.60054f, -23.071795f, -25.54305f, -28.014305f, -30.48556f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.92321f, 1.08744f, 0.97048f, 0.69464004f, 0.30184f, -0.090960026f, -0.48376f, -0.87656f,
         -1.2693601f, -1.6621599f, -2.05496f, -2.44776f, -2.84056f, -3.2333598f, -3.6261601f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         2.19605f, 3.8539f, 4.73686f, 5.00416f, 6.15442f, 7.30468f, 8.45494f, 9.6052f,
         10.75546f, 11.90572f, 13.05598f, 14.20624f, 15.3565f, 16.50676f, 17.65702f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         3.05454f, 5.16874f, 6.67554f, 7.8437395f, 10.51874f, 13.193739f, 15.86874f, 18.54374f,
         21.218739f, 23.89374f, 26.568739f, 29.243738f, 31.91874f, 34.59374f, 37.268738f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -0.13597f, -0.19412f, -0.2872f, -0.82443f, -1.45474f, -2.0850499f, -2.71536f, -3.34567f,
         -3.9759798f, -4.60629f, -5.2366f, -5.86691f, -6.49722f, -7.12753f, -7.7578397f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -0.22082f, 0.20178f, 0.13893001f, -0.06185998f, -0.32549995f, -0.58913994f, -0.8527799f, -1.1164199f,
         -1.38006f, -1.6437f, -1.9073399f, -2.1709797f, -2.4346197f, -2.6982598f, -2.9618998f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.13681f, 0.13978f, 1.25223f, 0.076245f, 0.012710005f, -0.050824985f, -0.11435999f, -0.177895f,
         -0.24142997f, -0.30496496f, -0.3685f, -0.43203497f, -0.49557f, -0.559105f, -0.62263995f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.37183f, -0.50352f, -0.6517f, -0.443325f, -0.38313f, -0.32293501f, -0.26274002f, -0.20254502f,
         -0.14235002f, -0.08215502f, -0.02196002f, 0.03823495f, 0.09842998f, 0.158625f, 0.21881998f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.85631f, 1.06349f, 2.55898f, 1.1583201f, 1.25315f, 1.34798f, 1.44281f, 1.5376401f,
         1.63247f, 1.7273f, 1.82213f, 1.91696f, 2.01179f, 2.10662f, 2.2014499f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         1.07274f, 2.00366f, 3.16608f, 2.11626f, 2.22886f, 2.34146f, 2.45406f, 2.56666f,
         2.67926f, 2.79186f, 2.90446f, 3.0170598f, 3.12966f, 3.24226f, 3.3548598f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.01418f, -0.10839f, -0.13620001f, -0.54856503f, -0.98873997f, -1.4289149f, -1.86909f, -2.3092651f,
         -2.74944f, -3.189615f, -3.62979f, -4.069965f, -4.51014f, -4.950315f, -5.3904896f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.12392f, 0.31202f, -0.59833f, 0.23067f, 0.14932f, 0.06797001f, -0.013379991f, -0.09472999f,
         -0.17607999f, -0.25743002f, -0.33878f, -0.42012995f, -0.50148f, -0.58283f, -0.66418f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.17405f, 0.0043f, 0.74857f, 0.00718f, 0.01006f, 0.012940001f, 0.01582f, 0.0187f,
         0.021580001f, 0.02446f, 0.02734f, 0.03022f, 0.0331f, 0.03598f, 0.03886f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.24855f, -0.06844f, -0.44489998f, -0.040014997f, -0.0115899965f, 0.016835004f, 0.045260005f, 0.07368501f,
         0.102110006f, 0.130535f, 0.15896001f, 0.18738502f, 0.21581003f, 0.24423501f, 0.27266002f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.39521f, 0.68178f, 0.73459f, 0.72810996f, 0.77444f, 0.82076997f, 0.8671f, 0.91343f,
         0.95975995f, 1.0060899f, 1.05242f, 1.09875f, 1.14508f, 1.1914101f, 1.23774f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.27448f, 0.60015f, 1.0831699f, 0.72633f, 0.85251f, 0.97868997f, 1.10487f, 1.23105f,
         1.35723f, 1.4834099f, 1.6095899f, 1.7357699f, 1.8619499f, 1.98813f, 2.1143098f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -1.3464f, -2.46556f, -2.59578f, -2.473515f, -2.4814699f, -2.489425f, -2.49738f, -2.5053349f,
         -2.51329f, -2.521245f, -2.5292f, -2.537155f, -2.54511f, -2.553065f, -2.56102f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -1.27266f, -2.87401f, -2.94857f, -3.0452101f, -3.2164102f, -3.38761f, -3.5588102f, -3.73001f,
         -3.90121f, -4.07241f, -4.2436104f, -4.41481f, -4.58601f, -4.7572103f, -4.92841f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -2.29847f, -2.34631f, -2.17378f, -2.3047998f, -2.26329f, -2.2217798f, -2.18027f, -2.1387599f,
         -2.09725f, -2.0557399f, -2.0142298f, -1.9727199f, -1.9312099f, -1.8896999f, -1.8481898f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -1.29506f, -2.16183f, -2.0293698f, -2.67937f, -3.19691f, -3.71445f, -4.23199f, -4.74953f,
         -5.26707f, -5.78461f, -6.30215f, -6.8196898f, -7.3372297f, -7.8547697f, -8.37231f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -1.40375f, -1.05121f, -0.97904f, -1.057965f, -1.06472f, -1.071475f, -1.07823f, -1.084985f,
         -1.09174f, -1.098495f, -1.10525f, -1.112005f, -1.1187601f, -1.125515f, -1.1322701f, 0.0f},
        {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
         -0.1716f, 0.2701f, 0.56916f, 0.227745f, 0.18539f, 0.143035f, 0.10067999f, 0.058324993f,
         0.015969992f, -0.02638501f, -0.06874001f, -0.11109501f, -0.15345001f, -0.19580501f, -0.23816001f, 0.0f}
    }
};

/* By the opponent's checkers on the bar, 0 to 15. */
static const float bg_pubeval_bar[2][16] = {
    {0.0f, 2.81298f, 5.62596f, 8.43894f, 11.25192f, 14.064899f, 16.87788f, 19.690859f,
     22.50384f, 25.31682f, 28.129799f, 30.94278f, 33.75576f, 36.56874f, 39.381718f, 42.1947f},
    {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,
     0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}
};

/* By the mover's checkers off, 0 to 15. */
static const float bg_pubeval_off[2][16] = {
    {0.0f, -0.18386666f, -0.36773333f, -0.5516f, -0.73546666f, -0.91933334f, -1.1032f, -1.2870666f,
     -1.4709333f, -1.6548f, -1.8386667f, -2.0225334f, -2.2064f, -2.3902667f, -2.5741332f, -2.758f},
    {0.0f, 0.22802667f, 0.45605335f, 0.68408f, 0.9121067f, 1.1401334f, 1.36816f, 1.5961866f,
     1.8242134f, 2.0522401f, 2.2802668f, 2.5082934f, 2.73632f, 2.9643466f, 3.1923733f, 3.4204f}
};
/* END GENERATED TABLES */

/* The mover's checkers on the board, bar included. */
BG_EVAL_INLINE int bg_eval_on_board(const int8_t *pt) {
    int p, on = 0;
    for (p = 1; p <= 25; p++)
        on += pt[p] > 0 ? pt[p] : 0;
    return on;
}

/* Tesauro's setx: the 122 inputs of pubeval (see above) into x. */
BG_EVAL_INLINE void bg_pubeval_setx(const int8_t *pt, int checkers, float *x) {
    int j, n;
    for (j = 0; j < 122; j++)
        x[j] = 0.0f;
    for (j = 1; j <= 24; j++) {
        n = pt[25 - j];
        if (n == -1) x[5 * (j - 1) + 0] = 1.0f;
        if (n == 1) x[5 * (j - 1) + 1] = 1.0f;
        if (n >= 2) x[5 * (j - 1) + 2] = 1.0f;
        if (n == 3) x[5 * (j - 1) + 3] = 1.0f;
        if (n >= 4) x[5 * (j - 1) + 4] = (float)(n - 3) / 2.0f;
    }
    x[120] = (float)(-pt[0]) / 2.0f;
    x[121] = (float)(checkers - bg_eval_on_board(pt)) / 15.0f;
}

/* pubeval as Tesauro wrote it: setx, then the dot product term by term in
   float (the reference that bg_pubeval's tables reproduce). */
BG_EVAL_INLINE float bg_pubeval_plain(const int8_t *pt, int race, int checkers) {
    const float *w = race ? bg_pubeval_wr : bg_pubeval_wc;
    float x[122], score = 0.0f;
    int i;
    if (bg_eval_on_board(pt) == 0)
        return 99999999.0f;  /* all men off, best possible move */
    bg_pubeval_setx(pt, checkers, x);
    for (i = 0; i < 122; i++)
        score += w[i] * x[i];
    return score;
}

/* pubeval's score of the board after the mover's move, seen from the mover
   (higher is better for the mover); race: 1 for the race weights, 0 for the
   contact ones (Tesauro: decided on the position before the move);
   99999999 when the mover has no checker left on the board.

   Each point's inputs are a function of its count alone, so the dot product
   is a sum of per-point contributions looked up in bg_pubeval_pt (and
   bg_pubeval_bar, bg_pubeval_off for x[120] and x[121]), 26 loads and adds
   in four independent sums instead of 122 multiply-adds.  The tables hold
   each point's terms summed in float in Tesauro's order, so the score
   differs from bg_pubeval_plain only by the rounding of the additions (a
   few units in the last place of the partial sums). */
BG_EVAL_INLINE float bg_pubeval(const int8_t *pt, int race, int checkers) {
    const float (*t)[32] = bg_pubeval_pt[race != 0];
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int p, on = pt[25];
    for (p = 1; p <= 24; p += 4) {
        s0 += t[p - 1][pt[p] + 15];
        s1 += t[p][pt[p + 1] + 15];
        s2 += t[p + 1][pt[p + 2] + 15];
        s3 += t[p + 2][pt[p + 3] + 15];
        on += (pt[p] > 0 ? pt[p] : 0) + (pt[p + 1] > 0 ? pt[p + 1] : 0)
            + (pt[p + 2] > 0 ? pt[p + 2] : 0) + (pt[p + 3] > 0 ? pt[p + 3] : 0);
    }
    if (on == 0)
        return 99999999.0f;
    s0 += bg_pubeval_bar[race != 0][-pt[0]];
    s1 += bg_pubeval_off[race != 0][checkers - on];
    return (s0 + s1) + (s2 + s3);
}

/* --- the race policy's score ----------------------------------------------

   A pip-and-wastage score of the board after the mover's move, seen from
   the mover (higher is better for the mover).  With c[p] the mover's
   checkers on point p (the bar is p = 25), off the mover's checkers off and
   top the highest point holding a mover checker (0 when none):

     score = - mover pips                       - sum c[p]*p
           - 2 * blots (while in contact)       points 1..24 with one mover checker
           + 4 * off                            a bonus per checker off
           - 1/2 * sum_{p=1..6} c[p] * (6-p)    wastage: checkers deep at home
           - 3/2 * gaps                         gaps: home points p < top
                                                (p = 1..6) with no checker

   The opponent's checkers do not count: with hits rewarded, this policy on
   both sides hits back and forth in games of millions of plies.  Without
   the blots' term it leaves blots everywhere in contact and loses to random
   play; with it, it beats random play.  All moves
   of one roll take the same pips
   except bear-offs with a larger die, so the other terms decide among them:
   take checkers off, keep checkers on the high home points rather than
   deep, and fill the gaps below the rearmost checker.  (In pure bear-offs
   the best-scoring move bears off as many checkers as any legal move: held
   on 20,000 random ones and checked by tests/test_encode.py; that is
   observed, not proved.)  Twice the score is an integer: the result is
   exact. */
BG_EVAL_INLINE float bg_race_score(const int8_t *pt, int checkers) {
    int p, n, on = 0, top = 0, gaps = 0, blots = 0, twice = 0, theirs = 26;
    for (p = 0; p <= 25; p++) {
        n = pt[p];
        if (n > 0) {
            on += n;
            twice -= 2 * n * p;
            top = p;
            if (p <= 6)
                twice -= n * (6 - p);
            blots += n == 1 && p <= 24;
        } else if (n < 0 && theirs == 26) {
            theirs = p;  /* the opponent's rearmost checker, in the mover's numbering */
        }
    }
    for (p = 1; p <= 6 && p < top; p++)
        gaps += pt[p] <= 0;
    twice += 8 * (checkers - on) - 3 * gaps;
    if (top > theirs)  /* contact */
        twice -= 4 * blots;
    return 0.5f * (float)twice;
}

#endif /* BG_EVAL_H */
