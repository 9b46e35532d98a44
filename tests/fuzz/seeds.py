"""Write the seed corpus of every harness: ``python tests/fuzz/seeds.py``.

The seeds are real inputs: Position IDs of the public move-generation vectors
(tests/data), Match IDs and XGIDs of gnubg's and XG's layouts, legal moves of
those positions, ``.mat`` files in gnubg's export layout (tests/test_matfile_gnubg.py
checks bgcore writes that layout byte for byte), command lines from the CLI guide,
and encoded batches and boards. Rerunning it rewrites the same files (seeded).
A file whose name starts with ``bad-`` is an input that must be refused.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: matplay

import matplay  # noqa: E402
from bgcore import Game, Position  # noqa: E402
from bgcore.ids import MatchId  # noqa: E402

INITIAL = "4HPwATDgc/ABMA"


def vectors(count: int) -> list[dict[str, Any]]:
    """The first ``count`` cases of each source tag of the move-generation vectors."""
    seen: dict[str, int] = {}
    out = []
    with (HERE.parent / "data" / "movegen-public.jsonl").open() as f:
        for line in f:
            case = json.loads(line)
            src = next((t for t in case["tags"] if t.startswith("src:")), "")
            if seen.get(src, 0) < count:
                seen[src] = seen.get(src, 0) + 1
                out.append(case)
    return out


def match_ids() -> list[str]:
    states = [
        MatchId(),
        MatchId(player_on_roll=1),
        MatchId(match_length=5, dice=(6, 2)),
        MatchId(match_length=7, score=(6, 3), crawford=True, dice=(5, 5)),
        MatchId(cube=4, cube_owner=1, match_length=11, score=(2, 4), dice=(3, 1)),
        MatchId(cube=2, cube_owner=0, double_offered=True, turn=1),
        MatchId(match_length=64, score=(63, 62)),
        MatchId(jacoby=False, cube=8, cube_owner=None, game_state=1),
    ]
    return [state.encode() for state in states] + ["cAkAAAAAAAAA", "MAGrAAAAAAAE", "cIkKAAAAAAAA"]


def xgids(rng: random.Random) -> list[str]:
    texts = [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:7:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10",
        "XGID=-b----E-C---eE---c-e----B-:1:0:1:00:6:0:1:7:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:41:0:0:3:0:10",
        "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ]
    for game in selfplay_games(rng, 6):
        texts.append(game.xgid())
    return texts


def selfplay_games(rng: random.Random, count: int) -> list[Game]:
    """Games some random plies in, stopped before a roll or after one."""
    out = []
    for i in range(count):
        game = Game(match_length=rng.choice([0, 3, 7]), dice=i)
        for _ in range(rng.randint(2, 30)):
            if game.result is not None:
                break
            if game.dice is None:
                game.roll()
            else:
                game.play(rng.choice(list(game.legal_moves())))
        if game.result is None:
            out.append(game)
    return out


def write(target: str, seeds: dict[str, bytes]) -> None:
    folder = HERE / "corpus" / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, data in seeds.items():
        (folder / name).write_bytes(data)


def named(items: list[bytes], prefix: str = "") -> dict[str, bytes]:
    """Seeds named by a hash of their content (libFuzzer's way), stable across runs."""
    return {prefix + hashlib.sha1(data).hexdigest()[:12]: data for data in items}


def main() -> None:
    rng = random.Random(2024)
    cases = vectors(3)
    ids = [str(c["position_id"]) for c in cases]
    write("position_id", named([i.encode() for i in ids]) | named([b"4HPwATDgc/ABM", b"////////////// "], "bad-"))
    mids = match_ids()
    write("match_id", named([m.encode() for m in mids]) | named([b"cAkAAAAAAAA", b"cAkAAAAAAA*A"], "bad-"))
    gnubg = [f"{INITIAL}:{m}" for m in mids] + [f"{ids[3]}:{mids[2]}", f"{mids[4]}:{ids[5]}"]
    gnubg += [game.gnubg_id() for game in selfplay_games(rng, 6)]
    write("gnubg_id", named([g.encode() for g in gnubg]) | named([f"{INITIAL}:{INITIAL}".encode()], "bad-"))
    write(
        "xgid", named([x.encode() for x in xgids(rng)]) | named([b"XGID=-b----E-C---eE---c-e----B-:0:0:1:00"], "bad-")
    )
    moves = []
    for case in cases:
        position = Position.from_position_id(str(case["position_id"]), checkers=15)
        dice = (case["dice"][0], case["dice"][1])
        legal = position.legal_moves(dice)
        if legal:
            moves.append(f"{case['position_id']} {dice[0]}{dice[1]} {legal[rng.randrange(len(legal))]}")
    moves += [
        f"{INITIAL} 31 8/5 6/5",
        f"{INITIAL} 66 24/18(2) 13/7*(2)",
        f"{INITIAL} 52 bar/23 13/8",
        f"{INITIAL} 11 -",
    ]
    write("move", named([m.encode() for m in moves]) | named([f"{INITIAL} 71 8/1".encode()], "bad-"))
    mats = [matplay.scripted().to_mat(("Ann", "Ben"))]
    mats += [
        matplay.random_match(length, seed, max_games=2).to_mat() for length, seed in [(1, 1), (3, 2), (5, 3), (0, 4)]
    ]
    write(
        "mat",
        named([m.encode() for m in mats])
        | named([b" 3 point match\n Game 1\n A : 0  B : 0\n  1) 52: 24/20 13/8\n"], "bad-"),
    )
    argvs = [
        ["show", INITIAL],
        ["show", "--svg", "board.svg", "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:7:10"],
        ["moves", INITIAL, "31"],
        ["moves", "--policy", "pubeval", gnubg[2]],
        ["moves", "--policy", "random", "--seed", "3", ids[4], "6-6"],
        ["convert", INITIAL, "--to", "xgid"],
        ["convert", "0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0"],
        ["convert", "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"],
        ["perft", "--depth", "2", "--threads", "1"],
        ["perft", "--depth", "1", "--variant", "hypergammon", ids[0]],
        ["rollout", "--games", "36", "--policy", "race", "--no-progress", ids[1]],
        ["demo", "--seconds", "0.01", "--dice", "6-5"],
        ["--version"],
        ["moves", INITIAL, "7", "1"],
    ]
    cli = [("\n".join(argv)).encode() for argv in argvs]
    cli.append(b"mat\ngame.mat\n----\n" + mats[0].encode())
    cli.append(b"play\n--seed\n5\n--no-clear\n----\n\nhint\n8/5 6/5\nundo\nquit\n")
    cli.append(b"play\n--match\n3\n--variant\nacey-deucey\n----\n\n\n")
    write("cli", named(cli))
    batch = []
    for case in cases[:12]:
        board = Position.from_position_id(str(case["position_id"]), checkers=15).to_array().astype("int8")
        dice = case["dice"]
        # fuzz_batch's layout: rows, then per row: raw flag, 26 bytes, the dice; dtype, threads, flip
        batch.append(bytes([1, 1]) + board.tobytes() + bytes(dice) + bytes([0, 0, 0]))
    batch.append(bytes([3]) + bytes([0, 0, 0, 3, 1, 0, 1, 0, 6, 6, 0, 2, 0, 5, 2]) + bytes([4, 1, 1]))
    write("batch", named(batch))
    positions = []
    for case in cases[:12]:
        counts = Position.from_position_id(str(case["position_id"]), checkers=15).board
        # fuzz_position's layout: mode, checkers index, length (26 = 6 + 20), per value: kind, byte
        encoded = b"".join(bytes([0, v + 16]) for v in counts)
        positions.append(bytes([rng.randrange(4), 0, 6]) + encoded + bytes([3, 1]))
    write("position", named(positions))


if __name__ == "__main__":
    main()
