"""The command line: every subcommand through ``main([...])``, its errors and
exit codes (0 done, 1 invalid input, 2 a malformed command line), and the
``bgcore`` console script once in a subprocess."""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import matplay
from bgcore import Match, Position
from bgcore.cli import main
from bgcore.cli.inputs import rank_moves, read_position
from bgcore.cli.play import Session

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
# 2-4 (X-O) in a 7-point match, X owns a 2-cube and rolled 5-2
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:7:10"
START_ARRAY = "0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0"
CLOSED_OUT = "u5sDAgK3OwcAQA"  # a closed board with a checker on the bar: 4-1 has no play

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    """(exit code, stdout, stderr) of ``main(argv)``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_error(result: Run, code: int, message: str) -> None:
    """The command failed with ``code`` and ``message`` on stderr, no traceback, nothing on stdout."""
    got, out, err = result
    assert got == code, (out, err)
    assert message in err, err
    assert "Traceback" not in err and out == ""


# --- show --------------------------------------------------------------------------------


def test_show_a_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", START)
    assert code == 0
    assert out.startswith(str(Position.initial()) + "\n")
    assert out.splitlines()[-1] == START_XGID


def test_show_an_xgid_gives_the_dice_cube_and_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", MATCH_XGID)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"Position ID: {START}   X on roll"
    assert lines[-5:] == [
        "X to play 5-2",
        "Cube: 2, owned by X",
        "Score: X 2, O 4 in a 7-point match",
        "gnubg ID: 4HPwATDgc/ABMA:UYnqAEAAEAAE",
        MATCH_XGID,
    ]


def test_show_a_gnubg_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "4HPwATDgc/ABMA:cIkKAAAAAAAA")
    assert code == 0
    assert "X to play 5-2\nCube: 1, centred\nMoney game (Jacoby rule)\n" in out
    # a double waiting for an answer, from an XGID
    code, out, _ = run(capsys, "show", MATCH_XGID.replace(":52:", ":D:"))
    assert code == 0 and "X doubles to 4: O to take or drop" in out


def test_show_writes_the_svg_picture(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from bgcore import Game, svg

    target = tmp_path / "board.svg"
    code, out, _ = run(capsys, "show", MATCH_XGID, "--svg", str(target))
    assert code == 0 and out.endswith(f"SVG written to {target}\n")
    assert target.read_text(encoding="utf-8") == svg.board(Game.from_xgid(MATCH_XGID))
    code, _, _ = run(capsys, "show", START, "--svg", str(target))
    assert code == 0 and target.read_text(encoding="utf-8") == svg.board(Position.initial())
    assert_error(run(capsys, "show", START, "--svg", str(tmp_path / "no" / "such.svg")), 1, "No such file")


def test_show_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert_error(run(capsys, "show", "nonsense"), 1, "'nonsense' is not a Position ID (14 characters)")
    assert_error(run(capsys, "show", "4HPwATDgc/AB!A"), 1, "a Position ID is 14 characters of A-Z a-z 0-9 + /")
    assert_error(run(capsys, "show", "XGID=-b----E-C:0:0:1:00:0:0:0:0:10"), 1, "an XGID's first field is 26")
    assert_error(run(capsys, "show", f"{START}:nonsense"), 1, "python -m bgcore show: error: ")
    assert_error(run(capsys, "show", "1,2,3"), 1, "an array has 26 counts (slots 0-25), not 3")
    assert_error(run(capsys, "show", "a:b:c"), 1, "an XGID has 9, a gnubg ID (PositionID:MatchID) one")
    assert_error(run(capsys, "show"), 2, "the following arguments are required: ID")
    assert_error(run(capsys, "show", START, "--color"), 2, "unrecognized arguments: --color")


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    commands = ["show", "moves", "convert", "perft", "bench", "rollout", "play", "mat", "demo"]
    assert code == 0 and all(re.search(rf"^    {c} ", out, re.MULTILINE) for c in commands)
    for command in commands:
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and out.startswith(f"usage: python -m bgcore {command} ")
    assert_error(run(capsys), 2, "the following arguments are required: COMMAND")
    assert_error(run(capsys, "shoe"), 2, "invalid choice: 'shoe'")


# --- moves -------------------------------------------------------------------------------


def test_moves_lists_every_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", START, "31")
    expected = [str(m) for m in Position.initial().legal_moves((3, 1))]
    assert code == 0 and out.splitlines() == ["3-1: 16 legal plays", *expected]
    for dice in (["3-1"], ["3", "1"], ["3 1"], ["13"], ["1,3"]):
        assert run(capsys, "moves", START, *dice)[1] == out


def test_moves_ranked_by_a_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", START, "31", "--policy", "pubeval")
    assert code == 0 and out.startswith("3-1: 16 legal plays, best first by pubeval\n")
    rows = re.findall(r"^│\s+(\d+) │ (\S.*?)\s+│\s+(-?\d+\.\d{3}) │$", out, re.MULTILINE)
    assert [r[0] for r in rows] == [str(i) for i in range(1, 17)]
    assert rows[0][1] == "8/5 6/5"  # pubeval's classic opening 3-1
    scores = [float(r[2]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    # race and random; random is a seeded shuffle without scores
    code, out, _ = run(capsys, "moves", START, "65", "--policy", "race")
    assert code == 0 and "best first by race" in out and "race score" in out
    code, out, _ = run(capsys, "moves", START, "65", "--policy", "random", "--seed", "3")
    assert code == 0 and "in a random order (seed 3)" in out and "score" not in out
    assert run(capsys, "moves", START, "65", "--policy", "random", "--seed", "3")[1] == out
    plays = re.findall(r"^│ \d │ (\S.*?)\s+│$", out, re.MULTILINE)
    assert sorted(plays) == sorted(str(m) for m in Position.initial().legal_moves((6, 5)))


def test_rank_moves_agrees_with_the_engine() -> None:
    pos = Position.from_xgid(MATCH_XGID)
    ranked = rank_moves(pos, (5, 2), "pubeval")
    assert len(ranked) == len(pos.legal_moves((5, 2)))
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)  # type: ignore[type-var]


def test_moves_takes_the_dice_of_an_xgid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", MATCH_XGID)
    assert code == 0 and out.startswith("5-2: 8 legal plays\n")
    assert run(capsys, "moves", MATCH_XGID, "6", "6")[1].startswith("6-6: ")


def test_moves_of_a_lost_turn_and_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "moves", CLOSED_OUT, "41")[1] == "4-1: no legal play, the turn is lost\n"
    assert run(capsys, "moves", CLOSED_OUT, "41", "--policy", "pubeval")[1] == "4-1: no legal play, the turn is lost\n"
    last = "0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0"
    assert run(capsys, "moves", last, "61")[1] == "6-1: 1 legal play\n6/off\n"


def test_moves_errors(capsys: pytest.CaptureFixture[str]) -> None:
    message = "dice are two digits 1-6 such as 31, 3-1 or '3 1'"
    assert_error(run(capsys, "moves", START, "71"), 2, f"{message}, not '71'")
    assert_error(run(capsys, "moves", START, "3", "1", "2"), 2, f"{message}, not '3 1 2'")
    assert_error(run(capsys, "moves", START, "three"), 2, message)
    assert_error(run(capsys, "moves", START), 2, "DICE is missing (the position has no dice rolled)")
    assert_error(run(capsys, "moves", "XYZ", "31"), 1, "'XYZ' is not a Position ID")
    assert_error(run(capsys, "moves", START, "31", "--policy", "gnubg"), 2, "invalid choice: 'gnubg'")


# --- convert -----------------------------------------------------------------------------


def test_convert_between_every_form(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "convert", START)
    assert code == 0
    assert out.splitlines() == [
        f"Position ID: {START}",
        START_XGID,
        "gnubg ID: 4HPwATDgc/ABMA:MAEAAAAAAAAA",
        f"array: {START_ARRAY}",
    ]
    for text in (START, START_XGID, START_ARRAY, f"[{START_ARRAY}]", "4HPwATDgc/ABMA:cAkAAAAAAAAA"):
        assert run(capsys, "convert", text, "--to", "id")[1] == f"{START}\n"
        assert run(capsys, "convert", text, "--to", "array")[1] == f"{START_ARRAY}\n"
    # an XGID keeps its cube, score and dice; its gnubg ID says the same
    assert run(capsys, "convert", MATCH_XGID, "--to", "xgid")[1] == f"{MATCH_XGID}\n"
    gnubg = run(capsys, "convert", MATCH_XGID, "--to", "gnubg")[1].strip()
    assert run(capsys, "convert", gnubg, "--to", "xgid")[1] == f"{MATCH_XGID}\n"


def test_convert_arguments_that_start_with_a_minus(capsys: pytest.CaptureFixture[str]) -> None:
    # an XGID without its prefix, and an array whose first count (the opponent's bar) is negative
    assert run(capsys, "convert", START_XGID[5:], "--to", "id")[1] == f"{START}\n"
    board = list(Position.initial().board)
    board[0], board[1] = -1, -1
    array = ",".join(map(str, board))
    code, out, _ = run(capsys, "convert", array, "--to", "id")
    assert code == 0 and Position.from_position_id(out.strip()).board == tuple(board)


def test_convert_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert_error(run(capsys, "convert", START, "--to", "svg"), 2, "invalid choice: 'svg'")
    assert_error(run(capsys, "convert", "1,2,x"), 1, "an array is 26 comma-separated whole numbers")
    too_many = START_ARRAY.replace("0,-2", "0,-3", 1)
    assert_error(run(capsys, "convert", too_many), 1, "python -m bgcore convert: error: ")


def test_read_position_kinds() -> None:
    assert [read_position(t).kind for t in (START, START_XGID, START_ARRAY, f"{START}:cAkAAAAAAAAA")] == [
        "Position ID",
        "XGID",
        "array",
        "gnubg ID",
    ]


# --- perft ---------------------------------------------------------------------------------


def test_perft_from_an_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", CLOSED_OUT, "--depth", "2", "--threads", "1")
    assert code == 0 and out.startswith(f"perft from Position ID {CLOSED_OUT} (1 thread(s))")
    assert "| 1 | 33 | 57 |" in out
    code, out, _ = run(capsys, "perft", "--depth", "1", "--variant", "hypergammon", "--threads", "1")
    assert code == 0 and "the hypergammon starting position" in out
    assert_error(run(capsys, "perft", "--depth", "9"), 2, "--depth takes 1 to 6, not 9")
    assert_error(run(capsys, "perft", "--depth", "two"), 2, "argument --depth: invalid int value: 'two'")
    assert_error(run(capsys, "perft", "bad", "--depth", "1"), 1, "'bad' is not a Position ID")


# --- demo ----------------------------------------------------------------------------------


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--dice", "6-5", "--seconds", "0")
    assert code == 0 and "6-5: 7 legal moves" in out and " move generations/s (" in out
    assert_error(run(capsys, "demo", "--dice", "0"), 2, "--dice: dice are two digits 1-6")


# --- the console script ------------------------------------------------------------------------


def _console_script() -> str | None:
    here = Path(sys.executable).parent
    return shutil.which("bgcore", path=os.pathsep.join([str(here), os.environ.get("PATH", "")]))


def test_the_console_script() -> None:
    script = _console_script()
    if script is None:
        pytest.skip("the bgcore console script is not installed (pip install -e .)")
    proc = subprocess.run([script, "moves", START, "6-5"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.splitlines()[0] == "6-5: 7 legal plays"
    proc = subprocess.run([script, "show", "nonsense"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and proc.stdout == ""
    assert (
        proc.stderr.startswith("bgcore show: error: 'nonsense' is not a Position ID") and "Traceback" not in proc.stderr
    )
    proc = subprocess.run([script, "moves", START, "77"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("usage: bgcore moves ")
    proc = subprocess.run([sys.executable, "-m", "bgcore", "--version"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("bgcore ")


# --- bench, rollout ------------------------------------------------------------------------


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--seconds", "0.05", "--threads", "2")
    assert code == 0 and "One timing of each workload (about 0.05 s), from this run only." in out
    rows = re.findall(r"^│ (\S.*?)\s+│\s+(\d) │\s+([\d,]+|-) │\s+([\d,]+|-) │\s+([\d,]+|-) │", out, re.MULTILINE)
    assert [(r[0], r[1]) for r in rows] == [
        ("batch.generate", "1"),
        ("batch.generate", "2"),
        ("batch.count", "1"),
        ("batch.count", "2"),
        ("Position.legal_moves", "1"),
        ("rollout, pubeval", "1"),
        ("rollout, pubeval", "2"),
    ]
    assert_error(run(capsys, "bench", "--seconds", "0"), 2, "--seconds takes 0.05 to 60, not 0.0")


def test_rollout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rollout", START, "--games", "1296", "--seed", "5")
    assert code == 0
    assert out.startswith(f"Rollout of {START}, pubeval for both sides, seed 5\n1,296 games on 1 thread in ")
    rows = {name: (est, se) for name, est, se in re.findall(r"^│ (\S.*?)\s+│\s+(\S+) │\s+(\S+) │$", out, re.MULTILINE)}
    assert "┃ outcome (player on roll) ┃ estimate ┃ std. error ┃" in out
    assert list(rows) == [
        "win",
        "win gammon",
        "win backgammon",
        "lose gammon",
        "lose backgammon",
        "cubeless equity (money)",
    ]
    win, win_se = (float(v.rstrip("%")) for v in rows["win"])
    assert 40 < win < 65 and 0 < win_se < 3
    # the same seed, the same numbers, whatever the threads
    again = run(capsys, "rollout", START, "--games", "1296", "--seed", "5", "--threads", "2")[1]
    assert again.splitlines()[2:] == out.splitlines()[2:]


def test_rollout_at_a_match_score_gives_the_mwc(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rollout", MATCH_XGID.replace(":52:", ":00:"), "--games", "1296", "--policy", "race")
    assert code == 0 and re.search(r"^│ match winning chance\s+│\s+\d+\.\d\d% │\s+\d+\.\d\d% │$", out, re.MULTILINE)


#: Player 0 on roll, 114 pips to 133, near the doubling point (docs/guides/cube.md), in a money game.
CONTACT = "LR7hAQOMrw+CAA"


def cube_rows(out: str) -> dict[str, tuple[str, ...]]:
    """A cube table's rows: the action and its value, standard error and 95% interval."""
    pattern = r"^│ (no double|double/take|double/pass|double/take gain)\s+│\s+(\S+) │\s+(\S+) │\s+(.+?) │$"
    return {name: tuple(rest) for name, *rest in re.findall(pattern, out, re.MULTILINE)}


