"""rank(): the day's papers against every interest of every subscriber (product.py), one sparse
top-n product for all of them at once, each subscriber's picks drawn from its interests, and the
words, liked paper and authors behind each pick (explain.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from digest.models import Paper, Scored, Subscriber, identity
from digest.ranking import interests, latent
from digest.ranking.explain import closest, joined, terms
from digest.ranking.features import Space, release_memory
from digest.ranking.followed import Followed
from digest.ranking.product import Prepared, candidates, order_of, prepare
from digest.ranking.rules import exclude_pattern
from digest.ranking.scoring import best_per_row, top_candidates
from digest.ranking.tokens import author_key

# Interest rows ranked at a time: what one row costs in the product (its product row and its
# candidates) is then held for this many, not for every subscriber.
ROWS_AT_ONCE = 2_000
# Papers scored per product block: bounds the transposed copy of a block and the product's
# per-thread buffers, so memory does not grow with subscribers x papers.
CHUNK_CELLS = 1_000_000_000


def rank(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    *,
    top_k: int | None = None,
    thresholds: bool = True,
    allowed: Mapping[str, Collection[str]] | None = None,
    space: Space | None = None,
    pool_df: np.ndarray | None = None,
    everyone: Sequence[Subscriber] | None = None,
) -> dict[str, list[Scored]]:
    """Every subscriber name -> its picks among `papers`, best first.

    top_k overrides each subscriber's own; thresholds=False ignores min_score; allowed restricts a
    subscriber to the given paper ids; space: a fitted space to reuse (default: fit one on the
    papers and the libraries of `everyone`, every reader of the config, ranked now or not:
    default `subscribers`); pool_df: the whole pool's document frequencies when `papers` are a
    selection of it. With thresholds, a paper with neither shared words nor a followed author is
    never a pick; without, every paper is ranked.
    """
    picks: dict[str, list[Scored]] = {s.name: [] for s in subscribers}
    if not papers or not subscribers:
        return picks
    if len({p.id for p in papers}) < len(papers):  # one paper twice (a feed's repeat): once
        papers = list({p.id: p for p in reversed(papers)}.values())[::-1]
    prep = prepare(papers, subscribers, space, pool_df, everyone)
    if prep is None:  # no text holds a word: nothing matches, and every paper ties at 0
        return picks if thresholds else _tied(papers, subscribers, top_k, allowed)
    limits = [max(0, top_k if top_k is not None else s.top_k) for s in subscribers]
    floors = [s.min_score if thresholds else None for s in subscribers]  # None: any score
    if not max(limits):
        return picks
    order = order_of(prep.papers)
    best = _best(prep, limits, floors, _filters(prep, subscribers, allowed), order)
    drawn = []  # (subscriber, score, paper, interest row)
    for si, rows in enumerate(_rows_of(prep.interest.owner, len(subscribers))):
        weights = interests.shares([prep.interest.library[r] for r in rows])
        for score, j, c in interests.draw([best[r] for r in rows], limits[si], order, weights):
            drawn.append((si, score, j, rows[c]))
    for (si, *_), pick in zip(drawn, _explained(prep, subscribers, drawn), strict=True):
        picks[subscribers[si].name].append(pick)
    return picks


def _filters(
    prep: Prepared, subscribers: Sequence[Subscriber], allowed: Mapping[str, Collection[str]] | None
) -> list[Callable[[int], bool]]:
    """Per subscriber, whether a paper row may be a pick: not in its library or rated, allowed,
    and free of its exclude words."""
    papers, row_of, m = prep.papers, prep.row_of, len(prep.papers)
    blocked = [
        {row_of[p.id] for p in (*lib, *bad) if row_of[p.id] < m}
        for lib, bad in zip(prep.liked, prep.disliked, strict=True)
    ]
    # A library's paper under another id (its DOI, its title alone, a URL) is the same paper:
    # matched by the keys of identity, computed for the candidates a list looks at only.
    # key -> the keys of the library paper that holds it (a title key's paper: same_paper tells
    # a namesake with another arXiv id apart, which is a paper of its own).
    owned = [
        {k: ks for p in (*lib, *bad) for ks in [identity.keys(p)] for k in ks}
        for lib, bad in zip(prep.liked, prep.disliked, strict=True)
    ]
    keys_of: dict[int, list[str]] = {}

    def theirs(j: int) -> list[str]:
        if j not in keys_of:
            keys_of[j] = identity.keys(papers[j])
        return keys_of[j]

    permitted: list[set[int] | None] = []
    allowed_sets: dict[int, set[int] | None] = {}  # subscribers often share one allowed set
    for s in subscribers:
        only = None if allowed is None else allowed.get(s.name)
        if only is not None and id(only) not in allowed_sets:
            rows = {row_of[i] for i in only if row_of.get(i, m) < m}
            allowed_sets[id(only)] = None if len(rows) == m else rows  # all allowed: none
        permitted.append(None if only is None else allowed_sets[id(only)])

    def accepts(si: int) -> Callable[[int], bool]:
        pattern, inside, out, mine = (
            exclude_pattern(subscribers[si].profile.exclude),
            permitted[si],
            blocked[si],
            owned[si],
        )

        def ok(j: int) -> bool:
            if j in out or (inside is not None and j not in inside):
                return False
            if mine and any(
                k in mine and identity.same_paper(k, mine[k], theirs(j)) for k in theirs(j)
            ):
                return False
            return pattern is None or not pattern.search(f"{papers[j].title}\n{papers[j].abstract}")

        return ok

    return [accepts(si) for si in range(len(subscribers))]


def _best(
    prep: Prepared,
    limits: Sequence[int],
    floors: Sequence[float | None],
    oks: Sequence[Callable[[int], bool]],
    order: np.ndarray,
) -> list[list[tuple[float, int]]]:
    """Per interest row, its best (score, paper row): by the product, then in the latent order."""
    owner, ids = prep.interest.owner, [p.id for p in prep.papers]
    best: list[list[tuple[float, int]]] = [[] for _ in owner]
    for lo in range(0, len(owner), ROWS_AT_ONCE):
        part = slice(lo, min(len(owner), lo + ROWS_AT_ONCE))
        seen, bound, left = _scored(prep, part, latent.reach(max(limits)), order)
        for r, si in enumerate(owner[part].tolist()):
            if limits[si]:
                floor, deep = floors[si], latent.reach(limits[si])
                chosen = _chosen(seen[r], bound[r], deep, floor, oks[si], limits[si])
                row = None  # the interest's score for every paper, made once if it is needed
                if chosen is None:  # a paper left out could still make the list
                    row = (prep.right @ left[r].T).toarray().ravel()
                    chosen = _every(row, deep, floor, oks[si], ids)
                if floor is None and len(chosen) >= deep and chosen[-1][0] <= 0:
                    # Cut among scores of 0 and below, where a paper that shares a word (the
                    # centroid outweighed it) must not lose its place to one that shares none.
                    if row is None:
                        row = (prep.right @ left[r].T).toarray().ravel()
                    vector = prep.interest.vectors[lo + r]
                    words = vector.indices[vector.data > 0]  # not a rated-down paper's words
                    chosen = _sharing_first(row, prep.x, words, deep, oks[si], ids)
                best[lo + r] = chosen
        del seen, left
        release_memory()
    # Each interest's best papers by words are reordered by their latent closeness too (in the
    # stored corpus's or the built-in background's basis; without one, the words stand for it),
    # and scored so.
    downs = [[prep.row_of[p.id] for p in prep.disliked[si]] for si in owner.tolist()]
    return latent.reordered(
        best,
        prep.space.basis,
        prep.x,
        prep.interest.vectors,
        [limits[si] for si in owner],
        [floors[si] for si in owner],
        (prep.by_author, prep.written, prep.library_authors),
        (prep.docs, downs) if any(downs) else None,
    )


def _rows_of(owner: np.ndarray, n: int) -> list[list[int]]:
    """Each subscriber's interest rows."""
    rows: list[list[int]] = [[] for _ in range(n)]
    for r, si in enumerate(owner.tolist()):
        rows[si].append(r)
    return rows


