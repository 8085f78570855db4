"""The analyzer: a text's words and phrase bigrams (stop words and punctuation end a phrase),
the word ids of many texts at once for a fit (ranking/parallel.py shares a large one), and
author keys."""

from __future__ import annotations

import array
import re
import unicodedata
from collections.abc import Sequence

import numpy as np

from digest.ranking.cases import cased_words, twin
from digest.ranking.stopwords import (  # noqa: F401 (the analyzer's names for them)
    DOMAIN_STOP_WORDS,
    ENGLISH_STOP_WORDS,
    FUNCTION_WORDS,
    PHRASE_ONLY,
    both_phrase_only,
    foreign_stops,
)
from digest.ranking.stopwords import STOP_WORDS as STOP_WORDS  # parallel.py sends them
from digest.ranking.symbols import (
    EQUALS,
    JOIN,
    NOT_WORDS,
    groups,
    infinities,
    ions,
    languages,
    latex_letters,
    quantities,
    series,
    slashed,
    states,
    supersymmetries,
)
from digest.ranking.symbols import GREEK as GREEK  # the analyzer's letters, for its users
from digest.ranking.symbols import LETTER_NAMES as LETTER_NAMES
from digest.ranking.symbols import SYMBOL_VERSION as SYMBOL_VERSION
from digest.ranking.units import CAPITALS, capitals, unit_capitals

# Typographic hyphens and apostrophes, as feeds write them: "fine‐tuning", "Alzheimer’s".
ASCII_MARKS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2019": "'", "\u02bc": "'"})


def rule_words(rule: str) -> list[str]:
    """The words of an exclude word or alert keyword as a rule reads them: accents folded,
    typographic marks as ASCII, hyphens, en dashes and `--` as spaces ("Navier–Stokes" is the
    two words, whichever way a paper joins them)."""
    joined = fold(rule).translate(ASCII_MARKS).replace("\u2013", " ").replace("--", " ")
    return joined.replace("-", " ").split()


def no_rule(phrase: Sequence[str]) -> bool:
    """Is an exclude word or alert keyword (its words) no rule at all: none, or English stop
    words alone ("the", "a"), which every paper holds: excluding it emptied a digest, alerting on
    it held every paper for the next digest, beyond its top_k."""
    return all(w.lower() in ENGLISH_STOP_WORDS for w in phrase)


# Whether phrase bigrams are features (a switch for bench/variants.py, which measures them).
BIGRAMS = True


class _Table(dict[int, int | str]):
    """str.translate table: word characters (and a script's marks), hyphens and spaces stay
    (other white space becomes a space), "+" and "#" too, for languages() to judge; any other
    character ends a phrase and becomes "|". An emoji's variation selector goes: a mark (Mn)
    that chooses a glyph, it had been the first letter of the next word ("🗺️SLAM" was
    "\ufe0fslam"); an enclosing mark, the keycap's U+20E3, is no letter either ("1️⃣SLAM")."""

    def __missing__(self, code: int) -> int | str:
        c, selector = chr(code), 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
        word = c.isalnum() or c in "_-+#" or unicodedata.category(c) in ("Mn", "Mc")  # vowel signs
        kept: int | str = "" if selector else code if word else " " if c.isspace() else "|"
        self[code] = kept
        return kept


