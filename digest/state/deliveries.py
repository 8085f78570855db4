"""Digests made per subscriber and period, the papers each subscriber was given, and the outbox
of deliveries (claimed by one process at a time, for a lease; who holds a claim: claims.py): the
Store's own tables (store.py)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from digest.models import Digest, Message
from digest.state.catalog import giving, papers_of
from digest.state.claims import unheld
from digest.state.dialect import server_stamp
from digest.state.engine import Engine
from digest.state.lineage import Parts, refused

# How long a claimed outbox row stays its worker's: a worker killed mid-send leaves its rows to the
# others once it ends. Renewed before each post (each part, each try after a rate limit).
LEASE = timedelta(minutes=10)
# On PostgreSQL a lease is timed on the database server's clock: on each worker's own, one 10
# minutes slow had its leases end at once on the others', which took its rows mid-send.
CLOCK, LEASE_END = server_stamp(), server_stamp(LEASE)


def stamp(moment: datetime) -> str:
    """One text form for every instant, so SQLite can compare them as strings."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    subscriber: str
    period: str
    day: date
    channel: str
    kind: str
    message: Message | None  # None in a claim (due()): message() loads it when it is sent
    status: str
    attempts: int
    next_try_at: str | None
    last_error: str
    parts_sent: int = 0
    purpose: str = "digest"  # digest | alert | notice
    # Of the parts sent, those claimed and posted whose answer never came (at-most-once
    # channels): kept in the receipt column until the row is sent.
    unconfirmed: tuple[int, ...] = ()
    # The recipients still owed a message that the others have (email: some refused at RCPT):
    # kept in the receipt column until the row is sent; () = every recipient.
    owed: tuple[str, ...] = ()
    created_at: str = ""  # when the row was made: a part of its idempotency key
    token: str = ""  # random, made with the row: the rest of that key


UNCONFIRMED = "unconfirmed parts:"  # a pending row's receipt: "unconfirmed parts: 1 3" or "none"
OWED = "owed recipients:"  # a pending or dead row's receipt: 'owed recipients: ["b@example.org"]'


def unconfirmed_receipt(parts: Iterable[int]) -> str:
    return f"{UNCONFIRMED} {' '.join(str(n) for n in sorted(parts)) or 'none'}"


def owed_receipt(addresses: Iterable[str]) -> str:
    return f"{OWED} {json.dumps(list(addresses))}"


