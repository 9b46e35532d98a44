"""Shared fixtures: the test vectors in ../shared/vectors and hypothesis profiles."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT.parent / "shared" / "vectors"

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def vectors_dir() -> Path:
    """The shared test vectors; the tests that need them skip when the folder is absent."""
    if not VECTORS.is_dir():
        pytest.skip(f"test vectors not found at {VECTORS} (the shared/ folder beside the checkout)")
    return VECTORS


@pytest.fixture(scope="session")
def movegen_cases(vectors_dir: Path) -> list[dict]:
    path = vectors_dir / "movegen-public.jsonl"
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]
