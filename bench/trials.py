"""The ideas measured as whole rankers, not patches of the shipped one (rerankers, fusions,
`digest rank`'s way with a part left out), and `chosen`: which of them a bench.ideas run takes."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from bench import corpus, rankers
from bench.patches import Patch, patched
from bench.tasks import EVERY, Query
from digest.models import Paper, Scored
from digest.ranking import background, features, interests, product
from digest.ranking import latent as latent_component


def latent(weight: float, components: int = 100) -> rankers.Ranker:
    """The shipped ranker's top 100 reranked by its score plus `weight` x the cosine of profile
    and paper in a TruncatedSVD space fitted on the pool's TF-IDF (the latent component)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.preprocessing import normalize

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        picks = _top100(pool, queries)
        liked = list({p.id: p for q in queries for p in q.liked}.values())
        space, x = features.fit([features.paper_text(p) for p in [*pool, *liked]])
        svd = TruncatedSVD(min(components, x.shape[1] - 1), random_state=0)
        z = normalize(svd.fit_transform(x))
        row = {p.id: i for i, p in enumerate([*pool, *liked])}
        out = []
        for i, q in enumerate(queries):
            parts = [z[[row[p.id] for p in q.liked]].sum(axis=0)] if q.liked else []
            if q.text:
                parts.append(normalize(svd.transform(space.transform([q.text])))[0])
            want = normalize(np.sum(parts, axis=0)[None, :])[0]
            out.append(_reranked(picks[f"q{i}"], weight, z, row, want))
        return out

    return ranker


def _top100(
    pool: Sequence[Paper], queries: Sequence[Query], space: features.Space | None = None
) -> dict[str, list[Scored]]:
    """The shipped ranker's top 100 of `pool` for each query, as subscriber q{i}."""
    from digest.models import Profile, Subscriber
    from digest.ranking import rank

    subs = [
        Subscriber(f"q{i}", Profile(interests=q.text, library=q.liked), (), top_k=100)
        for i, q in enumerate(queries)
    ]
    return rank(pool, subs, top_k=100, thresholds=False, space=space)


def _reranked(
    picks: Sequence[Scored], weight: float, z: np.ndarray, row: dict[str, int], want: np.ndarray
) -> list[int]:
    """The picks' rows by score + weight x the latent cosine of their row of z with `want`."""
    scored = [(s.score + weight * float(z[row[s.paper.id]] @ want), row[s.paper.id]) for s in picks]
    return [j for _, j in sorted(scored, key=lambda t: (-t[0], t[1]))]


_LATENT: dict[str, tuple[features.Space, object]] = {}


def latent_stored(weight: float, least: int = 1000, components: int = 100) -> rankers.Ranker:
    """The latent component as it could ship: TruncatedSVD fitted once on the stored corpus (the
    split's months, as `stored` fits its space), the shipped ranker's top 100 reranked by score
    plus `weight` x the latent cosine, on pools of `least` papers and more only (small pools lost
    with it); the author boost is untouched."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.preprocessing import normalize

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        picks = _top100(pool, queries)
        index = {p.id: i for i, p in enumerate(pool)}
        if len(pool) < least:
            return [[index[s.paper.id] for s in picks[f"q{i}"]] for i in range(len(queries))]
        name, every = rankers.stored_corpus(pool)
        if name not in _LATENT:
            space, x = features.fit([features.paper_text(p) for p in every])
            _LATENT[name] = space, TruncatedSVD(components, random_state=0).fit(x)
        space, svd = _LATENT[name]

        def embed(texts: list[str]) -> np.ndarray:
            return normalize(svd.transform(space.transform(texts)))  # type: ignore[attr-defined]

        z = embed([features.paper_text(p) for p in pool])
        out = []
        for i, q in enumerate(queries):
            liked = [features.paper_text(p) for p in q.liked]
            parts = [embed(liked).sum(axis=0)] if liked else []
            if q.text:
                parts.append(embed([q.text])[0])
            want = normalize(np.sum(parts, axis=0)[None, :])[0]
            out.append(_reranked(picks[f"q{i}"], weight, z, index, want))
        return out

    return ranker


def pool_basis() -> rankers.Ranker:
    """`digest rank`'s way (the space fitted on the pool and the libraries) with a latent basis
    fitted on those same rows, as the stored space has one."""
    fitted = product.fit

    def fit(texts, keep=()):  # type: ignore[no-untyped-def]
        space, rows = fitted(texts, keep)
        space.basis = latent_component.fit(rows)
        return space, rows

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(product, "fit"): fit}):
            return rankers.digest_on_pool(pool, queries)

    return ranker


def on_pool(background_df: bool, background_basis: bool) -> rankers.Ranker:
    """`digest rank`'s way with the built-in background's document frequencies or basis left
    out (ranking/background.py)."""
    joined = background.joined

    def join(space, rows):  # type: ignore[no-untyped-def]
        if not background_df:
            return space, rows
        space, rows = joined(space, rows)
        if not background_basis:
            space.basis = None
        return space, rows

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(background, "joined"): join}):
            return rankers.digest_on_pool(pool, queries)

    return ranker


def on_pool_with(patch: Patch) -> rankers.Ranker:
    """`digest rank`'s way (the built-in background) with `patch` applied."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched(patch):
            return rankers.digest_on_pool(pool, queries)

    return ranker


