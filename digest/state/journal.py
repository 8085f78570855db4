"""The state tables of scheduling and alerts, on store.py's connection: the alerts given (one per
subscriber and paper), the alert matches held for the next digest, how far each subscriber's alerts
have looked, the outbox rows of alerts and notices, and every source's outcome in every run."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from digest.models import Held, Message, Scored
from digest.state.catalog import giving, papers_of, row_paper
from digest.state.engine import Engine
from digest.state.tables import Tables

# store.SCHEMA's migration for these tables. The outbox is rebuilt (SQLite cannot drop a NOT NULL)
# so that an alert or a notice row needs no digest row: digest_id NULL, and a `purpose`.
SCHEMA = """
    CREATE TABLE outbox_new (
        id          INTEGER PRIMARY KEY,
        digest_id   INTEGER REFERENCES digests(id),    -- NULL for alerts and notices
        subscriber  TEXT NOT NULL,
        period      TEXT NOT NULL,                     -- alert:<paper id> for an alert
        day         TEXT NOT NULL,
        channel     TEXT NOT NULL,
        kind        TEXT NOT NULL,
        message     TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'pending',
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_try_at TEXT,
        last_error  TEXT NOT NULL DEFAULT '',
        created_at  TEXT NOT NULL,
        sent_at     TEXT,
        receipt     TEXT NOT NULL DEFAULT '',
        parts_sent  INTEGER NOT NULL DEFAULT 0,
        purpose     TEXT NOT NULL DEFAULT 'digest',    -- digest | alert | notice
        UNIQUE (subscriber, period, channel)
    );
    INSERT INTO outbox_new (id, digest_id, subscriber, period, day, channel, kind, message, status,
        attempts, next_try_at, last_error, created_at, sent_at, receipt, parts_sent)
    SELECT id, digest_id, subscriber, period, day, channel, kind, message, status,
        attempts, next_try_at, last_error, created_at, sent_at, receipt, parts_sent FROM outbox;
    DROP TABLE outbox;
    ALTER TABLE outbox_new RENAME TO outbox;
    CREATE INDEX outbox_due ON outbox (status, next_try_at);
    CREATE TABLE alerts (
        subscriber TEXT NOT NULL,
        paper_id   TEXT NOT NULL,
        day        TEXT NOT NULL,                      -- the subscriber's local day: the daily cap
        score      REAL NOT NULL,
        reasons    TEXT NOT NULL,                      -- JSON list of sentences
        made_at    TEXT NOT NULL,
        PRIMARY KEY (subscriber, paper_id)
    );
    CREATE TABLE alert_marks (
        subscriber  TEXT PRIMARY KEY,
        through_seq INTEGER NOT NULL                   -- papers up to here were looked at
    );
    CREATE TABLE source_runs (
        run_id  INTEGER NOT NULL REFERENCES runs(id),
        source  TEXT NOT NULL,
        at      TEXT NOT NULL,
        read    INTEGER NOT NULL,
        new     INTEGER NOT NULL,
        error   TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (run_id, source)
    );
    CREATE INDEX source_runs_at ON source_runs (source, at)
"""

# store.SCHEMA's migration for the held alerts: one row per subscriber and paper, so however many
# workers hold a paper at once it is held (and counted) once. It is carried by the first digest
# whose `sent` rows name it; an alert for it after all (a race) takes it out too.
HOLDS_SCHEMA = """
    CREATE TABLE alert_holds (
        subscriber TEXT NOT NULL,
        paper_id   TEXT NOT NULL,
        day        TEXT NOT NULL,                      -- the subscriber's local day
        score      REAL NOT NULL,
        terms      TEXT NOT NULL,                      -- JSON list: the words that matched
        because    TEXT NOT NULL,
        reasons    TEXT NOT NULL,                      -- JSON list: why it is an alert
        cause      TEXT NOT NULL,                      -- cap (daily cap) | digest (came with it)
        held_at    TEXT NOT NULL,
        PRIMARY KEY (subscriber, paper_id)
    )
