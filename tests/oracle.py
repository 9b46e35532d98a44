"""GNU Backgammon as an oracle, through the optional ``gnubg`` package.

``gnubg.findbestmoves`` cuts each move tuple at its first bear-off, so this
module calls gnubg's C move generator ``GenerateMoves`` directly (its
extension module exports it) through ctypes and reads the exact result of
every move.  ``require()`` skips a test without a usable gnubg, or fails it
when ``BGCORE_REQUIRE_ORACLE=1``.

Test code, not part of bgcore: the product must not depend on gnubg.  The
tests import it as ``oracle`` (pytest puts this folder on ``sys.path``), the
benchmarks through ``bench/gnubg_native.py``.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import io
import os
from collections.abc import Sequence
from types import ModuleType
from typing import NamedTuple, NoReturn

from bgcore.ids import MatchId, board_to_gnubg

__all__ = [
    "REQUIRE_VARIABLE",
    "require",
    "missing",
    "optional",
    "without",
    "required",
    "unavailable_reason",
    "GnubgMove",
    "generate_moves",
    "library",
    "format_move",
    "gnubg_tuple",
]

# gnubg's ``move`` struct (eval.h): int anMove[8]; positionkey key; ... 1064
# bytes in the 1.1.0a16 build; the key starts right after anMove.
MOVE_STRIDE = 1064
KEY_OFFSET = 32


class _MoveList(ctypes.Structure):
    _fields_ = [
        ("cMoves", ctypes.c_uint),
        ("cMaxMoves", ctypes.c_uint),
        ("cMaxPips", ctypes.c_uint),
        ("iMoveBest", ctypes.c_int),
        ("rBestScore", ctypes.c_float),
        ("amMoves", ctypes.c_void_p),
    ]


Board = (ctypes.c_uint * 25) * 2

_lib: ctypes.CDLL | None = None


#: Set to 1 where gnubg must be present (CI): a broken install then fails the
#: run instead of passing it green with every cross-check skipped.
REQUIRE_VARIABLE = "BGCORE_REQUIRE_ORACLE"


def unavailable_reason() -> str | None:
    """None when gnubg can serve as the oracle, else why not."""
    try:
        library()
    # ImportError: not installed, or a shared library it needs is missing;
    # OSError: ctypes cannot load its extension module; AttributeError: a
    # build without the C functions called here.
    except (ImportError, OSError, AttributeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def require() -> None:
    """Skip the calling test, fixture or test module when gnubg cannot serve as
    the oracle; fail it instead when ``BGCORE_REQUIRE_ORACLE=1``."""
    reason = unavailable_reason()
    if reason is not None:
        missing(reason)


def required() -> bool:
    """Whether ``BGCORE_REQUIRE_ORACLE=1``: a gnubg cross-check that cannot run fails."""
    return os.environ.get(REQUIRE_VARIABLE) == "1"


def optional() -> ModuleType | None:
    """gnubg for a test that cross-checks against it where it can and goes on
    without it elsewhere: the ``gnubg`` module, or None when gnubg cannot serve
    as the oracle; under ``BGCORE_REQUIRE_ORACLE=1`` that fails the caller."""
    reason = unavailable_reason()
    if reason is None:
        return importlib.import_module("gnubg")
    without(reason)
    return None


def without(reason: str) -> None:
    """A gnubg cross-check that is one part of a test cannot run (``reason``):
    return, so that the test goes on without it; fail the test instead under
    ``BGCORE_REQUIRE_ORACLE=1``."""
    if required():
        import pytest  # only here: the benchmark scripts import this module without pytest

        pytest.fail(f"{REQUIRE_VARIABLE}=1 but gnubg cannot serve as the oracle: {reason}", pytrace=False)


def missing(reason: str) -> NoReturn:
    """Skip the calling test, fixture or test module because a gnubg cross-check
    cannot run (``reason`` says why: gnubg itself, or something the check needs
    besides, such as the C compiler of bench/gnubg_native.py); fail it instead
    when ``BGCORE_REQUIRE_ORACLE=1``."""
    import pytest  # only here: the benchmark scripts import this module without pytest

    without(reason)
    pytest.skip(
        f"gnubg cannot serve as the oracle ({reason}); pip install -e '.[test]' "
        f"(set {REQUIRE_VARIABLE}=1 to fail instead)",
        allow_module_level=True,
    )


def library() -> ctypes.CDLL:
    """gnubg's extension module as a ctypes library (raises ImportError without gnubg)."""
    global _lib
    if _lib is None:
        module = importlib.import_module("gnubg._gnubg")
        lib = ctypes.CDLL(module.__file__)
        lib.GenerateMoves.argtypes = [
            ctypes.POINTER(_MoveList),
            ctypes.POINTER(Board),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
        ]
        lib.GenerateMoves.restype = ctypes.c_int
        lib.PositionIDFromKey.argtypes = [ctypes.c_void_p]
        lib.PositionIDFromKey.restype = ctypes.c_char_p
        _lib = lib
    return _lib


