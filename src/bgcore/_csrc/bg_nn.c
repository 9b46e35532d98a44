/* Dense networks over boards: packing, checks, the choice of kernels and
   the evaluation of a batch (bg_nn.h describes the API).  The layers' loops
   are in bg_nn_kernel.h, compiled here for the generic target and, on
   x86-64 with GCC or Clang, for AVX2 with FMA and for AVX-512 too. */
#include "bg_nn.h"

#include <math.h>
#include <string.h>

#include "bg_eval.h"

#if defined(__GNUC__) || defined(__clang__)
#define BG_NN_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define BG_NN_ALWAYS_INLINE __forceinline
#else
#define BG_NN_ALWAYS_INLINE inline
#endif

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(BG_NN_PLAIN)
#define BG_NN_X86_DISPATCH 1
#include <immintrin.h>
#else
#define BG_NN_X86_DISPATCH 0
#endif

int bg_nn_padded(int n) {
    return (n + BG_NN_LANES - 1) / BG_NN_LANES * BG_NN_LANES;
}

size_t bg_nn_packed_floats(int inputs, int outputs) {
    return (size_t)inputs * (size_t)bg_nn_padded(outputs);
}

void bg_nn_pack(int first, const float *w, int inputs, int outputs, float *out) {
    const int width = bg_nn_padded(outputs);
    int i, j;
    memset(out, 0, sizeof(float) * bg_nn_packed_floats(inputs, outputs));
    for (i = 0; i < inputs; i++)
        for (j = 0; j < outputs; j++) {
            float x = w[(size_t)i * (size_t)outputs + (size_t)j];
            if (first)  /* input-major rows of `width` */
                out[(size_t)i * (size_t)width + (size_t)j] = x;
            else        /* panel j / LANES, input i, lane j % LANES */
                out[((size_t)(j / BG_NN_LANES) * (size_t)inputs + (size_t)i) * BG_NN_LANES + j % BG_NN_LANES] = x;
        }
}

const char *bg_nn_problem(const bg_nn *net) {
    int l, width;
    if (net == NULL)
        return "no network";
    width = bg_encode_inputs(net->encoding);
    if (width == 0)
        return "unknown encoding";
    if (net->output != BG_NN_SOFTMAX6 && net->output != BG_NN_SIGMOID5)
        return "unknown output kind";
    if (net->layers < 1 || net->layers > BG_NN_MAX_LAYERS)
        return "wrong number of layers";
    for (l = 0; l < net->layers; l++) {
        const bg_nn_layer *L = &net->layer[l];
        if (L->inputs != width)
            return "a layer's inputs are not the previous layer's outputs (or the encoding's inputs)";
        if (L->outputs < 1 || L->weights == NULL || L->bias == NULL)
            return "a layer without outputs or arrays";
        if (l + 1 < net->layers && (L->activation < 0 || L->activation >= BG_NN_ACTIVATIONS))
            return "unknown activation";
        width = L->outputs;
    }
    if (width != (net->output == BG_NN_SOFTMAX6 ? 6 : 5))
        return "the output layer's width does not fit the output kind (6 for softmax, 5 for sigmoid)";
    return NULL;
}

/* The widest padded layer of a net. */
static int bg_nn_stride(const bg_nn *net) {
    int l, w = 0;
    for (l = 0; l < net->layers; l++)
        if (bg_nn_padded(net->layer[l].outputs) > w)
            w = bg_nn_padded(net->layer[l].outputs);
    return w;
}

size_t bg_nn_scratch_bytes(const bg_nn *contact, const bg_nn *race) {
    int stride = bg_nn_stride(contact);
    if (race != NULL && bg_nn_stride(race) > stride)
        stride = bg_nn_stride(race);
    return sizeof(float) * 2 * BG_NN_ROWS * (size_t)stride + 64;  /* + room to align */
}

static float bg_nn_logistic(float x) {
    return 1.0f / (1.0f + expf(-x));
}

/* The output layer's values z to bgcore's five (for BG_NN_SIGMOID5, z is
   already through the kernels' sigmoid). */
