"""What the command prints about runs: the summary of one `digest run` and the `digest status`
report (last runs, sources, pending and dead deliveries; its next digests are upcoming.py's)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from digest.channels.email import recipients
from digest.cli.upcoming import next_digests
from digest.models import Settings, redact
from digest.state.lock import health
from digest.state.pauses import mailing

if TYPE_CHECKING:
    from digest.intake import SourceReport
    from digest.pipeline import RunReport, SubscriberReport
    from digest.state import Store


def describe(report: RunReport) -> str:
    papers = report.summary()["papers"]
    lines = [
        f"digest run at {report.now.isoformat(timespec='minutes')}",
        f"papers: {papers['read']} read, {papers['skipped']} skipped, {papers['new']} new",
    ]
    for source in report.sources:
        lines.append(f"  source {source.name}: {_source_state(source)} ({source.seconds:.2f} s)")
    if len(report.subscribers) > LISTED:  # a thousand readers: counts, and who is not "made"
        lines += _subscribers_counted(report)
    else:
        width = max((len(s.name) for s in report.subscribers), default=0)
        for sub in report.subscribers:
            lines.append(f"  {sub.name:<{width}}  {_subscriber_state(sub)}")
        for alert in report.alerts:
            held = f"; {alert.held} more held for the next digest (daily cap)" if alert.held else ""
            made = ", ".join(alert.made) or "none"
            lines.append(f"  {alert.subscriber:<{width}}  alerts: {made}{held}")
    out = report.outcome
    lines.append(
        f"deliveries: {len(out.sent)} sent, {len(out.retrying)} retrying, "
        f"{len(out.dead)} dead now; {report.pending} pending, {report.dead} dead in all"
    )
    lines += [f"  sent {item}" for item in out.sent[:SENT_SHOWN]]
    if len(out.sent) > SENT_SHOWN:  # a thousand readers' receipts: `digest status` has them
        lines.append(f"  ... and {len(out.sent) - SENT_SHOWN} more sent")
    lines += _grouped("retrying", out.retrying) + _grouped("dead", out.dead)
    return "\n".join(lines)


SENT_SHOWN = 50  # sent deliveries a summary lists one by one
GROUPED = 3  # failures of one reason listed one by one; more are one line
LISTED = 20  # subscribers (and status's deliveries) listed one by one; more are grouped


def _subscriber_state(sub: SubscriberReport) -> str:
    detail = _SUBSCRIBER_STATES.get(sub.status, sub.status)
    if sub.status == "made":
        detail = f"{sub.picked} picked"
        if sub.top_score is not None:
            detail += f", top score {sub.top_score:.2f}"
        # Held alerts go first and are not among the picks: said apart, every one counted.
        held = _counted(sub.held, "held alert")
        if sub.held:
            detail = f"{held} first, then {detail}" if sub.picked else f"{held}, no pick"
    return detail + (" (notified: on_empty = notify)" if sub.notified else "")


def _subscribers_counted(report: RunReport) -> list[str]:
    """Many subscribers: the digests made as one line of counts, every other state as one
    line of its subscribers, and the alerts as one line."""
    made = [s for s in report.subscribers if s.status == "made"]
    lines = []
    if made:
        picks, held = sum(s.picked for s in made), sum(s.held for s in made)
        scores = [s.top_score for s in made if s.top_score is not None]
        top = f", top scores {min(scores):.2f} to {max(scores):.2f}" if scores else ""
        carried = f", {_counted(held, 'held alert')}" if held else ""
        lines.append(f"  {_counted(len(made), 'digest')} made: {picks} picked{carried}{top}")
    others = [(s.name, _subscriber_state(s)) for s in report.subscribers if s.status != "made"]
    lines += _gathered(others, "subscriber")
    alerted = [a for a in report.alerts if a.made]
    if alerted or any(a.held for a in report.alerts):
        sent = sum(len(a.made) for a in alerted)
        held = sum(a.held for a in report.alerts)
        names = _listed([a.subscriber for a in alerted])
        lines.append(
            f"  alerts: {sent} for {_counted(len(alerted), 'subscriber')}"
            + (f" ({names})" if names else "")
            + (f"; {held} more held for the next digests (daily cap)" if held else "")
        )
    return lines


def _gathered(pairs: list[tuple[str, str]], noun: str) -> list[str]:
    """(name, what) pairs as `  name: what` lines; more than LISTED as one line per `what`
    naming a few of its names."""
    if len(pairs) <= LISTED:
        return [f"  {name}: {what}" for name, what in pairs]
    groups: dict[str, list[str]] = {}
    for name, what in pairs:
        groups.setdefault(what, []).append(name)
    return [
        f"  {what}: {_counted(len(names), noun)} ({_listed(names)})"
        for what, names in groups.items()
    ]


def _names(names: list[str]) -> str:
    """Every name, or past LISTED a count and a few."""
    if len(names) <= LISTED:
        return ", ".join(names) or "none"
    return f"{len(names)} ({_listed(names)})"


def _listed(names: list[str]) -> str:
    more = len(names) - GROUPED
    return ", ".join(names[:GROUPED]) + (f" and {more} more" if more > 0 else "")


def _grouped(kind: str, items: list[str]) -> list[str]:
    """`label: reason` lines, those of one reason as one line when there are many of them: a
    relay that is down is one line, not four hundred."""
    by_reason: dict[str, list[str]] = {}
    for item in items:
        label, _, reason = item.partition(": ")
        by_reason.setdefault(reason, []).append(label)
    lines = []
    for reason, labels in by_reason.items():
        if len(labels) <= GROUPED:
            lines += [f"  {kind} {label}: {reason}" for label in labels]
        else:
            first = ", ".join(labels[:GROUPED])
            more = len(labels) - GROUPED
            lines.append(f"  {kind} {len(labels)} deliveries ({first} and {more} more): {reason}")
    return lines


# Said plainly, because "failed", "nothing new" and "nothing matched" call for different actions.
_SUBSCRIBER_STATES = {
    "nothing new": "nothing new: no paper arrived since the last digest",
    "no match": "no match: new papers arrived, none scored above min_score",
    "alerted": "alerted: what matched went out as alerts; nothing more for the digest",
    "waiting for sources": (
        "waiting for sources: nothing new and a source failed; a later run makes it"
    ),
    "waiting for liked papers": (
        "waiting for liked papers: their arXiv lookup failed; a later run makes it"
    ),
    "clock behind": "clock behind: a later period already has its digest; check the clock",
    "given meanwhile": (
        "given meanwhile: another worker's digest of another period gave some of these papers"
        " at the same time; a later run makes this one"
    ),
    "alerted meanwhile": (
        "alerted meanwhile: another worker alerted some of these papers at the same time; a"
        " later run makes this digest without them"
    ),
}


def _source_state(source: SourceReport) -> str:
    counts = f"{source.read} read, {source.skipped} skipped, {source.new} new"
    if source.error:
        kept = f" (kept {source.read} read before)" if source.read else ""
        return f"FAILED: {source.error}{kept}"
    if source.unchanged:
        return f"{counts}: not changed since its last read (the feed answered 304)"
    if source.read == 0:
        return f"{counts}: the source has no papers now (empty feed, or none in the window)"
    # A new version of a paper never seen is left out, unless the source takes `replacements`.
    versions = source.unseen_versions
    if not versions:
        return f"{counts}: all seen before" if source.new == 0 else counts
    left = f"{versions} new version{'s' * (versions != 1)} of papers never seen left out"
    if source.new:
        return f"{counts} ({left})"
    rest = ", the rest seen before" if source.read - source.skipped > versions else ""
    return f"{counts}: {left}{rest}"


def status_report(settings: Settings, store: Store, state: str, now: datetime) -> tuple[str, int]:
    """`digest status`: the text, and 1 if something needs attention (a dead delivery, a source
    whose last try failed, a last run that was not ok, a subscriber's digests overdue), else 0."""
    alive, beat = health(state, now)
    lines = [f"digest status at {now:%Y-%m-%dT%H:%M%z} over {store.name}", f"serve: {beat}"]
    workers = store.workers()
    if workers:  # serve workers on PostgreSQL, and runs in progress (or killed)
        lines.append("workers, last heartbeat first:")
    for worker in workers:
        what = "stopped" if worker["stopped"] else ("busy" if worker["facts"].get("busy") else "")
        lines.append(
            f"  {worker['name']}  {worker['kind']:<5}  {worker['beat_at']}"
            + (f"  {what}" if what else "")
        )
    runs = store.runs(5, now)  # one cut short (its worker gone) reads "interrupted"
    lines.append("last runs, newest first:" if runs else "last runs: none yet")
    for run in runs:
        # Every run names its worker, a failed or interrupted one too: it had been said only of
        # ok and running ones, and those are the ones whose logs an operator must find.
        by = f" (by {run['worker']})" if store.shared and run.get("worker") else ""
        if run["outcome"] == "interrupted":
            # Its summary was never written: what its sources stored is known, and the rest
            # (digests made, deliveries) is in the state, not in this row.
            new = "" if run["new"] is None else f"; {_counted(run['new'], 'new paper')} stored"
            named = f"its worker {run.get('worker')} " in run["gone"]  # said once is enough
            lines.append(
                f"  {run['clock']}  interrupted  {run['gone']}{new}; what it made and sent is in"
                f" the state{'' if named else by}"
            )
            continue
        if run["outcome"] == "running":
            lines.append(f"  {run['clock']}  running    since {run['started_at']}{by}")
            continue
        summary = run["summary"]
        if run["outcome"] == "failed":
            lines.append(f"  {run['clock']}  failed     {summary.get('error', '')}{by}")
            continue
        subs = summary.get("subscribers", {})
        made = [n for n, s in subs.items() if s.get("status") == "made"]
        alerts = sum(len(a.get("made", [])) for a in summary.get("alerts", {}).values())
        kept = sum(int(a.get("held", 0)) for a in summary.get("alerts", {}).values())
        sent = summary.get("deliveries", {}).get("sent", 0)
        new = _counted(summary.get("papers", {}).get("new", 0), "new paper")
        lines.append(
            f"  {run['clock']}  {run['outcome']:<9}  {new};"
            f" digests made: {_names(made)};"
            f" {_counted(alerts, 'alert')}{f' ({kept} held)' if kept else ''}; {sent} sent{by}"
        )
    upcoming, late = next_digests(settings, store, runs, now)
    lines += ["next digests:", *_gathered(upcoming, "subscriber")]
    sources = {s["source"]: s for s in store.journal.sources()}
    failing = False
    lines.append("sources, last success:")
    for source in settings.sources:
        known = sources.get(source.name)
        if known is None:
            lines.append(f"  {source.name}: not read yet")
            continue
        failing = failing or bool(known["error"])
        # Redacted again when shown: a row written before a secret was known still holds it.
        error = redact(known["error"] or "", settings.secrets)
        state_now = f"; FAILING: {error}" if error else ""
        lines.append(f"  {source.name}: {known['last_success'] or 'never'}{state_now}")
    lines += _pauses(settings, store)
    # A row a worker is sending right now (its lease live) is "in flight", not pending; unless
    # that worker's process is known to have ended: the row waits for its lease to end.
    counts = store.outbox_counts(now, worker="")
    pending, dead = counts.get("pending", 0), counts.get("dead", 0)
    dropped = counts.get("dropped", 0)  # given up by `digest retry --drop`: no attention needed
    stalled = sum(gone for _, _, gone in store.in_flight(now).values())
    flying = counts.get("in flight", 0) - stalled
    gave_up = f", {dropped} dropped" if dropped else ""
    gave_up += f", {flying} being sent now" if flying else ""
    gave_up += f", {stalled} held by a worker that ended" if stalled else ""
    lines.append(f"deliveries: {pending} pending, {dead} dead{gave_up}")
    lines += _deliveries(settings, store, now)
    last = runs[0] if runs else None
    attention = dead > 0 or stalled > 0 or failing or bool(late)  # late: periods no run made
    attention = attention or bool(last and last["outcome"] not in ("ok", "running"))
    return "\n".join(lines), 1 if attention else 0


def _pauses(settings: Settings, store: Store) -> list[str]:
    """The one-click unsubscribes (`digest resume NAME` lifts them): a pause names the e-mail
    channels that go to the addresses it stopped now, whatever their names were then, under the
    name the next pass moves it to (a rename: it had advised `digest resume alice`, refused)."""
    mails = mailing(settings.subscribers, recipients)
    pauses = store.web.following(mails)
    lines = ["channels paused by their readers:"] if pauses else []
    for p in pauses:
        held, note = [p.channel], ""  # paused before addresses were kept: by its name
        if p.addresses:
            held = [
                c for c, to in mails.get(p.subscriber, {}).items() if p.holds(p.subscriber, c, to)
            ]
            gone = "" if held else f": no e-mail channel of {p.subscriber} goes there now"
            note = f" (to {', '.join(p.addresses)}{gone})"
        where = f"/{', '.join(held)}" if held else ""
        lines.append(
            f"  {p.subscriber}{where}: email paused by the reader since {p.since}{note};"
            f" `digest resume {p.subscriber}` sends again"
        )
    return lines + _spooled(store)


def _spooled(store: Store) -> list[str]:
    """The clicks a web face kept beside an SQLite state, not in it yet: an unsubscribe waiting
    there was in no line, and the next run paused the reader (read here, nothing written)."""
    from pathlib import Path

    from digest.web.spool import Spool

    spool = Spool(Path(f"{store.path}.clicks"))
    if not isinstance(store.path, Path) or not spool.waiting() or not (kept := spool.load()):
        return []
    taken = store.votes.taken(str(r.get("key")) for r in kept)  # recorded, its mark refused
    if not (kept := [r for r in kept if str(r.get("key")) not in taken]):
        return []
    unsubscribes = [r for r in kept if r.get("pauses")]
    who = dict.fromkeys(str(p[0]) for r in unsubscribes for p in r["pauses"] if p)
    first = min((str(r.get("at")) for r in unsubscribes), default="")
    n = _counted(len(unsubscribes), "unsubscribe")
    said = [f"{n} of {', '.join(who)} (the first at {first})"] if unsubscribes else []
    votes = len(kept) - len(unsubscribes)
    said += [f"the votes of {_counted(votes, 'Slack click')}"] if votes else []
    return [
        f"kept by a web face in {spool.path}, not recorded yet: {' and '.join(said) or 'clicks'};"
        " the next `digest run`, `digest retry` or `digest resume` records them"
    ]


def _deliveries(settings: Settings, store: Store, now: datetime) -> list[str]:
    """Each dead and pending delivery with its reason; more than LISTED, one line a state and
    reason (a relay that is down is one line, not a thousand)."""
    flights = store.in_flight(now)
    rows = store.outbox("dead") + store.outbox("pending")
    lines: list[str] = []
    groups: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        reason = redact(row.last_error, settings.secrets) or (
            f"{row.parts_sent} part(s) posted, not yet marked sent"
            if row.parts_sent
            else "not tried yet"
        )
        state = row.status
        if row.id in flights:
            state = "stalled" if flights[row.id][2] else "sending"
        groups.setdefault((state, reason), []).append(f"{row.subscriber}/{row.channel}")
        what = f"{row.subscriber}/{row.channel} {row.purpose} {row.period}"
        what += f" ({row.attempts} attempts"
        if row.id in flights:
            holder, until, gone = flights[row.id]
            if gone:
                lines.append(
                    f"  stalled  {what}, by {holder}, whose process ended; another worker takes"
                    f" it when the lease ends at {until}): {reason}"
                )
                continue
            lines.append(f"  sending  {what}, by {holder}, lease until {until}): {reason}")
            continue
        retry = (
            f", next try {row.next_try_at}" if row.status == "pending" and row.next_try_at else ""
        )
        lines.append(f"  {row.status:<7}  {what}{retry}): {reason}")
    if len(rows) <= LISTED:
        return lines
    return [
        f"  {state:<7}  {len(labels)} {'delivery' if len(labels) == 1 else 'deliveries'}"
        f" ({_listed(labels)}): {reason}"
        for (state, reason), labels in groups.items()
    ]


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
