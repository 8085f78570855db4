"""Running by itself: `digest serve` (APScheduler: a job per subscriber on its schedule and time
zone, a polling job for new papers and alerts), the state folder's run lock and heartbeat, and
the `digest status` report."""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import IO, Any
from zoneinfo import ZoneInfo

from apscheduler.events import EVENT_SCHEDULER_STARTED, SchedulerEvent
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from digest import pipeline
from digest.models import DigestError, Settings, redact
from digest.store import Store

log = logging.getLogger("digest.serve")

BEAT_SECONDS = 30  # the heartbeat job's interval
STALE_AFTER = 4 * BEAT_SECONDS  # a heartbeat older than this means the scheduler stopped ticking
LOCK_WAIT = 600.0  # seconds a scheduled job waits for a `digest run` holding the lock


class LockBusy(DigestError):
    """Another run holds the state folder's lock (exit 1: this run did nothing)."""


def lock_path(state: str | Path) -> Path:
    return Path(state).with_suffix(".lock")


def heartbeat_path(state: str | Path) -> Path:
    return Path(state).with_suffix(".heartbeat")


@contextlib.contextmanager
def run_lock(
    state: str | Path,
    wait: float = 0.0,
    stop: Callable[[], bool] = lambda: False,
    on_wait: Callable[[str], None] = lambda holder: None,
) -> Iterator[None]:
    """One run at a time over a state database, across processes: fcntl.flock on <db>.lock.

    Waits up to `wait` seconds (on_wait(holder) once, when it starts waiting), then raises
    LockBusy. The kernel drops the lock when its holder dies, so a crash never leaves it stuck.
    """
    path = lock_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + wait
        waited = False
        while not _try_lock(handle):
            holder = _holder(path)
            if stop() or time.monotonic() >= deadline:
                raise LockBusy(
                    f"another digest run holds {path} ({holder}); skipped after waiting {wait:g} s"
                )
            if not waited:
                on_wait(holder)
                waited = True
            time.sleep(0.1)
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()} since {datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ}\n")
            handle.flush()
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _try_lock(handle: IO[str]) -> bool:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip() or "holder unknown"
    except OSError:
        return "holder unknown"


def trigger(schedule: str, timezone: str) -> CronTrigger:
    return CronTrigger.from_crontab(schedule, timezone=ZoneInfo(timezone))


def next_fires(settings: Settings, now: datetime) -> dict[str, datetime | None]:
    """Each subscriber's next scheduled digest after now, in its own zone."""
    return {
        s.name: trigger(s.schedule, s.timezone).get_next_fire_time(
            None, now.astimezone(ZoneInfo(s.timezone))
        )
        for s in settings.subscribers
    }


def write_heartbeat(state: str | Path, now: datetime, **facts: Any) -> None:
    """Atomically, so `digest health` never reads half a file."""
    path = heartbeat_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"pid": os.getpid(), "beat_at": now.astimezone(UTC).isoformat(), **facts}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".heartbeat.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(body, handle)
    os.replace(tmp, path)


def health(state: str | Path, now: datetime) -> tuple[bool, str]:
    """Is a `digest serve` ticking over this state? (alive, one line saying why)"""
    path = heartbeat_path(state)
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        at = datetime.fromisoformat(beat["beat_at"])
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: digest serve has not run over this state"
    except (OSError, ValueError, KeyError) as exc:
        return False, f"{path}: unreadable heartbeat ({exc})"
    age = (now - at).total_seconds()
    if beat.get("stopped"):
        return False, f"digest serve (pid {beat.get('pid')}) stopped {age:.0f} s ago"
    if age > STALE_AFTER:
        return False, f"stale: the last heartbeat is {age:.0f} s old (the limit is {STALE_AFTER} s)"
    return True, f"alive: pid {beat.get('pid')}, last heartbeat {max(age, 0):.0f} s ago"


