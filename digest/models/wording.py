"""When two titles of one long text are one paper's: the words a copy editor changes (a plural,
a small word, an ending, a typo, a spelling: spellings.py, a venue's mark, a subtitle moved to
the front, "Image classification" for "Classification of images") and those that make another
paper ("Part I" and "Part II", "Llama 3", a notice: notices.py, "German to English" for
"English to German")."""

from __future__ import annotations

import functools
import re

from digest.models.notices import frames, notice
from digest.models.spellings import NUMBERS, ORDINALS, stems
from digest.models.texts import APOSTROPHE, folded, ions, normalize


def same_title(one: str, other: str, same_people: bool) -> bool:
    """Whether the titles are one paper's: the words of the shorter are the other's in their
    order, the other grown at either end or by a word within ("(extended abstract)", "Towards",
    "unsupervised", "X-ray"), with one part moved to the other end ("X: a survey", "A survey of
    X", "Image classification" for "Classification of images") or the two sides of an "and"
    swapped ("Dark energy and dark matter"); a typo fixed, "modelling". A notice ("Erratum: …",
    "Comments on “…”", "Correction for Lopez et al., …") is no copy, nor is a title grown by one
    ("Correction to: " before a paper called "Correction of …"), by a part's number ("…: Part
    II", "… II") or by "and …" within ("Upper and lower bounds"). The same people's record may
    put one small word for another, another ending of a word ("on" for "in", "predicting" for
    "predictions", "-based" for "for"): it had been sent again. Any other word is another
    paper, by one group too: "Part I" and "Part II", "type 1" and "type 2", "Parkinson's" and
    "Alzheimer's" under one feed's blurb, "GANs" and "Graph attention networks" (an acronym's
    words are no title's to guess: "RNNs" are recurrent or residual networks). Only the first
    _CAP words are compared: a feed that puts its abstracts in <title> had taken minutes."""
    if notice(one) != notice(other):
        return False  # an erratum or retraction quoting the paper's abstract is news of its own
    first, second = _words(one)[:_CAP], _words(other)[:_CAP]
    first, second = _joined(first, second), _joined(second, first)
    return _copy(first, second, same_people) or _copy(second, first, same_people)


_CAP = 60  # a title is rarely over 40 words; an alignment's cost grows as their square


def _copy(short: list[str], long: list[str], same_people: bool) -> bool:
    """Is `long` the words of `short` in their order (or with one part moved), grown by words
    that make no other paper?"""
    if not short:
        return True  # a record without a title (its abstract known) says nothing against it
    places = _places(short, long, same_people)
    if places is None or not _in_order(places, short, long):
        return False
    return not any(_another_paper(block, end) for block, end in _added(places, long))


def _words(title: str) -> list[str]:
    """The title's words, split at its hyphens, without a venue's mark at its end and its
    articles (a journal may drop "the"); "with" and "without" are two titles. A part's number
    ("Part II", "Paper 2", "…: II", "… IV") is followed by _NUMBERED; a numeral within ("type I
    error", "X-ray", "v-statistics") is a word: any "x" or "i" added had been a part's."""
    while (mark := _MARK.search(title)) and set(normalize(mark[0]).split()) <= _MARKS:
        title = title[: mark.start()]
    words: list[str] = []
    title = ions(title)  # "Co(II)", "[O~{\sc iii}]", "Fe II": no part's number
    title = _PREFIXED.sub(r"\1", _AMPERSAND.sub(" and ", APOSTROPHE.sub("", title)))
    title = _SPACED.sub(r"\1", title)
    for piece in _PIECE.split(title):
        these = _piece_words(piece)
        glued = bool(_GLUED.search(piece))  # "CityGS-X", "LLaDA-V": a name's
        for n, word in enumerate(these):
            if word == "d" and words[-1:] and words[-1].isdigit():
                words[-1] += word  # "2-D" as "2D": "Two-dimensional" had been another word
                continue
            words.append(word)
            if _part_number(these, n, glued):
                words.append(_NUMBERED)
    kept = [w for n, w in enumerate(words) if w not in _ARTICLES or words[n + 1 :][:1] == ["#"]]
    return kept or words  # "Part A" keeps its letter: "Part B" had been it grown by "b"


