"""A title that is a notice about a paper, not a paper: an erratum, a retraction, a comment, a
reply, a letter to the editor ("Erratum: …", "Comments on “…”", "… (Retracted)", "…—Reply",
"In Reply: …", "Re: …", Web of Science's "… (vol 5, pg 12, 2024)"), and the words that, added to
a title, make such a notice of it ("Correction to", "Authors' reply")."""

from __future__ import annotations

import re


def notice(title: str) -> str:
    """What notice about a paper the title is ("erra", "retr", "comm", "repl", ...), or "": a
    notice's form ("Correction to: …", "Comments on “…”", "Rejoinder: …", "… (Retracted)",
    PNAS's "Correction for Lopez et al., …"), not a title that opens with its word: "Correction
    of motion artifacts …" had been a correction, and its own "Correction to: Correction of …" a
    copy of it, never sent. The notice's word is a whole word: "ReplaceMe:", "NoteBar:",
    "DiscussLLM:" had been notices, their journal copies without the name sent again."""
    found = next(filter(None, (_worded(n.match(title)) for n in _NOTICE)), None)
    found = found or _letter(title) or _NOTICE_AFTER.search(title) or _notice_after_head(title)
    if found:
        return found["head"][:4].lower()
    # Web of Science titles a correction by its paper and where that was printed: it had been
    # one record with the paper, the correction never sent.
    return "erra" if _PRINTED.search(title) else ""


def _notice_after_head(title: str) -> re.Match[str] | None:
    """A notice's form after a head of its own: "Eppur si muove: Comments on “…”" had been a
    copy of the paper it answers. Not the first form: "X: Correction of Y" is a paper's."""
    at = head.end() if (head := _HEAD_END.search(title)) else len(title)
    return next(filter(None, (_worded(n.match(title, at)) for n in _NOTICE[1:])), None)


def _worded(found: re.Match[str] | None) -> re.Match[str] | None:
    """The notice, unless its head may be the paper's own name or topic: "Correspondence: …"
    and "Clarification: …" are a letter's with what they are about ("Correspondence regarding:
    …", "Clarification to …") or a quoted title after them; "In Reply To: …" with a quoted
    title. "Correspondence: Matching points between images" (a paper on correspondence) and
    "In Reply To: threading emails" (a paper named for the mail header) had been notices, their
    journal copies without the head sent again (reg32)."""
    if found is None or not (loose := _LOOSE.match(found[0])):
        return found
    quoted = _QUOTED.match(found.string, found.end()) or found[0].rstrip()[-1:] in _QUOTES
    return found if quoted or (loose["head"] and _TOPIC.search(found[0])) else None


def _letter(title: str) -> re.Match[str] | None:
    """A letter's "Re: X" as letters pages write it: "Re" so cased, the title it answers quoted
    or title-cased ("Re: Efficacy of Statins in …"). "RE: Relation extraction revisited" (a
    method named RE) and "Re: Thinking about LLM reasoning" had been notices, their copies
    without the head sent again (reg32); a name that opens with it ("Re:Form") is none."""
    found = _RE.match(title)
    if found and (_QUOTED.match(title, found.end()) or _title_cased(title[found.end() :])):
        return found
    return None


def _title_cased(text: str) -> bool:
    """Are the words of the text, but the small ones, capitalized (or with a capital in them,
    "mRNA")?"""
    words = [w for w in _WORD.findall(text) if w.lower() not in _MINOR]
    return bool(words) and all(w != w.lower() for w in words)


def frames(words: list[str], end: str) -> bool:
    """Do these words, added at the `end` ("start", "end") of a title, make a notice of it:
    "Correction to", "Comments on", "(retraction notice)", "Reply to the editor", PNAS's
    "Correction for Ángel and de Vries," (any names after the head)?"""
    if end == "start" and len(words) > 2 and words[0] in _FRAME and words[1] in _FOR:
        return True
    if not all(w in _FRAME or w in _CONCERNED for w in words):
        return False
    return not _NOTICES.isdisjoint(words) or (
        not _COMMENTS.isdisjoint(words) and not _ABOUT.isdisjoint(words)
    )


