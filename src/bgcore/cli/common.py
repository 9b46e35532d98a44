"""What the subcommands share: the console, usage errors and the position argument."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

__all__ = ["UsageError", "console", "add_position_argument", "plural"]


class UsageError(Exception):
    """A command line that does not make sense (exit code 2, with the usage)."""


def console() -> Console:
    """A rich console on the current ``sys.stdout`` (so that tests capture it),
    without rich's highlighting, markup and emoji: text is printed as it is."""
    return Console(file=sys.stdout, highlight=False, markup=False, emoji=False)


POSITION_HELP = (
    "a Position ID (4HPwATDgc/ABMA), an XGID (XGID=...), a gnubg ID (PositionID:MatchID) "
    "or the 26 counts of the array form, comma-separated"
)


def add_position_argument(parser: argparse.ArgumentParser, *, optional: bool = False, what: str = "") -> None:
    """The ``ID`` argument that every command reads with :func:`~bgcore.cli.inputs.read_position`."""
    help_text = POSITION_HELP + (f"; {what}" if what else "")
    if optional:
        parser.add_argument("position", metavar="ID", nargs="?", help=help_text)
    else:
        parser.add_argument("position", metavar="ID", help=help_text)


def plural(n: int, word: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")
