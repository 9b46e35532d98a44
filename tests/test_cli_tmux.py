"""``bgcore play`` in a real terminal: a whole game typed into tmux.

The game runs in a detached tmux session (its own server socket, no user
configuration); the test reads the screen with ``capture-pane``, answers each
prompt by typing (a legal move computed from the Position ID and the dice on
the screen, Enter to roll, ``take`` at a double), asks for a ``hint`` once and
plays its first move, takes a move back with ``undo`` once, and checks that
the game ends with its result line.

Without tmux the test skips, or fails when ``BGCORE_REQUIRE_TMUX=1`` (as CI
sets it), like ``oracle.require()`` for gnubg.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

from bgcore import Position
from bgcore.acey import AceyDeuceyPosition
from bgcore.cli.inputs import rank_moves

REQUIRE_VARIABLE = "BGCORE_REQUIRE_TMUX"

MOVE_PROMPT = re.compile(r"You rolled (\d)-(\d)\. Your move \(or hint, undo, quit\):$")
ROLL_PROMPT = re.compile(r"Your turn: press Enter to roll, or type double \(or hint, undo, quit\):$")
TAKE_PROMPT = re.compile(r"The computer doubles to (\d+)\. take or drop \(or hint, undo, quit\):$")
RESULT = re.compile(r"^Game over: (you win|the computer wins) (\d+) points? \((.+)\)\.$", re.MULTILINE)
EXITED = re.compile(r"^EXIT=(\d+)$", re.MULTILINE)


def require() -> None:
    """Skip the calling test without tmux; fail it instead when BGCORE_REQUIRE_TMUX=1."""
    if shutil.which("tmux") is not None:
        return
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{REQUIRE_VARIABLE}=1 but tmux is not installed", pytrace=False)
    pytest.skip(f"tmux is not installed (set {REQUIRE_VARIABLE}=1 to fail instead)")


class Terminal:
    """A program in a detached 120 x 50 tmux session on a private server."""

    def __init__(self, command: str) -> None:
        self.socket = f"bgcore-test-{uuid.uuid4().hex[:12]}"
        # tmux itself runs without the sanitizers' runtimes that .ci/sanitize.sh preloads;
        # the program gets them back
        self.env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        if "LD_PRELOAD" in os.environ:
            command = f"env LD_PRELOAD={shlex.quote(os.environ['LD_PRELOAD'])} {command}"
        # the shell keeps the pane open after the program, to read its exit code
        shell = f"{command}; echo EXIT=$?; sleep 120"
        self.tmux("new-session", "-d", "-x", "120", "-y", "50", "-s", "play", shell)
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip()

    def tmux(self, *args: str) -> str:
        proc = subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
            env=self.env,
        )
        return proc.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play")

    def type(self, text: str) -> None:
        if text:
            self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def wait(self, timeout: float = 30.0) -> tuple[str, str]:
        """(screen, its last line) once the program waits for input or has exited."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
            last = lines[-1] if lines else ""
            if EXITED.search(screen) or last.endswith("quit):"):  # every prompt ends so
                return screen, last
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt after {timeout} s; the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30, env=self.env)
        if self.socket_path.endswith(self.socket):  # tmux leaves its socket file behind
            with contextlib.suppress(OSError):
                os.unlink(self.socket_path)


@pytest.fixture
def terminal() -> Iterator[Callable[[list[str]], Terminal]]:
    """Start ``python -m bgcore ARGS`` in a terminal; every terminal is closed after the test."""
    require()
    opened: list[Terminal] = []

    def start(args: list[str]) -> Terminal:
        t = Terminal(shlex.join([sys.executable, "-m", "bgcore", *args]))
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def _shown_position(screen: str) -> Position:
    found = re.findall(r"^Position ID: (\S{14}) ", screen, re.MULTILINE)
    assert found, f"no Position ID on the screen:\n{screen}"
    return Position.from_position_id(found[-1])


def test_require_without_tmux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv(REQUIRE_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="tmux is not installed"):
        require()
    monkeypatch.setenv(REQUIRE_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="BGCORE_REQUIRE_TMUX=1 but tmux is not installed"):
        require()


