"""Digests made per subscriber and period, the papers each subscriber was given, the outbox of
deliveries and the log of runs: the Store's own tables, as methods of the Store (store.py)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from digest.models import Digest, Message
from digest.state.catalog import papers_of


def stamp(moment: datetime) -> str:
    """One text form for every instant, so SQLite can compare them as strings."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


class Deliveries:
    """The digests, sent, outbox and runs tables, over the store's connection."""

    db: sqlite3.Connection
    transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]

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

    def mark_many(
        self, sent: Sequence[tuple[int, str, datetime]], parts: Sequence[tuple[int, int]] = ()
    ) -> None:
        """Several rows' marks in one transaction (the outbox's group commit): (row id, receipt,
        when) sent, as mark_sent; (row id, parts sent), as record_parts."""
        with self.transaction() as db:
            db.executemany(
                "UPDATE outbox SET parts_sent = ? WHERE id = ?", [(n, i) for i, n in parts]
            )
            db.executemany(
                "UPDATE outbox SET status = 'sent', sent_at = ?, receipt = ?, last_error = '',"
                " attempts = attempts + 1, next_try_at = NULL WHERE id = ?",
                [(stamp(when), receipt, row_id) for row_id, receipt, when in sent],
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
