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


def test_status_names_the_worker_of_a_failed_and_of_an_interrupted_run_too(
    postgres_url: str, tmp_path: Path
) -> None:
    """ops31 F2: with several workers, `(by w2)` followed ok and running runs only; the failed
    or interrupted one, whose worker's log an operator must read, named none."""
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # its pid names no process now: a killed `digest run` left its row running
    killed = f"{socket.gethostname()}:{gone.pid}"
    clocks = [at(f"2026-11-30T0{h}:00Z") for h in (6, 7, 8, 9)]
    with Store(postgres_url, worker=killed) as store:
        store.start_run(clocks[0], clocks[0])
    with Store(postgres_url, worker="w1") as store:
        run_id = store.start_run(clocks[1], clocks[1])
        store.finish_run(run_id, clocks[1], "failed", {"error": "terminating connection"})
    with Store(postgres_url, worker="w2") as store:
        store.start_run(clocks[2], clocks[2])
        store.start_run(clocks[3], clocks[3])  # w2 again: its run before was cut short
        text, code = reports.status_report(settings, store, postgres_url, clocks[3])
    lines = {line[2:22]: line for line in text.splitlines() if line.startswith("  2026-11-30T")}
    assert lines["2026-11-30T06:00:00Z"].startswith("  2026-11-30T06:00:00Z  interrupted  its")
    assert lines["2026-11-30T06:00:00Z"].endswith(f"is in the state (by {killed})")
    assert lines["2026-11-30T07:00:00Z"] == (
        "  2026-11-30T07:00:00Z  failed     terminating connection (by w1)"
    )
    # Its reason names the worker already: not twice.
    assert lines["2026-11-30T08:00:00Z"].endswith("what it made and sent is in the state")
    assert lines["2026-11-30T08:00:00Z"].count("w2") == 1
    assert lines["2026-11-30T09:00:00Z"].endswith("(by w2)")  # running


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


# Overdue digests (sched1 F1): a cron timer stopped for ten days had status say only "due now",
# exit 0; ten daily periods had gone by, none made, and nothing said so.


def scheduled(tmp_path: Path, schedule: str, zone: str, *names: str) -> list[str]:
    """A config of readers on one schedule and zone (a real SQLite state under state/)."""
    text = CONFIG.split("[[subscribers]]")[0]
    for name in names or ("ana",):
        text += f'[[subscribers]]\nname = "{name}"\ninterests = "differential privacy"\n'
        text += f'schedule = "{schedule}"\ntimezone = "{zone}"\n'
        text += '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
    (tmp_path / "digest.toml").write_text(text, encoding="utf-8")
    if not (tmp_path / "papers").exists():
        arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    return ["--config", str(tmp_path / "digest.toml")]


def status_at(capsys: pytest.CaptureFixture[str], config: list[str], now: str) -> tuple[int, str]:
    """status's exit code and the line of ana's next digest."""
    capsys.readouterr()
    code = main(["status", *config, "--now", now])
    lines = capsys.readouterr().out.splitlines()
    return code, next(line.strip() for line in lines if line.startswith("  ana: "))


