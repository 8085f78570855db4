"""The TF-IDF feature space ranking works in: the analyzer (words and phrase bigrams), the fit,
and a fitted space saved as bytes so that a daily run can reuse it instead of refitting."""

from __future__ import annotations

import array
import io
import os
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import (
    ENGLISH_STOP_WORDS,
    TfidfVectorizer,
    strip_accents_unicode,
)

from digest.models import Paper

# Bump when the analyzer or the weighting changes: a stored space of another version is refitted.
VERSION = 2
MAX_DF = 0.5
# A max_df cut on a handful of documents would delete the words that tie them together.
MAX_DF_MIN_DOCS = 50
# On a large corpus a word seen in one paper only ties it to nothing else; dropping such words
# focuses each paper's vector on shared vocabulary (and shrinks the space). Words of the
# subscribers' own interests and keywords are always kept. Below this many papers, keep all.
MIN_DF = 2
MIN_DF_MIN_DOCS = 1000

# Words every abstract uses to sell itself; they say nothing about the topic.
DOMAIN_STOP_WORDS = frozenset(
    """paper papers study propose proposed proposes method methods approach approaches result
    results show shows shown novel based using use used model models performance existing framework
    frameworks task tasks state art extensive experiments experimental demonstrate demonstrates
    demonstrated achieve achieves achieved achieving significant significantly new challenge
    challenges challenging work works recent recently problem problems introduce introduces present
    presents provide provides various including remarkable despite crucial critical promising
    furthermore moreover specifically particular improve improves improved improvement outperforms
    outperform effective effectively key able ability et al code available https http github com www
    """.split()
)
STOP_WORDS = ENGLISH_STOP_WORDS | DOMAIN_STOP_WORDS

# Punctuation ends a phrase; a hyphen inside a word ("privacy-utility") does not.
_PHRASE_BREAK = re.compile(r"[^\w\s-]+|\s-+|-+\s|--+")
# "gpt-4" and "llama-2" stay whole; other hyphenated words split into their parts.
_TOKEN = re.compile(r"\w+-\d\w*|\w+")


def analyze(text: str) -> list[str]:
    """Unigrams and bigrams. A bigram never spans punctuation or a stop word, so every bigram is a
    phrase that occurs in the text ("differential privacy", never "unlearning federated")."""
    features: list[str] = []
    for clause in _PHRASE_BREAK.split(strip_accents_unicode(text.lower())):
        previous = ""
        for token in _TOKEN.findall(clause):
            if len(token) < 2 or token.isdigit() or token in STOP_WORDS:
                previous = ""
                continue
            features.append(token)
            if previous:
                features.append(f"{previous} {token}")
            previous = token
    return features


def paper_text(paper: Paper) -> str:
    """What the ranker reads of a paper: title and abstract, once each. Counting the title twice
    measured worse on every relevance task (bench/results/ideas.md)."""
    return f"{paper.title}. {paper.abstract}"


def author_key(name: str) -> str:
    """A name's matching key: "Last, First" and "First Last" give the same one."""
    name = strip_accents_unicode(name).lower()
    if "," in name:
        last, _, first = name.partition(",")
        name = f"{first} {last}"
    return " ".join(re.findall(r"\w+", name))


class Space:
    """A fitted TF-IDF space: vocabulary and idf. transform() gives l2-normalized rows."""

    def __init__(self, vectorizer: TfidfVectorizer, docs: int) -> None:
        self.vectorizer = vectorizer
        self.docs = docs  # how many documents the fit saw

    @property
    def names(self) -> np.ndarray:
        return self.vectorizer.get_feature_names_out()

    @property
    def size(self) -> int:
        return len(self.vectorizer.vocabulary_)

    def transform(self, texts: Sequence[str]) -> sp.csr_matrix:
        rows = self.vectorizer.transform(texts).tocsr()
        rows.sort_indices()
        return rows

    def to_bytes(self) -> bytes:
        terms = sorted(self.vectorizer.vocabulary_, key=self.vectorizer.vocabulary_.__getitem__)
        out = io.BytesIO()
        np.savez_compressed(
            out,
            version=np.array([VERSION, self.docs]),
            terms=np.frombuffer("\n".join(terms).encode("utf-8"), dtype=np.uint8),
            idf=self.vectorizer.idf_.astype(np.float64),
        )
        return out.getvalue()

    @classmethod
    def from_bytes(cls, blob: bytes) -> Space | None:
        """The space saved by to_bytes(); None if it was made by another analyzer version."""
        with np.load(io.BytesIO(blob)) as saved:
            version, docs = (int(v) for v in saved["version"])
            if version != VERSION:
                return None
            terms = saved["terms"].tobytes().decode("utf-8").split("\n")
            idf = saved["idf"]
        return _fixed(terms, idf, docs)


