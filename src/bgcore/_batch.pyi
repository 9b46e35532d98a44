"""Batch generation over numpy arrays, for bgcore.batch."""

from typing import Literal, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

SMALL_MAX_ROWS: int

def count_many(boards: bytes, dice: bytes) -> int: ...
def find_invalid(boards: npt.NDArray[np.int8], dice: npt.NDArray[np.uint8]) -> int | None: ...
def count_rows(
    boards: npt.NDArray[np.int8], dice: npt.NDArray[np.uint8], counts: npt.NDArray[np.int64], start: int, stop: int
) -> int | None: ...
def kept_buffers() -> list[int]: ...
def release_buffers() -> None: ...
def ready(
    boards: object, dice: object
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8], npt.NDArray[np.integer]] | None: ...
@overload
def small(
    boards: object, dice: object, threads: object, flip: object, store: Literal[True]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | None: ...
@overload
def small(
    boards: object, dice: object, threads: object, flip: object, store: Literal[False]
) -> npt.NDArray[np.int64] | None: ...

@disjoint_base
class Output:
    """A growing native buffer of result boards, 26 bytes a row (one thread)."""

    # The arguments go to the cdef class's __cinit__, which is its __new__.
    def __new__(cls, capacity: int) -> Self: ...
    @property
    def rows(self) -> int: ...
    def run(
        self,
        boards: npt.NDArray[np.int8],
        dice: npt.NDArray[np.uint8],
        ends: npt.NDArray[np.int64],
        start: int,
        stop: int,
        flip: bool,
    ) -> int | None: ...
    def take(self) -> memoryview | None: ...

@disjoint_base
class Primed:
    """Pool threads taken for a batch and woken ahead of it."""

    def __new__(cls, count: int) -> Self: ...
    @property
    def threads(self) -> int: ...

@disjoint_base
class Batch:
    """The rows of one batch, shared by the calling thread and pool threads (``run``)."""

    def __new__(
        cls,
        boards: npt.NDArray[np.int8],
        dice: npt.NDArray[np.uint8],
        counts: npt.NDArray[np.int64],
        threads: int,
        piece_rows: int,
        flip: bool,
        store: bool,
        reserve_rows: int,
        primed: Primed | None = None,
    ) -> Self: ...
    @property
    def bad_row(self) -> int | None: ...
    def run(self) -> None: ...
    def finish(self) -> memoryview | None: ...
