"""Whether two comma parts of a list that is not "Last, First" throughout are one such name or
two whole names ("Jane Doe, John Smith Jr.2"), and the pieces of a list outside braces."""

from __future__ import annotations

import re

from digest.sources.name_degrees import degrees_written
from digest.sources.name_marks import unmarked, untitled
from digest.sources.name_words import is_initials

PARTICLE = re.compile(r"^(?:van|von|der|de|den|del|della|di|da|du|la|le|dos|das|ter|ten|bin|al)\b")
# Those that lead a surname written with a capital too, or in capitals ("Le Roux, Pierre A.2 and
# Ana Lee", "DE SOUSA COSTA, ANA M.1 AND ..."): the first part had been read as a whole name and
# its given name as another (reg45 F3). Each leads more of the 45k corpus's surnames than given
# names ("Di" 141 to 42, "Le" 87 to 44, "Van" 116 to 10, "Al" 74 to 2), so a "Di Wu, Ravi V.2
# and …" reads as one name now; "Da" (19 to 24), "Du", "Bin", "Ben" lead given names more ("Da
# Xu", "Bin Li"), "Ten" one given name and no surname.
_CAPITAL_PARTICLE = re.compile(
    r"^(?:van|von|der|de|den|del|della|dal|dalla|di|la|le|dos|das|ter|al|el|ibn)\s", re.IGNORECASE
)
_COMMA = re.compile(r",")
_LETTER = re.compile(r"[^\W\d_]")
# Vancouver's initials, a particle's letter among them ("Miltenburg Ev" is E. van Miltenburg,
# "Souza JMSd"): a first part ending so is a whole name ("Miltenburg Ev, Lin C").
_VANCOUVER = re.compile(r"^(?:[A-Z][a-z]?){1,4}$")


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
    part carries a mark ("Jane Doe1, John Smith"); or its first part is a name of two words with
    no particle and its second a name of two words or more that carries a mark ("Jane Doe, John
    Smith Jr.2": a mark follows a whole name, and had kept the two apart until marks after a dot
    went) or ends in an undotted initial, as no BibTeX given name does ("Jane Doe, van Dijk B").
    Each had been one reversed name ("John Smith Jr. Jane Doe"). A second part that is a given
    name and initials is another matter (`_two_given`)."""
    first, second = items[0][0], items[1][0].split()
    first_marked, last_marked = marked(segment)
    if degrees_written(segment, capitals) > 0:
        return True
    if _given_and_initials(second):
        undotted = "." not in second[-1]
        shown = listed and (undotted or last_marked) or titled(segment)
        return _two_given(first, shown, first_marked and last_marked, capitals)
    if first_marked:
        return True
    if " " not in first or _particle_led(first):
        return False
    undotted = is_initials(second[-1]) and "." not in second[-1]
    return (undotted and (listed or len(second) > 1)) or (last_marked and len(second) > 1)


def _given_and_initials(words: list[str]) -> bool:
    """Whether a part is a given name, or initials, then initials alone ("Maria J", "B V",
    "Rakshitha R. T."): a "Last, First M" name's given part as well as a whole name."""
    return len(words) > 1 and all(map(is_initials, words[1:]))


def _two_given(first: str, shown: bool, both_marked: bool, capitals: bool) -> bool:
    """Whether a first part and a given name with initials after it are two names, as only a
    list shows: an "A, B and C" list where the initial is undotted, as no BibTeX given name's is
    ("Priya Raman, Ravi V and Ana Lee"), or marked, as a whole name is ("Jane Doe, Ravi V.2 and
    Ana Lee" had been "Ravi V. Jane Doe", reg44 F6), or a title before the second (`shown`); a
    mark after each part ("Jane Doe1, R. T.3"); a first part written "First LAST" or "LAST
    First" in a list of capitals ("Rasha SINHA, Rekha B S", "SINGH Sehajdeep, SUBRAMANYAM A V"),
    or ending in Vancouver's initials ("Miltenburg Ev, Lin C"). A lone pair is one "Last, First
    M" name, as BibTeX and most feeds write one author: "Garcia Lopez, Maria J", "Le Roux,
    Pierre A", "Garcia Lopez, Maria J.2" had been two names, a surname and a given name, since
    "Priya Raman, Ravi V" alone was read as two (it reads alike: one now)."""
    if both_marked:
        return True
    if " " not in first or _particle_led(first):
        return False
    words = first.split()
    cased = any(c.islower() for c in first) and any(map(_in_capitals, words))
    return shown or (capitals and cased) or bool(_VANCOUVER.match(words[-1]))


def _particle_led(first: str) -> bool:
    """Whether a first part is a surname a particle leads ("van Dijk", "Le Roux", "DE SOUSA")."""
    return bool(PARTICLE.match(first) or _CAPITAL_PARTICLE.match(first))


def _in_capitals(word: str) -> bool:
    """A surname in capitals ("SINHA", "SATOU"), no initials ("B", "JA")."""
    return word.isupper() and word.isalpha() and not is_initials(word)


def titled(segment: str) -> bool:
    """Whether a later comma part of a segment opens with a title ("Jane Doe, Dr. Ravi V"): a
    whole name's, as no "Last, First" name's given part has one."""
    parts = [p.strip() for p in top_level(segment, _COMMA) if _LETTER.search(p)]
    return any(untitled(p) != p for p in parts[1:])


def marked(segment: str) -> tuple[bool, bool]:
    """Whether the first and the last comma part of a segment carry a mark ("Jane Doe1")."""
    written = [untitled(p.strip()) for p in top_level(segment, _COMMA) if _LETTER.search(p)]
    return unmarked(written[0]) != written[0], unmarked(written[-1]) != written[-1]
