"""What a reader's one-click unsubscribe stops: the e-mail channels of the config and their
addresses (mailing), a pause as the state keeps it (Pause, addressed), and the channels a link
mailed to some addresses may stop (reaching)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from digest.models import Subscriber

# Per subscriber, its e-mail channels by name and the addresses of each one's `to`.
Mailing = dict[str, dict[str, tuple[str, ...]]]
# An e-mail channel as an unsubscribe stops it: subscriber, channel name, its addresses.
Target = tuple[str, str, tuple[str, ...]]


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
