"""What publishers wrap around an abstract in their feeds: Nature's "Published online; doi:" line,
APS's "Author(s):" byline and "[Journal] Published" tail, ScienceDirect's publication-date,
source and author lines, PubMed's citation line, "ABSTRACT" label and "PMID: | DOI:" line, PLOS's
"by" line, ACS's "[ASAP]" and journal-and-DOI lines. Taken off the text, and what they say (a DOI,
the authors) kept. And the notices they list as items (corrections, retractions), and arXiv's
word that a version is withdrawn: no papers."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TAG = r"(?:<[^>]{0,200}>\s*)*"  # any markup around a line: <p>, <b>, <a href=...>
# Nature: "<p>Nature, Published online: 02 December 2026; <a ...>doi:10.1038/...</a></p>", a
# paragraph of its own, the journal's name and the date alone before its DOI (an abstract that
# quotes such a line keeps it, and its own identity).
_ONLINE = re.compile(
    r"^\s*<p>\s*[A-Z][\w .&:-]{0,80}, Published online: \d{1,2} [A-Z][a-z]+ \d{4};\s*"
    r"(?:<a\b[^>]{0,300}>)?\s*doi:\s*(10\.\d{4,9}/[^\s<>]+?)\s*(?:</a>)?\s*</p>"
)
# APS: "Author(s): A, B, and C<br />" first (a line break ends it: an abstract that begins
# "Author(s):" as prose is no byline), "[Phys. Rev. Lett. 137, 230601] Published Tue Dec 01,
# 2026" last.
_BYLINE = re.compile(r"^\s*Author\(s\):\s*([^<>\n]{1,2000}?)\s*<br\s*/?>", re.IGNORECASE)
PUBLISHED_TAIL = 1_000  # characters at the end of an item's text that the line may take
_PUBLISHED = re.compile(
    rf"\s*(?:<br\s*/?>\s*)*\[[^\[\]<>\n]{{3,120}}\]\s*Published\s+"
    rf"[A-Za-z]{{3}} [A-Za-z]{{3}} \d{{1,2}}, \d{{4}}\s*{_TAG}$"
)
# ScienceDirect: "<p>Publication date: ...</p><p><b>Source:</b> ...</p><p>Author(s): ...</p>".
_SD_LINE = re.compile(
    r"<p>\s*(?:<b>)?\s*(Publication date|Source|Author\(s\))\s*:\s*(?:</b>)?\s*([^<>]{0,2000})</p>",
    re.IGNORECASE,
)


# PubMed: "<div><p style="color: #4aa564;">Nature. 2026 Mar 2. doi: 10.1038/... Online ahead of
# print.</p><p><b>ABSTRACT</b></p><p>...</p><p style=...>PMID:<a ...>41999999</a> | DOI:...</p>
# </div>": its own colour marks the citation line (a paragraph of prose may cite a DOI too).
_PUBMED_HEAD = re.compile(
    r"^\s*(?:<div>\s*)?<p style=\"color: ?#4aa564;?\">\s*[^<>]{1,300}?\b(?:19|20)\d\d\b"
    r"[^<>]{0,300}?\bdoi:\s*(10\.\d{4,9}/[^\s<>]+?)\.?(?:\s[^<>]{0,200})?</p>\s*"
)
_PUBMED_LABEL = re.compile(r"^\s*<p>\s*<b>\s*ABSTRACT\s*</b>\s*</p>\s*", re.IGNORECASE)
_PUBMED_TAIL = re.compile(r"\s*<p\b[^>]{0,100}>\s*PMID:.{0,600}?</p>\s*(?:</div>)?\s*$", re.DOTALL)
# PLOS: "<p>by Jane Doe, Rahul Gupta</p>" first.
_PLOS_BY = re.compile(r"^\s*<p>\s*by\s+([^<>.]{1,2000}?)\s*</p>\s*")
# ACS: "<p><img alt="TOC Graphic" ...></p><div><cite>Nano Letters</cite></div><div>DOI: 10.1021/
# ...</div>" (its latest articles), "<div><cite>Nano Letters</cite>, Volume 26, Issue 10, Page
# 4100-4107, March 11, 2026. <br /></div>" (an issue's): the journal, its citation, the DOI last.
_ACS_TAIL = re.compile(
    r"\s*<div>\s*<cite>[^<>]{1,300}</cite>[^<>]{0,300}(?:<br\s*/?>\s*)?</div>\s*"
    r"(?:<div>\s*DOI:\s*(10\.\d{4,9}/[^\s<>]+?)\s*</div>\s*)?$",
    re.IGNORECASE,
)
# Any publisher's text that is a journal's name and a DOI alone ("Nano Letters DOI: 10.1021/..."),
# markup aside: the DOI, and no abstract.
_TAGS = re.compile(r"<[^<>]{0,1000}>")
_ONLY_DOI = re.compile(
    r"\s*(?:[^<>\n]{1,200}?\s)?\s*DOI:?\s*(10\.\d{4,9}/[^\s<>]+?)[.;,]?\s*", re.IGNORECASE
)
# A status in brackets before the title: ACS's "[ASAP]", "[Just Accepted]"; not "[18F]FDG ...".
_STATUS = re.compile(
    r"^\s*\[(?:ASAP|Articles ASAP|Just Accepted|In Press|Early ?View|Online First|Early Access"
    r"|Accepted Manuscript|Ahead of Print|Epub ahead of print)\]\s*",
    re.IGNORECASE,
)
# A journal's notice about a paper, listed as an item of its own: "Author Correction: <the
# paper's title>" (Nature), "Correction to “...”" (ACS), "Corrections to “...”" (IEEE),
# "Corrigendum to ..." (Elsevier), "Erratum: ..." (APS), "Retraction: ...", "Expression of
# Concern: ..." (PLOS), "RETRACTED ARTICLE: ..." (Springer), "Retraction of “...”" (ACS),
# "Retraction Statement: ..." (Wiley), "Editorial Retraction" (Science), "Correction for Smith
# et al., ..." (PNAS). The notice's word, maybe after "Editorial", "Publisher", "Author",
# "Notice of", then a colon, the title's end, or "to", "for", "of", "on" and a quote mark. A
# title that only begins with the word ("Correction factors: ...", "Retraction of a soap film",
# "Corrections to scaling", "Error correction codes") is a paper's. A "Comment on “...”" and its
# "Reply to “...”" are papers, with abstracts of their own (arXiv has them too).
_NOTICE_WORD = (
    r"(?:(?:editorial|authors?['’]?|publisher['’]?s?|notice\s+of|statement\s+of)\s+)?"
    r"(?:corrections?|corrigend(?:um|a)|errat(?:um|a)|addend(?:um|a)"
    r"|retractions?(?:\s+(?:note|notice|statement))?|retracted(?:\s+(?:article|paper))?"
    r"|withdrawn(?:\s+(?:article|paper))?|withdrawals?(?:\s+(?:note|notice|statement))?"
    r"|expressions?\s+of\s+concern|publisher['’]?s\s+note)"
)
_QUOTED = r"\s*[:\"“”‘'«„\[]"  # a colon or a quote mark: the notice's paper is named next
_NOTICE = re.compile(
    rf"^\s*{_NOTICE_WORD}(?:\s+and\s+{_NOTICE_WORD})?\s*(?::|$)"
    rf"|^\s*{_NOTICE_WORD}\s+(?:to|for|of|on){_QUOTED}"
    # "Addendum to the theory of ..." may be a paper's own title; these words are no paper's.
    r"|^\s*(?:corrigend(?:um|a)|errat(?:um|a)|retraction\s+no(?:te|tice))\s+(?:to|for)\b"
    r"|^\s*notice\s+of\s+retraction\b"
    r"|^\s*(?:correction|retraction)\s+for\s+[^,]{1,100}?\bet\s+al\.?,",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Unwrapped:
    text: str  # the feed's text without the publisher's lines
    doi: str = ""  # a DOI one of them named
    byline: str = ""  # the authors one of them named, as written


def unwrap(raw: str) -> Unwrapped:
    """The item's text (HTML or plain) without a publisher's wrapping lines."""
    doi = byline = ""
    if match := _ONLINE.match(raw):
        raw, doi = raw[match.end() :], match[1].rstrip(".;,")
    if match := _BYLINE.match(raw):
        raw, byline = raw[match.end() :], match[1]
    # Only the text's end can hold it: searched over the whole text, the leading blanks were
    # tried at every position (100,000 of them took 3 minutes).
    cut = max(0, len(raw) - PUBLISHED_TAIL)
    raw = raw[:cut] + _PUBLISHED.sub("", raw[cut:])
    if match := _PUBMED_HEAD.match(raw):
        raw, doi = raw[match.end() :], doi or match[1].rstrip(".;,")
        raw = _PUBMED_LABEL.sub("", raw)
        cut = max(0, len(raw) - PUBLISHED_TAIL)
        raw = raw[:cut] + _PUBMED_TAIL.sub("", raw[cut:])
    if match := _PLOS_BY.match(raw):
        raw, byline = raw[match.end() :], byline or match[1]
    lines = list(_SD_LINE.finditer(raw))
    if len(lines) >= 2 and {m[1].lower() for m in lines} >= {"publication date", "source"}:
        byline = next((m[2].strip() for m in lines if m[1].lower() == "author(s)"), byline)
        raw = _SD_LINE.sub("", raw)
    cut = max(0, len(raw) - PUBLISHED_TAIL)
    if match := _ACS_TAIL.search(raw, cut):
        raw, doi = raw[: match.start()], doi or (match[1] or "").rstrip(".;,")
    # A short text only: the markup is taken off for the test.
    if len(raw) < 2_000 and (match := _ONLY_DOI.fullmatch(_TAGS.sub(" ", raw))):
        raw, doi = "", doi or match[1]
    return Unwrapped(raw.strip(), doi, byline)


def title(written: str) -> str:
    """The item's title without a publisher's status before it ("[ASAP] ...")."""
    return _STATUS.sub("", written, count=1) if written.lstrip().startswith("[") else written


# A notice is known by its form and by carrying no work of its own: "Withdrawal: A Qualitative
# Study of Opioid Tapering" (of drugs) and "Correction of “hallucinations” in language models"
# (a quoted term) with abstracts of their own had been read as notices by their first words, and
# lost. The form alone decides when the title names the paper it is about: a quoted title that
# runs to its end ("Correction to “Graph Neural Networks Predict Exciton Dynamics”"), a citation
# ("[Phys. Rev. B 99, 104401 (2019)]", "Chen et al.,").
_NAMES_PAPER = re.compile(
    r"[\"“”‘'«„](?:[^\"“”«»„\s]+\s+){2,}[^\"“”«»„\s]+\s*[\"“”’'»]\s*(?:\[[^\[\]]*\]\s*)?$"
    r"|\[[^\[\]]*\b(?:19|20)\d\d\b[^\[\]]*\]\s*$|\bet\s+al\.?,",
)
# A notice's own text says what it does to the article it is about: "In the version of this
# article initially published...", "The original version of this Article contained...", "This
# corrects the article DOI: ...", "the Editors retract this article", "The authors regret...";
# or it begins as one, as Nature's repeats the title ("Author Correction: ...").
_ARTICLE = r"(?:article|paper|letter|publication|manuscript)"
_NOTICE_TEXT = re.compile(
    rf"\b(?:original|initial|initially\s+published|published|printed|online|the)\s+version\s+of"
    rf"\s+(?:this|the)\s+{_ARTICLE}"
    rf"|\b(?:retracts?|corrects?|retracting|correcting|withdraws?)\s+(?:this|the|the\s+above"
    rf"|the\s+original|the\s+published)\s+{_ARTICLE}\b"
    rf"|\b(?:this|the\s+above|the\s+original|the\s+published)\s+{_ARTICLE}\s+(?:has\s+been"
    rf"|was|is\s+being)\s+(?:retracted|withdrawn|corrected)"
    rf"|\bthe\s+(?:authors?|publisher|editors?)\s+regrets?\b"
    rf"|\b(?:after|following)\s+(?:the\s+)?publication\s+of\s+(?:this|the)\s+{_ARTICLE}",
    re.IGNORECASE,
)
# A paper's abstract tells of a study at some length; a notice's text is a line or two (arXiv's
# 45k abstracts of 2025: 1 in 1000 is under 50 words, the shortest 13).
OWN_WORK_WORDS = 30
NAMED_TAIL = 400  # characters at a title's end that a quoted title or a citation may take


def is_notice(written: str, text: str | None = None) -> bool:
    """Whether the item titled so is a journal's notice about a paper (a correction, an erratum,
    a retraction, an expression of concern), not a paper: its title has a notice's form and,
    when its `text` is given, it carries no work of its own (it is short, says what it does to
    the article, or the title names that paper)."""
    if _NOTICE.match(written) is None:
        return False
    # Its end only: a title of quote marks had been tried at every one of them.
    if text is None or _NAMES_PAPER.search(written[-NAMED_TAIL:]):
        return True
    short = len(text.split()) < OWN_WORK_WORDS
    return short or bool(_NOTICE.match(text) or _NOTICE_TEXT.search(text))


# arXiv's word that a version is withdrawn; its API has no field for it. The comment says it
# ("This paper has been withdrawn by the author(s)", "Withdrawn due to an error in ...", "This
# submission has been withdrawn by arXiv administrators due to ..."), first or after a stop, and
# so did the summary of an older withdrawal, that sentence alone. A live paper's history had been
# read as a withdrawal, and the paper lost: "has been withdrawn from ICML 2025" (a venue), "v1
# withdrawn by arXiv admin", "replaces one withdrawn", "after being withdrawn" (another version, a
# past event), "Withdrawn ICLR 2025 submission" (an adjective), "Withdrawn-from-market drugs".
_THING = r"(?:paper|article|submission|manuscript|preprint|version|work)"
# After "withdrawn": an end, a stop, a reason ("due to", "because") or its agent ("by the
# authors"), never a venue within a few words ("from ICML", "by the authors from ICML"; from
# arXiv alone), nor a noun or a compound.
_AFTER = (
    r"(?!(?:\s+[\w'’()-]+){0,3}?\s+from\b(?!\s+arxiv))"
    r"(?=\W*$|\s*(?:[.;:,!?(\[]|--|[–—]|-\s)|\s+(?:by|due|because|since|as|owing|pending|for"
    r"|until|after|following|upon|to|per|temporarily|permanently|from\s+arxiv"
    r"|at\s+(?:\S+\s+){0,3}?request|on\s+(?:\S+\s+)?request)\b)"
)


def _withdrawal(tenses: str) -> str:
    """A sentence saying this paper is withdrawn: "This paper has been withdrawn ...", "Paper
    withdrawn ...", "Withdrawn ...", "The authors have withdrawn this paper ..."."""
    return (
        rf"(?:(?:this|the|our)\s+{_THING}\s+(?:{tenses})\s+withdrawn"
        r"|(?:(?:paper|article|submission|manuscript|preprint)\s+)?withdrawn"
        rf"|(?:the\s+)?authors?\s+ha(?:s|ve)\s+withdrawn\s+(?:this|the|their|our)\s+{_THING})"
        + _AFTER
    )


