"""The state database's connection: opening SQLite, migrating the schema (schema.py, versioned
with PRAGMA user_version) and the transactions every table module writes in."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from digest.models import Paper, StateError
from digest.state.catalog import Catalog, row_paper
from digest.state.deliveries import Deliveries, stamp
from digest.state.journal import Journal
from digest.state.ratings import Ratings
from digest.state.schema import PAPER_KEYS_VERSION, SCHEMA


class Store(Deliveries):
    """The state database: opens it, migrates it, and owns its transactions; the tables live in
    catalog.py (store.papers), journal.py (store.journal), ratings.py (store.ratings) and
    deliveries.py (digests, outbox, runs: methods of the store itself)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # The outbox's delivery threads share this connection, one at a time, under a lock.
            self.db = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.papers = Catalog(self.db, self.transaction, stamp)
            self.journal = Journal(self.db, self.transaction, stamp)
            self.ratings = Ratings(self.db, self.transaction, stamp)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StateError(f"{self.path}: cannot use the state database ({exc})") from None
        except OSError as exc:
            raise StateError(f"{self.path}: cannot create the state folder ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(SCHEMA):
            raise StateError(f"{self.path}: made by a newer digest (schema {version})")
        for number, script in enumerate(SCHEMA[version:], start=version + 1):
            with self.transaction():
                for statement in script.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {number}")
        if version < PAPER_KEYS_VERSION:
            self.papers.key_all()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        # IMMEDIATE takes the write lock up front, so two runs never interleave half-decisions.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # papers

    def add_papers(self, papers: Iterable[Paper], now: datetime) -> int:
        """Keep the papers not known under any of their keys, complete the known ones; return
        how many were new (see catalog.py)."""
        return self.papers.add(papers, now)

    def papers_after(self, seq: int) -> list[tuple[int, Paper]]:
        rows = self.db.execute("SELECT * FROM papers WHERE seq > ? ORDER BY seq", (seq,))
        return [(row["seq"], row_paper(row)) for row in rows]

    def latest_seq(self) -> int:
        return int(self.db.execute("SELECT coalesce(max(seq), 0) FROM papers").fetchone()[0])

    def count_papers(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM papers").fetchone()[0])

