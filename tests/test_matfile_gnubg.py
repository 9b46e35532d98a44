""".mat files against GNU Backgammon itself.

bgcore plays seeded random matches, writes them with ``to_mat``, gnubg
imports them (``import mat``) and must hold the same games: every move,
cube action and resignation, winners, points and scores.  gnubg's own
export of what it imported (``export match mat``) must be our file byte for
byte from the `` N point match`` line on, and read back with ``from_mat``
into the same games.  Matches that gnubg itself records (both sides played
through its commands) must read back as gnubg holds them.  Every file of
the corpus (tests/data/mat/, irregular ones included) must read into the
games gnubg's import makes of it: winner, points and score of each.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import matplay
import oracle
from bgcore import Match, Position
from bgcore.game import Action, End
from bgcore.ids import board_from_gnubg
from bgcore.matfile import read

oracle.require()
gnubg = pytest.importorskip("gnubg")


@pytest.fixture(scope="module", autouse=True)
def _gnubg_defaults() -> Iterator[None]:
    """Put back the settings these tests change, for the tests after them."""
    yield
    command(
        "set jacoby on",
        "set beavers 3",
        "set automatic game on",
        "set player 0 gnubg",
        "set player 1 human",
    )


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """gnubg draws the board on file descriptor 1 after every command."""
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def command(*lines: str) -> None:
    with quiet():
        for line in lines:
            gnubg.command(line)


CORPUS = sorted((Path(__file__).parent / "data" / "mat").glob("*.mat"))


def gnubg_import(text: str, folder: Path, *, jacoby: bool = False, beavers: bool = False) -> tuple[dict[str, Any], str]:
    """gnubg's match after importing ``text``, and gnubg's export of it."""
    source, exported = folder / "in.mat", folder / "out.mat"
    source.write_text(text, encoding="utf-8")
    exported.unlink(missing_ok=True)
    command(
        f"set jacoby {'on' if jacoby else 'off'}",
        f"set beavers {1 if beavers else 0}",
        f"import mat {source}",
        f"export match mat {exported}",
    )
    return gnubg.match(), exported.read_text()


def body(text: str) -> str:
    """The file from its `` N point match`` line on: gnubg writes its own
    header (the import date) and none of eXtreme Gammon's tags."""
    found = re.search(r"^ \d+ point match$", text, re.MULTILINE)
    assert found, text
    return text[found.start() :]


def header(text: str) -> str:
    return text[: len(text) - len(body(text))]


# --- what gnubg holds ------------------------------------------------------------------


def gnubg_games(match: dict[str, Any]) -> list[tuple[object, ...]]:
    """Score, actions and result of each game of ``gnubg.match()``
    (X is player 0, O player 1; steps sorted, 25 the bar and 0 off)."""
    out = []
    for game in match["games"]:
        actions: list[tuple[object, ...]] = []
        for a in game["game"]:
            player = 0 if a["player"] == "X" else 1
            kind = a["action"]
            if kind == "move":
                steps = tuple(sorted((tuple(step) for step in a.get("move", ())), reverse=True))
                actions.append(("move", player, tuple(a["dice"]), steps))
            elif kind == "set":
                actions.append(("dice", player, tuple(a["dice"])))
            elif kind == "resign":
                actions.append(("resign", player, a["points"]))
            else:
                actions.append((kind, player))
        info = game["info"]
        result = None
        if info.get("winner") is not None:
            result = (0 if info["winner"] == "X" else 1, info["points-won"], bool(info["resigned"]))
        out.append(((info["score-X"], info["score-O"]), tuple(actions), result))
    return out