static void bg_nn_finish(int output, const float *z, float *out5) {
    if (output == BG_NN_SIGMOID5) {
        memcpy(out5, z, 5 * sizeof(float));
    } else {
        float top = z[0], e[6], sum = 0.0f;
        int k;
        for (k = 1; k < 6; k++)
            top = z[k] > top ? z[k] : top;
        for (k = 0; k < 6; k++)
            sum += e[k] = expf(z[k] - top);
        for (k = 0; k < 6; k++)
            e[k] /= sum;
        out5[0] = e[0] + e[1] + e[2];  /* win: normal, gammon, backgammon */
        out5[1] = e[1] + e[2];
        out5[2] = e[2];
        out5[3] = e[4] + e[5];
        out5[4] = e[5];
    }
}

/* --- the generic kernels: what the compiler targets ---------------------- */

/* Vectors of 8 floats (in pairs of SSE2 or NEON registers; AVX2's
   registers): blocks of 8 to 12 vectors of sums. */
#define BG_NN_V 8
#define BG_NN_C1 4
#define BG_NN_C2 3
#define BG_NN_C3 2
#define BG_NN_C4 1
#define BG_NN_C5 1
#define BG_NN_C6 1
#if (defined(__GNUC__) || defined(__clang__)) && !defined(BG_NN_PLAIN)
/* GCC's and Clang's vector extension: SSE2 pairs on x86-64, NEON on arm64.
   (Without AVX, GCC warns that passing such vectors by value changes the
   ABI: these helpers are always inlined, so no call passes one.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef float bg_vg __attribute__((vector_size(32)));
typedef int32_t bg_vgi __attribute__((vector_size(32)));
#define bg_v bg_vg
static BG_NN_ALWAYS_INLINE bg_vg vg_load(const float *p) { bg_vg v; memcpy(&v, p, sizeof v); return v; }
static BG_NN_ALWAYS_INLINE bg_vg vg_set1(float x) { bg_vg v = {x, x, x, x, x, x, x, x}; return v; }
/* m ? a : b lane by lane (a macro: GCC notes the ABI of any function taking vectors) */
#define vg_select(m, a, b) ((bg_vg)(((m) & (bg_vgi)(a)) | (~(m) & (bg_vgi)(b))))
#define v_load vg_load
#define v_store(p, v) do { bg_vg v_ = (v); memcpy((p), &v_, sizeof v_); } while (0)
#define v_set1 vg_set1
#define v_fma(a, b, c) ((a) * (b) + (c))
#define v_add(a, b) ((a) + (b))
#define v_max(a, b) vg_select((a) > (b), (a), (b))
#define v_min(a, b) vg_select((a) < (b), (a), (b))
/* lane by lane (GNU statement expressions: no function takes a vector) */
#define v_sigmoid(x) __extension__({ bg_vg t_ = (x); int k_; for (k_ = 0; k_ < 8; k_++) t_[k_] = bg_nn_logistic(t_[k_]); t_; })
#define v_tanh(x) __extension__({ bg_vg t_ = (x); int k_; for (k_ = 0; k_ < 8; k_++) t_[k_] = tanhf(t_[k_]); t_; })
#else
/* Plain C (MSVC and others; BG_NN_PLAIN for a test of this path): eight
   floats in a struct. */
