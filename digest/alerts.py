"""Alerts: a paper that cannot wait for the digest (a strong match, a followed author, an alert
keyword) goes out at once, once per subscriber and paper, max_alerts_per_day a local day; the next
digest leaves it out; and what a digest about to be made holds of them."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from digest import render
from digest.channels.email import recipients
from digest.models import Held, Paper, Scored, Settings, Subscriber
from digest.periods import behind
from digest.state import Store, lineage
from digest.state.pauses import mailing
from digest.web.tokens import links_in

if TYPE_CHECKING:
    import jinja2

log = logging.getLogger("digest.alerts")


@dataclass
class AlertReport:
    subscriber: str
    made: list[str] = field(default_factory=list)  # paper ids alerted in this run
    held: int = 0  # matches over the day's cap held by this pass: the next digest carries them


def watching(sub: Subscriber) -> bool:
    """Does this subscriber get alerts at all?"""
    wants = sub.alert_threshold is not None or sub.profile.authors or sub.alert_keywords
    return bool(wants) and sub.max_alerts_per_day > 0


def reasons(sub: Subscriber, scored: Scored) -> list[str]:
    """Why this paper cannot wait, one short sentence a reason; empty: it can wait."""
    from digest.ranking.followed import Followed
    from digest.ranking.rules import phrases_pattern

    why: list[str] = []
    if sub.alert_threshold is not None and scored.score >= sub.alert_threshold:
        why.append(f"score {scored.score:.2f} is at or above your alert threshold")
    # Matched as the ranking matches them: a followed "Mary Ma" is a paper's "Mary A. MA".
    followed = Followed(sub.profile.authors)
    names = [a for a in scored.paper.authors if followed and followed.follows(a)]
    if names:
        why.append(f"by {', '.join(names)}, whom you follow")
    text = f"{scored.paper.title}\n{scored.paper.abstract}"
    # One search for them all first: most papers name none (100 keywords, a pattern each built
    # for every paper, took 104 s over 5,000 papers).
    every = phrases_pattern(tuple(sub.alert_keywords))
    if every is not None and every.search(text):
        for phrase in sub.alert_keywords:
            pattern = phrases_pattern((phrase,))  # whole words or phrases, plurals included
            if pattern is not None and pattern.search(text):
                why.append(f"mentions “{phrase}”")
    return why


ALL = 1 << 62  # top_k: every paper, ranked
# A pool too large to hold (over LARGE_POOL new papers at once) keeps per subscriber at least
# this many best matches and this many by a followed author or naming a keyword: what can be held.
HOLD_KEEP = 100
# The most held alerts a digest carries, the best by score: a monthly digest of a broad alert
# rule carried thousands (4 KB each), past a relay's 10 MB, and the whole digest went dead.
HELD_MOST = 100


def most(held: Sequence[Held]) -> tuple[Held, ...]:
    """The held alerts a digest carries: all, or the best HELD_MOST by score, in their order."""
    if len(held) <= HELD_MOST:
        return tuple(held)
    best = sorted(range(len(held)), key=lambda i: -held[i].scored.score)[:HELD_MOST]
    return tuple(held[i] for i in sorted(best))


def beyond(held: Sequence[Held], carried: Sequence[Held]) -> set[str]:
    """The held alerts past the HELD_MOST a digest carries: ordinary candidates of its ranked
    picks. They had been kept out of the picks too, and past 100 a keyword's matches were never
    delivered, though top_k had room (chan1 F1)."""
    return {h.scored.paper.id for h in held} - {h.scored.paper.id for h in carried}


def carry(
    held: Mapping[str, Sequence[Held]],
) -> tuple[dict[str, tuple[Held, ...]], dict[str, set[str]]]:
    """Per reader, the held alerts its digest carries (most()) and the ids past them (beyond())."""
    carried = {name: most(holds) for name, holds in held.items()}
    return carried, {name: beyond(held[name], carried[name]) for name in held}


def left_out(held: Sequence[Held], carried: Sequence[Held], picks: Sequence[Scored]) -> int:
    """How many held alerts a digest leaves out: past those it carries, not among its picks."""
    return len(beyond(held, carried) - {s.paper.id for s in picks})


def _urgent(sub: Subscriber) -> Callable[[Paper], bool] | None:
    """The papers an alert is for whatever their score: by a followed author, or naming an
    alert keyword (None: the subscriber has neither)."""
    from digest.ranking.followed import Followed
    from digest.ranking.rules import exclude_pattern

    followed = Followed(sub.profile.authors)  # remembers the pool's names: one for the pass
    pattern = exclude_pattern(list(sub.alert_keywords))
    if not followed and pattern is None:
        return None

    def urgent(paper: Paper) -> bool:
        if followed and any(followed.follows(a) for a in paper.authors):
            return True
        return pattern is not None and bool(pattern.search(f"{paper.title}\n{paper.abstract}"))

    return urgent


def history(settings: Settings, store: Store, subscribers: Sequence[Subscriber]) -> lineage.History:
    """What the digests and alerts of these subscribers read of each reader: its records and
    its earlier names' (lineage.py). The alert pass had read the name alone: a rename alerted
    the old name's alerts again, its daily cap anew (ops29 F2)."""
    config = mailing([*settings.subscribers, *subscribers], recipients)
    return lineage.History(store.db, lineage.earlier(store.web, config))


