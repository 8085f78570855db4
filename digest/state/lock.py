"""One run at a time over a state database (fcntl.flock on <db>.lock, dropped by the kernel when
its holder dies) and the heartbeat a `digest serve` writes beside it for `digest health`."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from digest.models import DigestError

BEAT_SECONDS = 30  # the heartbeat job's interval
STALE_AFTER = 4 * BEAT_SECONDS  # a heartbeat older than this means the scheduler stopped ticking


class LockBusy(DigestError):
    """Another run holds the state folder's lock (exit 1: this run did nothing)."""


def lock_path(state: str | Path) -> Path:
    return Path(state).with_suffix(".lock")


def heartbeat_path(state: str | Path) -> Path:
    return Path(state).with_suffix(".heartbeat")


@contextlib.contextmanager
def run_lock(
    state: str | Path,
    wait: float = 0.0,
    stop: Callable[[], bool] = lambda: False,
    on_wait: Callable[[str], None] = lambda holder: None,
) -> Iterator[None]:
    """One run at a time over a state database, across processes: fcntl.flock on <db>.lock.

    Waits up to `wait` seconds (on_wait(holder) once, when it starts waiting), then raises
    LockBusy. The kernel drops the lock when its holder dies, so a crash never leaves it stuck.
    """
    path = lock_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + wait
        waited = False
        while not _try_lock(handle):
            holder = _holder(path)
            if stop() or time.monotonic() >= deadline:
                raise LockBusy(
                    f"another digest run holds {path} ({holder}); skipped after waiting {wait:g} s"
                )
            if not waited:
                on_wait(holder)
                waited = True
            time.sleep(0.1)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()} since {datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ}\n")
            handle.flush()
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _try_lock(handle: IO[str]) -> bool:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip() or "holder unknown"
    except OSError:
        return "holder unknown"


def write_heartbeat(state: str | Path, now: datetime, **facts: Any) -> None:
    """Atomically, so `digest health` never reads half a file."""
    path = heartbeat_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"pid": os.getpid(), "beat_at": now.astimezone(UTC).isoformat(), **facts}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".heartbeat.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(body, handle)
    os.replace(tmp, path)


def health(state: str | Path, now: datetime) -> tuple[bool, str]:
    """Is a `digest serve` ticking over this state? (alive, one line saying why)"""
    path = heartbeat_path(state)
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        at = datetime.fromisoformat(beat["beat_at"])
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: digest serve has not run over this state"
    except (OSError, ValueError, KeyError) as exc:
        return False, f"{path}: unreadable heartbeat ({exc})"
    age = (now - at).total_seconds()
    if beat.get("stopped"):
        return False, f"digest serve (pid {beat.get('pid')}) stopped {age:.0f} s ago"
    if age > STALE_AFTER:
        return False, f"stale: the last heartbeat is {age:.0f} s old (the limit is {STALE_AFTER} s)"
    return True, f"alive: pid {beat.get('pid')}, last heartbeat {max(age, 0):.0f} s ago"


