"""The sparse top-n product: every row's best columns (ties by paper order) with a bound on what
was left out; the best candidates past rejections; row-by-row dot products."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from digest.ranking import scoring
from digest.ranking.scoring import best_per_row, pair_dots, top_candidates


def test_best_per_row_agrees_with_the_dense_product_and_bounds_the_rest():
    profile = sp.random(8, 40, density=0.2, random_state=1, format="csr")
    papers = sp.random(50, 40, density=0.2, random_state=2, format="csr")
    dense = (profile @ papers.T).toarray()
    order = np.arange(50)
    for cells in (10**9, 60):  # one block, and blocks of a few papers
        found, bound = best_per_row(profile, papers, 3, order, cells)
        for r, (columns, values) in enumerate(found):
            assert np.allclose(values, dense[r, columns])
            assert list(values) == sorted(values, reverse=True)
            left_out = np.delete(dense[r], columns)
            assert left_out.max(initial=0.0) <= bound[r] + 1e-12 or not len(left_out)


def test_top_candidates_break_ties_by_id_and_look_deeper_past_rejections():
    row = np.array([0.5, 0.9, 0.5, 0.1, 0.5])
    ids = ["e", "a", "c", "b", "d"]
    everything = np.arange(5)
    assert top_candidates(row, everything, 3, ids, lambda j: True) == [1, 2, 4]
    assert top_candidates(row, everything, 2, ids, lambda j: j not in (1, 2)) == [4, 0]


def test_pair_dots_are_row_by_row_dot_products(monkeypatch):
    a = sp.random(5, 30, density=0.3, random_state=4, format="csr")
    b = sp.random(7, 30, density=0.3, random_state=5, format="csr")
    left, right = [0, 4, 2, 2, 1], [6, 0, 3, 3, 5]
    monkeypatch.setattr(scoring, "PAIR_BATCH", 2)
    expected = [a[i].multiply(b[j]).sum() for i, j in zip(left, right, strict=True)]
    assert np.allclose(pair_dots(a, left, b, right), expected)
