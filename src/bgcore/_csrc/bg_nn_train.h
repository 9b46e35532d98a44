/* The backward pass of bgcore's dense networks, for training (bgcore.train);
   header-only (static inline, C99), used by _train.pyx.

   A trainable net is described by a bg_nnt: the encoding, the output kind,
   the layers' widths and activations, as bg_nn.h defines them, and where
   each layer's arrays lie in one flat float32 vector of parameters: layer l's
   weights (inputs x outputs, row-major: w[i * outputs + j] is input i's
   weight into output j, bgcore.nn.Network's layout) then its bias.  A
   gradient has the same layout.  The forward pass here keeps every layer's
   activations for the backward pass; it is plain C (the compiler vectorizes
   its loops for the target it builds for) and agrees with bg_nn.c's kernels
   to float32 rounding, not to the bit: the engine plays with those, the
   gradient is taken with these.

   The loss of one board against a target (the outputs it should have, seen
   by its player on roll):
   - BG_NN_SIGMOID5 (five sigmoids v): 1/2 sum_k (v_k - t_k)^2, TD-Gammon's
     squared error, whose negative gradient is sum_k (t_k - v_k) grad v_k,
     Tesauro's update;
   - BG_NN_SOFTMAX6 (six exclusive outcomes p, t over the same six):
     cross-entropy -sum_k t_k log p_k, whose gradient in the logits z is
     p_k sum(t) - t_k.
   Nothing here allocates; a call writes only its gradient and its scratch,
   so threads with their own gradient and scratch may run at once. */
#ifndef BG_NN_TRAIN_H
#define BG_NN_TRAIN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bg_encode.h"
#include "bg_nn.h"

#if defined(_MSC_VER)
#define BG_NNT_INLINE static __inline
#define BG_NNT_RESTRICT __restrict
#else
#define BG_NNT_INLINE static inline
#define BG_NNT_RESTRICT __restrict__
#endif

typedef struct bg_nnt {
    int encoding;               /* BG_ENC_* */
    int output;                 /* BG_NN_SOFTMAX6 or BG_NN_SIGMOID5 */
    int layers;                 /* 1 .. BG_NN_MAX_LAYERS */
    int inputs[BG_NN_MAX_LAYERS], outputs[BG_NN_MAX_LAYERS];
    int activation[BG_NN_MAX_LAYERS];  /* hidden layers' (BG_NN_RELU ...) */
    float alpha[BG_NN_MAX_LAYERS], beta[BG_NN_MAX_LAYERS];
    size_t weights[BG_NN_MAX_LAYERS], bias[BG_NN_MAX_LAYERS];  /* offsets in the parameters */
    size_t params;              /* floats of parameters (and of a gradient) */
    size_t units;               /* sum of the layers' outputs */
    int widest;                 /* the widest layer's outputs */
} bg_nnt;

/* The widths of the outputs a net gives: 5 or 6. */
BG_NNT_INLINE int bg_nnt_targets(int output) {
    return output == BG_NN_SOFTMAX6 ? 6 : 5;
}

/* Fills t for a net of `layers` layers of widths sizes[0] (the encoding's
   inputs) .. sizes[layers]; activation, alpha, beta: one per hidden layer.
   NULL, or what is wrong (t is then unusable). */
BG_NNT_INLINE const char *bg_nnt_setup(bg_nnt *t, int encoding, int output, int layers, const int *sizes,
                                       const int *activation, const float *alpha, const float *beta) {
    size_t at = 0;
    int l;
    memset(t, 0, sizeof *t);
    if (bg_encode_inputs(encoding) == 0)
        return "unknown encoding";
    if (output != BG_NN_SOFTMAX6 && output != BG_NN_SIGMOID5)
        return "unknown output kind";
    if (layers < 1 || layers > BG_NN_MAX_LAYERS)
        return "wrong number of layers";
    if (sizes[0] != bg_encode_inputs(encoding))
        return "the first layer's inputs are not the encoding's";
    if (sizes[layers] != bg_nnt_targets(output))
        return "the output layer's width does not fit the output kind (6 for softmax, 5 for sigmoid)";
    t->encoding = encoding;
    t->output = output;
    t->layers = layers;
    for (l = 0; l < layers; l++) {
        if (sizes[l + 1] < 1)
            return "a layer without outputs";
        t->inputs[l] = sizes[l];
        t->outputs[l] = sizes[l + 1];
        if (l + 1 < layers) {
            if (activation[l] < 0 || activation[l] >= BG_NN_ACTIVATIONS)
                return "unknown activation";
            t->activation[l] = activation[l];
            t->alpha[l] = alpha[l];
            t->beta[l] = beta[l];
        }
        t->weights[l] = at;
        at += (size_t)sizes[l] * (size_t)sizes[l + 1];
        t->bias[l] = at;
        at += (size_t)sizes[l + 1];
        t->units += (size_t)sizes[l + 1];
        t->widest = sizes[l + 1] > t->widest ? sizes[l + 1] : t->widest;
    }
    t->params = at;
    return NULL;
}

