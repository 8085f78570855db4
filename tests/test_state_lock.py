"""The run lock (one run at a time over a state database) and the heartbeat of `digest serve`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from timeline import at

from digest.models import StateError
from digest.state import lock


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_a_second_run_skips_at_once_when_told_not_to_wait(tmp_path: Path) -> None:
    state = tmp_path / "state" / "digest.db"
    with lock.run_lock(state):
        with pytest.raises(lock.LockBusy) as info:
            with lock.run_lock(state, wait=0):
                pytest.fail("two runs held the lock at once")
    held = tmp_path.resolve() / "state" / "digest.db.lock"
    assert f"another digest run holds {held} (pid " in str(info.value)
    assert str(info.value).endswith("skipped after waiting 0 s")


def test_a_second_run_waits_for_the_first_then_goes_on(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    waiting, done = threading.Event(), threading.Event()
    order: list[str] = []

    def second() -> None:
        with lock.run_lock(state, wait=60, on_wait=lambda holder: waiting.set()):
            order.append("second")
        done.set()

    with lock.run_lock(state):
        thread = threading.Thread(target=second)
        thread.start()
        assert waiting.wait(30), "the second run never started waiting"
        order.append("first")
    thread.join(30)
    assert done.is_set() and order == ["first", "second"]


def test_a_waiting_run_gives_up_when_the_server_stops(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    with lock.run_lock(state), pytest.raises(lock.LockStopped, match="stopped while waiting"):
        with lock.run_lock(state, wait=3600, stop=lambda: True):
            pass


def test_a_sigterm_while_a_run_waits_for_the_lock_stops_it_with_143(tmp_path: Path) -> None:
    # `digest run --wait 60` stopped by SIGTERM three seconds in had said "skipped after
    # waiting 60 s" and exited 1, as though it had waited and skipped.
    (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "digest.toml").write_text(
        '[[sources]]\nkind = "files"\npath = "papers.jsonl"\n'
        '[[subscribers]]\nname = "ana"\ninterests = "differential privacy"\n',
        encoding="utf-8",
    )
    state = tmp_path / "state" / "digest.db"
    command = [sys.executable, "-m", "digest", "run", "--config", "digest.toml", "--wait", "60"]
    with lock.run_lock(state):  # another run, in this process
        proc = subprocess.Popen(
            command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert proc.stderr is not None
        first = proc.stderr.readline()  # it says it waits, then waits
        assert "another run holds the state lock" in first and "waiting up to 60 s" in first
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=50)  # well within the 60 s it may wait
    assert proc.returncode == 143, err
    assert out == "" and "Traceback" not in err and "skipped" not in err
    (said,) = err.splitlines()
    assert said.startswith(
        "digest: WARNING: terminated (SIGTERM): another digest run holds"
        f" {lock.lock_path(state)} (pid {os.getpid()} since "
    )
    assert said.endswith(
        "; stopped while waiting for it: this run did nothing; the next run does it"
    )


def test_the_heartbeat_tells_ticking_from_stale_and_stopped(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    now = at("2026-11-30T09:00Z")
    alive, why = lock.health(state, now)
    assert not alive and "no heartbeat" in why
    lock.write_heartbeat(state, now)
    assert lock.health(state, now + timedelta(seconds=lock.STALE_AFTER))[0]
    stale = now + timedelta(seconds=lock.STALE_AFTER + 1)
    alive, why = lock.health(state, stale)
    assert not alive and why.startswith("stale: the last heartbeat is 121 s old")
    lock.write_heartbeat(state, now, stopped=True)
    alive, why = lock.health(state, now)
    assert not alive and "stopped" in why
    # A clock stepped back an hour: a dead serve's last beat read "0 s ago", alive.
    lock.write_heartbeat(state, now)
    alive, why = lock.health(state, now - timedelta(hours=1))
    assert not alive and why == "the last heartbeat is 3600 s ahead of this clock (stepped back?)"
    assert lock.health(state, now - timedelta(seconds=5))[0]  # a few seconds is the clocks' skew
    # A `--now` before a stopped serve's beat: "stopped -300 s ago" (ops20 F5).
    lock.write_heartbeat(state, now, stopped=True)
    alive, why = lock.health(state, now - timedelta(minutes=5))
    assert not alive and why.endswith("stopped 300 s after the time asked")


@pytest.mark.parametrize(
    "body",
    [
        '{"beat_at": "2026-11-30T09:00:00"}',
        '{"beat_at": 5}',
        "[1]",
        '"x"',
        '{"beat_at": null}',
        "{",
    ],
)
def test_a_heartbeat_of_the_wrong_shape_is_unreadable_not_a_crash(
    tmp_path: Path, body: str
) -> None:
    state = tmp_path / "digest.db"
    lock.heartbeat_path(state).write_text(body, encoding="utf-8")
    alive, why = lock.health(state, at("2026-11-30T09:00Z"))
    assert not alive and why.startswith(f"{lock.heartbeat_path(state)}: unreadable heartbeat (")


@pytest.mark.parametrize("name", ["real.lock", "real.heartbeat"])
def test_a_state_named_like_its_lock_or_heartbeat_is_never_overwritten(
    tmp_path: Path, name: str
) -> None:
    state = tmp_path / name
    state.write_bytes(b"SQLite format 3\x00 the subscribers' history")
    with lock.run_lock(state):
        lock.write_heartbeat(state, at("2026-12-01T09:00Z"))
    assert state.read_bytes() == b"SQLite format 3\x00 the subscribers' history"
    assert lock.lock_path(state) != state and lock.heartbeat_path(state) != state
    assert lock.lock_path(tmp_path / "digest.db") == tmp_path.resolve() / "digest.db.lock"


def test_two_paths_to_one_database_share_its_lock(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    real = tmp_path / "state" / "digest.db"
    real.write_bytes(b"")
    (tmp_path / "state2").mkdir()
    (tmp_path / "state2" / "digest.db").symlink_to(real)  # a symlinked file
    (tmp_path / "elsewhere").symlink_to(tmp_path / "state")  # a symlinked folder
    ways = [
        tmp_path / "state2" / "digest.db",
        tmp_path / "elsewhere" / "digest.db",
        Path("state/../state/digest.db"),  # relative, from the working folder (tmp_path)
    ]
    with lock.run_lock(real):
        for way in ways:
            assert lock.lock_path(way) == lock.lock_path(real)
            with pytest.raises(lock.LockBusy):
                with lock.run_lock(way, wait=0):
                    pytest.fail(f"{way} and {real} were locked at once")


def test_two_databases_in_one_folder_have_a_lock_each(tmp_path: Path) -> None:
    db, sqlite = tmp_path / "digest.db", tmp_path / "digest.sqlite"
    assert lock.lock_path(db).name == "digest.db.lock"
    assert lock.lock_path(sqlite).name == "digest.sqlite.lock"
    with lock.run_lock(db), lock.run_lock(sqlite, wait=0):
        pass  # neither waits for the other


def test_a_heartbeat_that_cannot_be_written_is_one_state_error(tmp_path: Path) -> None:
    # A read-only state folder: a traceback every beat, and at serve's stop (exit 1).
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "digest.heartbeat").mkdir()  # os.replace cannot put a file over a folder
    with pytest.raises(StateError, match="digest.heartbeat: cannot write the heartbeat"):
        lock.write_heartbeat(folder / "digest.db", at("2026-11-30T09:00Z"))
    assert [p.name for p in folder.iterdir()] == ["digest.heartbeat"]  # no temp file left


def test_one_serve_per_database_file_and_one_each_beside_it(tmp_path: Path) -> None:
    """digest.db and digest.sqlite in one folder shared one serve lock: the second's serve was
    refused, naming the wrong database."""
    with lock.serve_lock(tmp_path / "digest.db"):
        with pytest.raises(StateError, match=r"another digest serve runs over .*digest\.db"):
            with lock.serve_lock(tmp_path / "digest.db"):
                pass
        with lock.serve_lock(tmp_path / "digest.sqlite"):  # another database: its own lock
            pass
