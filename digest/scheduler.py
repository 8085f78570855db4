"""Running by itself: `digest serve` (APScheduler: a job per subscriber on its schedule and time
zone, a polling job for new papers and alerts, a heartbeat), and the `digest status` report."""

from __future__ import annotations

import logging
import signal
import threading
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import FrameType
from typing import Any

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_SCHEDULER_STARTED,
    JobEvent,
    SchedulerEvent,
)
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger

from digest import pipeline
from digest.config.crontab import trigger
from digest.models import DigestError, Settings, StateError, deadline, redact
from digest.periods import next_fires
from digest.state import Store
from digest.state.engine import shown
from digest.state.lock import BEAT_SECONDS, LockBusy, run_lock, serve_lock, write_heartbeat

log = logging.getLogger("digest.serve")

LOCK_WAIT = 600.0  # seconds a scheduled job waits for a `digest run` holding the lock
LISTED = 20  # subscribers a job's log line names; more are counted by state


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
        self.failing = ""  # why the last job could not run (a damaged state...); "" when it ran
        self.overrun: set[str] = set()  # jobs still running at their next time, said once
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
        # The poll and the heartbeat run once however late (a process paused, a laptop asleep):
        # the poll is what makes a digest missed past the grace time, so skipping it too would
        # leave that digest a whole poll_every late.
        always = {**options, "misfire_grace_time": None}
        start = clock()
        every = IntervalTrigger(seconds=settings.poll_every, start_date=start)
        self.scheduler.add_job(
            self.tick, every, args=["poll"], id="poll", next_run_time=start, **always
        )
        beat = IntervalTrigger(seconds=BEAT_SECONDS, start_date=start)
        self.scheduler.add_job(
            self.beat, beat, id="heartbeat", executor="beat", next_run_time=start, **always
        )

    def serve(self) -> int:
        """Run until SIGTERM or SIGINT; then start no new job, let the one in progress finish
        (or leave its deliveries pending), and return 0."""
        # A state no job could use (a wrong password, another program's database, a newer
        # digest's) fails the start, one line (exit 2), rather than one error a tick forever.
        Store(self.state).close()
        with serve_lock(self.state):
            return self._serve()

    def _serve(self) -> int:
        handlers = {
            sig: signal.signal(sig, self._signal) for sig in (signal.SIGTERM, signal.SIGINT)
        }
        self.scheduler.add_listener(self._started, EVENT_SCHEDULER_STARTED)
        self.scheduler.add_listener(self._late, EVENT_JOB_MAX_INSTANCES)
        self.scheduler.add_listener(self._ended, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
        apscheduler_log = logging.getLogger("apscheduler.scheduler")
        apscheduler_log.addFilter(_not_overrun)
        self.log_plan()
        try:
            self.scheduler.start()  # returns once the stop watcher has shut it down
        finally:
            apscheduler_log.removeFilter(_not_overrun)
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        with self.busy:
            while self.running:
                self.busy.wait()
        deadline.resume()
        try:
            write_heartbeat(self.state, self.clock(), stopped=True)
        except StateError as exc:  # health reads the last beat until it is stale: say so
            log.warning("serve: %s; health reads it as alive until it is stale", exc)
        try:
            with Store(self.state) as store:
                pending = f"{store.outbox_counts().get('pending', 0)} deliveries"
        except StateError as exc:  # the database went away: the stop is still a clean one
            pending = f"the deliveries (the state cannot be read now: {exc})"
        log.info(
            "serve: stopped cleanly on %s; %s pending for the next run",
            self.signal_name or "request",
            pending,
        )
        return 0

    def log_plan(self) -> None:
        now = self.clock()
        log.info(
            "serve: state %s; polling every %s for new papers, alerts and retries; "
            "a missed digest runs up to %s late, once",
            shown(self.state),
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
            self.failing = ""
            log.info("%s at %s: %s", label, f"{now:%Y-%m-%dT%H:%M:%SZ}", one_line(report))
        except LockBusy as exc:  # a cron run beside serve: the next job goes on
            log.error("%s: %s", label, redact(str(exc), self.settings.secrets))
        except DigestError as exc:
            # `digest health` says so: a container over a damaged state is not healthy.
            self.failing = redact(str(exc), self.settings.secrets)
            log.error("%s: %s", label, self.failing)
        finally:
            # Each job's papers and matrices are freed into its thread's heap, which glibc keeps:
            # an every-minute digest grew serve from 116 to 159 MB in 11 minutes, and stayed
            # within 112-140 MB with the free pages handed back after each job.
            from digest.ranking.features import release_memory

            release_memory()
            with self.busy:
                self.running -= 1
                self.busy.notify_all()

    def beat(self) -> None:
        now = self.clock()
        nexts = {k: v.isoformat() if v else None for k, v in next_fires(self.settings, now).items()}
        try:
            facts: dict[str, Any] = {"next": nexts, "busy": self.running > 0}
            if self.failing:
                facts["failing"] = self.failing
            write_heartbeat(self.state, now, **facts)
        except DigestError as exc:  # a database briefly away: the next beat tries again
            log.error("heartbeat: %s", redact(str(exc), self.settings.secrets))

    def _signal(self, signum: int, frame: FrameType | None) -> None:
        # Only set a flag here: the scheduler's own locks may be held by the interrupted code.
        self.signal_name = self.signal_name or signal.Signals(signum).name
        self.stop.set()

    def _late(self, event: JobEvent) -> None:
        if event.job_id not in self.overrun:
            self.overrun.add(event.job_id)
            log.info("%s: still running at its next time; that time is skipped", event.job_id)

    def _ended(self, event: JobEvent) -> None:
        self.overrun.discard(event.job_id)

    def _started(self, event: SchedulerEvent) -> None:
        threading.Thread(target=self._watch, name="digest-stop", daemon=True).start()

    def _watch(self) -> None:
        self.stop.wait()
        log.info("serve: %s: no new work; waiting for the job in progress", self.signal_name)
        deadline.interrupt()  # a source's read in flight ends: a dripping feed had held it
        self.scheduler.shutdown(wait=False)


def _not_overrun(record: logging.LogRecord) -> bool:
    """APScheduler's warning for a job still running at its next time, every time: a poll of
    minutes at `poll_every = "1s"` wrote one a second. Server._late says it once a job."""
    return "maximum number of running instances reached" not in str(record.msg)


def one_line(report: pipeline.RunReport) -> str:
    """A run in one log line: papers, digests, alerts, deliveries."""
    papers = sum(s.new for s in report.sources)
    failed = [s.name for s in report.sources if s.error]
    made = [
        f"{s.name} ({s.picked}{f' + {s.held} held alerts' if s.held else ''})"
        for s in report.subscribers
        if s.status == "made"
    ]
    quiet = [
        f"{s.name} ({s.status}{', notified' if s.notified else ''})"
        for s in report.subscribers
        if s.status not in ("made", "already made")
    ]
    alerts = sum(len(a.made) for a in report.alerts)
    held = sum(a.held for a in report.alerts)
    out = report.outcome
    parts = [f"{papers} new papers" + (f", sources failed: {', '.join(failed)}" if failed else "")]
    if len(made) + len(quiet) > LISTED:  # a thousand readers: counts, not a line of 50 KB
        states = Counter(s.status for s in report.subscribers if s.status != "already made")
        parts.append("digests: " + ", ".join(f"{n} {state}" for state, n in states.items()))
    else:
        parts.append("digests: " + ", ".join(made + quiet) if made or quiet else "no digest due")
    parts.append(f"{alerts} alerts" + (f", {held} held for the digest (daily cap)" if held else ""))
    parts.append(
        f"deliveries: {len(out.sent)} sent, {len(out.retrying)} retrying, {len(out.dead)} dead; "
        f"{report.pending} pending"
    )
    return "; ".join(parts)
