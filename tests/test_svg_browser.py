"""bgcore.svg in a real browser: headless Chromium renders several boards on
one page, and the screenshot's pixels are checked where :class:`bgcore.svg.Layout`
puts things: each checker's centre has its player's colour, empty points show
the point's colour and the field between them the field's, borne-off checkers
fill their tray slots, and the cube, dice, pips, arrows and point numbers are
where they should be.

Without a ``chromium`` executable the test skips; with
``BGCORE_REQUIRE_BROWSER=1`` (CI) it fails instead.  The PNG is decoded here
with zlib and struct.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bgcore import Game, Move, Position, svg
from bgcore.svg import Layout

#: Set to 1 where Chromium must be present (CI): a missing browser then fails
#: the test instead of skipping it.
REQUIRE_VARIABLE = "BGCORE_REQUIRE_BROWSER"
BROWSERS = ("chromium", "chromium-browser")

SIZE = 486  # 0.75 pixels a unit: the layout's coordinates are scaled, not copied
LAYOUT = Layout(SIZE)
PITCH = 360  # boards are stacked this many pixels apart (each is 345 high)
TOLERANCE = 6  # per channel


def require_browser() -> str:
    """The browser's path; skip (or fail with BGCORE_REQUIRE_BROWSER=1) without one."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    reason = f"no {' or '.join(BROWSERS)} executable on PATH (Debian: apt-get install chromium)"
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"{REQUIRE_VARIABLE}=1 but {reason}", pytrace=False)
    pytest.skip(f"{reason}; set {REQUIRE_VARIABLE}=1 to fail instead")


# --- PNG ---------------------------------------------------------------------------------


@dataclass
class Image:
    width: int
    height: int
    channels: int
    data: bytes = field(repr=False)

    def rgb(self, x: float, y: float) -> tuple[int, int, int]:
        i = (int(y) * self.width + int(x)) * self.channels
        r, g, b = self.data[i : i + 3]
        return r, g, b


