"""A reader's words in the other spellings that papers write: a phrase joined or split
("pre training", "pretraining"), a Greek letter named or written ("β-decay", "beta decay"), a
unit's acronym in capitals for a reader who writes it in small letters ("kv cache", "KV cache"),
a noun in the singular or the plural ("labor markets", "labor market")."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp

from digest.ranking import tokens
from digest.ranking.cases import OTHER_CASE, alone, cased_words
from digest.ranking.plurals import cased, other
from digest.ranking.tokens import GREEK, LETTER_NAMES, analyze
from digest.ranking.units import UNIT_ACRONYM, name_digits, unit_case

if TYPE_CHECKING:
    from digest.ranking.features import Space


def spread(space: Space, texts: Sequence[str], rows: sp.csr_matrix) -> sp.csr_matrix:
    """The texts' rows with each column's weight also on its other spellings' columns, as their
    own idf weighs them but never above the word's own: a rare spelling (a line-broken
    "mathemati cal", in two papers) would take most of the reader's word's weight. A paper
    writes one spelling; the reader means both."""
    capital = [_capitalized(text) for text in texts]
    if capital != list(texts):
        rows = rows.maximum(space.transform(capital))
    rows = other_case(space, texts, rows)
    rows = _numbered(space, rows)
    present = np.unique(rows.indices).tolist()
    other = {c: v for c in present if (v := _respelled(space, str(space.names[c])))}
    return rows.maximum(rows @ _move(space, other)) if other else rows


def other_case(space: Space, texts: Sequence[str], rows: sp.csr_matrix) -> sp.csr_matrix:
    """The readers' rows (one per text) with each mixed-case word's small-letter column (which
    the analyzer gives it too) at OTHER_CASE of its weight, where the text writes that word in
    its mixed case alone: what a paper that writes it in another case earns."""
    vocabulary = space.vocabulary
    cells = [
        (i, twin)
        for i, text in enumerate(texts)
        for word in set(cased_words(text))
        if word in vocabulary and alone(text, word)
        for twin in (vocabulary.get(word.lower()), vocabulary.get(word.lower() + "s"))
        if twin is not None
    ]
    if not cells:
        return rows
    mask = sp.csr_matrix(
        (np.ones(len(cells)), ([i for i, _ in cells], [c for _, c in cells])), shape=rows.shape
    )
    return (rows - rows.multiply(mask) * (1 - OTHER_CASE)).tocsr()


def _numbered(space: Space, rows: sp.csr_matrix) -> sp.csr_matrix:
    """The rows with each term's weight shared with its other number's (numbers()), so that
    the two weigh together as the term did alone: each of three keywords "graph neural
    networks", ... spread to both numbers at full weight, a plural keyword had outweighed the
    others (bench: keywords only, tune -0.05 P@10)."""
    vocabulary = space.vocabulary
    present = np.unique(rows.indices).tolist()
    other = {
        c: found
        for c in present
        if (found := [v for f in numbers(str(space.names[c])) if (v := vocabulary.get(f))])
    }
    if not other:
        return rows
    move = _move(space, other)
    keep = 1 / np.sqrt(1 + np.asarray(move.multiply(move).sum(axis=1)).ravel())
    shared = (rows @ sp.diags(keep)).tocsr()
    return shared.maximum(shared @ move)


def _capitalized(text: str) -> str:
    """The text with a unit's letters that the reader wrote in small letters, not after a
    number, in capitals: their "mpc", "kv cache" mean the acronyms MPC, KV too (papers write
    them in capitals, units.unit_capitals), their "Mpc" and "100 mpc" the unit alone. A capital
    first is a sentence's or a Title Case keyword's: "Mt-Bench", "Kv cache" mean the small
    letters' both (the unit's own spelling aside), and so does a word after a name's digits
    ("gpt-4 mt"). "Mt-Bench" had been the unit's word "mt" only: no MT-Bench paper (reg37 F6)."""
    return _SMALL_WORD.sub(_acronym, text)


def _acronym(match: re.Match[str]) -> str:
    word = match[0]
    return word.upper() if UNIT_ACRONYM.fullmatch(word.lower()) and not unit_case(word) else word


_SMALL_WORD = re.compile(rf"(?<![\w.])(?:(?<!\d )|{'|'.join(name_digits())})[A-Z]?[a-z]+(?!\w)")


