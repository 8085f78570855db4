"""Cron mode end to end: `digest run --now T` called through a week, across both Berlin DST
changes, with a missed day and with overlapping runs; exactly the digests, alerts and notices that
the subscribers' schedules and time zones call for, each once."""

from __future__ import annotations

import logging
import threading
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from timeline import PRIVACY, VISION, arrive, at, given, paper, settings_for, subscriber

from digest import pipeline
from digest.cli import main
from digest.state import Store, lock

CONFIG = """
[state]
path = "state/digest.db"

[[sources]]
kind = "files"
path = "papers"

[defaults]
schedule = "0 8 * * mon-fri"
top_k = 3

[[subscribers]]
name = "ana"
timezone = "Europe/Berlin"
interests = "differential privacy in federated learning"
alert_keywords = ["membership inference"]

[[subscribers]]
name = "ben"
timezone = "America/New_York"
interests = "diffusion models for image generation"

[[subscribers]]
name = "cy"
timezone = "Asia/Tokyo"
interests = "legged robots and locomotion"
on_empty = "notify"
"""
WEEKDAYS = ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"]
MEMBERSHIP = "Membership inference against differential privacy in federated learning clients."


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "digest.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)
    return tmp_path


def made(store: Store) -> list[tuple[str, str, str]]:
    """(subscriber, period, made at) of every digest, in the order they were made."""
    rows = store.db.execute("SELECT subscriber, period, made_at FROM digests ORDER BY id")
    return [(r[0], r[1], r[2]) for r in rows]


def every(start: str, end: str, step: timedelta) -> list[datetime]:
    moments, now = [], at(start)
    while now <= at(end):
        moments.append(now)
        now += step
    return moments


def test_a_week_of_weekdays_in_three_zones(project: Path, capsys: pytest.CaptureFixture) -> None:
    papers = project / "papers"
    arrive(papers, "0", paper("ana-0", PRIVACY), paper("ben-0", VISION))
    # Each weekday at 05:00 UTC a privacy paper and a vision paper arrive; on Wednesday also
    # one with ana's alert keyword.
    batches = {
        at(f"{day}T05:00Z"): [paper(f"ana-{day}", PRIVACY), paper(f"ben-{day}", VISION)]
        for day in WEEKDAYS
    }
    batches[at("2026-12-02T05:00Z")].append(paper("mi-wed", MEMBERSHIP))
    codes = set()
    for now in every("2026-11-30T00:00Z", "2026-12-06T21:00Z", timedelta(hours=3)):
        for when, batch in batches.items():
            if when <= now:
                arrive(papers, when.strftime("%Y%m%d"), *batch)
        codes.add(main(["run", "--config", "digest.toml", "--now", now.isoformat()]))
        capsys.readouterr()
    assert codes == {0}

    with Store(project / "state" / "digest.db") as store:
        digests = made(store)
        # The first run ever sends at once (Friday's period in Berlin and New York, Monday's
        # in Tokyo); then one digest per weekday, in the first run after 8:00 local.
        assert [d for d in digests if d[0] == "ana"] == [
            ("ana", "2026-11-27T08:00:00+01:00", "2026-11-30T00:00:00Z"),
        ] + [("ana", f"{day}T08:00:00+01:00", f"{day}T09:00:00Z") for day in WEEKDAYS]
        assert [d for d in digests if d[0] == "ben"] == [
            ("ben", "2026-11-27T08:00:00-05:00", "2026-11-30T00:00:00Z"),
        ] + [("ben", f"{day}T08:00:00-05:00", f"{day}T15:00:00Z") for day in WEEKDAYS]
        assert [d for d in digests if d[0] == "cy"] == [
            ("cy", f"{day}T08:00:00+09:00", f"{day}T00:00:00Z") for day in WEEKDAYS
        ]
        assert len(digests) == 17
        # Each digest carries that day's paper; Wednesday's leaves out the alerted one.
        assert given(store, "ana", "2026-11-27T08:00:00+01:00") == ["ana-0"]
        for day in WEEKDAYS:
            assert given(store, "ana", f"{day}T08:00:00+01:00") == [f"ana-{day}"]
            assert given(store, "ben", f"{day}T08:00:00-05:00") == [f"ben-{day}"]
        # Wednesday 06:00 UTC: the membership-inference paper goes out at once, once.
        assert [(a["paper_id"], a["day"], a["made_at"]) for a in store.journal.alerts()] == [
            ("mi-wed", "2026-12-02", "2026-12-02T06:00:00Z")
        ]
        # cy's robots never come: a one-line notice each period instead of a digest.
        notices = [r for r in store.outbox() if r.purpose == "notice"]
        assert [(r.subscriber, r.day.isoformat()) for r in notices] == [
            ("cy", day) for day in WEEKDAYS
        ]
        assert {r.message.subject.split(": ", 1)[1] for r in notices} == {"nothing matched"}
        assert store.outbox_counts() == {"sent": 12 + 5 + 1}
    out = project / "out"
    assert sorted(p.parent.name for p in out.glob("*/ana.eml")) == ["2026-11-27", *WEEKDAYS]
    assert [p.parent.name for p in out.glob("*/ana.alert-*.eml")] == ["2026-12-02"]
    assert sorted(p.parent.name for p in out.glob("*/cy.notice-*.eml")) == WEEKDAYS


