"""``bgcore play``: a game (or a match) in the terminal against a policy.

You are X, moving from your 24-point to your 1-point; the board is drawn from
your side every turn.  Type a move in standard notation (``8/5 6/5``,
``bar/22*``, ``13/7(2)``, ``6/off``: what :meth:`bgcore.Position.parse_move`
reads) or one of the commands of :data:`COMMANDS` (``help`` lists them, and
so does the first screen).

The computer plays the policy's best move.  Its cube decisions are simple,
from a quick rollout (:data:`CUBE_GAMES` cubeless pubeval games of the
position before the roll): it doubles when its cubeless equity is at least
:data:`DOUBLE_FROM` and below :data:`DOUBLE_BELOW` (above that it plays on for
the gammon), and it takes when the doubler's cubeless equity is below
:data:`TAKE_BELOW` (the dead cube's take point), whatever the match score.

You may resign a single game, a gammon or a backgammon (``resign``, ``resign
gammon``, ``resign backgammon``) before your roll or your move.  The computer
accepts when the resignation gives it at least what it expects by playing on:
its cubeless money equity (points per unit of cube) from the same quick
rollout of the position (your roll, if made, not counted), or the most it can
still win as the board stands (a single game once you have borne off a
checker; a backgammon while you have one on the bar, waiting to enter or in
its home board; else a gammon), whichever is less.  In acey-deucey, which has
no quick rollout here, it goes by that most alone.

>>> _most_to_win(Position.initial())
3
>>> _read_resignation("resign g"), _read_resignation("resign"), _read_resignation("resign all")
(<Outcome.GAMMON: 2>, <Outcome.SINGLE: 1>, None)
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable

from rich import box
from rich.table import Table

from ..errors import IllegalActionError, IllegalMoveError
from ..game import Action, End, Game, Record
from ..ids import encode_position_id
from ..match import Match
from ..move import Move
from ..position import Outcome, Position
from ..rollouts import rollout
from .common import UsageError, console, plural
from .inputs import load_policy, policy_argument, policy_label, rank_moves

__all__ = [
    "add_parser",
    "run",
    "Session",
    "CUBE_GAMES",
    "DOUBLE_FROM",
    "DOUBLE_BELOW",
    "TAKE_BELOW",
    "PLAY_VARIANTS",
    "ACEY_POLICIES",
    "COMMANDS",
]

HUMAN, COMPUTER = 0, 1
#: Games of the quick rollout behind the computer's cube decisions and the cube hints.
CUBE_GAMES = 1296
#: The computer doubles when its cubeless equity is in [DOUBLE_FROM, DOUBLE_BELOW).
DOUBLE_FROM = 0.4
DOUBLE_BELOW = 1.0
#: The computer takes when the doubler's cubeless equity is below this.
TAKE_BELOW = 0.5
#: Moves a hint shows.
HINT_MOVES = 5

#: Variants ``bgcore play`` plays (tabla's scoring is the game layer's; its board is standard).
PLAY_VARIANTS = ("standard", "nackgammon", "hypergammon", "acey-deucey")
#: Policies that score acey-deucey moves (pubeval knows only boards whose checkers have all entered).
ACEY_POLICIES = ("random", "race")

_KINDS = {Outcome.SINGLE: "a single game", Outcome.GAMMON: "a gammon", Outcome.BACKGAMMON: "a backgammon"}
_QUIT = ("quit", "q", "exit")
_HELP = ("help", "?")
#: Words that answer with a message of their own and leave the prompt as it was.
_SHOWN = ("hint", "undo", *_HELP)

#: What the player may type, one command a line (``help`` prints them).
COMMANDS = (
    ("a move", "in standard notation: 8/5 6/5, bar/22*, 13/7(2), 6/off"),
    ("Enter", "roll the dice (before your roll)"),
    ("double", "offer the cube (before your roll)"),
    ("take, drop", "answer the computer's double"),
    ("resign [single|gammon|backgammon]", "offer to resign the game (default single); the computer accepts or not"),
    ("hint", "the best moves, or a quick rollout's equity before the roll and at a double"),
    ("undo", "take back your last move or cube action, with the computer's reply"),
    ("help", "this list"),
    ("quit", "end the session"),
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play a game (or a match) in the terminal against a policy",
        description="Play backgammon against the computer. You are X, moving from 24 to 1. Type moves in "
        "standard notation (8/5 6/5, bar/22*, 13/7(2), 6/off) or a command: double, take, drop, resign [single|"
        "gammon|backgammon], undo (take back your last move or cube action, with the computer's reply), hint (the "
        "policy's best moves, or a quick rollout's equity before the roll and at a double), help, quit. The "
        "computer accepts a resignation worth at least its cubeless equity by a quick rollout, or the most it "
        "can still win. The computer doubles when a quick pubeval "
        f"rollout gives it a cubeless equity from +{DOUBLE_FROM:.2f} to below +{DOUBLE_BELOW:.2f}, and takes "
        f"when the doubler's is below +{TAKE_BELOW:.2f}, whatever the score.",
    )
    p.add_argument(
        "--policy",
        "--opponent",
        type=policy_argument,
        metavar="POLICY",
        help="the computer's policy (--opponent is the same option): random, pubeval (the default), race, "
        "wildbg (wildbg's networks, one ply deep) or a network's .npz file (bgcore.nn.Network.save); "
        "in acey-deucey random or race, default race",
    )
    p.add_argument(
        "--variant",
        choices=PLAY_VARIANTS,
        default="standard",
        help="the variant (default standard); in acey-deucey (played without the cube) every checker starts "
        "off the board and enters as from the bar (bar/20), and after 1-2 you name a double: "
        "bar/24 bar/23 + 6-6: bar/19(4)",
    )
    p.add_argument("--seed", type=int, help="the dice's seed: the same seed and moves, the same game")
    p.add_argument("--match", type=int, metavar="N", help="play a match to N points (default: one money game)")
    p.add_argument("--no-clear", action="store_true", help="do not clear the screen before each turn")
    p.set_defaults(run=run)


class Quit(Exception):
    """The player quit."""


def _short(error: Exception) -> str:
    """An IllegalMoveError's message without the position's repr."""
    return re.sub(r" in Position\.from_position_id\([^)]*\)$", "", str(error))


def _is_decision(record: Record) -> bool:
    """A record the player's ``undo`` takes back: a move that was a choice, or a cube action."""
    if record.player != HUMAN:
        return False
    return record.action in (Action.DOUBLE, Action.TAKE, Action.DROP) or (
        record.action is Action.MOVE and bool(record.move)
    )


