"""bgcore.Dice and its C-level API: the compatibility promise (fixed sequences
and an independent implementation of the documented algorithm), uniformity,
independent streams, state and pickling, and a Cython module that cimports
bgcore.dice."""

from __future__ import annotations

import copy
import importlib
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bgcore
from bgcore import Dice, InvalidSeedError, batch
from bgcore.rules import ROLLS

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


# An independent implementation of the algorithm in bgcore.dice's docstring,
# with Python's unbounded integers (masked to 64 bits) instead of C's.


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Reference:
    """xoshiro256** seeded through SplitMix64, Lemire's bounded draw, rolls and dice."""

    def __init__(self, seed: int = 0, stream: int = 0, words: tuple[int, ...] | None = None) -> None:
        if words is None:
            x = seed ^ mix((stream + GAMMA) & MASK)
            words = tuple(mix((x + (k + 1) * GAMMA) & MASK) for k in range(4))
        self.s = list(words)
        self.draws = 0

    def next64(self) -> int:
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        self.draws += 1
        return result

    def below(self, n: int) -> int:
        while True:
            m = self.next64() * n
            if m & MASK >= (1 << 64) % n:
                return m >> 64

    def roll(self) -> tuple[int, int]:
        v = self.below(36)
        return v // 6 + 1, v % 6 + 1

    def die(self) -> int:
        return self.below(6) + 1


# --- the reference against published vectors of its two generators ---------


def test_reference_splitmix64_matches_the_published_outputs() -> None:
    x, out = 1234567, []
    for _ in range(5):
        x = (x + GAMMA) & MASK
        out.append(mix(x))
    assert out == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]
    assert mix(GAMMA) == 0xE220A8397B1DCDAF  # the first output from state 0


# The reference implementation's outputs from the state (1, 2, 3, 4).
XOSHIRO_1234 = [
    11520,
    0,
    1509978240,
    1215971899390074240,
    1216172134540287360,
    607988272756665600,
    16172922978634559625,
    8476171486693032832,
    10595114339597558777,
    2904607092377533576,
]


def test_reference_xoshiro256starstar_matches_the_published_outputs() -> None:
    ref = Reference(words=(1, 2, 3, 4))
    assert [ref.next64() for _ in XOSHIRO_1234] == XOSHIRO_1234


# --- the compatibility promise ------------------------------------------------

# (seed, stream): the first 20 rolls (die1 die2) and, from the start again,
# the first 20 single dice.  These never change.
FIXED = {
    (0, 0): (
        "66 35 16 25 21 13 53 24 11 64 35 31 61 22 15 25 61 34 23 34",
        "63122152163362126323",
    ),
    (42, 0): (
        "15 25 43 45 36 11 54 42 35 32 14 23 62 25 66 55 56 53 24 21",
        "12443154331262655522",
    ),
    (42, 1): (
        "31 16 52 23 13 43 52 31 23 45 43 55 22 24 26 22 62 51 44 55",
        "31521453244522226545",
    ),
    (2**64 - 1, 2**64 - 1): (
        "31 11 44 23 16 45 53 61 44 23 55 21 14 13 43 41 61 52 63 13",
        "31421456425211446561",
    ),
    (20240611, 7): (
        "66 54 44 13 55 43 56 23 41 34 41 55 56 21 24 44 34 31 15 25",
        "65415452434552243312",
    ),
}

# The xoshiro256** words right after seeding.
FIXED_STATES = {
    (0, 0): (12035550249420947055, 12935080325729570654, 7141179953334974231, 12108695660851890438),
    (42, 1): (9129838320742759465, 12218869808946288115, 15663327829693113588, 5536025689415825215),
}


def parse_rolls(text: str) -> list[tuple[int, int]]:
    return [(int(p[0]), int(p[1])) for p in text.split()]


