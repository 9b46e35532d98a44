/* The layers' inner loops of bg_nn.c, included there once per instruction
   set (no include guard).  Before each inclusion bg_nn.c defines (and the
   end of this file undefines, but for the shape: BG_NN_V, BG_NN_C*):

     BG_NN_K(name)   the name of this copy's functions (name##_avx2, ...);
     BG_NN_TARGET    their attribute (target("avx2,fma") or nothing);
     BG_NN_V         the floats of a vector (8 or 16);
     BG_NN_C1 .. BG_NN_C6
                     the panels a block of 1 .. 6 rows takes at once;
     bg_v            a vector of BG_NN_V floats and its operations:
                     v_load(p), v_store(p, v), v_set1(x), v_fma(a, b, c)
                     (a * b + c), v_add, v_max, v_min, and either
                     v_sigmoid(v), v_tanh(v) (whole vectors) or, with
                     BG_NN_VECTOR_EXP, the operations of exp below:
                     v_sub, v_mul, v_div, v_fnma(a, b, c) (c - a * b),
                     v_round (to nearest) and v_pow2(n) (2^n for a whole
                     n in the float exponent's range).

   Rows: the kernels take up to BG_NN_ROWS boards at once (one board's
   activations are a row of floats, rows `stride` floats apart); a layer's
   outputs are computed BG_NN_LANES (one panel, bg_nn_pack) or more at a time
   for all the rows together, so that each weight loaded from memory serves
   every row, with the sums of a block kept in registers: at most 12
   vectors with AVX2, so that the weights and the broadcast input fit
   beside them in its 16 registers, up to 24 of AVX-512's 32. */

#define BG_NN_HALVES (BG_NN_LANES / BG_NN_V)  /* vectors in a panel */

#ifdef BG_NN_VECTOR_EXP
/* exp(x) as Cephes' expf computes it (a degree-5 polynomial of x less n ln 2,
   ln 2 in two parts, times 2^n), within 2 ulp; x is clamped to where 2^n is
   a normal float. */
static BG_NN_TARGET BG_NN_ALWAYS_INLINE bg_v BG_NN_K(exp)(bg_v x) {
    bg_v n, r, p;
    x = v_min(v_max(x, v_set1(-87.0f)), v_set1(88.0f));
    n = v_round(v_mul(x, v_set1(1.44269504088896341f)));
    r = v_fnma(n, v_set1(0.693359375f), x);
    r = v_fnma(n, v_set1(-2.12194440e-4f), r);
    p = v_set1(1.9875691500e-4f);
    p = v_fma(p, r, v_set1(1.3981999507e-3f));
    p = v_fma(p, r, v_set1(8.3334519073e-3f));
    p = v_fma(p, r, v_set1(4.1665795894e-2f));
    p = v_fma(p, r, v_set1(1.6666665459e-1f));
    p = v_fma(p, r, v_set1(5.0000001201e-1f));
    p = v_add(v_fma(p, v_mul(r, r), r), v_set1(1.0f));
    return v_mul(p, v_pow2(n));
}

static BG_NN_TARGET BG_NN_ALWAYS_INLINE bg_v BG_NN_K(sigmoid)(bg_v x) {
    return v_div(v_set1(1.0f), v_add(v_set1(1.0f), BG_NN_K(exp)(v_sub(v_set1(0.0f), x))));
}

/* tanh x = 2 sigmoid(2x) - 1 */
static BG_NN_TARGET BG_NN_ALWAYS_INLINE bg_v BG_NN_K(tanh)(bg_v x) {
    return v_sub(v_mul(v_set1(2.0f), BG_NN_K(sigmoid)(v_mul(v_set1(2.0f), x))), v_set1(1.0f));
}
#define v_sigmoid BG_NN_K(sigmoid)
#define v_tanh BG_NN_K(tanh)
#endif

/* The activation, in place over n floats (a multiple of BG_NN_V). */
static BG_NN_TARGET void BG_NN_K(activate)(float *h, int n, int kind, float alpha, float beta) {
    int j;
    bg_v zero = v_set1(0.0f), one = v_set1(1.0f), a = v_set1(alpha), b = v_set1(beta);
    switch (kind) {
    case BG_NN_RELU:
        for (j = 0; j < n; j += BG_NN_V)
            v_store(h + j, v_max(v_load(h + j), zero));
        break;
    case BG_NN_HARDSIGMOID:
        for (j = 0; j < n; j += BG_NN_V)
            v_store(h + j, v_min(v_max(v_fma(v_load(h + j), a, b), zero), one));
        break;
    case BG_NN_SIGMOID:
        for (j = 0; j < n; j += BG_NN_V)
            v_store(h + j, v_sigmoid(v_load(h + j)));
        break;
    default: /* BG_NN_TANH */
        for (j = 0; j < n; j += BG_NN_V)
            v_store(h + j, v_tanh(v_load(h + j)));
        break;
    }
}

