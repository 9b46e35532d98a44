"""Importing a benchmark module leaves the environment alone.

The suite imports every module of bench/ (doctests, the bench tests); a module
that set OPENBLAS_NUM_THREADS or the like at import would set it for every later
test and every subprocess they start. The benchmarks set theirs when run
(blas.py). Each module is imported in a fresh interpreter, where its import-time
code runs for certain, with the variables blas.py sets removed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import blas

BENCH = Path(__file__).resolve().parent
MODULES = sorted(p.stem for p in BENCH.glob("*.py") if not p.stem.startswith("test_") and p.stem != "conftest")

CHILD = """
import importlib, json, os, sys
sys.path[:0] = sys.argv[2:4]
# Third-party packages first: their own import-time settings (gymnasium's pygame
# sets PYGAME_HIDE_SUPPORT_PROMPT) are not the benchmarks'.
for name in ("numpy", "bgcore", "gymnasium", "bgcore.envs", "gnubg"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
changed = {}
for name in json.loads(sys.argv[1]):
    before = dict(os.environ)
    try:
        importlib.import_module(name)
    except ImportError as exc:  # an optional dependency (gnubg, gymnasium) missing here
        changed[name] = f"not imported: {exc}"
        continue
    after = dict(os.environ)
    diff = {k: (before.get(k), after.get(k)) for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    if diff:
        changed[name] = diff
print(json.dumps(changed))
"""


def test_importing_a_benchmark_changes_no_environment_variable() -> None:
    env = {k: v for k, v in os.environ.items() if k not in blas.VARIABLES}
    paths = [str(BENCH), str(BENCH.parent / "tests")]
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(MODULES), *paths],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    changed = json.loads(done.stdout.strip().splitlines()[-1])
    assert {k: v for k, v in changed.items() if not str(v).startswith("not imported")} == {}
    assert len(MODULES) > 10 and "compare" in MODULES and "rollout" in MODULES


def test_a_run_asks_for_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in blas.VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")  # an explicit setting wins
    blas.one_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1" and os.environ["OMP_NUM_THREADS"] == "3"
