"""The delivery loop: send the outbox rows that are due, then mark each sent, pending or dead.

Different destinations are served concurrently (bounded), one destination's rows in order at its
pace, over connections kept for the run (channels/connections.py). A short rate limit is waited
out within the run; any other failure is retried with exponential backoff and jitter (or the
server's Retry-After, when longer) on the run's clock, up to max_attempts. One channel failing
never stops the others. The marks are written in groups (marks.py): a claim before its post, a few
sent marks together after their sends; while they cannot be written, the rows not sent wait, and
go once a commit succeeds. A stop (SIGTERM) ends the run's waits at once and begins nothing more:
the part on the wire is finished, the rest left pending, no attempt counted.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from digest.channels import CHANNELS, connections, email
from digest.channels.transport import Owed, Resumed, bounded_wait
from digest.marks import Marks, TakenOver
from digest.models import ChannelConfig, DeliveryError, DigestError, Message, Settings, redact
from digest.models.deadline import pause
from digest.models.errors import StateError, shortened
from digest.state import OutboxRow, Store, pauses
from digest.state.deliveries import LEASE, stamp
from digest.state.engine import StateAway, StateBusy, StateLost
from digest.state.recipients import Recipients
from digest.state.recipients import channel_config as channel_config  # digest retry's

log = logging.getLogger("digest.outbox")

MAX_ATTEMPTS = 8  # [delivery] max_attempts
FIRST_BACKOFF = 60.0  # seconds; doubles each attempt
MAX_BACKOFF = 6 * 3600.0  # also the longest Retry-After obeyed (transport.RETRY_AFTER_CEILING)
CONCURRENCY = 16  # [delivery] concurrency: destinations served at once
SMTP_CONNECTIONS = connections.SMTP_CONNECTIONS  # [delivery] smtp_connections, per relay
MAX_WAIT = 60.0  # [delivery] max_wait: seconds of rate limit one run waits out per destination
LEFT_FOR_OTHERS = timedelta(days=1)  # a row of a channel this worker lacks (a rolling restart)
# The longest wait within a run, whatever max_wait says: well inside the lease renewed before the
# post that was refused, so no other worker can take the row over while this one sleeps.
WAIT_CAP = LEASE.total_seconds() / 2


@dataclass
class Outcome:
    sent: list[str] = field(default_factory=list)  # "alice/file: out/2026-11-30/alice.eml"
    retrying: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)


def backoff(attempts: int, retry_after: float | None, rand: Callable[[], float]) -> float:
    """Seconds to wait after the given number of failed attempts (jitter spreads a herd), or
    the server's wish when longer, up to MAX_BACKOFF (a Retry-After of years, or infinity)."""
    delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (min(attempts, 64) - 1)) * (0.8 + 0.4 * rand())
    wish = min(bounded_wait(retry_after) or 0.0, MAX_BACKOFF)
    return float(max(delay, wish))


