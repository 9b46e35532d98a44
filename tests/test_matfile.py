"""Jellyfish .mat files without gnubg: the layout, round trips of seeded
random matches, tolerant reading, lenient reading of what the rules forbid
(the corpus in tests/data/mat/, Game.force, a match started at a score),
errors and warnings that name the game and the line, and junk that raises
nothing but MatFileError."""

from __future__ import annotations

import contextlib
import datetime
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import matplay
from bgcore import Game, IllegalActionError, IllegalMoveError, Match, MatFileError, Move, Outcome, Position
from bgcore.game import Action, End
from bgcore.ids import MatchId
from bgcore.matfile import MatWarning, read

# --- the layout --------------------------------------------------------------------


def test_layout_of_a_scripted_match() -> None:
    """Byte for byte what gnubg's export writes for this match (checked
    against gnubg itself in test_matfile_gnubg.py)."""
    text = matplay.scripted().to_mat(("Ann", "Ben"), event="Club night", date=datetime.date(2024, 5, 17))
    assert text == (
        '; [Event "Club night"]\n'
        '; [EventDate "2024.05.17"]\n'
        "\n"
        " 3 point match\n"
        "\n"
        " Game 1\n"
        " Ann : 0                        Ben : 0\n"
        "  1)                             31: 8/5 6/5 \n"
        "  2) 64: 24/18 13/9              62: 13/11 13/7* \n"
        "  3)  Doubles => 2                Takes\n"
        "  4) 43: 25/21 13/10             22: 24/22 24/22 22/20 22/20\n"
        "  5) 31: 24/21 10/9               Doubles => 4\n"
        "  6)  Drops                       Wins 2 points \n"
        "\n"
        " Game 2\n"
        " Ann : 0                        Ben : 2\n"
        "  1) 52: 13/11 13/8              \n"
        "      Wins 1 point\n"
        "\n"
        " Game 3\n"
        " Ann : 1                        Ben : 2\n"
        "  1) 52: 13/11 13/8              66: 24/18 24/18 13/7 13/7\n"
        "  2)  Doubles => 2                Drops\n"
        "      Wins 1 point\n"
        "\n"
        " Game 4\n"
        " Ann : 2                        Ben : 2\n"
        "  1)                             41: 24/23 13/9 \n"
        "                                  Wins 1 point\n"
        "\n"
    )


def test_bear_off_and_the_columns_of_wins() -> None:
    """A game borne off: 'Wins' below the winner's column."""
    for length, seed in [(1, 3), (5, 8), (0, 2)]:
        match = matplay.random_match(length, seed, max_games=3, double=0.0, resign=0.0)
        text = match.to_mat()
        for game, chunk in zip(match.games, text.split(" Game ")[1:], strict=True):
            assert game.result is not None and game.result.end is End.BORNE_OFF
            points = int(game.result.kind) * game.result.cube
            wins = f"Wins {points} point{'s' if points > 1 else ''}"
            last = chunk.rstrip("\n").splitlines()[-1]
            assert last.strip() == wins
            assert last.startswith(" " * 34 if game.result.winner else "      W")


def test_moves_as_gnubg_writes_them() -> None:
    match = Match(1, dice=4)
    g = match.game
    g.roll((6, 5))
    g.play("24/13")
    text = match.to_mat()
    assert "  1) 65: 24/18 18/13 " in text  # every step, highest first
    g.roll((1, 1))
    g.play("8/7(2) 6/5(2)")
    assert "11: 8/7 8/7 6/5 6/5" in match.to_mat()  # no space after a fourth step


def test_header_tags() -> None:
    money = Match(0, jacoby=True, beavers=True, max_cube=64, dice=1)
    text = money.to_mat(site="Home", round="Final", transcriber="me", comment="first line\nsecond")
    assert text.splitlines()[:9] == [
        '; [Site "Home"]',
        '; [Round "Final"]',
        '; [Jacoby "On"]',
        '; [Beaver "On"]',
        '; [CubeLimit "64"]',
        '; [Transcriber "me"]',
        "",
        "; first line",
        "; second",
    ]
    mat = read(text)
    assert (mat.match.jacoby, mat.match.beavers, mat.match.max_cube) == (True, True, 64)
    assert mat.tags["Site"] == "Home" and mat.comment == "first line\nsecond"
    nack = Match(5, crawford=False, variant="nackgammon", dice=1)
    text = nack.to_mat()
    assert '; [Variation "NackGammon"]\n; [Crawford "Off"]\n' in text
    back = Match.from_mat(text)
    assert (back.variant, back.crawford_rule) == ("nackgammon", False)