def expected_games(match: Match) -> list[tuple[object, ...]]:
    """What gnubg should hold for a bgcore match: a roll and its move are one
    record; a roll followed by a resignation is the roll alone, or the move
    when the roll has a single play (gnubg's import plays it); a beaver is a
    redouble that the doubler takes; a rejected resignation leaves nothing."""
    out = []
    for game in match.games:
        history = [r for r in game.history]
        kept = []
        for rec in history:  # drop rejected resignations
            if rec.action is Action.REJECT:
                kept.pop()
            else:
                kept.append(rec)
        position = Position.initial(game.variant)
        actions: list[tuple[object, ...]] = []
        for k, rec in enumerate(kept):
            following = kept[k + 1] if k + 1 < len(kept) else None
            if rec.action is Action.ROLL:
                assert rec.dice is not None
                dice = (max(rec.dice), min(rec.dice)) if k == 0 else rec.dice
                move = None
                if following is not None and following.action is Action.MOVE:
                    move = following.move
                elif following is not None and len(plays := position.legal_moves(dice)) == 1:
                    move = plays[0]
                if move is None:
                    actions.append(("dice", rec.player, dice))
                else:
                    actions.append(("move", rec.player, dice, tuple(sorted(move.steps, reverse=True))))
                    position = position.play(move)
            elif rec.action is Action.RESIGN:
                assert rec.kind is not None
                actions.append(("resign", rec.player, int(rec.kind)))
            elif rec.action is Action.BEAVER:
                actions.append(("double", rec.player))  # a redouble: the doubler then takes or drops
            elif rec.action in (Action.DOUBLE, Action.TAKE, Action.DROP):
                actions.append((rec.action.value, rec.player))
        result = None
        if game.result is not None:
            points = game.result.points
            if game.result.end is End.RESIGNED and match.jacoby:
                points = int(game.result.kind) * game.result.cube  # gnubg's Jacoby rule spares resignations
            result = (game.result.winner, points, game.result.end is End.RESIGNED)
        out.append((game.score, tuple(actions), result))
    return out


# --- bgcore writes, gnubg reads ------------------------------------------------------

CASES = (
    [(length, seed, {}) for length in (1, 3, 5, 7, 11, 0) for seed in range(6)]
    + [(length, seed, {"double": 0.01, "resign": 0.001}) for length in (1, 3, 7) for seed in range(6)]
    + [(0, seed, {"beavers": True}) for seed in range(4)]
    + [(0, seed, {"jacoby": True}) for seed in range(4)]
    + [(0, seed, {"jacoby": True, "beavers": True, "max_cube": 16}) for seed in range(4)]
    + [(5, seed, {"variant": "nackgammon"}) for seed in range(3)]
    + [(3, seed, {"variant": "hypergammon"}) for seed in range(3)]
    + [(7, seed, {"max_cube": 4}) for seed in range(3)]
    + [(7, seed, {"crawford": False}) for seed in range(3)]
)


@pytest.mark.parametrize("finish", [True, False], ids=["finished", "stopped"])
@pytest.mark.parametrize("length,seed,options", CASES)
def test_gnubg_reads_what_we_write(
    length: int, seed: int, options: dict[str, Any], finish: bool, tmp_path: Path
) -> None:
    match = matplay.random_match(length, seed, max_games=5, finish=finish, **options)
    ours = match.to_mat(("Alice", "Bob"))
    held, exported = gnubg_import(ours, tmp_path, jacoby=match.jacoby, beavers=match.beavers)
    assert held["match-info"]["match-length"] == length
    assert (held["match-info"]["X"]["name"], held["match-info"]["O"]["name"]) == ("Alice", "Bob")
    assert gnubg_games(held) == expected_games(match)
    # gnubg writes what it read as we wrote it ...
    assert body(exported) == body(ours)
    # ... and that reads back into the same games (gnubg leaves out XG's
    # Jacoby, Beaver, Crawford and CubeLimit tags: they are put back)
    again = read(header(ours) + body(exported)).match
    assert matplay.summary(again) == matplay.summary(match)
    assert again.score == match.score


def test_the_scripted_match(tmp_path: Path) -> None:
    match = matplay.scripted()
    ours = match.to_mat(("Ann", "Ben"))
    held, exported = gnubg_import(ours, tmp_path)
    assert body(exported) == body(ours)
    assert gnubg_games(held) == expected_games(match)
    results = [game["info"] for game in held["games"]]
    assert [(r["winner"], r["points-won"], r["resigned"]) for r in results] == [
        ("O", 2, False),  # the left-column drop of the redouble
        ("X", 1, True),  # player 1 resigns in the Crawford game
        ("X", 1, False),  # the right-column drop
        ("O", 1, True),  # player 0 resigns: the match
    ]
    assert [r.get("crawford") for r in results] == [None, True, False, False]
    assert (results[-1]["score-X"], results[-1]["score-O"] + results[-1]["points-won"]) == match.score == (2, 3)


