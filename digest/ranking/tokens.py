"""The analyzer: a text's words and phrase bigrams (stop words and punctuation end a phrase),
the word ids of many texts at once for a fit (two processes for large corpora), and author keys."""

from __future__ import annotations

import array
import os
import pickle
import re
import subprocess
import sys
import unicodedata
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# scikit-learn's English stop words (sklearn.feature_extraction.text.ENGLISH_STOP_WORDS,
# BSD-3-Clause), copied so that this module, and so the fit's helper process, imports without
# scikit-learn: 0.1 s and 30 MB instead of 1 s and 120 MB. A test holds the two lists equal.
ENGLISH_STOP_WORDS = frozenset(
    """
    a about above across after afterwards again against all almost alone along already also although
    always am among amongst amoungst amount an and another any anyhow anyone anything anyway
    anywhere are around as at back be became because become becomes becoming been before beforehand
    behind being below beside besides between beyond bill both bottom but by call can cannot cant co
    con could couldnt cry de describe detail do done down due during each eg eight either eleven
    else elsewhere empty enough etc even ever every everyone everything everywhere except few
    fifteen fifty fill find fire first five for former formerly forty found four from front full
    further get give go had has hasnt have he hence her here hereafter hereby herein hereupon hers
    herself him himself his how however hundred i ie if in inc indeed interest into is it its itself
    keep last latter latterly least less ltd made many may me meanwhile might mill mine more
    moreover most mostly move much must my myself name namely neither never nevertheless next nine
    no nobody none noone nor not nothing now nowhere of off often on once one only onto or other
    others otherwise our ours ourselves out over own part per perhaps please put rather re same see
    seem seemed seeming seems serious several she should show side since sincere six sixty so some
    somehow someone something sometime sometimes somewhere still such system take ten than that the
    their them themselves then thence there thereafter thereby therefore therein thereupon these
    they thick thin third this those though three through throughout thru thus to together too top
    toward towards twelve twenty two un under until up upon us very via was we well were what
    whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever
    whether which while whither who whoever whole whom whose why will with within without would yet
    you your yours yourself yourselves
    """.split()
)

# Words every abstract uses to sell itself; they say nothing about the topic.
# Words every abstract uses to sell itself, in no phrase of a topic.
DOMAIN_STOP_WORDS = frozenset(
    """paper papers study propose proposed proposes method methods approach approaches result
    results show shows shown novel based using use used existing framework frameworks extensive
    experiments experimental demonstrate demonstrates demonstrated achieve achieves achieved
    achieving significant significantly new challenge challenges challenging recent recently
    problem problems introduce introduces present presents provide provides various including
    remarkable despite crucial critical promising furthermore moreover specifically particular
    improve improves improved improvement outperforms outperform effective effectively able ability
    et al available https http github com www
    """.split()
)
# The commonest function words of the other languages papers and readers write in, accents
# folded as the analyzer folds them: stop words of a text written in that language (at least 2
# of them, and 1 in 6 of its words), and words everywhere else. A German reader's "und", "die",
# "der" matched, and explained, a history of Prussian railways; stop words in every text, they
# cut English acronyms ("ALS", "DoS", "LoS", "Au nanoparticles", "El Niño").
FUNCTION_WORDS = {
    language: frozenset(words.split())
    for language, words in {
        "de": "und der die das den dem des ein eine einer eines einem einen ist sind war mit von"
        " zu zur zum auf im fur nicht sich auch als wie bei oder aus nach werden wird wurde"
        " durch uber unter dass diese dieser dieses wir ich es sie",
        "fr": "le la les un une des du de et est sont dans pour par sur avec que qui ne pas au aux"
        " ce ces cette son sa ses leur leurs nous vous il elle ils elles ou mais plus comme ete"
        " etre en",
        "es": "el la los las del de un una unos unas es son con por para que se su sus al lo como"
        " mas pero este esta estos estas entre sobre sin en",
        "it": "il lo la gli le della delle degli dei di che per con una sono nel nella un da del",
        "pt": "os as da do das dos de em um uma com nao para por que se",
        "nl": "het een van de en is op te dat die voor zijn met niet",
        "ru": "и в на с по для что не из от как это при или же но то к о",
    }.items()
}
LANGUAGE_LEAST, LANGUAGE_SHARE = 2, 1 / 6
# Counted without English's own stop words ("is", "as", "per"): an English sentence is no Dutch.
_COUNTED = {language: words - ENGLISH_STOP_WORDS for language, words in FUNCTION_WORDS.items()}
_ANY = frozenset().union(*_COUNTED.values())


