"""Real servers on 127.0.0.1 for the channel tests: SMTP (aiosmtpd), a Slack-webhook stand-in, a
matrix-hookshot stand-in, and a proxy that stalls a homeserver's answer, each recording what it
accepted. Slack has no offline server, so SlackWebhook behaves as Slack documents its webhooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import ipaddress
import json
import math
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

# --- SMTP ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Mail:
    sender: str
    recipients: list[str]
    raw: bytes
    login: str | None
    tls: bool

    @property
    def message(self) -> EmailMessage:
        parsed = message_from_bytes(self.raw, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


@dataclass
class Mailbox:
    """An aiosmtpd handler: answers `script` replies first, may stall, then accepts and keeps.
    `rcpt_script` refuses given recipients at RCPT (their next answers, in order); with
    `answer_after` the relay keeps the message, then takes that long to answer its DATA."""

    mails: list[Mail] = field(default_factory=list)
    script: list[str] = field(default_factory=list)  # e.g. "451 4.3.0 Try again later"
    stall_after: int | None = None  # accept this many, then hold the next DATA unanswered
    stalled: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    rcpt_script: dict[str, list[str]] = field(default_factory=dict)  # address -> RCPT answers
    answer_after: float = 0.0  # seconds between keeping a message and answering its DATA

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        answers = self.rcpt_script.get(address)
        if answers:
            return answers.pop(0)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.script:
            return self.script.pop(0)
        if self.stall_after is not None and len(self.mails) >= self.stall_after:
            # No 250 is ever given for this message, so by SMTP's rules it was not delivered.
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.02)
            return "451 4.3.0 stalled by the test"
        data = session.auth_data
        login = data.login.decode() if isinstance(data, LoginPassword) else None
        self.mails.append(
            Mail(
                envelope.mail_from,
                list(envelope.rcpt_tos),
                envelope.original_content or envelope.content,
                login,
                session.ssl is not None,
            )
        )
        if self.answer_after:  # kept (queued), then a slow answer: content scanning, a slow disk
            await asyncio.sleep(self.answer_after)
        return "250 2.0.0 OK: queued"


class LoopbackSMTP(Controller):
    """aiosmtpd on 127.0.0.1 with a port the OS picks (or a given one)."""

    def __init__(self, handler: Mailbox, port: int = 0, **kwargs: Any) -> None:
        super().__init__(handler, hostname="127.0.0.1", port=port, **kwargs)

    def _trigger_server(self) -> None:
        assert self.server is not None
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


def password_check(user: str, password: str) -> Any:
    def check(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (
            user.encode(),
            password.encode(),
        )
        return AuthResult(success=ok, handled=False, auth_data=data)

    return check


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, made here; returns (cert, key) PEM paths."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "digest test relay")])
    now = dt.datetime.now(dt.UTC)
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "relay.crt", folder / "relay.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


# --- HTTP stand-ins ------------------------------------------------------------------------------


class _Server:
    """A threaded HTTP server on 127.0.0.1 whose requests go to self.handle(method, path, body)."""

    def __init__(self, port: int = 0) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # The headers and the body go out in two writes: with Nagle's algorithm the body
            # would wait for the client's delayed ACK (40 ms an answer), which no real server does.
            disable_nagle_algorithm = True

            def _any(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                answer = owner.handle(self.command, self.path, body, dict(self.headers))
                if answer is None:  # drop the connection without a word
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(socket.SHUT_RDWR)
                    return
                status, payload, headers = answer
                data = payload if isinstance(payload, bytes) else payload.encode()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = _any

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str | bytes, dict[str, str]] | None:
        raise NotImplementedError

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class SlackWebhook(_Server):
    """Slack's incoming webhook as documented: JSON `text` and/or `blocks`; at most 50 blocks, 3000
    characters per section text, 150 per header; error answers are plain strings (400
    invalid_payload / invalid_blocks / no_text, 403 action_prohibited, 404 no_service /
    channel_not_found, 410 channel_is_archived); about one message a second per webhook with
    short bursts, past which 429 with Retry-After. `accepted` is what Slack would have posted."""

    STATES = {
        "channel_not_found": 404,
        "no_service": 404,
        "channel_is_archived": 410,
        "action_prohibited": 403,
        "invalid_token": 403,
    }

    def __init__(self, port: int = 0, rate: float = 1.0, burst: float = 4.0) -> None:
        self.lock = threading.Lock()
        self.hooks: dict[str, str] = {}  # path -> "ok" or an error state
        self.accepted: list[dict[str, Any]] = []
        self.answers: list[int] = []  # every status answered, in order
        # Answered first, e.g. (500, "internal_error"), or with headers: (429, "rate_limited",
        # {"Retry-After": "99999999999999"}).
        self.script: list[tuple[int, str] | tuple[int, str, dict[str, str]]] = []
        self.rate, self.burst = rate, burst
        self.tokens: dict[str, tuple[float, float]] = {}  # path -> (tokens, at)
        self.stall_after: int | None = None
        self.drop_after: int | None = None  # accept the next one and hang up without answering
        self.stalled, self.release = threading.Event(), threading.Event()
        super().__init__(port)

    def url(self, secret: str = "XXXXXXXXXXXXXXXXXXXXXXXX", state: str = "ok") -> str:
        path = f"/services/T00000000/B00000000/{secret}"
        self.hooks[path] = state
        return f"http://127.0.0.1:{self.port}{path}"

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, dict[str, str]] | None:
        answer = self._answer(method, path, body)
        if answer is not None:
            self.answers.append(answer[0])
        return answer

    def _answer(
        self, method: str, path: str, body: bytes
    ) -> tuple[int, str, dict[str, str]] | None:
        with self.lock:
            if self.script:
                status, text, *headers = self.script.pop(0)
                return status, text, dict(headers[0]) if headers else {}
            state = self.hooks.get(path) if method == "POST" else None
            if state is None:
                return 404, "no_service", {}
            if state != "ok":
                return self.STATES[state], state, {}
            try:
                payload = json.loads(body)
            except ValueError:
                return 400, "invalid_payload", {}
            if not isinstance(payload, dict):
                return 400, "invalid_payload", {}
            if not payload.get("text") and not payload.get("blocks"):
                return 400, "no_text", {}
            if not _valid_blocks(payload.get("blocks", [])):
                return 400, "invalid_blocks", {}
            if _block_text(payload.get("blocks", [])) > SLACK_BLOCKS_TEXT:
                return 400, "msg_blocks_too_long", {}
            wait = self._take(path)
            if wait:
                return 429, "rate_limited", {"Retry-After": str(math.ceil(wait))}
            self.accepted.append(payload)
            count = len(self.accepted)
            stall = self.stall_after is not None and count > self.stall_after
            drop = self.drop_after is not None and count > self.drop_after
            if drop:
                self.drop_after = None
        if stall:
            self.stalled.set()
            self.release.wait(60)
        if drop:
            return None
        return 200, "ok", {}

    def _take(self, path: str) -> float:
        now = time.monotonic()
        tokens, at = self.tokens.get(path, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.tokens[path] = (tokens, now)
            return (1 - tokens) / self.rate
        self.tokens[path] = (tokens - 1, now)
        return 0.0


# All the text of a message's blocks: Slack refuses msg_blocks_too_long well before 50 x 3000,
# from about 12,000 characters with its block containers counted (slackapi/bolt-js#2509, #2867).
SLACK_BLOCKS_TEXT = 11_000


def _block_text(blocks: list[Any]) -> int:
    size = 0
    for block in blocks:
        size += len((block.get("text") or {}).get("text", ""))
        size += sum(len(e.get("text", "")) for e in block.get("elements") or [])
    return size


def _valid_blocks(blocks: Any) -> bool:
    if not isinstance(blocks, list) or len(blocks) > 50:
        return False
    for block in blocks:
        kind, text = block.get("type"), block.get("text") or {}
        if kind == "header":
            if text.get("type") != "plain_text" or not 0 < len(text.get("text", "")) <= 150:
                return False
        elif kind == "section":
            if text.get("type") not in ("mrkdwn", "plain_text"):
                return False
            if not 0 < len(text.get("text", "")) <= 3000:
                return False
        elif kind == "context":
            elements = block.get("elements") or []
            if not 0 < len(elements) <= 10:
                return False
        elif kind == "actions":  # Block Kit: at most 25 elements; buttons as documented
            elements = block.get("elements") or []
            if not 0 < len(elements) <= 25 or not all(_valid_button(e) for e in elements):
                return False
        elif kind != "divider":
            return False
    return True


def _valid_button(element: Any) -> bool:
    text = element.get("text") or {}
    return (
        element.get("type") == "button"
        and text.get("type") == "plain_text"
        and 0 < len(text.get("text", "")) <= 75
        and 0 < len(element.get("action_id", "")) <= 255
        and len(element.get("value", "")) <= 2000
    )


class Hookshot(_Server):
    """matrix-hookshot's generic webhook: POST JSON with `text` (and optional `html`) to
    /webhook/<id>; 200 {"ok": true} when taken, 404 for an unknown hook."""

    def __init__(self, port: int = 0) -> None:
        self.hooks: set[str] = set()
        self.accepted: list[dict[str, Any]] = []
        self.script: list[tuple[int, str]] = []
        super().__init__(port)

    def url(self, hook: str = "6a1fd0c4-0a52-4b3c-9d7e-2f4a1c8b9e10") -> str:
        self.hooks.add(f"/webhook/{hook}")
        return f"http://127.0.0.1:{self.port}/webhook/{hook}"

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, dict[str, str]]:
        if self.script:
            status, text = self.script.pop(0)
            return status, text, {"Content-Type": "application/json"}
        if method != "POST" or path not in self.hooks:
            return 404, json.dumps({"ok": False, "error": "Webhook not found"}), {}
        try:
            payload = json.loads(body)
        except ValueError:
            return 400, json.dumps({"ok": False, "error": "Invalid JSON"}), {}
        if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
            return 400, json.dumps({"ok": False, "error": "Missing text"}), {}
        self.accepted.append(payload)
        return 200, json.dumps({"ok": True}), {"Content-Type": "application/json"}


class StallingProxy(_Server):
    """Forwards to a homeserver; after `stall_after` message PUTs, forwards the next one (so the
    server does take it) and then withholds the answer until released: a crash's perfect moment.
    `script`: the next message PUTs' answers instead of the homeserver's, each (forward first?,
    status, JSON body): a proxy that loses the body, a 429 of its own."""

    def __init__(self, upstream: str, port: int = 0) -> None:
        self.upstream = upstream
        self.sends = 0
        self.script: list[tuple[bool, int, Any]] = []
        self.stall_after: int | None = None
        self.stalled, self.release = threading.Event(), threading.Event()
        self.lock = threading.Lock()
        super().__init__(port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, bytes, dict[str, str]]:
        keep = {k: v for k, v in headers.items() if k.lower() in ("authorization", "content-type")}
        scripted = None
        if method == "PUT" and "/send/" in path:
            with self.lock:
                scripted = self.script.pop(0) if self.script else None
        if scripted is not None:
            forward, status, answer = scripted
            if forward:
                httpx.request(method, self.upstream + path, content=body, headers=keep, timeout=60)
            return status, json.dumps(answer).encode(), {"Content-Type": "application/json"}
        response = httpx.request(
            method, self.upstream + path, content=body, headers=keep, timeout=60
        )
        stall = False
        if method == "PUT" and "/send/" in path:
            with self.lock:
                self.sends += 1
                stall = self.stall_after is not None and self.sends > self.stall_after
        if stall:
            self.stalled.set()
            self.release.wait(60)
        return response.status_code, response.content, {"Content-Type": "application/json"}


@contextlib.contextmanager
def running(server: _Server) -> Iterator[Any]:
    try:
        yield server
    finally:
        server.stop()


class Dripping:
    """A TCP server on 127.0.0.1 that reads what a client sends first, then answers `payload`
    one byte every `every` seconds, then holds the connection: a server no per-read timeout
    ever gives up on. `requests` counts the connections it took."""

    def __init__(self, payload: bytes, every: float = 0.05, read_first: bool = True) -> None:
        self.payload, self.every, self.read_first = payload, every, read_first
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop_event = threading.Event()
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.listener.settimeout(0.1)
        while not self.stop_event.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            self.requests += 1
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            if self.read_first:
                conn.settimeout(5)
                with contextlib.suppress(OSError):
                    conn.recv(65536)
            for byte in self.payload:
                if self.stop_event.wait(self.every):
                    return
                try:
                    conn.send(bytes([byte]))
                except OSError:
                    return
            self.stop_event.wait()

    def stop(self) -> None:
        self.stop_event.set()
        self.listener.close()


def no_proxies(monkeypatch: Any) -> None:
    """Traffic to the loopback servers here never goes through a proxy from the environment."""
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
