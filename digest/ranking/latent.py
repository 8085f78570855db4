"""The latent component: a TruncatedSVD basis of TF-IDF rows (the stored corpus's, kept with the
stored space, or the built-in background's), and the reorder of each interest's best papers by
words by how close they are to the interest in it (papers of one topic can share few words) and
how far from the papers its reader rated down."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

COMPONENTS = 100
# Each interest's best papers by words, at least this many, are reordered by score + WEIGHT x
# their latent cosine with the interest (tune split: 0.2-0.4 gain on every pool size from 100
# to 6,704; 0.4 loses the focused pool; bench/results/README.md). A depth of 30 measured as 100
# and 200 did on every tune task (within 0.004) at a third of the products' extra work.
DEPTH = 30
WEIGHT = 0.3
# A column of fewer sampled papers than this gets no latent direction: rare words carry 1% of
# the basis's weight and most of its size.
MIN_DF = 5
ROWS = 20_000  # the basis is fitted on an even sample of at most this many rows
PAIRS_AT_ONCE = 20_000  # (interest, paper) pairs whose latent rows are gathered at a time
# A paper like one the reader rated down sinks: the latent order's key loses this times its
# cosine with the closest such paper. A Rocchio mean of downs on several topics cancels out, but
# "not this kind of paper" is what a single down says (bench/ratings.py, day 4, without the
# feedback step it was chosen with: tune -0.005 / +0.009, report +0.034 / +0.013 from an
# interests text / one liked paper; 0.45 to 1.0 no better).
DISLIKED_NEAR = 0.3
NEAR_AT_ONCE = 64  # interests whose pairs meet their rated-down papers in one product
# The score of a paper the latent order reaches is its key as a weighted mean of the two cosines,
# (words + WEIGHT x latent) / (1 + WEIGHT), so that a list's scores fall as its order does; a
# paper sharing a word scores at least this much (/ (1 + WEIGHT)), above every one that shares none.
LEAST = 1e-6
# Each interest row loses this share (times the centroid's ramp: full on a day of POOL_MIN papers
# on its topic, slight on a small one) of its projection on the basis, word by word (whitened()).
# Chosen on tune and the small-fields split (bench/results/README.md).
WHITEN = 0.5
WHITEN_ROWS = 2_000  # interest rows whitened at a time


@dataclass(frozen=True)
class Basis:
    columns: np.ndarray  # the space's columns that have a direction
    vectors: np.ndarray  # len(columns) x components, float32

    def project(self, rows: sp.csr_matrix) -> np.ndarray:
        """Rows of the space as l2-normalized latent vectors (0 for a row with no such column)."""
        z = np.asarray(rows[:, self.columns].astype(np.float32) @ self.vectors)
        norms = np.linalg.norm(z, axis=1, keepdims=True)
        unit: np.ndarray = z / np.maximum(norms, 1e-12)
        return unit


def fit(rows: sp.csr_matrix) -> Basis | None:
    """The basis of a corpus's l2-normalized rows; None when it has too few rows or columns."""
    df = np.bincount(rows.indices, minlength=rows.shape[1])
    columns = np.flatnonzero(df >= MIN_DF)
    k = min(COMPONENTS, len(columns) - 1, rows.shape[0] - 1)
    if k < 2:
        return None
    from sklearn.decomposition import TruncatedSVD  # only a stored space's fit needs it

    sample = rows[:: math.ceil(rows.shape[0] / ROWS)][:, columns]
    with warnings.catch_warnings():  # its explained variance of a tiny corpus can divide by 0
        warnings.simplefilter("ignore", RuntimeWarning)
        svd = TruncatedSVD(k, random_state=0).fit(sample)
    return Basis(columns, svd.components_.T.astype(np.float32))


def whitened(vectors: sp.csr_matrix, basis: Basis | None, share: np.ndarray) -> sp.csr_matrix:
    """Interest rows with each word's weight less share[i] x its part of the row's projection on
    the basis (the corpus's principal directions), l2-normalized; words only lose weight (none
    below 0), and a row of share 0 (or no basis) stays as it is. A Fisher discriminant in a few
    lines: what sets an interest's papers apart from the corpus's main axes weighs more than
    where they lie along them, which is what tells a small field from its large neighbours."""
    if basis is None or not np.any(share > 0):
        return vectors
    rows = vectors.tocsr()
    slot = np.full(rows.shape[1], -1, np.int64)
    slot[basis.columns] = np.arange(len(basis.columns))
    data = rows.data.astype(np.float64)
    # A block of rows at a time: what a row's words cost here is held for WHITEN_ROWS rows only.
    for lo in range(0, rows.shape[0], WHITEN_ROWS):
        hi = min(rows.shape[0], lo + WHITEN_ROWS)
        if np.any(share[lo:hi] > 0):
            at = slice(rows.indptr[lo], rows.indptr[hi])
            data[at] = _whitened_block(rows[lo:hi], basis, share[lo:hi], slot)
    out = sp.csr_matrix((data, rows.indices.copy(), rows.indptr.copy()), shape=rows.shape)
    out.eliminate_zeros()
    out.sort_indices()
    return out


