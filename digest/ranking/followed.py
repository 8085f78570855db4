"""Followed authors: whether a paper's author is a name the reader follows, middle initials the
paper adds aside ("Mary Ma" follows "Mary A. MA", "J. Doe" follows "J. R. Doe", "JA Doe"), a CV's
spellings read ("Smith JA" is J. A. Smith, "Moeller" is Möller)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from digest.ranking.tokens import author_key

# A followed name had matched its exact key alone: "Mary Ma" never met a paper's "Mary A. MA",
# "Maria Garcia Lopez" never "Maria J. Garcia Lopez" (reg42 F10). A followed name now matches a
# paper's author of its surname (the key's last word) whose given names say what the followed
# one says: each followed given part, in order, is one of the paper's (the first names each
# other's), and the paper's parts left over are single-letter middle initials. An initial is no
# given name: a followed "Y. Li" that met every Yi, Yang and Yu Li had alerted on 509 papers of
# a 20,000 pool, not 5 (rank25 F3); nor is "Mary Ann Ma" a followed "Mary Ma", nor a paper's
# "J. Doe" a followed "Jane Doe". Library authors (paper to paper) stay exact keys.
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})  # "Cesar Jr.": the surname is "cesar jr"

# Initials run together, as PubMed and some lab pages write them ("JA Doe", "Jane AB Doe",
# "Doe, JA"), had been one given name "ja" that no "J. A. Doe" met (rank25 L3). A given part of
# two or three capitals, in a name not all in capitals (whose "MA" may be a surname, its
# "LI" a given name), is read both ways: as written, and as its initials.
_RUN = re.compile(r"\b[A-Z]{2,3}\b")
_NOT_RUN = frozenset({"II", "III", "IV"})


def spelled(name: str, first: bool = True) -> str:
    """`name` with its given parts of run-together initials spelled apart ("JA Doe" is "J A
    Doe", "Doe, JA" is "Doe, J A"); the surname and numerals as written. first=False: a paper's
    name, whose first word in capitals may be its surname ("XU Han", "LI Miao": a followed
    "X. Han" had been told it was his, reg48 F1); a followed one is what its reader wrote."""
    if name.upper() == name or not _RUN.search(name):
        return name
    surname, comma, given = name.partition(",")
    if not comma:
        words = name.split()
        while len(words) > 1 and words[-1].rstrip(".").lower() in _SUFFIXES:
            words.pop()
        given = " ".join(words[:-1])
        surname = name[len(given) :]
        if not first:
            head, _, given = given.partition(" ")
            return " ".join(w for w in (head, _apart(given)) if w) + surname
        return _apart(given) + surname
    return surname + comma + _apart(given)


def _apart(given: str) -> str:
    return _RUN.sub(lambda m: m[0] if m[0] in _NOT_RUN else " ".join(m[0]), given)


def parts(key: str) -> tuple[str, tuple[str, ...]]:
    """(surname, given parts) of a name's key (tokens.author_key): "mary a ma" is ("ma", ("mary",
    "a")); a name of one word is all surname."""
    words = key.split()
    cut = len(words) - 1
    if cut > 1 and words[cut] in _SUFFIXES:
        cut -= 1
    return " ".join(words[cut:]), tuple(words[:cut])


def agrees(followed: Sequence[str], written: Sequence[str]) -> bool:
    """Do a followed name's given parts say what a paper's say? The first names meet (a paper's
    "A. J. Doe" is no followed "J. Doe": what is added are middle initials), then each followed
    part meets one of the paper's in order, and the paper's others are single letters."""
    if not followed or not written:
        return False
    return followed[0] == written[0] and _rest(followed[1:], written[1:])


def _rest(followed: Sequence[str], written: Sequence[str]) -> bool:
    """The parts after the first names. A small search, not the first fit: the "Garcia" of a
    followed "Maria Garcia Lopez" is the paper's after the middle "J." of "Maria J. Garcia
    Lopez"."""
    if not followed:
        return all(len(w) == 1 for w in written)
    if not written:
        return False
    if followed[0] == written[0] and _rest(followed[1:], written[1:]):
        return True
    return len(written[0]) == 1 and _rest(followed, written[1:])