@pytest.mark.parametrize("names", [("A:B", "C"), ("", "C"), (" A", "B"), ("A", "B\nC"), ("A",), "AB", ("A", 'say "]')])
def test_bad_names(names: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        Match(1).to_mat(names)


def test_tabla_has_no_mat_file() -> None:
    with pytest.raises(ValueError, match="tabla"):
        Match(3, variant="tabla").to_mat()


# --- round trips -------------------------------------------------------------------

CASES = [
    (length, seed, finish, options)
    for length in (0, 1, 3, 5, 9)
    for seed in range(4)
    for finish in (True, False)
    for options in ({}, {"double": 0.01, "resign": 0.001})
] + [
    (0, 7, True, {"beavers": True}),
    (0, 8, False, {"jacoby": True, "beavers": True}),
    (0, 9, True, {"jacoby": True, "max_cube": 8}),
    (5, 10, True, {"variant": "nackgammon"}),
    (3, 11, True, {"variant": "hypergammon"}),
    (7, 12, False, {"crawford": False}),
]


@pytest.mark.parametrize("length,seed,finish,options", CASES)
def test_round_trip(length: int, seed: int, finish: bool, options: dict[str, object]) -> None:
    match = matplay.random_match(length, seed, max_games=5, finish=finish, **options)
    text = match.to_mat(("Alice", "Bob"))
    mat = read(text)
    again = mat.match
    assert mat.names == ("Alice", "Bob") and mat.warnings == ()  # nothing the rules forbid
    assert matplay.summary(again) == matplay.summary(match)
    assert matplay.summary(read(text, strict=True).match) == matplay.summary(match)
    assert again.score == match.score and again.is_over() == match.is_over()
    assert again.to_mat(("Alice", "Bob")) == text


def test_the_game_left_unfinished_goes_on() -> None:
    match = next(
        m for seed in range(50) if not (m := matplay.random_match(7, seed, max_games=2, finish=False)).game.is_over()
    )
    again = Match.from_mat(match.to_mat(), dice=99)
    game, original = again.game, match.game
    assert not game.is_over()
    assert (game.position, game.turn, game.dice, game.cube, game.doubled) == (
        original.position,
        original.turn,
        original.dice,
        original.cube,
        original.doubled,
    )
    rng = random.Random(1)
    while not again.is_over():  # and the match plays on from there
        if again.game.is_over():
            again.new_game()
        else:
            matplay.play_action(again.game, rng, resign=0.2)
    assert again.winner is not None


# --- tolerant reading ----------------------------------------------------------------

TOLERANT = """\ufeff; [Site "FIBS"]
# a comment of another kind
 5 Point Match

 Game 1
 alice : 0                    bob : 0
  1) 31: 8/5 6/5                     52: 13/11 13/8

; a comment between moves
  2) 64: 24/14*                      33: Bar/22 13/10 6/3(2)
  3) 61: 13/7* 8/7                   Doubles => 2
  4) Takes                           55: 13/3 6/1(2)
  5) 42: Bar/21 13/11                61: 8/2 3/2
  6)  Doubles => 4                   Drops
      Wins 2 points

 Game 2
 alice : 2                    bob : 0
  1) 65: 24/13                       44: 24/16(2)
  2) 66: 13/7 13/7 8/2(2)
"""


def test_tolerant_reading() -> None:
    mat = read(TOLERANT.replace("\n", "\r\n"))
    match = mat.match
    assert mat.names == ("alice", "bob") and mat.tags == {"Site": "FIBS"}
    first, second = match.games
    assert first.result is not None
    assert (first.result.winner, first.result.points, first.result.end) == (0, 2, End.DROPPED)
    moves = [str(r.move) for r in first.history if r.move is not None]
    assert moves == [
        "8/5 6/5",
        "13/11 13/8",
        "24/14*",
        "bar/22 13/10 6/3(2)",
        "13/7 8/7",
        "13/3 6/1*(2)",
        "bar/21 13/11",
        "8/2 3/2",
    ]
    # the star of 13/7* is misplaced (no blot there): gnubg pays no heed to stars, nor does the reader
    assert [str(r.move) for r in second.history if r.move is not None] == ["24/13", "24/16(2)", "13/7(2) 8/2(2)"]
    assert second.turn == 1 and not second.is_over()


@pytest.mark.parametrize("spelling", ["", "Cannot Move", "???", "????"])
def test_a_lost_turn(spelling: str) -> None:
    match = Match(1, dice=1)
    g = match.game
    g.roll((6, 1))
    g.play("13/7 8/7")
    g.roll((5, 5))  # player 1: 25-5 is 20, on the 7... no, 6-1 makes player 0's 7 point
    text = match.to_mat()
    played = Match.from_mat(text + spelling + "\n")
    assert played.game.dice == (5, 5)


def test_a_missing_wins_line_is_told_by_the_next_score() -> None:
    match = Match(3, dice=2)
    g = match.game
    g.roll((5, 2))
    g.play("13/11 13/8")
    g.resign("gammon")
    g.accept()
    match.new_game()
    text = match.to_mat()
    stripped = text.replace("      Wins 2 points\n", "")
    assert stripped != text
    again = Match.from_mat(stripped)
    assert again.games[0].result == match.games[0].result


def test_and_the_match() -> None:
    text = matplay.scripted().to_mat()
    last = "                                  Wins 1 point\n"
    assert Match.from_mat(text.replace(last, last[:-1] + " and the match\n")).winner == 1
    wrong = text.replace("      Wins 1 point\n", "      Wins 1 point and the match\n", 1)
    with pytest.raises(MatFileError, match=r"game 2, move 1.*the match goes on"):
        Match.from_mat(wrong, strict=True)
    (warning,) = read(wrong).warnings
    assert str(warning).startswith("game 2, move 1, line 16: 'and the match' is written, but the match goes on")


def test_a_roll_then_a_resignation() -> None:
    match = Match(5, dice=3)
    g = match.game
    g.roll((6, 1))
    g.play("13/7 8/7")
    g.roll((4, 2))
    g.play("8/4 6/4")
    g.roll((3, 2))  # player 0 rolls, then resigns
    g.resign(Outcome.GAMMON)
    g.accept()
    text = match.to_mat()
    assert "  2) 32:                         Wins 2 points\n" in text
    again = Match.from_mat(text)
    assert [r.action for r in again.game.history] == [r.action for r in g.history]


# --- errors ------------------------------------------------------------------------

GOOD = matplay.scripted().to_mat(("Ann", "Ben"))


CRAWFORD = "  1) 52: 13/11 13/8              \n      Wins 1 point"
TAKEN = "  2)  Doubles => 2                Drops\n      Wins 1 point"


ERRORS = [
    ("62: 13/11 13/7*", "62: 13/11 13/6", "game 1, move 2, line 7", "not a legal move"),
    (" Ann : 1                        Ben : 2", " Ann : 0   Ben : 2", "game 3, line 19", "score line says 0-2"),
    (CRAWFORD, "  1) 52: 13/11 13/8               Doubles => 2", "game 2, move 1", "Crawford"),
    ("Doubles => 4", "Doubles => 8", "game 1, move 5", "cube goes to 4, not 8"),
    ("Wins 2 points", "Wins 3 points", "game 1, move 6", "worth 2 point(s), not 3"),
    (" Drops\n      Wins", " Drops\n" + " " * 34 + "Wins", "game 3, move 2", "player 0 won"),
    ("  1)" + " " * 29 + "31: 8/5 6/5", "  1) 31: 8/5 6/5", "game 1, move 2", "player 1 is to act"),
    ("31: 8/5 6/5", "33: 8/5 6/5", "game 1, move 1", "opening roll cannot be a double"),
    (" Game 2\n", " Game 3\n", "line 13", "'Game 3' where game 2 should come"),
    (
        "  3)  Doubles => 2                Takes",
        "  3)  Doubles => 2   Takes   Drops",
        "game 1, move 3",
        "more than two",
    ),
    ("  3)  Doubles => 2                Takes", "  3)  Doubles => 2   Jumps", "game 1, move 3", "cannot read"),
    (" 3 point match", " three point match", None, "no ' N point match' line"),
    (TAKEN, "  2)  Doubles => 2                Takes", "game 4, line 23", "game 3 ends without a result"),
    ("62: 13/11", "62: 13/11 13/7* 6/4 4/2", "game 1, move 2", "'13/11 13/7* 6/4 4/2 13/7*' is not a legal"),
    ("  4) 43:", "  4) 43: Illegal play (x)", "game 1, move 4", "illegal play"),
    ("  3)  Doubles => 2                Takes", "  3)  Doubles => 2   Raccoons => 4", "game 1, move 3", "raccoons"),
]


@pytest.mark.parametrize("old,new,where,why", ERRORS)
def test_errors_name_game_and_move(old: str, new: str, where: str | None, why: str) -> None:
    assert old in GOOD
    with pytest.raises(MatFileError) as info:
        Match.from_mat(GOOD.replace(old, new, 1), strict=True)
    message = str(info.value)
    assert why in message, message
    if where is not None:
        assert re.match(re.escape(where) + "[,:]", message), message


# What lenient reading does of the cases above (gnubg reads them all):
# the first warning, or the error it meets further on.
LENIENT = {
    "not a legal move": "not a legal move with 6-2 in Position.from_position_id('4HPhQSCwZ/ABMA'); not even playable",
    "score line says 0-2": "the game is played at it, as gnubg does",
    "worth 2 point(s), not 3": "passed over, as gnubg does",
    "player 0 won": "passed over, as gnubg does",
    "game 3 ends without a result": "game 3 ends without a 'Wins' line: its result is the score's",
    "'13/11 13/7* 6/4 4/2 13/7*' is not a legal": "not even playable as written: the roll is left unplayed",
    "illegal play": "the illegal play's position: Snowie's position has 40 fields, not 1; the roll is left unplayed",
    "player 1 is to act": "player 1's turn is missing; it passes unplayed, as gnubg does",
}
STILL_REFUSED = {  # lenient reading refuses these too, where the file stops making sense
    "more than two": "game 1, move 5, line 10: the cube goes to 2, not 4",
    "cannot read": "game 1, move 5, line 10: the cube goes to 2, not 4",
}


@pytest.mark.parametrize("old,new,where,why", ERRORS)
def test_lenient_reading_notes_where(old: str, new: str, where: str | None, why: str) -> None:
    """Lenient reading refuses what gnubg cannot read either, and notes the
    rest with the game and the line (and the move where there is one)."""
    text = GOOD.replace(old, new, 1)
    if why not in LENIENT:
        with pytest.raises(MatFileError, match=re.escape(STILL_REFUSED.get(why, why))):
            read(text)
        return
    first = str(read(text).warnings[0])
    assert LENIENT[why] in first, first
    if where is not None:
        assert first.startswith(where), first


def test_error_attributes() -> None:
    with pytest.raises(MatFileError) as info:
        Match.from_mat(GOOD.replace("13/11 13/7*", "13/11 13/6"), strict=True)
    assert (info.value.game, info.value.move, info.value.line) == (1, 2, 7)
    warning = read(GOOD.replace("13/11 13/7*", "13/11 13/6")).warnings[0]
    assert (warning.game, warning.move, warning.line) == (1, 2, 7)
    assert isinstance(info.value, ValueError)


def test_games_after_the_match_is_over() -> None:
    text = GOOD + " Game 5\n Ann : 2                        Ben : 3\n"
    with pytest.raises(MatFileError, match=r"game 5, line 29: the match was over after game 4"):
        Match.from_mat(text, strict=True)
    mat = read(text)  # gnubg passes over the games after the match
    assert len(mat.match.games) == 4 and mat.match.winner == 1
    assert [str(w) for w in mat.warnings] == [
        "game 5, line 29: the match was over after game 4 (2-3); the games after it are passed over, as gnubg does"
    ]


def test_moves_after_the_game_is_over() -> None:
    text = GOOD.replace("      Wins 1 point\n", "      Wins 1 point\n  2) 31: 8/5 6/5\n", 1)
    with pytest.raises(MatFileError, match=r"game 2, move 2, line 17: the game is over"):
        Match.from_mat(text, strict=True)
    (warning,) = read(text).warnings
    assert str(warning).startswith("game 2, move 2, line 17: the game is over, yet the file goes on with roll")


def test_read_takes_str() -> None:
    with pytest.raises(TypeError):
        read(GOOD.encode())  # type: ignore[arg-type]


# --- lenient reading: the corpus ------------------------------------------------------

CORPUS = Path(__file__).parent / "data" / "mat"

# Each file's warnings, checked by hand against the file: where (game, move,
# line) and what.  Strict reading refuses the file at the first of them.
IRREGULAR = {
    "gnubg_export_clean.mat": [],
    "xg_style_clean.mat": [],
    "bgblitz_style_clean.mat": [],
    "move_numbers.mat": [],
    "fibs_resign_out_of_turn.mat": [
        ("game 1, move 6, line 11", "player 0 resigns (the 'Wins' is in player 1's column), but player 1 is to act"),
        ("game 2, move 4, line 19", "player 1 resigns (the 'Wins' is in player 0's column), but player 0 is to act"),
        ("game 3, move 5, line 28", "player 1 resigns (the 'Wins' is in player 0's column), but player 0 is to act"),
    ],
    "fibs_odd_points.mat": [
        ("game 1, move 7, line 12", "no resignation at cube 4 is worth 5 point(s); scored as a resigned gammon"),
        ("game 2, line 15", "the score line says 0-5, but the games before make it 0-8; the game is played at it"),
        ("game 2, move 5, line 21", "no resignation at cube 2 is worth 16 point(s); scored as a resigned backgammon"),
    ],
    "fibs_one_point_100.mat": [
        ("game 1, move 4, line 9", "no resignation at cube 1 is worth 100 point(s); scored as a resigned backgammon")
    ],
    "unplayed_rolls.mat": [
        ("game 1, move 3, line 7", "no move is written for 32, which has 14 legal plays; the roll is left unplayed"),
        ("game 1, move 5, line 9", "no move is written for 63, which has 37 legal plays; the roll is left unplayed"),
    ],
    "illegal_plays.mat": [
        ("game 1, move 3, line 7", "'bar/23' is not a legal move with 2-1"),
        ("game 1, move 6, line 10", "an illegal play is recorded; played as"),
        ("game 1, move 9, line 13", "'bar/24' is not a legal move with 6-5"),
    ],
    "continued_match.mat": [
        ("game 1, line 4", "the score line says 6-5, but the games before make it 0-0; the match starts there")
    ],
}


def test_the_corpus_is_all_here() -> None:
    assert sorted(path.name for path in CORPUS.glob("*.mat")) == sorted(IRREGULAR)
    index = (CORPUS / "README.md").read_text()
    assert all(f"`{name}`" in index for name in IRREGULAR)


@pytest.mark.parametrize("name", sorted(IRREGULAR))
def test_corpus_warnings_and_strict_refusal(name: str) -> None:
    path = CORPUS / name
    mat = read(path)
    found = [str(w) for w in mat.warnings]
    assert len(found) == len(IRREGULAR[name]), found
    for warning, (where, what) in zip(found, IRREGULAR[name], strict=True):
        assert warning.startswith(f"{where}: {what}"), warning
    if not IRREGULAR[name]:
        assert matplay.summary(read(path, strict=True).match) == matplay.summary(mat.match)
        return
    with pytest.raises(MatFileError) as info:
        read(path, strict=True)
    where, what = IRREGULAR[name][0]
    assert str(info.value).startswith(f"{where}: {what.split(';')[0]}"), info.value
    assert info.value.game is not None and info.value.line is not None


def test_corpus_games_as_gnubg_scores_them() -> None:
    """The results gnubg's import gives (checked against gnubg itself in
    test_matfile_gnubg.py), for the irregular files."""
    results = {
        name: [(g.score, g.result.winner, g.result.points, g.result.end) for g in read(CORPUS / name).match.games]
        for name in ("fibs_resign_out_of_turn.mat", "fibs_odd_points.mat", "fibs_one_point_100.mat")
    }
    assert results["fibs_resign_out_of_turn.mat"] == [
        ((0, 0), 1, 1, End.RESIGNED),  # player 0 resigned after moving
        ((0, 1), 0, 1, End.RESIGNED),  # the doubler resigned: the cube stays 1
        ((1, 1), 0, 2, End.RESIGNED),  # a gammon, player 0 holding the dice
        ((3, 1), 1, 2, End.RESIGNED),  # by the rules
    ]
    assert results["fibs_odd_points.mat"] == [((0, 0), 1, 8, End.RESIGNED), ((0, 5), 0, 6, End.RESIGNED)]
    assert results["fibs_one_point_100.mat"] == [((0, 0), 0, 3, End.RESIGNED)]


def test_warnings_are_small_frozen_values() -> None:
    warning = read(CORPUS / "continued_match.mat").warnings[0]
    assert warning == MatWarning(warning.message, 1, None, 4)
    with pytest.raises(AttributeError):
        warning.line = 5  # type: ignore[misc]


def test_a_continued_match_starts_at_its_score() -> None:
    match = read(CORPUS / "continued_match.mat").match
    first, second = match.games
    assert first.score == (6, 5) and first.crawford
    assert second.score == (6, 6) and not second.crawford
    assert match.winner == 0


def test_an_unplayed_roll_passes_the_turn() -> None:
    game = read(CORPUS / "unplayed_rolls.mat").match.games[0]
    history = game.history
    k = next(k for k, r in enumerate(history) if r.action is Action.MOVE and not r.move and k > 2)
    assert history[k - 1].action is Action.ROLL and history[k - 1].dice == (3, 2)
    assert history[k + 1].player != history[k].player  # the other player rolls next


# --- Game.force --------------------------------------------------------------------


def test_force_plays_a_move_the_rules_forbid() -> None:
    game = Game(dice=1)
    game.roll((6, 4))
    before = game.position
    game.force(Move([(24, 18)], (6, 4)))  # the 4 left unplayed
    assert game.turn == 1 and game.dice is None
    board = list(before.board)
    board[24] -= 1
    board[18] += 1
    assert game.position.flip() == Position(board)
    assert game.history[-1] == game.history[-1].__class__(0, Action.MOVE, move=Move([(24, 18)], (6, 4)))
    game.undo()
    assert game.position == before and game.dice == (6, 4)


def test_force_records_hits_as_they_happen() -> None:
    game = Game(dice=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.roll((2, 1))
    game.force(Move([(24, 23), (6, 5)], (2, 1)))  # player 1; no blot on their 5... nor a hit
    game.roll((6, 5))
    board = game.position.board
    assert board[2] == -1  # player 1's blot on 23, player 0's 2 point
    game.force(Move([(8, 2)], (6, 5)))  # a step of six on a five-six: a hit all the same
    assert game.history[-1].move is not None and game.history[-1].move.hits == (True,)
    assert game.position.board[0] == 0 and game.position.board[25] == 1  # player 1 on the bar


@pytest.mark.parametrize(
    "steps,why",
    [([(13, 6)], "13/6"), ([(12, 10)], "12/10"), ([(6, 1)], "6/1"), ([(8, 0)], "8/0")],
)
def test_force_refuses_what_cannot_be_played_at_all(steps: list[tuple[int, int]], why: str) -> None:
    game = Game(dice=1)
    game.roll((6, 5))
    before = (game.position, game.history)
    with pytest.raises(IllegalMoveError, match=why):
        game.force(Move(steps, (6, 5)))  # 7 points; no checker; onto a made point; off from outside
    assert (game.position, game.history) == before


def test_force_bears_off_the_last_checker() -> None:
    board = [0] * 26
    board[2], board[12] = 1, -15  # player 0 has one checker left; player 1 has all 15 on their 13 point
    state = MatchId(cube=1, cube_owner=None, player_on_roll=0, crawford=False, dice=None, match_length=0, score=(0, 0))
    game = Game.from_ids(Position(board).position_id(), state.encode(), jacoby=False)
    game.roll((1, 1))
    game.force(Move([(2, 1)], (1, 1)))  # one step of four
    assert game.result is None
    game.roll((6, 5))
    game.force(Move([(13, 7)], (6, 5)))
    game.roll((3, 3))
    game.force(Move([(1, 0)], (3, 3)))
    assert game.result is not None and game.result.end is End.BORNE_OFF
    assert (game.result.winner, game.result.kind, game.result.points) == (0, Outcome.GAMMON, 2)


def test_force_ends_a_game_whoever_is_to_act() -> None:
    game = Game(match_length=5, dice=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    game.double()  # player 1 to answer; player 0, the doubler, resigns
    game.force(winner=1)
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.cube, game.result.end) == (1, 1, 1, End.RESIGNED)
    assert game.history[-1] == game.history[-1].__class__(0, Action.RESIGN, kind=Outcome.SINGLE)
    assert not game.doubled and game.match_id() == Game(match_length=5).match_id()[:0] + game.match_id()
    game.undo()
    assert game.doubled and game.result is None
    game.force(winner=0, kind="backgammon", points=5)  # as a record says
    assert game.result is not None and (game.result.points, game.result.kind) == (5, Outcome.BACKGAMMON)


@pytest.mark.parametrize(
    "call,error",
    [
        (lambda g: g.force(winner=2), ValueError),
        (lambda g: g.force(winner=True), ValueError),
        (lambda g: g.force(winner=0, points=0), ValueError),
        (lambda g: g.force(winner=0, kind="quadruple"), ValueError),
        (lambda g: g.force(Move([], (6, 5)), winner=0), ValueError),
        (lambda g: g.force("24/18"), TypeError),
        (lambda g: g.force(Move([], (6, 5))), IllegalActionError),  # the dice are not rolled
    ],
)
def test_force_refuses_bad_arguments(call: object, error: type[Exception]) -> None:
    game = Game(dice=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    with pytest.raises(error):
        call(game)  # type: ignore[operator]
    assert len(game.history) == 2
    game.force(winner=0)
    with pytest.raises(IllegalActionError, match="over"):
        game.force(winner=1)


def test_force_passes_a_turn_the_record_leaves_out() -> None:
    game = Game(dice=1)
    game.roll((3, 1))
    game.play("8/5 6/5")
    before = game.position
    game.force()  # player 1's turn is missing from the record
    assert (game.turn, game.on_roll, game.dice) == (0, 0, None)
    assert game.position == before.flip()
    assert game.history[-1] == game.history[-1].__class__(1, Action.MOVE)
    game.undo()
    assert game.turn == 1 and game.position == before
    with pytest.raises(IllegalActionError, match="not begun"):
        Game(dice=1).force()


def test_a_resignation_before_the_opening_roll_is_passed_over() -> None:
    text = " 3 point match\n\n Game 1\n A : 0                          B : 0\n      Wins 1 point\n"
    mat = read(text)
    assert mat.match.game.result is None and mat.match.game.opening
    assert [str(w) for w in mat.warnings] == [
        "game 1, line 5: a resignation before the opening roll; passed over, as gnubg does"
    ]
    with pytest.raises(MatFileError, match="game 1, line 5: a resignation before the opening roll"):
        read(text, strict=True)


def test_force_wants_the_dice_it_plays() -> None:
    game = Game(dice=1)
    game.roll((3, 1))
    with pytest.raises(IllegalMoveError, match="was played with 6-5"):
        game.force(Move([(24, 18)], (6, 5)))


# --- a match at a score ------------------------------------------------------------------


def test_a_match_started_at_a_score() -> None:
    match = Match(7, score=(6, 5), dice=1)
    assert match.score == (6, 5) and match.game.crawford
    match.game.roll((3, 1))
    match.game.resign()
    match.game.accept()
    assert match.score == (6, 6) and match.new_game().score == (6, 6) and not match.game.crawford
    with pytest.raises(ValueError, match="already won"):
        Match(7, score=(7, 0))


def test_a_new_game_at_a_score_a_record_gives() -> None:
    match = Match(11, dice=1)
    match.game.roll((3, 1))
    match.game.resign()
    match.game.accept()
    assert match.new_game(score=(0, 5)).score == (0, 5) and match.score == (0, 5)
    match.game.roll((3, 1))
    match.game.resign("gammon")
    match.game.accept()
    assert match.score == (0, 7)
    with pytest.raises(ValueError):
        match.new_game(score=(11, 0))
    assert len(match.games) == 2


# --- reading a path -----------------------------------------------------------------------


def test_read_takes_a_path(tmp_path: Path) -> None:
    path = tmp_path / "game.mat"
    path.write_bytes(GOOD.replace("Ben", "Bén").encode("latin-1"))  # a Windows program's file
    assert read(path).names == ("Ann", "Bén")
    assert Match.from_mat(str(path)).score == matplay.scripted().score
    assert Match.from_mat(path, strict=True).score == matplay.scripted().score


def test_a_path_that_names_no_file(tmp_path: Path) -> None:
    with pytest.raises(MatFileError, match=r"read\(\) takes the file's text, or a path, and 'nowhere.mat' names no"):
        Match.from_mat("nowhere.mat")
    with pytest.raises(FileNotFoundError):
        read(tmp_path / "nowhere.mat")
    with pytest.raises(TypeError, match="not int"):
        read(3)  # type: ignore[arg-type]


# --- junk --------------------------------------------------------------------------

REAL = [matplay.random_match(length, seed, max_games=3).to_mat(("Al", "Bo")) for length, seed in [(3, 1), (0, 2)]]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def survives(text: str) -> None:
    """Reading, lenient or strict, either works or raises MatFileError; nothing else."""
    for strict in (False, True):
        with contextlib.suppress(MatFileError):
            read(text, strict=strict)


@FUZZ
@given(st.text())
def test_random_text(text: str) -> None:
    survives(text)


@FUZZ
@given(st.sampled_from(REAL), st.integers(0, 10**6))
def test_truncated_files(text: str, cut: int) -> None:
    survives(text[: cut % (len(text) + 1)])


LINE_BITS = st.sampled_from(
    [
        "",
        " Game 2",
        " Game 1",
        "  1) 31: 8/5 6/5",
        "  9)  Doubles => 2                Takes",
        "       Wins 99999999999999999999999 points",
        " A : 0     B : 0",
        "  1)                             66: 25/1*(4)",
        " Drops",
        " Beavers => 4",
        " Raccoons => 8",
        '; [Variation "HyperGammon (3)"]',
        '; [CubeLimit "3"]',
        " 0 point match",
        " 99999 point match",
        "  1) 52: ???",
        "  2) 43: Illegal play (junk)",
        "   Wins 1 point and the match",
        "  12) 65: bar/off 7/0 0/0 26/1",
    ]
)


@FUZZ
@given(
    st.sampled_from(REAL),
    st.lists(
        st.tuples(
            st.integers(0, 10**4),
            st.sampled_from(["delete", "duplicate", "swap", "insert", "chars"]),
            LINE_BITS,
            st.text(max_size=5),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_lines(text: str, edits: list[tuple[int, str, str, str]]) -> None:
    lines = text.splitlines()
    for position, kind, bit, chars in edits:
        if not lines:
            lines = [bit]
        k = position % len(lines)
        if kind == "delete":
            del lines[k]
        elif kind == "duplicate":
            lines.insert(k, lines[k])
        elif kind == "swap":
            j = (k + 1) % len(lines)
            lines[k], lines[j] = lines[j], lines[k]
        elif kind == "insert":
            lines.insert(k, bit)
        else:
            line = lines[k]
            at = position % (len(line) + 1)
            lines[k] = line[:at] + chars + line[at + len(chars) :]
    survives("\n".join(lines))
