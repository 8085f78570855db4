"""A schedule as crontab(5) reads it, as an APScheduler trigger in the subscriber's time zone: the
config checks it, the periods and the scheduler fire by it."""

from __future__ import annotations

import collections
import functools
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.combining import OrTrigger
from apscheduler.triggers.cron import CronTrigger

DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")  # crontab's numbers; 7 is Sunday too
# crontab(5)'s nicknames (not @reboot: a digest has no boot).
NICKNAMES = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


def trigger(schedule: str, timezone: str) -> BaseTrigger:
    """The schedule as cron reads it. APScheduler 3's from_crontab counts weekdays from Monday = 0
    and requires both the day of the month and the weekday; cron counts from Sunday = 0 (or 7) and,
    when both are restricted, fires on either. ValueError for a bad expression."""
    fields = NICKNAMES.get(schedule.strip().lower(), schedule).split()
    if len(fields) != 5:
        raise ValueError(f"wrong number of fields; got {len(fields)}, expected 5")
    minute, hour, day, month, weekday = fields
    zone = ZoneInfo(timezone)
    days = weekdays(weekday)

    def cron(day: str, day_of_week: str) -> CronTrigger:
        return _LocalCron(
            minute=minute, hour=hour, day=day, month=month, day_of_week=day_of_week, timezone=zone
        )

    if day.startswith("*") or weekday.startswith("*"):
        return cron(day, days)
    return OrTrigger([cron(day, "*"), cron("*", days)])


class _LocalCron(CronTrigger):  # type: ignore[misc]
    """APScheduler's CronTrigger, except that stepping a field up across a change of the clocks
    lands on the local time it stepped to, not an hour past it."""

    def _increment_field_value(self, dateval: datetime, fieldnum: int) -> tuple[datetime, int]:
        # APScheduler adds the step in UTC. Across a spring-forward that overshoots the local
        # time by the hour gained: from 01:00 on the day Berlin springs forward, the next day's
        # 00:00 comes out as 01:00, the hour field finds no 00:00 in it, and a midnight schedule
        # skips that day; so does one whose midnight the clocks skip (Santiago, Havana, Cairo).
        # The local time stepped to is then kept (a skipped one read with the offset before the
        # change, as APScheduler's own setting of a field does for 02:30 in Berlin). Falling
        # behind it (clocks falling back) only walks the repeated hour, so that stays as it is.
        stepped, field = super()._increment_field_value(dateval, fieldnum)
        wall, _ = super()._increment_field_value(dateval.replace(tzinfo=UTC), fieldnum)
        if stepped.replace(tzinfo=None) <= wall.replace(tzinfo=None):
            return stepped, field
        return wall.replace(tzinfo=self.timezone, fold=0), field


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
            if (first, last) == (0, 7) and high in DAYS:  # "sun-sun" is Sunday, not every day
                last = 0
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


@functools.cache
def check(expr: str, tz: str) -> None:
    """Raises ValueError for a bad expression or one that never fires (31 February). Cached:
    thousands of subscribers share a few."""
    if never_fires(expr, tz, datetime.now(UTC)):
        raise ValueError("it never fires")


BURST = 12  # fires within one hour above which a schedule is taken for a typo ("* 8 * * *")


@functools.cache
def burst(expr: str, tz: str) -> int:
    """The most a valid schedule fires within one hour of the next month, if more than BURST
    (every minute: 60), else 0. `* 8 * * *` reads as every minute of 08:00-08:59, 60 digests
    (or notices) a day, where 08:00 was meant. Every hour of a month is looked at, not the one
    after the next fire: at 13:56, `* 13 * * *` had fired 3 times in it, and said nothing."""
    rule = trigger(expr, tz)
    fire = rule.get_next_fire_time(None, datetime.now(UTC))
    window: collections.deque[datetime] = collections.deque()
    end, most = (fire + timedelta(days=32) if fire else None), 0
    for _ in range(10_000):  # a month of every five minutes; a denser one ends sooner
        if fire is None or end is None or fire > end:
            break
        window.append(fire)
        while window[0] <= fire - timedelta(hours=1):
            window.popleft()
        most = max(most, len(window))
        if most >= 60:  # every minute: no more to learn
            break
        fire = rule.get_next_fire_time(fire, fire + timedelta(seconds=1))
    return min(most, 60) if most > BURST else 0
