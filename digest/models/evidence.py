"""What records of papers say of themselves: whether two that share a title are two papers after
all (by their authors, or as two items of one feed), where their keys alone would make them one;
and one record per paper of a list (dedupe), as the catalogue keeps them."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit

from digest.models.identity import (
    GUID,
    STRONG,
    keys,
    kind,
    loose_title_hash,
    merge,
    same_paper,
)
from digest.models.texts import normalize
from digest.models.values import Paper

# Names shorter than this say too little: a preprint's "B. Chen" and its journal version's "Bo
# Chen" share "chen" anyway, and an organisation's one name ("Nature") is no author list.
LEAST_AUTHORS = 2


def two_papers(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    """Whether two records matched by title alone are two papers: each names two or more
    authors and no name of one shares a word with the other's ("Machine learning for quantum
    materials" by two groups), or both are items of one feed with ids of their own that differ
    and texts that differ (a weekly post, "This week in quantum materials", under one title)."""
    return _other_authors(known, other) or _other_items(known, known_guids, other, other_keys)


def refuses(
    kind: str, known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    """Whether the records' own words refuse a match of their keys: a title match ('t') of two
    papers (or of a title and a name: 'n'), a text match ('a') that is no copy; any other match
    stands."""
    if kind in ("t", "n"):
        return two_papers(known, known_guids, other, other_keys)
    return kind == "a" and not copies(known, known_guids, other, other_keys)


def copies(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    """Whether two records of one long text (texts.text_keys) are one
    paper: every word of the shorter title is in the other (a title grown or cut at either end,
    a subtitle added or dropped, "(extended abstract)"; a typo fixed, "modelling"), not two
    groups', not two items of one feed. A journal's blurb as every item's text had made "… in
    Parkinson's disease" and "… in Alzheimer's disease" one: 70% of the words had been enough."""
    if _other_authors(known, other) or _two_items(known_guids, other_keys):
        return False
    shorter, longer = sorted((_title_forms(p.title) for p in (known, other)), key=_size)
    words = {w for form in longer for w in form}
    stems = {s for w in words for s in _stems(w)}
    # The same people's record may put one small word for another, or another form of a word
    # (a copy editor's "on" for "in", "predicting" for "predictions"): it had been sent again.
    # Any other word is another paper, by one group too: "Part I" and "Part II", "type 1" and
    # "type 2", "Parkinson's" and "Alzheimer's" under one feed's blurb.
    same = _same_people(known, other)
    for form in shorter:
        missing = [w for w in form if not _found(w, words, stems)]
        if not missing or (same and len(missing) == 1 and _reworded(missing[0], words)):
            return True
    return False


def _reworded(word: str, words: set[str]) -> bool:
    """Is the word a small one a copy editor swaps, or of one stem with one of the words (their
    first 6 letters the same, both of 7+)?"""
    if word in _SWAPPED:
        return True
    return len(word) >= 7 and any(len(w) >= 7 and w[:6] == word[:6] for w in words)


_SWAPPED = frozenset("in on at of for to from by into onto via within across".split())


def _same_people(known: Paper, other: Paper) -> bool:
    """Do the two author lists share a name?"""
    mine, theirs = _name_words(known.authors), _name_words(other.authors)
    return bool(mine & theirs)


def _title_forms(title: str) -> tuple[list[str], list[str]]:
    """The title's words split at its hyphens and joined there ("Pre-training" is "pre",
    "training" and "pretraining"), without a venue's mark at its end and its articles (a
    journal may drop "the"); "with" and "without" are two titles."""
    while (mark := _MARK.search(title)) and set(normalize(mark[0]).split()) <= _MARKS:
        title = title[: mark.start()]
    forms: list[list[str]] = []
    for text in (title, _HYPHEN.sub("", title)):
        words = normalize(_folded(_APOSTROPHE.sub("", text))).split()
        forms.append([w for w in words if w not in _ARTICLES] or words)
    return forms[0], forms[1]


def _size(forms: tuple[list[str], list[str]]) -> int:
    return len(forms[0])


