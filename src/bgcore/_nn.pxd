# cython: language_level=3
"""The C-level API of bgcore's networks (see _nn.pyx and _csrc/bg_nn.h).

A ``Native`` evaluator (``bgcore.nn.Network`` or ``bgcore.nn.Composite``)
holds one or two ``bg_nn`` structs whose arrays it keeps alive; a Cython
module that runs games (``_engine``) gets them with ``native_nets`` while it
holds a reference to the evaluator, sizes a scratch buffer once with
``nn_scratch_bytes`` and calls ``nn_eval`` without the GIL, from any number
of threads at once (each with its own scratch).
"""

from libc.stdint cimport int8_t

cdef extern from "bg_nn.h":
    enum:
        BG_NN_MAX_LAYERS
        BG_NN_ROWS
        BG_NN_LANES

    ctypedef struct bg_nn_layer:
        int inputs
        int outputs
        int activation
        float alpha
        float beta
        const float *weights
        const float *bias

    ctypedef struct bg_nn:
        int encoding
        int output
        int layers
        bg_nn_layer layer[8]

# The scratch bytes of one nn_eval call with these nets (race: NULL or the
# contact net for a single net).
cdef size_t nn_scratch_bytes(const bg_nn *contact, const bg_nn *race) noexcept nogil
# bgcore's five outputs (win, win gammon, win backgammon, lose gammon, lose
# backgammon) of n valid boards, each seen by its player on roll, into out5
# (5 floats a board): finished games their value, races the race net's, the
# others the contact net's.  0, or -1 for an inconsistent net.
cdef int nn_eval(const bg_nn *contact, const bg_nn *race, const int8_t *boards, size_t n, int checkers,
                 float *out5, void *scratch) noexcept nogil


cdef class Native:
    cdef bg_nn net                 # a single network's own struct
    cdef const bg_nn *contact      # the nets it evaluates with (NULL until bound)
    cdef const bg_nn *race
    cdef object _keep              # what the pointers point into


# 1 with the evaluator's nets in *contact and *race when it is a Native
# evaluator (they live as long as it does), else 0.
cdef int native_nets(object evaluator, const bg_nn **contact, const bg_nn **race) except -1
