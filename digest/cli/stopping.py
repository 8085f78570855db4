"""SIGTERM for the commands that deliver once and end (`run`, `retry`): systemd, `timeout`, docker
stop and a shutdown send it. What is begun is recorded, the message on the wire is finished, the
rest is left pending for the next run; the command says so in one line and exits 143."""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator

from digest.models import deadline

log = logging.getLogger("digest")

TERMINATED = 143  # 128 + SIGTERM, as a shell reports a command a SIGTERM ended


@contextlib.contextmanager
def on_sigterm() -> Iterator[threading.Event]:
    """The stop flag a SIGTERM sets while the block runs; the signal's handler is put back after.
    A source's read in flight ends at once (a feed dripping a byte a second had held a stopped
    run five minutes); a delivery's post is not cut: Slack had posted what the next run then
    called dead, "may be missing"."""
    stopped = threading.Event()
    main = threading.current_thread() is threading.main_thread()  # only it may take signals
    previous = signal.signal(signal.SIGTERM, deadline.stopper(stopped)) if main else None
    try:
        yield stopped
    finally:
        deadline.resume()
        if main:
            signal.signal(signal.SIGTERM, previous)


def terminated(what: str) -> int:
    """The one line a command stopped by SIGTERM says, and its exit code."""
    log.warning("terminated (SIGTERM): %s", what)
    return TERMINATED
