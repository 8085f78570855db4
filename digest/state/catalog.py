"""The papers of the state database as one catalogue: every key a paper is known by (arXiv id,
DOI, OpenReview forum, title hash) points at its one row, so a paper arriving again under another
key completes that row instead of adding one (the cache of liked arXiv papers: liked.py).

store.py owns the connection, the schema and the transactions; this module owns these tables.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from typing import Any

from digest.models import Paper, identity, texts
from digest.models.evidence import name_keys, one_paper, own_id, refuses, vouched
from digest.state.engine import Engine
from digest.state.liked import LikedCache
from digest.state.owners import bridges as bridges_of
from digest.state.owners import match as _match
from digest.state.owners import rows_in as _in

_COLUMNS = "title, abstract, authors, categories, venue, url, code_url, published, source"
_INSERT = (
    f"INSERT OR IGNORE INTO papers (id, {_COLUMNS}, first_seen) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_UPDATE = (
    "UPDATE papers SET " + ", ".join(f"{c} = ?" for c in _COLUMNS.split(", ")) + " WHERE id = ?"
)
_KEY = "INSERT OR IGNORE INTO paper_keys (key, paper_id) VALUES (?, ?)"
_KEYS_OF = "SELECT key FROM paper_keys WHERE paper_id = ? ORDER BY rowid"
_GUIDS_OF = "SELECT key FROM paper_keys WHERE paper_id = ? AND key LIKE 'guid:%'"
_SELECT_IN = "SELECT * FROM papers WHERE id IN"
# Papers per ingest transaction: a writer never holds the database for long (`digest feedback`
# during a large ingest waits at most one batch), and a crash keeps the batches before it.
BATCH = 500


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


_MOVE_ALERTS = (
    "UPDATE alerts SET paper_id = ? WHERE paper_id = ?"
    " AND subscriber NOT IN (SELECT subscriber FROM alerts WHERE paper_id = ?)"
)


def giving(subscriber: str) -> str:
    """The lock a digest and an alert take to give the subscriber papers: one at a time, each
    checked against what the other gave (two workers' clocks either side of a fire time had
    given one paper as an alert and in the new period's digest)."""
    return f"papers given to {subscriber}"


def papers_of(db: Engine, table: str, subscriber: str, ids: Iterable[str]) -> set[str]:
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


def row_paper(row: Any) -> Paper:
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


class Catalog(LikedCache):
    """The paper tables."""

    def add(self, papers: Iterable[Paper], now: datetime) -> int:
        """Keep each paper not known under any of its keys; complete a known one with what the
        new record adds (a code link, a venue, its other ids). Return how many were new."""
        seen = self.stamp(now)
        new = 0
        batch: list[Paper] = []
        for paper in papers:
            batch.append(paper)
            if len(batch) == BATCH:
                new += self._add(batch, seen)
                batch = []
        return new + (self._add(batch, seen) if batch else 0)

    def _add(self, papers: Sequence[Paper], seen: str) -> int:
        new = 0
        with self.transaction() as db:
            # Workers ingesting side by side: one batch at a time, so a paper arriving at two of
            # them under different keys (arXiv id, DOI) is still recognized as one.
            db.lock("papers")
            keyed = [(paper, identity.keys(paper)) for paper in papers]
            # What the batch's keys already name, read in a few queries rather than a few per
            # paper (a database server is a round trip away), then kept up to date in memory.
            known_keys = _in(db, "SELECT key, paper_id FROM paper_keys WHERE key IN", keyed)
            owners = {key: str(paper_id) for key, paper_id in known_keys}
            theirs: dict[str, list[str]] = {}
            ids = {*owners.values(), *(paper.id for paper in papers)}
            query = "SELECT paper_id, key FROM paper_keys WHERE paper_id IN"
            # Only the strong keys (arXiv, DOI, OpenReview): all that same_paper and the aliases
            # read. A paper arriving 10,000 times under ids of no kind made this list, and every
            # merge with it, grow with each copy: ingest was quadratic.
            for paper_id, key in _in(db, query, ids, " ORDER BY rowid"):
                if identity.kind(key) in identity.STRONG:
                    theirs.setdefault(paper_id, []).append(key)
            stored = {row["id"]: row_paper(row) for row in _in(db, _SELECT_IN, ids)}
            # Written at the end, in arrival order (seq): one round of statements per batch.
            inserts: dict[str, Paper] = {}
            updates: dict[str, Paper] = {}
            key_rows: list[tuple[str, str]] = []
            bridges: list[tuple[str, str]] = []  # (a second stored paper, the one it is)
            # A stored paper's feed item ids, read once, and those this batch gave it (its rows
            # are written at the end: a first read's second weekly post had merged into the first).
            guids: dict[str, set[str]] = {}
            added: dict[str, set[str]] = {}
            told_apart: set[str] = set()

            def apart(owner: str, paper: Paper, keys: Sequence[str], kind: str) -> bool:
                if owner not in guids:
                    guids[owner] = {k for (k,) in db.execute(_GUIDS_OF, (owner,)).fetchall()}
                mine = guids[owner] | added.get(owner, set())
                if kind == "t" and owner in told_apart:
                    return True
                if not refuses(kind, stored[owner], mine, paper, keys):
                    return False
                if kind == "t":
                    told_apart.add(owner)  # its title, which may be this record's id too
                return True

            def judge(owner: str, key: str, paper: Paper, keys: Sequence[str]) -> bool:
                if not one_paper(key, stored.get(owner), theirs.get(owner, []), paper, keys):
                    return False
                kind = identity.kind(key)
                return kind not in ("t", "a", "n") or not apart(owner, paper, keys, kind)

            for paper, keys in keyed:
                told_apart.clear()

                def check(owner: str, key: str) -> bool:  # this record's, as it now stands
                    return judge(owner, key, paper, keys)  # noqa: B023

                known = _match(keys, owners, check)
                if known is None and paper.id in told_apart:
                    # Another paper under the same title, which is its id: an id of its own,
                    # by which it may be stored already.
                    paper = dataclasses.replace(paper, id=own_id(paper, keys))
                    keys = identity.keys(paper)
                    _read_owners(db, keys, owners, theirs, stored)
                    known = _match(keys, owners, check)
                titled = any(k in owners for k in keys if identity.kind(k) == "t")
                named = name_keys(paper) if titled and known is None else []
                if named:  # its title is another's: its own earlier record, by a name of it
                    _read_owners(db, named, owners, theirs, stored)
                    known = _match(keys, owners, check, among=named)
                # (the same id known without keys: stored before keys were kept)
                owner = known or paper.id
                if any(owners.get(k, owner) != owner for k in keys if identity.kind(k) == "t"):
                    if not named:
                        _read_owners(db, named := name_keys(paper), owners, theirs, stored)
                    keys = [*keys, *named]
                if known is None and paper.id not in stored:
                    new += 1
                    inserts[paper.id] = stored[paper.id] = dataclasses.replace(paper, aliases=())
                else:
                    old = dataclasses.replace(
                        stored[owner], aliases=_aliases(owner, theirs.get(owner, []))
                    )
                    merged = identity.merge(old, paper)
                    if paper_row(merged, "")[1:10] != paper_row(old, "")[1:10]:
                        stored[owner] = merged
                        (inserts if owner in inserts else updates)[owner] = merged
                fresh = [key for key in keys if key not in owners]
                key_rows += [(key, owner) for key in fresh]
                for key in fresh:
                    owners[key] = owner
                    if identity.kind(key) in identity.STRONG:
                        theirs.setdefault(owner, []).append(key)
                    elif identity.kind(key) == identity.GUID:
                        added.setdefault(owner, set()).add(key)
                if known is not None:  # its keys may name a second stored paper: the same one

                    def folds(copy: str, key: str) -> bool:  # a title, and a name or the text
                        told = identity.kind(key) != "t" or vouched(stored[copy], paper)  # noqa: B023
                        return told and check(copy, key)  # noqa: B023

                    bridges += bridges_of(keys, owners, known, theirs, folds)
            db.executemany(_INSERT, [paper_row(p, seen) for p in inserts.values()])
            db.executemany(_UPDATE, [(*paper_row(p, seen)[1:10], i) for i, p in updates.items()])
            db.executemany(_KEY, key_rows)
            for copy, paper_id in dict(bridges).items():
                if self._fold(db, copy, paper_id, stored, seen) and copy in inserts:
                    new -= 1  # not new after all: one it already had
        return new

    def _fold(self, db: Engine, copy: str, into: str, stored: dict[str, Paper], seen: str) -> bool:
        """One paper stored twice: a journal's record (a DOI, its own title) read before the
        arXiv record that names that DOI too. The copy is folded into the other, its keys
        pointed there, unless a digest, a held alert or a rating has used it already (then
        both stay, as before: what a reader got is never taken back). An alert of the copy
        moves to the paper: its reader is not given the paper again in the next digest."""
        used = "SELECT 1 FROM {} WHERE paper_id = ? LIMIT 1"
        for table in ("sent", "alert_holds", "ratings"):
            if db.execute(used.format(table), (copy,)).fetchone():
                return False
        merged = identity.merge(stored[into], stored[copy])
        db.execute(_UPDATE, (*paper_row(merged, seen)[1:10], into))
        db.execute("UPDATE paper_keys SET paper_id = ? WHERE paper_id = ?", (into, copy))
        db.execute(_MOVE_ALERTS, (into, copy, into))
        db.execute("DELETE FROM alerts WHERE paper_id = ?", (copy,))  # alerted both: one stays
        db.execute("DELETE FROM papers WHERE id = ?", (copy,))
        return True

    def known(self, keys: Sequence[str], paper: Paper | None = None) -> str | None:
        """The stored paper one of these keys names; identity.same_paper judges title matches,
        and, given the record, evidence.refuses too, as a run's ingest does."""
        return self._known(keys, keys, paper)

    def _known(self, among: Sequence[str], keys: Sequence[str], paper: Paper | None) -> str | None:
        if not among:
            return None
        marks = ",".join("?" * len(among))
        query = f"SELECT key, paper_id FROM paper_keys WHERE key IN ({marks})"
        rows = self.db.execute(query, among)
        found = dict(rows.fetchall())
        for key in (k for k in among if k in found):
            theirs = [r[0] for r in self.db.execute(_KEYS_OF, (found[key],))]
            kind = identity.kind(key)
            weak = paper is not None and kind in ("t", "h", "a", "n")
            stored = self.paper(str(found[key])) if weak else None
            if not one_paper(key, stored, theirs, paper or Paper("", "", ""), keys):
                continue
            if paper is not None and kind in ("t", "a", "n"):
                if stored is not None and refuses(kind, stored, theirs, paper, keys):
                    continue
            return str(found[key])
        titled = any(identity.kind(k) == "t" for k in found)
        if titled and paper is not None and among is keys:  # another's title: its own, by a name
            return self._known(name_keys(paper), keys, paper)
        return None

    def paper(self, paper_id: str) -> Paper | None:
        """The stored paper, its other keys as aliases."""
        row = self.db.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone()
        if row is None:
            return None
        keys = [r[0] for r in self.db.execute(_KEYS_OF, (paper_id,))]
        return dataclasses.replace(row_paper(row), aliases=_aliases(paper_id, keys))

    def keys_of(self, paper_id: str) -> list[str]:
        return [r[0] for r in self.db.execute(_KEYS_OF, (paper_id,))]

    def owners(self, papers: Iterable[Paper], likes: Iterable[str] = ()) -> set[str]:
        """The ids of the stored papers these papers' ids (arXiv, DOI, OpenReview) name, and
        these `like` arXiv ids, in a few queries: a library of thousands read each run. A like
        arXiv did not know yet is in no library, but its paper, once announced, is the reader's."""
        keys = {k for p in papers for k in identity.keys(p) if identity.kind(k) in identity.IDS}
        keys.update(f"arxiv:{ident}" for like in likes if (ident := identity.arxiv_id(like)))
        query = "SELECT key, paper_id FROM paper_keys WHERE key IN"
        return {str(paper_id) for _, paper_id in _in(self.db, query, keys)}

    def held(self, papers: Sequence[Paper]) -> set[str]:
        """The ids of these papers that the store holds, under that id or another of their ids."""
        query = "SELECT id FROM papers WHERE id IN"
        found = {str(row[0]) for row in _in(self.db, query, {p.id for p in papers})}
        keyed = {
            k: p.id for p in papers for k in identity.keys(p) if identity.kind(k) in identity.IDS
        }
        query = "SELECT key, paper_id FROM paper_keys WHERE key IN"
        return found | {keyed[str(key)] for key, _ in _in(self.db, query, keyed)}

    def canonical(self, papers: Iterable[Paper]) -> list[Paper]:
        """The papers under the ids the store knows them by; changes nothing (previews)."""
        return [dataclasses.replace(p, id=self._canonical(p)) for p in papers]

    def _canonical(self, paper: Paper) -> str:
        keys = identity.keys(paper)
        known = self.known(keys, paper)
        if known is None and self.known([paper.id]) is not None:  # its title is another's
            return own_id(paper, keys)
        return known or paper.id

    def key_unkeyed(self, db: Engine) -> None:
        """Papers kept before keys were (stored papers, and no key yet) get theirs, in the
        migration's transaction `db`; a paper stored since has its keys from the start."""
        if db.execute("SELECT 1 FROM paper_keys LIMIT 1").fetchone() is not None:
            return
        for rows in _pages(db, ""):
            db.executemany(_KEY, [(k, r["id"]) for r in rows for k in identity.keys(row_paper(r))])

    def key_loose_titles(self, db: Engine) -> None:
        """Papers stored before loose and squeezed title keys, and text keys of the abstract
        alone or without a journal's label, get theirs, in the migration's transaction `db`, a
        page at a time (the whole store at once had taken 1.8 GB at 660,000 papers); a key two
        stored papers would share stays the first's."""
        titles = (identity.loose_title_hash, identity.squeezed_title_hash)
        for rows in _pages(db, "AND id NOT LIKE 'h:%'"):
            keyed = [(k, r["id"]) for r in rows for way in titles if (k := way(r["title"]))]
            for r in rows:
                forms = dict.fromkeys((r["abstract"], texts.bare_abstract(r["abstract"])))
                keyed += [(k, r["id"]) for t in forms for k in texts.text_keys(r["title"], t)]
            db.executemany(_KEY, keyed)


def _pages(db: Engine, where: str) -> Iterator[list[Any]]:
    """The stored papers in the order they came, PAGE rows at a time."""
    last = -1
    query = f"SELECT * FROM papers WHERE seq > ? {where} ORDER BY seq LIMIT {PAGE}"
    while rows := db.execute(query, (last,)).fetchall():
        yield rows
        last = rows[-1]["seq"]


PAGE = 5_000  # papers a migration step keys at once


def _aliases(paper_id: str, keys: Sequence[str]) -> tuple[str, ...]:
    """A stored paper's other ids, in the forms identity.keys reads back: bare arXiv ids and
    DOIs, "openreview:<forum>"."""
    forms = [
        k if k.startswith("openreview:") else k.split(":", 1)[1]
        for k in keys
        if identity.kind(k) in identity.STRONG
    ]
    return tuple(f for f in forms if f != paper_id)


def _read_owners(
    db: Engine,
    keys: Sequence[str],
    owners: dict[str, str],
    theirs: dict[str, list[str]],
    stored: dict[str, Paper],
) -> None:
    """The stored papers these keys name, read into the batch's maps."""
    rows = _in(
        db,
        "SELECT key, paper_id FROM paper_keys WHERE key IN",
        [k for k in keys if k not in owners],
    )
    owners.update({key: str(paper_id) for key, paper_id in rows})
    new = {str(paper_id) for _, paper_id in rows} - set(stored)
    for paper_id, key in _in(db, "SELECT paper_id, key FROM paper_keys WHERE paper_id IN", new):
        if identity.kind(key) in identity.STRONG:
            theirs.setdefault(paper_id, []).append(key)
    stored.update({row["id"]: row_paper(row) for row in _in(db, _SELECT_IN, new)})
