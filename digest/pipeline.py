"""The only module that wires the stages together: ingest, rank, render, record, deliver.

run_once() is one whole cycle on one clock; preview() and rank_files() are its read-only cousins.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from digest import library
from digest.models import Digest, InputError, Message, Paper, Settings, SourceError, Subscriber
from digest.outbox import Outcome, deliver
from digest.sources import SOURCES
from digest.sources.files import read_papers
from digest.store import Store

log = logging.getLogger("digest.pipeline")


@dataclass
class SourceReport:
    name: str
    read: int = 0
    skipped: int = 0
    new: int = 0
    error: str = ""


@dataclass
class SubscriberReport:
    name: str
    period: str
    status: str  # made | already made | nothing new | no match | waiting for sources
    picked: int = 0
    top_score: float | None = None


@dataclass
class RunReport:
    now: datetime
    sources: list[SourceReport] = field(default_factory=list)
    subscribers: list[SubscriberReport] = field(default_factory=list)
    outcome: Outcome = field(default_factory=Outcome)
    pending: int = 0  # in the whole outbox after this run, older rows included
    dead: int = 0

    @property
    def exit_code(self) -> int:
        """0 all delivered; 1 something needs attention (a delivery or a source failed)."""
        failed_source = any(s.error for s in self.sources)
        return 1 if self.pending or self.dead or failed_source else 0

    def summary(self) -> dict[str, Any]:
        return {
            "papers": {
                "read": sum(s.read for s in self.sources),
                "skipped": sum(s.skipped for s in self.sources),
                "new": sum(s.new for s in self.sources),
            },
            "sources": {
                s.name: {"read": s.read, "skipped": s.skipped, "new": s.new, "error": s.error}
                for s in self.sources
            },
            "subscribers": {
                s.name: {
                    "period": s.period,
                    "status": s.status,
                    "picked": s.picked,
                    "top_score": s.top_score,
                }
                for s in self.subscribers
            },
            "deliveries": {
                "sent": len(self.outcome.sent),
                "retrying": len(self.outcome.retrying),
                "dead": len(self.outcome.dead),
                "pending_total": self.pending,
                "dead_total": self.dead,
            },
        }


def period_start(schedule: str, timezone: str, now: datetime) -> datetime | None:
    """The latest fire time of the schedule at or before now, in its zone (None: never fired)."""
    from apscheduler.triggers.cron import CronTrigger

    zone = ZoneInfo(timezone)
    trigger = CronTrigger.from_crontab(schedule, timezone=zone)
    local = now.astimezone(zone)
    span = timedelta(hours=1)
    # Widen the window until it holds a fire time, then walk to the last one before now.
    while span <= timedelta(days=800):
        fire = trigger.get_next_fire_time(None, local - span)
        if fire is not None and fire <= local:
            while True:
                later = trigger.get_next_fire_time(fire, fire + timedelta(seconds=1))
                if later is None or later > local:
                    return fire
                fire = later
        span *= 2
    return None


def ingest(
    settings: Settings, store: Store | None, now: datetime
) -> tuple[list[SourceReport], list[Paper]]:
    """Read every source; keep the new papers in the store (when given). A failing source is
    reported and the others go on."""
    reports: list[SourceReport] = []
    papers: list[Paper] = []
    for source in settings.sources:
        report = SourceReport(source.name)
        reports.append(report)

        def warn(problem: str, report: SourceReport = report) -> None:
            report.skipped += 1
            log.warning("skipped %s", problem)

        try:
            batch = list(SOURCES[source.kind].fetch(source, warn))
        except SourceError as exc:
            report.error = str(exc)
            log.error("source %s failed: %s", source.name, exc)
            continue
        report.read = len(batch)
        if store is not None:
            report.new = store.add_papers(batch, now)
        papers.extend(batch)
        log.info(
            "source %s: %d read, %d skipped, %d new",
            source.name,
            report.read,
            report.skipped,
            report.new,
        )
    return reports, papers


def run_once(
    settings: Settings, store: Store, now: datetime, *, channels: Mapping[str, type] | None = None
) -> RunReport:
    subscribers = library.with_libraries(settings.subscribers)
    run_id = store.start_run(datetime.now().astimezone(), now)
    report = RunReport(now=now)
    report.sources, _ = ingest(settings, store, now)
    all_failed = bool(report.sources) and all(s.error for s in report.sources)
    report.subscribers = make_digests(settings, store, subscribers, now, all_failed)
    report.outcome = deliver(store, settings, now, channels=channels)
    counts = store.outbox_counts()
    report.pending, report.dead = counts.get("pending", 0), counts.get("dead", 0)
    outcome = "ok" if report.exit_code == 0 else "attention"
    store.finish_run(run_id, datetime.now().astimezone(), outcome, report.summary())
    return report


def make_digests(
    settings: Settings,
    store: Store,
    subscribers: Sequence[Subscriber],
    now: datetime,
    sources_down: bool,
) -> list[SubscriberReport]:
    """Make and record (not send) the digest of every subscriber whose period has none yet."""
    reports: list[SubscriberReport] = []
    due: list[tuple[Subscriber, datetime]] = []
    for sub in subscribers:
        start = period_start(sub.schedule, sub.timezone, now) or now.astimezone(
            ZoneInfo(sub.timezone)
        )
        if store.has_digest(sub.name, start.isoformat()):
            reports.append(SubscriberReport(sub.name, start.isoformat(), "already made"))
        else:
            due.append((sub, start))
    if not due:
        return reports
    floors = {sub.name: store.considered_through(sub.name) for sub, _ in due}
    rows = store.papers_after(min(floors.values()))
    papers = [paper for _, paper in rows]
    allowed: dict[str, set[str]] = {}
    for sub, _ in due:
        ids = [paper.id for seq, paper in rows if seq > floors[sub.name]]
        allowed[sub.name] = set(ids) - store.sent_ids(sub.name, ids)
    picks = _rank(papers, [sub for sub, _ in due], allowed=allowed)
    through = rows[-1][0] if rows else 0
    env = None
    for sub, start in due:
        items = picks.get(sub.name, [])
        period = start.isoformat()
        if not allowed[sub.name] and sources_down:
            # Nothing arrived because nothing could be read: keep the period open for a later run.
            reports.append(SubscriberReport(sub.name, period, "waiting for sources"))
            continue
        digest = Digest(sub.name, period, start.date(), tuple(items), now)
        messages: list[tuple[str, str, Message]] = []
        if items:
            from digest import render

            env = env or render.make_environment(settings.templates)
            message = render.render_digest(digest, env)
            messages = [(channel.name, channel.kind, message) for channel in sub.channels]
        made = store.record_digest(digest, max(through, floors[sub.name]), messages)
        status = "made" if items else ("no match" if allowed[sub.name] else "nothing new")
        if made is None:
            status = "already made"
        top = items[0].score if items else None
        reports.append(SubscriberReport(sub.name, period, status, len(items), top))
        log.info("%s: %s for %s (%d picked)", sub.name, status, period, len(items))
    return reports


def preview(settings: Settings, store: Store, name: str, now: datetime) -> Message:
    """Render the digest the subscriber would get now, changing no state."""
    subscriber = next((s for s in settings.subscribers if s.name == name), None)
    if subscriber is None:
        known = ", ".join(s.name for s in settings.subscribers)
        raise InputError(f"no subscriber named {name!r} in {settings.path}; known: {known}")
    (subscriber,) = library.with_libraries([subscriber])
    _, fetched = ingest(settings, None, now)
    stored = [paper for _, paper in store.papers_after(store.considered_through(name))]
    pool = list({p.id: p for p in stored + fetched}.values())
    allowed = {name: {p.id for p in pool} - store.sent_ids(name, (p.id for p in pool))}
    items = _rank(pool, [subscriber], allowed=allowed).get(name, [])
    start = period_start(subscriber.schedule, subscriber.timezone, now) or now
    from digest import render

    digest = Digest(name, start.isoformat(), start.date(), tuple(items), now)
    return render.render_digest(digest, render.make_environment(settings.templates))


def rank_files(
    settings: Settings, paths: Sequence[str], top: int
) -> dict[str, list[dict[str, Any]]]:
    """The `digest rank` contract: every paper for every subscriber, no state, no thresholds."""
    papers: dict[str, Paper] = {}
    for path in paths:
        for paper in read_papers(path, lambda problem: log.warning("skipped %s", problem)):
            papers.setdefault(paper.id, paper)
    subscribers = library.with_libraries(settings.subscribers)
    picks = _rank(list(papers.values()), subscribers, top_k=top, thresholds=False)
    return {
        sub.name: [
            {"id": s.paper.id, "score": round(s.score, 6), "terms": list(s.terms)}
            for s in picks.get(sub.name, [])
        ]
        for sub in subscribers
    }


def _rank(
    papers: Sequence[Paper], subscribers: Sequence[Subscriber], **options: Any
) -> dict[str, list[Any]]:
    if not papers or not subscribers:
        return {}
    # Imported here so that commands which never rank (--help, validate) skip scikit-learn.
    from digest import ranking

    return ranking.rank(papers, subscribers, **options)
