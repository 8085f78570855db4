"""rank(): one TF-IDF space over the day's papers and the subscribers' libraries, a profile per
subscriber (profiles.py), one sparse top-n product for all subscribers at once, and the words,
liked paper and authors behind each pick (explain.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from digest.models import Paper, Scored, Subscriber
from digest.ranking import interests
from digest.ranking import profiles as prof
from digest.ranking.explain import closest, terms
from digest.ranking.features import Space, fit, paper_text
from digest.ranking.profiles import authors, exclude_pattern, expanded, profiles
from digest.ranking.scoring import best_per_row, rescored, top_candidates, trimmed
from digest.ranking.tokens import author_key

# On a large pool one product finds every subscriber's candidates, on a coarse profile: the
# heaviest words that hold this share of its squared weight. The lightest words are mostly common
# ones, whose long posting lists are most of a product's time, yet they move scores least; the
# candidates (three times the papers needed) are then scored exactly on the whole profile.
FIRST_PASS_MASS = 0.95
# Papers scored per product block: bounds the transposed copy of a block and the product's
# per-thread buffers, so memory does not grow with subscribers x papers.
CHUNK_CELLS = 1_000_000_000


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
    """Per profile row, the most papers of the pool that hold any one of its words (df: the
    pool's document frequency of every column)."""
    most = df[profile.indices]
    out = np.zeros(profile.shape[0])
    filled = np.diff(profile.indptr) > 0
    if filled.any():
        out[filled] = np.maximum.reduceat(most, profile.indptr[:-1][filled])
    return out


def _unique(papers: Sequence[Paper]) -> list[Paper]:
    return list({p.id: p for p in reversed(papers)}.values())[::-1]


@dataclass
class Prepared:
    """What ranking needs before any product: the rows of the pool and of the libraries, every
    interest's profile row and the pool-dependent weights (the centroid's, the feedback switch)."""

    papers: list[Paper]
    corpus: list[Paper]  # the pool, then the liked and disliked papers it lacks
    row_of: dict[str, int]
    liked: list[list[Paper]]
    disliked: list[list[Paper]]
    space: Space
    docs: sp.csr_matrix
    interest: interests.Rows
    pool_weight: np.ndarray
    feedback: np.ndarray
    by_author: sp.csr_matrix  # interest rows x author columns
    author_weights: list[dict[str, float]]
    right: sp.csr_matrix  # the pool as product columns: [papers, c.x, authors]

    @property
    def x(self) -> sp.csr_matrix:
        return self.docs[: len(self.papers)]

    def left(self, profile: sp.csr_matrix) -> sp.csr_matrix:
        """Profile rows (one per interest) as product rows against `right`."""
        return _left(profile, self.space.centroid, self.pool_weight, self.by_author)

    def right_of(
        self, papers: Sequence[Paper], x: sp.csr_matrix, subscribers: Sequence[Subscriber]
    ) -> sp.csr_matrix:
        """Other papers (their rows x) as product columns, laid out as `right`."""
        _, written, _ = authors(papers, subscribers, self.liked)
        return sp.hstack([x, sp.csr_matrix((x @ self.space.centroid)[:, None]), written]).tocsr()


def prepare(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    space: Space | None = None,
    pool_df: np.ndarray | None = None,
) -> Prepared | None:
    """Rows and profiles for ranking `papers`; pool_df: the document frequencies of the whole
    pool when `papers` are a selection of it (ranking/pool.py). None: no word to match on."""
    papers = list(papers)
    m = len(papers)
    # Library and disliked papers join the fit so that their vocabulary exists in the space.
    corpus = list(papers)
    row_of: dict[str, int] = {}
    for i, p in enumerate(papers):
        row_of.setdefault(p.id, i)
    liked = [_unique(s.profile.library) for s in subscribers]
    disliked = [_unique(s.profile.disliked) for s in subscribers]
    for p in (p for group in (*liked, *disliked) for p in group):
        if p.id not in row_of:
            row_of[p.id] = len(corpus)
            corpus.append(p)
    texts = [paper_text(p) for p in corpus]
    try:
        if space is None:
            wishes = [s.profile.interests for s in subscribers]
            wishes += [k for s in subscribers for k in s.profile.keywords]
            space, docs = fit(texts, wishes)
        else:
            docs = space.transform(texts)
    except ValueError:  # nothing but stop words: nothing can match anything
        return None
    del texts  # read into the rows: free before the products
    library_rows = [[row_of[p.id] for p in lib] for lib in liked]
    disliked_rows = [[row_of[p.id] for p in bad] for bad in disliked]
    profile = profiles(space, docs, subscribers, library_rows, disliked_rows)
    x = docs[:m]
    # From here on a row is one interest of a subscriber (most subscribers have one).
    interest = interests.split(profile, space, docs, x, subscribers, library_rows, disliked_rows)

    # The implicit negative is the background's centroid (the stored corpus, or what was fitted).
    # It and the feedback step help on a large pool and hurt on a small one, and what makes a
    # pool large for an interest is how many of today's papers share its words: the most papers
    # that hold any one of its words. Papers that share no word with it do not count, so their
    # arrival changes nothing.
    if pool_df is None:
        pool_df = np.bincount(x.indices, minlength=x.shape[1])
    shared = _sharing(interest.vectors, pool_df)
    by_author, written, author_weights = authors(papers, subscribers, liked)
    right = sp.hstack([x, sp.csr_matrix((x @ space.centroid)[:, None]), written]).tocsr()
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
        feedback=shared >= prof.FEEDBACK_MIN,
        by_author=by_author[interest.owner],
        author_weights=author_weights,
        right=right,
    )


