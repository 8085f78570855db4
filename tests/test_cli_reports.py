"""`digest status`: runs, next digests, sources and dead deliveries; exit 1 when one needs
attention, a subscriber whose last digest was made ahead of the clock among them. The commands
that record on their clock refuse a `--now` more than a week ahead of the real one."""

from __future__ import annotations

import socket
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from timeline import PRIVACY, arrive, at, paper, settings_for, subscriber

from digest import pipeline
from digest.cli import main, reports
from digest.models import Paper, Scored, StateError
from digest.state import Store

MONDAY_9 = "2026-11-30T09:00Z"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_status_shows_runs_next_digests_sources_and_dead_deliveries(tmp_path: Path) -> None:
    ana = replace(subscriber("ana", "differential privacy"), timezone="Europe/Berlin")
    settings = settings_for(tmp_path, ana)
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings, store, at(MONDAY_9))
        store.db.execute(
            "UPDATE outbox SET status = 'dead', attempts = 8, last_error = 'smtp: refused'"
        )
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    assert code == 1  # a dead delivery needs attention
    lines = text.splitlines()
    assert lines[1].startswith("serve: no heartbeat")
    assert "  2026-11-30T09:00:00Z  ok         1 new paper; digests made: ana; 0 alerts" in text
    assert "  ana: Tue 2026-12-01 08:00 CET (Europe/Berlin), in 21 h 00 min" in lines
    assert "  papers: 2026-11-30T09:00:00Z" in lines
    assert "deliveries: 0 pending, 1 dead" in lines
    assert lines[-1].startswith("  dead     ana/file digest 2026-11-30T08:00:00+01:00")
    assert lines[-1].endswith("(8 attempts): smtp: refused")


def test_a_period_a_new_time_zone_opens_before_the_last_digest_is_not_due(tmp_path: Path) -> None:
    # At 08:00 UTC ana had her digest; then she moved to Los Angeles. Her period now began at
    # 08:00 PDT yesterday, before that digest: the run makes nothing, and status says so.
    ana = replace(subscriber("ana", "differential privacy"), schedule="0 8 * * *")
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings_for(tmp_path, ana), store, at("2026-04-01T09:00Z"))
        moved = settings_for(tmp_path, replace(ana, timezone="America/Los_Angeles"))
        text, _ = reports.status_report(moved, store, state, at("2026-04-01T12:00Z"))
    assert "due now" not in text
    assert "  ana: Wed 2026-04-01 08:00 PDT (America/Los_Angeles), in 3 h 00 min" in text


def test_status_counts_the_held_alerts_themselves_whichever_worker_held_them(
    tmp_path: Path,
) -> None:
    """Held by other workers, or in runs past the last five shown: status counts what waits for
    each subscriber's next digest from the holds, not by adding up run summaries."""
    ana = subscriber("ana", "differential privacy", max_alerts_per_day=1)
    settings = settings_for(tmp_path, ana)
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    matches = [Scored(Paper(f"m{i}", f"Match {i}", "An abstract."), 0.1) for i in range(3)]
    with Store(state) as store:
        pipeline.run_once(settings, store, at(MONDAY_9))
        store.add_papers([m.paper for m in matches], at(MONDAY_9))
        for worker, held in (("w1", matches[:2]), ("w2", matches[1:])):  # m1 by both
            with Store(state, worker=worker) as other:
                rows = [(m, ["mentions “privacy”"]) for m in held]
                other.journal.hold("ana", date(2026, 11, 30), rows, "cap", at(MONDAY_9))
        text, _ = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    assert "  ana: Tue 2026-12-01 08:00 UTC (UTC), in 22 h 00 min, with 3 held alerts" in text


def test_status_flags_a_source_whose_last_read_failed(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings, store, at(MONDAY_9))
        (tmp_path / "papers" / "1.jsonl").unlink()
        (tmp_path / "papers").rmdir()
        pipeline.run_once(settings, store, at("2026-11-30T09:30Z"))
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    (line,) = [x for x in text.splitlines() if x.startswith("  papers: ")]
    assert line.startswith("  papers: 2026-11-30T09:00:00Z; FAILING: ")
    assert code == 1


def test_a_run_ended_by_an_error_is_shown_failed_with_it_and_needs_attention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "monday", paper("p1", "Differential privacy in practice"))
    state = str(tmp_path / "s.db")

    def broken(*_, **__):
        raise StateError("s.db: disk I/O error")

    monkeypatch.setattr("digest.alerts.make_alerts", broken)
    with Store(state) as store, pytest.raises(StateError):
        pipeline.run_once(settings, store, at(MONDAY_9))
    with Store(state) as store:
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    (line,) = [x for x in text.splitlines() if x.startswith("  2026-11-30T09:00:00Z")]
    assert line == "  2026-11-30T09:00:00Z  failed     s.db: disk I/O error"
    assert code == 1


