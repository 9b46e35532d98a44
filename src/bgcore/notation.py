"""Standard backgammon move notation, written the way GNU Backgammon writes it.

Points are in the mover's numbering; 25 is the bar and 0 is off.

>>> format_steps([(24, 18), (18, 13)], hit_points=())
'24/13'
>>> format_steps([(24, 18), (18, 13)], hit_points={18})
'24/18*/13'
>>> format_steps([(8, 5), (8, 5), (6, 5), (6, 5)], hit_points={5})
'8/5*(2) 6/5(2)'
>>> parse_notation("bar/22* 13/10(2)")
[(25, 22, True), (13, 10, False), (13, 10, False)]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable

from .errors import IllegalMoveError

__all__ = ["format_steps", "parse_notation", "point_name"]


def point_name(point: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return str(point)


def format_steps(steps: Iterable[tuple[int, int]], hit_points: Collection[int]) -> str:
    """Format up to four (from, to) steps as gnubg's ``FormatMove`` does.

    ``hit_points`` are the points that held an opposing blot before the move.
    Steps are sorted by source then destination, both descending; a step that
    starts where an earlier part ends continues that part (the point in between
    is shown, starred, only when it was a hit); identical parts are written
    once with a count such as ``(2)``; a hit is starred once per point.
    """
    rows = sorted(((s, d) for s, d in steps), reverse=True)
    used = [False] * len(rows)
    parts: list[list[int]] = []
    for i, (src, dst) in enumerate(rows):
        if used[i]:
            continue
        part = [src]
        end = dst
        for j in range(i + 1, len(rows)):
            if not used[j] and rows[j][0] == end:
                if end in hit_points:
                    part.append(end)
                end = rows[j][1]
                used[j] = True
        part.append(end)
        parts.append(part)
    counted: dict[tuple[int, ...], int] = {}  # identical parts, in order of first appearance
    for part in parts:
        key = tuple(part)
        counted[key] = counted.get(key, 0) + 1
    starred: set[int] = set()
    out = []
    for chain, count in counted.items():
        text = point_name(chain[0])
        for mid in chain[1:-1]:
            text += f"/{point_name(mid)}*"
            starred.add(mid)
        end = chain[-1]
        text += "/" + point_name(end)
        if end != 0 and end in hit_points and end not in starred:
            text += "*"
            starred.add(end)
        if count > 1:
            text += f"({count})"
        out.append(text)
    return " ".join(out)


_TOKEN_RE = re.compile(r"(?P<chain>(?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((?P<count>\d)\))?")
_POINT_RE = re.compile(r"(bar|off|\d{1,2})(\*?)")


def parse_notation(text: str) -> list[tuple[int, int, bool]]:
    """Split notation into single steps ``(from, to, starred)``.

    Accepts ``24/18 13/10*``, ``bar/22``, ``25/22``, ``6/off``, ``6/0``,
    ``8/5(2)``, chains such as ``24/18/13`` and ``24/18*/13``, in any case and
    spacing.  A chain ``a/b/c`` gives the steps ``a/b`` and ``b/c``: whole
    journeys of one checker, which the caller matches against legal plays.
    The empty string (or ``-``) is the empty move of a lost turn.
    """
    if not isinstance(text, str):
        raise TypeError(f"move notation is a str, not {type(text).__name__}")
    clean = text.strip().lower()
    if clean in ("", "-"):
        return []
    steps: list[tuple[int, int, bool]] = []
    for token in clean.split():
        m = _TOKEN_RE.fullmatch(token)
        if not m:
            raise IllegalMoveError(f"cannot read {token!r} in move {text!r}")
        points = []
        for name, star in _POINT_RE.findall(m.group("chain")):
            value = 25 if name == "bar" else 0 if name == "off" else int(name)
            if value > 25:
                raise IllegalMoveError(f"point {value} in {text!r} is not 0-25 (bar, off)")
            points.append((value, bool(star)))
        count = int(m.group("count") or 1)
        if not 1 <= count <= 4:
            raise IllegalMoveError(f"repeat count ({count}) in {text!r} is not 1-4")
        chain = []
        for (a, _), (b, star) in itertools.pairwise(points):
            if a <= b:
                raise IllegalMoveError(f"{point_name(a)}/{point_name(b)} in {text!r} does not move forward")
            if b == 25 or a == 0:
                raise IllegalMoveError(f"{text!r} moves onto the bar or from off")
            if star and b == 0:
                raise IllegalMoveError(f"{text!r} hits off the board")
            chain.append((a, b, star))
        steps.extend(chain * count)
    if len(steps) > 16:
        raise IllegalMoveError(f"{text!r} has more steps than any roll can play")
    return steps
