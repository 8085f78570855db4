"""A reader's named things: "Black-Scholes", "Fama-French", "Kaplan-Meier" are their phrase, not
each name alone, in the rows of the reader's own texts (interests, keywords)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from digest.ranking.features import Space, normalize
from digest.ranking.stopwords import PHRASE_ONLY
from digest.ranking.tokens import analyze

# Names joined by a hyphen or a dash, as a reader writes an eponym: "Black-Scholes",
# "Bose–Einstein", "Black-Scholes-Merton". One surname is often a word ("black", "french",
# "green", "price"): alone, it had brought a finance reader black-hole papers, "why: matched
# black", and a Fama-French reader French-language ones. Names begin with a capital, in Title
# Case or all capitals, and with LaTeX's "--" too ("BLACK-SCHOLES", "Black--Scholes"). Not in
# small letters: "intra-cluster light", "protein-protein interactions", "post-quantum" had lost
# "cluster", "protein", "quantum" (a prefix's phrase is always a small share of its word). Not
# two words apart: "Federated Learning", "Differential Privacy" would lose "learning" and
# "privacy" (1 in 77 and 1 in 20 of their papers), a keyword's own words.
_DASHES = "\u2010\u2011\u2013-"
_CAPITAL = "A-ZÀ-ÖØ-Þ"
# Not two names and a slash: that is more often a choice than a thing ("PyTorch/TensorFlow",
# "Transformer/Mamba"), whose names had been cut: a PyTorch paper met no "PyTorch/TensorFlow"
# reader (reg37 F1). The analyzer's phrase ("ads cft", tokens._NAME_SLASH) is all it adds.
_NAMED = re.compile(
    rf"(?<![\w/{_DASHES}])[{_CAPITAL}][^\W\d_]*(?:(?:--|[{_DASHES}])[{_CAPITAL}][^\W\d_]*)+"
    rf"(?![\w/{_DASHES}])"
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
    terms the rest of the text uses. A name is one only where the thing is a small share of its
    uses (NAMED_SHARE): "agent" of "Multi-Agent", "stokes" of "Navier-Stokes" stay words."""
    inner: set[str] = set()
    for match in filter(_named, _NAMED.finditer(text)):
        inner.update(t for t in analyze(match[0]) if " " in t and t in space.vocabulary)
    names = {w for phrase in inner for w in phrase.split(" ") if _other_word(space, w, phrase)}
    if not names:
        return set()
    elsewhere = set(analyze(_NAMED.sub(lambda m: " | " if _named(m) else m[0], text)))
    touched = (t for t in analyze(text) if t not in inner and names.intersection(t.split(" ")))
    return {space.vocabulary[t] for t in set(touched) - elsewhere if t in space.vocabulary}


def _named(match: re.Match[str]) -> bool:
    """Is a capitalised compound a name's: not a prefix's ("Intra-Cluster Light", as a Title
    Case keyword writes it, had lost "cluster") nor a word twice ("Protein-Protein")?"""
    parts = [p.lower() for p in re.split(rf"--|[{_DASHES}]", match[0])]
    return parts[0] not in PHRASE_ONLY and len(set(parts)) == len(parts)


# Below this share of a word's papers, the named thing is not what the word alone says: "black
# scholes" is 1 in 100 of "black", "fama french" 1 in 20 of "french"; "multi agent" a third of
# "agent", "navier stokes" a quarter of "stokes", "vision language" a sixth of "language" (the
# built-in background's counts). A title-case keyword ("Multi-Agent", "Non-Hermitian") is then
# read as it was: its words and its phrase.
NAMED_SHARE = 0.1


def _other_word(space: Space, word: str, phrase: str) -> bool:
    """Is the word alone mostly another thing than the phrase (their document frequencies'
    ratio, from their idf: ln((1 + n) / (1 + df)) + 1)?"""
    column = space.vocabulary.get(word)
    if column is None:
        return False
    share = math.exp(space.idf[column] - space.idf[space.vocabulary[phrase]])
    return bool(share < NAMED_SHARE)
