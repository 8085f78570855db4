"""A subscriber's own papers, read into Papers for the profile: the `library` file (BibTeX from
Zotero, Mendeley or JabRef; paper JSONL or CSV), its Papers cached by the file's contents; and the
arXiv ids of `like`, looked up through the arxiv source and kept in the state database.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import tempfile
import traceback
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from digest import __version__
from digest.models import InputError, Paper, SourceConfig, SourceError, Subscriber
from digest.models.evidence import LIBRARY_AUTHORS, dedupe
from digest.models.identity import arxiv_id
from digest.sources.arxiv import ArxivSource
from digest.sources.bibtex import decode, read_bibtex
from digest.sources.common import clean
from digest.sources.files import read_papers

log = logging.getLogger("digest.library")

SUFFIXES = (".bib", ".jsonl", ".jsonl.gz", ".csv")
# Bump when parsing changes what a library's Papers hold: older cached parses are then ignored.
CACHE_FORMAT = 13  # 2 CSV rows in cp1252, 3 clean(), 4 BibTeX #, 5 unknown LaTeX kept, 6 nested
# accents, LaTeX-escaped DOIs, UTF-16, 7 tab-separated CSV and crossref'd books, 8 LaTeX of JSONL
# and CSV titles read as text, 9 their abstracts' left to the analyzer, 10 a paper of no title
# known by its abstract read (the id a run stores), 11 one record per paper (dedupe), 12 two
# papers of one title by other people kept two, 13 HTML/JATS/MathML markup and entities of
# titles, abstracts and names read as text (they had been words: "mml, jats, title, mo, mi")
# arXiv may not know an id yet (a typo is also possible): asked again after this long.
RETRY_UNKNOWN = timedelta(days=1)


def cache_dir() -> Path:
    """Where parsed libraries are kept: $XDG_CACHE_HOME/digest/libraries (~/.cache/...)."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "digest" / "libraries"


def load(path: str, quiet: bool = False) -> tuple[Paper, ...]:
    """Read one library file; a missing, unknown or unreadable one is an InputError (exit 2).
    An unchanged file is read from the cache, its warnings said again (quiet: not said, for a
    check before a run that says them)."""
    file = Path(path)
    try:
        there = file.is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        there = False
    if not there:
        try:
            folder = file.is_dir()
        except (OSError, ValueError):  # as above: no file, nor a folder, can have this name
            folder = False
        what = "a folder, not a library file" if folder else "library file not found"
        raise InputError(f"{path[:200]}: {what}")
    if not file.name.lower().endswith(SUFFIXES):
        raise InputError(f"{path}: unknown library format; use {', '.join(SUFFIXES)}")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    key = hashlib.sha256(f"{CACHE_FORMAT} {__version__} {file.name}\n".encode() + data).hexdigest()
    found = _cached(file, key)
    if found is None:
        warnings: list[str] = []
        if file.name.lower().endswith(".bib"):
            papers: list[Paper] | tuple[Paper, ...] = read_bibtex(
                file, decode(data, file, warnings.append), warnings.append
            )
        else:  # a liked paper's code is never shown: no links looked for
            papers = read_papers(path, warnings.append, links=False)
        # One paper twice (a preprint and its journal version, a title-only copy) had been two
        # liked papers, its authors "authors of papers you liked": merged once, and cached so.
        # Two records of one title by other people are two (one author on each side is enough).
        found = (tuple(dedupe(map(clean, papers), LIBRARY_AUTHORS)), warnings)
        _save(file, key, *found)
    kept, warnings = found
    # One odd entry in a reference-manager export should not cost the subscriber a digest.
    for problem in [] if quiet else warnings:
        log.warning("library %s", problem)
    if not kept:
        raise InputError(f"{path}: library holds no papers")
    return kept


def _cache_file(file: Path) -> Path:
    # The absolute path, not the resolved one: resolving stats every folder on the way, 0.15 ms a
    # library (1.5 s for 10,000 subscribers); a file reached by two names is only cached twice.
    where = hashlib.sha256(os.path.abspath(file).encode()).hexdigest()[:24]
    return cache_dir() / f"{where}.json"


