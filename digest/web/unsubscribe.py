"""What a one-click unsubscribe link stops: the addresses its mail went to, read from the keyed
digest it carries (tokens.py), and the config's e-mail channels that go only to them, of its
name or its heirs; a link of before, naming its subscriber alone, as the state tells (links.py)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations

from digest.state.links import reused
from digest.state.pauses import Mailing, Target, reaching
from digest.state.web import Web
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


def stopped_by(web: Web, signer: Signer, link: Link, mails: Mailing) -> list[Target]:
    """The e-mail channels of `mails` (the config's) the link stops. With the addresses its mail
    went to: those that go only there, of its name or its heirs. Without (or none the state
    knows), as before: the name's channels, or its heirs' that go only where its mail went;
    but of a name reused, the earlier stints' heirs' (dana renamed dana1, then a newcomer named
    dana at another address: dana's older link had stopped the newcomer's mail, and dana1,
    whose reader clicked, was mailed on)."""
    went = addresses(web, signer, link, mails)
    if went is not None:
        return [t for t in reaching(mails, went) if t[0] in _whose(web, link.name, went, mails)]
    if link.name not in mails:
        return web.renamed(link.name, mails)
    reuse = reused(web, link.name, mails)
    if reuse is None:
        return [(link.name, c, to) for c, to in mails[link.name].items()]
    return [t for t in reaching(mails, reuse.addresses) if t[0] in reuse.heirs]


def _whose(web: Web, name: str, went: Collection[str], mails: Mailing) -> set[str]:
    """The names whose channels a link of `name` mailed to `went` may stop."""
    if name not in mails:
        return set(web.heirs(name, went, mails))
    reuse = reused(web, name, mails)
    if reuse is None or reuse.addresses.isdisjoint(went):
        return {name}
    return {name, *reuse.heirs}


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
