"""When two titles of one long text are one paper's: the words a copy editor changes (a plural,
a small word, an ending, a typo, a venue's mark, a subtitle moved to the front) and those that make
another paper ("Part I" and "Part II", "Erratum: …", "German to English" for "English to
German")."""

from __future__ import annotations

import functools
import re

from digest.models.texts import APOSTROPHE, folded, normalize


def same_title(one: str, other: str, same_people: bool) -> bool:
    """Whether the titles are one paper's: the words of the shorter are the other's in their
    order, the other grown at either end or by a word within ("(extended abstract)", "Towards",
    "unsupervised"), or with one part moved to the other end ("X: a survey", "A survey of X"); a
    typo fixed, "modelling". A notice ("Erratum: …", "Comments on “…”") is no copy, nor is a
    title grown by one ("Correction to: " before a paper called "Correction of …"), by a part's
    number ("…: Part II") or by "and …" within ("Upper and lower bounds"). The same people's
    record may put one small word for another, another ending of a word ("on" for "in",
    "predicting" for "predictions", "-based" for "for") or an acronym for its words ("LLMs"):
    it had been sent again. Any other word is another paper, by one group too: "Part I" and
    "Part II", "type 1" and "type 2", "Parkinson's" and "Alzheimer's" under one feed's blurb."""
    if _notice(one) != _notice(other):
        return False  # an erratum or retraction quoting the paper's abstract is news of its own
    first, second = _words(one), _words(other)
    first, second = _joined(first, second), _joined(second, first)
    if same_people:
        first, second = _spelled(first, second), _spelled(second, first)
    return _copy(first, second, same_people) or _copy(second, first, same_people)


def _copy(short: list[str], long: list[str], same_people: bool) -> bool:
    """Is `long` the words of `short` in their order (or with one part moved), grown by words
    that make no other paper?"""
    if not short:
        return True  # a record without a title (its abstract known) says nothing against it
    places = _places(short, long, same_people)
    if places is None or not _in_order(places):
        return False
    return not any(_another_paper(block, end) for block, end in _added(places, len(long), long))


def _notice(title: str) -> str:
    """What notice about a paper the title is ("erra", "retr", "comm"), or "": a notice's form
    ("Correction to: …", "Comments on “…”", "Rejoinder: …", "… (Retracted)"), not a title that
    opens with its word: "Correction of motion artifacts …" had been a correction, and its own
    "Correction to: Correction of …" a copy of it, never sent."""
    found = next(filter(None, (n.match(title) for n in _NOTICE)), None)
    found = found or _NOTICE_AFTER.search(title)
    return found["head"][:4].lower() if found else ""


_WHO = r"(?:editor|author|publisher)s?['’]?s?"
_QUALIFIER = rf"(?:(?:an?|the|editorial|{_WHO}|notice\s+of|statement\s+of|temporary|invited)\s+)*"
_HEAD = (
    r"correct|corrigend|errat|addend|retract|withdraw|remov|comment|discuss|rejoinder|repl"
    r"|respons|expressions?\s+of\s+concern|note"
)
_NOTICE = tuple(
    re.compile(rf"\W*{_QUALIFIER}(?P<head>{form}", re.IGNORECASE)
    for form in (
        # "Correction: X", "Retraction notice: X", "Correction to: X", "Temporary Removal: X"
        rf"(?:{_HEAD})\w*)(?:\s+(?:note|notice|statement|article|paper|to|of|on|for|regarding"
        r"|about))?\s*(?::|[\u2013\u2014]|\s-\s|$)",
        # "Comments on “X”", "Discussion of “X”", "Retraction of ‘X’"
        rf"(?:{_HEAD})\w*)\s+(?:to|for|of|on|regarding|about)\s*[\"“”‘’'«„\[]",
        # words that open no paper's own title: "Corrigendum to X", "Reply to comment on X"
        r"errat|corrigend|rejoinder|retraction\s+no(?:te|tice)|notice\s+of\s+retraction"
        rf"|expressions?\s+of\s+concern|{_WHO}\s+note|comments?\s+on|repl(?:y|ies)\s+to)",
    )
)
# ... or after the title: "… (Retracted)", "… [Erratum]", "… - Corrigendum", "… (retraction
# notice)", "…: Addendum" (the word right after the mark had been wanted).
_NOTICE_AFTER = re.compile(
    rf"(?:[(\[:\u2013\u2014]|(?<![^\W\d_])-)\s*{_QUALIFIER}"
    r"(?P<head>retract|errat|corrigend|correction|withdraw|addend|remov|rejoinder)\w*"
    r"(?:\s+(?:note|notice|statement|article|paper))?\W*$",
    re.IGNORECASE,
)


