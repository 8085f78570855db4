"""A real HTTP server on 127.0.0.1 for the source tests: each path plays a script of answers
(a status, headers and body; or a body that stalls or trickles), and every request is recorded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy")
# A stalled or trickling answer gives up after this long, so no test can hang on one.
LONGEST_STALL = 10.0


@dataclass
class Answer:
    status: int = 200
    body: bytes | str = b""
    content_type: str = "application/atom+xml; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    stall: bool = False  # headers and a first part of the body, then silence
    trickle: float = 0.0  # one byte every `trickle` seconds, never finishing
    chunked: bool = False  # no Content-Length: the client learns the size only by reading
    unframed: bool = False  # with stall or trickle: no length at all, the body ends at the close
    closed: bool = False  # the whole body with no length, ended by closing (HTTP/1.0's way)

    @property
    def data(self) -> bytes:
        return self.body.encode() if isinstance(self.body, str) else self.body


@dataclass
class Request:
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    at: float  # time.monotonic() when it arrived


Script = list[Answer] | Callable[[dict[str, str]], Answer]


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that hangs up on an oversized or endless answer is what the test wants


class FeedServer:
    """`route(path, answers...)`: the answers in turn, the last one for every later request;
    or `route(path, function)`: the function of the query gives the answer."""

    def __init__(self) -> None:
        self.routes: dict[str, Script] = {}
        self.requests: list[Request] = []
        self.stop = threading.Event()
        self.httpd = _Quiet(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def route(self, path: str, *answers: Answer | Callable[[dict[str, str]], Answer]) -> None:
        if len(answers) == 1 and callable(answers[0]):
            self.routes[path] = answers[0]
        else:
            self.routes[path] = [a for a in answers if isinstance(a, Answer)]

    def hits(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    def __enter__(self) -> FeedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def _answer(self, path: str, query: dict[str, str]) -> Answer:
        script = self.routes.get(path)
        if script is None:
            return Answer(404, "no such route", "text/plain")
        if callable(script):
            return script(query)
        return script.pop(0) if len(script) > 1 else script[0]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                server.requests.append(
                    Request(parts.path, query, dict(self.headers.items()), time.monotonic())
                )
                answer = server._answer(parts.path, query)
                data = answer.data
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                if answer.stall or answer.trickle:
                    if not answer.unframed:
                        self.send_header("Content-Length", str(len(data) + 10_000))
                    self.end_headers()
                    self._never_finish(data, answer)
                    return
                if answer.closed:
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                    self.close_connection = True
                    return
                if answer.chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for start in range(0, len(data), 65536):
                        piece = data[start : start + 65536]
                        self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                    self.wfile.write(b"0\r\n\r\n")
                    return
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _never_finish(self, data: bytes, answer: Answer) -> None:
                try:
                    self.wfile.write(data[:100])
                    self.wfile.flush()
                    give_up = time.monotonic() + LONGEST_STALL
                    while not server.stop.is_set() and time.monotonic() < give_up:
                        if answer.trickle:
                            server.stop.wait(answer.trickle)
                            self.wfile.write(b" ")
                            self.wfile.flush()
                        else:
                            server.stop.wait(0.05)
                except OSError:
                    pass  # the client gave up and closed the connection, as it should
                self.close_connection = True

        return Handler


def serve(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    """A started server for a fixture; proxies are cleared so traffic stays on loopback."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with FeedServer() as server:
        yield server
