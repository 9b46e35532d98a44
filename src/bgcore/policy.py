"""The policies that choose a move in bgcore's native game engine.

A policy is the name of a built-in one or a Python callable:

- ``"random"``: uniform over the distinct results of the roll (its own seeded
  stream per game);
- ``"pubeval"``: Gerald Tesauro's public-domain linear evaluator, with its
  race and contact weights (:func:`bgcore.encode.pubeval`);
- ``"race"``: a simple pip-and-wastage score (:func:`bgcore.encode.race_score`);
- a callable ``policy(children, offsets) -> scores``: ``children`` an int8
  array (m, 26) holding every candidate result of every game waiting for a
  move, each seen by the player who moves (before the flip), and ``offsets``
  (int64, k + 1) the games' boundaries as in :func:`bgcore.batch.generate`
  (game i's candidates are rows ``offsets[i]:offsets[i + 1]``).  It returns m
  finite scores; each game plays its highest-scoring candidate (the first of
  equal ones).  One call serves every game in flight.

The built-in ones run in C without the GIL; a callable is called with the GIL,
so that it can use numpy or torch.

>>> import numpy as np
>>> def fewest_pips(children, offsets):
...     mine = np.where(children[:, 1:] > 0, children[:, 1:], 0)
...     return -(mine * np.arange(1, 26)).sum(axis=1).astype(float)
>>> check_policy(fewest_pips) is fewest_pips, check_policy("pubeval")
(True, 'pubeval')
>>> check_policy("best")
Traceback (most recent call last):
...
ValueError: policy must be one of 'random', 'pubeval', 'race' or a callable policy(children, offsets), not 'best'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

__all__ = ["POLICIES", "Policy", "Evaluator", "check_policy", "check_evaluator", "check_int"]

POLICIES = ("random", "pubeval", "race")

#: A built-in policy's name, or ``policy(children, offsets) -> scores``.
Policy = str | Callable[[np.ndarray, np.ndarray], object]
#: ``evaluator(boards) -> probabilities``: (n, 26) int8 boards, each seen by
#: its player on roll, to float (n, 5): that player's win, win gammon, win
#: backgammon, lose gammon and lose backgammon chances (gammons include
#: backgammons).
Evaluator = Callable[[np.ndarray], object]


def check_policy(policy: Any, what: str = "policy") -> Policy:
    """``policy`` if it is a built-in policy's name or a callable, else ValueError."""
    if (isinstance(policy, str) and policy in POLICIES) or callable(policy):
        return cast(Policy, policy)
    names = ", ".join(repr(p) for p in POLICIES[:-1]) + f", {POLICIES[-1]!r}"
    raise ValueError(f"{what} must be one of {names} or a callable policy(children, offsets), not {policy!r}")


def check_evaluator(evaluator: Any, truncate: int | None) -> Evaluator | None:
    """The evaluator a truncation needs (ValueError when one is missing or
    not callable); None when there is no truncation."""
    if truncate is None:
        if evaluator is not None:
            raise ValueError("an evaluator scores truncated games: give truncate=n plies with it")
        return None
    if evaluator is None or not callable(evaluator):
        raise ValueError(f"truncate={truncate} needs evaluator=, a callable boards -> (n, 5) probabilities")
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
