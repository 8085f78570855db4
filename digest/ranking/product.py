"""The two sides of the score product: the pool's rows (papers, the centroid's column, authors)
and every interest's profile row, with the weight that depends on the pool (prepare())."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from digest.models import Paper, Subscriber
from digest.ranking import background, interests, latent
from digest.ranking import profiles as prof
from digest.ranking.features import Space, fit, paper_text, shortened
from digest.ranking.profiles import authors, profiles
from digest.ranking.wishes import interests as read_interests


def _left(
    profile: sp.csr_matrix, centroid: np.ndarray, pool_weight: np.ndarray, by_author: sp.csr_matrix
) -> sp.csr_matrix:
    """Profiles as product rows against [papers, c.x, authors]: (p.x - w c.x) / |p - w c| plus
    the author weights (Rocchio against the background's centroid c as one more column)."""
    active = np.diff(profile.indptr) > 0
    weight = np.where(active, pool_weight, 0.0)
    towards = profile @ centroid
    scale = 1 / np.sqrt(np.maximum(1 - 2 * weight * towards + weight**2, 1e-12))
    # Each row laid out as [scaled profile words, the pool column, author columns], in column
    # order: assembled in place, cheaper than stacking and sorting three matrices.
    profile.sort_indices()
    by_author = by_author.tocsr()
    by_author.sort_indices()
    n, width = profile.shape
    words, pool, authors = (
        np.diff(profile.indptr),
        (weight != 0).astype(np.int64),
        np.diff(by_author.indptr),
    )
    indptr = np.concatenate([[0], np.cumsum(words + pool + authors)])
    data = np.empty(indptr[-1])
    indices = np.empty(indptr[-1], np.int32)
    owner = np.repeat(np.arange(n), words)
    at = np.arange(profile.nnz) - profile.indptr[owner] + indptr[owner]
    data[at], indices[at] = profile.data * scale[owner], profile.indices
    rows = np.flatnonzero(pool)
    at = indptr[rows] + words[rows]
    data[at], indices[at] = -weight[rows] * scale[rows], width
    owner = np.repeat(np.arange(n), authors)
    at = (
        np.arange(by_author.nnz)
        - by_author.indptr[owner]
        + indptr[owner]
        + words[owner]
        + pool[owner]
    )
    data[at], indices[at] = by_author.data, width + 1 + by_author.indices
    return sp.csr_matrix((data, indices, indptr), shape=(n, width + 1 + by_author.shape[1]))


def _sharing(profile: sp.csr_matrix, df: np.ndarray) -> np.ndarray:
    """Per profile row, how many papers of the pool are on its topic: as many as hold the
    second most common of its heavy words (of at least prof.HEAVY x its heaviest word's weight;
    the most common, if it has one only; df: the pool's document frequency of every column).
    Not the most common: one word of a reader's prose ("I also follow ...") or said twice
    ("design") is in hundreds of far papers (astronomers' "follow-up"), which had set a full
    ramp and sent papers of the reader's own field from 0.15-0.19 to the floor."""
    out = np.zeros(profile.shape[0])
    filled = np.flatnonzero(np.diff(profile.indptr) > 0)
    if not len(filled):
        return out
    starts = profile.indptr[:-1][filled]
    owner = np.repeat(np.arange(len(filled)), np.diff(profile.indptr)[filled])
    top = np.maximum.reduceat(profile.data, starts)
    heavy = np.flatnonzero(profile.data >= prof.HEAVY * top[owner])  # each row's top, at least
    owner, counts = owner[heavy], df[profile.indices[heavy]]
    # Each row's heavy words' counts in descending order: its second, else its first.
    order = np.lexsort((-counts, owner))
    owner, counts = owner[order], counts[order]
    first = np.searchsorted(owner, np.arange(len(filled)))
    two = np.bincount(owner, minlength=len(filled)) >= 2
    out[filled] = counts[np.where(two, first + 1, first)]
    return out


def _unique(papers: Sequence[Paper]) -> list[Paper]:
    """Each paper once, in id order: a library exported in another order is the same library
    (its grouping into interests started from the first papers, and moved picks)."""
    return sorted({p.id: p for p in reversed(papers)}.values(), key=lambda p: p.id)


@dataclass
class Prepared:
    """What ranking needs before any product: the rows of the pool and of the libraries, every
    interest's profile row and the pool-dependent weight of the centroid."""

    papers: list[Paper]
    corpus: list[Paper]  # the pool, then the liked and disliked papers it lacks
    row_of: dict[str, int]
    liked: list[list[Paper]]
    disliked: list[list[Paper]]
    space: Space
    docs: sp.csr_matrix
    interest: interests.Rows
    pool_weight: np.ndarray
    by_author: sp.csr_matrix  # interest rows x author columns
    library_authors: sp.csr_matrix  # the same, the liked papers' part of the weights
    author_weights: list[dict[str, float]]
    right: sp.csr_matrix  # the pool as product columns: [papers, c.x, authors]
    written: sp.csr_matrix  # the pool's author columns (papers x authors ones)
    x: sp.csr_matrix  # the pool's rows: docs' first rows, sharing docs' arrays

    def left(self, profile: sp.csr_matrix, rows: slice = slice(None)) -> sp.csr_matrix:
        """Profile rows (of the interests `rows`) as product rows against `right`."""
        return _left(profile, self.space.centroid, self.pool_weight[rows], self.by_author[rows])

    def right_of(
        self, papers: Sequence[Paper], x: sp.csr_matrix, subscribers: Sequence[Subscriber]
    ) -> sp.csr_matrix:
        """Other papers (their rows x) as product columns, laid out as `right`."""
        written = authors(papers, subscribers, self.liked).written
        return _columns(x, self.space, written)


def _columns(x: sp.csr_matrix, space: Space, written: sp.csr_matrix) -> sp.csr_matrix:
    """Papers' rows as product columns: [words, c.x, authors]."""
    return sp.hstack([x, sp.csr_matrix((x @ space.centroid)[:, None]), written]).tocsr()


def _head(rows: sp.csr_matrix, m: int) -> sp.csr_matrix:
    """The first m rows as a view of the matrix's arrays (slicing a CSR matrix copies them)."""
    end = int(rows.indptr[m])
    head = sp.csr_matrix(
        (rows.data[:end], rows.indices[:end], rows.indptr[: m + 1]),
        shape=(m, rows.shape[1]),
        copy=False,
    )
    head.has_sorted_indices = rows.has_sorted_indices
    return head


def prepare(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    space: Space | None = None,
    pool_df: np.ndarray | None = None,
    everyone: Sequence[Subscriber] | None = None,
) -> Prepared | None:
    """Rows and profiles for ranking `papers`; pool_df: the document frequencies of the whole
    pool when `papers` are a selection of it (ranking/pool.py); everyone: the readers whose
    words a space fitted here holds (default: `subscribers`). None: no word to match on."""
    # In id order: sums over papers (a library's neighbours, the centroid) then add in one order
    # whatever order the papers came in, so a selection of a pool scores as the pool does.
    papers = sorted(papers, key=lambda p: p.id)
    m = len(papers)
    # Library and disliked papers join the fit so that their vocabulary exists in the space.
    corpus = list(papers)
    row_of: dict[str, int] = {}
    for i, p in enumerate(papers):
        row_of.setdefault(p.id, i)
    liked = [_unique(s.profile.library) for s in subscribers]
    disliked = [_unique(s.profile.disliked) for s in subscribers]
    # A space fitted here holds every reader's words, ranked now or not (a run's due readers,
    # a preview's one): another reader's word in a paper is a column of its row or not, and
    # had moved this reader's score with who else was ranked (rank29 F2's no-store side).
    fitters = list(subscribers)
    if everyone and space is None:
        named = {s.name for s in everyone}
        fitters = [*everyone, *(s for s in subscribers if s.name not in named)]
    theirs = [(*s.profile.library, *s.profile.disliked) for s in fitters]
    for p in (p for group in (*liked, *disliked, *theirs) for p in group):
        if p.id not in row_of:
            row_of[p.id] = len(corpus)
            corpus.append(p)
    texts = [paper_text(p) for p in corpus]
    try:
        if space is None:
            wishes = read_interests(fitters)
            wishes += [k for s in fitters for k in s.profile.keywords]
            rated = (row_of[p.id] for group in (*liked, *disliked, *theirs) for p in group)
            # The wishes as texts of their own, as a store's space fits them: a subscriber's word
            # that no paper of today's holds is a column still, so the profile does not change
            # with whichever of its words today's papers happen to hold (one paper saying
            # another of them had moved 135 of 150 papers). The built-in background weighs the
            # words and brings its basis.
            space, docs = fit(texts + wishes, wishes, background.terms(), rated)
            space, docs = background.joined(space, docs[: len(texts)])
        else:
            docs = space.transform(texts)
    except ValueError:  # nothing but stop words: nothing can match anything
        return None
    del texts  # read into the rows: free before the products
    library_rows = [[row_of[p.id] for p in lib] for lib in liked]
    disliked_rows = [[row_of[p.id] for p in bad] for bad in disliked]
    profile = profiles(space, docs, subscribers, library_rows, disliked_rows)
    x = _head(docs, m)
    # From here on a row is one interest of a subscriber (most subscribers have one).
    interest = interests.split(profile, space, docs, x, subscribers, library_rows, disliked_rows)
    # A short paper (a feed's title without an abstract) is scored as one of SHORT features; its
    # neighbours above, which group a library, are of its words alone, as ranking/pool.py's are.
    x = shortened(x)

    # The implicit negative is the background's centroid (the stored corpus, or what was fitted).
    # It helps on a large pool and hurts on a small one, and what makes a pool large for an
    # interest is how many of today's papers are on its topic: the most papers that hold any one
    # of its heavy words. Papers that share none of them (an astro-ph paper that says "learning"
    # to a federated learning reader) do not count, so their arrival changes nothing.
    if pool_df is None:
        pool_df = np.bincount(x.indices, minlength=x.shape[1])
    # The same ramp whitens each interest against the corpus's main axes (latent.whitened): on
    # a day of many papers near its topic, the words that set it apart from them count more.
    ramp = np.minimum(1.0, _sharing(interest.vectors, pool_df) / prof.POOL_MIN)
    vectors = latent.whitened(interest.vectors, space.basis, latent.WHITEN * ramp)
    interest = dataclasses.replace(interest, vectors=vectors)
    shared = _sharing(interest.vectors, pool_df)
    by_author, written, author_weights, library = authors(papers, subscribers, liked, space)
    right = _columns(x, space, written)
    return Prepared(
        papers=papers,
        corpus=corpus,
        row_of=row_of,
        liked=liked,
        disliked=disliked,
        space=space,
        docs=docs,
        interest=interest,
        pool_weight=prof.POOL_WEIGHT * np.minimum(1.0, shared / prof.POOL_MIN),
        by_author=by_author[interest.owner],
        library_authors=library[interest.owner],
        author_weights=author_weights,
        right=right,
        written=written,
        x=x,
    )


def order_of(papers: Sequence[Paper]) -> np.ndarray:
    """Each paper's place among the papers sorted by id: ties between scores go by id."""
    ids = [p.id for p in papers]
    order = np.empty(len(ids), dtype=np.intp)
    order[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    return order


def candidates(m: int, most: int) -> int:
    """How many candidates per interest a product keeps among m papers, for digests of `most`
    papers: enough that the exclusions and the sent papers seldom force a second look."""
    return min(m, 2 * most + 10)
