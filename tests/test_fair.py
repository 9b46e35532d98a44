"""bgcore.fair: provably fair dice, against known answers and an independent
implementation of the scheme in its docstring."""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

import bgcore
from bgcore import InvalidSeedError, ProvablyFairDice, fair, verify
from bgcore.fair import commit, die_at, roll_at

# --- an independent implementation of the scheme ------------------------------


def blocks(server: bytes, client: bytes, nonce: int) -> Iterator[bytes]:
    """B_0 = HMAC-SHA256(S, K ":" n), then B_j = HMAC-SHA256(S, K ":" n ":" j)."""
    message = client + b":" + str(nonce).encode("ascii")
    yield hmac.new(server, message, hashlib.sha256).digest()
    j = 1
    while True:
        yield hmac.new(server, message + b":" + str(j).encode("ascii"), hashlib.sha256).digest()
        j += 1


def ref_value(server: bytes, client: bytes, nonce: int, n: int) -> int:
    for block in blocks(server, client, nonce):
        for b in block:
            if b < 252:
                return b % n
    raise AssertionError  # pragma: no cover


def ref_roll(server: bytes, client: bytes, nonce: int) -> tuple[int, int]:
    v = ref_value(server, client, nonce, 36)
    return v // 6 + 1, v % 6 + 1


def ref_die(server: bytes, client: bytes, nonce: int) -> int:
    return ref_value(server, client, nonce, 6) + 1


# --- known answers --------------------------------------------------------------

SEED1, CLIENT1 = b"bgcore-fair-test-server-seed-001", b"player-1"
SEED2, CLIENT2 = "correct horse battery staple", ""

# Draws 0..11 with a die at nonces 0, 4 and 8 and rolls elsewhere.
KNOWN = [
    (
        SEED1,
        CLIENT1,
        "6dc8de37c48ff88e5d71c8cdeba7702df95e175ddb27831b66a14d14caf9a6e0",
        [1, (2, 3), (3, 3), (1, 3), 2, (6, 4), (2, 2), (2, 6), 3, (4, 4), (6, 4), (1, 1)],
    ),
    (
        SEED2,
        CLIENT2,
        "c4bbcb1fbec99d65bf59d85c8cb62ee2db963f0fe106f483d9afa73bd4e39a8a",
        [2, (5, 6), (3, 1), (3, 2), 1, (6, 1), (5, 4), (6, 3), 4, (1, 1), (6, 4), (1, 5)],
    ),
]


@pytest.mark.parametrize(("server", "client", "commitment", "draws"), KNOWN)
def test_known_answers(server: bytes | str, client: bytes | str, commitment: str, draws: list) -> None:
    dice = ProvablyFairDice(server, client)
    assert dice.commitment == commitment == commit(server)
    got = [dice.die() if n % 4 == 0 else dice.roll() for n in range(12)]
    assert got == draws
    assert dice.nonce == 12
    # The same answers from hashlib and hmac directly, by the scheme's words.
    key = server.encode() if isinstance(server, str) else server
    assert hashlib.sha256(key).hexdigest() == commitment
    expected = [ref_die(key, client.encode() if isinstance(client, str) else client, n) for n in range(0, 12, 4)]
    assert [draws[n] for n in range(0, 12, 4)] == expected
    assert verify(commitment, server, client, draws)


def test_a_skipped_byte_at_a_known_nonce() -> None:
    """At nonce 17 of SEED1/CLIENT1, B_0 starts ff fd 9e: 255 and 253 are
    skipped and 158 = 4 * 36 + 14 gives v = 14, the roll (3, 3)."""
    first = hmac.new(SEED1, CLIENT1 + b":17", hashlib.sha256).digest()
    assert first[:3] == bytes([0xFF, 0xFD, 0x9E])
    assert roll_at(SEED1, CLIENT1, 17) == (3, 3)
    assert die_at(SEED1, CLIENT1, 17) == 158 % 6 + 1 == 3
    dice = ProvablyFairDice(SEED1, CLIENT1, nonce=17)
    assert dice.roll() == (3, 3) and dice.nonce == 18


def test_the_byte_stream_refills_with_a_counter() -> None:
    stream = fair._stream(SEED1, CLIENT1, 5)
    got = bytes(next(stream) for _ in range(32 * 3 + 1))
    b0 = hmac.new(SEED1, b"player-1:5", hashlib.sha256).digest()
    b1 = hmac.new(SEED1, b"player-1:5:1", hashlib.sha256).digest()
    b2 = hmac.new(SEED1, b"player-1:5:2", hashlib.sha256).digest()
    b3 = hmac.new(SEED1, b"player-1:5:3", hashlib.sha256).digest()
    assert got == b0 + b1 + b2 + b3[:1]


