from collections.abc import Callable

import numpy as np

POLICIES: tuple[str, ...]
BLOCK: int

def play_games(
    start: bytes,
    checkers: int,
    seed: int,
    first: int,
    count: int,
    policies: tuple[str | Callable[[np.ndarray, np.ndarray], object], str | Callable[[np.ndarray, np.ndarray], object]],
    *,
    truncate: int = -1,
    evaluator: Callable[[np.ndarray], object] | None = None,
    stratify: bool = False,
    opening: bool = False,
    duel: bool = False,
    record: bool = False,
    lanes: int = 256,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray] | None]: ...
def strata(seed: int, block: int) -> np.ndarray: ...
