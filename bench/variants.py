"""The shipped ranker's variants as patches: each idea a few module attributes swapped for one
run (VARIANTS on the relevance tasks, RATED on the ratings bench), `patched` that swaps them and
`variant` that makes a ranker of one."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import scipy.sparse as sp

from bench import rankers
from bench.tasks import Query
from digest.models import Paper
from digest.ranking import bags, features, interests, product, profiles, tokens
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
VARIANTS.update(
    {
        f"centroid weight {w} at the ramp's top": (
            f"the ramp to {w} (not 0.5) at POOL_MIN papers sharing a heavy word",
            {(profiles, "POOL_WEIGHT"): w},
        )
        for w in (0.35, 0.7, 0.9)
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


VARIANTS.update(
    {
        f"whiten {w}": (
            f"interest rows less {w} x the ramp's share of their projection on the basis",
            {(latent_component, "WHITEN"): w},
        )
        for w in (0.0, 0.25, 1.0)
    }
)
RATED.update({f"whiten {w}": VARIANTS[f"whiten {w}"] for w in (0.0, 1.0)})
VARIANTS.update(
    {
        f"library authors of one liked paper (boost {b})": (
            f"an author of any one liked paper weighs {b} x the share of the liked papers",
            {(profiles, "LIBRARY_AUTHOR_MIN"): 1, (profiles, "LIBRARY_AUTHOR_BOOST"): b},
        )
        for b in (0.2, 0.4)
    }
)


def own_weighed(weight: float) -> Patch:
    """interests._groups with each liked paper's own row weighing `weight` x one neighbour in its
    neighbourhood vector (shipped: 1, beside its 20 neighbours)."""
    from sklearn.cluster import KMeans
    from sparse_dot_topn import sp_matmul_topn

    def groups(docs, x, libraries):  # type: ignore[no-untyped-def]
        every = [r for rows in libraries for r in rows]
        near = sp_matmul_topn(
            docs[every], x.T, top_n=min(interests.NEIGHBOURS, x.shape[0])
        ).tocsr()
        near.data[:] = 1.0
        smooth = features.normalize(weight * docs[every] + near @ x)
        out, at = [], 0
        for rows in libraries:
            part = smooth[at : at + len(rows)]
            at += len(rows)
            k = min(interests.MAX_GROUPS, max(2, len(rows) // interests.PER_GROUP))
            labels = KMeans(k, n_init=4, random_state=0).fit_predict(part)
            members = [np.flatnonzero(labels == g) for g in range(k)]
            members = interests._merged(part, [m for m in members if m.size])
            out.append([[rows[i] for i in m] for m in members])
        return out

    return {(interests, "_groups"): groups}


VARIANTS.update(
    {
        f"library groups: own paper weighs {w} neighbours": (
            f"each liked paper's neighbourhood vector holds its own row {w} times",
            own_weighed(w),
        )
        for w in (1, 5, 20)
    }
)