_WITHDRAWN_COMMENT = re.compile(
    r"(?:^\W*|[;.(]\s*|arxiv\s+admin\s+note\s*:\s*)" + _withdrawal(r"has\s+been|is"),
    re.IGNORECASE,
)
# The summary of a withdrawal is that sentence, maybe a second (a reason, a pointer): an abstract
# that goes on tells of a study ("This paper was withdrawn from the conference track and is
# extended here. We study ...").
_WITHDRAWN_SUMMARY = re.compile(r"^\W*" + _withdrawal(r"has\s+been|is|was"), re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")
# Withdrawn once, live again: "Reinstated after being withdrawn by arXiv admin in error".
_REINSTATED = re.compile(
    r"\breinstat|\bwithdrawn\b[^.;]{0,200}?\b(?:in\s+error|by\s+mistake)\b", re.I
)


def withdrawn(comment: str, summary: str) -> bool:
    """Whether arXiv's comment or summary of an entry says this version of it is withdrawn."""
    comment, summary = " ".join(comment.split()), " ".join(summary.split())
    if _REINSTATED.search(comment) or _REINSTATED.search(summary):
        return False
    if _WITHDRAWN_COMMENT.search(comment):
        return True
    short = len(_SENTENCE_END.findall(summary.rstrip(" .!?") + ".")) <= 2
    return short and _WITHDRAWN_SUMMARY.match(summary) is not None
