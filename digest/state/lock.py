"""One run at a time over an SQLite state (fcntl.flock on <db>.lock, e.g. digest.db.lock, dropped
by the kernel when its holder dies; on PostgreSQL workers run side by side and the database's own
locks decide), and the heartbeat a `digest serve` leaves for `digest health`: a file beside
SQLite, the workers table on PostgreSQL."""

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

from digest.models import DigestError, StateError
from digest.state.engine import is_url, shown

BEAT_SECONDS = 30  # the heartbeat job's interval
STALE_AFTER = 4 * BEAT_SECONDS  # a heartbeat older than this means the scheduler stopped ticking


class LockBusy(DigestError):
    """Another run holds the state folder's lock (exit 1: this run did nothing)."""


class LockStopped(LockBusy):
    """The process was told to stop (SIGTERM) while it waited for the lock: it did nothing. Its
    own kind, so that `digest run` exits 143 as stopped runs do, not 1 with "skipped after
    waiting 60 s" three seconds in."""


def lock_path(state: str | Path) -> Path:
    """<db>.lock beside the database file itself: its path resolved (a symlink to it, or
    another way of writing it, names the same lock) and its whole name kept (digest.db and
    digest.sqlite in one folder have a lock each: digest.db.lock, digest.sqlite.lock)."""
    path = Path(state).resolve()
    return path.with_name(path.name + ".lock")


def heartbeat_path(state: str | Path) -> Path:
    return _beside(Path(state), ".heartbeat")


def _beside(state: Path, suffix: str) -> Path:
    """state with `suffix` for its own; appended when the database already has that suffix, so a
    state named digest.heartbeat is never overwritten by its own heartbeat."""
    path = state.with_suffix(suffix)
    return state.with_name(state.name + suffix) if path == state else path


@contextlib.contextmanager
def run_lock(
    state: str | Path,
    wait: float = 0.0,
    stop: Callable[[], bool] = lambda: False,
    on_wait: Callable[[str], None] = lambda holder: None,
) -> Iterator[None]:
    """One run at a time over a state database, across processes: fcntl.flock on <db>.lock
    (lock_path: the database's resolved path, its whole name and ".lock").

    Waits up to `wait` seconds (on_wait(holder) once, when it starts waiting), then raises
    LockBusy; LockStopped as soon as stop() holds. The kernel drops the lock when its holder
    dies, so a crash never leaves it stuck.
    """
    if is_url(state):
        yield
        return
    if not str(state):
        raise StateError("the state database's path is empty ([state].path or --state)")
    path = lock_path(state)
    with _opened(path, "run lock") as handle:
        deadline = time.monotonic() + wait
        waited = False
        while not _try_lock(handle):
            holder = _holder(path)
            if stop():
                raise LockStopped(
                    f"another digest run holds {path} ({holder}); stopped while waiting for it"
                )
            if time.monotonic() >= deadline:
                raise LockBusy(
                    f"another digest run holds {path} ({holder}); skipped after waiting {wait:g} s"
                )
            if not waited:
                on_wait(holder)
                waited = True
            time.sleep(0.1)
        try:
            _write_holder(handle)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def serve_lock(state: str | Path) -> Iterator[None]:
    """One `digest serve` over an SQLite state (flock on <db>.serve, for its whole life): two
    both ran every job and wrote one heartbeat file, which then told of neither. On PostgreSQL
    any number serve side by side."""
    if is_url(state):
        yield
        return
    path = Path(state).resolve()
    path = path.with_name(path.name + ".serve")  # digest.db and digest.sqlite: a lock each
    with _opened(path, "serve lock") as handle:
        if not _try_lock(handle):
            raise StateError(
                f"another digest serve runs over {shown(state)} ({_holder(path)}): one serve per"
                " SQLite state; stop it first (several workers share a PostgreSQL state)"
            )
        try:
            _write_holder(handle)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _opened(path: Path, what: str) -> IO[str]:
    """A lock file beside the state, opened (created with its folder if need be)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a+", encoding="utf-8")
    except OSError as exc:
        raise StateError(
            f"{path}: cannot create the {what} ({exc.strerror}): the state folder must be"
            " writable by the user digest runs as"
        ) from None


def _write_holder(handle: IO[str]) -> None:
    """Who holds the lock, for the next run's waiting message: a courtesy. On a full disk it
    is not written (the lock is the kernel's, not the file's), and the state's own first write
    then fails with its one line; written unbuffered, so closing the file fails on nothing."""
    line = f"pid {os.getpid()} since {datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ}\n"
    try:
        os.ftruncate(handle.fileno(), 0)
        os.pwrite(handle.fileno(), line.encode(), 0)
    except OSError:
        pass


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


def write_heartbeat(state: str | Path, now: datetime, stopped: bool = False, **facts: Any) -> None:
    """A serve worker's heartbeat: its row in the workers table on PostgreSQL, else the file
    beside the database, written atomically so `digest health` never reads half of it."""
    if is_url(state):
        from digest.state.store import Store

        with Store(state) as store:
            store.beat(now, "serve", stopped=stopped, **facts)
        return
    if stopped:
        facts["stopped"] = True
    path = heartbeat_path(state)
    body = {"pid": os.getpid(), "beat_at": now.astimezone(UTC).isoformat(), **facts}
    tmp = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".heartbeat.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(body, handle)
        os.replace(tmp, path)
    except OSError as exc:  # a read-only or full folder: a traceback every beat, and at the stop
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise StateError(f"{path}: cannot write the heartbeat ({exc.strerror or exc})") from None


def health(state: str | Path, now: datetime | None, worker: str | None = None) -> tuple[bool, str]:
    """Is a `digest serve` ticking over this state (on PostgreSQL: the named worker, if one is
    named)? (alive, one line saying why). `now`: a clock to judge by (--now); None: this
    machine's, and on PostgreSQL the server's, as the workers' beats are timed."""
    if is_url(state):
        return _workers_health(state, now, worker)
    now = now or datetime.now(UTC)
    path = heartbeat_path(state)
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        stamp = beat.get("beat_at") if isinstance(beat, dict) else None
        at = datetime.fromisoformat(stamp) if isinstance(stamp, str) else None
        if at is None or at.tzinfo is None:
            raise ValueError("no beat_at time with its UTC offset")
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: digest serve has not run over this state"
    except (OSError, ValueError, KeyError) as exc:
        return False, f"{path}: unreadable heartbeat ({exc})"
    age = (now - at).total_seconds()
    if beat.get("stopped"):
        return False, f"digest serve (pid {beat.get('pid')}) stopped {_ago(age)}"
    if age > STALE_AFTER:
        return False, f"stale: the last heartbeat is {age:.0f} s old (the limit is {STALE_AFTER} s)"
    if -age > STALE_AFTER:  # "0 s ago" for a dead pid until the clock caught up with it
        return False, f"the last heartbeat is {-age:.0f} s ahead of this clock (stepped back?)"
    if beat.get("failing"):
        return (
            False,
            f"failing: pid {beat.get('pid')} ticks but its last job failed: {beat['failing']}",
        )
    return True, f"alive: pid {beat.get('pid')}, last heartbeat {max(age, 0):.0f} s ago"


