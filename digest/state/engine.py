"""The two databases the state runs on, behind one small interface: an SQLite file (the default)
or a PostgreSQL URL. The table modules write SQL once, in SQLite's dialect with ? marks; the
PostgreSQL engine translates it, and every driver error becomes one StateError line."""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from digest.models import DigestError, StateError

BUSY_TIMEOUT = 30.0  # seconds an SQLite writer waits for another's transaction to end
SCHEMES = ("postgresql://", "postgres://")


class StateBusy(DigestError):
    """Another process held the database longer than the busy timeout: try again (exit 1)."""


def is_url(state: str | Path) -> bool:
    return str(state).startswith(SCHEMES)


def shown(state: str | Path) -> str:
    """The state as it may be printed: a URL without its password."""
    if not is_url(state):
        return str(state)
    parts = urlsplit(str(state))
    host = parts.hostname or ""
    netloc = (f"{parts.username}@" if parts.username else "") + host
    netloc += f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def connect(state: str | Path, timeout: float | None = None) -> Engine:
    return Postgres(str(state)) if is_url(state) else SQLite(Path(state), timeout)


class SQLite:
    """One connection to a file, shared by the delivery threads one at a time (outbox.py's lock);
    BEGIN IMMEDIATE serializes writers, so lock() and SKIP LOCKED have nothing to add."""

    kind = "sqlite"

    def __init__(self, path: Path, timeout: float | None = None) -> None:
        self.name = str(path)
        self.timeout = BUSY_TIMEOUT if timeout is None else timeout
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
        with self.errors():
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        with self.errors():
            return _Rows(self, self.db.execute(_for_sqlite(sql), params))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.errors():
            self.db.executemany(_for_sqlite(sql), rows)

    def script(self, ddl: str) -> None:
        for statement in ddl.split(";"):
            if statement.strip():
                self.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[SQLite]:
        # IMMEDIATE takes the write lock up front, so two runs never interleave half-decisions.
        self.execute("BEGIN IMMEDIATE")
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

    def lock(self, name: str) -> None:
        """Serialize this transaction with others of the same name: BEGIN IMMEDIATE did."""

    def version(self) -> int:
        return int(self.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, number: int) -> None:
        self.execute(f"PRAGMA user_version = {int(number)}")

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
                f"{where}: the state database stayed locked by another digest process for"
                f" {self.timeout:g} s; try again"
            )
        reason = f"{exc}"
        if code.startswith("SQLITE_FULL"):
            reason = "the disk is full; nothing of this step was written"
        elif code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            reason = f"it is damaged ({exc}); restore it from a backup"
        elif code.startswith("SQLITE_READONLY"):
            reason = f"it or its folder is read-only ({exc})"
        return StateError(f"{where}: cannot use the state database: {reason}")


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


