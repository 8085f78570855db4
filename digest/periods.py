"""A subscriber's periods: its crontab schedule in its own time zone (read as crontab(5) reads it),
the period a moment falls in (from the latest fire time at or before it) and the next fire time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from digest.config.crontab import trigger
from digest.models import Settings

# A leap-day schedule fires at least once in 8 years (2096 to 2104 has no 29 February).
LOOKBACK = timedelta(days=8 * 366 + 1)


def next_fires(settings: Settings, now: datetime) -> dict[str, datetime | None]:
    """Each subscriber's next scheduled digest after now, in its own zone."""
    return {s.name: next_fire(s.schedule, s.timezone, now) for s in settings.subscribers}


def next_fire(schedule: str, timezone: str, now: datetime) -> datetime | None:
    """The schedule's next fire time after now that opens a period (None: never again). The
    second 02:30 of a night the clocks fall back fires too, but opens none: it is skipped."""
    zone = ZoneInfo(timezone)
    fires = trigger(schedule, timezone)
    # A trigger's next fire time may be now itself; at 08:00 sharp the period of 08:00 has
    # begun, so the next digest is the one after it.
    after = now.astimezone(UTC) + timedelta(microseconds=1)
    fire: datetime | None = None
    for _ in range(_REPEATS):
        fire = fires.get_next_fire_time(None, after.astimezone(zone))
        if fire is None or _opens(fires, fire):
            break
        after = fire.astimezone(UTC) + timedelta(seconds=1)
    # Asked from a wall time just past a jump the clocks skipped, the trigger passes over the
    # skipped 02:30 that the period before names (period_start: 02:30+01:00, 03:30 CEST), and
    # said "tomorrow" of a digest half an hour away. The fire after the current period's.
    last = period_start(schedule, timezone, now)
    if last is not None:
        step = (last.astimezone(UTC) + timedelta(seconds=1)).astimezone(zone)
        walked = fires.get_next_fire_time(last, step)
        opens = walked is not None and _opens(fires, walked)
        if walked is not None and opens and now < walked and (fire is None or walked < fire):
            fire = walked
    return fire


# A repeated hour (or half hour) holds at most this many fire times of a crontab schedule.
_REPEATS = 24 * 60 + 1


def period_start(schedule: str, timezone: str, now: datetime) -> datetime | None:
    """The latest fire time of the schedule at or before now, in its zone (None: never fired)."""
    zone = ZoneInfo(timezone)
    fires = trigger(schedule, timezone)
    limit = now.astimezone(UTC)
    span = timedelta(hours=1)
    # Widen the window until it holds a fire time and the one before it, then walk to the last
    # one before now. Steps and comparisons go through UTC: local arithmetic loses the fold of a
    # repeated hour. The period is named as its predecessor's next fire time: the instant a
    # skipped 02:30 stands for is also a real 03:30, and a search that starts between the jump
    # and that instant would name it 03:30, a second period for the same moment.
    while span <= LOOKBACK:
        fire = fires.get_next_fire_time(None, (limit - span).astimezone(zone))
        if fire is not None and fire.astimezone(UTC) <= limit:
            walked = False
            while True:
                step = (fire.astimezone(UTC) + timedelta(seconds=1)).astimezone(zone)
                later = fires.get_next_fire_time(fire, step)
                if later is None or later.astimezone(UTC) > limit:
                    if walked or span == LOOKBACK:
                        return _first_of_repeat(fires, fire)
                    break
                fire, walked = later, True
        span = LOOKBACK if span < LOOKBACK < 2 * span else 2 * span
    return None


def _opens(trigger: Any, fire: datetime) -> bool:
    """Whether a fire time opens a period: not the second 02:30 of a night the clocks fall
    back (compared by offset: one zone's two 02:30s are equal as datetimes)."""
    return _first_of_repeat(trigger, fire).utcoffset() == fire.utcoffset()


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


def behind(last_period: str | None, now: datetime) -> bool:
    """Is the clock before the period of the subscriber's last digest (named by its start)? Then
    it stepped back (a machine booting before NTP, a --now in the past), or that digest was made
    ahead of it (a --now in the future), and nothing made now would come in order."""
    return last_period is not None and now < datetime.fromisoformat(last_period)


def covered(start: datetime, last: tuple[str, str] | None) -> bool:
    """Does a period starting at `start` lie within time the subscriber's last digest (its
    period, and when it was made) already covered? Only a changed schedule or time zone makes
    one: its latest fire time can fall at or before the last digest's period, or before that
    digest was made, and a digest for it would be a second, back-dated one. It opens none; the
    next fire time does. Compared as instants, so offsets (DST, another zone) do not matter. (A
    period told it waits for its sources covers nothing: it has no digest yet; History.told.)"""
    if last is None:
        return False
    try:
        period, made_at = (datetime.fromisoformat(t) for t in last)
        return start <= period or start < made_at
    except (TypeError, ValueError):  # no time (a test's "P1"), or one without an offset
        return False
