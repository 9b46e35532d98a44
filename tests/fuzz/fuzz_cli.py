#!/usr/bin/env python3
"""Fuzz harness: the command line (``bgcore.cli.main``).

The input is the argument list, one argument a line; a line ``----`` ends it,
and the text after it is both the file ``game.mat`` in the (temporary) working
directory and the standard input (what ``bgcore play`` reads; EOF after it).
``main`` must return 0, 1 or 2 (with a message on stderr for 1 and 2), never
raise or print a traceback.

Valid command lines that ask for work beyond a fuzz input's time bound are
skipped: ``bench``, ``demo`` timing for more than 0.05 s, ``perft`` deeper
than 2 plies, ``rollout`` of more than 64 games, more than 2 threads. File
names must stay in the working directory (no ``/``): the fuzzer must neither
read devices nor write over files.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator

import fuzzlib

from bgcore.cli import build_parser, main
from bgcore.cli.inputs import protect_arguments

_PARSER = build_parser("bgcore")


def split(data: bytes) -> tuple[list[str], str]:
    """The argument list and the text (file and standard input) of one input."""
    text = fuzzlib.text_of(data)
    args, _, rest = text.partition("\n----\n")
    return args.split("\n") if args else [], rest


def too_costly(argv: list[str]) -> bool:
    """Whether ``argv`` is a valid command line that asks for more work than a
    fuzz input may take, or names a file outside the working directory."""
    with fuzzlib.captured_output():
        try:
            args = _PARSER.parse_args(protect_arguments(list(argv)))
        except SystemExit:
            return False  # main() will refuse it too: that is what is tested
    ns: dict[str, object] = vars(args)
    if args.command == "bench" or (args.command == "demo" and float(ns["seconds"]) > 0.05):  # type: ignore[arg-type]
        return True
    if args.command == "perft" and ns["depth"] is not None and int(ns["depth"]) > 2:  # type: ignore[call-overload]
        return True
    if args.command == "perft" and ns["depth"] is None:
        return True  # the default depth, 3, takes minutes in acey-deucey
    if int(ns.get("games") or 0) > 64 or int(ns.get("threads") or 1) > 2:  # type: ignore[call-overload]
        return True
    return any("/" in str(ns.get(name) or "") for name in ("file", "svg"))


@contextlib.contextmanager
def sandbox(text: str) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """A temporary working directory holding game.mat, ``text`` on stdin, and
    stdout and stderr captured."""
    cwd = os.getcwd()
    stdin = sys.stdin
    with tempfile.TemporaryDirectory(prefix="bgcore-fuzz-") as folder:
        with open(os.path.join(folder, "game.mat"), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        os.chdir(folder)
        sys.stdin = io.StringIO(text)
        try:
            with fuzzlib.captured_output() as streams:
                yield streams
        finally:
            sys.stdin = stdin
            os.chdir(cwd)


def test_one_input(data: bytes) -> None:
    """One input: see the module's docstring."""
    argv, text = split(data)
    if too_costly(argv):
        return
    with sandbox(text) as (out, err):
        code = main(list(argv))
    if code not in (0, 1, 2):
        raise fuzzlib.Finding(f"bgcore {argv!r} exited with {code!r}:\n{err.getvalue()}")
    if code and not err.getvalue().strip():
        raise fuzzlib.Finding(f"bgcore {argv!r} exited with {code} without a message on stderr")
    if "Traceback (most recent call last)" in out.getvalue() + err.getvalue():
        raise fuzzlib.Finding(f"bgcore {argv!r} printed a traceback:\n{err.getvalue()}")


if __name__ == "__main__":
    fuzzlib.main(test_one_input)
