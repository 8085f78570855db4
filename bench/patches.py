"""The ranking ideas as patches: `Patch` (module attributes to swap for one run), `patched`
that swaps them, and the builders of the ideas that swap a function, not a constant (the
registries of bench/variants.py name them; those of a library's interests are in groupings.py)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator

import numpy as np
import scipy.sparse as sp

from digest.ranking import bags, features, interests, product, profiles
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


def heavy_sharing(share: float) -> Callable[[sp.csr_matrix, np.ndarray], np.ndarray]:
    """product._sharing over the words of at least `share` x the interest's heaviest word's
    weight (shipped: profiles.HEAVY; 0: every word, as before)."""
    shipped = product._sharing

    def sharing(profile: sp.csr_matrix, df: np.ndarray) -> np.ndarray:
        with patched({(profiles, "HEAVY"): share}):
            return shipped(profile, df)

    return sharing


def fused_times(weight: float) -> Callable[..., np.ndarray]:
    """A latent key proportional to the words' score: score x exp(weight x (closeness - near)),
    so that it is 0 where the score is and can be shown, and held to thresholds, as the score."""

    def fuse(scores: np.ndarray, close: np.ndarray, near: np.ndarray | float) -> np.ndarray:
        times = np.exp(weight * (close - latent_component.DISLIKED_NEAR / 0.3 * near))
        return np.asarray(scores * times)

    return fuse


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


class _TextsIdf:
    """A Space whose transform() weighs words by idf ** (1 - power): for the profile's texts."""

    def __init__(self, space: features.Space, power: float) -> None:
        self._space, self._power = space, power

    def __getattr__(self, name: str) -> object:
        return getattr(self._space, name)

    def transform(self, texts):  # type: ignore[no-untyped-def]
        rows = self._space.transform(texts)
        return features.normalize(rows @ sp.diags(self._space.idf**-self._power))


