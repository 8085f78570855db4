"""The only module that wires the stages together: ingest, rank, render, record, deliver.

run_once() is one whole cycle on one clock; preview() (preview.py) is its read-only cousin.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from digest import alerts, library, quiet
from digest.intake import SourceReport, ingest
from digest.models import Digest, DigestError, Message, Settings, Subscriber, redact
from digest.outbox import Outcome, deliver
from digest.periods import behind, covered, period_start
from digest.preview import MADE, verdict
from digest.preview import preview as preview  # `digest preview` calls it here
from digest.state import Store, lineage
from digest.web import clicks, replies
from digest.web.tokens import links_in

log = logging.getLogger("digest.pipeline")
WAITING = "waiting for liked papers"


@dataclass
class SubscriberReport:
    name: str
    period: str
    # made | already made | nothing new | no match | alerted (what matched went out as alerts)
    # | waiting for sources | waiting for liked papers | clock behind | given meanwhile
    # | alerted meanwhile
    status: str
    picked: int = 0
    top_score: float | None = None
    notified: bool = False  # a quiet period's one-line notice was recorded (on_empty = "notify")
    held: int = 0  # held alerts the digest carried, ahead of its picks, not counted in `picked`


@dataclass
class RunReport:
    now: datetime
    sources: list[SourceReport] = field(default_factory=list)
    subscribers: list[SubscriberReport] = field(default_factory=list)
    outcome: Outcome = field(default_factory=Outcome)
    alerts: list[alerts.AlertReport] = field(default_factory=list)
    pending: int = 0  # in the whole outbox after this run, older rows included
    dead: int = 0

    @property
    def exit_code(self) -> int:
        """0 all delivered; 1 something needs attention (a delivery, a source or a lookup of liked
        papers failed, the clock is behind a digest made before)."""
        failed_source = any(s.error for s in self.sources)
        held_up = any(s.status in {"clock behind", WAITING} for s in self.subscribers)
        return 1 if self.pending or self.dead or failed_source or held_up else 0

    def summary(self) -> dict[str, Any]:
        return {
            "papers": {
                "read": sum(s.read for s in self.sources),
                "skipped": sum(s.skipped for s in self.sources),
                "new": sum(s.new for s in self.sources),
            },
            "sources": {
                s.name: {
                    "read": s.read,
                    "skipped": s.skipped,
                    "new": s.new,
                    "error": s.error,
                    "seconds": s.seconds,
                }
                for s in self.sources
            },
            "subscribers": {
                s.name: {
                    "period": s.period,
                    "status": s.status,
                    "picked": s.picked,
                    "top_score": s.top_score,
                    "held": s.held,
                    "notified": s.notified,
                }
                for s in self.subscribers
            },
            "alerts": {a.subscriber: {"made": a.made, "held": a.held} for a in self.alerts},
            "deliveries": {
                "sent": len(self.outcome.sent),
                "retrying": len(self.outcome.retrying),
                "dead": len(self.outcome.dead),
                "pending_total": self.pending,
                "dead_total": self.dead,
            },
        }


def run_once(
    settings: Settings,
    store: Store,
    now: datetime,
    *,
    channels: Mapping[str, type] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> RunReport:
    """One whole cycle on the clock `now`. When stop() (serve got SIGTERM) holds before the
    deliveries, they are left pending for the next run: recorded work is never lost."""
    waiting: set[str] = set()
    subscribers = library.with_libraries(
        settings.subscribers, cache=store.papers, sources=settings.sources, now=now, waiting=waiting
    )
    run_id = store.start_run(datetime.now().astimezone(), now)
    try:
        return _cycle(settings, store, now, subscribers, run_id, channels, stop, waiting)
    except DigestError as exc:
        _record_failure(store, run_id, redact(str(exc), settings.secrets))
        raise
    except Exception as exc:  # a bug: the run is still marked failed, not left "running"
        reason = f"unexpected {type(exc).__name__}: {exc}"
        _record_failure(store, run_id, redact(reason, settings.secrets))
        raise


def _record_failure(store: Store, run_id: int, error: str) -> None:
    """Mark the run failed with its one-line error, so that `digest status` does not take it for
    a killed process; best effort, since the error may be the state database's own."""
    try:
        store.finish_run(run_id, datetime.now().astimezone(), "failed", {"error": error})
    except DigestError:
        pass


