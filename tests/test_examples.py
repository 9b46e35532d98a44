"""The examples in examples/ run and print a rollout."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import oracle
from bgcore import Position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_numpy_network_policy(capsys: pytest.CaptureFixture[str]) -> None:
    example = load("numpy_network_policy")
    example.main(games=200)
    assert "rollout of 200 games" in capsys.readouterr().out
    children = np.stack([Position.initial().to_array()] * 3)
    assert example.Network()(children, np.array([0, 3])).shape == (3,)


def test_gnubg_evaluator(capsys: pytest.CaptureFixture[str]) -> None:
    oracle.require()
    import gnubg

    example = load("gnubg_evaluator")
    start = Position.from_position_id("4HPwATDgc/ABMA")
    got = example.gnubg_evaluator(np.stack([start.to_array(), start.flip().to_array()]))
    assert got[0] == pytest.approx(gnubg.evaluate(gnubg.positionfromid("4HPwATDgc/ABMA"))[:5])
    assert got.shape == (2, 5) and ((got >= 0) & (got <= 1)).all()
    example.main(games=60)
    assert "rollout of 60 games" in capsys.readouterr().out
