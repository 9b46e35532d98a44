"""Constants of the rules: the rolls, the variants' starting boards and how
many checkers each side plays with.

>>> len(ROLLS), ROLLS[0], ROLLS[-1]
(21, (1, 1), (6, 6))
>>> VARIANTS["hypergammon"].checkers
3
>>> VARIANTS["standard"] = None
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["ROLLS", "Variant", "VARIANTS", "CHECKERS"]

#: The 21 distinct rolls, higher die first.
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))

#: Checkers a side plays with in standard backgammon (at most, in any variant).
CHECKERS = 15


class Variant(NamedTuple):
    """A variant's starting board (26 counts, the player on roll's view) and
    how many checkers each side plays with."""

    board: tuple[int, ...]
    checkers: int


def _layout(**points: int) -> tuple[int, ...]:
    """A symmetric starting board from {point: count} in each player's numbering."""
    board = [0] * 26
    for name, count in points.items():
        p = int(name[1:])
        board[p] += count
        board[25 - p] -= count
    return tuple(board)


#: The supported variants, read-only: ``Position.initial(name)`` starts one.
VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {
        "standard": Variant(_layout(p24=2, p13=5, p8=3, p6=5), CHECKERS),
        "nackgammon": Variant(_layout(p24=2, p23=2, p13=4, p8=3, p6=4), CHECKERS),
        "hypergammon": Variant(_layout(p24=1, p23=1, p22=1), 3),
    }
)
