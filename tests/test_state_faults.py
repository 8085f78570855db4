"""What SQLite's own faults look like to the user: a full disk, a damaged file, a read-only state
folder, an empty [state].path and a database another process holds too long each end the command
with one line (exit 2, or 1 for a lock that will pass), never a traceback, and a SIGTERM ends the
wait for it; and writers keep their transactions short, so that `digest feedback` during a large
ingest does not meet that lock."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest.cli import main
from digest.models import Paper, StateError
from digest.state import Store, engine
from digest.state.catalog import BATCH

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
CONFIG = """
[state]
path = "{state}"

[[sources]]
kind = "files"
path = "papers.jsonl"

[[subscribers]]
name = "ana"
interests = "graph neural networks for molecules"
"""


def paper(n: int, words: int = 20) -> Paper:
    return Paper(
        id=f"2611.{n:05d}",
        title=f"Graph neural networks for molecules, part {n}",
        abstract=" ".join(f"molecule{n}-{i}" for i in range(words)),
        authors=("Ada Lovelace",),
    )


def project(tmp_path: Path, state: str = "state/digest.db", papers: int = 30) -> Path:
    lines = [
        json.dumps({"id": p.id, "title": p.title, "abstract": p.abstract, "authors": ["A. B."]})
        for p in map(paper, range(papers))
    ]
    (tmp_path / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(state=state), encoding="utf-8")
    return config


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def test_a_full_disk_is_one_state_error_not_the_rollback_that_follows(tmp_path: Path) -> None:
    with Store(tmp_path / "d.db") as store:
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk has two pages left
        with pytest.raises(StateError, match="the disk is full; nothing of this step was written"):
            store.add_papers([paper(n, words=200) for n in range(50)], NOW)
        # The store is still usable: nothing half-written, no transaction left open.
        assert store.count_papers() == 0 and not store.db.db.in_transaction


@contextlib.contextmanager
def tiny_disk(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("a tmpfs cannot be mounted here (needs root); the max_page_count test stands")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def test_digest_run_on_a_full_disk_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, state="full/digest.db", papers=3000)
    with tiny_disk(tmp_path / "full", "160k"):
        code = main(["run", "--config", str(config), "--now", NOW.isoformat()])
    assert code == 2
    assert "full/digest.db: cannot use the state database: the disk is full" in one_line(capsys)


def test_a_disk_full_before_the_first_run_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Writing the lock file's holder line raised an OSError no one caught: exit 1 and a traceback.
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, state="full/digest.db")
    with tiny_disk(tmp_path / "full", "64k"):
        with contextlib.suppress(OSError), open(tmp_path / "full" / "filler", "wb") as filler:
            while True:
                filler.write(b"x" * 4096)
                filler.flush()
        code = main(["run", "--config", str(config), "--now", NOW.isoformat()])
    assert code == 2
    assert "full/digest.db: cannot use the state database: the disk is full" in one_line(capsys)


def test_a_database_with_a_damaged_second_half_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, papers=400)
    assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) in (0, 1)
    capsys.readouterr()
    db = tmp_path / "state" / "digest.db"
    size = db.stat().st_size
    assert size > 20 * 4096 and not (tmp_path / "state" / "digest.db-wal").exists()
    with open(db, "r+b") as handle:  # the header and the schema survive; the rest is noise
        handle.seek(size // 2)
        handle.write(os.urandom(size - size // 2))
    code = main(["run", "--config", str(config), "--now", "2026-12-01T09:00:00+00:00"])
    assert code == 2
    err = one_line(capsys)
    assert "state/digest.db: cannot use the state database: it is damaged" in err
    assert "restore it from a backup" in err


def test_an_emptied_state_file_is_one_line_and_never_a_fresh_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path, papers=40)
    assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) in (0, 1)
    capsys.readouterr()
    db = tmp_path / "state" / "digest.db"
    db.write_bytes(b"")  # truncated: a full disk, a copy that failed
    for f in tmp_path.glob("state/digest.db-*"):
        f.unlink()
    code = main(["run", "--config", str(config), "--now", NOW.isoformat()])
    assert code == 2
    err = one_line(capsys)
    assert "state/digest.db: cannot use the state database: the file is empty (0 bytes)" in err
    assert db.stat().st_size == 0  # left as it was found
    db.unlink()  # deleting it is the way to start afresh
    assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) in (0, 1)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder as an operator's mistake leaves it; root ignores the mode, not +i."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0 and subprocess.run(["chattr", "+i", str(folder)]).returncode == 0
    try:
        with contextlib.suppress(OSError):
            (folder / "probe").touch()
            (folder / "probe").unlink()
            pytest.skip("cannot make a folder read-only here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)])
        folder.chmod(0o755)


def test_a_read_only_state_folder_is_one_line_naming_the_lock_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path)
    (tmp_path / "state").mkdir()
    with read_only(tmp_path / "state"):
        code = main(["run", "--config", str(config), "--now", NOW.isoformat()])
    assert code == 2
    err = one_line(capsys)
    assert "state/digest.db.lock: cannot create the run lock" in err
    assert "the state folder must be writable" in err


def test_a_read_only_folder_under_an_existing_database_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path)
    assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) in (0, 1)
    capsys.readouterr()
    with read_only(tmp_path / "state"):
        for command in (["run", "--now", NOW.isoformat()], ["status"]):
            assert main([*command, "--config", str(config)]) == 2
            assert "state/digest.db: cannot " in one_line(capsys)


@pytest.mark.parametrize("value", ['""', '"   "'])
def test_an_empty_state_path_is_a_config_error_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path)
    config.write_text(config.read_text().replace('"state/digest.db"', value), encoding="utf-8")
    for command in (["validate"], ["run"], ["status"], ["health"]):
        assert main([*command, "--config", str(config)]) == 2
        assert "state.path" in one_line(capsys)


def test_an_ingest_writes_in_short_transactions(tmp_path: Path) -> None:
    with Store(tmp_path / "d.db") as store:
        commits: list[str] = []
        store.db.db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else 0)
        assert store.add_papers([paper(n) for n in range(3 * BATCH + 1)], NOW) == 3 * BATCH + 1
        assert len(commits) == 4  # one per BATCH papers, so another writer waits one batch


def test_feedback_while_another_process_holds_the_database_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    config = project(tmp_path)
    assert main(["run", "--config", str(config), "--now", NOW.isoformat()]) in (0, 1)
    capsys.readouterr()
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 0.3)
    holder = sqlite3.connect(tmp_path / "state" / "digest.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a writer that does not let go (an old digest's ingest)
    released = threading.Timer(5.0, holder.rollback)
    released.start()
    try:
        code = main(["feedback", "--config", str(config), "ana", paper(1).id, "up"])
    finally:
        released.cancel()
        holder.rollback()
        holder.close()
    assert code == 1
    assert "stayed locked by another process for 0.3 s; try again" in one_line(capsys)
    assert main(["feedback", "--config", str(config), "ana", paper(1).id, "up"]) == 0


# A process waiting for another's write (sqlite3's busy wait sleeps in C, deaf to signals): a
# SIGTERM had been heard only once the whole busy timeout had passed.
WAITING = """
import signal, sys, threading
from digest.models import DigestError, deadline
from digest.state import Store
signal.signal(signal.SIGTERM, deadline.stopper(threading.Event()))  # as `digest run` does
with Store(sys.argv[1], timeout=300) as store:
    print("waiting", flush=True)
    try:
        with store.transaction():
            print("written")
    except DigestError as exc:
        print(f"{type(exc).__name__}: {exc}")
"""


def test_a_sigterm_ends_a_wait_for_another_processs_write_at_once(tmp_path: Path) -> None:
    import signal
    import sys

    state = tmp_path / "digest.db"
    Store(state).close()
    holder = sqlite3.connect(state, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a writer that does not let go
    waiting = subprocess.Popen(
        [sys.executable, "-c", WAITING, str(state)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert waiting.stdout is not None and waiting.stdout.readline() == "waiting\n"
        waiting.send_signal(signal.SIGTERM)
        out = waiting.communicate(timeout=60)[0]  # the busy timeout is 300 s
    finally:
        waiting.kill()
        holder.rollback()
        holder.close()
    assert out == (
        f"StateStopped: {state}: stopped while waiting for another process's write to the state"
        " database to end; nothing of this step was written\n"
    )
