"""The two databases the state runs on, behind one small interface: an SQLite file (the default,
here) or a PostgreSQL URL (postgres.py). The table modules write SQL once, in SQLite's dialect
(dialect.py translates it), and every driver error becomes one StateError line."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from digest.models import DigestError, StateError
from digest.models.deadline import interrupted
from digest.models.errors import POSTGRES_SCHEMES, postgres_url
from digest.state.dialect import for_sqlite

BUSY_TIMEOUT = 30.0  # seconds an SQLite writer waits for another's transaction to end
# That wait in slices of this many seconds: sqlite3's own sleeps in C, deaf to a SIGTERM, which a
# run then heard only once the whole timeout had passed. Once the process is stopping, the wait
# goes on this long at most: time for another's short write to end (a sent mark that could not
# be written is sent again), none for a writer that is stuck.
BUSY_SLICE = 0.25
STOPPING_WAIT = 3.0
SCHEMES = POSTGRES_SCHEMES


class StateBusy(DigestError):
    """Another process held the database longer than the busy timeout: try again (exit 1)."""


class StateStopped(StateBusy):
    """The process is stopping (SIGTERM) while it waited for another's lock: the step was not
    written (exit 1); the next run does it."""


class StateAway(StateError):
    """The database server cannot be reached now (stopped, restarting, failing over), or gave
    no connection in time: a write may be tried again."""


class StateFull(StateAway):
    """The disk under an SQLite state is full: nothing of the step was written, and it may be
    tried again once there is room (a delivery pass waits for it as for a server away)."""


class StateLost(StateError):
    """The connection to the database server was lost during a statement (the server restarted,
    an administrator ended the session): whether it took effect is unknown, and the pool's next
    connection may serve. An idempotent write or a read may be sent again."""


def is_url(state: str | Path) -> bool:
    return str(state).startswith(SCHEMES)


def shown(state: str | Path) -> str:
    """The state as it may be printed: a URL without its password, cut as libpq cuts it (a
    '#', '?' or '@' in a password would fool urllib's split into showing part of it)."""
    if not is_url(state):
        return str(state)
    parts = postgres_url(str(state))
    if parts.problem:  # libpq would misread it: nothing of it can be shown safely
        return f"{parts.scheme}://(not a valid URL)"
    # The hosts and ports as written: a port that is not a number is the server's refusal to
    # say (and a bracketed IPv6 host keeps its brackets).
    user = f"{parts.user}@" if parts.user else ""
    return f"{parts.scheme}://{user}{parts.hosts}{parts.dbname}"  # no query: it may hold one


def connect(state: str | Path, timeout: float | None = None) -> Engine:
    if is_url(state):
        if problem := postgres_url(str(state)).problem:  # the CLI and the config refuse it first
            raise StateError(f"{shown(state)}: not a valid postgresql:// URL: {problem}")
        from digest.state.postgres import Postgres  # psycopg is imported only for a URL

        return Postgres(str(state))
    return SQLite(Path(state), timeout)


def _emptied(path: Path) -> bool:
    """A state file of 0 bytes with no write-ahead log beside it to recover from."""
    try:
        wal = Path(f"{path}-wal")
        return path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size)
    except OSError:  # no such file (a new state), or unreadable: sqlite3 says which
        return False


