"""What a Google Scholar alert writes around a paper: the kind of copy marked before its title
("[PDF] ", "[HTML] ", "[BOOK][B] ", "[CITATION][C] ") and its links through Scholar's redirector
(`https://scholar.google.com/scholar_url?url=<target>&...`), read as the paper's own."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

# Scholar's marks, in capitals, as it writes them: the copy's file type, or a book or a citation
# with no copy. "[PDF] X" had been another title than X (another key), so the paper an arXiv
# source had sent came again, and again as "[HTML] X"; a title's own brackets ("[Re] Improving
# ...", "[C/N] Ages ...", "[Social] Allostasis") are no such mark and stay.
_KINDS = "PDF|HTML|HTM|DOC|DOCX|PS|RTF|XLS|XLSX|PPT|PPTX|TXT|XML|EPUB|DJVU|BOOK|B|CITATION|C"
_MARKS = re.compile(rf"^\s*(?:\[(?:{_KINDS})\]\s*)+(?=\S)")
# Scholar's hosts: scholar.google.com and the country ones (scholar.google.co.uk, .com.au).
_HOST = re.compile(r"scholar\.google(?:\.[a-z]{2,3}){1,2}", re.IGNORECASE)


def title(written: str) -> str:
    """The title without Scholar's marks of the kind of copy before it."""
    return _MARKS.sub("", written, count=1) if written.lstrip().startswith("[") else written


def target(link: str) -> str:
    """The address a Scholar redirector link leads to (its `url=`), else the link as it is: the
    reader gets the paper's page, not a tracking link whose `ei=` changes with each alert, and an
    arXiv id or DOI in it is found."""
    try:
        parts = urlsplit(link.strip())
    except ValueError:
        return link
    if not _HOST.fullmatch(parts.hostname or "") or parts.path != "/scholar_url":
        return link
    found = parse_qs(parts.query).get("url", [""])[0].strip()
    return found if found.lower().startswith(("http://", "https://")) else link