def test_status_says_digests_overdue_after_days_without_a_run_and_needs_attention(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = scheduled(tmp_path, "0 8 * * *", "UTC")
    assert main(["run", *config, "--now", "2026-11-20T09:00Z"]) == 0
    code, line = status_at(capsys, config, "2026-12-01T09:00Z")
    assert code == 1
    assert line == (
        "ana: overdue: 10 periods since Fri 2026-11-20 08:00 UTC, last run 2026-11-20 09:00 UTC;"
        " due now (the period of Tue 2026-12-01 08:00 UTC); then Wed 2026-12-02 08:00 UTC (UTC),"
        " in 23 h 00 min"
    )
    # The next day's period is due, not overdue: a run late by an hour is no missed digest.
    assert status_at(capsys, config, "2026-11-21T09:00Z") == (
        0,
        "ana: due now (the period of Sat 2026-11-21 08:00 UTC); then Sun 2026-11-22 08:00 UTC"
        " (UTC), in 23 h 00 min",
    )
    code, line = status_at(capsys, config, "2026-11-22T08:30Z")  # Saturday's went by
    assert code == 1 and line.startswith("ana: overdue: 1 period since Fri 2026-11-20 08:00 UTC,")
    # The timer back: its run makes the period due now, and nothing is overdue any more.
    assert main(["run", *config, "--now", "2026-12-01T09:00Z"]) == 0
    code, line = status_at(capsys, config, "2026-12-01T10:00Z")
    assert code == 0 and "overdue" not in line


@pytest.mark.parametrize(
    ("schedule", "zone", "ran", "fine", "late", "said"),
    [
        # Weekdays only: a weekend without runs misses nothing; a Monday without one does.
        (
            "0 8 * * 1-5",
            "America/New_York",
            "2026-11-20T14:00Z",
            "2026-11-23T14:00Z",
            "2026-11-24T14:00Z",
            "1 period since Fri 2026-11-20 08:00 EST",
        ),
        # Weekly: a week-old period due now is due; the week before it, never made, is overdue.
        (
            "0 8 * * 1",
            "UTC",
            "2026-11-16T09:00Z",
            "2026-11-29T23:00Z",
            "2026-11-30T09:00Z",
            "1 period since Mon 2026-11-16 08:00 UTC",
        ),
        # Berlin falls back on 25 October: its second 02:30 opens no period, so one is missed.
        (
            "30 2 * * *",
            "Europe/Berlin",
            "2026-10-24T01:00Z",
            "2026-10-25T02:00Z",
            "2026-10-26T02:00Z",
            "1 period since Sat 2026-10-24 02:30 CEST",
        ),
        # It springs forward on 29 March: the skipped 02:30 fires as 03:30 CEST, one period.
        (
            "30 2 * * *",
            "Europe/Berlin",
            "2026-03-28T02:00Z",
            "2026-03-29T01:45Z",
            "2026-03-30T01:00Z",
            "1 period since Sat 2026-03-28 02:30 CET",
        ),
        # Hourly over the fall-back night: 01:00, 02:00 (once), 03:00 and 04:00 went by.
        (
            "0 * * * *",
            "Europe/Berlin",
            "2026-10-24T22:30Z",
            "2026-10-24T23:30Z",
            "2026-10-25T04:30Z",
            "4 periods since Sun 2026-10-25 00:00 CEST",
        ),
        (
            "30 7 * * *",
            "Asia/Kolkata",
            "2026-11-20T02:30Z",
            "2026-11-21T03:00Z",
            "2026-11-22T02:00Z",
            "1 period since Fri 2026-11-20 07:30 IST",
        ),
    ],
)
def test_overdue_counts_the_periods_of_each_schedule_and_zone_no_run_saw(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    schedule: str,
    zone: str,
    ran: str,
    fine: str,
    late: str,
    said: str,
) -> None:
    config = scheduled(tmp_path, schedule, zone)
    assert main(["run", *config, "--now", ran]) == 0
    code, line = status_at(capsys, config, fine)
    assert code == 0 and "overdue" not in line, line
    code, line = status_at(capsys, config, late)
    assert code == 1 and line.startswith(f"ana: overdue: {said}, last run {ran[:10]} "), line


def test_a_new_reader_or_an_edited_schedule_is_due_not_overdue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = scheduled(tmp_path, "0 8 * * *", "UTC")
    assert main(["run", *config, "--now", "2026-11-20T09:00Z"]) == 0
    # bo joins; at 08:00 next day both are due: bo's first period, ana's next one.
    scheduled(tmp_path, "0 8 * * *", "UTC", "ana", "bo")
    capsys.readouterr()
    assert main(["status", *config, "--now", "2026-11-21T08:10Z"]) == 0
    out = capsys.readouterr().out
    assert "  bo: due now (the period of Sat 2026-11-21 08:00 UTC)" in out
    assert "overdue" not in out
    # The state's last run stands for a reader no run has seen: bo is overdue with ana.
    assert main(["status", *config, "--now", "2026-11-23T08:10Z"]) == 1
    out = capsys.readouterr().out
    assert "  bo: overdue: 2 periods since Fri 2026-11-20 08:00 UTC, last run" in out
    # daily -> weekly on Mondays: the Monday period is due, the Monday before it had its run.
    scheduled(tmp_path, "0 8 * * 1", "UTC")
    code, line = status_at(capsys, config, "2026-11-23T09:00Z")
    assert code == 0 and line.startswith("ana: due now (the period of Mon 2026-11-23 08:00 UTC)")
    # daily -> every 15 minutes: the quarter due now is due; one gone by with no run is overdue.
    scheduled(tmp_path, "*/15 * * * *", "UTC")
    assert status_at(capsys, config, "2026-11-20T09:20Z")[0] == 0
    code, line = status_at(capsys, config, "2026-11-20T09:40Z")
    assert code == 1 and line.startswith("ana: overdue: 1 period since Fri 2026-11-20 09:00 UTC")


def test_a_run_that_failed_or_stopped_before_the_digests_makes_no_period(tmp_path: Path) -> None:
    """Only a run that got to the digests (or is running) saw the period: one that failed, or
    a SIGTERM cut short before them, leaves the periods since overdue."""
    from digest.cli import upcoming

    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    state = str(tmp_path / "s.db")
    with Store(state) as store:
        pipeline.run_once(settings, store, at("2026-11-20T09:00Z"))
        run = store.start_run(at("2026-11-25T09:00Z"), at("2026-11-25T09:00Z"))
        store.finish_run(run, at("2026-11-25T09:00Z"), "failed", {"error": "disk full"})
        run = store.start_run(at("2026-11-26T09:00Z"), at("2026-11-26T09:00Z"))
        store.finish_run(run, at("2026-11-26T09:00Z"), "attention", {"subscribers": {}})
        now = at("2026-11-28T09:00Z")
        pairs, late = upcoming.next_digests(settings, store, store.runs(5, now), now)
    assert late == ["ana"]
    assert pairs[0][1].startswith(
        "overdue: 7 periods since Fri 2026-11-20 08:00 UTC, last run 2026-11-20 09:00 UTC;"
    )


@pytest.mark.parametrize(
    ("schedule", "zone", "seen", "start"),
    [
        ("*/15 * * * *", "Europe/Berlin", "2026-10-24T20:07Z", "2026-10-25T05:00Z"),
        ("0 * * * *", "America/New_York", "2026-03-07T20:00Z", "2026-03-09T12:00Z"),
        ("30 2 * * *", "America/New_York", "2026-10-30T12:00Z", "2026-11-03T12:00Z"),
        ("0 2 * * *", "Australia/Sydney", "2026-04-02T12:00Z", "2026-04-07T12:00Z"),
        ("0 2 * * *", "Australia/Sydney", "2026-10-01T12:00Z", "2026-10-06T12:00Z"),
        ("30 1-3 * * *", "Europe/Berlin", "2026-03-27T12:00Z", "2026-03-31T12:00Z"),
        ("0 0 * * *", "America/Santiago", "2026-09-03T12:00Z", "2026-09-09T12:00Z"),
        ("0 8 * * 1-5", "Asia/Tokyo", "2026-11-02T12:00Z", "2026-11-20T12:00Z"),
    ],
)
def test_the_periods_missed_are_those_period_start_names_in_between(
    schedule: str, zone: str, seen: str, start: str
) -> None:
    """Counted against periods.period_start taken every five minutes: each period once, the
    repeated hour's none twice, a skipped 02:30 once."""
    from digest.cli import upcoming
    from digest.periods import period_start

    current = period_start(schedule, zone, at(start))
    assert current is not None
    count, since = upcoming._missed(schedule, zone, at(seen), current)
    moment, named = at(seen), set()
    while moment < current:
        if (p := period_start(schedule, zone, moment)) is not None:
            named.add(p.astimezone(UTC))
        moment += timedelta(minutes=5)
    assert since.astimezone(UTC) == min(named)
    assert count == len(named) - 1 > 0


def test_a_renamed_reader_whose_period_was_made_under_the_old_name_is_not_due(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # status read the new name's own digests: anna, renamed from ana after ana's digest, was
    # "due now" for a period the run says is made (and, days later, overdue since her start).
    from test_state_lineage import _run
    from web_project import project

    with project(tmp_path, web=False) as p:
        ana = (p.root / "digest.toml").read_text(encoding="utf-8")
        anna = ana.replace('name = "ana"', 'name = "anna"')
        _run(p, capsys, "2026-11-30T09:00:00+00:00", ana, [])
        (p.root / "digest.toml").write_text(anna, "utf-8")
        code, out, _ = p.digest(capsys, "status", "--now", "2026-11-30T10:00:00+00:00")
        (line,) = [line.strip() for line in out.splitlines() if line.startswith("  anna: ")]
        assert "due now" not in line and line.startswith("anna: Tue 2026-12-01"), line
        _run(p, capsys, "2026-11-30T10:00:00+00:00", anna, [])
        with Store(p.state) as store:
            made = {r.subscriber for r in store.outbox() if r.purpose == "digest"}
        assert "anna" not in made and "ana" in made  # as status said: the run made none