@pytest.mark.parametrize(("seed", "stream"), list(FIXED))
def test_fixed_sequences(seed: int, stream: int) -> None:
    rolls, dice = FIXED[seed, stream]
    d = Dice(seed, stream)
    assert [d.roll() for _ in range(20)] == parse_rolls(rolls)
    d = Dice(seed, stream)
    assert [d.die() for _ in range(20)] == [int(c) for c in dice]
    assert Dice(seed, stream).rolls(20).tolist() == [list(r) for r in parse_rolls(rolls)]


@pytest.mark.parametrize(("seed", "stream"), list(FIXED))
def test_the_reference_gives_the_fixed_sequences(seed: int, stream: int) -> None:
    """The fixed values follow from the documented algorithm, not from the code."""
    rolls, dice = FIXED[seed, stream]
    ref = Reference(seed, stream)
    assert [ref.roll() for _ in range(20)] == parse_rolls(rolls)
    ref = Reference(seed, stream)
    assert [ref.die() for _ in range(20)] == [int(c) for c in dice]


def test_fixed_states_after_seeding() -> None:
    for (seed, stream), words in FIXED_STATES.items():
        assert Dice(seed, stream).getstate() == (seed, stream, words)
        assert tuple(Reference(seed, stream).s) == words


def test_rolls_and_dice_share_one_stream_in_order() -> None:
    d = Dice(7, 3)
    assert [d.die(), d.die(), d.roll(), d.roll(), d.die(), d.roll()] == [3, 2, (6, 5), (1, 4), 3, (4, 5)]


def test_rejected_draws_are_drawn_again() -> None:
    """From the state (1, 2, 3, 4) the second output is 0, whose product with
    36 (or 6) has a low word below 2**64 mod n: Lemire's method draws again."""
    d = Dice()
    d.setstate((0, 0, (1, 2, 3, 4)))
    assert [d.roll() for _ in range(4)] == [(1, 1), (1, 1), (1, 3), (1, 3)]
    ref = Reference(words=(1, 2, 3, 4))
    assert [ref.roll() for _ in range(4)] == [(1, 1), (1, 1), (1, 3), (1, 3)]
    assert ref.draws == 5 and d.getstate()[2] == tuple(ref.s)
    d.setstate((0, 0, (1, 2, 3, 4)))
    assert [d.die() for _ in range(4)] == [1, 1, 1, 1]
    assert d.getstate()[2] == tuple(ref.s)
    d.setstate((0, 0, (1, 2, 3, 4)))
    assert d.rolls(4).tolist() == [[1, 1], [1, 1], [1, 3], [1, 3]]


SEEDS = [(0, 0), (1, 0), (0, 1), (123456789, 987654321), (2**63, 5), (2**64 - 1, 0), (0xDEADBEEF, 2**40)]


@pytest.mark.parametrize(("seed", "stream"), SEEDS)
def test_matches_the_reference(seed: int, stream: int) -> None:
    d, ref = Dice(seed, stream), Reference(seed, stream)
    assert d.getstate()[2] == tuple(ref.s)
    for i in range(600):
        if i % 7 == 3:
            assert d.die() == ref.die()
        else:
            assert d.roll() == ref.roll()
    assert d.getstate()[2] == tuple(ref.s)
    expected = [ref.roll() for _ in range(1000)]
    assert d.rolls(1000).tolist() == [list(r) for r in expected]
    assert d.getstate()[2] == tuple(ref.s)


def test_rolls_in_bulk_equal_single_rolls() -> None:
    a, b = Dice(99, 4), Dice(99, 4)
    bulk = a.rolls(50_000)  # over the size at which rolls() releases the GIL
    assert bulk.dtype == np.uint8 and bulk.shape == (50_000, 2) and bulk.flags.c_contiguous
    assert bulk[:300].tolist() == [list(b.roll()) for _ in range(300)]
    b.rolls(50_000 - 300)
    assert a == b and a.roll() == b.roll()


