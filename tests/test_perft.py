"""Perft against GNU Backgammon's generator, and its edge cases."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

import oracle
from bgcore import Position, _acey, _perft, perft
from bgcore.acey import AceyDeuceyPosition
from bgcore.gametree import perft_counts
from bgcore.rules import ROLLS
from refused import refused

POSITIONS = {
    "standard": Position.initial(),
    "nackgammon": Position.initial("nackgammon"),
    "hypergammon": Position.initial("hypergammon"),
    "bear-off": Position.from_position_id("2+4OAAAA7PYAAA"),
    "bar": Position.from_position_id("sHPwATDgc/ABMA").flip(),
}


def python_perft(pos: Position, depth: int, children, count=None) -> tuple[int, int]:
    """(unweighted, weighted) perft through ``children(position, dice) -> positions``;
    ``count(position, dice)``, when given, says how many there are at the last ply
    without building them (most of the tree's nodes are leaves)."""
    if depth == 0 or pos.is_game_over():
        return 1, 1
    plain = weighted = 0
    for dice in ROLLS:
        w = 1 if dice[0] == dice[1] else 2
        if depth == 1:
            n = len(children(pos, dice)) if count is None else count(pos, dice)
            sub = (n, n)
        else:
            kids = children(pos, dice)
            parts = [python_perft(k, depth - 1, children, count) for k in kids]
            sub = (sum(p for p, _ in parts), sum(q for _, q in parts))
        plain += sub[0]
        weighted += w * sub[1]
    return plain, weighted


def gnubg_children(pos: Position, dice: tuple[int, int]) -> list[Position]:
    moves = oracle.generate_moves(pos.board, *dice)
    if not moves:
        return [pos.flip()]
    return [Position.from_position_id(m.position_id, checkers=pos.checkers).flip() for m in moves]


def gnubg_count(pos: Position, dice: tuple[int, int]) -> int:
    """``len(gnubg_children(pos, dice))``: a lost turn is one result, the position itself."""
    return oracle.count_moves(pos.board, *dice) or 1


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_matches_gnubg(name: str) -> None:
    oracle.require()
    pos = POSITIONS[name]
    for depth in (1, 2):
        expected = python_perft(pos, depth, gnubg_children, gnubg_count)
        assert (perft(pos, depth), perft(pos, depth, weighted=True)) == expected


def test_perft_matches_the_python_api() -> None:
    api = lambda p, d: p.legal_moves(d).positions()  # noqa: E731
    for pos in (Position.initial(), POSITIONS["bar"]):
        assert (perft(pos, 2), perft(pos, 2, weighted=True)) == python_perft(pos, 2, api)


def test_perft_edge_cases() -> None:
    start = Position.initial()
    assert perft(start, 0) == 1
    finished = Position([0] * 10 + [-15] + [0] * 15)
    assert perft(finished, 3) == 1
    # bearing off the last checker ends the game: those results are leaves
    last = Position([0, 0, 1] + [0] * 21 + [-15, 0])
    assert perft(last, 2) == python_perft(last, 2, lambda p, d: p.legal_moves(d).positions())[0]
    with pytest.raises(ValueError):
        perft(start, -1)
    with pytest.raises(TypeError):
        perft(start, 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        perft(start.position_id(), 1)  # type: ignore[arg-type]


def test_threads_and_both_counts_agree() -> None:
    from bgcore.gametree import perft_counts

    for pos in (POSITIONS["hypergammon"], POSITIONS["bar"]):
        one = perft_counts(pos, 2)
        assert perft_counts(pos, 2, threads=2) == one == (perft(pos, 2), perft(pos, 2, weighted=True))
    assert perft_counts(POSITIONS["hypergammon"], 3, threads=3) == perft_counts(POSITIONS["hypergammon"], 3)
    with pytest.raises(ValueError, match="threads"):
        perft(POSITIONS["standard"], 2, threads=0)


def test_perft_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from bgcore.__main__ import main

    assert main(["perft", "--depth", "2", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "| 1 | 447 | 637 |" in out and "| 2 | 202,782 | 419,783 |" in out


def test_the_perft_name_is_the_function() -> None:
    import importlib

    import bgcore

    assert callable(bgcore.perft) and bgcore.perft.__module__ == "bgcore.gametree"
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bgcore.perft")


# --- hostile counts, refused fast ------------------------------------------------------------


@pytest.mark.parametrize("depth", [13, 2**31, 2**63, 10**30, -1, -(2**40)])
def test_a_depth_out_of_range_is_refused_fast(depth: int) -> None:
    refused(lambda: perft(Position.initial(), depth), ValueError, f"^depth must be 0 to 12, not {depth}$")
    refused(lambda: _perft.perft(Position.initial()._bytes, depth), ValueError, "depth")  # the core itself
    acey = AceyDeuceyPosition.initial()
    refused(lambda: perft(acey, depth), ValueError, rf"^depth must be 1 to {_acey.MAX_PERFT_DEPTH}, not {depth}$")


@pytest.mark.parametrize("threads", [0, 65, 10_000, 2**31, 2**64, -1])
def test_threads_out_of_range_are_refused_fast(threads: int) -> None:
    message = f"^threads must be 1 to 64, not {threads}$"
    refused(lambda: perft(Position.initial(), 2, threads=threads), ValueError, message)
    refused(lambda: perft(AceyDeuceyPosition.initial(), 2, threads=threads), ValueError, message)
    refused(lambda: _perft.perft(Position.initial()._bytes, 2, threads), ValueError, message)


@pytest.mark.parametrize("threads", [2.0, "2", None, True])
def test_threads_must_be_ints(threads: object) -> None:
    refused(lambda: perft(Position.initial(), 2, threads=threads), ValueError, "threads must be an int")  # type: ignore[arg-type]


# --- progress -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("threads", [1, 2])
def test_perft_with_progress_counts_the_same(name: str, threads: int) -> None:
    pos = POSITIONS[name]
    depth = 3 if name in ("hypergammon", "bear-off") else 2
    calls: list[tuple[int, int]] = []
    counts = perft_counts(pos, depth, threads=threads, progress=lambda done, total: calls.append((done, total)))
    assert counts == perft_counts(pos, depth)
    # the positions after the first ply (finished games are leaves, not walked below), all walked at the end
    children = [c for d in ROLLS for c in pos.legal_moves(d).positions() if not c.is_game_over()]
    assert calls[-1] == (len(children), len(children))
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)  # it only goes forward
    assert {total for _, total in calls} == {len(children)}


def test_progress_is_reported_while_the_walk_goes_on() -> None:
    calls: list[float] = []
    start = time.perf_counter()
    perft(Position.initial(), 3, progress=lambda done, total: calls.append(time.perf_counter()))
    elapsed = time.perf_counter() - start
    # about every 0.1 s (the last call at the end): a second's walk gives several
    assert len(calls) >= min(3, elapsed / 0.1 - 1) and calls[-1] - start <= elapsed


def test_acey_deucey_perft_with_progress_counts_the_same() -> None:
    start = AceyDeuceyPosition.initial()
    calls: list[int] = []
    assert perft_counts(start, 2, progress=lambda done, total: calls.append(done)) == perft_counts(start, 2)
    assert calls and calls == list(range(1, len(calls) + 1))


def test_perft_progress_is_quiet_by_default_and_a_bar_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pos = POSITIONS["hypergammon"]
    plain = perft(pos, 3)
    assert capsys.readouterr() == ("", "")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    monkeypatch.setenv("COLUMNS", "60")
    assert perft(pos, 3, progress=True) == plain
    out, err = capsys.readouterr()
    total = sum(1 for d in ROLLS for c in pos.legal_moves(d).positions() if not c.is_game_over())
    assert out == "" and "perft 3" in err and f"{total}/{total}" in err
    monkeypatch.delenv("TTY_COMPATIBLE")  # stderr to a log: a line at each tenth of the walk
    assert perft(pos, 3, progress=True) == plain
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and 1 <= len(lines) <= 10 and all(line.startswith("perft 3: ") for line in lines)
    assert lines[-1].startswith(f"perft 3: {total}/{total} first-ply positions in ")


@pytest.mark.parametrize(("position", "depth"), [(Position.initial(), 4), (AceyDeuceyPosition.initial(), 3)])
def test_an_exception_from_progress_stops_the_walk(position: Position, depth: int) -> None:
    calls: list[int] = []

    def interrupt(done: int, total: int) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    # the whole walk would take minutes: stopped at the first report, it takes one first-ply position's
    refused(lambda: perft(position, depth, threads=2, progress=interrupt), KeyboardInterrupt, "", within=10)
    assert len(calls) == 1
    assert perft(position, 2, threads=2) == perft(position, 2)  # the pool's threads are fine after it


def test_ctrl_c_stops_a_watched_perft() -> None:
    """SIGINT in a process walking depth 4 with progress: KeyboardInterrupt within a few seconds."""
    script = (
        "import sys\n"
        "from bgcore import Position, perft\n"
        "print('walking', flush=True)\n"
        "try:\n"
        "    perft(Position.initial(), 4, threads=2, progress=lambda done, total: None)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "walking\n"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert out == "interrupted\n" and time.perf_counter() - sent < 10
