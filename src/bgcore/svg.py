"""SVG pictures of a board, for notebooks, web pages and documents.

:func:`board` draws a :class:`~bgcore.Position` or a :class:`~bgcore.Game`
as a standalone SVG document (a string): the 24 points, the checkers of both
sides, the bar, the borne-off trays, the point numbers, the cube, the dice
and, optionally, arrows for a move.  ``Position`` and ``Game`` use it for
``_repr_svg_``, so Jupyter shows them as pictures.

>>> from bgcore import Position
>>> pos = Position.initial()
>>> picture = board(pos, size=324)
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), picture == board(pos, size=324)
(True, True)
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(picture)
>>> root.get("width"), root.get("height"), root.get("viewBox")
('324', '230', '0 0 648 460')
>>> [(g.get("data-point"), g.get("data-side"), g.get("data-count"))
...  for g in root.iter(f"{NS}g") if g.get("class") == "checkers"][:3]
[('1', 'o', '2'), ('6', 'x', '5'), ('8', 'x', '3')]

Players, sides and colours: the player on roll is side ``x`` (as in
``str(position)``) and the opponent side ``o``.  The checkers' colours
belong to the players 0 (light) and 1 (dark): for a ``Game`` those are the
game's players, for a bare ``Position`` player 0 is the player on roll.
The picture is seen by the player on roll (their checkers at the bottom,
moving anticlockwise to their home board at the bottom right, the points in
their numbering), or by the opponent with ``flipped=True``.  Each side's
checkers on the bar sit in the bar's half on that side's end of the board,
and its borne-off checkers in the tray on its end, right of the board.

Every element that carries a count is marked for programs: a point's stack
is ``<g class="checkers" data-point="13" data-side="x" data-player="0"
data-count="7">`` (``data-point="bar"`` on the bar), holding one ``<circle
class="checker">`` per checker up to five and a ``<text class="count">`` on
the fifth when there are more; the trays are ``<g class="off">`` with
``data-side``, ``data-player`` and ``data-count``; point numbers are
``<text class="point-number" data-point="n">``; the cube is ``<g
class="cube" data-value=... data-owner=...>``; each die is ``<g class="die"
data-value=...>`` with one ``<circle class="pip">`` per pip; each step of a
move is an ``<g class="arrow" data-from=... data-to=...>`` in the mover's
numbering (25 the bar, 0 off).  :class:`Layout` says where everything is.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Literal, Protocol, SupportsIndex, cast, runtime_checkable

from .errors import IllegalMoveError
from .ids import encode_position_id
from .move import Move, check_dice

__all__ = ["board", "Layout", "NS", "DEFAULT_SIZE", "PLAYER_COLOURS"]

#: The SVG namespace, as :mod:`xml.etree.ElementTree` spells tags in it.
NS = "{http://www.w3.org/2000/svg}"

#: The picture's width in pixels when ``size`` is not given.
DEFAULT_SIZE = 540

#: Checker fill colours of players 0 and 1.
PLAYER_COLOURS = ("#f6f2e8", "#2a2b30")
_OUTLINE = ("#6e665a", "#8d8f96")  # checker rims
_INK = ("#2a2b30", "#f6f2e8")  # text and pips on a player's checkers and dice
_FRAME = "#5c3f2e"
_FIELD = "#ebdcb9"
_POINTS = ("#a23e2e", "#34596c")  # alternating point colours
_TRAY = "#3f2b20"
_LABEL = "#f3e9d2"  # point numbers and off counts on the frame
_ARROW = "#27a048"
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class Layout:
    """The geometry of the picture, in the units of its ``viewBox`` (648 x 460;
    :attr:`scale` pixels each at ``size`` pixels wide), seen by the viewer.

    Places are in the viewer's numbering: points 1-24 (13-24 along the top,
    left to right; 12-1 along the bottom, so 1-6 are the viewer's home board
    at the bottom right), 25 the viewer's bar (in the bar's bottom half) and
    0 the other side's bar (top half).  ``bottom`` picks the viewer's tray,
    die or cube end; stack index 0 is the checker at the edge (or, on the
    bar, nearest the middle).

    >>> layout = Layout(324)
    >>> layout.scale, layout.height
    (0.5, 230.0)
    >>> layout.checker(24, 0), layout.checker(1, 0), layout.checker(25, 0)
    ((568, 44), (568, 416), (324, 272))
    >>> layout.pixel(*layout.checker(6, 2))
    (184.0, 172.0)
    """

    size: float = DEFAULT_SIZE

    WIDTH = 648
    HEIGHT = 460
    BAND = 26  # the point numbers' band above and below the field
    POINT = 40  # a point's width
    RADIUS = 18  # a checker's
    SHOWN = 5  # checkers drawn on a stack at most
    DEPTH = 180  # a half's depth: five checkers
    TIP = 168  # a point's length
    GAP = 48  # between the halves, where the dice go
    LEFT = 60  # left field's left edge (the cube's column is left of it)
    BAR = 300  # the bar's left edge
    BAR_WIDTH = 48
    RIGHT = 348  # the right field's left edge
    TRAY = 596  # the trays' left edge (right of the right field's 588)
    TRAY_WIDTH = 44
    SLAB = 10  # a borne-off checker's thickness in the tray
    CUBE = 40
    DIE = 32

    @property
    def scale(self) -> float:
        """Pixels per viewBox unit."""
        return self.size / self.WIDTH

    @property
    def height(self) -> float:
        """The picture's height in pixels."""
        return self.HEIGHT * self.scale

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        """Where viewBox point (x, y) lands in the rendered picture, in pixels."""
        return x * self.scale, y * self.scale

    @property
    def top(self) -> int:
        """The field's top edge."""
        return self.BAND

    @property
    def bottom(self) -> int:
        """The field's bottom edge."""
        return self.BAND + 2 * self.DEPTH + self.GAP

    @property
    def middle(self) -> int:
        """The field's horizontal centre line."""
        return self.BAND + self.DEPTH + self.GAP // 2

    def fields(self) -> tuple[tuple[int, int, int, int], ...]:
        """The two halves of the playing field as (x, y, width, height)."""
        h = self.bottom - self.top
        return (self.LEFT, self.top, self.BAR - self.LEFT, h), (self.RIGHT, self.top, self.BAR - self.LEFT, h)

    def column(self, point: int) -> tuple[int, bool]:
        """Point ``point``'s column (0-11, left to right) and whether it is on the bottom."""
        if not 1 <= point <= 24:
            raise ValueError(f"points are 1-24, not {point}")
        return (point - 13, False) if point >= 13 else (12 - point, True)

    def column_x(self, column: int) -> int:
        """The centre line of column 0-11."""
        half = self.LEFT if column < 6 else self.RIGHT
        return half + self.POINT * (column % 6) + self.POINT // 2

    def triangle(self, point: int) -> tuple[tuple[int, int], ...]:
        """The point's triangle: its two base corners and its tip."""
        column, bottom = self.column(point)
        x = self.column_x(column)
        edge, tip = (self.bottom, self.bottom - self.TIP) if bottom else (self.top, self.top + self.TIP)
        half = self.POINT // 2
        return (x - half, edge), (x + half, edge), (x, tip)

    def checker(self, place: int, index: int) -> tuple[int, int]:
        """The centre of checker ``index`` of the stack on ``place`` (1-24, or 25 / 0 the bars)."""
        step = 2 * self.RADIUS
        if place in (0, 25):
            x = self.BAR + self.BAR_WIDTH // 2
            start = self.GAP // 2 + self.RADIUS
            y = self.middle + start + step * index if place == 25 else self.middle - start - step * index
            return x, y
        column, bottom = self.column(place)
        x = self.column_x(column)
        y = self.bottom - self.RADIUS - step * index if bottom else self.top + self.RADIUS + step * index
        return x, y

    def number(self, point: int) -> tuple[int, int]:
        """Where the number of ``point`` is written (the text's baseline centre)."""
        column, bottom = self.column(point)
        return self.column_x(column), (self.bottom + 18 if bottom else self.top - 8)

    def tray(self, bottom: bool) -> tuple[int, int, int, int]:
        """A borne-off tray as (x, y, width, height): the viewer's is the bottom one."""
        y = self.bottom - self.DEPTH if bottom else self.top
        return self.TRAY, y, self.TRAY_WIDTH, self.DEPTH

    def slab(self, bottom: bool, index: int) -> tuple[int, int, int, int]:
        """Borne-off checker ``index`` (0 at the tray's outer end) as (x, y, width, height)."""
        pitch = self.SLAB + 1
        y = self.bottom - 3 - self.SLAB - pitch * index if bottom else self.top + 3 + pitch * index
        return self.TRAY + 4, y, self.TRAY_WIDTH - 8, self.SLAB

    def off_count(self, bottom: bool) -> tuple[int, int]:
        """Where a tray's count is written, in the gap beside it."""
        return self.TRAY + self.TRAY_WIDTH // 2, (self.middle + 19 if bottom else self.middle - 7)

    def cube(self, place: Literal["top", "centre", "bottom"]) -> tuple[int, int, int]:
        """The cube as (x, y, side): in the left column, at the owner's end or in the middle."""
        x = (self.LEFT - self.CUBE) // 2
        y = {"top": self.top + 4, "centre": self.middle - self.CUBE // 2, "bottom": self.bottom - 4 - self.CUBE}
        return x, y[place], self.CUBE

    def die(self, right: bool, index: int) -> tuple[int, int, int]:
        """Die ``index`` (0 or 1) as (x, y, side), in the middle of the right or left half."""
        centre = (self.RIGHT if right else self.LEFT) + 3 * self.POINT
        x = centre - 6 - self.DIE if index == 0 else centre + 6
        return x, self.middle - self.DIE // 2, self.DIE

    def pips(self, value: int) -> tuple[tuple[float, float], ...]:
        """The pips of a die showing ``value``, as offsets from the die's centre."""
        d = self.DIE / 4
        corners = ((-d, -d), (d, d), (d, -d), (-d, d))
        centre = ((0.0, 0.0),)
        return {
            1: centre,
            2: corners[:2],
            3: corners[:2] + centre,
            4: corners,
            5: corners + centre,
            6: (*corners, (-d, 0.0), (d, 0.0)),
        }[value]


# --- what is drawn ----------------------------------------------------------------
# This module sits below position.py and game.py, whose ``_repr_svg_`` call
# it: it names neither, and reads what it draws through these protocols.


@runtime_checkable
class _DrawnPosition(Protocol):
    """What :func:`board` reads of a :class:`~bgcore.Position`."""

    @property
    def board(self) -> tuple[int, ...]: ...
    def flip(self) -> _DrawnPosition: ...
    def borne_off(self) -> tuple[int, int]: ...
    def legal_moves(self, dice: tuple[int, int], /) -> Container[Move]: ...


@runtime_checkable
class _DrawnGame(Protocol):
    """What :func:`board` reads of a :class:`~bgcore.Game`."""

    @property
    def position(self) -> _DrawnPosition: ...
    @property
    def on_roll(self) -> int: ...
    @property
    def cube(self) -> int: ...
    @property
    def cube_owner(self) -> int | None: ...
    @property
    def cube_enabled(self) -> bool: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...


# --- the argument checks ------------------------------------------------------


@dataclass(frozen=True)
class _Cube:
    value: int
    owner: int | None  # a player, 0 or 1


def _check_size(size: object) -> float:
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size is a number of pixels, not {type(size).__name__}")
    if not (math.isfinite(size) and size > 0):
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    return float(size)


def _check_dice(dice: object) -> tuple[int, int]:
    """Two dice 1-6 in the order given (check_dice raises for anything else)."""
    if isinstance(dice, Iterable) and not isinstance(dice, (str, bytes)):
        dice = tuple(dice)  # an iterator is read once
    check_dice(dice)
    a, b = cast("tuple[SupportsIndex, SupportsIndex]", dice)
    return operator.index(a), operator.index(b)


def _check_cube(cube: object) -> _Cube:
    if isinstance(cube, (tuple, list)):
        if len(cube) != 2:
            raise ValueError(f"a cube is a value or a (value, owner) pair, not {cube!r}")
        value, owner = cube
    else:
        value, owner = cube, None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"the cube's value is an int, not {type(value).__name__}")
    if value < 1 or value & (value - 1):
        raise ValueError(f"the cube's value is a power of two, not {value}")
    if owner is not None and (isinstance(owner, bool) or owner not in (0, 1)):
        raise ValueError(f"the cube's owner is player 0, player 1 or None (centred), not {owner!r}")
    if owner is not None and value == 1:
        raise ValueError("a cube owned by a player has been doubled: its value is at least 2")
    return _Cube(value, owner)


