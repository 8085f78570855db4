"""Subscribers' ratings of papers (`digest feedback`) and the ranking space a run fitted, on
store.py's connection. A rating moves the subscriber's profile (up: a liked paper; down: a
negative); the stored space spares a daily run the refit of the whole corpus.

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from digest.models import Paper, Subscriber
from digest.state.catalog import Tables, row_paper
from digest.state.engine import Engine

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

RATINGS = {"up": 1, "down": -1}
AGAIN = timedelta(seconds=10)  # one link's vote again this soon is the same click
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
    later vote from elsewhere no longer names the Matrix event of an earlier one."""
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
        self, subscriber: str, paper_id: str, rating: str, now: datetime, via: str = "web"
    ) -> tuple[list[Any] | None, str]:
        """rate() up or down, and what its undo needs: the row it replaced ([rating, rated_at,
        via, origin]; None: none, or this route's same vote) and the time it wrote."""
        made = self.stamp(now)
        with self.transaction() as db:
            before = current(db, subscriber, paper_id)
            same = before is not None and _word(before["rating"]) == rating
            if same and before["via"] == via and made < self.stamp(_at(before) + AGAIN):
                # One link clicked twice (a double click, a reload): one vote, nothing written,
                # and its undo takes the vote back. Each click had stamped a second later: 300
                # put the rating five minutes ahead of the clock.
                return None, before["rated_at"]
            if before is not None and before["via"] == via and before["rated_at"] >= made:
                # Two votes of one route in one second: the later one a second on, so that the
                # earlier vote's undo (which names its time) cannot wipe it out.
                made = self.stamp(_at(before) + timedelta(seconds=1))
            write(db, subscriber, paper_id, RATINGS[rating], made, via, "")
        if before is None:
            return None, made
        # The row it replaced, whatever route gave it (the CLI's, Slack's, this link's days ago):
        # its undo puts it back as it was, never deletes it.
        return [before["rating"], before["rated_at"], before["via"], before["origin"]], made

    def undo(
        self, subscriber: str, paper_id: str, made: str, previous: list[Any] | None, via: str
    ) -> bool:
        """Put back the row a vote of `via` written at `made` replaced (`previous`, as
        rate_undoably gave it), as it was: its rating, time, route and Matrix event. Only while
        that vote is the paper's rating still: False when another came since (from anywhere),
        which an old undo must not wipe out."""
        with self.transaction() as db:
            row = current(db, subscriber, paper_id)
            if row is None or row["via"] != via or row["rated_at"] != made:
                return False
            if previous is None:
                write(db, subscriber, paper_id, None, made, via, "")
            else:
                rating, at, was, origin = previous
                write(db, subscriber, paper_id, int(rating), str(at), str(was), str(origin))
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

    def apply(self, subscribers: Sequence[Subscriber]) -> tuple[Subscriber, ...]:
        """Subscribers whose profiles carry their ratings: up joins the library, down the
        disliked papers (and leaves the library, if the paper was there)."""
        out = []
        for sub in subscribers:
            up, down = self.of(sub.name)
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
