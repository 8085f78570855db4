"""The state database: the only module that touches SQLite.

Papers seen (in arrival order), digests made per subscriber and period, the papers each subscriber
was given, the outbox of deliveries and the log of runs. Schema versioned with PRAGMA user_version.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from digest.catalog import Catalog, papers_of, row_paper
from digest.journal import SCHEMA as JOURNAL_SCHEMA
from digest.journal import Journal
from digest.models import Digest, Message, Paper, StateError
from digest.ratings import SCHEMA as RATINGS_SCHEMA
from digest.ratings import Ratings

SCHEMA = [
    # version 1
    """
    CREATE TABLE papers (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,  -- arrival order: "new since" is seq > n
        id         TEXT NOT NULL UNIQUE,
        title      TEXT NOT NULL,
        abstract   TEXT NOT NULL,
        authors    TEXT NOT NULL,                      -- JSON list
        categories TEXT NOT NULL,                      -- JSON list
        venue      TEXT NOT NULL,
        url        TEXT NOT NULL,
        code_url   TEXT NOT NULL,
        published  TEXT,
        source     TEXT NOT NULL,
        first_seen TEXT NOT NULL
    );
    CREATE TABLE digests (
        id          INTEGER PRIMARY KEY,
        subscriber  TEXT NOT NULL,
        period      TEXT NOT NULL,
        day         TEXT NOT NULL,
        made_at     TEXT NOT NULL,
        through_seq INTEGER NOT NULL,                  -- papers up to here were considered
        picked      INTEGER NOT NULL,
        top_score   REAL,
        UNIQUE (subscriber, period)
    );
    -- A paper given to a subscriber once is never given again, whatever happens to delivery.
    CREATE TABLE sent (
        subscriber TEXT NOT NULL,
        paper_id   TEXT NOT NULL,
        digest_id  INTEGER NOT NULL REFERENCES digests(id),
        PRIMARY KEY (subscriber, paper_id)
    );
    CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY,
        digest_id   INTEGER NOT NULL REFERENCES digests(id),
        subscriber  TEXT NOT NULL,
        period      TEXT NOT NULL,
        day         TEXT NOT NULL,
        channel     TEXT NOT NULL,                     -- the channel's name within the subscriber
        kind        TEXT NOT NULL,
        message     TEXT NOT NULL,                     -- JSON: subject, text, html
        status      TEXT NOT NULL DEFAULT 'pending',   -- pending | sent | dead
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_try_at TEXT,
        last_error  TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        sent_at     TEXT,
        receipt     TEXT NOT NULL DEFAULT '',
        UNIQUE (subscriber, period, channel)
    );
    CREATE INDEX outbox_due ON outbox (status, next_try_at);
    CREATE TABLE runs (
        id          INTEGER PRIMARY KEY,
        started_at  TEXT NOT NULL,
        finished_at TEXT,
        clock       TEXT NOT NULL,                     -- the run's --now
        outcome     TEXT NOT NULL DEFAULT 'running',
        summary     TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # version 2 (channels): how many parts of a split message the server already has
    """
    ALTER TABLE outbox ADD COLUMN parts_sent INTEGER NOT NULL DEFAULT 0;
    """,
    # (sources): every key a paper is known by (arXiv id, DOI, OpenReview forum, title hash)
    # points at its one row, so a paper arriving under another key is the same paper; and the
    # arXiv papers that subscribers `like`, looked up once (paper NULL: arXiv does not know it).
    """
    CREATE TABLE paper_keys (
        key      TEXT PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id)
    );
    CREATE INDEX paper_keys_paper ON paper_keys (paper_id);
    CREATE TABLE liked (
        arxiv_id  TEXT PRIMARY KEY,
        paper     TEXT,                                -- JSON of the paper, or NULL: unknown id
        looked_up TEXT NOT NULL
    );
    """,
    # (scheduling): alerts, quiet-period notices, per-source outcomes; see journal.py
    JOURNAL_SCHEMA,
    # (ranking): subscribers' ratings of papers, and the fitted ranking space; see ratings.py
    RATINGS_SCHEMA,
]
# The papers stored before paper_keys existed get their keys when the store first opens.
PAPER_KEYS_VERSION = next(i for i, s in enumerate(SCHEMA, 1) if "CREATE TABLE paper_keys" in s)


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    subscriber: str
    period: str
    day: date
    channel: str
    kind: str
    message: Message
    status: str
    attempts: int
    next_try_at: str | None
    last_error: str
    parts_sent: int = 0
    purpose: str = "digest"  # digest | alert | notice


