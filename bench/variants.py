"""The shipped ranker's variants, each idea a patch (bench/patches.py) by name: VARIANTS on the
relevance tasks, RATED on the ratings bench, and `variant` that makes a ranker of one."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from bench import rankers
from bench.groupings import (
    agglomerative_groups,
    local_groups,
    merged_relative,
    neighbours_weighed,
    own_weighed,
    silhouette_groups,
    text_share,
    toward_whole,
    whole_library_too,
)
from bench.patches import (
    Patch,
    disliked_balanced,
    disliked_centroid,
    disliked_contrast,
    disliked_off_heavy,
    fused_times,
    heavy_sharing,
    latent_expanded,
    library_linear_tf,
    library_sharpened,
    negatives_by_nearness,
    negatives_clipped,
    negatives_unclipped,
    patched,
    phrases_weighed,
    pivoted,
    text_with_library,
    texts_idf,
    whitened_by_projection,
)
from bench.tasks import Query
from digest.models import Paper
from digest.ranking import background, bags, features, interests, product, profiles, tokens
from digest.ranking import latent as latent_component

__all__ = ["RATED", "VARIANTS", "Patch", "patched", "variant"]


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


VARIANTS.update(
    {
        f"latent key score x exp({w} x closeness)": (
            f"the latent order by score x exp({w} x (latent cosine + author weight - near))",
            {(latent_component, "fuse"): fused_times(w)},
        )
        for w in (1.0, 2.0, 3.0)
    }
)


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
    **{
        f"disliked weight {w}": (
            f"the Rocchio negative at {w}, not 0.5 (the latent order's penalty stays)",
            {(profiles, "DISLIKED_WEIGHT"): w},
        )
        for w in (0.25, 0.0)
    },
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


def _background_basis(space):  # type: ignore[no-untyped-def]
    found = background.load(background.FILE)
    if found is None or space.basis is None:
        return space
    out = copy.copy(space)
    out.basis = found.basis(found.where(space))
    return out


VARIANTS["+ a store's latent basis the background's"] = (
    "a stored space's latent basis is the built-in background's, not one fitted on its papers",
    {(background, "blended"): _background_basis},
)
VARIANTS["- the background's basis beside a store's"] = (
    "a stored space's latent basis is its own alone, not blended with the background's",
    {(background, "blended"): lambda space: space},
)
VARIANTS["- store's words as rare as the background's"] = (
    "a stored space's columns are every word of 2+ stored papers, not the background's terms "
    "and the stored words as common as its rarest",
    {(background, "fitted"): lambda texts, keep, docs, liked=(): features.fit(texts, keep)},
)


def variant(patch: Patch) -> rankers.Ranker:
    # A variant of how rows are made fits its own stored space: the shipped one's rows, centroid
    # and basis beside the variant's profile rows would measure neither.
    if any(owner in (background, bags, features, tokens) for owner, _ in patch):
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
VARIANTS.update(
    {
        f"whiten up to {w} off the basis": (
            f"interest rows less {w} x the ramp x (1 - their share in the basis) of their "
            "projection on it",
            whitened_by_projection(w),
        )
        for w in (0.75, 1.0)
    }
)
VARIANTS.update(
    {
        f"library neighbours weighed by cosine ** {p}": (
            f"each liked paper's closest papers weigh (their cosine / the closest's) ** {p}",
            neighbours_weighed(p),
        )
        for p in (1.0, 2.0, 3.0, 4.0)
    }
)
VARIANTS.update(
    {
        f"library groups by centroid linkage from single papers (merge above {t})": (
            f"no k-means: each liked paper a group, the closest two joined while above {t}",
            agglomerative_groups(t),
        )
        for t in (0.3, 0.4, 0.5)
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


VARIANTS.update(
    {
        f"library groups: own paper weighs {w} neighbours": (
            f"each liked paper's neighbourhood vector holds its own row {w} times",
            own_weighed(w),
        )
        for w in (1, 5, 20)
    }
)

VARIANTS.update(
    {
        f"library as one interest per liked paper (+ its {m} closest)": (
            f"every liked paper with its {m} closest liked papers an interest, drawn in turn",
            local_groups(m),
        )
        for m in (0, 2, 4)
    }
)
VARIANTS["- draw by group size (in turn)"] = (
    "a digest draws from each interest in turn, not in proportion to its liked papers",
    {(interests, "BY_SIZE"): False},
)
RATED["- draw by group size (in turn)"] = VARIANTS["- draw by group size (in turn)"]
VARIANTS.update(
    {
        f"interests merged above {m}": (
            f"groups of liked papers merge while their neighbourhood centroids are closer than {m}",
            {(interests, "MERGE_SIMILARITY"): m},
        )
        for m in (0.3, 0.45, 0.5, 0.6)
    }
)
VARIANTS["interests of 3 liked papers each"] = (
    "k-means k = library size // 3 (at most 5), not // 5",
    {(interests, "PER_GROUP"): 3},
)
RATED.update(
    {
        f"interests text's share: the groups' {m}": (
            f"the interests text draws as the groups' {m}, not their mean",
            text_share(m),
        )
        for m in ("sum", "max")
    }
)
VARIANTS["+ the whole library as one more interest (its share: every liked paper)"] = (
    "a split library's whole profile row is one more interest, drawn by all its papers",
    whole_library_too(),
)
RATED["+ the whole library as one more interest (its share: every liked paper)"] = VARIANTS[
    "+ the whole library as one more interest (its share: every liked paper)"
]
VARIANTS.update(
    {
        f"groups merged by relative closeness ({r})": (
            f"groups merge while their papers' mean cross cosine is {r}+ x their own mean cosine",
            merged_relative(r),
        )
        for r in (0.7, 0.8, 0.9)
    }
)
VARIANTS.update(
    {
        f"library groups toward the library's mean ({w})": (
            f"each group's row plus {w} x the unit mean of the whole library, normalized",
            toward_whole(w),
        )
        for w in (0.5, 1.0, 2.0)
    }
)
VARIANTS.update(
    {
        f"library groups: k by silhouette{'' if f is None else f', one group under {f}'}": (
            "k-means k chosen by the mean silhouette, not library size // 5",
            silhouette_groups(f),
        )
        for f in (None, 0.05, 0.1, 0.15, 0.2, 0.3)
    }
)
VARIANTS.update(
    {
        f"interests merged above {m}, groups toward the library's mean ({w})": (
            f"groups merge while closer than {m}; each row plus {w} x the library's unit mean",
            {(interests, "MERGE_SIMILARITY"): m, **toward_whole(w)},
        )
        for m, w in ((0.5, 1.0), (0.5, 2.0), (0.6, 1.0), (0.6, 2.0))
    }
)
RATED["interests merged above 0.5, groups toward the library's mean (1.0)"] = VARIANTS[
    "interests merged above 0.5, groups toward the library's mean (1.0)"
]
VARIANTS.update(
    {
        f"texts weighed by idf ** {1 - a:g}": (
            f"the interests text and keywords weighed by idf ** {1 - a:g}, not idf",
            texts_idf(a),
        )
        for a in (0.25, 0.5, 1.0)
    }
)
VARIANTS["- library groups of 1-3 papers joined to the closest (any size an interest)"] = (
    "a group of liked papers of any size is an interest, as before interests.LEAST",
    {(interests, "LEAST"): 1, (interests, "CLUSTER_MIN"): 6},
)
RATED["- library groups of 1-3 papers joined to the closest (any size an interest)"] = VARIANTS[
    "- library groups of 1-3 papers joined to the closest (any size an interest)"
]
VARIANTS.update(
    {
        f"library groups of fewer than {m} papers joined to the closest": (
            f"a group of fewer than {m} liked papers (not 4) joins its closest group",
            {(interests, "LEAST"): m},
        )
        for m in (3, 5)
    }
)
VARIANTS.update(
    {
        f"library groups by {n} neighbours": (
            f"each liked paper's neighbourhood vector sums its {n} closest papers, not 20",
            {(interests, "NEIGHBOURS"): n},
        )
        for n in (10, 40)
    }
)
VARIANTS.update(
    {
        f"liked papers' rows to the power {p}": (
            f"each liked paper's row ** {p} (unit length again) before the profile's mean",
            library_sharpened(p),
        )
        for p in (1.5, 2.0)
    }
)
VARIANTS.update(
    {
        f"liked papers' rows of tf ** {p}": (
            f"each liked paper's row weighed by tf ** {p} x idf, not (1 + log tf) x idf",
            library_linear_tf(p),
        )
        for p in (0.5, 1.0)
    }
)


RATED.update(
    {
        "- negative weights clipped": (
            "a rated-down paper's words that the profile lacks weigh below zero, as before",
            negatives_unclipped(),
        ),
        "downs: negative weights clipped": (
            "Rocchio's clipping: words the negative takes below zero are zero",
            negatives_clipped(),
        ),
        "downs: Rocchio centroid": (
            "the negative is the downs' raw centroid (its length their agreement), not unit",
            disliked_centroid(),
        ),
        "downs: weighed by the balance": (
            "the negative's weight times min(1, positives / downs)",
            disliked_balanced(),
        ),
        "downs: off the heavy words": (
            "the negative without the positive part's heavy words",
            disliked_off_heavy(),
        ),
        "downs: below zero by 1 - cos": (
            "words the negative takes below zero keep 1 - cos(positive part, negative) of it",
            negatives_by_nearness(),
        ),
        "downs: contrast with the rated": (
            "the negative is W x liked / (liked + downs) x (downs' centroid - liked centroid)",
            disliked_contrast(),
        ),
    }
)
VARIANTS["- latent grouping (neighbourhoods in the pool)"] = (
    "liked papers grouped by their neighbourhoods among today's papers, as before rank31 F2",
    {(interests, "LATENT"): False},
)
RATED["- latent grouping (neighbourhoods in the pool)"] = VARIANTS[
    "- latent grouping (neighbourhoods in the pool)"
]
VARIANTS.update(
    {
        f"latent grouping, merged above {m}": (
            f"groups whose latent centroids are closer than {m} (not 0.55) are one interest",
            {(interests, "MERGE_LATENT"): m},
        )
        for m in (0.45, 0.65)
    }
)