def _whitened_block(
    rows: sp.csr_matrix, basis: Basis, share: np.ndarray, slot: np.ndarray
) -> np.ndarray:
    """whitened()'s new data of a block of rows (in the rows' order of entries)."""
    z = np.asarray(rows[:, basis.columns].astype(np.float32) @ basis.vectors)
    z *= share[:, None].astype(np.float32)
    owner = np.repeat(np.arange(rows.shape[0]), np.diff(rows.indptr))
    at = slot[rows.indices]
    cut = np.zeros(rows.nnz)
    inside = np.flatnonzero(at >= 0)
    for lo in range(0, len(inside), PAIRS_AT_ONCE):  # never a dense rows x columns rebuild
        mine = inside[lo : lo + PAIRS_AT_ONCE]
        cut[mine] = np.einsum("ij,ij->i", z[owner[mine]], basis.vectors[at[mine]])
    # A word of a rated-down paper (below 0) is the reader's own "not this": it stays as it is.
    data = np.where(rows.data > 0, np.maximum(rows.data - cut, 0.0), rows.data)
    n = rows.shape[0]
    had = np.bincount(owner, rows.data > 0, minlength=n)
    emptied = (had > 0) & (np.bincount(owner, data > 0, minlength=n) == 0)
    data = np.where(emptied[owner], rows.data, data)  # every word on the axes: kept whole
    norms = np.sqrt(np.bincount(owner, data**2, minlength=n))
    out: np.ndarray = data / np.maximum(norms, 1e-12)[owner]
    return out


def reach(most: int) -> int:
    """How many of an interest's best papers by words ranking needs to pick `most`."""
    return max(most, DEPTH) if most else most