_TABLE = _Table({ord(JOIN): ord(JOIN), ord(CAPITALS): ord(CAPITALS)})
# A hyphen splits a word, but not before a digit ("gpt-4"), after a lone letter ("k-means",
# "t-sne", "x-ray", "α-helix": split, the letter would go and "means" match "by means of"), after
# a whole number ("21-cm" had been "cm"; "3-body" was whole already), nor before a lone letter
# that ends the word, Latin or Greek ("high-z", "Lyman-α", "TNF-α", "RGB-D" had been "high",
# "lyman", "tnf", "rgb"; "LLM-as-a-judge" still splits), unless it is a numeral's ("Type-I",
# "SDSS-V" read as "Type-II", "SDSS-IV": "type", "sdss"), nor before an assay's "seq" ("ChIP-seq",
# "RNA-seq" had been "chip", "rna": chip-design papers, "why: chip"; "seq-to-seq" splits). Numbers
# alone on both sides are a range, no word, as with an en dash ("10-20", pages "583-589").
_SPLIT_HYPHEN = re.compile(
    r"-(?<=\w\w-)(?<!(?<![\w-])\d\d-)(?<!(?<![\w-])\d{3}-)(?<!(?<![\w-])\d{4}-)"
    r"(?!\d|[^\W\d_iv](?![\w-])|seq(?!\w)(?<!\bto-seq))"
)
_RANGE, _BEFORE_DIGIT = re.compile(r"\d(?<![\w-]\d)\d*(?:-\d+)+(?![\w-])"), re.compile(r"-\d")
# An en dash or a typographic hyphen between two letters joins a name pair as a hyphen does:
# "Navier–Stokes" is the phrase "navier stokes". LaTeX's "--" too, between two names (capitals:
# "Erdős--Rényi"); between small letters it is prose's dash ("a model--which is large--works").
# Between digits it is a range; "---" and an em dash end a phrase.
_NAME_DASH = re.compile("(?<=[^\\W\\d_])[\u2010\u2011\u2013](?=[^\\W\\d_])")
_NAME_PAIR = re.compile("(?<=[^\\W\\d_])--(?=[^\\W\\d_a-z])")
# LaTeX in an abstract: a command's name (\odot, \mathcal) is no word of the text, and an
# underscore at a word's edge (M_\odot read as "m_") is a subscript's, not the word's.
_LATEX_COMMAND = re.compile(r"\\[a-z]+")
# A group's name and its number is one word (symbols.groups); so are two lone capitals and a
# slash ("A/B testing", "I/O"; "w/o" is an abbreviation). Their parentheses and slash pass the
# punctuation table as noncharacters, which no text holds.
_SLASHED = re.compile(r"/(?<=[A-Z]/)(?<![\w/][A-Z]/)(?=[A-Z](?![\w/+#]))")  # "/" first: fast
# Two names of capitals and a slash add their phrase: "AdS/CFT" had been "ads" and "cft" only,
# whose reader got ADS (autonomous driving) and job ads (rank22 F2); the names stay words, a
# choice's ("PyTorch/TensorFlow", eponyms.py). Two acronyms are a choice: "CPU/GPU" stay apart.
_NAME_SLASH = re.compile(r"(?<![\w/-])([A-Z][A-Za-z]+)/([A-Z][A-Za-z]+)(?![\w/])")


def _name_slash(match: re.Match[str]) -> str:
    return match[0] if match[1].isupper() and match[2].isupper() else f"{match[1]} {match[2]}"


_TABLE.update(_MARKS := {0xFDD0: "(", 0xFDD1: ")", 0xFDD2: "/", ord(EQUALS): "="})
# Written apart, a lone letter before a word is the word's, as hyphenated: "T cell" is "t-cell",
# "X ray" "x-ray", "p value" "p-value" (a "T cell" reader had matched every "cell", and "T-cell"
# never met "T cells"). Not "a", "A", "I" (English words), a unit after a number ("300 K", "6.5 m
# telescope"), a letter after a mark ("H&E images", "model's"), nor before a stop word ("T and
# B cells"). A letter that is a word of another language (e, o, u, y; k, s, v, w, z: "y la",
# Polish "w tym") joins only as a capital inside a sentence, before a small word ("the K band").
_LONE_LETTER = re.compile(r"( [(\[\"“‘]?)([B-HJ-Zbcdfghjlmnpqrtx])\s(?=([^\W\d_]{2,}))")
_ELSEWHERE_WORDS, _UNIT = frozenset("EKOSUVWYZ"), frozenset("0123456789%}")


_EDGE_UNDERSCORE = re.compile(r"(?<!\w)_+|_+(?!\w)")