def kept(
    held: Mapping[str, Sequence[Held]], owned: Mapping[str, set[str]], own: lineage.History
) -> dict[str, list[Held]]:
    """The held alerts a digest may carry: not the reader's own papers, nor a paper it was
    given or alerted under any of its names (a hold of the old name's papers, made by a renamed
    reader's first alert pass, had its every digest refused "given meanwhile", ops29 F1), nor
    one an earlier reader of its name held (a newcomer had carried them as his, F3)."""
    out: dict[str, list[Held]] = {}
    for name, holds in held.items():
        gone = owned[name] | own.taken(name, {h.scored.paper.id for h in holds})
        out[name] = [h for h in holds if h.scored.paper.id not in gone]
    return out


def _behind(store: Store, sub: Subscriber, now: datetime, own: lineage.History) -> bool:
    """Is the clock before the period of the subscriber's last digest (the digest's "clock
    behind"), or before its last alert? Its alerts would be dated on a day that is over, whose
    cap is still unused: they wait, unmarked, for a run on the right clock. Instants, not local
    days: after a move west the new zone's date is earlier, and its alerts had waited hours."""
    digest = own.last_digest(sub.name)
    if digest is not None and behind(digest[0], now):
        return True
    last = store.journal.last_alert_at(sub.name)
    return last is not None and now < last


def make_alerts(
    settings: Settings,
    store: Store,
    subscribers: Sequence[Subscriber],
    now: datetime,
    waiting: Collection[str] = (),
) -> list[AlertReport]:
    """Record (not send) the alerts due now, and hold for the next digest the matches over the
    daily cap. A subscriber's candidates are the papers that came after both its last digest and
    its last alert pass, never given or alerted before. Each is scored against the pool its next
    digest would rank now, so both use one scale. `subscribers`: every reader (the space is
    theirs); one `waiting` for its liked papers has no pass (it would mark papers looked at)."""
    own = history(settings, store, subscribers)
    subs = [
        s
        for s in subscribers
        if watching(s) and s.name not in waiting and not _behind(store, s, now, own)
    ]
    return _look(settings, store, subs, now, False, own, subscribers)


def hold_for_digest(
    settings: Settings,
    store: Store,
    subscribers: Sequence[Subscriber],
    now: datetime,
    own: lineage.History,
    everyone: Sequence[Subscriber],
) -> None:
    """Just before these subscribers' digests are made: hold for them every alert match that no
    alert pass has looked at yet (papers since the last poll, or the whole day for a daily
    `digest run`), whatever its score. Sent as alerts beside the digest they would only repeat
    it, and left to the ranking a match under min_score or past top_k would be lost."""
    _look(settings, store, [s for s in subscribers if watching(s)], now, True, own, everyone)


