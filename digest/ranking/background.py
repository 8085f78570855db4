"""The built-in background: document frequencies and a latent basis of 20,718 arXiv papers of
many fields (background.npz, made by bench/background.py), which a space fitted on the papers
being ranked takes beside its own, so that `digest rank` and a new store weigh words as a
large store does."""

from __future__ import annotations

import copy
import functools
import io
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from digest.ranking import features, latent
from digest.ranking.features import Space

log = logging.getLogger("digest.ranking")

FILE = Path(__file__).with_name("background.npz")
# A term of fewer background papers than this is not stored: its idf is as if no paper held it,
# which for a word of 1 or 2 in 20,000 papers changes little, and it halves the file.
MIN_DF = 3
UNSEEN_DF = 1  # what a term it does not store counts as: of 0, 1 or 2 papers, the middle


@dataclass(frozen=True)
class Background:
    docs: int
    terms: list[str]  # in the order of df's rows
    df: np.ndarray
    basis_rows: np.ndarray  # the rows of df that have a latent direction, ...
    vectors: np.ndarray  # ... int8, one row each, times `scale`
    scale: np.ndarray
    total: np.ndarray  # the sum of its papers' TF-IDF rows (in its own idf), by row of df
    named: dict[str, int] | None = None  # its papers' frequent author names (profiles.frequent)

    def where(self, space: Space) -> np.ndarray:
        """Each of the space's columns' row in df (-1: a term the background does not hold).
        The background's terms are looked up in the space, not the other way: a pool of 50,000
        papers has seven times as many terms."""
        get = space.vocabulary.get
        column = np.fromiter((get(t, -1) for t in self.terms), np.int64, count=len(self.terms))
        held = np.flatnonzero(column >= 0)
        where = np.full(space.size, -1, np.int64)
        where[column[held]] = held
        return where

    def frequencies(self, where: np.ndarray) -> np.ndarray:
        """The background's document frequency of the terms at where() (0 where it holds none)."""
        df = np.zeros(len(where), np.int64)
        df[where >= 0] = self.df[where[where >= 0]]
        return df

    def sums(self, where: np.ndarray, idf: np.ndarray) -> tuple[np.ndarray, float]:
        """The background papers' rows summed over a space's columns, in that space's idf, and
        the squared length of the sum over the terms the space lacks. Each term's sum is
        reweighed by the ratio of the idfs; the rows are not normalized again, which on a space
        whose idf the background dominates moves them little."""
        own = features.idf_of(self.docs, self.df)
        held = where >= 0
        total = np.zeros(len(where))
        total[held] = self.total[where[held]] * idf[held] / own[where[held]]
        outside = np.ones(len(self.total), bool)
        outside[where[held]] = False
        return total, float(np.sum(self.total[outside] ** 2))

    def basis(self, where: np.ndarray) -> latent.Basis:
        """The latent basis over a space's columns, the terms at where(): the directions of the
        terms the background holds. Even of none: a paper's closeness is of its own words, so
        whether the pool holds other known words must not switch the latent order on or off."""
        row_of = np.full(len(self.df), -1, np.int64)
        row_of[self.basis_rows] = np.arange(len(self.basis_rows))
        rows = np.where(where >= 0, row_of[np.maximum(where, 0)], -1)
        columns = np.flatnonzero(rows >= 0)
        picked = rows[columns]
        vectors = self.vectors[picked].astype(np.float32) * self.scale[picked, None]
        return latent.Basis(columns, vectors)


def joined(space: Space, rows: sp.csr_matrix) -> tuple[Space, sp.csr_matrix]:
    """A space fitted on a pool, and its rows, with the background's document frequencies and
    papers (in its centroid) and its latent basis, every term of it a column (widened); as they
    were when there is no background of this analyzer's version."""
    found = load(FILE)
    if found is None:
        return space, rows
    space, rows = widened(space, rows)
    where = found.where(space)
    # Every weight is the background's, none today's pool's, so that a paper's row is of its own
    # words alone and papers that share none of them change nothing (a store's space does the
    # same). A word the background holds weighs by its share of the background's papers: a day
    # of thousands of papers on one topic does not make that topic's words common (they scored
    # 0.6 times what they score among ten). A word it lacks (a subscriber's: fit() keeps no
    # other) is held by fewer than MIN_DF of its papers: it weighs as one of UNSEEN_DF.
    df = np.full(space.size, UNSEEN_DF, np.float64)
    known = where >= 0
    df[known] = found.frequencies(where)[known]
    idf = features.idf_of(found.docs, df)
    rows, _ = features.reweighed(rows, idf / space.idf, copy=False)
    # The centroid is the implicit negative: of the pool's papers, a pool all on one topic would
    # subtract that topic, and unrelated arrivals would move it. So it is the background's, as a
    # store's is of the stored papers: a unit vector over every term, most of them outside the
    # space's columns, so its part over them is shorter than 1 (scoring takes |c| = 1).
    total, outside = found.sums(where, idf)
    space.centroid = total / max(math.sqrt(float(total @ total) + outside), 1e-12)
    space.idf, space.basis = idf, found.basis(where)  # widened's new space: changed in place
    if found.named is not None:
        space.named, space.named_docs = found.named, found.docs
    return space, rows