def read_png(blob: bytes) -> Image:
    """Decode an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    assert blob[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos : pos + 4])
        kind, body = blob[pos + 4 : pos + 8], blob[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    assert header is not None, "no IHDR"
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    n = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * n
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b = prev[i]
            c = prev[i - n] if i >= n else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        out[y * stride : (y + 1) * stride] = line
        prev = line
    return Image(width, height, n, bytes(out))


# --- the boards --------------------------------------------------------------------------


def board_with(**counts: int) -> Position:
    b = [0] * 26
    for name, count in counts.items():
        b[int(name.lstrip("pbar"))] = count
    return Position(b)


@dataclass
class Case:
    """A board to draw and what the picture must show."""

    name: str
    subject: Position | Game
    flipped: bool = False
    move: Move | None = None
    dice: tuple[int, int] | None = None
    cube: tuple[int, int | None] | None = None

    def picture(self) -> str:
        return svg.board(self.subject, size=SIZE, flipped=self.flipped, move=self.move, dice=self.dice, cube=self.cube)


def game_with_owned_cube() -> Game:
    game = Game(dice=7)
    game.roll((6, 1))
    game.play("13/7 8/7")
    game.double()
    game.take()  # player 0 owns the cube at 2; player 1 is on roll
    game.roll((4, 2))
    return game


INITIAL = Position.initial()
CASES = [
    Case("initial", INITIAL),
    Case("bar both sides", board_with(bar25=6, bar0=-2, p6=5, p8=4, p12=-8, p19=-5), dice=(5, 3), cube=(2, 0)),
    Case("bear-off, flipped", board_with(p1=3, p2=7, p5=2, p24=-2, p23=-6), flipped=True, dice=(6, 2), cube=(8, 1)),
    Case("borne off", board_with(p1=1, p19=-4, p20=-2, p24=-9), cube=(4, None)),
    Case("game: player 1 on roll", game_with_owned_cube()),
    Case("move", INITIAL, move=INITIAL.parse_move("24/18 13/8", (6, 5))),
]


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@dataclass
class Expected:
    """Pixels to check on one board: (what, x, y, colour), in viewBox units."""

    spots: list[tuple[str, float, float, str]] = field(default_factory=list)

    def add(self, what: str, x: float, y: float, colour: str) -> None:
        self.spots.append((what, x, y, colour))


def expectations(case: Case) -> Expected:
    """Where each thing must be and its colour, from the case and the Layout alone."""
    subject = case.subject
    position = subject.position if isinstance(subject, Game) else subject
    mover = subject.on_roll if isinstance(subject, Game) else 0
    viewer = 1 - mover if case.flipped else mover
    seen = position.flip().board if case.flipped else position.board
    expected = Expected()
    players = {1: viewer, -1: 1 - viewer}
    for place in range(26):
        count = seen[place]
        if place in (0, 25) and not count:
            continue
        if count:
            player = players[1 if count > 0 else -1]
            for i in range(min(abs(count), 5)):
                x, y = LAYOUT.checker(place, i)
                if i == 4 and abs(count) > 5:  # the count is written on it: look above the text
                    y -= 12
                expected.add(f"checker {i} on {place}", x, y, svg.PLAYER_COLOURS[player])
        else:
            x, y = LAYOUT.checker(place, 0)
            expected.add(f"empty point {place}", x, y, svg._POINTS[place % 2])
        if abs(count) <= 3 and place not in (0, 25):
            x, y = LAYOUT.checker(place, 3)
            expected.add(f"field beside point {place}", x + 15, y, svg._FIELD)
    mover_off, other_off = position.borne_off()
    viewer_off, top_off = (other_off, mover_off) if case.flipped else (mover_off, other_off)
    for bottom, off, player in ((True, viewer_off, viewer), (False, top_off, 1 - viewer)):
        for i in range(min(off + 1, position.checkers)):
            x, y, w, h = LAYOUT.slab(bottom, i)
            colour = svg.PLAYER_COLOURS[player] if i < off else svg._TRAY
            expected.add(f"tray slot {i} {'bottom' if bottom else 'top'}", x + w / 2, y + h / 2, colour)
    # the cube
    if isinstance(subject, Game):
        value, owner = subject.cube, subject.cube_owner
    else:
        value, owner = case.cube if case.cube else (1, None)
    place = "centre" if owner is None else ("bottom" if owner == viewer else "top")
    for where in ("top", "centre", "bottom"):
        x, y, _ = LAYOUT.cube(where)  # type: ignore[arg-type]
        expected.add(f"cube {where}", x + 8, y + 8, "#fbfaf6" if where == place else svg._FRAME)
    # the dice, in the on-roll player's right half
    dice = case.dice or (subject.dice if isinstance(subject, Game) else None) or (case.move.dice if case.move else None)
    if dice:
        for i, value in enumerate(dice):
            x, y, side = LAYOUT.die(not case.flipped, i)
            expected.add(f"die {i}", x + 4, y + side / 2, svg.PLAYER_COLOURS[mover])
            for dx, dy in LAYOUT.pips(value):
                expected.add(f"pip of die {i}", x + side / 2 + dx, y + side / 2 + dy, svg._INK[mover])
    else:
        for i in range(2):
            x, y, side = LAYOUT.die(True, i)
            expected.add(f"no die {i}", x + side / 2, y + side / 2, svg._FIELD)
    # arrows: the middle of each step's path; nothing else is checked under them
    segments = arrows(case, position)
    for (src, dst), (start, end) in zip(case.move.steps if case.move else (), segments, strict=True):
        expected.add(f"arrow {src}/{dst}", (start[0] + end[0]) / 2, (start[1] + end[1]) / 2, svg._ARROW)
    expected.spots = [
        spot
        for spot in expected.spots
        if spot[0].startswith("arrow") or all(distance(spot[1:3], *segment) > 12 for segment in segments)
    ]
    return expected


Point = tuple[float, float]


def arrows(case: Case, position: Position) -> list[tuple[Point, Point]]:
    """Each step's arrow from the checker that leaves to where it lands."""
    if not case.move:
        return []
    counts, off = list(position.board), position.borne_off()[0]
    out: list[tuple[Point, Point]] = []
    for src, dst in case.move.steps:
        start = LAYOUT.checker(25 - src if case.flipped else src, min(counts[src], 5) - 1)
        counts[src] -= 1
        if dst == 0:
            x, y, w, h = LAYOUT.slab(not case.flipped, off)
            end: Point = (x + w / 2, y + h / 2)
            off += 1
        else:
            end = LAYOUT.checker(25 - dst if case.flipped else dst, min(max(counts[dst], 0), 4))
            counts[dst] = max(counts[dst], 0) + 1
        out.append((start, end))
    return out


