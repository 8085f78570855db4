"""The spacing between calls to one host, kept for the whole process: arXiv asks every client
for one call in 3 s, whichever of its sources, pages or lookups makes it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class _Gate:
    """One host's last call start; its lock lets one caller at a time wait its turn."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last: float | None = None


_GATES: dict[str, _Gate] = {}
_GATES_LOCK = threading.Lock()


def space_out(host: str, interval: float, wait: Callable[[float], None]) -> None:
    """Wait (with `wait`) until `interval` seconds have passed since the start of the last
    spaced call to `host` by any client of this process, then count this call as started.
    One spacing per client had let a second source and the `like` lookup call arXiv at once."""
    if interval <= 0:
        return  # a source that asks no spacing neither waits nor makes others wait
    with _GATES_LOCK:
        gate = _GATES.setdefault(host, _Gate())
    # Held while waiting: a second thread's turn starts from this call's start, not before it.
    with gate.lock:
        if gate.last is not None:
            left = gate.last + interval - time.monotonic()
            if left > 0:
                wait(left)
        gate.last = time.monotonic()
