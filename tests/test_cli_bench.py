"""``bgcore bench`` and ``bgcore demo``: the same units, spelled out, and the caveat on thread rows."""

from __future__ import annotations

import re

import pytest

from bgcore import Position
from bgcore.cli import main
from bgcore.cli.bench import Done, Workload, rates, slower_rows
from bgcore.rules import ROLLS


def test_demo_quotes_move_generations_and_positions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seconds", "0"]) == 0  # timed at least once, whatever the seconds
    out = capsys.readouterr().out
    m = re.search(r"^([\d,]+) move generations/s \(([\d,]+) positions/s\) through Position\.legal_moves", out, re.M)
    assert m, out
    generations, positions = (int(g.replace(",", "")) for g in m.groups())
    # the opening's 21 rolls lead to this many positions: the ratio of the two rates
    per_generation = sum(len(Position.initial().legal_moves(r)) for r in ROLLS) / len(ROLLS)
    assert positions / generations == pytest.approx(per_generation, rel=1e-3)
    assert "A move generation: one position and roll, all its legal moves" in out


def test_bench_gives_the_same_units(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.05", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "┃ workload             ┃ threads ┃ move generations/s ┃ positions/s ┃ games/s ┃" in out
    assert "A move generation: one position and roll, all its legal moves" in out
    assert "Rows on" not in out and "Note:" not in out  # one thread: no thread rows to read


def test_rates_and_done() -> None:
    assert Done(2, 30) + Done(1, 10, 0) + Done(games=4) == Done(3, 40, 4)
    assert rates(Done(3, 40), 2.0) == ("2", "20", "-")
    assert rates(Done(games=1000), 0.5) == ("-", "-", "2,000")


def workload(name: str, threads: int) -> Workload:
    return Workload(name, threads, lambda: Done())


def test_a_thread_row_slower_than_its_one_thread_row_is_pointed_out() -> None:
    measured = [
        (workload("batch.generate", 1), Done(100, 2000), 1.0),
        (workload("batch.generate", 2), Done(100, 1000), 1.0),  # half the speed on 2 threads
        (workload("batch.count", 1), Done(100, 2000), 1.0),
        (workload("batch.count", 2), Done(100, 3000), 1.0),  # faster: nothing to say
        (workload("rollout, pubeval", 1), Done(games=1000), 0.1),
        (workload("rollout, pubeval", 2), Done(games=1000), 0.2),
    ]
    assert slower_rows(measured) == [
        "batch.generate on 2 threads ran slower than on 1 (1,000 vs 2,000 positions/s)",
        "rollout, pubeval on 2 threads ran slower than on 1 (5,000 vs 10,000 games/s)",
    ]


def test_bench_says_how_to_read_thread_rows_and_when_they_were_slower(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bgcore.cli.bench as bench

    monkeypatch.setattr(bench, "slower_rows", lambda measured: ["batch.count on 2 threads ran slower than on 1 (x)"])
    assert main(["bench", "--seconds", "0.05", "--threads", "2"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the console wraps at its width
    assert "Rows on 2 threads share the same work: with 2 idle cores up to 2 times the 1-thread speed" in out
    assert "Note: batch.count on 2 threads ran slower than on 1 (x)" in out
    assert "rerun on an idle machine" in out
