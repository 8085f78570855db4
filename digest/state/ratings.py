"""Subscribers' ratings of papers (`digest feedback`) and the ranking space a run fitted, on
store.py's connection. A rating moves the subscriber's profile (up: a liked paper; down: a
negative); the stored space spares a daily run the refit of the whole corpus.

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from digest.models import Paper, Subscriber
from digest.state.catalog import row_paper
from digest.state.engine import Engine
from digest.state.tables import Tables

log = logging.getLogger("digest.state.ratings")

# store.SCHEMA's migration for these tables.
SCHEMA = """
    CREATE TABLE ratings (
        subscriber TEXT NOT NULL,
        paper_id   TEXT NOT NULL REFERENCES papers(id),
        rating     INTEGER NOT NULL,                   -- +1 up, -1 down (a new rating replaces)
        rated_at   TEXT NOT NULL,
        PRIMARY KEY (subscriber, paper_id)
    );
    CREATE TABLE spaces (
        name        TEXT PRIMARY KEY,                  -- "papers": the one the digests use
        through_seq INTEGER NOT NULL,                  -- papers up to this seq were in the fit
        docs        INTEGER NOT NULL,
        fitted_at   TEXT NOT NULL,
        data        BLOB NOT NULL                      -- ranking's Space.to_bytes(): see corpus.py
    );
