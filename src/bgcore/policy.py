"""The policies that choose a move in bgcore's native game engine.

A policy is one of:

- ``"random"``: uniform over the distinct results of the roll (its own seeded
  stream per game);
- ``"pubeval"``: Gerald Tesauro's public-domain linear evaluator, with its
  race and contact weights (:func:`bgcore.encode.pubeval`);
- ``"race"``: a simple pip-and-wastage score (:func:`bgcore.encode.race_score`);
- an evaluator (:data:`Evaluator`) as a greedy player, one ply deep: each
  move's result is evaluated from the opponent's side and the move that
  leaves the opponent the lowest cubeless money equity is played
  (``2 win - 1 + wg - lg + wbg - lbg``; a move that wins the game counts its
  result, not the evaluator's opinion).  A :class:`bgcore.nn.Network`, a
  :class:`bgcore.nn.Composite` (such as :func:`bgcore.nets.wildbg`) or
  :class:`bgcore.nets.OnnxWildbg` is recognised as an evaluator; ``"wildbg"``
  names ``bgcore.nets.wildbg()``; any other evaluator is wrapped with
  :func:`greedy`, since a plain callable is taken for a move-scoring one;
- a callable ``policy(children, offsets) -> scores``: ``children`` an int8
  array (m, 26) holding every candidate result of every game waiting for a
  move, each seen by the player who moves (before the flip), and ``offsets``
  (int64, k + 1) the games' boundaries as in :func:`bgcore.batch.generate`
  (game i's candidates are rows ``offsets[i]:offsets[i + 1]``).  It returns m
  finite scores; each game plays its highest-scoring candidate (the first of
  equal ones).  One call serves every game in flight.

The built-in ones and networks run in C without the GIL, on every thread of
a rollout (a network evaluates each game's ~20 candidates in one batch);
other callables, :func:`greedy` ones included, are called with the GIL, so
that they can use numpy, torch or onnxruntime.  Each game plays the same
moves either way: ``greedy(lambda boards: net(boards))`` (numpy's path)
and ``net`` (C's) give the same games, ties broken alike (the first of
equal ones, in the generator's order).

>>> import numpy as np
>>> def fewest_pips(children, offsets):
...     mine = np.where(children[:, 1:] > 0, children[:, 1:], 0)
...     return -(mine * np.arange(1, 26)).sum(axis=1).astype(float)
>>> check_policy(fewest_pips) is fewest_pips, check_policy("pubeval"), check_policy("wildbg")
(True, 'pubeval', 'wildbg')
>>> check_policy("best")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: policy must be one of 'random', 'pubeval', 'race', 'wildbg', an evaluator or a callable ..., not 'best'

An evaluator as a policy, from Python: :func:`scores` gives each move's
result the equity the greedy player sees (the mover's), here wildbg's
networks choosing among the opening 3-1's results:

>>> from bgcore import Position
>>> start = Position.initial()
>>> moves = start.legal_moves((3, 1))
>>> children = np.stack([after.flip().to_array() for after in moves.positions()])
>>> equity = scores("wildbg", children)
>>> str(moves[int(np.argmax(equity))]), round(float(equity.max()), 3)
('8/5 6/5', 0.089)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

import bgcore._nn as _nn
import bgcore.encode as encode

from .nets import OnnxWildbg, wildbg
from .nn import NativeEvaluator
from .rules import CHECKERS

__all__ = [
    "POLICIES",
    "NETWORKS",
    "Policy",
    "Evaluator",
    "Greedy",
    "greedy",
    "is_evaluator",
    "check_policy",
    "check_evaluator",
    "check_int",
    "policy_name",
    "scores",
    "for_engine",
    "evaluator_for_engine",
]

#: The built-in policies' names (scored in C by the engine).
POLICIES = ("random", "pubeval", "race")
#: The names of the networks bgcore ships, each a policy and an evaluator:
#: ``"wildbg"`` is :func:`bgcore.nets.wildbg`.
NETWORKS = ("wildbg",)

# Probabilities may miss [0, 1] by float32's rounding (a softmax's sum of three
# outcomes can be 1 + 2**-23): what an evaluator's outputs may stray by.
_SLACK = 1e-6

#: ``evaluator(boards) -> probabilities``: (n, 26) int8 boards, each seen by
#: its player on roll, to float (n, 5): that player's win, win gammon, win
#: backgammon, lose gammon and lose backgammon chances (gammons include
#: backgammons).
Evaluator = Callable[[np.ndarray], object]
#: A built-in policy's or a network's name, an evaluator object
#: (:func:`is_evaluator`), or ``policy(children, offsets) -> scores``.
Policy = str | NativeEvaluator | OnnxWildbg | Callable[[np.ndarray, np.ndarray], object]


@dataclass(frozen=True)
class Greedy:
    """An evaluator as a move-scoring policy: each child (the mover's view)
    scores the mover's cubeless money equity after the move, minus the
    opponent's equity by ``evaluator`` (called on the children flipped to
    the opponent's side); a child where the mover has borne off the last
    checker scores its result (1, 2 or 3 points).  ``checkers``: each side's
    checkers, for those results.  Make one with :func:`greedy`.

    The engine runs a :class:`bgcore.nn.Network`'s or ``Composite``'s
    ``Greedy`` in C; any other evaluator is called from the engine with the
    GIL, once per step for every game waiting (a picklable one runs on an
    executor's workers too).
    """

    evaluator: Evaluator | str
    checkers: int = CHECKERS

    def __call__(self, children: np.ndarray, offsets: np.ndarray | None = None) -> npt.NDArray[np.float64]:
        """The mover's equity after each child (float64, one per row of ``children``)."""
        boards = np.negative(np.asarray(children, dtype=np.int8)[:, ::-1], order="C")  # the opponent's view
        evaluator = _named(self.evaluator, "evaluator") if isinstance(self.evaluator, str) else self.evaluator
        # bgcore's evaluator objects take the checkers; any other evaluator, boards alone
        raw = cast(Any, evaluator)(boards, checkers=self.checkers) if is_evaluator(evaluator) else evaluator(boards)
        p = np.array(raw, dtype=np.float64)
        if p.shape != (len(boards), 5):
            raise ValueError(f"an evaluator must return shape ({len(boards)}, 5), not {p.shape}")
        if not (np.isfinite(p).all() and (p >= -_SLACK).all() and (p <= 1 + _SLACK).all()):
            raise ValueError("an evaluator must return probabilities in [0, 1]")
        done, values = _nn.game_values(boards, self.checkers)
        p[done] = values[done]
        # The order of the engine's C (the same bits): ((((2w - 1) + wg) - lg) + wbg) - lbg.
        equity = 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        return -equity

    @property
    def __name__(self) -> str:  # a policy's name, as a function's
        return f"greedy({policy_name(self.evaluator)})"


def greedy(evaluator: Evaluator | str, *, checkers: int = CHECKERS) -> Greedy:
    """The greedy policy of an evaluator (a callable, or a name of
    :data:`NETWORKS`): it plays the move whose result leaves the opponent
    the lowest cubeless equity by ``evaluator`` (see :class:`Greedy`).

    >>> from bgcore import nets
    >>> greedy(nets.wildbg()).__name__, greedy("wildbg").__name__
    ('greedy(Composite)', 'greedy(wildbg)')
    >>> greedy(3)
    Traceback (most recent call last):
    ...
    TypeError: greedy takes an evaluator, boards -> (n, 5) probabilities, not 3
    """
    if isinstance(evaluator, str):
        _named(evaluator, "greedy's evaluator")
        return Greedy(evaluator, checkers)
    if isinstance(evaluator, Greedy) or not callable(evaluator):
        raise TypeError(f"greedy takes an evaluator, boards -> (n, 5) probabilities, not {evaluator!r}")
    return Greedy(evaluator, checkers)


def is_evaluator(obj: object) -> bool:
    """Whether ``obj`` is one of bgcore's evaluator objects, which a policy
    may be without :func:`greedy`: a :class:`bgcore.nn.Network` or
    :class:`~bgcore.nn.Composite`, or :class:`bgcore.nets.OnnxWildbg`."""
    return isinstance(obj, (NativeEvaluator, OnnxWildbg))


_LOADED: dict[str, NativeEvaluator] = {}


def _network(name: str) -> NativeEvaluator:
    """The shipped network ``name`` (one of NETWORKS), loaded once per process
    (threads that load it at once keep the first one stored)."""
    assert name == "wildbg"
    net = _LOADED.get(name)
    return net if net is not None else _LOADED.setdefault(name, wildbg())


def _named(name: str, what: str) -> NativeEvaluator:
    if name not in NETWORKS:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, NETWORKS))} or a callable, not {name!r}")
    return _network(name)


