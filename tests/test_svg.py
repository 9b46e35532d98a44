"""bgcore.svg: the structure of the pictures, their agreement with the ASCII
diagram of ``str(position)``, the options and the argument checks."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from bgcore import Game, IllegalMoveError, Move, Position, svg
from bgcore.svg import NS, Layout

LAYOUT = Layout()


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == cls]


def of_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}") if e.get("class") == cls]


def board_with(**counts: int) -> Position:
    """A board from p<n>=count (mover positive, opponent negative), bar25 / bar0."""
    b = [0] * 26
    for name, count in counts.items():
        b[int(name.lstrip("pbar"))] = count
    return Position(b)


def walk(seed: int, plies: int) -> list[Position]:
    """Positions of a random game, each seen from the player on roll."""
    rng = random.Random(seed)
    pos, seen = Position.initial(), []
    for _ in range(plies):
        if pos.is_game_over():
            break
        seen.append(pos)
        moves = pos.legal_moves((rng.randint(1, 6), rng.randint(1, 6)))
        pos = pos.play(moves[rng.randrange(len(moves))])
    return seen


# Bar checkers of both sides (more than five of one), a bear-off with checkers off
# on both sides and a stack of more than five, one side all off but one.
BAR_BOTH = board_with(bar25=6, bar0=-2, p6=5, p8=4, p12=-8, p19=-5)
BEAR_OFF = board_with(p1=3, p2=7, p5=2, p24=-2, p23=-6)
BORNE_OFF = board_with(p1=1, p19=-4, p20=-2, p24=-9)
POSITIONS = [Position.initial(), BAR_BOTH, BEAR_OFF, BORNE_OFF, *walk(11, 60)[::7], *walk(5, 200)[40::17]]


def stacks(root: ET.Element) -> dict[str, tuple[str, int]]:
    """{point: (side, count)} read from the elements drawn (circles and count
    labels), after checking that they agree with the data attributes."""
    out: dict[str, tuple[str, int]] = {}
    for g in groups(root, "checkers"):
        circles = of_class(g, "circle", "checker")
        labels = of_class(g, "text", "count")
        count = int(g.get("data-count", "-1"))
        assert len(circles) == min(count, 5)
        assert len(labels) == (count > 5)
        drawn = int(labels[0].text or "") if labels else len(circles)
        assert drawn == count
        fills = {c.get("fill") for c in circles}
        assert fills == {svg.PLAYER_COLOURS[int(g.get("data-player", "-1"))]}
        key = g.get("data-point", "")
        if key == "bar":
            key += g.get("data-side", "")
        assert key not in out
        out[key] = (g.get("data-side", ""), count)
    for g in groups(root, "off"):
        out["off" + g.get("data-side", "")] = (g.get("data-side", ""), int(g.get("data-count", "-1")))
        assert len(of_class(g, "rect", "slab")) == int(g.get("data-count", "-1"))
    return out


def ascii_stacks(position: Position) -> dict[str, tuple[str, int]]:
    """The same from the text of ``str(position)``: X (on roll) and O."""
    lines = str(position).splitlines()
    top, bottom = lines[3:8], lines[9:14][::-1]  # row 0 next to the edge
    out: dict[str, tuple[str, int]] = {}
    for rows, points in ((top, range(13, 25)), (bottom, range(12, 0, -1))):
        for i, point in enumerate(points):
            start = 1 + 3 * i + (5 if i >= 6 else 0)  # "|" and the bar's "|   |"
            cells = [row[start : start + 3].strip() for row in rows]
            marks = [c for c in cells if c in ("X", "O")]
            if not marks:
                assert cells[0] == "."
                continue
            count = int(cells[4]) if cells[4].isdigit() else len(marks)
            out[str(point)] = (marks[0].lower(), count)
    for line, side in ((lines[2], "o"), (lines[14], "x")):
        words = line.split()
        off, bar = int(words[words.index("off") + 1]), int(words[words.index("bar") + 1])
        out["off" + side] = (side, off)
        if bar:
            out["bar" + side] = (side, bar)
    return out


# --- structure -------------------------------------------------------------------


def test_initial_position_structure() -> None:
    root = parse(svg.board(Position.initial()))
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == f"0 0 {Layout.WIDTH} {Layout.HEIGHT}"
    assert len(of_class(root, "polygon", "point")) == 24
    numbers = of_class(root, "text", "point-number")
    assert sorted(int(t.text or "") for t in numbers) == list(range(1, 25))
    assert all(t.get("data-point") == t.text for t in numbers)
    checkers = of_class(root, "circle", "checker")
    # 5-per-point display rule: the initial position has no stack over five
    assert len(checkers) == 30
    by_side = {
        side: sum(len(of_class(g, "circle", "checker")) for g in groups(root, "checkers") if g.get("data-side") == side)
        for side in ("x", "o")
    }
    assert by_side == {"x": 15, "o": 15}
    assert not of_class(root, "text", "count")
    assert [g.get("data-count") for g in groups(root, "off")] == ["0", "0"]
    (cube,) = groups(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("1", "")
    assert [t.text for t in of_class(cube, "text", "cube-value")] == ["64"]
    assert not groups(root, "dice") and not groups(root, "arrows")


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.position_id())
def test_checker_circles_follow_the_display_rule(position: Position) -> None:
    root = parse(svg.board(position))
    b = position.board
    for side, sign in (("x", 1), ("o", -1)):
        slots = [sign * b[p] for p in range(1, 25) if sign * b[p] > 0] + [abs(b[25 if sign > 0 else 0])]
        circles = sum(
            len(of_class(g, "circle", "checker")) for g in groups(root, "checkers") if g.get("data-side") == side
        )
        assert circles == sum(min(n, 5) for n in slots)
        labels = [
            int(t.text or "")
            for g in groups(root, "checkers")
            if g.get("data-side") == side
            for t in of_class(g, "text", "count")
        ]
        assert sorted(labels) == sorted(n for n in slots if n > 5)


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.position_id())
def test_picture_matches_the_ascii_diagram(position: Position) -> None:
    assert stacks(parse(svg.board(position))) == ascii_stacks(position)


@pytest.mark.parametrize("position", POSITIONS[:4], ids=lambda p: p.position_id())
def test_flipped_is_the_other_sides_view(position: Position) -> None:
    swap = {"x": "o", "o": "x"}
    flipped = stacks(parse(svg.board(position, flipped=True)))
    other = ascii_stacks(position.flip())  # X is the flipped view's viewer: side o
    assert flipped == {
        key[:-1] + swap[key[-1]] if key[-1] in swap else key: (swap[side], n) for key, (side, n) in other.items()
    }
    root = parse(svg.board(position, flipped=True))
    assert root.get("data-flipped") == "true"
    assert sorted(int(t.text or "") for t in of_class(root, "text", "point-number")) == list(range(1, 25))


def test_checkers_sit_where_the_layout_says() -> None:
    root = parse(svg.board(BAR_BOTH))
    for g in groups(root, "checkers"):
        point = g.get("data-point")
        place = (25 if g.get("data-side") == "x" else 0) if point == "bar" else int(point or "")
        for i, c in enumerate(of_class(g, "circle", "checker")):
            assert (int(c.get("cx", "")), int(c.get("cy", ""))) == LAYOUT.checker(place, i)
    # the viewer's checkers at the bottom: point 6 and the viewer's bar below the middle
    assert LAYOUT.checker(6, 0)[1] > LAYOUT.middle and LAYOUT.checker(25, 0)[1] > LAYOUT.middle
    assert LAYOUT.checker(19, 0)[1] < LAYOUT.middle and LAYOUT.checker(0, 0)[1] < LAYOUT.middle
    flipped = parse(svg.board(BAR_BOTH, flipped=True))
    (mover_bar,) = [
        g for g in groups(flipped, "checkers") if g.get("data-point") == "bar" and g.get("data-side") == "x"
    ]
    assert all(int(c.get("cy", "")) < LAYOUT.middle for c in of_class(mover_bar, "circle", "checker"))


def test_point_numbers_are_the_viewers() -> None:
    def where(picture: str) -> dict[int, tuple[float, float]]:
        return {
            int(t.text or ""): (float(t.get("x", "")), float(t.get("y", "")))
            for t in of_class(parse(picture), "text", "point-number")
        }

    plain, flipped = where(svg.board(Position.initial())), where(svg.board(Position.initial(), flipped=True))
    assert plain == flipped  # both views number the points 1-24 from their own side
    assert plain[1][1] > LAYOUT.bottom and plain[24][1] < LAYOUT.top  # 1 bottom right, 24 top right
    assert plain[1][0] == plain[24][0] > plain[12][0] == plain[13][0]


def test_size_and_determinism() -> None:
    pos = POSITIONS[5]
    a, b = svg.board(pos, size=300.5), svg.board(pos, size=300.5)
    assert a == b
    root = parse(a)
    assert root.get("width") == "300.5"
    assert math.isclose(float(root.get("height", "")), 300.5 * Layout.HEIGHT / Layout.WIDTH, abs_tol=0.01)
    assert parse(svg.board(pos, size=1000)).get("width") == "1000"
    code = (
        "import sys; from bgcore import Position, svg; "
        "sys.stdout.write(svg.board(Position.from_position_id(sys.argv[1])))"
    )
    for seed in ("0", "1"):
        out = subprocess.run(
            [sys.executable, "-c", code, pos.position_id()],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        assert out == svg.board(pos)


# --- cube, dice, arrows ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cube", "value", "owner", "text", "place"),
    [
        (None, "1", "", "64", "centre"),
        (1, "1", "", "64", "centre"),
        (4, "4", "", "4", "centre"),
        ((2, 0), "2", "0", "2", "bottom"),
        ((16, 1), "16", "1", "16", "top"),
        ((1024, None), "1024", "", "1024", "centre"),
        ([8, 1], "8", "1", "8", "top"),
    ],
)
def test_cube(cube: object, value: str, owner: str, text: str, place: str) -> None:
    for flipped in (False, True):
        root = parse(svg.board(Position.initial(), cube=cube, flipped=flipped))  # type: ignore[arg-type]
        (g,) = groups(root, "cube")
        assert (g.get("data-value"), g.get("data-owner")) == (value, owner)
        assert [t.text for t in of_class(g, "text", "cube-value")] == [text]
        (rect,) = g.iter(f"{NS}rect")
        seen = {"top": "bottom", "bottom": "top", "centre": "centre"}[place] if flipped else place
        x, y, _ = LAYOUT.cube(seen)  # type: ignore[arg-type]
        assert (int(rect.get("x", "")), int(rect.get("y", ""))) == (x, y)


@pytest.mark.parametrize("dice", [(1, 1), (6, 5), (2, 3), (4, 4), [5, 6]])
def test_dice(dice: tuple[int, int]) -> None:
    root = parse(svg.board(Position.initial(), dice=dice))
    dies = groups(root, "die")
    assert [int(d.get("data-value", "")) for d in dies] == list(dice)  # in the order rolled
    assert [len(of_class(d, "circle", "pip")) for d in dies] == list(dice)
    for flipped, right in ((False, True), (True, False)):
        rects = [
            next(d.iter(f"{NS}rect"))
            for d in groups(parse(svg.board(Position.initial(), dice=dice, flipped=flipped)), "die")
        ]
        assert [int(r.get("x", "")) for r in rects] == [LAYOUT.die(right, i)[0] for i in range(2)]


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.position_id())
def test_arrows_one_per_step(position: Position) -> None:
    for dice in ((6, 5), (3, 3), (2, 1)):
        for move in list(position.legal_moves(dice))[:6]:
            root = parse(svg.board(position, move=move))
            arrows = groups(root, "arrow")
            assert len(arrows) == len(move.steps)
            assert [(int(a.get("data-from", "")), int(a.get("data-to", ""))) for a in arrows] == list(move.steps)
            assert [d.get("data-value") for d in groups(root, "die")] == [str(v) for v in move.dice]
            flipped = groups(parse(svg.board(position, move=move, flipped=True)), "arrow")
            assert len(flipped) == len(move.steps)


def test_arrow_ends() -> None:
    def ends(root: ET.Element) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        out = []
        for a in groups(root, "arrow"):
            (line,) = a.iter(f"{NS}line")
            (head,) = a.iter(f"{NS}polygon")
            tip = tuple(float(v) for v in (head.get("points") or "").split()[0].split(","))
            out.append(((float(line.get("x1", "")), float(line.get("y1", ""))), tip))
        return out

    pos = BAR_BOTH
    move = pos.parse_move("bar/22 bar/21", (3, 4))
    (a, b) = ends(parse(svg.board(pos, move=move)))
    assert a == (LAYOUT.checker(25, 4), LAYOUT.checker(22, 0))  # six on the bar: the fifth drawn leaves
    assert b == (LAYOUT.checker(25, 4), LAYOUT.checker(21, 0))
    (a, b) = ends(parse(svg.board(pos, move=move, flipped=True)))
    assert a == (LAYOUT.checker(0, 4), LAYOUT.checker(3, 0))
    # bearing off: into the mover's tray, after those already off
    move = BEAR_OFF.parse_move("5/off 5/3", (5, 2))
    (a, b) = ends(parse(svg.board(BEAR_OFF, move=move)))
    assert move.steps == ((5, 3), (5, 0))
    x, y, w, h = LAYOUT.slab(True, 3)
    assert a == (LAYOUT.checker(5, 1), LAYOUT.checker(3, 0))
    assert b == (LAYOUT.checker(5, 0), (x + w / 2, y + h / 2))
    # a hit: the hitter lands on the edge slot, where the blot was
    pos = board_with(p13=2, p6=13, p11=-1, p19=-14)
    move = pos.parse_move("13/11* 6/5", (2, 1))
    (a, b) = ends(parse(svg.board(pos, move=move)))
    assert a == (LAYOUT.checker(13, 1), LAYOUT.checker(11, 0))
    assert b == (LAYOUT.checker(6, 4), LAYOUT.checker(5, 0))  # 13 on the 6-point: the fifth drawn leaves


def test_empty_move_and_game_over() -> None:
    closed = Position.from_position_id("u5sDAgK3OwcAQA")
    (lost,) = closed.legal_moves((4, 1))
    root = parse(svg.board(closed, move=lost))
    assert not groups(root, "arrow")
    assert [d.get("data-value") for d in groups(root, "die")] == ["4", "1"]
    over = board_with(p6=-15)  # the player on roll has borne off every checker
    root = parse(svg.board(over))
    assert stacks(root)["offx"] == ("x", 15)
    with pytest.raises(IllegalMoveError):
        svg.board(over, move=Move([(6, 1)], dice=(5, 1)))


# --- games and _repr_svg_ ---------------------------------------------------------------


def test_game_gives_position_cube_and_dice() -> None:
    game = Game(dice=7)
    game.roll((6, 1))
    root = parse(svg.board(game))
    assert [d.get("data-value") for d in groups(root, "die")] == ["6", "1"]
    assert groups(root, "dice")[0].get("data-player") == "0"
    game.play("13/7 8/7")
    game.double()
    game.take()
    assert (game.on_roll, game.cube, game.cube_owner) == (1, 2, 0)
    root = parse(svg.board(game))
    assert not groups(root, "dice")
    (cube,) = groups(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("2", "0")
    (rect,) = cube.iter(f"{NS}rect")
    assert int(rect.get("y", "")) == LAYOUT.cube("top")[1]  # player 1 views; player 0 owns it
    # player 1 on roll: their checkers (side x) are dark
    assert {g.get("data-player") for g in groups(root, "checkers") if g.get("data-side") == "x"} == {"1"}
    assert stacks(root) == ascii_stacks(game.position)
    # the arguments override the game's cube and dice
    root = parse(svg.board(game, cube=(4, 1), dice=(2, 2)))
    (cube,) = groups(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("4", "1")
    assert [d.get("data-value") for d in groups(root, "die")] == ["2", "2"]
    roll = game.roll()
    move = game.legal_moves()[0]
    root = parse(svg.board(game, move=move))
    assert len(groups(root, "arrow")) == len(move.steps)
    assert [int(d.get("data-value", "")) for d in groups(root, "die")] == list(roll)
    assert not groups(parse(svg.board(Game(cube=False))), "cube")


def test_repr_svg() -> None:
    pos = POSITIONS[3]
    assert pos._repr_svg_() == svg.board(pos)
    game = Game(dice=3)
    game.roll()
    assert game._repr_svg_() == svg.board(game)


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"size": 0}, ValueError),
        ({"size": -10}, ValueError),
        ({"size": float("nan")}, ValueError),
        ({"size": float("inf")}, ValueError),
        ({"size": "400"}, TypeError),
        ({"size": True}, TypeError),
        ({"flipped": 1}, TypeError),
        ({"dice": (0, 3)}, ValueError),
        ({"dice": (7, 1)}, ValueError),
        ({"dice": (1, 2, 3)}, ValueError),
        ({"dice": "65"}, TypeError),
        ({"dice": (1.5, 2)}, TypeError),
        ({"cube": 0}, ValueError),
        ({"cube": 3}, ValueError),
        ({"cube": -2}, ValueError),
        ({"cube": (2, 2)}, ValueError),
        ({"cube": (2, True)}, ValueError),
        ({"cube": (1, 0)}, ValueError),
        ({"cube": (2, 0, 1)}, ValueError),
        ({"cube": 2.0}, TypeError),
        ({"cube": True}, TypeError),
        ({"move": "24/18 13/8"}, TypeError),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        svg.board(Position.initial(), **kwargs)  # type: ignore[arg-type]


def test_bad_subject() -> None:
    with pytest.raises(TypeError, match="Position or a Game"):
        svg.board(Position.initial().board)  # type: ignore[arg-type]


def test_illegal_moves() -> None:
    pos = Position.initial()
    with pytest.raises(IllegalMoveError, match="not legal"):
        svg.board(pos, move=Move([(24, 18), (13, 10)], dice=(6, 4)))  # a 3 played with 6-4
    # a step that needs a checker where there is none
    with pytest.raises(IllegalMoveError, match="not legal"):
        svg.board(pos, move=Move([(20, 14)], dice=(6, 1)))
    # a legal move of another position
    stranger = BEAR_OFF.parse_move("5/off 5/3", (5, 2))
    with pytest.raises(ValueError, match="not legal"):
        svg.board(pos, move=stranger)
    # the dice shown must be the move's
    with pytest.raises(IllegalMoveError, match="plays 6-5, but the dice are 2-1"):
        svg.board(pos, move=pos.legal_moves((6, 5))[0], dice=(2, 1))
    game = Game(dice=1)
    game.roll((6, 1))
    with pytest.raises(IllegalMoveError):
        svg.board(game, move=pos.legal_moves((5, 2))[0])


def test_an_acey_deucey_start_is_drawn_with_its_boards_id() -> None:
    # Its checkers all wait to enter: position_id() refuses them, the picture
    # (which has no place for them either) names the board's own ID.
    from bgcore.ids import encode_position_id

    start = Position.initial("acey-deucey")
    picture = svg.board(start)
    assert f'data-position-id="{encode_position_id(start.board)}"' in picture
