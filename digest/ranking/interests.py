"""A profile as several interests: a library of many papers split into groups of like papers (each
its own vector), the interests text and keywords as one more; a paper's score is its best match,
and a digest draws from every interest, in proportion to the liked papers it stands for."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from digest.models import Subscriber
from digest.ranking import profiles as prof
from digest.ranking.features import Space, normalize
from digest.ranking.latent import Basis

# An interest stands for at least this many liked papers: a smaller group is as often a k-means
# fragment of one field as a topic, and joins its closest group (a small topic has the interests
# text and keywords; bench/results/README.md: many interests +0.014 to +0.035 on four tuning
# samples, one-field libraries +0.001 to +0.008).
LEAST = 4
# A library of two such interests may hold several topics; smaller ones stay one interest (one
# vector, as a mean of a few papers is what ranks a single field best).
CLUSTER_MIN = 2 * LEAST
# k = library size // PER_GROUP: a group for every LEAST papers a topic may have. At 5, three
# topics of 4 liked papers (the documented "4+ per topic") made two interests, and the third
# topic's reader got 1 pick of 10 (rank24 F5); the merge and fold below join a field's fragments.
PER_GROUP = LEAST
MAX_GROUPS = 5
# Two papers of one field share few words, so they are grouped by their neighbourhoods: each
# liked paper with the sum of its NEIGHBOURS closest papers of the pool.
NEIGHBOURS = 20
# Groups whose neighbourhood centroids are closer than this are one interest after all (papers of
# one field land near 0.35-0.8, of unrelated fields near 0.1-0.3 in the tuning split).
MERGE_SIMILARITY = 0.4
# Liked papers are grouped where they lie in the latent basis (the store's or the built-in
# background's, latent.py): papers of one field share few words but lie near each other there,
# and the basis is the same whatever today's pool holds. Grouped by their neighbours among
# today's papers, five far fields had been one interest on a day of 100 papers and three on a
# day of 10,000, and 300 unrelated papers took a topic's picks (rank31 F2). Without a basis (no
# background file) the neighbourhoods stand in.
LATENT = True
# Groups whose latent centroids are closer than this are one interest (tune months: centroids of
# 6 papers of one category 0.53-0.92, median 0.72; of two categories 0.14-0.52, median 0.30).
MERGE_LATENT = 0.55
LABEL_TERMS = 3
# A digest draws from each interest in proportion to its liked papers (shares()); False: in turn.
BY_SIZE = True


@dataclass(frozen=True)
class Rows:
    """The product rows of every subscriber's interests."""

    vectors: sp.csr_matrix  # one row per interest
    owner: np.ndarray  # row -> subscriber index
    library: list[list[int]]  # row -> the liked papers (doc rows) it stands for
    labels: list[str]  # row -> how an explanation names it ("" for a subscriber's only row)


def split(
    whole: sp.csr_matrix,
    space: Space,
    docs: sp.csr_matrix,
    x: sp.csr_matrix,
    subscribers: Sequence[Subscriber],
    library_rows: list[list[int]],
    disliked_rows: list[list[int]],
) -> Rows:
    """Every subscriber's interests: its whole profile row when its library is small, else one
    row per group of liked papers plus one for its interests text and keywords."""
    n = len(subscribers)
    many = [si for si in range(n) if len(library_rows[si]) >= CLUSTER_MIN]
    if not many:
        return Rows(whole, np.arange(n), [list(r) for r in library_rows], [""] * n)
    groups = _groups(docs, x, [library_rows[si] for si in many], space.basis)
    dislike = prof.disliked_part(docs, subscribers, library_rows, disliked_rows)
    texts = prof.profiles(space, docs, subscribers, [[] for _ in range(n)], disliked_rows, dislike)
    rows: list[sp.csr_matrix] = []
    owner: list[int] = []
    library: list[list[int]] = []
    labels: list[str] = []
    grouped = {si: g for si, g in zip(many, groups, strict=True) if len(g) > 1}
    for si, s in enumerate(subscribers):
        if si not in grouped:
            rows.append(whole[si])
            owner.append(si)
            library.append(list(library_rows[si]))
            labels.append("")
            continue
        for members in grouped[si]:
            mean = normalize(sp.csr_matrix(docs[members].sum(axis=0)))
            rows.append(prof.rocchio(mean, dislike[si]))
            owner.append(si)
            library.append(members)
            labels.append(_label(rows[-1], space))
        if s.profile.interests.strip() or s.profile.keywords:
            rows.append(texts[si])
            owner.append(si)
            library.append([])
            labels.append("your interests text and keywords")
    vectors = sp.vstack(rows, format="csr")
    vectors.sort_indices()
    return Rows(vectors, np.asarray(owner), library, labels)


