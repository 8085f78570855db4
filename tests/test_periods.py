"""A subscriber's periods: fire times in its own zone across DST, one period for a repeated
hour, and the example config's local times."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from timeline import at

from digest import config, periods
from digest.config import crontab

REPO = Path(__file__).resolve().parent.parent


def fires(schedule: str, zone: str, start: str, count: int) -> list[str]:
    """The next `count` fire times after start, as local ISO times."""
    trigger = crontab.trigger(schedule, zone)
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


def test_weekday_numbers_count_from_sunday_as_crontab_does() -> None:
    # 2026-11-29 is a Sunday. APScheduler's own from_crontab would read 0 as Monday.
    assert fires("0 8 * * 0", "UTC", "2026-11-28T12:00Z", 2) == [
        "2026-11-29T08:00:00+00:00",
        "2026-12-06T08:00:00+00:00",
    ]
    assert fires("0 8 * * 7", "UTC", "2026-11-28T12:00Z", 1) == ["2026-11-29T08:00:00+00:00"]
    weekdays = fires("0 8 * * 1-5", "UTC", "2026-11-28T12:00Z", 6)
    assert [w[:10] for w in weekdays] == [
        "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-07"
    ]  # fmt: skip
    assert fires("0 8 * * 1-5", "UTC", "2026-11-28T12:00Z", 6) == fires(
        "0 8 * * mon-fri", "UTC", "2026-11-28T12:00Z", 6
    )


def test_a_day_of_month_and_a_weekday_fire_on_either_as_in_cron() -> None:
    # The 1st of the month or any Monday; 2026-11-30 is a Monday, 2026-12-01 a Tuesday.
    assert fires("0 8 1 * 1", "UTC", "2026-11-28T12:00Z", 3) == [
        "2026-11-30T08:00:00+00:00",
        "2026-12-01T08:00:00+00:00",
        "2026-12-07T08:00:00+00:00",
    ]
    # A field that starts with * restricts nothing on its own: both must match.
    assert fires("0 8 */2 * 1", "UTC", "2026-11-28T12:00Z", 1) == ["2026-12-07T08:00:00+00:00"]


def test_a_leap_day_schedule_has_a_period_years_after_it_last_fired() -> None:
    start = periods.period_start("0 8 29 2 *", "UTC", at("2026-12-01T10:00Z"))
    assert start is not None and start.isoformat() == "2024-02-29T08:00:00+00:00"


def test_a_schedule_at_a_midnight_that_clocks_skip_still_fires_that_day() -> None:
    # Santiago springs forward at midnight (6 September 2026: 00:00 -04 is 01:00 -03), Cairo too
    # (24 April 2026). The day's digest goes out at the moment midnight would have been, once.
    santiago = fires("0 0 * * *", "America/Santiago", "2026-09-04T12:00Z", 3)
    days = ["2026-09-05", "2026-09-06", "2026-09-07"]
    assert [at(f).date().isoformat() for f in santiago] == days
    assert at(santiago[1]) == at("2026-09-06T04:00Z")
    cairo = fires("30 0 * * *", "Africa/Cairo", "2026-04-22T12:00Z", 3)
    assert [at(f).date().isoformat() for f in cairo] == ["2026-04-23", "2026-04-24", "2026-04-25"]
    for now, opened in (
        ("2026-09-06T04:00Z", "2026-09-06T00:00:00-04:00"),
        ("2026-09-06T20:00Z", "2026-09-06T00:00:00-04:00"),
        ("2026-09-07T03:00Z", "2026-09-07T00:00:00-03:00"),
    ):
        start = periods.period_start("0 0 * * *", "America/Santiago", at(now))
        assert start is not None and start.isoformat() == opened


def test_the_next_digest_at_a_fire_instant_is_the_following_one() -> None:
    # At 08:00 sharp the period of 08:00 is the current one; the next digest is tomorrow's.
    settings = config.load(REPO / "config" / "digest.toml", environ={})
    nexts = periods.next_fires(settings, at("2026-11-30T08:00:00+01:00"))
    assert nexts["alice"] is not None and nexts["alice"].isoformat() == "2026-12-01T08:00:00+01:00"
    start = periods.period_start("0 8 * * mon-fri", "Europe/Berlin", at("2026-11-30T08:00+01:00"))
    assert start is not None and start.isoformat() == "2026-11-30T08:00:00+01:00"


def test_a_midnight_schedule_fires_on_the_day_after_clocks_spring_forward() -> None:
    # APScheduler alone steps from 01:00 on the changing day to the next midnight in UTC, lands an
    # hour late (01:00) and skips that day: 30 March 2026 in Berlin, 9 March in New York, and a
    # monthly digest's 1 April.
    berlin = fires("0 0 * * *", "Europe/Berlin", "2026-03-28T12:00Z", 3)
    assert berlin == [
        "2026-03-29T00:00:00+01:00",
        "2026-03-30T00:00:00+02:00",
        "2026-03-31T00:00:00+02:00",
    ]
    new_york = fires("30 0 * * *", "America/New_York", "2026-03-07T12:00Z", 3)
    assert [f[:10] for f in new_york] == ["2026-03-08", "2026-03-09", "2026-03-10"]
    monthly = fires("0 0 1 * *", "Europe/Berlin", "2026-02-15T12:00Z", 3)
    assert [f[:10] for f in monthly] == ["2026-03-01", "2026-04-01", "2026-05-01"]


def test_a_fire_time_the_clocks_skip_names_one_period_whenever_a_run_asks() -> None:
    # 02:30 on 29 March 2026 does not exist in Berlin; "30 2,3" fires once at 01:30 UTC, which is
    # also 03:30 CEST. Every run in that period must find the one name, or it makes a second.
    for schedule in ("30 2,3 * * *", "30 * * * *"):
        names = {
            periods.period_start(schedule, "Europe/Berlin", at(now))
            for now in ("2026-03-29T01:30Z", "2026-03-29T01:45Z", "2026-03-29T02:15Z")
        }
        assert {n.isoformat() if n else None for n in names} == {"2026-03-29T02:30:00+01:00"}


def test_the_next_digest_after_a_skip_is_the_skipped_times_own_instant() -> None:
    """02:30 is skipped on 29 March 2026 in Berlin; its period opens at 02:30+01:00, 03:30
    CEST. Asked between 03:00 and 03:30 CEST, status and serve's plan said "tomorrow"."""
    for now in ("2026-03-29T03:10+02:00", "2026-03-29T01:59+01:00"):
        fire = periods.next_fire("30 2 * * *", "Europe/Berlin", at(now))
        assert fire is not None and fire.isoformat() == "2026-03-29T02:30:00+01:00"
    made = periods.period_start("30 2 * * *", "Europe/Berlin", at("2026-03-29T03:30+02:00"))
    assert made is not None and made.isoformat() == "2026-03-29T02:30:00+01:00"


