"""Games against GNU Backgammon itself: the gnubg ID and the XGID of every
state of seeded random games load into gnubg as the same game; finished
games and matches read as gnubg holds them once it has imported them; a
beaver goes as gnubg plays it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import matplay
import oracle
from bgcore import Game, Match
from bgcore.game import Action, End
from bgcore.position import Outcome
from test_matfile_gnubg import command, quiet

oracle.require()
gnubg = pytest.importorskip("gnubg")


@pytest.fixture(scope="module", autouse=True)
def _human_players() -> Iterator[None]:
    """Both players human, so that gnubg waits for every command; gnubg's
    defaults are put back for the tests after these."""
    command("set player 0 human", "set player 1 human", "set automatic game off", "set automatic roll off")
    yield
    command(
        "set jacoby on",
        "set beavers 3",
        "set automatic game on",
        "set automatic roll on",
        "set player 0 gnubg",
        "set player 1 human",
    )


@pytest.mark.parametrize("length,seed", [(0, 1), (3, 2), (5, 3), (7, 4), (11, 5)])
def test_gnubg_loads_every_state_as_written(length: int, seed: int) -> None:
    """gnubg steps back from a pending double and ends games its own way, so
    those states are left out; every other one reads back byte for byte."""
    match = Match(length, dice=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(400):
        game = match.game
        if game.is_over():
            if match.is_over():
                break
            match.new_game()
            continue
        actions = [a for a in game.legal_actions() if a is not Action.RESIGN]
        action = rng.choice(actions)
        if action is Action.MOVE:
            game.play(rng.choice(list(game.legal_moves())))
        else:
            getattr(game, action.value)()
        if game.is_over() or game.doubled or game.opening:
            continue
        ours = oracle.comparable(game.gnubg_id(), length == 0)
        assert oracle.comparable(oracle.gnubg_reads(game.gnubg_id()), length == 0) == ours
        assert oracle.comparable(oracle.gnubg_reads(game.xgid()), length == 0) == ours, game.xgid()
        checked += 1
    assert checked > 50


# --- finished games, as gnubg imports them ------------------------------------------


def gnubg_game_ends(match: Match, folder: Path) -> list[str]:
    """gnubg's ID (``PositionID:MatchID``) at the end of each game of
    ``match``, once it has imported the match's .mat file."""
    path = folder / "match.mat"
    path.write_text(match.to_mat(("A", "B")))
    command(
        f"set jacoby {'on' if match.jacoby else 'off'}",
        f"set beavers {int(match.beavers)}",
        f"import mat {path}",
    )
    held = gnubg.match()
    assert held is not None and len(held["games"]) == len(match.games), path.read_text()
    ends = []
    with quiet():
        gnubg.navigate(game=-(10**6))  # to the first game
        for k in range(len(match.games)):
            if k:
                gnubg.navigate(game=1)
            gnubg.navigate(next=10**6)  # to its last record
            ends.append(f"{gnubg.positionid()}:{gnubg.matchid()}")
    return ends


def imported_as_played(game: Game) -> bool:
    """False when the game ends with a roll, then a resignation, and the roll
    had one play or none: gnubg's import plays it (or the dance), which the
    player never did."""
    if game.result is None or game.result.end is not End.RESIGNED:
        return True
    answers = (Action.RESIGN, Action.REJECT, Action.ACCEPT)  # the resignations, rejected ones too
    before = [r for r in game.history if r.action not in answers]
    if not before or before[-1].action is not Action.ROLL:
        return True
    # a resignation moves no checker: the position is the resigner's, at the roll
    return len(game.position.legal_moves(before[-1].dice or (0, 0))) > 1


def finished_cases() -> list[tuple[int, int]]:
    """(length, seed) of random matches of 1, 3 and 5 points, the first seeds
    whose last game is won in each way: borne off or resigned, single,
    gammon or backgammon, or a dropped double."""
    cases = []
    for length in (1, 3, 5):
        wanted = {(end, kind) for end in (End.BORNE_OFF, End.RESIGNED) for kind in Outcome}
        wanted.add((End.DROPPED, Outcome.SINGLE))
        for seed in range(400):
            last = matplay.random_match(length, seed, max_games=99).games[-1]
            assert last.result is not None
            way = (last.result.end, last.result.kind)
            if way in wanted and imported_as_played(last):
                wanted.remove(way)
                cases.append((length, seed))
        assert not wanted, f"no seed ends a {length}-point match {wanted}"
    return cases


@pytest.mark.parametrize("length,seed", finished_cases())
def test_finished_matches_read_as_gnubg_imports_them(length: int, seed: int, tmp_path: Path) -> None:
    """Every game's last state, the match's end included: the real score
    (past the length), the loser on roll after the last checker is borne
    off, the resignation kept after it is accepted."""
    match = matplay.random_match(length, seed, max_games=99)
    ends = gnubg_game_ends(match, tmp_path)
    for game, theirs in zip(match.games, ends, strict=True):
        if imported_as_played(game):
            assert game.gnubg_id() == theirs, match.to_mat()
    assert max(match.score) >= length