/* The floats of scratch one board's forward and backward passes need. */
BG_NNT_INLINE size_t bg_nnt_scratch_floats(const bg_nnt *t) {
    /* each layer's activations, the sparse inputs' values, two rows of deltas */
    return t->units + BG_ENC_MAX_NONZERO + 2 * (size_t)t->widest;
}

#if defined(__GNUC__) || defined(__clang__)
#define BG_NNT_ALWAYS_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define BG_NNT_ALWAYS_INLINE static __forceinline
#else
#define BG_NNT_ALWAYS_INLINE static inline
#endif

/* y[j] += x * row[j] for j < n: the loops the compiler vectorizes (each
   output its own sum: the same operations at any vector width). */
BG_NNT_ALWAYS_INLINE void bg_nnt_axpy(int n, float x, const float *BG_NNT_RESTRICT row, float *BG_NNT_RESTRICT y) {
    int j;
    for (j = 0; j < n; j++)
        y[j] += x * row[j];
}

/* sum_j a[j] b[j], added in order (compilers keep a float sum's order). */
BG_NNT_ALWAYS_INLINE float bg_nnt_dot(int n, const float *a, const float *b) {
    float s = 0.0f;
    int j;
    for (j = 0; j < n; j++)
        s += a[j] * b[j];
    return s;
}

/* 1 / (1 + exp(-scale h[j])) in place, exp as Cephes' expf computes it (as
   bg_nn_kernel.h does): x clamped to [-87, 88], n = round(x / ln 2), a
   degree-5 polynomial of x - n ln 2 (ln 2 in two parts) times 2^n, the
   rounding and 2^n from integer conversions, so that the loop vectorizes.
   GCC does not vectorize a loop with the clamp (a float select it cannot
   prove to be a max without -ffinite-math-only), so the clamp is compiled
   in only for the rows that need it (clamp is a constant once inlined):
   the same bits either way. */
BG_NNT_ALWAYS_INLINE void bg_nnt_sigmoid_loop(float *h, int n, float scale, const int clamp) {
    int j;
    for (j = 0; j < n; j++) {
        float x = -scale * h[j], fn, r, p;
        int32_t bits;
        float two_n;
        if (clamp)
            x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
        /* x / ln 2 + 127.5 > 0: truncation is floor, and floor(y + 0.5) rounds */
        fn = (float)(int32_t)(x * 1.44269504088896341f + 127.5f) - 127.0f;
        r = x - fn * 0.693359375f;
        r = r - fn * -2.12194440e-4f;
        p = 1.9875691500e-4f;
        p = p * r + 1.3981999507e-3f;
        p = p * r + 8.3334519073e-3f;
        p = p * r + 4.1665795894e-2f;
        p = p * r + 1.6666665459e-1f;
        p = p * r + 5.0000001201e-1f;
        p = p * (r * r) + r + 1.0f;
        bits = ((int32_t)fn + 127) * 8388608;  /* << 23 */
        memcpy(&two_n, &bits, sizeof two_n);
        h[j] = 1.0f / (1.0f + p * two_n);
    }
}

BG_NNT_ALWAYS_INLINE void bg_nnt_sigmoids(float *h, int n, float scale) {
    int j, wild = 0;
    for (j = 0; j < n; j++) {
        float x = -scale * h[j];
        wild |= (x < -87.0f) | (x > 88.0f);
    }
    if (wild)
        bg_nnt_sigmoid_loop(h, n, scale, 1);
    else
        bg_nnt_sigmoid_loop(h, n, scale, 0);
}

/* A hidden layer's activation, in place. */
BG_NNT_ALWAYS_INLINE void bg_nnt_activate(float *h, int n, int kind, float alpha, float beta) {
    int j;
    switch (kind) {
    case BG_NN_RELU:
        for (j = 0; j < n; j++)
            h[j] = h[j] > 0.0f ? h[j] : 0.0f;
        break;
    case BG_NN_HARDSIGMOID:
        for (j = 0; j < n; j++) {
            float x = alpha * h[j] + beta;
            x = x > 0.0f ? x : 0.0f;
            h[j] = x < 1.0f ? x : 1.0f;
        }
        break;
    case BG_NN_SIGMOID:
        bg_nnt_sigmoids(h, n, 1.0f);
        break;
    default: /* tanh x = 2 sigmoid(2x) - 1 */
        bg_nnt_sigmoids(h, n, 2.0f);
        for (j = 0; j < n; j++)
            h[j] = 2.0f * h[j] - 1.0f;
        break;
    }
}