def test_why_a_left_drop_and_its_wins_share_a_line(tmp_path: Path) -> None:
    """gnubg's import takes a 'Wins' line after a lone left-column 'Drops'
    for a resignation: the game comes out resigned, with the wrong record."""
    ours = matplay.scripted().to_mat(("Ann", "Ben"))
    one_line = "  6)  Drops                       Wins 2 points \n"
    assert one_line in ours
    held, _ = gnubg_import(ours, tmp_path)
    assert held["games"][0]["info"]["resigned"] is False
    split = ours.replace(one_line, "  6)  Drops\n" + " " * 34 + "Wins 2 points\n")
    held, _ = gnubg_import(split, tmp_path)
    assert held["games"][0]["info"]["resigned"] is True  # misread
    assert Match.from_mat(split).games[0].result == matplay.scripted().games[0].result  # bgcore is not fooled


def test_player_1_resigns_right_after_winning_the_opening(tmp_path: Path) -> None:
    """We write the roll in player 1's column and gnubg imports it so; gnubg's
    own export puts an unmoved opening roll in the left column."""
    match = Match(3, dice=1)
    game = match.game
    game.roll((2, 6))
    game.resign("single")
    game.accept()
    ours = match.to_mat()
    assert "  1)                             62: \n      Wins 1 point\n" in ours
    held, exported = gnubg_import(ours, tmp_path)
    assert gnubg_games(held) == expected_games(match)
    assert "  1) 62: " in exported


# --- gnubg writes, bgcore reads ------------------------------------------------------


def gnubg_plays(length: int, seed: int, games: int = 4) -> dict[str, Any]:
    """A match recorded by gnubg, both sides entered through its commands:
    gnubg's dice, random legal moves, random doubles, takes, drops and
    resignations, some rejected."""
    rng = random.Random(seed)
    command(
        f"set seed {seed}",
        "set player 0 human",
        "set player 1 human",
        "set automatic game off",
        "set jacoby off",
        "set beavers 0",
        f"new match {length}",
    )
    for _ in range(5000):
        info = gnubg.posinfo()
        if info["gamestate"] != 1:  # the game is over
            over = length and gnubg.match()["match-info"]["result"] != 0
            if over or len(gnubg.match()["games"]) >= games:
                break
            command("new game")
        elif info["resigned"]:
            command(rng.choice(["accept", "accept", "reject"]))
        elif info["doubled"]:
            command(rng.choice(["take", "take", "drop"]))
        elif info["dice"] == (0, 0):
            r = rng.random()
            if r < 0.03:
                command("double")
                if gnubg.posinfo()["doubled"]:
                    continue
            if r > 0.985:
                command(rng.choice(["resign normal", "resign gammon", "resign backgammon"]))
                continue
            command("roll")
        else:
            theirs, mine = gnubg.board()
            moves = list(Position(board_from_gnubg(theirs, mine)).legal_moves(info["dice"]))
            command("move " + str(rng.choice(moves)))
    match: dict[str, Any] = gnubg.match()
    return match


PLAYED = [(1, 1), (3, 2), (5, 3), (7, 4), (9, 5), (0, 6), (0, 7), (3, 8), (7, 10), (11, 11)]


@pytest.mark.parametrize("length,seed", PLAYED)
def test_we_read_what_gnubg_records(length: int, seed: int, tmp_path: Path) -> None:
    held = gnubg_plays(length, seed)
    exported = tmp_path / "played.mat"
    command(f"export match mat {exported}")
    text = exported.read_text()
    mat = read(text)
    assert mat.names == (held["match-info"]["X"]["name"], held["match-info"]["O"]["name"])
    assert expected_games(mat.match) == gnubg_games(held)
    assert len(mat.match.games) == len(held["games"])
    if length and held["match-info"]["result"]:
        assert mat.match.winner == (0 if held["match-info"]["result"] < 0 else 1)


# --- the corpus: irregular files read as gnubg's import reads them ------------------------


