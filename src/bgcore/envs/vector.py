"""``BackgammonVectorEnv``: many games against an opponent policy, stepped at once."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..dice import Dice
from ..policy import Policy, check_int
from . import _game
from ._game import ACTIONS, ILLEGAL_REWARD
from .single import check_reward, observation_space

__all__ = ["BackgammonVectorEnv"]

#: Games made ahead at a time (see ``_take_games``).
_POOL = 1024


class BackgammonVectorEnv(VectorEnv[npt.NDArray[Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of :class:`~bgcore.envs.BackgammonEnv`, stepped together.

    The same game, spaces, rewards and illegal actions as ``BackgammonEnv``
    (``opponent``, ``observation`` and ``illegal_reward`` mean the same), for
    every game at once: the boards live in one int8 array, one
    :func:`bgcore.batch.generate` call gives every game's legal moves (``threads``
    native threads share it), the opponent's replies are chosen in one policy
    call over all their candidates (a built-in policy scores them with
    :func:`bgcore.encode.pubeval` or :func:`~bgcore.encode.race_score` in C, an
    evaluator rates them all from the opponent's side in one call, a
    callable gets them all with their offsets), the observations are encoded
    in one :func:`bgcore.encode.tesauro198` call, and the rolls come from one
    stream of :class:`bgcore.Dice` (``reset(seed=s)``: ``Dice(s)``, drawn in
    bulk; the random opponent draws from ``self.np_random``).  Only numpy
    calls run per step, no Python loop over the games.

    Actions: ``MultiDiscrete([4096] * num_envs)``, game i's legal moves being
    indices ``0 .. info["num_moves"][i] - 1`` (the order of
    ``Position.legal_moves`` and of :meth:`legal_children`).

    Autoreset: ``AutoresetMode.SAME_STEP``.  A game that ends in a step is
    reset in that step: its row of the observations is the new game's first
    one, ``info["final_obs"]`` (an array like the observations, with
    ``info["_final_obs"]`` marking the games that ended) holds the final one,
    and the reward and ``terminated`` are the finished game's.  ``info``
    also holds ``action_mask`` (int8, (num_envs, 4096)), ``dice`` (int8,
    (num_envs, 2)), ``num_moves`` and ``illegal_action`` (this step's action
    was illegal: the game ended with ``illegal_reward``), each with its
    ``_key`` mask as Gymnasium's vector infos have.
    """

    # gymnasium declares metadata an instance attribute: no ClassVar
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        opponent: Policy = "pubeval",
        observation: str = "tesauro",
        *,
        illegal_reward: float = ILLEGAL_REWARD,
        threads: int = 1,
    ) -> None:
        self.num_envs = check_int(num_envs, "num_envs", 1)
        self.opponent = _game.check_opponent(opponent)
        self.observation = _game.check_observation(observation)
        self.illegal_reward = check_reward(illegal_reward)
        self.threads = check_int(threads, "threads", 1)
        self.single_action_space = spaces.Discrete(ACTIONS)
        self.single_observation_space = observation_space(self.observation)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._dice: Dice | None = None
        n = self.num_envs
        self._boards: np.ndarray = _game.initial_boards(n)  # each game from its agent's side, the agent on roll
        self._rolls = np.zeros((n, 2), dtype=np.uint8)
        self._children = np.empty((0, 26), dtype=np.int8)
        self._offsets = np.zeros(n + 1, dtype=np.int64)
        self._counts = np.zeros(n, dtype=np.int64)
        self._started = False
        # New games are made ahead, _POOL (or num_envs) at a time, and handed
        # out as games end: one batch of numpy calls per pool, not per step.
        self._pool_boards = np.empty((0, 26), dtype=np.int8)
        self._pool_rolls = np.empty((0, 2), dtype=np.uint8)
        self._pool_next = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        """Start a new game in every env; ``seed`` seeds the dice and the random opponent."""
        super().reset(seed=seed)
        self._dice = _game.seeded_dice(seed, self._dice, self.np_random)
        self._pool_next = len(self._pool_boards)  # drop the games made ahead
        self._boards, self._rolls = self._take_games(self.num_envs)
        self._deal()
        self._started = True
        return _game.observe(self._boards, self.observation), self._info(np.zeros(self.num_envs, dtype=bool))

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Play each game's action and the opponent's reply; reset the games that end."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        a = np.asarray(actions)
        if a.shape != (n,):
            raise ValueError(f"actions must have shape ({n},), not {a.shape}")
        if a.size and a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {a.dtype}")
        a = a.astype(np.int64, copy=False)
        legal = (a >= 0) & (a < self._counts)
        after = self._children[self._offsets[:-1] + np.where(legal, a, 0)]  # the agent's side, after its move
        won = _game.points(after) * legal
        rewards = np.where(legal, won, self.illegal_reward)
        terminated = ~legal | (won > 0)
        boards = self._boards.copy()
        go = np.flatnonzero(~terminated)
        assert self._dice is not None
        if len(go):
            replies = self._replies(_game.flip(after[go]), self._dice.rolls(len(go)))
            boards[go] = _game.flip(replies)
            lost = _game.points(replies)
            rewards[go] -= lost
            terminated[go] = lost > 0
        rolls = self._dice.rolls(n)
        info_extra: dict[str, Any] = {}
        done = np.flatnonzero(terminated)
        if len(done):
            info_extra = self._final(boards, after, won > 0, done, terminated)
            boards[done], rolls[done] = self._take_games(len(done))
        self._boards, self._rolls = boards, rolls
        self._deal()
        obs = _game.observe(boards, self.observation)
        info = self._info(~legal)
        info.update(info_extra)
        return obs, rewards, terminated, np.zeros(n, dtype=bool), info

    # --- pieces ---------------------------------------------------------------

    def _replies(self, boards: np.ndarray, rolls: np.ndarray) -> np.ndarray:
        """The opponent's moves of ``rolls`` from ``boards`` (its side): its boards after them."""
        children, offsets = _game.generate(boards, rolls, self.threads)
        picked: np.ndarray = children[_game.choose(self.opponent, children, offsets, self.np_random)]
        return picked

    def _take_games(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """k new games from the pool made ahead (refilled when it runs short)."""
        i = self._pool_next
        if i + k > len(self._pool_boards):
            boards, rolls = self._new_games(max(_POOL, k))
            self._pool_boards = np.concatenate([self._pool_boards[i:], boards])
            self._pool_rolls = np.concatenate([self._pool_rolls[i:], rolls])
            i = 0
        self._pool_next = i + k
        return self._pool_boards[i : i + k], self._pool_rolls[i : i + k]

    def _new_games(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """k new games after their opening rolls: the agent's boards and rolls to play."""
        assert self._dice is not None
        opening = _game.opening_rolls(self._dice, k)
        boards = _game.initial_boards(k)
        rolls = opening.copy()
        second = np.flatnonzero(opening[:, 0] < opening[:, 1])  # the opponent opens
        if len(second):
            boards[second] = _game.flip(_game.opening_moves(self.opponent, opening[second], self.np_random))
            rolls[second] = self._dice.rolls(len(second))
        return boards, rolls

    def _deal(self) -> None:
        """Generate every game's legal moves for the agent's roll."""
        self._children, self._offsets = _game.generate(self._boards, self._rolls, self.threads)
        self._counts = self._offsets[1:] - self._offsets[:-1]

    def _final(
        self, boards: np.ndarray, after: np.ndarray, won: np.ndarray, done: np.ndarray, terminated: np.ndarray
    ) -> dict[str, Any]:
        """``final_obs`` and its mask for the games in ``done``: the board as the
        game ended, from the agent's side (the opponent on roll after the agent's
        winning move)."""
        by_agent = won[done]
        ended = np.where(by_agent[:, None], after[done], boards[done])
        final = np.zeros(self.observation_space.shape or (), dtype=self.single_observation_space.dtype)
        final[done] = _game.observe(ended, self.observation)
        if self.observation == "tesauro":  # TD-Gammon's turn units: the opponent to roll after the agent's win
            final[done[by_agent], 196:] = (0.0, 1.0)
        return {"final_obs": final, "_final_obs": terminated.copy()}

    def _info(self, illegal: np.ndarray) -> dict[str, Any]:
        n = self.num_envs
        info: dict[str, Any] = {
            "action_mask": _game.prefix_mask(self._counts),
            "dice": self._rolls.astype(np.int8),
            "num_moves": self._counts.copy(),
            "illegal_action": illegal,
        }
        every = np.ones(n, dtype=bool)
        for key in list(info):
            info["_" + key] = every.copy()
        return info

    # --- views ----------------------------------------------------------------

    def boards(self) -> np.ndarray:
        """Every game's board from its agent's side, the agent on roll (int8, (num_envs, 26), a copy)."""
        boards: np.ndarray = self._boards.copy()
        return boards

    def legal_children(self) -> tuple[np.ndarray, np.ndarray]:
        """``(children, offsets)``: the board each legal action leads to, the
        agent's side before the opponent replies, as :func:`bgcore.batch.generate`
        gives them (copies): game i's action a leads to row ``offsets[i] + a``.
        A policy callable ``policy(children, offsets)`` can choose the agent's
        actions from them."""
        return self._children.copy(), self._offsets.copy()
