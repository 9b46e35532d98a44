"""Perft against GNU Backgammon's generator, and its edge cases."""

from __future__ import annotations

import pytest

import oracle
from bgcore import Position, perft
from bgcore.rules import ROLLS

POSITIONS = {
    "standard": Position.initial(),
    "nackgammon": Position.initial("nackgammon"),
    "hypergammon": Position.initial("hypergammon"),
    "bear-off": Position.from_position_id("2+4OAAAA7PYAAA"),
    "bar": Position.from_position_id("sHPwATDgc/ABMA").flip(),
}


def python_perft(pos: Position, depth: int, children, count=None) -> tuple[int, int]:
    """(unweighted, weighted) perft through ``children(position, dice) -> positions``;
    ``count(position, dice)``, when given, says how many there are at the last ply
    without building them (most of the tree's nodes are leaves)."""
    if depth == 0 or pos.is_game_over():
        return 1, 1
    plain = weighted = 0
    for dice in ROLLS:
        w = 1 if dice[0] == dice[1] else 2
        if depth == 1:
            n = len(children(pos, dice)) if count is None else count(pos, dice)
            sub = (n, n)
        else:
            kids = children(pos, dice)
            parts = [python_perft(k, depth - 1, children, count) for k in kids]
            sub = (sum(p for p, _ in parts), sum(q for _, q in parts))
        plain += sub[0]
        weighted += w * sub[1]
    return plain, weighted


def gnubg_children(pos: Position, dice: tuple[int, int]) -> list[Position]:
    moves = oracle.generate_moves(pos.board, *dice)
    if not moves:
        return [pos.flip()]
    return [Position.from_position_id(m.position_id, checkers=pos.checkers).flip() for m in moves]


def gnubg_count(pos: Position, dice: tuple[int, int]) -> int:
    """``len(gnubg_children(pos, dice))``: a lost turn is one result, the position itself."""
    return oracle.count_moves(pos.board, *dice) or 1


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_matches_gnubg(name: str) -> None:
    oracle.require()
    pos = POSITIONS[name]
    for depth in (1, 2):
        expected = python_perft(pos, depth, gnubg_children, gnubg_count)
        assert (perft(pos, depth), perft(pos, depth, weighted=True)) == expected


def test_perft_matches_the_python_api() -> None:
    api = lambda p, d: p.legal_moves(d).positions()  # noqa: E731
    for pos in (Position.initial(), POSITIONS["bar"]):
        assert (perft(pos, 2), perft(pos, 2, weighted=True)) == python_perft(pos, 2, api)


def test_perft_edge_cases() -> None:
    start = Position.initial()
    assert perft(start, 0) == 1
    finished = Position([0] * 10 + [-15] + [0] * 15)
    assert perft(finished, 3) == 1
    # bearing off the last checker ends the game: those results are leaves
    last = Position([0, 0, 1] + [0] * 21 + [-15, 0])
    assert perft(last, 2) == python_perft(last, 2, lambda p, d: p.legal_moves(d).positions())[0]
    with pytest.raises(ValueError):
        perft(start, -1)
    with pytest.raises(TypeError):
        perft(start, 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        perft(start.position_id(), 1)  # type: ignore[arg-type]


def test_threads_and_both_counts_agree() -> None:
    from bgcore.gametree import perft_counts

    for pos in (POSITIONS["hypergammon"], POSITIONS["bar"]):
        one = perft_counts(pos, 2)
        assert perft_counts(pos, 2, threads=2) == one == (perft(pos, 2), perft(pos, 2, weighted=True))
    assert perft_counts(POSITIONS["hypergammon"], 3, threads=3) == perft_counts(POSITIONS["hypergammon"], 3)
    with pytest.raises(ValueError, match="threads"):
        perft(POSITIONS["standard"], 2, threads=0)


def test_perft_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from bgcore.__main__ import main

    assert main(["perft", "--depth", "2", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "| 1 | 447 | 637 |" in out and "| 2 | 202,782 | 419,783 |" in out


def test_the_perft_name_is_the_function() -> None:
    import importlib

    import bgcore

    assert callable(bgcore.perft) and bgcore.perft.__module__ == "bgcore.gametree"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bgcore.perft")
