"""The command line against absurd arguments: never a traceback, never a hang.

Every subcommand gets huge, negative and non-numbers, NaN and infinities,
unicode, empty strings and values of the wrong kind: each run ends within a
bound with exit code 1 (bad input: one line on stderr) or 2 (a malformed
command line: argparse's usage and one error line), never with a traceback
or an "internal error".  A hypothesis test throws random argument lists
made of such values at every subcommand.
"""

from __future__ import annotations

import contextlib
import io
import time
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcore.cli import main

START = "4HPwATDgc/ABMA"
START_ARRAY = "0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0"
HUGE = str(10**20)
#: Seconds a refused command line may take (the first call imports rich's tables and the like).
WITHIN = 2.0


def run_cli(argv: list[str]) -> tuple[int, str, str, float]:
    """(exit code, stdout, stderr, seconds) of ``main(argv)``, with ``quit`` on stdin for ``play``."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        mock.patch("sys.stdin", io.StringIO("quit\n" * 3)),
    ):
        code = main(argv)
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


def assert_refused(argv: list[str], code: int | None = None, message: str = "") -> str:
    """``argv`` is refused (exit 1 or 2, or ``code``) fast, with one error line and no traceback."""
    got, out, err, seconds = run_cli(argv)
    assert got in ((1, 2) if code is None else (code,)), (argv, got, out, err)
    check_messages(got, err)
    assert message in err, err
    assert seconds < WITHIN, f"{argv} took {seconds:.2f} s"
    return err


def check_messages(code: int, err: str) -> None:
    """No traceback; bad input is one line, a malformed command line ends with one error line."""
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.removesuffix("\n").split("\n")  # (not splitlines: an argument may hold \x1e, \x85, ...)
    if code == 1:
        assert len(lines) == 1 and ": error: " in lines[0], err
    elif code == 2:
        assert lines and lines[0].startswith("usage: ") and ": error: " in lines[-1], err
        assert sum(": error: " in line for line in lines) == 1, err


def huge_array(value: str) -> str:
    return START_ARRAY.replace("0,-2", f"{value},-2", 1)


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        # a board count of 10**20 used to be a TypeError's traceback (numpy could not hold it)
        (["show", huge_array(HUGE)], 1, f"slot 0 holds {HUGE} checkers"),
        (["show", huge_array("-" + HUGE)], 1, f"slot 0 holds -{HUGE}"),
        (["show", "[" + ",".join([HUGE] * 26) + "]"], 1, "checkers"),
        (["convert", huge_array("-" + HUGE)], 1, ""),
        (["moves", huge_array(HUGE), "31"], 1, ""),
        (["perft", huge_array(HUGE), "--depth", "1"], 1, ""),
        (["rollout", huge_array(HUGE)], 1, ""),
        (["show", ""], 1, "the position is empty"),
        (["show", " "], 1, "the position is empty"),
        (["show", "é" * 14], 1, "a Position ID is 14 characters"),
        (["show", "\x00"], 1, ""),
        (["show", "🎲" * 26], 1, ""),
        (["show", ":"], 1, ""),
        (["show", "XGID=" + "é" * 26 + ":0:0:1:00:0:0:0:0:10"], 1, ""),
        (["show", f"XGID=-b----E-C---eE---c-e----B-:{HUGE}:0:1:00:0:0:0:0:10"], 1, ""),
        (["show", f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{HUGE}:0:0:7:10"], 1, ""),
        (["show", f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:{HUGE}:10"], 1, ""),
        (["show", "XGID=-b----E-C---eE---c-e----B-:nan:0:1:00:0:0:0:0:10"], 1, ""),
        (["show", f"{START}:{'é' * 12}"], 1, ""),
        (["show", START, "--svg", "/nonexistent/dir/board.svg"], 1, "No such file or directory"),
        (["show", START, "--svg", "\x00"], 1, ""),
        (["moves", START, "é"], 2, "dice are two digits 1-6"),
        (["moves", START, ""], 2, "dice are two digits 1-6"),
        (["moves", START, "31", "--seed", "nan"], 2, "invalid int value"),
        (["moves", START, "31", "--policy", ""], 2, "invalid choice"),
        (["convert", START, "--to", "é"], 2, "invalid choice"),
        (["perft", "--depth", HUGE], 2, f"--depth takes 1 to 6, not {HUGE}"),
        (["perft", "--depth", "-" + HUGE], 2, "--depth takes 1 to 6"),
        (["perft", "--depth", "nan"], 2, "invalid int value"),
        (["perft", "--depth", ""], 2, "invalid int value"),
        (["perft", "--threads", HUGE], 2, f"--threads takes 1 to 64, not {HUGE}"),
        (["perft", "--threads", "0"], 2, "--threads takes 1 to 64, not 0"),
        (["perft", "--variant", "é"], 2, "invalid choice"),
        (["bench", "--seconds", "nan"], 2, "--seconds takes 0.05 to 60, not nan"),
        (["bench", "--seconds", "inf"], 2, "--seconds takes 0.05 to 60, not inf"),
        (["bench", "--seconds", "-" + HUGE], 2, "--seconds takes 0.05 to 60"),
        (["bench", "--threads", HUGE], 2, "--threads takes 1 to 64"),
        (["bench", "--threads", "-1"], 2, "--threads takes 1 to 64"),
        (["rollout", START, "--games", HUGE], 2, f"--games takes 1 to 2**63 - 1, not {HUGE}"),
        (["rollout", START, "--games", str(2**63)], 2, "--games takes 1 to 2**63 - 1"),
        (["rollout", START, "--games", "-1"], 2, "--games takes 1 to 2**63 - 1"),
        (["rollout", START, "--seed", HUGE], 2, "--seed takes 0 to 2**64 - 1"),
        (["rollout", START, "--seed", "-" + HUGE], 2, "--seed takes 0 to 2**64 - 1"),
        (["rollout", START, "--threads", HUGE], 2, "--threads takes 1 to 64"),
        (["rollout", START, "--games", "1.5"], 2, "invalid int value"),
        (["rollout", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:99:10", "--games", "10"], 1, "match_length"),
        (["play", "--match", HUGE], 2, "--match takes 1 to 64 points"),
        (["play", "--match", "-1"], 2, "--match takes 1 to 64 points"),
        (["play", "--seed", HUGE], 2, "--seed takes 0 to 2**64 - 1"),
        (["play", "--seed", "-1"], 2, "--seed takes 0 to 2**64 - 1"),
        (["play", "--variant", ""], 2, "invalid choice"),
        (["mat", ""], 1, "cannot read"),
        (["mat", "/"], 1, "cannot read"),
        (["mat", "\x00"], 1, ""),
        (["mat", "é" * 300], 1, "cannot read"),
        (["mat", "/dev/null"], 1, ""),
        (["demo", "--seconds", "nan"], 2, "--seconds takes 0 to 60, not nan"),
        (["demo", "--seconds", HUGE], 2, "--seconds takes 0 to 60"),
        (["demo", "--dice", "é"], 2, "--dice: dice are two digits 1-6"),
        (["demo", "--dice", ""], 2, "--dice: dice are two digits 1-6"),
        (["é"], 2, "invalid choice"),
        ([""], 2, "invalid choice"),
        ([], 2, "the following arguments are required: COMMAND"),
    ],
)
def test_absurd_arguments_are_refused_fast(argv: list[str], code: int, message: str) -> None:
    assert_refused(argv, code, message)


def test_an_unexpected_error_is_one_line_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import bgcore.cli.show as show

    def broken(text: str) -> None:
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr(show, "read_position", broken)
    code, out, err, _ = run_cli(["show", START])
    assert code == 1 and out == ""
    assert err == "python -m bgcore show: internal error, please report it: RuntimeError: something unforeseen\n"


def test_interrupted_politely(monkeypatch: pytest.MonkeyPatch) -> None:
    import bgcore.cli.show as show

    def interrupt(text: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(show, "read_position", interrupt)
    code, out, err, _ = run_cli(["show", START])
    assert code == 130 and out == "" and err == "\npython -m bgcore show: interrupted\n"


# --- random argument lists ----------------------------------------------------------------------

#: Values no option takes: huge, negative and non-numbers, unicode, empty.
ABSURD = [
    HUGE,
    "-" + HUGE,
    str(2**63),
    str(2**64),
    str(2**31),
    "-1",
    "0",
    "nan",
    "-nan",
    "inf",
    "-inf",
    "1e999",
    "0x10",
    "1.5",
    "",
    " ",
    "é",
    "٣٣",  # Arabic-Indic digits: int() reads 33
    "🎲",
    "\x00",
    "--",
    "-",
]
#: Values no count, length or time takes: the long-running options always get one of these.
NEVER_VALID = [HUGE, "-" + HUGE, str(2**64), "-1", "nan", "inf", "-inf", "1e999", "", "é", "🎲", "\x00", "0x10"]
#: Position-like arguments: valid ones, near misses and absurd ones (an XGID's numbers kept
#: below 10**7: the game layer bounds the maximum cube's exponent, a huge one being 2**huge).
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
POSITIONS = st.one_of(
    st.sampled_from([START, START_ARRAY, START_XGID, f"{START}:cAkAAAAAAAAA"]),
    st.lists(st.sampled_from([*ABSURD[:6], "0", "1", "-15", "15"]), min_size=1, max_size=27).map(",".join),
    st.tuples(
        st.text(alphabet="-abcABCo", min_size=0, max_size=27),
        st.lists(st.one_of(st.integers(-(10**6), 10**6).map(str), st.sampled_from(ABSURD)), min_size=9, max_size=9),
    ).map(lambda t: "XGID=" + ":".join([t[0], *t[1]])),
    st.text(min_size=0, max_size=30),
    st.sampled_from(ABSURD),
)
#: Per subcommand: its options and the positional arguments it reads; an option that could make
#: the command run long (perft's depth, bench's and demo's seconds, rollout's games) is given
#: once, a value it refuses (or a handful of games), and is not among the random ones.
OPTIONS = {
    "show": (["--svg"], True),
    "moves": (["--policy", "--seed"], True),
    "convert": (["--to"], True),
    "perft": (["--depth", "--variant", "--threads"], False),
    "bench": (["--seconds", "--threads"], False),
    "rollout": (["--games", "--policy", "--threads", "--seed"], True),
    "play": (["--policy", "--variant", "--seed", "--match"], False),
    "mat": ([], False),
    "demo": (["--dice", "--seconds"], False),
}
ALWAYS = {"perft": "--depth", "bench": "--seconds", "demo": "--seconds", "rollout": "--games"}
FILES = st.sampled_from(["", "/", "\x00", "/nonexistent/file", "é" * 300, "/dev/null"])


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    options, positional = OPTIONS[command]
    argv = [command]
    if positional:
        argv.append(draw(POSITIONS))
    if command == "mat":
        argv.append(draw(FILES))
    if command in ALWAYS:
        argv += [ALWAYS[command], draw(st.sampled_from(NEVER_VALID + (["1", "12"] if command == "rollout" else [])))]
    free = [o for o in options if o != ALWAYS.get(command)]
    for option in draw(st.lists(st.sampled_from(free), max_size=3)) if free else []:
        value = draw(FILES) if option == "--svg" else draw(st.one_of(st.sampled_from(ABSURD), POSITIONS))
        argv += [option, value]
    if draw(st.booleans()):
        argv.append(draw(st.one_of(st.sampled_from(ABSURD), POSITIONS)))
    return argv


@settings(max_examples=150, deadline=None)
@given(command_lines())
def test_random_absurd_command_lines_never_print_a_traceback(argv: list[str]) -> None:
    code, _, err, seconds = run_cli(argv)
    assert code in (0, 1, 2), (argv, code, err)
    check_messages(code, err)
    assert seconds < 10, f"{argv} took {seconds:.2f} s"


def test_an_argument_with_a_newline_is_quoted_on_the_error_line() -> None:
    """argparse prints unrecognised arguments as they are: a newline in one split
    the error line (found by the hypothesis test above)."""
    code, _, err, _ = run_cli(["mat", "", "\n", "\x1e"])
    assert code == 2
    check_messages(code, err)
    assert err.rstrip("\n").endswith(": error: unrecognized arguments: \\n \\x1e"), err
