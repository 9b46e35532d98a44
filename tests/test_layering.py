"""The package's layers: a lower module never imports a higher one.

Imports are read from the source as a reader (or farm-studio) reads them:
every ``import`` statement counts, at module level, inside a function (a
lazy import) or under ``TYPE_CHECKING``, since each ties the modules
together all the same.  The run-time tests import a module in a fresh
interpreter whose ``bgcore`` package is a bare one (its ``__init__``, which
imports everything, is not run) and look at what else got imported.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(importlib.util.find_spec("bgcore").origin or "").parent  # type: ignore[union-attr]


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, modules: set[str]) -> Iterator[str]:
    """The package's modules that ``path`` imports, anywhere in the file.  ``from
    . import x`` names module x (the package only when x is not a module)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = node.module or ""
            if node.level:
                target = f"{base}.{target}" if target else base
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    yield f"{target}.{alias.name}"
                elif target in modules:
                    yield target


#: A Python-level import in a Cython source (``cimport`` lines do not match).
PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s|import\s+([\w.]+))", re.MULTILINE)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, extension modules included
    (a .pyx's Python-level imports; its cimports are C-level and one way)."""
    paths = sorted(PACKAGE.rglob("*.py"))
    sources = sorted(PACKAGE.glob("*.pyx"))
    modules = {_module_name(p) for p in paths + sources}
    graph = {_module_name(p): set(_imported(p, modules)) - {_module_name(p)} for p in paths}
    for pyx in sources:
        found = (a or b for a, b in PYX_IMPORT.findall(pyx.read_text(encoding="utf-8")))
        graph[_module_name(pyx)] = {name for name in found if name in modules}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(part)

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_graph_reads_every_kind_of_import() -> None:
    graph = import_graph()
    assert "bgcore.position" in graph["bgcore.acey"]  # from .position import ...
    assert "bgcore.svg" in graph["bgcore.position"]  # a lazy import in _repr_svg_
    assert "bgcore.match" in graph["bgcore.matfile"]  # under TYPE_CHECKING and lazily
    assert "bgcore.acey" in graph["bgcore"]  # from . import acey
    assert "bgcore._batch" in graph["bgcore.batch"] and "bgcore" not in graph["bgcore.batch"]  # an extension module
    assert graph["bgcore._results"] == {"bgcore.errors"}  # a .pyx's Python-level import


def test_no_import_cycles() -> None:
    """No module imports, even lazily, one that imports it back (directly or
    through others): Position does not know its subclasses, nor the board
    pictures the modules that draw them."""
    assert cycles(import_graph()) == []


def test_cycles_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]


def _bare_import(module: str) -> set[str]:
    """The bgcore modules loaded by importing ``module`` in a fresh interpreter
    where ``bgcore`` is a bare package (its ``__init__`` not run)."""
    code = f"""
import importlib.util, sys, types
spec = importlib.util.find_spec("bgcore")
package = types.ModuleType("bgcore")
package.__path__ = list(spec.submodule_search_locations)
sys.modules["bgcore"] = package
import {module}
print(" ".join(sorted(m for m in sys.modules if m.startswith("bgcore."))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize(
    ("module", "absent"),
    [
        ("bgcore.position", {"bgcore.acey", "bgcore.svg", "bgcore.game"}),
        ("bgcore.svg", {"bgcore.position", "bgcore.game"}),
        ("bgcore.rules", {"bgcore.position", "bgcore.acey"}),
    ],
)
def test_a_lower_module_loads_no_higher_one(module: str, absent: set[str]) -> None:
    loaded = _bare_import(module)
    assert module in loaded
    assert loaded & absent == set()


def test_bare_import_sees_what_a_module_imports() -> None:
    assert {"bgcore.acey", "bgcore.position"} <= _bare_import("bgcore.acey")


def test_import_bgcore_registers_acey_deucey() -> None:
    code = "import bgcore; print(type(bgcore.Position.initial('acey-deucey')).__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["AceyDeuceyPosition"]


def test_match_reads_and_writes_mat_files_through_the_codec_matfile_registers() -> None:
    # match.py does not import matfile (which builds on it); the package does,
    # and matfile hands Match its reader and writer.
    code = "from bgcore.match import Match; import sys; assert Match.from_mat(Match(3, dice=1).to_mat()).length == 3"
    subprocess.run([sys.executable, "-c", code], check=True)
