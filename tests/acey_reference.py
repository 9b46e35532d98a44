"""A slow, plain reference move generator for acey-deucey, for the tests.

Written from the rules alone (the documented spec), independently of the fast
generator in ``bgcore._acey``: the tests compare the two on many positions.
Clarity over speed: every order of the dice and every source is tried on
copies of the board, every (partial) play sequence is kept, and the rule "as
many dice as possible, else the larger die" picks among them.  The only
optimisation is that identical intermediate states (the same board with the
same dice left) are merged, which changes no result.

A board here is the 28-slot acey-deucey array of
:meth:`bgcore.acey.AceyDeuceyPosition.to_array`, seen from the player on roll
(the mover):

* slots 1-24: the points in the mover's numbering, positive for the mover's
  checkers, negative for the opponent's;
* slot 25: the mover's bar (positive); slot 0: the opponent's bar (negative);
* slot 26: the mover's checkers waiting to enter; slot 27: the opponent's.

The mover moves from the 24-point down and bears off from points 1-6; a
checker enters (from the bar or from waiting) with a die of n on the
(25 - n)-point.

>>> start = [0] * 26 + [15, 15]
>>> sorted(tuple(p for p in range(1, 25) for _ in range(b[p])) for b, _ in outcomes(start, (6, 5)))
[(14,), (19, 20)]
>>> len(outcomes(start, (2, 1))), all(again for _, again in outcomes(start, (2, 1)))
(177, True)

This module is test code, imported as ``acey_reference`` (pytest puts the
tests folder on ``sys.path``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache

__all__ = [
    "CHECKERS",
    "ROLLS",
    "Board",
    "Outcome",
    "outcomes",
    "plays",
    "best_plays",
    "named_double",
    "most_steps",
    "single_steps",
    "all_home",
    "borne_off",
    "is_finished",
    "on_board",
    "replay",
    "random_position",
    "random_positions",
    "MIX",
]

#: Checkers a side.
CHECKERS = 15

#: Slots of the 28-slot board.
OPP_BAR, MY_BAR, MY_WAITING, OPP_WAITING = 0, 25, 26, 27

#: The 21 distinct rolls, higher die first.
ROLLS: tuple[tuple[int, int], ...] = tuple((hi, lo) for hi in range(1, 7) for lo in range(1, hi + 1))

Board = tuple[int, ...]
"""A 28-slot board (a tuple, so that boards can be kept in sets)."""

Outcome = tuple[Board, bool]
"""A distinct outcome of a roll: the board after the move, the mover still on
roll, and whether the mover rolls again."""


# --- the state of a board -------------------------------------------------------------------


def borne_off(board: Sequence[int]) -> tuple[int, int]:
    """Checkers borne off: (the mover's, the opponent's)."""
    mine = sum(v for v in board[1:26] if v > 0) + board[MY_WAITING]
    theirs = -sum(v for v in board[0:25] if v < 0) + board[OPP_WAITING]
    return CHECKERS - mine, CHECKERS - theirs


def is_finished(board: Sequence[int]) -> bool:
    """True when a side has borne off all fifteen checkers: the game is over."""
    mover_done = board[MY_WAITING] == 0 and max(board[1:26]) <= 0
    opponent_done = board[OPP_WAITING] == 0 and min(board[0:25]) >= 0
    return mover_done or opponent_done


def all_home(board: Sequence[int]) -> bool:
    """True when every checker of the mover is in the home board (points 1-6) or
    borne off: none waiting, none on the bar, none on points 7-24 (rule 4)."""
    return board[MY_WAITING] == 0 and max(board[7:26]) <= 0  # slots 7-24 and the bar


# --- one step ---------------------------------------------------------------------------------


def _land(board: list[int], point: int) -> bool:
    """Put one of the mover's checkers on ``point`` of ``board`` (in place),
    hitting a single opponent checker there; False (board unchanged) when the
    opponent holds the point with two or more."""
    if board[point] < -1:
        return False
    if board[point] == -1:  # a blot: hit, to the opponent's bar
        board[point] = 0
        board[OPP_BAR] -= 1
    board[point] += 1
    return True


def single_steps(board: Board, die: int) -> list[tuple[int, int, Board]]:
    """Every legal single step of one ``die`` on ``board``: (source, destination,
    board after).  Source 25 enters a checker (from the bar, or a waiting one);
    destination 0 bears off.

    * Rule 3: with a checker on the bar, the only step is entering it.
    * Rule 2: otherwise a waiting checker may enter, or a checker on a point
      may move, in any mix.
    * Rule 4: a checker bears off only when all fifteen are home: from the
      point equal to the die, or from the highest occupied point when the die
      is larger than it.
    """
    if is_finished(board):
        return []
    entry = 25 - die
    steps: list[tuple[int, int, Board]] = []
    if board[MY_BAR] > 0:
        after = list(board)
        after[MY_BAR] -= 1
        if _land(after, entry):
            steps.append((25, entry, tuple(after)))
        return steps  # nothing else may move while a checker is on the bar
    if board[MY_WAITING] > 0:
        after = list(board)
        after[MY_WAITING] -= 1
        if _land(after, entry):
            steps.append((25, entry, tuple(after)))
    home = all_home(board)
    occupied = [p for p in range(1, 25) if board[p] > 0]
    highest = max(occupied, default=0)
    for src in occupied:
        dst = src - die
        after = list(board)
        after[src] -= 1
        if dst >= 1:
            if _land(after, dst):
                steps.append((src, dst, tuple(after)))
        elif home and (dst == 0 or src == highest):
            steps.append((src, 0, tuple(after)))
    return steps


@lru_cache(maxsize=1 << 16)
def _successors(board: Board, die: int) -> frozenset[Board]:
    """The boards one step of ``die`` leads to (cached: the 1-2 roll revisits
    many boards)."""
    return frozenset(after for _, _, after in single_steps(board, die))


# --- a roll under rule 5 ------------------------------------------------------------------------


def plays(board: Board, dice: Sequence[int]) -> dict[Board, set[tuple[int, ...]]]:
    """Every board some (possibly partial) play of ``dice`` reaches, in any
    order of the dice, with the dice each such play used (as sorted tuples).

    The empty play is included (the board itself, no dice used).  A play stops
    when the game is over: the game ends at once when the mover's last checker
    is borne off.  States with the same board and the same dice left are
    merged (what follows them is the same).
    """
    start: tuple[Board, tuple[int, ...]] = (tuple(board), tuple(sorted(dice)))
    seen = {start}
    frontier = {start}
    while frontier:
        following: set[tuple[Board, tuple[int, ...]]] = set()
        for b, left in frontier:
            for die in set(left):
                rest = list(left)
                rest.remove(die)
                for after in _successors(b, die):
                    following.add((after, tuple(rest)))
        following -= seen
        seen |= following
        frontier = following
    everything = tuple(sorted(dice))
    reached: dict[Board, set[tuple[int, ...]]] = {}
    for b, left in seen:
        used = list(everything)
        for die in left:
            used.remove(die)
        reached.setdefault(b, set()).add(tuple(used))
    return reached


def _rank(used: tuple[int, ...]) -> tuple[int, int]:
    """Rule 5: a play using more dice is better; among plays of one die, the
    larger die is better."""
    return len(used), max(used, default=0)


def best_plays(board: Board, dice: Sequence[int]) -> tuple[set[Board], int]:
    """The boards the legal plays of ``dice`` reach under rule 5 (every play of
    maximal rank: the most dice, else the larger die), and how many dice those
    plays use.  With no die playable: the unchanged board, 0 dice.

    (A play that ends the game stops early; it is still of maximal rank: with
    two different dice only one checker can be left when the first die ends
    the game, and the other order bears it off too; with a double every
    checker takes the same number of steps to bear off, whatever the order.)
    """
    reached = plays(board, dice)
    best = max(_rank(used) for uses in reached.values() for used in uses)
    boards = {b for b, uses in reached.items() if any(_rank(used) == best for used in uses)}
    return boards, best[0]


@lru_cache(maxsize=1 << 16)
def most_steps(board: Board, die: int, limit: int = 4) -> int:
    """How many steps of ``die`` (at most ``limit``) can be played one after
    the other from ``board``: the length of the longest play of a double."""
    best = 0
    if limit > 0:
        for after in _successors(board, die):
            best = max(best, 1 + most_steps(after, die, limit - 1))
            if best == limit:
                break
    return best


def named_double(starts: Iterable[Board], die: int) -> set[tuple[Board, int]]:
    """The plays of the double ``die`` (four steps, as many as possible: rule
    5) from each of the boards ``starts``: (board after, steps played), over
    all the starts.

    This is :func:`best_plays` of ``[die] * 4`` for each start, computed in
    bulk for the 1-2 roll (where many boards each name six doubles): from a
    start where ``m`` steps can be played, the plays reach exactly the boards
    ``m`` steps away; and the boards ``m`` steps away from a set of starts are
    the union of those of each, so the starts of equal ``m`` go together,
    one level of single steps at a time.
    """
    groups: dict[int, set[Board]] = {}
    for start in starts:
        groups.setdefault(most_steps(start, die), set()).add(start)
    result: set[tuple[Board, int]] = set()
    for steps, level in groups.items():
        for _ in range(steps):
            level = {after for b in level for after in _successors(b, die)}
        result |= {(b, steps) for b in level}
    return result


def outcomes(board: Sequence[int], roll: tuple[int, int]) -> set[Outcome]:
    """Every distinct outcome of ``roll`` on ``board`` (rule 7): (board after,
    the mover still on roll; whether the mover rolls again).

    A finished game has none; a lost turn has one, the unchanged board.  A
    double is played four times.  1-2 (rule 6) is played as a roll of its own;
    only after both its dice were played, and the game goes on, the mover
    names each double 1-6 in turn and plays it four times, as many as
    possible; after all four, if the game goes on, the mover rolls again.
    """
    b: Board = tuple(int(v) for v in board)
    if len(b) != 28:
        raise ValueError(f"an acey-deucey board has 28 slots, not {len(b)}")
    if is_finished(b):
        return set()
    hi, lo = max(roll), min(roll)
    dice = [hi] * 4 if hi == lo else [hi, lo]
    after_roll, used = best_plays(b, dice)
    if (hi, lo) != (2, 1):
        return {(after, False) for after in after_roll}
    if used < 2:  # only one die of the 1-2 (or none) played: no double is named
        return {(after, False) for after in after_roll}
    result = {(after, False) for after in after_roll if is_finished(after)}  # the game ended
    going_on = {after for after in after_roll if not is_finished(after)}
    for named in range(1, 7):
        for final, steps in named_double(going_on, named):
            result.add((final, steps == 4 and not is_finished(final)))
    return result


# --- random positions ---------------------------------------------------------------------------


def _side(rng: random.Random, kind: str) -> tuple[int, int, int, list[int]]:
    """One side's checkers for a position of ``kind``: (waiting, bar, borne off,
    the points of the checkers on the board in that side's own numbering, with
    repeats), 15 in all; a side with checkers waiting has borne none off."""
    if kind == "early":  # most checkers still waiting
        waiting = rng.randint(5, 15)
        bar = rng.choice([0, 0, 0, 1, 2])
        off = 0
        spread = range(13, 25)
    elif kind == "middle":  # a few waiting or none, a full board
        waiting = rng.choice([0, 0, 1, 2, 3, 5, 8])
        bar = rng.choice([0, 0, 0, 1, 1, 2, 3])
        off = 0 if waiting else rng.choice([0, 0, 0, 1, 3])
        spread = range(1, 25)
    elif kind == "home":  # all home (bearing off allowed), some borne off
        waiting, bar = 0, 0
        off = rng.randint(0, 14)
        spread = range(1, 7)
    elif kind == "almost-home":  # all home but one: waiting, on the bar or outside
        where = rng.choice(["waiting", "bar", "outside"])
        waiting = 1 if where == "waiting" else 0
        bar = 1 if where == "bar" else 0
        off = 0 if waiting else rng.randint(0, 10)
        spread = range(1, 7)
    elif kind == "end":  # one to three checkers left, near the end
        waiting, bar = 0, 0
        off = rng.randint(12, 14)
        spread = range(1, rng.choice([4, 7, 7, 10]))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    bar = min(bar, CHECKERS - waiting - off)
    n = CHECKERS - waiting - bar - off
    points: list[int] = []
    if kind == "almost-home" and n and where == "outside":
        points.append(rng.randint(7, 24))
        n -= 1
    favourites = rng.sample(list(spread), min(len(spread), rng.randint(1, 6)))
    for _ in range(n):
        points.append(rng.choice(favourites) if rng.random() < 0.7 else rng.choice(list(spread)))
    return waiting, bar, off, points


#: The kinds of positions :func:`random_position` draws, and their weights.
MIX: dict[str, int] = {"early": 3, "middle": 4, "home": 2, "almost-home": 2, "end": 2, "blocked": 2}


def random_position(rng: random.Random) -> list[int]:
    """A random legal acey-deucey position (a 28-slot board, the mover on roll).

    It mixes: early positions with many checkers waiting, middle games with
    checkers on the bar and blots to hit, the mover all home (bearing off
    allowed) or all home but one checker (waiting, on the bar or outside),
    the last few checkers, and blocks (the opponent holding points of the
    mover's entry zone, points 19-24, against checkers on the bar or
    waiting).  Either side may be of any kind; a finished game is never drawn.
    """
    kinds, weights = zip(*MIX.items(), strict=True)
    mine_kind, theirs_kind = rng.choices(kinds, weights, k=2)
    blocked = "blocked" in (mine_kind, theirs_kind)
    if mine_kind == "blocked":
        mine_kind = rng.choice(["early", "middle"])
    if theirs_kind == "blocked":
        theirs_kind = rng.choice(["early", "middle", "home"])
    board = [0] * 28
    # The opponent first: its points in its own numbering q are the mover's 25 - q.
    waiting, bar, _, points = _side(rng, theirs_kind)
    if blocked:  # move some of the opponent's checkers in pairs onto the mover's entry points
        for _ in range(rng.randint(1, 3)):
            if len(points) < 2:
                break
            target = rng.randint(1, 6)  # the opponent's 1-6 = the mover's 24-19
            for i in rng.sample(range(len(points)), 2):
                points[i] = target
    board[OPP_WAITING] = waiting
    board[OPP_BAR] = -bar
    for q in points:
        board[25 - q] -= 1
    # Then the mover, on the points the opponent leaves free.
    waiting, bar, _, points = _side(rng, mine_kind)
    free = [p for p in range(1, 25) if board[p] == 0]
    board[MY_WAITING] = waiting
    board[MY_BAR] = bar
    for p in points:
        if board[p] < 0:  # taken by the opponent: the nearest free point of the same side of 7
            p = min(free, key=lambda f, p=p: ((f > 6) != (p > 6), abs(f - p)))
        board[p] += 1
    if mine_kind == "home" and rng.random() < 0.3 and board[MY_WAITING] == 0:
        # Sometimes an opponent blot in the mover's home board (bear-off with hits).
        free_home = [p for p in range(1, 7) if board[p] == 0]
        source = [p for p in range(1, 25) if board[p] < 0]
        if free_home and source:
            board[rng.choice(source)] += 1
            board[rng.choice(free_home)] -= 1
    if is_finished(board):  # both "end" kinds cannot finish, but be safe
        return random_position(rng)
    return board


def random_positions(seed: int, n: int) -> list[list[int]]:
    """``n`` random positions from ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [random_position(rng) for _ in range(n)]


def on_board(board: Sequence[int]) -> tuple[int, int]:
    """Checkers of (the mover, the opponent) not borne off: on the points, on
    the bar or waiting."""
    mine = sum(v for v in board[1:26] if v > 0) + board[MY_WAITING]
    theirs = -sum(v for v in board[0:25] if v < 0) + board[OPP_WAITING]
    return mine, theirs


def replay(board: Sequence[int], steps: Sequence[tuple[int, int]], dice: Sequence[int]) -> Board | None:
    """The board after playing ``steps`` (source, destination) in order on
    ``board``, each step a legal single step (by :func:`single_steps`) of one
    of ``dice`` not yet used; None when they cannot be played so.  Every die a
    step could use is tried (bearing off, a step may fit two dice)."""

    def go(b: Board, k: int, left: tuple[int, ...]) -> Board | None:
        if k == len(steps):
            return b
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for src, dst, after in single_steps(b, die):
                if (src, dst) == tuple(steps[k]):
                    found = go(after, k + 1, tuple(rest))
                    if found is not None:
                        return found
        return None

    return go(tuple(int(v) for v in board), 0, tuple(dice))
