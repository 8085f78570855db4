"""`digest web` and `digest serve` with [web], as processes: the face answers on [web].listen,
stops cleanly on SIGTERM (exit 0), and `digest web` without [web] is a one-line error."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from channel_servers import free_port

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
