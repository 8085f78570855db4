"""The web face's tables, on store.py's connection (which owns the schema and transactions):
channels paused by their reader (one-click unsubscribe) and the addresses they stop, where each
Matrix account's /sync left off, the Matrix events counted, the archive's reads, rating links."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from digest.models import Message, Paper, identity
from digest.state.catalog import Catalog
from digest.state.engine import Engine
from digest.state.heirs import heirs, mailed
from digest.state.pauses import (
    Mailing,
    Pause,
    Target,
    addressed,
    next_pass,
    passed,
    reaching,
    recorded,
    remember,
)
from digest.state.tables import Tables

# schema.SCHEMA's migration for these tables (and the ratings' `via`).
SCHEMA = """
    ALTER TABLE ratings ADD COLUMN via TEXT NOT NULL DEFAULT 'cli';  -- cli | web | matrix | slack
    CREATE TABLE pauses (
        subscriber TEXT NOT NULL,
        channel    TEXT NOT NULL,                      -- the channel's name within the subscriber
        since      TEXT NOT NULL,
        PRIMARY KEY (subscriber, channel)
    );
    CREATE TABLE matrix_since (
        account TEXT PRIMARY KEY,                      -- a digest of homeserver and token
        since   TEXT NOT NULL                          -- next_batch of the last /sync
    );
    CREATE TABLE matrix_seen (
        event_id TEXT PRIMARY KEY,                     -- a reply or reaction already counted
        seen_at  TEXT NOT NULL
    );
"""

# Characters: a paper id longer than this is named in rating links by a hash of it. Signed whole,
# a feed's id of 1,500 characters made a link over the 2,000 characters a token or a Slack
# button's value may hold: refused as damaged, or cut and silently nothing.
LONG_ID = 200
HASHED = "sha256:"


def link_name(paper_id: str) -> str:
    """How a rating link names a paper: by its id, or a long one by a hash of it."""
    if len(paper_id) <= LONG_ID:
        return paper_id
    return HASHED + hashlib.sha256(paper_id.encode("utf-8", "surrogatepass")).hexdigest()


def named(db: Engine, subscriber: str, name: str) -> str | None:
    """The id of the stored paper a rating link of the subscriber's names, or None. A hash is
    looked for among the long ids of the papers given to the subscriber (by a digest or an
    alert): the only ones their links name. A paper no longer stored under the id its link
    names was folded since into another (catalog.py's _fold: a journal's record alerted, then
    the arXiv record naming its DOI), which is named instead: else the alert's 👍/👎 and Slack
    buttons were "Unknown paper", and the reader's vote was lost."""
    if db.execute("SELECT 1 FROM papers WHERE id = ?", (name,)).fetchone() is not None:
        return name
    if not name.startswith(HASHED):
        return _folded_into(db, subscriber, name)
    rows = db.execute(
        "SELECT paper_id FROM sent WHERE subscriber = ? AND length(paper_id) > ?"
        " UNION SELECT paper_id FROM alerts WHERE subscriber = ? AND length(paper_id) > ?",
        (subscriber, LONG_ID, subscriber, LONG_ID),
    )
    found = next((str(r[0]) for r in rows if link_name(str(r[0])) == name), None)
    return found or _folded_into(db, subscriber, name)


# Whether the subscriber was given paper_keys' paper (each mark takes the subscriber).
_GIVEN = (
    "(EXISTS (SELECT 1 FROM alerts WHERE subscriber = ? AND paper_id = paper_keys.paper_id)"
    " OR EXISTS (SELECT 1 FROM sent WHERE subscriber = ? AND paper_id = paper_keys.paper_id))"
)


def _folded_into(db: Engine, subscriber: str, name: str) -> str | None:
    """The paper a copy's id (or its hash) names through the copy's keys, which the fold pointed
    at the paper it was folded into; its alert moved there too. Only a paper given to the
    reader: a title key the copy shared with an unrelated paper is that one's."""
    if name.startswith(HASHED):  # a long id, whole in one of its keys
        rows = db.execute(
            "SELECT paper_keys.key, paper_keys.paper_id FROM paper_keys JOIN (SELECT paper_id"
            " FROM alerts WHERE subscriber = ? UNION SELECT paper_id FROM sent WHERE subscriber"
            " = ?) given ON given.paper_id = paper_keys.paper_id WHERE length(key) > ?",
            (subscriber, subscriber, LONG_ID),
        )
        forms = ((str(r[0]), str(r[1])) for r in rows)
        return next((p for k, p in forms if name in (link_name(k), _bare(k))), None)
    for key in identity.keys(Paper(name, "", "")):  # no title: only the keys its id makes
        row = db.execute(
            f"SELECT paper_id FROM paper_keys WHERE key = ? AND {_GIVEN}",
            (key, subscriber, subscriber),
        ).fetchone()
        if row is not None:
            return str(row[0])
    return None


