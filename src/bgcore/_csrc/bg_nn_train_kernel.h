/* The entry points of bg_nn_train.h, included there once per instruction
   set (no include guard).  Before each inclusion bg_nn_train.h defines
   BG_NNT_K(name), the name of this copy's functions, and BG_NNT_TARGET,
   their attribute (target("avx2,fma") or nothing); the helpers they call are
   always inlined, so their loops are compiled (and vectorized) for the
   copy's instruction set. */

/* The gradients of rows order[lo .. hi) (rows lo .. hi when order is
   NULL) added to grad; the sum of their losses. */
static BG_NNT_TARGET double BG_NNT_K(chunk)(const bg_nnt *t, const float *params, const int8_t *boards,
                                            const float *targets, const int64_t *order, int64_t lo, int64_t hi,
                                            int checkers, float *grad, float *scratch) {
    const int K = bg_nnt_targets(t->output);
    double loss = 0.0;
    int64_t r, row;
    for (r = lo; r < hi; r++) {
        row = order != NULL ? order[r] : r;
        loss += bg_nnt_accumulate(t, params, boards + 26 * row, checkers, targets + K * row, grad, scratch);
    }
    return loss;
}

/* The forward pass of n boards into out (5 or 6 floats a board). */
static BG_NNT_TARGET void BG_NNT_K(outputs)(const bg_nnt *t, const float *params, const int8_t *boards, int64_t n,
                                            int checkers, float *out, float *scratch) {
    uint16_t idx[BG_ENC_MAX_NONZERO];
    const int K = bg_nnt_targets(t->output);
    int64_t r;
    int nz;
    for (r = 0; r < n; r++) {
        const float *p = bg_nnt_forward(t, params, boards + 26 * r, checkers, idx, scratch + t->units, &nz, scratch);
        memcpy(out + K * r, p, sizeof(float) * (size_t)K);
    }
}

/* params[j] -= step * (bufs[0][j] + bufs[1][j] + ...), the buffers added in
   their order and then zeroed, for j in [lo, hi). */
static BG_NNT_TARGET void BG_NNT_K(apply)(float *params, float *const *bufs, int nbufs, size_t lo, size_t hi,
                                          float step) {
    size_t j;
    int c;
    for (j = lo; j < hi; j++) {
        float g = bufs[0][j];
        bufs[0][j] = 0.0f;
        for (c = 1; c < nbufs; c++) {
            g += bufs[c][j];
            bufs[c][j] = 0.0f;
        }
        params[j] -= step * g;
    }
}

#undef BG_NNT_K
#undef BG_NNT_TARGET