def texts_idf(power: float) -> Patch:
    """profiles.profiles with the interests text and keywords weighed by idf ** (1 - power), not
    idf: a paper's score is then nearer BM25's sum of idf over the query's words (idf once) than
    the cosine's idf squared, which lets one rare word of a short text decide."""
    original = profiles.profiles

    def profiles_(space, docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        return original(_TextsIdf(space, power), docs, subscribers, library_rows, disliked_rows)

    return {(profiles, "profiles"): profiles_, (product, "profiles"): profiles_}


def whitened_by_projection(top: float) -> Patch:
    """latent.whitened with each interest's share times `top` / WHITEN x (1 - the share of its
    row's squared length that lies in the basis): an interest of a large field, along the
    corpus's main axes, keeps them; one of a small field, off them, is whitened up to `top`."""
    original = latent_component.whitened

    def whitened(vectors, basis, share):  # type: ignore[no-untyped-def]
        if basis is None:
            return vectors
        rows = vectors.tocsr()
        z = np.asarray(rows[:, basis.columns].astype(np.float32) @ basis.vectors)
        length = np.asarray(rows.multiply(rows).sum(axis=1)).ravel()
        inside = np.minimum(1.0, (z**2).sum(axis=1) / np.maximum(length, 1e-24))
        return original(vectors, basis, share * (top / latent_component.WHITEN) * (1 - inside))

    return {(latent_component, "whitened"): whitened}


def library_sharpened(power: float) -> Patch:
    """profiles.profiles with each liked paper's row raised to `power` (then unit length) before
    the mean: its heaviest words (repeated, rare) weigh more, nearer BM25's query of raw counts,
    which leads digest on the focused pools where a field's theme words decide."""
    original = profiles.profiles

    def profiles_(space, docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        liked = np.zeros(docs.shape[0], bool)
        liked[[r for rows in library_rows for r in rows]] = True
        sharp = docs.copy()
        owner = np.repeat(np.arange(docs.shape[0]), np.diff(docs.indptr))
        sharp.data[liked[owner]] **= power
        return original(space, features.normalize(sharp), subscribers, library_rows, disliked_rows)

    return {(profiles, "profiles"): profiles_, (product, "profiles"): profiles_}


def library_linear_tf(power: float = 1.0) -> Patch:
    """profiles.profiles with each liked paper's row weighed by tf ** power x idf, not
    (1 + log tf) x idf: the words a liked paper repeats lead its profile, as in BM25's query of
    raw counts. A row's tf comes back from its weights: the smallest weight / idf is a word's of
    tf 1 (an abstract nearly always holds one)."""
    original = profiles.profiles

    def profiles_(space, docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        liked = np.zeros(docs.shape[0], bool)
        liked[[r for rows in library_rows for r in rows]] = True
        rows = docs.copy()
        for r in np.flatnonzero(liked):
            part = slice(rows.indptr[r], rows.indptr[r + 1])
            idf = space.idf[rows.indices[part]]
            ratio = rows.data[part] / idf
            tf = np.exp(ratio / ratio.min() - 1) if ratio.size else ratio
            rows.data[part] = np.round(tf) ** power * idf
        return original(space, features.normalize(rows), subscribers, library_rows, disliked_rows)

    return {(profiles, "profiles"): profiles_, (product, "profiles"): profiles_}


# Ratings from one liked paper on small fields (/tmp/probe/ratings-3.md): the rated-down papers
# of a day are its top 10 by closeness to the liked paper, so what they share is that paper's own
# field; these change what the Rocchio negative (profiles.disliked_part / profiles.rocchio) is.


def _disliked_mean(docs, disliked_rows, n, unit=True):  # type: ignore[no-untyped-def]
    """Per subscriber, the mean of its rated-down rows: unit length, or the raw centroid."""
    owners = [i for i, rows in enumerate(disliked_rows) for _ in rows]
    columns = [r for rows in disliked_rows for r in rows]
    pick = sp.csr_matrix(
        (np.ones(len(columns)), (owners, columns)), shape=(n, docs.shape[0]), dtype=docs.dtype
    )
    total = pick @ docs
    if unit:
        return features.normalize(total)
    counts = np.maximum(np.bincount(owners, minlength=n), 1).astype(float)
    return sp.diags(1.0 / counts) @ total


def negatives_clipped() -> Patch:
    """Rocchio's standard clipping: a profile row's words that the negative took below zero are
    zero, so a down only lowers the weight of words the positive part holds."""

    def rocchio(positive, negative):  # type: ignore[no-untyped-def]
        out = (positive - negative).tocsr()
        out.data = np.maximum(out.data, 0.0)
        out.eliminate_zeros()
        return features.normalize(out)

    return {(profiles, "rocchio"): rocchio}


def disliked_centroid() -> Patch:
    """The negative as Rocchio's own centroid: the raw mean of the rated-down papers' unit rows
    (its length is how much they agree), not that mean made unit length."""

    def part(docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        mean = _disliked_mean(docs, disliked_rows, len(subscribers), unit=False)
        return profiles.DISLIKED_WEIGHT * mean

    return {(profiles, "disliked_part"): part}


def _positives(subscribers, library_rows):  # type: ignore[no-untyped-def]
    """Per subscriber, its positive evidence in papers: liked papers, and its interests text and
    keywords as one more."""
    return np.array(
        [
            len(rows) + (1 if (s.profile.interests.strip() or s.profile.keywords) else 0)
            for s, rows in zip(subscribers, library_rows, strict=True)
        ],
        float,
    )


def disliked_balanced() -> Patch:
    """The negative's weight times min(1, positives / downs): rated-down papers weigh at most as
    much, together, as the positive evidence they are contrasted with."""

    def part(docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        n = len(subscribers)
        downs = np.array([len(r) for r in disliked_rows], float)
        share = np.minimum(1.0, _positives(subscribers, library_rows) / np.maximum(downs, 1.0))
        mean = _disliked_mean(docs, disliked_rows, n)
        return profiles.DISLIKED_WEIGHT * (sp.diags(share) @ mean)

    return {(profiles, "disliked_part"): part}


def disliked_off_heavy(share: float = 0.5) -> Patch:
    """The negative without the words it shares with the positive part's heavy words (of at least
    `share` x its heaviest): a near miss says "not this field", not "not this paper's topic"."""

    def rocchio(positive, negative):  # type: ignore[no-untyped-def]
        pos = positive.tocsr()
        neg = negative.tocsr().copy()
        for i in range(pos.shape[0]):
            lo, hi = pos.indptr[i], pos.indptr[i + 1]
            if hi == lo or neg.indptr[i + 1] == neg.indptr[i]:
                continue
            top = pos.data[lo:hi].max()
            heavy = set(pos.indices[lo:hi][pos.data[lo:hi] >= share * top].tolist())
            at = slice(neg.indptr[i], neg.indptr[i + 1])
            keep = np.array([c not in heavy for c in neg.indices[at]])
            neg.data[at] = np.where(keep, neg.data[at], 0.0)
        neg.eliminate_zeros()
        return features.normalize(pos - neg)

    return {(profiles, "rocchio"): rocchio}


def disliked_contrast() -> Patch:
    """The negative centred on every rated paper: DISLIKED_WEIGHT x (the downs' centroid - the
    centroid of the liked and rated-down papers together) = W x liked / (liked + downs) x (downs'
    centroid - liked centroid). A down then says "less like this than what you rated", and the
    retrieval's own bias (every rated paper was shown for being near the liked ones) cancels."""

    def part(docs, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        n = len(subscribers)
        d = _disliked_mean(docs, disliked_rows, n, unit=False)
        lib = _disliked_mean(docs, library_rows, n, unit=False)
        nd = np.array([len(r) for r in disliked_rows], float)
        nl = np.array([len(r) for r in library_rows], float)
        share = np.where(nd > 0, nl / np.maximum(nl + nd, 1.0), 0.0)
        return profiles.DISLIKED_WEIGHT * (sp.diags(share) @ (d - lib))

    return {(profiles, "disliked_part"): part}


def negatives_unclipped() -> Patch:
    """The profile as before Rocchio's clipping: words a rated-down paper holds and the rest of
    the profile lacks weigh below zero."""

    def rocchio(positive, negative):  # type: ignore[no-untyped-def]
        return features.normalize(positive - negative)

    return {(profiles, "rocchio"): rocchio}


def _row_cosines(a: sp.csr_matrix, b: sp.csr_matrix) -> np.ndarray:
    """Each row's cosine of a with the same row of b (0 where either row is empty)."""
    dot = np.asarray(a.multiply(b).sum(axis=1)).ravel()
    na = np.sqrt(np.asarray(a.multiply(a).sum(axis=1)).ravel())
    nb = np.sqrt(np.asarray(b.multiply(b).sum(axis=1)).ravel())
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((na > 0) & (nb > 0), dot / (na * nb), 0.0)


def negatives_by_nearness() -> Patch:
    """Rocchio's clipping as far as the downs are near what the reader wants: the words a row's
    negative takes below zero keep (1 - cos(positive part, negative)) of their weight, so downs
    of the positive part's own topic (cos 1) are clipped and downs of another (cos 0) are not."""

    def rocchio(positive, negative):  # type: ignore[no-untyped-def]
        pos, neg = positive.tocsr(), negative.tocsr()
        keep = 1.0 - np.clip(_row_cosines(pos, neg), 0.0, 1.0)
        out = (pos - neg).tocsr()
        rows = np.repeat(np.arange(out.shape[0]), np.diff(out.indptr))
        out.data = np.where(out.data < 0, out.data * keep[rows], out.data)
        out.eliminate_zeros()
        return features.normalize(out)

    return {(profiles, "rocchio"): rocchio}
