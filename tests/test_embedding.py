"""Another Cython extension cimports bgcore's C-level API and calls it without the GIL."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bgcore
from bgcore import Position
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions

pytest.importorskip("Cython")

EXTENSION = '''
# cython: language_level=3
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from bgcore.movegen cimport (bg_board, bg_result, bg_movegen, bg_movegen_new, bg_movegen_free,
                           bg_generate, bg_generate_boards, bg_count, bg_validate, BG_MAX_RESULTS)

def results(bytes board, int die1, int die2):
    """Every result board (26 bytes each) of the roll, through bgcore's C API."""
    cdef bg_board b
    cdef int n
    if len(board) != 26:
        raise ValueError("26 bytes")
    memcpy(b.pt, <const char *>board, 26)
    if bg_validate(&b) < 0:
        raise ValueError("invalid board")
    cdef bg_movegen *g = bg_movegen_new()
    cdef bg_result *out = <bg_result *>malloc(BG_MAX_RESULTS * sizeof(bg_result))
    with nogil:
        n = bg_generate(g, &b, die1, die2, out, BG_MAX_RESULTS)
    boards = [(<char *>out[i].board.pt)[:26] for i in range(max(n, 0))]
    free(out)
    bg_movegen_free(g)
    if n < 0:
        raise ValueError(f"error {n}")
    return boards

def boards_only(bytes board, int die1, int die2):
    """The same through bg_generate_boards, which writes bare boards, and
    their number through bg_count."""
    cdef bg_board b
    cdef int n, counted
    memcpy(b.pt, <const char *>board, 26)
    cdef bg_movegen *g = bg_movegen_new()
    cdef bg_board *out = <bg_board *>malloc(BG_MAX_RESULTS * sizeof(bg_board))
    with nogil:
        n = bg_generate_boards(g, &b, die1, die2, out, BG_MAX_RESULTS)
    boards = [(<char *>out[i].pt)[:26] for i in range(max(n, 0))]
    with nogil:
        counted = bg_count(g, &b, die1, die2, out)
    free(out)
    bg_movegen_free(g)
    return boards, counted
'''

SETUP = """
from setuptools import Extension, setup
from Cython.Build import cythonize
setup(name={name!r}, ext_modules=cythonize(
    [Extension({name!r}, [{name!r} + ".pyx"])], include_path=[{include!r}], language_level=3))
"""

CYTHON_GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guides" / "cython.md"


def build(folder: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    """Build the Cython module ``name`` from ``source`` in ``folder`` against
    the installed bgcore's .pxd files."""
    (folder / f"{name}.pyx").write_text(source)
    (folder / "setup.py").write_text(SETUP.format(name=name, include=bgcore.get_include()))
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder, capture_output=True, text=True
    )


def load(folder: Path, name: str):
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


@pytest.fixture(scope="module")
def embed(tmp_path_factory: pytest.TempPathFactory):
    folder: Path = tmp_path_factory.mktemp("embed")
    proc = build(folder, "bg_embed", textwrap.dedent(EXTENSION))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return load(folder, "bg_embed")


@pytest.fixture(scope="module")
def guide_module(tmp_path_factory: pytest.TempPathFactory):
    """The Cython guide's C-level API example, built as it stands: it uses only the
    documented names."""
    text = CYTHON_GUIDE.read_text(encoding="utf-8")
    source = text.split("```cython\n", 1)[1].split("```", 1)[0]
    folder: Path = tmp_path_factory.mktemp("guide")
    proc = build(folder, "bg_guide", source)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return load(folder, "bg_guide")


def test_get_include_holds_the_pxd() -> None:
    assert (Path(bgcore.get_include()) / "bgcore" / "movegen.pxd").is_file()


def test_cimported_generator_matches_the_python_api(embed) -> None:
    for pos in selfplay_positions(40, seed=17):
        for dice in ROLLS:
            got = sorted(embed.results(pos._bytes, *dice))
            boards, counted = embed.boards_only(pos._bytes, *dice)
            assert sorted(boards) == got and counted == len(got)
            moves = pos.legal_moves(dice)
            expected = sorted(pos.play(m).flip()._bytes for m in moves)
            assert got == expected
    with pytest.raises(ValueError):
        embed.results(bytes([0] * 25 + [16]), 3, 1)
    with pytest.raises(ValueError, match="error"):
        embed.results(Position.initial()._bytes, 9, 1)


def test_the_guide_example_builds_and_agrees(guide_module) -> None:
    for pos in selfplay_positions(20, seed=5):
        for dice in ROLLS:
            moves = pos.legal_moves(dice)
            n, steps = guide_module.first_result(pos._bytes, *dice)
            assert n == len(moves)
            assert sorted(steps, reverse=True) == list(moves[0].steps)  # the same first result
    with pytest.raises(ValueError, match="invalid board"):
        guide_module.first_result(bytes([0] * 25 + [16]), 3, 1)
    with pytest.raises(ValueError, match="bad dice"):
        guide_module.first_result(Position.initial()._bytes, 7, 1)


def test_the_generator_state_is_opaque(tmp_path: Path) -> None:
    """An extension cannot reach into bg_movegen: its layout may change
    without breaking anyone."""
    source = textwrap.dedent("""
        # cython: language_level=3
        from bgcore.movegen cimport bg_movegen, bg_movegen_new
        def peek():
            cdef bg_movegen *g = bg_movegen_new()
            return g.epoch
        """)
    proc = build(tmp_path, "bg_peek", source)
    assert proc.returncode != 0
    assert "incomplete" in proc.stdout + proc.stderr, proc.stdout[-2000:] + proc.stderr[-2000:]
