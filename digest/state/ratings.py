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
from datetime import datetime

from digest.models import Paper, Subscriber
from digest.state.catalog import Tables, row_paper

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


@dataclass(frozen=True, slots=True)
class StoredSpace:
    data: bytes
    through_seq: int
    docs: int


class Ratings(Tables):
    """The ratings and stored-space tables."""

    def rate(self, subscriber: str, paper_id: str, rating: str, now: datetime) -> None:
        """Record `up` or `down`; the latest rating of a paper is the one that counts."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO ratings (subscriber, paper_id, rating, rated_at) VALUES (?,?,?,?)"
                " ON CONFLICT (subscriber, paper_id) DO UPDATE"
                " SET rating = excluded.rating, rated_at = excluded.rated_at",
                (subscriber, paper_id, RATINGS[rating], self.stamp(now)),
            )

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
                "INSERT OR REPLACE INTO spaces (name, through_seq, docs, fitted_at, data)"
                " VALUES (?,?,?,?,?)",
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
