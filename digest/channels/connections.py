"""Connections kept open while the outbox delivers (`with kept():`): a bounded pool of SMTP
connections per relay and one keep-alive HTTP client per set of headers, shared by the delivery
threads and closed when the delivery ends. Outside it, every send opens and closes its own.
"""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager, suppress

import httpx

SMTP_CONNECTIONS = 4  # [delivery] smtp_connections: connections to one relay at once
# Relays drop clients that stay quiet (often after 60 s or more) and cap messages per connection
# (100 is a common cap): a connection idle longer, or this used, is closed rather than reused.
IDLE_SECONDS = 30.0
MAX_MESSAGES = 100


class Relay:
    """Open connections to one SMTP relay, at most `size` at once; a borrowed one carries one
    message, then goes back for the next (or is closed, if anything went wrong on it)."""

    def __init__(self, connect: Callable[[], smtplib.SMTP], size: int) -> None:
        self.connect, self.size = connect, max(1, size)
        self.idle: list[tuple[smtplib.SMTP, float, int]] = []  # (connection, since, messages)
        self.used: dict[int, int] = {}  # id(lent connection) -> messages it carried before
        self.active = 0  # connections lent or being opened; with the idle ones, at most size
        self.opened = 0  # connections ever opened (the tests and the benchmark count them)
        self.ready = threading.Condition()

    def take(self) -> tuple[smtplib.SMTP, bool]:
        """A connection and whether it carried a message before (it may have gone stale)."""
        stale: list[smtplib.SMTP] = []
        try:
            with self.ready:
                while True:
                    while self.idle:
                        smtp, since, used = self.idle.pop()
                        if time.monotonic() - since <= IDLE_SECONDS:
                            self.active += 1
                            self.used[id(smtp)] = used
                            return smtp, True
                        stale.append(smtp)
                    if self.active < self.size:
                        self.active += 1
                        break
                    self.ready.wait()
        finally:
            for smtp in stale:
                _quit(smtp)
        try:
            smtp = self.connect()
        except BaseException:
            with self.ready:
                self.active -= 1
                self.ready.notify()
            raise
        with self.ready:
            self.opened += 1
            self.used[id(smtp)] = 0
        return smtp, False

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
        self.clients: dict[Hashable, httpx.Client] = {}


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
            relays, clients = [], []
            if not _kept.users:
                relays, clients = list(_kept.relays.values()), list(_kept.clients.values())
                _kept.relays.clear()
                _kept.clients.clear()
        for relay in relays:
            relay.close()
        for client in clients:
            client.close()


def relay(key: Hashable, connect: Callable[[], smtplib.SMTP]) -> Relay | None:
    """The pool for this relay while connections are kept; None outside `kept()`."""
    with _kept.lock:
        if not _kept.users:
            return None
        if key not in _kept.relays:
            _kept.relays[key] = Relay(connect, _kept.smtp_connections)
        return _kept.relays[key]


def http_client(
    headers: Mapping[str, str] | None, make: Callable[[], httpx.Client]
) -> httpx.Client | None:
    """The shared client for these headers while connections are kept (httpx's Client may be
    shared between threads and keeps connections per host); None outside `kept()`."""
    key = frozenset((headers or {}).items())
    with _kept.lock:
        if not _kept.users:
            return None
        if key not in _kept.clients:
            _kept.clients[key] = make()
        return _kept.clients[key]
