"""Perft in C, for bgcore.perft."""

from collections.abc import Callable

MAX_DEPTH: int
MAX_THREADS: int

def perft(
    board: bytes, depth: int, threads: int = 1, progress: Callable[[int, int], object] | None = None
) -> tuple[int, int]: ...