def _cycle(
    settings: Settings,
    store: Store,
    now: datetime,
    subscribers: Sequence[Subscriber],
    run_id: int,
    channels: Mapping[str, type] | None,
    stop: Callable[[], bool],
    waiting: set[str],
) -> RunReport:
    report = RunReport(now=now)
    report.sources, _ = ingest(settings, store, now)
    if stop() and any(s.error for s in report.sources):  # a SIGTERM cut a read short: no digest
        # of half the reads, nor a "could not read" notice; the papers kept are the next run's
        log.info("stopping: no digest made from this run's reads; the next run reads again")
        store.finish_run(run_id, datetime.now().astimezone(), "attention", report.summary())
        return report
    store.journal.record_sources(run_id, now, report.summary()["sources"])
    # The ratings after the sources (a slow feed takes minutes): a vote given meanwhile counts
    # in this digest, as its page says. Votes replied in Matrix rooms since the last run too.
    replies.read(settings, store, now)
    from digest import corpus  # numpy: not for commands that never rank

    subscribers = corpus.rated(settings, store, subscribers)
    # Nothing new while a source failed is no quiet day: the period waits for that source (a
    # main feed down beside a minor one that answered had closed the day as "no new papers").
    failed = [s.name for s in report.sources if s.error]
    report.subscribers = make_digests(
        settings, store, subscribers, now, bool(failed), failed, waiting
    )
    # After the digests: a paper in a digest made just now needs no alert. A profile without
    # its liked papers waits for them: its alert pass would mark papers looked at.
    report.alerts = alerts.make_alerts(settings, store, subscribers, now, waiting)
    if stop():
        log.info("stopping: this run's deliveries are left pending for the next run")
    else:
        with suppress(DigestError):  # still locked: a face writes them, this run holds none
            clicks.settle(store)  # an unsubscribe a web face kept while the state was locked
        report.outcome = deliver(store, settings, now, channels=channels, stop=stop)
    counts = store.outbox_counts()
    # A row leased to a process of this machine that has ended is owed, not in flight, as
    # `digest status` counts it: a run had said "0 pending", exit 0, with 65 such rows (ops21 F2).
    stalled = sum(gone for _, _, gone in store.in_flight(now).values())
    report.pending, report.dead = counts.get("pending", 0) + stalled, counts.get("dead", 0)
    outcome = "ok" if report.exit_code == 0 else "attention"
    store.finish_run(run_id, datetime.now().astimezone(), outcome, report.summary())
    return report