def _piece_words(piece: str) -> list[str]:
    """The piece's words, a slash between two of them a word of its own (_SLASH): "Upper/lower
    bounds" had been "Upper lower bounds", one paper with "Lower bounds"."""
    words: list[str] = []
    for n, part in enumerate(piece.split("/")):
        words += [_SLASH] * bool(n) + normalize(folded(part)).split()
    return words


def _part_number(words: list[str], n: int, glued: bool) -> bool:
    """Is words[n] a part's number: a numeral after "Part" or "Paper", or a Roman numeral
    ending the title or a piece of it ("Black holes II: …"), not glued to a word by a hyphen
    (names: "InternVL-X", "MIMIC-IV")?"""
    word, after = words[n], words[n - 1] if n else ""
    if after in ("part", "parts", "paper"):  # "Part 2", "Part two", "Part B", "Paper IV"
        return (
            bool(_ROMAN.fullmatch(word))
            or word.isdigit()
            or word in NUMBERS
            or (len(word) == 1 and after != "paper")
        )
    # Not a lone "x" at the end: "… on Twitter / X", "… on X" are the platform, never Part 10.
    return n == len(words) - 1 and not glued and word != "x" and bool(_ROMAN.fullmatch(word))


_PIECE = re.compile(r"[:;,.?!()\[\]\u2013\u2014]|\s-\s")  # where a part's number may end
_ROMAN = re.compile(r"(?=[ivx])x{0,2}(?:ix|iv|v?i{0,3})")
_GLUED = re.compile(r"[^\W_][-\u2010\u2011/][ivx]+\W*$", re.IGNORECASE)  # "Twitter/X" too
_NUMBERED = "#"  # no word: normalize() leaves no "#"
_SLASH = "/"  # nor a "/": an "and" to _where, not one whose two sides may swap (_in_order)
_AMPERSAND = re.compile(r"&(?!#?\w+;)")  # "&" is "and": normalize() had dropped it
# A prefix joined to its word by a hyphen is one word with it ("Semi-supervised" semisupervised,
# "De-grounding", a privative "a-IGZO"): split off, it had been a word added in front of the
# other paper's title ("Supervised …", "Grounding …"), or an article dropped. Not "non-" and
# "anti-": a negation of their own (_negated), as a word added within too ("anti-de Sitter").
_PREFIXED = re.compile(
    r"(?<![\w-])(semi|self|de|un|dis|mis|counter|pre|post|re|co|sub|super|inter|pseudo|quasi"
    r"|multi|a)[-\u2010\u2011](?=[^\W\d_])(?!(?:{})\b)".format("|".join(NUMBERS + ORDINALS)),
    re.IGNORECASE,
)

# A prefix that is a word too, written spaced before its word ("Self supervised", "Pre
# training", "Super resolution", "Co training", "Inter annual"), is one word with it, as
# hyphenated: split, it had been a word added in front of "Supervised …", "Resolution …", one
# paper of two (reg36, reg38). Not at a piece's end ("We'll Fix it in Post: …", "SELF: …") or
# before a small word ("CO and H2O", "Counter for …"): there it is the word.
_SPACED = re.compile(
    r"(?<![\w-])(self|pre|post|sub|super|co|un|counter|inter)\s+(?=[^\W\d_])(?!(?:and|or|nor|of|in|on|at|to|for|by|with|from"
    r"|the|an?|is|as|are)\b)",
    re.IGNORECASE,
)


def _joined(words: list[str], other: list[str]) -> list[str]:
    """The words with two neighbours joined where the other title writes them as one
    ("pre training" and "pretraining"), not where the first is that word already: "Lambda s"
    had been glued as "lambdas" (a plural of "Λ") against "Λ s"; nor where the other has the
    two as they are: "Brain Prompt" glued against "BrainPrompt: Multi-Level Brain Prompt …"
    had been a word moved before "Multi-Level", another paper (reg36)."""
    theirs = frozenset().union(*map(stems, other))
    pairs = set(zip(other, other[1:], strict=False))
    out: list[str] = []
    for word in words:
        both = "" if not out or (out[-1], word) in pairs else out[-1] + word
        if both and not stems(both).isdisjoint(theirs - stems(out[-1])):
            out[-1] = both
        else:
            out.append(word)
    return out