def _bare(key: str) -> str:
    """The link name of the id a key was made of ("doi:10.x/…" of a DOI id "10.x/…")."""
    return link_name(key.split(":", 1)[1]) if identity.kind(key) in ("arxiv", "doi") else ""


_PAUSED = (
    "status = 'paused', next_try_at = NULL,"
    " last_error = 'paused by the reader (one-click unsubscribe)'"
)


def paused(db: Engine, subscriber: str, channels: list[str], since: str) -> None:
    """Pause these channels (each a name, or addressed(): its name and the addresses it stops),
    and with them their rows queued now, claimed ones too: a worker renews a row's lease just
    before sending it, which a paused row fails (a mail sent after the unsubscribe was answered,
    when only a delivery pass's start looked at the pauses). In the caller's transaction."""
    rows = db.execute("SELECT channel FROM pauses WHERE subscriber = ?", (subscriber,))
    kept = {str(r[0]).partition("\n")[2] for r in rows}  # stopped once: that time stands
    new = [(subscriber, c, since) for c in channels if c.partition("\n")[2] not in kept - {""}]
    db.executemany("INSERT OR IGNORE INTO pauses (subscriber, channel, since) VALUES (?,?,?)", new)
    db.executemany(
        f"UPDATE outbox SET {_PAUSED} WHERE status = 'pending' AND subscriber = ? AND channel = ?",
        [(subscriber, c.partition("\n")[0]) for c in channels],
    )


@dataclass(frozen=True, slots=True)
class Sent:
    """One delivered message of a channel: its outbox row, the events or ids it went out as."""

    row_id: int
    subscriber: str
    channel: str
    purpose: str
    receipt: str
    message: Message