class Session:
    """A match (one money game when ``length`` is 0) between the player
    (player 0) and ``policy`` (player 1), the player's words read with
    ``ask(prompt)`` (default: :func:`input`)."""

    def __init__(
        self,
        policy: str,
        seed: int | None,
        length: int,
        *,
        ask: Callable[[str], str] | None = None,
        clear: bool = False,
        variant: str = "standard",
    ) -> None:
        self.policy = policy  # as named on the command line
        self.player = load_policy(policy)  # the policy itself (a .npz file read once)
        self.variant = variant
        best = "race" if variant == "acey-deucey" else "pubeval"
        self.hint_policy = best if policy == "random" else policy
        self.hint_player = load_policy(best) if policy == "random" else self.player
        self.seed = seed
        self.rng = random.Random(seed)
        # Acey-deucey is played without the cube, as its sources play it.
        self.match = Match(length, dice=seed, variant=variant, cube=variant != "acey-deucey")
        self.ask = input if ask is None else ask
        self.clear = clear
        self.log: list[str] = []

    # --- the screen -----------------------------------------------------------------

    def say(self, text: str) -> None:
        """A line for the next screen."""
        self.log.append(text)

    def draw(self, game: Game) -> None:
        """The board from the player's side, the cube and score, and what happened since the last screen."""
        if self.clear:
            print("\033[H\033[2J", end="")  # home the cursor, clear the screen
        else:
            print()
        seed = "" if self.seed is None else f", seed {self.seed}"
        number = len(self.match.games)
        variant = "" if self.variant == "standard" else f"{self.variant}, "
        print(f"bgcore play: you (X) against {policy_label(self.policy)} (O){seed}, {variant}game {number}")
        position = game.position if game.on_roll == HUMAN else game.position.flip()
        lines = str(position).splitlines()
        # the board's ID (in acey-deucey, without the checkers waiting to enter: a line below gives them)
        lines[0] = f"Position ID: {encode_position_id(position.board)}   you: X, moving 24 to 1"
        print("\n".join(lines))
        print(self.status(game))
        for line in self.log:
            print(line)
        self.log.clear()

    def status(self, game: Game) -> str:
        if not game.cube_enabled:
            cube = "No cube"
        elif game.crawford:
            cube = "No cube: Crawford game"
        elif game.cube_owner is None:
            cube = f"Cube {game.cube}, centred"
        else:
            cube = f"Cube {game.cube}, " + ("yours" if game.cube_owner == HUMAN else "the computer's")
        if not self.match.length:
            return f"{cube}. Money game."
        s = game.score
        return f"{cube}. Score: you {s[HUMAN]}, the computer {s[COMPUTER]} ({self.match.length}-point match)."

    def score(self) -> tuple[int, int]:
        """The match score, the last game's points counting up to the length."""
        length = self.match.length
        s = self.match.score
        return (min(s[0], length), min(s[1], length)) if length else s

    def read(self, prompt: str) -> str:
        try:
            return self.ask(prompt).strip()
        except EOFError:
            print()
            raise Quit from None

    # --- the match --------------------------------------------------------------------

    def run(self) -> int:
        self.say("Commands: a move (8/5 6/5), Enter to roll, double, take, drop, resign, hint, undo, help, quit.")
        try:
            while True:
                game = self.match.game
                while not game.is_over():
                    self.step(game)
                self.announce(game)
                if not self.match.length:
                    return 0
                if self.match.is_over():
                    s = self.score()
                    who = "you win" if self.match.winner == HUMAN else "the computer wins"
                    print(f"Match over: {who} the {self.match.length}-point match, {s[HUMAN]}-{s[COMPUTER]}.")
                    return 0
                if self.read(f"Press Enter for game {len(self.match.games) + 1} (or quit): ").lower() in _QUIT:
                    raise Quit
                self.match.new_game()
        except Quit:
            print("You quit.")
            return 0

    def step(self, game: Game) -> None:
        """One action of the game."""
        if game.opening:
            game.roll()
            d = game.history[-1].dice  # as rolled: player 0's die, then player 1's
            assert d is not None
            if game.again:  # acey-deucey: the winner rolls both dice to begin
                who = "you roll first" if game.on_roll == HUMAN else "the computer rolls first"
                self.say(f"Opening roll: you {d[0]}, the computer {d[1]}: {who}.")
            else:
                who = "you play" if game.on_roll == HUMAN else "the computer plays"
                self.say(f"Opening roll: you {d[0]}, the computer {d[1]}: {who} {max(d)}-{min(d)}.")
        elif game.resigned is not None and game.turn == COMPUTER:
            self.consider(game)
        elif game.turn == COMPUTER:
            self.computer(game)
        elif game.doubled:
            self.answer(game)
        elif game.dice is None:
            self.before_roll(game)
        else:
            self.move(game)

    def announce(self, game: Game) -> None:
        outcome = game.result
        assert outcome is not None
        self.draw(game)
        who = "you win" if outcome.winner == HUMAN else "the computer wins"
        if outcome.end is End.DROPPED:
            how = "the double was dropped"
        elif outcome.end is End.RESIGNED:
            how = f"{_KINDS[outcome.kind]}, resigned"
        else:
            how = _KINDS[outcome.kind]
        print(f"Game over: {who} {plural(outcome.points, 'point')} ({how}).")
        if self.match.length:
            s = self.score()
            print(f"Score: you {s[HUMAN]}, the computer {s[COMPUTER]} ({self.match.length}-point match).")

    # --- the computer -------------------------------------------------------------------

    def equity(self, game: Game) -> tuple[float, float]:
        """The cubeless equity (and its standard error) of the player on roll,
        from a quick pubeval rollout of the position before the roll (acey-deucey
        is played without the cube: it never asks)."""
        result = rollout(game.position, games=CUBE_GAMES, policy="pubeval", seed=self.seed or 0)
        return result.equity, result.equity_stderr

    def computer(self, game: Game) -> None:
        if game.doubled:  # the player doubled: the computer is the taker
            doubler, _ = self.equity(game)
            if doubler < TAKE_BELOW:
                game.take()
                self.say(f"The computer takes: the cube is at {game.cube}, on its side.")
            else:
                game.drop()
                self.say("The computer drops.")
            return
        opening = game.dice is not None  # the opening roll's dice, announced already
        if game.dice is None:
            if Action.DOUBLE in game.legal_actions():
                mine, _ = self.equity(game)
                if DOUBLE_FROM <= mine < DOUBLE_BELOW:
                    game.double()
                    return
            game.roll()
        assert game.dice is not None
        hi, lo = max(game.dice), min(game.dice)
        move = self.choose(game)
        game.play(move)
        rolled = "The computer" if opening else f"The computer rolled {hi}-{lo} and"
        self.say(f"{rolled} played {move}{_again(move, 'rolls')}." if move else f"{rolled} cannot move.")

    def choose(self, game: Game) -> Move:
        assert game.dice is not None
        if self.policy == "random":
            return self.rng.choice(list(game.legal_moves()))
        return rank_moves(game.position, game.dice, self.player)[0][0]

    # --- the player ----------------------------------------------------------------------

    def command(self, game: Game, text: str) -> bool:
        """Quit, undo, hint, help or resign; True when the game changed (undo, resign)."""
        word = text.lower()
        if word in _QUIT:
            raise Quit
        if word == "undo":
            return self.undo(game)
        if word == "hint":
            self.hint(game)
        if word in _HELP:
            _print_commands()
        if word.split()[:1] == ["resign"]:
            return self.resign(game, word)
        return False

    def resign(self, game: Game, words: str) -> bool:
        """Offer the resignation ``words`` asks for; True when it was offered."""
        kind = _read_resignation(words)
        if kind is None:
            print("Type resign, resign gammon or resign backgammon.")
            return False
        try:
            game.resign(kind)
        except IllegalActionError as exc:
            print(f"You cannot resign now ({exc}): drop the double to give up the game.")
            return False
        self.say(f"You offer to resign {_KINDS[kind]}.")
        return True

    def consider(self, game: Game) -> None:
        """The computer accepts or rejects the player's resignation (see the module docstring)."""
        offered = game.resigned
        assert offered is not None
        yours = game.position if game.on_roll == HUMAN else game.position.flip()
        most = _most_to_win(yours)
        if self.variant == "acey-deucey":
            expected, why = float(most), f"it can still win {_KINDS[Outcome(most)]}"
        else:
            equity, _ = self.equity(game)
            expected = min(float(most), -equity if game.on_roll == HUMAN else equity)
            why = f"it expects {expected:+.2f} points a game (per unit of cube) by playing on"
        if int(offered) >= expected:
            game.accept()
            self.say(f"The computer accepts {_KINDS[offered]}.")
        else:
            game.reject()
            self.say(f"The computer rejects {_KINDS[offered]}: {why}. Play on.")

    def before_roll(self, game: Game) -> None:
        if Action.DOUBLE not in game.legal_actions():
            game.roll()
            return
        self.draw(game)
        while True:
            text = self.read("Your turn: press Enter to roll, or type double (or hint, undo, quit): ")
            word = text.lower()
            if word in ("", "roll", "r"):
                game.roll()
                return
            if word == "double":
                game.double()
                self.say(f"You double to {2 * game.cube}.")
                return
            if self.command(game, text):
                return
            if word not in _SHOWN and word.split()[:1] != ["resign"]:
                print("Press Enter to roll, or type double (help lists the commands).")

    def answer(self, game: Game) -> None:
        self.draw(game)
        while True:
            text = self.read(f"The computer doubles to {2 * game.cube}. take or drop (or hint, undo, quit): ")
            word = text.lower()
            if word in ("take", "t"):
                game.take()
                self.say(f"You take: the cube is at {game.cube}, on your side.")
                return
            if word in ("drop", "d", "pass"):
                game.drop()
                self.say("You drop.")
                return
            if self.command(game, text):
                return
            if word not in ("hint", "undo"):
                print("Type take or drop (or hint, undo, quit).")

    def move(self, game: Game) -> None:
        assert game.dice is not None
        hi, lo = max(game.dice), min(game.dice)
        moves = game.position.legal_moves(game.dice)
        if len(moves) == 1 and not moves[0]:
            game.play(moves[0])
            self.say(f"You rolled {hi}-{lo} and cannot move.")
            return
        self.draw(game)
        while True:
            text = self.read(f"You rolled {hi}-{lo}. Your move (or hint, undo, quit): ")
            word = text.lower()
            if self.command(game, text):
                return
            if word in _SHOWN or word.split()[:1] == ["resign"]:
                continue
            if word in ("double", "take", "drop", "roll"):
                print(f"You have rolled {hi}-{lo}: type a move such as {moves[0]}.")
                continue
            if not text:
                print(f"Type a move such as {moves[0]} (help lists the commands).")
                continue
            try:
                move = game.position.parse_move(text, game.dice)
            except IllegalMoveError as exc:
                words = "" if re.search(r"\d|bar|off", word) else " Type help for the commands."
                print(_short(exc) + words)
                continue
            game.play(move)
            self.say(f"You played {move}{_again(move, 'roll')}.")
            return

    def undo(self, game: Game) -> bool:
        """Take back the player's last move or cube action and what came after it."""
        if not any(_is_decision(r) for r in game.history):
            print("Nothing to undo in this game.")
            return False
        while True:
            record = game.undo()
            if _is_decision(record):
                break
        what = f"move {record.move}" if record.action is Action.MOVE else record.action.value
        self.say(f"Undone: your {what}, and what came after it.")
        return True

    def hint(self, game: Game) -> None:
        if game.dice is not None and not game.doubled:
            ranked = rank_moves(game.position, game.dice, self.hint_player)[:HINT_MOVES]
            table = Table(box=box.SIMPLE, show_edge=False)
            table.add_column("#", justify="right")
            table.add_column("move")
            table.add_column("score", justify="right")
            for i, (move, score) in enumerate(ranked, 1):
                table.add_row(str(i), str(move), "-" if score is None else f"{score:.3f}")
            out = console()
            out.print(f"Best moves by {policy_label(self.hint_policy)}:")
            out.print(table)
            return
        equity, stderr = self.equity(game)
        rolled = f"A {CUBE_GAMES:,}-game pubeval rollout gives"
        if game.doubled:
            print(f"{rolled} the computer a cubeless equity of {equity:+.3f} ± {stderr:.3f}.")
            print(f"With a dead cube, a take is right while the doubler's equity is below {TAKE_BELOW:+.2f}.")
        else:
            print(f"{rolled} you a cubeless equity of {equity:+.3f} ± {stderr:.3f}.")
            print(
                f"The computer doubles from {DOUBLE_FROM:+.2f} (up to {DOUBLE_BELOW:+.2f}) "
                f"and takes below {TAKE_BELOW:+.2f}."
            )


