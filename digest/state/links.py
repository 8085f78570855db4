"""Whose an older unsubscribe link is: when its name is in the config again after a stint of that
name elsewhere ended (the name reused), the earlier stints' addresses and their heirs; of a name
gone from it, its renames; read from the stints as the next delivery pass records them
(heirs.py); and the channels a name's mail was sent in, where a link signed before a rotation is
looked for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from digest.state.heirs import heirs, mailed
from digest.state.pauses import Mailing, Stints, next_pass, passed, recorded
from digest.state.web import Web


@dataclass(frozen=True, slots=True)
class Reuse:
    """A name of the config whose present stints began as, or after, its earlier ones ended."""

    addresses: frozenset[str]  # where the earlier stints were
    heirs: tuple[str, ...]  # the subscribers of the config that are the earlier one renamed
    gap: bool  # the earlier stints ended a delivery pass or more before the present began


def reused(web: Web, name: str, mailing: Mailing, stints: Stints | None = None) -> Reuse | None:
    """The name's earlier stints, when every present one (its e-mail's addresses now, first
    begun) began as or after they ended: dana renamed dana1 and a newcomer named dana, whose
    mail goes elsewhere. None when a present stint began before (the same reader, an address
    dropped), one is of before schema 17 (when it began is not known), or the earlier ones
    ended in the pass the present began with no heir (the reader's `to` changed in one edit).
    `stints`: those next_stints() gives, read once for many names."""
    present = {a for to in mailing.get(name, {}).values() for a in to}
    stints = next_stints(web, mailing) if stints is None else stints
    own = {a: v for (s, a), v in stints.items() if s == name}
    begun = [v[3] or v[0] for a, v in own.items() if a in present]
    if not begun or any(b is None for b in begun):
        return None
    start = min(str(b) for b in begun)
    ended = {a: str(v[1]) for a, v in own.items() if a not in present and v[1] and v[1] <= start}
    if not ended:
        return None
    # Heirs of the earlier stints alone, as of a name gone from the config.
    earlier = {k: v for k, v in stints.items() if k[0] != name or k[1] in ended}
    names = heirs(name, earlier, set(mailing) - {name}, mailed(web.db))
    gap = max(ended.values()) < start
    if not names and not gap:
        return None
    return Reuse(frozenset(ended), tuple(n for n in names if n in mailing), gap)


def renames(web: Web, name: str, mailing: Mailing) -> list[str]:
    """The names of `mailing` (the config's) that are `name` renamed, once or more, wherever
    their e-mail goes now; none of a name still in it."""
    names = heirs(name, next_stints(web, mailing), mailing.keys(), mailed(web.db))
    return [n for n in names if n in mailing]


def channels_sent(web: Web, name: str) -> list[str]:
    """The channels a mail of `name` was sent in, whatever the config says now: a link signed
    before a rotation, its name renamed since, was looked for in the channels of the config's
    name alone, and none was (ops24 F2)."""
    rows = web.db.execute(
        "SELECT DISTINCT channel FROM outbox WHERE subscriber = ? AND status = 'sent'", (name,)
    )
    return sorted(str(r[0]) for r in rows)


def next_stints(web: Web, mailing: Mailing) -> Stints:
    """The stints as the next pass with `mailing` (the config's) records them (a view)."""
    kept = recorded(web.db)
    return passed(kept, mailing, next_pass(kept, datetime.now(UTC)))