def gnubg_board(board: Sequence[int]) -> ctypes.Array[ctypes.Array[ctypes.c_uint]]:
    """A ctypes ``TanBoard`` (opponent first) for a bgcore board."""
    theirs, mine = board_to_gnubg(board)
    b = Board()
    for i in range(25):
        b[0][i] = theirs[i]
        b[1][i] = mine[i]
    return b


class GnubgMove(NamedTuple):
    """One of gnubg's results: the board's Position ID (mover still on roll) and its move."""

    position_id: str
    steps: tuple[tuple[int, int], ...]  # 1-based, 25 = bar, 0 = off


def generate_moves(board: Sequence[int], die1: int, die2: int) -> list[GnubgMove]:
    """gnubg's legal moves of ``die1``-``die2`` (gnubg plays die1 first)."""
    lib = library()
    ml = _MoveList()
    b = gnubg_board(board)
    lib.GenerateMoves(ctypes.byref(ml), ctypes.byref(b), die1, die2, 0)
    out = []
    for i in range(ml.cMoves):
        base = ml.amMoves + i * MOVE_STRIDE
        an = (ctypes.c_int * 8).from_address(base)
        steps = []
        for k in range(0, 8, 2):
            if an[k] < 0:
                break
            steps.append((an[k] + 1, max(an[k + 1], -1) + 1))
        pid = lib.PositionIDFromKey(base + KEY_OFFSET).decode("ascii")
        out.append(GnubgMove(pid, tuple(steps)))
    return out


def count_moves(board: Sequence[int], die1: int, die2: int) -> int:
    """How many legal moves (distinct results) gnubg finds for ``die1``-``die2``:
    ``len(generate_moves(...))`` without reading the moves."""
    ml = _MoveList()
    b = gnubg_board(board)
    library().GenerateMoves(ctypes.byref(ml), ctypes.byref(b), die1, die2, 0)
    return int(ml.cMoves)


def money_cubeinfo() -> dict[str, object]:
    """gnubg's cube information for money play, cube 1 centred, player 0 on roll.

    Given in full: ``gnubg.cubeinfo()``'s defaults come from gnubg's current
    match, which an earlier test (a ``.mat`` import, say) may have left in a
    state that makes them invalid ("Error in SetCubeInfo")."""
    gnubg = importlib.import_module("gnubg")
    return dict(gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0))


def gnubg_tuple(board: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A bgcore board as the gnubg package's (opponent, player on roll) tuples."""
    theirs, mine = board_to_gnubg(board)
    return tuple(theirs), tuple(mine)


def format_move(steps: Sequence[tuple[int, int]], board: Sequence[int]) -> str:
    """gnubg's own notation for ``steps`` played on ``board`` (``gnubg.movetupletostring``)."""
    import gnubg

    flat = tuple(p for step in steps for p in step)
    text: str = gnubg.movetupletostring(flat, gnubg_tuple(board))
    return text


def gnubg_reads(text: str) -> str:
    """What gnubg holds after loading ``text`` (a gnubg ID or an XGID)."""
    with contextlib.redirect_stdout(io.StringIO()):
        importlib.import_module("gnubg").setgnubgid(text)
    return str(importlib.import_module("gnubg").gnubgid())


def comparable(gnubg_id: str, money: bool) -> tuple[str, dict[str, object]]:
    """The position and the Match ID's fields; gnubg forgets a money
    session's running score when it loads an ID, so that is left out."""
    position_id, match_id = gnubg_id.split(":")
    fields = dict(MatchId.decode(match_id).__dict__)
    if money:
        fields.pop("score")
    return position_id, fields