def _chunks(text: str) -> list[str]:
    """The text's tokens in order, "|" where a phrase ends; stop words are still in. str methods
    rather than one regex per token: this is most of the time a large fit takes."""
    cased = cased_words(text)  # "GaN", "AdS": as written too, at the end (cases.py)
    text = ions(text)  # in capitals: "[O III]", "He II" ("he" is no stop word there)
    if "--" in text:
        text = _NAME_PAIR.sub("-", text)
    if "(" in text:  # these read the text's capitals
        text = groups(text)
    if "/" in text:
        text = slashed(_SLASHED.sub("\ufdd2", _NAME_SLASH.sub(_name_slash, text)))
    if "=" in text:
        text = supersymmetries(text)
    plain = text.isascii()  # the marks unit_capitals adds need no accent taken off
    text = unit_capitals(text)  # "GHZ" an acronym, "GHz" a unit
    text = _LONE_LETTER.sub(_lone_letter, f" {text}")[1:]  # a space: the first too
    if plain:
        text = text.lower()
    else:  # lower-cased after NFKC, which makes capitals of "ℤ₂", "𝐁𝐄𝐑𝐓", "Ｚ"; Σ's σ anywhere
        text = _NAME_DASH.sub("-", CJK_RUN.sub(_cjk_words, _strip_accents(text)))
        text = text.lower().replace("ς", "σ")
        if "∞" in text:
            text = infinities(text)
    if "\\" in text or "$" in text or "_" in text:
        text = latex_letters(text)
        text = _LATEX_COMMAND.sub(" ", text)
    if "(" in text:  # a Greek letter's, or its name's
        text = states(text)
    text = series(quantities(text))
    if "+" in text or "#" in text:  # before punctuation is "|": a dotted version is seen
        text = languages(text)
    text = text.translate(_TABLE)
    if "_" in text:
        text = _EDGE_UNDERSCORE.sub(" ", text)
    if "-" in text:
        # A dash set off by a space, or a run of two or more, ends a phrase like punctuation.
        text = text.replace("--", " | ").replace(" -", " | ").replace("- ", " | ")
        text = text.replace("|-", "| ").removeprefix("-")
        if _BEFORE_DIGIT.search(text):  # first: most texts have no range
            text = _RANGE.sub(lambda m: m[0].replace("-", " "), text)
        compounds = _compounds(text)
        for whole in compounds:  # "a-judge", "to-3d" of "LLM-as-a-judge", "text-to-3D": no words
            text = text.replace(whole, _inner_stops(whole))
        # The hyphens left sit inside a word: "gpt-4" and "llama-2-7b" stay whole, while
        # "privacy-utility" is two words that still make a phrase.
        text = _SPLIT_HYPHEN.sub(" ", text)
        compounds = [whole.replace(CAPITALS, "") for whole in compounds]
        if compounds:  # after the text's own words, in no phrase with them
            text = " | ".join([text, *compounds])
    if JOIN in text:
        text = text.replace(JOIN, "-")
    tokens = text.replace("|", " | ").split()
    if cased:  # a twin of a word in place: "MoS" of "MoS$_2$" ("mos2"), "ChIP" of "ChIP-seq", none
        have = set(tokens)
        tokens += [t for word in cased if twin(word, have) for t in ("|", word)]
    return capitals(tokens) if CAPITALS in text else tokens


# A compound of words joined by stop words is also a word of its own: "out-of-distribution",
# "human-in-the-loop", "difference-in-differences", "in-context", "on-policy" had been
# "distribution", "human loop", "difference", "context", "policy" alone (a radio-galaxy paper
# had led an econometrician's keyword "difference-in-differences", rank21 F5).
def _compounds(text: str) -> list[str]:
    """The text's compounds, found from its hyphens (a pattern over the whole text, or a split
    of it, had cost a fit a third more); words end at a blank or a "|", as the text is now."""
    found, at = [], text.find("-")
    while at >= 0:
        begin = max(text.rfind(" ", 0, at), text.rfind("|", 0, at)) + 1
        ends = [e for e in (text.find(" ", at), text.find("|", at)) if e >= 0]
        end = min(ends) if ends else len(text)
        if compound((word := text[begin:end]).replace(CAPITALS, "")):  # "ML-as-a-service" too
            found.append(word)
        at = text.find("-", end)
    return found


