"""BGCORE_REQUIRE_ORACLE=1 turns a missing or broken gnubg from skips into failures.

The gnubg users are found by reading the test code (tests/, bench/, docs/): every
module, test and fixture that imports gnubg or calls the oracle must go through
``oracle.require()`` (or ``missing()``, which skip) or ``oracle.optional()`` (or
``without()``, which go on without gnubg), all of which fail under the variable.
Each case then runs those users in a pytest subprocess with a stand-in ``gnubg``
package first on PYTHONPATH, so that the real one, installed or not, cannot be
loaded, and reads every test's outcome from a JUnit report.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import oracle

ROOT = Path(__file__).resolve().parent.parent

# oracle's functions that honour BGCORE_REQUIRE_ORACLE: require() and missing() skip
# (or fail), optional() and without() go on without gnubg (or fail).
SKIPPING_GATES = {"require", "missing"}
GOING_ON_GATES = {"optional", "without"}
# What a test module may use of oracle without touching gnubg.
QUERIES = {"REQUIRE_VARIABLE", "required"}
SCANNED = ("tests", "bench", "docs")


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` for a Name/Attribute chain, else ''."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _gate(node: ast.AST) -> str | None:
    """The gate a call is (``oracle.require()``, ``gnubg_native.oracle.optional()``...)."""
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        head, _, last = name.rpartition(".")
        if head.endswith("oracle") and last in SKIPPING_GATES | GOING_ON_GATES:
            return last
    return None


def _touches_gnubg(node: ast.AST) -> bool:
    """Whether the code under ``node`` itself reaches gnubg: imports it (however),
    or uses oracle or bench's gnubg_native beyond the gates. (A module-level
    import covers the functions that use the name it binds.)"""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Import) and any(a.name.split(".")[0] == "gnubg" for a in sub.names):
            return True
        if isinstance(sub, ast.ImportFrom) and (sub.module or "").split(".")[0] == "gnubg":
            return True
        importer = isinstance(sub, ast.Call) and _dotted(sub.func).endswith(
            ("importorskip", "__import__", "import_module")
        )
        if importer and any(isinstance(a, ast.Constant) and str(a.value).split(".")[0] == "gnubg" for a in sub.args):  # type: ignore[attr-defined]
            return True
        if isinstance(sub, ast.Attribute) and not _gate(sub):
            name = _dotted(sub)
            head, _, last = name.rpartition(".")
            if head in ("oracle", "gnubg_native.oracle") and last not in SKIPPING_GATES | GOING_ON_GATES | QUERIES:
                return True
            if head == "gnubg_native" and last != "oracle":
                return True
    return False


def _gates_in(node: ast.AST) -> set[str]:
    return {gate for sub in ast.walk(node) if (gate := _gate(sub))}


def _is_fixture(func: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(d) for d in func.decorator_list)


def _scan(tree: ast.Module, module: str) -> dict[str, str]:
    """The gnubg users of one module (see :func:`gnubg_users`)."""
    top_gates = {gate for stmt in tree.body if isinstance(stmt, (ast.Expr, ast.Assign)) for gate in _gates_in(stmt)}
    funcs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    calls = {
        name: {_dotted(c.func) for c in ast.walk(f) if isinstance(c, ast.Call)} & set(funcs)
        for name, f in funcs.items()
    }
    # A function reaches gnubg itself, or through a module function it calls that has no gate of its own.
    reaching = {name for name, f in funcs.items() if _touches_gnubg(f)}
    grew = True
    while grew:
        more = {name for name in funcs if any(c in reaching and not _gates_in(funcs[c]) for c in calls[name])}
        grew = bool(more - reaching)
        reaching |= more
    at_top = any(_touches_gnubg(stmt) for stmt in tree.body if not isinstance(stmt, ast.FunctionDef))
    if not reaching and not at_top:
        return {}
    if top_gates:
        return {module: "skip" if top_gates & SKIPPING_GATES else "go on"}
    if at_top:  # gnubg imported at module level, and no gate before it
        return {module: "none"}
    fixtures = {name: _gates_in(f) for name, f in funcs.items() if _is_fixture(f)}
    found = {f"{module}::{name} (fixture)": "none" for name in reaching if name in fixtures and not fixtures[name]}
    for name, func in funcs.items():
        if not name.startswith("test_"):
            continue
        gates = _gates_in(func).union(*(fixtures.get(a.arg, set()) for a in func.args.args))
        gates = gates.union(*(_gates_in(funcs[c]) for c in calls[name]))
        if name in reaching or gates:
            found[f"{module}::{name}"] = "skip" if gates & SKIPPING_GATES else "go on" if gates else "none"
    return found


def gnubg_users() -> dict[str, str]:
    """Every test module, test and fixture in tests/, bench/ and docs/ that reaches
    gnubg, as pytest node IDs (a module, or ``module::test``), each with the gate it
    goes through: ``skip`` (require/missing) or ``go on`` (optional/without); a
    user with no gate is ``none``. A gated fixture counts through the tests that take it."""
    found: dict[str, str] = {}
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if (path.name.startswith("test_") or path.name == "conftest.py") and path.name != Path(__file__).name:
                found |= _scan(ast.parse(path.read_text(), str(path)), str(path.relative_to(ROOT)))
    return found


GNUBG_USERS = gnubg_users()
# Each case runs pytest on these: those that skip without gnubg, and (with the
# variable only, which fails them at once) those that go on without it.
SKIPPING = sorted(node for node, kind in GNUBG_USERS.items() if kind == "skip")
GOING_ON = sorted(node for node, kind in GNUBG_USERS.items() if kind == "go on")


def test_every_gnubg_test_and_fixture_goes_through_the_oracle() -> None:
    """No test, fixture or module reaches gnubg without oracle.require() (or its
    kin), so BGCORE_REQUIRE_ORACLE=1 reaches every one of them."""
    ungated = [node for node, kind in GNUBG_USERS.items() if kind == "none"]
    assert not ungated, f"these reach gnubg without oracle.require() (or optional()): {ungated}"
    # The scan finds what is known to be there (so that it cannot quietly find nothing).
    for known in (
        "tests/test_gnubg_oracle.py",
        "tests/test_matchid_gnubg.py",
        "tests/test_met_gnubg.py",
        "tests/test_perft.py::test_perft_matches_gnubg",
        "bench/test_bench_movegen.py::test_perft_depth_2_matches_gnubg",
        "bench/test_bench_movegen.py::test_gnubg_generate_moves",
        "tests/test_game_machine.py",
    ):
        assert known in GNUBG_USERS, (known, GNUBG_USERS)


def test_the_scan_finds_a_gnubg_use_without_the_oracle(tmp_path: Path) -> None:
    """The scan itself: a bare importorskip and an oracle call in an ungated test."""
    tree = ast.parse(
        'gnubg = pytest.importorskip("gnubg")\n'
        "def test_a():\n    oracle.generate_moves(b, 3, 1)\n"
        "def test_b():\n    oracle.require()\n    oracle.generate_moves(b, 3, 1)\n"
    )
    assert _touches_gnubg(tree.body[0]) and not _gates_in(tree.body[0])
    assert _touches_gnubg(tree.body[1]) and not _gates_in(tree.body[1])
    assert _gates_in(tree.body[2]) == {"require"}
    assert not any(line.lstrip().startswith(">>> import gnubg") for line in _markdown_lines())


def _markdown_lines() -> list[str]:
    """The doctest pages' lines (a doctest cannot go through oracle.require())."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [line for page in pages for line in page.read_text().splitlines()]


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
    """pytest's exit code on the gnubg users and each test's (module, outcome, message)."""
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
            *(SKIPPING + GOING_ON if required else SKIPPING),
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
        module = case.get("classname") or case.get("name") or ""
        cases.append((module, "passed" if outcome is None else outcome.tag, message))
    expected = {node.split("::")[0].removesuffix(".py").replace("/", ".") for node in SKIPPING}
    if required:
        expected |= {node.split("::")[0].removesuffix(".py").replace("/", ".") for node in GOING_ON}
    assert {module for module, _, _ in cases} == expected, proc.stdout
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
        assert f"{oracle.REQUIRE_VARIABLE}=1 but gnubg cannot serve as the oracle: " in message
        assert REASONS[stand_in] in message, (module, message)