def test_rejection_reads_on_into_the_next_block(monkeypatch: pytest.MonkeyPatch) -> None:
    """32 bytes of 252-255 (probability 2**-192) and the draw goes on in B_1."""
    monkeypatch.setattr(fair, "_stream", lambda key, client, nonce: iter([255, 252, 253, 254] * 8 + [251, 0]))
    assert roll_at(b"s", b"", 0) == (6, 6)  # 251 % 36 = 35
    assert die_at(b"s", b"", 0) == 6  # 251 % 6 = 5


@pytest.mark.parametrize("n", [36, 6])
def test_every_outcome_has_exactly_seven_or_42_bytes(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Over the 256 values of the first byte, the 4 largest draw again and the
    252 others spread evenly: no modulo bias."""
    outcomes: Counter[int] = Counter()
    for first in range(256):
        monkeypatch.setattr(fair, "_stream", lambda key, client, nonce, first=first: iter([first, 0]))
        if first >= 252:
            assert fair._value(b"s", b"", 0, n) == 0  # the next byte was read
        else:
            outcomes[fair._value(b"s", b"", 0, n)] += 1
    assert sorted(outcomes) == list(range(n)) and set(outcomes.values()) == {252 // n}


def test_matches_the_independent_implementation() -> None:
    for server, client in [(SEED1, CLIENT1), (b"\x00" * 32, b"x"), (bytes(range(64)), "ünïcode ✓".encode())]:
        for nonce in range(300):
            assert roll_at(server, client, nonce) == ref_roll(server, client, nonce)
            assert die_at(server, client, nonce) == ref_die(server, client, nonce)


def test_str_seeds_are_utf8() -> None:
    assert roll_at("ß", "ü", 3) == roll_at("ß".encode(), "ü".encode(), 3)
    assert ProvablyFairDice("ß").commitment == hashlib.sha256("ß".encode()).hexdigest()
    assert ProvablyFairDice(bytearray(b"abc"), memoryview(b"k")).client_seed == b"k"


# --- uniformity -------------------------------------------------------------------


def test_rolls_are_uniform() -> None:
    """72,000 rolls over 36 outcomes (35 degrees of freedom: mean 35, and
    above 80 with probability about 1e-5)."""
    dice = ProvablyFairDice(SEED1, CLIENT1)
    counts = Counter(dice.roll() for _ in range(72_000))
    table = np.array([counts[a, b] for a in range(1, 7) for b in range(1, 7)])
    chi2 = float(((table - 2_000) ** 2 / 2_000).sum())
    assert chi2 < 80, table


def test_dice_are_uniform() -> None:
    dice = ProvablyFairDice(SEED2, "die")
    counts = Counter(dice.die() for _ in range(30_000))
    table = np.array([counts[k] for k in range(1, 7)])
    assert float(((table - 5_000) ** 2 / 5_000).sum()) < 30, table


# --- verify ---------------------------------------------------------------------------


@pytest.fixture
def game() -> tuple[str, bytes, str, list]:
    dice = ProvablyFairDice(client_seed="alice")
    log: list = [dice.die(), dice.die()] + [dice.roll() for _ in range(30)]
    return dice.commitment, dice.reveal(), "alice", log


def test_verify_accepts_an_honest_log(game: tuple[str, bytes, str, list]) -> None:
    commitment, server, client, log = game
    assert verify(commitment, server, client, log)
    assert verify(commitment.upper(), server, client.encode(), [list(r) if isinstance(r, tuple) else r for r in log])
    assert verify(commitment, server, client, [np.array(r) if isinstance(r, tuple) else np.int64(r) for r in log])
    assert verify(commitment, server, client, log[5:], first_nonce=5)
    assert verify(commitment, server, client, [])  # the commitment alone


def test_verify_rejects_a_changed_roll(game: tuple[str, bytes, str, list]) -> None:
    commitment, server, client, log = game
    for i, entry in enumerate(log):
        changed = 7 - entry if isinstance(entry, int) else (entry[0] % 6 + 1, entry[1])
        assert not verify(commitment, server, client, [*log[:i], changed, *log[i + 1 :]])
    assert not verify(commitment, server, client, [*log[:2], *log[3:]])  # a roll left out
    d2 = next(r for r in log[3:] if r != log[2])
    assert not verify(commitment, server, client, [log[0], log[1], d2, log[2]])  # swapped
    assert not verify(commitment, server, client, log, first_nonce=1)


def test_verify_rejects_malformed_entries(game: tuple[str, bytes, str, list]) -> None:
    commitment, server, client, log = game
    for bad in [(7, 7), (0, 1), (1, 2, 3), "65", b"65", None, 3.0]:
        assert not verify(commitment, server, client, [*log[:2], bad])


def test_verify_rejects_a_changed_seed() -> None:
    dice = ProvablyFairDice(SEED1, CLIENT1)
    log = [dice.roll() for _ in range(20)]
    assert verify(dice.commitment, dice.reveal(), CLIENT1, log)
    other = b"bgcore-fair-test-server-seed-002"
    assert not verify(dice.commitment, other, CLIENT1, log)  # another server seed: another commitment
    assert not verify(commit(other), other, CLIENT1, log)  # honest commitment, other rolls
    assert not verify(dice.commitment, SEED1, b"player-2", log)  # another client seed
    assert not verify(dice.commitment, SEED1 + b"\x00", CLIENT1, log)


def test_verify_rejects_a_wrong_commitment(game: tuple[str, bytes, str, list]) -> None:
    commitment, server, client, log = game
    flipped = ("0" if commitment[0] != "0" else "1") + commitment[1:]
    assert not verify(flipped, server, client, log)
    assert not verify(commitment[:-1], server, client, log)
    assert not verify("", server, client, log)
    assert not verify("é" * 64, server, client, log)
    assert not verify(hashlib.sha256(server + b"x").hexdigest(), server, client, log)
    with pytest.raises(TypeError, match="hex string"):
        verify(bytes.fromhex(commitment), server, client, log)  # type: ignore[arg-type]


# --- the dice object ----------------------------------------------------------------


def test_the_server_seed_is_random_by_default() -> None:
    a, b = ProvablyFairDice(), ProvablyFairDice()
    assert a.commitment != b.commitment
    secret = a.reveal()
    assert len(secret) == 32 and hashlib.sha256(secret).hexdigest() == a.commitment


def test_reveal_ends_the_rolls() -> None:
    dice = ProvablyFairDice(SEED1, CLIENT1)
    dice.roll()
    assert not dice.revealed
    assert dice.reveal() == SEED1 and dice.revealed
    assert dice.reveal() == SEED1
    for draw in (dice.roll, dice.die):
        with pytest.raises(RuntimeError, match="revealed"):
            draw()
    assert dice.nonce == 1


def test_the_client_seed_can_come_after_the_commitment() -> None:
    dice = ProvablyFairDice(SEED1, nonce=3)
    published = dice.commitment
    dice.client_seed = "player-1"  # the player answers the commitment
    dice.client_seed = CLIENT1  # changed again before any draw
    log = [dice.roll(), dice.die()]
    assert verify(published, dice.reveal(), CLIENT1, log, first_nonce=3)
    with pytest.raises(RuntimeError, match="cannot change"):
        dice.client_seed = "late"
    with pytest.raises(TypeError, match="client_seed must be bytes or str"):
        ProvablyFairDice(SEED1).client_seed = 5  # type: ignore[assignment]
    assert dice.client_seed == CLIENT1


def test_the_repr_keeps_the_secret() -> None:
    dice = ProvablyFairDice(SEED1, CLIENT1)
    text = repr(dice)
    assert dice.commitment in text and "player-1" in text and "nonce=0" in text
    assert "seed-001" not in text and SEED1.hex() not in text


def test_bad_arguments() -> None:
    with pytest.raises(InvalidSeedError, match="cannot be empty"):
        ProvablyFairDice(b"")
    with pytest.raises(ValueError, match="cannot be empty"):
        ProvablyFairDice("")
    with pytest.raises(TypeError, match="server_seed must be bytes or str"):
        ProvablyFairDice(12345)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="client_seed must be bytes or str"):
        ProvablyFairDice(SEED1, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot be negative"):
        ProvablyFairDice(SEED1, nonce=-1)
    with pytest.raises(TypeError, match="nonce must be an integer"):
        roll_at(SEED1, CLIENT1, 1.5)  # type: ignore[arg-type]


def test_threads_never_share_a_nonce() -> None:
    dice = ProvablyFairDice(SEED2, "threads")
    results: list[tuple[int, int]] = []
    lock = threading.Lock()

    def work() -> None:
        mine = [dice.roll() for _ in range(500)]
        with lock:
            results.extend(mine)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert dice.nonce == 2_000
    assert Counter(results) == Counter(roll_at(SEED2, "threads", n) for n in range(2_000))


def test_exported_from_bgcore() -> None:
    assert bgcore.ProvablyFairDice is ProvablyFairDice and bgcore.verify is verify
    assert {"Dice", "ProvablyFairDice", "verify", "InvalidSeedError"} <= set(bgcore.__all__)
