"""Time GNU Backgammon's C move generator from a native loop.

``gnubg_timer.c`` (next to this file) is compiled at run time with the system
C compiler (``$CC`` or ``cc``, ``-O2 -shared -fPIC``) into a temporary
folder and loaded with ctypes.  Its ``time_gnubg`` calls gnubg's
``GenerateMoves`` through a function pointer taken from the ``gnubg``
package's extension module, so no Python runs per generation: the same
conditions as ``bgcore._batch.count_many``.

:func:`load_timer` raises :class:`GnubgUnavailable` (with the reason) when the
gnubg package or a C compiler is missing, so callers can skip the gnubg
figures cleanly.
"""

from __future__ import annotations

import ctypes
import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bgcore.ids import board_to_gnubg
from corpus import Corpus

# The gnubg oracle is test code (tests/oracle.py), kept out of bgcore so that the
# product never depends on gnubg.  Every benchmark that talks to gnubg goes
# through this module, so this is the one place that reaches into tests/;
# callers take ``gnubg_native.oracle`` rather than importing it themselves.
_TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
import oracle  # noqa: E402

__all__ = [
    "GnubgUnavailable",
    "GnubgCorpus",
    "GnubgCount",
    "GnubgTimer",
    "load_timer",
    "unavailable_reason",
    "gnubg_corpus",
]

C_SOURCE = Path(__file__).with_name("gnubg_timer.c")
CFLAGS = ("-O2", "-shared", "-fPIC")


class GnubgUnavailable(RuntimeError):
    """gnubg's C generator cannot be timed here; ``str()`` says why."""


@dataclass(frozen=True)
class GnubgCorpus:
    """A corpus in gnubg's layout, kept alive as contiguous arrays.

    ``boards`` is (n, 2, 25) uint32 TanBoards (``[i, 0]`` the opponent,
    ``[i, 1]`` the player on roll), ``dice`` is (n, 2) int32, higher die first.
    """

    boards: np.ndarray
    dice: np.ndarray

    def __len__(self) -> int:
        return len(self.dice)


def gnubg_corpus(corpus: Corpus) -> GnubgCorpus:
    """Convert every generation of ``corpus`` to gnubg's ``TanBoard`` and dice, in corpus order."""
    per_position = np.array([board_to_gnubg(pos.board) for pos in corpus.positions], dtype=np.uint32)
    per_position = per_position.reshape(len(corpus.positions), 2, 25)
    boards = np.ascontiguousarray(np.repeat(per_position, len(corpus.rolls), axis=0))
    return GnubgCorpus(boards, np.ascontiguousarray(corpus.dice, dtype=np.int32))


class GnubgCount(NamedTuple):
    """Totals of one :meth:`GnubgTimer.run`.

    ``moves`` is the sum of gnubg's ``cMoves``; ``lost_turns`` counts the calls
    that found no legal move.  gnubg reports a lost turn as 0 moves, bgcore as
    one result (the empty move), so bgcore's total is :attr:`results`.
    """

    moves: int
    lost_turns: int

    @property
    def results(self) -> int:
        """Results counted as bgcore does: ``moves + lost_turns``."""
        return self.moves + self.lost_turns


@dataclass(frozen=True)
class GnubgTimer:
    """The compiled ``time_gnubg`` loop bound to gnubg's ``GenerateMoves``."""

    timer: ctypes.CDLL
    generate_moves: int  # address of gnubg's GenerateMoves
    compiler: str

    def run(self, data: GnubgCorpus, repeats: int = 1) -> GnubgCount:
        """Run ``GenerateMoves`` on every generation of ``data``, ``repeats`` times over.

        Returns the totals over all calls; ``.results`` is comparable with bgcore's count.
        """
        lost = ctypes.c_longlong(0)
        moves = self.timer.time_gnubg(
            self.generate_moves,
            data.boards.ctypes.data_as(ctypes.POINTER(ctypes.c_uint)),
            data.dice.ctypes.data_as(ctypes.POINTER(ctypes.c_int)),
            len(data),
            repeats,
            ctypes.byref(lost),
        )
        if moves < 0:
            raise ValueError("time_gnubg rejected its arguments")
        return GnubgCount(moves, lost.value)


def _generate_moves_address() -> int:
    reason = oracle.unavailable_reason()
    if reason is not None:
        raise GnubgUnavailable(f"the gnubg package is not usable ({reason})")
    address = ctypes.cast(oracle.library().GenerateMoves, ctypes.c_void_p).value
    if not address:
        raise GnubgUnavailable("gnubg's GenerateMoves has no address")
    return address


def _compile(folder: str) -> tuple[ctypes.CDLL, str]:
    compiler = shlex.split(os.environ.get("CC", "cc"))
    if not compiler or shutil.which(compiler[0]) is None:
        raise GnubgUnavailable(f"no C compiler ({' '.join(compiler) or 'cc'} not found; set CC)")
    out = os.path.join(folder, "gnubg_timer.so")
    cmd = [*compiler, *CFLAGS, "-o", out, str(C_SOURCE)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GnubgUnavailable(f"compiling {C_SOURCE.name} failed: {exc}") from None
    if proc.returncode != 0:
        raise GnubgUnavailable(f"compiling {C_SOURCE.name} failed:\n{proc.stderr.strip()}")
    lib = ctypes.CDLL(out)
    lib.time_gnubg.argtypes = [
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_uint),
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_longlong),
    ]
    lib.time_gnubg.restype = ctypes.c_longlong
    return lib, " ".join(cmd[: len(compiler) + len(CFLAGS)])


@functools.lru_cache(maxsize=1)
def load_timer() -> GnubgTimer:
    """Compile and load the timer once per process (raises :class:`GnubgUnavailable`)."""
    address = _generate_moves_address()
    # The loaded library stays mapped after its file and folder are removed.
    with tempfile.TemporaryDirectory(prefix="bgcore-bench-") as folder:
        lib, compiler = _compile(folder)
    return GnubgTimer(lib, address, compiler)


def unavailable_reason() -> str | None:
    """None when gnubg's generator can be timed, else why not."""
    try:
        load_timer()
    except GnubgUnavailable as exc:
        return str(exc)
    return None