def daily(tmp_path: Path, schedule: str) -> tuple[pipeline.Settings, Store]:
    (tmp_path / "papers").mkdir()
    ana = subscriber("ana", "privacy", schedule=schedule, timezone="Europe/Berlin")
    return settings_for(tmp_path, ana), Store(tmp_path / "s.db")


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        # Last Sunday of March: 8:00 in Berlin is 07:00 UTC on Saturday, 06:00 UTC on Sunday.
        (
            "2026-03-28T00:00Z",
            "2026-03-30T12:00Z",
            [
                ("2026-03-27T08:00:00+01:00", "2026-03-28T00:00:00Z"),
                ("2026-03-28T08:00:00+01:00", "2026-03-28T07:00:00Z"),
                ("2026-03-29T08:00:00+02:00", "2026-03-29T06:00:00Z"),
                ("2026-03-30T08:00:00+02:00", "2026-03-30T06:00:00Z"),
            ],
        ),
        # Last Sunday of October: back from 06:00 to 07:00 UTC.
        (
            "2026-10-24T00:00Z",
            "2026-10-26T12:00Z",
            [
                ("2026-10-23T08:00:00+02:00", "2026-10-24T00:00:00Z"),
                ("2026-10-24T08:00:00+02:00", "2026-10-24T06:00:00Z"),
                ("2026-10-25T08:00:00+01:00", "2026-10-25T07:00:00Z"),
                ("2026-10-26T08:00:00+01:00", "2026-10-26T07:00:00Z"),
            ],
        ),
    ],
)
def test_eight_oclock_in_berlin_across_the_dst_changes(
    tmp_path: Path, start: str, end: str, expected: list[tuple[str, str]]
) -> None:
    settings, store = daily(tmp_path, "0 8 * * *")
    with store:
        for now in every(start, end, timedelta(hours=1)):
            pipeline.run_once(settings, store, now)
        assert [(p, m) for _, p, m in made(store)] == expected


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        # 02:30 does not exist on 29 March: the schedule fires at 03:30 CEST (01:30 UTC), once.
        (
            "2026-03-28T22:00Z",
            "2026-03-29T04:00Z",
            [
                ("2026-03-28T02:30:00+01:00", "2026-03-28T22:00:00Z"),
                ("2026-03-29T02:30:00+01:00", "2026-03-29T01:30:00Z"),
            ],
        ),
        # 02:30 happens twice on 25 October: one digest, at the first.
        (
            "2026-10-24T22:00Z",
            "2026-10-25T04:00Z",
            [
                ("2026-10-24T02:30:00+02:00", "2026-10-24T22:00:00Z"),
                ("2026-10-25T02:30:00+02:00", "2026-10-25T00:30:00Z"),
            ],
        ),
    ],
)
def test_a_schedule_inside_the_changing_hour_makes_one_digest(
    tmp_path: Path, start: str, end: str, expected: list[tuple[str, str]]
) -> None:
    settings, store = daily(tmp_path, "30 2 * * *")
    with store:
        for now in every(start, end, timedelta(minutes=10)):
            pipeline.run_once(settings, store, now)
        assert [(p, m) for _, p, m in made(store)] == expected


