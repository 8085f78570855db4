"""Author lists as every source format writes them, split into 'First Last' names: BibTeX's
"Last, First and ...", bioRxiv's "Kukla, D., Crampton, A.", "A, B, and C", semicolons, "et al.",
suffixes ("Reagle, Jr., Joseph M." is Joseph M. Reagle Jr.) and collaborations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_SUFFIX = re.compile(r"^(?:jr|sr|junior|senior|ii|iii|iv|v|2nd|3rd)\.?$", re.IGNORECASE)
# "D.", "J.-P.", "A. B.", "Th.", or bare capitals "AB" as some exports write initials.
_INITIALS = re.compile(r"^(?:(?:[^\W\d_][a-z]?\.\s*-?\s*)+|[^\W\d_a-z]{1,3})$")
_ET_AL = re.compile(
    r"(?:,?\s*\bet\.?\s+al\b\.?|,?\s*\band\s+others\b|,?\s*\bothers\b|\s*…|\.\.\.)\s*$", re.I
)
_COLLABORATION = re.compile(r"\(([^()]*\b(?:collaboration|consortium|group|team)\b[^()]*)\)", re.I)
_ASIDE = re.compile(r"\s*\([^()]*\)")
_PARTICLE = re.compile(r"^(?:van|von|der|de|den|del|della|di|da|du|la|le|dos|das|ter|ten|bin|al)\b")
_AND = re.compile(r"(?:,\s*|\s+)(?:and|&)\s+", re.IGNORECASE)
_SEMICOLON = re.compile(r";")
_COMMA = re.compile(r",")
# A name with none of these is one plain name, "Ada Lovelace": most of a paper file's names.
_LIST_MARKS = re.compile(r"[,;(){}&…]|\.\.\.|\b(?:and|et|others)\b", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")
_NOT_NAMES = frozenset(("and", "others", "et al", "et al.", "anonymous"))


def split(value: str | Iterable[str]) -> tuple[str, ...]:
    """'First Last' names from one string holding a whole list, or from a list of strings each
    of which may hold one name ("Last, First") or several."""
    if not isinstance(value, str):
        found: list[str] = []
        for item in value:  # a paper file's authors: a million names a day of 200k papers
            if isinstance(item, str):
                found.extend(_split_text(item))
        return tuple(dict.fromkeys(found))
    return _split_text(value)


# Names repeat across the papers of a file (and a day's feeds): each form is split once.
@functools.lru_cache(maxsize=1 << 16)
def _split_text(value: str) -> tuple[str, ...]:
    text = " ".join(value.split())
    if not _LIST_MARKS.search(text):
        return (text,) if _is_name(text) else ()
    collaborations = [" ".join(c.split()) for c in _COLLABORATION.findall(text)]
    text = _ASIDE.sub("", _COLLABORATION.sub("", text))
    names: list[str] = []
    for group in _top_level(text, _SEMICOLON):
        for part in _top_level(group, _AND):
            names.extend(_names(_ET_AL.sub("", part).strip(" ,")))
    names += [c for c in collaborations if c not in names]
    return tuple(dict.fromkeys(n for n in names if _is_name(n)))


def one(name: str) -> str:
    """One name as 'First Last': "Last, First", "Last, Jr., First" and "Last, First, Jr."."""
    found = split(name)
    return found[0] if found else ""


def _top_level(text: str, separator: re.Pattern[str]) -> list[str]:
    """Pieces of text between separators outside braces ({Barnes and Noble} is one name)."""
    flat = list(text)
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "{") - (char == "}")
        if depth > 0 or char == "}":
            flat[i] = "_"
    pieces, start = [], 0
    for match in separator.finditer("".join(flat)):
        pieces.append(text[start : match.start()])
        start = match.end()
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip(" ,")]


def _names(segment: str) -> list[str]:
    """The names of one segment with no " and " or ";" left: commas decide."""
    parts = _top_level(segment, _COMMA)
    # Suffixes belong to the name before them: ("Reagle", "Jr.") then ("Joseph M.", "").
    items: list[list[str]] = []
    for part in parts:
        if _SUFFIX.match(part) and items:
            items[-1][1] = part
        else:
            items.append([part, ""])
    if not items:
        return []
    last, given = items[0][0], items[1][0] if len(items) == 2 else ""
    # "Last, First" also when the given names are several words ("Maldacena, Juan Martin"): a
    # lone word, or a particle's name, before the comma is a surname, not a whole name.
    surname = len(last.split()) == 1 or bool(_PARTICLE.match(last))
    if len(items) == 2 and (_is_given(given) or surname) and not _full_name(last, given):
        return [_join(given, last, items[0][1] or items[1][1])]
    pairs = len(items) % 2 == 0 and all(_is_initials(g) for g, _ in items[1::2])
    if pairs:
        return [
            _join(given, last, s1 or s2)
            for (last, s1), (given, s2) in zip(items[::2], items[1::2], strict=True)
        ]
    return [_join("", name, suffix) for name, suffix in items]


def _join(given: str, last: str, suffix: str) -> str:
    return " ".join(p for p in (given, last, suffix) if p)


def _is_initials(text: str) -> bool:
    return bool(_INITIALS.match(text))


def _is_given(text: str) -> bool:
    """A given-name part: initials, one word, or words ending in initials ("Joseph M.")."""
    words = text.split()
    return _is_initials(text) or len(words) == 1 or _is_initials(words[-1])


def _full_name(first: str, second: str) -> bool:
    """Whether "first, second" are two whole names ("Ada Lovelace, Alan Turing") rather than
    one "Last, First" ("van der Berg, Jan", "Reagle, Joseph M.")."""
    if _PARTICLE.match(first) or len(first.split()) == 1:
        return False
    return len(second.split()) > 1 and not _is_initials(second.split()[-1])


def _is_name(name: str) -> bool:
    """A name has a letter (so it is not a year or a number) and is not a stray word of the
    list."""
    name = name.strip()
    found = _LETTER.search(name)  # a word character that is no digit: nearly always a letter
    if found is None or not (found.group().isalpha() or any(c.isalpha() for c in name)):
        return False
    return name.lower() not in _NOT_NAMES
