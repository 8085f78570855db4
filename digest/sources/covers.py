"""An issue's cover and front-matter items in a journal's feed (Wiley's "Front Cover: <a paper's
title> (Angew. Chem. Int. Ed. 49/2025)", "Cover Image, Volume 142, Issue 12" and their blurbs;
"Issue Editorial Masthead", "Editorial Board", "Contents list"): no papers, left out as notices."""

from __future__ import annotations

import re

from digest.sources.publishers import OWN_WORK_WORDS

_COVER = r"(?:(?:inside|outside)\s+)?(?:(?:front|back)\s+)?cover"
# A cover's head before the title of the paper it shows: "Front Cover:", "Inside Back Cover:",
# "Cover Picture:", "Cover Feature:", "Frontispiece:". Such an item copies its paper's title and
# authors: it had ranked above its paper, and came again days later, when the issue came out, as
# a new paper.
_HEAD = re.compile(
    rf"^\W*((?:featured\s+)?{_COVER}(?:\s+(?:picture|feature|image|art|story|profile|page))?"
    r"|frontispiece)\s*:",
    re.IGNORECASE,
)
# The heads that only a publisher writes before a paper's title, told even with hardly a text
# when written as publishers write them. Any "Cover…:" with a short text had been read as a
# cover: "COVER: A Comprehensive Video Quality Evaluator" (an acronym), "Cover Story: How
# Magazines Frame ...", "Cover picture: how images shape ..." were papers, and skipped.
_OWN_HEADS = frozenset(
    {
        "front cover",
        "back cover",
        "inside cover",
        "inside front cover",
        "inside back cover",
        "outside front cover",
        "outside back cover",
        "cover picture",
        "cover image",
        "cover art",
        "cover feature",
        "cover profile",
        "frontispiece",
    }
)
_AUTHORS_OWN = re.compile(r"\b(?:we|our)\b", re.IGNORECASE)  # a paper's words, no caption's
# The issue it belongs to, at the title's end: "(Angew. Chem. Int. Ed. 49/2025)", "(Small
# 3/2025)", "(Adv. Mater. 12-13/2025)", or after a colon ("Editorial Board: Angew. Chem. Int. Ed.
# 49/2025"); or by volume and number after a comma, a dash or in brackets (", Volume 142, Issue
# 12", " - Vol. 23, No. 4", "(Volume 7, Issue 2, December 2025)"). Wiley's journals without the
# "N/YYYY" naming title their covers "Cover Image, Volume 142, Issue 12": picked as papers.
_ISSUE = re.compile(
    r"(?:(?:\(\s*[^()]{2,120}?|:\s*[^:()]{2,120}?)\s\d{1,3}(?:\s*[-–]\s*\d{1,3})?/(?:19|20)\d\d"
    r"|[,:;(\[\-–—‐|]\s*(?:vol(?:ume|\.)?\s*\d{1,4}[a-z]?\s*[,;]?\s*)?(?:issues?|nos?\.|numbers?|nr\.)"
    r"\s*\d{1,4}(?:\s*[-–/&]\s*\d{1,4})?(?:\s*,?\s*(?:[a-z]+\.?\s+)?(?:\d{1,2},?\s+)?(?:19|20)\d\d)?"
    r")\s*[)\]]?\s*$",
    re.IGNORECASE,
)
ISSUE_TAIL = 200  # characters at a title's end that the issue may take
_ARTICLE = (
    r"(?:article|paper|communication|review|minireview|perspective|concept|highlight|essay"
    r"|letter)s?"
)
# The blurb: "The cover picture shows ...", "Our Front Cover illustrates ..." (feeds26 F3), "The
# Front Cover illustrates ...", "The cover image is
# based on the Research Article <title> by ...", Wiley's "Invited for this month's cover is the
# group of ..." at its start; "More information can be found in the Research Article by A.
# Lovelace, A. Turing and co-workers", "Read the full text of the Article at 10.1002/..."
# anywhere (no paper's abstract sends its reader to its own article). RSC's "Showcasing research
# from Professor A. Lovelace's laboratory, ..." at its start, "As featured in: See A. Lovelace et
# al., Chem. Sci., 2025, 16, 1234." anywhere: its covers, over 30 words, had been papers (reg49 F5).
_OPENER = re.compile(
    r"^\W*(?:(?:the|our|this)\s+(?:(?:inside\s+)?(?:front|back)\s+|inside\s+)?cover(?:\s+(?:picture|image|art"
    r"|feature|story|page))?(?:\s+of\s+this\s+issue)?\s+(?:\w+ly\s+)?(?:shows|depicts|illustrates"
    r"|highlights|features|presents|displays|portrays|visuali[sz]es|represents|is\s+based\s+on)\b"
    r"|invited\s+for\s+(?:the|this|our)(?:\s+(?:month|issue|week)['’]s)?\s+cover\b"
    r"|showcasing\s+research\s+from\b)",
    re.IGNORECASE,
)
_POINTER = re.compile(
    rf"\bmore\s+information\s+can\s+be\s+found\s+in\s+the\s+(?:\w+\s+){{0,2}}?{_ARTICLE}\s+by\b"
    rf"|\bread\s+the\s+full\s+text\s+of\s+the\s+(?:\w+\s+){{0,2}}?{_ARTICLE}\s+at\b"
    rf"|\bcover\s+(?:picture|image|art)\s+is\s+based\s+on\s+the\s+(?:\w+\s+){{0,2}}?{_ARTICLE}\b"
    r"|\bas\s+featured\s+in\s*:",
    re.IGNORECASE,
)
# An issue's front matter, as the journals' feeds (Wiley, ACS, Elsevier, Springer, RSC, AIP, IOP,
# Cell Press) title it: its pieces alone, joined ("Editorial Board and Contents", "IFC - Editorial
# Board") or after "Issue"/"Journal" ("Issue Editorial Masthead", "Issue Publication
# Information", ACS's, had been picked), with the issue or without. No paper has such a title
# whole; one that only opens so ("Masthead Detection in ...", "On the Cover Time of ...") is kept.
_PIECE = (
    r"(?:(?:issue|journal)\s+)?(?:(?:editorial\s+)?masthead|editorial\s+(?:advisory\s+)?(?:board"
    r"|team)(?:\s+members)?|(?:issue|publication|subscription|copyright|journal|ordering)\s+"
    r"information|(?:information|instructions|guide|notes?)\s+(?:for|to)\s+(?:authors|contributors)"
    r"|(?:table\s+of\s+)?contents(?:\s+list)?|graphical\s+contents(?:\s+list)?|toc|(?:in\s+)?this"
    rf"\s+issue|graphical\s+abstracts?|(?:featured\s+)?{_COVER}(?:\s+(?:picture|image"
    r"|art|page|feature|profile|story|caption|legend))?|frontispiece|on\s+the\s+cover|front\s*"
    r"matter|back\s*matter|prelims|preliminary\s+pages|title\s+page|copyright\s+page|issue\s+"
    r"highlights?|highlights\s+(?:of|from|in)\s+(?:this|the)\s+issue|(?:author|subject|keyword"
    r"|cumulative|annual)\s+index|index|aims\s+and\s+scope|advertisements?|ifc|ibc|ofc|obc)"
)
# Pieces apart by marks or "and" ("Editorial Board (IFC)", "Graphical Abstract TOC"): one run
# of them, so that a title of many pieces is read once, not split every way.
_FRONT_MATTER = re.compile(rf"^\W*{_PIECE}(?:\W+(?:and\W+)?{_PIECE})*\W*$", re.IGNORECASE)