def fitted(
    texts: Sequence[str], keep: Sequence[str], docs: int, liked: Sequence[int] = ()
) -> tuple[Space, sp.csr_matrix]:
    """features.fit() for a stored corpus: `texts` are its papers (every one of its `docs`, or an
    even sample of them), then `keep`. Its columns are every term of the background, the readers'
    words, those of the texts at `liked` (papers rated up) that one more text holds, and the
    stored papers' words that are as common among them as the background's rarest
    terms among its own: a new paper's row then holds the same words in a store of 1,000 papers
    as of 50,000, and as with no store. With every word of two stored papers, rows grew longer as
    the store grew, and every score fell (an exoplanet paper 0.39 at 1,000 stored papers, 0.29 at
    20,000)."""
    found = load(FILE)
    if found is None:
        return features.fit(texts, keep)  # every word of two stored papers, rated or not
    sample = len(texts) - len(keep)
    pooled = MIN_DF * (docs + found.docs) / found.docs - UNSEEN_DF  # of the store's own
    common = max(features.MIN_DF, math.ceil(pooled * sample / max(docs, 1)))
    return widened(*features.fit(texts, keep, found.terms, liked, common=common))


def widened(space: Space, rows: sp.csr_matrix) -> tuple[Space, sp.csr_matrix]:
    """A fresh fit's space and rows with every term of the background a column, held by a paper
    or not (their weights: joined() or stored()). With only the terms today's papers held, one
    paper saying "stellar masses" made that phrase and "masses" columns, which a reader's
    "stellar mass" takes in (plurals.py): every related paper's score fell by a tenth."""
    found = load(FILE)
    if found is None:
        return space, rows
    wider = extended(space, found.terms)
    moved = np.fromiter((wider.vocabulary[t] for t in space.names), np.int64, count=space.size)
    # Both in alphabetical order: the moved columns keep their order within each row.
    rows = sp.csr_matrix((rows.data, moved[rows.indices], rows.indptr), (rows.shape[0], wider.size))
    return wider, rows


def stored(
    space: Space,
    df: np.ndarray,
    docs: int,
    rows: sp.csr_matrix,
    named: dict[str, int] | None = None,
) -> Space:
    """A stored corpus's space (features.counted: its df counted on all `docs` papers, `rows` the
    fit's sample) with the built-in background's papers counted in beside the stored ones, in
    document frequencies and in the centroid. A store fed by one arXiv category makes its topic's
    words common and its centroid the topic: with the store alone, the reader of that topic saw
    scores halve once it held 1,000 papers (0.46 to 0.25) and most on-topic papers fall under
    min_score. With the background, a small store weighs as a new one does, with no step, and a
    large one mostly by its own papers. The latent basis is the stored papers' own."""
    found = load(FILE)
    if found is None:
        return features.counted(space, df, docs, rows, named)
    where = found.where(space)
    prior = np.where(where >= 0, found.frequencies(where), UNSEEN_DF)
    idf = features.idf_of(docs + found.docs, df + prior)
    rows, _ = features.reweighed(rows, idf / space.idf)
    # The sample's rows stand for all `docs` stored papers in the sum.
    total = np.asarray(rows.sum(axis=0)).ravel() * (docs / max(rows.shape[0], 1))
    sums, outside = found.sums(where, idf)
    total += sums
    centroid = total / max(math.sqrt(float(total @ total) + outside), 1e-12)
    basis = latent.fit(rows)
    return Space(list(space.names), idf, docs, centroid, basis, named)


