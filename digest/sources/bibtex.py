"""BibTeX files (Zotero, Better BibTeX, Mendeley, JabRef, Google Scholar) as Papers: split by
bibtexparser, markup and LaTeX decoded only in the fields a Paper keeps, each bad entry one
warning line.
"""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from digest.models import InputError, Notice, Paper, Warn
from digest.models.identity import abstract_id, arxiv_id, doi, paper_id
from digest.sources import authors, headings
from digest.sources.common import code_links
from digest.sources.latex import to_text
from digest.sources.markup import plain

# Google Scholar writes arXiv preprints as journal = {arXiv preprint arXiv:2401.01234}.
_ARXIV_IN_TEXT = re.compile(r"arXiv:\s*(\S+)", re.IGNORECASE)


def decode(data: bytes, path: Path, warn: Warn) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Windows tools' "Unicode"
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older exports are Windows-1252; guessing it beats losing the whole library.
        warn(Notice(f"{path}: not UTF-8, read as Windows-1252"))
        return data.decode("cp1252", errors="replace")


def read_bibtex(path: Path, text: str, warn: Warn) -> list[Paper]:
    """The entries of one .bib file's text; bad entries are warnings naming file and line."""
    import bibtexparser

    with _quiet_bibtexparser():
        try:
            # Only the default stack (@string references, enclosing braces): LaTeX is decoded
            # below, in the few fields kept, which is what makes a large library fast.
            library = bibtexparser.parse_string(text)  # type: ignore[attr-defined]
        except Exception as exc:  # its own bugs on odd input: the file is unreadable, say so
            raise InputError(f"{path}: cannot read as BibTeX ({type(exc).__name__})") from None
    for block in library.failed_blocks:
        warn(f"{path}:{(block.start_line or 0) + 1}: bad BibTeX entry skipped ({_why(block)})")
    strings = _strings(library.strings)
    fielded: list[tuple[Any, dict[str, str] | Exception]] = []
    for entry in library.entries:
        try:
            fielded.append((entry, _fields(entry, strings)))
        except Exception as exc:  # one entry's odd text: warned of below, with the others
            fielded.append((entry, exc))
    read: dict[str, dict[str, str]] = {}
    for entry, found in fielded:
        if isinstance(found, dict):
            read.setdefault(entry.key.lower(), found)
    parents = {f.get("crossref", "").strip("{} ").lower() for f in read.values()} - {""}
    papers = []
    for entry, found in fielded:
        where = f"{path}:{(entry.start_line or 0) + 1}"
        if entry.key.lower() in parents and isinstance(found, dict) and _volume(found):
            continue  # a volume its papers cite (@proceedings): no paper the reader keeps
        try:
            if isinstance(found, Exception):
                raise found
            paper = bib_paper(_inherited(found, read), f"library:{path.name}")
        except Exception as exc:  # one entry's odd text must not cost the whole library
            warn(f"{where}: entry {entry.key!r} cannot be read ({type(exc).__name__}), skipped")
            continue
        if paper is None:
            warn(f"{where}: entry {entry.key!r} has neither title nor abstract, skipped")
        else:
            papers.append(paper)
    return papers


def _fields(entry: Any, strings: Mapping[str, str]) -> dict[str, str]:
    """An entry's fields, keys lowercased, values as written (@string names and # resolved),
    and its type under _TYPE."""
    bare = entry.parser_metadata.get(_ENCLOSING, {})
    return {
        f.key.lower(): _value(f.value, strings) if bare.get(f.key) == _BARE else f.value
        for f in entry.fields
        if isinstance(f.value, str)
    } | {_TYPE: str(entry.entry_type).lower()}


def _volume(fields: Mapping[str, str]) -> bool:
    """Whether an entry that others crossref is a volume of theirs, no paper of the reader's: a
    volume's type, or no author and no abstract of its own (a book its editors name). A liked
    @book its chapters cite had been left out of the library."""
    own = fields.get("author", "").strip("{} ") or fields.get("abstract", "").strip("{} ")
    return fields.get(_TYPE) in _VOLUMES or not own


def _inherited(fields: dict[str, str], read: Mapping[str, dict[str, str]]) -> dict[str, str]:
    """The fields with those its crossref volume holds and it lacks, as BibTeX and biblatex
    take them: the volume's own title is its papers' booktitle (their venue), a book's authors
    are its chapters' when they name none."""
    parent = read.get(fields.get("crossref", "").strip("{} ").lower())
    if not parent:
        return fields
    # The volume's, never its ids (eprint, doi, url, note): two of its papers had become one.
    given = {k: v for k, v in parent.items() if k in _OF_THE_VOLUME}
    if "title" in parent:
        given.setdefault("booktitle", parent["title"])
    if fields.get(_TYPE) in _PARTS and "author" in parent:
        given["author"] = parent["author"]
    return {**given, **fields}


_TYPE = "ENTRYTYPE"  # upper case: no field's key, which are lowercased
_OF_THE_VOLUME = frozenset(
    "booktitle journal year month publisher series volume organization address editor".split()
)
# biblatex's volumes, and the types of a part of one (which take a book's author).
_VOLUMES = frozenset(
    ["proceedings", "mvproceedings", "collection", "mvcollection", "mvbook", "periodical"]
    + ["reference", "mvreference"]
)
_PARTS = frozenset("inbook incollection inproceedings bookinbook suppbook inreference".split())


