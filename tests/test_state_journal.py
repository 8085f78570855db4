"""digest.state.journal: the migration keeps every outbox row of an older state database; alerts are
once per subscriber and paper; notices once per key; each source's last try and last success."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from digest.models import Message
from digest.state import Store
from digest.state.journal import SCHEMA as JOURNAL_SCHEMA
from digest.state.schema import SCHEMA

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)
DAY = date(2026, 11, 30)
MESSAGE = Message("Alert", "text", "<p>html</p>")


def test_an_older_state_database_keeps_its_outbox_through_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    before = SCHEMA.index(JOURNAL_SCHEMA)
    db = sqlite3.connect(path)
    for script in SCHEMA[:before]:
        db.executescript(script)
    db.execute(f"PRAGMA user_version = {before}")
    db.execute(
        "INSERT INTO digests (id, subscriber, period, day, made_at, through_seq, picked)"
        " VALUES (7, 'ana', 'P1', '2026-11-30', 'T', 3, 1)"
    )
    db.execute(
        "INSERT INTO outbox (digest_id, subscriber, period, day, channel, kind, message,"
        " created_at, status, attempts, last_error, parts_sent) VALUES"
        " (7, 'ana', 'P1', '2026-11-30', 'slack', 'slack', '{\"subject\": \"s\", \"text\": \"t\","
        " \"html\": \"h\"}', 'T', 'pending', 2, 'timeout', 1)"
    )
    db.commit()
    db.close()
    with Store(path) as store:
        (row,) = store.outbox()
        assert (row.subscriber, row.status, row.attempts, row.last_error) == (
            "ana",
            "pending",
            2,
            "timeout",
        )
        assert (row.parts_sent, row.purpose, row.message.subject) == (1, "digest", "s")
        digest_id = store.db.execute("SELECT digest_id FROM outbox").fetchone()[0]
        assert digest_id == 7
        assert store.db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_an_alert_is_recorded_once_with_its_outbox_rows(state: str) -> None:
    with Store(state) as store:
        messages = [("file", "file", MESSAGE), ("slack", "slack", MESSAGE)]
        assert store.journal.record_alert("ana", "p1", DAY, 0.6, ["why"], NOW, messages)
        assert not store.journal.record_alert("ana", "p1", DAY, 0.6, ["why"], NOW, messages)
        assert store.journal.record_alert("ben", "p1", DAY, 0.4, ["why"], NOW, messages[:1])
        assert [(r.subscriber, r.channel, r.period, r.purpose) for r in store.outbox()] == [
            ("ana", "file", "alert:p1", "alert"),
            ("ana", "slack", "alert:p1", "alert"),
            ("ben", "file", "alert:p1", "alert"),
        ]
        assert store.journal.alerts_on("ana", DAY) == 1
        assert store.journal.alerts_on("ana", DAY + timedelta(days=1)) == 0
        assert store.journal.alerted_ids("ana", ["p1", "p2"]) == {"p1"}


def test_the_alert_mark_only_moves_forward(state: str) -> None:
    with Store(state) as store:
        assert store.journal.alert_mark("ana") == 0
        store.journal.set_alert_mark("ana", 9)
        store.journal.set_alert_mark("ana", 4)
        assert store.journal.alert_mark("ana") == 9


def test_a_notice_is_made_once_per_key(state: str) -> None:
    with Store(state) as store:
        messages = [("file", "file", MESSAGE)]
        assert store.journal.record_notice("ana", "notice:P1", DAY, NOW, messages)
        assert not store.journal.record_notice("ana", "notice:P1", DAY, NOW, messages)
        assert [r.purpose for r in store.outbox()] == ["notice"]


def test_each_source_has_its_last_try_last_success_and_current_error(state: str) -> None:
    with Store(state) as store:
        for hours, arxiv_error in ((0, ""), (1, "timeout"), (2, "HTTP 503")):
            when = NOW + timedelta(hours=hours)
            run = store.start_run(when, when)
            outcomes = {"arxiv": {"read": 5, "new": 1, "error": arxiv_error}}
            outcomes["seeds"] = {"read": 57, "new": 0, "error": ""}
            store.journal.record_sources(run, when, outcomes)
        assert store.journal.sources() == [
            {
                "source": "arxiv",
                "last_try": "2026-11-30T11:00:00Z",
                "last_success": "2026-11-30T09:00:00Z",
                "error": "HTTP 503",
            },
            {
                "source": "seeds",
                "last_try": "2026-11-30T11:00:00Z",
                "last_success": "2026-11-30T11:00:00Z",
                "error": "",
            },
        ]
