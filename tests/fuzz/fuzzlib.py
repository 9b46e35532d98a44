"""Shared machinery of the atheris harnesses in this folder (``fuzz_<target>.py``).

Each harness defines ``test_one_input(data: bytes) -> None``: it feeds ``data`` to
one of bgcore's parsers or entry points and returns quietly when the input is
refused with a documented error or gives a valid result; anything else (another
exception, a documented error without a message, a result that breaks a
round-trip) escapes as an exception, which atheris reports as a finding.

Nothing here needs atheris: the harnesses read their input with :class:`Reader`
(not atheris's ``FuzzedDataProvider``), so ``tests/test_fuzz_harnesses.py`` and
``tests/test_fuzz_regressions.py`` run them in the ordinary suite. Only
:func:`main`, which a harness calls when run as a script, imports atheris.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

#: bgcore's modules that the harnesses reach (bgcore.envs aside: it needs gymnasium).
MODULES = (
    "bgcore",
    "bgcore.acey",
    "bgcore.batch",
    "bgcore.cli",
    "bgcore.errors",
    "bgcore.fair",
    "bgcore.game",
    "bgcore.ids",
    "bgcore.match",
    "bgcore.matfile",
    "bgcore.move",
    "bgcore.notation",
    "bgcore.position",
    "bgcore.rollouts",
    "bgcore.svg",
)


def _fuzzing() -> bool:
    """Whether a harness runs as a script, under atheris (not in pytest)."""
    main = sys.modules.get("__main__")
    return Path(getattr(main, "__file__", None) or "").name.startswith("fuzz_")


def _instrumented() -> contextlib.AbstractContextManager[object]:
    """Under atheris: coverage instrumentation of the bgcore modules imported
    in the block (of bgcore's Python code only: instrumenting everything loaded,
    numpy and rich included, takes a minute at every start)."""
    if not _fuzzing():
        return contextlib.nullcontext()
    import atheris

    hook: contextlib.AbstractContextManager[object] = atheris.instrument_imports(include=["bgcore"])
    return hook


# Every bgcore module is imported here, first, so that all of them are
# instrumented, the ones that bgcore imports lazily (inside functions) included.
with _instrumented():
    for _name in MODULES:
        importlib.import_module(_name)

import bgcore  # noqa: E402 (imported above, instrumented)
import bgcore.errors  # noqa: E402

__all__ = [
    "CORPUS",
    "INPUT_ERRORS",
    "Finding",
    "REFUSED",
    "Reader",
    "attempt",
    "captured_output",
    "corpus_files",
    "harness_names",
    "main",
    "text_of",
]

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"

#: bgcore's documented bad-input errors: every exception class of bgcore.errors
#: (each a ValueError subclass).
INPUT_ERRORS: tuple[type[Exception], ...] = tuple(getattr(bgcore.errors, name) for name in bgcore.errors.__all__)

T = TypeVar("T")


class Finding(AssertionError):
    """A result or an error that breaks a harness's property."""


class _Refused:
    """The type of :data:`REFUSED`."""

    def __repr__(self) -> str:
        return "REFUSED"


#: What :func:`attempt` returns when the input was refused with a documented error.
REFUSED = _Refused()


def attempt(
    call: Callable[..., T], *args: object, allowed: tuple[type[BaseException], ...] = INPUT_ERRORS, **kwargs: object
) -> T | _Refused:
    """``call(*args, **kwargs)``, or :data:`REFUSED` when it raises one of ``allowed``
    with a message (the house rule: the message says what is wrong). Any other
    exception propagates: that is the finding."""
    try:
        return call(*args, **kwargs)
    except allowed as exc:
        if not str(exc).strip():
            raise Finding(f"{type(exc).__name__} without a message from {getattr(call, '__qualname__', call)}") from exc
        return REFUSED


def text_of(data: bytes) -> str:
    """The fuzz input as a str: UTF-8, undecodable bytes as lone surrogates (a str
    a caller may well hand over, e.g. a file name read with surrogateescape)."""
    return data.decode("utf-8", "surrogateescape")


class Reader:
    """Typed values taken off the front of a fuzz input; an exhausted input
    gives zeros (so every input, however short, means something)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        """The next byte (0 when exhausted)."""
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def int_in(self, low: int, high: int) -> int:
        """An int in [low, high], from as many bytes as the range needs."""
        span = high - low + 1
        value = 0
        for _ in range((span.bit_length() + 7) // 8):
            value = value << 8 | self.byte()
        return low + value % span

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options``."""
        return options[self.int_in(0, len(options) - 1)]

    def signed8(self) -> int:
        """The next byte as a signed 8-bit int."""
        b = self.byte()
        return b - 256 if b > 127 else b

    def rest(self) -> bytes:
        """Every byte not taken yet."""
        rest = self.data[self.pos :]
        self.pos = len(self.data)
        return rest


@contextlib.contextmanager
def captured_output() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """sys.stdout and sys.stderr replaced by StringIOs (what bgcore prints, not
    what C code writes to the file descriptors)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


def harness_names() -> list[str]:
    """The targets that have a harness here: fuzz_<target>.py."""
    return sorted(path.stem.removeprefix("fuzz_") for path in HERE.glob("fuzz_*.py"))


def corpus_files(target: str) -> list[Path]:
    """The seed corpus of ``target`` (tests/fuzz/corpus/<target>/*), sorted."""
    folder = CORPUS / target
    return sorted(path for path in folder.iterdir() if path.is_file()) if folder.is_dir() else []


def main(test_one_input: Callable[[bytes], None]) -> None:
    """Run ``test_one_input`` under atheris with the command line's libFuzzer
    flags (``python tests/fuzz/fuzz_<target>.py -max_total_time=60 CORPUS``).
    bgcore's Python code is instrumented for coverage (on import, above); its
    Cython extensions are not (GCC builds them, without libFuzzer's coverage
    counters), but a sanitized build catches their memory errors."""
    import atheris  # only here: the ordinary suite runs the harnesses without it

    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


def check_position(position: bgcore.Position, dice: tuple[int, int] = (3, 1)) -> None:
    """The round trips a valid position must survive: its board, its flip, its
    XGID and (15 checkers) its Position ID give it back, and every legal play of
    ``dice`` gives a position that is valid too."""
    Position = bgcore.Position
    same = Position(position.board, checkers=position.checkers)
    if same != position or hash(same) != hash(position):
        raise Finding(f"Position(board) of {position!r} is not the same position")
    if position.flip().flip() != position:
        raise Finding(f"flipping {position!r} twice does not give it back")
    if Position.from_xgid(position.xgid(), checkers=position.checkers) != position:
        raise Finding(f"the XGID {position.xgid()!r} does not give {position!r} back")
    if position.checkers == 15 and Position.from_position_id(position.position_id()) != position:
        raise Finding(f"the Position ID of {position!r} does not give it back")
    if position.is_game_over():
        return
    for move in position.legal_moves(dice):
        child = position.play(move)
        if Position(child.board, checkers=child.checkers) != child:
            raise Finding(f"{move} from {position!r} gives a position that is not valid")
