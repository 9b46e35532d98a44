"""Draw a training run's learning curve: points per game against pubeval
(with 95% intervals) after each evaluation, against training games.

    python tools/plot_train.py CURVE.json OUT.png

CURVE.json: the ``curve.json`` that ``bench/train.py`` writes, or the
``.json`` state that ``bgcore train --out NET.npz`` keeps beside NET.npz
(its ``history``).  Needs matplotlib (the ``docs`` extra has it; bgcore
does not).  The docs' build runs it (``tools/mkdocs_hooks.py``) to draw
``docs/guides/train-curve.png`` from ``docs/guides/train-curve.json``, the run
that ``docs/guides/train.md`` describes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    state = json.loads(Path(argv[0]).read_text())
    history = state["history"]
    games = [e["games"] / 1e6 for e in history]
    points = [e["points"] for e in history]
    low = [e["points"] - e["low"] for e in history]
    high = [e["high"] - e["points"] for e in history]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    ax.errorbar(games, points, yerr=[low, high], fmt="o-", markersize=3, capsize=2, linewidth=1)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.axhline(0.35, color="tab:green", linewidth=0.8, linestyle="--", label="+0.35 (Higgins' 80-hidden TD(0) net)")
    ax.set_xlabel("training games (millions)")
    ax.set_ylabel("points per game vs pubeval")
    ax.set_ylim(max(min(points) - 0.2, -2.5), max(points) + 0.2)
    title = "198-80-5 TD(0) from zero, duplicate duels against pubeval (95% intervals)"
    ax.set_title(title, fontsize=9)
    minutes = history[-1]["seconds"] / 60
    ax.annotate(
        f"{history[-1]['games']:,} games in {minutes:.0f} minutes",
        xy=(games[-1], points[-1]),
        xytext=(0.55, 0.12),
        textcoords="axes fraction",
        fontsize=8,
        arrowprops={"arrowstyle": "->", "linewidth": 0.6},
    )
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