# A followed name written "Surname Initials", as PubMed, Vancouver-style CVs and lab pages list
# co-authors ("Smith JA", "Jiménez-Serra I", "van der Berg JH"), had been read with the surname
# "JA" and "I", and followed nobody, silently (rank27 F2). Its last words of one to three capitals
# (no dots, no comma; not a numeral) are also read as its initials, as "Smith, JA" is. It is read
# as written too: its capitals may be a surname ("Wei XU", "Zihan YU": "X U Wei" is nobody's).
# Read both ways, "Wei XU" also follows a paper's "X. U. Wei": no corpus name is printed so, and
# a Pinyin check ("Wei" and "XU" syllables: a surname) cost PubMed's "Ali MA", "Amin MA" (reg51 F5).
def _initials(word: str) -> bool:
    """Is the word one to three capitals ("JA", "Á"), no numeral ("II", "III", "IV")?"""
    return len(word) <= 3 and word.isalpha() and word.isupper() and word not in _NOT_RUN


def vancouver(name: str) -> str | None:
    """A followed name "Surname Initials [Jr]" as "Surname [Jr], Initials" ("Smith JA" is "Smith,
    JA"), or None if it is not written so (a comma, a dot, all capitals, no initials last)."""
    if "," in name or "." in name or name.upper() == name:
        return None
    words = name.split()
    suffixes: list[str] = []
    while len(words) > 2 and words[-1].lower() in _SUFFIXES and not _initials(words[-1]):
        suffixes.insert(0, words.pop())  # "Cesar RM Jr", "Webster RJ III"; "Doe JR" is initials
    cut = len(words)
    while cut > 1 and _initials(words[cut - 1]):
        cut -= 1  # "Devaprabha A R": initials spaced
    if cut == len(words) or words[cut - 1].upper() == words[cut - 1]:
        return None  # a word in capitals before them: "Jane SMITH JA" tells no surname
    return " ".join(words[:cut] + suffixes) + ", " + " ".join(words[cut:])


# A name in German transliteration ("Moeller", "Joerg Mueller", "Baer") had not met "Möller",
# "Jörg Müller", "Bär" (author_key takes the umlaut off: "moller"), nor the reverse (rank27 L2).
# A name with ä, ö or ü is also spelled with ae, oe, ue, word by word (a reader may write "Jorg
# Mueller"): never the other way, so "Joel", "Noel", "Raoul", "Poe", "Samuel" stay as written.
_UMLAUT_WORD = re.compile(r"(\w*[äöüÄÖÜ]\w*)")
_SPELLED_OUT = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
# A paper's "Jöl" had been spelled "Joel", and a followed "Joel" followed it (reg51 F6): the
# "-ael", "-oel" of a name's end are two syllables (Michael, Rafael, Joel, Goel, Noel, Israel:
# 1,079 of the corpus's 154,156 names), no "ä", "ö": no name of the corpus ends "-äl",
# "-öl". Its "-gül" names are Turkish (Gül, Betül, Aysegül), written "-guel" too ("Ayseguel").
_SPELLABLE = re.compile(r"[üÜ]|[äöÄÖ](?![lL]\b)")


def _spell_out(word: str) -> str:
    return _SPELLABLE.sub(lambda m: _SPELLED_OUT[m[0]], word)


