"""The README's perft table, as a benchmark script.

Run from the repository root::

    python bench/perft_table.py [--depth N] [--threads T] [--variant V]

It prints exactly what ``python -m bgcore perft`` prints with the same
options: perft 1..N from a starting position, unweighted and weighted, with
each depth's seconds and leaves per second.  The README's table is
``--depth 4 --threads 2``.
"""

from __future__ import annotations

import sys

from bgcore.__main__ import main

if __name__ == "__main__":
    sys.exit(main(["perft", *sys.argv[1:]]))
