"""Degrees after a name ("Jane Doe MD") told from a surname that a degree's letters spell ("Minh N.
DO", "Mingyu Derek MA"): what a name is without its degrees, and what a whole list says of them
(whether it writes degrees, or surnames in capitals)."""

from __future__ import annotations

import re

from digest.sources.name_marks import unmarked, untitled
from digest.sources.name_words import (
    DEGREE,
    DEGREE_OR_INITIALS,
    SURNAME_OR_DEGREE,
    SURNAME_OR_DEGREE_IN,
    all_dotted,
    capitals_alone,
    capitals_written,
    given_and_middle,
    is_initials,
)

# The pieces of a whole list, each one name or one degree: commas, semicolons, "and", "&", lines.
_PIECES = re.compile(r"[,;&\n]|\band\b", re.IGNORECASE)
_WORD_END = re.compile(r"[\W\d_]+$")


def list_context(text: str) -> tuple[bool, int]:
    """What a whole list says of its names' last words: whether it writes surnames in capitals
    ("Abhi KAMBOJ"), and how many of its names carry a degree ("Jane Doe MD")."""
    if _surnames_spelt(text):
        return True, 0
    capitals = capitals_written(text) or capitals_alone(text)
    return capitals, degrees_written(text, capitals)


def _surnames_spelt(text: str) -> bool:
    """Whether a list of two names or more ends each in a word of capitals, those a degree may
    be all letters a surname has ("Ngoc Tuyen DO, Tri Nhu DO", "Mingyu Derek MA, Wei LI"): it
    writes surnames so, no degrees (each DO, counted a degree, had confirmed the other's, and
    both surnames went). Not beside another degree ("Jane Doe DO, John Smith MD")."""
    if not SURNAME_OR_DEGREE_IN.search(text):
        return False  # nearly every list
    pieces = (untitled(p.strip()) for p in _PIECES.split(text))
    names = [unmarked(p).split() for p in pieces if any(c.isalpha() for c in p)]
    if len(names) < 2 or any(len(words) < 2 for words in names):
        return False  # "Doe, Jane": no name's last word alone
    ends = [words[-1] for words in names]
    if not all(len(e) > 1 and e.isalpha() and e.isupper() for e in ends):
        return False
    degrees = [e for e in ends if DEGREE.match(e) or DEGREE_OR_INITIALS.match(e)]
    if len(degrees) == len(names) and all(map(_degree_after_whole_name, names)):
        return False
    return bool(degrees) and all(SURNAME_OR_DEGREE.match(e) for e in degrees)


def _degree_after_whole_name(words: list[str]) -> bool:
    """Whether a name of a list whose every name ends in a degree's letters ends in a degree
    after a whole name in mixed case: "MA" or "BA" after two words in full ("Jane Doe MA, John
    Smith MA" had kept MA as both surnames). Not "DO": of the corpus's 64 names ending in "Do"
    21 have two given names before it ("Ngoc Tuyen Do"), of its 1,609 ending in "Ma" 20."""
    before = words[:-1]
    return (
        words[-1] in ("MA", "BA")
        and len(before) > 1
        and not any(map(is_initials, before))
        and all(w[:1].isupper() and not w.isupper() for w in before)
    )


def ends_in_degree_letters(name: str) -> bool:
    """Whether a name's last word may be a degree's letters ("Shin Won DO", "Jane Doe MD1")."""
    last = name.rsplit(None, 1)[-1] if name.strip() else ""
    if last[1:2].islower():
        return False  # "Smith": nearly every name
    return bool(DEGREE_OR_INITIALS.match(_WORD_END.sub("", last)))


