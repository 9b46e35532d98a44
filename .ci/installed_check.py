"""pytest plugin for .ci/wheel.sh: fail the run unless the tests used the installed bgcore.

Loaded with `-p installed_check` (PYTHONPATH=.ci). At the end of the session it prints
the file of the `bgcore` module the tests actually imported, and turns the run into a
failure if that file is not under BGCORE_EXPECT_PREFIX (the fresh venv's site-packages),
e.g. because src/ was on sys.path and shadowed the wheel.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path

import pytest


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    terminal.ensure_newline()
    expected = Path(os.environ["BGCORE_EXPECT_PREFIX"]).resolve()
    # Every bgcore module the tests loaded, the package and its compiled extensions
    # (however many the extension is split into) included.
    loaded = {
        name: module
        for name, module in sys.modules.items()
        if (name == "bgcore" or name.startswith("bgcore.")) and getattr(module, "__file__", None)
    }
    compiled = [
        name
        for name, module in loaded.items()
        if module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    ]
    outside = [name for name, module in loaded.items() if not Path(module.__file__).resolve().is_relative_to(expected)]
    for name in ["bgcore", *sorted(compiled)]:
        if name in loaded:
            terminal.write_line(f"installed_check: {name}.__file__ = {loaded[name].__file__}")
    problems = []
    if "bgcore" not in loaded:
        problems.append("the tests never imported bgcore")
    if not compiled:
        problems.append("no compiled bgcore extension module was loaded")
    problems += [f"{name} comes from {loaded[name].__file__}" for name in sorted(outside)]
    if problems:
        for problem in problems:
            terminal.write_line(f"installed_check: FAIL: {problem}, not from {expected}", red=True, bold=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        terminal.write_line(f"installed_check: OK: {len(loaded)} bgcore modules, all from {expected}", green=True)
