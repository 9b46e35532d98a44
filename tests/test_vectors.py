"""Every public move-generation vector and wildbg's published totals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bgcore import Position, batch
from bgcore.rules import ROLLS


def result_ids(position: Position, dice: tuple[int, int]) -> list[str]:
    """Sorted Position IDs of every result, the mover still on roll (not flipped)."""
    moves = position.legal_moves(dice)
    return sorted(position.play(m).flip().position_id() for m in moves)


def test_movegen_public_vectors(movegen_cases: list[dict]) -> None:
    assert len(movegen_cases) >= 2000
    failures = []
    for case in movegen_cases:
        pos = Position.from_position_id(case["position_id"])
        got = result_ids(pos, tuple(case["dice"]))
        if len(got) != case["n"] or got != case["results"]:
            failures.append((case["position_id"], case["dice"], case["n"], len(got)))
    assert not failures, f"{len(failures)} vectors differ, e.g. {failures[:5]}"


def test_batch_api_gives_every_vectors_count(movegen_cases: list[dict]) -> None:
    """batch.count (which writes only the results a lookup may need) and
    batch.generate find each vector's number of results."""
    boards = np.stack([Position.from_position_id(c["position_id"]).to_array() for c in movegen_cases])
    dice = np.array([c["dice"] for c in movegen_cases])
    expected = np.array([c["n"] for c in movegen_cases])
    for threads in (1, 2):
        assert (batch.count(boards, dice, threads=threads) == expected).all()
        assert (np.diff(batch.generate(boards, dice, threads=threads)[1]) == expected).all()


def test_lost_turn_vectors_give_the_unchanged_position(movegen_cases: list[dict]) -> None:
    lost = [c for c in movegen_cases if c["n"] == 1 and c["results"] == [c["position_id"]]]
    assert lost, "the vectors include lost turns"
    for case in lost:
        moves = Position.from_position_id(case["position_id"]).legal_moves(tuple(case["dice"]))
        assert len(moves) == 1 and not moves[0] and str(moves[0]) == ""


# wildbg's published totals (see tests/data/wildbg/README.md)
WILDBG_TOTALS = {
    ("contact.csv", "mixed"): 185_957,
    ("contact.csv", "doubles"): 218_356,
    ("race.csv", "mixed"): 122_570,
    ("race.csv", "doubles"): 140_720,
}


@pytest.mark.parametrize("name,kind", sorted(WILDBG_TOTALS))
def test_wildbg_totals(vectors_dir: Path, name: str, kind: str) -> None:
    ids = (vectors_dir / "wildbg" / name).read_text().split()
    assert len(ids) == 1000
    rolls = [r for r in ROLLS if (r[0] == r[1]) == (kind == "doubles")]
    positions = [Position.from_position_id(pid) for pid in ids]
    total = sum(len(p.legal_moves(r)) for p in positions for r in rolls)
    assert total == WILDBG_TOTALS[name, kind]
    boards = np.stack([p.to_array() for p in positions for _ in rolls])
    dice = np.array([r for _ in positions for r in rolls])
    assert batch.count(boards, dice).sum() == WILDBG_TOTALS[name, kind]
