"""The fuzz harnesses of tests/fuzz/ (atheris), run over their seed corpora without
atheris, so that a harness broken by a change fails the ordinary suite.

A seed that a harness fails is a finding like any other (see
tests/test_fuzz_regressions.py); a harness without seeds, without its
``test_one_input`` or not runnable as a script is a broken harness.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from bgcore import Game, IllegalMoveError, InvalidPositionError, Move, Position
from bgcore.ids import MatchId

FUZZ = Path(__file__).resolve().parent / "fuzz"
if str(FUZZ) not in sys.path:
    sys.path.insert(0, str(FUZZ))

import fuzzlib  # noqa: E402

TARGETS = fuzzlib.harness_names()


def harness(target: str) -> ModuleType:
    return importlib.import_module(f"fuzz_{target}")


def test_the_harnesses_cover_every_outside_input() -> None:
    """One harness per parser and entry point that takes outside data."""
    assert sorted(["batch", "cli", "gnubg_id", "mat", "match_id", "move", "position", "position_id", "xgid"]) == TARGETS


@pytest.mark.parametrize("target", TARGETS)
def test_harness_passes_its_seed_corpus(target: str) -> None:
    seeds = fuzzlib.corpus_files(target)
    assert len(seeds) >= 5, f"tests/fuzz/corpus/{target}/ needs seeds (python tests/fuzz/seeds.py)"
    run = harness(target).test_one_input
    for path in seeds:
        run(path.read_bytes())


@pytest.mark.parametrize("target", TARGETS)
def test_harness_runs_under_atheris_as_a_script(target: str) -> None:
    """``python fuzz_<target>.py`` hands its test_one_input to fuzzlib.main; the file
    is executable with a shebang (libFuzzer's -minimize_crash runs it by its path)."""
    path = FUZZ / f"fuzz_{target}.py"
    assert path.read_text().startswith("#!/usr/bin/env python3\n") and os.access(path, os.X_OK)
    tree = ast.parse(path.read_text())
    guards = [node for node in tree.body if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)]
    assert [ast.unparse(node.body[0]) for node in guards] == ["fuzzlib.main(test_one_input)"]


def _parse_move_seed(text: str) -> Move:
    _, dice, move = text.split(" ", 2)
    return Position.initial().parse_move(move, (int(dice[0]), int(dice[1])))


PARSERS: dict[str, Callable[[str], object]] = {
    "position_id": Position.from_position_id,
    "match_id": MatchId.decode,
    "gnubg_id": Game.from_ids,
    "xgid": Game.from_xgid,
    "move": _parse_move_seed,
}


@pytest.mark.parametrize("target", sorted(PARSERS))
def test_bad_seeds_are_refused_not_passed_over(target: str) -> None:
    """The seeds named bad-* are refused with a documented error (so the harness's
    refusal path is taken, not merely survived)."""
    bad = [path for path in fuzzlib.corpus_files(target) if path.name.startswith("bad-")]
    assert bad
    for path in bad:
        with pytest.raises(fuzzlib.INPUT_ERRORS):
            PARSERS[target](fuzzlib.text_of(path.read_bytes()))


def test_reader_gives_every_value_in_range() -> None:
    reader = fuzzlib.Reader(bytes(range(256)))
    values = [reader.int_in(-3, 700) for _ in range(128)]
    assert all(-3 <= v <= 700 for v in values) and len(set(values)) > 100
    assert fuzzlib.Reader(b"").int_in(5, 9) == 5  # an exhausted input reads as zeros
    assert fuzzlib.Reader(b"\xff").signed8() == -1


def test_attempt_lets_only_documented_errors_through() -> None:
    def raises(exc: BaseException) -> None:
        raise exc

    assert fuzzlib.attempt(raises, InvalidPositionError("bad")) is fuzzlib.REFUSED
    with pytest.raises(KeyError):
        fuzzlib.attempt(raises, KeyError("not documented"))
    with pytest.raises(ValueError, match="not a subclass"):
        fuzzlib.attempt(raises, ValueError("not a subclass"))
    with pytest.raises(fuzzlib.Finding, match="without a message"):
        fuzzlib.attempt(raises, IllegalMoveError(""))
