"""The ideas about how a library becomes interests (bench/variants.py names them): patches of
digest.ranking.interests's grouping, its neighbourhood vectors, the rows it makes and the draw."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from bench.patches import Patch, patched
from digest.ranking import features, interests


def own_weighed(weight: float) -> Patch:
    """interests.neighbourhoods, which the grouping reads, with each liked paper's own row
    weighing `weight` x one neighbour (shipped: 1, beside its 20 neighbours)."""
    shipped = interests.neighbourhoods

    def neighbourhoods(docs, x, rows, own=1.0):  # type: ignore[no-untyped-def]
        return shipped(docs, x, rows, weight)

    return {(interests, "neighbourhoods"): neighbourhoods}


def local_groups(near: int) -> Patch:
    """interests._groups as one interest per liked paper: the paper with its `near` closest liked
    papers (by their neighbourhood vectors), groups that come out alike kept once; no k-means."""

    def groups(docs, x, libraries):  # type: ignore[no-untyped-def]
        every = [r for rows in libraries for r in rows]
        smooth = interests.neighbourhoods(docs, x, every)
        out, at = [], 0
        for rows in libraries:
            part = smooth[at : at + len(rows)]
            at += len(rows)
            close = (part @ part.T).toarray()
            np.fill_diagonal(close, np.inf)
            found: dict[tuple[int, ...], None] = {}
            for i in range(len(rows)):
                found[tuple(sorted(np.argsort(-close[i], kind="stable")[: near + 1]))] = None
            out.append([[rows[j] for j in g] for g in found])
        return out

    return {(interests, "_groups"): groups}


def text_share(mode: str) -> Patch:
    """interests.shares with the interests text's share as all the groups together ("sum") or as
    the largest group ("max"), not their mean."""

    def shares(library):  # type: ignore[no-untyped-def]
        sizes = [float(len(members)) for members in library]
        grouped = [size for size in sizes if size] or [1.0]
        text = sum(grouped) if mode == "sum" else max(grouped)
        return [size if size else text for size in sizes]

    return {(interests, "shares"): shares}


def _after_split(change: Callable[..., interests.Rows]) -> Patch:
    """interests.split, then `change(out, whole, docs, library_rows)` when some library was split
    into several interests (else the rows as they are)."""
    original = interests.split

    def split(whole, space, docs, x, subscribers, library_rows, disliked_rows):  # type: ignore[no-untyped-def]
        out = original(whole, space, docs, x, subscribers, library_rows, disliked_rows)
        if out.vectors.shape[0] == len(subscribers):
            return out
        return change(out, whole, docs, library_rows)

    return {(interests, "split"): split}


def whole_library_too() -> Patch:
    """interests.split with a split library's whole profile row (text, keywords, every liked
    paper, less the disliked) as one more interest, whose share of the draw is every liked paper."""

    def change(out, whole, docs, library_rows):  # type: ignore[no-untyped-def]
        owner = out.owner.tolist()
        rows, owners, library, labels = [], [], [], []
        for r, si in enumerate(owner):
            rows.append(out.vectors[r])
            owners.append(si)
            library.append(out.library[r])
            labels.append(out.labels[r])
            last = r + 1 == len(owner) or owner[r + 1] != si
            if last and owner.count(si) > 1:
                rows.append(whole[si])
                owners.append(si)
                library.append(list(library_rows[si]))
                labels.append("your whole library")
        vectors = sp.vstack(rows, format="csr")
        vectors.sort_indices()
        return interests.Rows(vectors, np.asarray(owners), library, labels)

    return _after_split(change)


def merged_relative(ratio: float) -> Patch:
    """interests._merged by a scale-free rule: two groups merge while the mean cosine between
    their papers (neighbourhood vectors) is at least `ratio` x the geometric mean of each
    group's own mean cosine between its papers (a lone paper's: the library's mean within)."""

    def merged(vectors, groups):  # type: ignore[no-untyped-def]
        close = (vectors @ vectors.T).toarray()
        groups = list(groups)

        def within(g):  # type: ignore[no-untyped-def]
            if len(g) < 2:
                return None
            block = close[np.ix_(g, g)]
            return (block.sum() - np.trace(block)) / (len(g) * (len(g) - 1))

        while len(groups) > 1:
            own = [within(g) for g in groups]
            known = [w for w in own if w is not None]
            fill = float(np.mean(known)) if known else 1.0
            own = [fill if w is None else w for w in own]
            best, pair = -np.inf, (0, 1)
            for a in range(len(groups)):
                for b in range(a + 1, len(groups)):
                    cross = close[np.ix_(groups[a], groups[b])].mean()
                    score = cross / max(np.sqrt(max(own[a], 1e-9) * max(own[b], 1e-9)), 1e-9)
                    if score > best:
                        best, pair = score, (a, b)
            if best < ratio:
                break
            a, b = pair
            groups = [g for i, g in enumerate(groups) if i not in (a, b)] + [
                np.sort(np.concatenate([groups[a], groups[b]]))
            ]
        return groups

    return {(interests, "_merged"): merged}