_HEAD_END = re.compile(r"[:\u2013\u2014]\s*")
_QUOTES = "\"“”‘’'«„"

_WHO = r"(?:editor|author|publisher)s?['’]?s?"
# "In" before the notice's word too: JAMA's "In Reply: X" had been a copy of X.
_QUALIFIER = (
    rf"(?:(?:an?|the|in|editorial|{_WHO}|readers?['’]?s?|notice\s+of|statement\s+of|temporary"
    r"|invited)\s+)*"
)
# A notice's word, whole: a paper's name that begins with one ("Remove360") is none.
_FIX = (
    r"corrections?|corrigend(?:um|a)|errat(?:um|a)|addend(?:um|a)|retractions?|retracted"
    r"|withdrawals?|withdrawn|removals?|removed|expressions?\s+of\s+concern|clarifications?"
)
_REPLY = r"repl(?:y|ies)|responses?"
# "Letter: X", "Letters: X" (Alimentary Pharmacology & Therapeutics' letters), "Reader comment:
# X" had been copies of X, the letter never sent (reg34)
_ANSWER = rf"comments?|commentar(?:y|ies)|discussions?|rejoinders?|{_REPLY}|correspondence|letters?"
_HEAD = rf"(?:{_FIX}|{_ANSWER}|notes?|notices?)(?![\w-])"
# Heads joined ("Comment and concerns: X"), and "Concerns" before a colon: a letter's (reg36)
_HEADS = rf"(?:{_HEAD}|concerns?)(?:\s*(?:and|&|/)\s*(?:{_HEAD}|concerns?(?![\w-])))?"
# What a letter's concerns are about, before its quoted title: "the study", "this paper"
# (its noun too: "Concerns about the “right to be forgotten” in LLMs" is a paper's)
_THE_WORK = (
    r"(?:(?:(?:the|this|a|an|recent|published)\s+)*(?:study|paper|article|report|trial|analysis"
    r"|review|work|findings|claims|results|conclusions|publication|manuscript)\s*)?"
)
# Who wrote the letter, or whose paper it is about: "Response from the authors: X", "Letter from
# the editor: X", "Concerns about (the paper by) Smith et al., “X”" had been copies of X (reg38)
_FROM = rf"from\s+(?:the\s+)?{_WHO}"
_BY = r"(?:(?:by\s+)?[^,:;()\"“”]{1,100}?\bet\s+al\b\.?,?\s*)?"
_NOTICE = tuple(
    re.compile(rf"\W*{_QUALIFIER}(?P<head>{form}", re.IGNORECASE)
    for form in (
        # "Correction: X", "Retraction notice: X", "Correction to: X", "Temporary Removal: X",
        # "Letter re: X", "Comment and concerns: X", "Concerns: X"
        rf"{_HEADS})(?:\s+(?:note|notice|statement|article|paper|to|of|on|for|regarding"
        rf"|about|concerning|re|{_FROM}))?\s*(?::|[\u2013\u2014]|\s-\s|$)",
        # "Comments on “X”", "Discussion of “X”", "Retraction of ‘X’", "Letter concerning “X”"
        rf"{_HEAD})\s+(?:to|for|of|on|regarding|about|concerning|re:?)\s*[\"“”‘’'«„\[]",
        # words that open no paper's own title: "Corrigendum to X", "Reply to comment on X",
        # "Letter to the editor regarding X"
        r"(?:errat(?:um|a)|corrigend(?:um|a)|rejoinders?|retraction\s+no(?:te|tice)"
        rf"|notice\s+of\s+retraction|expressions?\s+of\s+concern|{_WHO}\s+note"
        r"|letters?\s+(?:to\s+the\s+editors?|in\s+(?:response|reply)\s+to)"
        r"|comments?\s+on|repl(?:y|ies)\s+to|additions?\s*(?:/|&|and)\s*corrections?)(?![\w-]))",
        # PNAS's "Correction for Lopez et al., X", "Retraction for …", "Correction to Lopez et
        # al. (2025): X": the names had hidden the form, the notice one record with its paper.
        rf"(?:{_FIX}|{_ANSWER})(?![\w-]))\s+(?:to|for|of|on)\s+[^,:;()\"“”]{{1,100}}?\bet\s+al\b",
        # "Concerns regarding “X”", "Concerns about ‘X’", "Concerns raised by “X”", "Concerns
        # about the study “X”": a letter's, with the title it doubts
        r"concerns?)\s+(?:raised\s+(?:by|in|about|over)|regarding|about|over|with|on|concerning"
        rf"|re:?)\s*{_THE_WORK}{_BY}[{_QUOTES}]",
        # A letter's "Re: “X”"; not a name that opens with it, "Re:Form", "Re:Verse"
        r"re)\s*:\s*(?=[\"“”‘’'«„])",  # title-cased after "Re" too: _letter
    )
)
# Heads that may be a paper's name or topic: a notice only by what follows them (_worded)
_LOOSE = re.compile(
    r"\W*(?:in\s+(?:repl(?:y|ies)|responses?)\s+to\b|(?P<head>clarifications?|correspondence)\b)",
    re.IGNORECASE,
)
_TOPIC = re.compile(r"\s(?:to|on|regarding)\b", re.IGNORECASE)
_QUOTED = re.compile(rf"\s*[{_QUOTES}]")
_RE = re.compile(r"\W*(?P<head>Re)\s*:\s+")  # so cased: "RE" is a name too
_WORD = re.compile(r"[^\W\d_][\w'’]*")
_MINOR = frozenset(
    "a an the and or nor but of in on at to for from by with into onto via vs versus as is are"
    " over under about between through without within per than".split()
)
# ... or after the title: "… (Retracted)", "… [Erratum]", "… - Corrigendum", "… (retraction
# notice)", "…: Addendum" (the word right after the mark had been wanted), JAMA's "…—Reply",
# "…: Response" (a reply titled by the letter it answers had been one record with it).
_NOTICE_AFTER = re.compile(
    rf"(?:[(\[:\u2013\u2014]|(?<![^\W\d_])-)\s*{_QUALIFIER}(?P<head>{_FIX}|rejoinders?|{_REPLY})"
    r"(?:\s+(?:note|notice|statement|article|paper))?\W*$",
    re.IGNORECASE,
)
# Web of Science's correction of a paper: "X (vol 5, pg 12, 2024)", "X (vol 10, art no e3, 2020)"
_PRINTED = re.compile(
    r"\(\s*vol\.?\s*\w+\s*,\s*(?:pg|pp?|art\.?\s+no)\.?\s*\w+\s*,\s*(?:19|20)\d\d\s*\)\W*$",
    re.IGNORECASE,
)

_FOR = frozenset("to for of on".split())
_NOTICES = frozenset(
    "correction corrections corrigendum corrigenda erratum errata addendum addenda retraction"
    " retractions retracted withdrawn withdrawal removal removed rejoinder concern concerns".split()
)
# Words that make a notice with what it is about ("Clarification to", "Reply to the editor"):
# "Clarification" alone before a title had made "Clarification: Asking questions" another paper
_COMMENTS = frozenset(
    "comment comments commentary discussion reply replies response responses note"
    " correspondence letter letters clarification clarifications".split()
)
_ABOUT = frozenset(
    "to on of regarding about concerning re editor editors editorial author authors publisher"
    " publishers".split()
)
_FRAME = (
    _NOTICES
    | _COMMENTS
    | _ABOUT
    | frozenset("and for by expression statement notice temporary invited article paper".split())
)
# "Concerns raised by X", "Concerns about the study X": not a head of _FRAME's ("Study on X")
_CONCERNED = frozenset("study raised".split())
