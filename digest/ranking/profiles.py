"""A subscriber's profile in the TF-IDF space: one Rocchio vector of interests, keywords, liked
and disliked papers; the author weights."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from digest.models import Paper, Subscriber
from digest.ranking import eponyms, wishes
from digest.ranking.features import Space, normalize
from digest.ranking.followed import Followed
from digest.ranking.tokens import author_key

KEYWORD_WEIGHT = 1.5  # keywords are the subscriber's explicit wish: they outweigh free text
# ... word for word: the keywords' part weighs at most their share of the reader's words, by
# their tf x idf against the interests text's. A one-word keyword weighed 1.5 against a whole
# text: `keywords = ["quantum"]` beside a text on spin liquids gave 0 of 10 spin-liquid papers
# (a quantum painting tool first), where the text alone gave 7.
KEYWORDS_BY_WORDS = True
# ... unless the keyword is precise: its rarest word at least as rare as the text's words are on
# average (idf against their tf x idf-weighted mean idf). Such a keyword narrows the text
# ("nickelate" beside a paragraph on superconductors) and weighs as much as the whole text: a
# paper holding only the keyword ties one that matches only the text. By the share alone it had
# counted for a few per cent of the profile (bench/results/README.md: a text and one precise
# keyword, tune +0.07 to +0.23 nDCG@10; at 1.5 more, but an acronym's namesake in another field
# came into the top 10).
PRECISE_WEIGHT = 1 / KEYWORD_WEIGHT
DISLIKED_WEIGHT = 0.5  # Rocchio's negative share: papers rated down pull the profile away
# A Rocchio step for an interest that meets many of today's papers: the background's mean (the
# stored corpus, or what was fitted) is an implicit negative, so words every paper shares count
# for less than words that set a paper apart. Its weight grows up to POOL_WEIGHT at POOL_MIN
# papers holding one of the interest's heavy words (product._sharing), a ramp and not a step:
# on a small pool it hurts. (Pseudo relevance feedback, which expanded the profile with its best
# papers from 300 such papers on, was dropped: nothing on tune gained from it.)
POOL_MIN = 300
POOL_WEIGHT = 0.5
# A heavy word of an interest weighs at least this share of its heaviest. Counting every word,
# the astro-ph papers among 5,230 that say "learning" raised a federated learning reader's
# centroid weight and reordered 71 of the reader's top 100 (bench/results/README.md: tune and
# report within their noise at 0.5; 0.75 and 1.0 lose the focused pool).
HEAVY = 0.5
AUTHOR_BOOST = 0.15  # added to the score of a paper by a followed author, per such author
# An author of several liked papers is a taste; of one, a coincidence (and names collide).
# Times the share of the liked papers that author wrote. 0.2 sat on the knee (0.1 loses a third of
# the author task's Recall@10 on tune); 0.3 to 1.0 are equal within 0.002 there (bench/authors.py).
LIBRARY_AUTHOR_BOOST = 0.4
LIBRARY_AUTHOR_MIN = 2
# A liked paper of more authors than this (a collaboration's, a data release) names no author of
# the library: two IceCube papers made 413 people such authors, and a new IceCube paper scored 165.
CROWD = 50
# Beside a rare co-author of every liked paper a prolific one ("Jun Wang" on 25 of a month's
# papers, "Cheng Deng" on 3) took the digest with on-topic papers that were not the reader's
# author's. With a stored corpus, a library author's weight is times 2 / sqrt(the name's papers
# per NAME_PER stored papers, at least 1): counted on the store, not today's pool, it means one
# thing on any day (bench/authors.py STORED: tune Recall@5 0.980 against 0.969, report 0.945
# against 0.923; today's pool counts gained less). NAME_PER is the tune split's month of papers.
NAME_PER = 6_704
NAME_MOST = 2.0


def group_sum(rows: sp.csr_matrix, columns: list[int], owners: list[int], n: int) -> sp.csr_matrix:
    """Sum of the given rows per owner; normalizing the sum later equals normalizing the mean."""
    pick = sp.csr_matrix(
        (np.ones(len(columns)), (owners, columns)), shape=(n, rows.shape[0]), dtype=rows.dtype
    )
    return normalize(pick @ rows)


def disliked_part(
    docs: sp.csr_matrix,
    subscribers: Sequence[Subscriber],
    library_rows: list[list[int]],
    disliked_rows: list[list[int]],
) -> sp.csr_matrix:
    """Each subscriber's Rocchio negative, as it is subtracted from every row of its profile:
    DISLIKED_WEIGHT x the normalized mean of its rated-down papers (0 without any)."""
    owners = [i for i, rows in enumerate(disliked_rows) for _ in rows]
    mean = group_sum(docs, [r for rows in disliked_rows for r in rows], owners, len(subscribers))
    return DISLIKED_WEIGHT * mean


def rocchio(positive: sp.csr_matrix, negative: sp.csr_matrix) -> sp.csr_matrix:
    """A profile row (or rows) from its positive part and its negative (disliked_part), its words
    clipped at zero, as Rocchio's are: a down lowers the words it shares with what the reader
    wants and gives no word a weight below zero. A day's downs are its top papers, near the liked
    ones, so their other words are the liked papers' own field's: weighed below zero, they sank
    the field's papers (ratings from one liked paper on the holdout split's small fields, day 2:
    -0.050 against no ratings; clipped, +0.018; `- negative weights clipped` in bench.ideas
    --ratings)."""
    out = (positive - negative).tocsr()
    out.data = np.maximum(out.data, 0.0)
    out.eliminate_zeros()
    return normalize(out)


def profiles(
    space: Space,
    docs: sp.csr_matrix,
    subscribers: Sequence[Subscriber],
    library_rows: list[list[int]],
    disliked_rows: list[list[int]],
    negative: sp.csr_matrix | None = None,
) -> sp.csr_matrix:
    """Each subscriber's Rocchio vector; negative: its disliked_part, when already made (of its
    whole library, when `library_rows` are only a part of it)."""
    n = len(subscribers)
    interests = eponyms.rows(space, wishes.interests(subscribers))
    phrases = [(i, kw) for i, s in enumerate(subscribers) for kw in s.profile.keywords]
    keywords = sp.csr_matrix(interests.shape, dtype=interests.dtype)
    if phrases:
        keywords = _keywords(space, subscribers, phrases)

    def mean(groups: list[list[int]]) -> sp.csr_matrix:
        owners = [i for i, rows in enumerate(groups) for _ in rows]
        return group_sum(docs, [r for rows in groups for r in rows], owners, n)

    if negative is None:
        negative = disliked_part(docs, subscribers, library_rows, disliked_rows)
    profile = rocchio(interests + keywords + mean(library_rows), negative)
    profile = profile.tocsr()
    profile.sort_indices()
    return profile


def _keywords(
    space: Space, subscribers: Sequence[Subscriber], phrases: list[tuple[int, str]]
) -> sp.csr_matrix:
    """Each subscriber's keywords' part: KEYWORD_WEIGHT x the sum of its keywords' unit rows,
    each at its weight (_keyword_weights), over the length the sum has at weight 1."""
    rows = eponyms.rows(space, [kw for _, kw in phrases])
    owners = [i for i, _ in phrases]
    ones = np.ones(len(phrases))
    weight = _keyword_weights(space, subscribers, phrases) if KEYWORDS_BY_WORDS else ones
    length = _magnitude(_per_owner(ones, owners, len(subscribers)) @ rows)
    summed = _per_owner(weight, owners, len(subscribers)) @ rows
    scale = np.divide(KEYWORD_WEIGHT, length, out=np.zeros_like(length), where=length > 0)
    return (sp.diags(scale) @ summed).tocsr()


def _per_owner(values: np.ndarray, owners: Sequence[int], n: int) -> sp.csr_matrix:
    """The n x len(owners) matrix that sums rows (one per keyword) per owner, each times its
    value."""
    return sp.csr_matrix((values, (owners, range(len(owners)))), shape=(n, len(owners)))


def _keyword_weights(
    space: Space, subscribers: Sequence[Subscriber], phrases: list[tuple[int, str]]
) -> np.ndarray:
    """Per keyword, its weight against its subscriber's interests text: 1 for a precise keyword
    or without a text, else the keywords' share of the words (their tf x idf magnitudes' ratio
    against the text's, at most 1)."""
    owners = np.array([i for i, _ in phrases])
    text_rows = space.transform(wishes.interests(subscribers), unit=False)
    text = _magnitude(text_rows)
    rows = space.transform([kw for _, kw in phrases], unit=False)
    summed = _per_owner(np.ones(len(owners)), list(owners), len(subscribers)) @ rows
    share = np.ones(len(subscribers))
    has_text = text > 0
    share[has_text] = np.minimum(1.0, _magnitude(summed)[has_text] / text[has_text])
    weight: np.ndarray = share[owners]
    if PRECISE_WEIGHT:
        single = sp.diags(space.single_words)  # a phrase is rarer than its words: no measure
        common = _mean_idf(space, text_rows @ single)
        precise = has_text[owners] & (_max_idf(space, rows @ single) >= common[owners])
        weight[precise] = np.maximum(weight[precise], PRECISE_WEIGHT)
    return weight