@pytest.mark.slow
def test_a_whole_game_typed_in_tmux(terminal: Callable[[list[str]], Terminal]) -> None:
    term = terminal(["play", "--seed", "4", "--opponent", "pubeval"])  # a game where the computer doubles
    hinted = undone = False
    moves_typed = rolls = takes = 0
    last_move: tuple[str, str] | None = None  # (Position ID, move) of the move to undo
    for _ in range(400):
        screen, prompt = term.wait()
        if EXITED.search(screen):
            break
        assert "you: X, moving 24 to 1" in screen  # the board is drawn at every prompt
        if ROLL_PROMPT.search(prompt):
            if moves_typed >= 2 and not undone:
                # take back the move just played (and the computer's reply)
                term.type("undo")
                screen, prompt = term.wait()
                assert "Undone: your move" in screen, screen
                m = MOVE_PROMPT.search(prompt)
                assert m, f"undo did not bring the move back:\n{screen}"
                assert last_move is not None and _shown_position(screen).position_id() == last_move[0]
                undone = True
                term.type(last_move[1])  # the same move again
                continue
            rolls += 1
            term.type("")
        elif m := MOVE_PROMPT.search(prompt):
            dice = (int(m.group(1)), int(m.group(2)))
            position = _shown_position(screen)
            if not hinted:
                term.type("hint")
                screen, prompt = term.wait()
                rows = re.findall(r"^\s*1\s+(\S.*?)\s{2,}-?\d+\.\d{3}\s*$", screen, re.MULTILINE)
                assert "Best moves by pubeval:" in screen and rows, screen
                move = rows[-1]
                hinted = True
            else:
                move = str(rank_moves(position, dice, "pubeval")[0][0])
            assert move in {str(mv) for mv in position.legal_moves(dice)}
            last_move = (position.position_id(), move)
            moves_typed += 1
            term.type(move)
        elif TAKE_PROMPT.search(prompt):
            if not takes:  # the cube hint: a quick rollout's equity
                term.type("hint")
                screen, prompt = term.wait()
                assert re.search(r"gives the computer a cubeless equity of [+-]\d\.\d{3} ± \d\.\d{3}", screen), screen
                assert TAKE_PROMPT.search(prompt)
            takes += 1
            term.type("take")
        else:
            raise AssertionError(f"an unexpected prompt {prompt!r}; the screen:\n{screen}")
    else:
        raise AssertionError("the game did not end after 400 prompts")
    assert EXITED.search(screen).group(1) == "0"  # type: ignore[union-attr]
    result = RESULT.search(screen)
    assert result, f"no result line:\n{screen}"
    assert hinted and undone and moves_typed > 5
    # the player took the computer's double and never redoubled: the game was played for 2 points or more
    assert takes == 1 and "Cube 2, yours. Money game." in screen and int(result.group(2)) % 2 == 0


def test_quit_in_tmux(terminal: Callable[[list[str]], Terminal]) -> None:
    term = terminal(["play", "--seed", "3", "--match", "3"])
    screen, _ = term.wait()
    assert "Score: you 0, the computer 0 (3-point match)" in screen
    term.type("quit")
    screen, _ = term.wait()
    assert "You quit." in screen and EXITED.search(screen).group(1) == "0"  # type: ignore[union-attr]


WAITING = re.compile(r"^Waiting to enter: (\d+) \(on roll\), (\d+)$", re.MULTILINE)


@pytest.mark.slow
def test_a_whole_acey_deucey_game_typed_in_tmux(terminal: Callable[[list[str]], Terminal]) -> None:
    term = terminal(["play", "--variant", "acey-deucey", "--seed", "5"])
    moves_typed = named = 0
    for _ in range(600):
        screen, prompt = term.wait()
        if EXITED.search(screen):
            break
        assert "No cube. Money game." in screen  # acey-deucey is played without the cube here
        m = MOVE_PROMPT.search(prompt)
        assert m, f"an unexpected prompt {prompt!r}; the screen:\n{screen}"
        dice = (int(m.group(1)), int(m.group(2)))
        waiting = WAITING.findall(screen)
        assert waiting, f"no waiting checkers on the screen:\n{screen}"
        board = _shown_position(screen).board
        position = AceyDeuceyPosition(board, waiting=(int(waiting[-1][0]), int(waiting[-1][1])))
        move = str(rank_moves(position, dice, "race")[0][0])
        named += "+" in move  # a 1-2 and its named double, typed as one move
        moves_typed += 1
        term.type(move)
    else:
        raise AssertionError("the game did not end after 600 prompts")
    assert EXITED.search(screen).group(1) == "0"  # type: ignore[union-attr]
    assert RESULT.search(screen), f"no result line:\n{screen}"
    assert moves_typed > 10 and named >= 1
