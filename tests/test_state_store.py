"""The state database: papers in arrival order, one digest per period, papers given once,
the outbox."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from digest.models import Digest, Message, Paper, Scored, StateError
from digest.models.identity import loose_title_hash
from digest.state import Store
from digest.state.schema import LOOSE_TITLES, SCHEMA

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def paper(n: int) -> Paper:
    return Paper(
        id=f"p{n}",
        title=f"Paper {n}",
        abstract=f"Abstract number {n}.",
        authors=("Ada Lovelace",),
        categories=("cs.LG",),
        published=date(2026, 11, n),
    )


def digest(sub: str, period: str, papers: list[Paper]) -> Digest:
    items = tuple(Scored(p, 0.5 - i / 100) for i, p in enumerate(papers))
    return Digest(sub, period, date(2026, 11, 30), items, NOW)


MESSAGE = Message("subject", "text", "<p>html</p>")


def test_papers_are_kept_once_and_round_trip(state: str) -> None:
    with Store(state) as store:
        assert store.add_papers([paper(1), paper(2)], NOW) == 2
        assert store.add_papers([paper(2), paper(3)], NOW) == 1
        rows = store.papers_after(0)
        assert [p.id for _, p in rows] == ["p1", "p2", "p3"]
        assert rows[0][1] == paper(1)
        assert [p.id for _, p in store.papers_after(rows[1][0])] == ["p3"]


def test_papers_are_read_a_page_at_a_time_between_two_seqs_or_as_an_even_sample(
    state: str,
) -> None:
    with Store(state) as store:
        store.add_papers([paper(n) for n in range(1, 11)], NOW)
        seqs = [seq for seq, _ in store.papers_after(0)]
        pages = list(store.paper_blocks(seqs[1], seqs[8], size=3))
        assert [[p.id for _, p in page] for page in pages] == [
            ["p3", "p4", "p5"],
            ["p6", "p7", "p8"],
            ["p9"],
        ]
        assert pages[0][0][1] == paper(3)
        assert [p.id for page in store.paper_blocks(0) for _, p in page] == [
            f"p{n}" for n in range(1, 11)
        ]
        sample = [seq for page in store.paper_blocks(0, every=3) for seq, _ in page]
        assert sample == [s for s in seqs if s % 3 == 0] and len(sample) == 3
        assert store.count_after(seqs[6]) == 3 and store.count_after(seqs[-1]) == 0


def test_a_digest_is_recorded_once_per_subscriber_and_period(state: str) -> None:
    with Store(state) as store:
        store.add_papers([paper(1), paper(2)], NOW)
        first = store.record_digest(
            digest("alice", "P1", [paper(1)]), 2, [("file", "file", MESSAGE)]
        )
        again = store.record_digest(
            digest("alice", "P1", [paper(2)]), 2, [("file", "file", MESSAGE)]
        )
        assert isinstance(first, int) and again == "already made"
        assert store.has_digest("alice", "P1") and not store.has_digest("bob", "P1")
        assert store.sent_ids("alice", ["p1", "p2"]) == {"p1"}
        assert store.considered_through("alice") == 2 and store.considered_through("bob") == 0
        assert len(store.outbox()) == 1


def test_a_digest_that_would_repeat_another_periods_papers_is_not_written(state: str) -> None:
    """Two workers whose clocks fell in two periods each ranked before the other wrote `sent`,
    and both digests gave the subscriber the same papers."""
    with Store(state) as store:
        store.add_papers([paper(1), paper(2), paper(3)], NOW)
        later = Digest("alice", "P2", date(2026, 12, 1), (Scored(paper(1), 0.5),), NOW)
        assert isinstance(store.record_digest(later, 3, [("file", "file", MESSAGE)]), int)
        earlier = Digest(
            "alice", "P1", date(2026, 11, 30), (Scored(paper(2), 0.5),), NOW - timedelta(days=1)
        )
        assert store.record_digest(earlier, 3, [("file", "file", MESSAGE)]) == "clock behind"
        again = Digest(
            "alice", "P3", date(2026, 12, 2), (Scored(paper(1), 0.5), Scored(paper(3), 0.4)), NOW
        )
        assert store.record_digest(again, 3, [("file", "file", MESSAGE)]) == "given meanwhile"
        assert store.sent_ids("alice", ["p1", "p2", "p3"]) == {"p1"} and len(store.outbox()) == 1
        bob = Digest("bob", "P3", date(2026, 12, 2), (Scored(paper(1), 0.5),), NOW)
        assert isinstance(store.record_digest(bob, 3, [("file", "file", MESSAGE)]), int)


def test_a_digest_and_an_alert_never_give_one_paper_twice(state: str) -> None:
    """Two workers' clocks either side of a fire time: one made the new period's digest while
    the other, still in the old period, alerted the same new papers."""
    with Store(state) as store:
        store.add_papers([paper(1), paper(2), paper(3)], NOW)
        made = store.journal.record_alert("alice", "p1", date(2026, 11, 30), 0.9, ["w"], NOW, [])
        assert made == "alerted"
        new = digest("alice", "P2", [paper(1), paper(2)])
        assert store.record_digest(new, 3, [("file", "file", MESSAGE)]) == "alerted meanwhile"
        assert not store.has_digest("alice", "P2") and store.sent_ids("alice", ["p2"]) == set()
        # ...and the other way round: a paper a digest gave is no alert.
        given = store.record_digest(digest("alice", "P3", [paper(2)]), 3, [])
        assert isinstance(given, int)
        late = store.journal.record_alert("alice", "p2", date(2026, 11, 30), 0.9, ["w"], NOW, [])
        assert late == "taken" and store.journal.alerted_ids("alice", ["p2"]) == set()


def test_the_outbox_row_moves_from_pending_to_sent(state: str) -> None:
    with Store(state) as store:
        store.record_digest(digest("alice", "P1", [paper(1)]), 1, [("file", "file", MESSAGE)])
        (row,) = store.due(NOW)
        assert (row.status, row.day) == ("pending", date(2026, 11, 30))
        # A claim carries no message (a run may claim thousands): it is read when it is sent.
        assert row.message is None and store.message(row.id) == MESSAGE
        assert store.outbox()[0].message == MESSAGE and store.message(row.id + 1) is None
        store.mark_sent(row.id, "out/x.eml", NOW)
        assert store.due(NOW) == []
        assert store.outbox_counts() == {"sent": 1}


def test_several_rows_marks_are_written_in_one_go(state: str) -> None:
    """The outbox's group commit: parts claimed and rows sent, all in one transaction."""
    with Store(state) as store:
        for sub in ("alice", "bob", "carol"):
            store.record_digest(digest(sub, "P1", [paper(1)]), 1, [("slack", "slack", MESSAGE)])
        a, b, c = store.due(NOW)
        store.mark_many([(a.id, "1 message", NOW), (b.id, "2 messages", NOW)], [(c.id, 1)])
        assert [r.id for r in store.due(NOW)] == [c.id]
        rows = {r.id: r for r in store.outbox()}
        assert (rows[a.id].status, rows[a.id].attempts) == ("sent", 1)
        assert rows[c.id].parts_sent == 1 and rows[c.id].status == "pending"
        store.mark_many([], [])  # nothing waits: nothing changes
        assert store.outbox_counts() == {"sent": 2, "pending": 1}