def foreign_stops(tokens: list[str]) -> frozenset[str]:
    """The function words of the languages other than English a text (its tokens) is written
    in: its stop words. Set operations first: most texts are English and hold one or none."""
    found: frozenset[str] = frozenset()
    if _ANY.isdisjoint(tokens):
        return found
    for language, words in _COUNTED.items():
        present = words.intersection(tokens)
        if len(present) < LANGUAGE_LEAST:
            continue
        if sum(map(tokens.count, present)) >= LANGUAGE_SHARE * len(tokens):
            found |= FUNCTION_WORDS[language]
    return found


# Words too common alone to say anything, which name a topic with the next or the last word:
# phrases only. As stop words they cut a reader's own phrases in half ("code generation" read
# as "generation", "state space models" as "space", "world models" as "world", "art history"
# as "history"); as words they made every abstract's "our models" and "performance" count. The
# second line are stop words of scikit-learn's list and ours that are half of a field's term:
# "side-channel" was read as "channel" (vision papers' channel attention), "thin film" and
# "thick disk" as "film" and "disk", "quantum well" as "quantum", "top quark", "Pareto front",
# "system identification", "first principles", "many-body", "few-shot", "re-identification",
# "de Sitter", "critical point", "interest rates".
PHRASE_ONLY = frozenset(
    """model models code state work works performance task tasks key art
    side thin thick well top bottom front back up down full whole first third one two three few
    many off re co de system call fire interest part critical""".split()
)
STOP_WORDS = (ENGLISH_STOP_WORDS | DOMAIN_STOP_WORDS) - PHRASE_ONLY


# Typographic hyphens and apostrophes, as feeds write them: "fine‐tuning", "Alzheimer’s".
ASCII_MARKS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2019": "'", "\u02bc": "'"})


def rule_words(rule: str) -> list[str]:
    """The words of an exclude word or alert keyword as a rule reads them: accents folded,
    typographic marks as ASCII, hyphens as spaces."""
    return fold(rule).translate(ASCII_MARKS).replace("-", " ").split()


def no_rule(phrase: Sequence[str]) -> bool:
    """Is an exclude word or alert keyword (its words) no rule at all: none, or English stop
    words alone ("the", "a"), which every paper holds: excluding it emptied a digest, alerting on
    it held every paper for the next digest, beyond its top_k."""
    return all(w.lower() in ENGLISH_STOP_WORDS for w in phrase)


# Whether phrase bigrams are features (a switch for bench/variants.py, which measures them).
BIGRAMS = True


class _Table(dict[int, int | str]):
    """str.translate table: word characters (and a script's marks), hyphens and spaces stay
    (other white space becomes a space), "+" and "#" too, for _SYMBOLS to judge; any other
    character ends a phrase and becomes "|"."""

    def __missing__(self, code: int) -> int | str:
        c = chr(code)
        word = c.isalnum() or c in "_-+#" or unicodedata.category(c)[0] == "M"  # a vowel sign too
        kept: int | str = code if word else " " if c.isspace() else "|"
        self[code] = kept
        return kept


_TABLE = _Table()
# A hyphen splits a word, but not before a digit ("gpt-4") nor after a lone letter ("k-means",
# "t-sne", "x-ray", "α-helix": split, the letter would go and "means" match "by means of").
_SPLIT_HYPHEN = re.compile(r"(?<=\w\w)-(?!\d)")
# A language's name of a letter and "++" or "#" ("c++", "c#") is one word; any other "+" or "#"
# ends a phrase like other punctuation.
_SYMBOLS = re.compile(r"(?<![\w+#])[a-z](?:\+\+|#)(?![\w+#])|[+#]")
# LaTeX in an abstract: a command's name (\odot, \mathcal) is no word of the text, and an
# underscore at a word's edge (M_\odot read as "m_") is a subscript's, not the word's.
_LATEX_COMMAND = re.compile(r"\\[a-z]+")
_EDGE_UNDERSCORE = re.compile(r"(?<!\w)_+|_+(?!\w)")


