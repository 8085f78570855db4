"""What a one-click unsubscribe link stops: the addresses its mail went to, read from the keyed
digest it carries (tokens.py), and the e-mail channels of its name or its heirs that still reach
one of them; a link of before, naming its subscriber alone, as the state tells (links.py); and
what the face says when it stops nothing, or what goes on once it stopped."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations

from digest.models import Subscriber
from digest.state import Store
from digest.state.links import channels_sent, renames, reused
from digest.state.pauses import Mailing, Target, reaching
from digest.state.web import Web
from digest.web.mailed import Mailed
from digest.web.tokens import Signer

# A name's addresses tried in every combination for a link's digest: 4,095 digests at most.
MOST_ADDRESSES = 12


@dataclass(frozen=True, slots=True)
class Link:
    """An unsubscribe link the face honours."""

    name: str
    # The keyed digest of the addresses its mail went to; None: a link of before (it names the
    # subscriber alone), or one signed before the secret was rotated (this key cannot read it).
    went: str | None = None


def link_of(fields: list[object] | None) -> Link | None:
    """The link of a `u` token's checked fields (expiry taken off), or None."""
    if not fields or len(fields) > 2 or not all(isinstance(f, str) for f in fields):
        return None
    return Link(str(fields[0]), str(fields[1]) if len(fields) == 2 else None)


def carried(store: Store, mailed: Mailed, name: str, now: Subscriber | None, token: str) -> bool:
    """Whether a sent mail of `name` carries the token (a link signed before a rotation): in the
    channels of the config's subscriber of that name (`now`), or, the name gone from the config,
    in those its mail was sent in. Only the config's name had been looked up, and after a rename
    and a rotation every older mail's link was refused as damaged (ops24 F2). A name the state
    never mailed (no stint) is not looked for: a forged link costs no read of the outbox."""
    if now is not None:
        channels = [c.name for c in now.channels]
    elif store.web.mailed_at(name):
        channels = channels_sent(store.web, name)
    else:
        return False
    return mailed.carries(store, name, channels, token)


def stopped_by(web: Web, signer: Signer, link: Link, mails: Mailing) -> list[Target]:
    """The e-mail channels of `mails` (the config's) the link stops. With the addresses its mail
    went to: its name's that still reach one of them, whole, and its heirs' that go only there.
    Without (or none the state knows), as before: the name's channels, or its heirs' that go
    only where its mail went; but of a name reused, the earlier stints' heirs' (dana renamed
    dana1, then a newcomer named dana at another address: dana's older link had stopped the
    newcomer's mail, and dana1, whose reader clicked, was mailed on)."""
    went = addresses(web, signer, link, mails)
    if went is not None:
        # The name's own channels whole; an heir's only where they go nowhere else: a channel
        # the new name shares with other readers (a lab's list) is theirs too (web17 F3).
        whose = _whose(web, link.name, went, mails)
        own = [t for t in reaches(mails, went) if t[0] == link.name and t[0] in whose]
        heirs = [t for t in reaching(mails, went) if t[0] in whose and t[0] != link.name]
        return own + heirs
    if link.name not in mails:
        return web.renamed(link.name, mails)
    reuse = reused(web, link.name, mails)
    if reuse is None:
        return [(link.name, c, to) for c, to in mails[link.name].items()]
    return [t for t in reaching(mails, reuse.addresses) if t[0] in reuse.heirs]


def reaches(mails: Mailing, went: Collection[str]) -> list[Target]:
    """The e-mail channels that go to one of these addresses. Only those going to nothing else
    (pauses.reaching) had been taken: an address added to the reader's `to` since (renamed or
    not) made every older mail's link stop nothing, and the clicker was mailed on (ops24 F1). A
    pause holds its channel whole, the added address with it, as it did before links said
    their addresses."""
    return [
        (subscriber, name, to)
        for subscriber, channels in mails.items()
        for name, to in channels.items()
        if not set(went).isdisjoint(to)
    ]


def _whose(web: Web, name: str, went: Collection[str], mails: Mailing) -> set[str]:
    """The names whose channels a link of `name` mailed to `went` may stop."""
    if name not in mails:
        return set(renames(web, name, mails))
    reuse = reused(web, name, mails)
    if reuse is None or reuse.addresses.isdisjoint(went):
        return {name}
    return {name, *reuse.heirs}


def nothing(web: Web, name: str, mails: Mailing) -> str:
    """Why a link of `name` stops nothing: from an earlier subscription (a name gone, or reused
    since), or the reader's mail goes elsewhere now. A link of alice, in the config and never
    renamed, had been called one of "an earlier subscription ('alice')" (ops24 F1)."""
    if name not in mails or reused(web, name, mails) is not None:
        return EARLIER.format(name)
    return MOVED.format(name)


def still_mailed(web: Web, stops: list[Target], mails: Mailing) -> list[str]:
    """The e-mail channels of the stopped names that go on: not stopped, nor held by a pause.
    The page after a one-click had said "no more e-mail digests go to alice" while her other
    e-mail channel was mailed on (ops24 F3)."""
    stopped = {(s, c) for s, c, _ in stops}
    names = list(dict.fromkeys(s for s, _, _ in stops))
    others = [
        (s, c, to) for s in names for c, to in mails.get(s, {}).items() if (s, c) not in stopped
    ]
    held = web.stopped(others, mails) if others else {}
    return [c if s == names[0] else f"{s}/{c}" for s, c, _ in others if (s, c) not in held]


EARLIER = (  # a name not in the config: a link for one reader never stops another's mail
    "This link is from the digests of an earlier subscription ({!r}): no e-mail digest goes only"
    " to the addresses that one was mailed to, so nothing was changed. If digests still come to"
    " you, use the unsubscribe link of the newest one, or ask whoever runs the digest."
)
MOVED = (
    "This link is from a digest of {!r} mailed to addresses its e-mail digests no longer go to:"
    " nothing was changed. If digests still come to you, use the unsubscribe link of the newest"
    " one, or ask whoever runs the digest."
)


def addresses(web: Web, signer: Signer, link: Link, mails: Mailing) -> set[str] | None:
    """The addresses the link's mail went to, or None: a link without their digest, or one of
    addresses the state never recorded for its name. The name's e-mail now first (the usual
    case), then the addresses its mail went to as runs and pauses recorded them."""
    if link.went is None:
        return None
    now = {a for to in mails.get(link.name, {}).values() for a in to}
    if signer.addresses(now) == link.went:
        return now
    known = sorted(web.mailed_at(link.name) | now)[:MOST_ADDRESSES]
    for size in range(1, len(known) + 1):
        for some in combinations(known, size):
            if signer.addresses(some) == link.went:
                return set(some)
    return None
