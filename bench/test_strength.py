"""bench/strength.py and its gnubg 0-ply policy (bench/gnubg_policy.py).

The policy is checked against gnubg itself: ranked by ``rank_moves`` (the
command line's ranking, the engine's choice first), the plays of a few
hundred positions and rolls come in the order of ``gnubg.findbestmoves`` at
0-ply, cubeless, with its scores.  ``findbestmoves`` cuts a move at its
first bear-off, so rolls with a play that bears off are left out.

The scores are not always the same bits: ``findbestmoves`` runs its
network incrementally (gnubg's ``NNEVAL_FROMBASE``: the hidden sums of one
play updated by the inputs that differ in the next), ``gnubg.evaluate``
afresh.  Most scores agree to 1e-6; a few in a thousand differ by up to
about 1e-3, which may swap two plays that close.  The
script itself runs once with a few games a match, as the suite's smoke test.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

import numpy as np
import pytest

import gnubg_native
import strength
from bgcore import Position, nets
from bgcore.cli.inputs import rank_moves
from bgcore.selfplay import selfplay_positions

SHARED = Path(os.environ.get(nets.WILDBG_ONNX_ENV) or strength.ROOT.parent / "shared" / "nets" / "wildbg")
# How far a findbestmoves score may stray from gnubg.evaluate's (see above), how
# close most are, and how close two plays are to be a tie (in either order).
STRAY = 2e-3
CLOSE = 1e-5
TIE = 1e-5


def gnubg_ranking(position: Position, dice: tuple[int, int]) -> list[tuple[str, float]] | None:
    """gnubg's own 0-ply cubeless ranking: (the result's Position ID, the mover
    still on roll; the score) of each play, best first; None when a play bears
    off (findbestmoves would cut it) or there is none."""
    import gnubg

    generated = gnubg_native.oracle.generate_moves(position.board, *dice)
    if not generated or any(to == 0 for m in generated for _, to in m.steps):
        return None
    steps = {tuple(p for step in m.steps for p in step): m.position_id for m in generated}
    board = gnubg_native.oracle.gnubg_tuple(position.board)
    found = gnubg.findbestmoves(board, gnubg_native.oracle.money_cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0), dice)
    return [(steps[tuple(m["move"])], float(m["score"])) for m in found]


def in_tie_order(ranking: list[tuple[str, float]]) -> list[str]:
    """The Position IDs of a ranking, sorted by ID within each run of tied scores."""
    runs: list[list[tuple[str, float]]] = []
    for pid, score in ranking:
        if runs and abs(runs[-1][-1][1] - score) <= TIE:
            runs[-1].append((pid, score))
        else:
            runs.append([(pid, score)])
    return [pid for run in runs for pid in sorted(p for p, _ in run)]


def test_the_gnubg_policy_ranks_the_plays_as_gnubg() -> None:
    gnubg_native.oracle.require()
    from gnubg_policy import GnubgZeroPly

    policy = GnubgZeroPly()
    rng = random.Random(28)
    positions = selfplay_positions(300, seed=28, policy="heuristic") + selfplay_positions(100, seed=29)
    rolls = plays = close = same_order = same_best = 0
    for position in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        theirs = gnubg_ranking(position, dice)
        if theirs is None:
            continue
        ranked = rank_moves(position, dice, policy)
        ours = [(position.play(m).flip().position_id(), float(s or 0)) for m, s in ranked]
        assert dict(ours) == pytest.approx(dict(theirs), abs=STRAY), (position, dice)
        rolls += 1
        plays += len(ours)
        close += sum(abs(s - dict(theirs)[pid]) <= CLOSE for pid, s in ours)
        same_order += in_tie_order(ours) == in_tie_order(theirs)
        same_best += ours[0][0] == theirs[0][0]
    assert rolls > 250 and plays > 10 * rolls
    assert close >= 0.99 * plays and same_order >= 0.99 * rolls and same_best >= 0.995 * rolls
    assert policy.boards >= plays and policy.seconds > 0


def test_the_gnubg_policy_scores_a_won_game_by_its_result() -> None:
    gnubg_native.oracle.require()
    from gnubg_policy import GnubgZeroPly

    policy = GnubgZeroPly()
    # the mover bears off its last checker: a single game, a gammon, a backgammon
    won = np.zeros((3, 26), dtype=np.int8)
    won[0, 24] = -15  # the opponent's checkers all home, none off (after the flip: a gammon)
    won[1, 3] = -15  # all in the mover's home board: a backgammon
    won[2, 24] = -1  # 14 off: a single game
    assert policy(won, np.array([0, 3])).tolist() == [2.0, 3.0, 1.0]
    start = Position.initial().to_array()
    p = policy.evaluate(start[None])[0]
    assert p[5] == pytest.approx(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4], abs=1e-6)


def test_the_exactness_check_fails_on_unequal_play() -> None:
    match = strength.Match("native-onnxruntime", "wildbg vs pubeval", "wildbg", "pubeval", 2000, "exactly 0")
    row = strength.play_match(match, 40, seed=1, threads=1, shared=SHARED)
    assert row.verdict == "NOT met" and "games differ" in row.note and row.points != 0


def test_agreement_with_the_earlier_measure() -> None:
    earlier = (-0.71, 0.03, 2000)
    assert strength.agrees(-0.71 + 1.9 * math.hypot(0.02, 0.03), 0.02, earlier)
    assert not strength.agrees(-0.71 + 2.0 * math.hypot(0.02, 0.03), 0.02, earlier)


def onnx_reason() -> str | None:
    """Why the exactness row cannot be played here, or None."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return "no onnxruntime (the nn extra)"
    if not all((SHARED / f).is_file() for f in ("contact.onnx", "race.onnx")):
        return f"wildbg's ONNX files are not in {SHARED}"
    return None


def test_a_small_run(capsys: pytest.CaptureFixture[str]) -> None:
    """Every match with a few games (twenty; four for the exactness check):
    the JSON and the Markdown, the command line and the commit in both."""
    gnubg_native.oracle.require()
    reason = onnx_reason()
    if reason and os.environ.get("BGCORE_REQUIRE_ORACLE") == "1":
        pytest.fail(f"{reason}, and BGCORE_REQUIRE_ORACLE=1")
    argv = ["--scale", "0.002", "--seed", "3", "--shared", str(SHARED), "--json"]
    assert strength.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["command"] == "python bench/strength.py " + " ".join(argv)
    assert report["commit"] and report["threads"] == 2
    rows = {r["key"]: r for r in report["rows"]}
    assert list(rows) == [m.key for m in strength.MATCHES]
    for key, row in rows.items():
        if key == "native-onnxruntime" and reason:
            assert reason.split(" (")[0] in row["skipped"]
            continue
        assert not row["skipped"] and row["games"] == (4 if key == "native-onnxruntime" else 20)
        assert row["won"] + row["lost"] == row["games"] and row["low"] <= row["points"] <= row["high"]
    if not reason:
        exact = rows["native-onnxruntime"]
        assert exact["verdict"] == "met" and exact["points"] == 0 and exact["stderr"] == 0
        assert "every position and result equal" in exact["note"]
    assert "gnubg:" in rows["pubeval-gnubg"]["note"] and rows["pubeval-random"]["points"] > 1
    # the Markdown table of two matches
    assert strength.main(["--scale", "0.002", "--only", "pubeval-random", "wildbg-pubeval"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("`python bench/strength.py --scale 0.002 --only pubeval-random wildbg-pubeval` at commit ")
    table = [line for line in out.splitlines() if line.startswith("| ")]
    assert len(table) == 3 and table[1].startswith("| wildbg (native) vs pubeval | 20 | ")