class SQLite:
    """One connection to a file, shared by the delivery threads one at a time (outbox.py's lock);
    BEGIN IMMEDIATE serializes writers, so lock() and SKIP LOCKED have nothing to add."""

    kind = "sqlite"

    def __init__(self, path: Path, timeout: float | None = None) -> None:
        self.name = str(path)
        self.timeout = BUSY_TIMEOUT if timeout is None else timeout
        if str(path) != ":memory:" and path.exists() and not (path.is_file() or path.is_dir()):
            # /dev/null was told "the file is empty ... delete it to start afresh".
            raise StateError(f"{path}: not a regular file; name a state database file")
        if _emptied(path):
            # SQLite would take it for a new database, and every digest of the lost state would
            # be made and sent again: a file truncated by a full disk or a bad copy, not a start.
            raise StateError(
                f"{path}: cannot use the state database: the file is empty (0 bytes); restore it"
                " from a backup, or delete it to start afresh"
            )
        try:
            if str(path) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(
                path, timeout=self.timeout, isolation_level=None, check_same_thread=False
            )
        except OSError as exc:
            raise StateError(f"{path}: cannot create the state folder ({exc.strerror})") from None
        except sqlite3.Error as exc:
            raise self.error(exc) from None
        self.db.row_factory = sqlite3.Row
        try:
            with self.errors():
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA foreign_keys=ON")
        except StateError:
            self.db.close()  # the file stays open otherwise, until the collector finds it
            raise

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        with self.errors():
            return _Rows(self, self.db.execute(for_sqlite(sql), params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.errors():
            self.db.executemany(for_sqlite(sql), rows)

    def script(self, ddl: str) -> None:
        for statement in ddl.split(";"):
            if statement.strip():
                self.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[SQLite]:
        # IMMEDIATE takes the write lock up front, so two runs never interleave half-decisions.
        self._begin()
        try:
            yield self
            self.execute("COMMIT")  # inside: a COMMIT that fails must not leave it open
        except BaseException:
            # SQLite may have rolled back already (a full disk, an I/O error): a second
            # ROLLBACK would fail and hide the error that matters.
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise

    def _begin(self) -> None:
        """BEGIN IMMEDIATE, waiting up to the busy timeout for another process's write to end,
        a slice at a time: a stop (deadline.interrupt(): SIGTERM) ends the wait within
        STOPPING_WAIT."""
        if self.timeout <= BUSY_SLICE:
            self.execute("BEGIN IMMEDIATE")
            return
        give_up, stopping = time.monotonic() + self.timeout, float("inf")
        self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SLICE * 1000)}")
        try:
            while True:
                try:
                    self.db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    busy = getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY")
                    if not busy or time.monotonic() >= give_up:
                        raise self.error(exc) from None
                    if interrupted() and stopping == float("inf"):
                        stopping = time.monotonic() + STOPPING_WAIT
                    if time.monotonic() >= stopping:
                        raise StateStopped(
                            f"{self.name}: stopped while waiting for another process's write to"
                            " the state database to end; nothing of this step was written"
                        ) from None
                except sqlite3.Error as exc:
                    raise self.error(exc) from None
        finally:
            with self.errors():
                self.db.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")

    def lock(self, name: str) -> None:
        """Serialize this transaction with others of the same name: BEGIN IMMEDIATE did."""

    def version(self) -> int:
        return int(self.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, number: int) -> None:
        self.execute(f"PRAGMA user_version = {int(number)}")

    def tables(self) -> list[str]:
        rows = self.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        return sorted(str(row[0]) for row in rows)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise self.error(exc) from None

    def error(self, exc: sqlite3.Error) -> DigestError:
        code = getattr(exc, "sqlite_errorname", "")
        where = self.name
        if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return StateBusy(
                f"{where}: the state database stayed locked by another process for"
                f" {self.timeout:g} s; try again"
            )
        reason = f"{exc}"
        if code.startswith("SQLITE_FULL") or (code.startswith("SQLITE_IOERR") and self._full()):
            # A full disk while the write-ahead log or its index is made reads "disk I/O error".
            # Its own kind: a pass whose disk was freed meanwhile had ended "the disk is full",
            # exit 2, its held-back deliveries unsent (reg33 O1).
            return StateFull(
                f"{where}: cannot use the state database: the disk is full; nothing of this step"
                " was written"
            )
        if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            reason = f"it is damaged ({exc}); restore it from a backup"
        elif code.startswith("SQLITE_READONLY") or self._folder_read_only(code):
            reason = (
                f"it or its folder is read-only ({exc}); SQLite writes its -wal and -shm beside it"
            )
        return StateError(f"{where}: cannot use the state database: {reason}")

    def _full(self) -> bool:
        try:
            return os.statvfs(Path(self.name).parent).f_bavail == 0
        except OSError:
            return False

    def _folder_read_only(self, code: str) -> bool:
        # A database in a read-only folder fails to open with SQLITE_CANTOPEN: the WAL needs its
        # -shm file beside it, even to read.
        folder = Path(self.name).parent
        return (
            code.startswith("SQLITE_CANTOPEN")
            and folder.is_dir()
            and not os.access(folder, os.W_OK)
        )


class _Rows:
    """An SQLite cursor whose errors (rows are read lazily) are StateErrors too."""

    def __init__(self, engine: SQLite, cursor: sqlite3.Cursor) -> None:
        self.engine, self.cursor = engine, cursor
        self.rowcount = cursor.rowcount

    def fetchone(self) -> Any:
        with self.engine.errors():
            return self.cursor.fetchone()

    def fetchall(self) -> list[Any]:
        with self.engine.errors():
            return self.cursor.fetchall()

    def __iter__(self) -> Iterator[Any]:
        with self.engine.errors():
            yield from self.cursor


if TYPE_CHECKING:
    from digest.state.postgres import Postgres

Engine = Union[SQLite, "Postgres"]