def check_policy(policy: Any, what: str = "policy") -> Policy:
    """``policy`` if it is a policy (a name of :data:`POLICIES` or
    :data:`NETWORKS`, an evaluator object or a callable), else ValueError."""
    if isinstance(policy, str) and policy in POLICIES + NETWORKS:
        return policy
    if not isinstance(policy, str) and (is_evaluator(policy) or callable(policy)):
        return cast(Policy, policy)
    names = ", ".join(repr(p) for p in POLICIES + NETWORKS)
    raise ValueError(
        f"{what} must be one of {names}, an evaluator or a callable policy(children, offsets), not {policy!r}"
    )


def check_evaluator(evaluator: Any, truncate: int | None) -> Evaluator | str | None:
    """The evaluator a truncation needs (ValueError when one is missing or
    is neither a callable nor a name of :data:`NETWORKS`); None when there
    is no truncation."""
    if truncate is None:
        if evaluator is not None:
            raise ValueError("an evaluator scores truncated games: give truncate=n plies with it")
        return None
    if isinstance(evaluator, str) and evaluator in NETWORKS:
        return evaluator
    if isinstance(evaluator, Greedy) or evaluator is None or isinstance(evaluator, str) or not callable(evaluator):
        raise ValueError(
            f"truncate={truncate} needs evaluator=, a callable boards -> (n, 5) probabilities "
            f"or one of {', '.join(map(repr, NETWORKS))}"
        )
    return cast(Evaluator, evaluator)


