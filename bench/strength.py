"""Playing strength: duplicate cubeless money games between policies, in one run.

Run from the repository root::

    python bench/strength.py [--threads 2] [--seed 1] [--scale 1] [--json] [--shared PATH]

Every match is a :func:`bgcore.duel`: games 2k and 2k + 1 roll the same dice
with the seats swapped, cubeless, for money (a gammon 2 points, a backgammon
3).  Each row gives the first policy's points per game with its standard
error (from the pairs, which cancel most of the luck) and 95% interval
(± 1.96 standard errors).  The matches, with their games at ``--scale 1``:

- wildbg (``nets.wildbg()``, native) against pubeval, 10,000 games: the
  target is at least +0.5 points per game;
- wildbg against GNU Backgammon 0-ply, 10,000 games: the goal is to be
  within 0.15 points per game of it (at least -0.15);
- pubeval against gnubg 0-ply, 10,000 games: a check of the harness, which
  should agree with an earlier measure, -0.71 points per game with a
  standard error of 0.03 over 2,000 games (agreement: the two differ by less
  than 1.96 standard errors of the difference);
- pubeval against random, 10,000 games;
- wildbg native against ``greedy(nets.wildbg(backend="onnxruntime"))``,
  2,000 games: equal play, so every pair of games cancels and the points per
  game are exactly 0 with a standard error of exactly 0; and self-play of
  the two (``bgcore.selfplay.play``, 1,000 games each on the same dice) must
  meet the same positions and end with the same results, game by game.

gnubg 0-ply is ``gnubg_policy.GnubgZeroPly``: each candidate move scored by
minus ``gnubg.evaluate``'s cubeless equity of the opponent's position after
it, called from Python (its time is reported).  Without gnubg, or without
onnxruntime and wildbg's ONNX files, those rows say why they were skipped.

The output names the command, the git commit and the machine, with the load
average before and after (the machine may be shared); ``--json`` prints the
same as JSON.  The exit status is 1 when the exactness check fails, else 0
(a target missed is reported, not an error).
"""

from __future__ import annotations

import blas

if __name__ == "__main__":  # a run, not an import (blas.py says why, and why before numpy)
    blas.one_thread()

import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from nn import add_shared_argument

__all__ = [
    "Match",
    "Row",
    "MATCHES",
    "PUBEVAL_VS_GNUBG",
    "agrees",
    "equal_play",
    "git_commit",
    "main",
]

ROOT = Path(__file__).resolve().parent.parent

#: The earlier measure the harness is checked against: pubeval's points per
#: game against gnubg 0-ply, its standard error, and the games it took.
PUBEVAL_VS_GNUBG = (-0.71, 0.03, 2000)
#: The games of the self-play half of the exactness check, at --scale 1.
SELFPLAY_GAMES = 1000


@dataclass(frozen=True)
class Match:
    """One row of the table: ``a`` against ``b`` (names of :func:`make_policy`)
    over ``games`` games at ``--scale 1``, and what the row is checked against."""

    key: str
    label: str
    a: str
    b: str
    games: int
    target: str


MATCHES = (
    Match("wildbg-pubeval", "wildbg (native) vs pubeval", "wildbg", "pubeval", 10_000, ">= +0.5"),
    Match("wildbg-gnubg", "wildbg (native) vs gnubg 0-ply", "wildbg", "gnubg", 10_000, ">= -0.15"),
    Match(
        "pubeval-gnubg",
        "pubeval vs gnubg 0-ply",
        "pubeval",
        "gnubg",
        10_000,
        f"{PUBEVAL_VS_GNUBG[0]:+.2f} ± {PUBEVAL_VS_GNUBG[1]:.2f} (earlier)",
    ),
    Match("pubeval-random", "pubeval vs random", "pubeval", "random", 10_000, ""),
    Match(
        "native-onnxruntime",
        "wildbg native vs wildbg onnxruntime",
        "wildbg",
        "wildbg-onnxruntime",
        2_000,
        "exactly 0, every game equal",
    ),
)


