"""`digest serve` as a process: it says when each subscriber's digest is due, polls at once and
then every poll_every, keeps a heartbeat for the container's check, and on SIGTERM or SIGINT
starts no new work and exits 0 with a final line."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from timeline import PRIVACY, arrive, paper

CONFIG = """
[state]
path = "state/digest.db"

[serve]
poll_every = "1s"

[[sources]]
kind = "files"
path = "papers"

[[subscribers]]
name = "ana"
interests = "differential privacy in federated learning"
schedule = "0 8 * * mon-fri"
timezone = "Europe/Berlin"
"""


class Serve:
    """A `digest serve` child process whose stderr lines can be awaited one by one."""

    def __init__(self, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "digest", "serve", "--config", "digest.toml"],
            cwd=cwd,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """The first line containing text (the timeout only guards against a hang)."""
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                pytest.fail(f"serve ended before saying {text!r}: {self.seen}")
            self.seen.append(line)
            if text in line:
                return line

    def rest(self) -> list[str]:
        while (line := self.lines.get(timeout=60)) is not None:
            self.seen.append(line)
        return self.seen


def digest_health(folder: Path) -> subprocess.CompletedProcess[str]:
    """`digest health` over the state of a serve running in `folder`."""
    return subprocess.run(
        [sys.executable, "-m", "digest", "health", "--state", "state/digest.db"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )


def piped(folder: Path) -> Path:
    """The config with a named pipe for its source: a poll blocks reading it until written."""
    config = CONFIG.replace('path = "papers"', 'path = "feed.jsonl"')
    (folder / "digest.toml").write_text(config, encoding="utf-8")
    fifo = folder / "feed.jsonl"
    os.mkfifo(fifo)
    return fifo


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_serve_polls_beats_and_stops_cleanly_on_a_signal(tmp_path: Path, stop: int) -> None:
    (tmp_path / "digest.toml").write_text(CONFIG, encoding="utf-8")
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    serve = Serve(tmp_path)
    try:
        plan = serve.wait_for("ana: next digest")
        assert "08:00 CET (Europe/Berlin, '0 8 * * mon-fri')" in plan
        # The first poll runs at start and catches up on the digest of the current period.
        first = serve.wait_for("poll at")
        assert "1 new papers; digests: ana (1)" in first
        serve.wait_for("poll at")  # and again a second later: poll_every = "1s"
        health = digest_health(tmp_path)
        assert health.returncode == 0, health.stdout
        assert health.stdout.startswith("digest health: alive: pid ")
        serve.process.send_signal(stop)
        code = serve.process.wait(timeout=60)
    finally:
        if serve.process.poll() is None:
            serve.process.kill()
    lines = serve.rest()
    assert code == 0, lines
    name = signal.Signals(stop).name
    assert lines[-1] == (
        f"digest: INFO: serve: stopped cleanly on {name}; 0 deliveries pending for the next run"
    )
    assert not [line for line in lines if "Traceback" in line or "ERROR" in line]
    assert list((tmp_path / "out").glob("*/ana.eml"))
    after = digest_health(tmp_path)
    assert after.returncode == 1 and "stopped" in after.stdout


def test_a_signal_during_a_job_lets_it_finish_and_leaves_its_deliveries_pending(
    tmp_path: Path,
) -> None:
    fifo = piped(tmp_path)
    serve = Serve(tmp_path)
    try:
        with open(fifo, "w", encoding="utf-8") as feed:  # returns once the poll is reading
            serve.process.send_signal(signal.SIGTERM)
            serve.wait_for("SIGTERM: no new work; waiting for the job in progress")
            feed.write(json.dumps(paper("p1", PRIVACY)) + "\n")
        code = serve.process.wait(timeout=60)
    finally:
        if serve.process.poll() is None:
            serve.process.kill()
    lines = serve.rest()
    assert code == 0, lines
    assert lines[-1] == (
        "digest: INFO: serve: stopped cleanly on SIGTERM; 1 deliveries pending for the next run"
    )
    # The digest was made and kept; the next run delivers it.
    fifo.unlink()
    arrive(tmp_path, "feed", paper("p1", PRIVACY))
    done = subprocess.run(
        [sys.executable, "-m", "digest", "run", "--config", "digest.toml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ana  already made" in done.stdout and "1 sent" in done.stdout


def test_a_poll_longer_than_poll_every_says_so_once_not_every_second(tmp_path: Path) -> None:
    fifo = piped(tmp_path)
    serve = Serve(tmp_path)
    try:
        with open(fifo, "w", encoding="utf-8") as feed:  # the poll blocks reading it
            time.sleep(4)  # four of its times go by
            feed.write(json.dumps(paper("p1", PRIVACY)) + "\n")
        serve.wait_for("poll at")
        serve.process.send_signal(signal.SIGTERM)
        code = serve.process.wait(timeout=60)
    finally:
        if serve.process.poll() is None:
            serve.process.kill()
    lines = serve.rest()
    assert code == 0, lines
    assert len([line for line in lines if "still running" in line]) == 1, lines
    assert not [line for line in lines if "WARNING" in line or "skipped:" in line], lines


def test_serve_over_a_state_no_job_could_use_fails_at_start_in_one_line(tmp_path: Path) -> None:
    """A wrong password, another program's database or a newer digest's state: it had logged
    one error a tick, forever, and a stop then exited 2."""
    import sqlite3

    (tmp_path / "digest.toml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "state").mkdir()
    with sqlite3.connect(tmp_path / "state" / "digest.db") as db:
        db.execute("PRAGMA user_version = 999")
    serve = Serve(tmp_path)
    lines = serve.rest()
    assert serve.process.wait(timeout=60) == 2
    assert lines[-1].endswith("made by a newer digest (schema 999)"), lines
    assert not any("Traceback" in line for line in lines)


@pytest.mark.parametrize("web", [False, True])
def test_a_second_serve_over_one_sqlite_state_is_refused_in_one_line(
    tmp_path: Path, web: bool
) -> None:
    """Two both ran every job and wrote one heartbeat file, which then told of neither. With
    [web], the second had been refused for the port ("Address already in use"), which sent the
    operator looking for another program on it, and not by the lock."""
    face = ""
    if web:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        face = (
            f'\n[web]\nbase_url = "http://127.0.0.1:{port}"\nlisten = "127.0.0.1:{port}"\n'
            'secret = "k3y-of-the-serve-test-9f2c71"\n'
        )
    (tmp_path / "digest.toml").write_text(CONFIG + face, encoding="utf-8")
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    first = Serve(tmp_path)
    try:
        first.wait_for("poll at")
        second = subprocess.run(
            [sys.executable, "-m", "digest", "serve", "--config", "digest.toml"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")},
        )
        assert second.returncode == 2
        (line,) = second.stderr.strip().splitlines()
        assert "another digest serve runs over state/digest.db (pid" in line
        first.process.send_signal(signal.SIGTERM)
        assert first.process.wait(timeout=60) == 0
    finally:
        if first.process.poll() is None:
            first.process.kill()