def _explained(
    prep: Prepared, subscribers: Sequence[Subscriber], drawn: list[tuple[int, float, int, int]]
) -> list[Scored]:
    """The drawn (subscriber, score, paper row, interest row) as picks: the words, the interest,
    the closest liked paper and the authors behind each."""
    interest, papers = prep.interest, prep.papers
    # The interests text's row of a grouped library stands for no liked paper: its picks name
    # the closest of the whole library, as an ungrouped subscriber's do.
    whole: dict[int, list[int]] = {}
    for row, owner in enumerate(interest.owner):
        whole.setdefault(int(owner), []).extend(interest.library[row])
    candidates = [interest.library[r] or whole.get(si, []) for si, _, _, r in drawn]
    nearest_rows = closest(prep.docs, prep.x, candidates, [[(v, j)] for _, v, j, _ in drawn])
    words = iter(
        terms(interest.vectors, prep.x, [(r, j) for _, _, j, r in drawn], prep.space.names)
    )
    follows: dict[int, Followed] = {}  # per subscriber, not per pick
    out: list[Scored] = []
    for (si, score, j, r), (li,) in zip(drawn, nearest_rows, strict=True):
        reasons = [f"your interest: {interest.labels[r]}"] if interest.labels[r] else []
        if li >= 0:
            liked_paper = prep.corpus[candidates[len(out)][li]]
            reasons.append(f"closest to: {liked_paper.title or liked_paper.id}")
        weights = prep.author_weights[si]
        if si not in follows:
            follows[si] = Followed(subscribers[si].profile.authors)
        followed = follows[si]
        # A followed name is matched as the score's columns match it ("Mary Ma" is a paper's
        # "Mary A. MA", followed.py), a library author by its exact key.
        mine = [a for a in papers[j].authors if author_key(a) in weights] if weights else []
        if by := [a for a in papers[j].authors if followed and followed.follows(a)]:
            reasons.append(f"by {', '.join(by)}, whom you follow")
        # Of the library's authors only the best-weighted one lifts the score: that one is said.
        if also := [a for a in mine if not followed.follows(a)]:
            best = max(also, key=lambda a: weights[author_key(a)])
            reasons.append(f"by {best}, an author of papers you liked")
        said = joined(next(words), f"{papers[j].title} {papers[j].abstract}")
        out.append(Scored(papers[j], score, said, "; ".join(reasons)))
    return out


