"""in_time(): a call stopped by an alarm, for the tests that guard against a blow-up in time
(a regular expression gone quadratic). No speed is measured: the old code took minutes and the
new one well under a second, so only the return of that blow-up rings it."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_time(call: Callable[[], T], seconds: float = 10) -> T:
    """call(), stopped with TimeoutError after `seconds`. An alarm, not a thread's join: a regex
    checks for signals but lets no other thread run until it is done."""

    def expire(*_: object) -> None:
        raise TimeoutError(f"still at it after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
