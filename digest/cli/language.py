"""Whether a reader's interests text is in another language than the papers (English), told
by positive evidence only: its function words, its script, letters and letter runs English does
not write."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

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
_CLAUSE = re.compile(r"[,;:()\[\]{}/.!?&+=]|\s-\s|\s[–—]\s")
_PLAIN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# A chemical name, by its nomenclature: a parent's or a group's stem, then its class's ending
# ("benzimidazole", "pyrrole", "oxazolidinones", "methylquinolinium"). The background, arXiv's
# words, lacks their letter runs ("yrr", "zol"), and "benzimidazole pyridine pyrrole thiophene"
# had been refused as another language, though English (reg42 F4). Its ending is a class's
# as chemistry writes it: a ketone's "-one" after a consonant ("acetone", "hydroquinone") or as
# "-dione", "-trione", "-thione". Any "-one" had been one, so Italian's "-zione" words
# ("propagazione", "carbonatazione", "germinazione") had passed as chemical names, and an Italian
# keyword list as English (reg43 F8); nor is a word chemical whose runs no chemical name writes
# (`_FOREIGN_RUNS`).
_CHEMICAL = re.compile(
    r"(?:di|tri|tetra|iso|bis|poly|nitro|amino|hydroxy|methyl|ethyl|phenyl)*"
    r"(?:meth|eth|prop|but|pent|hex|benz|phen|naphth|anthr|pyr|quinol|indol|imid|oxa|aza|az|thi"
    r"|fur|fluor|chlor|brom|iod|nitr|sulf|sulph|phosph|hydr|carb|cycl|amin|acet|alk|aryl|vinyl"
    r"|piperid|morphol|porphyr|perylen|sil|bor|selen|tellur|stann|germ|ferr|cupr|nickel|cobalt)"
    r"[a-z]*(?:ole|ine|ene|ane|yne|(?<![aeiou])one|(?<=di|ri|hi)one|ide|ate|ite|ium|yl|ol|al)s?"
)
# Letter runs of another language's words that no chemical name writes: Italian's "-zion-" and
# doubled "zz" ("carbonizzate", "fluorurazione").
_FOREIGN_RUNS = re.compile(r"zio|zz")
# How strong the evidence of another language is: a refusal needs STRONG, a warning WEAK.
WEAK, STRONG = 1, 2


def other(text: str, known: int) -> int:
    """How strongly a text (read already) is in another language than the papers: STRONG for
    that language's function words, another script than theirs, or, without a stop word of
    English's own, LANGUAGE_LEAST of its plain words or more that English does not spell
    (`_unenglish`), more than its words the background knows (`known`); WEAK for one function
    word of another language joining words the background does not know (`_joined`); else 0.
    Its words unknown to the background had been evidence alone, and they are none: a
    theorist's "swampland heterotic compactifications orbifolds" had been refused as another
    language (reg40 F1). Then a short German or Italian text, spelt with English's letter runs
    and one function word ("Tiefes Lernen für Bilderkennung", "apprendimento automatico e reti
    neurali"), had passed silently and scored 0 for ever (reg42 F1): that one word is evidence
    enough to warn of, not to refuse on."""
    tokens = re.findall(r"[^\W\d_]+", fold(text).lower())
    if foreign_stops(tokens, text) or script(text) < 1 / 2:
        return STRONG
    if _english_only().intersection(tokens):
        return 0
    unenglish = _unenglish(text)
    if len(unenglish) >= LANGUAGE_LEAST and len(unenglish) > known:
        return STRONG
    return WEAK if _joined(text) else 0


def _joined(text: str) -> set[str]:
    """The text's function words of another language, in small letters, that join two words
    (no comma or stop between) of which one at least is a word the background does not know:
    "für" in "Tiefes Lernen für Bilderkennung", "e" in "automatico e reti", "la" in "per la
    visione". A name's particle ("de Sitter", "van der Waals") or "et al." joins no such pair."""
    found = set()
    for clause in _CLAUSE.split(text):
        words = [w.strip("\"'“”‘’") for w in clause.split()]
        for i, word in enumerate(words):
            if not word.islower() or fold(word) not in _joining():
                continue
            before = _neighbour(reversed(words[:i]))
            after = _neighbour(words[i + 1 :])
            if before and after and (_strange(before) or _strange(after)):
                found.add(word)
    return found


def _neighbour(words: Iterable[str]) -> str:
    """The first word that is no function word, English's or another language's ("" if none)."""
    for word in words:
        folded = fold(word).lower()
        if folded not in _skipped():
            return word
    return ""


def _strange(word: str) -> bool:
    """Whether a word of letters (a German noun capitalised or not) is none the background
    knows, nor its parts: no acronym, symbol or formula."""
    if not _PLAIN.fullmatch(word) or word.isupper() or script(word) < 1:
        return False
    folded = fold(word).lower()
    return folded not in vocabulary() and not all(p in vocabulary() for p in folded.split("-"))


@functools.cache
def _skipped() -> frozenset[str]:
    return _joining() | ENGLISH_STOP_WORDS | ENGLISH_TOO


@functools.cache
def _joining() -> frozenset[str]:
    """Other languages' function words that English does not write as its own stop words ("in",
    "per", "de" it does), nor as a symbol: no lone letter ("the $\\mathbf k$ band", "Sgr A*")
    but Italian's, Portuguese's and Spanish's "and" ("e", "y")."""
    words = frozenset(w for w in frozenset().union(*FUNCTION_WORDS.values()) if len(w) > 1)
    return (words | {"e", "y"}) - ENGLISH_STOP_WORDS


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
    """Whether a word (small letters) has a letter English does not write, or a run of three
    letters no word of the background has, and is no chemical name (`_CHEMICAL`)."""
    if not word.isascii():
        return True
    if _CHEMICAL.fullmatch(word) and not _FOREIGN_RUNS.search(word):
        return False
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