def _print_commands() -> None:
    width = max(len(name) for name, _ in COMMANDS)
    print("Commands:")
    for name, what in COMMANDS:
        print(f"  {name:<{width}}  {what}")


def _read_resignation(words: str) -> Outcome | None:
    """The resignation ``resign [single|gammon|backgammon]`` asks for (each
    word may be cut short: ``resign g``), or None."""
    parts = words.lower().split()
    if not parts or parts[0] != "resign" or len(parts) > 2:
        return None
    if len(parts) == 1:
        return Outcome.SINGLE
    found = [kind for kind in Outcome if kind.name.lower().startswith(parts[1])]
    return found[0] if len(found) == 1 else None


def _most_to_win(yours: Position) -> int:
    """The most the opponent can still win against the player of ``yours``
    (their view) as the board stands: 1 once they have borne off a checker,
    3 while one is on the bar, waiting to enter or in the opponent's home
    board, else 2."""
    if yours.borne_off()[0] > 0:
        return 1
    b = yours.board
    waiting = getattr(yours, "waiting", (0, 0))[0]
    return 3 if b[25] > 0 or waiting > 0 or any(b[p] > 0 for p in range(19, 25)) else 2


def _again(move: Move, verb: str) -> str:
    """What a move adds to its line: acey-deucey's extra roll."""
    return f", and {verb} again" if getattr(move, "again", False) else ""


def run(args: argparse.Namespace) -> int:
    if args.policy is None:
        args.policy = "race" if args.variant == "acey-deucey" else "pubeval"
    if args.variant == "acey-deucey" and args.policy not in ACEY_POLICIES:
        raise UsageError(f"acey-deucey is played by the {' or '.join(ACEY_POLICIES)} policy, not {args.policy}")
    if args.match is not None and not 1 <= args.match <= 64:
        raise UsageError(f"--match takes 1 to 64 points, not {args.match}")
    if args.seed is not None and not 0 <= args.seed < 2**64:
        raise UsageError(f"--seed takes 0 to 2**64 - 1, not {args.seed}")
    clear = not args.no_clear and sys.stdout.isatty()
    return Session(args.policy, args.seed, args.match or 0, clear=clear, variant=args.variant).run()