def test_a_failed_row_waits_for_its_next_try_then_dies_and_can_be_revived(state: str) -> None:
    with Store(state) as store:
        store.record_digest(digest("alice", "P1", [paper(1)]), 1, [("slack", "slack", MESSAGE)])
        (row,) = store.due(NOW)
        store.mark_failed(row.id, "503", NOW + timedelta(minutes=5))
        assert store.due(NOW + timedelta(minutes=4)) == []
        (again,) = store.due(NOW + timedelta(minutes=5))
        assert (again.attempts, again.last_error) == (1, "503")
        store.mark_failed(row.id, "410 channel_is_archived", None)
        assert store.outbox_counts() == {"dead": 1} and store.due(NOW + timedelta(days=9)) == []
        assert store.revive_dead() == 1
        assert [r.id for r in store.due(NOW)] == [row.id]


def test_a_crash_inside_record_digest_leaves_nothing_half_written(state: str) -> None:
    with Store(state) as store:
        with pytest.raises(AttributeError):
            store.record_digest(digest("alice", "P1", [paper(1)]), 1, [("file", "file", None)])  # type: ignore[list-item]
        assert not store.has_digest("alice", "P1")
        assert store.sent_ids("alice", ["p1"]) == set()


def test_runs_are_logged_with_their_summary(state: str) -> None:
    with Store(state) as store:
        run = store.start_run(NOW, NOW - timedelta(days=1))
        store.finish_run(run, NOW, "ok", {"papers": {"read": 3}})
        (last,) = store.runs()
        assert last["outcome"] == "ok" and last["summary"] == {"papers": {"read": 3}}
        assert last["clock"] == "2026-11-29T08:00:00Z"