def _head(title: str) -> str | None:
    """The cover's head the title opens with, if any; not an acronym written in capitals
    ("COVER: A Comprehensive Video Quality Evaluator" is a paper's name)."""
    found = _HEAD.match(title)
    if found is None:
        return None
    head = found.group(1)
    acronym = " " not in head and head.isupper() and not title.isupper()
    return None if acronym else head


def _publishers(head: str, rest: str) -> bool:
    """Whether the head is one only publishers write, as they write it ("Front Cover",
    "Cover Picture", RSC's "Front cover"; not "Cover picture" nor "Cover Story"), and not the
    topic of the title after it: "Cover Art: Generating Album Covers with Diffusion Models"
    names its paper, Wiley's "Cover Art: <a paper's title>" a cover (reg49 F5)."""
    words = head.split()
    if " ".join(words).lower() not in _OWN_HEADS or not words[0][0].isupper():
        return False
    topic = {w.lower() for w in words} - _PLACES
    if any(w.lower().removesuffix("s") in topic for w in re.findall(r"\w+", rest)):
        return False
    # "Front cover", "Inside back cover": where a cover sits tells it (feeds26 F3)
    return words[0].lower() in _PLACES or all(w[0].isupper() for w in words)


_PLACES = frozenset({"front", "back", "inside", "outside"})


def is_cover(title: str, text: str = "") -> bool:
    """Whether the item titled so, with this text, is an issue's cover or front matter, not a
    paper: a cover's head with the issue after it or a blurb, or one only publishers write with
    hardly a text, none of it the authors' own; a cover's blurb under any title with the issue;
    the issue's front matter ("Issue Information", "Masthead: Small 3/2025")."""
    tail = title[-ISSUE_TAIL:]
    issue = _ISSUE.search(tail)
    if _FRONT_MATTER.match(title[: len(title) - len(tail) + issue.start()] if issue else title):
        return True
    blurb = bool(_OPENER.match(text)) or bool(_POINTER.search(text))
    head = _head(title)
    if head is not None:
        if issue or blurb:
            return True
        short = len(text.split()) < OWN_WORK_WORDS and not _AUTHORS_OWN.search(text)
        return short and _publishers(head, title.partition(":")[2])
    return blurb and (bool(issue) or bool(_OPENER.match(text) and _POINTER.search(text)))
