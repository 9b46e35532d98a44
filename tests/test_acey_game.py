"""Acey-deucey around the moves: Game and Match, rollouts, perft and the
command line (the rules themselves: test_acey_rules.py and
test_acey_reference.py)."""

from __future__ import annotations

import contextlib
import io
import random
import re
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from bgcore import Game, IllegalActionError, InvalidPositionError, Match, Outcome, Position, perft, rollout
from bgcore.acey import AceyDeuceyMove, AceyDeuceyPosition
from bgcore.cli import main
from bgcore.cli.inputs import acey_race_score, rank_moves
from bgcore.cli.play import Session
from bgcore.game import Action, End
from refused import refused

ACEY = "acey-deucey"


class Scripted:
    """A dice source that rolls the given rolls, in order."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        self.rolls = list(rolls)

    def roll(self) -> tuple[int, int]:
        return self.rolls.pop(0)


# --- Game ------------------------------------------------------------------------------------


def test_the_game_starts_with_every_checker_waiting() -> None:
    game = Game(ACEY, dice=1)
    assert isinstance(game.position, AceyDeuceyPosition)
    assert game.position == Position.initial(ACEY) == AceyDeuceyPosition.initial()
    assert game.position.waiting == (15, 15) and game.legal_actions() == [Action.ROLL]


def test_the_opening_winner_rolls_both_dice_to_begin() -> None:
    game = Game(ACEY, dice=Scripted((3, 5), (6, 5)))
    game.roll()  # player 0 rolled the 3, player 1 the 5: player 1 starts
    assert (game.on_roll, game.turn, game.dice, game.again) == (1, 1, None, True)
    # no cube action before the first move, and the opening dice are not played
    assert game.legal_actions() == [Action.ROLL, Action.RESIGN]
    with pytest.raises(IllegalActionError, match="rolls again first"):
        game.double()
    assert game.roll() == (6, 5)
    assert {str(m) for m in game.legal_moves()} == {"bar/20 bar/19", "bar/14"}
    game.play("bar/20 bar/19")
    assert (game.on_roll, game.again, game.position.waiting) == (0, False, (15, 13))
    assert Action.DOUBLE in game.legal_actions()


def test_one_two_and_its_double_played_in_full_roll_again() -> None:
    game = Game(ACEY, dice=Scripted((4, 2), (2, 1), (5, 3)))
    game.roll()
    game.roll()  # 2-1 for player 0
    move = game.position.parse_move("bar/24 bar/23 + 6-6: bar/19(4)", (2, 1))
    assert isinstance(move, AceyDeuceyMove) and move.named == 6 and move.again
    game.play(move)
    # the same player rolls again, with no cube action in between
    assert (game.on_roll, game.turn, game.again) == (0, 0, True)
    assert game.position.waiting == (9, 15) and game.position.board[19] == 4
    assert Action.DOUBLE not in game.legal_actions()
    assert game.roll() == (5, 3)
    game.play(game.legal_moves()[0])
    assert game.on_roll == 1 and not game.again
    # undo walks back through the extra roll to the state before the 1-2
    for _ in range(3):
        game.undo()
    assert (game.on_roll, game.dice, game.position.waiting) == (0, (2, 1), (15, 15))


def test_a_whole_game_to_its_result_with_every_rule_checked() -> None:
    rng = random.Random(7)
    for seed in range(3):
        game = Game(ACEY, dice=seed, cube=False)
        extra_rolls = 0
        while not game.is_over():
            if Action.ROLL in game.legal_actions():
                game.roll()
                continue
            moves = game.legal_moves()
            move = moves[rng.randrange(len(moves))]
            before = game.on_roll
            game.play(move)
            if move.again:  # type: ignore[attr-defined]
                extra_rolls += 1
                assert game.on_roll == before and game.again
            elif not game.is_over():
                assert game.on_roll == 1 - before
            position = game.position
            mine = sum(v for v in position.board if v > 0) + position.waiting[0]
            theirs = -sum(v for v in position.board if v < 0) + position.waiting[1]
            off = position.borne_off()
            assert (mine + off[0], theirs + off[1]) == (15, 15)
        outcome = game.result
        assert outcome is not None and outcome.end is End.BORNE_OFF and outcome.kind in Outcome
        assert outcome.points == int(outcome.kind)  # no cube
        assert len(game.history) > 40


def test_ids_have_no_room_for_waiting_checkers() -> None:
    game = Game(ACEY, dice=2)
    game.roll()
    for call in (game.gnubg_id, game.xgid):
        with pytest.raises(InvalidPositionError, match="waiting to enter"):
            call()
    assert game.match_id()  # the Match ID holds no board: it is fine
    with pytest.raises(InvalidPositionError, match="waiting to enter"):
        Game.from_ids("AAAAAAAAAAAAAA:cAkAAAAAAAAA", variant=ACEY)


@pytest.mark.parametrize("waiting", [(15, 15), (13, 15), (0, 1), (1, 0)])
def test_the_position_id_refuses_waiting_checkers(waiting: tuple[int, int]) -> None:
    board = [0] * 26
    board[19], board[6] = 15 - waiting[0], -(15 - waiting[1])  # the rest of each side on one point
    position = AceyDeuceyPosition(board, waiting=waiting)
    message = refused(position.position_id, InvalidPositionError, "no room for the checkers waiting to enter")
    assert f"({waiting[0]}, {waiting[1]})" in message
    refused(position.xgid, InvalidPositionError, "waiting to enter")
    # its repr and picture still say everything: the board's ID and the waiting checkers
    board_id = Position(board).position_id()
    assert repr(position) == f"AceyDeuceyPosition.from_position_id({board_id!r}, waiting={waiting!r})"
    assert eval(repr(position)) == position  # our own repr: it rebuilds the position
    assert str(position).splitlines()[0].startswith(f"Position ID: {board_id}")
    assert str(position).splitlines()[-1] == f"Waiting to enter: {waiting[0]} (on roll), {waiting[1]}"


def test_the_position_id_of_a_board_with_every_checker_entered() -> None:
    position = AceyDeuceyPosition(Position.initial().board)
    assert position.position_id() == Position.initial().position_id()
    assert AceyDeuceyPosition.from_position_id(position.position_id()) == position


def test_a_match_of_acey_deucey_and_its_mat_file() -> None:
    match = Match(3, dice=5, variant=ACEY, cube=False)
    game = match.game
    assert game.variant == ACEY and not game.cube_enabled
    game.roll()
    game.resign("gammon")
    game.accept()
    assert match.score in ((2, 0), (0, 2))
    assert match.new_game().variant == ACEY
    with pytest.raises(ValueError, match="no place for the acey-deucey variant"):
        match.to_mat()


# --- rollouts and perft -------------------------------------------------------------------------


def ace_points(mine: int, theirs: int) -> AceyDeuceyPosition:
    """Each side's last checkers on its ace point, the rest borne off."""
    board = [0] * 26
    board[1], board[24] = mine, -theirs
    return AceyDeuceyPosition(board, waiting=(0, 0))