@dataclass
class Row:
    """A match's outcome (``skipped`` says why when it could not be played):
    ``verdict`` is ``met``, ``NOT met`` or ``""`` (nothing to check)."""

    key: str
    label: str
    games: int
    points: float = math.nan
    stderr: float = math.nan
    low: float = math.nan
    high: float = math.nan
    won: int = 0
    lost: int = 0
    seconds: float = 0.0
    target: str = ""
    verdict: str = ""
    note: str = ""
    skipped: str = ""


def agrees(points: float, stderr: float, earlier: tuple[float, float, int] = PUBEVAL_VS_GNUBG) -> bool:
    """Whether ``points`` ± ``stderr`` agrees with the ``earlier`` measure
    (points, standard error, games): their difference is within 1.96 of its
    standard error.

    >>> agrees(-0.66, 0.013), agrees(-0.55, 0.013)
    (True, False)
    """
    return abs(points - earlier[0]) <= 1.96 * math.hypot(stderr, earlier[1])


def git_commit() -> str:
    """The checkout's commit (short hash), ``+ changes`` when files differ
    from it, or ``unknown`` outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} + changes" if dirty else head


def make_policy(name: str, shared: Path) -> Any:
    """A match's policy by name: ``wildbg`` (native), ``wildbg-onnxruntime``
    (``greedy`` of wildbg's ONNX files from ``shared``), ``gnubg`` (0-ply, a
    Python policy), or a built-in policy's name.  Raises ImportError or
    OSError (FileNotFoundError) when what it needs is missing."""
    from bgcore import nets
    from bgcore.policy import greedy

    if name == "wildbg":
        return nets.wildbg()
    if name == "wildbg-onnxruntime":
        missing = [f for f in ("contact.onnx", "race.onnx") if not (shared / f).is_file()]
        if missing:
            raise FileNotFoundError(f"wildbg's ONNX files are not in {shared}")
        return greedy(nets.wildbg(backend="onnxruntime", path=shared))
    if name == "gnubg":
        from gnubg_policy import GnubgZeroPly

        return GnubgZeroPly()
    return name


def equal_play(a: object, b: object, games: int, seed: int, threads: int) -> str:
    """Whether policies ``a`` and ``b`` play alike: self-play of each over
    ``games`` games on the same dice meets the same positions, game by game,
    and ends with the same results.  '' when they do, else what differs.

    >>> from bgcore import nets
    >>> from bgcore.policy import greedy
    >>> net = nets.wildbg()
    >>> equal_play(net, greedy(lambda boards: net(boards)), 4, seed=1, threads=1)
    ''
    >>> equal_play(net, "pubeval", 4, seed=1, threads=1)  # doctest: +ELLIPSIS
    'self-play of 4 games: ... of 4 games differ'
    """
    from bgcore.selfplay import play

    x = play(games, a, seed=seed, threads=threads)  # type: ignore[arg-type]
    y = play(games, b, seed=seed, threads=threads)  # type: ignore[arg-type]
    differ = 0
    for g in range(games):
        xb, yb = x.boards[x.game == g], y.boards[y.game == g]
        differ += xb.shape != yb.shape or bool((xb != yb).any()) or x.results[g] != y.results[g]
    return f"self-play of {games:,} games: {differ:,} of {games:,} games differ" if differ else ""


def play_match(match: Match, games: int, seed: int, threads: int, shared: Path) -> Row:
    """One match: its duel, its check, and how long it took."""
    from bgcore import duel
    from bgcore.rollouts import interval95

    row = Row(match.key, match.label, games, target=match.target)
    try:
        a, b = make_policy(match.a, shared), make_policy(match.b, shared)
    except (ImportError, OSError) as exc:
        row.skipped = f"{type(exc).__name__}: {exc}"
        return row
    start = time.perf_counter()
    result = duel(a, b, games=games, seed=seed, threads=threads)
    row.seconds = time.perf_counter() - start
    row.points, row.stderr = result.points, result.stderr
    row.low, row.high = interval95(result.points, result.stderr)
    row.won, row.lost = result.wins
    gnubg = next((p for p in (a, b) if type(p).__name__ == "GnubgZeroPly"), None)
    if gnubg is not None:
        per_board = 1e6 * gnubg.seconds / max(gnubg.boards, 1)
        row.note = (
            f"gnubg: {gnubg.boards:,} boards in {gnubg.calls:,} calls, {per_board:.1f} µs a board, "
            f"{gnubg.seconds / row.seconds:.0%} of the time"
        )
    if match.key == "wildbg-pubeval":
        row.verdict = _met(row.points >= 0.5)
    elif match.key == "wildbg-gnubg":
        row.verdict = _met(row.points >= -0.15)
    elif match.key == "pubeval-gnubg":
        row.verdict = _met(agrees(row.points, row.stderr))
    elif match.key == "native-onnxruntime":
        selfplay = max(2, round(SELFPLAY_GAMES * games / match.games))
        differs = equal_play(a, b, selfplay, seed, threads)
        exact = result.points == 0.0 and result.stderr == 0.0
        row.verdict = _met(exact and not differs)
        duel_text = "every pair of games cancels" if exact else "the duel's pairs do not all cancel"
        row.note = f"{duel_text}; " + (differs or f"self-play of {selfplay:,} games: every position and result equal")
    return row


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def markdown(rows: Sequence[Row]) -> str:
    """The table of a run's rows."""
    lines = [
        "| match | games | points per game | 95% interval | won-lost | target | | seconds |",
        "|---|---:|---:|---|---:|---|---|---:|",
    ]
    for r in rows:
        if r.skipped:
            lines.append(f"| {r.label} | | skipped: {r.skipped} | | | {r.target} | | |")
            continue
        points = f"{r.points:+.3f} ± {r.stderr:.3f}"
        lines.append(
            f"| {r.label} | {r.games:,} | {points} | {r.low:+.3f} to {r.high:+.3f} | {r.won:,}-{r.lost:,} "
            f"| {r.target} | {r.verdict} | {r.seconds:.1f} |"
        )
    notes = [f"- {r.label}: {r.note}" for r in rows if r.note]
    return "\n".join(lines + (["", *notes] if notes else []))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2, help="the engine's threads (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="the dice's seed, the same for every match (default 1)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply every match's games (default 1; at least 2 games each)"
    )
    parser.add_argument(
        "--only", nargs="+", choices=[m.key for m in MATCHES], metavar="MATCH", help="play only these matches"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of Markdown")
    add_shared_argument(parser)
    args = parser.parse_args(argv)
    if args.scale <= 0 or not 1 <= args.threads <= 64 or args.seed < 0:
        parser.error("--scale must be > 0, --threads 1 to 64 and --seed >= 0")
    return args


def main(argv: Sequence[str] | None = None, *, out: Callable[[str], object] = print) -> int:
    """Play the matches and print their table (or JSON) with ``out``."""
    from timing import machine_line

    args = parse_args(argv)
    command = shlex.join(["python", "bench/strength.py", *(sys.argv[1:] if argv is None else argv)])
    matches = [m for m in MATCHES if args.only is None or m.key in args.only]
    load_before = os.getloadavg()
    start = time.perf_counter()
    rows = [play_match(m, max(2, round(m.games * args.scale)), args.seed, args.threads, args.shared) for m in matches]
    seconds = time.perf_counter() - start
    load_after = os.getloadavg()
    header = {
        "command": command,
        "commit": git_commit(),
        "machine": machine_line(),
        "threads": args.threads,
        "seed": args.seed,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "seconds": round(seconds, 1),
    }
    if args.json:
        table = [{k: None if isinstance(v, float) and math.isnan(v) else v for k, v in asdict(r).items()} for r in rows]
        out(json.dumps({**header, "rows": table}, indent=2))
    else:
        out(f"`{command}` at commit {header['commit']}")
        out(f"{header['machine']}; {args.threads} threads, seed {args.seed}")
        out(
            f"load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in load_before)}; "
            f"after: {', '.join(f'{x:.2f}' for x in load_after)}; {seconds:.0f} s in all\n"
        )
        out("Duplicate cubeless money games; points per game for the first policy ± standard error.\n")
        out(markdown(rows))
    exact = next((r for r in rows if r.key == "native-onnxruntime" and not r.skipped), None)
    return 1 if exact is not None and exact.verdict != "met" else 0


if __name__ == "__main__":
    raise SystemExit(main())
