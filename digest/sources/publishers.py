"""What publishers wrap around an abstract in their feeds: Nature's "Published online; doi:" line,
APS's "Author(s):" byline and "[Journal] Published" tail, ScienceDirect's publication-date,
source and author lines, PubMed's citation line, "ABSTRACT" label and "PMID: | DOI:" line, PLOS's
"by" line, ACS's "[ASAP]" and journal-and-DOI lines, Atypon's citation line (citations.py). Taken
off the text, and what they say (a DOI, the authors) kept. And the notices they list as items
(corrections, retractions), and arXiv's word that a version is withdrawn: no papers."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from digest.sources import authors, citations, headings

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
# Blanks taken once ("*+"): "\s*(?:<b>)?\s*" had tried each split of 100,000 blanks (minutes).
_SD_LINE = re.compile(
    r"<p>\s*+(?:<b>\s*+)?(Publication date|Source|Author\(s\))\s*:\s*+(?:</b>\s*+)?([^<>]{0,2000})"
    r"</p>",
    re.IGNORECASE,
)


# PubMed: "<div><p style="color: #4aa564;">Nature. 2026 Mar 2. doi: 10.1038/... Online ahead of
# print.</p><p><b>ABSTRACT</b></p><p>...</p><p style=...>PMID:<a ...>41999999</a> | DOI:...</p>
# </div>": its own colour marks the citation line (a paragraph of prose may cite a DOI too).
_PUBMED_HEAD = re.compile(
    r"^\s*(?:<div>\s*)?<p style=\"color: ?#4aa564;?\">\s*[^<>]{1,300}?\b(?:19|20)\d\d\b"
    r"[^<>]{0,300}?\bdoi:\s*(10\.\d{4,9}/[^\s<>]+?)\.?(?:\s[^<>]{0,200})?</p>\s*"
)
_PUBMED_TAIL = re.compile(r"\s*<p\b[^>]{0,100}>\s*PMID:.{0,600}?</p>\s*(?:</div>)?\s*$", re.DOTALL)
# PLOS: "<p>by Jane Doe, Rahul Gupta</p>" first; also "By Jane Doe and John Smith", "by Jane M.
# Doe, ..." (a capital's "By" and an initial's stop had kept the line in the abstract, the paper
# without authors), when the line is names alone (not "by the end of 2026, ...": a sentence).
# Greedy, blanks and all: a lazy name before "\s*</p>" had tried each blank of a long run.
_PLOS_BY = re.compile(r"^\s*<p>\s*by\s([^<>]{1,2000})</p>\s*", re.IGNORECASE)
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
    raw = citations.drop(raw)  # Atypon's "<Journal>, Volume 36, Issue 2, ..." had been the abstract
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
        cut = max(0, len(raw) - PUBLISHED_TAIL)
        raw = raw[:cut] + _PUBMED_TAIL.sub("", raw[cut:])
    raw = headings.dropped(raw)  # any "Abstract" heading: Crossref's <jats:title>, PubMed's <b>
    if (match := _PLOS_BY.match(raw)) and authors.names_alone(html.unescape(match[1])):
        raw, byline = raw[match.end() :], byline or match[1].strip()
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
    # A by-line is HTML's text: "Jane Doe &amp; John Smith" had made an author "Jane Doe &amp".
    return Unwrapped(raw.strip(), doi, html.unescape(byline))


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
# Of the notice forms, a withdrawal's word and a word before a quoted term may be a paper's topic
# ("Withdrawal: a qualitative study", "Retraction of “scientific” claims"): such an item is a
# notice only when its text reads as one. The others ("Retraction Note:", "Corrigendum:",
# "Correction to:") are notices unless their text reads as a paper's.
_TOPICAL = re.compile(rf"^\W*withdraw|^\s*{_NOTICE_WORD}\s+(?:to|for|of|on)\s*[\"“”‘'«„]", re.I)
_DOES = (
    r"(?:propos|present|introduc|develop|stud|investigat|show|demonstrat|report|find|found|analy[sz]"
    r"|examin|evaluat|explor|consider|deriv|comput|measur|us|employ|appl|conduct|perform|describ"
    r"|provid|obtain|construct|establish|prov|discuss|compar|identif|design|train|test|achiev"
    r"|observ|leverag|buil|formulat|extend|characteri[sz]|quantif|assess|estimat|model|simulat"
    r"|address|tackl|focus|aim|detect|reveal|argu|review|survey|benchmark|releas|outlin|explain"
    r"|offer|discover|predict|uncover|implement|combin|validat|calculat|determin|fit|constrain"
    r"|revisit|creat|curat|collect|captur|learn|generat|integrat|enabl|improv|optimi[sz]|adapt"
    r"|refin|exploit|assembl|compil|solv|highlight|organi[sz]|mak|tak)"
)
_WRITING = (
    r"(?:paper|study|work|research|article|letter|review|survey|thesis|project|chapter|report)"
)
# What an abstract says of its work: "we propose", "here we", "this paper explores", "results
# show", "is derived", "Methods:", "outperforms". Each kind counts once.
_STUDY = (
    rf"\bwe\s+(?:\w+ly\s+|also\s+|further\s+|then\s+|first\s+|here\s+|now\s+|thus\s+)?{_DOES}\w*",
    rf"\bhere,?\s+we\b|\bin\s+this\s+(?:{_WRITING}|note|contribution)\s*,?\s+(?:we|the\s+authors?)\b",
    rf"\b(?:this|the\s+present|our|the\s+proposed)\s+(?:{_WRITING}|approach|method|framework"
    rf"|model|system|analysis|algorithm)\s+(?:\w+ly\s+)?{_DOES}\w*",
)
_WORK = _STUDY + (
    r"\b(?:results|experiments|simulations|findings|analyses|evaluations|observations"
    r"|measurements|studies)\s+(?:\w+\s+){0,3}?(?:show|suggest|indicate|demonstrate|reveal"
    r"|confirm|highlight|support|establish)\b",
    rf"\b(?:is|are|was|were|has\s+been|have\s+been|be)\s+(?:\w+ly\s+)?{_DOES}(?:ed|d|en|n)\b",
    r"\b(?:background|objectives?|methods?|results|conclusions?|purpose|aims?|significance"
    r"|motivation)\s*:",
    r"\b(?:outperform|state[\s-]of[\s-]the[\s-]art|novel|framework|benchmarks?|datasets?|accuracy"
    r"|baselines?|experiments?|simulations?|theorem|hypothes[ie]s|sample|cohort|participants"
    r"|observations)\b",
    # "I"/"we" and a deed, not the notice's "we apologize", "we have discovered an error".
    r"\b(?:we|i)\s+(?:\w+ly\s+|also\s+|further\s+|then\s+|first\s+)?(?!apologi|regret|have\s+been"
    r"|made\b|wish|would\b|the\b|thank|note\b|have\s+(?:discovered|found|noticed|identified"
    r"|repeated|corrected))[a-z]{3,}\b",
    rf"\b(?:this|the|our)\s+(?:{_WRITING}|book|manuscript|dissertation|essay|tutorial|approach"
    r"|method|framework|model|system|tool|platform|lab|competition|workshop|challenge)\s+(?:\w+ly"
    r"\s+)?(?!has\b|is\b|was\b|does\b|contains?\b|includes?\b|titles?\b)[a-z]{3,}s\b",
    rf"\bin\s+this\s+{_WRITING}\b",
    r"\b(?:propos\w+|presents|introduces|investigat\w+|explor\w+|enabl\w+|achiev\w+|leverag\w+"
    r"|utili[sz]\w+|demonstrat\w+|outperform\w*|approach(?:es)?|methodology|paradigm"
    r"|architecture|pipeline|performance)\b",
    r"\b(?:shows?|suggests?|reveals?|predicts?|allows?|aims?|employs?|offers?|searches"
    r"|integrates|studied|explained|presented|introduced|examined)\b",
    r"\b(?:our|their)\s+(?:method|approach|model|framework|results|findings|analysis|work|system"
    r"|algorithm|study)\b",
)
# What a notice's text says of the article it is about: "In the published article, there was an
# error in Figure 3", "The original article has been updated", "The Editors-in-Chief have
# retracted this article", "There are errors in the Funding statement", "An error appeared in
# Table 2 of the article as originally published", "issuing this Expression of Concern", "the
# conclusions are unaffected". Of these, only a few had been known ("the Editors retract this
# article"), and a notice of 30 words or more that said it otherwise was delivered as a paper,
# first in its paper's readers' digests.
_ARTICLE = r"(?:article|paper|publication|manuscript|letter|report|version)"
_NOTICE_CUES = (
    rf"\b(?:original|published|above|following|cited|aforementioned|online|printed|initial)\s+"
    rf"(?:version\s+of\s+(?:this|the)\s+)?{_ARTICLE}\b",
    rf"\b(?:this|the)\s+{_ARTICLE}\s+(?:\[\d+\]\s*)?(?:has\s+(?:now\s+)?been|was|is\s+being|is)"
    r"\s+(?:\w+ly\s+)?(?:retracted|withdrawn|corrected|updated|amended)",
    r"\b(?:retract|correct|withdraw)(?:s|ed|ing)?\s+(?:this|the|these)\s+(?:above\s+|original\s+|"
    rf"published\s+)?{_ARTICLE}\b|\bretraction\b|\bexpressions?\s+of\s+concern\b"
    r"|\b(?:corrigendum|erratum|errata)\b",
    r"\bthe\s+(?:authors?|publisher|editors?)\s+(?:\w+\s+){0,2}?(?:regrets?|apologi[sz]es?)\b"
    r"|\bapologi[sz]e\b|\bregrets?\s+(?:that|the|any)\b",
    r"\b(?:as\s+)?(?:originally\s+|initially\s+)published\b|\bas\s+published\b",
    r"\bthere\s+(?:was|were|is|are)\s+(?:an?\s+)?(?:errors?|mistakes?|omissions?|typos?)\b"
    r"|\b(?:error|mistake)s?\s+(?:appeared|occurred|was\s+(?:made|introduced))"
    r"|\b(?:error|mistake)\s+(?:was\s+)?made\b",
    r"\b(?:errors?|mistakes?)\s+in\s+(?:the\s+)?(?:funding|affiliations?|author|authors['’]?|fig"
    r"|figure|table|legend|caption|equation|eq|acknowledg\w*|references?|data\s+availability)\b",
    r"\b(?:does|do|did)\s+not\s+(?:change|affect|alter|impact)\s+(?:any\s+of\s+)?(?:the\s+)?"
    r"(?:scientific\s+|main\s+|overall\s+)?(?:conclusions|results|findings)|\bconclusions?\s+"
    r"(?:\w+\s+){0,4}?(?:remain|are|is)\s+(?:unchanged|unaffected|valid|not\s+affected)"
    r"|\bunaffected\b",
    r"\b(?:has|have)\s+(?:now\s+)?been\s+(?:corrected|updated|amended|rectified|retracted)\b",
    r"\bshould\s+(?:have\s+)?read\b|\bshould\s+have\s+been\b|\bthe\s+correct(?:ed)?\s+(?:\w+\s+)"
    r"{0,2}?(?:is|are|reads?|appears?|is\s+shown|is\s+given|given|shown)\b",
    r"\bconcerns?\s+(?:were|was|have\s+been|has\s+been)\s+raised\b"
    r"|\bno\s+longer\s+ha(?:ve|s)\s+confidence\b",
    r"\bthe\s+(?:journal\s+)?editors?(?:-in-chief)?\b|\beditor[\s-]in[\s-]chief\b",
    r"\b(?:after|following|since)\s+(?:the\s+)?publication\b"
    r"|\bafter\s+(?:this|the)\s+article\s+(?:\[\d+\]\s*)?was\s+published",
    r"\bcope\b|\bpolicy\s+on\s+article\s+withdrawal\b|\bcorrection\s+to\s*:|\bthis\s+(?:correction"
    r"|corrigendum|erratum|notice|retraction)\b|\bplease\s+see\b|\bdid\s+not\s+(?:respond|agree)"
    r"|\bha(?:ve|s)\s+not\s+responded",
)
_STUDY_RE = tuple(re.compile(p, re.IGNORECASE) for p in _STUDY)
_WORK_RE = tuple(re.compile(p, re.IGNORECASE) for p in _WORK)
_NOTICE_RE = tuple(re.compile(p, re.IGNORECASE) for p in _NOTICE_CUES)
# A notice's text is a line or a paragraph; a paper's abstract tells of a study at some length
# (arXiv's 45k abstracts of 2025: 1 in 1000 is under 50 words, the shortest 13).
OWN_WORK_WORDS = 30
NAMED_TAIL = 400  # characters at a title's end that a quoted title or a citation may take


def _kinds(patterns: tuple[re.Pattern[str], ...], text: str) -> int:
    """How many of these kinds of wording the text holds."""
    return sum(1 for pattern in patterns if pattern.search(text))


def is_notice(written: str, text: str | None = None) -> bool:
    """Whether the item titled so is a journal's notice about a paper (a correction, an erratum,
    a retraction, an expression of concern), not a paper: its title has a notice's form and,
    when its `text` is given, it carries no work of its own: it is short, the title names that
    paper, or the text tells more of what it does to an article than of a study (as much, for a
    form that is no paper's topic: "Erratum:", "Retraction Note:")."""
    if _NOTICE.match(written) is None:
        return False
    # Its end only: a title of quote marks had been tried at every one of them.
    if text is None or _NAMES_PAPER.search(written[-NAMED_TAIL:]):
        return True
    if len(text.split()) < OWN_WORK_WORDS or _NOTICE.match(text):
        return True
    work, notice = _kinds(_WORK_RE, text), _kinds(_NOTICE_RE, text)
    if _TOPICAL.match(written):
        return notice > work
    # A text that says nothing of either (no notice's word at all) is read as a paper's.
    return notice > 0 and notice >= work


# arXiv's word that a version is withdrawn; its API has no field for it. The comment opens with
# it ("This paper has been withdrawn by the author(s)", "Withdrawn due to an error in ...", after
# a page count at most: "9 pages. Withdrawn (...)", "12 pages; withdrawn by arXiv
# administrators"), or arXiv's administrators' note says it, and so did the summary of an older
# withdrawal. A live paper's history had been read as a withdrawal, and the paper lost: "has
# been withdrawn from ICML 2025" (a venue), "v1 withdrawn by arXiv admin", "replaces one
# withdrawn" (another version), "Withdrawn ICLR 2025 submission" (an adjective),
# "Withdrawn-from-market drugs", and, later in a comment, "Submitted to ICLR 2025 (withdrawn)",
# "12 pages; withdrawn, then accepted at AAAI 2026" (a past event, not a statement).
_THING = r"(?:paper|article|submission|manuscript|preprint|version|work)"
# After "withdrawn": an end, a stop, a reason ("due to", "because") or its agent ("by the
# authors"); "from" only arXiv, nor a noun or a compound.
_AFTER = (
    r"(?=\W*$|\s*(?:[.;:,!?(\[]|--|[–—]|-\s)|\s+(?:by|due|because|since|as|owing|pending|for"
    r"|in\s+favou?r\s+of"
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


_COUNTS = r"(?:\d+\s*(?:pages?|pp|figures?|figs?|tables?)\b[\s,;&+]*(?:and\s+)?)+[.;]\s+"
_WITHDRAWN_COMMENT = re.compile(rf"^\W*(?:{_COUNTS})?|\barxiv\s+admin\s+note\s*:\s*", re.IGNORECASE)
_STATED = re.compile(_withdrawal(r"has\s+been|is"), re.IGNORECASE)
_STATED_BEFORE = re.compile(_withdrawal(r"has\s+been|is|was"), re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")
# A statement that names a venue anywhere in its sentence tells of a conference's withdrawal:
# "withdrawn by the corresponding author from ICASSP 2025", "withdrawn, then accepted at AAAI".
_VENUE_NOUN = r"(?:proceedings|conference|workshop|track|journal|symposium|meeting|special\s+issue)"
_VENUE = re.compile(
    r"\bfrom\s+(?!arxiv\b|(?:sec|section|theorem|lemma|eq|equation|fig|figure|table|appendix"
    r"|ref|prop|proposition|corollary|chapter|page|step|v\d+)\b)(?:the\s+|its\s+|their\s+)?"
    rf"(?:(?-i:[A-Z0-9])|{_VENUE_NOUN}|venue|review|consideration|publication|program)"
    r"|\b(?:accepted|submitted|resubmitted|published|presented|appears?|appearing|review)\s+"
    rf"(?:at|in|to|for|by)\s+(?!arxiv\b)(?:the\s+)?(?:(?-i:[A-Z])|{_VENUE_NOUN}\b)",
    re.IGNORECASE,
)
# Withdrawn once, live again: arXiv's "withdrawn by arXiv admin in error", this paper
# "reinstated". Not the authors' "withdrawn as it was uploaded in error" (the reason of a
# withdrawal), nor "the results were reinstated in arXiv:2502.00001" (another paper), which had
# undone their withdrawals.
_REINSTATED = re.compile(
    r"\bwithdrawn\s+(?:by\s+arxiv\s+admin\w*\s+)?in\s+error\b|\b(?:this|the)\s+"
    rf"{_THING}\s+(?:has\s+been|was|is)\s+(?:now\s+)?reinstated\b",
    re.IGNORECASE,
)
# A withdrawal's summary opens with the statement and says no more than a line or two (a reason,
# a pointer), whatever its sentence count; arXiv's 45k abstracts of 2025 are under 50 words 1 in
# 1000 times. One that goes on to tell of a study is a paper's ("This paper was withdrawn by its
# authors after review. We study ...").
SUMMARY_WORDS = 50
_LEAD = " \"'([“‘"  # what may come before a summary's first word


def _statement(text: str, start: int, pattern: re.Pattern[str]) -> bool:
    """Whether the text says at `start` that this version is withdrawn, in a sentence that names
    no venue and no reinstatement."""
    found = pattern.match(text, start)
    if found is None:
        return False
    end = _SENTENCE_END.search(text, found.end())
    sentence = text[start : end.start() if end else len(text)]
    if _REINSTATED.search(sentence):
        return False
    # A reason may name another paper's venue: "withdrawn since it has been superseded by
    # arXiv:2502.00001, which will appear in ICML 2025" had been delivered as a live paper.
    reason = _REASON.search(sentence)
    return not _VENUE.search(sentence[: reason.start() if reason else len(sentence)])


_REASON = re.compile(
    r"\b(?:since|because|as\s+(?:it|the|this|a|an|we)|due\s+to|owing\s+to|superseded|replaced"
    r"|in\s+favou?r\s+of|which|see)\b",
    re.IGNORECASE,
)


def withdrawn(comment: str, summary: str) -> bool:
    """Whether arXiv's comment or summary of an entry says this version of it is withdrawn."""
    comment, summary = " ".join(comment.split()), " ".join(summary.split())
    if _REINSTATED.search(comment) or _REINSTATED.search(summary):
        return False
    if any(_statement(comment, m.end(), _STATED) for m in _WITHDRAWN_COMMENT.finditer(comment)):
        return True
    start = len(summary) - len(summary.lstrip(_LEAD))
    if len(summary.split()) >= SUMMARY_WORDS or not _statement(summary, start, _STATED_BEFORE):
        return False
    end = _FULL_STOP.search(summary, start)  # not at ";": "…; we found a counterexample"
    rest = _FOUND_FAULT.sub(" ", summary[end.end() :] if end else "")  # "We found an error."
    return _kinds(_STUDY_RE, rest) == 0


_FULL_STOP = re.compile(r"[.!?](?=\s|$)")
_FOUND_FAULT = re.compile(
    r"\bwe\s+(?:have\s+)?(?:found|discovered|noticed|identified|realized|realised)\s+(?:\w+\s+){0,3}?"
    r"(?:errors?|mistakes?|flaws?|bugs?|gaps?|counterexamples?|problems?|issues?)\b",
    re.IGNORECASE,
)