class Server:
    """`digest serve`: one BlockingScheduler whose jobs each run one pipeline cycle, one at a
    time, on the clock of the moment they fire."""

    def __init__(
        self,
        settings: Settings,
        state: str,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        lock_wait: float = LOCK_WAIT,
    ) -> None:
        self.settings, self.state, self.clock, self.lock_wait = settings, state, clock, lock_wait
        self.stop = threading.Event()
        self.signal_name = ""
        self.busy = threading.Condition()
        self.running = 0
        # One worker: jobs never overlap (the lock would serialize them anyway); the heartbeat
        # has its own, so it shows the scheduler ticking even while a long job runs.
        self.scheduler = BlockingScheduler(
            timezone=UTC,
            executors={"default": ThreadPoolExecutor(1), "beat": ThreadPoolExecutor(1)},
        )
        options: dict[str, Any] = {
            "coalesce": True,  # a laptop that slept runs a missed job once, not once a miss
            "max_instances": 1,
            "misfire_grace_time": int(settings.misfire_grace_time),
        }
        for sub in settings.subscribers:
            self.scheduler.add_job(
                self.tick,
                trigger(sub.schedule, sub.timezone),
                args=[f"digest {sub.name}"],
                id=f"digest:{sub.name}",
                **options,
            )
        # The first poll runs at start: it makes any digest missed while nothing was running.
        start = clock()
        every = IntervalTrigger(seconds=settings.poll_every, start_date=start)
        self.scheduler.add_job(
            self.tick, every, args=["poll"], id="poll", next_run_time=start, **options
        )
        beat = IntervalTrigger(seconds=BEAT_SECONDS, start_date=start)
        self.scheduler.add_job(
            self.beat, beat, id="heartbeat", executor="beat", next_run_time=start, **options
        )

    def serve(self) -> int:
        """Run until SIGTERM or SIGINT; then start no new job, let the one in progress finish
        (or leave its deliveries pending), and return 0."""
        handlers = {
            sig: signal.signal(sig, self._signal) for sig in (signal.SIGTERM, signal.SIGINT)
        }
        self.scheduler.add_listener(self._started, EVENT_SCHEDULER_STARTED)
        self.log_plan()
        try:
            self.scheduler.start()  # returns once the stop watcher has shut it down
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        with self.busy:
            while self.running:
                self.busy.wait()
        write_heartbeat(self.state, self.clock(), stopped=True)
        with Store(self.state) as store:
            pending = store.outbox_counts().get("pending", 0)
        log.info(
            "serve: stopped cleanly on %s; %d deliveries pending for the next run",
            self.signal_name or "request",
            pending,
        )
        return 0

    def log_plan(self) -> None:
        now = self.clock()
        log.info(
            "serve: state %s; polling every %s for new papers, alerts and retries; "
            "a missed digest runs up to %s late, once",
            self.state,
            timedelta(seconds=self.settings.poll_every),
            timedelta(seconds=self.settings.misfire_grace_time),
        )
        subscribers = {s.name: s for s in self.settings.subscribers}
        for name, fire in next_fires(self.settings, now).items():
            sub = subscribers[name]
            when = "never" if fire is None else f"{fire:%a %Y-%m-%d %H:%M %Z}"
            log.info("serve: %s: next digest %s (%s, %r)", name, when, sub.timezone, sub.schedule)

    def tick(self, label: str) -> None:
        """One job: the lock, one pipeline cycle on this moment's clock, one log line."""
        if self.stop.is_set():
            return
        with self.busy:
            self.running += 1
        try:
            now = self.clock()
            with (
                run_lock(self.state, self.lock_wait, self.stop.is_set),
                Store(self.state) as store,
            ):
                report = pipeline.run_once(self.settings, store, now, stop=self.stop.is_set)
            log.info("%s at %s: %s", label, f"{now:%Y-%m-%dT%H:%M:%SZ}", one_line(report))
        except DigestError as exc:
            log.error("%s: %s", label, redact(str(exc), self.settings.secrets))
        finally:
            with self.busy:
                self.running -= 1
                self.busy.notify_all()

    def beat(self) -> None:
        now = self.clock()
        nexts = {k: v.isoformat() if v else None for k, v in next_fires(self.settings, now).items()}
        write_heartbeat(self.state, now, next=nexts, busy=self.running > 0)

    def _signal(self, signum: int, frame: FrameType | None) -> None:
        # Only set a flag here: the scheduler's own locks may be held by the interrupted code.
        self.signal_name = self.signal_name or signal.Signals(signum).name
        self.stop.set()

    def _started(self, event: SchedulerEvent) -> None:
        threading.Thread(target=self._watch, name="digest-stop", daemon=True).start()

    def _watch(self) -> None:
        self.stop.wait()
        log.info("serve: %s: no new work; waiting for the job in progress", self.signal_name)
        self.scheduler.shutdown(wait=False)


