"""Why a paper was picked: the words that added most to its score and the liked paper it is
closest to, for every pick of every subscriber at once, in batches of row pairs."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from digest.ranking.bags import each
from digest.ranking.scoring import batches, pair_dots
from digest.ranking.spellings import numbers
from digest.ranking.tokens import ASCII_MARKS, CJK_RUN, compound

MAX_TERMS = 5
# Candidate features looked at per pick before the slow path: a bigram can absorb its own
# unigrams, so five terms may need more than five features.
CANDIDATES = 15
BATCH = 10_000  # picks per batch (and scoring.PAIR_CELLS): bounds the gathered rows' copies


def terms(
    profile: sp.csr_matrix,
    papers: sp.csr_matrix,
    picks: Sequence[tuple[int, int]],
    names: np.ndarray,
) -> list[tuple[str, ...]]:
    """For every (subscriber row, paper row): the features that add most to its score, as words;
    a bigram absorbs its own unigrams. Ties fall back to the vocabulary's alphabetical order."""
    vocabulary: Sequence[str] = names.tolist() if picks else []
    profile.sort_indices()
    papers.sort_indices()

    left = np.fromiter((s for s, _ in picks), np.intp, count=len(picks))
    right = np.fromiter((j for _, j in picks), np.intp, count=len(picks))
    bounds = batches(profile, left, papers, right, BATCH)

    def explain(k: int) -> list[tuple[str, ...]]:
        lo, hi = bounds[k], bounds[k + 1]
        part = picks[lo:hi]
        q = profile[left[lo:hi]].multiply(papers[right[lo:hi]]).tocsr()
        owner = np.repeat(np.arange(len(part)), np.diff(q.indptr))
        # Heaviest first within each row, equal weights in column order: two stable sorts of
        # the canonical rows (by column) cost half of one lexsort.
        # Rounded: equal weights that float sums left a last bit apart (a row reweighed in a
        # larger pool) still tie, so the words said do not change with unrelated papers.
        order = np.argsort(-np.round(q.data, 12), kind="stable")
        order = order[np.argsort(owner[order], kind="stable")]
        order = order[q.data[order] > 0]
        columns = q.indices[order].tolist()
        starts = np.searchsorted(owner[order], np.arange(len(part) + 1)).tolist()
        out = []
        for a, b in zip(starts[:-1], starts[1:], strict=True):
            chosen, short = _words(vocabulary, columns[a : min(b, a + CANDIDATES)])
            if short and b - a > CANDIDATES:
                chosen, _ = _words(vocabulary, columns[a:b])
            out.append(tuple(chosen))
        return out

    # Two batches at a time: one's sparse products run while the other's words are chosen.
    return [t for batch in each(explain, range(len(bounds) - 1)) for t in batch]


_SPELLING = re.compile("[ -]")


def _words(names: Sequence[str], columns: list[int]) -> tuple[list[str], bool]:
    """The terms of these features, heaviest first; and whether they ran out before MAX_TERMS."""
    chosen: list[str] = []
    inside: set[str] = set()  # every word of the chosen terms, and every part of their compounds
    spelled: set[str] = set()  # the chosen terms as one spelling
    for column in columns:
        if len(chosen) == MAX_TERMS:
            return chosen, False
        term = names[column]
        # One term of the reader's is said once: "selfsupervised, self supervised" and "MPC,
        # mpc" had been a reader's "self-supervised" and "mpc" twice (ranking/spellings.py), so
        # is a noun in both numbers ("markets, market"), whichever it meets first: the other
        # number is said with the term ("scaling law, scaling laws" had been, rank24 F2).
        key = _SPELLING.sub("", term).lower()
        if key in spelled:
            continue
        spelled.update([key, *(_SPELLING.sub("", f) for f in numbers(term.lower()))])
        if " " not in term and term in inside:
            continue
        pieces = _pieces(term)
        covered = [c for c in chosen if _pieces(c) <= pieces]
        if covered:
            chosen[chosen.index(covered[0])] = term
            chosen = [c for c in chosen if c not in covered[1:]]
        else:
            chosen.append(term)
        inside.update(pieces)
    return chosen, len(chosen) < MAX_TERMS


