"""Training's native parts, behind bgcore.train."""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

ENCODINGS: tuple[str, ...]
ACTIVATIONS: tuple[str, ...]
OUTPUTS: tuple[str, ...]
CHUNK: int
KERNELS: tuple[str, ...]

def kernel() -> str: ...
def use_kernels(name: str) -> None: ...

@disjoint_base
class Layout:
    @property
    def targets(self) -> int: ...
    @property
    def params(self) -> int: ...
    def __init__(
        self, encoding: str, output: str, sizes: tuple[int, ...], activations: list[tuple[str, float, float]]
    ) -> None: ...

def outputs(
    layout: Layout, params: npt.NDArray[np.float32], boards: npt.NDArray[np.int8], checkers: int = 15
) -> npt.NDArray[np.float32]: ...
def gradient(
    layout: Layout,
    params: npt.NDArray[np.float32],
    boards: npt.NDArray[np.int8],
    targets: npt.NDArray[np.float32],
    checkers: int = 15,
) -> tuple[npt.NDArray[np.float32], float]: ...
def lambda_targets(
    values: npt.NDArray[np.float32],
    game: npt.NDArray[np.int64],
    ply: npt.NDArray[np.int32],
    points: npt.NDArray[np.int8],
    lam: float,
    output: str,
) -> npt.NDArray[np.float32]: ...
def sgd(
    layout: Layout,
    params: npt.NDArray[np.float32],
    boards: npt.NDArray[np.int8],
    targets: npt.NDArray[np.float32],
    order: npt.NDArray[np.int64],
    lr: float,
    batch: int,
    threads: int = 1,
    checkers: int = 15,
) -> float: ...
