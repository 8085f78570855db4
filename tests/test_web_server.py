"""`digest web` and `digest serve` with [web], as processes: the face answers on [web].listen,
stops cleanly on SIGTERM (exit 0), and `digest web` without [web] is a one-line error."""

from __future__ import annotations

import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from channel_servers import free_port

from digest.config import load
from digest.web import server
from digest.web.pages import HEADERS
from digest.web.tokens import Signer

CONFIG = """
[state]
path = "state/digest.db"

[serve]
poll_every = "1h"

[web]
base_url = "http://127.0.0.1:{port}"
listen = "127.0.0.1:{port}"
secret = "${{DIGEST_WEB_SECRET}}"

[[sources]]
kind = "files"
path = "papers"

[[subscribers]]
name = "ana"
interests = "differential privacy in federated learning"
"""


def start(
    tmp_path: Path, command: str, port: int | None = None
) -> tuple[subprocess.Popen[str], int]:
    port = port or free_port()
    (tmp_path / "papers").mkdir(exist_ok=True)
    (tmp_path / "digest.toml").write_text(CONFIG.format(port=port), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    env["DIGEST_WEB_SECRET"] = "a-long-enough-secret-for-tests"
    process = subprocess.Popen(
        [sys.executable, "-m", "digest", command, "--config", "digest.toml"],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, port


def answered(port: int, timeout: float = 60) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}/", timeout=5, trust_env=False)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.parametrize("command", ["web", "serve"])
def test_the_face_answers_then_stops_cleanly_on_sigterm(tmp_path: Path, command: str) -> None:
    process, port = start(tmp_path, command)
    try:
        home = answered(port)
        assert home.status_code == 200 and "web face" in home.text
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    err = process.stderr.read() if process.stderr else ""
    assert code == 0, err
    assert "Traceback" not in err and "a-long-enough-secret" not in err
    assert f"web: listening on 127.0.0.1:{port}" in err
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/", timeout=2, trust_env=False)


def test_digest_web_without_a_web_table_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "digest.toml").write_text(
        '[[sources]]\nkind = "files"\npath = "p"\n\n[[subscribers]]\nname = "a"\ninterests = "x"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "digest", "web", "--config", "digest.toml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "no [web] table" in done.stderr


@pytest.mark.parametrize("command", ["web", "serve"])
def test_a_listen_address_in_use_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    # serve used to run on without its face: every digest's links would point at nothing.
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        process, _ = start(tmp_path, command, port)
        try:
            code = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
    err = (process.stderr.read() if process.stderr else "").strip()
    assert code == 2, err
    assert err.endswith(f"web.listen: cannot listen on 127.0.0.1:{port} (Address already in use)")
    assert "\n" not in err


@pytest.fixture
def face(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The face in this process, with a short read time and room for three connections."""
    monkeypatch.setattr(server, "READ_SECONDS", 0.5)
    monkeypatch.setattr(server, "MAX_CONNECTIONS", 3)
    port = free_port()
    (tmp_path / "papers").mkdir()
    (tmp_path / "digest.toml").write_text(CONFIG.format(port=port), encoding="utf-8")
    monkeypatch.setenv("DIGEST_WEB_SECRET", "a-long-enough-secret-for-tests")
    settings = load(tmp_path / "digest.toml")
    web = server.Thread(settings, str(tmp_path / "state.db"))
    web.start()
    try:
        yield port
    finally:
        web.stop()


def raw(port: int, request: bytes) -> bytes:
    """What the face answers to these bytes, until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request)
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except ConnectionResetError:  # closed with the rest of a bad request unread
            pass
    return answer


def strict(answer: bytes) -> bool:
    head = answer.split(b"\r\n\r\n")[0].lower()
    return all(
        f"{name}: ".lower().encode() in head for name in [*HEADERS, "content-security-policy"]
    )


def test_a_request_that_never_finishes_its_headers_is_closed(face: int) -> None:
    # Slow clients cannot hold the face: each has READ_SECONDS for its request, then is closed.
    started = time.monotonic()
    assert raw(face, b"GET / HTTP/1.1\r\nHost: x\r\n") == b""
    assert time.monotonic() - started < 5
    slow = [socket.create_connection(("127.0.0.1", face)) for _ in range(3)]
    for conn in slow:
        conn.sendall(b"GET / HTTP/1.1\r\n")
    time.sleep(1.0)
    assert httpx.get(f"http://127.0.0.1:{face}/", trust_env=False).status_code == 200
    for conn in slow:
        conn.close()


def test_a_client_that_never_reads_its_answers_is_cut_off(face: int) -> None:
    """Pipelined requests whose answers pile up unread held a connection for good (90 s and
    counting), and 200 of them answered every reader 503."""
    hogs = []
    for _ in range(3):
        conn = socket.socket()
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads nothing: fills fast
        conn.connect(("127.0.0.1", face))
        conn.setblocking(False)
        try:
            for _ in range(20_000):
                conn.send(b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
        except BlockingIOError:  # the face no longer reads them either
            pass
        hogs.append(conn)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        answer = httpx.get(f"http://127.0.0.1:{face}/", trust_env=False)
        if answer.status_code == 200:
            break
        time.sleep(0.2)
    assert answer.status_code == 200
    for conn in hogs:
        conn.close()


def test_uvicorn_s_own_answers_carry_the_strict_headers(face: int) -> None:
    bad = raw(face, b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    assert bad.startswith(b"HTTP/1.1 400 ") and strict(bad)
    held = [socket.create_connection(("127.0.0.1", face)) for _ in range(3)]
    try:
        time.sleep(0.1)
        busy = raw(face, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert busy.startswith(b"HTTP/1.1 503 ") and strict(busy)
    finally:
        for conn in held:
            conn.close()


def test_a_body_cut_short_by_its_client_is_no_error_of_the_face(
    face: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A reader who hangs up mid-request (or anyone, on /slack/actions) logged an ERROR."""
    with socket.create_connection(("127.0.0.1", face)) as conn:
        conn.sendall(b"POST /slack/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
    time.sleep(1.0)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def asked_after_an_edit(
    tmp_path: Path, command: str, added: str, seconds: float
) -> tuple[httpx.Response, str]:
    """`digest <command>` started; `added` appended to its config; ben's unsubscribe link asked
    until it is no longer 410 or `seconds` have gone by: the last answer, and the errors the
    process wrote by its SIGTERM (exit 0)."""
    process, port = start(tmp_path, command)
    unsubscribe = f"/u/{Signer('a-long-enough-secret-for-tests').sign('u', 'ben', 0)}"
    try:
        answered(port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False) as http:
            assert http.get(unsubscribe).status_code == 410
            config = tmp_path / "digest.toml"
            config.write_text(config.read_text(encoding="utf-8") + added, encoding="utf-8")
            deadline = time.monotonic() + seconds
            while (asked := http.get(unsubscribe)).status_code == 410:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    return asked, process.stderr.read() if process.stderr else ""


BEN = '\n[[subscribers]]\nname = "ben"\ninterests = "graph neural networks"\n'


def test_digest_web_answers_for_the_config_as_it_is_now(tmp_path: Path) -> None:
    # Cron runs read the config as it is; a face that kept the one it started with answered a
    # new reader's one-click unsubscribe "gone" while the next run mailed them.
    mailed = BEN + '[[subscribers.channels]]\nkind = "email"\nto = "ben@example.org"\n'
    smtp = '\n[smtp]\nhost = "127.0.0.1"\nfrom = "digest@example.org"\n'
    asked, err = asked_after_an_edit(tmp_path, "web", smtp + mailed, 30)
    assert asked.status_code == 200 and "Stop the e-mail digests" in asked.text
    assert "digest.toml read again" in err and "a-long-enough-secret" not in err


def test_the_face_of_digest_serve_keeps_the_config_its_jobs_run_on(tmp_path: Path) -> None:
    # serve's jobs read the config once; a face that read an edited one (a new secret) refused
    # the links of the digests those jobs still made.
    from digest.web import current

    asked, err = asked_after_an_edit(tmp_path, "serve", BEN, 3 * current.EVERY)
    assert asked.status_code == 410 and "read again" not in err


UPGRADES = [
    b"Upgrade: websocket\r\nConnection: Upgrade, close\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n",
    b"Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings, close\r\n"
    b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n",
]


@pytest.mark.parametrize("upgrade", UPGRADES, ids=["websocket", "h2c"])
def test_an_upgrade_header_is_answered_as_plain_http_and_logs_no_warning(
    face: int, upgrade: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    # The face has no WebSocket route: anyone's Upgrade header had written two WARNING lines,
    # one telling the operator to install a WebSocket library.
    for _ in range(3):
        answer = raw(face, b"GET / HTTP/1.1\r\nHost: x\r\n" + upgrade + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 200 ") and strict(answer)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    "request_",
    [b"\x16\x03\x01garbage\r\n\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
     b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
    ids=["garbage", "http2-preface", "bad-length"],
)  # fmt: skip
def test_a_malformed_request_is_refused_and_logs_no_warning(
    face: int, request_: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    # Anyone could fill the face's log: uvicorn wrote "Invalid HTTP request received." at
    # WARNING for each one.
    for _ in range(3):
        assert raw(face, request_).startswith(b"HTTP/1.1 4")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_moved_state_stops_the_writes_of_digest_web_until_it_is_restarted(
    tmp_path: Path,
) -> None:
    # The operator moved the state (a copy, then [state].path) while `digest web` ran: it said
    # "read again" and went on writing unsubscribes and votes into the old file, which no run
    # read; the reader was told "Unsubscribed" and mailed on. A new listen was taken silently.
    process, port = start(tmp_path, "web")
    other = free_port()
    unsubscribe = f"/u/{Signer('a-long-enough-secret-for-tests').sign('u', 'ben', 0)}"
    mailed = '\n[smtp]\nhost = "127.0.0.1"\nfrom = "digest@example.org"\n' + BEN
    mailed += '[[subscribers.channels]]\nkind = "email"\nto = "ben@example.org"\n'
    config, old = tmp_path / "digest.toml", tmp_path / "state" / "digest.db"
    new = tmp_path / "newstate" / "digest.db"
    try:
        answered(port)
        (tmp_path / "newstate").mkdir()
        with sqlite3.connect(old) as source, sqlite3.connect(tmp_path / "newstate/digest.db") as to:
            source.backup(to)
        moved = CONFIG.format(port=port).replace("state/digest.db", "newstate/digest.db")
        moved = moved.replace(f'listen = "127.0.0.1:{port}"', f'listen = "127.0.0.1:{other}"')
        config.write_text(moved + mailed, encoding="utf-8")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False) as http:
            deadline = time.monotonic() + 30
            while http.get(unsubscribe).status_code == 410 and time.monotonic() < deadline:
                time.sleep(0.2)  # until the face has read the edit (and knows ben)
            refused = http.post(unsubscribe, content=b"List-Unsubscribe=One-Click")
            assert refused.status_code == 503 and refused.headers["Retry-After"]
            config.write_text(CONFIG.format(port=port) + mailed, encoding="utf-8")  # put back
            taken = http.post(unsubscribe, content=b"List-Unsubscribe=One-Click")
            assert taken.status_code == 200 and "No more e-mail" in taken.text
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    err = process.stderr.read() if process.stderr else ""
    assert "digest.toml: [state] changed: restart digest web (until then" in err
    assert f"[web].listen changed: restart digest web to listen on 127.0.0.1:{other}" in err
    assert "[state] is back as it was" in err and "Traceback" not in err
    for state, paused in ((old, 1), (new, 0)):
        with sqlite3.connect(state) as db:
            assert db.execute("SELECT count(*) FROM pauses").fetchone() == (paused,)