def _places(short: list[str], long: list[str], same_people: bool) -> list[int] | None:
    """Where each word of `short` is in `long` (the next place after the last where it can,
    one whose next word follows too first), or None: a word missing, or (the same people's)
    one word put for another at its place. Each word's places are found once, and taken ones
    kept in a set: a list searched for each word of each title had made an 800-word pair take
    14 s."""
    where = _where(short, long, same_people)
    places: list[int] = []
    taken: set[int] = set()
    missing: list[int] = []
    last = -1
    for k, word in enumerate(short):
        free = sorted(where[word] - taken)
        later = [j for j in free if j > last] or free
        after = where[short[k + 1]] if k + 1 < len(short) else None
        go_on = [j for j in later if after is None or j + 1 in after]
        places.append((go_on or later or [-1])[0])
        taken.add(places[-1])
        last = max(last, places[-1])
        if places[-1] < 0:
            missing.append(k)
            if len(missing) > 1 or not same_people:
                return None
    if not missing:
        return places
    k = missing[0]
    extra = [j for j, w in enumerate(long) if j not in taken and _reworded(short[k], {w})]
    if not extra:
        return None
    near = max([p for p in places[:k] if p >= 0], default=-1)
    places[k] = next((j for j in extra if j > near), extra[0])
    return places


def _in_order(places: list[int], short: list[str], long: list[str]) -> bool:
    """Are the places in order, or in order but for one part moved to the other side of its
    neighbour part ("X: a survey" and "A survey of X", "Wheat seedlings' response to drought"
    and "Response to drought in wheat seedlings"), or the sides of an "and" swapped ("dark
    energy and dark matter")? Two words swapped ("English-German", "German to English",
    "electrons by ions") are another paper, unless an "of" put them so ("image classification"
    and "classification of images": a journal's copy had been sent again)."""
    order = {p: rank for rank, p in enumerate(sorted(places))}
    ranks = [order[p] for p in places]
    moved = [n for n, rank in enumerate(ranks) if rank != n]
    if not moved:
        return True
    i, k = moved[0], moved[-1] + 1
    turns = [j for j in range(i + 1, k) if ranks[j] < ranks[j - 1]]
    if len(turns) == 1 and _swapped(ranks, i, turns[0], k):
        j = turns[0]
        if j - i > 1 or k - j > 1:
            return True
        a, b = places[i], places[j]  # "image classification": "classification of images"
        return a - b == 2 and long[b + 1] == "of" and b + 1 not in places
    return any(
        short[m] in ("and", "or") and _swapped(ranks, i, m + 1, k, m) for m in range(i + 1, k - 1)
    )


def _swapped(ranks: list[int], i: int, j: int, k: int, middle: int | None = None) -> bool:
    """Are ranks[i:j] and ranks[j:k] two runs that swapped places (around ranks[middle], the
    "and" that stays between them)?"""
    if middle is None:
        return ranks[i:j] == list(range(i + k - j, k)) and ranks[j:k] == list(range(i, i + k - j))
    size = k - j  # the run after the "and", first in the other title
    return (
        ranks[j:k] == list(range(i, i + size))
        and ranks[middle] == i + size
        and ranks[i:middle] == list(range(i + size + 1, k))
    )


def _added(places: list[int], long: list[str]) -> list[tuple[list[str], str]]:
    """The runs of the longer title's words the shorter lacks, each with where it is: "start",
    "end" or "within"."""
    runs: list[tuple[list[str], str]] = []
    placed = set(places)
    first, last = min(places), max(places)
    for j, word in enumerate(long):
        if j in placed:
            continue
        end = "start" if j < first else "end" if j > last else "within"
        if runs and j - 1 not in placed and j > 0 and runs[-1][1] == end:
            runs[-1][0].append(word)
        else:
            runs.append(([word], end))
    return runs


