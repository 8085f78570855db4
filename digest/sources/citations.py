"""A journal's citation line that Atypon's eTOC feeds (SIAM, Science, ACM, T&F, ASCO) open an
item's text with, "<Journal>, Volume N, Issue M, Page a-b, <Month> <Year>." and the "Abstract."
label after it: wrapping, taken off the text (a citation line alone is no abstract).
"""

from __future__ import annotations

import re

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
# The line's parts, as Atypon writes them: "Volume 36", "Issue 2", "Page 1234-1260" (or
# "e2025123"), "June 2026" (ACS's "March 11, 2026"), "Ahead of Print".
_NUMBER = r"[A-Za-z]?\d[\w.]{0,20}"
_PARTS = {
    "volume": rf"Volume\s+{_NUMBER}",
    "issue": rf"Issue\s+{_NUMBER}(?:\s*[-–/]\s*{_NUMBER})?",
    "page": rf"Pages?\s+{_NUMBER}(?:\s*[-–]\s*{_NUMBER})?",
    "date": rf"(?:\d{{1,2}}\s+)?{_MONTH}\s+(?:\d{{1,2}},\s+)?(?:19|20)\d\d",
    "print": r"Ahead\s+of\s+Print",
}
_PART = "|".join(_PARTS.values())
_TAG = r"(?:<[^<>]{0,200}>\s*)*"
# The journal's name (no markup, no sentence: "We measure it, Volume 3" is no citation), then its
# parts; what follows is a line break, the text's end, or the abstract's label. A line without a
# volume or an "Ahead of Print" is no citation ("May 2026. We study ..." is prose).
_LINE = re.compile(
    rf"^\s*{_TAG}(?:(?P<journal>(?:(?!Volume\s)[^<>\n]){{1,200}}?),\s*)?"
    rf"(?:{_PART})(?:,\s*(?:{_PART})){{0,5}}\s*\.?\s*(?=<br\s*/?>|<\s*/|$|Abstract\b)"
)
# The label, a word alone ("Abstract.", "<b>Abstract</b><br/>"): "Abstract reasoning is ..." is
# the abstract's first words.
_LABEL = re.compile(
    rf"^\s*(?:<br\s*/?>\s*)*(?:{_TAG}(?:(?:<b>|<strong>)\s*)?Abstract\s*(?:</b>|</strong>)?"
    r"\s*(?:[.:]\s*|(?=<|$))(?:<br\s*/?>\s*)*)?"
)
_NEEDED = re.compile(rf"{_PARTS['volume']}|{_PARTS['print']}")
# A sentence before the parts is prose, not a name; a name's abbreviations ("SIAM J. Appl. Math.")
# are stops before capitals.
_NO_JOURNAL = re.compile(r"\.\s+[a-z]|[!?;]|(?:\S+\s+){15}")


def drop(raw: str) -> str:
    """The item's text without a citation line at its start (and the label after it)."""
    if "Volume" not in raw[:400] and "Ahead of Print" not in raw[:400]:
        return raw
    match = _LINE.match(raw[:600])
    if match is None or (match["journal"] and _NO_JOURNAL.search(match["journal"])):
        return raw
    if not _NEEDED.search(match[0][len(match["journal"] or "") :]):
        return raw
    return _LABEL.sub("", raw[match.end() :], count=1).lstrip()