def one_line(report: pipeline.RunReport) -> str:
    """A run in one log line: papers, digests, alerts, deliveries."""
    papers = sum(s.new for s in report.sources)
    failed = [s.name for s in report.sources if s.error]
    made = [f"{s.name} ({s.picked})" for s in report.subscribers if s.status == "made"]
    quiet = [
        f"{s.name} ({s.status}{', notified' if s.notified else ''})"
        for s in report.subscribers
        if s.status not in ("made", "already made")
    ]
    alerts = sum(len(a.made) for a in report.alerts)
    out = report.outcome
    parts = [f"{papers} new papers" + (f", sources failed: {', '.join(failed)}" if failed else "")]
    parts.append("digests: " + ", ".join(made + quiet) if made or quiet else "no digest due")
    parts.append(f"{alerts} alerts")
    parts.append(
        f"deliveries: {len(out.sent)} sent, {len(out.retrying)} retrying, {len(out.dead)} dead; "
        f"{report.pending} pending"
    )
    return "; ".join(parts)


def status_report(settings: Settings, store: Store, state: str, now: datetime) -> tuple[str, int]:
    """`digest status`: the text, and 1 if something needs attention (a dead delivery, a source
    whose last try failed, a last run that was not ok), else 0."""
    alive, beat = health(state, now)
    lines = [f"digest status at {now:%Y-%m-%dT%H:%M%z} over {state}", f"serve: {beat}"]
    runs = store.runs(5)
    lines.append("last runs, newest first:" if runs else "last runs: none yet")
    for run in runs:
        summary = run["summary"]
        subs = summary.get("subscribers", {})
        made = [n for n, s in subs.items() if s.get("status") == "made"]
        alerts = sum(len(a.get("made", [])) for a in summary.get("alerts", {}).values())
        sent = summary.get("deliveries", {}).get("sent", 0)
        lines.append(
            f"  {run['clock']}  {run['outcome']:<9}  {summary.get('papers', {}).get('new', 0)} new"
            f" papers; digests made: {', '.join(made) or 'none'}; {alerts} alerts; {sent} sent"
        )
    lines.append("next digests:")
    for name, fire in next_fires(settings, now).items():
        when = "never" if fire is None else f"{fire:%a %Y-%m-%d %H:%M %Z}"
        left = "" if fire is None else f" ({fire.tzinfo}), in {_span(fire - now)}"
        lines.append(f"  {name}: {when}{left}")
    sources = {s["source"]: s for s in store.journal.sources()}
    failing = False
    lines.append("sources, last success:")
    for source in settings.sources:
        known = sources.get(source.name)
        if known is None:
            lines.append(f"  {source.name}: not read yet")
            continue
        failing = failing or bool(known["error"])
        state_now = f"; FAILING: {known['error']}" if known["error"] else ""
        lines.append(f"  {source.name}: {known['last_success'] or 'never'}{state_now}")
    counts = store.outbox_counts()
    pending, dead = counts.get("pending", 0), counts.get("dead", 0)
    lines.append(f"deliveries: {pending} pending, {dead} dead")
    for row in store.outbox("dead") + store.outbox("pending"):
        retry = f", next try {row.next_try_at}" if row.status == "pending" else ""
        reason = redact(row.last_error, settings.secrets) or "not tried yet"
        lines.append(
            f"  {row.status:<7}  {row.subscriber}/{row.channel} {row.purpose} {row.period} "
            f"({row.attempts} attempts{retry}): {reason}"
        )
    attention = dead > 0 or failing or bool(runs and runs[0]["outcome"] not in ("ok", "running"))
    return "\n".join(lines), 1 if attention else 0


def _span(delta: timedelta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    return (f"{days} d " if days else "") + f"{minutes // 60} h {minutes % 60:02d} min"
