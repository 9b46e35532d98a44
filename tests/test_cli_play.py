"""``bgcore play``: the commands listed (``help`` and the first screen) and resigning."""

from __future__ import annotations

import contextlib
import functools
import io
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bgcore import Bot, Game, Outcome, Position, nn
from bgcore.acey import AceyDeuceyPosition
from bgcore.cli.play import COMMANDS, COMPUTER, HUMAN, Session, _most_to_win, _read_resignation, computer_bot
from bgcore.ids import MatchId


def session_output(
    answers: list[str] | Callable[[str, Session], str],
    *,
    seed: int = 1,
    variant: str = "standard",
    opponent: object = None,
    **options: object,
) -> tuple[int, list[str], str, Session]:
    """Play with the player's words taken from ``answers`` (a list, then quit;
    or a function of the prompt and the session, for at most 200 prompts)
    against ``opponent`` (by default pubeval, race in acey-deucey), the
    session's other ``options`` given: (exit code, prompts, output, session)."""
    prompts: list[str] = []
    words = iter(answers) if isinstance(answers, list) else None
    session: Session

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if words is not None:
            return next(words, "quit")
        assert callable(answers) and len(prompts) < 200, prompts[-3:]
        return answers(prompt, session)

    if opponent is None:
        opponent = "pubeval" if variant == "standard" else "race"
    session = Session(opponent, seed, 0, ask=ask, variant=variant, **options)  # type: ignore[arg-type]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = session.run()
    return code, prompts, out.getvalue(), session


def test_the_first_screen_lists_the_commands_and_help_lists_them_all() -> None:
    code, prompts, out, _ = session_output(["help", "quit"])
    assert code == 0
    assert "Commands: a move (8/5 6/5), Enter to roll, double, take, drop, resign, hint, undo, help, quit." in out
    assert out.index("Commands: a move") < out.index("Commands:\n")  # the first screen's line, then help's list
    listed = out[out.index("Commands:\n") :].splitlines()[1 : 1 + len(COMMANDS)]
    assert [line.split("  ")[1].strip() for line in listed] == [name for name, _ in COMMANDS]
    assert {"resign [single|gammon|backgammon]", "hint", "undo", "help", "quit"} <= {n for n, _ in COMMANDS}
    assert len(prompts) == 2 and prompts[0] == prompts[1]  # help leaves the prompt as it was


def test_an_unknown_word_points_to_help() -> None:
    _, _, out, _ = session_output(["foo", "quit"])
    assert re.search(r"cannot read 'foo'.* Type help for the commands\.$", out, re.MULTILINE)
    _, _, out, _ = session_output(["24/30", "quit"])  # a move that is wrong, not a word: no pointer
    assert "Type help for the commands." not in out


def test_read_resignation() -> None:
    assert _read_resignation("resign") is Outcome.SINGLE
    assert _read_resignation("Resign Gammon") is Outcome.GAMMON
    assert _read_resignation("resign b") is Outcome.BACKGAMMON
    assert _read_resignation("resign single") is Outcome.SINGLE
    for words in ("resign all", "resign gammon now", "resigned", ""):
        assert _read_resignation(words) is None


def test_the_most_the_computer_can_still_win() -> None:
    assert _most_to_win(Position.initial()) == 3  # back checkers in its home board
    board = [0] * 26
    board[6], board[19] = 14, -15  # the player's 14 checkers home, none borne off... and one on the bar
    board[25] = 1
    assert _most_to_win(Position(board)) == 3
    board[25], board[5] = 0, 1  # out of the computer's home board, none borne off: a gammon at most
    assert _most_to_win(Position(board)) == 2
    board[5] = 0  # a checker borne off: a single game at most
    assert _most_to_win(Position(board)) == 1
    acey = AceyDeuceyPosition.initial()  # every checker waiting to enter
    assert _most_to_win(acey) == 3


def test_resigning_from_the_start_is_accepted() -> None:
    """At the start the computer expects about nothing: a single game is more than that."""
    code, _, out, session = session_output(["resign"])
    game = session.match.game
    assert code == 0 and game.result is not None and game.result.winner == COMPUTER
    assert game.result.points == 1 and "You offer to resign a single game." in out
    assert "The computer accepts a single game." in out
    assert re.search(r"^Game over: the computer wins 1 point \(a single game, resigned\)\.$", out, re.MULTILINE)


