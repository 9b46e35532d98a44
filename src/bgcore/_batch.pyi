"""Batch generation over numpy arrays, for bgcore.batch."""

from typing import Literal, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

SMALL_MAX_ROWS: int
MIN_ROWS_PER_THREAD: int
PIECE_ROWS_MIN: int
PIECE_ROWS_MAX: int
RESERVE_PER_ROW: int
STREAM_COPY_ROWS: int

def threads_for(n: int, threads: int) -> int: ...
def piece_rows(n: int, k: int) -> int: ...
def count_many(boards: bytes, dice: bytes) -> int: ...
def find_invalid(boards: npt.NDArray[np.int8], dice: npt.NDArray[np.uint8]) -> int | None: ...
def kept_buffers() -> list[int]: ...
def release_buffers() -> None: ...
def ready(
    boards: object, dice: object
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8], npt.NDArray[np.integer]] | None: ...
@overload
def call(
    boards: object, dice: object, threads: object, flip: object, store: Literal[True]
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | None: ...
@overload
def call(
    boards: object, dice: object, threads: object, flip: object, store: Literal[False]
) -> npt.NDArray[np.int64] | None: ...
@overload
def rows(
    boards: npt.NDArray[np.int8],
    dice: npt.NDArray[np.uint8],
    threads: int,
    piece_rows: int,
    flip: bool,
    store: Literal[True],
    reserve_rows: int,
    primed: Primed | None = None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | None: ...
@overload
def rows(
    boards: npt.NDArray[np.int8],
    dice: npt.NDArray[np.uint8],
    threads: int,
    piece_rows: int,
    flip: bool,
    store: Literal[False],
    reserve_rows: int,
    primed: Primed | None = None,
) -> npt.NDArray[np.int64] | None: ...
@overload
def rows(
    boards: npt.NDArray[np.int8],
    dice: npt.NDArray[np.uint8],
    threads: int,
    piece_rows: int,
    flip: bool,
    store: bool,
    reserve_rows: int,
    primed: Primed | None = None,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]] | npt.NDArray[np.int64] | None: ...

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
    def finish(self) -> npt.NDArray[np.int8] | None: ...
