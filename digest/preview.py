"""`digest preview`: the digest a run now would make for one subscriber, changing no state; and
verdict(), the one rule by which a due period's run, and so its preview, makes a digest or not."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from digest import alerts, library, quiet
from digest.intake import ingest, seen_replacements
from digest.models import Digest, Held, InputError, Message, Paper, Settings, Subscriber, evidence
from digest.periods import behind, covered, next_fire, period_start
from digest.state import Store, lineage
from digest.web.tokens import links_in

log = logging.getLogger("digest.pipeline")
MADE = "made"
# (the papers a run now would rank, those of them it would store as new, the sources unread)
Pool = tuple[list[Paper], list[Paper], list[str]]


def verdict(news: bool, shown: bool, down: bool, told: bool) -> str:
    """What a due period's run does: `news`, a paper to rank beside the held alerts it carries
    (those past the most count as held here); `shown`, picks or held alerts to send; `down`, a
    source failed; `told`, alerts went out since the last digest. Nothing new while a source is
    down waits for it, held alerts too (alone, they made a digest that hid the failure)."""
    if not news and down:
        return "waiting for sources"
    if shown:
        return MADE
    return "alerted" if told else "no match" if news else "nothing new"


def preview(settings: Settings, store: Store, name: str, now: datetime) -> Message | str:
    """Render the digest the subscriber would get now, changing no state; of a quiet period, its
    notice, or the line saying that nothing would be sent."""
    subscriber = next((s for s in settings.subscribers if s.name == name), None)
    if subscriber is None:
        known = ", ".join(s.name for s in settings.subscribers)
        raise InputError(f"no subscriber named {name!r} in {settings.path}; known: {known}")
    waiting: set[str] = set()
    cache = library.Unwritten(store.papers)
    (subscriber,) = library.with_libraries(
        [subscriber], cache=cache, sources=settings.sources, now=now, waiting=waiting
    )
    if waiting:  # as the run: no digest ranked without the liked papers
        return f"{name}: waiting for liked papers: a run now makes no digest (the lookup failed)"
    from digest import corpus  # numpy: not for commands that never rank

    (subscriber,) = corpus.rated(settings, store, [subscriber])
    # The reader's records and its earlier names', as the run reads them: the preview had read
    # the name alone, so a renamed reader was previewed the papers mailed to her old name, in a
    # period the run says is made, and a reused name's newcomer her floor (reg53 F1).
    own = alerts.history(settings, store, [subscriber])
    last = own.last_digest(name)
    if last is not None and behind(last[0], now):  # as the run: nothing made now comes in order
        return f"{name}: clock behind: a run now makes no digest (the last is of {last[0]})"
    pool, new, failed = _pool(settings, store, own, name, now)
    return _foresee(settings, store, own, subscriber, now, (pool, new, failed))


def _pool(settings: Settings, store: Store, own: lineage.History, name: str, now: datetime) -> Pool:
    """(the papers a run now would rank for `name`, those of them it would store as new, the
    sources that could not be read)."""
    sources, fetched = ingest(settings, None, now)
    failed = [s.name for s in sources if s.error]
    fetched = seen_replacements(fetched, store, "preview")
    fetched = store.papers.canonical(fetched)  # a paper known under another key is that paper
    stored = [paper for _, paper in store.papers_after(own.considered_through(name))]
    # Stored before the last digest, a paper was considered then: no news now, as for the run.
    recent = {paper.id for paper in stored}
    new = [p for p in fetched if p.id not in recent and store.papers.paper(p.id) is None]
    fetched = [p for p in fetched if p.id in recent] + new
    return evidence.dedupe(stored + fetched), new, failed


def _foresee(
    settings: Settings,
    store: Store,
    own: lineage.History,
    subscriber: Subscriber,
    now: datetime,
    read: Pool,
) -> Message | str:
    """What a run now does with this pool: alerts first, then the digest or the period's wait;
    `own`: the reader's records, its earlier names' with them, as the run reads them."""
    from digest import corpus, render

    pool, new, failed = read
    name, ids = subscriber.name, [p.id for p in pool]
    # The run's space (fitted, unsaved, when the new papers make it stale) and held alerts.
    everyone = _everyone(settings, store, subscriber, now) if pool else []
    space = corpus.foreseen_space(store, everyone, new) if pool else None
    owned = store.papers.owners(subscriber.profile.library, subscriber.likes)  # as the run
    stored = store.journal.holds(name)
    standing = alerts.standing([subscriber], {name: stored}, space, everyone)
    held = alerts.kept(standing, {name: owned}, own)[name]  # as the run: given under a name, gone
    allowed = {name: set(ids) - own.sent_ids(name, ids) - own.alerted_ids(name, ids)}
    allowed[name] -= owned | {h.scored.paper.id for h in held}
    start = period_start(subscriber.schedule, subscriber.timezone, now) or now
    # A new schedule's period that the last digest covered opens none, as for the run: its
    # preview had shown a digest no run makes (periods.covered).
    made = own.has_digest(name, start.isoformat()) or covered(start, own.last_digest(name))
    # A run now sends or holds alert matches first; after this period's digest, the next.
    ranks = {"space": space, "everyone": everyone}
    every = _rank(pool, [subscriber], allowed=allowed, top_k=alerts.ALL, thresholds=False, **ranks)
    alerted, holding = alerts.foreseen(store, subscriber, every.get(name, []), now, made, own)
    allowed[name] -= alerted | {h.scored.paper.id for h in holding}
    # What is left is what the run calls news: a paper beside the held alerts, which it ranks
    # even with a source down. A preview had asked that only when it had nothing to show, so
    # held alerts alone rendered a digest while the run waited for the source (reg50 F1).
    news = bool(allowed[name])
    held = _as_read_back(stored, held, holding, pool)
    carried = alerts.most(held)  # as the run: the held alerts past those are candidates again
    allowed[name] |= alerts.beyond(held, carried) & set(ids)
    items = _rank(pool, [subscriber], allowed=allowed, **ranks).get(name, [])
    if made:
        start = next_fire(subscriber.schedule, subscriber.timezone, now) or start
        log.info("%s: this period's digest is made; the next one, if no more papers came", name)
    told = bool(alerted) or bool(own.alerted_after(name, own.considered_through(name)))
    status = verdict(news, bool(items or carried), bool(failed), told)
    if status != MADE:  # a quiet period, or one waiting: a run sends its notice, or nothing
        # A waiting period's notice goes once per reader (quiet.notify_down): the preview had
        # shown it on; said as its rows stand (a pending one goes with a run's delivery).
        notices = own.told(name, start.isoformat())
        if status == "waiting for sources" and subscriber.on_empty == "notify" and notices:
            return _told(name, start.date().isoformat(), notices)
        if subscriber.on_empty == "notify":
            return quiet.notice(settings, subscriber, status, start.date(), failed, now)
        line = quiet.quiet_line(status, failed)  # the sources that failed named, as a notice's
        day = start.date()
        return f'{name}: nothing would be sent for the digest of {day} (on_empty = "skip"): {line}'
    left = alerts.left_out(held, carried, items)
    digest = Digest(name, start.isoformat(), start.date(), tuple(items), now, carried, left)
    links = links_in(settings, store, subscriber, now)  # as the real digest will have them
    return render.render_digest(digest, render.make_environment(settings.templates), links)


def _everyone(
    settings: Settings, store: Store, subscriber: Subscriber, now: datetime
) -> list[Subscriber]:
    """Every reader of the config, as the run's space is theirs (corpus.ranking_space): this one
    as previewed, the others with their libraries as a run has read them (their liked ids that
    no run has looked up yet are not looked up here)."""
    from digest import corpus

    others = [s for s in settings.subscribers if s.name != subscriber.name]
    cache = library.Unwritten(store.papers)
    read = library.with_libraries(others, cache=cache, now=now, lookup=False)
    them = {s.name: s for s in corpus.rated(settings, store, read)}  # as the run: rated
    return [them.get(s.name, subscriber) for s in settings.subscribers]


def _as_read_back(
    stored: Sequence[Held],
    standing: Sequence[Held],
    holding: Sequence[Held],
    pool: Sequence[Paper],
) -> list[Held]:
    """The held alerts in the order the run reads them back (alert_holds: by the score held with,
    then as stored): the new ones had followed the old in the ranking's order of ties, an id's,
    so the preview's held alerts of one score came in another order than the run's."""
    score = {h.scored.paper.id: h.scored.score for h in stored}
    seq = {p.id: i for i, p in enumerate(pool)}  # as the run stores them: in the order read
    new = sorted(holding, key=lambda h: (-h.scored.score, seq.get(h.scored.paper.id, 0)))
    return sorted([*standing, *new], key=lambda h: -score.get(h.scored.paper.id, h.scored.score))


def _rank(
    papers: Sequence[Paper], subscribers: Sequence[Subscriber], **options: Any
) -> dict[str, list[Any]]:
    if not papers or not subscribers:
        return {}
    # Imported here so that commands which never rank (--help, validate) skip scikit-learn.
    from digest import ranking

    return ranking.rank(papers, subscribers, **options)


def _told(name: str, day: str, statuses: set[str]) -> str:
    """The preview of a waiting period whose notice a run recorded already, as its rows stand."""
    if statuses == {"sent"}:
        return (
            f"{name}: nothing would be sent for the digest of {day}: the notice that a source"
            " could not be read went out already; the period waits for its sources"
        )
    then = (
        "a run now tries it again (`digest status` says when)"
        if "pending" in statuses
        else "it could not be delivered: `digest retry` sends it again"
    )
    return (
        f"{name}: nothing new would be recorded for the digest of {day}: its notice that a"
        f" source could not be read is recorded, not yet delivered; {then}; the period waits"
        " for its sources"
    )