def test_rollout_of_the_cube_decision(capsys: pytest.CaptureFixture[str]) -> None:
    from bgcore import nets, rollout

    code, out, _ = run(capsys, "rollout", CONTACT, "--cube", "--games", "648", "--seed", "5")
    assert code == 0
    assert out.startswith(f"Cubeful rollout of {CONTACT}, wildbg for both sides, seed 5\n648 games on 1 thread in ")
    assert re.search(r"┃ cube action\s+┃ equity \(per cube\) ┃ std. error ┃", out)
    expected = rollout(read_position(CONTACT).position, cube=True, games=648, seed=5, policy=nets.wildbg())
    assert expected.double_take is not None and expected.double_take_stderr is not None
    rows = cube_rows(out)
    assert rows["no double"][:2] == (f"{expected.no_double:+.4f}", f"{expected.no_double_stderr:.4f}")
    assert rows["double/take"][:2] == (f"{expected.double_take:+.4f}", f"{expected.double_take_stderr:.4f}")
    lo, hi = (float(v) for v in rows["double/take"][2].split(" to "))
    assert lo < expected.double_take < hi
    assert math.isclose(hi - lo, 2 * 1.96 * expected.double_take_stderr, abs_tol=2e-4)
    assert rows["double/pass"] == ("+1.0000", "-", "-")
    assert expected.take_gain_stderr is not None
    gain = (f"{expected.double_take - expected.no_double:+.4f}", f"{expected.take_gain_stderr:.4f}")
    assert rows["double/take gain"][:2] == gain
    assert expected.take_gain_stderr < expected.double_take_stderr  # the same dice
    assert out.splitlines()[-1] == f"Proper cube action: {expected.action.text}"
    # the same seed, the same numbers, whatever the threads
    again = run(capsys, "rollout", CONTACT, "--cube", "--games", "648", "--seed", "5", "--threads", "2")[1]
    assert again.splitlines()[2:] == out.splitlines()[2:]