def _words(title: str) -> list[str]:
    """The title's words, split at its hyphens, without a venue's mark at its end and its
    articles (a journal may drop "the"); "with" and "without" are two titles."""
    while (mark := _MARK.search(title)) and set(normalize(mark[0]).split()) <= _MARKS:
        title = title[: mark.start()]
    words = normalize(folded(APOSTROPHE.sub("", title))).split()
    return [w for w in words if w not in _ARTICLES] or words


def _joined(words: list[str], other: list[str]) -> list[str]:
    """The words with two neighbours joined where the other title writes them as one
    ("pre training" and "pretraining")."""
    out: list[str] = []
    for word in words:
        both = out[-1] + word if out else ""
        if both and any(not _stems(both).isdisjoint(_stems(w)) for w in other):
            out[-1] = both
        else:
            out.append(word)
    return out


def _spelled(words: list[str], other: list[str]) -> list[str]:
    """The words with a run whose first letters spell an acronym of the other title as that
    acronym ("large language models" as "llms"; no small word in the run: "learning on graphs"
    is no "log"): one group's copy had been sent again."""
    acronyms: dict[str, str] = {}
    for word in other:
        if word.isalpha() and word not in words and word not in _SMALL:
            acronyms.setdefault(word, word)
            if len(word) > 2 and word.endswith("s"):
                acronyms.setdefault(word[:-1], word)
    out: list[str] = []
    i = 0
    while i < len(words):
        size = next(
            (n for n in range(min(len(words) - i, 8), 1, -1)
             if "".join(w[0] for w in words[i : i + n]) in acronyms
             and _SMALL.isdisjoint(words[i : i + n])),
            1,
        )  # fmt: skip
        start = "".join(w[0] for w in words[i : i + size])
        out.append(acronyms[start] if size > 1 else words[i])
        i += size
    return out


def _places(short: list[str], long: list[str], same_people: bool) -> list[int] | None:
    """Where each word of `short` is in `long` (the next place after the last where it can,
    one whose next word follows too first), or None: a word missing, or (the same people's)
    one word put for another at its place."""
    places: list[int] = []
    missing: list[int] = []
    for k, word in enumerate(short):
        free = [j for j, w in enumerate(long) if j not in places and _match(word, w)]
        last = max(places, default=-1)
        later = [j for j in free if j > last] or free
        go_on = [j for j in later if _follows(short, k, long, j)]
        places.append((go_on or later or [-1])[0])
        if places[-1] < 0:
            missing.append(k)
    if not missing:
        return places
    if len(missing) > 1 or not same_people:
        return None
    k = missing[0]
    extra = [j for j, w in enumerate(long) if j not in places and _reworded(short[k], {w})]
    if not extra:
        return None
    near = max([p for p in places[:k] if p >= 0], default=-1)
    places[k] = next((j for j in extra if j > near), extra[0])
    return places


def _follows(short: list[str], k: int, long: list[str], j: int) -> bool:
    return k + 1 == len(short) or (j + 1 < len(long) and _match(short[k + 1], long[j + 1]))


def _in_order(places: list[int]) -> bool:
    """Are the places in order, or in order but for one part moved to the other side of its
    neighbour part ("X: a survey" and "A survey of X", "Wheat seedlings' response to drought"
    and "Response to drought in wheat seedlings")? Two words swapped ("German to English",
    "electrons by ions") are another paper."""
    ranks = [sorted(places).index(p) for p in places]
    turns = [j for j in range(1, len(ranks)) if ranks[j] < ranks[j - 1]]
    if not turns:
        return True
    if len(turns) > 1:
        return False
    j = turns[0]
    i = next(n for n, r in enumerate(ranks) if r != n)
    k = max(n for n, r in enumerate(ranks) if r != n) + 1
    if j - i == 1 and k - j == 1:
        return False  # "English German" for "German English"
    return ranks[i:j] == list(range(i + k - j, k)) and ranks[j:k] == list(range(i, i + k - j))