def toward_whole(weight: float) -> Patch:
    """interests.split with each group's row shrunk toward its library's mean: the group's row
    plus `weight` x the unit mean of every liked paper, normalized (a one-field library's groups
    then lie close to its mean, a library of unrelated topics keeps each group mostly its own)."""

    def change(out, whole, docs, library_rows):  # type: ignore[no-untyped-def]
        owner = out.owner.tolist()
        rows = []
        for r, si in enumerate(owner):
            row = out.vectors[r]
            if out.library[r] and owner.count(si) > 1:
                mean = features.normalize(sp.csr_matrix(docs[library_rows[si]].sum(axis=0)))
                row = features.normalize(row + weight * mean)
            rows.append(row)
        vectors = sp.vstack(rows, format="csr")
        vectors.sort_indices()
        return dataclasses.replace(out, vectors=vectors)

    return _after_split(change)


def silhouette_groups(floor: float | None) -> Patch:
    """interests._groups with k chosen by the mean silhouette (cosine, over the neighbourhood
    vectors) among 2 .. min(MAX_GROUPS, size // 3), not size // PER_GROUP; with `floor`, a library
    whose best silhouette is below it stays one group. Then merged as shipped."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    def grouped(part: sp.csr_matrix) -> list[np.ndarray]:
        size = part.shape[0]
        best: tuple[float, np.ndarray] = (-2.0, np.zeros(size, int))
        for k in range(2, max(2, min(interests.MAX_GROUPS, size // 3)) + 1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                labels = KMeans(k, n_init=4, random_state=0).fit_predict(part)
            if len(set(labels.tolist())) < 2:
                continue
            score = float(silhouette_score(part, labels, metric="cosine"))
            if score > best[0]:
                best = (score, labels)
        labels = best[1] if floor is None or best[0] >= floor else np.zeros(size, int)
        members = [np.flatnonzero(labels == g) for g in range(labels.max() + 1)]
        return interests._merged(part, [m for m in members if m.size])

    return _library_groups(grouped)


def _library_groups(grouped: Callable[[sp.csr_matrix], list[np.ndarray]]) -> Patch:
    """interests._groups with each library's papers grouped by `grouped` (over their
    neighbourhood vectors, before the fold of small groups), then folded as shipped."""

    def groups(docs, x, libraries):  # type: ignore[no-untyped-def]
        smooth = interests.neighbourhoods(docs, x, [r for rows in libraries for r in rows])
        out, at = [], 0
        for rows in libraries:
            part = smooth[at : at + len(rows)]
            at += len(rows)
            members = interests._folded(part, grouped(part))
            out.append([[rows[i] for i in m] for m in members])
        return out

    return {(interests, "_groups"): groups}


def neighbours_weighed(power: float) -> Patch:
    """interests.neighbourhoods with each of a liked paper's closest papers weighing its cosine
    with it ** power, not 1: a small field's twenty closest papers reach into large fields, and
    the far ones say less of its topic."""

    def neighbourhoods(docs, x, rows, own=1.0):  # type: ignore[no-untyped-def]
        from sparse_dot_topn import sp_matmul_topn

        near = sp_matmul_topn(docs[rows], x.T, top_n=min(interests.NEIGHBOURS, x.shape[0])).tocsr()
        near.data = near.data**power
        top = np.asarray(near.max(axis=1).todense()).ravel()
        scale = sp.diags(1.0 / np.maximum(top, 1e-12))
        return features.normalize(own * docs[rows] + (scale @ near) @ x)

    return {(interests, "neighbourhoods"): neighbourhoods}


def agglomerative_groups(threshold: float) -> Patch:
    """interests._groups without k-means: every liked paper a group of its own, the closest two
    (neighbourhood centroids) joined while closer than `threshold`, then while more than
    MAX_GROUPS remain, then folded as shipped: centroid linkage, whose stopping rule is the
    merge's own."""

    def grouped(part: sp.csr_matrix) -> list[np.ndarray]:
        with patched({(interests, "MERGE_SIMILARITY"): threshold}):
            members = interests._merged(part, [np.array([i]) for i in range(part.shape[0])])
        while len(members) > interests.MAX_GROUPS:
            members = _closest_joined(part, members)
        return members

    return _library_groups(grouped)


def _closest_joined(vectors: sp.csr_matrix, groups: list[np.ndarray]) -> list[np.ndarray]:
    centroids = interests._centroids(vectors, groups)
    close = (centroids @ centroids.T).toarray()
    np.fill_diagonal(close, -np.inf)
    a, b = np.unravel_index(int(np.argmax(close)), close.shape)
    return interests._joined(groups, int(a), int(b))