/* The activation's derivative from its output a (each has one that depends
   on a alone; ReLU's and the hard sigmoid's are taken as 0 where the output
   is at a bound). */
BG_NNT_ALWAYS_INLINE float bg_nnt_slope(float a, int kind, float alpha) {
    switch (kind) {
    case BG_NN_RELU: return a > 0.0f ? 1.0f : 0.0f;
    case BG_NN_HARDSIGMOID: return a > 0.0f && a < 1.0f ? alpha : 0.0f;
    case BG_NN_SIGMOID: return a * (1.0f - a);
    default: return 1.0f - a * a;
    }
}

/* The forward pass of one board (26 bytes, its player on roll's view, not a
   finished game), each layer's outputs kept in scratch (after the
   activation; the output layer's as probabilities: five sigmoids or the
   softmax of six), the sparse inputs in idx, val (*nz of them).  Returns
   the output layer's row. */
BG_NNT_ALWAYS_INLINE float *bg_nnt_forward(const bg_nnt *t, const float *params, const int8_t *board, int checkers,
                                           uint16_t *idx, float *val, int *nz, float *scratch) {
    float *a = scratch, *prev = NULL;
    int l, j, n, k, i;
    n = bg_encode_sparse(t->encoding, board, checkers, 0, idx, val);
    *nz = n;
    for (l = 0; l < t->layers; l++) {
        const float *w = params + t->weights[l];
        const int outs = t->outputs[l];
        memcpy(a, params + t->bias[l], sizeof(float) * (size_t)outs);
        if (l == 0) {
            for (k = 0; k < n; k++)
                bg_nnt_axpy(outs, val[k], w + (size_t)idx[k] * (size_t)outs, a);
        } else {
            for (i = 0; i < t->inputs[l]; i++)
                bg_nnt_axpy(outs, prev[i], w + (size_t)i * (size_t)outs, a);
        }
        if (l + 1 < t->layers) {
            bg_nnt_activate(a, outs, t->activation[l], t->alpha[l], t->beta[l]);
        } else if (t->output == BG_NN_SIGMOID5) {
            bg_nnt_sigmoids(a, outs, 1.0f);
        } else {
            float top = a[0], sum = 0.0f;
            for (j = 1; j < outs; j++)
                top = a[j] > top ? a[j] : top;
            for (j = 0; j < outs; j++)
                sum += a[j] = expf(a[j] - top);
            for (j = 0; j < outs; j++)
                a[j] /= sum;
        }
        prev = a;
        a += outs;
    }
    return prev;
}

/* Adds the gradient of one board's loss against target (5 or 6 floats) to
   grad (t->params floats) and returns the loss; scratch:
   bg_nnt_scratch_floats(t) floats. */