def bare(name: str, vancouver: bool = False, capitals: bool = False, degrees: int = 0) -> str:
    """A name without the title before it or the marks and degrees after it: "Dr. Jane Doe1" and
    "Jane Doe PhD" are Jane Doe ("Jane Doe PhD, John Smith MD" had been read as one "Last,
    First" name, "John Smith MD Jane Doe PhD"). A degree that may be initials ("MD") goes after
    initials ("Doe JA MD"), after another degree, or in a list that is no `vancouver` one (in
    "García Márquez MD, Smith J" it is his initials). It is the surname where the words before it
    have none ("Minh N. DO", "J. A. MA"; "Mingyu Derek MA" in a list of `capitals` surnames, and
    "MINGYU DEREK MA" in one of capitals alone): "Jane Doe, Ana B. DO" had lost its DO and become
    one reversed name, "Ana B. Jane Doe". Not where the list's other names carry `degrees` ("Jane
    DOE MD, Rakshitha R. T. MD"), unless a degree follows it ("Minh N. DO PhD")."""
    words = unmarked(untitled(name)).split()
    if not words:
        return name
    elsewhere = degrees > 0 and degrees - degree_after_name(words, capitals) > 0
    degree = False
    while len(words) > 2 and words[-1]:
        last = words[-1]
        if not DEGREE.match(last) and not (
            DEGREE_OR_INITIALS.match(last)
            and (degree or not vancouver or is_initials(words[-2]))
            and not (
                lacks_surname(words[:-1], capitals and _spells_surname(last))
                and (degree or not elsewhere)
            )
        ):
            break
        words.pop()
        degree = True
    return unmarked(" ".join(words)) if degree else " ".join(words)


def _spells_surname(word: str) -> bool:
    """Whether a degree's letters are a surname's too ("MA", "DO"), so that a list of capitals
    may write a surname so: "MD" is none ("C. HANHART MD" beside "J. DOE" had kept it, the list
    of capitals alone reading "C. HANHART" as given names with no surname yet)."""
    return bool(SURNAME_OR_DEGREE.match(_WORD_END.sub("", word)))


def degrees_written(text: str, capitals: bool = False) -> int:
    """How many names of a list carry a degree after them ("Jane Doe MD", "John SMITH PhD")."""
    count = 0
    for piece in _PIECES.split(text):
        words = untitled(piece.strip()).split()
        if words and not words[-1][-1].isalpha() and words[-1][-1] != ".":
            words = unmarked(" ".join(words)).split()  # a list's every name: marks alone cost
        count += degree_after_name(words, capitals)
    return count


def degree_after_name(words: list[str], capitals: bool = False) -> bool:
    """Whether a name's last word is a degree after a whole name: "John Smith PhD", "Jane Doe MD",
    "Doe JA MD", or in a list of `capitals` surnames one after a surname in capitals ("Jane DOE
    MD"), not after given names alone ("Minh N. DO", "Mingyu Derek MA" there)."""
    if len(words) < 2:
        return False
    if DEGREE.match(words[-1]):
        return True
    before = words[:-1]
    if not DEGREE_OR_INITIALS.match(words[-1]) or len(before) < 2:
        return False
    cased = capitals and not _caseless(before)
    if lacks_surname(before, cased) or ("." in before[-1] and is_initials(before[-1])):
        return False
    return not cased or _in_capitals(before[-1])


def lacks_surname(words: list[str], capitals: bool = False) -> bool:
    """Whether words are a name with no surname yet, so that a word of capitals after them is the
    surname: dotted initials alone ("J. A."), a given name and dotted middle initials ("Minh N."),
    or, in a list of `capitals` surnames, given names with no word in capitals ("Mingyu Derek"),
    or any two words when the list has no small letters at all ("MINGYU DEREK")."""
    if all_dotted(words) or given_and_middle(words):
        return True
    if capitals and _caseless(words):
        return len(words) > 1
    return capitals and not is_initials(words[0]) and not any(map(_in_capitals, words))


def _caseless(words: list[str]) -> bool:
    """Whether words have no small letter ("MINGYU DEREK"): case says nothing of them."""
    return not any(c.islower() for w in words for c in w)


def _in_capitals(word: str) -> bool:
    """A word of two capitals or more with no small letter ("DOE", "TAL-OR"), no initial."""
    return len(word) > 1 and word.isupper() and word.replace("-", "").isalpha()
