"""``bgcore perft``: the default threads, the time estimates, the progress and Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import pytest

import bgcore.cli.perft as perft_cli
from bgcore import Position, perft
from bgcore.cli import build_parser, main


def test_the_default_threads_are_at_most_the_librarys_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 256)
    args = build_parser().parse_args(["perft"])
    assert args.threads == 64  # all 256 cores would be refused by the command's own check
    monkeypatch.setattr("os.cpu_count", lambda: None)
    assert build_parser().parse_args(["perft"]).threads == 1


def test_a_machine_with_many_cores_runs_perft_with_its_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 128)
    assert main(["perft", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "(64 thread(s))" in out and "| 2 | 202,782 | 419,783 |" in out


def test_estimates_grow_as_the_leaves_grew() -> None:
    leaves = [1, 447, 202_782]
    growth = 202_782 / 447
    assert perft_cli._estimates(0.5, leaves, 4) == [(3, 0.5 * growth), (4, 0.5 * growth * growth)]
    assert perft_cli._estimates(0.5, leaves, 2) == []


def test_durations_in_words() -> None:
    assert perft_cli._duration(0.5) == "under a second"
    assert perft_cli._duration(1) == "1 second"
    assert perft_cli._duration(59.6) == "60 seconds"
    assert perft_cli._duration(352) == "6 minutes"
    assert perft_cli._duration(3 * 86400) == "3.0 days"
    assert perft_cli._duration(2e6 * 86400) == "5,476 years"


def test_a_long_depth_is_announced_with_its_estimate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["perft", "--depth", "3", "--variant", "hypergammon", "--threads", "1"]) == 0
    assert capsys.readouterr().err == ""  # quick depths: nothing said
    monkeypatch.setattr(perft_cli, "WARN_SECONDS", 0.0)  # every depth "long"
    assert main(["perft", "--depth", "3", "--variant", "hypergammon", "--threads", "1"]) == 0
    out, err = capsys.readouterr()
    # said once, before depth 2, for every depth ahead, estimated from depth 1's time
    assert re.fullmatch(
        r"perft: depth 2 about .+, depth 3 about .+ \(estimated from depth 1's \d+\.\d\d s on 1 thread\); "
        r"Ctrl-C stops\n",
        err,
    ), err
    rows = re.findall(r"^\| (\d) \| ([\d,]+) \|", out, re.MULTILINE)
    hyper = Position.initial("hypergammon")
    assert rows == [(str(d), f"{perft(hyper, d):,}") for d in (1, 2, 3)]


@pytest.mark.parametrize("flag", ["--progress", "--no-progress"])
def test_progress_when_asked_and_not_otherwise(
    flag: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perft_cli, "BAR_SECONDS", 0.0)  # every depth deserves a bar
    assert main(["perft", "--depth", "3", "--variant", "hypergammon", "--threads", "2", flag]) == 0
    out, err = capsys.readouterr()
    assert len(re.findall(r"^\| \d \|", out, re.MULTILINE)) == 3  # the table is whole, on stdout
    if flag == "--no-progress":
        assert err == ""
    else:  # stderr is not a terminal here: the progress is a line at each tenth of the walk
        assert re.search(r"^perft 2: (\d+)/\1 first-ply positions in ", err, re.MULTILINE), err
        assert re.search(r"^perft 3: (\d+)/\1 first-ply positions in ", err, re.MULTILINE), err
        assert "perft 1" not in err


def test_ctrl_c_stops_a_deep_perft_without_a_bar() -> None:
    """Depth 4 takes minutes: SIGINT during it ends the command at once, exit 130, one line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgcore", "perft", "--depth", "4", "--threads", "2", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        while not (line := proc.stdout.readline()).startswith("| 3 |"):
            assert line, "perft ended before depth 3"
        time.sleep(0.5)  # well into depth 4
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and time.perf_counter() - sent < 10
    assert err.splitlines()[-1] == "python -m bgcore perft: interrupted" and "Traceback" not in err
