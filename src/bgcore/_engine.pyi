from collections.abc import Callable

import numpy as np

from .nn import NativeEvaluator

POLICIES: tuple[str, ...]
BLOCK: int

_EnginePolicy = str | NativeEvaluator | Callable[[np.ndarray, np.ndarray], object]

def play_games(
    start: bytes,
    checkers: int,
    seed: int,
    first: int,
    count: int,
    policies: tuple[_EnginePolicy, _EnginePolicy],
    *,
    truncate: int = -1,
    evaluator: NativeEvaluator | Callable[[np.ndarray], object] | None = None,
    stratify: bool = False,
    opening: bool = False,
    duel: bool = False,
    record: bool = False,
    lanes: int = 256,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]: ...
def strata(seed: int, block: int) -> np.ndarray: ...