class Deliveries:
    """The digests, sent and outbox tables, over the store's connection."""

    db: Engine
    worker: str  # the name it goes by (DIGEST_WORKER)
    claim: str  # what this process writes in the rows it claims (claims.py)
    transaction: Callable[[], AbstractContextManager[Engine]]

    # digests and what each subscriber was given

    def has_digest(self, subscriber: str, period: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM digests WHERE subscriber = ? AND period = ?", (subscriber, period)
        ).fetchone()
        return row is not None

    def last_digest(self, subscriber: str) -> tuple[str, str] | None:
        """(period, made_at) of this subscriber's digest made last (None: none yet)."""
        row = self.db.execute(
            "SELECT period, made_at FROM digests WHERE subscriber = ? ORDER BY id DESC LIMIT 1",
            (subscriber,),
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def considered_through(self, subscriber: str) -> int:
        """The last paper seq an earlier digest of this subscriber looked at (0: none yet)."""
        row = self.db.execute(
            "SELECT coalesce(max(through_seq), 0) FROM digests WHERE subscriber = ?", (subscriber,)
        ).fetchone()
        return int(row[0])

    def sent_ids(self, subscriber: str, ids: Iterable[str]) -> set[str]:
        return papers_of(self.db, "sent", subscriber, ids)

    def record_digest(
        self,
        digest: Digest,
        through_seq: int,
        messages: Sequence[tuple[str, str, Message]],
        purpose: str = "digest",  # "notice": the one-line message of a quiet period
        earlier: Parts = (),  # the reader's earlier names (lineage.py): checked as its own
    ) -> int | str:
        """Write the digest, its papers and an outbox row per (channel name, kind, message) in
        one transaction, before any network call. Returns its id, or why not: "already made",
        "clock behind" (a later period's made meanwhile), "given meanwhile" (another worker's
        digest of another period gave some of its papers), "alerted meanwhile" (another
        worker's alert did), under its name or an earlier one."""
        made = stamp(digest.made_at)
        top = max((s.score for s in digest.items), default=None)
        given = [*digest.items, *(h.scored for h in digest.held)]  # held alerts are given too
        with self.transaction() as db:
            # One subscriber's digests (and alerts) one at a time, each checked against the
            # others: two workers with clocks in two periods had both given the same papers.
            # Its earlier names' too, in one order: a worker on the config before the rename
            # makes the old name's digest one at a time with the new name's.
            for name in sorted({digest.subscriber, *(p[0] for p in earlier)}):
                db.lock(giving(name))
            ids = [s.paper.id for s in given]
            if why := refused(db, digest.subscriber, digest.period, made, ids, earlier):
                return why
            # The unique (subscriber, period) decides between workers making the same digest.
            row = db.execute(
                "INSERT OR IGNORE INTO digests (subscriber, period, day, made_at, through_seq,"
                " picked, top_score) VALUES (?,?,?,?,?,?,?) RETURNING id",
                (
                    digest.subscriber,
                    digest.period,
                    digest.day.isoformat(),
                    made,
                    through_seq,
                    len(given),
                    top,
                ),
            ).fetchone()
            if row is None:
                return "already made"
            digest_id = int(row[0])
            db.executemany(
                "INSERT OR IGNORE INTO sent (subscriber, paper_id, digest_id) VALUES (?,?,?)",
                [(digest.subscriber, s.paper.id, digest_id) for s in given],
            )
            db.executemany(
                "INSERT INTO outbox (digest_id, subscriber, period, day, channel, kind, message,"
                " created_at, purpose, token) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [
                    (digest_id, digest.subscriber, digest.period, digest.day.isoformat(), name)
                    + (kind, json.dumps(msg.as_dict()), made, purpose, secrets.token_hex(8))
                    for name, kind, msg in messages
                ],
            )
            return digest_id

    # the outbox

    def due(self, now: datetime, subscriber: str | None = None) -> list[OutboxRow]:
        """Claim the pending rows whose time has come (only `subscriber`'s, when given) and that
        no other process holds (or whose lease ended): they are this process's for LEASE."""
        whose, args = ("", ()) if subscriber is None else (" AND subscriber = ?", (subscriber,))
        leased: tuple[str, ...] = ()
        back: list[str] = []
        if self.db.kind == "postgres":
            until, (held, back) = LEASE_END, unheld(self.db, self.worker, self.claim)
        else:  # the run lock lets one run at a time in: a claim left there is a dead run's
            until, held, leased = "?", "", (stamp(now + LEASE),)
        with self.transaction() as db:
            rows = db.execute(
                f"UPDATE outbox SET claimed_by = ?, lease_until = {until} WHERE id IN (SELECT id"
                " FROM outbox WHERE status = 'pending'"
                f" AND (next_try_at IS NULL OR next_try_at <= ?){held}{whose}"
                f" ORDER BY id FOR UPDATE SKIP LOCKED) RETURNING {CLAIMED}",
                (self.claim, *leased, stamp(now), *back, *args),
            ).fetchall()
        # Without their messages: a run may claim thousands of digests, tens of kilobytes each.
        return sorted((_outbox(r) for r in rows), key=lambda r: r.id)

    def message(self, row_id: int) -> Message | None:
        """The message of one outbox row (a claim from due() comes without it); None: no such
        row."""
        row = self.db.execute("SELECT message FROM outbox WHERE id = ?", (row_id,)).fetchone()
        return None if row is None else Message.from_dict(json.loads(row[0]))

    def renew(self, row_id: int, now: datetime) -> bool:
        """Just before sending: is the row still this process's (not taken over after its lease
        ended, nor sent by another)? If so, its lease starts again."""
        if self.db.kind == "sqlite":  # one run at a time (the run lock): its own, unless paused
            row = self.db.execute("SELECT status FROM outbox WHERE id = ?", (row_id,)).fetchone()
            return row is not None and row[0] == "pending"
        with self.transaction() as db:
            return bool(
                db.execute(
                    f"UPDATE outbox SET lease_until = {LEASE_END} WHERE id = ? AND claimed_by = ?"
                    " AND status = 'pending'",
                    (row_id, self.claim),
                ).rowcount
            )

    def outbox(self, status: str | None = None) -> list[OutboxRow]:
        query, args = "SELECT * FROM outbox ORDER BY id", tuple[str, ...]()
        if status:
            query, args = "SELECT * FROM outbox WHERE status = ? ORDER BY id", (status,)
        return [_outbox(r) for r in self.db.execute(query, args)]

    def release(self) -> int:
        """Give back the claims this process did not use (rows left for a later run): another
        worker may take them at once instead of when the lease ends."""
        with self.transaction() as db:
            return db.execute(
                "UPDATE outbox SET lease_until = NULL WHERE claimed_by = ? AND status = 'pending'"
                " AND lease_until IS NOT NULL",
                (self.claim,),
            ).rowcount

    def mark_sent(self, row_id: int, receipt: str, now: datetime) -> bool:
        """The row is sent, if this worker still holds it (False: taken over, nothing changed)."""
        return not self.mark_many([(row_id, receipt, now)])

    def mark_many(
        self,
        sent: Sequence[tuple[int, str, datetime]],
        parts: Sequence[tuple[int, int] | tuple[int, int, Iterable[int]]] = (),
        renew: datetime | None = None,
    ) -> set[int]:
        """Several rows' marks in one transaction (the outbox's group commit): (row id, receipt,
        when) sent; (row id, parts sent[, the parts of those that got no answer]) claimed, their
        lease renewed from `renew` when given.
        Only rows this worker still holds change: returns the ids of those it no longer holds
        (taken over by another worker once its lease ended, or no longer pending)."""
        lost: set[int] = set()
        mine = " WHERE id = ? AND claimed_by = ? AND status = 'pending'"
        with self.transaction() as db:
            lease = ""
            if renew is not None:
                end = LEASE_END if self.db.kind == "postgres" else f"'{stamp(renew + LEASE)}'"
                lease = f", lease_until = {end}"
            for row_id, count, *unsure in parts:
                if unsure:  # the parts posted that got no answer (so far)
                    query = f"UPDATE outbox SET parts_sent = ?, receipt = ?{lease}{mine}"
                    args: tuple[Any, ...] = (count, unconfirmed_receipt(unsure[0]))
                else:
                    query, args = f"UPDATE outbox SET parts_sent = ?{lease}{mine}", (count,)
                if not db.execute(query, (*args, row_id, self.claim)).rowcount:
                    lost.add(row_id)
            for row_id, receipt, when in sent:
                done = db.execute(
                    "UPDATE outbox SET status = 'sent', sent_at = ?, receipt = ?, last_error = '',"
                    " attempts = attempts + 1, next_try_at = NULL, lease_until = NULL" + mine,
                    (stamp(when), receipt, row_id, self.claim),
                ).rowcount
                if not done:
                    lost.add(row_id)
        return lost

    def mark_failed(
        self,
        row_id: int,
        error: str,
        next_try: datetime | None,
        owed: Sequence[str] | None = None,
        counted: bool = True,
    ) -> bool:
        """Count a failed attempt (not `counted`: a try that got further); with no next try the
        row is dead until `digest retry`; `owed`: the recipients still owed it, kept. Only while
        this worker holds the row: False when it was taken over (nothing changed)."""
        receipt, args = ("", ()) if owed is None else (", receipt = ?", (owed_receipt(owed),))
        with self.transaction() as db:
            return bool(
                db.execute(
                    "UPDATE outbox SET attempts = attempts + ?, last_error = ?, next_try_at = ?,"
                    f" status = ?, lease_until = NULL{receipt} WHERE id = ? AND claimed_by = ?"
                    " AND status = 'pending'",
                    (
                        int(counted),
                        error,
                        None if next_try is None else stamp(next_try),
                        "dead" if next_try is None else "pending",
                        *args,
                        row_id,
                        self.claim,
                    ),
                ).rowcount
            )

    def record_parts(self, row_id: int, parts_sent: int) -> bool:
        """Persist how far a split message got, before the channel posts the next part (False:
        the row is no longer this worker's)."""
        return not self.mark_many([], [(row_id, parts_sent)])

    def revive_dead(self, subscriber: str | None = None, keep: Sequence[int] = ()) -> int:
        """`digest retry`: dead rows but `keep` (no try can send them) due again with fresh
        attempts, and pending ones due now (a clock set back had left them a day)."""
        revive = "UPDATE outbox SET status = 'pending', attempts = 0, next_try_at = NULL,"
        revive += " lease_until = NULL WHERE status = 'dead'"
        hasten = "UPDATE outbox SET next_try_at = NULL WHERE status = 'pending'"
        whose, args = ("", ()) if subscriber is None else (" AND subscriber = ?", (subscriber,))
        leave = f" AND id NOT IN ({', '.join('?' * len(keep))})" if keep else ""
        with self.transaction() as db:
            db.execute(hasten + " AND next_try_at IS NOT NULL" + whose, args)
            return db.execute(revive + whose + leave, (*args, *keep)).rowcount

    def drop_dead(
        self, labels: Sequence[str], subscriber: str | None, now: datetime
    ) -> list[OutboxRow]:
        """Give up dead rows (`digest retry --drop`): those of the given "subscriber/channel"
        labels (none: every dead row, or the subscriber's) become `dropped`, which counts as
        neither dead nor pending; the last error is kept and the receipt says when (returned)."""
        rows = [
            r
            for r in self.outbox("dead")
            if (subscriber is None or r.subscriber == subscriber)
            and (not labels or f"{r.subscriber}/{r.channel}" in labels)
        ]
        with self.transaction() as db:
            db.executemany(
                "UPDATE outbox SET status = 'dropped', next_try_at = NULL, lease_until = NULL,"
                " receipt = ? WHERE id = ? AND status = 'dead'",
                [(f"dropped by digest retry at {stamp(now)}", r.id) for r in rows],
            )
        return rows

    def outbox_counts(
        self, now: datetime | None = None, worker: str | None = None
    ) -> dict[str, int]:
        """The rows of each status. On PostgreSQL a pending row due and held by another process's
        live lease is being sent right now: it is counted apart, "in flight", not as pending
        (nothing needs attention); a lease on the database server's clock. `now`: the run's
        clock, for the rows due (by default that of the run this store started, else the time
        now); `worker`: the claim whose own leases count as pending (by default this process's
        as this store's worker, claims.py; "" for none: `digest status`)."""
        if self.db.kind != "postgres":  # one run at a time: a lease left is a dead run's
            rows = self.db.execute("SELECT status, count(*) FROM outbox GROUP BY status")
            return {status: n for status, n in rows}
        at = stamp(now or getattr(self, "clock", None) or datetime.now(UTC))
        rows = self.db.execute(
            f"SELECT CASE WHEN status = 'pending' AND lease_until > {CLOCK} AND claimed_by <> ?"
            " AND (next_try_at IS NULL OR next_try_at <= ?) THEN 'in flight' ELSE status END"
            " AS what, count(*) FROM outbox GROUP BY what",
            (self.claim if worker is None else worker, at),
        )
        return {status: n for status, n in rows}


