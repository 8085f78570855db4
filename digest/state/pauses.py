"""What a reader's one-click unsubscribe stops: the e-mail channels of the config and their
addresses (mailing), a pause as the state keeps it (Pause, addressed), the channels a link
mailed to some addresses may stop (reaching), and each subscriber's stints at its addresses as
delivery passes record them (passed, remember), from which heirs.py reads the renames."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from digest.models import Subscriber
from digest.state.engine import Engine

# Per subscriber, its e-mail channels by name and the addresses of each one's `to`.
Mailing = dict[str, dict[str, tuple[str, ...]]]
# An e-mail channel as an unsubscribe stops it: subscriber, channel name, its addresses.
Target = tuple[str, str, tuple[str, ...]]
# A subscriber's stint at an address, by (subscriber, address): when it began (None: before
# stints were kept, an old one) and when a delivery pass first saw the pair gone from the config
# (None: there now). A pair back in the config begins a new stint.
# (subscriber, address): since, gone, and the end of the stint before ("ended"): a sibling whose
# channel was taken out and put back had begun anew, after the old name's, and taken its pause;
# and when the pair's first stint began ("first", None: unknown, begun before schema 18).
Stints = dict[tuple[str, str], tuple[str | None, str | None, str | None, str | None]]
_FORM = "%Y-%m-%dT%H:%M:%S.%fZ"  # a stint's times: text that compares as the instants do

# schema.SCHEMA's step 16: the addresses each subscriber's e-mail went to (an older mail's
# unsubscribe link, its name since renamed). A pause's addresses are in its `channel` (addressed()).
# IF NOT EXISTS: the step runs again over a state whose version was set back.
ADDRESSES_SCHEMA = """
    CREATE TABLE IF NOT EXISTS mailed_to (
        subscriber TEXT NOT NULL,
        address    TEXT NOT NULL,                      -- normal(): lowercase
        PRIMARY KEY (subscriber, address)
    )
"""
# Step 17: mailed_to's rows with their stints (Stints), when each began and ended, and whose a
# pause of a subscriber gone from the config is (heirs). A table of its own, not two columns: an
# ADD COLUMN run again over a state whose version was set back fails on SQLite; run again, this
# copies step 16's empty table (made here too: a state set back to 16 has none). A row of before
# began in an old stint (since NULL).
STINTS_SCHEMA = (
    ADDRESSES_SCHEMA
    + """;
    CREATE TABLE IF NOT EXISTS stints (
        subscriber TEXT NOT NULL,
        address    TEXT NOT NULL,                      -- normal(): lowercase
        since      TEXT,                               -- the pass that saw the pair (again)
        gone       TEXT,                               -- the first pass that did not
        ended      TEXT,                               -- the gone of the stint before
        PRIMARY KEY (subscriber, address)
    );
    INSERT OR IGNORE INTO stints (subscriber, address) SELECT subscriber, address FROM mailed_to;
    DROP TABLE mailed_to
"""
)
# Step 18: when each pair's first stint began, kept through its later stints: renamed alice1,
# then deleted and put back (or its address or channel away and back), its stint began anew,
# and an older mail's link of alice's stopped nothing (reg33 R1). A table of its own, as for
# step 17; a stint never begun anew (ended NULL) began first at its since.
FIRSTS_SCHEMA = """
    CREATE TABLE IF NOT EXISTS stint_firsts (
        subscriber TEXT NOT NULL,
        address    TEXT NOT NULL,
        first      TEXT NOT NULL,
        PRIMARY KEY (subscriber, address)
    );
    INSERT OR IGNORE INTO stint_firsts (subscriber, address, first) SELECT subscriber, address,
        since FROM stints WHERE since IS NOT NULL AND ended IS NULL
