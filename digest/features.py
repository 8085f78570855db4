"""The TF-IDF feature space ranking works in: the analyzer (words and phrase bigrams), the fit,
and a fitted space saved as bytes so that a daily run can reuse it instead of refitting."""

from __future__ import annotations

import io
import re
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
    """What the ranker reads of a paper: the title counts twice, being its densest summary."""
    return f"{paper.title}. {paper.title}. {paper.abstract}"


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
    vectorizer = _vectorizer(len(texts), 1)
    rows = vectorizer.fit_transform(texts).tocsr()
    space = Space(vectorizer, len(texts))
    if len(texts) >= MIN_DF_MIN_DOCS:
        df = np.bincount(rows.indices, minlength=rows.shape[1])
        wanted = df >= MIN_DF
        vocabulary = vectorizer.vocabulary_
        for text in keep:
            for term in analyze(text):
                index = vocabulary.get(term)
                if index is not None:
                    wanted[index] = True
        if not wanted.all():
            columns = np.flatnonzero(wanted)
            rows = _renormalize(rows[:, columns])
            names = [str(t) for t in vectorizer.get_feature_names_out()[columns]]
            space = _fixed(names, vectorizer.idf_[columns], len(texts))
    rows.sort_indices()
    return space, rows


def _renormalize(rows: sp.csr_matrix) -> sp.csr_matrix:
    from sklearn.preprocessing import normalize

    return normalize(rows).tocsr()
