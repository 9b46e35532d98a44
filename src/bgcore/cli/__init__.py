"""bgcore's command line: ``bgcore COMMAND ...`` or ``python -m bgcore COMMAND ...``.

One module per subcommand, each with ``add_parser(subparsers)`` and
``run(args) -> exit code``; :func:`main` parses the arguments and turns
errors into messages on stderr and exit codes, never a traceback:

- 0: done;
- 1: the input is not valid: a Position ID, XGID or array that does not
  decode, a file that cannot be read or does not replay, a position the
  command cannot work on;
- 2: the command line is malformed: an unknown command or option, a missing
  argument, dice that are not two digits 1-6, a number out of range
  (argparse's usage and message);
- 130: interrupted (Ctrl-C).

An error is one line on stderr, ``bgcore COMMAND: error: ...``, whatever
the arguments: bgcore's ValueErrors about bad input, TypeError and
OverflowError (a value of the wrong kind or size), OSError (a file); an
unexpected error is one line too, naming itself as a bug to report.

>>> main(["convert", "4HPwATDgc/ABMA", "--to", "xgid"])
XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
0
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from .. import __version__
from . import bench, convert, demo, mat, moves, perft, play, rollout, show, train
from .common import UsageError
from .inputs import protect_arguments

__all__ = ["main", "build_parser"]

_COMMANDS = (show, moves, convert, perft, bench, rollout, play, mat, demo, train)


def _prog() -> str:
    """``bgcore`` when run as the console script, else ``python -m bgcore``."""
    return "bgcore" if os.path.basename(sys.argv[0] or "") in ("bgcore", "bgcore.exe") else "python -m bgcore"


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its error messages kept to one printable line: an
    argument it quotes may hold a newline or a control character."""

    def error(self, message: str) -> NoReturn:
        printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
        super().error(printable)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; each sets ``run`` (its function) in the namespace."""
    parser = _Parser(
        prog=prog or _prog(),
        description="bgcore, a backgammon engine core: positions, moves, perft, rollouts, a game in the terminal.",
        epilog="Positions are given as a Position ID, an XGID, a gnubg ID (PositionID:MatchID) or the 26-count "
        "array; 'COMMAND --help' tells more. Exit codes: 0 done, 1 invalid input, 2 a malformed command line.",
    )
    parser.add_argument("--version", action="version", version=f"bgcore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _COMMANDS:
        module.add_parser(sub)
    for subparser in sub.choices.values():
        subparser.set_defaults(subparser=subparser)  # for the usage line of a UsageError
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return its exit code."""
    parser = build_parser()
    args_list = protect_arguments(list(sys.argv[1:] if argv is None else argv))
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help, --version (0) or a usage error (2), already printed
        return exc.code if isinstance(exc.code, int) else 2
    command = f"{parser.prog} {args.command}"
    try:
        code: int = args.run(args)
        return code
    except UsageError as exc:
        args.subparser.print_usage(sys.stderr)
        print(f"{command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``bgcore moves ... | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print(f"\n{command}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, TypeError, OverflowError, OSError) as exc:  # bgcore's errors about bad input are ValueErrors
        print(f"{command}: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: still one line, never a traceback
        print(f"{command}: internal error, please report it: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return 1


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line (some quote a board drawn on several)."""
    return " ".join(str(exc).split()) or type(exc).__name__
