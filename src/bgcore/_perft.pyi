"""Perft in C, for bgcore.perft."""

MAX_DEPTH: int
MAX_THREADS: int

def perft(board: bytes, depth: int, threads: int = 1) -> tuple[int, int]: ...