def test_rollout_of_the_cube_at_a_match_score_gives_mwcs(capsys: pytest.CaptureFixture[str]) -> None:
    from bgcore import nets, rollout

    xgid = MATCH_XGID.replace(":1:1:1:52:", ":0:0:1:00:")  # 2-4 in 7, the cube centred, before the roll
    code, out, _ = run(capsys, "rollout", xgid, "--cube", "--games", "324", "--seed", "3")
    assert code == 0 and re.search(r"┃ cube action\s+┃ match winning chance ┃", out)
    game = read_position(xgid).game
    assert game is not None
    expected = rollout(game, cube=True, games=324, seed=3, policy=nets.wildbg())
    rows = cube_rows(out)
    assert rows["no double"][0] == f"{100 * expected.no_double:.2f}%"
    assert rows["double/pass"][0] == f"{100 * expected.double_pass:.2f}%"


def test_rollout_of_a_cube_nobody_can_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """The opponent owns the cube: only no double is rolled out."""
    code, out, _ = run(capsys, "rollout", START_XGID.replace(":0:0:1:", ":1:-1:1:"), "--cube", "--games", "36")
    assert code == 0 and list(cube_rows(out)) == ["no double"]
    assert out.splitlines()[-1] == "Proper cube action: Cube not available"


