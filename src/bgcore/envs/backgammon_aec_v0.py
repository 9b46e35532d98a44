"""Backgammon for two learning agents: a PettingZoo AEC environment.

``env()`` gives the environment wrapped in PettingZoo's order-enforcing
wrapper, ``raw_env`` the class itself, as PettingZoo's classic games do:

>>> from bgcore.envs import backgammon_aec_v0
>>> env = backgammon_aec_v0.env()
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, info["dice"], obs["observation"].shape, int(obs["action_mask"].sum()) == info["num_moves"]
('player_0', (6, 2), (198,), True)

The agents are ``player_0`` and ``player_1``; the opening roll decides who
starts (one die each, again on a tie; the higher plays both dice).  An agent
observes a dict: ``"observation"``, the board from its own side (TD-Gammon's
198 inputs, float32, or the 26 counts, int8: ``observation="board"``), and
``"action_mask"`` (int8, 4096), the legal actions: all zeros when it is not
that agent's turn.  Actions are indices into ``Position.legal_moves(dice)`` of
the agent on roll (``Discrete(4096)``, as :class:`bgcore.envs.BackgammonEnv`);
the agent on roll finds its roll and move count in its info (``"dice"``,
``"num_moves"``).

Rewards: 0 until the game ends, then the winner gets the points won (1, 2 or
3) and the loser their negative.  An illegal action (an index at or past the
move count) ends the game: the agent that played it gets ``illegal_reward``
(-3 by default), the other 0, and its info says ``"illegal_action": True``
(PettingZoo's own convention for illegal moves, with backgammon's largest
loss as the penalty).  Nothing truncates a game.
"""

from __future__ import annotations

import operator
import sys
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

try:
    from pettingzoo import AECEnv  # type: ignore[import-untyped]  # pettingzoo ships no type information
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised in a subprocess by the tests
    # (no `as` name: stubtest would look for it in the module)
    raise ImportError(
        'bgcore.envs.backgammon_aec_v0 needs pettingzoo: install the "rl" extra, pip install "bgcore-engine[rl]"'
        ' (from a clone: pip install ".[rl]"; gymnasium>=1.1, pettingzoo>=1.24);'
        f" the import failed with: {sys.exc_info()[1]}"
    ) from None

from ..dice import Dice
from ..position import Position
from . import _game
from ._game import ACTIONS, ILLEGAL_REWARD
from .single import check_reward, observation_space

__all__ = ["env", "raw_env"]

_AGENTS = ("player_0", "player_1")


def env(**kwargs: Any) -> Any:
    """``raw_env(**kwargs)`` in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # AECEnv is Any to mypy
    """Backgammon for two agents (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "backgammon_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self, observation: str = "tesauro", *, illegal_reward: float = ILLEGAL_REWARD, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.observation = _game.check_observation(observation)
        self.illegal_reward = check_reward(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        self.agents: list[str] = []
        board_space = observation_space(self.observation)
        mask_space = spaces.Box(0, 1, (ACTIONS,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": board_space, "action_mask": mask_space}) for agent in _AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in _AGENTS}
        self._dice: Dice | None = None
        self._board = _game.initial_boards(1)  # the side of the agent on roll (self._turn)
        self._turn = 0
        self._roll = np.zeros((1, 2), dtype=np.uint8)
        self._children = np.empty((0, 26), dtype=np.int8)
        self._over = True

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        space: spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        space: spaces.Space[Any] = self.action_spaces[agent]
        return space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game; ``seed`` seeds the dice (``bgcore.Dice(seed)``)."""
        if seed is not None:
            self._dice = Dice(seed)
        elif self._dice is None:
            self._dice = Dice()
        self.agents = list(_AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        opening = _game.opening_rolls(self._dice, 1)
        self._start(0 if opening[0, 0] > opening[0, 1] else 1, _game.initial_boards(1), opening)

    def _start(self, turn: int, board: np.ndarray, roll: np.ndarray) -> None:
        """Agent ``turn`` to play ``roll`` on ``board`` (its side)."""
        self._turn = turn
        self._board = board
        self._roll = roll
        self._children, _ = _game.generate(board, roll)
        self._over = False
        self.agent_selection = _AGENTS[turn]
        self.infos[_AGENTS[1 - turn]] = {}
        self.infos[_AGENTS[turn]] = {
            "dice": (int(roll[0, 0]), int(roll[0, 1])),
            "num_moves": len(self._children),
            "illegal_action": False,
        }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The board from ``agent``'s side and its action mask."""
        mine = _AGENTS.index(agent) == self._turn
        board = self._board[0] if mine else _game.flip(self._board[0])
        mask = np.zeros(ACTIONS, dtype=np.int8)
        if mine and not self._over:
            mask[: len(self._children)] = 1
        obs = _game.observe(board, self.observation, opponent_on_roll=not mine)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """The agent on roll plays legal move ``action`` (see the module docstring)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        other = _AGENTS[1 - self._turn]
        index = -1 if action is None else operator.index(action)
        if not 0 <= index < len(self._children):
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {**self.infos[agent], "illegal_action": True}
            self._finish()
        else:
            after = self._children[index : index + 1]
            won = _game.points_one(after[0])
            if won:
                # the loser would be on roll: the board from its side, as BackgammonEnv shows it
                self._turn = 1 - self._turn
                self._board = _game.flip(after)
                self.rewards[agent], self.rewards[other] = float(won), -float(won)
                self._finish()
            else:
                assert self._dice is not None
                self._start(1 - self._turn, _game.flip(after), self._dice.rolls(1))
        self.agent_selection = other
        self._accumulate_rewards()

    def _finish(self) -> None:
        self._over = True
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the board from the side of the agent on roll, as text."""
        if self.render_mode != "ansi":
            return None
        who = _AGENTS[self._turn]
        roll = "" if self._over else f" to play {self._roll[0, 0]}-{self._roll[0, 1]}"
        return f"{Position.from_array(self._board[0])}\n{who}{roll}\n"

    def close(self) -> None:
        """Nothing to release."""
