"""A paper's text as a digest shows it: no control characters, LaTeX as plain text, a short
author list, and the abstract's first sentences cut at a word boundary."""

from __future__ import annotations

import re

from digest.models.characters import BIDI, C0_BUT_TAB_NEWLINE, C1
from digest.sources.latex import to_text

_CONTROLS = re.compile(f"[{C0_BUT_TAB_NEWLINE + C1 + BIDI}]")


def short_authors(authors: tuple[str, ...], keep: int = 3) -> str:
    names = [" ".join(plain(a).split()) for a in authors if a.strip()]
    if len(names) > keep:
        return ", ".join(names[:keep]) + " et al."
    return ", ".join(names)


# Words whose trailing period does not end a sentence; compared lower-cased, without brackets.
_ABBREVIATIONS = frozenset(
    "e.g. i.e. al. fig. figs. eq. eqs. sec. tab. no. vs. cf. approx. resp. ref. refs. "
    "dr. mr. ms. prof. st. ch. app. w.r.t. et. a.k.a. aka. viz.".split()
)
# End punctuation, optional closing quote or bracket, whitespace, then no lower-case letter.
# Only a run's first mark starts a match, and no part gives back what it took: tried from each
# mark of a run of 20,000 dots, the run was read again each time (5 s per abstract).
_BOUNDARY = re.compile(r"(?<![.!?])([.!?]++)[\"'”’)\]]*+\s++(?=[^a-z\s])")
_INITIAL = re.compile(r"[A-Z]\.")


def tidy(text: str) -> str:
    """LaTeX as plain text where it is LaTeX ($5 and {x : x > 0} stay), whitespace collapsed.
    Its text-mode punctuation the source read, once: read again, the "~" of an address it kept
    as written (x.org/a~b/c from a \\url) had been mailed as a blank."""
    return " ".join(to_text(plain(text), marks=False).split())


def plain(text: str) -> str:
    """Text without the control characters a terminal obeys nor bidi controls (tab and newline
    stay; CR, form feed and the like become spaces, so that they still part words)."""
    return _CONTROLS.sub(lambda m: " " if m[0].isspace() else "", text)


def _last_word(text: str, start: int, end: int) -> str:
    """text[start:end].split()[-1], read from the end: splitting all that the sentence so far
    holds at each "A." or "e.g." it skips made a text of initials quadratic."""
    cut = end
    while cut > start and not text[cut - 1].isspace():
        cut -= 1
    return text[cut:end]


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group(1) == ".":
            last = _last_word(text, start, match.start() + 1).lstrip("(\"'[“‘")
            if last.lower() in _ABBREVIATIONS or _INITIAL.fullmatch(last):
                continue
        sentences.append(text[start : match.end()].strip())
        start = match.end()
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return sentences


def snippet(abstract: str, sentences: int = 3, limit: int = 420) -> str:
    """The abstract's first few sentences, shortened to `limit` characters at a word boundary."""
    parts = split_sentences(tidy(abstract))
    chosen = parts[:sentences]
    # Two whole sentences read better than three cut mid-way.
    while len(chosen) > min(2, sentences) and len(" ".join(chosen)) > limit:
        chosen.pop()
    text = " ".join(chosen)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-–—") + "…"