def test_rollout_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert_error(run(capsys, "rollout", START, "--cube", "--policy", "pubeval"), 1, "needs an evaluator")
    assert_error(run(capsys, "rollout", MATCH_XGID), 1, "the XGID is past the start of the turn")
    assert_error(run(capsys, "rollout", START, "--games", "0"), 2, "--games takes 1 to 2**63 - 1, not 0")
    assert_error(run(capsys, "rollout", START, "--threads", "0"), 2, "--threads takes 1 to 64, not 0")
    assert_error(run(capsys, "rollout", START, "--policy", "best"), 2, "invalid choice: 'best'")
    assert_error(run(capsys, "rollout", "0" * 14), 1, "error: ")


# --- mat ---------------------------------------------------------------------------------


def test_mat_prints_each_game_and_the_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "scripted.mat"
    path.write_text(matplay.scripted().to_mat(("Alice", "Bob")))
    code, out, _ = run(capsys, "mat", str(path))
    assert code == 0
    assert out.startswith("scripted.mat: 3-point match, Alice vs Bob, 4 games\n")
    rows = re.findall(r"^│\s+(\d) │\s+(.+?)\s+│ (\w+)\s+│\s+(\d) │\s+(\d) │ (.+?)\s+│$", out, re.MULTILINE)
    assert rows == [
        ("1", "0-0", "Bob", "2", "2", "double dropped"),
        ("2", "0-2 (Crawford)", "Alice", "1", "1", "resigned: single game"),
        ("3", "1-2", "Alice", "1", "1", "double dropped"),
        ("4", "2-2", "Bob", "1", "1", "resigned: single game"),
    ]
    assert out.endswith("Final score: Alice 2, Bob 3: Bob wins the match.\n")


