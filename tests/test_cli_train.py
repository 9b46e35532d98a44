"""``bgcore train``: a short run, its checkpoints, resuming, and the
networks it writes read back by ``play --opponent`` and ``rollout --policy``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bgcore.cli import build_parser, main
from bgcore.nn import Network
from bgcore.train import train


def test_train_writes_the_network_its_best_and_its_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "net.npz"
    args = ["train", "--hidden", "8", "--games", "600", "--round", "200", "--out", str(out), "--seed", "3"]
    args += ["--eval-every", "300", "--eval-games", "50", "--lr", "0.1,400:0.05", "--lambda", "0.3", "--no-progress"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "600 games" in text and "vs pubeval" in text
    net = Network.load(out)
    expected = train(600, hidden=8, round_games=200, seed=3, lr=[(0, 0.1), (400, 0.05)], lam=0.3)
    for w, x in zip(net.weights, expected.network.weights, strict=True):
        np.testing.assert_array_equal(w, x)
    assert Network.load(tmp_path / "net-best.npz").sizes == (198, 8, 5)
    assert json.loads((tmp_path / "net.json").read_text())["games"] == 600
    args[args.index("600")] = "800"
    assert main([*args, "--resume"]) == 0
    assert json.loads((tmp_path / "net.json").read_text())["games"] == 800
    capsys.readouterr()
    assert main(["rollout", "--policy", str(out), "--games", "50", "4HPwATDgc/ABMA"]) == 0
    assert "net.npz for both sides" in capsys.readouterr().out


def test_play_takes_an_opponent() -> None:
    args = build_parser().parse_args(["play", "--opponent", "pubeval"])
    assert args.policy == "pubeval"


def test_train_overlap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.npz"
    args = ["train", "--hidden", "6", "--games", "400", "--round", "100", "--overlap", "--threads", "2"]
    assert main([*args, "--out", str(out), "--eval-every", "0", "--no-progress"]) == 0
    expected = train(400, hidden=6, round_games=100, overlap=True)
    np.testing.assert_array_equal(Network.load(out).weights[0], expected.network.weights[0])


@pytest.mark.parametrize("bad", [["--lr", "0.1,x"], ["--lr", "5:0.1"], ["--threads", "0"], ["--games", "-3"]])
def test_train_refuses_a_malformed_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: list[str]
) -> None:
    assert main(["train", "--out", str(tmp_path / "n.npz"), *bad]) == 2
    assert "error" in capsys.readouterr().err
