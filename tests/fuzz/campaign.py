"""Run every harness of this folder under atheris for a while and fail on any finding.

Not collected by the ordinary suite (its name is not ``test_*.py``); name it::

    BGCORE_FUZZ_SECONDS=600 python -m pytest tests/fuzz/campaign.py

``.ci/fuzz.sh`` runs it through ``.ci/sanitize.sh``, so the harnesses (child
processes, which inherit its ``LD_PRELOAD`` and sanitizer options) fuzz an
ASan+UBSan build of bgcore. The settings, from the environment:

- ``BGCORE_FUZZ_SECONDS``: seconds of fuzzing per harness (default 10);
- ``BGCORE_FUZZ_JOBS``: harnesses run at once (default 2);
- ``BGCORE_FUZZ_TARGETS``: a comma-separated subset of the targets (default all);
- ``BGCORE_FUZZ_WORK``: where the grown corpora and the findings go (default
  ``build/ci/fuzz``): ``corpus/<target>/`` (kept between runs, the committed
  seeds are read from ``tests/fuzz/corpus/<target>/`` and never written) and
  ``findings/<target>/`` (libFuzzer's crash-, timeout- and oom- files).

Each input has a time bound (``-timeout``, 10 s), the process a memory bound
(``-rss_limit_mb``, 3 GiB: ASan's shadow memory counts too) and any single
allocation one (``-malloc_limit_mb``, 1 GiB, enforced where a sanitizer runtime
is loaded). A finding fails the test with libFuzzer's report and the input,
which ``python tests/fuzz/fuzz_<target>.py FILE`` replays.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import fuzzlib
import pytest

ROOT = fuzzlib.HERE.parent.parent
LIBFUZZER_FLAGS = ("-timeout=10", "-rss_limit_mb=3072", "-malloc_limit_mb=1024", "-print_final_stats=1")


class Run(NamedTuple):
    target: str
    returncode: int
    log: str
    findings: list[Path]


def settings() -> tuple[int, int, list[str], Path]:
    """Seconds per harness, parallel jobs, targets and the work folder."""
    seconds = int(os.environ.get("BGCORE_FUZZ_SECONDS", "10"))
    jobs = int(os.environ.get("BGCORE_FUZZ_JOBS", "2"))
    names = fuzzlib.harness_names()
    chosen = [t for t in os.environ.get("BGCORE_FUZZ_TARGETS", "").split(",") if t]
    unknown = set(chosen) - set(names)
    if unknown:
        raise ValueError(f"no harness for {sorted(unknown)}; the targets are {names}")
    work = Path(os.environ.get("BGCORE_FUZZ_WORK") or ROOT / "build" / "ci" / "fuzz")
    return seconds, jobs, chosen or names, work


def fuzz(target: str, seconds: int, work: Path) -> Run:
    """One harness for ``seconds``; its grown corpus and findings go under ``work``."""
    corpus = work / "corpus" / target
    findings = work / "findings" / target
    corpus.mkdir(parents=True, exist_ok=True)
    findings.mkdir(parents=True, exist_ok=True)
    before = set(findings.iterdir())
    command = [
        sys.executable,
        str(fuzzlib.HERE / f"fuzz_{target}.py"),
        f"-max_total_time={seconds}",
        *LIBFUZZER_FLAGS,
        f"-artifact_prefix={findings}/",
        str(corpus),  # the first folder gets the new inputs
        str(fuzzlib.CORPUS / target),
    ]
    # A hung input is libFuzzer's to report (-timeout); this bound is for a hung libFuzzer.
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, errors="replace", timeout=seconds + 120, check=False
    )
    new = sorted(set(findings.iterdir()) - before)
    return Run(target, done.returncode, done.stdout + done.stderr, new)


def report(run: Run) -> str:
    """What a failed run found, for the test's failure message."""
    lines = [f"== fuzz_{run.target}.py: exit code {run.returncode}, {len(run.findings)} finding(s)"]
    lines += run.log.splitlines()[-60:]
    for path in run.findings:
        data = path.read_bytes()
        lines.append(f"-- {path} ({len(data)} bytes): {data[:400]!r}")
        lines.append(f"   replay: python tests/fuzz/fuzz_{run.target}.py {path}")
    return "\n".join(lines)


def test_campaign() -> None:
    """Every harness fuzzes for its time without a finding."""
    try:
        import atheris  # noqa: F401
    except ImportError as exc:  # asked for by name: a missing fuzzer is a failure, not a skip
        pytest.fail(f"atheris is not installed (pip install -e '.[fuzz]'): {exc}")
    seconds, jobs, targets, work = settings()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(lambda t: fuzz(t, seconds, work), targets))
    for run in runs:
        stats = [line for line in run.log.splitlines() if line.startswith(("stat::number_of_executed_units", "#"))]
        print(f"fuzz_{run.target}.py: exit {run.returncode}; {stats[-1] if stats else 'no stats'}")
    failed = [run for run in runs if run.returncode != 0 or run.findings]
    assert not failed, "\n\n".join(report(run) for run in failed)