def _tied(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    top_k: int | None,
    allowed: Mapping[str, Collection[str]] | None,
) -> dict[str, list[Scored]]:
    """Without thresholds every paper is ranked, also when none holds a word: each subscriber's
    papers (less its library, its dislikes, the excluded and the not allowed) at 0, by id."""
    unique = sorted({p.id: p for p in reversed(papers)}.values(), key=lambda p: p.id)
    picks = {}
    for s in subscribers:
        mine = {p.id for p in (*s.profile.library, *s.profile.disliked)}
        only = None if allowed is None else allowed.get(s.name)
        pattern = exclude_pattern(s.profile.exclude)
        left = [
            p
            for p in unique
            if p.id not in mine
            and (only is None or p.id in only)
            and (pattern is None or not pattern.search(f"{p.title}\n{p.abstract}"))
        ]
        picks[s.name] = [
            Scored(p, 0.0) for p in left[: max(0, s.top_k if top_k is None else top_k)]
        ]
    return picks


def _scored(
    prep: Prepared, rows: slice, most: int, order: np.ndarray
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray, sp.csr_matrix]:
    """For the interests `rows`: their best papers by the product, (paper rows, exact scores)
    best first, enough for `most` picks; the bound on the papers left out; and their product
    rows."""
    left = prep.left(prep.interest.vectors[rows], rows)
    seen, bound = best_per_row(
        left, prep.right, candidates(len(prep.papers), most), order, CHUNK_CELLS
    )
    return seen, bound, left


def _chosen(
    seen: tuple[np.ndarray, np.ndarray],
    edge: float,
    k: int,
    floor: float | None,
    ok: Callable[[int], bool],
    shown: int,
) -> list[tuple[float, int]] | None:
    """One interest's best k (score, paper row) among the papers its products found, `seen`,
    when papers left out (which score at most `edge`) cannot make the list; else None. floor:
    the lowest score that counts (None: any score, zero and below included). Past the `shown`
    first, papers that share no word (edge 0) may be left out: the latent reorder keeps them
    below every paper that shares one, so they could not be shown."""
    open_below = edge > -np.inf and (floor is None or (edge > 0 and edge >= floor))
    chosen: list[tuple[float, int]] = []
    for j, v in zip(*seen, strict=True):
        if open_below and v <= edge:  # an unseen paper could still tie or beat this one
            return chosen if edge <= 0 and len(chosen) >= shown else None
        if (floor is None or (v > 0 and v >= floor)) and ok(int(j)):
            chosen.append((float(v), int(j)))
            if len(chosen) == k:
                return chosen
    return None if open_below and not (edge <= 0 and len(chosen) >= shown) else chosen


def _sharing_first(
    row: np.ndarray,
    x: sp.csr_matrix,
    words: np.ndarray,
    k: int,
    ok: Callable[[int], bool],
    ids: list[str],
) -> list[tuple[float, int]]:
    """The best k (score, paper row) of one interest's scores for every paper, those that share
    one of its words first, whatever their score: the latent reorder keeps that order."""
    mark = np.zeros(x.shape[1])
    mark[words] = 1.0
    shares = (x @ mark) > 0
    chosen = top_candidates(row, np.flatnonzero(shares), k, ids, ok)
    if len(chosen) < k:
        chosen += top_candidates(row, np.flatnonzero(~shares), k - len(chosen), ids, ok)
    return [(float(row[j]), j) for j in chosen]


def _every(
    row: np.ndarray, k: int, floor: float | None, ok: Callable[[int], bool], ids: list[str]
) -> list[tuple[float, int]]:
    """The best k (score, paper row) of one interest's scores for every paper."""
    mask = np.ones(len(row), bool) if floor is None else (row > 0) & (row >= floor)
    return [(float(row[j]), j) for j in top_candidates(row, np.flatnonzero(mask), k, ids, ok)]
