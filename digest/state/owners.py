"""Which stored paper a record's keys name, as catalog.py's ingest asks it of a batch's maps (each
key's paper, each paper's ids): the one the record is, and the second stored papers of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from digest.models import identity
from digest.state.engine import Engine

# Whether the record is a stored paper (its id) by one of its keys.
Judge = Callable[[str, str], bool]


def match(
    keys: Sequence[str], owners: dict[str, str], judge: Judge, among: Sequence[str] = ()
) -> str | None:
    """The stored paper one of these keys (or of `among`) names that the record is: `judge`
    reads the ids (identity.same_paper) and the records' own words (evidence.refuses)."""
    for key in (k for k in among or keys if k in owners):
        if judge(owners[key], key):
            return owners[key]
    return None


def bridges(
    keys: Sequence[str],
    owners: dict[str, str],
    known: str,
    theirs: dict[str, list[str]],
    judge: Judge,
) -> list[tuple[str, str]]:
    """(a second stored paper, the one it is) for the keys of a record matched to `known` that
    name another: an id (two papers may share a title, never an id), or a title or text by which
    the record is that other paper too, as it would have been read first, without an id of
    `known`'s. An OpenReview record matched by the title of an arXiv record that the journal's
    DOI led to its retitled journal copy had stayed a paper of its own, sent beside it."""
    found: dict[str, str] = {}
    for key in keys:
        copy = owners.get(key)
        if copy is None or copy == known or copy in found:
            continue
        kind = identity.kind(key)
        if kind in identity.IDS or (
            kind in ("t", "a")
            and identity.same_paper(key, theirs.get(copy, []), theirs.get(known, []))
            and judge(copy, key)
        ):
            found[copy] = known
    return list(found.items())


def rows_in(db: Engine, query: str, values: Iterable[Any], tail: str = "") -> list[Any]:
    """The rows of `query IN (values)`, asked in chunks under SQLite's bound-parameter limit;
    values may be (paper, keys) pairs, whose keys are asked."""
    wanted = list(dict.fromkeys(k for v in values for k in (v[1] if isinstance(v, tuple) else [v])))
    rows: list[Any] = []
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows += db.execute(f"{query} ({marks}){tail}", chunk).fetchall()
    return rows