def make_digests(
    settings: Settings,
    store: Store,
    subscribers: Sequence[Subscriber],
    now: datetime,
    sources_down: bool,
    failed: Sequence[str] = (),
    waiting: Collection[str] = (),
) -> list[SubscriberReport]:
    """Make and record (not send) the digest of every subscriber whose period has none yet.
    A subscriber in `waiting` (its liked papers could not be looked up) keeps its period open:
    ranked without them, the papers it would have liked would be passed over for good."""
    # A renamed reader is one reader: dana1 had been mailed dana's period again (ops28 F2).
    own = alerts.history(settings, store, subscribers)
    reports, due = _due(own, subscribers, now, waiting)
    if not due:
        return reports
    due_now = [sub for sub, _ in due]
    # Every alert match these digests are the first to see is held for them, then the held
    # alerts go in, the best HELD_MOST, not counted against top_k (the rest: candidates as any).
    alerts.hold_for_digest(settings, store, due_now, now, own, subscribers)
    held = {sub.name: store.journal.holds(sub.name) for sub in due_now}
    was = {name: {h.scored.paper.id for h in holds} for name, holds in held.items()}
    floors = {sub.name: own.considered_through(sub.name) for sub, _ in due}
    # Asked of the alerts themselves: an alert pass cut short after its first alert (a locked
    # database, a killed process) has not set the subscriber's alert mark yet.
    announced = {sub.name: own.alerted_after(sub.name, floors[sub.name]) for sub, _ in due}
    from digest import corpus

    # A library's paper as the store knows it: under an id its record in the library lacks (the
    # DOI its arXiv record named), which the stored paper, read without its keys, cannot show.
    owned = {sub.name: store.papers.owners(sub.profile.library, sub.likes) for sub in due_now}
    news: set[str] = set()  # readers with a paper to rank beside the held alerts past the most

    def gone(sub: Subscriber, ids: set[str]) -> set[str]:
        """Papers given before (a digest came first), announced by an alert, carried as held
        alerts (their own section), or the reader's own are left out of the ranked picks."""
        taken = (  # a renamed or reused name: given under it before its reader's first digest
            own.sent_ids(sub.name, ids) if floors[sub.name] or sub.name in own.earlier else set()
        )
        if announced[sub.name]:
            taken |= own.alerted_ids(sub.name, ids)
        out = taken | (({h.scored.paper.id for h in carrying[sub.name]} | owned[sub.name]) & ids)
        if not ids <= out | (past[sub.name] & ids):  # held alerts alone wait out a source down
            news.add(sub.name)
        return out

    # The space first: a refit reads every stored paper's text, which need not sit in memory
    # beside the new papers it is fitted for (at a million papers, gigabytes each).
    space = corpus.ranking_space(store, subscribers, now)  # everyone's words, due or not
    held.update(alerts.standing(due_now, held, space, subscribers))  # as the readers stand now
    held = alerts.kept(held, owned, own)  # the reader's own papers, or given, are no alerts
    carrying, past = alerts.carry(held)
    ranked = corpus.rank_stored(store, due_now, floors, space, gone, everyone=subscribers)
    picks, through = ranked.picks, ranked.through
    env = None
    for sub, start in due:
        items, carried = picks.get(sub.name, []), carrying[sub.name]
        left = alerts.left_out(held[sub.name], carried, items)
        period = start.isoformat()
        # One rule with the preview's (preview.verdict): it had shown a digest of held alerts
        # while the run, with a source down, waited for it (reg50 F1).
        shown, told = bool(items or carried), bool(announced[sub.name])
        status = verdict(sub.name in news, shown, sources_down, told)
        if status == "waiting for sources":  # nothing could be read: the period stays open
            day = start.date()
            told = quiet.notify_down(settings, store, sub, period, day, now, failed, own)
            reports.append(SubscriberReport(sub.name, period, status, notified=told))
            continue
        digest = Digest(sub.name, period, start.date(), tuple(items), now, carried, left)
        messages: list[tuple[str, str, Message]] = []
        message: Message | None = None
        if status == MADE:
            from digest import render

            env = env or render.make_environment(settings.templates)
            message = render.render_digest(digest, env, links_in(settings, store, sub, now))
        elif sub.on_empty == "notify":
            message = quiet.notice(settings, sub, status, start.date(), failed, now, store)
        if message is not None:
            messages = [(channel.name, channel.kind, message) for channel in sub.channels]
        purpose = "digest" if status == MADE else "notice"
        seq = max(through, floors[sub.name])
        made = store.record_digest(digest, seq, messages, purpose, own.earlier.get(sub.name, ()))
        if isinstance(made, int):  # a hold this digest did not carry is over (excluded, no rule)
            store.journal.drop_holds(sub.name, was[sub.name] - {h.scored.paper.id for h in carried})
        else:
            status = made
        top = max((s.score for s in items), default=None)  # the latent order is not the score's
        told = isinstance(made, int) and purpose == "notice" and bool(messages)
        reports.append(
            SubscriberReport(sub.name, period, status, len(items), top, told, len(carried))
        )
        counts = f"{len(items)} picked, {len(carried)} held alerts"
        log.info("%s: %s for %s (%s)", sub.name, status, period, counts)
    return reports


def _due(
    own: lineage.History,
    subscribers: Sequence[Subscriber],
    now: datetime,
    waiting: Collection[str] = (),
) -> tuple[list[SubscriberReport], list[tuple[Subscriber, datetime]]]:
    """(the reports of the subscribers with no digest to make now, the others with the start of
    their period); `own`: each reader's digests, its earlier names' with them (lineage.py)."""
    reports: list[SubscriberReport] = []
    due: list[tuple[Subscriber, datetime]] = []
    for sub in subscribers:
        start = period_start(sub.schedule, sub.timezone, now) or now.astimezone(
            ZoneInfo(sub.timezone)
        )
        last = own.last_digest(sub.name)
        if behind(None if last is None else last[0], now):
            # The clock stepped back (a machine booting before NTP, a --now in the past): a
            # digest now would come out of order, and "already made" would hide the clock.
            reports.append(SubscriberReport(sub.name, start.isoformat(), "clock behind"))
        elif own.has_digest(sub.name, start.isoformat()):
            reports.append(SubscriberReport(sub.name, start.isoformat(), "already made"))
        elif covered(start, last):
            # A new schedule or time zone's period the last digest covered: the next fire opens one.
            reports.append(SubscriberReport(sub.name, start.isoformat(), "already made"))
        elif sub.name in waiting:
            reports.append(SubscriberReport(sub.name, start.isoformat(), WAITING))
        else:
            due.append((sub, start))
    return reports, due