def _found(word: str, words: set[str], stems: set[str]) -> bool:
    """Is the word among the words, as it is or with one letter added, dropped, swapped with
    its neighbour or an s for a z ("colour", "centre", "optimise"; words of 5+ letters)? Any
    other letter for another is another word: "adsorption" and "absorption", "proton" and
    "photon"."""
    if word in words or not stems.isdisjoint(_stems(word)):
        return True
    return len(word) >= 5 and any(len(w) >= 5 and _one_edit(word, w) for w in words)


def _stems(word: str) -> set[str]:
    """The word, what it may be the plural of ("galaxies" galaxy, "maps" map, "analyses"
    analysis, "spectra" spectrum, "nuclei" nucleus, "indices" index, "mice" mouse) and its other
    spelling ("α" alpha, "2d" two-dimensional): two words of one stem are one."""
    forms = {word, _SAME.get(word, word)}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    for plural, singular in _PLURALS:
        if len(word) > len(plural) + 1 and word.endswith(plural):
            forms.add(word[: -len(plural)] + singular)
    return forms


_PLURALS: tuple[tuple[str, str], ...] = (("ies", "y"), ("es", "is"), ("a", "um"), ("a", "on"))
_PLURALS += (("i", "us"), ("ices", "ex"), ("ices", "ix"))
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
_NAMES = {chr(0x3B1 + i + (i > 16)): n for i, n in enumerate(f"{_GREEK} sigma tau".split())}
_NAMES |= {chr(0x3C5 + i): n for i, n in enumerate("upsilon phi chi psi omega".split())}
_NAMES |= {f"{i}d": f"{n}dimensional" for i, n in enumerate(("one", "two", "three", "four"), 1)}
_NAMES |= {"mice": "mouse", "men": "man", "women": "woman", "children": "child", "feet": "foot"}
_SAME = _NAMES | {name: written for written, name in _NAMES.items()}


def _one_edit(a: str, b: str) -> bool:
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1 or a == b:
        return a == b
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):
        return a[i:] == b[i + 1 :]
    if a[i + 1 :] == b[i + 1 :]:  # one letter for another
        return {a[i], b[i]} == {"s", "z"}
    return a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]  # swapped


# A venue's mark after a title ("(extended abstract)", "[Student Abstract]", ": Extended
# version"): a copy's, no subtitle of another paper.
_MARK = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|[:\u2013\u2014-][^:\u2013\u2014()\[\]-]*)\W*$")
_MARKS = set(
    "extended abstract abstracts short full long paper version student research poster demo"
    " demonstration invited talk keynote position technical report preprint camera ready"
    " journal conference workshop supplementary material revised corrected reprint appendix"
    " with".split()
)
_ARTICLES = {"a", "an", "the"}
_HYPHEN = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011](?=[^\W\d_])")


def _two_items(known_guids: Iterable[str], other_keys: Iterable[str]) -> bool:
    """Are these ids of two items of one feed (whatever their texts)?"""
    mine = {_item(k) for k in known_guids if k.startswith(f"{GUID}:")}
    theirs = {_item(k) for k in other_keys if k.startswith(f"{GUID}:")}
    if not mine or not theirs or not mine.isdisjoint(theirs):
        return False
    return not {_scope(k) for k in mine}.isdisjoint(_scope(k) for k in theirs)


def _other_authors(known: Paper, other: Paper) -> bool:
    if min(len(known.authors), len(other.authors)) < LEAST_AUTHORS:
        return False
    mine, theirs = _name_words(known.authors), _name_words(other.authors)
    # Names in two scripts (Chinese and romanized) say nothing of each other.
    return _latin(mine) == _latin(theirs) and mine.isdisjoint(theirs)


def _name_words(names: Iterable[str]) -> set[str]:
    """The names' words as ASCII writes them: "Müller" is "muller" and "mueller" (split at its
    mark, it had been "mu" and "ller"), "Głowacki" "glowacki", "Weiß" "weiss", "Kaʻiulani"
    "kaiulani": a preprint's names and its journal version's in ASCII had been two groups'."""
    text = _APOSTROPHE.sub("", unicodedata.normalize("NFKD", " ".join(names)).lower())
    words: set[str] = set()
    for spelled in (text, _UMLAUT.sub(r"\1e", text)):  # "Mueller" is German's other spelling
        words.update(w for w in _WORD.findall(_folded(spelled)) if len(w) > 1)
    return words


