"""One BLAS (and OpenMP) thread for the benchmark scripts.

numpy's BLAS starts its own threads, which sit idle in these benchmarks yet
steal a core from the threads being timed, and a Python policy's numpy runs
on the engine's threads already. BLAS reads the setting once, when numpy
loads, so a script calls :func:`one_thread` at its top, before importing
numpy, inside its ``if __name__ == "__main__":`` guard: importing a benchmark
module (as the test suite does) leaves the environment alone. An explicit
setting in the environment wins.
"""

from __future__ import annotations

import os

__all__ = ["VARIABLES", "one_thread"]

#: The variables set (OpenBLAS's and OpenMP's thread counts).
VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")


def one_thread() -> None:
    """Ask for one BLAS and OpenMP thread unless the environment says otherwise."""
    for name in VARIABLES:
        os.environ.setdefault(name, "1")
