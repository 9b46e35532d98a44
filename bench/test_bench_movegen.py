"""pytest-benchmark cases for move generation: bgcore's native loop, batch API,
perft and Python API, and gnubg's C generator.

``pytest bench/ --benchmark-enable`` times them on the full default corpus
(42,000 generations).  pyproject.toml's ``--benchmark-disable`` makes a plain
``pytest bench/`` run each benchmarked function once, on a small corpus, as a
quick smoke test; the count checks (bgcore against gnubg and against its own
Python API) run either way.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

import gnubg_native
from bgcore import Position, batch, perft
from bgcore.rules import ROLLS
from corpus import (
    DEFAULT_POSITIONS,
    PHASES,
    Corpus,
    build_corpus,
    count_batch,
    count_bgcore,
    count_python_api,
    generate_batch,
    phase,
    phase_counts,
)

#: Positions of the corpus when benchmarks are disabled (smoke runs).
SMOKE_POSITIONS = 100


@pytest.fixture
def corpus(benchmark) -> Corpus:
    """The full corpus when benchmarking, a small one in smoke runs."""
    return build_corpus(DEFAULT_POSITIONS if benchmark.enabled else SMOKE_POSITIONS)


@pytest.fixture(scope="module")
def gnubg_timer() -> gnubg_native.GnubgTimer:
    """The compiled gnubg loop; skips the test without gnubg or a C compiler,
    unless BGCORE_REQUIRE_ORACLE=1 (then it fails)."""
    gnubg_native.oracle.require()
    try:
        return gnubg_native.load_timer()
    except gnubg_native.GnubgUnavailable as exc:
        gnubg_native.oracle.missing(f"gnubg's generator cannot be timed: {exc}")


def few_positions(corpus: Corpus) -> tuple[Position, ...]:
    """The starting position and the corpus's first position of each phase."""
    first: dict[str, Position] = {}
    for pos in corpus.positions:
        first.setdefault(phase(pos.board), pos)
    return (Position.initial(), *first.values())


def test_corpus_covers_every_phase() -> None:
    counts = phase_counts(build_corpus(SMOKE_POSITIONS).positions)
    assert list(counts) == list(PHASES)
    assert all(counts.values()), counts


@pytest.mark.benchmark(group="movegen: corpus")
def test_bgcore_count_many(benchmark, corpus: Corpus) -> None:
    """bgcore's native loop over the whole corpus."""
    benchmark.extra_info["generations"] = len(corpus)
    total = benchmark(count_bgcore, corpus)
    benchmark.extra_info["results"] = total
    assert total == count_python_api(corpus.positions, corpus.rolls)


@pytest.mark.benchmark(group="movegen: corpus")
def test_gnubg_generate_moves(benchmark, corpus: Corpus, gnubg_timer: gnubg_native.GnubgTimer) -> None:
    """gnubg's C GenerateMoves from a native loop over the same corpus; totals agree with bgcore."""
    data = gnubg_native.gnubg_corpus(corpus)
    benchmark.extra_info["generations"] = len(data)
    count = benchmark(gnubg_timer.run, data)
    benchmark.extra_info["results"] = count.results
    assert count.results == count_bgcore(corpus)


@pytest.mark.benchmark(group="movegen: Python API")
def test_python_api_legal_moves(benchmark, corpus: Corpus) -> None:
    """``len(Position.legal_moves(roll))`` for a few positions, every roll."""
    positions = few_positions(corpus)
    benchmark.extra_info["generations"] = len(positions) * len(corpus.rolls)
    total = benchmark(count_python_api, positions, corpus.rolls)
    assert total == count_bgcore(Corpus(positions, corpus.seed, corpus.rolls))


