"""`digest status`'s next digests: each subscriber's next fire time, a period due now, and the
periods overdue, which began and ended with no run to make them (a cron timer stopped for days)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from digest.alerts import history
from digest.config.crontab import trigger
from digest.models import Settings
from digest.periods import behind, covered, next_fires, period_start

if TYPE_CHECKING:
    from digest.models import Subscriber
    from digest.state import Store
    from digest.state.lineage import History

# Periods counted one by one past a last run: a minute schedule over a month down is 43,200 of
# them, and "more than" says as much as the exact number.
COUNTED = 10_000

Missed = tuple[int, datetime]  # how many periods were missed, and the period a run last saw


def next_digests(
    settings: Settings, store: Store, runs: list[dict[str, Any]], now: datetime
) -> tuple[list[tuple[str, str]], list[str]]:
    """(subscriber, when its next digest comes) for `digest status`, and the subscribers whose
    digests are overdue (they need attention)."""
    pairs, late = [], []
    fires = next_fires(settings, now)
    waiting = store.journal.held_counts()  # read from the holds themselves, not from run summaries
    walked: dict[tuple[str, str, datetime, datetime], Missed] = {}  # one walk per schedule
    # Each reader's digests under its earlier names too, as a run reads them (lineage.py): by the
    # name alone, a reader renamed after its period's digest was "due now" for a made period.
    own = history(settings, store, settings.subscribers)
    for sub in settings.subscribers:
        fire = fires[sub.name]
        when = "never" if fire is None else f"{fire:%a %Y-%m-%d %H:%M %Z}"
        left = "" if fire is None else f" ({fire.tzinfo}), in {_span(fire - now)}"
        held = f", with {_counted(waiting[sub.name], 'held alert')}" if sub.name in waiting else ""
        if _ahead(own, sub.name, now):  # its next fire makes nothing: "clock behind" below
            pairs.append((sub.name, f"none until the period of its last digest comes{held}"))
            continue
        # Past the period's fire time with no digest for it yet: the next run makes it.
        start = period_start(sub.schedule, sub.timezone, now)
        covers = start is not None and (
            own.has_digest(sub.name, start.isoformat())
            or covered(start, own.last_digest(sub.name))  # a schedule or zone changed since
        )
        if start is not None and not covers:
            opened = f"{start:%a %Y-%m-%d %H:%M %Z}"
            overdue = _overdue(sub, _seen(own, runs, sub.name), start, walked)
            late += [sub.name] if overdue else []
            due = f"{overdue}due now (the period of {opened}){held}; then {when}{left}"
            pairs.append((sub.name, due))
            continue
        pairs.append((sub.name, f"{when}{left}{held}"))
    return pairs, late


def _seen(own: History, runs: list[dict[str, Any]], name: str) -> tuple[datetime, str] | None:
    """When a run last had the subscriber's period in hand, and what says so: the latest of the
    runs shown that is running or whose summary lists it, else its last digest; for a reader no
    run and no digest knows yet (added since), the state's last run that got to the digests."""
    # The latest clock, not the newest row: replays with --now record runs out of clock order.
    listed = [
        _instant(r["clock"]) for r in runs if r["outcome"] == "running" or name in _readers(r)
    ]
    last = own.last_digest(name)
    made = None if last is None else _instant(last[1])
    if listed and (made is None or max(listed) >= made):
        return max(listed), "last run"
    if made is not None:
        return made, "last digest made"
    known = [_instant(r["clock"]) for r in runs if _readers(r)]
    return (max(known), "last run") if known else None


def _readers(run: dict[str, Any]) -> dict[str, Any]:
    subscribers = run.get("summary", {}).get("subscribers", {})
    return subscribers if isinstance(subscribers, dict) else {}


def _instant(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _overdue(
    sub: Subscriber,
    seen: tuple[datetime, str] | None,
    start: datetime,
    walked: dict[tuple[str, str, datetime, datetime], Missed],
) -> str:
    """`overdue: N periods since ..., last run ...; ` when whole periods of the subscriber's
    schedule began and ended after the one a run last saw, before the one due now; else "".
    The one due now is never counted: a run late by minutes, the first period of a new reader
    or one just after a schedule edit is due, not overdue."""
    if seen is None:
        return ""
    at, what = seen
    key = (sub.schedule, sub.timezone, at, start)
    if key not in walked:
        walked[key] = _missed(sub.schedule, sub.timezone, at, start)
    count, since = walked[key]
    if count == 0:
        return ""
    many = f"more than {COUNTED:,} periods" if count > COUNTED else _counted(count, "period")
    local = since.astimezone(ZoneInfo(sub.timezone))
    return f"overdue: {many} since {local:%a %Y-%m-%d %H:%M %Z}, {what} {at:%Y-%m-%d %H:%M} UTC; "


def _missed(schedule: str, timezone: str, seen: datetime, start: datetime) -> Missed:
    """How many periods of the schedule began after the one `seen` fell in and before `start`
    (up to COUNTED + 1), and where the one `seen` fell in began (`seen` itself before any). Each
    fire time is walked from the one before (periods.next_fire's step), and the second 02:30 of
    a night the clocks fall back is no period: its period_start is the first."""
    zone = ZoneInfo(timezone)
    fires = trigger(schedule, timezone)
    since = period_start(schedule, timezone, seen)
    fire, count = since, 0
    after = since or seen
    end = start.astimezone(UTC)
    while count <= COUNTED:
        step = (after.astimezone(UTC) + timedelta(seconds=1)).astimezone(zone)
        fire = fires.get_next_fire_time(fire, step)
        if fire is None or fire.astimezone(UTC) >= end:
            break
        after = fire
        if fire.replace(fold=0).utcoffset() != fire.utcoffset():  # in a repeated hour
            first = period_start(schedule, timezone, fire)
            if first is None or first.astimezone(UTC) != fire.astimezone(UTC):
                continue
        count += 1
    return count, since or seen


def _ahead(own: History, name: str, now: datetime) -> bool:
    """Whether the subscriber's last digest is for a period after `now` (a --now ahead)."""
    last = own.last_digest(name)
    try:
        return last is not None and behind(last[0], now)
    except (TypeError, ValueError):  # a period with no time, or none with its offset
        return False


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _span(delta: timedelta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    return (f"{days} d " if days else "") + f"{minutes // 60} h {minutes % 60:02d} min"
