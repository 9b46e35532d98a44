"""Evaluations and network inputs over arrays of boards, for bgcore.encode."""

import numpy as np
import numpy.typing as npt

def first_invalid(boards: npt.NDArray[np.int8], checkers: int = 15) -> int | None: ...
def tesauro198(
    boards: npt.NDArray[np.int8], checkers: int = 15, opponent_on_roll: bool = False
) -> npt.NDArray[np.float32]: ...
def is_race(boards: npt.NDArray[np.int8], checkers: int = 15) -> npt.NDArray[np.bool_]: ...
def pubeval_scores(
    boards: npt.NDArray[np.int8],
    checkers: int = 15,
    race: npt.NDArray[np.uint8] | None = None,
    plain: bool = False,
) -> npt.NDArray[np.float32]: ...
def race_scores(boards: npt.NDArray[np.int8], checkers: int = 15) -> npt.NDArray[np.float32]: ...