def _move(space: Space, other: dict[int, list[int]]) -> sp.csr_matrix:
    pairs = [(c, v) for c, vs in other.items() for v in vs]
    source, target = (np.array(side, np.int64) for side in zip(*pairs, strict=True))
    ratio = np.minimum(1.0, space.idf[target] / space.idf[source])
    return sp.csr_matrix((ratio, (source, target)), shape=(space.size, space.size))


def _respelled(space: Space, term: str) -> list[int]:
    """The vocabulary's columns of the other spellings of a term: a word split into a phrase of
    two words, a phrase of two words joined into one, a Greek letter named or written."""
    vocabulary = space.vocabulary
    first, _, second = term.partition(" ")
    if second:
        joined = vocabulary.get(first + second)
        found = [] if joined is None or " " in second else [joined]
    else:
        cut = (f"{term[:i]} {term[i:]}" for i in range(2, len(term) - 1))
        found = [c for phrase in cut if (c := vocabulary.get(phrase)) is not None]
    greek = (vocabulary.get(form) for form in greek_spellings(term))
    return found + [c for c in greek if c is not None]


def numbers(term: str) -> list[str]:
    """The term with its last word in the other number, singular or regular plural: a reader's
    "labor markets" had met none of the papers on the "labor market" (their top five at 3 to 77,
    "why: labor"), and "smart contract" ranked a pothole paper above one on "smart contracts"
    (rank23 F1), while an exclude rule read both. As rules.py reads a rule's last word
    (plurals.other); a word joined by a hyphen by its letters after it: "x-rays" had been no
    plural of "x-ray" (rank24 F4)."""
    head, _, last = term.rpartition(" ")
    joined, hyphen, tail = last.rpartition("-")
    forms = [joined + hyphen + cased(tail, form) for form in other(tail.lower())]
    return [f"{head} {form}" if head else form for form in forms]


def greek_spellings(term: str) -> tuple[str, ...]:
    """The term with its Greek letters spelled as names, or its names as letters, as the
    analyzer reads each: a reader's "β-decay" is the papers' "beta decay", "alpha helix" their
    "α-helix", "Hα" their "H-alpha". A form the analyzer reads only in part is none."""
    return _greek_spellings(term, id(vars(tokens)["STOP_WORDS"]))  # a benchmark may swap them


@functools.lru_cache(maxsize=1 << 16)  # readers share most terms: a run asks for each once
def _greek_spellings(term: str, _stop_words: int) -> tuple[str, ...]:
    if unit(term):
        return ()
    if any(c in LETTER_NAMES for c in term):
        named = "".join(LETTER_NAMES.get(c, c) for c in term)
        hyphened = "".join(f"-{LETTER_NAMES[c]}-" if c in LETTER_NAMES else c for c in term)
        forms = {named, re.sub("-+", "-", hyphened).strip("-")}
    else:
        parts = re.split("[ -]", term)
        lettered = [GREEK.get(p, p) for p in parts]
        forms = {"-".join(lettered), "".join(lettered)} if lettered != parts else set()
    found = []
    for form in sorted(forms):
        best = max(analyze(form), key=len, default="")
        if best and best != term and _BARE.sub("", best) == _BARE.sub("", form):
            found.append(best)
    return tuple(dict.fromkeys(found))


_BARE = re.compile("[ -]")


def unit(word: str) -> bool:
    """Is the word a unit with the prefix micro ("μm", "μs", "µg", "μmol")? Its letter spelled
    out makes another word ("mum", "mus"), which a rule or a reader's keyword had matched. Other
    letters before a name ("κB", "ΔG") and μ before what is no unit ("μSR", "μP", "μCT") are
    still spelled ("NF-kappaB", "deltaG", "muSR")."""
    return word[:1] in "\u03bc\u00b5" and len(word) > 1 and word[1:].lower() in _MICRO_UNITS


# SI units and the few others written with micro in papers (μJy, μas in astronomy); not C, which
# is also μC, a microcontroller, nor sr, P, CT: μSR, μP, μCT are names.
_MICRO_UNITS = frozenset("m s g l a v w f h j k n t pa hz mol ev gy sv bq ci jy as rad bar".split())