@pytest.mark.parametrize("options", [{}, {"jacoby": True}, {"beavers": True}, {"jacoby": True, "beavers": True}])
@pytest.mark.parametrize("seed", range(3))
def test_finished_money_games_read_as_gnubg_imports_them(options: dict[str, bool], seed: int, tmp_path: Path) -> None:
    """The running score aside: gnubg's Jacoby rule spares resignations, so
    its totals part from ours after a gammon resigned on a centred cube."""
    match = matplay.random_match(0, seed, max_games=6, **options)  # type: ignore[arg-type]
    ends = gnubg_game_ends(match, tmp_path)
    for game, theirs in zip(match.games, ends, strict=True):
        if imported_as_played(game):
            assert oracle.comparable(theirs, True) == oracle.comparable(game.gnubg_id(), True)


def test_the_match_id_of_a_gammon_resigned_in_a_1_point_match(tmp_path: Path) -> None:
    match = Match(1, dice=3)
    match.game.roll((6, 4))
    match.game.resign("gammon")
    match.game.accept()
    assert gnubg_game_ends(match, tmp_path) == ["4HPwATDgc/ABMA:MEMzAAAAEAAE"] == [match.game.gnubg_id()]


# --- beavers, as gnubg plays them --------------------------------------------------


def doubles_with_beavers(seed: int) -> Iterator[Game]:
    """Money games (beavers on) at moments their player to act may double,
    the cube centred or owned, turned or not, from random play."""
    rng = random.Random(seed)
    game = Game(beavers=True, jacoby=seed % 2 == 1, dice=seed)
    while not game.is_over():
        actions = game.legal_actions()
        if Action.DOUBLE in actions and 4 * game.cube <= 4096 and rng.random() < 0.3:
            yield Game.from_ids(game.gnubg_id(), beavers=True)
        skip = (Action.RESIGN, Action.DROP, Action.BEAVER) + ((Action.DOUBLE,) if rng.random() < 0.9 else ())
        action = rng.choice([a for a in actions if a not in skip])
        if action is Action.MOVE:
            game.play(rng.choice(list(game.legal_moves())))
        else:
            getattr(game, action.value)()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("answer", ["take", "drop"])
def test_a_beaver_goes_as_gnubg_plays_it(seed: int, answer: str) -> None:
    """Double, beaver, then the doubler takes or drops, by gnubg's commands
    (``set beavers 1``: one beaver, no raccoon) from the same state: the
    same gnubg ID after each step."""
    command("set beavers 1")
    checked = 0
    for game in doubles_with_beavers(seed):
        with quiet():
            gnubg.setgnubgid(game.gnubg_id())
        money = oracle.comparable  # money: gnubg forgets the session's score when it loads an ID
        cube, doubler = game.cube, game.turn
        for step in ("double", "beaver", answer):
            getattr(game, step)()
            command(step)
            assert money(gnubg.gnubgid(), True) == money(game.gnubg_id(), True), step
            if step == "beaver":
                assert game.legal_actions() == [Action.TAKE, Action.DROP]
                before = gnubg.gnubgid()
                command("redouble")  # a raccoon: gnubg refuses it too
                assert gnubg.gnubgid() == before
        if answer == "take":  # four times the cube, the beaverer's, and the doubler rolls
            assert (game.cube, game.cube_owner, game.turn) == (4 * cube, 1 - doubler, doubler)
        else:  # the doubler loses twice the cube
            assert game.result is not None and (game.result.winner, game.result.points) == (1 - doubler, 2 * cube)
        checked += 1
    assert checked >= 3


def test_gnubgs_id_of_a_pending_beaver_reads_back() -> None:
    """gnubg writes sGfwATDgc/ABMA:QRkAAAAAAAAE after player 0 beavers."""
    game = Game.from_ids("sGfwATDgc/ABMA:QRkAAAAAAAAE")
    assert (game.cube, game.cube_owner, game.turn, game.on_roll, game.beavered, game.beavers) == (
        2,
        0,
        1,
        1,
        True,
        True,
    )
    assert game.gnubg_id() == "sGfwATDgc/ABMA:QRkAAAAAAAAE"


def test_a_dropped_beaver_reads_as_gnubg_imports_it(tmp_path: Path) -> None:
    """gnubg writes ' Beavers => 4' and then 'Drops' in the doubler's column.
    Its import keeps a dropped beaver's flag (ParseMatMove's static fBeaver)
    and then takes the beaver at the next roll it reads, of another game or
    another file: a taken beaver, imported after, clears the flag for the
    tests after this one."""
    match = Match(0, beavers=True, dice=5)
    game = match.game
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.double()
    game.beaver()
    game.drop()
    text = match.to_mat(("A", "B"))
    assert "  2)  Beavers => 4                Drops\n      Wins 2 points\n" in text
    try:
        assert oracle.comparable(gnubg_game_ends(match, tmp_path)[0], True) == oracle.comparable(game.gnubg_id(), True)
        info = gnubg.match()["games"][0]["info"]
        assert (info["winner"], info["points-won"], info["resigned"]) == ("X", 2, False)
        assert Match.from_mat(text).games[0].result == game.result
    finally:
        taken = Match(0, beavers=True, dice=5)
        taken.game.roll((3, 1))
        taken.game.play("8/5 6/5")
        taken.game.double()
        taken.game.beaver()
        taken.game.take()
        taken.game.roll((6, 5))
        taken.game.play("24/13")
        gnubg_game_ends(taken, tmp_path)