"""
# A pass's changes, each written only if no other pass (another worker) wrote it first.
_BEGUN = "INSERT OR IGNORE INTO stints (subscriber, address, since) VALUES (?, ?, ?)"
_FIRST = "INSERT OR IGNORE INTO stint_firsts (subscriber, address, first) VALUES (?, ?, ?)"
_BACK = (
    "UPDATE stints SET since = ?, gone = NULL, ended = gone WHERE subscriber = ?"
    " AND address = ? AND gone IS NOT NULL"
)
_GONE = "UPDATE stints SET gone = ? WHERE subscriber = ? AND address = ? AND gone IS NULL"
_SEEN = (
    "UPDATE stints SET since = ?, ended = '' WHERE subscriber = ? AND address = ? AND since IS NULL"
)


def normal(addresses: Iterable[str]) -> tuple[str, ...]:
    """Addresses as a pause keeps them: lowercase, each once, sorted."""
    return tuple(sorted({a.strip().lower() for a in addresses if a.strip()}))


def mailing(subscribers: Iterable[Subscriber], recipients: Callable[[Any], list[str]]) -> Mailing:
    """The config's e-mail channels and their addresses (`recipients` reads a `to` as the e-mail
    channel does)."""
    to = {s.name: [c for c in s.channels if c.kind == "email"] for s in subscribers}
    return {
        s: {c.name: normal(recipients(c.options.get("to"))) for c in cs} for s, cs in to.items()
    }


def addressed(channel: str, addresses: Iterable[str]) -> str:
    """A channel with the addresses it stops, one a line after its name, as a pause keeps it (in
    pauses.channel) and a kept click carries it; a bare name is a pause by name, as before."""
    return "\n".join((channel, *normal(addresses)))


def reaching(mailing: Mailing, addresses: Collection[str]) -> list[Target]:
    """The e-mail channels every address of which is one of these: those a link mailed to them
    may stop (one that also goes to another address is another reader's too)."""
    return [
        (subscriber, name, to)
        for subscriber, channels in mailing.items()
        for name, to in channels.items()
        if to and set(to) <= set(addresses)
    ]


@dataclass(frozen=True, slots=True)
class Pause:
    subscriber: str
    channel: str  # its name when it was paused
    since: str
    addresses: tuple[str, ...] = ()  # () when paused before addresses were kept

    def holds(self, subscriber: str, channel: str, addresses: Collection[str]) -> bool:
        """Whether it stops that e-mail channel: the subscriber's, going to an address it stopped
        whatever its name now (a channel written above it shifts them); one of before, by name."""
        if subscriber != self.subscriber:
            return False
        if not self.addresses:
            return channel == self.channel
        return not set(self.addresses).isdisjoint(addresses)


def next_pass(stints: Stints, clock: datetime) -> str:
    """The time a delivery pass records its stints at: the clock's, after every time recorded,
    so a pass is later than the one before even within a second or on a clock set back (a
    sibling recorded then had begun "at" the departure and been taken for the heir)."""
    at = clock.astimezone(UTC)
    times = [t for pair in stints.values() for t in pair if t]
    if times and (last := datetime.strptime(max(times), _FORM).replace(tzinfo=UTC)) >= at:
        at = last + timedelta(microseconds=1)
    return at.strftime(_FORM)


def recorded(db: Engine) -> Stints:
    """The stints as the state keeps them."""
    rows = db.execute(
        "SELECT s.subscriber, s.address, since, gone, ended, first FROM stints s LEFT JOIN"
        " stint_firsts f ON f.subscriber = s.subscriber AND f.address = s.address"
    )
    return {(str(r[0]), str(r[1])): (r[2], r[3], r[4], r[5]) for r in rows}


def remember(
    transaction: Callable[[], AbstractContextManager[Engine]],
    before: Stints,
    mailing: Mailing,
    clock: datetime,
) -> None:
    """Record a pass's stints (passed()): the changes alone, and none on most passes."""
    after = passed(before, mailing, next_pass(before, clock))
    changed = sorted((k, v) for k, v in after.items() if before.get(k) != v)
    if not changed:
        return
    with transaction() as db:
        for (s, a), (since, gone, _, _) in changed:
            if (s, a) not in before:
                db.execute(_BEGUN, (s, a, since))
                db.execute(_FIRST, (s, a, since))
            elif gone is None and before[(s, a)][:2] == (None, None):
                db.execute(_SEEN, (since, s, a))
            else:
                db.execute(
                    _BACK if gone is None else _GONE, (since if gone is None else gone, s, a)
                )


def passed(stints: Stints, mailing: Mailing, now: str) -> Stints:
    """The stints as a pass at `now` records them: a pair new or back in the config begins one,
    a recorded pair the config no longer has is gone (the first pass that saw it says when)."""
    there = {(s, a) for s, channels in mailing.items() for to in channels.values() for a in to}
    after: Stints = {pair: (now, None, None, now) for pair in there - stints.keys()}
    for pair, (since, gone, ended, first) in stints.items():
        if pair in there:
            # A stint of before schema 17 (since NULL) begins for the state when a pass sees it:
            # a sibling there beside the old name is then no heir of it.
            # ended '' marks it: begun before, first seen then (a new name is heir before it).
            if gone is None:
                after[pair] = (since, None, ended, first) if since else (now, None, "", first)
            else:
                after[pair] = (now, None, gone, first)
        else:
            after[pair] = (since, gone or now, ended, first)
    return after