def _folded(text: str) -> str:
    """The text without its accents (NFKD's marks) and with the Latin letters NFKD leaves as
    they are written as ASCII writes them: ł as l, ø as o, æ as ae, ß as ss, þ as th, ı as i."""
    marked = unicodedata.normalize("NFKD", text)
    return "".join(c for c in marked if not unicodedata.combining(c)).translate(_FOLD)


def _fold_table() -> dict[int, str]:
    """The Latin letters NFKD does not decompose, by their names: "LATIN SMALL LETTER L WITH
    STROKE" is l, "LATIN SMALL LIGATURE OE" oe; a letter of its own (ʒ, ə) stays."""
    table: dict[int, str] = {}
    for code in range(0xC0, 0x2B0):  # Latin-1 to IPA: the blocks after decompose
        bare = "".join(c for c in unicodedata.normalize("NFKD", chr(code)) if c.isascii())
        named = _LETTER.fullmatch(unicodedata.name(chr(code), ""))
        if not bare and named:
            table[code] = _SPECIAL.get(named[1], named[1].lower())
    return table


_LETTER = re.compile(
    r"LATIN (?:SMALL|CAPITAL) (?:LETTER|LIGATURE) (?:DOTLESS |OPEN )?"
    r"(SHARP S|ETH|THORN|ENG|[A-Z]{1,2})(?: WITH .+)?"
)
_SPECIAL = {"SHARP S": "ss", "ETH": "d", "THORN": "th", "ENG": "ng"}
_FOLD = _fold_table()
_UMLAUT = re.compile("([aou])\u0308")
# An apostrophe or an okina within a name joins its parts: "O'Brien", "Kaʻiulani" (the okina is
# a letter of no script: the name had been "another script").
_APOSTROPHE = re.compile("['`\u00b4\u2018\u2019\u02b9\u02bb\u02bc\u02bd\u02be\u02bf]")


def _former_name_words(names: Iterable[str]) -> set[str]:
    """The names' words as n: keys were made before _name_words folded ł, ß, ...: those of the
    papers stored then."""
    marked = unicodedata.normalize("NFKD", " ".join(names)).lower()
    text = "".join(c for c in marked if not unicodedata.combining(c))
    return {w for w in _WORD.findall(text) if len(w) > 1}


def _latin(words: set[str]) -> bool:
    """Are the names in the Latin script (those _folded left: "ʒ", "ə")?"""
    return all(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for w in words for c in w)


_WORD = re.compile(r"[^\W\d_]+")


def _other_items(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    if not _two_items(known_guids, other_keys):
        return False  # one item seen again, items of two feeds (one paper's have two ids), or none
    texts = sorted((normalize(known.abstract), normalize(other.abstract)), key=len)
    # No text, or one a cut of the other (a feed's excerpt "…"), tells nothing apart.
    return bool(texts[0]) and not texts[1].startswith(texts[0].rstrip(". "))


def _item(key: str) -> str:
    """A feed item's id without what names no item: an address's query values that hold no
    digit (?rss=latest, ?utm_source=feed) and its fragment; ?p=100002 stays."""
    value = key.removeprefix(f"{GUID}:")
    if not _HOST.match(value):
        return value
    parts = urlsplit(value)
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if _DIGIT.search(v)]
    return parts._replace(query=urlencode(kept), fragment="").geturl()


def _scope(item: str) -> str:
    """Where a feed item's id is one: an address's host, a URN's or tag's namespace, else the
    feed (identity.guid_key writes an opaque id as 'guid:<source>:<id>')."""
    found = _HOST.match(item)
    if found:
        return found[1].lower()
    head, _, rest = item.partition(":")
    return f"{head}:{rest.split(':', 1)[0].split(',', 1)[0]}" if head in ("urn", "tag") else head


_HOST = re.compile(r"(?i)^https?://([^/?#]+)")
_DIGIT = re.compile(r"\d")