def blended(space: Space) -> Space:
    """A stored space whose latent basis counts the background's beside its own, by their papers
    (its own weighs stored / (stored + 20,718)): two bases side by side, the square roots of the
    weights on their vectors, so a cosine in it mixes the two and whitening (latent.whitened)
    takes the mixed projection. A store's own basis alone, of its first 1,000 papers, had moved
    every score (one paper 0.27 with no store, 0.38 at 1,000 stored papers, 0.31 at 20,000);
    the background's alone knows none of a field it never saw, which a large store's does."""
    found = load(FILE)
    if found is None or space.basis is None:
        return space
    mine, theirs = space.basis, found.basis(found.where(space))
    share = space.docs / (space.docs + found.docs)
    columns = np.union1d(mine.columns, theirs.columns)
    width = mine.vectors.shape[1]
    vectors = np.zeros((len(columns), width + theirs.vectors.shape[1]), np.float32)
    vectors[np.searchsorted(columns, mine.columns), :width] = math.sqrt(share) * mine.vectors
    vectors[np.searchsorted(columns, theirs.columns), width:] = (
        math.sqrt(1 - share) * theirs.vectors
    )
    out = copy.copy(space)  # the saved space stays its own; its vocabulary is shared, not built
    out.basis = latent.Basis(columns, vectors)
    return out


def extended(space: Space, terms: Sequence[str]) -> Space:
    """A stored space with these terms as columns too, as of no stored paper (their df the
    built-in background's, else UNSEEN_DF), all in alphabetical order; the rest as it was."""
    new = sorted(set(terms) - space.vocabulary.keys())
    if not new:
        return space
    names = sorted([*space.vocabulary, *new])
    at = {t: i for i, t in enumerate(names)}
    moved = np.fromiter((at[str(t)] for t in space.names), np.int64, count=space.size)
    added = np.array([at[t] for t in new], np.int64)
    found = load(FILE)
    prior = np.full(len(new), UNSEEN_DF, np.int64)
    if found is not None:
        where = found.where(Space(new, np.ones(len(new)), 0))
        prior = np.where(where >= 0, found.frequencies(where), UNSEEN_DF)
    idf = np.empty(len(names))
    idf[moved] = space.idf
    idf[added] = features.idf_of(space.docs + (found.docs if found else 0), prior)
    centroid = np.zeros(len(names))
    centroid[moved] = space.centroid
    basis = space.basis and latent.Basis(moved[space.basis.columns], space.basis.vectors)
    return Space(names, idf, space.docs, centroid, basis, space.named, space.named_docs)


def terms() -> list[str] | None:
    """The background's terms, which a fit's rare-word cut spares; None without a background."""
    found = load(FILE)
    return None if found is None else found.terms


@functools.cache
def load(path: Path) -> Background | None:
    """The background file; None (logged once) when it is missing or of another version."""
    try:
        with np.load(path) as saved:
            version, docs = (int(v) for v in saved["version"])
            if version != features.VERSION:
                log.warning("%s: of features version %d, not %d", path, version, features.VERSION)
                return None
            return Background(
                docs,
                saved["terms"].tobytes().decode("utf-8").split("\n"),
                saved["df"].astype(np.int64),
                saved["basis_rows"].astype(np.int64),
                saved["vectors"],
                saved["scale"].astype(np.float32),
                saved["total"].astype(np.float64),
                features.named_of(saved),
            )
    except (OSError, KeyError, ValueError) as e:
        log.warning("%s: no background (%s)", path, e)
        return None


def to_bytes(
    docs: int,
    names: list[str],
    rows: sp.csr_matrix,
    basis: latent.Basis,
    named: dict[str, int] | None = None,
) -> bytes:
    """The background file of a fitted space's terms (those of MIN_DF+ papers), their rows' sums
    and its basis, quantized to int8 per row (a cosine of 100 components moves by well under 1%),
    and its papers' frequent author names."""
    df = np.bincount(rows.indices, minlength=len(names))
    total = np.asarray(rows.sum(axis=0)).ravel()
    keep = np.flatnonzero(df >= MIN_DF)
    position = np.full(len(names), -1, np.int64)
    position[keep] = np.arange(len(keep))
    held = position[basis.columns] >= 0
    vectors = basis.vectors[held]
    scale = np.maximum(np.abs(vectors).max(axis=1), 1e-12) / 127
    arrays = {
        "version": np.array([features.VERSION, docs]),
        "terms": np.frombuffer("\n".join(names[i] for i in keep).encode("utf-8"), np.uint8),
        "df": df[keep].astype(np.uint32),
        "basis_rows": position[basis.columns[held]].astype(np.int32),
        "vectors": np.round(vectors / scale[:, None]).astype(np.int8),
        "scale": scale.astype(np.float32),
        "total": total[keep].astype(np.float32),
    }
    if named is not None:
        arrays |= features.named_arrays(named)
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    return out.getvalue()
