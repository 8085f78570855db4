"""An issue's cover and front-matter items in a journal's feed (Wiley's "Front Cover: <a paper's
title> (Angew. Chem. Int. Ed. 49/2025)" and its blurb, "Issue Information", "Masthead", "In This
Issue"): no papers, left out as notices are."""

from __future__ import annotations

import re

from digest.sources.publishers import OWN_WORK_WORDS

# A cover's head before the title of the paper it shows: "Front Cover:", "Inside Front Cover:",
# "Inside Back Cover:", "Back Cover:", "Cover Picture:", "Cover Feature:", "Frontispiece:". Such an
# item copies its paper's title and authors: it had ranked above its paper, and came again days
# later, when the issue came out, as a new paper.
_HEAD = re.compile(
    r"^\W*(?:(?:inside\s+)?(?:front|back)\s+cover|inside\s+cover|cover|frontispiece)"
    r"(?:\s+(?:picture|feature|image|art|story|profile|page))?\s*:",
    re.IGNORECASE,
)
# The issue it belongs to, at the title's end: "(Angew. Chem. Int. Ed. 49/2025)", "(Small
# 3/2025)", "(Chem. Eur. J. 68/2025)", "(Adv. Mater. 12-13/2025)"; or after a colon
# ("Editorial Board: Angew. Chem. Int. Ed. 49/2025").
_ISSUE = re.compile(
    r"(?:\(\s*[^()]{2,120}?|:\s*[^:()]{2,120}?)\s\d{1,3}(?:\s*[-–]\s*\d{1,3})?/(?:19|20)\d\d\s*\)?\s*$"
)
ISSUE_TAIL = 200  # characters at a title's end that the issue may take
# The blurb: "The cover picture shows ...", "The Front Cover illustrates ..." at its start; Wiley's
# "More information can be found in the Research Article by A. Lovelace, A. Turing and
# co-workers" anywhere (no paper's abstract sends its reader to its own article).
_OPENER = re.compile(
    r"^\W*the\s+(?:(?:inside\s+)?(?:front|back)\s+|inside\s+)?cover(?:\s+(?:picture|image|art"
    r"|feature|story|page))?\s+(?:\w+ly\s+)?(?:shows|depicts|illustrates|highlights|features"
    r"|presents|displays|portrays|visuali[sz]es|represents)\b",
    re.IGNORECASE,
)
_POINTER = re.compile(
    r"\bmore\s+information\s+can\s+be\s+found\s+in\s+the\s+(?:\w+\s+){0,2}?(?:article|paper"
    r"|communication|review|minireview|perspective|concept|highlight|essay|letter)s?\s+by\b",
    re.IGNORECASE,
)
# An issue's front matter, its title alone or with the issue: no paper has such a title.
_FRONT_MATTER = re.compile(
    r"^\W*(?:issue\s+information|editorial\s+board|masthead|table\s+of\s+contents|contents"
    r"|in\s+this\s+issue|graphical\s+abstract|cover\s+(?:picture|image|art)|front\s+matter"
    r"|back\s+matter|issue\s+highlights?)\W*$",
    re.IGNORECASE,
)


def is_cover(title: str, text: str = "") -> bool:
    """Whether the item titled so, with this text, is an issue's cover or front matter, not a
    paper: a cover's head with the issue after it, a blurb, or hardly a text (a paper titled
    "Cover: ..." with an abstract of its own is kept); a cover's blurb under any title with the
    issue; the issue's front matter ("Issue Information", "Masthead: Small 3/2025")."""
    tail = title[-ISSUE_TAIL:]
    issue = _ISSUE.search(tail)
    if _FRONT_MATTER.match(title[: len(title) - len(tail) + issue.start()] if issue else title):
        return True
    blurb = bool(_OPENER.match(text)) or bool(_POINTER.search(text))
    if _HEAD.match(title):
        return bool(issue) or blurb or len(text.split()) < OWN_WORK_WORDS
    return blurb and (bool(issue) or bool(_OPENER.match(text) and _POINTER.search(text)))
