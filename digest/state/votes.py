"""Where readers' votes came from, so they can be taken back or taken once: the votes each Matrix
event carried (a redaction of the event undoes them, if still current) and the clicks already
taken, Slack requests and the unsubscribes a web face kept (a replay to any web replica, or a
second writer of a kept click, records nothing twice).

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from digest.state.ratings import RATINGS, current, write
from digest.state.tables import Tables
from digest.state.web import named, paused

# schema.SCHEMA's migration for these tables (and the ratings' `origin`).
SCHEMA = """
    ALTER TABLE ratings ADD COLUMN origin TEXT NOT NULL DEFAULT '';  -- the Matrix event, if any
    CREATE TABLE matrix_votes (
        event_id      TEXT NOT NULL,                   -- the reply or reaction that voted
        room_id       TEXT NOT NULL,
        subscriber    TEXT NOT NULL,
        paper_id      TEXT NOT NULL,
        rating        INTEGER NOT NULL,                -- +1 up, -1 down
        voted_at      TEXT NOT NULL,
        before        INTEGER,                         -- the rating it replaced (NULL: none)
        before_at     TEXT NOT NULL DEFAULT '',
        before_via    TEXT NOT NULL DEFAULT '',
        before_origin TEXT NOT NULL DEFAULT '',
        undone_at     TEXT,                            -- when the event was redacted
        PRIMARY KEY (event_id, subscriber, paper_id)
    );
    CREATE TABLE slack_requests (
        key   TEXT PRIMARY KEY,                        -- a hash of the request's signature
        until TEXT NOT NULL                            -- its timestamp is refused after this
    );
"""
# schema.SCHEMA's migration for the ✅ the bot put to acknowledge votes.
ACKS_SCHEMA = """
    CREATE TABLE matrix_acks (
        event_id   TEXT NOT NULL,                      -- the reply or reaction acknowledged
        room_id    TEXT NOT NULL,
        target     TEXT NOT NULL,                      -- the event the ✅ is on
        ack_event  TEXT NOT NULL,                      -- the ✅ ('' if not known)
        PRIMARY KEY (event_id, room_id)
    );