def name_keys(paper: Paper) -> list[str]:
    """'n:' keys of the paper's title with each word of its authors' names: a paper whose title
    another paper holds (two groups' "Machine learning for quantum materials") is found by them
    when its journal version comes, which that title alone led to the other group's paper."""
    title = loose_title_hash(paper.title)
    if title is None:
        return []
    named = paper.authors[:NAMED_AUTHORS]
    words = sorted(_name_words(named) | _former_name_words(named))
    return ["n:" + hashlib.sha256(f"{title}|{w}".encode()).hexdigest()[:16] for w in words]


NAMED_AUTHORS = 12  # a consortium's 500 names would be 1,000 keys; its journal version's first


def own_id(paper: Paper, keys: Iterable[str]) -> str:
    """An id of its own for a paper whose title (its id) another paper has: its feed item's id,
    else its title and text together."""
    guid = next((k for k in keys if k.startswith(f"{GUID}:")), None)
    if guid is not None:
        return guid
    both = f"{normalize(paper.title)}|{normalize(paper.abstract)}"
    return "t:" + hashlib.sha256(both.encode()).hexdigest()[:16]


def dedupe(papers: Iterable[Paper]) -> list[Paper]:
    """One record per paper, in first-seen order, each completed by its later duplicates; two
    records of one title that say they are two papers stay two, the second under an id of its
    own, as the catalogue keeps them (a preview had merged what the run sent)."""
    merged: list[Paper] = []
    # Each record's strong keys and item ids, kept as it grows: all that same_paper and
    # two_papers read. Reading keys() of a record that has merged thousands of copies, for every
    # copy, was quadratic.
    strong: list[list[str]] = []
    guids: list[set[str]] = []
    later: list[list[Paper]] = []
    owner: dict[str, int] = {}
    for paper in papers:
        paper_keys = keys(paper)
        hit, apart = _hit(paper, paper_keys, paper_keys, owner, strong, guids, merged)
        if hit is None and apart:
            paper = dataclasses.replace(paper, id=own_id(paper, paper_keys))
            paper_keys = keys(paper)
        titles = [owner[k] for k in paper_keys if kind(k) == "t" and k in owner]
        named = name_keys(paper) if titles and hit is None else []
        if named:  # its title is another's: its own earlier record by a name
            hit, _ = _hit(paper, named, paper_keys, owner, strong, guids, merged)
        if hit is None:
            hit = len(merged)
            merged.append(paper)
            strong.append([])
            guids.append(set())
            later.append([])
        else:
            later[hit].append(paper)
        strong[hit] += [k for k in paper_keys if kind(k) in STRONG and k not in strong[hit]]
        guids[hit] |= {k for k in paper_keys if kind(k) == GUID}
        for key in paper_keys:
            owner.setdefault(key, hit)
        if any(i != hit for i in titles):
            for key in named or name_keys(paper):
                owner.setdefault(key, hit)
    return [_merged(first, rest) for first, rest in zip(merged, later, strict=True)]


def _hit(
    paper: Paper,
    among: list[str],
    paper_keys: list[str],
    owner: dict[str, int],
    strong: Sequence[list[str]],
    guids: Sequence[set[str]],
    merged: Sequence[Paper],
) -> tuple[int | None, bool]:
    """(the record one of the keys `among` names that this one is, or None; whether a record
    of its id said it is another)."""
    apart = False
    for key in (k for k in among if k in owner):
        i = owner[key]
        if not same_paper(key, strong[i], paper_keys):
            continue
        if refuses(kind(key), merged[i], guids[i], paper, paper_keys):
            apart = apart or (kind(key) == "t" and merged[i].id == paper.id)
            continue
        return i, False
    return None, apart


def _merged(first: Paper, rest: list[Paper]) -> Paper:
    """merge() of every later record into the first, in order; the aliases gathered once at the
    end rather than rebuilt at each step."""
    if not rest:
        return first
    known = dataclasses.replace(first, aliases=())
    for other in rest:
        known = dataclasses.replace(
            merge(known, dataclasses.replace(other, aliases=())), aliases=()
        )
    aliases = dict.fromkeys((*first.aliases, *(a for o in rest for a in (o.id, *o.aliases))))
    kept = tuple(a for a in aliases if a and a != first.id)
    return dataclasses.replace(known, aliases=kept)
