"""Whether a reader's interests text is in another language than the papers (English), told
by positive evidence only: its function words, its script, letters and letter runs English does
not write."""

from __future__ import annotations

import functools
import re

from digest.ranking.stopwords import (
    ENGLISH_STOP_WORDS,
    ENGLISH_TOO,
    FUNCTION_WORDS,
    LANGUAGE_LEAST,
    foreign_stops,
)
from digest.ranking.tokens import fold

# A capitalised word this long is a compound noun (German's), not a name.
COMPOUND = 13
_WORD = re.compile(r"[^\s,;:()\[\]{}\"“”'‘’/]+")


def other(text: str, known: int) -> bool:
    """Whether a text (read already) is in another language than the papers: that language's
    function words, or another script than theirs; or, without a stop word of English's own,
    LANGUAGE_LEAST of its plain words or more that English does not spell (`_unenglish`), more
    than its words the background knows (`known`). Its words unknown to the background had been
    evidence too, and they are none: a theorist's "swampland heterotic compactifications
    orbifolds" or "quasinormal modes, ringdown, overtones, echoes" had been refused as another
    language (reg40 F1), as 67 of the 45k corpus's titles made keyword lists were."""
    tokens = re.findall(r"[^\W\d_]+", fold(text).lower())
    if foreign_stops(tokens, text) or script(text) < 1 / 2:
        return True
    if _english_only().intersection(tokens):
        return False
    unenglish = _unenglish(text)
    return len(unenglish) >= LANGUAGE_LEAST and len(unenglish) > known


def _unenglish(text: str) -> set[str]:
    """The text's ordinary words (`_ordinary`: no names, acronyms or formulas) that English does
    not spell: with a letter it does not write ("języka", "görüntü", "réseaux"), or a run of
    three letters no word of the background has ("uczenie", "obrazov"); and other languages'
    function words, in small letters ("untuk", "dan", "ze")."""
    found = set()
    for match in _WORD.finditer(text):
        word = match[0].strip(".!?")
        before = text[: match.start()].rstrip()
        if word.islower() and fold(word) in _others():
            found.add(word)
        elif _ordinary(word, not before or before[-1] in ".!?") and _misspelt(word.lower()):
            found.add(word.lower())
    return found


def _misspelt(word: str) -> bool:
    if not word.isascii():
        return True
    letters = f"^{word}$"
    return any(letters[i : i + 3] not in _runs() for i in range(len(letters) - 2))


@functools.cache
def _runs() -> frozenset[str]:
    """The runs of three letters the background's words write, "^" and "$" at their ends."""
    runs: set[str] = set()
    for term in vocabulary():
        for word in re.findall(r"[a-z]+", term):
            word = f"^{word}$"
            runs.update(word[i : i + 3] for i in range(len(word) - 2))
    return frozenset(runs)


@functools.cache
def _others() -> frozenset[str]:
    """Other languages' function words that the papers never write: not English's stop words
    ("de" of "de Sitter" either), nor a word of the background ("et al.", "non-", "par", "die"),
    nor a lone letter (a symbol, a possessive's "s")."""
    words = frozenset().union(*FUNCTION_WORDS.values()) - ENGLISH_STOP_WORDS - ENGLISH_TOO
    return frozenset(w for w in words if len(w) > 1) - vocabulary()


@functools.cache
def _english_only() -> frozenset[str]:
    """English's stop words that are no other language's function word ("the", not "de"), nor
    a word of one or two letters that other languages write ("a", "no", "me")."""
    english = {w for w in ENGLISH_STOP_WORDS if len(w) > 2}
    return frozenset(english.difference(*FUNCTION_WORDS.values()))


def _ordinary(word: str, opens: bool) -> bool:
    """Whether a word as written is an ordinary word, not a name, an acronym, a symbol or a
    formula: Latin letters alone, small ones but for the first where it opens a sentence, or
    where it is a long compound (German writes its nouns capitalised: "Verstärkungslernen")."""
    if not word.isalpha() or script(word) < 1 or not word[1:].islower():
        return False
    return word[0].islower() or opens or len(word) >= COMPOUND


def script(text: str) -> float:
    """The share of a text's letters in the papers' script, Latin (with its accents and Vietnamese
    letters): Chinese, Japanese or Russian has no function word `foreign_stops` knows."""
    letters = [c for c in text if c.isalpha()]
    latin = sum(ord(c) < 0x250 or 0x1E00 <= ord(c) < 0x1F00 for c in letters)
    return latin / len(letters) if letters else 1.0


@functools.cache
def vocabulary() -> frozenset[str]:
    """The built-in background's terms (none without one)."""
    from digest.ranking import background

    return frozenset(background.terms() or ())