def _pieces(term: str) -> frozenset[str]:
    """A term's words, and the parts of a compound among them: a compound absorbs its own words as
    a bigram does ("why: llm-as-a-judge, llm", "out-of-distribution, distribution" had said a
    reader's compound twice, reg34 F4)."""
    words = term.split(" ")
    parts = [p for w in words if "-" in w and compound(w) for p in w.split("-")]
    return frozenset((*words, *parts))


def joined(terms: Sequence[str], text: str) -> tuple[str, ...]:
    """The terms with overlapping two-letter words of Chinese, Japanese or Korean joined into
    the runs of the paper's text they come from: "プライバシー", not "プラ, ライ, イバ, バシ, シー"
    (and "差分隐私", not "差分, 分隐, 隐私"). Only runs the text holds, so each term stays true;
    a run keeps the place of its heaviest part."""
    runs: list[tuple[int, str]] = []
    for order, term in enumerate(terms):
        runs = _absorbed(runs, order, term, text)
    said = [run for _, run in sorted(runs)]
    return tuple(_continued(said, text) if any("-" in t for t in said) else said)


def _continued(terms: list[str], text: str) -> list[str]:
    """The terms with a compound and a phrase that goes on from its last or first part as the
    text writes them, in the compound's place: "out-of-distribution detection", not
    "out-of-distribution, distribution detection" (reg34 F4). Only what the text holds."""
    low = text.translate(ASCII_MARKS).lower()
    for phrase in [t for t in terms if t.count(" ") == 1]:
        first, second = phrase.split(" ")
        for i, whole in enumerate(terms):
            if " " in whole or "-" not in whole:
                continue
            joint = f"{whole} {second}" if whole.rsplit("-", 1)[1] == first else ""
            joint = joint or (f"{first} {whole}" if whole.split("-", 1)[0] == second else "")
            if joint and re.search(rf"(?<![\w-]){re.escape(joint)}(?![\w-])", low):
                terms = [joint if k == i else t for k, t in enumerate(terms) if t != phrase]
                break
    return terms


def _absorbed(
    runs: list[tuple[int, str]], order: int, term: str, text: str
) -> list[tuple[int, str]]:
    if CJK_RUN.fullmatch(term):
        for i, (first, run) in enumerate(runs):
            if not CJK_RUN.fullmatch(run):
                continue
            if term in run:
                return runs
            joint = term if run in term else _joint(run, term, text)
            if joint:
                return _absorbed(runs[:i] + runs[i + 1 :], min(first, order), joint, text)
    return [*runs, (order, term)]


def _joint(a: str, b: str, text: str) -> str:
    """a and b as one run of the text, overlapping by a letter ("" if the text has no such run)."""
    for joint in (a + b[1:] if a[-1] == b[0] else "", b[:-1] + a if b[-1] == a[0] else ""):
        if joint and joint in text:
            return joint
    return ""


def closest(
    docs: sp.csr_matrix,
    papers: sp.csr_matrix,
    library_rows: Sequence[Sequence[int]],
    best: Sequence[Sequence[tuple[float, int]]],
) -> list[list[int]]:
    """For every pick, the index in its subscriber's library of the liked paper it is most
    similar to (the first of equals; -1: none shares a word)."""
    out: list[list[int]] = [[-1] * len(picks) for picks in best]
    liked: list[int] = []
    picked: list[int] = []
    pick_of: list[int] = []
    index: list[int] = []
    flat: list[tuple[int, int]] = []
    for si, picks in enumerate(best):
        rows = library_rows[si]
        for c, (_, j) in enumerate(picks):
            if rows:
                liked += rows
                picked += [j] * len(rows)
                pick_of += [len(flat)] * len(rows)
                index += range(len(rows))
                flat.append((si, c))
    if not flat:
        return out
    sims = pair_dots(docs, liked, papers, picked)
    owner, li = np.array(pick_of), np.array(index)
    order = np.lexsort((li, -sims, owner))
    first = order[np.searchsorted(owner[order], np.arange(len(flat)))]
    for (si, c), at in zip(flat, first.tolist(), strict=True):
        if sims[at] > 0:
            out[si][c] = int(li[at])
    return out
