"""Acey-deucey in C, for bgcore.acey: the generator, perft and random games."""

import numpy as np
import numpy.typing as npt

#: Slots of an acey-deucey board: 26 board slots, the mover's and the opponent's waiting checkers.
SLOTS: int
#: The deepest perft walk.
MAX_PERFT_DEPTH: int

def generate(board: bytes, d1: int, d2: int) -> tuple[bytes, bytes]: ...
def perft(board: bytes, depth: int) -> tuple[int, int]: ...
def random_games(
    board: bytes,
    seed: int,
    first: int,
    count: int,
    first_rolls: npt.ArrayLike | None = None,
) -> np.ndarray: ...
