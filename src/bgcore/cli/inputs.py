"""Reading the command line's positions, dice and policies, and ranking moves by a policy.

A position is given as one argument in any of four forms, told apart by their shape:

- an XGID (``XGID=...`` or its ten ``:``-separated fields without the prefix);
- a gnubg ID ``PositionID:MatchID`` (one ``:``);
- the 26-count array of :meth:`bgcore.Position.to_array`, comma-separated
  (brackets and spaces allowed);
- a GNU Backgammon Position ID (14 characters).

>>> read_position("4HPwATDgc/ABMA").position == Position.initial()
True
>>> spec = read_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:7:10")
>>> spec.kind, spec.game.cube, spec.game.dice, spec.game.score
('XGID', 2, (5, 2), (4, 2))
>>> read_dice(["3-1"]), read_dice(["31"]), read_dice(["3", "1"]), read_dice(["3 1"])
((3, 1), (3, 1), (3, 1), (3, 1))

A policy (``--policy``) is a name of :data:`POLICY_NAMES` or the path of a
network saved by :meth:`bgcore.nn.Network.save` (a ``.npz`` file):

>>> policy_argument("wildbg"), load_policy("pubeval")
('wildbg', 'pubeval')
>>> policy_argument("gnubg")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
argparse.ArgumentTypeError: invalid choice: 'gnubg' (choose from 'random', ..., 'wildbg' or a network's .npz file)
"""

from __future__ import annotations

import argparse
import os
import random
import re
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..acey import AceyDeuceyMoves
from ..errors import InvalidPositionError
from ..game import Game
from ..move import Move
from ..nn import Network
from ..policy import NETWORKS, POLICIES, Policy, _network, is_evaluator, scores
from ..position import Position
from ..rules import CHECKERS

__all__ = [
    "PositionSpec",
    "read_position",
    "read_dice",
    "DiceError",
    "POLICY_NAMES",
    "policy_argument",
    "load_policy",
    "policy_label",
    "rank_moves",
    "RankedPlay",
    "rank_plays",
    "score_label",
    "acey_race_score",
    "protect_arguments",
]

_XGID_BODY = re.compile(r"[-A-Oa-o]{26}:")
_ARRAY = re.compile(r"\s*[\[(]?\s*-?\d+(\s*[,\s]\s*-?\d+)*\s*[\])]?\s*")


#: The policies the command line names: the built-in ones and the networks bgcore ships.
POLICY_NAMES = POLICIES + NETWORKS


def policy_argument(text: str) -> str:
    """``--policy``'s value as argparse checks it: a name of :data:`POLICY_NAMES`
    or a path ending in ``.npz`` (read by :func:`load_policy`)."""
    if text in POLICY_NAMES or text.lower().endswith(".npz"):
        return text
    names = ", ".join(repr(name) for name in POLICY_NAMES)
    raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {names} or a network's .npz file)")


def policy_label(text: str) -> str:
    """How output names the policy ``text``: a name, or a network file's name without its folder.

    >>> policy_label("pubeval"), policy_label("nets/td-80.npz")
    ('pubeval', 'td-80.npz')
    """
    return text if text in POLICY_NAMES else os.path.basename(text)


def load_policy(text: str) -> Policy:
    """The policy ``text`` names: a name as it is, a ``.npz`` file as the
    :class:`bgcore.nn.Network` it holds (a NetworkError or an OSError when it
    cannot be read)."""
    if text in POLICY_NAMES:
        return text
    return Network.load(text)


@dataclass(frozen=True)
class PositionSpec:
    """A position read from the command line: the board (player on roll's
    view), the game around it when the text gave one (an XGID or a gnubg ID:
    cube, score, dice), what kind of text it was and the text itself."""

    position: Position
    game: Game | None
    kind: str
    text: str