# --- uniformity and independence ----------------------------------------------


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / counts.size
    return float(((counts - expected) ** 2 / expected).sum())


def roll_index(rolls: np.ndarray) -> np.ndarray:
    return (rolls[:, 0].astype(np.int64) - 1) * 6 + rolls[:, 1] - 1


def test_rolls_are_uniform() -> None:
    """360,000 rolls over the 36 ordered outcomes: 35 degrees of freedom,
    whose chi-square has mean 35 and exceeds 80 with probability about 1e-5."""
    rolls = Dice(20240611).rolls(360_000)
    assert rolls.min() == 1 and rolls.max() == 6
    counts = np.bincount(roll_index(rolls), minlength=36)
    assert chi_square(counts) < 80, counts
    doubles = int((rolls[:, 0] == rolls[:, 1]).sum())
    assert abs(doubles - 60_000) < 1_000  # 1/6 of the rolls, sd about 224


def test_dice_are_uniform() -> None:
    d = Dice(7)
    counts = np.bincount([d.die() for _ in range(60_000)], minlength=7)[1:]
    assert chi_square(counts) < 30, counts  # 5 degrees of freedom


def test_the_first_rolls_of_many_streams_are_uniform() -> None:
    """A rollout reads only the start of each game's stream: the first roll of
    36,000 streams of one seed is uniform too."""
    firsts = np.array([Dice(5, i).roll() for i in range(36_000)], dtype=np.uint8)
    assert chi_square(np.bincount(roll_index(firsts), minlength=36)) < 80


@pytest.mark.parametrize(("a", "b"), [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((42, 7), (42, 8))])
def test_neighbouring_streams_are_independent(a: tuple[int, int], b: tuple[int, int]) -> None:
    """The pairs (roll of stream a, roll of stream b) at the same index fill the
    36 x 36 table evenly: 1295 degrees of freedom (sd about 51), 129,600 pairs."""
    x = roll_index(Dice(*a).rolls(129_600))
    y = roll_index(Dice(*b).rolls(129_600))
    table = np.bincount(x * 36 + y, minlength=36 * 36)
    assert chi_square(table) < 1295 + 6 * 51
    assert abs(int((x == y).sum()) - 3_600) < 400  # equal rolls: 1/36 of them


def test_streams_of_one_seed_start_apart() -> None:
    starts = {Dice(11, i).getstate()[2] for i in range(5_000)}
    assert len(starts) == 5_000
    openings = {Dice(11, i).rolls(16).tobytes() for i in range(5_000)}
    assert len(openings) == 5_000  # 16 rolls: 36**16 possible sequences


# --- the Python API -------------------------------------------------------------


def test_seeds_and_streams() -> None:
    d = Dice(5, stream=2)
    assert (d.seed, d.stream) == (5, 2)
    assert Dice(np.uint64(2**64 - 1), np.int8(3)).getstate() == Dice(2**64 - 1, 3).getstate()
    assert Dice(True).getstate() == Dice(1).getstate()
    assert Dice(3) == Dice(3, 0) != Dice(3, 1)


def test_a_fresh_seed_comes_from_the_os_and_replays() -> None:
    a, b = Dice(), Dice(stream=4)
    assert a.seed != b.seed  # 2**-64 chance of a false failure
    assert 0 <= a.seed < 2**64 and b.stream == 4
    replay = Dice(b.seed, b.stream)
    assert [b.roll() for _ in range(10)] == [replay.roll() for _ in range(10)]


@pytest.mark.parametrize("bad", [-1, 2**64, -(2**70), 2**100])
def test_out_of_range_seeds_and_streams(bad: int) -> None:
    with pytest.raises(InvalidSeedError, match=r"seed must be an integer from 0 to 2\*\*64 - 1, not"):
        Dice(bad)
    with pytest.raises(ValueError, match=r"stream must be an integer from 0 to 2\*\*64 - 1"):
        Dice(0, bad)