@cache
def ace_points_win(mine: int, theirs: int) -> float:
    """The exact chance that the player on roll wins: a double bears off four,
    1-2 two and then a named double four more, any other roll two."""
    p = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            off = 4 if d1 == d2 else 6 if {d1, d2} == {1, 2} else 2
            left = max(0, mine - off)
            # a 1-2 that leaves checkers rolls again: the same player is still on roll
            if left and {d1, d2} == {1, 2}:
                p += ace_points_win(left, theirs) / 36
            else:
                p += (1.0 if left == 0 else 1.0 - ace_points_win(theirs, left)) / 36
    return p


def test_a_rollout_of_a_race_decided_by_the_first_rolls_is_exact() -> None:
    result = rollout(ace_points(3, 3), games=1296, policy="random", seed=3)
    assert result.probabilities[0] == pytest.approx(ace_points_win(3, 3), abs=1e-12)
    assert result.probabilities[0] == pytest.approx(8 / 36 + 28 / 36 * 28 / 36)
    assert result.stderr[0] == 0.0 and result.probabilities[1:] == (0.0, 0.0, 0.0, 0.0)


def test_a_longer_race_lands_within_its_errors() -> None:
    result = rollout(ace_points(9, 8), games=2592, policy="random", seed=11)
    exact = ace_points_win(9, 8)
    assert abs(result.probabilities[0] - exact) < 4 * result.stderr[0] + 1e-12
    assert result.stderr[0] > 0


def bear_in() -> AceyDeuceyPosition:
    """Five checkers a side, in contact, coming home: short random games."""
    board = [0] * 26
    board[8], board[5], board[14] = 2, 2, 1
    board[20], board[17], board[11] = -2, -2, -1
    return AceyDeuceyPosition(board, waiting=(0, 0))


def test_rollouts_are_the_same_on_any_threads_and_executor() -> None:
    one = rollout(bear_in(), games=1500, policy="random", seed=9)
    assert rollout(bear_in(), games=1500, policy="random", seed=9, threads=3) == one
    with ThreadPoolExecutor(2) as pool:
        assert rollout(bear_in(), games=1500, policy="random", seed=9, executor=pool) == one
    assert rollout(bear_in(), games=1500, policy="random", seed=10) != one
    assert one.games == 1500 and one.mwc is None and 0 < one.probabilities[0] < 1


