"""The PostgreSQL engine: a psycopg 3 pool behind the interface engine.py's SQLite offers, for
several workers on one database; rows read like sqlite3.Row, errors are one StateError line."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from digest.models import StateError
from digest.models.deadline import interrupted, pause
from digest.state.dialect import ddl_for_postgres, for_postgres
from digest.state.engine import StateAway, StateBusy, StateLost, StateStopped, shown

log = logging.getLogger("digest.state")

POOL_TIMEOUT = 30.0  # seconds a statement waits for a connection: a server restart fits in it
# Seconds a transaction waits for another's lock (lock()) before it gives up, in one line: one
# worker frozen or cut off while it held the papers' lock had held every other for 14 minutes,
# deaf to their SIGTERMs. The server ends such a holder's session sooner (SESSION).
LOCK_WAIT = 600.0
SAY_WAITING = 30.0  # seconds of such a wait before the log says what it waits for
# The client's side of each connection: a server gone silent (a partition, a machine frozen) is
# noticed within about a minute, not after the two hours of TCP's defaults. The URL's own win.
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 60_000,  # ms a sent request may go unacknowledged
}
# The server's side, for each session, where neither the server's settings nor the URL say
# otherwise: a worker frozen or cut off inside a transaction loses its session, and with it its
# locks, after 5 minutes idle in it (far above any pause of ours between two statements: a
# batch of 5,000 papers keyed); a client gone silent is noticed as above.
SESSION = {
    "idle_in_transaction_session_timeout": "300000",  # ms
    "tcp_keepalives_idle": "30",
    "tcp_keepalives_interval": "10",
    "tcp_keepalives_count": "3",
    "tcp_user_timeout": "60000",  # ms
}
# psycopg warns of what follows an error it raises (a pipeline that could not end after a full
# disk), and its pool of every failed reconnect and dropped connection (a server restart: dozens,
# over two lines each); the statement that failed says why in its one StateError line.
logging.getLogger("psycopg").setLevel(logging.ERROR)


class Postgres:
    """A psycopg 3 pool: a lost connection is replaced and the delivery threads read side by
    side; a transaction keeps one connection for its thread until it commits."""

    kind = "postgres"

    def __init__(self, url: str) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.name, self.url, self.psycopg = shown(url), url, psycopg
        self.local = threading.local()
        self.gone = ""  # why the server could not be reached, since the pool last timed out
        # What the pool's last new or checked connection met, "" once one passes its check
        # (is given): why it had none to give when the server can be reached (see _none()).
        self.failed = ""
        given = self._given()
        self.tcp: dict[str, Any] = {k: v for k, v in KEEPALIVES.items() if k not in given}
        try:
            # One direct connection first: the pool would only say it timed out, not why.
            self._connect(10).close()
        except psycopg.Error as exc:
            raise StateError(f"{self.name}: cannot connect ({_first_line(exc)})") from None
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=4,
            kwargs={"autocommit": True, "row_factory": _row_factory, **self.tcp},
            configure=self._configured,
            check=self._checked,
            open=True,
            timeout=POOL_TIMEOUT,
        )

    def _run(self, conn: Any, sql: str, params: Sequence[Any]) -> _Result:
        with self.errors():
            cur = conn.execute(for_postgres(sql), params)
            return _Result(cur.fetchall() if cur.description else [], cur.rowcount)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        conn = getattr(self.local, "conn", None)
        if conn is not None:
            return self._run(conn, sql, params)
        try:
            with self.errors(), self._pooled() as conn:
                return self._run(conn, sql, params)
        except StateLost:
            if not sql.lstrip().upper().startswith("SELECT"):
                raise
        # A read changes nothing: asked again on the pool's next connection, a server that
        # ended one session (a restart, an administrator) costs no run.
        with self.errors(), self._pooled() as conn:
            return self._run(conn, sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        with self.transaction(), self.errors(), self.local.conn.cursor() as cur:
            cur.executemany(for_postgres(sql), rows)

    def script(self, ddl: str) -> None:
        for statement in ddl.split(";"):
            if statement.strip():
                self.execute(ddl_for_postgres(statement))

    @contextmanager
    def transaction(self) -> Iterator[Postgres]:
        if getattr(self.local, "conn", None) is not None:  # executemany inside a transaction
            yield self
            return
        with self.errors(), self._pooled() as conn:
            self.local.conn = conn
            try:
                with conn.transaction():
                    yield self
            finally:
                self.local.conn = None

    @contextmanager
    def _pooled(self) -> Iterator[Any]:
        """A connection from the pool; while the server is known gone, one direct try decides
        first, so that each later statement of a failing run (its sent marks, its failure
        record) is not another wait of POOL_TIMEOUT."""
        if self.gone:
            if why := self._unreachable(timeout=2):
                raise StateAway(f"{self.name}: the server is still unreachable ({why})")
            self.gone = ""
        with self.pool.connection() as conn:
            yield conn

    def lock(self, name: str) -> None:
        """Serialize this transaction with every other holding the same name, on any machine.
        Tried again and again, not queued for in the server (where a wait hears nothing): a stop
        (deadline.interrupt(): SIGTERM) ends the wait, and after LOCK_WAIT it gives up."""
        key, what = (f"digest:{name}",), name.replace("\x1f", " ")
        started, delay, said = time.monotonic(), 0.05, False
        while not self.execute("SELECT pg_try_advisory_xact_lock(hashtext(?))", key).fetchone()[0]:
            waited = time.monotonic() - started
            if interrupted():
                raise StateStopped(
                    f"{self.name}: stopped while waiting for another worker's lock on {what};"
                    " nothing of this step was written"
                )
            if waited >= LOCK_WAIT:
                raise StateError(
                    f"{self.name}: gave up after waiting {_span(LOCK_WAIT)} for another worker's"
                    f" lock on {what} (a worker frozen or cut off while it held it?); nothing of"
                    " this step was written"
                )
            if waited >= SAY_WAITING and not said:
                log.warning(
                    "%s: waiting for another worker's lock on %s (for up to %s)",
                    *(self.name, what, _span(LOCK_WAIT)),
                )
                said = True
            pause(delay)
            delay = min(delay * 2, 1.0)

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

    def tables(self) -> list[str]:
        rows = self.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return sorted(str(row[0]) for row in rows)

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def errors(self) -> Iterator[None]:
        from psycopg_pool import PoolTimeout

        try:
            yield
        except self.psycopg.errors.LockNotAvailable as exc:
            raise StateBusy(f"{self.name}: {_first_line(exc)}; try again") from None
        except PoolTimeout:
            self.gone = self._unreachable()
            raise StateAway(  # a server away, or one back whose pool still reconnects
                f"{self.name}: no connection to the server within {POOL_TIMEOUT:g} s"
                f" ({self.gone or self._none()})"
            ) from None
        except self.psycopg.Error as exc:
            kind = StateLost if _lost(exc) else StateError
            raise kind(f"{self.name}: {_first_line(exc)}") from None

    def _none(self) -> str:
        """Why the pool gave no connection from a server that takes one: an administrator
        ending the database's sessions every 0.5 s had been read as "every connection stayed
        busy" (nothing was: the pool's connections were ended as it made or checked them)."""
        if self.failed:
            return self.failed
        stats = self.pool.get_stats()
        if stats.get("pool_available", 0) == 0 and stats.get("pool_size", 0) >= self.pool.max_size:
            return f"all {self.pool.max_size} connections stayed busy"
        return "the pool made none in time"

    def _configured(self, conn: Any) -> None:
        with self._meeting():
            _configure(conn)

    def _checked(self, conn: Any) -> None:
        from psycopg_pool import ConnectionPool

        with self._meeting():
            ConnectionPool.check_connection(conn)
        # Cleared only as one is given: one made (configured) while the pool waited to check
        # again had cleared it, and the wait ended with the connection unchecked.
        self.failed = ""

    @contextmanager
    def _meeting(self) -> Iterator[None]:
        """What one of the pool's connections meets as it is made or checked, kept in
        `failed`: a session the server ended (57P01-03, class 08) said as such."""
        try:
            yield
        except self.psycopg.Error as exc:
            said = _first_line(exc)
            ended = f"the server kept ending the pool's sessions: {said}"
            self.failed = ended if _lost(exc) else said
            raise

    def _unreachable(self, timeout: int = 10) -> str:
        """What one direct connection is told, or "" if it is made: why the pool had none."""
        try:
            self._connect(timeout).close()
        except self.psycopg.Error as exc:
            return _first_line(exc)
        return ""

    def _connect(self, timeout: int) -> Any:
        """One connection as the pool makes them, within `timeout` seconds unless the URL says
        how long itself: overridden, a bad `connect_timeout` in it connected here, and failed
        every connection of the pool for 30 s, "every connection stayed busy"."""
        if "connect_timeout" in self._given():
            return self.psycopg.connect(self.url, **self.tcp)
        return self.psycopg.connect(self.url, connect_timeout=timeout, **self.tcp)

    def _given(self) -> set[str]:
        """The connection parameters the URL sets itself (they win over ours)."""
        try:
            return set(self.psycopg.conninfo.conninfo_to_dict(self.url))
        except self.psycopg.Error:
            return set()


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


def _configure(conn: Any) -> None:
    """Every transaction READ COMMITTED, whatever the server's default: the migration and the
    claims lock, then read, and only there does a read see what the lock's holder wrote (under
    a default of SERIALIZABLE, workers starting together made the tables twice). And SESSION's
    settings, where the server and the URL leave them at their defaults."""
    from psycopg import IsolationLevel

    conn.isolation_level = IsolationLevel.READ_COMMITTED
    wanted = ", ".join(f"('{name}', '{value}')" for name, value in SESSION.items())
    conn.execute(
        "SELECT set_config(name, wanted.value, false) FROM pg_settings"
        f" JOIN (VALUES {wanted}) AS wanted (name, value) USING (name)"
        " WHERE source = 'default'"
    )


def _lost(exc: Any) -> bool:
    """Was the session lost (ended by the server, or its socket closed), not the statement
    refused? Class 08 is a connection exception; 57P01-03 an administrator's or a shutdown's."""
    state = exc.sqlstate or ""
    if state.startswith("08") or state in {"57P01", "57P02", "57P03"}:
        return True
    return not state and "server closed the connection" in str(exc)


def _row_factory(cursor: Any) -> Any:
    index = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: Row(values, index)


def _span(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