class Web(Tables):
    """Pauses, Matrix sync positions and seen events, and the archive's queries."""

    # one-click unsubscribe

    def pause(self, subscriber: str, channels: list[str], now: datetime) -> None:
        """Pause these channels, as paused() does, in a transaction of their own."""
        with self.transaction() as db:
            paused(db, subscriber, channels, self.stamp(now))

    def resume(self, subscriber: str, mailing: Mailing | None = None) -> list[str]:
        """Lift every pause of the subscriber; the channels that were paused. With `mailing` (the
        config's), as the next pass holds them: of a new name, also its old name's (_follow:
        `resume alicia` had said "nothing was paused", and the next run moved alice's pause there
        and held it); of a name gone from it, also those at its addresses where a pass moved
        them (its heirs'): `resume alice` had moved her pause to alicia itself, then said so."""
        if mailing is not None and subscriber in mailing:
            self._follow(self.pauses(), mailing)
        lifted = self.lifted(subscriber, mailing or {subscriber: {}})
        with self.transaction() as db:
            db.executemany(
                "DELETE FROM pauses WHERE subscriber = ? AND channel = ?",
                [(p.subscriber, addressed(p.channel, p.addresses)) for p in lifted],
            )
        return sorted({p.channel for p in lifted})

    def lifted(self, subscriber: str, mailing: Mailing) -> list[Pause]:
        """The pauses `resume` of the subscriber lifts, as they stand (see resume())."""
        at = set() if subscriber in mailing else self.mailed_at(subscriber)
        new = self._renames(subscriber, mailing) if at else []  # deleted ones too: hers
        return [
            p
            for p in self.pauses()
            if p.subscriber == subscriber
            or (p.subscriber in new and not at.isdisjoint(p.addresses))
        ]

    def pauses(self) -> list[Pause]:
        rows = self.db.execute("SELECT * FROM pauses ORDER BY subscriber, channel")
        kept = [(r["subscriber"], str(r["channel"]).split("\n"), r["since"]) for r in rows]
        return [Pause(s, name, since, tuple(to)) for s, (name, *to), since in kept]

    def following(self, mailing: Mailing) -> list[Pause]:
        """The pauses as the next delivery pass holds them: one of a reader renamed since under
        the new name, or each new name (_moves), though the pass has not moved it yet."""
        moved = dict(self._moves(pauses := self.pauses(), mailing))
        return [replace(p, subscriber=s) for p in pauses for s in moved.get(p, [p.subscriber])]

    def stopped(
        self, targets: Iterable[Target], mailing: Mailing | None = None
    ) -> dict[tuple[str, str], str]:
        """Of these e-mail channels, those a pause holds (as the next pass will: following()),
        and since when."""
        pauses = self.pauses() if mailing is None else self.following(mailing)
        return {
            (s, c): min(p.since for p in held)
            for s, c, to in targets
            if (held := [p for p in pauses if p.holds(s, c, to)])
        }

    def mailed_at(self, subscriber: str) -> set[str]:
        """The addresses the subscriber's e-mail went to, as runs and pauses recorded them."""
        rows = self.db.execute("SELECT address FROM stints WHERE subscriber = ?", (subscriber,))
        kept = [p.addresses for p in self.pauses() if p.subscriber == subscriber]
        return {str(r[0]) for r in rows} | {a for to in kept for a in to}

    def hold_paused(self, mailing: Mailing | None = None) -> int:
        """Pending rows of paused channels leave the queue for good (status 'paused'): a reader
        who comes back gets the next digest, not a backlog. A pause by addresses holds the
        channels of `mailing` (the config's) that go to one of them, and none without it; each
        subscriber's stints at its addresses are recorded from it too."""
        if mailing is not None:
            remember(self.transaction, recorded(self.db), mailing, datetime.now(UTC))
        pauses = self.pauses()
        if not pauses:
            return 0  # the usual case: no write transaction on every delivery
        if mailing is not None and self._follow(pauses, mailing):
            pauses = self.pauses()
        held = {(p.subscriber, p.channel) for p in pauses if not p.addresses}
        for subscriber, channels in (mailing or {}).items():
            for name, to in channels.items():
                if any(p.addresses and p.holds(subscriber, name, to) for p in pauses):
                    held.add((subscriber, name))
        if not held:
            return 0
        with self.transaction() as db:
            return sum(
                db.execute(
                    f"UPDATE outbox SET {_PAUSED} WHERE status = 'pending' AND subscriber = ?"
                    " AND channel = ?",
                    pair,
                ).rowcount
                for pair in sorted(held)
            )

    def _follow(self, pauses: list[Pause], mailing: Mailing) -> bool:
        """Move each pause of a reader renamed since to the new name, or copy it to each of
        several (_moves)."""
        moves = self._moves(pauses, mailing)
        if not moves:
            return False
        with self.transaction() as db:
            for p, to in moves:
                row = (addressed(p.channel, p.addresses), p.since)
                db.executemany(
                    "INSERT OR IGNORE INTO pauses (subscriber, channel, since) VALUES (?,?,?)",
                    [(s, *row) for s in to],
                )
                db.execute(
                    "DELETE FROM pauses WHERE subscriber = ? AND channel = ?",
                    (p.subscriber, row[0]),
                )
        return True

    def _moves(self, pauses: list[Pause], mailing: Mailing) -> list[tuple[Pause, list[str]]]:
        """Each pause of a subscriber the config no longer names, with its heirs of the config
        (heirs.heirs), wherever their e-mail goes now (the pause holds its addresses alone): two
        renamed at once (alice, alice-vision) both hold it: its address is not mailed."""
        gone = [p for p in pauses if p.addresses and p.subscriber not in mailing]
        found = [
            (p, [s for s in self._renames(p.subscriber, mailing) if s in mailing]) for p in gone
        ]
        return [(p, to) for p, to in found if to]

    def heirs(self, old: str, addresses: Iterable[str], mailing: Mailing) -> list[str]:
        """The subscribers of the config that are `old` renamed (once or more) whose e-mail goes
        only to these addresses, as the next pass records their stints."""
        new, at = self._renames(old, mailing), set(addresses)
        return sorted({s for s, _, _ in reaching(mailing, at) if s in new})

    def _renames(self, old: str, mailing: Mailing) -> list[str]:
        """The names `old` was renamed to, one rename after another, as the next pass with
        `mailing` (the config's) records their stints (heirs.heirs; a view, written by
        hold_paused alone): of the config, or deleted since."""
        kept = recorded(self.db)
        stints = passed(kept, mailing, next_pass(kept, datetime.now(UTC)))
        return heirs(old, stints, mailing.keys(), mailed(self.db))

    def renamed(self, subscriber: str, mailing: Mailing) -> list[Target]:
        """The e-mail channels an older mail's link of a subscriber the config no longer names
        stops: its heirs' that go only where its mail went; none of a subscriber deleted (a
        sibling at the address was stopped) or never known there."""
        at = self.mailed_at(subscriber)
        new = self.heirs(subscriber, at, mailing) if at else []
        return [t for t in reaching(mailing, at) if t[0] in new]

    # Matrix replies

    def since(self, account: str) -> str | None:
        row = self.db.execute(
            "SELECT since FROM matrix_since WHERE account = ?", (account,)
        ).fetchone()
        return None if row is None else str(row[0])

    def save_since(self, account: str, since: str) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO matrix_since (account, since) VALUES (?, ?)"
                " ON CONFLICT (account) DO UPDATE SET since = excluded.since",
                (account, since),
            )

    def seen(self, event_id: str) -> bool:
        row = self.db.execute("SELECT 1 FROM matrix_seen WHERE event_id = ?", (event_id,))
        return row.fetchone() is not None

    def mark_seen(self, event_id: str, now: datetime) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO matrix_seen (event_id, seen_at) VALUES (?, ?)",
                (event_id, self.stamp(now)),
            )

    def claim(self, event_id: str, now: datetime) -> bool:
        """Mark the event seen; True for the one caller that marked it first, who counts it
        (two workers reading the same room at once count each event once)."""
        with self.transaction() as db:
            return (
                db.execute(
                    "INSERT OR IGNORE INTO matrix_seen (event_id, seen_at) VALUES (?, ?)",
                    (event_id, self.stamp(now)),
                ).rowcount
                == 1
            )

    def sent_messages(
        self, subscriber: str, channel: str, limit: int = 50, purpose: str | None = None
    ) -> list[Sent]:
        """The channel's delivered messages (of one purpose: digest, alert, notice), newest
        first."""
        only, args = (" AND purpose = ?", (purpose,)) if purpose else ("", ())
        rows = self.db.execute(
            "SELECT id, subscriber, channel, purpose, receipt, message FROM outbox"
            f" WHERE subscriber = ? AND channel = ? AND status = 'sent'{only}"
            " ORDER BY id DESC LIMIT ?",
            (subscriber, channel, *args, limit),
        )
        return [
            Sent(r[0], r[1], r[2], r[3], r[4], Message.from_dict(json.loads(r[5]))) for r in rows
        ]

    def sent_as(self, subscriber: str, channel: str, event_id: str) -> Sent | None:
        """The channel's delivered message that went out as this event (one of its receipt's
        ids), however long ago."""
        rows = self.db.execute(
            "SELECT id, subscriber, channel, purpose, receipt, message FROM outbox"
            " WHERE subscriber = ? AND channel = ? AND status = 'sent' AND receipt LIKE ?"
            " ORDER BY id DESC",
            (subscriber, channel, f"%{event_id}%"),  # a wildcard in the id only finds more
        )
        for r in rows:
            if event_id in str(r[4]).split():
                return Sent(r[0], r[1], r[2], r[3], r[4], Message.from_dict(json.loads(r[5])))
        return None

    # the archive and the feed

    def digests(self, subscriber: str, limit: int = 200) -> list[dict[str, Any]]:
        """The subscriber's digests that had papers, newest first."""
        rows = self.db.execute(
            "SELECT id, period, day, made_at, picked FROM digests"
            " WHERE subscriber = ? AND picked > 0 ORDER BY made_at DESC, id DESC LIMIT ?",
            (subscriber, limit),
        )
        return [dict(r) for r in rows]

    def named(self, subscriber: str, name: str) -> str | None:
        """The id of the paper the subscriber's rating link names (see named())."""
        return named(self.db, subscriber, name)

    def paper(self, subscriber: str, name: str) -> Paper | None:
        """The stored paper the subscriber's rating link names, whose title its page shows and
        which the vote and its undo rate (a copy folded since: the paper it was folded into)."""
        found = named(self.db, subscriber, name)
        return (
            None if found is None else Catalog(self.db, self.transaction, self.stamp).paper(found)
        )

    def digest_message(self, subscriber: str, period: str) -> Message | None:
        """The message of one digest, as its channels got it."""
        row = self.db.execute(
            "SELECT outbox.message FROM outbox JOIN digests ON digests.id = outbox.digest_id"
            " WHERE digests.subscriber = ? AND digests.period = ? AND outbox.purpose = 'digest'"
            " ORDER BY outbox.id LIMIT 1",
            (subscriber, period),
        ).fetchone()
        return None if row is None else Message.from_dict(json.loads(row[0]))