def test_a_rollout_from_a_game_at_a_match_score() -> None:
    start = Game(ACEY, match_length=5, score=(2, 3), dice=Scripted((6, 1), (6, 4)))
    start.roll()
    start.roll()
    start.play("bar/19 bar/21")
    result = rollout(start, games=24, policy="random", seed=9)
    assert result.games == 24 and result.mwc is not None and 0 <= result.mwc <= 1


def test_rollouts_of_acey_deucey_play_random_to_the_end() -> None:
    with pytest.raises(ValueError, match="policy='random'"):
        rollout(AceyDeuceyPosition.initial(), games=10)
    with pytest.raises(ValueError, match="no truncate"):
        rollout(AceyDeuceyPosition.initial(), games=10, policy="random", truncate=4, evaluator=lambda b: b)


def test_perft_of_the_start() -> None:
    start = Position.initial(ACEY)
    assert perft(start, 1) == 235 and perft(start, 1, weighted=True) == 440
    # the first ply by hand: every roll's distinct outcomes
    rolls = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
    assert sum(len(start.legal_moves(r)) for r in rolls) == 235
    assert sum(len(start.legal_moves(r)) * (1 if r[0] == r[1] else 2) for r in rolls) == 440
    assert perft(start, 2, threads=2) == perft(start, 2) == 569_145
    assert perft(start, 2, weighted=True, threads=2) == 2_178_334
    with pytest.raises(ValueError, match="depth must be 1 to 8"):
        perft(start, 0)


# --- the command line ---------------------------------------------------------------------------


def acey_session(seed: int, length: int = 0) -> tuple[int, list[str], str]:
    """A whole game of ``bgcore play --variant acey-deucey``, the player typing
    the race policy's best move."""
    prompts: list[str] = []
    session: Session

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        game = session.match.game
        if prompt.startswith("You rolled"):
            assert game.dice is not None
            return str(rank_moves(game.position, game.dice, "race")[0][0])
        assert prompt.startswith("Press Enter for game"), prompt
        return ""

    session = Session("race", seed, length, ask=ask, variant=ACEY)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = session.run()
    return code, prompts, out.getvalue()


def test_play_a_whole_game_of_acey_deucey() -> None:
    for seed in range(6):
        code, prompts, out = acey_session(seed)
        assert code == 0 and len(prompts) > 10
        assert "acey-deucey, game 1" in out and "Waiting to enter: " in out
        assert re.search(r"^Opening roll: you \d, the computer \d: (you|the computer) rolls? first\.$", out, re.M)
        assert re.search(r"^Game over: (you win|the computer wins) [123] points? \(.+\)\.$", out, re.M)
        assert "No cube. Money game." in out and "double" not in "".join(prompts)
        if re.search(r"\+ \d-\d: .*, and rolls? again\.$", out, re.M):
            break
    else:
        raise AssertionError("no game with a 1-2 played in full")


def test_play_acey_deucey_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("bar/20 bar/19\nhint\nquit\n"))
    code = main(["play", "--variant", ACEY, "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "bgcore play: you (X) against race (O), seed 1, acey-deucey, game 1" in out
    assert out.endswith("You quit.\n")
    code = main(["play", "--variant", ACEY, "--policy", "pubeval"])
    _, err = capsys.readouterr()
    assert code == 2 and "acey-deucey is played by the random or race policy, not pubeval" in err


def test_perft_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--variant", ACEY, "--depth", "2", "--threads", "1"]) == 0
    out, _ = capsys.readouterr()
    assert "perft from the acey-deucey starting position" in out
    assert re.search(r"^\| 1 \| 235 \| 440 \|", out, re.M) and re.search(r"^\| 2 \| 569,145 \| 2,178,334 \|", out, re.M)
    assert main(["perft", "--variant", ACEY, "AAAAAAAAAAAAAA"]) == 2
    _, err = capsys.readouterr()
    assert "cannot hold acey-deucey's checkers waiting to enter" in err


def test_the_race_score_of_acey_deucey_results() -> None:
    start = AceyDeuceyPosition.initial()
    moves = start.legal_moves((6, 5))
    scores = acey_race_score(moves.boards(), moves.again())
    # both moves gain 11 pips; bar/20 bar/19 leaves two blots, bar/14 one
    assert scores.tolist() == [-375 + 11 - 6, -375 + 11 - 3]
    best, score = rank_moves(start, (6, 5), "race")[0]
    assert str(best) == "bar/14" and score == -367