POOL_CUT = "digest rank, rare-word cut by the pool alone from 1000 texts"
NO_PRIOR = "latent order without the author weight"
NO_PRIOR_ON_POOL = "digest rank, latent order without the author weight"


def without_prior(on_pool: bool) -> rankers.Ranker:
    """The latent order's fused key without the author weight scaled in (score + WEIGHT x the
    latent cosine alone)."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(latent_component, "prior"): lambda *a: 0.0}):
            if on_pool:
                return rankers.digest_on_pool(pool, queries)
            return rankers.digest_ranker(pool, queries)

    return ranker


ON_POOL = {
    "digest rank without the built-in background": (False, False),
    "digest rank, built-in background's df only": (True, False),
}


def bm25_fused(weight: float, text_only: bool, single: bool = False) -> rankers.Ranker:
    """The shipped ranker's top 100 and BM25's top 100, ranked by digest's score (0 outside its
    top 100) plus `weight` x the query's BM25 score over its best BM25 score (a normalized score
    sum); with text_only, only queries with an interests text are fused; with single, only those
    whose library is too small to be split into interests (whose picks are not drawn in turn)."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        picks = _top100(pool, queries)
        index = {p.id: i for i, p in enumerate(pool)}
        ours = [{index[s.paper.id]: s.score for s in picks[f"q{i}"]} for i in range(len(queries))]
        theirs = rankers.bm25_scores(pool, queries)
        out = []
        for q, mine, row in zip(queries, ours, theirs, strict=True):
            if (text_only and not q.text) or (single and len(q.liked) >= interests.CLUSTER_MIN):
                out.append(sorted(mine, key=lambda j: (-mine[j], j)))
                continue
            top = float(row.max()) or 1.0
            near = rankers.top_rows(row)[0]
            fused = {j: mine.get(j, 0.0) + weight * float(row[j]) / top for j in {*mine, *near}}
            out.append(sorted(fused, key=lambda j: (-fused[j], j))[: rankers.DEPTH])
        return out

    return ranker


