"""Texts as bags of words and phrase bigrams, counted with numpy in blocks of texts (two blocks at
a time), and bags weighed into l2-normalized TF-IDF rows: the arithmetic under features.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TypeVar

import numpy as np
import scipy.sparse as sp

from digest.ranking import tokens


# Term frequency -> weight: sublinear, 1 + log tf. BM25's saturation tf (k1 + 1) / (tf + k1),
# inside the cosine, measured no better on the tuning split (bench/results/README.md).
def TF(counts: np.ndarray) -> np.ndarray:  # noqa: N802 (a hook the benchmarks patch)
    """Sublinear term frequency."""
    weights: np.ndarray = 1 + np.log(counts)
    return weights


_T = TypeVar("_T")
LOW = (1 << 32) - 1  # a bigram's key: first word id << 32 | second word id
BLOCK = 5_000  # texts counted per block: bounds the transient arrays of a large fit


def count(
    ids: np.ndarray, ends: np.ndarray, n_words: int
) -> tuple[np.ndarray, list[sp.csr_matrix]]:
    """(bigram keys, blocks of count rows). Columns: word ids, then n_words + the index of a
    bigram in the sorted keys."""

    def block(lo: int) -> tuple[sp.csr_matrix, np.ndarray]:
        hi = min(len(ends), lo + BLOCK)
        start, stop = (int(ends[lo - 1]) if lo else 0), int(ends[hi - 1])
        seg = ids[start:stop]
        doc = np.repeat(np.arange(hi - lo, dtype=np.int32), np.diff(ends[lo:hi], prepend=start))
        word = seg >= 0
        parts_row, parts_col = [doc[word]], [seg[word].astype(np.int64)]
        keys = np.empty(0, np.int64)
        if tokens.BIGRAMS:
            pair = word[:-1] & word[1:]
            both = (seg[:-1][pair].astype(np.int64) << 32) | seg[1:][pair]
            keys, local = np.unique(both, return_inverse=True)
            parts_row.append(doc[:-1][pair])
            parts_col.append(n_words + local.ravel())
        rows = sp.csr_matrix(
            (
                np.ones(sum(len(r) for r in parts_row), np.float32),
                (np.concatenate(parts_row), np.concatenate(parts_col)),
            ),
            shape=(hi - lo, n_words + len(keys)),
        )
        rows.sum_duplicates()
        return rows, keys

    blocks = each(block, range(0, len(ends), BLOCK))
    # Each block's keys are sorted: a stable sort of their concatenation merges sorted runs.
    every = np.concatenate([np.empty(0, np.int64), *(k for _, k in blocks)])
    every.sort(kind="stable")
    every = every[np.concatenate([[True], every[1:] != every[:-1]])] if every.size else every
    out = []
    while blocks:  # each block's counts freed as it is laid out again
        rows, keys = blocks.pop(0)
        # Block bigram columns -> columns of the shared, sorted key list.
        shift = np.concatenate([np.arange(n_words), n_words + np.searchsorted(every, keys)]).astype(
            np.int32
        )
        out.append(
            sp.csr_matrix(
                (rows.data, shift[rows.indices], rows.indptr),
                shape=(rows.shape[0], n_words + len(every)),
            )
        )
    return every, out


def each(work: Callable[[int], _T], starts: range) -> list[_T]:
    """work(start) for every block start, two at a time on two cores: numpy's sorts and scipy's
    conversions release the GIL."""
    if len(starts) < 2 or (os.cpu_count() or 1) < 2:
        return [work(lo) for lo in starts]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(work, starts))


def columns_of(features: Iterable[str], words: list[str], keys: np.ndarray) -> list[int]:
    """The bag columns of `features` (words, and bigrams as "first second") in the bags."""
    index = {w: i for i, w in enumerate(words)}
    found, pairs = [], []
    for feature in features:
        first, _, second = feature.partition(" ")
        if not second:
            if feature in index:
                found.append(index[feature])
        elif first in index and second in index:
            pairs.append(index[first] << 32 | index[second])
    wanted = np.array(pairs, np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
    held = at[keys[at] == wanted] if len(keys) else at[:0]
    columns: list[int] = found + (len(words) + held).tolist()
    return columns


def weighted(
    bags: list[sp.csr_matrix], column: np.ndarray, idf: np.ndarray, width: int, unit: bool = True
) -> sp.csr_matrix:
    """Count rows -> l2-normalized (unit=False: as they are) sublinear tf x idf rows over a
    space's columns (column[c] is the space's column for bag column c, -1 for none). Empties
    `bags`: each block of counts is freed once weighed, each weighed block once copied into the
    result."""
    counts: list[sp.csr_matrix | None] = list(bags)
    bags.clear()

    def weigh(i: int) -> sp.csr_matrix:
        rows = counts[i]
        assert rows is not None
        counts[i] = None
        where = column[rows.indices]
        keep = where >= 0
        owner = np.repeat(np.arange(rows.shape[0]), np.diff(rows.indptr))
        indptr = np.concatenate([[0], np.cumsum(np.bincount(owner[keep], minlength=rows.shape[0]))])
        cols = where[keep]
        data = TF(rows.data[keep].astype(np.float64)) * idf[cols]
        block = sp.csr_matrix((data, cols.astype(np.int32), indptr), shape=(rows.shape[0], width))
        block.sort_indices()
        if not unit:
            return block
        owner = np.repeat(np.arange(block.shape[0]), np.diff(block.indptr))
        block.data /= np.sqrt(np.bincount(owner, weights=block.data**2, minlength=block.shape[0]))[
            owner
        ]
        return block

    return stacked(each(weigh, range(len(counts))), width)


def stacked(blocks: list[sp.csr_matrix], width: int) -> sp.csr_matrix:
    """The blocks one under the other, each freed as soon as it is copied (sp.vstack holds them
    all beside the result)."""
    nnz, height = sum(b.nnz for b in blocks), sum(b.shape[0] for b in blocks)
    ordered = all(b.has_sorted_indices for b in blocks)
    data, indices = np.empty(nnz), np.empty(nnz, np.int32)
    indptr = np.zeros(height + 1, np.int64 if nnz >= 2**31 else np.int32)
    at = row = 0
    while blocks:
        block = blocks.pop(0)
        data[at : at + block.nnz] = block.data
        indices[at : at + block.nnz] = block.indices
        indptr[row + 1 : row + 1 + block.shape[0]] = block.indptr[1:] + at
        at, row = at + block.nnz, row + block.shape[0]
    out = sp.csr_matrix((data, indices, indptr), shape=(height, width))
    out.has_sorted_indices = ordered
    return out
