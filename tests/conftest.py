"""Shared fixtures: the test vectors in tests/data and hypothesis profiles."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The vectors ship with the repository so that every clone runs them: a
# missing file is a broken checkout, which must fail rather than skip.
DATA = Path(__file__).resolve().parent / "data"

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """tests/data: the public move-generation vectors and wildbg's positions."""
    return DATA


@pytest.fixture(scope="session")
def movegen_cases(vectors_dir: Path) -> list[dict]:
    path = vectors_dir / "movegen-public.jsonl"
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]