/* N vectors of the first layer from output j on: the bias plus val[t]
   times input idx[t]'s weights, t in order (N is a constant once inlined). */
static BG_NN_TARGET BG_NN_ALWAYS_INLINE void BG_NN_K(sparse)(const int N, const bg_nn_layer *L, int width, int j,
                                                             const uint16_t *idx, const float *val, int nz,
                                                             float *h) {
    bg_v s[8];
    int t, v;
    for (v = 0; v < N; v++)
        s[v] = v_load(L->bias + j + v * BG_NN_V);
    for (t = 0; t < nz; t++) {
        const float *row = L->weights + (size_t)idx[t] * (size_t)width + j;
        bg_v x = v_set1(val[t]);
        for (v = 0; v < N; v++)
            s[v] = v_fma(x, v_load(row + v * BG_NN_V), s[v]);
    }
    for (v = 0; v < N; v++)
        v_store(h + j + v * BG_NN_V, s[v]);
}

/* The first layer of one board from its non-zero inputs, up to 8 vectors
   of outputs in one pass over them. */
static BG_NN_TARGET void BG_NN_K(first)(const bg_nn_layer *L, const uint16_t *idx, const float *val, int nz,
                                        float *h) {
    const int width = bg_nn_padded(L->outputs);
    int j;
    for (j = 0; j < width; j += 8 * BG_NN_V) {
        switch ((width - j) / BG_NN_V) {
        case 1: BG_NN_K(sparse)(1, L, width, j, idx, val, nz, h); break;
        case 2: BG_NN_K(sparse)(2, L, width, j, idx, val, nz, h); break;
        case 3: BG_NN_K(sparse)(3, L, width, j, idx, val, nz, h); break;
        case 4: BG_NN_K(sparse)(4, L, width, j, idx, val, nz, h); break;
        case 5: BG_NN_K(sparse)(5, L, width, j, idx, val, nz, h); break;
        case 6: BG_NN_K(sparse)(6, L, width, j, idx, val, nz, h); break;
        case 7: BG_NN_K(sparse)(7, L, width, j, idx, val, nz, h); break;
        default: BG_NN_K(sparse)(8, L, width, j, idx, val, nz, h); break;
        }
    }
}

/* R rows times C panels from panel q: y = bias + x W, R * C * BG_NN_HALVES
   sums in registers (R and C are constants once inlined). */
static BG_NN_TARGET BG_NN_ALWAYS_INLINE void BG_NN_K(block)(const int R, const int C, const bg_nn_layer *L, int q,
                                                            const float *x, int stride, float *y) {
    const int K = L->inputs;
    const float *w = L->weights + (size_t)q * (size_t)K * BG_NN_LANES;
    const size_t panel = (size_t)K * BG_NN_LANES;
    bg_v s[BG_NN_ROWS][8][BG_NN_HALVES];
    int r, c, v, k;
    for (r = 0; r < R; r++)
        for (c = 0; c < C; c++)
            for (v = 0; v < BG_NN_HALVES; v++)
                s[r][c][v] = v_load(L->bias + (q + c) * BG_NN_LANES + v * BG_NN_V);
    for (k = 0; k < K; k++) {
        bg_v wk[8][BG_NN_HALVES];
        for (c = 0; c < C; c++)
            for (v = 0; v < BG_NN_HALVES; v++)
                wk[c][v] = v_load(w + c * panel + (size_t)k * BG_NN_LANES + v * BG_NN_V);
        for (r = 0; r < R; r++) {
            bg_v xr = v_set1(x[r * stride + k]);
            for (c = 0; c < C; c++)
                for (v = 0; v < BG_NN_HALVES; v++)
                    s[r][c][v] = v_fma(xr, wk[c][v], s[r][c][v]);
        }
    }
    for (r = 0; r < R; r++)
        for (c = 0; c < C; c++)
            for (v = 0; v < BG_NN_HALVES; v++)
                v_store(y + r * stride + (q + c) * BG_NN_LANES + v * BG_NN_V, s[r][c][v]);
}