def _another_paper(words: list[str], end: str) -> bool:
    """Do these words, added to a title, make another paper's: a notice about it ("Correction
    to", "Comments on", "…—Reply"), a part's number ("Part II", "II"), a negation ("Non-…", "…
    is not all you need", "anti-de Sitter"), a sequel ("… revisited", "…: the second part"), a
    version ("Llama 3", "DeepSeek-V3 Technical Report") or another thing beside the title's
    ("Upper and lower bounds", "Upper & lower bounds", "Upper/lower bounds")?"""
    if _NUMBERED in words or (end != "end" and _negated(words, end)) or _sequel(words, end):
        return True  # "…: Part II", "… is not all you need", "Non-Hermitian band theory"
    beside = not _BESIDE.isdisjoint(words) and not _SMALL.issuperset(words)  # "and" for ":"
    if end == "within":
        return beside or any(_VERSION.fullmatch(w) for w in words)  # "Keye-VL 1.5 …"
    # "Upper and lower bounds" for "Lower bounds": only the run within had been another paper.
    # A slash only so: "Misinformation on Twitter/X" is "… on X".
    if end == "start" and words[-1] in _BESIDE | {_SLASH} and not _SMALL.issuperset(words):
        return True
    # A version number ending the title had been no part's (those are Roman): "Llama 3" and
    # "Llama", "Kimi K2", "… agents 2.0" one paper; a year alone is a venue's, "X (2024)".
    if end == "end" and all(_VERSION.fullmatch(w) and not _YEAR.fullmatch(w) for w in words):
        return True
    return frames(words, end)


def _negated(words: list[str], end: str) -> bool:
    """Do the added words negate the title: within, any negation; at the start, "Non-…",
    "Anti-…" or a lone "Not", not a head that ends so ("Believe It or Not: X") nor one with a
    "non-" in it: "Metals versus Non-metals: X" had been another paper than "X". Within, "anti"
    too, and before the title's word a prefix no word of its own ("semi supervised"): "Black
    holes in anti-de Sitter space" had been "… in de Sitter space" (reg34)."""
    if end == "start":
        return words[0] in ("non", "anti") or words in (["not"], ["no"]) or words[-1] in _PREFIXES
    return not _NEGATIONS.isdisjoint(words) or words[-1] in _PREFIXES


def _sequel(words: list[str], end: str) -> bool:
    """Do the words make the title a sequel's: the run added next to the title is the sequel's
    word itself ("X revisited", "Revisiting X", "X: the second part"), small words aside, or
    opens with it at the end ("X revisited: a benchmark study", "X reloaded: faster")? Taken as
    a subtitle grown, those had been copies of X, never sent (reg38). One inside a grown
    subtitle is the subtitle's ("X: Mass Function Revisited"), and "continued", "sequel" are
    words too ("… via continued pretraining"): anywhere, they had made a copy another (reg36)."""
    told = tuple(w for w in words if w not in _SMALL)
    if end == "within" or not told:
        return False
    if end == "end" and any(tuple(words[: len(p)]) == p for p in _OPENS_SEQUEL):
        return True
    parts = not (_PARTS.isdisjoint(told) or _ORDINAL.isdisjoint(told))  # "the second part"
    return told in _SEQUELS[end] or (parts and (_PARTS | _ORDINAL).issuperset(told))


