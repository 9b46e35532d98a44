"""Every input that ever made a fuzz harness (tests/fuzz/) fail, minimized, with the
documented outcome it must have.

Each finding is here twice: the input through its harness (which must now pass it),
and the outcome itself asserted directly on the API, so that the test says what is
right without the harness. Findings in modules the fuzzing work does not own are
``xfail(strict=True)`` with the reason: the fix is someone else's, and the mark
comes off when it lands (strict: an unexpected pass fails, so it cannot be
forgotten).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from bgcore import Game, IllegalMoveError, InvalidPositionError, Match, Position, batch, matfile

FUZZ = Path(__file__).resolve().parent / "fuzz"
INITIAL = "4HPwATDgc/ABMA"


def harness(target: str) -> ModuleType:
    if str(FUZZ) not in sys.path:
        sys.path.insert(0, str(FUZZ))
    return importlib.import_module(f"fuzz_{target}")


# (target, minimized input): each made its harness fail once.
FOUND = [
    # check_dice raised a plain ValueError for a die of 7 (fixed in move.py: IllegalMoveError).
    ("move", f"{INITIAL} 71 8/1".encode()),
    # batch.generate([], []) refused an empty list of boards as "shape (0,)" (fixed in batch.py).
    ("batch", bytes([0, 4])),
    # a .mat file without a game reads as names ("", ""), which Match.to_mat refuses.
    ("mat", b"\n 3 point match 25/22*i"),
    # a second name with a ':' reads, but Match.to_mat refuses it.
    ("mat", b" 3 point match\n Game 1\n Ann : 0   Ben: : 0\n"),
    # a first name over 25 characters: to_mat writes "Name : 0B : 0", which does not read back.
    ("mat", b"\n 1 point match\n\n Game 1\n " + b"A" * 30 + b" : 0   B : 0\n  1) 64: 8/2 6/2\n"),
    # XGID max-cube field 77777777777777710: Game.from_xgid computed 2**field, a hang.
    ("xgid", b"XGID=-b----E-C---eE---c-e----B-:2:0:1:00:6:0:1:7:77777777777777710"),
]


@pytest.mark.parametrize(("target", "data"), FOUND, ids=[f"{t}-{i}" for i, (t, _) in enumerate(FOUND)])
def test_harness_passes_what_it_once_failed(target: str, data: bytes) -> None:
    harness(target).test_one_input(data)


# --- the outcomes, on the API -------------------------------------------------------


def test_a_die_out_of_range_is_an_illegal_move_error() -> None:
    position = Position.initial()
    with pytest.raises(IllegalMoveError, match="dice must be 1-6, got 7-1"):
        position.parse_move("8/1", (7, 1))
    with pytest.raises(IllegalMoveError, match="a roll is two dice, not 3"):
        position.legal_moves((3, 1, 1))  # type: ignore[arg-type]


def test_an_empty_batch_given_as_lists_has_no_rows() -> None:
    children, offsets = batch.generate([], [])
    assert children.shape == (0, 26) and offsets.tolist() == [0]
    assert batch.count([], []).tolist() == []
    with pytest.raises(InvalidPositionError, match=r"boards must have shape \(n, 26\), not \(1, 25\)"):
        batch.count([[0] * 25], [[3, 1]])
    with pytest.raises(InvalidPositionError, match=r"dice must have shape \(1, 2\), not \(0, 2\)"):
        batch.count([Position.initial().board], np.zeros((0, 2), np.int8))


@pytest.mark.parametrize(
    "text",
    ["\n 3 point match 25/22*i", " 3 point match\n Game 1\n Ann : 0   Ben: : 0\n"],
    ids=["no-game", "colon"],
)
def test_the_names_a_mat_file_gives_write_back(text: str) -> None:
    read = matfile.read(text)
    assert matfile.read(read.match.to_mat(read.names)).names == read.names


def test_a_long_first_name_writes_a_score_line_that_reads_back() -> None:
    names = ("A" * 30, "B")
    assert matfile.read(Match(1, dice=1).to_mat(names)).names == names


def test_an_xgid_max_cube_beyond_any_cube_is_refused() -> None:
    # The fuzzed input had 77777777777777710 (2**that hangs); 100000 shows the same
    # missing bound at once.
    with pytest.raises(InvalidPositionError):
        Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:2:0:1:00:6:0:1:7:100000")