def _max_idf(space: Space, rows: sp.csr_matrix) -> np.ndarray:
    """Each row's rarest word's idf (0 for an empty row)."""
    held = (rows > 0).astype(np.float64) @ sp.diags(space.idf)
    return np.asarray(held.max(axis=1).toarray(), dtype=np.float64).ravel()


def _mean_idf(space: Space, rows: sp.csr_matrix) -> np.ndarray:
    """Each row's idf, averaged over its words by their tf x idf (0 for an empty row)."""
    weight = np.asarray(rows.sum(axis=1), dtype=np.float64).ravel()
    idf = rows @ space.idf  # rows: tf x idf per word
    out: np.ndarray = np.divide(idf, weight, out=np.zeros_like(weight), where=weight > 0)
    return out


def _magnitude(rows: sp.csr_matrix) -> np.ndarray:
    squares = np.asarray(rows.multiply(rows).sum(axis=1), dtype=np.float64).ravel()
    root: np.ndarray = np.sqrt(squares)
    return root


def name_counts(papers: Iterable[Paper], into: Counter[str] | None = None) -> Counter[str]:
    """How many of `papers` each author name (key) is on, added to `into` if given."""
    counts = Counter() if into is None else into
    counts.update(author_key(a) for p in papers for a in {*p.authors})
    return counts