def _chunks(text: str) -> list[str]:
    """The text's tokens in order, "|" where a phrase ends; stop words are still in. str methods
    rather than one regex per token: this is most of the time a large fit takes."""
    text = text.lower()
    if not text.isascii():
        text = CJK_RUN.sub(_cjk_words, _strip_accents(text))
    if "\\" in text:
        text = _LATEX_COMMAND.sub(" ", text)
    text = text.translate(_TABLE)
    if "_" in text:
        text = _EDGE_UNDERSCORE.sub(" ", text)
    if "+" in text or "#" in text:
        text = _SYMBOLS.sub(lambda m: m[0] if len(m[0]) > 1 else "|", text)
    if "-" in text:
        # A dash set off by a space, or a run of two or more, ends a phrase like punctuation.
        text = text.replace("--", " | ").replace(" -", " | ").replace("- ", " | ")
        text = text.replace("|-", "| ").removeprefix("-")
        # The hyphens left sit inside a word: "gpt-4" and "llama-2-7b" stay whole, while
        # "privacy-utility" is two words that still make a phrase.
        text = _SPLIT_HYPHEN.sub(" ", text)
    return text.replace("|", " | ").split()


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
    return len(token) > 1 and not token.isdigit() and token not in STOP_WORDS


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
    stops = foreign_stops(chunks)
    words = [None if c in stops else _words[c] for c in chunks]
    features = [w for w in words if w and w not in PHRASE_ONLY]
    if BIGRAMS:
        pairs = zip(words, words[1:], strict=False)
        features += [f"{a} {b}" for a, b in pairs if a and b and not _both_phrase_only(a, b)]
    return features


def _both_phrase_only(a: str, b: str) -> bool:
    """Two words of phrases only say nothing together either ("first one", "one two")."""
    return a in PHRASE_ONLY and b in PHRASE_ONLY


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


# Tokenizing is most of a large fit: from this many texts on, two processes share it.
PARALLEL_MIN = 8_000


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
        stops = foreign_stops(chunks)
        if stops:
            ids.extend(-1 if c in stops else get(c) for c in chunks)
        else:
            ids.extend(map(get, chunks))
        ids.append(-1)
        ends.append(len(ids))
    return known.words, np.frombuffer(ids, dtype=np.int32), np.frombuffer(ends, dtype=np.int64)


def tokenize_all(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """tokenize(texts), the second half in a helper process on a second core."""
    if len(texts) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return tokenize(texts)
    half = len(texts) // 2
    with ThreadPoolExecutor(1) as waiter:  # the helper starts while this process tokenizes
        theirs = waiter.submit(_in_helper, texts[half:])
        words, ids, ends = tokenize(texts[:half])
        their_words, their_ids, their_ends = theirs.result()
    # Their word ids -> ours: words first seen over there get the next ids.
    mine = {w: i for i, w in enumerate(words)}
    remap = np.array([mine.setdefault(w, len(mine)) for w in their_words] + [-1], np.int32)
    words = list(mine)
    return (
        words,
        np.concatenate([ids, remap[their_ids]]),  # -1 indexes the appended -1
        np.concatenate([ends, their_ends + len(ids)]),
    )


def _in_helper(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """tokenize(texts) in a new Python process. Not a fork: a fork would carry (and a container
    would count) this process's whole heap, hundreds of megabytes by the time a large fit runs.
    Where the helper cannot run, this process tokenizes them itself."""
    try:
        helper = subprocess.Popen(
            [sys.executable, "-c", "from digest.ranking.tokens import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its failure is this process's to handle, not to show
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
        )
    except OSError:
        return tokenize(texts)
    assert helper.stdin is not None and helper.stdout is not None
    got = None
    try:
        # Pickled whole and written in one call: pickling onto the pipe would take the GIL back
        # for every frame, each time waiting out the tokenizing thread's switch interval.
        payload = pickle.dumps((STOP_WORDS, list(texts)), pickle.HIGHEST_PROTOCOL)
        with helper.stdin:
            helper.stdin.write(payload)
        del payload
        with helper.stdout:
            got = pickle.loads(helper.stdout.read())
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    finally:  # whatever went wrong here, the helper does not outlive its use
        if helper.poll() is None and got is None:
            helper.kill()
        code = helper.wait()
    return tokenize(texts) if code != 0 or got is None else got


def serve() -> None:
    """The helper's side: the stop words (a benchmark may change them) and the texts pickled on
    stdin, their tokenize() pickled on stdout."""
    global STOP_WORDS
    STOP_WORDS, texts = pickle.load(sys.stdin.buffer)
    sys.stdout.buffer.write(pickle.dumps(tokenize(texts), pickle.HIGHEST_PROTOCOL))