@pytest.mark.parametrize("bad", [1.0, "1", b"1", [1]])
def test_seeds_must_be_integers(bad: object) -> None:
    with pytest.raises(TypeError, match="seed must be an integer"):
        Dice(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="stream must be an integer"):
        Dice(1, bad)  # type: ignore[arg-type]


def test_a_roll_can_be_taken_back() -> None:
    d = Dice(2024)
    d.rolls(17)
    before = d.getstate()
    first = [d.roll(), d.die(), d.roll()]
    d.setstate(before)
    assert [d.roll(), d.die(), d.roll()] == first
    other = Dice(1, 1)
    other.setstate(before)  # a state moves between Dice, seed and stream with it
    assert (other.seed, other.stream) == (2024, 0)
    assert [other.roll(), other.die(), other.roll()] == first


def test_setstate_rejects_bad_states() -> None:
    d = Dice(1)
    good = d.getstate()
    with pytest.raises(InvalidSeedError, match="all zero"):
        d.setstate((1, 0, (0, 0, 0, 0)))
    with pytest.raises(InvalidSeedError, match="four 64-bit words"):
        d.setstate((1, 0, (1, 2, 3)))  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError, match="a dice state is"):
        d.setstate((1, 2))  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError, match="a dice state is"):
        d.setstate(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError, match="a state word must be an integer from 0 to 2"):
        d.setstate((1, 0, (1, 2, 3, 2**64)))
    with pytest.raises(InvalidSeedError, match="seed must be"):
        d.setstate((-1, 0, (1, 2, 3, 4)))
    with pytest.raises(TypeError):
        d.setstate((1, 0, (1, 2, 3, 4.0)))  # type: ignore[arg-type]
    assert d.getstate() == good  # a rejected state changes nothing


