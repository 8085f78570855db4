"""The sparse top-n product: every row's best columns (ties by paper order) with a bound on what
was left out, candidates scored again exactly, and the ways a profile is cut down: the k heaviest
words of a sum of papers, or the heaviest words that hold a given share of its weight."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from digest.ranking import scoring
from digest.ranking.scoring import (
    best_per_row,
    heaviest_sums,
    pair_dots,
    rescored,
    top_candidates,
    trimmed,
)


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


def test_heaviest_sums_keep_the_k_largest_entries_of_each_groups_sum_normalized():
    rows = sp.csr_matrix(np.array([[0.1, 0.5, 0.0, 0.2], [0.0, 0.1, 0.6, 0.2], [0.3, 0, 0, 0]]))
    cut = heaviest_sums(rows, [[0, 1], [2], []], 2).toarray()
    # Group 0 sums to [0.1, 0.6, 0.6, 0.4]: its two heaviest are columns 1 and 2.
    assert np.count_nonzero(cut[0]) == 2 and cut[0, 1] > 0 and cut[0, 2] > 0
    assert np.allclose(np.linalg.norm(cut[:2], axis=1), 1.0)
    assert cut[1, 0] == 1.0 and not cut[2].any()


def test_trimmed_keeps_the_heaviest_words_holding_the_share_of_the_weight():
    row = np.array([[0.8, 0.5, 0.3, 0.1, -0.05]])
    square = (row**2 / (row**2).sum())[0]
    cut = trimmed(sp.csr_matrix(row), 0.9).toarray()[0]
    # 0.8 and 0.5 hold square[0] + square[1] = 0.89 < 0.9, so 0.3 joins them; the rest go.
    assert square[:2].sum() < 0.9 <= square[:3].sum()
    assert np.count_nonzero(cut) == 3 and np.all(cut[:3] > 0)
    assert np.isclose(np.linalg.norm(cut), 1.0)


def test_trimmed_weighs_negative_entries_by_size_and_keeps_all_at_share_one():
    row = sp.csr_matrix(np.array([[0.1, -0.9, 0.2]]))
    cut = trimmed(row, 0.5).toarray()[0]
    assert np.count_nonzero(cut) == 1 and cut[1] < 0
    assert (trimmed(row, 1.0) != row).nnz == 0


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


def test_rescored_lists_carry_the_whole_profiles_scores_best_first():
    profile = sp.random(4, 30, density=0.5, random_state=6, format="csr")
    papers = sp.random(20, 30, density=0.5, random_state=7, format="csr")
    rough = trimmed(profile, 0.5)  # a cut-down profile finds the candidates
    found, _ = best_per_row(rough, papers, 5, np.arange(20), 10**9)
    dense = (profile @ papers.T).toarray()
    candidates = [columns for columns, _ in found]
    for r, (columns, values) in enumerate(rescored(profile, papers, candidates, np.arange(20))):
        assert sorted(columns) == sorted(found[r][0])
        assert np.allclose(values, dense[r, columns])
        assert list(values) == sorted(values, reverse=True)
