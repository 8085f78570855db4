"""A schedule read as crontab(5) reads it: weekday fields, and schedules that never fire. Fire
times across zones and DST are tests/test_periods.py's."""

from __future__ import annotations

import pytest
from timeline import at

from digest.config import crontab


def test_weekday_lists_steps_and_sunday_as_seven_in_a_range() -> None:
    assert crontab.weekdays("*/2") == "sun,tue,thu,sat"
    assert crontab.weekdays("5-7") == "sun,fri,sat"
    assert crontab.weekdays("fri-sun") == "sun,fri,sat"
    assert crontab.weekdays("1,3,SAT") == "mon,wed,sat"
    assert crontab.weekdays("0-7") == "*"
    assert crontab.weekdays("sun-sun") == "sun"  # not every day, as Sunday as 7 had made it
    assert crontab.weekdays("sun-sat") == "*"


@pytest.mark.parametrize(
    ("nickname", "fields"),
    [("@daily", "0 0 * * *"), ("@weekly", "0 0 * * 0"), ("@HOURLY", "0 * * * *")],
)
def test_crontabs_nicknames_are_their_schedules(nickname: str, fields: str) -> None:
    now = at("2026-12-01T10:00Z")
    mine, theirs = crontab.trigger(nickname, "UTC"), crontab.trigger(fields, "UTC")
    assert mine.get_next_fire_time(None, now) == theirs.get_next_fire_time(None, now)


def test_reboot_is_no_schedule() -> None:
    with pytest.raises(ValueError):
        crontab.trigger("@reboot", "UTC")


@pytest.mark.parametrize("field", ["8", "mon-", "fri-mon", "*/0", "*/x", "funday"])
def test_a_bad_weekday_field_is_a_value_error(field: str) -> None:
    with pytest.raises(ValueError):
        crontab.trigger(f"0 8 * * {field}", "UTC")


def test_a_schedule_on_31_february_never_fires() -> None:
    assert crontab.never_fires("0 8 31 2 *", "UTC", at("2026-12-01T10:00Z"))
    assert not crontab.never_fires("0 8 29 2 *", "UTC", at("2026-12-01T10:00Z"))


@pytest.mark.parametrize(
    ("schedule", "fired"),
    [
        ("* 8 * * *", 60),  # meant 08:00: every minute from 08:00 to 08:59
        ("* * * * *", 60),
        ("*/4 9-17 * * mon-fri", 15),
        ("0-59/2 8 * * *", 30),
        ("*/5 * * * *", 0),  # 12 an hour: a schedule, not a slip
        ("0,30 * * * *", 0),
        ("0 8 * * *", 0),
        ("@hourly", 0),
    ],
)
def test_a_schedule_that_fires_in_bursts_says_how_often(schedule: str, fired: int) -> None:
    assert crontab.burst(schedule, "Europe/Berlin") == fired


def test_a_burst_is_seen_whatever_the_hour_it_is_asked_in() -> None:
    """Counted from the next fire only, `* 13 * * *` asked at 13:56 fired 3 times that hour."""
    assert [crontab.burst(f"* {hour} * * *", "UTC") for hour in range(24)] == [60] * 24
    assert crontab.burst("*/5 * * * *", "UTC") == 0 and crontab.burst("0 8 * * *", "UTC") == 0