def test_runs_older_than_a_month_leave_but_each_sources_last_success_stays(state: str) -> None:
    """A serve polling every minute made 1,440 runs a day, kept for ever."""
    with Store(state) as store:
        for n in range(300):  # one every 5 hours: 62 days
            when = NOW + timedelta(hours=5 * n)
            run = store.start_run(when, when)
            outcomes = {"arxiv": {"read": 5, "new": 1, "error": "HTTP 503" if n else ""}}
            outcomes["seeds"] = {"read": 57, "new": 0, "error": ""}
            store.journal.record_sources(run, when, outcomes)
            store.finish_run(run, when, "ok", {})
        kept = [r["started_at"] for r in store.runs(1000)]
        month = (when - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert kept[-1] == "2026-11-30T08:00:00Z"  # arxiv's only success
        assert min(kept[:-1]) >= month and len(kept) == 1 + 30 * 24 // 5 + 1
        arxiv, seeds = store.journal.sources()
        assert arxiv["last_success"] == "2026-11-30T08:00:00Z"
        assert (arxiv["error"], seeds["last_success"]) == ("HTTP 503", kept[0])


def test_a_replayed_run_is_judged_alive_by_the_wall_clock_not_its_now(state: str) -> None:
    """A live `digest run --now` three days back was listed interrupted ("no sign of life
    since" its --now), and one killed with a --now ahead stayed running for days."""
    with Store(state, worker="replay") as store:
        store.start_run(NOW, NOW - timedelta(days=3))  # started now, replaying three days ago
        (run,) = store.runs(now=NOW + timedelta(hours=1))
        assert run["outcome"] == "running"
        (run,) = store.runs(now=NOW + timedelta(hours=13))
        assert run["outcome"] == "interrupted" and "since 2026-11-30T08:00:00Z" in run["gone"]
    with Store(state, worker="live") as store:  # a status asked with a --now hours ahead
        now = datetime.now(UTC)
        store.beat(now, "run")
        store.start_run(now, now)
        (run, _) = store.runs(now=now + timedelta(hours=13))
        assert run["outcome"] == "running"


def test_a_run_leaves_the_workers_whatever_ended_it(state: str) -> None:
    """ops21 F4: a `digest run` that ended on a state error (a full disk) stayed listed among
    the workers, its process long gone, until a week had passed."""
    with Store(state, worker="elsewhere:1") as store:
        # Another run, still going: beating now (a beat at a fixed date read as long gone a week
        # after the test was written).
        store.beat(datetime.now(UTC), "run")
    with Store(state) as store, pytest.raises(StateError), store.beating():
        assert store.worker in [w["name"] for w in store.workers()]
        raise StateError("s.db: the disk is full")
    with Store(state) as store:
        assert [w["name"] for w in store.workers()] == ["elsewhere:1"]


def test_a_worker_of_another_pid_namespace_with_this_hostname_is_not_taken_for_ended(
    state: str,
) -> None:
    """ops23 F3: a run in a container sharing the host's hostname, its pid no process here:
    status read it interrupted ("its process ended"), and another run's leave() removed it.
    Its beat names its process as a claim does, namespace and all."""
    import json
    import socket
    import subprocess
    import sys

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    name = f"{socket.gethostname()}:{gone.pid}"
    with Store(state, worker=name) as there:
        there.beat(NOW, "run")
        there.start_run(NOW, NOW)
        other = f"{socket.gethostname()}/999999:{gone.pid}:0123456789ab"  # another namespace
        with there.transaction() as db:
            db.execute("UPDATE workers SET facts = ? WHERE name = ?",
                       (json.dumps({"process": other}), name))  # fmt: skip
    with Store(state) as status:
        (run,) = status.runs(1, NOW)
        assert run["outcome"] == "running"


def test_the_last_hundred_runs_stay_however_old(state: str) -> None:
    with Store(state) as store:
        for n in range(120):
            when = NOW + timedelta(days=n)
            store.finish_run(store.start_run(when, when), when, "ok", {})
        kept = store.runs(1000)
        assert len(kept) == 100 and kept[-1]["started_at"] == "2026-12-20T08:00:00Z"


def test_the_schema_version_is_recorded_and_a_newer_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    Store(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(SCHEMA)
    db.execute(f"PRAGMA user_version = {len(SCHEMA) + 1}")
    db.close()
    with pytest.raises(StateError, match="newer digest"):
        Store(path)


def test_another_programs_database_is_refused_and_left_as_it_was(state: str) -> None:
    """Taken for a new one, it had 20 tables of digest's written into it, by `status` too."""
    if state.startswith("postgresql"):
        import psycopg

        with psycopg.connect(state, autocommit=True) as conn:
            conn.execute("CREATE TABLE customers (id INTEGER)")
    else:
        Path(state).parent.mkdir(parents=True)
        with sqlite3.connect(state) as db:
            db.execute("CREATE TABLE customers (id INTEGER)")
    with pytest.raises(StateError, match=r"not a digest state database \(it holds customers\)"):
        Store(state)
    if not state.startswith("postgresql"):
        with sqlite3.connect(state) as db:
            tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            assert tables == [("customers",)]


def test_an_older_state_is_refused_by_what_promises_no_change_and_upgraded_by_a_run(
    tmp_path: Path,
) -> None:
    """A preview, rank or status of the new version had moved the state past the old version
    still in cron, which then refused it: no digest went out."""
    path = tmp_path / "d.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA[0] + "PRAGMA user_version = 1;")
    with pytest.raises(StateError, match=r"older digest \(schema 1\), or by a first run cut short"):
        Store(path, upgrade=False)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    Store(path).close()
    Store(path, upgrade=False).close()


def test_a_file_that_is_not_a_database_is_a_state_error(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StateError, match="cannot use the state database"):
        Store(path)


def test_dead_rows_dropped_are_kept_but_no_longer_dead(state: str) -> None:
    with Store(state) as store:
        for sub in ("alice", "bob"):
            store.record_digest(digest(sub, "P1", [paper(1)]), 1, [("slack", "slack", MESSAGE)])
        a, b = store.due(NOW)
        for row in (a, b):
            store.mark_failed(row.id, "no answer", None)
        (dropped,) = store.drop_dead(["alice/slack"], None, NOW)
        assert dropped.id == a.id and store.outbox_counts() == {"dead": 1, "dropped": 1}
        assert store.revive_dead() == 1 and [r.id for r in store.due(NOW)] == [b.id]
        (kept,) = store.outbox("dropped")
        assert kept.last_error == "no answer"


def test_a_claim_records_which_posted_parts_are_unconfirmed(state: str) -> None:
    with Store(state) as store:
        store.record_digest(digest("alice", "P1", [paper(1)]), 1, [("slack", "slack", MESSAGE)])
        (row,) = store.due(NOW)
        assert row.unconfirmed == ()
        store.mark_many([], [(row.id, 2, (1, 2))])
        assert store.due(NOW)[0].unconfirmed == (1, 2)
        store.mark_many([], [(row.id, 1, ())])  # part 2 refused, part 1 confirmed
        assert store.outbox()[0].unconfirmed == ()
        store.record_digest(digest("bob", "P1", [paper(1)]), 1, [("slack", "slack", MESSAGE)])
        old = store.due(NOW)[-1]
        store.mark_many([], [(old.id, 2)])  # claimed without a record (an older digest)
        assert store.outbox()[1].unconfirmed == (2,)  # the last claimed may be missing


def test_papers_stored_before_loose_title_keys_get_theirs_in_the_upgrade(tmp_path: Path) -> None:
    # A store of the version before: its arXiv paper's journal copy ("&" for "and") was a new
    # paper, sent again.
    path = tmp_path / "state.db"
    with Store(path) as store:
        store.add_papers(
            [Paper("2501.00001", "Privacy and Utility in Federated Learning", "x")], NOW
        )
    with sqlite3.connect(path) as db:
        loose = loose_title_hash("Privacy and Utility in Federated Learning")
        db.execute("DELETE FROM paper_keys WHERE key = ?", (loose,))
        db.execute(f"PRAGMA user_version = {LOOSE_TITLES - 1}")
    db.close()
    with Store(path) as store:
        copy = Paper("10.1000/j.1", "Privacy & Utility in Federated Learning", "x")
        assert store.add_papers([copy], NOW) == 0
        assert store.count_papers() == 1
