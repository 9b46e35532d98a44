"""BGCORE_REQUIRE_ORACLE=1 turns a missing or broken gnubg from skips into failures.

Each case runs the gnubg cross-checks in a pytest subprocess with a stand-in
``gnubg`` package first on PYTHONPATH, so that the real one, installed or
not, cannot be loaded, and reads every test's outcome from a JUnit report.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import oracle

ROOT = Path(__file__).resolve().parent.parent

# Every place that asks for the oracle: a module-level require(), one in a test
# and one in a bench fixture.
TARGETS = [
    "tests/test_gnubg_oracle.py",
    "tests/test_perft.py::test_perft_matches_gnubg",
    "bench/test_bench_movegen.py::test_perft_depth_2_matches_gnubg",
]

STAND_INS = {
    # not installed (or a shared library it needs is missing): the import fails
    "missing": {"__init__.py": "raise ImportError('gnubg hidden by test_require_oracle')\n"},
    # imports, but its extension module is no shared library ctypes can load
    "broken": {"__init__.py": "", "_gnubg.py": ""},
}
REASONS = {"missing": "ImportError: gnubg hidden by test_require_oracle", "broken": "OSError: "}
# Each case starts pytest (2-3 s): one stand-in keeps the switch in the quick run.
STAND_IN_CASES = ["missing", pytest.param("broken", marks=pytest.mark.slow)]


def run_without_gnubg(stand_in: str, required: bool, tmp_path: Path) -> tuple[int, list[tuple[str, str, str]]]:
    """pytest's exit code on TARGETS and each test's (module, outcome, message)."""
    package = tmp_path / "path" / "gnubg"
    package.mkdir(parents=True)
    for name, text in STAND_INS[stand_in].items():
        (package / name).write_text(text)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package.parent), env.get("PYTHONPATH")]))
    env.pop(oracle.REQUIRE_VARIABLE, None)  # the outer run may set it (CI does)
    if required:
        env[oracle.REQUIRE_VARIABLE] = "1"
    report = tmp_path / "report.xml"
    # --continue-on-collection-errors: the module-level failure would otherwise
    # stop the run before the test and the fixture were tried.  No cache, so the
    # expected failures do not become the outer checkout's --last-failed.
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--continue-on-collection-errors",
            f"--junitxml={report}",
            *TARGETS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    cases = []
    for case in ET.parse(report).getroot().iter("testcase"):
        outcome = next(iter(case), None)
        message = "" if outcome is None else f"{outcome.get('message')} {outcome.text}"
        # a collection report has no class: its module is the name
        module = case.get("classname") or case.get("name")
        cases.append((module, "passed" if outcome is None else outcome.tag, message))
    assert {module for module, _, _ in cases} == {
        "tests.test_gnubg_oracle",
        "tests.test_perft",
        "bench.test_bench_movegen",
    }, proc.stdout
    return proc.returncode, cases


@pytest.mark.parametrize("stand_in", STAND_IN_CASES)
def test_without_the_variable_the_cross_checks_skip(stand_in: str, tmp_path: Path) -> None:
    code, cases = run_without_gnubg(stand_in, False, tmp_path)
    assert code == pytest.ExitCode.OK
    for module, outcome, message in cases:
        assert outcome == "skipped" and REASONS[stand_in] in message, (module, outcome, message)


@pytest.mark.parametrize("stand_in", STAND_IN_CASES)
def test_with_the_variable_the_cross_checks_fail(stand_in: str, tmp_path: Path) -> None:
    code, cases = run_without_gnubg(stand_in, True, tmp_path)
    assert code == pytest.ExitCode.TESTS_FAILED
    for module, outcome, message in cases:
        assert outcome in ("failure", "error"), (module, outcome, message)
        assert f"{oracle.REQUIRE_VARIABLE}=1 but gnubg cannot serve as the oracle: {REASONS[stand_in]}" in message
