"""A paper's text as identity reads it: its words (normalize) and letters as ASCII writes them
(folded), its abstract without a journal's label, heads and copyright lines (bare_abstract), and
the keys of a long abstract alone and with its title's first words (text_keys)."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from digest.models.credentials import ELEMENTS

_NOT_WORD = re.compile(r"[\W_]+")
# ASCII's letters and digits in lowercase, anything else a blank: as the pattern reads them.
_ASCII_WORDS = bytes(ord(c.lower()) if c.isalnum() else 32 for c in map(chr, range(256)))


def normalize(text: str) -> str:
    """NFKC, lowercase, punctuation and whitespace collapsed to single spaces."""
    if text.isascii():  # most texts: a table, four times the pattern's speed (keys of each paper)
        return " ".join(text.encode().translate(_ASCII_WORDS).decode().split())
    return " ".join(_NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text).lower()).split())


def text_keys(title: str, abstract: str) -> list[str]:
    """'a:<hash>' keys of a long abstract with its title's first words, and of the abstract
    alone: a conference copy ("… II (extended abstract)"), a journal's title grown, cut or changed
    ("A survey of …", "Scalable …", "using" for "with"), with the whole abstract, was sent
    again as new. Whether two records of one such key are one paper their titles and authors say
    (evidence.copies): one feed's boilerplate under each title stays apart."""
    words = normalize(abstract).split()
    if len(words) < LONG_TEXT:
        return []
    text = " ".join(words)
    # The first words' key as stored before; the abstract's own since schema 15.
    starts = (" ".join(normalize(title).split()[:4]), "*")
    return ["a:" + hashlib.sha256(f"{start}|{text}".encode()).hexdigest()[:16] for start in starts]


LONG_TEXT = 40  # words: no placeholder abstract is this long


def bare_abstract(abstract: str) -> str:
    """The abstract without a journal's "Abstract" label, "Background:"/"Methods:" heads, "©
    2026 Elsevier B.V. All rights reserved.", "Published by …" or keywords: its second text key
    (keys), its copy had been new. An abstract without them is itself, its one key as stored."""
    tail = max(0, len(abstract) - NOTICE_TAIL)
    # The words first, in lowercase: the whole pattern at each place took longer than keys().
    end = abstract[tail:].lower()
    cut = _NOTICE.search(abstract, tail) if any(w in end for w in _NOTICE_WORDS) else None
    text = abstract[: cut.start()] if cut else abstract
    text = text[_LABEL.match(text).end() :]  # type: ignore[union-attr]  # all of it is optional
    return (_HEAD.sub(r"\1 ", text) if ":" in text else text).strip()


NOTICE_TAIL = 600  # characters at the text's end that a publisher's lines may take
_NOTICE_WORDS = (  # one of them before the pattern is tried
    *("©", "(c)", "copyright", "reserved", "published by", "protected"),
    *("keywords", "key words", "index terms"),
)
_NOTICE = re.compile(
    r"\s*(?:©|\(c\)\s*(?:19|20)\d\d\b)"  # a copyright sign, anywhere in the tail
    r"|(?:(?<=[.!?)\]])|^)\s*(?:copyright\b|all rights reserved|published by\b"
    r"|this (?:article|abstract) is protected|(?:key ?words|index terms)\s*:)",
    re.IGNORECASE,
)
_SECTION = (
    r"background|introduction|context|motivation|objectives?|aims?|purpose|methods?|design|setting"
    r"|participants|patients|interventions?|(?:main )?outcome measures|results?|findings"
    r"|conclusions?|interpretation|significance|availability|implementation|contact"
)
_HEADING = rf"(?:{_SECTION})(?: (?:and|&) (?:{_SECTION}))?\s*:"  # "Methods and findings:"
_ABSTRACT = r"(?:graphical )?(?:abstract|summary|synopsis)\b\s*[:.\u2013\u2014-]?"
_LABEL = re.compile(rf"^\s*(?:{_ABSTRACT})?\s*(?:{_HEADING})?", re.I)
_HEAD = re.compile(rf"([.!?])\s*{_HEADING}", re.I)  # a sentence's, within the text


def folded(text: str) -> str:
    """The text without its accents (NFKD's marks) and with the Latin letters NFKD leaves as
    they are written as ASCII writes them: ł as l, ø as o, æ as ae, ß as ss, þ as th, ı as i."""
    marked = unicodedata.normalize("NFKD", text)
    return "".join(c for c in marked if not unicodedata.combining(c)).translate(_FOLD)


def _fold_table() -> dict[int, str]:
    """The Latin letters NFKD does not decompose, by their names: "LATIN SMALL LETTER L WITH
    STROKE" is l, "LATIN SMALL LIGATURE OE" oe; a letter of its own (ʒ, ə) stays."""
    table: dict[int, str] = {}
    for code in range(0xC0, 0x2B0):  # Latin-1 to IPA: the blocks after decompose
        bare = "".join(c for c in unicodedata.normalize("NFKD", chr(code)) if c.isascii())
        named = _LETTER.fullmatch(unicodedata.name(chr(code), ""))
        if not bare and named:
            table[code] = _SPECIAL.get(named[1], named[1].lower())
    return table


_LETTER = re.compile(
    r"LATIN (?:SMALL|CAPITAL) (?:LETTER|LIGATURE) (?:DOTLESS |OPEN )?"
    r"(SHARP S|ETH|THORN|ENG|[A-Z]{1,2})(?: WITH .+)?"
)
_SPECIAL = {"SHARP S": "ss", "ETH": "d", "THORN": "th", "ENG": "ng"}
_FOLD = _fold_table()
# An apostrophe or an okina within a name joins its parts: "O'Brien", "Kaʻiulani" (the okina is
# a letter of no script: the name had been "another script").
APOSTROPHE = re.compile("['`\u00b4\u2018\u2019\u02b9\u02bb\u02bc\u02bd\u02be\u02bf]")


def ions(title: str) -> str:
    """The title with each ion as one word, as a journal's "Co<sup>II</sup>" reads: "Co(II)",
    "Co II", "[O III]", "[O~{\\sc iii}]" are "CoII", "OIII", "Oiii"; a part's "[II]" stays."""
    return _STATE.sub(_ion, _SMALL_CAPS.sub(r" \1", title))


_STATE = re.compile(
    r"\b([A-Z][a-z]?)\(([IVX]+)\)|\[([A-Z][a-z]?)\s*([IVX]+|[ivx]+)\]|\b([A-Z][a-z]?)\s+([IVX]+)\b"
)
_SMALL_CAPS = re.compile(r"~?\{\\(?:sc|textsc|rm|mathrm)\s+([^{}]*)\}")  # arXiv's "[O~{\sc iii}]"


def _ion(match: re.Match[str]) -> str:
    """An ion as one word, as a journal's "Co<sup>II</sup>" reads ("CoII", "OIII"); a part's
    numeral in brackets ("[II]", "[IV]") stays one."""
    ion = "".join(filter(None, match.groups()))
    element = next(filter(None, match.groups()))
    if set(ion) <= set("IVX") or (match[5] and element not in ELEMENTS):
        return match[0]  # a part's "[II]"; "Type II" or "Paper II" written apart is no ion
    return ion
