"""A subscriber's own papers, read into Papers for the profile: the `library` file (BibTeX from
Zotero, Mendeley or JabRef; paper JSONL or CSV) and the arXiv ids of `like`, looked up once
through the arxiv source and cached in the state database.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from digest.models import InputError, Paper, SourceConfig, SourceError, Subscriber, Warn
from digest.models.identity import abstract_id, arxiv_id, doi, paper_id
from digest.sources.arxiv import ArxivSource
from digest.sources.common import code_links
from digest.sources.files import read_papers

log = logging.getLogger("digest.library")

SUFFIXES = (".bib", ".jsonl", ".jsonl.gz", ".csv")
# Google Scholar writes arXiv preprints as journal = {arXiv preprint arXiv:2401.01234}.
_ARXIV_IN_TEXT = re.compile(r"arXiv:\s*(\S+)", re.IGNORECASE)


def load(path: str) -> tuple[Paper, ...]:
    """Read one library file; a missing, unknown or unreadable one is an InputError (exit 2)."""
    file = Path(path)
    if not file.is_file():
        raise InputError(f"{path}: library file not found")
    if not file.name.lower().endswith(SUFFIXES):
        raise InputError(f"{path}: unknown library format; use {', '.join(SUFFIXES)}")

    # One odd entry in a reference-manager export should not cost the subscriber a digest.
    def warn(problem: str) -> None:
        log.warning("library %s", problem)

    if file.name.lower().endswith(".bib"):
        papers = read_bibtex(file, warn)
    else:
        papers = read_papers(path, warn, links=False)  # a liked paper's code is never shown
    if not papers:
        raise InputError(f"{path}: library holds no papers")
    return tuple(papers)


def read_bibtex(path: Path, warn: Warn) -> list[Paper]:
    """The entries of a .bib file with LaTeX accents decoded; bad entries are warnings."""
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware

    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older exports are Windows-1252; guessing it beats losing the whole library.
        warn(f"{path}: not UTF-8, read as Windows-1252")
        text = data.decode("cp1252", errors="replace")
    library = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    for block in library.failed_blocks:
        where = f"{path}:{(block.start_line or 0) + 1}"
        error = getattr(block, "error", None)
        lines = str(error or "").strip().splitlines()
        why = lines[0] if lines else type(error).__name__ if error else "unreadable"
        warn(f"{where}: bad BibTeX entry skipped ({why})")
    papers = []
    for entry in library.entries:
        fields = {f.key.lower(): str(f.value) for f in entry.fields}
        paper = bib_paper(fields, f"library:{path.name}")
        if paper is None:
            where = f"{path}:{(entry.start_line or 0) + 1}"
            warn(f"{where}: entry {entry.key!r} has neither title nor abstract, skipped")
        else:
            papers.append(paper)
    return papers


def _clean(value: str) -> str:
    """Braces that only protected capitals go; whitespace collapses."""
    return " ".join(value.replace("{", "").replace("}", "").split())


def bib_paper(fields: Mapping[str, str], source: str) -> Paper | None:
    """One BibTeX entry's fields (keys lowercased, LaTeX decoded) as a Paper."""
    title, abstract = _clean(fields.get("title", "")), _clean(fields.get("abstract", ""))
    keywords = [k.strip() for k in re.split(r"[,;]", _clean(fields.get("keywords", ""))) if k]
    if not title and not abstract:
        return None
    eprint = fields.get("eprint", "")
    journal = _clean(fields.get("journal", "") or fields.get("booktitle", ""))
    in_text = _ARXIV_IN_TEXT.search(f"{journal} {fields.get('note', '')}")
    url = fields.get("url", "").strip()
    arxiv = arxiv_id(eprint) or (arxiv_id(in_text[1]) if in_text else None) or arxiv_id(url)
    found_doi = doi(fields.get("doi", "")) or doi(url)
    text = abstract or (f"Keywords: {', '.join(keywords)}." if keywords else "")
    links = [url] if code_links(url) else []
    links += code_links(" ".join((fields.get("code", ""), abstract, fields.get("note", ""))))
    return Paper(
        id=paper_id(
            arxiv=arxiv or "",
            doi_=found_doi or "",
            title=title,
            fallback=abstract_id(abstract or title),
        ),
        title=title,
        abstract=text,
        authors=_names(fields.get("author", "")),
        venue=journal,
        url=url or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
        code_url=links[0] if links else "",
        source=source,
        categories=tuple(keywords),
        aliases=tuple(a for a in (found_doi, arxiv) if a),
    )


def _names(field: str) -> tuple[str, ...]:
    """BibTeX's 'Last, First and First Last' as ('First Last', 'First Last')."""
    names = []
    for name in re.split(r"\s+and\s+", _clean(field)):
        last, comma, first = name.partition(",")
        names.append(f"{first.strip()} {last.strip()}" if comma and first.strip() else last)
    return tuple(n.strip() for n in names if n.strip() and n.strip().lower() != "others")


class LikedCache(Protocol):
    """Where looked-up liked papers are kept between runs (the store's paper catalogue)."""

    def liked(self, ids: Sequence[str]) -> dict[str, Paper | None]: ...

    def remember_liked(self, found: dict[str, Paper | None], now: datetime) -> None: ...


def liked_papers(
    ids: Sequence[str], cache: LikedCache, arxiv: SourceConfig, now: datetime
) -> tuple[Paper, ...]:
    """The papers of these arXiv ids: from the cache, else looked up once and remembered.

    A failed lookup is a warning and is tried again on the next run; an id arXiv does not know
    is remembered as such, so it is not asked about again.
    """
    wanted = [arxiv_id(i) or i for i in ids]
    known = cache.liked(wanted)
    missing = [i for i in wanted if i not in known]
    if missing:
        try:
            found = ArxivSource().lookup(missing, arxiv)
        except SourceError as exc:
            log.warning("like: cannot look up %s now (%s); the next run tries again", missing, exc)
        else:
            outcome = {i: found.get(i) for i in missing}
            unknown = [i for i, p in outcome.items() if p is None]
            if unknown:
                log.warning("like: arXiv knows no paper %s", ", ".join(unknown))
            cache.remember_liked(outcome, now)
            known.update(outcome)
    return tuple(p for i in wanted if (p := known.get(i)) is not None)


def with_libraries(
    subscribers: Sequence[Subscriber],
    *,
    cache: LikedCache | None = None,
    sources: Sequence[SourceConfig] = (),
    now: datetime | None = None,
) -> tuple[Subscriber, ...]:
    """Subscribers whose profile carries their library papers, each file read once. `like` ids
    are resolved only with a cache (a run or a preview); without one they are left out."""
    files: dict[str, tuple[Paper, ...]] = {}
    arxiv = next((s for s in sources if s.kind == "arxiv"), SourceConfig("arxiv", "arxiv", {}))
    out = []
    for sub in subscribers:
        papers: tuple[Paper, ...] = ()
        if sub.library_path:
            if sub.library_path not in files:
                files[sub.library_path] = load(sub.library_path)
            papers = files[sub.library_path]
        if sub.likes and cache is not None:
            liked = liked_papers(sub.likes, cache, arxiv, now or datetime.now(UTC))
            have = {p.id for p in papers}
            papers = papers + tuple(p for p in liked if p.id not in have)
        if papers:
            profile = dataclasses.replace(sub.profile, library=papers)
            sub = dataclasses.replace(sub, profile=profile)
        out.append(sub)
    return tuple(out)
