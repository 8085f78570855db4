"""What is in force for a reader, as the confirm and expired-link pages say it: the paper's
rating now and since when, the e-mail digests stopped since when. A reader unsure whether a first
click worked is the one who comes back; these only read the state."""

from __future__ import annotations

import html
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from digest.state import Store
from digest.web.tokens import VOTE_DAYS

WORDS = {"up": "👍 more like this", "down": "👎 less like this", "none": "no rating"}


def when(stamp: str, zone: str) -> str:
    """A stored time as the reader's clock shows it: "2026-12-06 at 10:14 (Europe/Berlin)"."""
    try:
        local = datetime.fromisoformat(stamp).astimezone(ZoneInfo(zone))
    except (ValueError, ZoneInfoNotFoundError):
        return stamp
    return f"{local:%Y-%m-%d} at {local:%H:%M} ({zone})"


def rating(store: Store, subscriber: str, paper_id: str) -> tuple[str, str]:
    """The paper's rating by the subscriber now and when it was given; ("none", "") unrated."""
    found = [r for r in store.ratings.listing(subscriber) if r["paper"] == paper_id]
    return (found[-1]["vote"], found[-1]["at"]) if found else ("none", "")


def rating_line(now: tuple[str, str] | None, vote: str, zone: str) -> str:
    """What the paper's rating is (None: unknown, no line), beside a link that would make it
    `vote` (none: an undo; "": no link, only the state)."""
    if now is None:
        return ""
    given, at = now
    if given == "none":
        tail = {"none": "; there is nothing to take back", "": ""}.get(vote, " yet")
        return f"<p>You have not rated this paper{tail}.</p>"
    said = f"You rated this <strong>{WORDS[given]}</strong> on {html.escape(when(at, zone))}"
    if vote == given:
        said += "; recording it again changes nothing"
    return f"<p>{said}.</p>"


def pause_line(
    subscriber: str,
    channels: list[str],
    paused: dict[str, str],
    zone: str,
    others: list[str] | None = None,
) -> str:
    """The e-mail digests stopped since when, "" when none is: of several, which are and which
    still go (`others`: the reader's other e-mail channels mailed on). Once every channel the
    link stops was, the page had said "E-mail digests for alice are stopped" while another of
    her e-mail channels was mailed, unnamed (ops25 F3)."""
    if not paused:
        return ""
    since = html.escape(when(min(paused.values()), zone))
    who = html.escape(subscriber)
    going = ", ".join(html.escape(c) for c in [*channels, *(others or ())] if c not in paused)
    if not going:
        return f"<p>E-mail digests for <strong>{who}</strong> are stopped since {since}.</p>"
    names = ", ".join(html.escape(c) for c in sorted(paused))
    return (
        f"<p>E-mail digests for <strong>{who}</strong> are stopped since {since} on {names};"
        f" still mailed: {going}.</p>"
    )


def expired(undo: bool, title: str, rated: tuple[str, str] | None, zone: str) -> tuple[str, str]:
    """The heading and body of an expired undo or rating link's page: nothing is damaged, and
    no digest will carry that undo again, so it says what to use instead."""
    paper = f"<strong>{html.escape(title)}</strong>"
    if undo:
        heading = "Too late to undo"
        body = (
            "<p>An undo works for a day after the vote, and this one's day is over: nothing was"
            f" changed. To change your rating of {paper}, use its 👍 or 👎 link in the"
            " digest.</p>"
        )
    else:
        heading = "This link has expired"
        body = (
            f"<p>Rating links work for {VOTE_DAYS} days, and this one, for {paper}, is older:"
            " nothing was recorded. This digest's page in your archive (linked at the foot of"
            " every digest) has links that work.</p>"
        )
    return heading, body + rating_line(rated, "", zone)


def unsubscribe(
    subscriber: str,
    channels: list[str],
    paused: dict[str, str] | None,
    zone: str,
    button: str,
    shared: dict[str, int] | None = None,
    others: list[str] | None = None,
    elsewhere: list[str] | None = None,
) -> tuple[str, str]:
    """The heading and body of the unsubscribe page a GET shows: the question and its button
    (with what is stopped, when known, what goes on after it, and that it stops every address
    of a channel's one mail: `shared`, each channel's addresses), or, once every e-mail channel
    it stops is, that they are and since when, those of `others` mailed on, and no button."""
    paused = paused or {}
    line = pause_line(subscriber, channels, paused, zone, others)
    if len(paused) == len(channels):
        return "Unsubscribed", line + (
            "<p>Nothing more to do here. To start them again, ask the digest's operator"
            " (<code>digest resume</code>).</p>"
        )
    who = f"<strong>{html.escape(subscriber)}</strong>"
    going = _going_on(who, others or [], elsewhere)
    return "Unsubscribe", (
        f"<p>Stop the e-mail digests for {who}?{going}</p>" + _shared(shared or {}) + line + button
    )


def _going_on(who: str, mailed: list[str], elsewhere: list[str] | None) -> str:
    """What still carries the reader's digests after the unsubscribe: the e-mail channels it
    leaves (`mailed`) and the channels of other kinds (`elsewhere`, None: not known, and then
    nothing is said of them). A fixed "Other channels go on." had been said to a reader with
    no other channel (web2 F4)."""
    going = [*mailed, *(elsewhere or [])]
    if going:
        still = "mailed" if elsewhere is None else "delivered"
        return f" Still {still} after this: {', '.join(html.escape(c) for c in going)}."
    if elsewhere is None:
        return ""
    return f" There is no other channel: after this, no digest goes to {who}."


def unsubscribed(who: str, stopped: list[str], going: list[str] | None) -> str:
    """The body of the page after a one-click unsubscribe: the e-mail channels it stopped and,
    of the same readers, those still mailed (None: not known). It had said "No more e-mail
    digests go to alice" while her other e-mail channel was mailed on (ops24 F3)."""
    done = f"No more e-mail digests go to {html.escape(who)}"
    if going:
        names = ", ".join(html.escape(c) for c in stopped)
        done += f" on {names}; still mailed: {', '.join(html.escape(c) for c in going)}"
    elif going is None:
        done += f" on {', '.join(html.escape(c) for c in stopped)}"
    again = "To start them again, ask the digest's operator (<code>digest resume</code>)."
    return f"<p>{done}. {again}</p>"


def _shared(shared: dict[str, int]) -> str:
    """A digest mailed to several addresses at once (a lab's list, a PI and a student) stops
    for every one of them: one reader's unsubscribe had stopped it for all, unsaid. Counted per
    channel: two channels of one address each had been "2 addresses in one mail" (ops25 F3)."""
    several = {c: n for c, n in shared.items() if n > 1}
    if not several:
        return ""
    if len(shared) == 1:
        ((_, n),) = several.items()
        said = f"These digests go to {n} addresses in one mail"
    else:
        said = "; ".join(
            f"the digests on {html.escape(c)} go to {n} addresses in one mail"
            for c, n in several.items()
        )
        said = said[0].upper() + said[1:]
    return (
        f"<p>{said}: this stops them for all of them. A reader who wants them stopped alone can"
        " ask the operator for a channel of their own.</p>"
    )