def frequent(counts: Mapping[str, int], docs: int) -> dict[str, int]:
    """The names of `counts` (over `docs` papers) common enough to weigh less than NAME_MOST: on
    more than one of every NAME_PER papers. A stored space keeps these alone."""
    return {k: c for k, c in sorted(counts.items()) if _rate(c, docs) > 1}


def _rate(count: int, docs: int) -> float:
    # A store of fewer than NAME_PER papers counts as is: one paper in 1,000 is no evidence of
    # 6.7 in 6,704 (the liked papers are often stored, so each library author has some).
    return count * NAME_PER / max(docs, NAME_PER)


def specificity(named: Mapping[str, int] | None, docs: int, key: str) -> float:
    """The factor of a library author's weight: 1 without counts (no stored corpus)."""
    if named is None:
        return 1.0
    return NAME_MOST / math.sqrt(max(1.0, _rate(named.get(key, 0), docs)))


class Authors(NamedTuple):
    """The author columns of the score product."""

    weights: sp.csr_matrix  # subscribers x authors (library, then followed): their weights
    written: sp.csr_matrix  # papers x authors: ones
    by_key: list[dict[str, float]]  # per subscriber, author key -> weight (followed: its own key)
    library: sp.csr_matrix  # subscribers x authors: the part of `weights` the liked papers give


