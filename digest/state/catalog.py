"""The papers of the state database as one catalogue: every key a paper is known by (arXiv id,
DOI, OpenReview forum, title hash) points at its one row, so a paper arriving again under another
key completes that row instead of adding one; and the cache of liked arXiv papers.

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Any

from digest.models import Paper, identity

_COLUMNS = "title, abstract, authors, categories, venue, url, code_url, published, source"
_INSERT = (
    f"INSERT OR IGNORE INTO papers (id, {_COLUMNS}, first_seen) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_UPDATE = (
    "UPDATE papers SET " + ", ".join(f"{c} = ?" for c in _COLUMNS.split(", ")) + " WHERE id = ?"
)
_KEY = "INSERT OR IGNORE INTO paper_keys (key, paper_id) VALUES (?, ?)"
_KEYS_OF = "SELECT key FROM paper_keys WHERE paper_id = ? ORDER BY rowid"


def paper_row(p: Paper, seen: str) -> tuple[Any, ...]:
    """The papers-table row of a paper first seen at `seen` (a store.stamp)."""
    return (
        p.id,
        p.title,
        p.abstract,
        json.dumps(list(p.authors)),
        json.dumps(list(p.categories)),
        p.venue,
        p.url,
        p.code_url,
        p.published.isoformat() if p.published else None,
        p.source,
        seen,
    )


def papers_of(db: sqlite3.Connection, table: str, subscriber: str, ids: Iterable[str]) -> set[str]:
    """Which of the ids `table` (sent, alerts) holds for the subscriber, asked in chunks that
    stay under SQLite's limit on bound parameters."""
    wanted = list(ids)
    found: set[str] = set()
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(
            f"SELECT paper_id FROM {table} WHERE subscriber = ? AND paper_id IN ({marks})",
            (subscriber, *chunk),
        )
        found.update(r[0] for r in rows)
    return found


def row_paper(row: sqlite3.Row) -> Paper:
    return Paper(
        id=row["id"],
        title=row["title"],
        abstract=row["abstract"],
        authors=tuple(json.loads(row["authors"])),
        categories=tuple(json.loads(row["categories"])),
        venue=row["venue"],
        url=row["url"],
        code_url=row["code_url"],
        published=date.fromisoformat(row["published"]) if row["published"] else None,
        source=row["source"],
    )


class Tables:
    """Some tables of the state database, over the store's connection, its transactions and its
    time stamps: the Store makes one of each kind and alone opens SQLite."""

    def __init__(
        self,
        db: sqlite3.Connection,
        transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
        stamp: Callable[[datetime], str],
    ) -> None:
        self.db, self.transaction, self.stamp = db, transaction, stamp


class Catalog(Tables):
    """The paper tables."""

    def add(self, papers: Iterable[Paper], now: datetime) -> int:
        """Keep each paper not known under any of its keys; complete a known one with what the
        new record adds (a code link, a venue, its other ids). Return how many were new."""
        seen = self.stamp(now)
        new = 0
        with self.transaction() as db:
            for paper in papers:
                keys = identity.keys(paper)
                known = self.known(keys)
                if known is None and db.execute(_INSERT, paper_row(paper, seen)).rowcount:
                    new += 1
                else:
                    known = known or paper.id  # or the same id, stored before keys were kept
                    old = self.paper(known)
                    merged = old and identity.merge(old, paper)
                    if old and merged and paper_row(merged, "")[1:10] != paper_row(old, "")[1:10]:
                        db.execute(_UPDATE, (*paper_row(merged, seen)[1:10], known))
                db.executemany(_KEY, [(key, known or paper.id) for key in keys])
        return new

    def known(self, keys: Sequence[str]) -> str | None:
        """The stored paper one of these keys names; identity.same_paper judges title matches."""
        if not keys:
            return None
        marks = ",".join("?" * len(keys))
        rows = self.db.execute(f"SELECT key, paper_id FROM paper_keys WHERE key IN ({marks})", keys)
        found = dict(rows.fetchall())
        for key in (k for k in keys if k in found):
            theirs = [r[0] for r in self.db.execute(_KEYS_OF, (found[key],))]
            if identity.same_paper(key, theirs, keys):
                return str(found[key])
        return None

    def paper(self, paper_id: str) -> Paper | None:
        """The stored paper, its other keys as aliases."""
        row = self.db.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone()
        if row is None:
            return None
        keys = [r[0] for r in self.db.execute(_KEYS_OF, (paper_id,))]
        # The forms identity.keys reads back: bare arXiv ids and DOIs, "openreview:<forum>".
        forms = [
            k if k.startswith("openreview:") else k.split(":", 1)[1]
            for k in keys
            if identity.kind(k) in identity.STRONG
        ]
        aliases = tuple(f for f in forms if f != paper_id)
        return dataclasses.replace(row_paper(row), aliases=aliases)

    def keys_of(self, paper_id: str) -> list[str]:
        return [r[0] for r in self.db.execute(_KEYS_OF, (paper_id,))]

    def canonical(self, papers: Iterable[Paper]) -> list[Paper]:
        """The papers under the ids the store knows them by; changes nothing (previews)."""
        return [dataclasses.replace(p, id=self.known(identity.keys(p)) or p.id) for p in papers]

    def key_all(self) -> None:
        """Give every stored paper its keys: papers kept before keys were, once."""
        with self.transaction() as db:
            for row in db.execute("SELECT * FROM papers ORDER BY seq").fetchall():
                db.executemany(_KEY, [(k, row["id"]) for k in identity.keys(row_paper(row))])

    # liked arXiv papers (`like = [...]`), looked up once

    def liked(
        self, ids: Iterable[str], unknown_since: datetime | None = None
    ) -> dict[str, Paper | None]:
        """Earlier lookups of these arXiv ids: the paper, or None when arXiv did not know it;
        an id found unknown before `unknown_since` is left out, to be looked up again."""
        out: dict[str, Paper | None] = {}
        since = self.stamp(unknown_since) if unknown_since else ""
        for ident in ids:
            row = self.db.execute(
                "SELECT paper, looked_up FROM liked WHERE arxiv_id = ?", (ident,)
            ).fetchone()
            if row is not None and (row[0] or row[1] >= since):
                out[ident] = _from_json(row[0]) if row[0] else None
        return out

    def remember_liked(self, found: dict[str, Paper | None], now: datetime) -> None:
        rows = [(i, p and _to_json(p), self.stamp(now)) for i, p in found.items()]
        with self.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO liked VALUES (?, ?, ?)", rows)


def _to_json(paper: Paper) -> str:
    data = dataclasses.asdict(paper)
    data["published"] = paper.published.isoformat() if paper.published else None
    return json.dumps(data)


def _from_json(text: str) -> Paper:
    data = json.loads(text)
    data["published"] = date.fromisoformat(data["published"]) if data["published"] else None
    for name in ("authors", "categories", "aliases"):
        data[name] = tuple(data.get(name) or ())
    return Paper(**data)