@pytest.mark.parametrize(
    ("your_equity", "offered", "accepted"),
    [
        (-1.5, "resign", False),  # it expects 1.5 points: a single game is less
        (-1.5, "resign gammon", True),
        (-0.4, "resign", True),
        (-2.6, "resign gammon", False),
        (-2.6, "resign backgammon", True),
    ],
)
def test_the_computer_weighs_a_resignation_against_its_equity(
    your_equity: float, offered: str, accepted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the quick rollout is tested with the cube hints; here its equity (of the player on roll) is given
    monkeypatch.setattr(Session, "equity", lambda self, game: (your_equity, 0.01))
    code, prompts, out, session = session_output([offered, "quit"])
    game = session.match.game
    assert code == 0
    if accepted:
        assert game.result is not None and game.result.points == int(_read_resignation(offered) or 0)
        assert "The computer accepts" in out
    else:
        assert game.result is None and len(prompts) == 2 and prompts[1] == prompts[0]  # the same prompt again
        assert f"it expects {-your_equity:+.2f} points a game (per unit of cube) by playing on. Play on." in out
        assert game.turn == HUMAN


def test_a_rejected_resignation_leaves_the_game_to_be_played_on() -> None:
    def answer(prompt: str, session: Session) -> str:
        if (
            prompt.startswith("You rolled")
            and session.match.game.resigned is None
            and not any(r.action.value == "reject" for r in session.match.game.history)
        ):
            return "resign"
        return "quit"

    import bgcore.cli.play as play

    with pytest.MonkeyPatch.context() as m:
        m.setattr(play.Session, "equity", lambda self, game: (-1.5, 0.01))
        _, prompts, out, session = session_output(answer)
    history = [r.action.value for r in session.match.game.history]
    assert history[-2:] == ["resign", "reject"] and session.match.game.dice is not None  # the roll stands
    assert "The computer rejects a single game" in out and prompts[-1] == prompts[-2]


def test_no_resigning_while_a_double_waits() -> None:
    def answer(prompt: str, session: Session) -> str:
        if prompt.startswith("The computer doubles"):
            return "resign" if "You cannot resign" not in printed.getvalue() else "quit"
        if prompt.startswith("You rolled"):
            from bgcore.cli.inputs import rank_moves

            game = session.match.game
            assert game.dice is not None
            return str(rank_moves(game.position, game.dice, "pubeval")[0][0])
        return ""

    printed = io.StringIO()
    session = Session("pubeval", 4, 0, ask=lambda prompt: answer(prompt, session))
    with contextlib.redirect_stdout(printed):
        session.run()
    assert "You cannot resign now (cannot resign: player 0 must take or drop the double)" in printed.getvalue()
    assert "drop the double to give up the game." in printed.getvalue()


def test_resigning_acey_deucey_goes_by_the_most_the_computer_can_win() -> None:
    _, _, out, session = session_output(["resign"], variant="acey-deucey", seed=5)
    game = session.match.game
    assert game.result is None and "The computer rejects a single game: it can still win a backgammon." in out
    _, _, out, session = session_output(["resign backgammon"], variant="acey-deucey", seed=5)
    assert session.match.game.result is not None and session.match.game.result.points == 3


# --- a bot as the computer --------------------------------------------------------------------------


def constant(p: tuple[float, ...]) -> Callable[[np.ndarray], np.ndarray]:
    """An evaluator giving every board, whoever is on roll, the same chances: the player on roll wins ``p``."""
    return lambda boards: np.tile(np.asarray(p, dtype=np.float64), (len(boards), 1))


STRONG = (0.85, 0.10, 0.0, 0.02, 0.0)  # "Double, pass" for the player on roll
WEAK = (0.30, 0.05, 0.0, 0.15, 0.01)  # "No double, beaver"


def bot_session(
    answers: list[str] | Callable[[str, Session], str], opponent: object, **options: object
) -> tuple[list[str], str, Session]:
    """:func:`session_output` against ``opponent`` (seed 1): (prompts, output, session)."""
    _, prompts, out, session = session_output(answers, opponent=opponent, **options)
    return prompts, out, session


def test_computer_bot_from_a_name_an_evaluator_a_bot_or_a_path(tmp_path: Path) -> None:
    for name in ("random", "pubeval", "race"):
        assert computer_bot(name) is None
    assert type(computer_bot("wildbg").evaluator).__name__ == "Composite"  # type: ignore[union-attr]
    bot = Bot(constant(STRONG))
    assert computer_bot(bot) is bot
    assert computer_bot(bot.evaluator).evaluator is bot.evaluator  # type: ignore[union-attr]
    rng = np.random.default_rng(0)
    net = nn.Network([(rng.normal(0, 0.1, (198, 6)), np.zeros(6))], encoding="tesauro198")
    net.save(tmp_path / "net.npz")
    loaded = computer_bot(str(tmp_path / "net.npz"))
    assert isinstance(loaded, Bot) and isinstance(loaded.evaluator, nn.Network)
    with pytest.raises(TypeError, match="a policy's name, a Bot or an evaluator"):
        computer_bot(3)


def test_the_bot_doubles_and_the_player_answers() -> None:
    """A computer that always thinks the player on roll wins 85% doubles at its first turn."""

    def answer(prompt: str, session: Session) -> str:
        game = session.match.game
        if prompt.startswith("The computer doubles"):
            return "take" if prompts[-2:-1] == [prompt] else "hint"
        if game.cube == 2:
            return "quit"
        return str(game.legal_moves()[0]) if game.dice is not None else ""

    prompts: list[str] = []
    session = Session(Bot(constant(STRONG)), 1, 0, ask=lambda prompt: prompts.append(prompt) or answer(prompt, session))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        session.run()
    text = out.getvalue()
    game = session.match.game
    assert any(p.startswith("The computer doubles to 2. take or drop") for p in prompts)
    assert "Cube analysis of the computer's double by bot (0-ply):" in text
    assert "Proper cube action: Double, pass" in text and "Your proper answer: pass." in text
    assert [r.action.value for r in game.history if r.action.value in ("double", "take")] == ["double", "take"]
    assert game.cube == 2 and game.cube_owner == HUMAN


def test_the_bots_cube_hint_before_the_roll_and_its_moves_after() -> None:
    def answer(prompt: str, session: Session) -> str:
        answer.n += 1  # type: ignore[attr-defined]
        return ["hint", "", "hint", "quit"][min(answer.n, 3)]  # type: ignore[attr-defined]

    answer.n = -1  # type: ignore[attr-defined]
    session = Session("wildbg", 2, 0, ask=lambda prompt: answer(prompt, session))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        session.run()
    text = out.getvalue()
    game = session.match.game
    assert "Cube analysis of your cube by wildbg (0-ply):" in text and "Proper cube action:" in text
    for label in ("No double", "Double, take", "Double, pass"):
        assert re.search(rf"^\s*{label}\s+[+-]\d\.\d{{3}}\s*$", text, re.MULTILINE), text
    assert "Best moves by wildbg (0-ply, the cube counted):" in text
    best = str(Bot().rank(game)[0][0])
    assert re.search(rf"^\s*1\s+{re.escape(best)}\s+[+-]\d\.\d{{3}}\s*$", text, re.MULTILINE), text


def test_the_bot_drops_and_beavers_the_players_double() -> None:
    # seed 1: the player opens with 6-4; a bot sure of itself doubles at once, the player takes and redoubles
    prompts, out, session = bot_session(["24/18 13/9", "take", "double"], Bot(constant(STRONG)))
    game = session.match.game
    assert "You double to 4." in out and "The computer drops." in out
    assert game.result is not None and game.result.winner == HUMAN and game.result.points == 2
    # a bot that thinks the doubler wins 30% beavers (money play with beavers) and, asked, would drop at 4
    prompts, out, session = bot_session(["24/18 13/9", "double", "hint", "take"], Bot(constant(WEAK)), beavers=True)
    game = session.match.game
    assert "The computer beavers: the cube is at 2, on its side." in out
    assert any(p.startswith("The computer beavers: take at 4 or drop 2. take or drop") for p in prompts)
    assert "bot would drop." in out
    assert "You take: the cube is at 4, the computer's." in out and (game.cube, game.cube_owner) == (4, COMPUTER)


def test_the_player_beavers_the_bots_double() -> None:
    prompts, out, session = bot_session(["24/18 13/9", "beaver"], Bot(constant(STRONG)), beavers=True)
    game = session.match.game
    assert any(p.startswith("The computer doubles to 2. take, beaver or drop") for p in prompts)
    assert "You beaver: the cube is at 2, on your side." in out
    assert "The computer takes your beaver: the cube is at 4, on your side." in out
    assert game.history[-1].action.value != "drop" and (game.cube, game.cube_owner) == (4, HUMAN)


def _answer_resignation(word: str, prompt: str) -> str:
    return word if prompt.startswith("The computer resigns") else "quit"


def test_the_bot_resigns_a_certain_loss_and_the_player_answers() -> None:
    def lost() -> Game:
        board = [0] * 26
        board[19], board[24] = 15, -1  # the computer's view: all its checkers in the player's home board
        return Game.from_ids(
            Position(board).position_id(), MatchId(player_on_roll=COMPUTER, jacoby=False).encode(), dice=1
        )

    for word, ends in (("accept", True), ("reject", False)):
        session = Session("wildbg", 1, 0, ask=functools.partial(_answer_resignation, word))
        session.match._games[0] = lost()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            session.run()
        text = out.getvalue()
        assert "The computer offers to resign a backgammon." in text
        game = session.match.game
        if ends:
            assert game.result is not None and game.result.points == 3 and "you win 3 points" in text
        else:
            assert "You reject a backgammon. Play on." in text
            assert [r.action.value for r in game.history][:3] == ["resign", "reject", "roll"]


def test_help_says_how_the_computer_plays() -> None:
    _, _, out, _ = session_output(["help", "quit"])
    assert "The computer plays pubeval's best move; it doubles when a quick pubeval rollout" in out
    _, out, _ = bot_session(["help", "quit"], "wildbg")
    assert "The computer plays wildbg as a bgcore Bot: gnubg's 0-ply cubeful moves and cube decisions" in out
