"""Reinforcement-learning environments: Gymnasium and PettingZoo.

- :class:`BackgammonEnv`: one agent against an opponent policy, registered as
  ``bgcore/Backgammon-v0`` when this module is imported;
- :class:`BackgammonVectorEnv`: many such games stepped at once in numpy and
  bgcore's native code (``gymnasium.make_vec("bgcore/Backgammon-v0",
  num_envs=n, vectorization_mode="vector_entry_point")`` builds one too);
- :mod:`bgcore.envs.backgammon_aec_v0`: a PettingZoo AEC environment for two
  learning agents (imports PettingZoo).

They need the ``rl`` extra: ``pip install "bgcore-engine[rl]"`` (or
``pip install ".[rl]"`` from a clone: gymnasium and pettingzoo); ``import bgcore``
itself never imports them.

>>> import gymnasium as gym
>>> import bgcore.envs
>>> env = gym.make("bgcore/Backgammon-v0", opponent="random")
>>> obs, info = env.reset(seed=7)
>>> obs.shape, int(info["action_mask"].sum()) == info["num_moves"]
((198,), True)
"""

from __future__ import annotations

import sys

try:
    import gymnasium
    from gymnasium.vector import AutoresetMode  # noqa: F401  (gymnasium 1.1 and later)
except ImportError:  # pragma: no cover - exercised in a subprocess by the tests
    # (no `as` name: stubtest would look for it in the module)
    raise ImportError(
        'bgcore.envs needs gymnasium 1.1 or later: install the "rl" extra, pip install "bgcore-engine[rl]"'
        ' (from a clone: pip install ".[rl]"; gymnasium>=1.1, pettingzoo>=1.24);'
        f" the import failed with: {sys.exc_info()[1]}"
    ) from None

from ._game import ACTIONS, ILLEGAL_REWARD, OBSERVATIONS
from .single import BackgammonEnv
from .vector import BackgammonVectorEnv

__all__ = ["BackgammonEnv", "BackgammonVectorEnv", "ACTIONS", "ILLEGAL_REWARD", "OBSERVATIONS", "ENV_ID"]

#: The id ``gymnasium.make`` knows the single-agent environment by.
ENV_ID = "bgcore/Backgammon-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="bgcore.envs.single:BackgammonEnv",
        vector_entry_point="bgcore.envs.vector:BackgammonVectorEnv",
    )
