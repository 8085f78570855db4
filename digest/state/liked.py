"""The cache of liked arXiv papers (`like = [...]`): each id looked up on arXiv once, and one
arXiv did not know yet asked again after a while (library.py)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from datetime import date, datetime

from digest.models import Paper
from digest.state.tables import Tables


class LikedCache(Tables):
    """The `liked` table."""

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
            db.executemany(
                "INSERT INTO liked (arxiv_id, paper, looked_up) VALUES (?, ?, ?) ON CONFLICT"
                " (arxiv_id) DO UPDATE SET paper = excluded.paper, looked_up = excluded.looked_up",
                rows,
            )


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