def _groups(
    docs: sp.csr_matrix, x: sp.csr_matrix, libraries: list[list[int]], basis: Basis | None = None
) -> list[list[list[int]]]:
    """Each library's papers in groups: k-means over where the papers lie (placed())."""
    from sklearn.cluster import KMeans

    latent = LATENT and basis is not None
    smooth = placed(docs, x, [r for rows in libraries for r in rows], basis)
    limit = MERGE_LATENT if latent else MERGE_SIMILARITY
    out, at = [], 0
    for rows in libraries:
        part = smooth[at : at + len(rows)]
        at += len(rows)
        k = min(MAX_GROUPS, max(2, len(rows) // PER_GROUP))
        with warnings.catch_warnings():  # identical liked papers make fewer distinct groups
            warnings.simplefilter("ignore")
            labels = KMeans(k, n_init=4, random_state=0).fit_predict(part)
        members = [np.flatnonzero(labels == g) for g in range(k)]
        members = _folded(part, _merged(part, [m for m in members if m.size], limit))
        out.append([[rows[i] for i in m] for m in members])
    return out


def placed(
    docs: sp.csr_matrix, x: sp.csr_matrix, rows: list[int], basis: Basis | None
) -> sp.csr_matrix:
    """The docs rows as the grouping reads them: their unit projections on the latent basis,
    or without one their neighbourhoods in the pool x."""
    if LATENT and basis is not None:
        return sp.csr_matrix(basis.project(docs[rows]))
    return neighbourhoods(docs, x, rows)


def neighbourhoods(
    docs: sp.csr_matrix, x: sp.csr_matrix, rows: list[int], own: float = 1.0
) -> sp.csr_matrix:
    """The docs rows' neighbourhood vectors: each row (times `own`) plus its NEIGHBOURS closest
    papers of the pool x, l2-normalized."""
    from sparse_dot_topn import sp_matmul_topn

    near = sp_matmul_topn(docs[rows], x.T, top_n=min(NEIGHBOURS, x.shape[0])).tocsr()
    near.data[:] = 1.0
    return normalize(own * docs[rows] + near @ x)


def _merged(
    vectors: sp.csr_matrix, groups: list[np.ndarray], limit: float | None = None
) -> list[np.ndarray]:
    """The groups, the closest two joined while their centroids are closer than `limit`
    (default MERGE_SIMILARITY)."""
    limit = MERGE_SIMILARITY if limit is None else limit
    while len(groups) > 1:
        centroids = _centroids(vectors, groups)
        close = (centroids @ centroids.T).toarray()
        np.fill_diagonal(close, -np.inf)
        a, b = np.unravel_index(int(np.argmax(close)), close.shape)
        if close[a, b] <= limit:
            break
        groups = _joined(groups, int(a), int(b))
    return groups


def _folded(vectors: sp.csr_matrix, groups: list[np.ndarray]) -> list[np.ndarray]:
    """The groups, each of fewer than LEAST papers (the smallest first) joined to the group whose
    centroid is closest."""
    while len(groups) > 1 and min(g.size for g in groups) < LEAST:
        small = min(range(len(groups)), key=lambda i: groups[i].size)
        centroids = _centroids(vectors, groups)
        close = (centroids @ centroids[small].T).toarray().ravel()
        close[small] = -np.inf
        groups = _joined(groups, small, int(np.argmax(close)))
    return groups


def _centroids(vectors: sp.csr_matrix, groups: list[np.ndarray]) -> sp.csr_matrix:
    return normalize(sp.vstack([sp.csr_matrix(vectors[g].sum(axis=0)) for g in groups]))


def _joined(groups: list[np.ndarray], a: int, b: int) -> list[np.ndarray]:
    """The groups with a and b one, last."""
    rest = [g for i, g in enumerate(groups) if i not in (a, b)]
    return [*rest, np.sort(np.concatenate([groups[a], groups[b]]))]


def _label(row: sp.csr_matrix, space: Space) -> str:
    heaviest = row.indices[np.argsort(-row.data, kind="stable")[:LABEL_TERMS]]
    return ", ".join(str(space.names[c]) for c in heaviest)


def shares(library: Sequence[Sequence[int]]) -> list[float]:
    """Each interest's share of a digest's picks: its liked papers, so that a group of two odd
    papers in a library of fifteen does not take a third of the digest; the interests text and
    keywords (no liked papers) as much as the groups' mean."""
    sizes = [float(len(members)) for members in library]
    grouped = [size for size in sizes if size]
    mean = sum(grouped) / len(grouped) if grouped else 1.0
    return [size if size else mean for size in sizes] if BY_SIZE else [1.0] * len(sizes)


def draw(
    lists: Sequence[Sequence[tuple[float, int]]],
    k: int,
    order: np.ndarray,
    weights: Sequence[float] | None = None,
) -> list[tuple[float, int, int]]:
    """A subscriber's picks from its interests' ranked lists [(score, paper)]: each pick goes to
    the interest of the highest weight / (its picks + 1) (D'Hondt's rule: picks in proportion to
    `weights`, default equal, which is each in turn), ties to the best-matching interest, and it
    gives its best paper not yet drawn, until k. Returns (score, paper, interest) best first,
    ties in paper order; a paper in several lists keeps its best score."""
    best: dict[int, tuple[float, int]] = {}
    for r, ranked in enumerate(lists):
        for score, j in ranked:
            if j not in best or score > best[j][0]:
                best[j] = (score, r)
    if len(lists) == 1:
        return [(s, j, 0) for s, j in lists[0][:k]]
    weight = [1.0] * len(lists) if weights is None else list(weights)
    turns = sorted(range(len(lists)), key=lambda r: -(lists[r][0][0] if lists[r] else -np.inf))
    cursor, taken = [0] * len(lists), [0] * len(lists)
    chosen: dict[int, None] = {}
    while len(chosen) < k:
        for r in turns:  # skip what another interest drew already
            while cursor[r] < len(lists[r]) and lists[r][cursor[r]][1] in chosen:
                cursor[r] += 1
        open_ = [r for r in turns if cursor[r] < len(lists[r])]
        if not open_:
            break
        r = max(open_, key=lambda r: weight[r] / (taken[r] + 1))  # first of equals: turn order
        chosen[lists[r][cursor[r]][1]] = None
        taken[r] += 1
    picked = [(best[j][0], j, best[j][1]) for j in chosen]
    return sorted(picked, key=lambda t: (-t[0], order[t[1]]))