"""
# Pending: held, and neither given in a digest nor alerted since.
_PENDING = (
    " NOT EXISTS (SELECT 1 FROM sent s WHERE s.subscriber = h.subscriber"
    " AND s.paper_id = h.paper_id) AND NOT EXISTS (SELECT 1 FROM alerts a"
    " WHERE a.subscriber = h.subscriber AND a.paper_id = h.paper_id)"
)

# (channel name, channel kind, message): one outbox row each.
Messages = Sequence[tuple[str, str, Message]]


class Journal(Tables):
    """The alert, notice and source-outcome tables."""

    # alerts

    def alerted_ids(self, subscriber: str, ids: Iterable[str]) -> set[str]:
        return papers_of(self.db, "alerts", subscriber, ids)

    def alerts_on(self, subscriber: str, day: date) -> int:
        row = self.db.execute(
            "SELECT count(*) FROM alerts WHERE subscriber = ? AND day = ?",
            (subscriber, day.isoformat()),
        ).fetchone()
        return int(row[0])

    def last_alert_at(self, subscriber: str) -> datetime | None:
        """When the subscriber's latest alert was made (None: none yet)."""
        row = self.db.execute(
            "SELECT max(made_at) FROM alerts WHERE subscriber = ?", (subscriber,)
        ).fetchone()
        return datetime.fromisoformat(row[0]) if row[0] else None

    def alerted_after(self, subscriber: str, seq: int) -> int:
        """How many of the papers stored after seq `seq` were alerted to this subscriber."""
        row = self.db.execute(
            "SELECT count(*) FROM alerts a JOIN papers p ON p.id = a.paper_id"
            " WHERE a.subscriber = ? AND p.seq > ?",
            (subscriber, seq),
        ).fetchone()
        return int(row[0])

    def alerts(self, subscriber: str | None = None) -> list[dict[str, Any]]:
        """Every alert given, oldest first: subscriber, paper_id, day, score, reasons, made_at."""
        where, args = ("", []) if subscriber is None else (" WHERE subscriber = ?", [subscriber])
        rows = self.db.execute(
            "SELECT subscriber, paper_id, day, score, reasons, made_at"
            f" FROM alerts{where} ORDER BY made_at, rowid",
            args,
        )
        return [{**dict(r), "reasons": json.loads(r["reasons"])} for r in rows]

    def alert_mark(self, subscriber: str) -> int:
        row = self.db.execute(
            "SELECT through_seq FROM alert_marks WHERE subscriber = ?", (subscriber,)
        ).fetchone()
        return int(row[0]) if row else 0

    def set_alert_mark(self, subscriber: str, seq: int) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO alert_marks (subscriber, through_seq) VALUES (?, ?) ON CONFLICT"
                " (subscriber) DO UPDATE SET through_seq = CASE WHEN excluded.through_seq"
                " > alert_marks.through_seq THEN excluded.through_seq"
                " ELSE alert_marks.through_seq END",
                (subscriber, seq),
            )

    def record_alert(
        self,
        subscriber: str,
        paper_id: str,
        day: date,
        score: float,
        reasons: Sequence[str],
        now: datetime,
        messages: Messages,
        cap: int | None = None,
        *,
        held: tuple[Scored, Sequence[str]] | None = None,
    ) -> str:
        """The alert and its outbox rows in one transaction: "alerted"; "taken" if this paper was
        alerted to this subscriber before (another run got there first); "held" if `cap` alerts
        were given on that day already, and `held` (the match, its reasons) is then held for the
        next digest in the same transaction ("capped": nothing given to hold). Counted under a
        lock: workers side by side keep the daily cap, and what one finds over it is held."""
        made = self.stamp(now)
        with self.transaction() as db:
            db.lock(giving(subscriber))
            if self.alerted_ids(subscriber, [paper_id]) or papers_of(
                db, "sent", subscriber, [paper_id]
            ):
                return "taken"  # alerted, or given in a digest, by another worker meanwhile
            if cap is not None and self.alerts_on(subscriber, day) >= cap:
                if held is None:
                    return "capped"
                row = (subscriber, day, *held, "cap", made)
                return "held" if self._hold(db, *row) else "taken"
            cur = db.execute(
                "INSERT OR IGNORE INTO alerts (subscriber, paper_id, day, score, reasons, made_at)"
                " VALUES (?,?,?,?,?,?)",
                (subscriber, paper_id, day.isoformat(), score, json.dumps(list(reasons)), made),
            )
            if cur.rowcount == 0:
                return "taken"
            self._outbox(db, subscriber, f"alert:{paper_id}", day, made, messages, "alert")
            return "alerted"

    # alert matches held for the next digest

    def hold(
        self,
        subscriber: str,
        day: date,
        held: Sequence[tuple[Scored, Sequence[str]]],
        cause: str,
        now: datetime,
    ) -> int:
        """Hold these (match, reasons) for the subscriber's next digest, in one transaction;
        returns how many were not held (nor alerted) before: an insert, never a count read and
        written back, so workers holding the same papers at once count each paper once."""
        made = self.stamp(now)
        with self.transaction() as db:
            taken = self.alerted_ids(subscriber, [s.paper.id for s, _ in held])
            return sum(
                self._hold(db, subscriber, day, s, why, cause, made)
                for s, why in held
                if s.paper.id not in taken
            )

    def _hold(
        self,
        db: Engine,
        subscriber: str,
        day: date,
        scored: Scored,
        reasons: Sequence[str],
        cause: str,
        made: str,
    ) -> bool:
        return bool(
            db.execute(
                "INSERT OR IGNORE INTO alert_holds (subscriber, paper_id, day, score, terms,"
                " because, reasons, cause, held_at) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    subscriber,
                    scored.paper.id,
                    day.isoformat(),
                    scored.score,
                    json.dumps(list(scored.terms)),
                    scored.because,
                    json.dumps(list(reasons)),
                    cause,
                    made,
                ),
            ).rowcount
        )

    def holds(self, subscriber: str) -> list[Held]:
        """The subscriber's pending held alerts, best first."""
        rows = self.db.execute(
            "SELECT h.score AS h_score, h.terms AS h_terms, h.because AS h_because,"
            " h.reasons AS h_reasons, p.* FROM alert_holds h JOIN papers p ON p.id = h.paper_id"
            f" WHERE h.subscriber = ? AND {_PENDING} ORDER BY h.score DESC, p.seq",
            (subscriber,),
        )
        return [
            Held(
                Scored(row_paper(r), r["h_score"], tuple(json.loads(r["h_terms"])), r["h_because"]),
                tuple(json.loads(r["h_reasons"])),
            )
            for r in rows
        ]

    def drop_holds(self, subscriber: str, paper_ids: Iterable[str]) -> None:
        """Forget these held alerts: a digest was made without them (the reader excluded the
        paper, or no alert rule of theirs names it now)."""
        rows = [(subscriber, paper_id) for paper_id in paper_ids]
        if rows:
            with self.transaction() as db:
                db.executemany(
                    "DELETE FROM alert_holds WHERE subscriber = ? AND paper_id = ?", rows
                )

    def held_counts(self) -> dict[str, int]:
        """Per subscriber, how many held alerts wait for its next digest."""
        rows = self.db.execute(
            f"SELECT h.subscriber, count(*) FROM alert_holds h WHERE {_PENDING}"
            " GROUP BY h.subscriber ORDER BY h.subscriber"
        )
        return {str(r[0]): int(r[1]) for r in rows}

    # notices outside a digest (a period whose sources all failed)

    def record_notice(
        self, subscriber: str, period: str, day: date, now: datetime, messages: Messages
    ) -> bool:
        """Outbox rows for a notice, once per (subscriber, period); False if it exists."""
        with self.transaction() as db:
            return self._outbox(db, subscriber, period, day, self.stamp(now), messages, "notice")

    def _outbox(
        self,
        db: Engine,
        subscriber: str,
        period: str,
        day: date,
        made: str,
        messages: Messages,
        purpose: str,
    ) -> bool:
        """The rows not there yet; whether any was added."""
        added = 0
        for name, kind, m in messages:
            added += db.execute(
                "INSERT OR IGNORE INTO outbox (subscriber, period, day, channel, kind, message,"
                " created_at, purpose, token) VALUES (?,?,?,?,?,?,?,?,?)",
                (subscriber, period, day.isoformat(), name, kind, json.dumps(m.as_dict()), made)
                + (purpose, secrets.token_hex(8)),
            ).rowcount
        return added > 0

    # sources

    def record_sources(
        self, run_id: int, now: datetime, outcomes: Mapping[str, Mapping[str, Any]]
    ) -> None:
        """One row per source of a run: name -> {read, new, error} (a run summary's sources)."""
        at = self.stamp(now)
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO source_runs (run_id, source, at, read, new, error)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT (run_id, source) DO UPDATE SET at = excluded.at,"
                " read = excluded.read, new = excluded.new, error = excluded.error",
                [
                    (run_id, name, at, int(o.get("read", 0)), int(o.get("new", 0)), o["error"])
                    for name, o in outcomes.items()
                ],
            )

    def last_success(self, source: str) -> datetime | None:
        """The run's clock at the source's last successful read (None: never, or forgotten)."""
        row = self.db.execute(
            "SELECT at FROM source_runs WHERE source = ? AND error = '' ORDER BY run_id DESC"
            " LIMIT 1",
            (source,),
        ).fetchone()
        return datetime.fromisoformat(str(row[0]).replace("Z", "+00:00")) if row else None

    def validators(self, source: str, url: str) -> dict[str, str]:
        """The ETag and Last-Modified of the feed's last full read ({} if none)."""
        row = self.db.execute(
            "SELECT etag, modified FROM feed_validators WHERE source = ? AND url = ?", (source, url)
        ).fetchone()
        return {"etag": row[0], "modified": row[1]} if row else {}

    def remember_validators(self, source: str, url: str, etag: str, modified: str) -> None:
        """Kept once the papers of that read are stored: a crash before leaves the old ones, and
        the next read is then of the whole feed again, never a 304 over papers not kept."""
        with self.transaction() as db:
            db.execute("DELETE FROM feed_validators WHERE source = ? AND url = ?", (source, url))
            if etag or modified:
                db.execute(
                    "INSERT INTO feed_validators (source, url, etag, modified) VALUES (?,?,?,?)",
                    (source, url, etag, modified),
                )

    def sources(self) -> list[dict[str, Any]]:
        """Per source: its last try, last success (None: never) and the last try's error. Last
        by run, not by the runs' clocks: after a clock that ran ahead is set back, the failure
        of now is the last try, not an older success dated in the future."""
        last = "(SELECT {} FROM source_runs AS r WHERE r.source = s.source{} ORDER BY run_id DESC"
        last += " LIMIT 1)"
        ok = " AND error = ''"
        rows = self.db.execute(
            f"SELECT source, {last.format('at', '')} AS last_try,"
            f" {last.format('at', ok)} AS last_success, {last.format('error', '')} AS error"
            " FROM source_runs AS s GROUP BY source ORDER BY source"
        )
        return [dict(r) for r in rows]
