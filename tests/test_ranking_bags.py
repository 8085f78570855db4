"""Bags of words and phrases, counted in blocks, and their TF-IDF rows (ranking/bags.py)."""

from __future__ import annotations

import numpy as np
import pytest

from digest.ranking import bags
from digest.ranking.tokens import tokenize


def counted(texts: list[str]) -> tuple[list[str], np.ndarray, list]:
    words, ids, ends = tokenize(texts)
    keys, blocks = bags.count(ids, ends, len(words))
    return words, keys, blocks


def names(words: list[str], keys: np.ndarray) -> list[str]:
    pairs = [f"{words[k >> 32]} {words[k & bags.LOW]}" for k in keys.tolist()]
    return [*words, *pairs]


def test_a_bag_counts_each_word_and_each_phrase_of_a_text():
    words, keys, blocks = counted(["graph neural networks for graph neural tasks"])
    (rows,) = blocks
    columns = names(words, keys)
    got = {columns[c]: int(v) for c, v in zip(rows.indices, rows.data, strict=True)}
    assert got["graph"] == 2 and got["graph neural"] == 2 and got["neural"] == 2
    assert got["neural networks"] == 1 and "networks for" not in got  # "for" ends the phrase


def test_texts_past_one_block_are_counted_as_one_block_would_count_them(monkeypatch):
    texts = [f"quantum error correction code {i % 7} with surface codes" for i in range(23)]
    whole_words, whole_keys, (whole,) = counted(texts)
    monkeypatch.setattr(bags, "BLOCK", 5)
    words, keys, blocks = counted(texts)
    assert len(blocks) == 5 and words == whole_words
    assert np.array_equal(keys, whole_keys)  # one sorted key list shared by every block
    stacked = bags.stacked(blocks, blocks[0].shape[1])
    assert (stacked != whole).nnz == 0


def test_weighted_rows_are_unit_length_sublinear_tf_times_idf_over_the_columns_kept():
    words, keys, blocks = counted(["dark matter dark matter halo", "halo stars"])
    columns = names(words, keys)
    keep = ["dark", "halo", "stars"]
    column = np.array([keep.index(c) if c in keep else -1 for c in columns])
    idf = np.array([2.0, 1.0, 3.0])
    rows = bags.weighted(blocks, column, idf, len(keep)).toarray()
    assert not blocks  # each block of counts is freed as it is weighed
    first = np.array([(1 + np.log(2)) * 2.0, 1.0, 0.0])
    assert rows[0] == pytest.approx(first / np.linalg.norm(first))
    assert rows[1] == pytest.approx(np.array([0.0, 1.0, 3.0]) / np.sqrt(10))


def test_columns_of_finds_words_and_phrases_that_the_bags_hold_and_no_others():
    words, keys, _ = counted(["federated learning with differential privacy"])
    columns = names(words, keys)
    found = bags.columns_of(["privacy", "federated learning", "learning privacy", "x"], words, keys)
    assert sorted(columns[c] for c in found) == ["federated learning", "privacy"]


def test_each_returns_every_blocks_result_in_order():
    assert bags.each(lambda lo: lo * 2, range(0, 50, 10)) == [0, 20, 40, 60, 80]