def read_position(text: str, *, checkers: int = CHECKERS) -> PositionSpec:
    """The position (and game) that ``text`` gives; raises a ValueError
    (:class:`~bgcore.InvalidPositionError` and friends) saying what is wrong."""
    body = text.strip()
    if not body:
        raise InvalidPositionError("the position is empty: give a Position ID, an XGID, a gnubg ID or an array")
    if body.upper().startswith("XGID=") or body.count(":") == 9:
        game = Game.from_xgid(body)
        return PositionSpec(_with_checkers(game.position, checkers), game, "XGID", body)
    if body.count(":") == 1:
        game = Game.from_ids(body)
        return PositionSpec(_with_checkers(game.position, checkers), game, "gnubg ID", body)
    if "," in body or body.startswith(("[", "(")):
        if not _ARRAY.fullmatch(body):
            raise InvalidPositionError(f"an array is 26 comma-separated whole numbers, not {body!r}")
        values = [int(v) for v in re.split(r"[,\s]+", body.strip("[]() \t")) if v]
        if len(values) != 26:
            raise InvalidPositionError(f"an array has 26 counts (slots 0-25), not {len(values)}")
        # Position() quotes a count out of range as given; numpy could not hold a huge one
        return PositionSpec(Position(values, checkers=checkers), None, "array", body)
    if ":" in body:
        raise InvalidPositionError(
            f"{body!r} has {body.count(':')} ':'s: an XGID has 9, a gnubg ID (PositionID:MatchID) one"
        )
    try:
        position = Position.from_position_id(body, checkers=checkers)
    except InvalidPositionError as exc:
        if len(body) != 14:
            raise InvalidPositionError(
                f"{body!r} is not a Position ID (14 characters), an XGID, a gnubg ID or a 26-count array"
            ) from None
        raise exc
    return PositionSpec(position, None, "Position ID", body)


def _with_checkers(position: Position, checkers: int) -> Position:
    return position if checkers == position.checkers else Position(position.board, checkers=checkers)


class DiceError(ValueError):
    """Dice that are not two dice 1-6."""


def read_dice(words: list[str]) -> tuple[int, int]:
    """Two dice from ``31``, ``3-1``, ``3,1``, ``"3 1"`` or the two words ``3 1``,
    in the order given (a DiceError otherwise)."""
    text = " ".join(words)
    digits = re.sub(r"[\s,/-]", "", text)
    if not re.fullmatch(r"[1-6][1-6]", digits):
        raise DiceError(f"dice are two digits 1-6 such as 31, 3-1 or '3 1', not {text!r}")
    return int(digits[0]), int(digits[1])


def rank_moves(
    position: Position, dice: tuple[int, int], policy: Policy, *, seed: int = 0
) -> list[tuple[Move, float | None]]:
    """Every legal move of ``dice`` with its score by ``policy``, best first.

    ``pubeval`` and ``race`` score each move's result as the engine's
    built-in policies do (:func:`bgcore.encode.pubeval` with the race or
    contact weights chosen per result, :func:`bgcore.encode.race_score`), an
    evaluator (``wildbg``, a :class:`bgcore.nn.Network`) gives the mover's
    cubeless equity after the move (:func:`bgcore.policy.scores`); equal
    scores keep the generator's order, so the first move is the one the
    engine plays.  ``random`` gives the moves in a random order (from
    ``seed``), without scores.
    """
    moves = position.legal_moves(dice)
    listed = list(moves)
    if isinstance(policy, str) and policy == "random":
        random.Random(seed).shuffle(listed)
        return [(m, None) for m in listed]
    if not listed:
        return []
    if isinstance(moves, AceyDeuceyMoves):
        if policy != "race":
            raise ValueError(f"acey-deucey moves are ranked by race or random, not {policy!r}")
        scored = acey_race_score(moves.boards(), moves.again())
    else:
        results = np.stack([p.flip().to_array() for p in moves.positions()])  # the mover's view, before the flip
        scored = scores(policy, results, checkers=position.checkers)
    order = sorted(range(len(listed)), key=lambda i: -scored[i])
    return [(listed[i], float(scored[i])) for i in order]


@dataclass(frozen=True)
class RankedPlay:
    """A play ranked by an evaluator (:func:`rank_plays`): the move, the
    chances of the player who makes it once it is made (win, win gammon,
    win backgammon, lose gammon, lose backgammon; gammons count
    backgammons), and that player's cubeless equity,
    ``2 win - 1 + wg - lg + wbg - lbg``."""

    move: Move
    chances: tuple[float, float, float, float, float]
    equity: float