def _cached(file: Path, key: str) -> tuple[tuple[Paper, ...], list[str]] | None:
    """The cached parse of this content, or None: absent, stale, or damaged in any way."""
    try:
        data = json.loads(_cache_file(file).read_bytes())
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        papers = tuple(_paper(p) for p in data["papers"])
        warnings = [str(w) for w in data["warnings"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return papers, warnings


def _save(file: Path, key: str, papers: tuple[Paper, ...], warnings: list[str]) -> None:
    target = _cache_file(file)
    rows = [
        {**dataclasses.asdict(p), "published": p.published and p.published.isoformat()}
        for p in papers
    ]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written whole, then renamed: a run killed mid-write leaves the old cache or none.
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump({"key": key, "papers": rows, "warnings": warnings}, out)
        os.replace(temporary, target)
    except OSError as exc:  # no cache is only slower
        log.debug("library cache %s not written: %s", target, exc)


def _paper(row: dict[str, Any]) -> Paper:
    published = row.pop("published")
    for name in ("authors", "categories", "aliases"):
        row[name] = tuple(row[name])
    return Paper(**row, published=date.fromisoformat(published) if published else None)


class LikedCache(Protocol):
    """Where looked-up liked papers are kept between runs (the store's paper catalogue)."""

    def liked(
        self, ids: Sequence[str], unknown_since: datetime | None = None
    ) -> dict[str, Paper | None]: ...

    def remember_liked(self, found: dict[str, Paper | None], now: datetime) -> None: ...


class Unwritten:
    """A cache read, never written: a preview changes no state (it looks up what the state
    lacks, and forgets it)."""

    def __init__(self, cache: LikedCache) -> None:
        self.cache = cache

    def liked(
        self, ids: Sequence[str], unknown_since: datetime | None = None
    ) -> dict[str, Paper | None]:
        return self.cache.liked(ids, unknown_since)

    def remember_liked(self, found: dict[str, Paper | None], now: datetime) -> None:
        pass


def liked_papers(
    ids: Sequence[str], cache: LikedCache, arxiv: SourceConfig, now: datetime, lookup: bool = True
) -> tuple[tuple[Paper, ...], bool]:
    """The papers of these arXiv ids, from the cache, else looked up once and remembered; and
    whether every id is settled (False: a lookup failed, and the next run asks again; or, with
    `lookup` off, an id is not cached).

    An id arXiv does not know is settled: it is remembered as such for RETRY_UNKNOWN on the
    run's clock, then asked about again.
    """
    wanted = [arxiv_id(i) or i for i in ids]
    known = cache.liked(wanted, unknown_since=now - RETRY_UNKNOWN)
    missing = [i for i in wanted if i not in known]
    settled = not missing
    if missing and lookup:
        found = _looked_up(missing, arxiv)
        settled = found is not None
        if found is not None:
            outcome = {i: found.get(i) for i in missing}
            unknown = [i for i, p in outcome.items() if p is None]
            if unknown:
                log.warning("like: arXiv knows no paper %s", ", ".join(unknown))
            cache.remember_liked(outcome, now)
            known.update(outcome)
    return tuple(p for i in wanted if (p := known.get(i)) is not None), settled


def _looked_up(ids: list[str], arxiv: SourceConfig) -> dict[str, Paper] | None:
    """The lookup's papers, or None (one warning) when it failed: the next run asks again."""
    try:
        return {i: clean(p) for i, p in ArxivSource().lookup(ids, arxiv).items()}
    except SourceError as exc:
        problem = str(exc)
    except Exception as exc:  # a parser bug on an odd answer must not cost the whole run
        # The traceback goes in the message, not exc_info: the log's Redactor sees only that.
        log.debug("like: lookup of %s failed:\n%s", ids, traceback.format_exc())
        problem = f"unexpected {type(exc).__name__}: {exc}"
    log.warning("like: cannot look up %s now (%s); the next run tries again", ids, problem)
    return None


def with_libraries(
    subscribers: Sequence[Subscriber],
    *,
    cache: LikedCache | None = None,
    sources: Sequence[SourceConfig] = (),
    now: datetime | None = None,
    waiting: set[str] | None = None,
    lookup: bool = True,
) -> tuple[Subscriber, ...]:
    """Subscribers whose profile carries their library papers, each file read once. `like` ids
    are resolved only with a cache (a run or a preview); without one they are left out, and
    without `lookup` those it lacks. The names of subscribers whose liked papers could not all
    be looked up now go into `waiting`."""
    files: dict[str, tuple[Paper, ...]] = {}
    arxiv = next((s for s in sources if s.kind == "arxiv"), SourceConfig("arxiv", "arxiv", {}))
    out = []
    for sub in subscribers:
        papers: tuple[Paper, ...] = ()
        if sub.library_path:
            if sub.library_path not in files:
                try:
                    files[sub.library_path] = load(sub.library_path)
                except InputError as exc:  # whose: a preview reads every reader's (rank30 F4)
                    raise InputError(f"subscriber {sub.name!r}: {exc}") from None
            papers = files[sub.library_path]
        if sub.likes and cache is not None:
            liked, settled = liked_papers(sub.likes, cache, arxiv, now or datetime.now(UTC), lookup)
            if not settled and waiting is not None:
                waiting.add(sub.name)
            have = {p.id for p in papers}
            papers = papers + tuple(p for p in liked if p.id not in have)
        if papers:
            profile = dataclasses.replace(sub.profile, library=papers)
            sub = dataclasses.replace(sub, profile=profile)
        out.append(sub)
    return tuple(out)