def prior(
    owner: np.ndarray,
    papers: np.ndarray,
    authors: tuple[sp.csr_matrix, sp.csr_matrix, sp.csr_matrix] | None,
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """(the author weight of each (interest owner[k], paper papers[k]) pair, what the score
    product counted beyond it): followed authors add up, but of a paper's library authors only
    the best-weighted counts (0 without any)."""
    if authors is None or not authors[0].nnz:
        return 0.0, 0.0
    weights, written, library = authors
    on = written[papers]
    total = np.asarray(weights[owner].multiply(on).sum(axis=1)).ravel()
    if not library.nnz:
        return total, 0.0
    mine = library[owner].multiply(on).tocsr()
    best = np.asarray(mine.max(axis=1).todense()).ravel()
    excess = np.asarray(mine.sum(axis=1)).ravel() - best
    return total - excess, excess


def nearest_disliked(
    x: sp.csr_matrix,
    docs: sp.csr_matrix,
    disliked: Sequence[Sequence[int]],
    owner: np.ndarray,
    papers: np.ndarray,
) -> np.ndarray:
    """Per (interest owner[k], paper row papers[k] of x) pair, its cosine with the closest of the
    interest's rated-down papers (disliked[i]: their rows of docs); 0 for an interest without."""
    out = np.zeros(len(owner))
    by_owner = np.argsort(owner, kind="stable")
    ends = np.searchsorted(owner[by_owner], np.arange(len(disliked) + 1))
    mine = [i for i, rows in enumerate(disliked) if rows]
    for lo in range(0, len(mine), NEAR_AT_ONCE):
        block = mine[lo : lo + NEAR_AT_ONCE]
        pairs = np.concatenate([by_owner[ends[i] : ends[i + 1]] for i in block])
        if not pairs.size:
            continue
        rows = [r for i in block for r in disliked[i]]
        whose = np.repeat(block, [len(disliked[i]) for i in block])
        cosine = (x[papers[pairs]] @ docs[rows].T).toarray()
        cosine[owner[pairs][:, None] != whose[None, :]] = 0.0  # another interest's downs
        out[pairs] = np.maximum(cosine.max(axis=1), 0.0)
    return out


def fuse(scores: np.ndarray, close: np.ndarray, near: np.ndarray | float) -> np.ndarray:
    """The latent order's key of papers scoring `scores` by words, `close` in the basis (their
    author weight added) and `near` a paper rated down."""
    fused: np.ndarray = scores + WEIGHT * close - DISLIKED_NEAR * near
    return fused


def shared_any(
    profile: sp.csr_matrix, x: sp.csr_matrix, owner: np.ndarray, papers: np.ndarray
) -> np.ndarray:
    """Whether interest owner[k] and paper papers[k] hold a word in common, for every k."""
    out = np.zeros(len(owner), bool)
    for lo in range(0, len(owner), PAIRS_AT_ONCE):
        at = slice(lo, lo + PAIRS_AT_ONCE)
        mine, theirs = profile[owner[at]], x[papers[at]]
        # Copies: a word the interest holds (a rated-down paper's, weighed below 0, is not one
        # it shares) and one the paper holds, as 1, so that none cancels out.
        mine.data[:] = mine.data > 0
        theirs.data[:] = 1.0
        out[at] = np.asarray(mine.multiply(theirs).sum(axis=1)).ravel() > 0
    return out


def _closeness(
    basis: Basis | None,
    x: sp.csr_matrix,
    profile: sp.csr_matrix,
    owner: np.ndarray,
    papers: np.ndarray,
    scores: np.ndarray,
) -> np.ndarray:
    """The latent cosine of every (interest owner[k], paper papers[k]) pair. Where the basis
    holds none of a paper's or an interest's words, or there is none (no background file), it
    says nothing: the words' cosine stands for it, so the score shown is the words' own, not
    1 / (1 + WEIGHT) of it."""
    if basis is None:
        return scores.copy()
    rows, position = np.unique(papers, return_inverse=True)
    mine = x[rows]
    z, zi = basis.project(mine), basis.project(profile)
    position = position.ravel()
    closeness = np.empty(len(papers))
    for lo in range(0, len(papers), PAIRS_AT_ONCE):  # rows gathered for a block of pairs only
        at = slice(lo, lo + PAIRS_AT_ONCE)
        closeness[at] = np.einsum("ij,ij->i", z[position[at]], zi[owner[at]])
    said, says = np.any(z != 0, axis=1), np.any(zi != 0, axis=1)
    # A cosine of projections is blind to length: a title alone would be as close as its whole
    # abstract. Weighed as its words are (a unit row that features.shortened weighed by its
    # brevity is that long), it stays about half as close.
    weight = np.minimum(1.0, np.sqrt(np.asarray(mine.multiply(mine).sum(axis=1)).ravel()))
    close = closeness > 0
    closeness[close] *= weight[position[close]]
    silent = ~said[position] | ~says[owner]
    closeness[silent] = scores[silent]
    return closeness


def reordered(
    best: list[list[tuple[float, int]]],
    basis: Basis | None,
    x: sp.csr_matrix,
    profile: sp.csr_matrix,
    limits: Sequence[int],
    floors: Sequence[float | None],
    authors: tuple[sp.csr_matrix, sp.csr_matrix, sp.csr_matrix] | None = None,
    disliked: tuple[sp.csr_matrix, Sequence[Sequence[int]]] | None = None,
) -> list[list[tuple[float, int]]]:
    """Every interest's best (score, paper row) by words, reordered by score + WEIGHT x (latent
    cosine with the interest + the paper's author weight) - DISLIKED_NEAR x its cosine with the
    closest paper rated down, as (that sum / (1 + WEIGHT), paper row), its best limits[i] that
    score at least floors[i] kept (None: any). `authors`: (interest rows x author columns
    weights, paper rows x author columns ones, the part of the weights the liked papers give);
    `disliked`: (the rows the rated-down papers are in, their rows per interest). A paper that
    shares no word with the interest (ranked without thresholds) stays below every one that
    does, at 0 or less: closeness in the basis alone is no reason to pick it. Only the papers of
    some list are projected, and 10,000 interests are one pass of numpy, not 10,000 small
    products (alerts reorder every paper)."""
    sizes = np.fromiter((len(chosen) for chosen in best), np.int64, count=len(best))
    owner = np.repeat(np.arange(len(best)), sizes)
    flat = [pair for chosen in best for pair in chosen]
    scores = np.fromiter((v for v, _ in flat), np.float64, count=len(flat))
    papers = np.fromiter((j for _, j in flat), np.int64, count=len(flat))
    # The product summed a paper's library authors; a lab's paper then scored the sum of its
    # co-authors' boosts (2.4 and up, an alert whatever its topic). Only the best one counts.
    boost, excess = prior(owner, papers, authors)
    scores = scores - excess
    closeness = _closeness(basis, x, profile, owner, papers, scores)
    # Words and latent closeness are two measures of one topic, fused: an author's weight, added
    # to the first, is scaled with them, or a topic's latent bonus would outweigh it.
    near = 0.0 if disliked is None else nearest_disliked(x, *disliked, owner, papers)
    fused = fuse(scores, closeness + boost, near)
    # Three tiers, each in the order of the key: a score above 0 by words; a word shared all the
    # same (the centroid's part outweighed it: a paper that says only "learning" on a day of many
    # on the topic), at LEAST; no word shared, at 0 or less (the centroid's part alone).
    tier = np.where(scores > 0, 0, 2)
    weak = np.flatnonzero(scores <= 0)
    tier[weak[shared_any(profile, x, owner[weak], papers[weak])]] = 1
    shown = np.select(
        [tier == 0, tier == 1], [np.maximum(fused, LEAST), LEAST], np.minimum(fused, 0.0)
    ) / (1 + WEIGHT)
    order = np.lexsort((np.arange(len(flat)), -fused, tier, owner))  # ties in the order given
    starts = np.concatenate([[0], np.cumsum(sizes)])
    out = []
    for i, (limit, floor) in enumerate(zip(limits, floors, strict=True)):
        mine = order[starts[i] : starts[i + 1]]
        if floor is not None:  # the words' score was held to it already; now the whole score
            mine = mine[shown[mine] >= floor]
        out.append([(float(shown[k]), int(papers[k])) for k in mine[:limit].tolist()])
    return out
