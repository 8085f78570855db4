"""Running the web face: uvicorn on [web].listen, in the foreground (`digest web`) or in a thread
beside the scheduler (`digest serve`). No access log: every path holds a signed token."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from digest.models import ConfigError, DigestError, Settings
from digest.web.app import make_app
from digest.web.pages import BARE_CSP, HEADERS

log = logging.getLogger("digest.web")

Load = Callable[[], Settings]


def server(settings: Settings, state: str, load: Load | None = None) -> uvicorn.Server:
    host, port = _address(settings)
    config = uvicorn.Config(
        make_app(settings, state, load=load),
        host=host,
        port=port,
        access_log=False,  # paths carry tokens; our own log lines name what happened instead
        log_config=None,  # digest's logging setup stays in charge
        server_header=False,
        proxy_headers=False,  # links come from base_url, never from a forwarded Host
        http=Guarded,  # a slow client's hold on a connection, and uvicorn's own answers
        ws="none",  # no WebSocket route: an Upgrade is answered as the plain request it is
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,  # bounded request line and headers
    )
    return uvicorn.Server(config)


MAX_CONNECTIONS = 200
READ_SECONDS = 10.0  # for a request's line, headers and body to arrive


def _answer(status: str, text: bytes) -> bytes:
    headers = {**HEADERS, "Content-Security-Policy": BARE_CSP}
    lines = [f"HTTP/1.1 {status}", *(f"{k}: {v}" for k, v in headers.items())]
    lines += ["Content-Type: text/plain; charset=utf-8", f"Content-Length: {len(text)}"]
    return "\r\n".join([*lines, "Connection: close", "", ""]).encode() + text


BUSY = _answer("503 Service Unavailable", b"Service Unavailable")


class _Quiet(logging.Logger):
    """uvicorn's logger for a connection, its warnings about a client's malformed request at
    DEBUG (its errors, a failing app's, as they were)."""

    def warning(self, msg: object, *args: object, **kwargs: Any) -> None:
        self.debug(msg, *args, **kwargs)


_QUIET = _Quiet("uvicorn.error.client")
_QUIET.parent = logging.getLogger("uvicorn.error")


class Guarded(H11Protocol):
    """uvicorn's HTTP/1.1, with what a face on the internet needs beside it: a request must
    arrive within READ_SECONDS (uvicorn waits for ever on headers that never end, so 200 slow
    connections would hold the face), at most MAX_CONNECTIONS at once, and its own answers (a
    malformed request's 400, the 503 when full) carry the strict headers every answer has."""

    reading: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # Anyone can send a malformed request (garbage, an HTTP/2 preface): uvicorn's WARNING
        # for each one filled the log; the 400 it answers is enough.
        self.logger = _QUIET
        if len(self.connections) > MAX_CONNECTIONS:
            transport.write(BUSY)
            transport.close()
            return
        self._read_within()

    def _read_within(self) -> None:
        if self.reading is not None:
            self.reading.cancel()
        self.reading = self.loop.call_later(READ_SECONDS, self._too_slow)

    def _too_slow(self) -> None:
        # Closed while a request is still arriving (no headers yet, or body left to come); a
        # request the app is still answering is left to finish.
        if self.cycle is None or self.cycle.response_complete or self.cycle.more_body:
            self.transport.close()

    writing: asyncio.TimerHandle | None = None

    def pause_writing(self) -> None:
        # A client that sends and never reads (pipelined requests, their answers piling up)
        # holds a connection as a slow sender does: READ_SECONDS to read again, or it is cut.
        super().pause_writing()
        if self.writing is None:
            self.writing = self.loop.call_later(READ_SECONDS, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.writing is not None:
            self.writing.cancel()
            self.writing = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._read_within()  # the next request on this connection has its own time

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self.reading, self.writing):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def _unsupported_upgrade_warning(self) -> None:
        # Anyone can send an Upgrade header (WebSocket, h2c): uvicorn's two WARNING lines each
        # time, one advising a WebSocket library this face has no use for, filled the log.
        log.debug("web: an Upgrade header was ignored")

    def send_400_response(self, msg: str) -> None:
        self.transport.write(_answer("400 Bad Request", msg.encode("ascii", "replace")))
        self.transport.close()


def _address(settings: Settings) -> tuple[str, int]:
    host, _, port = str(settings.web.get("listen", "127.0.0.1:8080")).rpartition(":")
    return host.strip("[]"), int(port)


def bound(settings: Settings) -> socket.socket:
    """The listening socket, bound here rather than by uvicorn: a port in use (or a host that is
    not this machine's) is one ConfigError naming [web].listen, before anything else starts. So
    `digest serve` never runs on with a web face that every digest's links point at but that is
    not there."""
    host, port = _address(settings)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        listen = settings.web.get("listen", "127.0.0.1:8080")
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ConfigError(
            f"{settings.path}: web.listen: cannot listen on {listen} ({reason})"
        ) from None


def run(settings: Settings, state: str, load: Load | None = None) -> int:
    """`digest web`: serve until SIGINT or SIGTERM, finish the requests in flight, return 0.
    load: the config read again, when its file changes (current.py)."""
    stop = threading.Event()
    handlers = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    web = Thread(settings, state, load)
    try:
        web.start()
        while not stop.wait(0.5):
            if not web.thread.is_alive():  # it could not start (the port is taken...)
                raise DigestError(f"web: cannot listen on {settings.web.get('listen')}")
    finally:
        web.stop()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    log.info("web: stopped")
    return 0


class Thread:
    """The web face in a thread of its own, for `digest serve`; stop() ends it cleanly."""

    def __init__(self, settings: Settings, state: str, load: Load | None = None) -> None:
        # uvicorn takes no signal outside the main thread: the caller decides when to stop.
        self.socket = bound(settings)
        self.web = server(settings, state, load)
        self.thread = threading.Thread(target=self._run, name="digest-web", daemon=True)

    def _run(self) -> None:
        asyncio.run(self.web.serve(sockets=[self.socket]))

    def start(self, wait: float = 10.0) -> None:
        """Start serving; return once it listens (or has failed, or after `wait` seconds)."""
        self.thread.start()
        deadline = time.monotonic() + wait
        while not self.web.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if self.web.started:
            log.info("web: listening on %s:%s", self.web.config.host, self.web.config.port)

    def started(self) -> bool:
        return bool(self.web.started)

    def stop(self) -> None:
        self.web.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=10)
        self.socket.close()