def expansion(
    prep: Prepared, found: Sequence[np.ndarray], order: np.ndarray
) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """(the profiles expanded with the best FEEDBACK_DOCS of their first-pass candidates `found`,
    those feedback words alone as product rows against `right`)."""
    profile = prep.interest.vectors
    first = rescored(prep.left(profile), prep.right, found, order)
    tops = [
        rows[values > 0][: prof.FEEDBACK_DOCS] if wanted else rows[:0]
        for (rows, values), wanted in zip(first, prep.feedback.tolist(), strict=True)
    ]
    scoring, words = expanded(profile, prep.x, tops)
    words = sp.csr_matrix(
        (words.data, words.indices, words.indptr), shape=(profile.shape[0], prep.right.shape[1])
    )
    return scoring, words


def order_of(papers: Sequence[Paper]) -> np.ndarray:
    """Each paper's place among the papers sorted by id: ties between scores go by id."""
    ids = [p.id for p in papers]
    order = np.empty(len(ids), dtype=np.intp)
    order[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    return order


def feeds_back(prep: Prepared) -> bool:
    """Whether ranking expands the profiles with their best papers (on a large enough pool)."""
    return bool(prep.feedback.any() and prof.FEEDBACK_WEIGHT)


def first_pass_size(m: int, most: int, feedback: bool) -> int:
    """How many candidates per interest the first product keeps among m papers, for digests of
    `most` papers."""
    want = min(m, 2 * most + 10)
    return max(want, min(m, 2 * prof.FEEDBACK_DOCS)) if feedback else want


def rank(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    *,
    top_k: int | None = None,
    thresholds: bool = True,
    allowed: Mapping[str, Collection[str]] | None = None,
    space: Space | None = None,
    pool_df: np.ndarray | None = None,
) -> dict[str, list[Scored]]:
    """Every subscriber name -> its picks among `papers`, best first.

    top_k overrides each subscriber's own; thresholds=False ignores min_score; allowed restricts a
    subscriber to the given paper ids; space: a fitted space to reuse (default: fit one on the
    papers and the libraries); pool_df: the whole pool's document frequencies when `papers` are a
    selection of it. With thresholds, a paper with neither shared words nor a followed author is
    never a pick; without, every paper is ranked.
    """
    picks: dict[str, list[Scored]] = {s.name: [] for s in subscribers}
    m, n = len(papers), len(subscribers)
    if not m or not n:
        return picks
    prep = prepare(papers, subscribers, space, pool_df)
    if prep is None:
        return picks
    papers, corpus, row_of = prep.papers, prep.corpus, prep.row_of
    liked, disliked, space, docs, x = prep.liked, prep.disliked, prep.space, prep.docs, prep.x
    interest, author_weights, right = prep.interest, prep.author_weights, prep.right
    profile, owner = interest.vectors, interest.owner

    ids = [p.id for p in papers]
    order = order_of(papers)
    limits = [max(0, top_k if top_k is not None else s.top_k) for s in subscribers]
    floors = [s.min_score if thresholds else -np.inf for s in subscribers]
    excludes = [exclude_pattern(s.profile.exclude) for s in subscribers]
    blocked = [
        {row_of[p.id] for p in (*lib, *bad) if row_of[p.id] < m}
        for lib, bad in zip(liked, disliked, strict=True)
    ]
    permitted: list[set[int] | None] = []
    allowed_sets: dict[int, set[int] | None] = {}  # subscribers often share one allowed set
    for s in subscribers:
        only = None if allowed is None else allowed.get(s.name)
        if only is not None and id(only) not in allowed_sets:
            rows = {row_of[i] for i in only if row_of.get(i, m) < m}
            allowed_sets[id(only)] = None if len(rows) == m else rows  # all allowed: none
        permitted.append(None if only is None else allowed_sets[id(only)])

    def accepts(si: int) -> Callable[[int], bool]:
        pattern, inside, out = excludes[si], permitted[si], blocked[si]

        def ok(j: int) -> bool:
            if j in out or (inside is not None and j not in inside):
                return False
            return pattern is None or not pattern.search(f"{papers[j].title}\n{papers[j].abstract}")

        return ok

    most = max(limits)
    if not most:
        return picks
    scoring, want = profile, min(m, 2 * most + 10)
    if feeds_back(prep):
        # One product, with a coarse profile, finds the candidates: enough for the digest and for
        # the feedback papers, which are chosen on exact scores.
        left = prep.left(trimmed(profile, FIRST_PASS_MASS))
        found, bound = best_per_row(left, right, first_pass_size(m, most, True), order, CHUNK_CELLS)
        scoring, words = expansion(prep, [c for c, _ in found], order)
        # The papers the feedback words alone reach best join them: a cheap product (the words
        # are few and rare), so that what the expansion brings in can be found.
        near, _ = best_per_row(words, right, min(m, most + 10), order, CHUNK_CELLS)
        candidates = [np.union1d(a, b) for (a, _), (b, _) in zip(found, near, strict=True)]
        # The scores shown (and held against min_score) are exact: the whole profile's.
        left = prep.left(scoring)
        seen = rescored(left, right, candidates, order)
    else:  # no feedback (a small pool): one exact product
        left = prep.left(scoring)
        seen, bound = best_per_row(left, right, want, order, CHUNK_CELLS)
    best: list[list[tuple[float, int]]] = [[] for _ in owner]
    oks = [accepts(si) for si in range(n)]
    for r, si in enumerate(owner.tolist()):
        if not limits[si]:
            continue
        ok, k, floor = oks[si], limits[si], floors[si]
        # Papers left out of the product score at most bound[r]; can they still make the list?
        edge = bound[r]
        open_below = edge > -np.inf and (not thresholds or (edge > 0 and edge >= floor))
        chosen: list[tuple[float, int]] = []
        unsure = False  # an unseen paper could still tie or beat the next one
        for j, v in zip(*seen[r], strict=True):
            if open_below and v <= edge:
                unsure = True
                break
            if (not thresholds or (v > 0 and v >= floor)) and ok(int(j)):
                chosen.append((float(v), int(j)))
                if len(chosen) == k:
                    break
        if unsure or (open_below and len(chosen) < k):
            row = (right @ left[r].T).toarray().ravel()
            mask = np.ones(m, bool) if not thresholds else (row > 0) & (row >= floor)
            within = np.flatnonzero(mask)
            chosen = [(float(row[j]), j) for j in top_candidates(row, within, k, ids, ok)]
        best[r] = chosen

    mine_rows: list[list[int]] = [[] for _ in subscribers]
    for r, si in enumerate(owner.tolist()):
        mine_rows[si].append(r)
    drawn = []  # (subscriber, score, paper, interest row)
    for si in range(n):
        lists = [best[r] for r in mine_rows[si]]
        for score, j, c in interests.draw(lists, limits[si], order):
            drawn.append((si, score, j, mine_rows[si][c]))
    nearest_rows = closest(
        docs, x, [interest.library[r] for *_, r in drawn], [[(v, j)] for _, v, j, _ in drawn]
    )
    words = iter(terms(profile, x, [(r, j) for _, _, j, r in drawn], space.names))
    for (si, score, j, r), (li,) in zip(drawn, nearest_rows, strict=True):
        s = subscribers[si]
        reasons = [f"your interest: {interest.labels[r]}"] if interest.labels[r] else []
        if li >= 0:
            liked_paper = corpus[interest.library[r][li]]
            reasons.append(f"closest to: {liked_paper.title or liked_paper.id}")
        weights = author_weights[si]
        followed = {author_key(a) for a in s.profile.authors}
        mine = [a for a in papers[j].authors if author_key(a) in weights] if weights else []
        if by := [a for a in mine if author_key(a) in followed]:
            reasons.append(f"by {', '.join(by)}, whom you follow")
        if also := [a for a in mine if author_key(a) not in followed]:
            reasons.append(f"by {', '.join(also)}, an author of papers you liked")
        picks[s.name].append(Scored(papers[j], score, next(words), "; ".join(reasons)))
    return picks