def test_mat_of_an_unfinished_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    match = Match(5, dice=2)
    match.game.roll((3, 1))
    match.game.play("8/5 6/5")
    path = tmp_path / "unfinished.mat"
    path.write_text(match.to_mat(("Ann", "Ben")))
    code, out, _ = run(capsys, "mat", str(path))
    assert code == 0 and "not finished" in out
    assert out.endswith("Score: Ann 0, Ben 0: the match is not over.\n")


def test_mat_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.mat"
    assert_error(run(capsys, "mat", str(missing)), 1, f"cannot read {missing}: No such file or directory")
    bad = tmp_path / "bad.mat"
    bad.write_text(matplay.scripted().to_mat(("Alice", "Bob")).replace("24/18 13/9", "24/18 13/8"))
    assert_error(
        run(capsys, "mat", "--strict", str(bad)), 1, f"{bad}: game 1, move 2, line 7: '24/18 13/8' is not a legal move"
    )
    junk = tmp_path / "junk.mat"
    junk.write_text("hello\n")
    assert_error(run(capsys, "mat", str(junk)), 1, "no ' N point match' line")
    assert_error(run(capsys, "mat"), 2, "the following arguments are required: FILE")


def test_mat_reads_an_illegal_play_as_gnubg_does_and_warns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(matplay.scripted().to_mat(("Alice", "Bob")).replace("24/18 13/9", "24/18 13/8"))
    code, out, err = run(capsys, "mat", str(bad))
    assert (code, err) == (0, "")
    assert "warning: game 1, move 2, line 7: " in out and "played as 24/18 13/8, as gnubg does" in out


# --- play ----------------------------------------------------------------------------------


def play_session(seed: int, length: int, *, double: bool = False, undo: bool = False) -> tuple[int, list[str], str]:
    """A whole game (or match) of ``bgcore play``: the player answers every
    prompt with the pubeval-best move, Enter to roll (or ``double``), ``take``;
    returns the exit code, the prompts and the output."""
    prompts: list[str] = []
    moves: list[str] = []
    session: Session

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        game = session.match.game
        if prompt.startswith("You rolled"):
            if undo and len(moves) == 3:
                moves.append("undo")
                return "undo"
            moves.append(prompt)
            assert game.dice is not None
            return str(rank_moves(game.position, game.dice, "pubeval")[0][0])
        if prompt.startswith("Your turn"):
            return "double" if double else ""
        if prompt.startswith("The computer doubles"):
            return "take"
        assert prompt.startswith("Press Enter for game")
        return ""

    session = Session("pubeval", seed, length, ask=ask)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = session.run()
    return code, prompts, out.getvalue()


def test_play_a_whole_money_game() -> None:
    code, prompts, out = play_session(4, 0)
    assert code == 0
    assert any(p.startswith("The computer doubles to 2.") for p in prompts)  # and the player took
    assert "You take: the cube is at 2, on your side." in out
    assert re.search(r"^Game over: (you win|the computer wins) \d+ points? \(.+\)\.$", out, re.MULTILINE)
    assert out.count("Position ID: ") == len(prompts) + 1  # the board before every prompt, and at the end


def test_play_undo_and_the_same_game_again() -> None:
    plain = play_session(1, 0)
    with_undo = play_session(1, 0, undo=True)
    assert "Undone: your move" in with_undo[2]
    # undo rewinds the dice: playing the same move again gives the same game
    assert re.findall(r"^Game over: .*$", plain[2], re.MULTILINE) == re.findall(
        r"^Game over: .*$", with_undo[2], re.MULTILINE
    )


