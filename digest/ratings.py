"""Subscribers' ratings of papers (`digest feedback`) and the ranking space a run fitted, on
store.py's connection. A rating moves the subscriber's profile (up: a liked paper; down: a
negative); the stored space spares a daily run the refit of the whole corpus.

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from digest.catalog import Tables, row_paper
from digest.models import Paper, Subscriber

if TYPE_CHECKING:
    from digest.features import Space

log = logging.getLogger("digest.ratings")

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
        data        BLOB NOT NULL                      -- features.Space.to_bytes()
    );
"""

RATINGS = {"up": 1, "down": -1}
# The ranking space of the digests is fitted on every stored paper and kept here; a run refits it
# only when the store has grown by this share since the fit (new words enter, and document
# frequencies move, only slowly). A smaller store fits on each run's papers instead.
REFIT_GROWTH = 0.25
SPACE_MIN_PAPERS = 1000


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

    def ranking_space(self, subscribers: Sequence[Subscriber], now: datetime) -> Space | None:
        """The stored space, refitted on every stored paper when missing, stale or of another
        version; None: too few papers for a space (ranking then fits on the papers it ranks)."""
        count, latest = self.db.execute(
            "SELECT count(*), coalesce(max(seq), 0) FROM papers"
        ).fetchone()
        if count < SPACE_MIN_PAPERS:
            return None
        from digest import features

        saved = self.space()
        if saved is not None and latest - saved.through_seq <= REFIT_GROWTH * saved.docs:
            space = features.Space.from_bytes(saved.data)
            if space is not None:
                return space
        rows = self.db.execute("SELECT * FROM papers WHERE seq <= ? ORDER BY seq", (latest,))
        texts = [features.paper_text(row_paper(row)) for row in rows]
        wishes = [s.profile.interests for s in subscribers]
        wishes += [k for s in subscribers for k in s.profile.keywords]
        space, _ = features.fit(texts, wishes)
        self.save_space(space.to_bytes(), latest, len(texts), now)
        log.info("ranking space fitted on %d papers (%d terms)", len(texts), space.size)
        return space
