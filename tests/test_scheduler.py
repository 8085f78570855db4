"""digest.scheduler (`digest serve`): a job per subscriber and a coalescing poll, each running the
pipeline on the clock of the moment; a restart makes no second digest; a stop starts no new work;
the heartbeat job and the [serve] durations."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from timeline import PRIVACY, ROBOTS, arrive, at, digests, paper, settings_for, subscriber

from digest import config, pipeline, scheduler
from digest.models import ConfigError
from digest.state import Store, lock

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_serve_has_one_job_per_subscriber_and_a_poll_that_coalesces(tmp_path: Path) -> None:
    ana = subscriber("ana", "privacy", schedule="0 8 * * mon-fri", timezone="Europe/Berlin")
    ben = subscriber("ben", "vision", schedule="0 8 * * mon-fri", timezone="America/New_York")
    settings = replace(settings_for(tmp_path, ana, ben), poll_every=900.0)
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    jobs = {job.id: job for job in server.scheduler.get_jobs()}
    assert set(jobs) == {"digest:ana", "digest:ben", "poll", "heartbeat"}
    for job in jobs.values():
        assert (job.coalesce, job.max_instances) == (True, 1)
    assert jobs["digest:ana"].misfire_grace_time == jobs["digest:ben"].misfire_grace_time == 3600
    # After a pause past the grace time the poll still runs, once: it makes the missed digests.
    assert jobs["poll"].misfire_grace_time is None and jobs["heartbeat"].misfire_grace_time is None
    assert str(jobs["digest:ana"].trigger.timezone) == "Europe/Berlin"
    assert jobs["poll"].trigger.interval == timedelta(minutes=15)
    monday = at("2026-11-30T00:00Z")
    assert jobs["digest:ben"].trigger.get_next_fire_time(None, monday) == at(
        "2026-11-30T08:00-05:00"
    )


MONDAY_9 = "2026-11-30T09:00Z"


def test_a_restart_in_the_middle_of_the_day_makes_no_second_digest(tmp_path: Path) -> None:
    ana = subscriber("ana", "differential privacy", alert_threshold=0.35)
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


def test_each_job_hands_its_free_memory_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without it a serve of every-minute digests grew by 4 MB a minute (glibc kept the pages).
    from digest.ranking import features

    released: list[bool] = []
    monkeypatch.setattr(features, "release_memory", lambda: released.append(True))
    settings = settings_for(tmp_path, subscriber("ana", "privacy"))
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    server.tick("poll")
    server.tick("digest ana")
    assert released == [True, True]


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


def test_the_heartbeat_job_writes_next_fire_times(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "privacy", timezone="Europe/Berlin"))
    server = scheduler.Server(settings, str(tmp_path / "s.db"), clock=lambda: at(MONDAY_9))
    server.beat()
    alive, why = lock.health(tmp_path / "s.db", at(MONDAY_9) + timedelta(seconds=5))
    assert alive and why.endswith("last heartbeat 5 s ago")
    beat = (tmp_path / "s.heartbeat").read_text(encoding="utf-8")
    assert '"ana": "2026-12-01T08:00:00+01:00"' in beat


def test_a_job_that_cannot_use_the_state_makes_health_say_failing(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, subscriber("ana", "privacy"))
    state = tmp_path / "s.db"
    state.write_bytes(b"not a database, but garbage " * 100)
    server = scheduler.Server(settings, str(state), clock=lambda: at(MONDAY_9))
    server.tick("poll")
    server.beat()
    alive, why = lock.health(state, at(MONDAY_9))
    assert not alive and why.startswith("failing: pid ") and "damaged" in why
    state.unlink()  # the operator restores it: the next job runs, and health is alive again
    server.tick("poll")
    server.beat()
    assert lock.health(state, at(MONDAY_9))[0]


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


def test_the_plan_and_heartbeat_skip_the_repeated_hour_on_the_fall_back_day(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # 02:30 comes twice in Berlin on 25 October 2026; the second opens no period.
    ana = subscriber("ana", "privacy", schedule="30 2 * * *", timezone="Europe/Berlin")
    clock = at("2026-10-25T02:40+02:00")
    server = scheduler.Server(
        settings_for(tmp_path, ana), str(tmp_path / "s.db"), clock=lambda: clock
    )
    server.beat()
    beat = (tmp_path / "s.heartbeat").read_text(encoding="utf-8")
    assert '"ana": "2026-10-26T02:30:00+01:00"' in beat
    with caplog.at_level("INFO", logger="digest.serve"):
        server.log_plan()
    assert "ana: next digest Mon 2026-10-26 02:30 CET" in caplog.text


def test_a_jobs_log_line_counts_many_subscribers_by_state() -> None:
    from digest.pipeline import RunReport, SubscriberReport
    from digest.scheduler import one_line

    subs = [SubscriberReport(f"r{n:04d}", "P", "made", picked=5) for n in range(1000)]
    subs += [SubscriberReport("q", "P", "no match"), SubscriberReport("z", "P", "already made")]
    line = one_line(RunReport(datetime(2026, 12, 1, tzinfo=UTC), subscribers=subs))
    assert "digests: 1000 made, 1 no match;" in line and len(line) < 200
    few = one_line(RunReport(datetime(2026, 12, 1, tzinfo=UTC), subscribers=subs[998:]))
    assert "digests: r0998 (5), r0999 (5), q (no match);" in few