def deliver(
    store: Store,
    settings: Settings,
    now: datetime,
    *,
    channels: Mapping[str, type] | None = None,
    rand: Callable[[], float] = random.random,
    sleep: Callable[[float], None] = pause,
    subscriber: str | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Outcome:
    """Send every due row (only `subscriber`'s, when given: `digest retry --subscriber`); `now`
    is the run's clock, moving on with the time spent here. Once stop() holds (SIGTERM), the
    part on the wire is finished, the rest stay pending (`sleep` ends at once: deadline.pause)."""
    run = _Run(store, settings, now, rand, sleep)
    run.stop = stop
    if run.marks.carried:  # an earlier pass's sends, unrecorded while the server was away
        run.marks.settle(run.stop)
    store.web.hold_paused(pauses.mailing(settings.subscribers, email.recipients))  # unsubscribes
    rows = store.due(now, subscriber)
    while rows:  # then those held back while the database was away, once it takes a claim
        run.round(rows, CHANNELS if channels is None else channels)
        rows = run.marks.again(lambda: store.due(run.clock(), subscriber), run.stop)
    store.release()  # rows left for later are free for any worker now, not at the lease's end
    for items in (run.outcome.sent, run.outcome.retrying, run.outcome.dead):
        items.sort()
    return run.outcome


@dataclass
class _Job:
    row: OutboxRow
    label: str  # "alice/slack"
    config: ChannelConfig
    channel: Any
    destination: str
    interval: float


class _Stopped(Exception):
    """The run is stopping: raised by the pace a channel keeps before each post, not made."""


class _Pacer:
    """Keeps messages to one destination at least `interval` seconds apart, counted from the end
    of one post to the start of the next: however long a post takes to arrive, the server never
    sees two closer than that. Once the run is stopping, no post begins."""

    def __init__(
        self, interval: float, sleep: Callable[[float], None], stop: Callable[[], bool]
    ) -> None:
        self.interval, self.sleep, self.stop = interval, sleep, stop
        self.last: float | None = None
        self.posting = False  # wait() was called for a post that done() has not closed

    def wait(self) -> None:
        if self.posting:  # the next part of one message: the previous part has just ended
            self.last = time.monotonic()
        if self.interval and self.last is not None and not self.stop():
            delay = self.last + self.interval - time.monotonic()
            if delay > 0:
                self.sleep(delay)  # deadline.pause: a SIGTERM ends it
        if self.stop():  # woken by it, the next post had gone out at once, unpaced
            raise _Stopped
        self.posting = True

    def done(self) -> None:
        """The send that paced itself has returned (delivered or failed)."""
        if self.posting:
            self.last = time.monotonic()
        self.posting = False


class _Run:
    """One deliver() call: the store behind a lock (workers share it), the clock, the outcome."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        now: datetime,
        rand: Callable[[], float],
        sleep: Callable[[float], None],
    ) -> None:
        self.store, self.settings, self.now = store, settings, now
        self.rand, self.sleep = rand, sleep
        self.stop: Callable[[], bool] = lambda: False
        self.max_attempts = int(settings.delivery.get("max_attempts", MAX_ATTEMPTS))
        self.concurrency = int(settings.delivery.get("concurrency", CONCURRENCY))
        self.smtp_connections = int(settings.delivery.get("smtp_connections") or SMTP_CONNECTIONS)
        self.max_wait = float(settings.delivery.get("max_wait", MAX_WAIT))
        self.wait_cap = min(self.max_wait, WAIT_CAP)
        self.started = time.monotonic()
        self.lock = threading.Lock()  # the store's: its one connection, one thread at a time
        self.tally = threading.Lock()  # the outcome's: a send need not wait for a commit
        self.marks = Marks(store, self.lock, self.clock)
        self.outcome = Outcome()
        self.recipients = Recipients(settings, store.web, email.recipients)

    def clock(self) -> datetime:
        return self.now + timedelta(seconds=time.monotonic() - self.started)

    def prepare(self, row: OutboxRow, registry: Mapping[str, Callable[..., Any]]) -> _Job | None:
        label = f"{row.subscriber}/{row.channel}"
        with self.lock:  # a reused name's holders are read from the state (the first row's call)
            config, why = self.recipients(row)
        job = _Job(row, label, ChannelConfig(row.kind, row.channel), None, label, 0.0)
        if config is None:
            # Several workers: one not yet restarted on a new config claimed the new channel's
            # rows and made them dead at once. It leaves them to the others for a day.
            if self.store.shared and row.created_at > stamp(self.now - LEFT_FOR_OTHERS):
                log.info("%s: not in this worker's config; left to the other workers", label)
                return None
            self.failed(job, why, retryable=False)
            return None
        try:
            channel = registry[config.kind](config, self.settings)
        except DeliveryError as exc:
            self.failed(job, str(exc), exc.retryable)
            return None
        except Exception as exc:  # a broken channel must not stop the others
            self.failed(job, f"cannot set up the channel: {type(exc).__name__}: {exc}", True)
            return None
        destination = str(getattr(channel, "destination", label))
        self.marks.labels[row.id] = (label, row.kind)  # named if its mark cannot be written
        return _Job(row, label, config, channel, destination, getattr(channel, "interval", 0.0))

    def round(self, rows: list[OutboxRow], registry: Mapping[str, Callable[..., Any]]) -> None:
        """Send these rows, each destination's in order, then commit every mark."""
        groups: dict[str, list[_Job]] = {}
        for row in rows:
            if (job := self.prepare(row, registry)) is not None:
                groups.setdefault(job.destination, []).append(job)
        workers = min(self.concurrency, len(groups))
        with self.marks.ticking(self.stop), connections.kept(self.smtp_connections):
            if workers <= 1:
                for jobs in groups.values():
                    self.drain(jobs)
                return
            # The longest first (a paced webhook's hundred posts, a second apart): queued
            # behind hundreds of quick mails, it had waited minutes for a thread.
            order = sorted(groups.values(), key=lambda jobs: -jobs[0].interval * len(jobs))
            with ThreadPoolExecutor(workers, thread_name_prefix="deliver") as pool:
                for future in [pool.submit(self.drain, jobs) for jobs in order]:
                    future.result()

    def drain(self, jobs: list[_Job]) -> None:
        """One destination's rows, in order and at its pace; a long rate limit leaves the rest
        pending, untried, for a later run."""
        pacer = _Pacer(jobs[0].interval, self.sleep, self.stop)
        budget = self.max_wait
        for job in jobs:
            if self.stop():
                log.info("%s: left for the next run (stopping)", job.label)
                continue
            if self.marks.held_back(job.row.id):  # a send now could not be recorded
                continue
            if budget < 0:
                log.info("%s: left for a later run (the destination is rate limited)", job.label)
                continue
            try:
                budget = self.send(job, pacer, budget)
            except (StateAway, StateLost) as exc:  # the server away: held back with the rest
                self.marks.refused(exc, job.row.id)
            except DigestError:  # the state database's: the run cannot record anything
                raise
            except Exception as exc:
                # A fault in one delivery's own bookkeeping (not the channel's, which send()
                # catches) must not end the run nor stop the destination's other rows.
                pacer.done()
                self.broken(job, exc)
            finally:
                self.marks.sending(job.row.id, False)

    def broken(self, job: _Job, exc: Exception) -> None:
        reason = f"unexpected {type(exc).__name__}: {exc}"
        log.error("%s: delivery failed (%s)", job.label, reason)
        log.debug("%s: the fault's traceback", job.label, exc_info=exc)
        try:
            self.failed(job, reason, retryable=True)
        except DigestError:
            raise
        except Exception as fault:  # not even that could be recorded: the row stays as it was
            log.error("%s: the failure could not be recorded (%r)", job.label, fault)
            with self.tally:
                self.outcome.retrying.append(
                    f"{job.label}: {shortened(redact(reason, self.settings.secrets))}"
                )

    def send(self, job: _Job, pacer: _Pacer, budget: float) -> float:
        row = job.row
        message: Message | None = None
        parts = [row.parts_sent]
        # At most once (Slack, hookshot), each part is claimed before its post: which claimed
        # parts got no answer (from earlier tries, and the one on the wire), so that a receipt
        # names only those. A part is confirmed as soon as the server took it.
        at_most_once = bool(getattr(job.channel, "at_most_once", False))
        unsure, claimed = set(row.unconfirmed), set[int]()

        def progress(count: int) -> None:
            kept = None
            if at_most_once:
                if count > parts[0]:  # a claim: the one before it, if claimed here, arrived
                    if parts[0] in claimed:
                        unsure.discard(parts[0])
                    kept = (parts[0], tuple(sorted(unsure)))  # if this claim is not committed
                    unsure.add(count)
                    claimed.add(count)
                else:  # given back (refused, or never left), or confirmed (count unchanged)
                    unsure.discard(parts[0])
                    if count in claimed:
                        unsure.discard(count)
                    kept = (count, tuple(sorted(unsure))) if count == parts[0] else None
            # The claim is conditional on holding the row, and renews its lease.
            claim = tuple(sorted(unsure)) if at_most_once else None
            if not self.marks.claim(row.id, count, claim, kept):
                raise TakenOver
            parts[0] = count

        while True:
            # Before every try: is the row still this worker's (taken over since, on PostgreSQL)?
            with self.lock:
                mine = self.store.renew(row.id, self.clock())
                if mine and message is None:  # loaded now, one at a time: the claim left it out
                    message = self.store.message(row.id)
            if not mine or message is None:
                log.info("%s: taken over, paused by its reader, or gone; not sent here", job.label)
                return budget
            self.marks.sending(row.id, True)
            delivery = Resumed(
                owed=row.owed,
                unconfirmed=tuple(sorted(unsure)),
                id=row.id,
                subscriber=row.subscriber,
                period=row.period,
                day=row.day,
                channel=job.config,
                message=message,
                attempts=row.attempts,
                parts_sent=parts[0],
                purpose=row.purpose,
                progress=progress,
                pace=pacer.wait,
                made=row.created_at,
                token=row.token,
            )
            try:
                receipt = job.channel.send(delivery)
            except TakenOver:
                pacer.done()
                log.warning("%s: taken over by another worker; not sent on here", job.label)
                return budget
            except DeliveryError as exc:
                pacer.done()
                wait = bounded_wait(exc.retry_after)  # never past RETRY_AFTER_CEILING
                in_run = wait is not None and wait <= budget and wait <= self.wait_cap
                if exc.retryable and in_run:
                    assert wait is not None
                    log.info("%s: rate limited; waiting %.1f s as the server asks", job.label, wait)
                    if not self.stop():
                        self.sleep(wait)  # deadline.pause: a SIGTERM ends it
                    if self.stop():
                        # Not after a wait of up to WAIT_CAP (past Docker's 10 s): the refused
                        # part is given back, the row stays due, no attempt counted.
                        log.info("%s: left for the next run (stopping)", job.label)
                        return budget
                    budget -= max(wait, 1.0)  # at least a second each, so this loop must end
                    continue
                owed = exc.owed if isinstance(exc, Owed) else None
                # A try that got parts confirmed (a big digest paced by a rate limit) or mail to
                # recipients (Owed) is no failed attempt: eight such made it dead. A claimed part
                # unanswered (a 504) is no progress: in an outage all went at the first backoff.
                confirmed = parts[0] - (at_most_once and parts[0] in unsure)
                further = exc.retryable and (confirmed > row.parts_sent or owed is not None)
                self.failed(job, str(exc), exc.retryable, wait, owed, counted=not further)
                return -1.0 if wait is not None and exc.retryable else budget
            except _Stopped:
                pacer.done()
                if at_most_once and parts[0] in claimed and parts[0] in unsure:
                    # The channel went on to the next part: the one claimed before was answered.
                    unsure.discard(parts[0])
                    self.marks.claim(row.id, parts[0], tuple(sorted(unsure)))
                log.info("%s: left for the next run (stopping)", job.label)
                return budget
            except (StateError, StateBusy):  # a claim not written: no fault of the delivery's
                # (a claim that met a locked SQLite file had counted as a failed attempt)
                pacer.done()
                raise
            except Exception as exc:  # a broken channel must not stop the others
                pacer.done()
                self.failed(job, f"unexpected {type(exc).__name__}: {exc}", retryable=True)
                return budget
            pacer.done()
            detail = redact(receipt.detail, self.settings.secrets)
            with self.tally:  # sent, even if its mark must wait for the server (held back)
                self.outcome.sent.append(f"{job.label}: {detail}")
            # At most once (Slack, hookshot): a part the server confirmed is recorded at once,
            # never left in a batch a crash would lose (it would then look unanswered: dead).
            self.marks.mark_sent(row.id, detail, self.clock(), at_most_once)
            log.info("%s: delivered (%s)", job.label, detail)
            return budget

    def failed(
        self,
        job: _Job,
        error: str,
        retryable: bool,
        retry_after: float | None = None,
        owed: tuple[str, ...] | None = None,
        counted: bool = True,
    ) -> None:
        """Count a failed attempt (unless not `counted`): pending with a next try (never past
        MAX_BACKOFF from now), or dead; `owed`, the recipients still owed the message."""
        reason = shortened(redact(error, self.settings.secrets))
        attempts = job.row.attempts + counted
        wait = None
        if retryable and attempts < self.max_attempts:
            wait = backoff(attempts, retry_after, self.rand)
        with self.lock:
            next_try = None if wait is None else self.clock() + timedelta(seconds=wait)
            mine = self.store.mark_failed(job.row.id, reason, next_try, owed, counted)
        if not mine:  # another worker has it now: its outcome is that worker's to record
            log.warning("%s: %s; taken over by another worker meanwhile", job.label, reason)
            return
        with self.tally:
            listed = self.outcome.dead if wait is None else self.outcome.retrying
            listed.append(f"{job.label}: {reason}")
        if wait is None:
            log.error("%s: delivery is dead after %d attempt(s): %s", job.label, attempts, reason)
        else:
            what = f"attempt {attempts} failed" if counted else "got further, then stopped"
            log.warning("%s: %s (%s); next try in %.0f s", job.label, what, reason, wait)
