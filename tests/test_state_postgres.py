"""What PostgreSQL's faults look like to the user: a server that goes away under a store is one
line saying why (not the pool's own warnings, a dozen lines each), so is a full disk under the
database, a restarted server's lost connections are replaced, and every command reads the state
from the URL it was given. A worker frozen while it holds a lock holds the others a bounded
time: they give up in one line, and the server ends the frozen one's session."""

from __future__ import annotations

import logging
import os
import pwd
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support_postgres import Cluster, Cuttable, lapse
from test_state_faults import paper, tiny_disk

from digest.cli import main
from digest.models import Paper, StateError
from digest.state import Store, postgres
from digest.state.schema import SCHEMA

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
PASSWORD = "s3cr3t-pw"


def with_password(url: str) -> str:
    return url.replace("digest@", f"digest:{PASSWORD}@")  # trust auth: any password is taken


def test_a_server_gone_under_a_store_is_one_line_saying_why(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    url = with_password(proxy.url(postgres_cluster.create_database()))
    with Store(url) as store:
        proxy.cut()  # the server stopped: its connections dropped, new ones refused
        with pytest.raises(StateError) as info:
            store.outbox_counts()
    message = str(info.value)
    assert message.startswith(f"postgresql://digest@127.0.0.1:{proxy.port}/")
    assert "no connection to the server within 1 s" in message and "refused" in message
    assert PASSWORD not in message and "\n" not in message
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_bad_connection_setting_in_the_url_is_named_at_once(postgres_url: str) -> None:
    """Overridden by the first direct connection, a bad connect_timeout failed every pooled one:
    30 s, then "every connection stayed busy"."""
    with pytest.raises(StateError) as info:
        Store(postgres_url + "?connect_timeout=bogus")
    assert "bad value for connect_timeout" in str(info.value) and "busy" not in str(info.value)


def test_once_the_server_is_known_gone_each_later_statement_fails_at_once_until_it_is_back(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 3.0)
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        proxy.cut()
        with pytest.raises(StateError, match="within 3 s"):
            store.outbox_counts()
        pooled = store.db.pool.connection
        monkeypatch.setattr(store.db.pool, "connection", lambda *a, **k: pytest.fail("waited"))
        with pytest.raises(StateError, match="still unreachable .*refused"):
            store.outbox_counts()  # no second wait for the pool: a run's last commits end fast
        monkeypatch.setattr(store.db.pool, "connection", pooled)
        proxy.mend()
        assert store.count_papers() == 0  # back: the pool serves again


def test_sessions_the_server_keeps_ending_are_said_so_not_busy_connections(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ops31 F3: an administrator ending the database's sessions every 0.5 s failed the runs
    with "every connection stayed busy"; nothing was busy, the server ended each session the
    pool made or checked (a direct connection was taken, so nothing said the server away)."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 2.0)
    direct = postgres_cluster.create_database()
    name = direct.rsplit("/", 1)[1]
    ending, failed = threading.Event(), []
    end = (
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
    )

    def administrator() -> None:
        while not ending.wait(0.2):
            postgres_cluster.execute(end)

    with Store(with_password(direct)) as store:
        killer = threading.Thread(target=administrator, daemon=True)
        killer.start()
        deadline = time.monotonic() + 60
        try:
            while not failed and time.monotonic() < deadline:
                try:
                    store.count_papers()
                except StateError as exc:  # a statement's own session ended: StateLost
                    failed += [exc] if "within" in str(exc) else []
                time.sleep(0.05)
        finally:
            ending.set()
            killer.join(10)
    (message,) = map(str, failed)
    assert "no connection to the server within 2 s" in message, message
    assert "the server kept ending the pool's sessions: terminating connection due to" in message
    assert "busy" not in message and PASSWORD not in message and "\n" not in message


def test_a_pool_whose_every_connection_stays_busy_says_so(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    with Store(postgres_url) as store:
        store.count_papers()
        held = [store.db.pool.getconn() for _ in range(store.db.pool.max_size)]
        try:
            with pytest.raises(StateError) as info:
                store.count_papers()
        finally:
            for conn in held:
                store.db.pool.putconn(conn)
        assert store.count_papers() == 0
    assert str(info.value).endswith("within 1 s (all 4 connections stayed busy)")


def test_a_restarted_servers_lost_connections_are_replaced(postgres_cluster: Cluster) -> None:
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        store.add_papers([Paper("2611.00001", "A paper", "x")], NOW)
        proxy.cut()
        proxy.mend()  # back after its restart
        assert store.count_papers() == 1


def test_a_full_disk_under_the_database_is_one_line(
    postgres_cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    folder = postgres_cluster.root / "full"  # the server's user must reach it
    with tiny_disk(folder, "1m"):
        if postgres_cluster.user:
            entry = pwd.getpwnam(postgres_cluster.user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        postgres_cluster.execute(f"CREATE TABLESPACE full_disk LOCATION '{folder}'")
        url = postgres_cluster.create_database()
        name = url.rsplit("/", 1)[1]
        try:
            postgres_cluster.execute(f"ALTER DATABASE {name} SET default_tablespace = full_disk")
            with Store(url) as store, pytest.raises(StateError) as info:
                store.add_papers([paper(n) for n in range(3000)], NOW)
        finally:
            postgres_cluster.execute(f"DROP DATABASE {name}")
            postgres_cluster.execute("DROP TABLESPACE full_disk")
    message = str(info.value)
    assert message.startswith(url) and "No space left on device" in message
    assert "\n" not in message
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_batch_that_fails_is_one_line_without_psycopgs_warnings_of_what_follows(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # psycopg warns when the pipeline of a failed executemany cannot end cleanly (a full disk
    # did it; so does a broken key), depending on when the server's error arrives: many tries.
    rows = [("ana", f"2611.{n:05d}", 1, "2026-11-30T09:00:00Z") for n in range(50)]
    with Store(postgres_url) as store:
        for _ in range(20):
            with pytest.raises(StateError, match="violates foreign key constraint"):
                store.db.executemany(
                    "INSERT INTO ratings (subscriber, paper_id, rating, rated_at) VALUES (?,?,?,?)",
                    rows,
                )
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


CONFIG = """
[state]
url = "{url}"

[[sources]]
kind = "files"
path = "papers.jsonl"

[smtp]
host = "127.0.0.1"
from = "digest@example.org"
security = "none"

[[subscribers]]
name = "ana"
interests = "graph neural networks"

[[subscribers.channels]]
kind = "email"
to = "ana@example.org"
"""


def test_ratings_and_resume_read_the_postgresql_state(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(url=postgres_url), encoding="utf-8")
    with Store(postgres_url) as store:
        store.add_papers([Paper("2611.00001", "Graph neural networks", "x")], NOW)
        store.web.pause("ana", ["email"], NOW)
    assert main(["feedback", "--config", str(config), "ana", "2611.00001", "up"]) == 0
    capsys.readouterr()
    assert main(["ratings", "--config", str(config)]) == 0
    assert "ana  up    2611.00001  (via cli)" in capsys.readouterr().out
    assert main(["resume", "--config", str(config), "ana"]) == 0
    assert "ana: email resumed" in capsys.readouterr().out
    with Store(postgres_url) as store:
        assert store.web.pauses() == []


# Several workers: a row another worker is sending right now is in flight, not pending.


def test_a_row_another_worker_is_sending_needs_no_attention(
    postgres_url: str, tmp_path: Path
) -> None:
    from datetime import timedelta

    from timeline import PRIVACY, arrive, settings_for, subscriber
    from timeline import paper as arriving

    from digest import pipeline
    from digest.cli import reports
    from digest.state.deliveries import LEASE

    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", arriving("p1", PRIVACY))
    with Store(postgres_url, worker="w1") as w1, Store(postgres_url, worker="w2") as w2:
        pipeline.run_once(settings, w1, NOW, stop=lambda: True)  # made, not yet sent
        (row,) = w1.due(NOW)  # w1 is sending it now, under its lease
        report = pipeline.run_once(settings, w2, NOW)
        assert (report.pending, report.exit_code) == (0, 0)  # nothing of w2's needs attention
        assert w2.runs(1)[0]["outcome"] == "ok"
        assert w2.outbox_counts(NOW) == {"in flight": 1}
        assert w1.outbox_counts(NOW) == {"pending": 1}  # its own claim, still unsent
        with Store(postgres_url, worker="w1") as status:  # the same name as a worker's
            text, code = reports.status_report(settings, status, postgres_url, NOW)
        assert code == 0 and "deliveries: 0 pending, 0 dead, 1 being sent now" in text
        assert f"  sending  ana/file digest {row.period} (0 attempts, by w1, lease until" in text
        # Timed on the server's clock: a run replayed with a later --now changes nothing.
        assert w2.outbox_counts(NOW + LEASE + timedelta(seconds=1)) == {"in flight": 1}
        with Store(postgres_url, worker="w3") as status:  # counted and listed alike
            ahead = datetime.now(UTC) + timedelta(days=2)  # a --now past the lease's end
            text, _ = reports.status_report(settings, status, postgres_url, ahead)
        assert "1 being sent now" in text and "  sending  ana/file" in text
        # A lease that ended is a worker gone: its row is owed, and needs attention again.
        lapse(postgres_url)
        assert w2.outbox_counts(NOW) == {"pending": 1}
        # So is a row that failed and waits for its next try.
        assert w1.mark_failed(row.id, "refused", NOW + timedelta(hours=1))
        assert w2.outbox_counts(NOW) == {"pending": 1}


def claimed_by_an_ended_process(postgres_url: str, tmp_path: Path) -> Any:
    """A state whose one due digest (ana's) is claimed by a worker whose process has ended (a
    pid of this machine no process has now); the settings of that project."""
    import socket
    import subprocess
    import sys

    import psycopg
    from timeline import PRIVACY, arrive, settings_for, subscriber
    from timeline import paper as arriving

    from digest import pipeline
    from digest.state import claims

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    dead = f"{socket.gethostname()}:{gone.stdout.strip()}"
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", arriving("p1", PRIVACY))
    with Store(postgres_url, worker=dead) as w1:
        pipeline.run_once(settings, w1, NOW, stop=lambda: True)
        w1.due(NOW)  # claimed, then the process "died": its claim names that pid
    claim = f"{dead}{claims.MARK}{claims.machine()}:{gone.stdout.strip()}:0123456789ab"
    with psycopg.connect(postgres_url) as db:
        db.execute("UPDATE outbox SET claimed_by = %s WHERE claimed_by <> ''", (claim,))
    return settings


def test_a_row_held_by_a_worker_whose_process_ended_is_stalled_not_being_sent(
    postgres_url: str, tmp_path: Path
) -> None:
    # After a kill -9, status said the run was interrupted ("its process ended") and, in the
    # same report, that its rows were "being sent now", exit 0.
    from digest.cli import reports

    settings = claimed_by_an_ended_process(postgres_url, tmp_path)
    with Store(postgres_url, worker="w3") as status:
        text, code = reports.status_report(settings, status, postgres_url, NOW)
    assert code == 1 and "being sent now" not in text
    assert "deliveries: 0 pending, 0 dead, 1 held by a worker that ended" in text
    assert "  stalled  ana/file digest" in text and "whose process ended" in text


def test_a_row_held_by_a_named_worker_whose_process_ended_is_stalled_too(
    postgres_url: str, tmp_path: Path
) -> None:
    """ops22 F2: a worker named by DIGEST_WORKER, killed: status said its rows were "being
    sent now", exit 0, and other runs exit 0, for the whole lease, though its claim's token
    names a pid of this machine that no process has now."""
    import subprocess
    import sys

    import psycopg

    from digest.cli import reports
    from digest.state import claims

    settings = claimed_by_an_ended_process(postgres_url, tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    token = f"w1{claims.MARK}{claims.machine()}:{gone.stdout.strip()}:0123456789ab"
    with psycopg.connect(postgres_url) as db:
        db.execute("UPDATE outbox SET claimed_by = %s WHERE claimed_by <> ''", (token,))
    with Store(postgres_url, worker="w3") as status:
        text, code = reports.status_report(settings, status, postgres_url, NOW)
    assert code == 1 and "being sent now" not in text
    assert "1 held by a worker that ended" in text and "by w1, whose process ended" in text


def test_a_run_counts_a_row_held_by_a_worker_whose_process_ended_as_owed(
    postgres_url: str, tmp_path: Path
) -> None:
    """ops21 F2: a run said "0 pending, 0 dead in all", exit 0, recorded ok, while 65 rows were
    leased to a run killed before; `digest status` at the same moment said they were stalled."""
    from digest import pipeline

    settings = claimed_by_an_ended_process(postgres_url, tmp_path)
    with Store(postgres_url, worker="w4") as w4:
        report = pipeline.run_once(settings, w4, NOW, stop=lambda: True)
    assert report.pending == 1 and report.exit_code == 1


# A run cut short by an outage: its row stays "running"; status tells it apart.


def test_a_run_cut_short_by_an_outage_is_shown_interrupted(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from datetime import timedelta

    from timeline import settings_for, subscriber

    from digest.cli import reports

    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    proxy = Cuttable(postgres_cluster.port)
    url = proxy.url(postgres_cluster.create_database())
    with Store(url, worker="s1") as store:
        store.beat(NOW, "run")
        run_id = store.start_run(NOW, NOW)
        store.journal.record_sources(
            run_id, NOW, {"papers": {"read": 100, "new": 100, "error": ""}}
        )
        proxy.cut()  # the server went away mid-run: the run cannot record its end
        with pytest.raises(StateError):
            store.finish_run(run_id, NOW, "failed", {"error": "gone"})
        proxy.mend()
        # The pool reconnects on its own backoff, which may pass the 1 s that made the outage
        # quick to see: the server back, a statement waits for it as usual.
        store.db.pool.timeout = 30.0
        text, code = reports.status_report(settings, store, url, NOW + timedelta(minutes=5))
        assert "  2026-11-30T09:00:00Z  running    since 2026-11-30T09:00:00Z (by s1)" in text
        assert code == 0  # as far as anyone can tell, it still runs
        later = NOW + timedelta(hours=1)
        store.finish_run(store.start_run(later, later), later, "ok", {})  # s1 runs again
        text, code = reports.status_report(settings, store, url, later)
    (line,) = [x for x in text.splitlines() if x.startswith("  2026-11-30T09:00:00Z")]
    assert line == (
        "  2026-11-30T09:00:00Z  interrupted  its worker s1 started another run"
        " (2026-11-30T10:00:00Z) before this one ended; 100 new papers stored; what it made"
        " and sent is in the state"
    )
    assert code == 0  # the newest run is ok


def test_a_digest_run_beats_while_it_runs_and_four_beats_missed_read_interrupted(
    postgres_url: str,
) -> None:
    """reg33 O2: a `digest run` that lost its server and ended on it (the end unwritten) read
    "running" in status for 12 hours: it beat only as it started. It beats as it runs now."""

    def beat_at(store: Store) -> str:
        return next(w["beat_at"] for w in store.workers() if w["name"] == "r1")

    with Store(postgres_url, worker="r1") as store:
        store.leave = lambda: None  # type: ignore[method-assign]  # killed: it never leaves
        with store.beating(every=0.5):
            run_id = store.start_run(NOW, NOW)
            first, deadline = beat_at(store), time.monotonic() + 20
            while beat_at(store) == first and time.monotonic() < deadline:
                time.sleep(0.1)
            assert beat_at(store) > first  # beaten again while the run ran
            assert store.runs(1)[0]["outcome"] == "running"
        time.sleep(2.5)  # four beats missed: the process is gone (the end never written)
        (run,) = store.runs(1)
        assert run["id"] == run_id and run["outcome"] == "interrupted"
        assert run["gone"].startswith("its worker r1 has given no sign of life since")
    with Store(postgres_url, worker="r2") as older:  # a run of before, no beat as it runs
        older.beat(datetime.now(UTC), "run")
        older.start_run(NOW, NOW)
        time.sleep(2.5)
        assert older.runs(1)[0]["outcome"] == "running"


def test_a_run_beats_soon_after_its_server_is_back_and_reads_alive_while_it_may_wait(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ops21 F5: a live run read "interrupted" for half a minute after a 100-s outage: a beat
    that failed waited a whole beat to try again, and four beats did not cover the 90 s a run
    waits for its server. It tries again soon, and its limit holds the wait too."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    direct = postgres_cluster.create_database()  # status reads the server itself, never cut

    def beat_at(store: Store) -> str:
        return next(w["beat_at"] for w in store.workers() if w["name"] == "r4")

    with Store(proxy.url(direct), worker="r4") as store, Store(direct, worker="s") as status:
        store.leave = lambda: None  # type: ignore[method-assign]  # killed: it never leaves
        with store.beating(every=3.0, away=3.0):
            store.start_run(NOW, NOW)
            first = beat_at(status)
            proxy.cut()
            time.sleep(4.0)  # the beat of 3 s failed (its pool's timeout 1 s): the server away
            proxy.mend()
            deadline = time.monotonic() + 2.0  # a whole beat later, the next had come at 7 s
            while beat_at(status) == first and time.monotonic() < deadline:
                time.sleep(0.1)
            assert beat_at(status) > first
            last = time.monotonic()
        # Four beats missed, not the wait (beats are stamped to the second: a beat may read up
        # to 1 s older than it is, so each check keeps 2 s from the limit of 4 x 3 + 3 s).
        time.sleep(max(0.0, last + 4 * 3.0 - time.monotonic()))
        assert status.runs(1)[0]["outcome"] == "running"
        time.sleep(5.0)
        assert status.runs(1)[0]["outcome"] == "interrupted"


def test_a_run_whose_worker_went_silent_is_shown_interrupted(postgres_url: str) -> None:
    from datetime import timedelta

    with Store(postgres_url, worker="serve-a") as store:
        store.beat(NOW, "serve")
        store.start_run(NOW, NOW)
        assert store.runs(1, NOW + timedelta(minutes=1))[0]["outcome"] == "running"
        (run,) = store.runs(1, NOW + timedelta(minutes=5))  # no beat for 5 min: gone
        assert run["outcome"] == "interrupted" and run["new"] is None
        assert (
            run["gone"] == "its worker serve-a has given no sign of life since 2026-11-30T09:00:00Z"
        )
        store.beat(NOW + timedelta(minutes=1), "serve", stopped=True)
        (run,) = store.runs(1, NOW + timedelta(minutes=1))
        assert run["gone"] == "its worker serve-a stopped before the run ended"


def test_every_transaction_is_read_committed_whatever_the_servers_default(
    postgres_url: str,
) -> None:
    """The migration and the claims lock, then read: under a default of SERIALIZABLE (a DBA's or
    a managed service's), workers starting together made the tables twice, or failed."""
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        name = conn.info.dbname
        conn.execute(
            f"ALTER DATABASE \"{name}\" SET default_transaction_isolation = 'serializable'"
        )
    with Store(postgres_url) as store, store.transaction() as db:
        assert db.execute("SHOW transaction_isolation").fetchone()[0] == "read committed"


# A session the server ends mid-statement (an administrator, a restart): idempotent work is
# asked again on a new connection, so it costs no run.


def _end_the_waiting_session(admin: Any, statement: str) -> None:
    """Terminate the one session that waits on a lock in `statement` (LIKE pattern)."""
    for _ in range(200):
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE %s",
            (statement,),
        ).fetchall()
        if rows:
            admin.execute("SELECT pg_terminate_backend(%s)", (rows[0][0],))
            return
        time.sleep(0.05)
    pytest.fail(f"no session waited on {statement}")


def test_sent_marks_cut_off_mid_statement_are_written_on_a_new_connection(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    import psycopg

    from digest.marks import Marks
    from digest.models import Digest, Message, Scored

    with Store(postgres_url) as store:
        digest = Digest("ana", "P1", NOW.date(), (Scored(Paper("p", "T", "A"), 1),), NOW)
        store.record_digest(digest, 1, [("file", "file", Message("s", "t", "h"))])
        (row,) = store.due(NOW)
        marks = Marks(store, threading.Lock(), lambda: NOW)
        with (
            psycopg.connect(postgres_url, autocommit=True) as admin,
            psycopg.connect(postgres_url) as holder,
        ):
            holder.execute("LOCK TABLE outbox IN SHARE MODE")  # the mark waits on it
            writer = threading.Thread(target=marks.mark_sent, args=(row.id, "ok", NOW, True))
            writer.start()
            _end_the_waiting_session(admin, "UPDATE outbox SET status = 'sent'%")
            holder.rollback()
            writer.join(10)
        assert not writer.is_alive()
        assert store.outbox_counts(NOW) == {"sent": 1}
    assert "written again on a new connection" in caplog.text


def marks_waiting(store: Store) -> Any:
    """The outbox's marks of one run, with one sent mark queued for the next commit."""
    from digest.marks import Marks
    from digest.models import Digest, Message, Scored

    digest = Digest("ana", "P1", NOW.date(), (Scored(Paper("p", "T", "A"), 1),), NOW)
    store.record_digest(digest, 1, [("file", "file", Message("s", "t", "h"))])
    (row,) = store.due(NOW)
    marks = Marks(store, threading.Lock(), lambda: NOW)
    marks.mark_sent(row.id, "ok", NOW)
    return marks


def test_sent_marks_of_a_pass_that_ends_while_the_server_is_away_wait_for_it(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The messages went out; their marks, dropped with the run, made the next run mail them
    again and mark the Slack rows dead ("nothing was confirmed")."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        marks = marks_waiting(store)
        proxy.cut()  # the server stopped
        threading.Timer(4.0, proxy.mend).start()  # and is back a few seconds later
        marks.settle()
        store.db.pool.timeout = 30.0
        assert store.outbox_counts(NOW) == {"sent": 1}
    assert "1 sent mark waits for the state database" in caplog.text


def test_marks_a_pass_gave_up_on_are_written_by_the_next_pass_before_it_sends(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A serve whose database was away past SETTLE_SECONDS dropped the marks it held, and its
    next pass, in the same process, mailed those messages again."""
    from digest import marks as marks_module
    from digest import outbox
    from digest.models import Settings

    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    monkeypatch.setattr(marks_module, "SETTLE_SECONDS", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        marks = marks_waiting(store)
        proxy.cut()
        with pytest.raises(StateError):
            marks.settle()
        proxy.mend()
        store.db.pool.timeout = 30.0
        outcome = outbox.deliver(store, Settings("t.toml", (), ()), NOW)
        assert outcome.sent == outcome.dead == [] and store.outbox_counts(NOW) == {"sent": 1}
        assert not marks_module.Marks(store, threading.Lock(), lambda: NOW).carried


def test_a_pass_told_to_stop_does_not_wait_for_the_server(
    postgres_cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM while the marks waited: the run went on 83 s and more."""
    monkeypatch.setattr(postgres, "POOL_TIMEOUT", 1.0)
    proxy = Cuttable(postgres_cluster.port)
    with Store(proxy.url(postgres_cluster.create_database())) as store:
        marks = marks_waiting(store)
        proxy.cut()
        with pytest.raises(StateError):
            marks.settle(stop=lambda: True)
        assert marks.sent  # still queued: nothing claims it was written


def test_a_read_cut_off_mid_statement_is_asked_again(postgres_url: str) -> None:
    import psycopg

    with Store(postgres_url) as store:
        store.add_papers([Paper("2611.00001", "A paper", "x")], NOW)
        counted: list[int] = []
        with (
            psycopg.connect(postgres_url, autocommit=True) as admin,
            psycopg.connect(postgres_url) as holder,
        ):
            holder.execute("LOCK TABLE papers IN ACCESS EXCLUSIVE MODE")  # the read waits
            reader = threading.Thread(target=lambda: counted.append(store.count_papers()))
            reader.start()
            _end_the_waiting_session(admin, "SELECT count(*) FROM papers%")
            holder.rollback()
            reader.join(10)
        assert counted == [1]
        # A write is not sent again: whether it took effect is unknown.
        with psycopg.connect(postgres_url) as holder:
            holder.execute("LOCK TABLE papers IN ACCESS EXCLUSIVE MODE")
            failed: list[BaseException] = []

            def write() -> None:
                try:
                    store.db.execute("DELETE FROM papers")
                except StateError as exc:
                    failed.append(exc)

            writer = threading.Thread(target=write)
            writer.start()
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                _end_the_waiting_session(admin, "DELETE FROM papers%")
            holder.rollback()
            writer.join(10)
        assert len(failed) == 1 and "terminating connection" in str(failed[0])
        assert store.count_papers() == 1


def test_a_rating_and_its_undo_wait_for_another_rating_of_the_same_paper(postgres_url: str) -> None:
    """Read, then written: a Slack click or `digest feedback` landing in between was wiped out by
    an undo that answered "Rating taken back". Each (subscriber, paper) is rated one at a time."""
    import psycopg

    with Store(postgres_url) as store:
        store.add_papers([Paper("p1", "A paper", "x")], NOW)
        previous, made = store.ratings.rate_undoably("ana", "p1", "up", NOW)
        done: list[bool] = []
        with psycopg.connect(postgres_url, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(hashtext(%s))", ("digest:rating:ana\x1fp1",))
            undo = threading.Thread(
                target=lambda: done.append(store.ratings.undo("ana", "p1", made, previous, "web"))
            )
            undo.start()
            time.sleep(0.5)
            assert undo.is_alive()  # waits for the rating being written elsewhere
            other.execute("SELECT pg_advisory_unlock(hashtext(%s))", ("digest:rating:ana\x1fp1",))
            undo.join(10)
        assert done == [True] and store.ratings.current("ana", "p1") == "none"


def test_health_reads_an_older_or_empty_database_and_never_moves_it(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A new container's health check had upgraded the old workers' database, one way.
    from digest.state import engine

    assert main(["health", "--state", postgres_url]) == 1
    assert "no digest state in" in capsys.readouterr().out
    db = engine.connect(postgres_url)
    try:
        assert db.version() == 0  # an empty database is not made into a state by a health check
    finally:
        db.close()
    with Store(postgres_url) as store:
        with store.transaction() as tx:
            tx.set_version(len(SCHEMA) - 1)
    assert main(["health", "--state", postgres_url]) == 2
    assert "made by an older digest" in capsys.readouterr().err
    db = engine.connect(postgres_url)
    try:
        assert db.version() == len(SCHEMA) - 1
    finally:
        db.close()


# A worker frozen (a paused container or VM) or cut off while it holds a lock: the others wait a
# bounded time, and the server ends the holder's session once it sits idle in its transaction.


def holding(url: str, name: str) -> Any:
    """A connection holding the lock `name` in a transaction it never ends: a frozen worker."""
    import psycopg

    holder = psycopg.connect(url)  # not autocommit: the lock lasts as long as the transaction
    holder.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"digest:{name}",))
    return holder


def in_thread(work: Any) -> tuple[threading.Thread, list[Any]]:
    """work() in a thread of its own; what it returns or raises lands in the list."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work())
        except Exception as exc:  # noqa: BLE001 (the test reads it)
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_lock_another_worker_never_lets_go_of_is_given_up_in_one_line(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "LOCK_WAIT", 1.0)  # 10 minutes, for a worker
    with Store(postgres_url) as store:
        holder = holding(postgres_url, "papers")
        ingest, outcome = in_thread(lambda: store.add_papers([paper(1)], NOW))
        try:
            ingest.join(60)  # the wait had no end while the holder lived
            assert not ingest.is_alive(), "still waiting for the lock"
        finally:
            holder.close()
            ingest.join(10)
        (error,) = outcome
        assert isinstance(error, StateError)
        assert str(error) == (
            f"{store.name}: gave up after waiting 1 s for another worker's lock on papers (a"
            " worker frozen or cut off while it held it?); nothing of this step was written"
        )
        assert store.count_papers() == 0
        assert store.add_papers([paper(1)], NOW) == 1  # the holder gone, the next try goes in


# A real worker, frozen (SIGSTOP) with the papers' lock in its transaction; the server's patience
# for a transaction left idle cut from 5 minutes to 1 s, a test's.
FROZEN = """
import os, signal, sys
from digest.state import Store, postgres
postgres.SESSION["idle_in_transaction_session_timeout"] = "1000"
with Store(sys.argv[1], worker="frozen") as store, store.transaction() as db:
    db.lock("papers")
    print("holding", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_the_server_ends_a_frozen_workers_session_and_its_locks_pass_to_the_others(
    postgres_url: str,
) -> None:
    import signal
    import subprocess
    import sys

    Store(postgres_url).close()  # migrated here: the frozen worker only takes the lock
    frozen = subprocess.Popen(
        [sys.executable, "-c", FROZEN, postgres_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert frozen.stdout is not None and frozen.stdout.readline() == "holding\n"
        with Store(postgres_url) as store:
            ingest, outcome = in_thread(lambda: store.add_papers([paper(1)], NOW))
            ingest.join(60)  # the frozen worker had held it for as long as it was frozen
            assert not ingest.is_alive(), "still waiting for the frozen worker's lock"
            assert outcome == [1]
    finally:
        frozen.send_signal(signal.SIGCONT)
        frozen.kill()
        frozen.wait()


SESSION_SETTINGS = (
    "idle_in_transaction_session_timeout",
    "tcp_keepalives_idle",
    "tcp_keepalives_interval",
    "tcp_keepalives_count",
    "tcp_user_timeout",
)


def settings_and_keepalive(url: str) -> tuple[dict[str, str], int]:
    """The server's settings of a pooled session, and its socket's idle time before probes."""
    import socket

    with Store(url) as store, store.db.pool.connection() as conn:
        shown = {name: conn.execute(f"SHOW {name}").fetchone()[0] for name in SESSION_SETTINGS}
        with socket.socket(fileno=os.dup(conn.pgconn.socket)) as sock:
            return shown, sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)


def test_each_session_ends_a_transaction_left_idle_and_both_ends_probe_a_silent_peer(
    postgres_url: str,
) -> None:
    shown, idle = settings_and_keepalive(postgres_url)
    assert shown == {
        "idle_in_transaction_session_timeout": "5min",
        "tcp_keepalives_idle": "30",
        "tcp_keepalives_interval": "10",
        "tcp_keepalives_count": "3",
        "tcp_user_timeout": "60000",  # ms
    }
    assert idle == 30  # seconds before the client probes a silent server
    # The URL's own settings win (so would the server's, or its role's).
    own = "?options=-c%20idle_in_transaction_session_timeout%3D42s&keepalives_idle=7"
    shown, idle = settings_and_keepalive(postgres_url + own)
    assert shown["idle_in_transaction_session_timeout"] == "42s" and idle == 7
