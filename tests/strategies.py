"""Hypothesis strategies for boards, positions and rolls."""

from __future__ import annotations

from hypothesis import strategies as st

from bgcore import Position
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

rolls = st.sampled_from(ROLLS)

_CORPUS = selfplay_positions(400, seed=2024) + selfplay_positions(100, seed=7, variant="nackgammon")


@st.composite
def random_boards(draw, max_checkers: int = 15) -> tuple[int, ...]:
    """Any valid board: up to ``max_checkers`` a side anywhere, bars included."""
    board = [0] * 26
    for _ in range(draw(st.integers(0, max_checkers))):
        board[draw(st.integers(1, 25))] += 1
    free = [p for p in range(0, 25) if board[p] == 0]
    for _ in range(draw(st.integers(0, max_checkers))):
        p = draw(st.sampled_from(free))
        board[p] -= 1
    return tuple(board)


@st.composite
def home_boards(draw) -> tuple[int, ...]:
    """Bear-off positions: the player on roll has every checker home."""
    board = [0] * 26
    for _ in range(draw(st.integers(1, 15))):
        board[draw(st.integers(1, 6))] += 1
    free = [p for p in range(0, 25) if board[p] == 0]
    for _ in range(draw(st.integers(1, 15))):
        board[draw(st.sampled_from(free))] -= 1
    return tuple(board)


positions = st.one_of(
    st.sampled_from(_CORPUS),
    random_boards().map(Position),
    home_boards().map(Position),
)
