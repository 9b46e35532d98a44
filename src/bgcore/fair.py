"""Provably fair dice for servers: the server commits to a secret seed before
the game, rolls from it, and reveals it afterwards so that anyone can check
every roll.

The scheme (``SCHEME``), precise enough to reimplement
------------------------------------------------------
1. The server picks a secret *server seed* S, a byte string (a ``str`` stands
   for its UTF-8 encoding; by default 32 bytes from ``secrets``), and
   publishes the *commitment* C = SHA-256(S) as 64 lowercase hexadecimal
   digits before the game.  S must be secret and unguessable: anyone who can
   guess it from C can predict every roll.
2. The player gives a *client seed* K, a byte string (``str``: UTF-8; it may be
   empty), after seeing C, so that the server cannot have chosen S to suit K.
3. Draw number n = 0, 1, 2, ... (the *nonce*: every roll and every single die
   takes the next one) reads the bytes of the blocks
   B_0 = HMAC-SHA256(key=S, msg=K ":" n) and, only if those 32 bytes run out,
   B_j = HMAC-SHA256(key=S, msg=K ":" n ":" j) for j = 1, 2, ..., where
   ":" is the byte 0x3A and n, j are written in decimal ASCII digits without
   leading zeros.  The bytes are read in order, B_0's first.
4. A roll of two dice takes the first byte b below 252 = 7 * 36 (bytes 252 to
   255 are skipped) and sets v = b mod 36, die1 = v div 6 + 1,
   die2 = v mod 6 + 1.  A single die (the opening roll) takes the first byte
   b below 252 = 42 * 6 and is b mod 6 + 1.  Each of the 252 accepted bytes
   is equally likely, so each ordered roll has probability exactly 1/36 and
   each face 1/6: no modulo bias.
5. After the game the server reveals S.  Anyone checks SHA-256(S) = C and
   recomputes every roll from S, K and its nonce (:func:`verify`).

>>> from bgcore import ProvablyFairDice, verify
>>> dice = ProvablyFairDice(server_seed=bytes(range(32)), client_seed="alice")
>>> dice.commitment          # published before the game
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> log = [dice.die(), dice.die()]   # the opening roll: one die each
>>> log += [dice.roll(), dice.roll()]
>>> log, dice.nonce
([4, 6, (4, 5), (2, 2)], 4)
>>> seed = dice.reveal()     # after the game
>>> verify(dice.commitment, seed, "alice", log)
True
>>> verify(dice.commitment, seed, "alice", [4, 6, (4, 5), (6, 6)])   # a changed roll
False
>>> dice.roll()
Traceback (most recent call last):
...
RuntimeError: the server seed was revealed: its rolls are predictable now; use new dice
"""

from __future__ import annotations

import hashlib
import hmac
import operator
import secrets
import threading
from collections.abc import Iterable, Iterator
from typing import Any, SupportsIndex, TypeAlias

from .errors import InvalidSeedError

__all__ = ["ProvablyFairDice", "verify", "commit", "roll_at", "die_at", "SCHEME"]

#: The name of the scheme described above; a different scheme would get a new name.
SCHEME = "bgcore-fair-1"

#: What a server or client seed may be given as: bytes, or a str for its UTF-8 encoding.
SeedBytes: TypeAlias = bytes | bytearray | memoryview | str

_ACCEPT = 252  # the largest multiple of both 36 and 6 that fits in a byte