def umlauts(name: str) -> list[str]:
    """The name's other spellings, its words with ä, ö, ü spelled ae, oe, ue ("Jörg Müller": "Joerg
    Müller", "Jörg Mueller", "Joerg Mueller"), all at once past three such words; [] if none."""
    if name.isascii():
        return []
    pieces = _UMLAUT_WORD.split(unicodedata.normalize("NFC", name))  # odd ones: the words
    words = sorted({w for w in pieces[1::2] if _spell_out(w) != w})
    masks = range(1, 2 ** len(words)) if len(words) <= 3 else [2 ** len(words) - 1]
    out = []
    for mask in masks:
        chosen = {w for i, w in enumerate(words) if mask >> i & 1}
        out.append("".join(_spell_out(p) if p in chosen else p for p in pieces))
    return out


def _keys(name: str) -> dict[str, bool]:
    """A followed name's keys: as written, with its run-together initials spelled apart, read as
    "Surname Initials", and with its umlauts spelled out; each: does it follow only a paper's name
    that starts in capitals?"""
    forms = {name, spelled(name)}
    capitals: set[str] = set()
    if (read := vancouver(name)) is not None:
        # Its initials together ("Merritt JD" as "jd merritt") meet a paper's "JD Merritt" only:
        # "Dong LI" had followed "Li Dong", a given name Li; its "LI Dong" is Dong Li's.
        forms.add(spelled(read))
        capitals = {read} - forms
    keys: dict[str, bool] = {}
    for form in sorted(forms | capitals, key=lambda f: f in forms):  # as written last: it wins
        keys.update((author_key(f), form in capitals) for f in (form, *umlauts(form)))
    return keys


class Followed:
    """Followed names (of one reader or several), by surname and first name, as the first names
    meet: which of them (their author_key) a paper's author is. Remembers each paper name's
    answer, as a pool's names repeat."""

    def __init__(self, names: Iterable[str]) -> None:
        names = list(names)
        self.keys = sorted({author_key(n) for n in names})
        # (surname, first given part) -> (the followed key, the variant's given parts, variant,
        # whether it meets only a paper name that starts in capitals)
        self._index: dict[tuple[str, str], set[tuple[str, tuple[str, ...], str, bool]]] = {}
        self._last: set[str] = set()  # the variants' last words: most names' are none of these
        for name in names:
            for variant, capitals in _keys(name).items():
                surname, given = parts(variant)
                entry = (author_key(name), given, variant, capitals)
                self._index.setdefault((surname, given[0] if given else ""), set()).add(entry)
                self._last.add(variant[variant.rfind(" ") + 1 :])
        self._seen: dict[str, tuple[str, ...]] = {}

    def __bool__(self) -> bool:
        return bool(self.keys)

    def of(self, name: str, key: str | None = None) -> tuple[str, ...]:
        """The followed keys (in order) that a paper's author `name` is; `key`: its author_key,
        if known (a pool of 50,000 papers holds some 200,000 names: each key made once)."""
        found = self._seen.get(name)
        if found is None:
            key = author_key(name) if key is None else key
            written = {key, *map(author_key, umlauts(name))}
            if all(w[w.rfind(" ") + 1 :] not in self._last for w in written):
                found = self._seen[name] = ()
            else:
                apart = spelled(name, first=False)
                if apart != name:
                    written |= {author_key(f) for f in (apart, *umlauts(apart))}
                capitals = name.upper() != name and _RUN.match(name) is not None
                found = self._seen[name] = tuple(
                    sorted({k for w in written for k in self._match(w, capitals)})
                )
        return found

    def _match(self, key: str, capitals: bool) -> set[str]:
        """The followed keys a paper's name `key` is (`capitals`: written "JD Merritt")."""
        surname, given = parts(key)
        mine = self._index.get((surname, given[0] if given else ""), ())
        # A followed name of one word (a surname alone, a mononym) matches as it did: exactly.
        return {
            k
            for k, g, variant, only in mine
            if (capitals or not only) and (variant == key or g and agrees(g, given))
        }

    def follows(self, name: str) -> bool:
        """Is a paper's author `name` one of these followed names?"""
        return bool(self.of(name))
