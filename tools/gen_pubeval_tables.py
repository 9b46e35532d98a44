"""Write pubeval's per-point contribution tables into src/bgcore/_csrc/bg_eval.h.

    python tools/gen_pubeval_tables.py           # rewrite the generated block
    python tools/gen_pubeval_tables.py --check   # exit 1 if it is out of date

The weights are read from the header itself (``bg_pubeval_wr`` and
``bg_pubeval_wc``, Tesauro's WT.race and WT.cntc); the tables replace the text
between the ``BEGIN GENERATED TABLES`` and ``END GENERATED TABLES`` lines.

pubeval's 122 inputs (setx) give each point five units that depend on the
point's count n alone, and the score is their dot product with the weights,
so a point's part of the score is a function of (race, point, n):

- ``bg_pubeval_pt[race][p - 1][n + 15]`` for the mover's point p = 1..24 and
  n = -15..15 (entry 31 is padding), from the units of block b = 24 - p
  (setx reads pos[25 - j] into block j - 1): n == -1 -> w[5b], n == 1 ->
  w[5b+1], n == 2 -> w[5b+2], n == 3 -> w[5b+2] + w[5b+3], n >= 4 -> w[5b+2]
  + w[5b+4] * ((n - 3) / 2), other n -> 0;
- ``bg_pubeval_bar[race][k]`` = w[120] * (k / 2), k = the opponent's bar;
- ``bg_pubeval_off[race][k]`` = w[121] * (k / 15), k = the mover's men off.

Every value is computed in float32 as C computes Tesauro's terms in float
(each product rounded, the terms of one point added in setx's order), and
printed with the fewest digits that read back as the same float32.  Index
[0] holds the contact weights (wc), [1] the race weights (wr).
"""

from __future__ import annotations

import argparse
import re
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

HEADER = Path(__file__).resolve().parent.parent / "src" / "bgcore" / "_csrc" / "bg_eval.h"
BEGIN = "/* BEGIN GENERATED TABLES (tools/gen_pubeval_tables.py; do not edit) */\n"
END = "/* END GENERATED TABLES */\n"

f32 = np.float32


def read_weights(text: str, name: str) -> list[np.float32]:
    """The 122 weights of ``static const float name[122] = {...}`` as float32,
    each the float32 nearest to its decimal literal (as the C compiler reads
    ``-.17160f``)."""
    match = re.search(rf"{name}\[122\] = \{{(.*?)\}};", text, re.S)
    if match is None:
        raise SystemExit(f"{name}[122] not found in {HEADER}")
    literals = re.findall(r"-?\d*\.\d+(?=f)", match.group(1))
    if len(literals) != 122:
        raise SystemExit(f"{name} has {len(literals)} weights, not 122")
    weights = []
    for literal in literals:
        w = f32(float(literal))  # decimal -> double -> float32: rounded twice,
        exact = Fraction(literal)  # so check that it is the nearest float32
        for other in (np.nextafter(w, f32(-np.inf)), np.nextafter(w, f32(np.inf))):
            if abs(Fraction(float(other)) - exact) <= abs(Fraction(float(w)) - exact):
                raise SystemExit(f"{name}: {literal} does not round to float32 unambiguously")
        weights.append(w)
    return weights


def point_table(w: list[np.float32]) -> list[list[np.float32]]:
    rows = []
    for p in range(1, 25):
        b = 5 * (24 - p)
        row = [f32(0)] * 32
        row[-1 + 15] = w[b]
        row[1 + 15] = w[b + 1]
        row[2 + 15] = w[b + 2]
        row[3 + 15] = f32(w[b + 2] + w[b + 3])
        for n in range(4, 16):
            row[n + 15] = f32(w[b + 2] + f32(w[b + 4] * f32(f32(n - 3) / f32(2))))
        rows.append(row)
    return rows


def c_float(v: np.float32) -> str:
    text = np.format_float_positional(v, unique=True, trim="0")
    return ("0.0" if float(v) == 0 else text.rstrip(".")) + "f"


def c_rows(rows: list[list[np.float32]], indent: str, per_line: int = 8) -> str:
    out = []
    for row in rows:
        cells = [c_float(v) for v in row]
        lines = [", ".join(cells[i : i + per_line]) for i in range(0, len(cells), per_line)]
        out.append(indent + "{" + (",\n" + indent + " ").join(lines) + "}")
    return ",\n".join(out)


def generate(text: str) -> str:
    weights = [read_weights(text, "bg_pubeval_wc"), read_weights(text, "bg_pubeval_wr")]
    blocks = []
    for race, w in enumerate(weights):
        kind = "race" if race else "contact"
        rows = c_rows(point_table(w), "        ")
        blocks.append(f"    {{ /* {kind}: point 1 to 24, count -15 to 15 and a pad */\n{rows}\n    }}")
    bar = c_rows([[f32(w[120] * f32(f32(k) / f32(2))) for k in range(16)] for w in weights], "    ")
    off = c_rows([[f32(w[121] * f32(f32(k) / f32(15))) for k in range(16)] for w in weights], "    ")
    pt = ",\n".join(blocks)
    return "".join(
        [
            BEGIN,
            "/* [0]: contact weights (wc), [1]: race weights (wr).  Derived from the\n",
            "   weights above as tools/gen_pubeval_tables.py describes. */\n",
            f"static const float bg_pubeval_pt[2][24][32] = {{\n{pt}\n}};\n\n",
            "/* By the opponent's checkers on the bar, 0 to 15. */\n",
            f"static const float bg_pubeval_bar[2][16] = {{\n{bar}\n}};\n\n",
            "/* By the mover's checkers off, 0 to 15. */\n",
            f"static const float bg_pubeval_off[2][16] = {{\n{off}\n}};\n",
            END,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the header's tables are out of date")
    args = parser.parse_args(argv)
    text = HEADER.read_text()
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + generate(text) + text[stop:]
    if args.check:
        if new != text:
            print(f"{HEADER}: the pubeval tables are out of date; run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    if new != text:
        HEADER.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
