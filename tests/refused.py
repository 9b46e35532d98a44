"""Hostile input refused fast: a call that must fail with a given error, and soon.

:func:`refused` runs the call on a daemon thread and waits at most ``within``
seconds for it: a call that hangs (a huge count it starts counting through)
fails the test instead of hanging the suite, and a call that fails slowly
(after playing every game, say) fails it too.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import pytest

#: Seconds a refusal may take: bad input is found before any work, in microseconds; the
#: margin is for a busy machine.
WITHIN = 1.0


def refused(call: Callable[[], object], error: type[BaseException], match: str, *, within: float = WITHIN) -> str:
    """Assert that ``call()`` raises ``error`` (a message matching the regex
    ``match``) within ``within`` seconds; return the message."""
    outcome: list[BaseException | object] = []

    def target() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the test thread
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    start = time.perf_counter()
    thread.start()
    thread.join(within)
    elapsed = time.perf_counter() - start
    if thread.is_alive():
        pytest.fail(f"the call was still running after {within} s instead of raising {error.__name__}")
    (result,) = outcome
    if not isinstance(result, BaseException):
        pytest.fail(f"the call returned {result!r} instead of raising {error.__name__}")
    if not isinstance(result, error):
        raise AssertionError(f"expected {error.__name__}, got {type(result).__name__}: {result}") from result
    message = str(result)
    assert re.search(match, message), f"{message!r} does not match {match!r}"
    assert elapsed < within, f"refused after {elapsed:.2f} s (at most {within} s)"
    return message
