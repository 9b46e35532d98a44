"""Declares bgcore's Cython extension; everything else is in pyproject.toml."""

import os
import sys
import sysconfig

from Cython.Build import cythonize
from setuptools import Extension, setup


def compile_args() -> list[str]:
    if os.name == "nt":
        return []
    args = ["-O3"]
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    if sys.platform.startswith("linux") and "gcc" in compiler and "clang" not in compiler:
        # GCC stops inlining the generator's leaf step into its recursion at
        # the default unit-growth limit; inlined, a generation takes about 8%
        # fewer instructions (callgrind).
        args += ["--param", "max-inline-insns-single=1000", "--param", "inline-unit-growth=400"]
    return args


extensions = [
    Extension("bgcore._core", ["src/bgcore/_core.pyx"], extra_compile_args=compile_args()),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
