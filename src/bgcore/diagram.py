"""ASCII diagram of a board, for ``str(Position)``."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["render"]

_ROWS = 5


def _cell(count: int, row: int, mark: str) -> str:
    """Row ``row`` (0 = next to the edge) of a point holding ``count`` checkers."""
    if count > row:
        if row == _ROWS - 1 and count > _ROWS:
            return f"{count:>2} "
        return f" {mark} "
    return " . " if row == 0 else "   "


def _half(board: Sequence[int], points: Sequence[int], top: bool) -> list[str]:
    rows = []
    for r in range(_ROWS):
        cells = []
        for p in points:
            c = board[p]
            cells.append(_cell(abs(c), r, "X" if c > 0 else "O"))
        left, right = "".join(cells[:6]), "".join(cells[6:])
        rows.append(f"|{left}|   |{right}|")
    return rows if top else rows[::-1]


def render(board: Sequence[int], pips: tuple[int, int], off: tuple[int, int], position_id: str) -> str:
    """Draw ``board``: X is the player on roll, moving from 24 (top right) to 1 (bottom right).

    >>> from bgcore import Position
    >>> print(Position.initial())
    Position ID: 4HPwATDgc/ABMA   X on roll
     13 14 15 16 17 18      19 20 21 22 23 24
    +------------------+---+------------------+  O  pips 167  off 0  bar 0
    | X  .  .  .  O  . |   | O  .  .  .  .  X |
    | X           O    |   | O              X |
    | X           O    |   | O                |
    | X                |   | O                |
    | X                |   | O                |
    |                  |BAR|                  |
    | O                |   | X                |
    | O                |   | X                |
    | O           X    |   | X                |
    | O           X    |   | X              O |
    | O  .  .  .  X  . |   | X  .  .  .  .  O |
    +------------------+---+------------------+  X  pips 167  off 0  bar 0
     12 11 10  9  8  7       6  5  4  3  2  1
    """
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [f"Position ID: {position_id}   X on roll"]
    lines.append("".join(f"{p:>3}" for p in top[:6]) + "     " + "".join(f"{p:>3}" for p in top[6:]))
    edge = "+------------------+---+------------------+"
    lines.append(f"{edge}  O  pips {pips[1]}  off {off[1]}  bar {-board[0]}")
    lines += _half(board, top, top=True)
    lines.append("|                  |BAR|                  |")
    lines += _half(board, bottom, top=False)
    lines.append(f"{edge}  X  pips {pips[0]}  off {off[0]}  bar {board[25]}")
    lines.append("".join(f"{p:>3}" for p in bottom[:6]) + "     " + "".join(f"{p:>3}" for p in bottom[6:]))
    return "\n".join(lines)