# The columns of a claim: every one an OutboxRow has but the message.
CLAIMED = (
    "id, subscriber, period, day, channel, kind, status, attempts, next_try_at, last_error,"
    " parts_sent, purpose, receipt, created_at, token"
)


def _outbox(row: Any) -> OutboxRow:
    keys = row.keys()
    return OutboxRow(
        id=row["id"],
        subscriber=row["subscriber"],
        period=row["period"],
        day=date.fromisoformat(row["day"]),
        channel=row["channel"],
        kind=row["kind"],
        message=Message.from_dict(json.loads(row["message"])) if "message" in keys else None,
        status=row["status"],
        attempts=row["attempts"],
        next_try_at=row["next_try_at"],
        last_error=row["last_error"],
        parts_sent=row["parts_sent"],
        purpose=row["purpose"],
        unconfirmed=_unconfirmed(row) if row["status"] != "sent" else (),
        owed=_owed(row) if row["status"] != "sent" else (),
        created_at=row["created_at"],
        token=row["token"],
    )


def _owed(row: Any) -> tuple[str, ...]:
    receipt = row["receipt"] or ""
    if not receipt.startswith(OWED):
        return ()
    try:
        addresses = json.loads(receipt[len(OWED) :])
    except ValueError:
        return ()
    return tuple(str(a) for a in addresses) if isinstance(addresses, list) else ()


def _unconfirmed(row: Any) -> tuple[int, ...]:
    receipt, parts_sent = row["receipt"] or "", int(row["parts_sent"])
    if receipt.startswith(UNCONFIRMED):
        return tuple(int(n) for n in receipt[len(UNCONFIRMED) :].split() if n.isdigit())
    # Claimed by a digest that kept no such record: the last part claimed may be missing.
    return (parts_sent,) if parts_sent else ()
