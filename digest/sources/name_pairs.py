"""Whether two comma parts of a list that is not "Last, First" throughout are one such name or
two whole names ("Jane Doe, John Smith Jr.2"), and the pieces of a list outside braces."""

from __future__ import annotations

import re

from digest.sources.name_degrees import degrees_written
from digest.sources.name_marks import unmarked, untitled
from digest.sources.name_words import is_initials

PARTICLE = re.compile(r"^(?:van|von|der|de|den|del|della|di|da|du|la|le|dos|das|ter|ten|bin|al)\b")
_COMMA = re.compile(r",")
_LETTER = re.compile(r"[^\W\d_]")


def top_level(text: str, separator: re.Pattern[str]) -> list[str]:
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


def and_list(group: list[str], ordered: bool) -> bool:
    """Whether the pieces between a group's "and"s are whole names, one of them plainly: a name
    of two words or more, no comma ("Sriram Mandalika, Lalitha V and Athira Nambiar")."""
    return not ordered and len(group) > 1 and any("," not in p and " " in p for p in group)


def whole_names(segment: str, items: list[list[str]], capitals: bool, listed: bool) -> bool:
    """Whether the two parts of a segment of a list that is not "Last, First" are whole names,
    whatever they look like: one carries a degree ("Jane Doe MD, Rakshitha R. T. MD"); its first
    part carries a mark ("Jane Doe1, Rakshitha R. T.2"); or its first part is a name of two
    words with no particle and its second a name of two words or more that carries a mark
    ("Jane Doe, John Smith Jr.2": a mark follows a whole name, and had kept the two apart until
    marks after a dot went) or ends in an undotted initial, as no BibTeX given name does ("Priya
    Raman, Ravi V"; in an "A, B and C" list "Lalitha V" too). Each had been one reversed name
    ("Ravi V Priya Raman")."""
    first, second = items[0][0], items[1][0].split()
    first_marked, last_marked = marked(segment)
    if first_marked or degrees_written(segment, capitals) > 0:
        return True
    if " " not in first or PARTICLE.match(first):
        return False
    undotted = is_initials(second[-1]) and "." not in second[-1]
    return (undotted and (listed or len(second) > 1)) or (last_marked and len(second) > 1)


def marked(segment: str) -> tuple[bool, bool]:
    """Whether the first and the last comma part of a segment carry a mark ("Jane Doe1")."""
    written = [untitled(p.strip()) for p in top_level(segment, _COMMA) if _LETTER.search(p)]
    return unmarked(written[0]) != written[0], unmarked(written[-1]) != written[-1]
