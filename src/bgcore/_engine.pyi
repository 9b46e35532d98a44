from collections.abc import Callable

import numpy as np

from .nn import NativeEvaluator

POLICIES: tuple[str, ...]
BLOCK: int

_EnginePolicy = str | NativeEvaluator | Callable[[np.ndarray, np.ndarray], object]
_Theory = NativeEvaluator | Callable[[np.ndarray], object] | None

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
def play_cubeful(
    start: bytes,
    checkers: int,
    seed: int,
    first: int,
    count: int,
    policies: tuple[_EnginePolicy, _EnginePolicy],
    theories: tuple[_Theory, _Theory],
    pre: memoryview | np.ndarray,
    post: memoryview | np.ndarray,
    *,
    rules: tuple[int, int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0, 4096),
    root: tuple[tuple[int, int], ...] = ((1, -1),),
    match_length: int = 0,
    stratify: bool = False,
    duel: bool = False,
    lanes: int = 256,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def cube_judge(
    values: tuple[float, float, float],
    state: tuple[int, int, int, int, int, int, int],
    win: float,
    win_gammon: bool,
    pre: memoryview | np.ndarray,
    post: memoryview | np.ndarray,
) -> tuple[float, int, int]: ...
def may_double(rules: tuple[int, int, int, int, int, int, int], branch: tuple[int, int], player: int) -> bool: ...
