"""Jellyfish .mat files without gnubg: the layout, round trips of seeded
random matches, tolerant reading, errors that name the game and the move,
and junk that raises nothing but MatFileError."""

from __future__ import annotations

import contextlib
import datetime
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import matplay
from bgcore import Match, MatFileError, Outcome
from bgcore.game import End
from bgcore.matfile import read

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
    assert mat.names == ("Alice", "Bob")
    assert matplay.summary(again) == matplay.summary(match)
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
    "score line says 0-2": "the game is played at the score line's score, as gnubg does",
    "worth 2 point(s), not 3": "passed over, as gnubg does",
    "player 0 won": "passed over, as gnubg does",
    "game 3 ends without a result": "game 3 ends without a 'Wins' line: its result is the score's",
    "'13/11 13/7* 6/4 4/2 13/7*' is not a legal": "not even playable as written: the roll is left unplayed",
    "illegal play": "the illegal play's position: Snowie's position has 40 fields, not 1; the roll is left unplayed",
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


# --- junk --------------------------------------------------------------------------

REAL = [matplay.random_match(length, seed, max_games=3).to_mat(("Al", "Bo")) for length, seed in [(3, 1), (0, 2)]]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def survives(text: str) -> None:
    """Reading either works or raises MatFileError; nothing else."""
    with contextlib.suppress(MatFileError):
        read(text)


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
