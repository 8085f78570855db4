"""A total deadline for one network call. Timeouts of sockets and httpx are per read: a server
that drips one byte a second never trips them. The watchdog shuts the call's sockets down when
the time is up, which wakes any read blocked on them; the caller then says "no answer within"."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from typing import Any

# A process that is stopping (a run's SIGTERM) ends the stoppable calls in flight, a source's
# reads, and every later one at once: a feed dripping a byte a second had held a stopped run for
# five minutes. A delivery's call is not stoppable: the message on the wire is finished; the
# outbox's waits between its posts (pause) are.
_STOPPING = threading.Event()
_IN_FLIGHT: set[Deadline] = set()
_FLIGHT_LOCK = threading.Lock()


def interrupt() -> None:
    """End every stoppable call in flight, and every later one, until resume()."""
    _STOPPING.set()
    with _FLIGHT_LOCK:
        calls = list(_IN_FLIGHT)
    for call in calls:
        call._expire()


def stopper(stopped: threading.Event) -> Callable[[int, Any], None]:
    """A SIGTERM handler: `stopped` set, and every stoppable call interrupted."""

    def handler(signum: int, frame: Any) -> None:
        stopped.set()
        # From a thread of its own: the interrupted code may hold the locks interrupt() takes.
        threading.Thread(target=interrupt, name="digest-interrupt", daemon=True).start()

    return handler


def resume() -> None:
    _STOPPING.clear()


def interrupted() -> bool:
    return _STOPPING.is_set()


def pause(seconds: float) -> None:
    """Sleep `seconds`, or less when interrupt() comes: a source waiting out a Retry-After (up
    to 5 minutes) or arXiv's delay between pages, or the outbox a channel's rate limit (up to
    outbox.WAIT_CAP) or a webhook's pace, had held a SIGTERMed run until the wait ended."""
    _STOPPING.wait(seconds)


class Deadline:
    """`with Deadline(seconds) as d:` around a call; sockets it opens are given to d.watch()
    (or, for httpx, d.trace goes in the request's extensions); d.expired tells afterwards.
    `stoppable`: interrupt() ends it too."""

    def __init__(self, seconds: float, stoppable: bool = False) -> None:
        self.seconds = seconds
        self.stoppable = stoppable
        self.expired = False
        self._lock = threading.Lock()
        self._copies: list[socket.socket] = []
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        self._timer.start()
        if self.stoppable:
            with _FLIGHT_LOCK:
                _IN_FLIGHT.add(self)
            if _STOPPING.is_set():
                self._expire()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with _FLIGHT_LOCK:
            _IN_FLIGHT.discard(self)
        with self._lock:
            for copy in self._copies:
                copy.close()
            self._copies.clear()

    def watch(self, sock: socket.socket) -> None:
        # A duplicate of the descriptor: a TLS wrap detaches the original socket object, and
        # shutdown() acts on the connection, whichever descriptor names it.
        try:
            copy = socket.socket(fileno=os.dup(sock.fileno()))
        except OSError:
            return
        with self._lock:
            self._copies.append(copy)
            late = self.expired
        if late:
            self._shut(copy)

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpx's (httpcore's) trace extension: every new connection's socket is watched."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                self.watch(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            copies = list(self._copies)
        for copy in copies:
            self._shut(copy)

    @staticmethod
    def _shut(copy: socket.socket) -> None:
        try:
            copy.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
