"""digest.scheduler: each subscriber's job fires at its own local time (across DST), the polling
job runs the pipeline on the clock of the moment, one run at a time under the state lock, the
heartbeat tells a ticking scheduler from a stopped one, and status says what happened."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from timeline import PRIVACY, ROBOTS, arrive, at, digests, paper, settings_for, subscriber

from digest import config, periods, pipeline, scheduler
from digest.cli import reports
from digest.models import ConfigError
from digest.state import Store, lock

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def fires(schedule: str, zone: str, start: str, count: int) -> list[str]:
    """The next `count` fire times after start, as local ISO times."""
    trigger = periods.trigger(schedule, zone)
    out: list[str] = []
    fire, now = None, at(start)
    for _ in range(count):
        fire = trigger.get_next_fire_time(fire, now)
        assert fire is not None
        out.append(fire.isoformat())
        now = fire + timedelta(seconds=1)
    return out


def test_a_weekday_schedule_fires_at_eight_local_in_each_zone() -> None:
    berlin = fires("0 8 * * mon-fri", "Europe/Berlin", "2026-11-28T12:00Z", 6)
    assert berlin == [f"2026-{d}T08:00:00+01:00" for d in ("11-30", "12-01", "12-02")] + [
        f"2026-12-{d:02d}T08:00:00+01:00" for d in (3, 4, 7)
    ]
    tokyo = fires("30 7 * * *", "Asia/Tokyo", "2026-11-28T12:00Z", 2)
    assert tokyo == ["2026-11-29T07:30:00+09:00", "2026-11-30T07:30:00+09:00"]
    new_york = fires("0 8 * * mon-fri", "America/New_York", "2026-11-28T12:00Z", 1)
    assert new_york == ["2026-11-30T08:00:00-05:00"]


def test_eight_oclock_stays_eight_oclock_across_both_berlin_dst_changes() -> None:
    # Last Sunday of March: 8:00 moves from 07:00 to 06:00 UTC; of October, back again.
    march = fires("0 8 * * *", "Europe/Berlin", "2026-03-27T12:00Z", 3)
    assert [at(f).astimezone(at("2026-01-01T00:00Z").tzinfo).hour for f in march] == [7, 6, 6]
    assert march[1] == "2026-03-29T08:00:00+02:00"
    october = fires("0 8 * * *", "Europe/Berlin", "2026-10-23T12:00Z", 3)
    assert october == [
        "2026-10-24T08:00:00+02:00",
        "2026-10-25T08:00:00+01:00",
        "2026-10-26T08:00:00+01:00",
    ]


def test_a_time_in_the_repeated_hour_fires_twice_but_opens_one_period() -> None:
    # 02:30 on 25 October 2026 happens twice in Berlin; APScheduler fires at both.
    twice = fires("30 2 * * *", "Europe/Berlin", "2026-10-24T12:00Z", 3)
    assert twice[:2] == ["2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00"]
    # The period both open is the first one: the second fire finds its digest made.
    for now in ("2026-10-25T00:45Z", "2026-10-25T01:45Z", "2026-10-25T23:00Z"):
        start = periods.period_start("30 2 * * *", "Europe/Berlin", at(now))
        assert start is not None and start.isoformat() == "2026-10-25T02:30:00+02:00"


def test_the_example_config_fires_at_each_subscribers_local_time() -> None:
    settings = config.load(REPO / "config" / "digest.toml", environ={})
    nexts = periods.next_fires(settings, at("2026-11-30T07:30:00+01:00"))
    assert {k: v.isoformat() if v else None for k, v in nexts.items()} == {
        "alice": "2026-11-30T08:00:00+01:00",  # Europe/Berlin, weekdays
        "bob": "2026-11-30T08:00:00-05:00",  # America/New_York, weekdays
        "carol": "2026-12-01T07:30:00+09:00",  # Asia/Tokyo, every day; already 15:30 there
    }


def test_serve_has_one_job_per_subscriber_and_a_poll_that_coalesces(tmp_path: Path) -> None:
    ana = subscriber("ana", "privacy", schedule="0 8 * * mon-fri", timezone="Europe/Berlin")
    ben = subscriber("ben", "vision", schedule="0 8 * * mon-fri", timezone="America/New_York")
    settings = replace(settings_for(tmp_path, ana, ben), poll_every=900.0)
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    jobs = {job.id: job for job in server.scheduler.get_jobs()}
    assert set(jobs) == {"digest:ana", "digest:ben", "poll", "heartbeat"}
    for job in jobs.values():
        assert (job.coalesce, job.max_instances) == (True, 1)
        assert job.misfire_grace_time == 3600
    assert str(jobs["digest:ana"].trigger.timezone) == "Europe/Berlin"
    assert jobs["poll"].trigger.interval == timedelta(minutes=15)
    monday = at("2026-11-30T00:00Z")
    assert jobs["digest:ben"].trigger.get_next_fire_time(None, monday) == at(
        "2026-11-30T08:00-05:00"
    )


MONDAY_9 = "2026-11-30T09:00Z"


def test_a_restart_in_the_middle_of_the_day_makes_no_second_digest(tmp_path: Path) -> None:
    ana = subscriber("ana", "differential privacy", alert_threshold=0.5)
    settings = settings_for(tmp_path, ana)
    state = str(tmp_path / "s.db")
    arrive(tmp_path / "papers", "0", paper("p0", ROBOTS))
    # The container was down at 8:00; it starts at 9:00 and its first poll catches up.
    scheduler.Server(settings, state, clock=lambda: at(MONDAY_9)).tick("poll")
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    scheduler.Server(settings, state, clock=lambda: at("2026-11-30T10:00Z")).tick("poll")
    # Restarted at noon: the first poll finds the day's digest made and the alert given.
    restarted = scheduler.Server(settings, state, clock=lambda: at("2026-11-30T12:00Z"))
    restarted.tick("poll")
    restarted.tick("digest ana")
    with Store(state) as store:
        assert digests(store) == [("ana", "2026-11-30T08:00:00+00:00", 0)]
        assert [(a["paper_id"], a["day"]) for a in store.journal.alerts()] == [("p1", "2026-11-30")]
        assert [r.status for r in store.outbox()] == ["sent"]
        clocks = [r["clock"] for r in store.runs()]
    assert clocks == [f"2026-11-30T{h}:00:00Z" for h in ("12", "12", "10", "09")]
    next_fire = restarted.scheduler.get_job("digest:ana").trigger.get_next_fire_time(
        None, at("2026-11-30T12:00Z")
    )
    assert next_fire == at("2026-12-01T08:00Z")


def test_a_stopping_server_starts_no_new_work(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "privacy"))
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    server.stop.set()
    server.tick("poll")
    assert not (tmp_path / "s.db").exists()


def test_a_run_told_to_stop_leaves_its_deliveries_pending_for_the_next(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "differential privacy"))
    arrive(tmp_path / "papers", "1", paper("p1", PRIVACY))
    with Store(tmp_path / "s.db") as store:
        report = pipeline.run_once(settings, store, at(MONDAY_9), stop=lambda: True)
        assert report.outcome.sent == [] and report.pending == 1
        later = pipeline.run_once(settings, store, at("2026-11-30T09:05Z"))
        assert len(later.outcome.sent) == 1 and later.pending == 0


def test_a_second_run_skips_at_once_when_told_not_to_wait(tmp_path: Path) -> None:
    state = tmp_path / "state" / "digest.db"
    with lock.run_lock(state):
        with pytest.raises(lock.LockBusy) as info:
            with lock.run_lock(state, wait=0):
                pytest.fail("two runs held the lock at once")
    assert f"another digest run holds {tmp_path / 'state' / 'digest.lock'} (pid " in str(info.value)
    assert str(info.value).endswith("skipped after waiting 0 s")


def test_a_second_run_waits_for_the_first_then_goes_on(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    waiting, done = threading.Event(), threading.Event()
    order: list[str] = []

    def second() -> None:
        with lock.run_lock(state, wait=60, on_wait=lambda holder: waiting.set()):
            order.append("second")
        done.set()

    with lock.run_lock(state):
        thread = threading.Thread(target=second)
        thread.start()
        assert waiting.wait(30), "the second run never started waiting"
        order.append("first")
    thread.join(30)
    assert done.is_set() and order == ["first", "second"]


def test_a_waiting_run_gives_up_when_the_server_stops(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    with lock.run_lock(state), pytest.raises(lock.LockBusy):
        with lock.run_lock(state, wait=3600, stop=lambda: True):
            pass


def test_the_heartbeat_tells_ticking_from_stale_and_stopped(tmp_path: Path) -> None:
    state = tmp_path / "digest.db"
    now = at("2026-11-30T09:00Z")
    alive, why = lock.health(state, now)
    assert not alive and "no heartbeat" in why
    lock.write_heartbeat(state, now)
    assert lock.health(state, now + timedelta(seconds=lock.STALE_AFTER))[0]
    stale = now + timedelta(seconds=lock.STALE_AFTER + 1)
    alive, why = lock.health(state, stale)
    assert not alive and why.startswith("stale: the last heartbeat is 121 s old")
    lock.write_heartbeat(state, now, stopped=True)
    alive, why = lock.health(state, now)
    assert not alive and "stopped" in why


def test_the_heartbeat_job_writes_next_fire_times(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "privacy", timezone="Europe/Berlin"))
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    server.beat()
    alive, why = lock.health(tmp_path / "s.db", at(MONDAY_9) + timedelta(seconds=5))
    assert alive and why.endswith("last heartbeat 5 s ago")
    beat = (tmp_path / "s.heartbeat").read_text(encoding="utf-8")
    assert '"ana": "2026-12-01T08:00:00+01:00"' in beat


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
    assert "  2026-11-30T09:00:00Z  ok         1 new papers; digests made: ana; 0 alerts" in text
    assert "  ana: Tue 2026-12-01 08:00 CET (Europe/Berlin), in 21 h 00 min" in lines
    assert "  papers: 2026-11-30T09:00:00Z" in lines
    assert "deliveries: 0 pending, 1 dead" in lines
    assert lines[-1].startswith("  dead     ana/file digest 2026-11-30T08:00:00+01:00")
    assert lines[-1].endswith("(8 attempts): smtp: refused")


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


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("'30m'", 1800.0), ("'1h30m'", 5400.0), ("'90s'", 90.0), ("'2d'", 172800.0), ("45", 45.0)],
)
def test_serve_durations_read_as_seconds(tmp_path: Path, value: str, seconds: float) -> None:
    path = tmp_path / "digest.toml"
    path.write_text(f"[serve]\npoll_every = {value}\n", encoding="utf-8")
    assert config.load(path, environ={}).poll_every == seconds


@pytest.mark.parametrize("value", ["'soon'", "'30 m'", "0", "'0s'", "true", "'m'"])
def test_a_bad_duration_is_one_line_naming_the_key(tmp_path: Path, value: str) -> None:
    path = tmp_path / "digest.toml"
    path.write_text(f"[serve]\nmisfire_grace_time = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert str(info.value) == (
        f"{path}: serve.misfire_grace_time: must be a duration such as '30m', '1h' or '90s' "
        "(at least 1s)"
    )


def test_serve_defaults_to_a_poll_every_half_hour() -> None:
    settings = config.load(REPO / "config" / "digest.toml", environ={})
    assert (settings.poll_every, settings.misfire_grace_time) == (1800.0, 3600.0)