def _inner_stops(whole: str) -> str:
    """The compound with a hyphen after a stop word inside it a space: the splits that keep
    "k-means" and "gpt-4" whole had kept "a-judge", "to-3d", words of no text."""
    parts = whole.split("-")
    joined = [parts[0]]
    for i, part in enumerate(parts[1:], 1):
        joined.append((" " if i > 1 and parts[i - 1] in ENGLISH_STOP_WORDS else "-") + part)
    return "".join(joined)


def compound(word: str) -> bool:
    """Is the word a compound joined by a function word? (A reader's word only: features.fit.)"""
    parts = word.split("-")
    return (
        not ENGLISH_STOP_WORDS.isdisjoint(parts)  # first: most hyphenated words hold none
        and 1 < len(parts) < 6
        and word[0].isalpha()
        and all(p.isalnum() for p in parts)
        and any(
            len(p) > 1 and p in ENGLISH_STOP_WORDS for p in parts
        )  # not "energy-based", "Type-I"
        and any(_words[p] and p not in PHRASE_ONLY for p in parts)
        and word not in STOP_WORDS
    )


def _lone_letter(match: re.Match[str]) -> str:
    """A lone letter and the word after it as one ("T cell" is "T-cell"), or as they were."""
    before, letter, word, text, at = *match.groups(), match.string, match.start()
    unit = before == " " and at and text[at - 1 if text[at - 1] != "$" else at - 2] in _UNIT
    small = letter.islower() or letter in _ELSEWHERE_WORDS  # before small words only: "W Hz"
    if unit or word.lower() in STOP_WORDS or (small and not word[0].islower()):
        return match[0]  # "300 K", "$10^{24}$ W": a number's unit
    last = text[max(0, at - 2) : at + len(before)].rstrip()
    if letter in _ELSEWHERE_WORDS and (not last or last[-1] in ".!?:;"):
        return match[0]  # a sentence's first word: "W pracy", "O modelo"
    return f"{before}{letter}-"


def respelled(text: str) -> str:
    """The text's LaTeX as the analyzer reads it, in its case, for exclude and alert rules:
    "$\\alpha$-synuclein" is "α-synuclein", "$p$-adic" "p-adic", "$\\mathrm{SU}(2)$" "SU(2)",
    "MoS$_2$" "MoS2"."""
    if "\\" not in text and "$" not in text and "_" not in text:
        return text
    return latex_letters(groups(text).translate(_MARKS) if "(" in text else text)


def _strip_accents(text: str) -> str:
    """The text without the accents of Latin and Greek letters ("é" is "e", "ά" is "α"), as
    scikit-learn's strip_accents_unicode does, but other scripts' marks kept: without its breve
    "й" is another letter ("и"), and a kana's voicing mark or a Devanagari vowel sign is part of
    its word (モデル had become モテル). NFKC after: kana and Hangul composed again."""
    if text.isascii():
        return text
    kept: list[str] = []
    base = " "
    for c in unicodedata.normalize("NFKD", text):
        if not unicodedata.combining(c):
            base = c
        elif base < "\u0250" or "\u0370" <= base < "\u0400" or "\u1e00" <= base < "\u2000":
            continue  # a Latin or Greek letter's accent
        kept.append(c)
    return unicodedata.normalize("NFKC", "".join(kept))


def fold(text: str) -> str:
    """The text's letters as the analyzer reads them: Latin and Greek accents off."""
    return _strip_accents(text)


# Chinese and Japanese write no spaces between words, and Korean joins its particles to them:
# a run of these scripts is read as its overlapping two-character words (as Lucene's CJK bigram
# analyzer does), each a phrase of its own; a lone character of such a run is no word.
CJK_RUN = re.compile(
    "[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+"
)


def _cjk_words(match: re.Match[str]) -> str:
    run = match[0]
    return " | " + " | ".join(run[i : i + 2] for i in range(max(1, len(run) - 1))) + " | "


