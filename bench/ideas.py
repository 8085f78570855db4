"""Each ranking idea's effect on the relevance tasks: the project's ranker as shipped, then with one
idea switched off (or one rejected idea switched on), measured on the TUNE split (what ideas are
chosen on) and then checked on the REPORT split; bench/results/ideas.md.

    .venv/bin/python -m bench.ideas [--data PATH] [--split tune|report|both]

With --ratings, the variants of RATED instead, each on bench/ratings.py's days (the relevance
tasks hold no rating, so these ideas cannot move them); bench/results/ideas-ratings.md.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from bench import corpus, rankers, relevance
from bench.tasks import SPLITS, Query
from digest.models import Paper, Scored
from digest.ranking import background, bags, features, interests, product, profiles, tokens
from digest.ranking import latent as latent_component

Patch = dict[tuple[object, str], object]


def pivoted(slope: float) -> Patch:
    """Pivoted length normalization (Singhal et al. 1996) of the space's rows: each divided by
    (1 - slope) x the mean l2 norm of the rows weighed together + slope x its own norm."""
    original = bags.weighted

    def weighted(counts, column, idf, width):  # type: ignore[no-untyped-def]
        out = original(list(counts), column, idf, width)  # which empties the list it is given
        if out.shape[0] < 2:
            return out
        norms = []
        for rows in counts:
            where = column[rows.indices]
            keep = where >= 0
            owner = np.repeat(np.arange(rows.shape[0]), np.diff(rows.indptr))[keep]
            weight = bags.TF(rows.data[keep].astype(np.float64)) * idf[where[keep]]
            norms.append(np.sqrt(np.bincount(owner, weight**2, minlength=rows.shape[0])))
        norm = np.concatenate(norms)
        filled = norm > 0
        divisor = (1 - slope) * norm[filled].mean() + slope * norm
        scale = np.where(filled, norm / np.where(filled, divisor, 1.0), 1.0)
        return (sp.diags(scale) @ out).tocsr()

    return {(bags, "weighted"): weighted}


def phrases_weighed(factor: float) -> Patch:
    """Phrase bigrams' weight times `factor` in every row (as if their idf were), words' alone."""
    count, weighted = bags.count, bags.weighted
    width = [0]

    def counted(ids, ends, n_words):  # type: ignore[no-untyped-def]
        width[0] = n_words  # the count before each weighing: fit and transform alike
        return count(ids, ends, n_words)

    def weighed(counts, column, idf, size):  # type: ignore[no-untyped-def]
        phrases = column[width[0] :]
        phrase = np.zeros(size, bool)
        phrase[phrases[phrases >= 0]] = True
        out = weighted(counts, column, idf, size)
        out.data[phrase[out.indices]] *= factor
        return features.normalize(out)

    return {(bags, "count"): counted, (bags, "weighted"): weighed}


# name -> (what the row shows, patches applied to the shipped ranker)
VARIANTS: dict[str, tuple[str, Patch]] = {
    "shipped": ("all kept ideas on", {}),
    "- authors of liked papers": (
        "no author signal from the library",
        {(profiles, "LIBRARY_AUTHOR_BOOST"): 0.0},
    ),
    "- Rocchio against the pool": ("no pool-mean negative", {(profiles, "POOL_WEIGHT"): 0.0}),
    "- latent component": (
        "each interest's best papers by words alone, not reordered in the latent basis",
        {(latent_component, "WEIGHT"): 0.0},
    ),
    "latent weight 0.2": ("score + 0.2 x latent cosine", {(latent_component, "WEIGHT"): 0.2}),
    "latent weight 0.4": ("score + 0.4 x latent cosine", {(latent_component, "WEIGHT"): 0.4}),
    "latent depth 200": ("each interest's best 200 reordered", {(latent_component, "DEPTH"): 200}),
    **{
        f"latent weight {w}": (f"score + {w} x latent cosine", {(latent_component, "WEIGHT"): w})
        for w in (0.6, 0.8, 1.2)
    },
    **{
        f"latent basis of {k} components": (
            f"the stored space's TruncatedSVD basis of {k} components, not 100",
            {(latent_component, "COMPONENTS"): k, (rankers, "_STORED"): {}},
        )
        for k in (50, 200, 300)
    },
    "latent weight 0.8, depth 100": (
        "score + 0.8 x latent cosine over each interest's best 100",
        {(latent_component, "WEIGHT"): 0.8, (latent_component, "DEPTH"): 100},
    ),
    "- several interests (one vector)": (
        "a large library stays one mean vector",
        {(interests, "CLUSTER_MIN"): 10**9},
    ),
    "disliked weight 1.0": ("a stronger Rocchio negative", {(profiles, "DISLIKED_WEIGHT"): 1.0}),
    "+ BM25 tf saturation (k1 1.2)": (
        "tf (k1 + 1) / (tf + k1) for 1 + log tf inside the cosine",
        {(bags, "TF"): lambda tf: tf * 2.2 / (tf + 1.2)},
    ),
    "idf without +1, background 50": (
        "log((1 + n + 50) / (1 + df)): common words weigh near 0, never 0",
        {(features, "IDF_FLOOR"): 0.0},
    ),
    "idf without +1, background 200": (
        "log((1 + n + 200) / (1 + df))",
        {(features, "IDF_FLOOR"): 0.0, (features, "BACKGROUND_DOCS"): 200},
    ),
    "background 0 (plain smooth idf)": ("no pseudo-documents", {(features, "BACKGROUND_DOCS"): 0}),
    "background 500": ("500 pseudo-documents", {(features, "BACKGROUND_DOCS"): 500}),
    "pool steps at every size": (
        "Rocchio against the pool at its whole weight on pools of any size",
        {(profiles, "POOL_MIN"): 1},
    ),
    "- min_df 2 on large corpora": ("words of one paper kept", {(features, "MIN_DF"): 1}),
    "- short papers weighed as short": (
        "every paper weighed by cosine alone, however few its features",
        {(features, "SHORT"): 1},
    ),
    "- bigrams (unigrams only)": ("no phrase bigrams", {(tokens, "BIGRAMS"): False}),
    "- domain stop words": (
        "English stop words only",
        {(tokens, "STOP_WORDS"): tokens.ENGLISH_STOP_WORDS},
    ),
    "title twice (not once)": (
        "the title counted twice",
        {(product, "paper_text"): lambda p: f"{p.title}. {p.title}. {p.abstract}"},
    ),
    "+ pivoted length normalization (s 0.2)": (
        "rows divided by 0.8 x the mean norm + 0.2 x their norm",
        pivoted(0.2),
    ),
    "+ pivoted length normalization (s 0.3)": (
        "rows divided by 0.7 x the mean norm + 0.3 x their norm",
        pivoted(0.3),
    ),
    "+ pivoted length normalization (s 0.5)": (
        "rows divided by 0.5 x the mean norm + 0.5 x their norm",
        pivoted(0.5),
    ),
}


def heavy_sharing(share: float) -> Callable[[sp.csr_matrix, np.ndarray], np.ndarray]:
    """product._sharing over the words of at least `share` x the interest's heaviest word's
    weight (shipped: profiles.HEAVY; 0: every word, as before)."""
    shipped = product._sharing

    def sharing(profile: sp.csr_matrix, df: np.ndarray) -> np.ndarray:
        with patched({(profiles, "HEAVY"): share}):
            return shipped(profile, df)

    return sharing


VARIANTS.update(
    {
        f"phrases weigh {f}": (
            f"phrase bigrams' weight times {f} in every row",
            phrases_weighed(f),
        )
        for f in (0.5, 1.5, 2.0)
    }
)
VARIANTS.update(
    {
        f"ramp by heavy words ({share})": (
            f"the centroid's ramp counts the papers holding the interest's words of {share}+ "
            "of its heaviest weight",
            {(product, "_sharing"): heavy_sharing(share)},
        )
        for share in (0.0, 0.25, 0.35, 0.75, 1.0)
    }
)
VARIANTS.update(
    {
        f"ramp by heavy words ({share}) to {least}": (
            f"the ramp by the words of {share}+ of the heaviest weight, full at {least} papers",
            {(product, "_sharing"): heavy_sharing(share), (profiles, "POOL_MIN"): least},
        )
        for share, least in ((0.75, 100), (1.0, 100))
    }
)
VARIANTS.update(
    {
        f"centroid weight {w} on any pool": (
            f"no ramp: the centroid weighs {w} whatever today's pool holds",
            {(profiles, "POOL_WEIGHT"): w, (profiles, "POOL_MIN"): 1e-9},
        )
        for w in (0.15, 0.25, 0.5)
    }
)


def fused_times(weight: float) -> Callable[..., np.ndarray]:
    """A latent key proportional to the words' score: score x exp(weight x (closeness - near)),
    so that it is 0 where the score is and can be shown, and held to thresholds, as the score."""

    def fuse(scores: np.ndarray, close: np.ndarray, near: np.ndarray | float) -> np.ndarray:
        times = np.exp(weight * (close - latent_component.DISLIKED_NEAR / 0.3 * near))
        return np.asarray(scores * times)

    return fuse


VARIANTS.update(
    {
        f"latent key score x exp({w} x closeness)": (
            f"the latent order by score x exp({w} x (latent cosine + author weight - near))",
            {(latent_component, "fuse"): fused_times(w)},
        )
        for w in (1.0, 2.0, 3.0)
    }
)


def latent_expanded(beta: float, terms: int = 50) -> Patch:
    """LSI query expansion: each interests text and keywords vector plus `beta` x (its length) x
    the unit vector of the `terms` heaviest words of its rank-100 reconstruction in the latent
    basis (the stored space's, fixed: no pool counts), before the library joins it."""
    original = profiles.profiles

    def expanded(space, docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        basis, n = space.basis, len(subscribers)
        if basis is None:
            return original(space, docs, subscribers, library_rows, disliked_rows)
        interests = space.transform([s.profile.interests for s in subscribers])
        phrases = [(i, kw) for i, s in enumerate(subscribers) for kw in s.profile.keywords]
        keywords = sp.csr_matrix(interests.shape, dtype=interests.dtype)
        if phrases:
            rows = space.transform([kw for _, kw in phrases])
            keywords = profiles.group_sum(
                rows, list(range(len(phrases))), [i for i, _ in phrases], n
            )
        text = (interests + profiles.KEYWORD_WEIGHT * keywords).tocsr()
        z = np.asarray(text[:, basis.columns].astype(np.float32) @ basis.vectors)
        back = z @ basis.vectors.T  # each text rebuilt from the basis, over its columns
        at, cols, vals = [], [], []
        for i in range(n):
            if not text[i].nnz:
                continue
            top = np.argpartition(-back[i], terms)[:terms]
            top = top[back[i][top] > 0]
            at += [i] * len(top)
            cols += basis.columns[top].tolist()
            vals += back[i][top].tolist()
        extra = features.normalize(sp.csr_matrix((vals, (at, cols)), shape=text.shape))
        size = np.sqrt(np.asarray(text.multiply(text).sum(axis=1)).ravel())
        text = text + sp.diags(beta * size) @ extra

        def mean(groups):  # type: ignore[no-untyped-def]
            owners = [i for i, rows in enumerate(groups) for _ in rows]
            return profiles.group_sum(docs, [r for rows in groups for r in rows], owners, n)

        out = features.normalize(
            text + mean(library_rows) - profiles.DISLIKED_WEIGHT * mean(disliked_rows)
        ).tocsr()
        out.sort_indices()
        return out

    return {(profiles, "profiles"): expanded, (product, "profiles"): expanded}


VARIANTS.update(
    {
        f"+ latent query expansion {b}": (
            f"texts and keywords plus {b} x their 50 heaviest words rebuilt from the basis",
            latent_expanded(b),
        )
        for b in (0.2, 0.4, 0.7)
    }
)

# Ideas that act on ratings only: measured on bench/ratings.py's simulated reader.
RATED: dict[str, tuple[str, Patch]] = {
    "shipped": ("all kept ideas on", {}),
    "- nearest rated-down paper (0.3)": (
        "no latent-order penalty for closeness to a paper rated down (the Rocchio step alone)",
        {(latent_component, "DISLIKED_NEAR"): 0.0},
    ),
    **{
        f"nearest rated-down paper {w}": (
            f"the order's key loses {w} x the cosine with the closest paper rated down",
            {(latent_component, "DISLIKED_NEAR"): w},
        )
        for w in (0.45, 0.6, 1.0)
    },
    "disliked weight 1.0": ("a stronger Rocchio negative", {(profiles, "DISLIKED_WEIGHT"): 1.0}),
}
RATED["- several interests (one vector)"] = VARIANTS["- several interests (one vector)"]
RATED.update(
    {
        f"interests merged below {m}": (
            f"groups of liked papers closer than {m} are one interest",
            {(interests, "MERGE_SIMILARITY"): m},
        )
        for m in (0.3, 0.2)
    }
)
RATED.update({f"latent weight {w}": VARIANTS[f"latent weight {w}"] for w in (0.2, 0.4, 0.6, 0.8)})
RATED["latent depth 200"] = VARIANTS["latent depth 200"]
RATED["ramp by every word"] = VARIANTS["ramp by heavy words (0.0)"]


def text_with_library(mode: str, weight: float = 1.0) -> Patch:
    """A split profile's interests text kept with its library: "whole" makes the text's interest
    the whole Rocchio vector (text, keywords, every liked paper, less the disliked); "anchored"
    adds `weight` x the text's vector to each group of liked papers."""
    original = interests.split

    def split(whole, space, docs, x, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        out = original(whole, space, docs, x, subscribers, library_rows, disliked_rows)
        n = len(subscribers)
        if out.vectors.shape[0] == n:
            return out
        empty: list[list[int]] = [[] for _ in range(n)]
        texts = profiles.profiles(space, docs, subscribers, empty, empty)
        dislike = profiles.profiles(
            space, docs, [_blank(s) for s in subscribers], empty, disliked_rows
        )
        rows = []
        for i, label in enumerate(out.labels):
            si, row = int(out.owner[i]), out.vectors[i]
            if mode == "whole" and label == "your interests text and keywords":
                row = whole[si]
            elif mode == "anchored" and label and out.library[i] and texts[si].nnz:
                mean = features.normalize(sp.csr_matrix(docs[out.library[i]].sum(axis=0)))
                row = features.normalize(
                    mean + weight * texts[si] + profiles.DISLIKED_WEIGHT * dislike[si]
                )
            rows.append(row)
        vectors = sp.vstack(rows, format="csr")
        vectors.sort_indices()
        return dataclasses.replace(out, vectors=vectors)

    return {(interests, "split"): split}


def _blank(s):  # type: ignore[no-untyped-def]
    """The subscriber without interests text and keywords (its disliked part alone remains)."""
    return dataclasses.replace(s, profile=dataclasses.replace(s.profile, interests="", keywords=()))


RATED.update(
    {
        "text interest = whole profile": (
            "a split profile's text interest holds its library and dislikes too",
            text_with_library("whole"),
        ),
        **{
            f"groups anchored by the text ({w})": (
                f"each group of liked papers plus {w} x the interests text's vector",
                text_with_library("anchored", w),
            )
            for w in (0.5, 1.0)
        },
    }
)
RATED["ramp by heavy words (0.35)"] = VARIANTS["ramp by heavy words (0.35)"]


@contextlib.contextmanager
def patched(patch: Patch) -> Iterator[None]:
    saved = {key: getattr(*key) for key in patch}
    try:
        for (owner, name), value in patch.items():
            setattr(owner, name, value)
        yield
    finally:
        for (owner, name), value in saved.items():
            setattr(owner, name, value)


def variant(patch: Patch) -> rankers.Ranker:
    # A variant of how rows are made fits its own stored space: the shipped one's rows, centroid
    # and basis beside the variant's profile rows would measure neither.
    if any(owner in (bags, features, tokens) for owner, _ in patch):
        patch = {**patch, (rankers, "_STORED"): {}}

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched(patch):
            return rankers.digest_ranker(pool, queries)

    return ranker


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


def on_pool_depth(depth: int) -> rankers.Ranker:
    """`digest rank`'s way with each interest's best `depth` by words reordered."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(latent_component, "DEPTH"): depth}):
            return rankers.digest_on_pool(pool, queries)

    return ranker


def on_pool_pool_cut() -> rankers.Ranker:
    """`digest rank`'s way with the rare-word cut as it was: by the pool's own counts, from 1000
    texts on, the background's terms not spared."""

    def ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(background, "terms"): lambda: None}):
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=["tune", "report", "both"], default="both")
    parser.add_argument("--only", nargs="+", help="these variants (and shipped) only")
    parser.add_argument("--ratings", action="store_true", help="the ideas of RATED, on ratings")
    parser.add_argument(
        "--texts", action="store_true", help="the ideas of VARIANTS, on interests texts alone"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    corpus.use(args.data)
    if args.ratings:
        return _ratings(
            args.split, args.only, Path(args.out or relevance.RESULTS / "ideas-ratings")
        )
    if args.texts:
        return _texts(args.split, args.only, Path(args.out or relevance.RESULTS / "ideas-texts"))
    args.out = args.out or str(relevance.RESULTS / "ideas")
    names = [n for n in VARIANTS if n == "shipped" or not args.only or n in args.only]
    ranks: dict[str, rankers.Ranker] = {n: variant(VARIANTS[n][1]) for n in names}
    if not args.only or "- stored corpus (fit on the pool)" in args.only:
        ranks["- stored corpus (fit on the pool)"] = rankers.digest_on_pool
    if args.only and "+ latent basis of the pool (fit on the pool)" in args.only:
        ranks["+ latent basis of the pool (fit on the pool)"] = pool_basis()
    for name, (df, basis) in ON_POOL.items():
        if not args.only or name in args.only:
            ranks[name] = on_pool(df, basis)
    if args.only and POOL_CUT in args.only:
        ranks[POOL_CUT] = on_pool_pool_cut()
    for name, fitted_on_pool in ((NO_PRIOR, False), (NO_PRIOR_ON_POOL, True)):
        if args.only and name in args.only:
            ranks[name] = without_prior(fitted_on_pool)
    for depth in (20, 30, 50, 100):
        name = f"digest rank, latent depth {depth}"
        if args.only and name in args.only:
            ranks[name] = on_pool_depth(depth)
    if not args.only or "+ latent SVD component (0.3)" in args.only:
        ranks["+ latent SVD component (0.3)"] = latent(0.3)
    for w in (0.05, 0.1, 0.2):
        name = f"+ latent SVD of the stored corpus ({w}, pools of 1000+)"
        if args.only and name in args.only:
            ranks[name] = latent_stored(w)
        for text_only in (True, False):
            name = f"+ BM25 fused ({w}, {'texts' if text_only else 'all'})"
            if args.only and name in args.only:
                ranks[name] = bm25_fused(w, text_only)
        name = f"+ BM25 fused ({w}, one-interest profiles)"
        if args.only and name in args.only:
            ranks[name] = bm25_fused(w, False, single=True)
    for k in (3, 5):
        name = f"+ feedback from the best {k} for texts and keywords"
        if args.only and name in args.only:
            ranks[name] = text_feedback(k)
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    chosen = list(SPLITS) if args.split == "both" else [args.split]
    scale = {"per_category": 4, "authors": 80, "examples": 40}
    texts, results = [], {}
    for key in chosen:
        results[key] = relevance.run_split(SPLITS[key], ranks, scale, log)
        texts.append(_table(key, results[key]))
        print(texts[-1] + "\n", flush=True)
    out = Path(args.out)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(
        "# Ranking ideas, one at a time\n\n"
        "Command: `python -m bench.ideas` (the tasks of bench/tasks.py). Row `shipped` is the "
        "ranker as it ships; every other row switches one idea off (-) or one idea on (+), and "
        "shows its difference from shipped, paired over queries (standard error in brackets).\n\n"
        + "\n\n".join(texts)
        + "\n",
        encoding="utf-8",
    )
    return 0


def _ratings(split: str, only: Sequence[str] | None, out: Path) -> int:
    """Every RATED variant's P@10 on each day of the ratings bench, paired with shipped's."""
    from bench import ratings

    names = [n for n in RATED if n == "shipped" or not only or n in only]
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    texts = []
    for key in list(SPLITS) if split == "both" else [split]:
        runs = {}
        for name in names:
            ranker = variant(RATED[name][1])
            runs[name] = ratings.run(SPLITS[key], log, ("digest, rated",), ranker)
        head = "| variant | start | " + " | ".join(f"day {d}" for d in range(2, ratings.DAYS + 1))
        lines = [f"### {key}", "", head + " |", "|" + " --- |" * (ratings.DAYS + 1)]
        for name in names:
            for start, figures in runs[name].items():
                assert isinstance(figures, dict)
                cells = []
                for day in range(2, ratings.DAYS + 1):
                    base = runs["shipped"][start]["digest, rated"][day]  # type: ignore[index]
                    cells.append(_cell(name, figures["digest, rated"][day], base))
                lines.append(f"| {name} | {start} | " + " | ".join(cells) + " |")
        texts.append(_shown(lines))
    return _written(
        out,
        "# Ranking ideas on ratings, one at a time\n\n"
        "Command: `python -m bench.ideas --ratings` (bench/ratings.py's reader: the top 10 of "
        "each day rated for three days). Row `shipped` is P@10 of the rated profile as it "
        "ships; every other row is its difference from shipped, paired over profiles "
        "(standard error in brackets).",
        texts,
    )


def _shown(lines: list[str]) -> str:
    """A split's table, printed as it is done."""
    text = "\n".join(lines)
    print(text + "\n", flush=True)
    return text


def _written(out: Path, head: str, tables: list[str]) -> int:
    out.with_suffix(".md").write_text(head + "\n\n" + "\n\n".join(tables) + "\n", encoding="utf-8")
    return 0


def _cell(name: str, mine: Sequence[float], base: Sequence[float]) -> str:
    """A table cell: shipped's mean, or another row's paired difference from it (its SE)."""
    if name == "shipped":
        return f"{np.mean(mine):.3f}"
    d, se = relevance.paired(list(mine), list(base))
    return f"{d:+.3f} ({se:.3f})"


def _texts(split: str, only: Sequence[str] | None, out: Path) -> int:
    """Every VARIANT's P@10 on the interests texts alone over the ratings bench's day pools (four
    times a relevance task's queries), paired with shipped's, beside BM25 and arxiv-sanity-lite."""
    from bench import ratings

    names = [n for n in VARIANTS if n == "shipped" or not only or n in only]
    ranks = {n: variant(VARIANTS[n][1]) for n in names}
    ranks.update({"BM25": rankers.bm25, "arxiv-sanity-lite": rankers.arxiv_sanity_lite})
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    texts = []
    for key in list(SPLITS) if split == "both" else [split]:
        result = ratings.texts(SPLITS[key], ranks, log)
        styles = list(result)
        lines = [
            f"### {key}",
            "",
            "| variant | "
            + " | ".join(f"{s} (n {len(result[s]['shipped'])})" for s in styles)
            + " |",
            "|" + " --- |" * (len(styles) + 1),
        ]
        lines += [
            f"| {name} | "
            + " | ".join(_cell(name, result[s][name], result[s]["shipped"]) for s in styles)
            + " |"
            for name in ranks
        ]
        texts.append(_shown(lines))
    return _written(
        out,
        "# Ranking ideas on interests texts, one at a time\n\n"
        "Command: `python -m bench.ideas --texts` (each interests text alone, unrated, on each "
        "of bench/ratings.py's four day pools; P@10, the paper's primary category as relevance). "
        "Row `shipped` is the ranker as it ships; every other row (BM25 and arxiv-sanity-lite "
        "too) is its difference from shipped, paired over (text, pool) (standard error in "
        "brackets).",
        texts,
    )


def _table(split: str, result: dict[str, object]) -> str:
    tasks = result["tasks"]
    assert isinstance(tasks, dict)
    names = list(next(iter(tasks.values()))["values"])
    lines = [
        f"### {split}",
        "",
        "| variant | " + " | ".join(tasks) + " |",
        "|" + " --- |" * (len(tasks) + 1),
    ]
    for name in names:
        cells = []
        for entry in tasks.values():
            values = entry["values"]
            if name == "shipped":
                cells.append(f"{np.mean(values[name]):.3f}")
            else:
                d, se = relevance.paired(values[name], values["shipped"])
                cells.append(f"{d:+.3f} ({se:.3f})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
