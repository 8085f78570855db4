"""When two titles of one long text are one paper's: the words a copy editor changes (a plural,
a small word, an ending, a typo, a venue's mark) and those that make another paper ("Part I" and
"Part II", "Erratum: …")."""

from __future__ import annotations

import re

from digest.models.texts import APOSTROPHE, folded, normalize


def same_title(one: str, other: str, same_people: bool) -> bool:
    """Whether the titles are one paper's: every word of the shorter is in the other (a title
    grown or cut at either end, a subtitle added or dropped, "(extended abstract)"; a typo fixed,
    "modelling"); a notice ("Erratum: …") is no copy. The same people's record may put one small
    word for another, or another ending of a word ("on" for "in", "predicting" for
    "predictions"): it had been sent again. Any other word is another paper, by one group too:
    "Part I" and "Part II", "type 1" and "type 2", "Parkinson's" and "Alzheimer's" under one
    feed's blurb."""
    if _notice(one) != _notice(other):
        return False  # an erratum or retraction quoting the paper's abstract is news of its own
    shorter, longer = sorted((_title_forms(t) for t in (one, other)), key=_size)
    words = {w for form in longer for w in form}
    stems = {s for w in words for s in _stems(w)}
    for form in shorter:
        missing = [w for w in form if not _found(w, words, stems)]
        extra = words.difference(form)
        if not missing or (same_people and len(missing) == 1 and _reworded(missing[0], extra)):
            return True
    return False


def _notice(title: str) -> str:
    """What notice about a paper the title is ("erratum", "retraction", "reply to"), or ""."""
    found = _NOTICE.match(title) or _NOTICE_AFTER.search(title)
    return found[1].lower() if found else ""


_NOTICE = re.compile(
    r"\W*(?:(?:editorial|authors?['’]?|publisher['’]?s?|notice\s+of|statement\s+of)\s+)?"
    r"(errat|corrigend|correction|retract|withdraw|addend|expressions?\s+of\s+concern"
    r"|publisher['’]?s?\s+note|comment\s+on|reply\s+to|response\s+to)",
    re.IGNORECASE,
)
# ... or after the title: "… (Retracted)", "… [Erratum]", "… - Corrigendum".
_NOTICE_AFTER = re.compile(
    r"(?:[(\[:\u2013\u2014]|(?<![^\W\d_])-)\s*(retract|errat|corrigend|correction|withdraw)\w*\W*$",
    re.IGNORECASE,
)


def _reworded(word: str, extra: set[str]) -> bool:
    """Is the word one a copy editor put another for, among the other title's words the first
    lacks: a small word for a small word ("on" for "in", "using" for "with"; "without" is none),
    or another ending of one stem ("predicting" for "predictions", not "continual" for
    "continuous", "classical" for "classification")?"""
    if word in _SWAPPED:
        return not _SWAPPED.isdisjoint(extra)
    stems = _endings_off(word)
    return any(not stems.isdisjoint(_endings_off(w)) for w in extra)


_SWAPPED = frozenset("in on at of for to from by into onto via within across using with".split())
_ENDINGS = ("ations", "ation", "ions", "ion", "ings", "ing", "ers", "er", "ed", "es", "s", "e")


def _endings_off(word: str) -> set[str]:
    """The word without each ending a verb or its noun may take, leaving 5+ letters."""
    return {word[: -len(e)] for e in _ENDINGS if word.endswith(e) and len(word) - len(e) >= 5}


def _title_forms(title: str) -> tuple[list[str], list[str]]:
    """The title's words split at its hyphens and joined there ("Pre-training" is "pre",
    "training" and "pretraining"), without a venue's mark at its end and its articles (a
    journal may drop "the"); "with" and "without" are two titles."""
    while (mark := _MARK.search(title)) and set(normalize(mark[0]).split()) <= _MARKS:
        title = title[: mark.start()]
    forms: list[list[str]] = []
    for text in (title, _HYPHEN.sub("", title)):
        words = normalize(folded(APOSTROPHE.sub("", text))).split()
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
_NUMBERS = "one two three four five six seven eight nine ten".split()
_NAMES |= {str(i): name for i, name in enumerate(_NUMBERS, 1)}
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