def test_a_run_whose_process_died_is_shown_interrupted_and_needs_attention(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # its pid names no process now (a SIGKILLed `digest run` leaves this)
    state = str(tmp_path / "s.db")
    with Store(state, worker=f"{socket.gethostname()}:{gone.pid}") as store:
        store.start_run(at(MONDAY_9), at(MONDAY_9))
    with Store(state) as store:
        store.start_run(at(MONDAY_9), at(MONDAY_9))  # this process's own, still running
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    runs = [line for line in text.splitlines() if line.startswith("  2026-11-30T09:00:00Z")]
    assert runs[0].startswith("  2026-11-30T09:00:00Z  running")
    assert runs[1].startswith("  2026-11-30T09:00:00Z  interrupted  its process ended")
    assert code == 0  # the newest run is alive
    with Store(state, worker=f"{socket.gethostname()}:{gone.pid}") as store:
        store.start_run(at(MONDAY_9), at(MONDAY_9))
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    assert code == 1  # the newest run died


def test_a_runs_summary_says_many_failures_of_one_reason_in_one_line() -> None:
    """A relay that was down gave 400 identical lines, and 1,000 readers 3,000 lines."""
    from datetime import UTC, datetime

    from digest.outbox import Outcome
    from digest.pipeline import RunReport

    down = "email: cannot reach the server ([Errno 111] Connection refused)"
    outcome = Outcome(
        sent=[f"r{n:03d}/file: out/r{n:03d}.eml" for n in range(60)],
        retrying=[f"r{n:03d}/email: {down}" for n in range(400)]
        + ["ana/slack: slack answered 500"],
    )
    text = reports.describe(RunReport(datetime(2026, 12, 1, tzinfo=UTC), outcome=outcome))
    lines = text.splitlines()
    assert (
        f"  retrying 400 deliveries (r000/email, r001/email, r002/email and 397 more): {down}"
        in lines
    )
    assert "  retrying ana/slack: slack answered 500" in lines
    assert "  ... and 10 more sent" in lines and len(lines) < 60


def test_a_runs_summary_for_many_subscribers_counts_the_digests_and_names_the_rest() -> None:
    from datetime import UTC, datetime

    from digest.alerts import AlertReport
    from digest.pipeline import RunReport, SubscriberReport

    subs = [
        SubscriberReport(f"r{n:03d}", "P", "made", picked=5, top_score=0.2 + n / 100)
        for n in range(30)
    ]
    subs += [SubscriberReport(f"q{n}", "P", "no match") for n in range(25)]
    subs.append(SubscriberReport("late", "P", "waiting for sources"))
    alerts = [AlertReport("r001", ["p1", "p2"]), AlertReport("r002", [], held=3)]
    alerts += [AlertReport(f"r{n:03d}") for n in range(3, 30)]  # watching, nothing to alert
    report = RunReport(datetime(2026, 12, 1, tzinfo=UTC), subscribers=subs, alerts=alerts)
    lines = reports.describe(report).splitlines()
    assert "  30 digests made: 150 picked, top scores 0.20 to 0.49" in lines
    no_match = reports._SUBSCRIBER_STATES["no match"]
    assert f"  {no_match}: 25 subscribers (q0, q1, q2 and 22 more)" in lines
    assert f"  {reports._SUBSCRIBER_STATES['waiting for sources']}: 1 subscriber (late)" in lines
    assert (
        "  alerts: 2 for 1 subscriber (r001); 3 more held for the next digests (daily cap)" in lines
    )
    assert len(lines) < 10


def test_status_groups_many_subscribers_by_their_next_digest_and_many_deliveries_by_reason(
    tmp_path: Path,
) -> None:
    readers = [subscriber(f"r{n:02d}", "differential privacy") for n in range(25)]
    readers.append(replace(subscriber("tokyo", "privacy"), timezone="Asia/Tokyo"))
    settings = settings_for(tmp_path, *readers)
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings, store, at(MONDAY_9))
        store.db.execute(
            "UPDATE outbox SET status = 'dead', attempts = 8, last_error = 'smtp: refused'"
            " WHERE subscriber != 'r00'"
        )
        store.db.execute(
            "UPDATE outbox SET status = 'pending', last_error = 'smtp: full'"
            " WHERE subscriber = 'r00'"
        )
        text, code = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    lines = text.splitlines()
    assert code == 1
    utc = "  Tue 2026-12-01 08:00 UTC (UTC), in 22 h 00 min"
    assert f"{utc}: 25 subscribers (r00, r01, r02 and 22 more)" in lines
    assert any(line.startswith("  Tue 2026-12-01 08:00 JST (Asia/Tokyo)") for line in lines)
    assert (
        "  dead     25 deliveries (r01/file, r02/file, r03/file and 22 more): smtp: refused"
        in lines
    )
    assert "  pending  1 delivery (r00/file): smtp: full" in lines
    assert "digests made: 26 (r00, r01, r02 and 23 more); 0 alerts; 26 sent" in text
    assert len(lines) < 20


