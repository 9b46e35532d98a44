"""The native side of bgcore.cube (bg_cube.h)."""

def position_class(board: bytes | bytearray | memoryview) -> int: ...
def efficiency(board: bytes | bytearray | memoryview, pc: int, plies: int) -> float: ...
def cubeful(
    p: tuple[float, ...],
    state: tuple[int, int, int, int, int, int, int],
    x: float,
    bearoff: tuple[float, ...] | None,
    pre: memoryview,
    post: memoryview,
) -> float: ...
def decide(
    p: tuple[float, ...],
    state: tuple[int, int, int, int, int, int, int],
    x: float,
    bearoff: tuple[float, ...] | None,
    pre: memoryview,
    post: memoryview,
) -> tuple[float, float, float, float, int, int]: ...