"""
# The `until` of a click's key kept for good: past every stamp, it is never stale.
FOR_GOOD = "9999-12-31T23:59:59Z"
MAX_CHAIN = 1000  # older votes looked through when undoing one; a guard, never reached


class Votes(Tables):
    """The Matrix votes and the Slack requests taken."""

    # Matrix

    def matrix(
        self, event_id: str, room_id: str, votes: Iterable[tuple[str, str, str]], now: datetime
    ) -> None:
        """Record the (subscriber, paper id, up|down) votes of one event, each remembering the
        rating it replaced, so that undoing it restores that one."""
        at = self.stamp(now)
        with self.transaction() as db:
            # Each rating's lock in one order for every worker (one paper's votes in theirs): two
            # events locking two papers each way round would wait on each other.
            for subscriber, paper_id, vote in sorted(votes, key=lambda v: v[:2]):
                was = current(db, subscriber, paper_id)
                before = (None, "", "", "") if was is None else tuple(was)
                db.execute(
                    "INSERT OR IGNORE INTO matrix_votes (event_id, room_id, subscriber,"
                    " paper_id, rating, voted_at, before, before_at, before_via, before_origin)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (event_id, room_id, subscriber, paper_id, RATINGS[vote], at, *before),
                )
                write(db, subscriber, paper_id, RATINGS[vote], at, "matrix", event_id)

    def carried(self, event_id: str, room_id: str) -> bool:
        """True when the event, in this room, carried votes not yet undone."""
        return (
            self.db.execute(
                "SELECT 1 FROM matrix_votes WHERE event_id = ? AND room_id = ?"
                " AND undone_at IS NULL LIMIT 1",
                (event_id, room_id),
            ).fetchone()
            is not None
        )

    def undo(self, event_id: str, room_id: str, now: datetime) -> list[tuple[str, str, str]]:
        """The event was redacted: each vote it carried that is still its reader's current one
        gives way to the rating it replaced (skipping votes whose events were redacted since);
        a later vote stands. The (subscriber, paper id, rating now) of each vote undone."""
        undone = []
        with self.transaction() as db:
            rows = db.execute(
                "SELECT subscriber, paper_id FROM matrix_votes WHERE event_id = ?"
                " AND room_id = ? AND undone_at IS NULL ORDER BY subscriber, paper_id",
                (event_id, room_id),
            ).fetchall()
            db.execute(
                "UPDATE matrix_votes SET undone_at = ? WHERE event_id = ? AND room_id = ?",
                (self.stamp(now), event_id, room_id),
            )
            for subscriber, paper_id in rows:
                now_row = current(db, subscriber, paper_id)
                if now_row is None or now_row["origin"] != event_id:
                    continue  # another vote came after it: that one counts
                rating, at, via, origin = self._before(subscriber, paper_id, event_id)
                write(db, subscriber, paper_id, rating, at, via, origin)
                word = "none" if rating is None else ("up" if rating > 0 else "down")
                undone.append((subscriber, paper_id, word))
        return undone

    def acked(self, event_id: str, room_id: str, target: str, ack_event: str) -> None:
        """The ✅ on `target` acknowledges `event_id`; ack_event '' when the homeserver said a ✅
        was there already (a reaction before it on the same alert): that one's is kept."""
        with self.transaction() as db:
            if not ack_event:
                row = db.execute(
                    "SELECT ack_event FROM matrix_acks WHERE room_id = ? AND target = ?"
                    " AND ack_event != '' LIMIT 1",
                    (room_id, target),
                ).fetchone()
                ack_event = row["ack_event"] if row else ""
            db.execute(
                "INSERT OR IGNORE INTO matrix_acks (event_id, room_id, target, ack_event)"
                " VALUES (?,?,?,?)",
                (event_id, room_id, target, ack_event),
            )

    def unacked(self, event_id: str, room_id: str) -> str:
        """The redacted event no longer needs its ✅: the ✅'s event id when no other event it
        acknowledges is left (the bot removes it), else ''."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT target, ack_event FROM matrix_acks WHERE event_id = ? AND room_id = ?",
                (event_id, room_id),
            ).fetchone()
            if row is None:
                return ""
            db.execute(
                "DELETE FROM matrix_acks WHERE event_id = ? AND room_id = ?", (event_id, room_id)
            )
            others = db.execute(
                "SELECT 1 FROM matrix_acks WHERE room_id = ? AND target = ? LIMIT 1",
                (room_id, row["target"]),
            ).fetchone()
            return "" if others else str(row["ack_event"])

    def _before(
        self, subscriber: str, paper_id: str, event_id: str
    ) -> tuple[int | None, str, str, str]:
        """The rating that stood before this event's vote, passing over the votes of events
        that were redacted meanwhile (their own undo found a later vote and changed nothing)."""
        for _ in range(MAX_CHAIN):
            row = self.db.execute(
                "SELECT before, before_at, before_via, before_origin, undone_at FROM"
                " matrix_votes WHERE event_id = ? AND subscriber = ? AND paper_id = ?",
                (event_id, subscriber, paper_id),
            ).fetchone()
            if row is None:  # a rating from elsewhere (or from before this table): it stands
                break
            before = (row["before"], row["before_at"], row["before_via"], row["before_origin"])
            if not before[3] or not self._undone(before[3], subscriber, paper_id):
                return before
            event_id = before[3]
        return (None, "", "", "")

    def _undone(self, event_id: str, subscriber: str, paper_id: str) -> bool:
        row = self.db.execute(
            "SELECT undone_at FROM matrix_votes WHERE event_id = ? AND subscriber = ?"
            " AND paper_id = ?",
            (event_id, subscriber, paper_id),
        ).fetchone()
        return row is not None and row["undone_at"] is not None

    # Slack

    def click(
        self,
        key: str,
        until: datetime,
        votes: Iterable[tuple[str, str, str]],
        at: datetime,
        late: bool = False,
        pauses: Iterable[tuple[str, str]] = (),
    ) -> list[tuple[str, str, str, str]] | None:
        """Take one click, a Slack request or an unsubscribe: its key and its (subscriber, paper
        id, up|down) votes or its (subscriber, channel) pauses (web.paused()), in one
        transaction, so that a click is taken once on any number of web replicas and runs, and a
        failed write leaves it free to be tried again. None when the key was taken before (a
        replay); else the (subscriber, paper id, title, vote) recorded. A vote names its paper
        as its button's link does (state/web.py's link_name). `late`: written after a wait (a
        retry), it does not replace a rating given since `at`.

        A Slack request's key is kept until its timestamp is stale anyway; an unsubscribe's, and
        a late click's (taken now or before), for good: such a click may wait in <db>.clicks as
        long as its writer cannot mark it done there (a face's spool a run cannot write). Its key
        forgotten (an unsubscribe's `until` is its click), every settle wrote it again, and each
        `digest resume` was undone by the next run. They are few: one per kept click."""
        stamp = self.stamp(at)
        stops = list(pauses)
        kept = FOR_GOOD if late or stops else self.stamp(until)
        with self.transaction() as db:
            db.execute("DELETE FROM slack_requests WHERE until < ?", (stamp,))
            taken = db.execute(
                "INSERT OR IGNORE INTO slack_requests (key, until) VALUES (?, ?)", (key, kept)
            )
            if taken.rowcount != 1:
                if kept == FOR_GOOD:
                    db.execute("UPDATE slack_requests SET until = ? WHERE key = ?", (kept, key))
                return None
            for subscriber, channel in stops:
                paused(db, subscriber, [channel], stamp)
            recorded = []
            for subscriber, name, vote in sorted(votes, key=lambda v: v[:2]):  # as matrix()
                paper_id = named(db, subscriber, name)
                if paper_id is None:
                    continue
                paper = db.execute("SELECT title FROM papers WHERE id = ?", (paper_id,))
                title = paper.fetchone()
                was = current(db, subscriber, paper_id)
                if title is None or (late and was is not None and was["rated_at"] >= stamp):
                    continue
                write(db, subscriber, paper_id, RATINGS[vote], stamp, "slack", "")
                recorded.append((subscriber, paper_id, str(title[0]), vote))
        return recorded

    def taken(self, keys: Iterable[str]) -> set[str]:
        """Of these clicks' keys, those taken (recorded): a click <db>.clicks lists still, its
        done mark refused, is recorded all the same."""
        wanted = list(dict.fromkeys(keys))
        found: set[str] = set()
        for at in range(0, len(wanted), 500):  # (SQLite's variables: 999 at most in old builds)
            part = wanted[at : at + 500]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(f"SELECT key FROM slack_requests WHERE key IN ({marks})", part)
            found |= {str(r[0]) for r in rows}
        return found