def gnubg_results(held: dict[str, Any]) -> list[tuple[object, ...]]:
    """Each game's score, and its winner and points (None while it goes on), as gnubg holds them."""
    out: list[tuple[object, ...]] = []
    for game in held["games"]:
        info = game["info"]
        won = None if info.get("winner") is None else (0 if info["winner"] == "X" else 1, info["points-won"])
        out.append(((info["score-X"], info["score-O"]), won))
    return out


def our_results(match: Match) -> list[tuple[object, ...]]:
    return [(g.score, None if g.result is None else (g.result.winner, g.result.points)) for g in match.games]


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_corpus_reads_as_gnubg_imports_it(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    held, _ = gnubg_import(text, tmp_path)
    match = read(path).match
    assert our_results(match) == gnubg_results(held)
    last = held["games"][-1]["info"]
    final = [last["score-X"], last["score-O"]]
    if last.get("winner") is not None:
        final[0 if last["winner"] == "X" else 1] += last["points-won"]
    assert match.score == tuple(final)


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_corpus_written_back_reads_the_same(path: Path, tmp_path: Path) -> None:
    """bgcore's to_mat of what it read: gnubg and bgcore read the same games back."""
    mat = read(path)
    ours = mat.match.to_mat(mat.names)
    held, _ = gnubg_import(ours, tmp_path)
    assert gnubg_results(held) == our_results(mat.match)
    again = read(ours)
    assert our_results(again.match) == our_results(mat.match)
    # a resignation out of turn or an illegal play is still one when written back
    assert len(again.warnings) <= len(mat.warnings)


def cut_and_resign(text: str, rng: random.Random) -> str:
    """Each game of ``text`` cut after a random line and ended by a ``Wins``
    line in a random column for random points: resignations by either
    player at any moment (out of turn, a double waiting, the dice rolled),
    points that are no kind times the cube, score lines that no longer
    follow from the games before."""
    out: list[str] = []
    games = re.split(r"(?m)^(?= Game \d+$)", text)
    out.append(games[0])
    for chunk in games[1:]:
        lines = chunk.rstrip("\n").split("\n")
        head, moves = lines[:2], [line for line in lines[2:] if line.strip() and "Wins" not in line]
        kept = moves[: rng.randrange(1, len(moves) + 1)] if moves else []
        points = rng.choice([1, 2, 3, 4, 5, 6, 8, 16, 100])
        wins = (" " * 6 if rng.random() < 0.5 else " " * 34) + f"Wins {points} point{'s' if points > 1 else ''}"
        out.append("\n".join([*head, *kept, wins]) + "\n\n")
    return "".join(out)


@pytest.mark.parametrize("seed", range(16))
def test_random_resignations_read_as_gnubg_reads_them(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    match = matplay.random_match(rng.choice([3, 7, 11]), seed, max_games=4, double=0.06, resign=0.0)
    text = cut_and_resign(match.to_mat(("Al", "Bo")), rng)
    held, _ = gnubg_import(text, tmp_path)
    ours = read(text)
    assert our_results(ours.match) == gnubg_results(held), text
    again = ours.match.to_mat(ours.names)
    assert gnubg_results(gnubg_import(again, tmp_path)[0]) == our_results(ours.match), again


def drop_a_line(text: str, rng: random.Random) -> str:
    """``text`` with one line of moves left out (no cube action, no Wins on
    it): turns missing from the record, the moves after it played on the
    board they find, legal or not, as gnubg's import plays them."""
    lines = text.split("\n")
    moves = [k for k, line in enumerate(lines) if re.match(r"\s*\d+\) ", line) and ":" in line]
    moves = [k for k in moves if not re.match(r"\s*1\) ", lines[k])]  # (the opening roll stays)
    moves = [k for k in moves if not re.search(r"Doubles|Takes|Drops|Wins|Beavers", lines[k])]
    if moves:
        del lines[rng.choice(moves)]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(16))
def test_lines_left_out_read_as_gnubg_reads_them(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    match = matplay.random_match(rng.choice([3, 7]), seed, max_games=3, double=0.06, resign=0.01)
    text = drop_a_line(match.to_mat(("Al", "Bo")), rng)
    held, _ = gnubg_import(text, tmp_path)
    assert our_results(read(text).match) == gnubg_results(held), text
    # (not written back: a roll left unplayed that had a single play is
    # written as a roll alone, which gnubg's import plays)
