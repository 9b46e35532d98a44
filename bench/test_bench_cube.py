"""A smoke run of bench/cube.py: every part runs and prints its row, on a few games."""

from __future__ import annotations

import re

import pytest

import cube


@pytest.mark.parametrize("evaluator", ["wildbg", "td"])
def test_a_small_run_prints_every_row(capsys: pytest.CaptureFixture[str], evaluator: str) -> None:
    argv = ["--games", "200", "--matches", "20", "--rollout-games", "72", "--rounds", "1", "--threads", "1"]
    assert cube.main([*argv, "--evaluator", evaluator]) == 0
    out = capsys.readouterr().out
    money = re.search(r"^\| money play, points per game \| 200 \| ([+-]\d\.\d{3}) ± (\d\.\d{3}) \|", out, re.M)
    assert money is not None
    assert re.search(r"^\| 7-point matches won, % \| 20 matches, [\d,]+ games \| \d+\.\d ± \d+\.\d \|", out, re.M)
    rates = re.findall(r"^\| (.+?), money, cube centred \| 72 \| [\d,]+ \| [\d,]+ \| (\d+\.\d\d)x \|", out, re.M)
    assert [name for name, _ in rates] == ["LR7hAQOMrw+CAA", "initial position"]
    assert len(re.findall(r": (met|NOT met)$", out, re.M)) == 3
    if evaluator == "wildbg":  # a cube wins points against no cube, even over 100 pairs of games
        assert float(money[1]) > 2 * float(money[2])


def test_bad_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cube.main(["--games", "0"])
    assert "the counts must be at least 1" in capsys.readouterr().err
