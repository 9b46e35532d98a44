"""Evaluation speed: boards per second of ``bgcore.encode`` on a 100,000-board batch.

Run from the repository root::

    python bench/encode.py [--boards N] [--repeats R]

The boards are the results of the benchmark corpus's generations (the boards
after each legal move, seen from the mover: what a policy scores), the first
N of them (default 100,000) in an int8 (N, 26) array, so no conversion is
timed.  It times, each on the whole batch in one call, ``encode.pubeval``
(the race flag of each board from ``bg_is_race``), pubeval's plain
term-by-term dot product (``_encode.pubeval_scores(..., plain=True)``, the
reference the tables replace), ``encode.race_score``, ``encode.is_race`` and
``encode.tesauro198`` (which also writes 79 MB of float32 for 100,000
boards), and prints the median and the best of R timed repeats, as boards
per second.  Every row is checked (``bg_check``) in each of them.
"""

from __future__ import annotations

import argparse
import platform

import numpy as np

from bgcore import _encode, batch, encode
from corpus import build_corpus
from dice import per_second

__all__ = ["main", "result_boards"]


def result_boards(n: int) -> np.ndarray:
    """The first n results of the corpus's generations (more positions as needed)."""
    positions = max(100, n // 15)
    while True:
        corpus = build_corpus(positions)
        children, _ = batch.generate(corpus.boards, corpus.dice)
        if len(children) >= n:
            return np.ascontiguousarray(children[:n])
        positions *= 2


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=100_000, help="boards in the batch (default 100,000)")
    parser.add_argument("--repeats", type=int, default=21, help="timed repeats (default 21)")
    args = parser.parse_args(argv)
    if args.boards < 1 or args.repeats < 1:
        parser.error("--boards and --repeats must be >= 1")

    boards = result_boards(args.boards)
    n = len(boards)
    races = encode.is_race(boards)
    rows = [
        ("encode.pubeval", per_second(lambda: encode.pubeval(boards), n, args.repeats)),
        ("pubeval, plain dot product", per_second(lambda: _encode.pubeval_scores(boards, plain=True), n, args.repeats)),
        ("encode.race_score", per_second(lambda: encode.race_score(boards), n, args.repeats)),
        ("encode.is_race", per_second(lambda: encode.is_race(boards), n, args.repeats)),
        ("encode.tesauro198", per_second(lambda: encode.tesauro198(boards), n, args.repeats)),
    ]
    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, {args.repeats} repeats")
    print(f"{n:,} boards after a move ({int(races.sum()):,} races), one call each")
    width = max(len(name) for name, _ in rows)
    print(f"{'':<{width}}  {'median boards/s':>16}  {'best boards/s':>16}")
    for name, (median, best) in rows:
        print(f"{name:<{width}}  {median:>16,.0f}  {best:>16,.0f}")


if __name__ == "__main__":
    main()