def _check_move(move: object, position: _DrawnPosition, dice: tuple[int, int] | None) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"move is a bgcore Move, not {type(move).__name__}; see Position.parse_move()")
    if dice is not None and move.dice != check_dice(dice):
        raise IllegalMoveError(
            f"{str(move) or 'the empty move'} plays {move.dice[0]}-{move.dice[1]}, but the dice are {dice[0]}-{dice[1]}"
        )
    if move not in position.legal_moves(move.dice):
        raise IllegalMoveError(
            f"{str(move) or 'the empty move'} is not legal with {move.dice[0]}-{move.dice[1]} in {position!r}"
        )
    return move


# --- drawing --------------------------------------------------------------------


def _num(x: float) -> str:
    """A coordinate, at most two decimals, without trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _text(x: float, y: float, content: str, *, size: int, fill: str, cls: str, extra: str = "") -> str:
    return (
        f'<text class="{cls}"{extra} x="{_num(x)}" y="{_num(y)}" font-family="{_FONT}" font-size="{size}" '
        f'font-weight="bold" text-anchor="middle" fill="{fill}">{escape(content)}</text>'
    )


def _rect(x: float, y: float, w: float, h: float, fill: str, *, extra: str = "") -> str:
    return f'<rect{extra} x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" fill="{fill}"/>'


def _stack(layout: Layout, place: int, count: int, point: str, side: str, player: int) -> list[str]:
    """A stack of ``count`` checkers on ``place`` (a point or a bar), five at most drawn."""
    out = [f'<g class="checkers" data-point="{point}" data-side="{side}" data-player="{player}" data-count="{count}">']
    shown = min(count, layout.SHOWN)
    for i in range(shown):
        x, y = layout.checker(place, i)
        out.append(
            f'<circle class="checker" cx="{x}" cy="{y}" r="{layout.RADIUS - 1}" fill="{PLAYER_COLOURS[player]}" '
            f'stroke="{_OUTLINE[player]}" stroke-width="2"/>'
        )
    if count > shown:
        x, y = layout.checker(place, shown - 1)
        out.append(_text(x, y + 6, str(count), size=16, fill=_INK[player], cls="count"))
    out.append("</g>")
    return out


def _tray(layout: Layout, bottom: bool, count: int, side: str, player: int) -> list[str]:
    out = [f'<g class="off" data-side="{side}" data-player="{player}" data-count="{count}">']
    out.append(_rect(*layout.tray(bottom), _TRAY))
    for i in range(count):
        x, y, w, h = layout.slab(bottom, i)
        out.append(
            f'<rect class="slab" x="{x}" y="{y}" width="{w}" height="{h}" rx="2" fill="{PLAYER_COLOURS[player]}" '
            f'stroke="{_OUTLINE[player]}" stroke-width="1"/>'
        )
    if count:
        out.append(_text(*layout.off_count(bottom), str(count), size=14, fill=_LABEL, cls="off-count"))
    out.append("</g>")
    return out


def _cube(layout: Layout, cube: _Cube, viewer: int) -> list[str]:
    place: Literal["top", "centre", "bottom"] = (
        "centre" if cube.owner is None else ("bottom" if cube.owner == viewer else "top")
    )
    x, y, side = layout.cube(place)
    owner = "" if cube.owner is None else str(cube.owner)
    label = str(cube.value if cube.value > 1 or cube.owner is not None else 64)
    font = 20 if len(label) <= 2 else (16 if len(label) == 3 else 12)
    return [
        f'<g class="cube" data-value="{cube.value}" data-owner="{owner}">',
        f'<rect x="{x}" y="{y}" width="{side}" height="{side}" rx="5" fill="#fbfaf6" stroke="#1d1d1f" '
        'stroke-width="1.5"/>',
        _text(x + side / 2, y + side / 2 + font * 0.36, label, size=font, fill="#1d1d1f", cls="cube-value"),
        "</g>",
    ]


def _dice(layout: Layout, dice: tuple[int, int], right: bool, player: int) -> list[str]:
    out = [f'<g class="dice" data-player="{player}">']
    for i, value in enumerate(dice):
        x, y, side = layout.die(right, i)
        out.append(f'<g class="die" data-value="{value}">')
        out.append(
            f'<rect x="{x}" y="{y}" width="{side}" height="{side}" rx="5" fill="{PLAYER_COLOURS[player]}" '
            f'stroke="{_OUTLINE[player]}" stroke-width="1.5"/>'
        )
        for dx, dy in layout.pips(value):
            cx, cy = x + side / 2 + dx, y + side / 2 + dy
            out.append(f'<circle class="pip" cx="{_num(cx)}" cy="{_num(cy)}" r="3.2" fill="{_INK[player]}"/>')
        out.append("</g>")
    out.append("</g>")
    return out


def _arrows(layout: Layout, board: Sequence[int], move: Move, off: int, flipped: bool) -> list[str]:
    """One arrow per step of ``move`` (the mover's numbering), from the checker
    that leaves to where it lands, following the board as the steps are played."""
    counts = list(board)
    out = ['<g class="arrows">']
    for src, dst in move.steps:
        place = 25 - src if flipped else src
        start = layout.checker(place, min(counts[src], layout.SHOWN) - 1)
        counts[src] -= 1
        if dst == 0:
            x, y, w, h = layout.slab(not flipped, off)
            end: tuple[float, float] = (x + w / 2, y + h / 2)
            off += 1
        else:
            counts[dst] = max(counts[dst], 0)  # a blot hit goes to the bar
            end = layout.checker(25 - dst if flipped else dst, min(counts[dst], layout.SHOWN - 1))
            counts[dst] += 1
        out += _arrow(start, end, src, dst)
    out.append("</g>")
    return out


def _arrow(start: tuple[float, float], end: tuple[float, float], src: int, dst: int) -> list[str]:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head, half = 16.0, 8.0
    bx, by = x2 - ux * head, y2 - uy * head  # the head's base
    corners = ((x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half))
    polygon = " ".join(f"{_num(x)},{_num(y)}" for x, y in corners)
    return [
        f'<g class="arrow" data-from="{src}" data-to="{dst}">',
        f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(bx)}" y2="{_num(by)}" stroke="{_ARROW}" '
        'stroke-width="5" stroke-linecap="round"/>',
        f'<polygon points="{polygon}" fill="{_ARROW}"/>',
        "</g>",
    ]


def board(
    position_or_game: _DrawnPosition | _DrawnGame,
    *,
    size: float = DEFAULT_SIZE,
    flipped: bool = False,
    move: Move | None = None,
    dice: Sequence[int] | None = None,
    cube: int | tuple[int, int | None] | None = None,
) -> str:
    """A standalone SVG document (a string) of the board.

    ``size`` is the picture's width in pixels (its height follows, 460/648 of
    it).  ``flipped`` shows the board from the opponent of the player on roll
    (their checkers at the bottom, their numbering).  ``move``, a legal
    :class:`~bgcore.Move` of the position, is drawn as one arrow per step from
    the checker that leaves to where it lands (IllegalMoveError when it is not
    legal there, or plays other dice than those shown).  ``dice``, two dice
    1-6 in the order rolled, are drawn in the on-roll player's right half.
    ``cube`` is a value (a power of two: a centred cube, 1 drawn as 64) or a
    ``(value, owner)`` pair, owner 0 or 1 (the player; for a bare Position
    player 0 is the player on roll) or None for centred; an owned cube sits
    at its owner's end, left of the board.

    A :class:`~bgcore.Game` gives its position (from the player on roll), its
    cube (none when the game is played without one) and its dice; ``dice``
    and ``cube`` given here take their place.  Without dice, a move's dice
    are drawn.  A bare Position has a centred cube unless ``cube`` says
    otherwise.  The output depends on the arguments only: the same input
    gives the same bytes.

    >>> from bgcore import Position
    >>> pos = Position.initial()
    >>> m = pos.parse_move("24/18 13/8", (6, 5))
    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(board(pos, move=m, cube=(2, 1)))
    >>> [(a.get("data-from"), a.get("data-to")) for a in root.iter(f"{NS}g") if a.get("class") == "arrow"]
    [('24', '18'), ('13', '8')]
    >>> [d.get("data-value") for d in root.iter(f"{NS}g") if d.get("class") == "die"]
    ['6', '5']
    >>> [(c.get("data-value"), c.get("data-owner")) for c in root.iter(f"{NS}g") if c.get("class") == "cube"]
    [('2', '1')]
    >>> board(pos, move=m, dice=(3, 1))
    Traceback (most recent call last):
    ...
    bgcore.errors.IllegalMoveError: 24/18 13/8 plays 6-5, but the dice are 3-1
    >>> board(pos, cube=3)
    Traceback (most recent call last):
    ...
    ValueError: the cube's value is a power of two, not 3
    """
    if isinstance(position_or_game, _DrawnGame):
        position = position_or_game.position
        mover = position_or_game.on_roll
        shown_cube = (
            _Cube(position_or_game.cube, position_or_game.cube_owner) if position_or_game.cube_enabled else None
        )
        shown_dice = position_or_game.dice
    elif isinstance(position_or_game, _DrawnPosition):
        position, mover, shown_cube, shown_dice = position_or_game, 0, _Cube(1, None), None
    else:
        raise TypeError(f"board() draws a Position or a Game, not {type(position_or_game).__name__}")
    layout = Layout(_check_size(size))
    if not isinstance(flipped, bool):
        raise TypeError(f"flipped is a bool, not {type(flipped).__name__}")
    if cube is not None:
        shown_cube = _check_cube(cube)
    if dice is not None:
        shown_dice = _check_dice(dice)
    if move is not None:
        move = _check_move(move, position, shown_dice)
        if shown_dice is None:
            shown_dice = move.dice

    viewer = 1 - mover if flipped else mover
    seen = position.flip().board if flipped else position.board  # the viewer's numbering
    mover_off, other_off = position.borne_off()
    viewer_side, other_side = ("o", "x") if flipped else ("x", "o")

    # The board's own ID: an acey-deucey position's waiting checkers have no
    # place in a Position ID (its position_id() refuses them) nor on the picture.
    position_id = encode_position_id(position.board)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.WIDTH} {layout.HEIGHT}" '
        f'width="{_num(layout.size)}" height="{_num(layout.height)}" class="bgcore-board" '
        f'data-position-id="{position_id}" data-flipped="{str(flipped).lower()}" role="img">',
        f"<title>Backgammon board, Position ID {position_id}</title>",
        _rect(0, 0, layout.WIDTH, layout.HEIGHT, _FRAME),
    ]
    out += [_rect(*field, _FIELD, extra=' class="field"') for field in layout.fields()]
    out.append('<g class="points">')
    for point in range(1, 25):
        corners = " ".join(f"{x},{y}" for x, y in layout.triangle(point))
        colour = _POINTS[point % 2]
        out.append(f'<polygon class="point" data-point="{point}" points="{corners}" fill="{colour}"/>')
    out.append("</g>")
    out.append('<g class="point-numbers">')
    for point in range(1, 25):
        x, y = layout.number(point)
        out.append(_text(x, y, str(point), size=13, fill=_LABEL, cls="point-number", extra=f' data-point="{point}"'))
    out.append("</g>")
    for point in range(1, 25):
        count = seen[point]
        if count > 0:
            out += _stack(layout, point, count, str(point), viewer_side, viewer)
        elif count < 0:
            out += _stack(layout, point, -count, str(point), other_side, 1 - viewer)
    if seen[25]:
        out += _stack(layout, 25, seen[25], "bar", viewer_side, viewer)
    if seen[0]:
        out += _stack(layout, 0, -seen[0], "bar", other_side, 1 - viewer)
    viewer_off, top_off = (other_off, mover_off) if flipped else (mover_off, other_off)
    out += _tray(layout, True, viewer_off, viewer_side, viewer)
    out += _tray(layout, False, top_off, other_side, 1 - viewer)
    if shown_cube is not None:
        out += _cube(layout, shown_cube, viewer)
    if shown_dice is not None:
        out += _dice(layout, shown_dice, not flipped, mover)
    if move is not None and move:
        out += _arrows(layout, position.board, move, mover_off, flipped)
    out.append("</svg>")
    return "\n".join(out) + "\n"
