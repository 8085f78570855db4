"""An abstract's own heading at the start of a feed item's text (Crossref's JATS `<jats:title>
Abstract</jats:title>`, HTML's `<h3>Abstract</h3>`, PubMed's `<p><b>ABSTRACT</b></p>`, a
"Graphical Abstract" with its picture): taken off, it had been the abstract's first word."""

from __future__ import annotations

import re

_OPEN = r"<[A-Za-z][\w:.-]{0,40}(?:\s[^<>]{0,300})?>\s*"  # <p>, <jats:title>, <div class=...>
_VOID = r"<[A-Za-z][\w:.-]{0,40}(?:\s[^<>]{0,300})?/>\s*"  # <jats:graphic .../>
_INLINE = r"</(?:b|strong|i|em|span|u|font|jats:bold|jats:italic|bold|italic)\s*>\s*"
# The word closed by a block's end (a heading, a paragraph, a JATS title, a label, a line
# break): "<p><i>Abstract</i> art is ..." goes on as prose, and so does a label within the text.
_BLOCK_END = r"(?:</(?:p|div|h[1-6]|header|dt|(?:[\w.-]+:)?(?:title|label))\s*>|<br\s*/?>)\s*"
_HEAD = (
    rf"(?:{_OPEN})*(?:graphical\s+|visual\s+)?(?:abstract|summary)\s*[:.]?\s*(?:{_INLINE})*"
    rf"{_BLOCK_END}"
)
# A block of nothing but markup (the graphical abstract's picture) between two headings.
_EMPTY = rf"(?:{_OPEN})(?:{_VOID})*(?:</[\w:.-]{{1,40}}\s*>\s*)+"
HEADING = re.compile(rf"^\s*(?:{_HEAD}(?:{_EMPTY})*)+", re.IGNORECASE)
TEXT_HEAD = 2_000  # characters at the text's start that the headings may take


def dropped(raw: str) -> str:
    """The item's text without an "Abstract" heading (or several) at its start."""
    found = HEADING.match(raw[:TEXT_HEAD])
    return raw[found.end() :] if found else raw
