"""digest.state.journal: the migration keeps every outbox row of an older state database; alerts are
once per subscriber and paper; a match over the daily cap is held for the next digest, once, however
many workers hold it at once; notices once per key; each source's last try and last success."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from digest.models import Digest, Message, Paper, Scored
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
        alert = store.journal.record_alert
        assert alert("ana", "p1", DAY, 0.6, ["why"], NOW, messages) == "alerted"
        assert alert("ana", "p1", DAY, 0.6, ["why"], NOW, messages) == "taken"
        assert alert("ben", "p1", DAY, 0.4, ["why"], NOW, messages[:1]) == "alerted"
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


def papers(*ids: str) -> list[Scored]:
    return [Scored(Paper(i, f"Paper {i}", "An abstract."), 0.1, ("privacy",)) for i in ids]


def together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """work(0..count-1) in threads released at one instant, each with its own connection."""
    start, results, errors = threading.Barrier(count), [None] * count, []

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


def test_a_match_over_the_daily_cap_is_held_in_the_same_transaction(state: str) -> None:
    p1, p2 = papers("p1", "p2")
    with Store(state) as store:
        store.add_papers([p1.paper, p2.paper], NOW)
        messages = [("file", "file", MESSAGE)]
        alert = store.journal.record_alert
        assert alert("ana", "p1", DAY, 0.9, ["why"], NOW, messages, 1) == "alerted"
        held = (p2, ["mentions “privacy”", "held: the daily cap of 1 alerts was reached"])
        assert alert("ana", "p2", DAY, 0.8, ["why"], NOW, messages, 1, held=held) == "held"
        assert alert("ana", "p2", DAY, 0.8, ["why"], NOW, messages, 1, held=held) == "taken"
        assert alert("ana", "p1", DAY, 0.9, ["why"], NOW, messages, 1, held=held) == "taken"
        assert alert("ana", "p3", DAY, 0.8, ["why"], NOW, messages, 1) == "capped"
        # The held paper has no outbox row of its own: the next digest carries it.
        assert [r.period for r in store.outbox()] == ["alert:p1"]
        ((kept, why),) = [(h.scored, h.reasons) for h in store.journal.holds("ana")]
        assert (kept.paper.id, kept.paper.title, kept.terms) == ("p2", "Paper p2", ("privacy",))
        assert why == ("mentions “privacy”", "held: the daily cap of 1 alerts was reached")
        assert store.journal.held_counts() == {"ana": 1}


def test_workers_holding_the_same_matches_at_once_hold_and_count_each_once(state: str) -> None:
    matches = papers(*(f"p{i}" for i in range(20)))
    with Store(state) as store:
        store.add_papers([m.paper for m in matches], NOW)

    def hold(i: int) -> int:
        with Store(state, worker=f"w{i}") as store:
            return store.journal.hold("ana", DAY, [(m, ["why"]) for m in matches], "cap", NOW)

    assert sum(together(4, hold)) == 20  # an insert each, never a count read and written back
    with Store(state) as store:
        assert store.journal.held_counts() == {"ana": 20}
        assert len(store.journal.holds("ana")) == 20


def test_workers_alerting_over_the_cap_at_once_hold_every_match_they_cannot_send(
    state: str,
) -> None:
    matches = papers(*(f"p{i}" for i in range(6)))
    with Store(state) as store:
        store.add_papers([m.paper for m in matches], NOW)

    def alert(i: int) -> str:
        with Store(state, worker=f"w{i}") as store:
            match, messages = matches[i], [("file", "file", MESSAGE)]
            return store.journal.record_alert(
                "ana", match.paper.id, DAY, 0.9, ["why"], NOW, messages, 2, held=(match, ["why"])
            )

    assert sorted(together(6, alert)) == ["alerted"] * 2 + ["held"] * 4
    with Store(state) as store:
        assert store.journal.alerts_on("ana", DAY) == 2
        assert store.journal.held_counts() == {"ana": 4}


def test_a_held_match_waits_until_a_digest_gives_it_or_an_alert_takes_it(state: str) -> None:
    p1, p2, p3 = papers("p1", "p2", "p3")
    with Store(state) as store:
        store.add_papers([p1.paper, p2.paper, p3.paper], NOW)
        store.journal.hold("ana", DAY, [(p1, ["why"]), (p2, ["why"]), (p3, ["why"])], "cap", NOW)
        assert store.journal.hold("ben", DAY, [(p1, ["why"])], "digest", NOW) == 1
        store.record_digest(
            Digest("ana", "P1", DAY, (), NOW, store.journal.holds("ana")[:1]), 3, []
        )
        store.journal.record_alert("ana", "p2", DAY, 0.9, ["why"], NOW, [])
        assert [h.scored.paper.id for h in store.journal.holds("ana")] == ["p3"]
        assert store.journal.held_counts() == {"ana": 1, "ben": 1}
        # Held again (a pass that ran twice): still given once, never held anew.
        assert store.journal.hold("ana", DAY, [(p1, ["why"]), (p2, ["why"])], "cap", NOW) == 0


def test_a_notice_is_made_once_per_key(state: str) -> None:
    with Store(state) as store:
        messages = [("file", "file", MESSAGE)]
        assert store.journal.record_notice("ana", "notice:P1", DAY, NOW, messages)
        assert not store.journal.record_notice("ana", "notice:P1", DAY, NOW, messages)
        assert [r.purpose for r in store.outbox()] == ["notice"]


def test_a_source_failing_now_is_failing_after_a_run_on_a_clock_that_ran_ahead(state: str):
    """A success dated a day ahead (the clock set back since) hid the failure of now."""
    with Store(state) as store:
        for when, error in ((NOW + timedelta(days=1), ""), (NOW, "HTTP 503")):
            run = store.start_run(when, when)
            store.journal.record_sources(
                run, when, {"arxiv": {"read": 0, "new": 0, "error": error}}
            )
        (arxiv,) = store.journal.sources()
        assert (arxiv["error"], arxiv["last_try"]) == ("HTTP 503", "2026-11-30T09:00:00Z")


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