def stamp(moment: datetime) -> str:
    """One text form for every instant, so SQLite can compare them as strings."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
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

    # digests and what each subscriber was given

    def has_digest(self, subscriber: str, period: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM digests WHERE subscriber = ? AND period = ?", (subscriber, period)
        ).fetchone()
        return row is not None

    def considered_through(self, subscriber: str) -> int:
        """The last paper seq an earlier digest of this subscriber looked at (0: none yet)."""
        row = self.db.execute(
            "SELECT coalesce(max(through_seq), 0) FROM digests WHERE subscriber = ?", (subscriber,)
        ).fetchone()
        return int(row[0])

    def sent_ids(self, subscriber: str, ids: Iterable[str]) -> set[str]:
        return papers_of(self.db, "sent", subscriber, ids)

    def record_digest(
        self,
        digest: Digest,
        through_seq: int,
        messages: Sequence[tuple[str, str, Message]],
        purpose: str = "digest",  # "notice": the one-line message of a quiet period
    ) -> int | None:
        """Write the digest, its papers and one outbox row per (channel name, kind, message).

        All in one transaction, before any network call. Returns None when a digest for this
        subscriber and period exists already (another run got there first).
        """
        made = stamp(digest.made_at)
        top = max((s.score for s in digest.items), default=None)
        with self.transaction() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO digests (subscriber, period, day, made_at, through_seq,"
                " picked, top_score) VALUES (?,?,?,?,?,?,?)",
                (
                    digest.subscriber,
                    digest.period,
                    digest.day.isoformat(),
                    made,
                    through_seq,
                    len(digest.items),
                    top,
                ),
            )
            if cur.rowcount == 0:
                return None
            digest_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT OR IGNORE INTO sent (subscriber, paper_id, digest_id) VALUES (?,?,?)",
                [(digest.subscriber, s.paper.id, digest_id) for s in digest.items],
            )
            db.executemany(
                "INSERT INTO outbox (digest_id, subscriber, period, day, channel, kind, message,"
                " created_at, purpose) VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        digest_id,
                        digest.subscriber,
                        digest.period,
                        digest.day.isoformat(),
                        name,
                        kind,
                        json.dumps(msg.as_dict()),
                        made,
                        purpose,
                    )
                    for name, kind, msg in messages
                ],
            )
            return digest_id

    # the outbox

    def due(self, now: datetime) -> list[OutboxRow]:
        rows = self.db.execute(
            "SELECT * FROM outbox WHERE status = 'pending'"
            " AND (next_try_at IS NULL OR next_try_at <= ?) ORDER BY id",
            (stamp(now),),
        )
        return [_outbox(r) for r in rows]

    def outbox(self, status: str | None = None) -> list[OutboxRow]:
        query, args = "SELECT * FROM outbox ORDER BY id", ()
        if status:
            query, args = "SELECT * FROM outbox WHERE status = ? ORDER BY id", (status,)
        return [_outbox(r) for r in self.db.execute(query, args)]

    def mark_sent(self, row_id: int, receipt: str, now: datetime) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, receipt = ?, last_error = '',"
                " attempts = attempts + 1, next_try_at = NULL WHERE id = ?",
                (stamp(now), receipt, row_id),
            )

    def mark_failed(self, row_id: int, error: str, next_try: datetime | None) -> None:
        """Count a failed attempt; with no next try the row is dead until `digest retry`."""
        with self.transaction() as db:
            db.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try_at = ?,"
                " status = ? WHERE id = ?",
                (
                    error,
                    None if next_try is None else stamp(next_try),
                    "dead" if next_try is None else "pending",
                    row_id,
                ),
            )

    def record_parts(self, row_id: int, parts_sent: int) -> None:
        """Persist how far a split message got, before the channel posts the next part."""
        with self.transaction() as db:
            db.execute("UPDATE outbox SET parts_sent = ? WHERE id = ?", (parts_sent, row_id))

    def revive_dead(self, subscriber: str | None = None) -> int:
        """Dead rows become due again with fresh attempts; parts already sent stay sent."""
        query = (
            "UPDATE outbox SET status = 'pending', attempts = 0, next_try_at = NULL"
            " WHERE status = 'dead'"
        )
        with self.transaction() as db:
            if subscriber is None:
                return db.execute(query).rowcount
            return db.execute(query + " AND subscriber = ?", (subscriber,)).rowcount

    def outbox_counts(self) -> dict[str, int]:
        rows = self.db.execute("SELECT status, count(*) FROM outbox GROUP BY status")
        return {status: n for status, n in rows}

    # runs

    def start_run(self, started: datetime, clock: datetime) -> int:
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO runs (started_at, clock) VALUES (?, ?)", (stamp(started), stamp(clock))
            )
            return int(cur.lastrowid or 0)

    def finish_run(
        self, run_id: int, finished: datetime, outcome: str, summary: dict[str, Any]
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET finished_at = ?, outcome = ?, summary = ? WHERE id = ?",
                (stamp(finished), outcome, json.dumps(summary), run_id),
            )

    def runs(self, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,))
        return [{**dict(r), "summary": json.loads(r["summary"])} for r in rows]


def _outbox(row: sqlite3.Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        subscriber=row["subscriber"],
        period=row["period"],
        day=date.fromisoformat(row["day"]),
        channel=row["channel"],
        kind=row["kind"],
        message=Message.from_dict(json.loads(row["message"])),
        status=row["status"],
        attempts=row["attempts"],
        next_try_at=row["next_try_at"],
        last_error=row["last_error"],
        parts_sent=row["parts_sent"],
        purpose=row["purpose"],
    )