def _is_word(token: str) -> bool:
    if len(token) < 2 or token.isdigit() or token in STOP_WORDS or token in NOT_WORDS:
        return False  # NOT_WORDS: a Roman numeral, a unit alone (symbols.py)
    if token[-1] in "σa" and _SIGMAS.fullmatch(token):
        return False  # a significance, a number: "2σ" had explained a cosmology pick
    return len(token) < 4 or token[-2] != "-" or token[:-2] not in STOP_WORDS  # "best-of-N"


_SIGMAS = re.compile(r"\d+-?(?:σ|sigma)")  # "5-$\sigma$" too: it had been the word "5-σ"


class _Words(dict[str, str | None]):
    """token -> the token if it is a feature word, else None; remembers its answers."""

    def __init__(self) -> None:
        super().__init__()
        self.stop_words = STOP_WORDS

    def __missing__(self, token: str) -> str | None:
        word = token if _is_word(token) else None
        self[token] = word
        return word


_words = _Words()


def analyze(text: str) -> list[str]:
    """Unigrams and bigrams. A bigram never spans punctuation or a stop word, so every bigram is a
    phrase that occurs in the text ("differential privacy", never "unlearning federated")."""
    global _words
    if _words.stop_words is not STOP_WORDS or len(_words) > 1_000_000:
        _words = _Words()  # the stop words were changed, or the memo has grown too large
    chunks = _chunks(text)
    stops = foreign_stops(chunks, text)
    words = [None if c in stops else _words[c] for c in chunks]
    features = [w for w in words if w and w not in PHRASE_ONLY]
    if BIGRAMS:
        pairs = zip(words, words[1:], strict=False)
        features += [f"{a} {b}" for a, b in pairs if a and b and not both_phrase_only(a, b)]
    return features


_NAME_PART = re.compile(r"\w+")


# Letters that are no letter plus an accent, so that NFKD leaves them: "Łukasz" is Lukasz too.
_PLAIN_LETTERS = str.maketrans(
    {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
     "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i"}
)  # fmt: skip
_NAME_SUFFIX = re.compile(r"^(?:jr|sr|ii|iii|iv)\.?$")


_DBLP_NUMBER = re.compile(r"\s+\d{4}\s*$")


def author_key(name: str) -> str:
    """A name's matching key: "Last, First", "Last, Jr., First" and "First Last Jr." give the
    same one, accents and case aside."""
    if not name.isascii():
        name = _strip_accents(name.translate(_PLAIN_LETTERS))
    name = _DBLP_NUMBER.sub("", name).lower()  # DBLP's "Xiaolong Wang 0004" is Xiaolong Wang
    if "," in name:
        last, *rest = (part.strip() for part in name.split(","))
        suffixes = [p for p in rest if _NAME_SUFFIX.match(p)]
        given = [p for p in rest if not _NAME_SUFFIX.match(p)]
        name = " ".join([*given, last, *suffixes])
    return " ".join(_NAME_PART.findall(name))


class _Ids(dict[str, int]):
    """token -> its word id (in order of first sight), or -1 if it is not a feature word."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []

    def __missing__(self, token: str) -> int:
        i = -1
        if _is_word(token):
            i = len(self.words)
            self.words.append(token)
        self[token] = i
        return i


def tokenize(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(words, ids, ends): every text's word ids in order, -1 at stop words and phrase breaks and
    after each text (so that no bigram spans two texts); ends[i] is where text i stops."""
    known = _Ids()
    get = known.__getitem__
    ids = array.array("i")
    ends = array.array("q")
    for text in texts:
        chunks = _chunks(text)
        stops = foreign_stops(chunks, text)
        if stops:
            ids.extend(-1 if c in stops else get(c) for c in chunks)
        else:
            ids.extend(map(get, chunks))
        ids.append(-1)
        ends.append(len(ids))
    return known.words, np.frombuffer(ids, dtype=np.int32), np.frombuffer(ends, dtype=np.int64)