@pytest.mark.slow
def test_play_a_whole_match_with_doubles() -> None:
    code, prompts, out = play_session(2, 3, double=True)
    assert code == 0
    assert "You double to 2." in out
    assert re.search(r"^The computer (takes: the cube is at 2, on its side|drops)\.$", out, re.MULTILINE)
    assert re.search(r"^Match over: (you win|the computer wins) the 3-point match, \d-\d\.$", out, re.MULTILINE)
    assert "No cube: Crawford game" in out or "Press Enter for game 2" in "".join(prompts)


def test_play_commands(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nfoo\ndouble\n8/5 6/5\nundo\n\nquit\n"))
    code, out, err = run(capsys, "play", "--seed", "1")
    assert code == 0 and err == ""
    assert "Opening roll: you 6, the computer 4: you play 6-4." in out
    assert "bgcore play: you (X) against wildbg (O), seed 1, game 1" in out  # the default opponent
    assert "Best moves by wildbg (0-ply, the cube counted):" in out
    assert re.search(r"^\s+1\s+24/14\s+-\d\.\d{3}\s*$", out, re.MULTILINE)
    assert "cannot read 'foo'" in out
    assert "You have rolled 6-4: type a move such as" in out
    assert "'8/5 6/5' is not a legal move with 6-4\n" in out  # without the position's repr
    assert "Nothing to undo in this game." in out
    assert "Type a move such as" in out
    assert out.endswith("You quit.\n")


def test_play_opponent_pubeval_hints_by_pubeval(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint\nquit\n"))
    code, out, _ = run(capsys, "play", "--seed", "1", "--opponent", "pubeval")
    assert code == 0 and "bgcore play: you (X) against pubeval (O), seed 1, game 1" in out
    assert "Best moves by pubeval:" in out and re.search(r"^\s+1\s+24/14\s+\d+\.\d{3}\s*$", out, re.MULTILINE)


def test_play_when_the_computer_wins_the_opening(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", "--seed", "0", "--policy", "race")
    assert code == 0 and "bgcore play: you (X) against race (O), seed 0, game 1" in out
    assert re.search(
        r"^Opening roll: you 3, the computer 5: the computer plays 5-3\.\nThe computer played \S", out, re.M
    )


def test_play_ends_at_the_end_of_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "--seed", "1", "--match", "3")
    assert code == 0 and "Score: you 0, the computer 0 (3-point match)." in out and out.endswith("You quit.\n")


def test_play_interrupted(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    assert_error_code, _, err = run(capsys, "play", "--seed", "1")
    assert assert_error_code == 130 and "python -m bgcore play: interrupted" in err and "Traceback" not in err


def test_play_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert_error(run(capsys, "play", "--match", "0"), 2, "--match takes 1 to 64 points, not 0")
    assert_error(run(capsys, "play", "--seed", "-1"), 2, "--seed takes 0 to 2**64 - 1, not -1")
    assert_error(run(capsys, "play", "--policy", "gnubg"), 2, "invalid choice: 'gnubg'")


# --- the documentation's command-line page ---------------------------------------------------

CLI_TOUR = Path(__file__).resolve().parent.parent / "docs" / "guides" / "cli-tour.md"
# the subcommands whose output does not depend on the machine or the time
REPRODUCIBLE = {"show", "moves", "convert", "mat"}


def page_examples() -> list[tuple[str, str]]:
    """(command, output) of each ``$ bgcore ...`` line of the CLI page's console blocks."""
    examples = []
    for block in re.findall(r"^```console\n(.*?)^```$", CLI_TOUR.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL):
        for part in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if part.startswith("$ bgcore "):
                command, _, output = part.partition("\n")
                examples.append((command[2:], output))
    return examples


def page_match(path: Path) -> None:
    """The CLI page's match.mat: two games of a 3-point match."""
    match = Match(3, dice=5)
    game = match.game
    game.roll((5, 2))
    game.play("13/11 13/8")
    game.roll((6, 4))
    game.play("24/18 13/9")
    game.double()
    game.drop()
    game = match.new_game()
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.roll((6, 6))
    game.play("24/18(2) 13/7(2)")
    game.resign("gammon")
    game.accept()
    path.write_text(match.to_mat(("Ann", "Ben")))


def test_the_cli_page_shows_what_the_commands_print(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page_match(tmp_path / "match.mat")
    monkeypatch.chdir(tmp_path)
    examples = page_examples()
    assert {c.split()[1] for c, _ in examples} >= {*REPRODUCIBLE, "perft", "rollout", "bench", "play"}
    checked = 0
    for command, output in examples:
        words = shlex.split(command.split(" | ")[0])
        if words[1] not in REPRODUCIBLE:
            continue
        code, out, _ = run(capsys, *words[1:])
        if " | head -" in command:
            out = "".join(out.splitlines(keepends=True)[: int(command.rsplit("-", 1)[1])])
        assert (code, out) == (0, output), command
        checked += 1
    assert checked >= 6


def test_show_a_pending_beaver(capsys: pytest.CaptureFixture[str]) -> None:
    """gnubg's ID after O beavers X's double: X, on roll, takes or drops."""
    code, out, _ = run(capsys, "show", "sGfwATDgc/ABMA:QRkAAAAAAAAE")
    assert code == 0
    assert out.splitlines()[-4:] == [
        "O beavers (the cube at 2): X to take, the cube to 4, or drop",
        "Cube: 2, owned by O",
        "Money game (beavers)",
        "gnubg ID: sGfwATDgc/ABMA:QRkAAAAAAAAE",
    ]


# --- networks as policies ----------------------------------------------------------------


def tiny_network_file(folder: Path) -> Path:
    """A 198-8-5 network with random weights, saved where the command line reads it."""
    import numpy as np

    from bgcore import nn

    rng = np.random.default_rng(3)
    layers = [(rng.normal(0, 0.3, (198, 8)), rng.normal(0, 0.3, 8)), (rng.normal(0, 0.3, (8, 5)), np.zeros(5))]
    path = folder / "tiny.npz"
    nn.Network(layers, ["sigmoid"], encoding="tesauro198", output="sigmoid").save(path)
    return path


def test_moves_ranked_by_wildbg_and_by_a_network_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "moves", START, "31", "--policy", "wildbg")
    assert code == 0 and out.startswith("3-1: 16 legal plays, best first by wildbg\n") and "wildbg equity" in out
    rows = re.findall(r"^│\s+(\d+) │ (\S.*?)\s+│\s+(-?\d+\.\d{3}) │$", out, re.MULTILINE)
    assert rows[0][1] == "8/5 6/5" and len(rows) == 16
    equities = [float(r[2]) for r in rows]
    assert equities == sorted(equities, reverse=True) and -1 < equities[-1] < equities[0] < 1
    path = str(tiny_network_file(tmp_path))
    code, out, _ = run(capsys, "moves", START, "65", "--policy", path)
    assert code == 0 and "best first by tiny.npz" in out and "tiny.npz equity" in out


def test_rollout_with_wildbg_and_a_network_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bgcore import nn, rollout

    code, out, _ = run(capsys, "rollout", START, "--games", "100", "--policy", "wildbg", "--seed", "2")
    assert code == 0 and "wildbg for both sides, seed 2" in out
    path = tiny_network_file(tmp_path)
    code, out, _ = run(capsys, "rollout", START, "--games", "300", "--policy", str(path), "--seed", "2")
    assert code == 0 and "tiny.npz for both sides" in out
    expected = rollout(Position.initial(), games=300, policy=nn.Network.load(path), seed=2)
    assert re.search(rf"cubeless equity \(money\)\s+│\s+{expected.equity:+.4f} │", out)


def test_network_policy_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_error(run(capsys, "rollout", START, "--policy", str(tmp_path / "none.npz")), 1, "none.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    assert_error(run(capsys, "moves", START, "31", "--policy", str(tmp_path / "bad.npz")), 1, "error: ")
    assert_error(run(capsys, "rollout", START, "--policy", "gnubg"), 2, "or a network's .npz file")
    assert_error(run(capsys, "play", "--variant", "acey-deucey", "--policy", "wildbg"), 2, "random or race policy")


def test_play_against_wildbg(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", "--seed", "0", "--policy", "wildbg")
    assert code == 0 and "bgcore play: you (X) against wildbg (O), seed 0, game 1" in out
    # the computer's opening 5-3 is wildbg's best
    best = rank_moves(Position.initial(), (5, 3), "wildbg")[0][0]
    assert f"the computer plays 5-3.\nThe computer played {best}" in out


# --- moves --rank ---------------------------------------------------------------------------

# A row of ``moves --rank``: number, play, the five chances, the equity.
RANK_ROW = re.compile(r"^│\s+(\d+) │ (\S.*?)\s+│" + r"\s+(\d\.\d{3}) │" * 5 + r"\s+([+-]\d\.\d{3}) │$", re.MULTILINE)
# Rolls for positions of play: doubles, hits.
ROLLS_SEEN = [(6, 6), (4, 1), (5, 3), (2, 2), (6, 2)]


def ranked_by_hand(
    position: Position, dice: tuple[int, int], evaluator: object
) -> list[tuple[str, list[float], float]]:
    """Each play with the mover's chances and cubeless equity after it, from the
    Position API and the evaluator alone, best first: the opponent's chances on
    roll after the play, turned round."""
    plays = []
    for move in position.legal_moves(dice):
        w, wg, wbg, lg, lbg = (float(x) for x in evaluator.evaluate(position.play(move)))  # type: ignore[attr-defined]
        mine = [1 - w, lg, lbg, wg, wbg]
        plays.append((str(move), mine, 2 * mine[0] - 1 + mine[1] - mine[3] + mine[2] - mine[4]))
    return sorted(plays, key=lambda play: -play[2])


def assert_ranked(out: str, expected: list[tuple[str, list[float], float]]) -> None:
    """The table of ``moves --rank`` gives the plays of ``expected`` in its order, with its figures."""
    rows = RANK_ROW.findall(out)
    assert [(int(r[0]), r[1]) for r in rows] == [(i, play) for i, (play, _, _) in enumerate(expected, 1)], out
    for row, (_, chances, equity) in zip(rows, expected, strict=True):
        # the table rounds to 3 decimals
        assert [float(x) for x in row[2:]] == pytest.approx([*chances, equity], abs=5.1e-4)


def test_moves_rank_gives_each_plays_chances_and_equity(capsys: pytest.CaptureFixture[str]) -> None:
    from bgcore import nets
    from bgcore.selfplay import selfplay_positions

    wildbg = nets.wildbg()
    code, out, _ = run(capsys, "moves", START, "31", "--rank")
    assert code == 0 and out.startswith("3-1: 16 legal plays, best first by wildbg\n")
    assert out.endswith("equity: cubeless\n") and "the mover's chances" in out
    assert_ranked(out, ranked_by_hand(Position.initial(), (3, 1), wildbg))
    assert RANK_ROW.findall(out)[0][1] == "8/5 6/5"
    # the XGID's own dice; positions of play, with hits and gammons; a game won by the play
    code, out, _ = run(capsys, "moves", MATCH_XGID, "--rank", "--policy", "wildbg")
    assert code == 0 and out.startswith("5-2: 8 legal plays, best first by wildbg\n")
    assert_ranked(out, ranked_by_hand(Position.from_xgid(MATCH_XGID), (5, 2), wildbg))
    for position, dice in zip(selfplay_positions(60, seed=7, policy="heuristic")[20::10], ROLLS_SEEN, strict=False):
        code, out, _ = run(capsys, "moves", position.position_id(), f"{dice[0]}{dice[1]}", "--rank")
        assert code == 0
        assert_ranked(out, ranked_by_hand(position, dice, wildbg))
    # 6/off wins a gammon: the opponent's 15 checkers are home, none off
    last = "0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0"
    code, out, _ = run(capsys, "moves", last, "61", "--rank")
    assert code == 0 and RANK_ROW.findall(out) == [
        ("1", "6/off", "1.000", "1.000", "0.000", "0.000", "0.000", "+2.000")
    ]


def test_moves_rank_by_a_network_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bgcore import nn

    path = tiny_network_file(tmp_path)
    code, out, _ = run(capsys, "moves", START, "65", "--rank", "--policy", str(path))
    assert code == 0 and out.startswith("6-5: 7 legal plays, best first by tiny.npz\n")
    assert_ranked(out, ranked_by_hand(Position.initial(), (6, 5), nn.Network.load(path)))


def test_rank_plays_agrees_with_the_engine_and_refuses_what_is_not_a_network() -> None:
    from bgcore.cli.inputs import rank_plays

    position = Position.from_xgid(MATCH_XGID)
    plays = rank_plays(position, (6, 4), "wildbg")
    ranked = rank_moves(position, (6, 4), "wildbg")
    assert [p.move for p in plays] == [m for m, _ in ranked] and [p.equity for p in plays] == [s for _, s in ranked]
    with pytest.raises(ValueError, match="plays are ranked by a network"):
        rank_plays(position, (6, 4), "pubeval")
    with pytest.raises(TypeError, match="rank_plays takes a network"):
        rank_plays(position, (6, 4), len)


def test_moves_rank_errors_and_no_play(capsys: pytest.CaptureFixture[str]) -> None:
    message = "--rank needs a network: --policy wildbg or a network's .npz file, not 'pubeval'"
    assert_error(run(capsys, "moves", START, "31", "--rank", "--policy", "pubeval"), 2, message)
    assert_error(run(capsys, "moves", START, "31", "--rank", "--policy", "random"), 2, "not 'random'")
    assert run(capsys, "moves", CLOSED_OUT, "41", "--rank")[1] == "4-1: no legal play, the turn is lost\n"
