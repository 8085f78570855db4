"""The web face's tables, on store.py's connection: channels paused by their reader (one-click
unsubscribe), where each Matrix account's /sync left off, the Matrix events already counted, the
archive's reads (past digests, the papers they gave), and the papers a rating link names by a hash.

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from digest.models import Message, Paper, identity
from digest.state.engine import Engine
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


@dataclass(frozen=True, slots=True)
class Pause:
    subscriber: str
    channel: str
    since: str


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
        """Pause these channels, and with them their rows queued now, claimed ones too: a worker
        renews a row's lease just before sending it, which a paused row fails (a mail sent after
        the unsubscribe was answered, when only a delivery pass's start looked at the pauses)."""
        with self.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO pauses (subscriber, channel, since) VALUES (?,?,?)",
                [(subscriber, name, self.stamp(now)) for name in channels],
            )
            db.executemany(
                f"UPDATE outbox SET {_PAUSED} WHERE status = 'pending' AND subscriber = ?"
                " AND channel = ?",
                [(subscriber, name) for name in channels],
            )

    def resume(self, subscriber: str) -> list[str]:
        """Lift every pause of the subscriber; the channels that were paused."""
        with self.transaction() as db:
            names = [
                r[0]
                for r in db.execute(
                    "SELECT channel FROM pauses WHERE subscriber = ? ORDER BY channel",
                    (subscriber,),
                )
            ]
            db.execute("DELETE FROM pauses WHERE subscriber = ?", (subscriber,))
        return names

    def pauses(self) -> list[Pause]:
        rows = self.db.execute("SELECT * FROM pauses ORDER BY subscriber, channel")
        return [Pause(r["subscriber"], r["channel"], r["since"]) for r in rows]

    def hold_paused(self) -> int:
        """Pending rows of paused channels leave the queue for good (status 'paused'): a reader
        who comes back gets the next digest, not a backlog."""
        if self.db.execute("SELECT 1 FROM pauses LIMIT 1").fetchone() is None:
            return 0  # the usual case: no write transaction on every delivery
        with self.transaction() as db:
            return db.execute(
                f"UPDATE outbox SET {_PAUSED} WHERE status = 'pending' AND EXISTS (SELECT 1"
                " FROM pauses"
                " WHERE pauses.subscriber = outbox.subscriber"
                " AND pauses.channel = outbox.channel)"
            ).rowcount

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

    def digest_message(self, subscriber: str, period: str) -> Message | None:
        """The message of one digest, as its channels got it."""
        row = self.db.execute(
            "SELECT outbox.message FROM outbox JOIN digests ON digests.id = outbox.digest_id"
            " WHERE digests.subscriber = ? AND digests.period = ? AND outbox.purpose = 'digest'"
            " ORDER BY outbox.id LIMIT 1",
            (subscriber, period),
        ).fetchone()
        return None if row is None else Message.from_dict(json.loads(row[0]))