typedef struct { float f[8]; } bg_vs;
#define bg_v bg_vs
#define BG_VS_MAP(expr) do { int k_; for (k_ = 0; k_ < 8; k_++) r.f[k_] = (expr); } while (0)
static BG_NN_ALWAYS_INLINE bg_vs vs_load(const float *p) { bg_vs r; memcpy(r.f, p, sizeof r.f); return r; }
static BG_NN_ALWAYS_INLINE void vs_store(float *p, bg_vs v) { memcpy(p, v.f, sizeof v.f); }
static BG_NN_ALWAYS_INLINE bg_vs vs_set1(float x) { bg_vs r; BG_VS_MAP(x); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_fma(bg_vs a, bg_vs b, bg_vs c) { bg_vs r; BG_VS_MAP(a.f[k_] * b.f[k_] + c.f[k_]); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_add(bg_vs a, bg_vs b) { bg_vs r; BG_VS_MAP(a.f[k_] + b.f[k_]); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_max(bg_vs a, bg_vs b) { bg_vs r; BG_VS_MAP(a.f[k_] > b.f[k_] ? a.f[k_] : b.f[k_]); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_min(bg_vs a, bg_vs b) { bg_vs r; BG_VS_MAP(a.f[k_] < b.f[k_] ? a.f[k_] : b.f[k_]); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_sigmoid(bg_vs a) { bg_vs r; BG_VS_MAP(bg_nn_logistic(a.f[k_])); return r; }
static BG_NN_ALWAYS_INLINE bg_vs vs_tanh(bg_vs a) { bg_vs r; BG_VS_MAP(tanhf(a.f[k_])); return r; }
#define v_load vs_load
#define v_store vs_store
#define v_set1 vs_set1
#define v_fma vs_fma
#define v_add vs_add
#define v_max vs_max
#define v_min vs_min
#define v_sigmoid vs_sigmoid
#define v_tanh vs_tanh
#endif

#define BG_NN_K(name) bg_nn_##name##_generic
#define BG_NN_TARGET
#include "bg_nn_kernel.h"

/* --- AVX2 with FMA ----------------------------------------------------------- */

#if BG_NN_X86_DISPATCH
#define BG_NN_TARGET __attribute__((target("avx2,fma")))
#define bg_v __m256
#define v_load _mm256_loadu_ps
#define v_store _mm256_storeu_ps
#define v_set1 _mm256_set1_ps
#define v_fma _mm256_fmadd_ps
#define v_add _mm256_add_ps
#define v_max _mm256_max_ps
#define v_min _mm256_min_ps
#define v_sub _mm256_sub_ps
#define v_mul _mm256_mul_ps
#define v_div _mm256_div_ps
#define v_fnma _mm256_fnmadd_ps
#define v_round(x) _mm256_round_ps((x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define v_pow2(n) \
    _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23))
#define BG_NN_VECTOR_EXP 1
#define BG_NN_K(name) bg_nn_##name##_avx2
#include "bg_nn_kernel.h"

/* --- AVX-512 -------------------------------------------------------------------

   A vector is a panel (16 floats).  With 32 registers a block keeps 8 to 24
   sums: the wider the block, the fewer loads and broadcasts per
   multiply-add.  (Processors that run 512-bit FMAs at full width, as AMD's
   Zen 5 and Intel's server cores, do twice AVX2's work per cycle.) */
#undef BG_NN_V
#undef BG_NN_C1
#undef BG_NN_C2
#undef BG_NN_C3
#undef BG_NN_C4
#undef BG_NN_C5
#undef BG_NN_C6
#define BG_NN_V 16
#define BG_NN_C1 8
#define BG_NN_C2 8
#define BG_NN_C3 6
#define BG_NN_C4 4
#define BG_NN_C5 4
#define BG_NN_C6 4
#define BG_NN_TARGET __attribute__((target("avx512f,avx2,fma")))
#define bg_v __m512
#define v_load _mm512_loadu_ps
#define v_store _mm512_storeu_ps
#define v_set1 _mm512_set1_ps
#define v_fma _mm512_fmadd_ps
#define v_add _mm512_add_ps
#define v_max _mm512_max_ps
#define v_min _mm512_min_ps

#define v_sub _mm512_sub_ps
#define v_mul _mm512_mul_ps
#define v_div _mm512_div_ps
#define v_fnma _mm512_fnmadd_ps
#define v_round(x) _mm512_roundscale_ps((x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define v_pow2(n) \
    _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23))
#define BG_NN_VECTOR_EXP 1
#define BG_NN_K(name) bg_nn_##name##_avx512
#include "bg_nn_kernel.h"
#endif

/* --- dispatch and evaluation ------------------------------------------------- */

typedef void (*bg_nn_forward_fn)(const bg_nn *net, int rows, const int8_t *const *boards, int checkers,
                                 float *const *out5, float *buf, int stride);

enum { BG_NN_GENERIC = 0, BG_NN_AVX2 = 1, BG_NN_AVX512 = 2 };
static const char *const bg_nn_kernels[] = {"generic", "avx2", "avx512"};

/* The best kernels this processor runs, and the most a caller allows. */
static int bg_nn_best(void) {
#if BG_NN_X86_DISPATCH
    /* libgcc's (compiler-rt's) answers, which check that the OS saves the
       wide registers too, read from a table filled once at load time. */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return BG_NN_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return BG_NN_AVX2;
#endif
    return BG_NN_GENERIC;
}

static int bg_nn_limit = BG_NN_AVX512;

static int bg_nn_level(void) {
    int best = bg_nn_best();
    return best < bg_nn_limit ? best : bg_nn_limit;
}

int bg_nn_use_kernels(const char *name) {
    int k;
    for (k = 0; k <= BG_NN_AVX512; k++)
        if (strcmp(name, bg_nn_kernels[k]) == 0) {
            if (k > bg_nn_best())
                return -1;
            bg_nn_limit = k;
            return 0;
        }
    if (strcmp(name, "auto") == 0) {
        bg_nn_limit = BG_NN_AVX512;
        return 0;
    }
    return -1;
}

const char *bg_nn_kernel(void) {
    return bg_nn_kernels[bg_nn_level()];
}

/* The boards of one net waiting for a pass: up to BG_NN_ROWS, in blocks of
   about equal size (20 boards go as 5 + 5 + 5 + 5, not 6 + 6 + 6 + 2). */
typedef struct bg_nn_queue {
    const bg_nn *net;
    size_t left;      /* boards not yet queued */
    size_t blocks;    /* blocks not yet run */
    int fill, target;
    const int8_t *boards[BG_NN_ROWS];
    float *out[BG_NN_ROWS];
} bg_nn_queue;

static void bg_nn_queue_start(bg_nn_queue *q, const bg_nn *net, size_t count) {
    q->net = net;
    q->left = count;
    q->blocks = (count + BG_NN_ROWS - 1) / BG_NN_ROWS;
    q->fill = 0;
    q->target = q->blocks ? (int)((count + q->blocks - 1) / q->blocks) : 0;
}

static void bg_nn_queue_push(bg_nn_queue *q, const int8_t *board, float *out, bg_nn_forward_fn forward,
                             int checkers, float *buf, int stride) {
    q->boards[q->fill] = board;
    q->out[q->fill++] = out;
    if (q->fill == q->target) {
        forward(q->net, q->fill, q->boards, checkers, q->out, buf, stride);
        q->left -= (size_t)q->fill;
        q->blocks--;
        q->fill = 0;
        q->target = q->blocks ? (int)((q->left + q->blocks - 1) / q->blocks) : 0;
    }
}

int bg_nn_eval(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
               float *out5, void *scratch) {
    bg_nn_forward_fn forward = bg_nn_forward_generic;
    bg_nn_queue qc, qr;
    size_t i, ncontact = 0, nrace = 0;
    int stride, split;
    float *buf;
    if (race == NULL)
        race = contact;
    if (bg_nn_problem(contact) != NULL || bg_nn_problem(race) != NULL)
        return -1;
#if BG_NN_X86_DISPATCH
    switch (bg_nn_level()) {
    case BG_NN_AVX512: forward = bg_nn_forward_avx512; break;
    case BG_NN_AVX2: forward = bg_nn_forward_avx2; break;
    default: break;
    }
#endif
    split = race != contact;
    stride = bg_nn_stride(contact);
    if (bg_nn_stride(race) > stride)
        stride = bg_nn_stride(race);
    buf = (float *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    /* First the finished games, and the count of each net's boards for the
       sizes of their blocks. */
    for (i = 0; i < n; i++) {
        const int8_t *b = boards + 26 * i;
        if (bg_game_value(b, checkers, out5 + 5 * i))
            continue;
        if (split && bg_is_race(b))
            nrace++;
        else
            ncontact++;
    }
    bg_nn_queue_start(&qc, contact, ncontact);
    bg_nn_queue_start(&qr, race, nrace);
    for (i = 0; i < n; i++) {
        const int8_t *b = boards + 26 * i;
        int mine, theirs;
        bg_enc_on_board(b, &mine, &theirs);
        if (mine == 0 || theirs == 0)
            continue;
        bg_nn_queue_push(split && bg_is_race(b) ? &qr : &qc, b, out5 + 5 * i, forward, checkers, buf, stride);
    }
    return 0;
}