def rank_plays(position: Position, dice: tuple[int, int], evaluator: Policy) -> list[RankedPlay]:
    """Every legal play of ``dice`` with the mover's chances and cubeless
    equity after it by ``evaluator`` (a name of :data:`~bgcore.policy.NETWORKS`
    or an evaluator object, :func:`~bgcore.policy.is_evaluator`), best first:
    gnubg's hint, cubeless and one ply deep.  The evaluator rates each result
    from the opponent's side, on roll; the mover's chances are its
    complement (a win is the opponent's loss, a gammon won the opponent's
    gammon lost).  The equity and the order are the engine's greedy
    player's (:func:`bgcore.policy.scores`): the first play is the one it
    plays, and equal equities keep the generator's order.

    >>> best = rank_plays(Position.initial(), (3, 1), "wildbg")[0]
    >>> str(best.move), [round(p, 3) for p in best.chances], round(best.equity, 3)
    ('8/5 6/5', [0.532, 0.157, 0.007, 0.133, 0.005], 0.089)
    """
    if isinstance(evaluator, str):
        if evaluator not in NETWORKS:
            raise ValueError(f"plays are ranked by a network ({', '.join(map(repr, NETWORKS))}), not {evaluator!r}")
        evaluator = _network(evaluator)
    if not is_evaluator(evaluator):
        raise TypeError(f"rank_plays takes a network or an evaluator object, not {evaluator!r}")
    moves = position.legal_moves(dice)
    if isinstance(moves, AceyDeuceyMoves):
        raise ValueError("acey-deucey moves are ranked by race or random, not by a network")
    listed = list(moves)
    after = np.stack([p.to_array() for p in moves.positions()])  # the opponent on roll
    equity = scores(evaluator, np.ascontiguousarray(-after[:, ::-1]), checkers=position.checkers)
    # A finished game is scored by its result by bgcore's evaluators themselves.
    raw = cast(Any, evaluator)(after, checkers=position.checkers)
    theirs = np.asarray(raw, dtype=np.float64).reshape(-1, 5).tolist()
    order = sorted(range(len(listed)), key=lambda i: -equity[i])
    # The opponent's (win, wg, wbg, lg, lbg) as the mover's: (1 - win, lg, lbg, wg, wbg).
    return [
        RankedPlay(
            listed[i],
            (1.0 - theirs[i][0], theirs[i][3], theirs[i][4], theirs[i][1], theirs[i][2]),
            float(equity[i]),
        )
        for i in order
    ]


def score_label(policy: Policy, name: str) -> str:
    """The heading of a policy's scores: ``NAME equity`` for an evaluator, else ``NAME score``."""
    return f"{name} equity" if is_evaluator(policy) or policy in NETWORKS else f"{name} score"


def acey_race_score(boards: np.ndarray, again: np.ndarray) -> np.ndarray:
    """A simple score of acey-deucey results (int8 (n, 28), the mover's view
    before the flip; ``again`` whether each rolls again): minus the mover's
    pips (a checker waiting or on the bar counts 25), minus 3 for each blot
    an opponent's checker behind it could hit, plus 8 for another roll.

    >>> start = np.zeros((2, 28), dtype=np.int8); start[:, 26:] = 15
    >>> acey_race_score(start, np.array([False, True])).tolist()
    [-375.0, -367.0]
    """
    b = boards.astype(np.int64)
    mine = np.where(b[:, 1:25] > 0, b[:, 1:25], 0)
    pips = (mine * np.arange(1, 25)).sum(axis=1) + 25 * (b[:, 25] + b[:, 26])
    theirs = b[:, :25] < 0  # slot 0, the opponent's bar, and the points they hold
    # An opponent's checker behind point p: on their bar, waiting, or on a point below p.
    behind = np.logical_or.accumulate(theirs, axis=1) | (b[:, 27:28] > 0)
    blots = ((b[:, 1:25] == 1) & behind[:, :24]).sum(axis=1)
    return np.asarray(-pips - 3.0 * blots + 8.0 * again, dtype=np.float64)


def protect_arguments(argv: list[str]) -> list[str]:
    """``argv`` with positions that start with ``-`` (an XGID without its
    ``XGID=`` prefix, an array whose first count is negative) made
    unmistakable for options: argparse would read them as unknown options."""
    out = []
    for arg in argv:
        if arg.startswith("-") and _XGID_BODY.match(arg):
            arg = "XGID=" + arg
        elif arg.startswith("-") and "," in arg and _ARRAY.fullmatch(arg):
            arg = f"[{arg}]"
        out.append(arg)
    return out