def test_copy_pickle_and_equality() -> None:
    d = Dice(77, 5)
    d.rolls(3)
    for other in (d.copy(), copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert type(other) is Dice and other == d and other is not d
        assert (other.seed, other.stream) == (77, 5)
        assert other.rolls(100).tolist() == d.copy().rolls(100).tolist()
        assert other != d  # moved on independently
    assert d != (77, 5)
    with pytest.raises(TypeError, match="unhashable"):
        hash(d)


def test_repr() -> None:
    assert repr(Dice(12, 3)) == "Dice(seed=12, stream=3)"
    d = eval(repr(Dice(2**64 - 1)), {"Dice": Dice})
    assert d == Dice(2**64 - 1)


def test_rolls_edge_cases() -> None:
    d = Dice(1)
    empty = d.rolls(0)
    assert empty.shape == (0, 2) and empty.dtype == np.uint8
    assert d == Dice(1)  # no draw made
    with pytest.raises(ValueError, match="cannot be negative"):
        d.rolls(-1)
    with pytest.raises(TypeError):
        d.rolls(2.5)  # type: ignore[arg-type]


def test_rolls_feed_batch_generation() -> None:
    rolls = Dice(3).rolls(len(ROLLS))
    boards = np.stack([bgcore.Position.initial().to_array()] * len(ROLLS))
    counts = batch.count(boards, rolls)
    pos = bgcore.Position.initial()
    assert counts.tolist() == [len(pos.legal_moves(tuple(r))) for r in rolls.tolist()]


def test_rolls_are_in_the_rules_rolls() -> None:
    d = Dice(8)
    seen = {tuple(sorted(d.roll(), reverse=True)) for _ in range(2_000)}
    assert seen == set(ROLLS)


# --- the C-level API, from another Cython module ------------------------------

CYTHON_GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guides" / "cython.md"

# Test-only functions, appended to the Cython guide's example of bgcore.dice's C API.
C_TESTS = """

from libc.stdint cimport uint8_t
from bgcore.dice cimport bg_dice_next64, bg_dice_below, bg_dice_rolls, BG_DICE_API_VERSION

def api_version():
    return BG_DICE_API_VERSION

def raw(words, int n):
    cdef bg_dice d
    for k in range(4):
        d.s[k] = words[k]
    return [bg_dice_next64(&d) for _ in range(n)]

def seeded(uint64_t seed, uint64_t stream, int n):
    cdef bg_dice d
    cdef int a, b
    bg_dice_seed(&d, seed, stream)
    words = [d.s[0], d.s[1], d.s[2], d.s[3]]
    out = []
    for k in range(n):
        if k % 5 == 4:
            out.append(bg_dice_die(&d))
        else:
            bg_dice_roll(&d, &a, &b)
            out.append((a, b))
    return words, out

def bulk(uint64_t seed, uint64_t stream, size_t n):
    cdef bg_dice d
    bg_dice_seed(&d, seed, stream)
    buf = bytearray(2 * n)
    cdef uint8_t[::1] view = buf
    with nogil:
        bg_dice_rolls(&d, &view[0], n)
    return bytes(buf), bg_dice_below(&d, 1000)

def roll_python_dice(Dice dice, int n):
    cdef int a, b
    out = []
    for _ in range(n):
        bg_dice_roll(&dice.state, &a, &b)
        out.append((a, b))
    return out
"""

SETUP = """
from setuptools import Extension, setup
from Cython.Build import cythonize
setup(name={name!r}, ext_modules=cythonize(
    [Extension({name!r}, [{name!r} + ".pyx"])], include_path=[{include!r}], language_level=3))
"""


def guide_dice_example() -> str:
    blocks = [b.split("```", 1)[0] for b in CYTHON_GUIDE.read_text(encoding="utf-8").split("```cython\n")[1:]]
    (source,) = [b for b in blocks if "bgcore.dice cimport" in b]
    return source


@pytest.fixture(scope="module")
def cdice(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("Cython")
    folder: Path = tmp_path_factory.mktemp("cdice")
    name = "bg_cdice"
    (folder / f"{name}.pyx").write_text(guide_dice_example() + C_TESTS)
    (folder / "setup.py").write_text(SETUP.format(name=name, include=bgcore.get_include()))
    proc = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"], cwd=folder, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


def test_get_include_holds_the_dice_pxd() -> None:
    assert (Path(bgcore.get_include()) / "bgcore" / "dice.pxd").is_file()


def test_c_api_next64_is_xoshiro256starstar(cdice) -> None:
    assert cdice.api_version() == 1
    assert cdice.raw([1, 2, 3, 4], 10) == XOSHIRO_1234


def test_c_api_matches_the_python_dice(cdice) -> None:
    for seed, stream in [*SEEDS, *FIXED]:
        words, out = cdice.seeded(seed, stream, 200)
        d = Dice(seed, stream)
        assert tuple(words) == d.getstate()[2]
        assert out == [d.die() if k % 5 == 4 else d.roll() for k in range(200)]
        data, after = cdice.bulk(seed, stream, 3000)
        d = Dice(seed, stream)
        assert data == d.rolls(3000).tobytes()
        ref = Reference(seed, stream)
        for _ in range(3000):
            ref.roll()
        assert after == ref.below(1000)


def test_c_api_rolls_a_python_dice_in_place(cdice) -> None:
    d = Dice(31, 2)
    twin = d.copy()
    assert cdice.roll_python_dice(d, 50) == [twin.roll() for _ in range(50)]
    assert d == twin


def test_guide_dice_example(cdice) -> None:
    games, per_game = 500, 40
    expected = 0
    for g in range(games):
        d = Dice(2024, g)
        expected += sum(a == b for a, b in (d.roll() for _ in range(per_game)))
    assert cdice.doubles(2024, games, per_game) == expected
    d, twin = Dice(5), Dice(5)
    a, b = cdice.opening(d)
    x = y = 0
    while x == y:
        x, y = twin.die(), twin.die()
    assert (a, b) == (x, y) and a != b and d == twin