BG_NNT_ALWAYS_INLINE double bg_nnt_accumulate(const bg_nnt *t, const float *params, const int8_t *board,
                                              int checkers, const float *target, float *grad, float *scratch) {
    uint16_t idx[BG_ENC_MAX_NONZERO];
    float *val = scratch + t->units;
    float *delta = val + BG_ENC_MAX_NONZERO, *below = delta + t->widest, *swap;
    const float *out, *acts[BG_NN_MAX_LAYERS];
    double loss = 0.0;
    int nz, l, i, j, k;
    const int K = bg_nnt_targets(t->output);
    float tsum = 0.0f;
    out = bg_nnt_forward(t, params, board, checkers, idx, val, &nz, scratch);
    acts[0] = scratch;
    for (l = 1; l < t->layers; l++)
        acts[l] = acts[l - 1] + t->outputs[l - 1];
    if (t->output == BG_NN_SIGMOID5) {
        for (k = 0; k < K; k++) {
            float e = out[k] - target[k];
            loss += 0.5 * (double)e * (double)e;
            delta[k] = e * out[k] * (1.0f - out[k]);
        }
    } else {
        for (k = 0; k < K; k++) {
            tsum += target[k];
            if (target[k] != 0.0f)
                loss -= (double)target[k] * log((double)out[k] > 1e-30 ? (double)out[k] : 1e-30);
        }
        for (k = 0; k < K; k++)
            delta[k] = out[k] * tsum - target[k];
    }
    for (l = t->layers - 1;; l--) {
        const int outs = t->outputs[l];
        float *gw = grad + t->weights[l], *gb = grad + t->bias[l];
        for (j = 0; j < outs; j++)
            gb[j] += delta[j];
        if (l == 0) {
            for (k = 0; k < nz; k++)
                bg_nnt_axpy(outs, val[k], delta, gw + (size_t)idx[k] * (size_t)outs);
            return loss;
        }
        {
            const float *w = params + t->weights[l], *a = acts[l - 1];
            const int ins = t->inputs[l], kind = t->activation[l - 1];
            const float alpha = t->alpha[l - 1];
            for (i = 0; i < ins; i++) {
                bg_nnt_axpy(outs, a[i], delta, gw + (size_t)i * (size_t)outs);
                below[i] = bg_nnt_dot(outs, w + (size_t)i * (size_t)outs, delta) * bg_nnt_slope(a[i], kind, alpha);
            }
        }
        swap = delta;
        delta = below;
        below = swap;
    }
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(BG_NN_PLAIN)
#define BG_NNT_X86_DISPATCH 1
#else
#define BG_NNT_X86_DISPATCH 0
#endif

#define BG_NNT_K(name) bg_nnt_##name##_generic
#define BG_NNT_TARGET
#include "bg_nn_train_kernel.h"
#if BG_NNT_X86_DISPATCH
#define BG_NNT_K(name) bg_nnt_##name##_avx2
#define BG_NNT_TARGET __attribute__((target("avx2,fma")))
#include "bg_nn_train_kernel.h"
#define BG_NNT_K(name) bg_nnt_##name##_avx512
#define BG_NNT_TARGET __attribute__((target("avx512f,avx2,fma")))
#include "bg_nn_train_kernel.h"
#endif

/* The kernels: 0 generic, 1 AVX2 with FMA, 2 AVX-512 (as bg_nn.c names them). */
static const char *const bg_nnt_kernels[] = {"generic", "avx2", "avx512"};
static int bg_nnt_limit = 2;

BG_NNT_INLINE int bg_nnt_best(void) {
#if BG_NNT_X86_DISPATCH
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return 2;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return 1;
#endif
    return 0;
}

BG_NNT_INLINE int bg_nnt_level(void) {
    int best = bg_nnt_best();
    return best < bg_nnt_limit ? best : bg_nnt_limit;
}

/* The kernels in use: "avx512", "avx2" or "generic".  The AVX2 and AVX-512
   ones give the same bits (the same fused multiply-adds, sums in the same
   order); the generic ones may differ from them in the last bits. */
BG_NNT_INLINE const char *bg_nnt_kernel(void) {
    return bg_nnt_kernels[bg_nnt_level()];
}

/* Use at most the kernels named ("generic", "avx2", "avx512", or "auto");
   -1 (nothing changed) for an unknown name or kernels this processor cannot
   run.  Not while another thread trains. */
BG_NNT_INLINE int bg_nnt_use_kernels(const char *name) {
    int k;
    if (strcmp(name, "auto") == 0) {
        bg_nnt_limit = 2;
        return 0;
    }
    for (k = 0; k < 3; k++)
        if (strcmp(name, bg_nnt_kernels[k]) == 0) {
            if (k > bg_nnt_best())
                return -1;
            bg_nnt_limit = k;
            return 0;
        }
    return -1;
}

/* bg_nn_train_kernel.h's chunk, outputs and apply, by the kernels in use. */
BG_NNT_INLINE double bg_nnt_chunk(const bg_nnt *t, const float *params, const int8_t *boards, const float *targets,
                                  const int64_t *order, int64_t lo, int64_t hi, int checkers, float *grad,
                                  float *scratch) {
#if BG_NNT_X86_DISPATCH
    switch (bg_nnt_level()) {
    case 2: return bg_nnt_chunk_avx512(t, params, boards, targets, order, lo, hi, checkers, grad, scratch);
    case 1: return bg_nnt_chunk_avx2(t, params, boards, targets, order, lo, hi, checkers, grad, scratch);
    default: break;
    }
#endif
    return bg_nnt_chunk_generic(t, params, boards, targets, order, lo, hi, checkers, grad, scratch);
}

BG_NNT_INLINE void bg_nnt_outputs(const bg_nnt *t, const float *params, const int8_t *boards, int64_t n,
                                  int checkers, float *out, float *scratch) {
#if BG_NNT_X86_DISPATCH
    switch (bg_nnt_level()) {
    case 2: bg_nnt_outputs_avx512(t, params, boards, n, checkers, out, scratch); return;
    case 1: bg_nnt_outputs_avx2(t, params, boards, n, checkers, out, scratch); return;
    default: break;
    }
#endif
    bg_nnt_outputs_generic(t, params, boards, n, checkers, out, scratch);
}

BG_NNT_INLINE void bg_nnt_apply(float *params, float *const *bufs, int nbufs, size_t lo, size_t hi, float step) {
#if BG_NNT_X86_DISPATCH
    switch (bg_nnt_level()) {
    case 2: bg_nnt_apply_avx512(params, bufs, nbufs, lo, hi, step); return;
    case 1: bg_nnt_apply_avx2(params, bufs, nbufs, lo, hi, step); return;
    default: break;
    }
#endif
    bg_nnt_apply_generic(params, bufs, nbufs, lo, hi, step);
}

#endif /* BG_NN_TRAIN_H */
