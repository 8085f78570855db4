"""Words whose case is their meaning: a name in mixed case that corpus papers use apart from its
letters in another case ("GaN", "SiC", "MaNGA", "PaLM") is a term of its own beside its small
letters, a column only where a reader wrote it, and a paper's "GAN", "palm" weighs a quarter."""

from __future__ import annotations

import re
from collections.abc import Collection

from digest.ranking.units import unit_case

# Lower-cased, a GaN (gallium nitride) keyword had got GAN papers, "why: gan" (rank23 F2). The
# analyzer keeps such a word as written, at the end of its text (in no phrase), besides its small
# letters in place: a space without a reader's such word (features.fit keeps it as a column only
# then) is what it was. AdS (anti-de Sitter) and LoRa (the radio) are too rare in those months to
# be told apart, and stay their small letters.
# A plural's "s" after a capital is no part of the name: "LoRAs", "ViTs", "pLMs".
_PLURAL = re.compile(r"(?<=[A-Z])s\Z")
# The words whose case is their meaning, as corpus papers use them: those that write the spelling
# and those that write its letters in another case are of other arXiv categories (bench/cases.py
# prints it from the built-in background's months). Not every mixed-case name: LLaMA and Llama,
# AutoEncoder and autoencoder, DeepFake, kNN are one thing however written, and a reader's "LLaMA"
# kept apart had lost the papers that write "Llama" (on-topic picks a day 8.85 -> 3.60, rank25 F4).
# From papers before 2025-07 (spelling: its papers, those of its other cases, their categories'
# cosine): GaN 30, 141, 0.02; GaP 4, 1972, 0.09; MoS 16, 26, 0.06; SiC 8, 3, 0.00; pH 4, 20, 0.12;
# PaLM 4, 10, 0.18; STaR 5, 666, 0.03; SoC 4, 23, 0.06; MaNGA 10, 5, 0.00; pLM 6, 50, 0.12; ...
SPLIT = frozenset(
    ("DisPerSE", "GaN", "GaP", "LiF", "MaNGA", "MoS", "PaLM", "STaR", "SiC", "SnS", "SoC", "VeRA")
    + ("cDFT", "pH", "pLM")
)
# What the reader's word in another case weighs beside the word as written: a paper that writes
# "GAN" is not the GaN paper the reader asked for, but may still be one of its words' (the
# reader's "pH" and a paper's "PH", which some write for it).
OTHER_CASE = 0.25


def cased_words(text: str) -> list[str]:
    """The text's words of SPLIT, as written. From each small letter before a capital out to the
    word's ends: a pattern over the whole text had cost a large fit a fifth more."""
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
        if (word := name_of(text[start:end])) in SPLIT:
            found.append(word)
    return found


def name_of(word: str) -> str:
    """The word without a plural's "s" after a capital ("LoRAs", "ViTs", "pLMs")."""
    return _PLURAL.sub("", word)


def spelled(word: str) -> bool:
    """Is the word in mixed case, a name its case may tell apart (not a unit's own spelling,
    "GHz", "meV", nor an ion's, "HeII": units.py and symbols.ions read those)?"""
    return bool(_HINT.search(word)) and not unit_case(word) and not _ION.fullmatch(word)


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
