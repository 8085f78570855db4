"""Words whose case is their meaning: a name in mixed case ("GaN", "AdS", "LoRa", "MaNGA") is a
term of its own beside its letters in small letters, a column only where a reader wrote it, and
the reader's word in another case ("gan", "GAN", "ads") weighs a quarter of it."""

from __future__ import annotations

import re
from collections.abc import Collection

from digest.ranking.units import unit_case

# Lower-cased, a GaN (gallium nitride) reader had got GAN papers and an AdS (anti-de Sitter)
# reader advertising and autonomous-driving "ADS" papers first, "why: gan", "why: ads" (rank23
# F2). The analyzer keeps each word written with a small letter before a capital as written, at
# the end of its text (in no phrase), besides its small letters in place: a space without a
# reader's such word (features.fit keeps it as a column only then) is what it was.
# A plural's "s" after a capital is no part of the name: "LoRAs", "ViTs", "pLMs".
_PLURAL = re.compile(r"(?<=[A-Z])s\Z")
# What the reader's word in another case weighs beside the word as written: a paper that writes
# "GAN" is not the GaN paper the reader asked for, one that writes "LIDAR" for "LiDAR" may be.
OTHER_CASE = 0.25


def cased_words(text: str) -> list[str]:
    """The text's words in mixed case, as terms (a unit's own spelling, "GHz", "meV", and an
    ion's, "HeII", "MgII", are no names: units.py and symbols.ions read those). From each small
    letter before a capital out to the word's ends: a pattern over the whole text had cost a
    large fit a fifth more."""
    found, end, size = [], 0, len(text)
    for hint in _HINT.finditer(text):
        if hint.start() < end:
            continue  # the same word: "LoRaWAN"
        start, end = hint.start(), hint.end()
        while start and text[start - 1].isalpha():
            start -= 1
        while end < size and text[end].isalpha():
            end += 1
        if end < size and (text[end].isdigit() or text[end] == "_"):
            continue  # "MoS2", "GaN_x": another word in place
        word = _PLURAL.sub("", text[start:end])
        if not unit_case(word) and not _ION.fullmatch(word):
            found.append(word)
    return found


_HINT = re.compile("[a-z][A-Z]")
_ION = re.compile("[A-Z][a-z]?[IVX]+")


def twin(word: str, tokens: Collection[str]) -> bool:
    """Is the word's small-letter spelling (or its plural) one of the text's tokens?"""
    low = word.lower()
    return low in tokens or low + "s" in tokens


def is_cased(term: str) -> bool:
    """Is the term a word kept in its mixed case (cased_words)?"""
    return (
        not term.islower() and not term.isupper() and " " not in term and bool(_HINT.search(term))
    )


def alone(text: str, word: str) -> bool:
    """Does the text write the word only in its mixed case ("GaN", "GaN"s), never "GAN"?"""
    every = re.findall(rf"(?<![^\W\d_]){re.escape(word)}s?(?![^\W\d_])", text, re.IGNORECASE)
    return all(_PLURAL.sub("", w) == word for w in every)