def _ago(seconds: float) -> str:
    """How long ago a beat was; a `--now` before it had read "0 s ago" (ops20 F5)."""
    if seconds >= 0:
        return f"{seconds:.0f} s ago"
    return f"{-seconds:.0f} s after the time asked"


def _workers_health(
    state: str | Path, now: datetime | None, wanted: str | None
) -> tuple[bool, str]:
    """On PostgreSQL: the wanted worker (a container's own check) or else any serve worker,
    alive when its last heartbeat is recent."""
    from digest.state import engine
    from digest.state.store import Store

    # Read, never moved: an older database upgraded by a health check (a new container beside
    # old workers) shut those workers out; an empty one is no state yet, not made into one.
    db = engine.connect(state)
    try:
        empty = db.version() == 0
    finally:
        db.close()
    if empty:
        return False, f"no digest state in {shown(state)} yet: digest serve has not run over it"
    with Store(state, upgrade=False) as store:
        every = store.workers()
        server = None if now is not None else store.server_now()
    workers = [w for w in every if w["kind"] == "serve" and w["name"] in (wanted or w["name"],)]
    if not workers:
        who = f"worker {wanted}" if wanted else "digest serve"
        # A `digest run` worker beats too: it had been "has not run over this state" (ops22 F3).
        runs = [w for w in every if wanted and w["name"] == wanted]
        if runs:
            return False, (
                f"no heartbeat of a digest serve in {shown(state)}: {who} is a digest run"
                f" (its last beat {runs[0]['beat_at']}); health checks a serve's heartbeat"
            )
        return False, f"no heartbeat in {shown(state)}: {who} has not run over this state"
    lines, alive = [], 0
    for worker in workers:
        # On the server's clock, both ends: the workers' clocks need not agree (deployment.md).
        beat = worker["facts"].get("server_at")
        clock, timed = (server, beat) if server and beat else (now or datetime.now(UTC), None)
        at = datetime.fromisoformat(str(timed or worker["beat_at"]).replace("Z", "+00:00"))
        seconds = (clock - at).total_seconds()
        ticking = not worker["stopped"] and -STALE_AFTER <= seconds <= STALE_AFTER
        failing = ticking and bool(worker["facts"].get("failing"))
        alive += ticking and not failing
        how = "stopped" if worker["stopped"] else ("alive" if ticking else "stale")
        how = f"failing: {worker['facts']['failing']}" if failing else how
        lines.append(f"{worker['name']} {how} ({_ago(seconds)})")
    word = "alive" if alive else "not alive"
    return bool(alive), f"{word}: {alive} of {len(workers)} serve worker(s) ticking: " + ", ".join(
        lines
    )