def authors(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    liked: list[list[Paper]],
    space: Space | None = None,
) -> Authors:
    """Author columns for `papers`; the library authors' weights by their names' specificity
    among `space`'s papers (a store's, or the built-in background's). A library author is its
    exact key's column, shared; a followed name has a column of its reader's (followed.py)."""
    named, docs = (space.named, space.named_docs) if space is not None else (None, 0)
    weights: list[dict[str, float]] = []
    libraries = [_library(lib, named, docs) for lib in liked]
    for s, own in zip(subscribers, libraries, strict=True):
        mine = {author_key(name): AUTHOR_BOOST for name in s.profile.authors}
        for key, w in own.items():
            mine[key] = mine.get(key, 0.0) + w
        weights.append(mine)
    index = {key: i for i, key in enumerate(sorted({k for w in libraries for k in w}))}
    follows = _Follows(subscribers, len(index))
    width = len(index) + len(follows.cells)

    def columns(cells: list[tuple[int, int, float]]) -> sp.csr_matrix:
        return sp.csr_matrix(
            ([w for *_, w in cells], ([c[0] for c in cells], [c[1] for c in cells])),
            shape=(len(subscribers), width),
        )

    own_cells = [(si, index[k], w) for si, ws in enumerate(libraries) for k, w in ws.items()]
    hits: list[tuple[int, int]] = []
    if width:
        seen: dict[str, tuple[int, ...]] = {}  # tuples: most are (), and 150,000 lists slow GC
        for j, p in enumerate(papers):
            for name in p.authors:
                found = seen.get(name)
                if found is None:
                    key = author_key(name)
                    found = (index[key],) if key in index else ()
                    if follows.cells:
                        found += follows.columns(name, key)
                    seen[name] = found
                if found:
                    hits.extend((j, column) for column in found)
    hits = sorted(set(hits))
    written = sp.csr_matrix(
        (np.ones(len(hits)), ([j for j, _ in hits], [c for _, c in hits])),
        shape=(len(papers), width),
    )
    return Authors(columns(own_cells + follows.cells), written, weights, columns(own_cells))


def _library(lib: Sequence[Paper], named: Mapping[str, int] | None, docs: int) -> dict[str, float]:
    """A reader's library authors (of LIBRARY_AUTHOR_MIN liked papers) -> their weights."""
    counts: dict[str, int] = {}
    for p in lib:
        if len(p.authors) > CROWD:
            continue
        for key in {author_key(a) for a in p.authors}:
            counts[key] = counts.get(key, 0) + 1
    return {
        key: LIBRARY_AUTHOR_BOOST * count / len(lib) * specificity(named, docs, key)
        for key, count in counts.items()
        if count >= LIBRARY_AUTHOR_MIN
    }


class _Follows:
    """The followed names' columns, after the library authors' `first`: one per reader and
    followed key, of weight AUTHOR_BOOST. A paper's author lifts each reader once whichever of its
    followed names it is: a reader following "J. Doe" and "Jane Doe" (one person, two
    spellings) had got the boost twice for a "Jane Doe" once both matched her."""

    def __init__(self, subscribers: Sequence[Subscriber], first: int) -> None:
        self.cells: list[tuple[int, int, float]] = []
        self.of_key: dict[str, list[tuple[int, int]]] = {}
        for si, s in enumerate(subscribers):
            for key in sorted({author_key(name) for name in s.profile.authors}):
                self.of_key.setdefault(key, []).append((si, first + len(self.cells)))
                self.cells.append((si, first + len(self.cells), AUTHOR_BOOST))
        self.matcher = Followed(n for s in subscribers for n in s.profile.authors)

    def columns(self, name: str, key: str) -> tuple[int, ...]:
        """A paper's author's followed columns (`key`: its author_key): per reader, the column
        of the first followed name it is."""
        found: dict[int, int] = {}
        for followed in self.matcher.of(name, key):
            for si, column in self.of_key[followed]:
                found.setdefault(si, column)
        return tuple(found.values())
