/* Dense feed-forward networks over boards, evaluated in C (bg_nn.c).

   A network reads a board through a built-in encoding (bg_encode.h), runs it
   through dense layers (weights, biases, an activation after each hidden
   layer) and ends in bgcore's five outputs for the player on roll: win, win
   gammon, win backgammon, lose gammon, lose backgammon (gammons counting
   backgammons).  Its last layer has six outputs under a softmax (six
   exclusive outcomes: win normal, win gammon, win backgammon, lose normal,
   lose gammon, lose backgammon, mapped to the five) or five under sigmoids
   (the five themselves).

   Each output is computed in the same order of operations whatever the
   boards evaluated with it, so a board's outputs do not depend on its
   batch (to the bit).  The kernels for AVX2 and AVX-512 compute the same
   operations (multiply-adds fused) and give the same bits; the generic
   ones may differ from them in the last bits.

   A bg_nn only points at its arrays: the caller (bgcore.nn.Network) owns
   them, laid out by bg_nn_pack for the kernels.  Evaluation reads the net
   and writes only the caller's outputs and scratch, so one net serves any
   number of threads at once, each with its own scratch.  Nothing is
   allocated while evaluating.

   The layers' inner loops are compiled from bg_nn_kernel.h for the machine
   the compiler targets (SSE2 on x86-64, NEON on arm64, plain C elsewhere)
   and, on x86-64 with GCC or Clang, for AVX2 with FMA and for AVX-512, the
   best the processor runs chosen at run time. */
#ifndef BG_NN_H
#define BG_NN_H

#include <stddef.h>
#include <stdint.h>

#include "bg_encode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The activation after a hidden layer. */
enum {
    BG_NN_RELU = 0,         /* max(x, 0) */
    BG_NN_HARDSIGMOID = 1,  /* max(0, min(1, alpha * x + beta)) */
    BG_NN_SIGMOID = 2,      /* 1 / (1 + exp(-x)) */
    BG_NN_TANH = 3,
    BG_NN_ACTIVATIONS = 4
};

/* The output layer's kind. */
enum {
    BG_NN_SOFTMAX6 = 0,  /* six exclusive outcomes under a softmax */
    BG_NN_SIGMOID5 = 1,  /* bgcore's five, each under a sigmoid */
    BG_NN_OUTPUTS = 2
};

#define BG_NN_MAX_LAYERS 8
/* Layer widths are padded to a multiple of this in the packed arrays. */
#define BG_NN_LANES 16
/* Boards that go through the layers together (the kernels' row block). */
#define BG_NN_ROWS 6

typedef struct bg_nn_layer {
    int inputs, outputs;
    int activation;        /* BG_NN_RELU ...; ignored for the output layer */
    float alpha, beta;     /* BG_NN_HARDSIGMOID's */
    const float *weights;  /* bg_nn_pack's layout: bg_nn_packed_floats(inputs, outputs) floats */
    const float *bias;     /* bg_nn_padded(outputs) floats, zero beyond outputs */
} bg_nn_layer;

typedef struct bg_nn {
    int encoding;          /* BG_ENC_*: the first layer's inputs */
    int output;            /* BG_NN_SOFTMAX6 or BG_NN_SIGMOID5 */
    int layers;            /* 1 .. BG_NN_MAX_LAYERS, hidden layers and the output layer */
    bg_nn_layer layer[BG_NN_MAX_LAYERS];
} bg_nn;

/* n rounded up to a multiple of BG_NN_LANES. */
int bg_nn_padded(int n);

/* The floats of a layer's packed weights. */
size_t bg_nn_packed_floats(int inputs, int outputs);

/* Lays out weights w (inputs x outputs, row-major: w[i * outputs + j] is
   input i's weight into output j) for the kernels into out
   (bg_nn_packed_floats floats, 64-byte aligned for speed): the first layer
   input by input (each input's row of bg_nn_padded(outputs) weights, which
   the sparse first layer adds up), the others in panels of BG_NN_LANES
   outputs, each panel input by input.  Padding is zero. */
void bg_nn_pack(int first, const float *w, int inputs, int outputs, float *out);

/* NULL when net is consistent (a known encoding and output kind, 1 ..
   BG_NN_MAX_LAYERS layers chained from the encoding's inputs to 6 or 5
   outputs, known activations, arrays present), else what is wrong. */
const char *bg_nn_problem(const bg_nn *net);

/* The scratch bytes one call of bg_nn_eval needs with these nets (race may
   be NULL or contact). */
size_t bg_nn_scratch_bytes(const bg_nn *contact, const bg_nn *race);

/* bgcore's five outputs of n boards (26 bytes each, valid for checkers,
   each seen by its player on roll) into out5 (5 floats a board): a finished
   game its value (bg_game_value), a race (bg_is_race) the race net's, the
   others the contact net's.  race may be NULL (or contact) for one net for
   every board.  scratch: bg_nn_scratch_bytes(contact, race) bytes, any
   alignment, not shared with another call running at the same time.
   0, or -1 (nothing written) when a net is inconsistent (bg_nn_problem). */
int bg_nn_eval(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
               float *out5, void *scratch);

/* The kernels in use: "avx512", "avx2" or "generic". */
const char *bg_nn_kernel(void);

/* For tests and timings: use at most the kernels named ("generic", "avx2",
   "avx512"; "auto": the best the processor runs).  -1 (nothing changed)
   for an unknown name or kernels this processor cannot run.  Not for use
   while another thread evaluates. */
int bg_nn_use_kernels(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* BG_NN_H */