def test_a_pending_delivery_without_a_next_try_says_no_none(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings, store, at(MONDAY_9), stop=lambda: True)  # made, not sent
        text, _ = reports.status_report(settings, store, state, at("2026-11-30T10:00Z"))
    (line,) = [x for x in text.splitlines() if x.startswith("  pending")]
    assert "None" not in line and line.endswith("(0 attempts): not tried yet")


def test_a_feed_that_answered_304_is_said_unchanged_not_empty() -> None:
    from digest.intake import SourceReport

    line = reports._source_state(SourceReport("lab", unchanged=True))
    assert (
        line == "0 read, 0 skipped, 0 new: not changed since its last read (the feed answered 304)"
    )


def test_new_versions_of_papers_never_seen_are_said_left_out_not_seen_before() -> None:
    # arXiv's replace entries of papers the state never had are left out: "all seen before"
    # said the opposite of what happened.
    from digest.intake import SourceReport

    only = reports._source_state(SourceReport("arxiv", read=1, unseen_versions=1))
    assert only == "1 read, 0 skipped, 0 new: 1 new version of papers never seen left out"
    mixed = reports._source_state(SourceReport("arxiv", read=5, new=3, unseen_versions=2))
    assert mixed == "5 read, 0 skipped, 3 new (2 new versions of papers never seen left out)"
    rest = reports._source_state(SourceReport("arxiv", read=4, unseen_versions=1))
    assert rest.endswith("1 new version of papers never seen left out, the rest seen before")
    assert (
        reports._source_state(SourceReport("a", read=2))
        == "2 read, 0 skipped, 0 new: all seen before"
    )


CONFIG = """
[[sources]]
kind = "files"
path = "papers"
[[subscribers]]
name = "ana"
interests = "differential privacy"
schedule = "0 8 * * *"
timezone = "UTC"
[[subscribers.channels]]
kind = "file"
dir = "out"
"""


def project(tmp_path: Path) -> list[str]:
    (tmp_path / "digest.toml").write_text(CONFIG, encoding="utf-8")
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    return ["--config", str(tmp_path / "digest.toml")]


def test_a_now_more_than_a_week_ahead_is_refused_where_it_would_be_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2027 typed for 2026: the run sent a digest dated a year ahead, and every real run after it
    # said "clock behind" for that year; no command undid it.
    config = project(tmp_path)
    ahead = (datetime.now(UTC) + timedelta(days=365, hours=2, minutes=30)).isoformat("T", "seconds")
    for command in (["run"], ["retry"], ["feedback", "ana", "p1", "up"]):
        assert main([*command, *config, "--now", ahead]) == 2, command
        (said,) = capsys.readouterr().err.splitlines()
        assert said.startswith(f"digest: --now {ahead} is 365 d 2 h ahead of this machine's clock")
        assert said.endswith("check the date (at most 7 days ahead)")
    assert not (tmp_path / "state").exists()  # nothing made on it
    # Reading commands look ahead as they are asked to.
    assert main(["preview", *config, "--subscriber", "ana", "--now", ahead]) == 0
    assert main(["status", *config, "--now", ahead]) == 0
    # A replay of the coming days goes on.
    soon = (datetime.now(UTC) + timedelta(days=6)).isoformat()
    assert main(["run", *config, "--now", soon]) == 0


def test_status_names_the_subscriber_a_digest_made_ahead_of_the_clock_holds_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # status said "next digest: tomorrow 08:00", which no run would make.
    config = project(tmp_path)
    later = datetime.now(UTC).date() + timedelta(days=3)
    assert main(["run", *config, "--now", f"{later}T12:00Z"]) == 0
    assert main(["run", *config]) == 1
    assert "ana  clock behind" in capsys.readouterr().out
    assert main(["status", *config]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("clock behind: the last digest of these is for a period after")
    assert lines[-1] == f"  ana: its last digest is of {later:%a %Y-%m-%d} 08:00 UTC (UTC)"
    assert "  ana: none until the period of its last digest comes" in lines  # not "in 23 h"
    # At that time (the real run's "attention" aside) nothing is held back.
    main(["status", *config, "--now", f"{later}T12:00Z"])
    assert "clock behind" not in capsys.readouterr().out