def _vectorizer(n_docs: int, min_df: int) -> TfidfVectorizer:
    return TfidfVectorizer(
        analyzer=analyze,
        sublinear_tf=True,
        min_df=min_df,
        max_df=MAX_DF if n_docs >= MAX_DF_MIN_DOCS else 1.0,
        dtype=np.float64,
    )


def _fixed(terms: Sequence[str], idf: np.ndarray, docs: int) -> Space:
    """A space over a given vocabulary and idf, as if fitted."""
    vectorizer = _vectorizer(docs, min_df=1)
    vectorizer.vocabulary_ = {t: i for i, t in enumerate(terms)}
    vectorizer.idf_ = idf
    return Space(vectorizer, docs)


def make_vectorizer(n_docs: int) -> TfidfVectorizer:
    return _vectorizer(n_docs, 1)


def fit(texts: Sequence[str], keep: Sequence[str] = ()) -> tuple[Space, sp.csr_matrix]:
    """Fit a space on `texts` and return it with their rows. `keep`: texts (interests, keywords)
    whose words survive the min_df cut. Raises ValueError when there is no word at all."""
    n = len(texts)
    terms, indptr, indices, counts = _count_all(texts)
    df = np.bincount(indices, minlength=len(terms))
    wanted = df > 0
    if n >= MAX_DF_MIN_DOCS:
        wanted &= df <= MAX_DF * n
    if n >= MIN_DF_MIN_DOCS:
        wishes = {t for text in keep for t in analyze(text)}
        rare = df < MIN_DF
        spared = [i for i in np.flatnonzero(rare & wanted) if terms[i] in wishes]
        rare[spared] = False
        wanted &= ~rare
    columns = np.flatnonzero(wanted)
    if not columns.size:
        raise ValueError("empty vocabulary: the texts hold only stop words")
    # Columns in alphabetical order, as scikit-learn's vectorizer keeps them.
    names = sorted(terms[c] for c in columns)
    position = {t: i for i, t in enumerate(names)}
    where = np.full(len(terms), -1, dtype=np.int64)
    where[columns] = [position[terms[c]] for c in columns]
    del terms, position
    kept_df = np.empty(len(names))
    kept_df[where[columns]] = df[columns]
    idf = np.log((1 + n) / (1 + kept_df)) + 1  # scikit-learn's smooth idf
    # CSR straight from the counts: the dropped words' cells leave, each row keeps its place.
    mapped = where[indices]
    del indices, where
    keep_cells = mapped >= 0
    kept_per_row = np.diff(np.concatenate([[0], np.cumsum(keep_cells)])[indptr])
    columns_of = mapped[keep_cells].astype(np.int32)
    del mapped
    data = (1 + np.log(counts[keep_cells])) * idf[columns_of]  # sublinear tf x idf
    del counts, keep_cells
    rows = sp.csr_matrix(
        (data, columns_of, np.concatenate([[0], np.cumsum(kept_per_row)])), shape=(n, len(names))
    )
    rows = _renormalize(rows)
    rows.sort_indices()
    return _fixed(names, idf, n), rows


# Analysis is most of a large fit: from this many texts on, two processes share it.
PARALLEL_MIN = 20_000


def _count(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(terms, indptr, term indices, counts): the bag of features of every text, CSR-style."""
    vocabulary: dict[str, int] = {}
    indptr = [0]
    # Typed arrays, not lists: a list of Python ints costs 36 bytes a cell, these 8.
    indices = array.array("q")
    counts = array.array("q")
    for text in texts:
        bag = Counter(analyze(text))
        indices.extend([vocabulary.setdefault(t, len(vocabulary)) for t in bag])
        counts.extend(bag.values())
        indptr.append(len(indices))
    return (
        list(vocabulary),
        np.array(indptr, dtype=np.int64),
        np.frombuffer(indices, dtype=np.int64),
        np.frombuffer(counts, dtype=np.int64).astype(np.float64),
    )


def _count_all(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    if len(texts) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return _count(texts)
    import multiprocessing

    half = len(texts) // 2
    with multiprocessing.get_context("fork").Pool(1) as pool:
        other = pool.apply_async(_count, (list(texts[half:]),))
        terms, indptr, indices, counts = _count(texts[:half])
        their_terms, their_indptr, their_indices, their_counts = other.get()
    vocabulary = {t: i for i, t in enumerate(terms)}
    remap = np.array([vocabulary.setdefault(t, len(vocabulary)) for t in their_terms], np.int64)
    return (
        list(vocabulary),
        np.concatenate([indptr, their_indptr[1:] + indptr[-1]]),
        np.concatenate([indices, remap[their_indices] if remap.size else their_indices]),
        np.concatenate([counts, their_counts]),
    )


def _renormalize(rows: sp.csr_matrix) -> sp.csr_matrix:
    from sklearn.preprocessing import normalize

    return normalize(rows).tocsr()