@functools.lru_cache(maxsize=4)
def reference_totals(corpus: Corpus) -> dict[str, int]:
    """The corpus's total through the Python API and, where it runs, gnubg's C generator.

    The Python API shares bgcore's core, so only gnubg catches a bug in the
    generator itself.  Computed once per corpus (build_corpus caches corpora).
    """
    totals = {"Python API": count_python_api(corpus.positions, corpus.rolls)}
    try:
        timer = gnubg_native.load_timer()
    except gnubg_native.GnubgUnavailable as exc:
        gnubg_native.oracle.without(f"gnubg's generator cannot be timed: {exc}")  # fails under BGCORE_REQUIRE_ORACLE=1
        return totals
    totals["gnubg"] = timer.run(gnubg_native.gnubg_corpus(corpus)).results
    return totals


@pytest.mark.benchmark(group="movegen: corpus")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("workload", [generate_batch, count_batch], ids=["generate", "count"])
def test_batch(benchmark, corpus: Corpus, workload, threads: int) -> None:
    """``bgcore.batch.generate`` (every child board built) or ``batch.count`` over the whole corpus."""
    benchmark.extra_info["generations"] = len(corpus)
    total = benchmark(workload, corpus, threads)
    benchmark.extra_info["results"] = total
    expected = reference_totals(corpus)
    assert dict.fromkeys(expected, total) == expected


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_rows_are_the_python_apis(threads: int) -> None:
    """Row by row, batch.count and batch.generate's offsets give ``len(Position.legal_moves(roll))``."""
    sub = build_corpus(SMOKE_POSITIONS).subset(10)
    expected = [len(pos.legal_moves(roll)) for pos, roll in sub.generations()]
    assert batch.count(sub.boards, sub.dice, threads=threads).tolist() == expected
    children, offsets = batch.generate(sub.boards, sub.dice, threads=threads)
    assert np.diff(offsets).tolist() == expected and len(children) == offsets[-1]


def perft_python_api(position: Position, depth: int, weighted: bool = False) -> int:
    """perft through ``Position.legal_moves`` and ``Position.play``: not batch's or perft's C loops."""
    if depth == 0 or position.is_game_over():
        return 1
    total = 0
    for roll in ROLLS:
        weight = 2 if weighted and roll[0] != roll[1] else 1
        moves = position.legal_moves(roll)
        total += weight * (
            len(moves) if depth == 1 else sum(perft_python_api(position.play(m), depth - 1, weighted) for m in moves)
        )
    return total


@pytest.mark.benchmark(group="perft")
@pytest.mark.parametrize("weighted", [False, True])
def test_perft_initial_depth_2(benchmark, weighted: bool) -> None:
    """perft(initial, 2) in C, against the same count through the Python API."""
    start = Position.initial()
    total = benchmark(perft, start, 2, weighted=weighted)
    benchmark.extra_info["leaves"] = total
    assert total == perft_python_api(start, 2, weighted)


def test_perft_depth_2_matches_gnubg(gnubg_timer: gnubg_native.GnubgTimer) -> None:
    """perft(initial, 2) against gnubg alone: its first-ply results, then its C GenerateMoves on each."""
    start = Position.initial()
    children = []
    for roll in ROLLS:
        moves = gnubg_native.oracle.generate_moves(start.board, *roll)
        # gnubg's Position IDs keep the mover on roll: flip to the opponent; a lost turn passes the board.
        children += [Position.from_position_id(m.position_id).flip() for m in moves] or [start.flip()]
    assert len(children) == perft(start, 1)
    count = gnubg_timer.run(gnubg_native.gnubg_corpus(Corpus(tuple(children), 0)))
    assert count.results == perft(start, 2)


def test_linger_script_times_both_settings(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/linger.py prints a row per batch and setting, and puts the
    threads' lingering back as it found it."""
    import linger
    from bgcore import batch

    before = batch.set_thread_linger(0.0005)
    assert linger.main(["--rounds", "1", "--linger", "0.001"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "µs" in line]
    assert [row.split(" | ")[1] for row in rows] == ["0 ms", "1 ms"] * 3
    assert re.search(r"medians of 1: \d+\.\d µs while it lingers, \d+\.\d µs while it sleeps", out)
    assert batch.set_thread_linger(before) == 0.0005
