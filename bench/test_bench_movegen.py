"""pytest-benchmark cases for move generation.

``pytest bench/ --benchmark-enable`` times them on the full default corpus
(42,000 generations).  pyproject.toml's ``--benchmark-disable`` makes a plain
``pytest bench/`` run each benchmarked function once, on a small corpus, as a
quick smoke test; the count checks (bgcore against gnubg and against its own
Python API) run either way.
"""

from __future__ import annotations

import pytest

from bgcore import Position

import gnubg_native
from corpus import DEFAULT_POSITIONS, PHASES, Corpus, build_corpus, count_bgcore, count_python_api, phase, phase_counts

#: Positions of the corpus when benchmarks are disabled (smoke runs).
SMOKE_POSITIONS = 100


@pytest.fixture
def corpus(benchmark) -> Corpus:
    """The full corpus when benchmarking, a small one in smoke runs."""
    return build_corpus(DEFAULT_POSITIONS if benchmark.enabled else SMOKE_POSITIONS)


@pytest.fixture(scope="module")
def gnubg_timer() -> gnubg_native.GnubgTimer:
    """The compiled gnubg loop; skips the test without gnubg or a C compiler."""
    try:
        return gnubg_native.load_timer()
    except gnubg_native.GnubgUnavailable as exc:
        pytest.skip(f"gnubg figures skipped: {exc}")


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