def distance(p: tuple[float, ...], a: Point, b: Point) -> float:
    """From p to the segment a-b."""
    (x, y), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return float(((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2) ** 0.5)


@pytest.fixture(scope="module")
def screenshot(tmp_path_factory: pytest.TempPathFactory) -> Image:
    browser = require_browser()
    folder = tmp_path_factory.mktemp("svg-browser")
    boards = "".join(
        f'<div style="position:absolute;left:0;top:{i * PITCH}px">{case.picture()}</div>'
        for i, case in enumerate(CASES)
    )
    page = folder / "boards.html"
    page.write_text(f'<!DOCTYPE html><html><body style="margin:0;background:#fff">{boards}</body></html>')
    png = folder / "boards.png"
    width, height = SIZE, PITCH * len(CASES)
    command = [
        browser,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--no-first-run",
        f"--user-data-dir={folder / 'profile'}",
        f"--screenshot={png}",
        f"--window-size={width},{height}",
        page.as_uri(),
    ]
    # Not the sanitizer runtimes that .ci/sanitize.sh preloads into Python: Chromium
    # is no part of the code under test.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.endswith("SAN_OPTIONS")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False, env=env)
    if not png.exists():
        pytest.fail(f"{browser} wrote no screenshot (exit {done.returncode}): {done.stderr[-2000:]}")
    if os.environ.get("BGCORE_SVG_SCREENSHOT"):  # keep it to look at
        shutil.copy(png, Path(os.environ["BGCORE_SVG_SCREENSHOT"]))
    image = read_png(png.read_bytes())
    assert (image.width, image.height) == (width, height)
    return image


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CASES)), ids=[case.name for case in CASES])
def test_pixels_are_where_the_layout_says(screenshot: Image, index: int) -> None:
    top = index * PITCH
    wrong = []
    spots = expectations(CASES[index]).spots
    assert len(spots) > 40
    for what, x, y, colour in spots:
        px, py = LAYOUT.pixel(x, y)
        got = screenshot.rgb(px, top + py)
        want = hex_rgb(colour)
        if max(abs(g - w) for g, w in zip(got, want, strict=True)) > TOLERANCE:
            wrong.append(f"{what} at ({px:.0f}, {py:.0f}): {got} instead of {want} ({colour})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_point_numbers_are_drawn(screenshot: Image) -> None:
    """Each point's number shows pixels of the label colour near its place (a font is there)."""
    label = hex_rgb(svg._LABEL)
    for index in range(len(CASES)):
        for point in range(1, 25):
            x, y = LAYOUT.number(point)
            box = [
                screenshot.rgb(px, index * PITCH + py)
                for px in range(int((x - 10) * LAYOUT.scale), int((x + 10) * LAYOUT.scale))
                for py in range(int((y - 12) * LAYOUT.scale), int((y + 2) * LAYOUT.scale))
            ]
            assert any(max(abs(c - w) for c, w in zip(rgb, label, strict=True)) <= 40 for rgb in box), (index, point)


@pytest.mark.parametrize(("required", "outcome"), [("1", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_a_missing_browser_skips_unless_required(
    monkeypatch: pytest.MonkeyPatch, required: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv(REQUIRE_VARIABLE, required)
    with pytest.raises(outcome, match="chromium"):
        require_browser()
