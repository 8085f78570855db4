"""Connections kept open while the outbox delivers (`with kept():`): a bounded pool of SMTP
connections per relay, shared by the delivery threads and closed when the delivery ends. Outside
it, every send opens and closes its own. (HTTP requests keep none: each one's deadline watches
the connection it opens, transport.py.)
"""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager, suppress

SMTP_CONNECTIONS = 4  # [delivery] smtp_connections: connections to one relay at once
# Relays drop clients that stay quiet (often after 60 s or more) and cap messages per connection
# (100 is a common cap): a connection idle longer, or this used, is closed rather than reused.
IDLE_SECONDS = 30.0
MAX_MESSAGES = 100


class Relay:
    """Open connections to one SMTP relay, at most `size` at once; a borrowed one carries one
    message, then goes back for the next (or is closed, if anything went wrong on it)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.idle: list[tuple[smtplib.SMTP, float, int]] = []  # (connection, since, messages)
        self.used: dict[int, int] = {}  # id(lent connection) -> messages it carried before
        self.active = 0  # connections lent or being opened; with the idle ones, at most size
        self.opened = 0  # connections ever opened (the tests and the benchmark count them)
        self.ready = threading.Condition()

    def take(self, connect: Callable[[], smtplib.SMTP]) -> tuple[smtplib.SMTP, bool]:
        """A connection (an idle one, or one `connect` opens) and whether it carried a message
        before (it may have gone stale)."""
        smtp = self.wait()
        if smtp is not None:
            return smtp, True
        return self.open(connect), False

    def wait(self) -> smtplib.SMTP | None:
        """Wait for the relay's turn: an idle connection (it carried a message before, and may
        have gone stale), or None with a place kept for one that open() makes. The time queued
        here is no part of a message's own deadline."""
        stale: list[smtplib.SMTP] = []
        try:
            with self.ready:
                while True:
                    while self.idle:
                        smtp, since, used = self.idle.pop()
                        if time.monotonic() - since <= IDLE_SECONDS:
                            self.active += 1
                            self.used[id(smtp)] = used
                            return smtp
                        stale.append(smtp)
                    if self.active < self.size:
                        self.active += 1
                        return None
                    self.ready.wait()
        finally:
            for smtp in stale:
                _quit(smtp)

    def open(self, connect: Callable[[], smtplib.SMTP]) -> smtplib.SMTP:
        """A new connection in the place wait() kept (given up if `connect` fails)."""
        try:
            smtp = connect()
        except BaseException:
            self.leave()
            raise
        with self.ready:
            self.opened += 1
            self.used[id(smtp)] = 0
        return smtp

    def leave(self) -> None:
        """Give up a place kept by wait() that holds no connection."""
        with self.ready:
            self.active -= 1
            self.ready.notify()

    def replace(self, smtp: smtplib.SMTP) -> None:
        """A connection found dead (the relay closed it while idle): closed, its place kept for
        a new one from open()."""
        with self.ready:
            self.used.pop(id(smtp), None)
        with suppress(OSError, smtplib.SMTPException):
            smtp.close()

    def give(self, smtp: smtplib.SMTP) -> None:
        """Back after a message it carried: kept for the next, unless it has carried enough."""
        with self.ready:
            self.active -= 1
            used = self.used.pop(id(smtp)) + 1
            keep = used < MAX_MESSAGES
            if keep:
                self.idle.append((smtp, time.monotonic(), used))
            self.ready.notify()
        if not keep:
            _quit(smtp)

    def drop(self, smtp: smtplib.SMTP) -> None:
        """Back after a failure on it: closed, for a fresh one to take its place."""
        with self.ready:
            self.active -= 1
            self.used.pop(id(smtp), None)
            self.ready.notify()
        with suppress(OSError, smtplib.SMTPException):
            smtp.close()

    def close(self) -> None:
        with self.ready:
            idle, self.idle = self.idle, []
        for smtp, _, _ in idle:
            _quit(smtp)


def _quit(smtp: smtplib.SMTP) -> None:
    with suppress(OSError, smtplib.SMTPException):
        smtp.quit()
    with suppress(OSError):
        smtp.close()


class _Kept:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.smtp_connections = SMTP_CONNECTIONS
        self.relays: dict[Hashable, Relay] = {}


_kept = _Kept()


@contextmanager
def kept(smtp_connections: int = SMTP_CONNECTIONS) -> Iterator[None]:
    """Within: sends reuse connections (see the module's docstring). Nested or concurrent uses
    share them; the last one out closes them."""
    with _kept.lock:
        if not _kept.users:
            _kept.smtp_connections = smtp_connections
        _kept.users += 1
    try:
        yield
    finally:
        with _kept.lock:
            _kept.users -= 1
            relays: list[Relay] = []
            if not _kept.users:
                relays = list(_kept.relays.values())
                _kept.relays.clear()
        for pool in relays:
            pool.close()


def relay(key: Hashable) -> Relay | None:
    """The pool for this relay while connections are kept; None outside `kept()`."""
    with _kept.lock:
        if not _kept.users:
            return None
        if key not in _kept.relays:
            _kept.relays[key] = Relay(_kept.smtp_connections)
        return _kept.relays[key]