# bibtexparser resolves a value that is one @string name; a value it left as written (no braces
# or quotes around the whole) is marked so, and may be a concatenation: neur # { Systems}.
_ENCLOSING, _BARE = "removed_enclosing", "no-enclosing"
# The month macros every BibTeX style defines.
_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()
_MONTHS = {name[:3].lower(): name for name in _MONTH_NAMES}


def _strings(found: Any) -> dict[str, str]:
    """The @string macros by lower-cased name, each one's own concatenations resolved."""
    macros: dict[str, str] = {}
    for string in found:
        bare = string.parser_metadata.get(_ENCLOSING) == _BARE
        value = str(string.value)
        macros[str(string.key).lower()] = _value(value, macros) if bare else value
    return macros


def _value(value: str, macros: Mapping[str, str]) -> str:
    """A value written without enclosing: its parts ({...}, "...", numbers, macros) joined, or
    the value as written when any part is none of those (an unknown macro, a stray #)."""
    joined = []
    for part in _parts(value):
        part = part.strip()
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            joined.append(part[1:-1])
        elif part.isdigit():
            joined.append(part)
        elif (name := part.lower()) in macros or name in _MONTHS:
            joined.append(macros.get(name) or _MONTHS[name])
        else:
            return value
    return "".join(joined)


def _parts(value: str) -> list[str]:
    """The parts of a concatenation: split at each # outside braces and quotes."""
    parts, start, depth, quoted = [], 0, 0, False
    for at, char in enumerate(value):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(value[start:at])
            start = at + 1
    return [*parts, value[start:]]


def _why(block: object) -> str:
    """One line on what is wrong with a block bibtexparser could not use."""
    name = type(block).__name__
    if name == "DuplicateBlockKeyBlock":
        return f"duplicate key {getattr(block, 'key', '')!r}"
    if name == "DuplicateFieldKeyBlock":
        return f"field {', '.join(sorted(getattr(block, 'duplicate_keys', ())))} twice"
    error = getattr(block, "error", None)
    reason = getattr(error, "abort_reason", None) or str(error or "")
    lines = [line.strip() for line in str(reason).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__ if error else "unreadable"


@contextmanager
def _quiet_bibtexparser() -> Iterator[None]:
    """bibtexparser logs several lines per bad entry; the warnings above say it in one. A
    handler that drops them (not just no propagation: logging would print them as a last resort)."""
    logger = logging.getLogger("bibtexparser")
    drop = logging.NullHandler()
    saved = logger.propagate
    logger.addHandler(drop)
    logger.propagate = False
    try:
        yield
    finally:
        logger.propagate = saved
        logger.removeHandler(drop)


def _text(value: str) -> str:
    # HTML, JATS and MathML read as a feed's are: Zotero keeps a Crossref abstract's
    # <jats:p> and &amp;, which had been words. An entry holding markup in its title or
    # abstract has its id (a title or abstract hash, when it has no arXiv id nor DOI) move to
    # the one a feed's copy of it has; a library's papers are read anew, never stored.
    return " ".join(to_text(plain(value), bibtex=True).split())


def bib_paper(fields: Mapping[str, str], source: str) -> Paper | None:
    """One BibTeX entry's fields (keys lowercased, values as written) as a Paper."""
    title = _text(fields.get("title", ""))
    abstract = _text(headings.dropped(fields.get("abstract", "")))
    if not title and not abstract:
        return None
    keywords = [
        k.strip() for k in re.split(r"[,;]", _text(fields.get("keywords", ""))) if k.strip()
    ]
    # Mendeley writes the arXiv id in a field of its own.
    eprint = (fields.get("eprint", "") or fields.get("arxivid", "")).strip("{} ")
    journal = _text(fields.get("journal", "") or fields.get("booktitle", ""))
    note = fields.get("note", "")
    in_text = _ARXIV_IN_TEXT.search(f"{journal} {note}")
    url = fields.get("url", "").strip("{} ")
    arxiv = arxiv_id(eprint) or (arxiv_id(in_text[1].rstrip(".,;}")) if in_text else None)
    arxiv = arxiv or arxiv_id(url)
    # Mendeley escapes a DOI's underscores for LaTeX (10.1002/2017GL076\_101, {\_}): not the DOI.
    written = re.sub(r"\{?\\([_%&#$])\}?", r"\1", fields.get("doi", "")).strip("{} ")
    found_doi = doi(written) or doi(url)
    text = abstract or (f"Keywords: {', '.join(keywords)}." if keywords else "")
    links = [url] if code_links(url) else []
    links += code_links(" ".join((fields.get("code", ""), fields.get("abstract", ""), note)))
    return Paper(
        id=paper_id(
            arxiv=arxiv or "",
            doi_=found_doi or "",
            title=title,
            fallback=abstract_id(abstract or title),
        ),
        title=title,
        abstract=text,
        authors=names(fields.get("author", "")),
        venue=journal,
        url=url or (f"https://arxiv.org/abs/{arxiv}" if arxiv else ""),
        code_url=links[0] if links else "",
        source=source,
        categories=tuple(keywords),
        aliases=tuple(a for a in (found_doi, arxiv) if a),
    )


def names(field: str) -> tuple[str, ...]:
    """BibTeX's 'Last, First and {Corporate and Name} and First Last' as 'First Last' names:
    accents decoded first, so braces left are the ones that keep a name whole."""
    found = (_text(name) for name in authors.split(to_text(plain(field))))
    return tuple(dict.fromkeys(n for n in found if n and n.lower() != "others"))
