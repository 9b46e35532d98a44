"""Does bgcore's batch API leak?  Its RSS over millions of generations.

Run from the repository root::

    python bench/memory.py [--generations N] [--chunk ROWS] [--max-growth-mb MB]

Calls ``bgcore.batch.count`` and ``bgcore.batch.generate`` in turn over chunks
of the benchmark corpus (``corpus.py``), alternating 1 and 2 threads and, for
generate, ``flip``, until each has processed N generations (default 10
million).  Every call's totals are checked against ``_batch.count_many`` and
generate's output against its exact size: ``children`` holds ``m * 26`` bytes
(m results) and ``offsets`` ``(n + 1) * 8``, with no larger buffer behind
either.  The process's resident set size (RSS) is read every few chunks; the
script prints it at the start, after the warm-up (the first tenth of the
generations, at least a million) and at the end, and exits 1 if it grew by
more than ``--max-growth-mb`` (default 4 MB) after the warm-up.
"""

from __future__ import annotations

import os

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import resource
import sys
import time
from collections.abc import Sequence

import numpy as np

from bgcore import batch
from corpus import DEFAULT_POSITIONS, Corpus, build_corpus, count_bgcore
from timing import machine_line

__all__ = ["rss_bytes", "owned_bytes", "main"]

MB = 1 << 20
#: Read the RSS once every this many chunks.
SAMPLE_EVERY = 16


def rss_bytes() -> int:
    """The current resident set size, from /proc/self/statm.

    Without /proc (not Linux) it falls back to ``ru_maxrss``, the peak RSS,
    which can show growth but never shrinkage.
    """
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


def owned_bytes(a: np.ndarray) -> int:
    """The size of the buffer behind ``a``: ``a.nbytes`` unless ``a`` is a view of something larger.

    >>> a = np.zeros((10, 26), np.int8)
    >>> owned_bytes(a), owned_bytes(a[:2])
    (260, 260)
    """
    base = a
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    return base.nbytes if isinstance(base, np.ndarray) else memoryview(base).nbytes


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--generations",
        type=int,
        default=10_000_000,
        help="generations each of batch.count and batch.generate processes (default 10,000,000)",
    )
    parser.add_argument(
        "--chunk",
        type=int,
        default=2100,
        help="rows per call, a slice of the corpus (default 2,100: 100 positions x 21 rolls)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=DEFAULT_POSITIONS,
        help=f"self-play positions in the corpus (default {DEFAULT_POSITIONS})",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=None,
        help="generations before the reference RSS (default a tenth of N, at least 1,000,000, at most half of N)",
    )
    parser.add_argument(
        "--max-growth-mb",
        type=float,
        default=4.0,
        help="RSS growth after the warm-up that fails the run (default 4 MB)",
    )
    args = parser.parse_args(argv)
    if args.generations < 1 or args.chunk < 1 or args.positions < 1:
        parser.error("--generations, --chunk and --positions must be >= 1")
    return args


def chunks(corpus: Corpus, rows: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """The corpus cut into (boards, dice, expected results) slices of ``rows`` rows."""
    out = []
    for start in range(0, len(corpus), rows):
        boards, dice = corpus.boards[start : start + rows], corpus.dice[start : start + rows]
        out.append((boards, dice, int(batch.count(boards, dice).sum())))
    if sum(expected for _, _, expected in out) != count_bgcore(corpus):
        raise AssertionError("batch.count over the chunks disagrees with count_many over the corpus")
    return out


def check_generate(boards: np.ndarray, dice: np.ndarray, expected: int, threads: int, flip: bool) -> None:
    """One ``batch.generate`` call: its totals and that its output is exactly the size it must be."""
    children, offsets = batch.generate(boards, dice, threads=threads, flip=flip)
    n, m = len(boards), int(offsets[-1])
    assert m == expected, f"generate found {m:,} results, expected {expected:,}"
    assert children.shape == (m, 26) and children.dtype == np.int8, (children.shape, children.dtype)
    assert offsets.shape == (n + 1,) and offsets.dtype == np.int64, (offsets.shape, offsets.dtype)
    assert children.nbytes == owned_bytes(children) == m * 26, (children.nbytes, owned_bytes(children), m * 26)
    assert offsets.nbytes == owned_bytes(offsets) == (n + 1) * 8, (offsets.nbytes, owned_bytes(offsets))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the loop, print the RSS figures and fail on growth after the warm-up."""
    args = parse_args(argv)
    start_rss = rss_bytes()
    print(machine_line())
    corpus = build_corpus(args.positions)
    pieces = chunks(corpus, args.chunk)
    print(
        f"corpus: {len(corpus):,} generations (seed {corpus.seed}) in {len(pieces)} chunks "
        f"of up to {args.chunk:,} rows; "
        f"{args.generations:,} generations through each of batch.count and batch.generate"
    )
    print(f"RSS at start (before the corpus):  {start_rss / MB:8.1f} MB")

    # The allocator's arenas (one more per thread) take a few million generations to settle.
    warmup = (
        args.warmup if args.warmup is not None else min(max(args.generations // 10, 1_000_000), args.generations // 2)
    )
    warmup = max(warmup, 1)
    done = calls = 0
    warm_rss: int | None = None
    samples: list[int] = []
    tenths: list[int] = []  # the RSS at each tenth of the run, to tell a leak's slope from noise
    began = time.perf_counter()
    while done < args.generations:
        boards, dice, expected = pieces[calls % len(pieces)]
        threads = 1 + calls % 2
        got = int(batch.count(boards, dice, threads=threads).sum())
        assert got == expected, f"count found {got:,} results, expected {expected:,}"
        check_generate(boards, dice, expected, threads, flip=bool(calls // 2 % 2))
        calls += 1
        done += len(boards)
        if warm_rss is None and done >= warmup:
            warm_rss = rss_bytes()
            print(f"RSS after warm-up ({done:,} gen.): {warm_rss / MB:8.1f} MB")
        elif warm_rss is not None and calls % SAMPLE_EVERY == 0:
            samples.append(rss_bytes())
        if done * 10 >= (len(tenths) + 1) * args.generations:
            tenths.append(rss_bytes())
    end_rss = rss_bytes()
    samples.append(end_rss)
    assert warm_rss is not None
    elapsed = time.perf_counter() - began
    growth = end_rss - warm_rss
    print(f"RSS at the end ({done:,} gen.):  {end_rss / MB:8.1f} MB")
    print(
        f"after warm-up: growth {growth / MB:+.2f} MB; {len(samples)} samples from "
        f"{min(samples) / MB:.1f} to {max(samples) / MB:.1f} MB"
    )
    print("RSS at each tenth of the run (MB): " + " ".join(f"{r / MB:.1f}" for r in tenths))
    print(f"{calls:,} calls of each, {elapsed:.1f} s; every total and output size checked")
    if growth > args.max_growth_mb * MB:
        print(
            f"LEAK? RSS grew by {growth / MB:.2f} MB after the warm-up (limit {args.max_growth_mb} MB)", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
