"""Declares bgcore's native extensions; everything else is in pyproject.toml.

Build switches (environment variables):

- ``BGCORE_DEBUG=1``: ``-O0 -g`` and Cython's bounds, wraparound and
  initialisation checks, for a debugger or to catch an index out of range.
- ``BGCORE_SANITIZE=address,undefined`` (or ``thread``, ...): compile and link
  with ``-fsanitize=...`` (GCC or Clang).  A Python process must then preload
  the sanitizer's runtime: see ``.ci/sanitize.sh``.
"""

from __future__ import annotations

import os
import sys
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("BGCORE_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("BGCORE_SANITIZE", "").strip()
CSRC = "src/bgcore/_csrc"


def compile_args() -> list[str]:
    if os.name == "nt":
        return ["/Od", "/Zi"] if DEBUG else []
    args = ["-O0", "-g"] if DEBUG else ["-O3"]
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    if not DEBUG and sys.platform.startswith("linux") and "gcc" in compiler and "clang" not in compiler:
        # GCC stops inlining the generator's leaf step into its recursion at
        # the default unit-growth limit; inlined, a generation takes fewer
        # instructions.
        args += ["--param", "max-inline-insns-single=1000", "--param", "inline-unit-growth=400"]
    if SANITIZE:
        args += [f"-fsanitize={SANITIZE}", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
    return args


def link_args() -> list[str]:
    return [f"-fsanitize={SANITIZE}"] if SANITIZE and os.name != "nt" else []


def extension(name: str, *c_sources: str, numpy: bool = False) -> Extension:
    """``numpy``: the module cimports numpy (its C API, for arrays made and read without Python calls)."""
    module = name.rsplit(".", 1)[1]
    include_dirs = [CSRC]
    macros = []
    if numpy:
        import numpy as np

        include_dirs.append(np.get_include())
        macros.append(("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"))
    return Extension(
        name,
        [f"src/bgcore/{module}.pyx", *(f"{CSRC}/{c}" for c in c_sources)],
        include_dirs=include_dirs,
        define_macros=macros,
        extra_compile_args=compile_args(),
        extra_link_args=link_args(),
    )


# The comments are aligned by hand.
# fmt: off
extensions = [
    extension("bgcore.movegen"),     # the generator and the C-level API
    extension("bgcore._pool"),       # native threads kept between jobs
    extension("bgcore._results"),    # board checks and one roll's results, for the Python API
    extension("bgcore._batchrun", "bg_rowbuf.c"),  # batches run in C: row buffers, kits, rows shared among threads
    extension("bgcore._batch", numpy=True),  # batches' Python face: checks and numpy arrays in and out
    extension("bgcore._perft"),      # counting the game tree
    extension("bgcore.dice"),        # seeded dice and their C-level API
    extension("bgcore._encode", numpy=True),  # pubeval, race scores and TD-Gammon inputs over arrays
    extension("bgcore._engine"),     # whole games in C: rollouts, self-play, duels
    extension("bgcore._acey"),      # the acey-deucey variant: generator, perft, random games
    extension("bgcore._cube"),       # the doubling cube at 0-ply: gnubg's cubeful equities and decisions
    extension("bgcore._nn", "bg_nn.c", numpy=True),  # networks: the forward pass in C, kernels chosen at run time
    extension("bgcore._train", numpy=True),  # training: TD(lambda) targets, the backward pass, minibatch steps
]
# fmt: on

checks = DEBUG
setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": checks,
            "wraparound": checks,
            "initializedcheck": checks,
            "cdivision": True,
        },
    ),
)