def text_feedback(k: int) -> rankers.Ranker:
    """Pseudo relevance feedback for interests texts and keywords alone: a query with no liked
    paper ranked again with its first pass's best k papers as its library, below those k."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        first = rankers.digest_ranker(pool, queries)
        chosen = [i for i, q in enumerate(queries) if (q.text or q.keywords) and not q.liked]
        if not chosen:
            return first
        again = [
            dataclasses.replace(queries[i], liked=tuple(pool[j] for j in first[i][:k]))
            for i in chosen
        ]
        for i, ranked in zip(chosen, rankers.digest_ranker(pool, again), strict=True):
            head = first[i][:k]  # the library's papers are never picks: they stay first
            first[i] = [*head, *(j for j in ranked if j not in head)][: rankers.DEPTH]
        return first

    return ranker


def pool_statistics(centroid: bool, idf_share: float) -> rankers.Ranker:
    """The stored space with today's pool's own statistics (a diagnostic for the focused pool,
    where BM25's and the SVM's are the pool's): its centroid for the store's, and/or each idf as
    stored^(1 - idf_share) x the pool's^idf_share. Not shippable as it is: papers unrelated to
    a reader would move the reader's order."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        stored = rankers.stored_space(pool)
        assert stored is not None
        space = copy.copy(stored)
        x = stored.transform([features.paper_text(p) for p in pool])
        if centroid:
            total = np.asarray(x.sum(axis=0)).ravel()
            space.centroid = total / np.linalg.norm(total)
        if idf_share:
            own = features.idf_of(len(pool), np.bincount(x.indices, minlength=x.shape[1]))
            space.idf = stored.idf ** (1 - idf_share) * own**idf_share
        return rankers.digest_lists(pool, queries, space)

    return ranker


POOL_STATISTICS = {
    "pool's own centroid": (True, 0.0),
    "pool's own idf (share 0.5)": (False, 0.5),
    "pool's own idf (share 1.0)": (False, 1.0),
}


def fused_with_svm(weight: float, k: int = 60) -> rankers.Ranker:
    """digest's list and arxiv-sanity-lite's fused by reciprocal rank, 1 / (k + rank) plus
    `weight` / (k + rank): does the per-profile SVM hold what the ranker misses?"""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        ours = rankers.digest_ranker(pool, queries)
        theirs = rankers.arxiv_sanity_lite(pool, queries)
        out = []
        for mine, svm in zip(ours, theirs, strict=True):
            fused: dict[int, float] = {}
            for share, ranked in ((1.0, mine), (weight, svm)):
                for place, j in enumerate(ranked):
                    fused[j] = fused.get(j, 0.0) + share / (k + place)
            out.append(sorted(fused, key=lambda j: (-fused[j], j))[: rankers.DEPTH])
        return out

    return ranker


def stored_before(pool: Sequence[Paper], count: int, fields: Sequence[str] = ()) -> list[Paper]:
    """What a small store held before `pool` arrived: `count` papers, an even sample of the
    profile months of the split whose months hold the pool, of `fields` (default: the split's
    categories); never a pool paper."""
    name, every = rankers.stored_corpus(pool)
    wanted = set(fields or EVERY[name].categories)
    early = [
        p
        for p in every
        if corpus.month(p) in EVERY[name].profile_months and corpus.primary(p) in wanted
    ]
    return early[:: max(1, len(early) // count)][:count]


def small_store(count: int, fields: Sequence[str] = ()) -> rankers.Ranker:
    """`digest rank`'s way as a `digest run` over a store of fewer than 1000 papers could rank:
    `count` earlier stored papers (an even sample of the split's profile months, of `fields`;
    default: the split's categories) counted into the built-in background's document
    frequencies of the space's terms, the terms kept as they are (dropped: bench/results)."""
    original = background.joined

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        texts = [features.paper_text(p) for p in stored_before(pool, count, fields)]

        def joined(
            space: features.Space, rows: sp.csr_matrix
        ) -> tuple[features.Space, sp.csr_matrix]:
            found = background.load(background.FILE)
            space, rows = original(space, rows)
            if found is None:
                return space, rows
            where = found.where(space)
            df = np.full(space.size, background.UNSEEN_DF, np.float64)
            df[where >= 0] = found.frequencies(where)[where >= 0]
            df += np.bincount(space.transform(texts).indices, minlength=space.size)
            idf = features.idf_of(found.docs + len(texts), df)
            rows, _ = features.reweighed(rows, idf / space.idf, copy=False)
            space.idf = idf
            return space, rows

        with patched({(background, "joined"): joined}):
            return rankers.digest_on_pool(pool, queries)

    return ranker


def chosen(only: Sequence[str] | None) -> dict[str, rankers.Ranker]:
    """The trials a run with --only `only` takes, by name in the order they run: with no
    --only, the few run by default; the rest only when named."""
    ranks: dict[str, rankers.Ranker] = {}
    if not only or "- stored corpus (fit on the pool)" in only:
        ranks["- stored corpus (fit on the pool)"] = rankers.digest_on_pool
    if only and "+ latent basis of the pool (fit on the pool)" in only:
        ranks["+ latent basis of the pool (fit on the pool)"] = pool_basis()
    for name, (df, basis) in ON_POOL.items():
        if not only or name in only:
            ranks[name] = on_pool(df, basis)
    if only and POOL_CUT in only:
        # the rare-word cut as it was: by the pool's own counts, the background's terms not spared
        ranks[POOL_CUT] = on_pool_with({(background, "terms"): lambda: None})
    for name, fitted_on_pool in ((NO_PRIOR, False), (NO_PRIOR_ON_POOL, True)):
        if only and name in only:
            ranks[name] = without_prior(fitted_on_pool)
    for w in (0.0, 1.0):  # 0.5 is what `digest rank` ships with
        name = f"digest rank, whiten {w}"
        if only and name in only:
            ranks[name] = on_pool_with({(latent_component, "WHITEN"): w})
    for depth in (20, 30, 50, 100):
        name = f"digest rank, latent depth {depth}"
        if only and name in only:
            ranks[name] = on_pool_with({(latent_component, "DEPTH"): depth})
    for count in (300, 600, 900):
        name = f"digest rank, a store of {count} earlier papers"
        if only and name in only:
            ranks[name] = small_store(count)
    if not only or "+ latent SVD component (0.3)" in only:
        ranks["+ latent SVD component (0.3)"] = latent(0.3)
    for w in (0.05, 0.1, 0.2):
        name = f"+ latent SVD of the stored corpus ({w}, pools of 1000+)"
        if only and name in only:
            ranks[name] = latent_stored(w)
        for text_only in (True, False):
            name = f"+ BM25 fused ({w}, {'texts' if text_only else 'all'})"
            if only and name in only:
                ranks[name] = bm25_fused(w, text_only)
        name = f"+ BM25 fused ({w}, one-interest profiles)"
        if only and name in only:
            ranks[name] = bm25_fused(w, False, single=True)
    for k in (3, 5):
        name = f"+ feedback from the best {k} for texts and keywords"
        if only and name in only:
            ranks[name] = text_feedback(k)
    for name, (centroid, share) in POOL_STATISTICS.items():
        if only and name in only:
            ranks[name] = pool_statistics(centroid, share)
    for w in (0.5, 1.0):
        name = f"+ arxiv-sanity-lite's SVM fused by rank ({w})"
        if only and name in only:
            ranks[name] = fused_with_svm(w)
    return ranks