def test_the_next_digest_is_never_a_repeated_time_that_opens_no_period() -> None:
    # Falling back, 02:30 comes twice: the second fires but its period is the first's, so the
    # next digest after 02:30 CEST is the next day's (status, serve's plan and heartbeat).
    after = periods.next_fire("30 2 * * *", "Europe/Berlin", at("2026-10-25T02:40+02:00"))
    assert after is not None and after.isoformat() == "2026-10-26T02:30:00+01:00"
    before = periods.next_fire("30 2 * * *", "Europe/Berlin", at("2026-10-25T02:10+02:00"))
    assert before is not None and before.isoformat() == "2026-10-25T02:30:00+02:00"
    # Every quarter of the repeated hour is one the first pass opened: next is 03:00 CET.
    quarter = periods.next_fire("*/15 * * * *", "Europe/Berlin", at("2026-10-25T02:50+02:00"))
    assert quarter is not None and quarter.isoformat() == "2026-10-25T03:00:00+01:00"
    # Lord Howe falls back half an hour (5 April 2026, 02:00 +11 is 01:30 +10:30).
    howe = periods.next_fire("45 1 * * *", "Australia/Lord_Howe", at("2026-04-05T01:50+11:00"))
    assert howe is not None and howe.isoformat() == "2026-04-06T01:45:00+10:30"
    # Each fire time named is one period_start opens.
    for schedule, fire in (
        ("30 2 * * *", after),
        ("30 2 * * *", before),
        ("*/15 * * * *", quarter),
    ):
        assert periods.period_start(schedule, "Europe/Berlin", fire) == fire
    assert periods.period_start("45 1 * * *", "Australia/Lord_Howe", howe) == howe
