"""Declares bgcore's Cython extension; everything else is in pyproject.toml."""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

extra = [] if os.name == "nt" else ["-O3"]

extensions = [
    Extension("bgcore._core", ["src/bgcore/_core.pyx"], extra_compile_args=extra),
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    ),
)