def _added(places: list[int], size: int, long: list[str]) -> list[tuple[list[str], str]]:
    """The runs of the longer title's words the shorter lacks, each with where it is: "start",
    "end" or "within"."""
    runs: list[tuple[list[str], str]] = []
    first, last = min(places), max(places)
    for j in range(size):
        if j in places:
            continue
        end = "start" if j < first else "end" if j > last else "within"
        if runs and j - 1 not in places and j > 0 and runs[-1][1] == end:
            runs[-1][0].append(long[j])
        else:
            runs.append(([long[j]], end))
    return runs


def _another_paper(words: list[str], end: str) -> bool:
    """Do these words, added to a title, make another paper's: a notice about it ("Correction
    to", "Comments on", "(retraction notice)"), a part's number ("Part II", "II"), or, within,
    another thing beside the title's ("Upper and lower bounds")?"""
    if any(_PART.fullmatch(w) for w in words):
        return True
    if end == "within":  # "and" alone for a colon is none
        return not _BESIDE.isdisjoint(words) and not _SMALL.issuperset(words)
    if not all(w in _FRAME for w in words):
        return False
    return not _NOTICES.isdisjoint(words) or (
        not _COMMENTS.isdisjoint(words) and not _ABOUT.isdisjoint(words)
    )


_PART = re.compile(r"parts?|(?=[ivx])x{0,2}(?:ix|iv|v?i{0,3})")
_BESIDE = frozenset("and or nor versus vs".split())
_NOTICES = frozenset(
    "correction corrections corrigendum corrigenda erratum errata addendum addenda retraction"
    " retractions retracted withdrawn withdrawal removal removed rejoinder concern".split()
)
_COMMENTS = frozenset(
    "comment comments commentary discussion reply replies response responses note".split()
)
_ABOUT = frozenset(
    "to on of regarding about editor editors editorial author authors publisher publishers".split()
)
_FRAME = (
    _NOTICES
    | _COMMENTS
    | _ABOUT
    | frozenset("and for by expression statement notice temporary invited article paper".split())
)


def _reworded(word: str, extra: set[str]) -> bool:
    """Is the word one a copy editor put another for, among the other title's words the first
    lacks: a small word for a small word ("on" for "in", "using" for "with", "-based" for
    "for"; "without" is none), or another ending of one stem ("predicting" for "predictions",
    not "continual" for "continuous", "classical" for "classification", "observers" for
    "observing": one who observes is no observing)?"""
    if word in _SWAPPED:
        return not _SWAPPED.isdisjoint(extra)
    stems = _endings_off(word)
    return any(not stems.isdisjoint(_endings_off(w)) for w in extra)


_SWAPPED = frozenset(
    "in on at of for to from by into onto via within across using with based".split()
)
_SMALL = _SWAPPED | _BESIDE | frozenset("is as an".split())
_ENDINGS = ("ations", "ation", "ions", "ion", "ings", "ing", "ed", "es", "s", "e")


def _endings_off(word: str) -> set[str]:
    """The word, and without each ending a verb or its noun may take, leaving 5+ letters."""
    return {word} | {
        word[: -len(e)] for e in _ENDINGS if word.endswith(e) and len(word) - len(e) >= 5
    }


def _match(word: str, other: str) -> bool:
    """Is the word the other, as it is or with one letter added, dropped, swapped with its
    neighbour or an s for a z ("colour", "centre", "optimise"; words of 5+ letters), or one stem?
    Any other letter for another is another word: "adsorption" and "absorption", "proton" and
    "photon"."""
    if word == other or not _stems(word).isdisjoint(_stems(other)):
        return True
    return len(word) >= 5 and len(other) >= 5 and _one_edit(word, other)


@functools.lru_cache(maxsize=1 << 14)  # each pair of titles asks of each word many times
def _stems(word: str) -> frozenset[str]:
    """The word, what it may be the plural of ("galaxies" galaxy, "maps" map, "analyses"
    analysis, "spectra" spectrum, "nuclei" nucleus, "indices" index, "mice" mouse) and its other
    spelling ("α" alpha, "2d" two-dimensional): two words of one stem are one."""
    forms = {word, _SAME.get(word, word)}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    for plural, singular in _PLURALS:
        if len(word) > len(plural) + 1 and word.endswith(plural):
            forms.add(word[: -len(plural)] + singular)
    return frozenset(forms)


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
