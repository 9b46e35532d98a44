"""Cross-check against GNU Backgammon's own C move generator (the gnubg package).

gnubg's ``findbestmoves`` cuts move tuples at the first bear-off, so the
oracle (``tests/oracle.py``) calls its C ``GenerateMoves`` through ctypes.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings

import oracle
from bgcore import Position, batch
from bgcore.rules import ROLLS
from bgcore.selfplay import selfplay_positions
from strategies import random_boards

oracle.require()


def compare(pos: Position, dice: tuple[int, int]) -> list[str]:
    """Differences between bgcore and gnubg on one roll (empty when they agree)."""
    moves = pos.legal_moves(dice)
    ours = {pos.play(m).flip().position_id(): str(m) for m in moves}
    gnubg_moves = oracle.generate_moves(pos.board, *dice)
    if not gnubg_moves:  # gnubg lists no move for a lost turn; bgcore lists the empty one
        theirs = {pos.position_id(): ""}
    else:
        theirs = {m.position_id: oracle.format_move(m.steps, pos.board) for m in gnubg_moves}
    problems = []
    if set(ours) != set(theirs):
        problems.append(
            f"{pos!r} {dice}: results differ: only bgcore {sorted(set(ours) - set(theirs))}, "
            f"only gnubg {sorted(set(theirs) - set(ours))}"
        )
    else:
        for pid, text in ours.items():
            if text != theirs[pid]:
                problems.append(f"{pos!r} {dice}: bgcore writes {text!r}, gnubg {theirs[pid]!r}")
    return problems


@pytest.mark.parametrize(
    "variant,count,seed",
    [
        ("standard", 2000, 11),
        ("nackgammon", 300, 12),
        ("hypergammon", 300, 13),
    ],
)
def test_random_selfplay_positions_match_gnubg(variant: str, count: int, seed: int) -> None:
    rng = random.Random(seed)
    problems = []
    for pos in selfplay_positions(count, seed=seed, variant=variant):
        problems += compare(pos, (rng.randint(1, 6), rng.randint(1, 6)))
    assert not problems, f"{len(problems)} differences, e.g. {problems[:3]}"


def test_every_roll_matches_gnubg() -> None:
    problems = []
    for pos in selfplay_positions(150, seed=99):
        for dice in ROLLS:
            problems += compare(pos, dice)
    assert not problems, f"{len(problems)} differences, e.g. {problems[:3]}"


@pytest.mark.parametrize(
    "position_id",
    [
        "4HPwATDgc/ABMA",  # start
        "AAAAAAAAAAAAAA",  # both sides off
    ],
)
def test_position_ids_match_gnubg(position_id: str) -> None:
    import gnubg

    pos = Position.from_position_id(position_id)
    assert gnubg.positionid(oracle.gnubg_tuple(pos.board)) == position_id


def test_position_id_round_trip_with_gnubg() -> None:
    import gnubg

    for pos in selfplay_positions(500, seed=5) + selfplay_positions(100, seed=5, variant="hypergammon"):
        pid = pos.position_id()
        assert gnubg.positionid(oracle.gnubg_tuple(pos.board)) == pid
        theirs, mine = gnubg.positionfromid(pid)
        assert oracle.gnubg_tuple(pos.board) == (tuple(theirs), tuple(mine))


def test_xgid_matches_gnubg_set_xgid() -> None:
    import gnubg

    for _i, pos in enumerate(selfplay_positions(60, seed=21)):
        for turn_pos in (pos, pos.flip()):
            xgid = turn_pos.xgid()
            # the same board written with the other player at the bottom
            other = xgid.split(":")
            flipped = turn_pos.flip().xgid().split(":")
            other[0] = flipped[0]
            other[3] = "-1"
            for text in (xgid, ":".join(other)):
                gnubg.command(f"set xgid {text}")
                assert Position.from_xgid(text).position_id() == gnubg.positionid(), text


@pytest.mark.slow
@settings(max_examples=300)
@given(random_boards())
def test_random_boards_match_gnubg(board: tuple[int, ...]) -> None:
    pos = Position(board)
    if pos.is_game_over():
        return
    problems = []
    for dice in ROLLS:
        problems += compare(pos, dice)
    assert not problems, problems[:3]


def test_batch_results_are_distinct_and_as_many_as_gnubg_finds() -> None:
    # compare() matches sets of positions, which would hide a result listed
    # twice: here every row's boards must be distinct and as many as gnubg's.
    # The first position (6-5) is one where 13/8/2 low die first repeats
    # 8/2 13/8 played high die first, with 13/7 blocked.
    first = Position(tuple([0, 0, 0, 2, 1, 2, 3, -2, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, -4, -4, -1, 0, -2, -2, 2, 0]))
    positions = [first]
    positions += selfplay_positions(300, seed=41) + selfplay_positions(300, seed=42, policy="heuristic")
    positions += selfplay_positions(100, seed=43, variant="nackgammon")
    boards = np.repeat(np.stack([p.to_array() for p in positions]), len(ROLLS), axis=0)
    dice = np.tile(np.array(ROLLS, np.uint8), (len(positions), 1))
    children, offsets = batch.generate(boards, dice)
    counts = batch.count(boards, dice)
    assert np.diff(offsets).tolist() == counts.tolist()
    problems = []
    for i, (board, roll) in enumerate(zip(boards, dice, strict=True)):
        rows = children[offsets[i] : offsets[i + 1]]
        expected = max(1, len(oracle.generate_moves(board.tolist(), int(roll[0]), int(roll[1]))))
        if len({r.tobytes() for r in rows}) != len(rows) or len(rows) != expected:
            problems.append(f"{board.tolist()} {roll.tolist()}: {len(rows)} rows, gnubg {expected}")
    assert not problems, f"{len(problems)} rows differ, e.g. {problems[:3]}"