def _as_bytes(value: SeedBytes, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes or str, not {type(value).__name__}")


def _as_nonce(value: object) -> int:
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a nonce must be an integer, not {type(value).__name__}") from None
    if n < 0:
        raise ValueError(f"a nonce cannot be negative ({n})")
    return n


def commit(server_seed: SeedBytes) -> str:
    """The commitment to a server seed: SHA-256 of its bytes, in lowercase hex."""
    return hashlib.sha256(_as_bytes(server_seed, "server_seed")).hexdigest()


def _stream(key: bytes, client: bytes, nonce: int) -> Iterator[int]:
    """The bytes that draw number ``nonce`` reads: B_0, then B_1, B_2, ..."""
    message = client + b":" + str(nonce).encode("ascii")
    yield from hmac.digest(key, message, "sha256")
    block = 1
    while True:
        yield from hmac.digest(key, message + b":" + str(block).encode("ascii"), "sha256")
        block += 1


def _value(key: bytes, client: bytes, nonce: int, n: int) -> int:
    """A value in [0, n) for n dividing 252: the first byte below 252, mod n."""
    for b in _stream(key, client, nonce):
        if b < _ACCEPT:
            return b % n
    raise AssertionError("unreachable: the stream of bytes never ends")  # pragma: no cover


def roll_at(server_seed: SeedBytes, client_seed: SeedBytes, nonce: SupportsIndex) -> tuple[int, int]:
    """The roll of two dice that draw number ``nonce`` gives (step 4 above)."""
    v = _value(_as_bytes(server_seed, "server_seed"), _as_bytes(client_seed, "client_seed"), _as_nonce(nonce), 36)
    return v // 6 + 1, v % 6 + 1


def die_at(server_seed: SeedBytes, client_seed: SeedBytes, nonce: SupportsIndex) -> int:
    """The single die that draw number ``nonce`` gives (step 4 above)."""
    return _value(_as_bytes(server_seed, "server_seed"), _as_bytes(client_seed, "client_seed"), _as_nonce(nonce), 6) + 1


class ProvablyFairDice:
    """Dice a server can prove fair: committed to before the game, revealed after.

    ``ProvablyFairDice(server_seed=None, client_seed="", nonce=0)`` rolls by
    the scheme in this module's docstring.  Publish ``commitment`` before the
    game; ``roll()`` and ``die()`` work as :class:`bgcore.Dice`'s (each takes
    the next nonce); ``reveal()`` gives the server seed after the game, when
    anyone can check the log with :func:`verify`.  Once revealed, the dice
    refuse to roll: their rolls would be predictable.

    The player's client seed may come after the commitment is published: set
    ``client_seed`` then, before the first draw (later it cannot change).

    ``nonce`` is the number of draws made so far (counting from the ``nonce``
    given, which lets a server pick a game up again from its stored seeds).
    Rolls may be taken from several threads: each draw gets its own nonce.
    """

    def __init__(self, server_seed: SeedBytes | None = None, client_seed: SeedBytes = "", *, nonce: SupportsIndex = 0):
        key = secrets.token_bytes(32) if server_seed is None else _as_bytes(server_seed, "server_seed")
        if not key:
            raise InvalidSeedError("the server seed cannot be empty (the default is 32 random bytes)")
        self._key = key
        self._client = _as_bytes(client_seed, "client_seed")
        self._nonce = self._first = _as_nonce(nonce)
        self._commitment = hashlib.sha256(key).hexdigest()
        self._revealed = False
        self._lock = threading.Lock()

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed in lowercase hex: publish it before the game."""
        return self._commitment

    @property
    def client_seed(self) -> bytes:
        """The client seed, as bytes; it can be set until the first draw."""
        return self._client

    @client_seed.setter
    def client_seed(self, value: SeedBytes) -> None:
        client = _as_bytes(value, "client_seed")
        with self._lock:
            if self._nonce != self._first or self._revealed:
                raise RuntimeError("the client seed cannot change once the dice have rolled")
            self._client = client

    @property
    def nonce(self) -> int:
        """The nonce of the next draw: the draws made so far (from a start of 0)."""
        return self._nonce

    @property
    def revealed(self) -> bool:
        """Whether ``reveal()`` has given away the server seed."""
        return self._revealed

    def _next_nonce(self) -> int:
        with self._lock:
            if self._revealed:
                raise RuntimeError("the server seed was revealed: its rolls are predictable now; use new dice")
            n = self._nonce
            self._nonce += 1
        return n

    def roll(self) -> tuple[int, int]:
        """The next roll: ``(die1, die2)``, two dice 1-6."""
        v = _value(self._key, self._client, self._next_nonce(), 36)
        return v // 6 + 1, v % 6 + 1

    def die(self) -> int:
        """The next single die, 1-6 (for the opening roll)."""
        return _value(self._key, self._client, self._next_nonce(), 6) + 1

    def reveal(self) -> bytes:
        """The server seed, to publish after the game; the dice roll no more."""
        with self._lock:
            self._revealed = True
        return self._key

    def __repr__(self) -> str:
        return (
            f"ProvablyFairDice(commitment={self._commitment!r}, client_seed={self._client!r}, "
            f"nonce={self._nonce}, revealed={self._revealed})"
        )


def _expected(entry: Any) -> int | tuple[int, int] | None:
    """A log entry as a die (an int) or a roll (a pair of ints); None for anything else."""
    try:
        return operator.index(entry)
    except TypeError:
        pass
    if isinstance(entry, (str, bytes, bytearray)):
        return None
    try:
        die1, die2 = entry
        return operator.index(die1), operator.index(die2)
    except (TypeError, ValueError):
        return None


def verify(
    commitment: str,
    server_seed: SeedBytes,
    client_seed: SeedBytes,
    rolls: Iterable[object],
    *,
    first_nonce: SupportsIndex = 0,
) -> bool:
    """Whether a game's log is honest: ``server_seed`` hashes to ``commitment``
    and ``rolls`` are the draws it gives from ``client_seed``.

    ``rolls`` lists the draws in the order made, from nonce ``first_nonce``:
    a pair ``(die1, die2)`` (a tuple, a list or any pair of ints) for a roll,
    a lone int for a single die; any other entry fails the check.  Anyone can
    run this after the server has revealed its seed.
    """
    key = _as_bytes(server_seed, "server_seed")
    client = _as_bytes(client_seed, "client_seed")
    nonce = _as_nonce(first_nonce)
    if not isinstance(commitment, str):
        raise TypeError(f"the commitment is a hex string, not {type(commitment).__name__}")
    given = commitment.strip().lower().encode("utf-8")
    if not hmac.compare_digest(given, hashlib.sha256(key).hexdigest().encode("ascii")):
        return False
    for i, entry in enumerate(rolls):
        expected = _expected(entry)
        if isinstance(expected, int):
            if expected != _value(key, client, nonce + i, 6) + 1:
                return False
        elif expected is None:
            return False
        else:
            v = _value(key, client, nonce + i, 36)
            if expected != (v // 6 + 1, v % 6 + 1):
                return False
    return True