# The sequel's words at either end of a title: "Revisiting X", "A sequel to X", "X reloaded",
# "X, continued" (not "Continued pretraining of …"), "X strikes back"
_SEQUELS = {
    where: frozenset(tuple(phrase.split()) for phrase in phrases.split(","))
    for where, phrases in (
        ("start", "revisiting,revisit,revisited,rethinking,reconsidering,sequel"),
        ("end", "revisited,reloaded,redux,reconsidered,rethought,continued,sequel,strikes back"),
    )
}
_OPENS_SEQUEL = _SEQUELS["end"] - {("continued",), ("sequel",)}
_PARTS = frozenset("part parts".split())
_ORDINAL = frozenset(ORDINALS)
_BESIDE = frozenset("and or nor versus vs".split())
# A prefix that is no word of its own, added before a word, or "anti" within ("in anti de
# Sitter space" is no "de Sitter space")
_PREFIXES = frozenset("non anti semi pseudo quasi multi".split())
_NEGATIONS = frozenset("not no non anti without never".split())
_VERSION = re.compile(r"\d+|[a-z]\d\d?")  # "1.5" is "1", "5"; "V3", "K2", not "x2019"
_YEAR = re.compile(r"(?:19|20)\d\d")


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
_SMALL = _SWAPPED | _BESIDE | frozenset(f"is as an {_SLASH}".split())
_ENDINGS = ("ations", "ation", "ions", "ion", "ings", "ing", "ed", "es", "s", "e")


def _endings_off(word: str) -> set[str]:
    """The word, and without each ending a verb or its noun may take, leaving 5+ letters."""
    return {word} | {
        word[: -len(e)] for e in _ENDINGS if word.endswith(e) and len(word) - len(e) >= 5
    }


def _where(short: list[str], long: list[str], typos: bool) -> dict[str, set[int]]:
    """Each word of `short` with the places in `long` of the words it is: one stem, or one
    spelling as a whole form ("catalogue", "haemorrhage", "12": spellings.py), or as it is with
    one letter added (not in front: "asymmetric" is no "symmetric"), dropped, swapped with its
    neighbour (_one_edit) or an s for a z ("colour", "centre", "optimise"; words of 5+
    letters). Any other letter for another is another word: "adsorption" and "absorption",
    "proton" and "photon"; nor is a spelling one edit from a word: "analogue" (analog) had been
    "analogy", "maestro" (mestro) "metro". A slash is "and" or "or" ("Upper/lower"). Found by
    what is left of each word with a letter cut, not by comparing each word with each: an
    800-word pair had taken 14 s."""
    by_stem: dict[str, set[int]] = {}
    by_cut: dict[str, set[int]] = {}
    for j, word in enumerate(long):
        for stem in stems(word):
            by_stem.setdefault(stem, set()).add(j)
        for cut in _cuts(word):
            by_cut.setdefault(cut, set()).add(j)
    where: dict[str, set[int]] = {}
    for word in set(short):
        alike = stems(word) | _ALIKE.get(word, frozenset())
        found = set().union(*(by_stem.get(stem, ()) for stem in alike))
        near = {j for cut in _cuts(word) for j in by_cut.get(cut, ())}
        where[word] = found | {j for j in near - found if _one_edit(word, long[j], typos)}
    return where


_ALIKE = {_SLASH: frozenset({"and", "or"}), "and": frozenset({_SLASH}), "or": frozenset({_SLASH})}


@functools.lru_cache(maxsize=1 << 14)
def _cuts(word: str) -> frozenset[str]:
    """The word and the word with each letter cut, if it has 5+ letters: two words one edit
    apart share one."""
    if len(word) < 5:
        return frozenset()
    return frozenset({word} | {word[:i] + word[i + 1 :] for i in range(len(word))})


def _one_edit(a: str, b: str, typos: bool) -> bool:
    """Are the words one edit apart as a copy editor's or a British spelling is: a letter added
    within or dropped, an s for a z, "re" for "er" at the end ("centres"), and (the same
    people's: `typos`) two neighbours swapped ("Grpah"). Swapped, two titles had made
    "causal" and "casual", "trial" and "trail" one word: other people's papers."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1 or a == b:
        return a == b
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):  # a letter in front is a prefix: "Asymmetric", "Atypical", "Abiotic"
        return i > 0 and a[i:] == b[i + 1 :] and a != b[1:]  # "aarabic" had been "arabic"
    if a[i + 1 :] == b[i + 1 :]:  # one letter for another
        return {a[i], b[i]} == {"s", "z"}
    if a[i] != b[i + 1] or a[i + 1] != b[i] or a[i + 2 :] != b[i + 2 :]:
        return False
    return typos or ({a[i], b[i]} == {"r", "e"} and a[i + 2 :] in ("", "s"))


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