/* Every panel from q on for R rows, C panels a block, the last panels
   (fewer than C) in one narrower block.  Each output is the bias plus its
   inputs' terms added in order, whatever R and C: a board's outputs do not
   depend on the boards evaluated with it. */
#define BG_NN_TILES(R, C)                                                                     \
    do {                                                                                      \
        for (; q + (C) <= panels; q += (C))                                                   \
            BG_NN_K(block)(R, C, L, q, x, stride, y);                                         \
        switch (panels - q) {                                                                 \
        case 0: break;                                                                        \
        case 1: BG_NN_K(block)(R, 1, L, q, x, stride, y); break;                              \
        case 2: if ((C) > 2) BG_NN_K(block)(R, 2, L, q, x, stride, y); break;                 \
        case 3: if ((C) > 3) BG_NN_K(block)(R, 3, L, q, x, stride, y); break;                 \
        case 4: if ((C) > 4) BG_NN_K(block)(R, 4, L, q, x, stride, y); break;                 \
        case 5: if ((C) > 5) BG_NN_K(block)(R, 5, L, q, x, stride, y); break;                 \
        case 6: if ((C) > 6) BG_NN_K(block)(R, 6, L, q, x, stride, y); break;                 \
        default: if ((C) > 7) BG_NN_K(block)(R, 7, L, q, x, stride, y); break;                \
        }                                                                                     \
    } while (0)

/* A dense layer over `rows` rows (1 .. BG_NN_ROWS), x to y (both `stride`
   floats a row); the activation too when `activation`. */
static BG_NN_TARGET void BG_NN_K(dense)(const bg_nn_layer *L, int rows, const float *x, float *y, int stride,
                                        int activation) {
    const int panels = bg_nn_padded(L->outputs) / BG_NN_LANES;
    int q = 0, r;
    switch (rows) {
    case 1: BG_NN_TILES(1, BG_NN_C1); break;
    case 2: BG_NN_TILES(2, BG_NN_C2); break;
    case 3: BG_NN_TILES(3, BG_NN_C3); break;
    case 4: BG_NN_TILES(4, BG_NN_C4); break;
    case 5: BG_NN_TILES(5, BG_NN_C5); break;
    default: BG_NN_TILES(6, BG_NN_C6); break;
    }
    if (activation)
        for (r = 0; r < rows; r++)
            BG_NN_K(activate)(y + r * stride, panels * BG_NN_LANES, L->activation, L->alpha, L->beta);
}

#undef BG_NN_TILES

/* `rows` boards (1 .. BG_NN_ROWS) through the net into their five outputs;
   buf: 2 * BG_NN_ROWS * stride floats, stride >= every layer's padded
   width. */
static BG_NN_TARGET void BG_NN_K(forward)(const bg_nn *net, int rows, const int8_t *const *boards, int checkers,
                                          float *const *out5, float *buf, int stride) {
    uint16_t idx[BG_ENC_MAX_NONZERO];
    float val[BG_ENC_MAX_NONZERO], *a = buf, *b = buf + BG_NN_ROWS * stride, *t;
    const bg_nn_layer *first = &net->layer[0];
    int r, l, nz;
    for (r = 0; r < rows; r++) {
        nz = bg_encode_sparse(net->encoding, boards[r], checkers, 0, idx, val);
        BG_NN_K(first)(first, idx, val, nz, a + r * stride);
        if (net->layers > 1)
            BG_NN_K(activate)(a + r * stride, bg_nn_padded(first->outputs), first->activation, first->alpha,
                              first->beta);
    }
    for (l = 1; l < net->layers; l++) {
        BG_NN_K(dense)(&net->layer[l], rows, a, b, stride, l + 1 < net->layers);
        t = a;
        a = b;
        b = t;
    }
    for (r = 0; r < rows; r++) {
        if (net->output == BG_NN_SIGMOID5)
            BG_NN_K(activate)(a + r * stride, BG_NN_LANES, BG_NN_SIGMOID, 0.0f, 0.0f);
        bg_nn_finish(net->output, a + r * stride, out5[r]);
    }
}

#undef BG_NN_HALVES
#undef BG_NN_K
#undef BG_NN_TARGET
#undef BG_NN_VECTOR_EXP
#undef bg_v
#undef v_load
#undef v_store
#undef v_set1
#undef v_fma
#undef v_add
#undef v_max
#undef v_min
#undef v_sigmoid
#undef v_tanh
#undef v_sub
#undef v_mul
#undef v_div
#undef v_fnma
#undef v_round
#undef v_pow2
