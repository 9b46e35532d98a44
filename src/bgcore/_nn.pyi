"""Networks evaluated in C, behind bgcore.nn."""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

ENCODINGS: tuple[str, ...]
ACTIVATIONS: tuple[str, ...]
OUTPUTS: tuple[str, ...]
KERNELS: tuple[str, ...]

def kernel() -> str: ...
def use_kernels(name: str) -> None: ...
def game_values(boards: npt.ArrayLike, checkers: int = 15) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float32]]: ...

@disjoint_base
class Native:
    def _bind(
        self,
        encoding: str,
        output: str,
        weights: list[npt.NDArray[np.float32]],
        biases: list[npt.NDArray[np.float32]],
        activations: list[str],
        alphas: list[float],
        betas: list[float],
    ) -> None: ...
    def _bind_pair(self, contact: Native, race: Native) -> None: ...
    def __call__(self, boards: npt.ArrayLike, *, checkers: int = 15, threads: int = 1) -> npt.NDArray[np.float32]: ...