class Postgres:
    """A psycopg 3 pool: a lost connection is replaced and the delivery threads read side by
    side; a transaction keeps one connection for its thread until it commits."""

    kind = "postgres"

    def __init__(self, url: str) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.name, self.psycopg = shown(url), psycopg
        self.local = threading.local()
        try:
            # One direct connection first: the pool would only say it timed out, not why.
            psycopg.connect(url, connect_timeout=10).close()
        except psycopg.Error as exc:
            raise StateError(f"{self.name}: cannot connect ({_first_line(exc)})") from None
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=4,
            kwargs={"autocommit": True, "row_factory": _row_factory},
            check=ConnectionPool.check_connection,
            open=True,
            timeout=30,
        )

    def _run(self, conn: Any, sql: str, params: Sequence[Any]) -> _Result:
        with self.errors():
            cur = conn.execute(_for_postgres(sql), params)
            return _Result(cur.fetchall() if cur.description else [], cur.rowcount)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        conn = getattr(self.local, "conn", None)
        if conn is not None:
            return self._run(conn, sql, params)
        with self.errors(), self.pool.connection() as conn:
            return self._run(conn, sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        with self.transaction(), self.errors(), self.local.conn.cursor() as cur:
            cur.executemany(_for_postgres(sql), rows)

    def script(self, ddl: str) -> None:
        for statement in ddl.split(";"):
            if statement.strip():
                self.execute(_ddl_for_postgres(statement))

    @contextmanager
    def transaction(self) -> Iterator[Postgres]:
        if getattr(self.local, "conn", None) is not None:  # executemany inside a transaction
            yield self
            return
        with self.errors(), self.pool.connection() as conn:
            self.local.conn = conn
            try:
                with conn.transaction():
                    yield self
            finally:
                self.local.conn = None

    def lock(self, name: str) -> None:
        """Serialize this transaction with every other holding the same name, on any machine."""
        self.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"digest:{name}",))

    def version(self) -> int:
        # A query, not to_regclass(): its snapshot is taken after the migration lock, so it
        # sees the table another worker has just made (the catalog cache may not yet).
        found = self.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename = 'schema_version'"
        ).fetchone()[0]
        if not found:
            return 0
        row = self.execute("SELECT max(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def set_version(self, number: int) -> None:
        # Under the migration's lock (store.py): two workers never create it side by side.
        self.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        self.execute("DELETE FROM schema_version")
        self.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def errors(self) -> Iterator[None]:
        from psycopg_pool import PoolTimeout

        try:
            yield
        except self.psycopg.errors.LockNotAvailable as exc:
            raise StateBusy(f"{self.name}: {_first_line(exc)}; try again") from None
        except (self.psycopg.Error, PoolTimeout) as exc:
            raise StateError(f"{self.name}: {_first_line(exc)}") from None


class Row:
    """A PostgreSQL row read like sqlite3.Row: by position or by column name."""

    __slots__ = ("values", "index")

    def __init__(self, values: Sequence[Any], index: dict[str, int]) -> None:
        self.values, self.index = values, index

    def __getitem__(self, key: int | str) -> Any:
        return self.values[self.index[key] if isinstance(key, str) else key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def keys(self) -> list[str]:
        return list(self.index)


class _Result:
    def __init__(self, rows: list[Row], rowcount: int) -> None:
        self.rows, self.rowcount = rows, rowcount

    # Any, as sqlite3's: a row, read by position or name, or None.
    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)


def _row_factory(cursor: Any) -> Any:
    index = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row(values, index)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


_SKIP_LOCKED = re.compile(r"\s+FOR UPDATE SKIP LOCKED", re.IGNORECASE)
_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO", re.IGNORECASE)
_RETURNING = re.compile(r"\s+RETURNING\s", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
def _for_sqlite(sql: str) -> str:
    return _SKIP_LOCKED.sub("", sql)


@functools.lru_cache(maxsize=512)
def _for_postgres(sql: str) -> str:
    """? marks to %s; INSERT OR IGNORE to ON CONFLICT DO NOTHING (before any RETURNING)."""
    sql = sql.replace("%", "%%").replace("?", "%s")
    if _OR_IGNORE.match(sql):
        sql = _OR_IGNORE.sub("INSERT INTO", sql, count=1)
        found = _RETURNING.search(sql)
        at = found.start() if found else len(sql.rstrip())
        sql = sql[:at] + " ON CONFLICT DO NOTHING" + sql[at:]
    return sql


_TABLE = re.compile(r"CREATE TABLE (\w+) \(", re.IGNORECASE)
_INTEGER_KEY = re.compile(r"\bINTEGER PRIMARY KEY(?: AUTOINCREMENT)?", re.IGNORECASE)
_TYPES = [
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b", re.IGNORECASE), "BYTEA"),
]


def _ddl_for_postgres(statement: str) -> str:
    """SQLite's DDL in PostgreSQL's types. A table without an integer key gets the `rowid`
    SQLite gives every table, so ORDER BY rowid (insertion order) reads the same on both."""
    table = _TABLE.search(statement)
    keyed = _INTEGER_KEY.search(statement)
    statement = _INTEGER_KEY.sub("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", statement)
    for pattern, name in _TYPES:
        statement = pattern.sub(name, statement)
    if table and not keyed:
        at = table.end()
        statement = statement[:at] + "rowid BIGINT GENERATED ALWAYS AS IDENTITY," + statement[at:]
    return statement


Engine = SQLite | Postgres