def _look(
    settings: Settings,
    store: Store,
    subs: Sequence[Subscriber],
    now: datetime,
    hold_all: bool,
    own: lineage.History,
    everyone: Sequence[Subscriber],
) -> list[AlertReport]:
    if not subs:
        return []
    floors = {s.name: own.considered_through(s.name) for s in subs}
    after = {s.name: max(floors[s.name], store.journal.alert_mark(s.name)) for s in subs}
    if not store.count_after(min(after.values())):
        return [AlertReport(s.name) for s in subs]
    from digest import corpus

    # The reader's own papers, under an id the library's record lacks (see pipeline's `owned`).
    owned = {s.name: store.papers.owners(s.profile.library, s.likes) for s in subs}

    def gone(sub: Subscriber, ids: set[str]) -> set[str]:
        return (
            own.sent_ids(sub.name, ids) | own.alerted_ids(sub.name, ids) | (owned[sub.name] & ids)
        )

    # The digest's stored space, so an alert's score and the digest's are on one scale. Every
    # new paper is ranked; a pool too large to hold keeps for each subscriber its best papers
    # and the best that a followed author wrote or that name an alert keyword.
    space = corpus.ranking_space(store, everyone, now)
    ranked = corpus.rank_stored(
        store,
        subs,
        after,
        space,
        gone,
        top_k=ALL,
        thresholds=False,
        keep=max(HOLD_KEEP, *(s.max_alerts_per_day for s in subs)),
        extra=_urgent,
        pools=floors,
        everyone=everyone,
    )
    env: jinja2.Environment | None = None
    reports: list[AlertReport] = []
    for s in subs:
        report = AlertReport(s.name)
        reports.append(report)
        hits = [(sc, why) for sc in ranked.picks.get(s.name, []) if (why := reasons(s, sc))]
        day = now.astimezone(ZoneInfo(s.timezone)).date()
        left = s.max_alerts_per_day - own.alerts_on(s.name, day)
        room = 0 if hold_all else max(0, left)
        cap = s.max_alerts_per_day
        over = [] if hold_all else [_capped(cap)]
        for scored, why in hits[:room]:
            env = env or render.make_environment(settings.templates)
            links = links_in(settings, store, s, now)
            message = render.render_alert(s.name, day, scored, why, env, links)
            messages = [(c.name, c.kind, message) for c in s.channels]
            outcome = store.journal.record_alert(
                s.name,
                scored.paper.id,
                day,
                scored.score,
                why,
                now,
                messages,
                cap,
                held=(scored, why + over),
            )
            if outcome == "alerted":
                report.made.append(scored.paper.id)
                log.info("%s: alert for %s (%s)", s.name, scored.paper.id, "; ".join(why))
            report.held += outcome == "held"  # another worker took the day's last places
        rest = [(scored, why + over) for scored, why in hits[room:]]
        cause = "digest" if hold_all else "cap"
        report.held += store.journal.hold(s.name, day, rest, cause, now)
        if report.held and not hold_all:
            log.info("%s: %d more alert(s) held for the digest (daily cap)", s.name, report.held)
        # Held papers are not looked at again: tomorrow's alerts are for tomorrow's papers.
        store.journal.set_alert_mark(s.name, max(ranked.through, after[s.name]))
    return reports


def standing(
    subs: Sequence[Subscriber],
    held: Mapping[str, Sequence[Held]],
    space: Any,
    everyone: Sequence[Subscriber],
) -> dict[str, list[Held]]:
    """The held alerts each digest made now carries, as its reader's profile and rules stand
    now (they were scored and explained when held): a paper now excluded, rated, or in the
    library is dropped; one that no rule of now would alert (a keyword removed, alerts off)
    goes back among the ranked candidates; the rest are scored and explained anew, keeping why
    they waited. One ranking for every subscriber; `space`: the digests' own, one scale (none:
    fitted on these papers and `everyone`'s words, as rank_stored fits it)."""
    out: dict[str, list[Held]] = {s.name: [] for s in subs}
    watched = [s for s in subs if held.get(s.name) and watching(s)]
    if not watched:
        return out
    from digest import ranking

    papers = {h.scored.paper.id: h.scored.paper for s in watched for h in held[s.name]}
    allowed = {s.name: {h.scored.paper.id for h in held[s.name]} for s in watched}
    top = max(len(held[s.name]) for s in watched)
    ranked = ranking.rank(
        list(papers.values()),
        watched,
        top_k=top,
        thresholds=False,
        allowed=allowed,
        space=space,
        everyone=everyone,
    )
    for sub in watched:
        fresh = {s.paper.id: s for s in ranked[sub.name]}
        for h in held[sub.name]:
            scored = fresh.get(h.scored.paper.id)
            why = reasons(sub, scored) if scored is not None else []
            if scored is not None and why:
                waited = tuple(r for r in h.reasons if r.startswith("held: "))
                out[sub.name].append(Held(scored, (*why, *waited)))
    return out


def _capped(cap: int) -> str:
    return f"held: the daily cap of {cap} alert{'' if cap == 1 else 's'} was reached"


def foreseen(
    store: Store,
    sub: Subscriber,
    scored: Sequence[Scored],
    now: datetime,
    made: bool,
    own: lineage.History,
) -> tuple[set[str], list[Held]]:
    """What a run now would do with the alert matches among these ranked papers, for `preview`:
    the ids it would send as alerts, and the matches the digest would carry as held alerts.
    Before the period's digest is made, the run holds every match for it; after, it alerts up to
    the day's cap and holds the rest for the next digest. `own`: history(), as make_alerts reads
    it (the cap had been counted under the name alone: a rename was previewed a fresh cap)."""
    if not watching(sub) or _behind(store, sub, now, own):
        return set(), []
    hits = [(sc, tuple(why)) for sc in scored if (why := reasons(sub, sc))]
    if not made:
        return set(), [Held(sc, why) for sc, why in hits]
    day = now.astimezone(ZoneInfo(sub.timezone)).date()
    room = max(0, sub.max_alerts_per_day - own.alerts_on(sub.name, day))
    held = [Held(sc, (*why, _capped(sub.max_alerts_per_day))) for sc, why in hits[room:]]
    return {sc.paper.id for sc, _ in hits[:room]}, held
