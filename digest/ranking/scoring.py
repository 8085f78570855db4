"""The sparse top-n product behind ranking: every subscriber's best papers in one threaded
product per block of papers, never a dense subscribers x papers matrix, with a bound that says
when the papers left out of it could still matter."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import numpy as np
import scipy.sparse as sp

from digest.ranking.bags import each

THREADS = max(1, min(4, os.cpu_count() or 1))
PAIR_BATCH = 10_000  # row pairs per batch in pair_dots: bounds the gathered copies of rows
# Stored entries gathered per batch (of both sides): a profile row can hold thousands, and ten
# thousand copies of such rows were the largest transient of a ranking.
PAIR_CELLS = 2_000_000


def best_per_row(
    profile: sp.csr_matrix,
    x: sp.csr_matrix,
    top_n: int,
    order: np.ndarray,
    chunk_cells: int,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Per subscriber its top_n (paper rows, scores), best first, ties by paper id; and a bound:
    no paper left out scores above it (-inf: none was left out)."""
    from sparse_dot_topn import sp_matmul_topn

    n, m = profile.shape[0], x.shape[0]
    block = max(1, chunk_cells // max(1, n))
    rows, cols, vals = [], [], []
    bound = np.full(n, -np.inf)
    for lo in range(0, m, block):
        hi = min(m, lo + block)
        take = min(top_n, hi - lo)
        # One block is the whole pool: no sliced copy of it beside the product's transposed one.
        papers = x if hi - lo == m else x[lo:hi]
        part = sp_matmul_topn(profile, papers.T, top_n=take, n_threads=THREADS).tocsr()
        counts = np.diff(part.indptr)
        # Papers that share nothing with a profile are not in the product: they score 0.
        left = np.where(counts < hi - lo, 0.0, -np.inf)
        cut = (counts == take) & (counts < hi - lo)
        if cut.any():
            filled = counts > 0
            lowest = np.full(n, np.inf)
            lowest[filled] = np.minimum.reduceat(part.data, part.indptr[:-1][filled])
            left[cut] = np.maximum(lowest[cut], 0.0)
        bound = np.maximum(bound, left)
        rows.append(np.repeat(np.arange(n), counts))
        cols.append(part.indices.astype(np.intp) + lo)
        vals.append(part.data)
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    sort = np.lexsort((order[c], -v, r))
    r, c, v = r[sort], c[sort], v[sort]
    starts = np.searchsorted(r, np.arange(n + 1))
    return [(c[a:b], v[a:b]) for a, b in zip(starts[:-1], starts[1:], strict=True)], bound


def pair_dots(
    a: sp.csr_matrix,
    rows_a: Sequence[int] | np.ndarray,
    b: sp.csr_matrix,
    rows_b: Sequence[int] | np.ndarray,
) -> np.ndarray:
    """a[rows_a[k]] . b[rows_b[k]] for every k, in batches of gathered rows."""
    ia, ib = np.asarray(rows_a, np.intp), np.asarray(rows_b, np.intp)
    a.sort_indices()  # unsorted rows would take a general path three times as slow
    b.sort_indices()
    out = np.zeros(len(ia))
    bounds = batches(a, ia, b, ib, PAIR_BATCH)

    def dots(k: int) -> None:
        lo, hi = bounds[k], bounds[k + 1]
        part = a[ia[lo:hi]].multiply(b[ib[lo:hi]])
        out[lo:hi] = np.asarray(part.sum(axis=1)).ravel()

    each(dots, range(len(bounds) - 1))
    return out


def batches(
    a: sp.csr_matrix, rows_a: np.ndarray, b: sp.csr_matrix, rows_b: np.ndarray, most: int
) -> list[int]:
    """Where batches of row pairs start (and the last ends): at most `most` pairs and, beyond a
    pair's own, PAIR_CELLS stored entries of the two gathered sides each."""
    cells = np.diff(a.indptr)[rows_a] + np.diff(b.indptr)[rows_b]
    total = np.cumsum(cells)
    bounds, lo = [0], 0
    while lo < len(cells):
        reach = int(np.searchsorted(total, (total[lo - 1] if lo else 0) + PAIR_CELLS, "right"))
        lo = min(len(cells), lo + most, max(lo + 1, reach))
        bounds.append(lo)
    return bounds


def top_candidates(
    row: np.ndarray, candidates: np.ndarray, k: int, ids: list[str], accept: Callable[[int], bool]
) -> list[int]:
    """The k best candidates by (score desc, id) that accept() lets through."""
    take = k
    while True:
        if take < len(candidates):
            part = candidates[np.argpartition(-row[candidates], take - 1)[:take]]
            # Ties at the cut compete on paper id, not on argpartition's internal order.
            part = candidates[row[candidates] >= row[part].min()]
        else:
            part = candidates
        chosen = [j for j in sorted(part, key=lambda j: (-row[j], ids[j])) if accept(j)][:k]
        if len(chosen) >= k or len(part) == len(candidates):
            return chosen
        take *= 2  # exclusions ate into the top: look deeper
