"""The one-line notices of quiet periods (on_empty = "notify"): nothing new, nothing matched,
nothing beyond the alerts, or no source could be read."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from digest import render
from digest.models import Message, Settings, Subscriber
from digest.state import Store, lineage
from digest.web.tokens import links_for, links_in

# A quiet period's status (as the run summary says it) -> (subject words, the one line).
QUIET = {
    "nothing new": ("no new papers", "No new papers arrived since your last digest."),
    "no match": (
        "nothing matched",
        "New papers arrived, but none matched your interests closely enough.",
    ),
    "alerted": (
        "nothing beyond the alerts",
        "Every new paper that matched your interests went out as an alert since your last digest.",
    ),
    "waiting for sources": (
        "a source failed",
        "No digest yet: no source could be read. It follows when a source is back.",
    ),
}


def notify_down(
    settings: Settings,
    store: Store,
    sub: Subscriber,
    period: str,
    day: date,
    now: datetime,
    failed: Sequence[str],
    own: lineage.History,
) -> bool:
    """Record, once per period and reader (`own`: its earlier names'), the notice that no source
    could be read (on_empty = "notify"); True if recorded now. The period stays open for its
    digest, so the notice has its own key."""
    if sub.on_empty != "notify" or own.told(sub.name, period):
        return False
    message = notice(settings, sub, "waiting for sources", day, failed, now, store)
    messages = [(c.name, c.kind, message) for c in sub.channels]
    return store.journal.record_notice(sub.name, f"notice:{period}", day, now, messages)


def notice(
    settings: Settings,
    sub: Subscriber,
    status: str,
    day: date,
    failed: Sequence[str] = (),
    now: datetime | None = None,
    store: Store | None = None,
) -> Message:
    """The one line saying which quiet it is, naming the sources that could not be read; with
    [web], the archive and the one-click unsubscribe too (a notice is a mail like a digest; a
    run's, given its `store`, with a reused name's own archive key: tokens.links_in)."""
    quiet, line = QUIET[status][0], quiet_line(status, failed)
    env = render.make_environment(settings.templates)
    links = None
    if now is not None:
        links = links_in(settings, store, sub, now) if store else links_for(settings.web, sub, now)
    return render.render_notice(sub.name, day, quiet, line, env, links)


def quiet_line(status: str, failed: Sequence[str] = ()) -> str:
    """A quiet period's one line, naming the sources that could not be read."""
    line = QUIET[status][1]
    if failed and status != "waiting for sources":
        return line + f" (Could not read: {', '.join(failed)}.)"
    return (
        line.replace("no source could be read", f"could not read {', '.join(failed)}")
        if failed
        else line
    )