def test_a_midnight_schedule_on_the_day_clocks_skip_midnight_makes_that_days_digest(
    tmp_path: Path,
) -> None:
    # Santiago springs forward at midnight: 6 September 2026 begins at 01:00 -03 (04:00 UTC).
    (tmp_path / "papers").mkdir()
    ana = subscriber("ana", "privacy", schedule="0 0 * * *", timezone="America/Santiago")
    settings = settings_for(tmp_path, ana)
    with Store(tmp_path / "s.db") as store:
        for now in every("2026-09-05T12:00Z", "2026-09-07T12:00Z", timedelta(minutes=10)):
            pipeline.run_once(settings, store, now)
        assert [(p, m) for _, p, m in made(store)] == [
            ("2026-09-05T00:00:00-04:00", "2026-09-05T12:00:00Z"),
            ("2026-09-06T00:00:00-04:00", "2026-09-06T04:00:00Z"),
            ("2026-09-07T00:00:00-03:00", "2026-09-07T03:00:00Z"),
        ]


def test_a_missed_day_makes_one_late_digest_with_both_days_papers(tmp_path: Path) -> None:
    ana = subscriber("ana", "differential privacy", schedule="0 8 * * mon-fri")
    settings = settings_for(tmp_path, replace(ana, top_k=10))
    with Store(tmp_path / "s.db") as store:
        for day in WEEKDAYS[:4]:  # Monday to Thursday, each with its paper
            arrive(tmp_path / "papers", day, paper(f"p-{day}", PRIVACY))
            if day != "2026-12-02":  # nothing runs on Wednesday
                pipeline.run_once(settings, store, at(f"{day}T09:00Z"))
        periods = [p for _, p, _ in made(store)]
        assert periods == [
            f"{d}T08:00:00+00:00" for d in ("2026-11-30", "2026-12-01", "2026-12-03")
        ]
        assert given(store, "ana", "2026-12-03T08:00:00+00:00") == ["p-2026-12-02", "p-2026-12-03"]


def run_cli(*args: str) -> int:
    return main(["run", "--config", "digest.toml", *args])


def test_an_overlapping_run_skips_with_exit_1_and_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture
) -> None:
    arrive(project / "papers", "1", paper("ana-1", PRIVACY))
    state = project / "state" / "digest.db"
    with lock.run_lock(state):  # the first run, still going
        code = run_cli("--wait", "0", "--now", "2026-11-30T09:00Z")
        err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"digest: another digest run holds {lock.lock_path(state)} (pid ")
    assert err.rstrip().endswith("skipped after waiting 0 s")
    assert not state.exists()  # the skipped run touched nothing
    assert run_cli("--now", "2026-11-30T09:00Z") == 0
    assert "ana  1 picked" in capsys.readouterr().out


class Waiting(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "holds the state lock" in record.getMessage():
            self.started.set()


def test_an_overlapping_run_waits_for_the_first_then_finds_the_period_done(
    project: Path, capsys: pytest.CaptureFixture
) -> None:
    arrive(project / "papers", "1", paper("ana-1", PRIVACY))
    now = "2026-11-30T09:00Z"
    codes: list[int] = []
    waiting = Waiting()
    logging.getLogger("digest").addHandler(waiting)
    try:
        with lock.run_lock(project / "state" / "digest.db"):
            second = threading.Thread(target=lambda: codes.append(run_cli("--now", now)))
            second.start()
            assert waiting.started.wait(30), "the second run never waited"
            # The first run, holding the lock, makes the digests.
            with Store(project / "state" / "digest.db") as store:
                settings = pipeline_settings(project)
                pipeline.run_once(settings, store, at(now))
        second.join(30)
    finally:
        logging.getLogger("digest").removeHandler(waiting)
    assert codes == [0]
    out = capsys.readouterr().out
    assert "ana  already made" in out and "ben  already made" in out
    with Store(project / "state" / "digest.db") as store:
        assert len(made(store)) == 3 and len(store.runs()) == 2


def pipeline_settings(project: Path) -> pipeline.Settings:
    from digest import config

    return config.load(project / "digest.toml", environ={})
