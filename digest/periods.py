"""A subscriber's periods: its crontab schedule in its own time zone (read as crontab(5) reads it),
the period a moment falls in (from the latest fire time at or before it) and the next fire time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.combining import OrTrigger
from apscheduler.triggers.cron import CronTrigger

from digest.models import Settings

DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")  # crontab's numbers; 7 is Sunday too
# A leap-day schedule fires at least once in 8 years (2096 to 2104 has no 29 February).
LOOKBACK = timedelta(days=8 * 366 + 1)


def trigger(schedule: str, timezone: str) -> BaseTrigger:
    """The schedule as cron reads it. APScheduler 3's from_crontab counts weekdays from Monday = 0
    and requires both the day of the month and the weekday; cron counts from Sunday = 0 (or 7) and,
    when both are restricted, fires on either. ValueError for a bad expression."""
    fields = schedule.split()
    if len(fields) != 5:
        raise ValueError(f"wrong number of fields; got {len(fields)}, expected 5")
    minute, hour, day, month, weekday = fields
    zone = ZoneInfo(timezone)
    days = weekdays(weekday)

    def cron(day: str, day_of_week: str) -> CronTrigger:
        return CronTrigger(
            minute=minute, hour=hour, day=day, month=month, day_of_week=day_of_week, timezone=zone
        )

    if day.startswith("*") or weekday.startswith("*"):
        return cron(day, days)
    return OrTrigger([cron(day, "*"), cron("*", days)])


def weekdays(field: str) -> str:
    """A crontab weekday field (numbers 0-7, names, ranges, lists, steps) as APScheduler's names."""
    chosen: set[int] = set()
    for item in field.lower().split(","):
        base, _, step = item.partition("/")
        if step and not step.isdigit() or step == "0":
            raise ValueError(f"bad step in the weekday field {field!r}")
        if base == "*":
            first, last = 0, 6
        else:
            low, dash, high = base.partition("-")
            first = _weekday(low, field)
            last = _weekday(high, field, end=True) if dash else (6 if step else first)
        if first > last:
            raise ValueError(f"the weekday range {base!r} runs backwards")
        chosen |= {d % 7 for d in range(first, last + 1, int(step or 1))}
    return "*" if len(chosen) == 7 else ",".join(DAYS[d] for d in sorted(chosen))


def _weekday(value: str, field: str, end: bool = False) -> int:
    if value.isdigit() and int(value) <= 7:
        return int(value)
    if value in DAYS:
        return 7 if end and value == "sun" else DAYS.index(value)
    raise ValueError(f"{value!r} is not a weekday (0-7 or sun-sat) in {field!r}")


def never_fires(schedule: str, timezone: str, now: datetime) -> bool:
    """A schedule such as 31 February, which would give every run a period of its own."""
    return trigger(schedule, timezone).get_next_fire_time(None, now) is None


def next_fires(settings: Settings, now: datetime) -> dict[str, datetime | None]:
    """Each subscriber's next scheduled digest after now, in its own zone."""
    return {
        s.name: trigger(s.schedule, s.timezone).get_next_fire_time(
            None, now.astimezone(ZoneInfo(s.timezone))
        )
        for s in settings.subscribers
    }


def period_start(schedule: str, timezone: str, now: datetime) -> datetime | None:
    """The latest fire time of the schedule at or before now, in its zone (None: never fired)."""
    zone = ZoneInfo(timezone)
    fires = trigger(schedule, timezone)
    limit = now.astimezone(UTC)
    span = timedelta(hours=1)
    # Widen the window until it holds a fire time, then walk to the last one before now. Steps
    # and comparisons go through UTC: local arithmetic loses the fold of a repeated hour.
    while span <= LOOKBACK:
        fire = fires.get_next_fire_time(None, (limit - span).astimezone(zone))
        if fire is not None and fire.astimezone(UTC) <= limit:
            while True:
                step = (fire.astimezone(UTC) + timedelta(seconds=1)).astimezone(zone)
                later = fires.get_next_fire_time(fire, step)
                if later is None or later.astimezone(UTC) > limit:
                    return _first_of_repeat(fires, fire)
                fire = later
        span = LOOKBACK if span < LOOKBACK < 2 * span else 2 * span
    return None


def _first_of_repeat(trigger: Any, fire: datetime) -> datetime:
    """When clocks fall back, 02:30 comes twice and a daily 02:30 schedule fires at both: the
    second is the same local time, so it opens no new period."""
    first = fire.replace(fold=0)
    if first.utcoffset() == fire.utcoffset():
        return fire
    before = (first.astimezone(UTC) - timedelta(seconds=1)).astimezone(fire.tzinfo)
    twin = trigger.get_next_fire_time(None, before)
    same = twin is not None and twin.astimezone(UTC) == first.astimezone(UTC)
    return first if same else fire
