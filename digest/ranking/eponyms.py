"""A reader's named things: "Black-Scholes", "Fama-French", "Kaplan-Meier" are their phrase, not
each name alone, in the rows of the reader's own texts (interests, keywords)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from digest.ranking.features import Space, normalize
from digest.ranking.tokens import analyze

# Capitalised names joined by a hyphen or a dash, as a reader writes an eponym: "Black-Scholes",
# "Bose–Einstein", "Black-Scholes-Merton". One surname is often a word ("black", "french",
# "green", "price"): alone, it had brought a finance reader black-hole papers, "why: matched
# black", and a Fama-French reader French-language ones.
_NAMED = re.compile(
    r"(?<![\w\u2010\u2011\u2013-])[A-Z][a-z]+(?:[\u2010\u2011\u2013-][A-Z][a-z]+)+"
    r"(?![\w\u2010\u2011\u2013-])"
)


def rows(space: Space, texts: Sequence[str]) -> sp.csr_matrix:
    """The texts' rows as Space.spelled makes them, but a named thing's names weigh nothing
    alone where the vocabulary holds its phrase and the text has no other use for them."""
    made = space.spelled(texts)
    cut = [(i, c) for i, text in enumerate(texts) for c in _alone(space, text)]
    if not cut:
        return made
    drop = sp.csr_matrix(
        (np.ones(len(cut)), ([i for i, _ in cut], [c for _, c in cut])), shape=made.shape
    )
    kept = made - made.multiply(drop)
    kept.eliminate_zeros()
    return normalize(kept)


def _alone(space: Space, text: str) -> set[int]:
    """The columns of the text's terms that hold a name of a named thing the vocabulary holds
    as a phrase ("black", "french model" of "the Fama-French model"), but that phrase, less the
    terms the rest of the text uses."""
    inner: set[str] = set()
    for match in _NAMED.finditer(text):
        inner.update(t for t in analyze(match[0]) if " " in t and t in space.vocabulary)
    if not inner:
        return set()
    names = {w for phrase in inner for w in phrase.split(" ")}
    elsewhere = set(analyze(_NAMED.sub(" | ", text)))
    touched = (t for t in analyze(text) if t not in inner and names.intersection(t.split(" ")))
    return {space.vocabulary[t] for t in set(touched) - elsewhere if t in space.vocabulary}
