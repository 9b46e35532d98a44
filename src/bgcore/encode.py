"""Board evaluations and network inputs over numpy arrays, computed in C.

Boards are rows of 26 in :meth:`bgcore.Position.to_array`'s convention, seen
from the player on roll (the "mover"): slots 1-24 the points in the mover's
numbering (positive: the mover's checkers, negative: the opponent's), 25 the
mover's bar, 0 the opponent's bar.  Every function takes one board (shape
``(26,)``) or many (``(n, 26)``): int8 arrays are read in place, other
integer arrays (and float arrays of whole numbers) are converted.  The result
has the input's leading shape: ``(n, 198)`` or ``(198,)`` inputs, ``(n,)``
or ``()`` scores, all float32.  A side's checkers off are ``checkers`` (15 in
standard backgammon and nackgammon, 3 in hypergammon) less its checkers on
the board.  The loops run in C without the GIL (``bgcore/_csrc/bg_eval.h``
and ``bg_encode.h``, which a Cython rollout engine can include as they are).

An invalid board raises :class:`bgcore.InvalidPositionError` (a
:class:`ValueError`) naming the first invalid row, and so does an array of
the wrong shape; an array that does not hold numbers raises :class:`TypeError`.

The scores rate a board after the mover's move, before it is flipped (the
children of :func:`bgcore.batch.generate` with ``flip=False``): the move whose
result scores highest is the policy's choice.  Pubeval's choice of the
opening 3-1 is the classic 8/5 6/5:

>>> import numpy as np
>>> from bgcore import Position, encode
>>> start = Position.initial()
>>> moves = start.legal_moves((3, 1))
>>> results = np.stack([start.play(m).flip().to_array() for m in moves])   # the mover's view
>>> str(moves[int(np.argmax(encode.pubeval(results)))])
'8/5 6/5'
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import bgcore._encode as _encode
import bgcore._results as _results

from .errors import InvalidPositionError
from .rules import CHECKERS

__all__ = ["tesauro198", "wildbg_contact", "wildbg_race", "pubeval", "race_score", "is_race"]

Boards = npt.ArrayLike


def _prepare(boards: object, checkers: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """``boards`` as a C-contiguous int8 (n, 26) array and its leading shape.

    Values that do not fit a byte are invalid boards: they are clipped to
    ±16 (still invalid) for the native check, and the row it finds first is
    reported with the values given."""
    a = np.asarray(boards)
    if a.ndim not in (1, 2) or a.shape[-1] != 26:
        raise InvalidPositionError(f"boards must have shape (n, 26) or (26,), not {a.shape}")
    lead = a.shape[:-1]
    if a.dtype == np.int8:
        return np.ascontiguousarray(a).reshape(-1, 26), lead
    if a.dtype.kind not in "iuf" and a.size:
        raise TypeError(f"boards must hold integers, not {a.dtype}")
    wide = a.reshape(-1, 26)
    if wide.dtype.kind == "f":
        whole = np.isfinite(wide) & (wide == np.round(wide))
        if not whole.all():
            row, slot = (int(i) for i in np.argwhere(~whole)[0])
            raise InvalidPositionError(f"row {row}: slot {slot} holds {wide[row, slot]}, not a whole number")
    b8 = np.ascontiguousarray(np.clip(wide, -16, 16), dtype=np.int8)
    bad = _encode.first_invalid(b8, checkers)
    if bad is not None:
        try:
            _results.check_board([int(v) for v in wide[bad]], checkers)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"row {bad}: {exc}") from None
    return b8, lead


def tesauro198(boards: Boards, *, checkers: int = CHECKERS, opponent_on_roll: bool = False) -> npt.NDArray[np.float32]:
    """TD-Gammon's 198 network inputs of each board (Tesauro, 1992): float32.

    For a count of n checkers, four units: ``n >= 1``, ``n >= 2``, ``n >= 3``
    and ``(n - 3) / 2`` when ``n > 3`` (else 0).  The layout:

    - ``[4*(p-1) : 4*p]``, p = 1..24: the mover's checkers on the mover's
      point p;
    - ``[96 + 4*(q-1) : 96 + 4*q]``, q = 1..24: the opponent's checkers on
      the opponent's own point q (the mover's point 25 - q), so that the
      opponent's 96 units of a board are the mover's 96 of the flipped board;
    - ``[192]``, ``[193]``: the mover's and the opponent's checkers on the
      bar, / 2;
    - ``[194]``, ``[195]``: the mover's and the opponent's checkers off, / 15
      (``checkers`` less those on the board; / 15 whatever ``checkers`` is);
    - ``[196]``, ``[197]``: who is on roll: ``(1, 0)`` the mover, the side of
      the first 96 units (the default: a board as this module takes it, the
      player on roll's view), ``(0, 1)`` the opponent, with
      ``opponent_on_roll=True`` (a move's result not yet flipped, such as the
      children of :func:`bgcore.batch.generate` without ``flip``).

    >>> from bgcore import Position
    >>> x = tesauro198(Position.initial().to_array())
    >>> x.shape, x.dtype
    ((198,), dtype('float32'))
    >>> x[20:24].tolist(), x[192:].tolist()     # five on the 6-point; bars, off, turn
    ([1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    >>> bool((x[96:192] == x[:96]).all())       # the same army on each side
    True
    """
    b8, lead = _prepare(boards, checkers)
    return _encode.tesauro198(b8, checkers, bool(opponent_on_roll)).reshape(*lead, 198)


def wildbg_contact(boards: Boards, *, checkers: int = CHECKERS) -> npt.NDArray[np.float32]:
    """The 202 inputs of wildbg's contact network for each board: float32.

    wildbg (Carsten Wenderdel's engine, ``crates/engine/src/inputs.rs``)
    encodes a count of n checkers in four units: ``(1, 0, 0, 0)`` for one,
    ``(0, 1, 0, 0)`` for two and ``(0, 0, 1, n - 3)`` for three or more.  The
    layout, from the player on roll (the mover):

    - ``[0]``, ``[1]``: the mover's and the opponent's checkers off, as counts
      (``checkers`` less those on the board);
    - ``[2:6]``: the mover's bar;
    - ``[6 + 4*(p-1) : 6 + 4*p]``, p = 1..24: the mover's checkers on the
      mover's point p;
    - ``[102:106]``: the opponent's bar;
    - ``[106 + 4*(p-1) : 106 + 4*p]``, p = 1..24: the opponent's checkers on
      the mover's point p (so the opponent's 24-point comes last).

    >>> from bgcore import Position
    >>> x = wildbg_contact(Position.initial().to_array())
    >>> x.shape, x[:2].tolist()
    ((202,), [0.0, 0.0])
    >>> x[6 + 4 * 5 : 6 + 4 * 6].tolist(), x[106 + 4 * 18 : 106 + 4 * 19].tolist()   # the 6-point, their 6-point
    ([0.0, 0.0, 1.0, 2.0], [0.0, 0.0, 1.0, 2.0])
    """
    b8, lead = _prepare(boards, checkers)
    return _encode.wildbg_contact(b8, checkers).reshape(*lead, 202)


def wildbg_race(boards: Boards, *, checkers: int = CHECKERS) -> npt.NDArray[np.float32]:
    """The 186 inputs of wildbg's race network for each board: float32.

    The units of :func:`wildbg_contact`, without the parts that are empty in
    a race: ``[0]``, ``[1]`` the checkers off, ``[2 + 4*(p-1) : 2 + 4*p]``
    for the mover's point p = 1..23, ``[94 + 4*(p-2) : 94 + 4*(p-1)]`` for
    the opponent's checkers on the mover's point p = 2..24.  Checkers where a
    race has none (a bar, the mover's 24-point, the opponent's on the
    mover's 1-point) are not inputs: a board in contact loses them.

    >>> b = [0] * 26; b[1], b[2], b[24] = 13, 2, -15    # 13 on the ace, two on the deuce
    >>> x = wildbg_race(b)
    >>> x.shape, x[:10].tolist(), x[-4:].tolist()
    ((186,), [0.0, 0.0, 0.0, 0.0, 1.0, 10.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 12.0])
    """
    b8, lead = _prepare(boards, checkers)
    return _encode.wildbg_race(b8, checkers).reshape(*lead, 186)


def is_race(boards: Boards, *, checkers: int = CHECKERS) -> npt.NDArray[np.bool_]:
    """Whether each board is a race: no contact left.

    True when every checker of the mover (the bar counting as point 25) is on
    a lower point than every checker of the opponent (their bar counting as
    point 0), or a side has no checker on the board.

    >>> from bgcore import Position
    >>> home = [0, 15] + [0] * 22 + [-15, 0]     # 15 on each side's 1-point
    >>> is_race([Position.initial().to_array(), home]).tolist()
    [False, True]
    """
    b8, lead = _prepare(boards, checkers)
    return _encode.is_race(b8, checkers).reshape(lead)


def pubeval(
    boards: Boards, *, checkers: int = CHECKERS, race: bool | npt.ArrayLike | None = None
) -> npt.NDArray[np.float32]:
    """Gerald Tesauro's pubeval (1993) score of each board: float32.

    A linear evaluator placed in the public domain as a benchmark opponent:
    the dot product of 122 inputs of the board after the mover's move, seen
    from the mover (the number of the mover's checkers on each point as
    ``== 1``, ``>= 2``, ``== 3`` and ``(n - 3) / 2`` beyond three, opponent
    blots, the opponent's bar / 2, the mover's checkers off / 15) with its
    race or contact weights.  Higher is better for the mover; a board where
    the mover has borne every checker off scores 99999999.
    ``bgcore/_csrc/bg_eval.h`` gives the inputs exactly and the source of
    the weights.

    ``race`` chooses the weights: None (the default) the race weights for
    the boards that are races (:func:`is_race`) and the contact weights for
    the others; True or False for all the boards; or one flag per board.
    Tesauro decides it on the position before the move, the same for all
    its results: pass ``race=is_race(board)`` of that position to play as
    his code does.

    >>> from bgcore import Position
    >>> start = Position.initial().to_array()
    >>> round(float(pubeval(start)), 3), round(float(pubeval(start, race=True)), 3)
    (6.841, 9.939)
    """
    b8, lead = _prepare(boards, checkers)
    flags = None
    if race is not None:
        r = np.asarray(race)
        if r.dtype.kind not in "biu" and r.size:
            raise TypeError(f"race must be None, a bool or bools, not {r.dtype}")
        r = np.broadcast_to(r, (b8.shape[0],)) if r.ndim == 0 else r.reshape(-1)
        if r.shape != (b8.shape[0],):
            raise ValueError(f"race must be None, a bool or one flag per board ({b8.shape[0]}), not {r.shape[0]}")
        flags = np.ascontiguousarray(r != 0, dtype=np.uint8)
    return _encode.pubeval_scores(b8, checkers, flags).reshape(lead)


def race_score(boards: Boards, *, checkers: int = CHECKERS) -> npt.NDArray[np.float32]:
    """A race policy's score of each board: float32, higher is better for the mover.

    For the board after the mover's move, seen from the mover, with ``c[p]``
    the mover's checkers on point p (the bar is 25), ``off`` the mover's
    checkers off and ``top`` the highest point holding a mover checker (0
    when none)::

        score = - sum c[p] * p                         the mover's pips
              - 2 * blots, in contact only             points 1..24 with one mover checker
              + 4 * off                                a bonus per checker off
              - 1/2 * sum(c[p] * (6 - p), p = 1..6)    checkers deep at home
              - 3/2 * gaps                             empty home points below top

    The moves of one roll take the same pips (but for bearing off with a
    larger die than needed), so the other terms choose among them: bear off,
    keep checkers on the high home points, fill the gaps.  The opponent's
    checkers do not count: a policy rewarded for hitting, on both sides,
    plays games of millions of plies; the blots' term keeps it from leaving
    blots everywhere in contact (it beats random play, but it is meant for
    races).  Twice the score is an integer, so the
    value is exact.

    >>> b = [0] * 26; b[6] = 3; b[4] = 2; b[24] = -5
    >>> race_score(b).tolist()   # 26 pips, 10 off: 40, two checkers 2 deep, gaps 1, 2, 3, 5
    6.0
    >>> b[5] = 1; race_score(b).tolist()   # 5 more pips, one fewer off, one gap fewer, 1/2 deep
    -2.0
    >>> b[1] = -1; race_score(b).tolist()  # contact: now the blot on the 5 costs 2
    -4.0
    >>> b[6] = b[4] = b[5] = 0; race_score(b).tolist()    # all off: 4 * 15
    60.0
    """
    b8, lead = _prepare(boards, checkers)
    return _encode.race_scores(b8, checkers).reshape(lead)
