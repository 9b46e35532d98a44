"""``BackgammonEnv``: one agent against an opponent policy, a Gymnasium environment."""

from __future__ import annotations

import math
import operator
from typing import Any, SupportsFloat, SupportsIndex

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..dice import Dice
from ..policy import Policy
from ..position import LegalMoves, Position
from . import _game
from ._game import ACTIONS, ILLEGAL_REWARD

__all__ = ["BackgammonEnv", "observation_space"]


def observation_space(observation: str) -> spaces.Box:
    """The observation space of one board: TD-Gammon's 198 inputs (float32,
    0 to 7.5: a bar of 15 counts 7.5) or the 26 counts (int8, -15 to 15)."""
    if _game.check_observation(observation) == "tesauro":
        return spaces.Box(0.0, 7.5, (198,), np.float32)
    return spaces.Box(-15, 15, (26,), np.int8)


def check_reward(value: object) -> float:
    reward = float(value)  # type: ignore[arg-type]
    if not math.isfinite(reward):
        raise ValueError(f"illegal_reward must be finite, not {value!r}")
    return reward


class BackgammonEnv(gym.Env[npt.NDArray[Any], np.int64]):
    """Backgammon for one agent against an opponent policy (Gymnasium).

    Each step the agent plays one of its roll's legal moves and the opponent
    replies, then the agent rolls again.  Registered as
    ``bgcore/Backgammon-v0`` (``gymnasium.make("bgcore/Backgammon-v0")``).

    - ``opponent``: a policy as :mod:`bgcore.policy` defines them:
      ``"random"``, ``"pubeval"``, ``"race"``, ``"wildbg"`` (wildbg's
      networks, greedy one ply deep), an evaluator (a
      :class:`bgcore.nn.Network`, ``bgcore.nets.wildbg()``,
      ``bgcore.policy.greedy(evaluator)``) or ``policy(children, offsets)
      -> scores``, called with the opponent's candidate results of the roll.
    - ``observation``: ``"tesauro"`` (TD-Gammon's 198 inputs, float32,
      :func:`bgcore.encode.tesauro198`) or ``"board"`` (the 26 counts,
      int8); always the board seen from the agent's side.
    - Actions: ``Discrete(4096)``: an index into
      :meth:`legal_moves` (``Position.legal_moves(dice)``: one move per distinct
      result, a lost turn one empty move).  4,096 is the generator's capacity
      for one roll (``bgcore.movegen.MAX_RESULTS``), so every legal move has an
      index; the most any roll was found to have is 2,226.  ``info["action_mask"]``
      (int8, 4096) marks the legal ones: the first ``info["num_moves"]``.
    - An **illegal action** (an index at or past ``num_moves``) ends the
      episode: ``terminated`` is True, the reward is ``illegal_reward`` (-3 by
      default, the worst a game scores) and ``info["illegal_action"]`` is
      True.  The board does not change.
    - Rewards: 0 until the game ends, then the points the agent has won
      (1, 2 or 3 for a single game, a gammon or a backgammon; negative when
      it lost).  Nothing truncates an episode: every game ends.
    - ``reset(seed=s)`` rolls from ``bgcore.Dice(s)`` (the opening roll first:
      one die each, again on a tie; whoever rolls higher plays both dice) and
      gives the random opponent's choices ``self.np_random``; a reset without a
      seed continues both streams.

    ``info`` holds ``action_mask``, ``dice`` (the agent's roll, int8 (2,)),
    ``num_moves`` and ``illegal_action``; at the end of a game the mask is
    all zeros and the dice (0, 0).
    """

    # gymnasium declares metadata an instance attribute: no ClassVar
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponent: Policy = "pubeval",
        observation: str = "tesauro",
        *,
        illegal_reward: float = ILLEGAL_REWARD,
        render_mode: str | None = None,
    ) -> None:
        self.opponent = _game.check_opponent(opponent)
        self.observation = _game.check_observation(observation)
        self.illegal_reward = check_reward(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTIONS)
        self.observation_space = observation_space(self.observation)
        self._dice: Dice | None = None
        self._board = _game.initial_boards(1)  # the agent's view, (1, 26)
        self._roll = np.zeros((1, 2), dtype=np.uint8)
        self._children = np.empty((0, 26), dtype=np.int8)
        self._over = True

    # --- the game -----------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[Any], dict[str, Any]]:
        """Start a game; ``seed`` seeds the dice and the random opponent."""
        super().reset(seed=seed)
        self._dice = _game.seeded_dice(seed, self._dice, self.np_random)
        dice = self._dice
        opening = _game.opening_rolls(dice, 1)
        board = _game.initial_boards(1)
        if opening[0, 0] > opening[0, 1]:
            roll = opening
        else:  # the opponent plays the opening roll (the start looks the same from each side)
            board = _game.flip(_game.opening_moves(self.opponent, opening, self.np_random))
            roll = dice.rolls(1)
        self._start(board, roll)
        return self._observe(board), self._info()

    def step(self, action: SupportsIndex) -> tuple[npt.NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play legal move ``action`` and the opponent's reply (see the class docstring)."""
        if self._over:
            raise RuntimeError("the game is over: call reset() to start another")
        index = operator.index(action)
        if not 0 <= index < len(self._children):
            self._over = True
            return self._observe(self._board), self.illegal_reward, True, False, self._info(illegal=True)
        after = self._children[index : index + 1]
        won = _game.points_one(after[0])
        if won:
            return self._end(after, won, opponent_on_roll=True)
        assert self._dice is not None
        reply = self._reply(_game.flip(after), self._dice.rolls(1))
        lost = _game.points_one(reply[0])
        board = _game.flip(reply)
        if lost:
            return self._end(board, -lost, opponent_on_roll=False)
        self._start(board, self._dice.rolls(1))
        return self._observe(board), 0.0, False, False, self._info()

    def _reply(self, board: np.ndarray, roll: np.ndarray) -> np.ndarray:
        """The opponent's move of ``roll`` from ``board`` (its view): its board after it."""
        children, _ = _game.generate(board, roll)
        row = _game.choose_one(self.opponent, children, self.np_random)
        return children[row : row + 1]

    def _start(self, board: np.ndarray, roll: np.ndarray) -> None:
        self._board = board
        self._roll = roll
        self._children, _ = _game.generate(board, roll)
        self._over = False

    def _end(
        self, board: np.ndarray, reward: int, *, opponent_on_roll: bool
    ) -> tuple[npt.NDArray[Any], SupportsFloat, bool, bool, dict[str, Any]]:
        self._board = board
        self._over = True
        obs = self._observe(board, opponent_on_roll=opponent_on_roll)
        return obs, float(reward), True, False, self._info()

    def _observe(self, board: np.ndarray, *, opponent_on_roll: bool = False) -> npt.NDArray[Any]:
        return _game.observe(board[0], self.observation, opponent_on_roll=opponent_on_roll)

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        over = self._over
        count = 0 if over else len(self._children)
        mask = np.zeros(ACTIONS, dtype=np.int8)
        mask[:count] = 1
        dice = np.zeros(2, dtype=np.int8) if over else self._roll[0].astype(np.int8)
        return {"action_mask": mask, "dice": dice, "num_moves": count, "illegal_action": illegal}

    # --- views ----------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The board from the agent's side (the agent on roll while the game goes on)."""
        return Position.from_array(self._board[0])

    @property
    def dice(self) -> tuple[int, int] | None:
        """The agent's roll to play, or None when the game is over."""
        return None if self._over else (int(self._roll[0, 0]), int(self._roll[0, 1]))

    def legal_moves(self) -> LegalMoves:
        """The legal moves of the agent's roll, in the order of the action indices.

        ``str(env.legal_moves()[a])`` is action a in GNU Backgammon's notation.
        """
        dice = self.dice
        if dice is None:
            raise RuntimeError("the game is over: there is no move to play")
        return self.position.legal_moves(dice)

    def children(self) -> np.ndarray:
        """The board each legal action leads to, the agent's view before the
        opponent replies (int8, (num_moves, 26), a copy): row a is action a."""
        return np.empty((0, 26), dtype=np.int8) if self._over else self._children.copy()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the board as text and the agent's roll."""
        if self.render_mode != "ansi":
            return None
        dice = self.dice
        roll = "the game is over" if dice is None else f"the agent to play {dice[0]}-{dice[1]}"
        return f"{self.position}\n{roll}\n"