def check_int(value: object, what: str, low: int, high: int | None = None) -> int:
    """``value`` as an int when it is one in ``low`` .. ``high`` (no bound:
    None), else a ValueError naming ``what``: the engine's counts and seeds."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{what} must be an int, not {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(
            f"{what} must be {low} to {high}, not {value}" if high else f"{what} must be >= {low}, not {value}"
        )
    return int(value)


def policy_name(policy: object) -> str:
    """A policy's name, for results: a built-in one's or a network's name, a
    callable's ``__name__`` (or its type's name when it has none).

    >>> policy_name("pubeval"), policy_name(len), policy_name(greedy(len))
    ('pubeval', 'len', 'greedy(len)')
    """
    if isinstance(policy, str):
        return policy
    return str(getattr(policy, "__name__", None) or type(policy).__name__)


def for_engine(policy: Policy, checkers: int = CHECKERS) -> str | NativeEvaluator | Callable[..., object]:
    """A checked policy as the engine takes it: a built-in policy's name, a
    native network (run in C: a name of :data:`NETWORKS`, a
    :class:`~bgcore.nn.Network` or ``Composite``, or their :class:`Greedy`)
    or a move-scoring callable (other evaluators wrapped in
    :class:`Greedy` for games of ``checkers`` checkers a side)."""
    if isinstance(policy, str):
        return _named(policy, "policy") if policy in NETWORKS else policy
    if isinstance(policy, Greedy):
        if isinstance(policy.evaluator, str):
            return _named(policy.evaluator, "policy")
        if isinstance(policy.evaluator, NativeEvaluator):
            return policy.evaluator
        return policy if policy.checkers == checkers else Greedy(policy.evaluator, checkers)
    if isinstance(policy, NativeEvaluator):
        return policy
    if isinstance(policy, OnnxWildbg):
        return Greedy(policy, checkers)
    return policy


def evaluator_for_engine(evaluator: Evaluator | str | None, checkers: int = CHECKERS) -> Evaluator | None:
    """A checked truncation evaluator as the engine takes it: a native
    network (run in C) or a callable; an evaluator object that knows
    ``checkers`` is told them."""
    if evaluator is None or isinstance(evaluator, NativeEvaluator):
        return evaluator
    if isinstance(evaluator, str):
        return _named(evaluator, "evaluator")
    if isinstance(evaluator, OnnxWildbg) and checkers != CHECKERS:
        return functools.partial(evaluator, checkers=checkers)
    return evaluator


def scores(
    policy: Policy, children: np.ndarray, offsets: np.ndarray | None = None, *, checkers: int = CHECKERS
) -> npt.NDArray[np.float64]:
    """A scoring policy's scores of ``children`` (int8 (m, 26), each the
    mover's view after a move, grouped by ``offsets`` as a move-scoring
    callable gets them; None: one group), float64 (m,): the engine plays
    each group's highest, the first of equal ones.  ``"pubeval"`` and
    ``"race"`` score as the engine's C does; an evaluator gives the mover's
    equity after the move (:class:`Greedy`); ``"random"`` has no scores
    (ValueError)."""
    policy = check_policy(policy)
    boards = np.ascontiguousarray(children, dtype=np.int8)
    if offsets is None:
        offsets = np.array([0, len(boards)], dtype=np.int64)
    if policy == "random":
        raise ValueError("the random policy does not score moves")
    if policy == "pubeval":
        return np.asarray(encode.pubeval(boards, checkers=checkers), dtype=np.float64)
    if policy == "race":
        return np.asarray(encode.race_score(boards, checkers=checkers), dtype=np.float64)
    engine = for_engine(policy, checkers)
    call = Greedy(cast(Evaluator, engine), checkers) if isinstance(engine, NativeEvaluator) else engine
    assert callable(call)
    result = np.asarray(call(boards, offsets), dtype=np.float64)
    if result.shape != (len(boards),):
        raise ValueError(f"a policy must return one score per child, shape ({len(boards)},), not {result.shape}")
    if not np.isfinite(result).all():
        raise ValueError("a policy returned a score that is NaN or infinite")
    return result