"""

# schema.SCHEMA's migration for the web votes: what each replaced, so that its undo puts that back
# from any replica (the one that took a double click's second POST did not have it in memory).
# IF NOT EXISTS: the last step runs again over a state whose version was set back (to key its
# papers' loose titles again, as the tests of that step do).
WEB_VOTES_SCHEMA = """
    CREATE TABLE IF NOT EXISTS web_votes (
        key           TEXT PRIMARY KEY,                -- the ratings row's origin while it stands
        subscriber    TEXT NOT NULL,
        paper_id      TEXT NOT NULL,
        voted_at      TEXT NOT NULL,
        before        INTEGER,                         -- the rating it replaced (NULL: none)
        before_at     TEXT NOT NULL DEFAULT '',
        before_via    TEXT NOT NULL DEFAULT '',
        before_origin TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX IF NOT EXISTS web_votes_at ON web_votes (voted_at);
"""

RATINGS = {"up": 1, "down": -1}
AGAIN = timedelta(seconds=10)  # one link's vote again this soon is the same click
WEB_KEY = "web:"  # how a web vote's key begins (a Matrix event id begins with "$")
# A web vote's row in web_votes is kept this long: its undo link works a day (web/app.py).
WEB_VOTES_KEPT = timedelta(days=2)
VIAS = ("cli", "web", "matrix", "slack")  # where a rating came from (the web schema's `via`)


def current(db: Engine, subscriber: str, paper_id: str) -> Any:
    """The rating row (rating, rated_at, via, origin) of a paper, or None: unrated. Read for a
    write, in its transaction: under the lock of this subscriber's rating of this paper, so that
    no other rating of it lands between this read and that write (on PostgreSQL an undo had
    wiped out a Slack click or a `digest feedback` made meanwhile; a missing row cannot be
    locked FOR UPDATE). SQLite's BEGIN IMMEDIATE serializes them already."""
    db.lock(f"rating:{subscriber}\x1f{paper_id}")
    return db.execute(
        "SELECT rating, rated_at, via, origin FROM ratings WHERE subscriber = ? AND paper_id = ?",
        (subscriber, paper_id),
    ).fetchone()


def write(
    db: Engine, subscriber: str, paper_id: str, rating: int | None, at: str, via: str, origin: str
) -> None:
    """Set the paper's rating row (rating None: no rating); every column is replaced, so a
    later vote from elsewhere no longer names the Matrix event (or web vote) of an earlier one.
    `origin`: the Matrix event that carried the vote, or the web vote's key (rate_undoably)."""
    if rating is None:
        db.execute(
            "DELETE FROM ratings WHERE subscriber = ? AND paper_id = ?", (subscriber, paper_id)
        )
        return
    db.execute(
        "INSERT INTO ratings (subscriber, paper_id, rating, rated_at, via, origin)"
        " VALUES (?,?,?,?,?,?) ON CONFLICT (subscriber, paper_id) DO UPDATE"
        " SET rating = excluded.rating, rated_at = excluded.rated_at, via = excluded.via,"
        " origin = excluded.origin",
        (subscriber, paper_id, rating, at, via, origin),
    )


def _word(rating: int | None) -> str:
    return "none" if rating is None else ("up" if rating > 0 else "down")


@dataclass(frozen=True, slots=True)
class StoredSpace:
    data: bytes
    through_seq: int
    docs: int


def _at(row: Any) -> datetime:
    return datetime.fromisoformat(str(row["rated_at"]).replace("Z", "+00:00"))


def _again(before: Any, rating: str, now: datetime) -> bool:
    """The rating row is this web vote's, made a moment ago: the same click again. Either way
    round, so that a replica whose clock is a second behind still takes it for the same."""
    if before is None or _word(before["rating"]) != rating or before["via"] != "web":
        return False
    return str(before["origin"]).startswith(WEB_KEY) and abs(now - _at(before)) < AGAIN


def _replaced(db: Engine, key: str) -> list[Any] | None:
    """The row the web vote `key` replaced, as rate_undoably returns it."""
    row = db.execute(
        "SELECT before, before_at, before_via, before_origin FROM web_votes WHERE key = ?", (key,)
    ).fetchone()
    return None if row is None or row[0] is None else list(row)


class Ratings(Tables):
    """The ratings and stored-space tables."""

    def rate(
        self,
        subscriber: str,
        paper_id: str,
        rating: str,
        now: datetime,
        via: str = "cli",
        origin: str = "",
    ) -> str:
        """Record `up` or `down`; the latest rating of a paper is the one that counts. `none`
        takes the rating back (the web face's undo). `origin` names the Matrix event that
        carried the vote (a redaction of it undoes the vote: votes.py). Returns the rating it
        replaced: up, down or none."""
        with self.transaction() as db:
            before = current(db, subscriber, paper_id)
            value = None if rating == "none" else RATINGS[rating]
            write(db, subscriber, paper_id, value, self.stamp(now), via, origin)
        return _word(before["rating"] if before else None)

    def rate_undoably(
        self, subscriber: str, paper_id: str, rating: str, now: datetime
    ) -> tuple[list[Any] | None, str]:
        """rate() up or down from a web link, stamped `now`, and what its undo needs: the row that
        undo puts back ([rating, rated_at, via, origin]; None: no rating) and the vote's key. The
        rating row names the key (its origin) while the vote stands; web_votes keeps what it
        replaced, for an undo on any replica."""
        with self.transaction() as db:
            before = current(db, subscriber, paper_id)
            if _again(before, rating, now):
                # One link clicked twice (a double click, a reload, its two POSTs on two
                # replicas): one vote, nothing written, and the second page's undo is the
                # first's: it puts back what the first replaced, read here, not from memory.
                key = str(before["origin"])
                return _replaced(db, key), key
            key = WEB_KEY + secrets.token_hex(8)
            was = (None, "", "", "") if before is None else tuple(before)
            db.execute(
                "DELETE FROM web_votes WHERE voted_at < ?", (self.stamp(now - WEB_VOTES_KEPT),)
            )
            db.execute(
                "INSERT INTO web_votes (key, subscriber, paper_id, voted_at, before, before_at,"
                " before_via, before_origin) VALUES (?,?,?,?,?,?,?,?)",
                (key, subscriber, paper_id, self.stamp(now), *was),
            )
            # Stamped now, whatever the row it replaces says: two votes in one second are told
            # apart by their keys. Each had been stamped a second past the last, and a few
            # dozen 👍/👎 put the rating minutes ahead (a late Slack click was then dropped).
            write(db, subscriber, paper_id, RATINGS[rating], self.stamp(now), "web", key)
        # The row it replaced, whatever route gave it (the CLI's, Slack's, this link's days ago):
        # its undo puts it back as it was, never deletes it.
        return (None if before is None else list(was)), key

    def undo(
        self,
        subscriber: str,
        paper_id: str,
        key: str,
        previous: list[Any] | None = None,
        via: str = "web",
    ) -> bool:
        """Put back the row the vote `key` (rate_undoably's) replaced, as it was: its rating,
        time, route and origin. Only while that vote is the paper's rating still: False when
        another came since (from anywhere), which an old undo must not wipe out. An undo link
        made before votes had keys names its vote by its time and carries `previous` itself."""
        with self.transaction() as db:
            row = current(db, subscriber, paper_id)
            if row is None or row["via"] != via:
                return False
            if key.startswith(WEB_KEY):
                found = db.execute(
                    "SELECT before, before_at, before_via, before_origin FROM web_votes"
                    " WHERE key = ?",
                    (key,),
                ).fetchone()
                if row["origin"] != key or found is None:
                    return False
                rating, at, was, origin = found
            elif row["origin"] or row["rated_at"] != key:
                return False
            else:
                rating, at, was, origin = previous or (None, "", "", "")
            back = None if rating is None else int(rating)
            write(db, subscriber, paper_id, back, str(at), str(was), str(origin))
        return True

    def current(self, subscriber: str, paper_id: str) -> str:
        """The paper's rating now: up, down or none."""
        row = self.db.execute(
            "SELECT rating FROM ratings WHERE subscriber = ? AND paper_id = ?",
            (subscriber, paper_id),
        ).fetchone()
        return _word(row["rating"] if row else None)

    def listing(self, subscriber: str | None = None) -> list[dict[str, str]]:
        """Every rating (of one subscriber), oldest first, as `digest ratings` prints them."""
        where, args = (" WHERE subscriber = ?", (subscriber,)) if subscriber else ("", ())
        rows = self.db.execute(
            f"SELECT subscriber, paper_id, rating, via, rated_at FROM ratings{where}"
            " ORDER BY rated_at, subscriber, paper_id",
            args,
        )
        return [
            {
                "subscriber": r[0],
                "paper": r[1],
                "vote": "up" if r[2] > 0 else "down",
                "via": r[3],
                "at": r[4],
            }
            for r in rows
        ]

    def rated_up(self) -> dict[str, Paper]:
        """Every paper some reader rates up, by id (for the stored space's fit: corpus._fit)."""
        rows = self.db.execute(
            "SELECT * FROM papers WHERE id IN (SELECT paper_id FROM ratings WHERE rating > 0)"
            " ORDER BY id"
        )
        return {p.id: p for p in map(row_paper, rows)}

    def of(self, subscriber: str) -> tuple[list[Paper], list[Paper]]:
        """(papers rated up, papers rated down), oldest rating first."""
        rows = self.db.execute(
            "SELECT papers.*, ratings.rating FROM ratings JOIN papers ON papers.id = paper_id"
            " WHERE subscriber = ? ORDER BY rated_at, papers.id",
            (subscriber,),
        )
        up: list[Paper] = []
        down: list[Paper] = []
        for row in rows:
            (up if row["rating"] > 0 else down).append(row_paper(row))
        return up, down

    def space(self, name: str = "papers") -> StoredSpace | None:
        row = self.db.execute(
            "SELECT data, through_seq, docs FROM spaces WHERE name = ?", (name,)
        ).fetchone()
        return None if row is None else StoredSpace(bytes(row[0]), int(row[1]), int(row[2]))

    def save_space(
        self, data: bytes, through_seq: int, docs: int, now: datetime, name: str = "papers"
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO spaces (name, through_seq, docs, fitted_at, data) VALUES (?,?,?,?,?)"
                " ON CONFLICT (name) DO UPDATE SET through_seq = excluded.through_seq,"
                " docs = excluded.docs, fitted_at = excluded.fitted_at, data = excluded.data",
                (name, through_seq, docs, self.stamp(now), data),
            )

    def apply(
        self, subscribers: Sequence[Subscriber], earlier: Mapping[str, Collection[str]] = {}
    ) -> tuple[Subscriber, ...]:
        """Subscribers whose profiles carry their ratings: up joins the library, down the
        disliked papers (and leaves the library, if the paper was there). `earlier`: per name,
        papers whose rating is an earlier subscription's of that name (reuses.earlier_given)."""
        out = []
        for sub in subscribers:
            up, down = self.of(sub.name)
            if theirs := earlier.get(sub.name):
                up, down = (
                    [p for p in up if p.id not in theirs],
                    [p for p in down if p.id not in theirs],
                )
            if up or down:
                downs = {p.id for p in down}
                kept = tuple(p for p in sub.profile.library if p.id not in downs)
                known = {p.id for p in kept}
                profile = dataclasses.replace(
                    sub.profile,
                    library=kept + tuple(p for p in up if p.id not in known),
                    disliked=sub.profile.disliked + tuple(down),
                )
                sub = dataclasses.replace(sub, profile=profile)
            out.append(sub)
        return tuple(out)

    def extent(self) -> tuple[int, int]:
        """(how many papers are stored, the latest seq)."""
        count, latest = self.db.execute(
            "SELECT count(*), coalesce(max(seq), 0) FROM papers"
        ).fetchone()
        return int(count), int(latest)

    def papers_through(self, seq: int) -> Iterator[Paper]:
        """Every stored paper up to seq, oldest first."""
        for row in self.db.execute("SELECT * FROM papers WHERE seq <= ? ORDER BY seq", (seq,)):
            yield row_paper(row)
