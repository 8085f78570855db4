"""The TF-IDF feature space ranking works in: the fit (which words and phrases are kept, and their
idf, over the texts' bags of ranking/bags.py), and a fitted space saved as bytes so that a daily
run can reuse it, not refit."""

from __future__ import annotations

import functools
import io
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from digest.models import Paper
from digest.ranking import bags, latent, spellings
from digest.ranking.cases import is_cased
from digest.ranking.parallel import tokenize_all
from digest.ranking.spellings import greek_spellings
from digest.ranking.stopwords import PHRASE_ONLY, PREFIXES, both_phrase_only
from digest.ranking.tokens import analyze, compound, tokenize

# Bump when the analyzer or the weighting changes: a stored space of another version is refitted.
# 5: the latent basis; 6: "k-means", "c++", "c#" whole, no LaTeX command names; 7: other scripts
# keep their marks (й, モデル, हिन्दी), Chinese, Japanese and Korean in two-letter words; 8: "model",
# "code", "state", "work", "performance", "task", "key", "art" in phrases; 9: other languages'
# function words stop words of a text in that language only; 10: "side", "thin", "well", "top",
# "front", "system", "first", "many" and others of the stop lists in phrases; 11: a LaTeX Greek
# letter is the letter ("$\Lambda$CDM" is "λcdm"); 12: an en dash or "--" between letters joins a
# name pair ("Navier–Stokes"), "c++17" holds "c++"; 13: "--" only between names ("Erdős--Rényi"),
# not prose's dash between small letters; 14: "C#4" a pitch, no "c#" ("c++0x" is "c++"), a Title
# Case title read in its language ("De", "Em" function words); 15: a lone letter joins its word ("T
# cell" is "t-cell"), a math letter too ("$p$-adic" is "p-adic"), "SU(2)" and "A/B" are words; 16:
# ions ("[O III]" is "o-iii"), no numeral or unit alone ("ii", "cm"), "21 cm" and "21-cm" are
# "21cm", "10-fold", "high-z", "Lyman-α" whole, "Lyα" is "lyman-α", a subscript's digit in its word
# ("MoS$_2$", "$\sigma_8$": "mos2", "σ8"), "non" a word of phrases only; 17: lower case after NFKC
# ("ℤ₂" is "z2"), "J/ψ", "ψ(2S)", "N=4 SYM", "II-VI" whole, "∞-" "infinity", "(iv)"; 18: pt/it "na"
# 19: "GHZ" no GHz, "semi" in phrases, "10-20" no word, "chip-seq", "psi(2S)"
# 20: "20 kV" is "20kv", "KV" an acronym; "out-of-distribution" a word; "2σ" none
# 21: a compound of function words a column only where a reader wrote it
# 22: "10 dB" is "10db", "DB" (MT, MW, KB...) an acronym; no "a-judge"; "AdS/CFT" a phrase
# 23: "GPT-4 MT", "TNG50 MW": a name's digit is no number, "MT" the acronym
VERSION = 23
# The form of a saved space: 2 counts the built-in background in (background.stored), 3 holds
# its terms and the store's words as common as its rarest (background.fitted); a space
# saved in another form is fitted again once.
FORM = 3
# No word is ever cut for being common: a focused source (48 papers that all say "federated
# learning") would lose the very words its subscriber asked for. Common words weigh little through
# idf instead, and idf counts BACKGROUND_DOCS pseudo-documents that hold none of the words, so
# that a pool of 10 papers (where every df is noise) and one of 50,000 weigh words alike: on a
# small pool idf is nearly flat, on a large one the pool's own df dominate.
BACKGROUND_DOCS = 50
IDF_FLOOR = 1.0  # added to every idf (scikit-learn's smooth idf adds 1)
# On a large corpus a word seen in one paper only ties it to nothing else; dropping such words
# focuses each paper's vector on shared vocabulary (and shrinks the space). Words of the
# subscribers' own interests and keywords are always kept. Below this many papers, keep all.
MIN_DF = 2
MIN_DF_MIN_DOCS = 1000
# A paper of fewer features than this (1 in 100 arXiv abstracts has under 46; a title alone has
# about 10) is weighed as if its words were spread over this many. Cosine normalization makes a
# title that says one word of a profile score above abstracts that say three of them.
SHORT = 40


def paper_text(paper: Paper) -> str:
    """What the ranker reads of a paper: title and abstract, once each. Counting the title twice
    measured worse on every relevance task (bench/results/ideas.md)."""
    return f"{paper.title}. {paper.abstract}"


class Space:
    """A fitted TF-IDF space: vocabulary, idf and the direction of the mean fitted row (the
    background's centroid). transform() gives l2-normalized rows."""

    def __init__(
        self,
        terms: Sequence[str],
        idf: np.ndarray,
        docs: int,
        centroid: np.ndarray | None = None,
        basis: latent.Basis | None = None,
        named: Mapping[str, int] | None = None,
        named_docs: int | None = None,
    ) -> None:
        self.names = np.asarray(terms, dtype=object)
        self.idf = idf
        self.docs = docs  # how many documents the fit saw
        self.vocabulary = {t: i for i, t in enumerate(terms)}
        self.centroid = np.zeros(len(terms)) if centroid is None else centroid
        self.basis = basis  # the stored corpus's latent basis (None: words alone)
        # How many of `named_docs` papers (the stored ones, or the built-in background's) each
        # frequent author name is on (profiles.frequent; None: not counted).
        self.named = None if named is None else dict(named)
        self.named_docs = docs if named_docs is None else named_docs

    @property
    def size(self) -> int:
        return len(self.vocabulary)

    @functools.cached_property
    def single_words(self) -> np.ndarray:
        """1.0 for each column that is one word, 0.0 for a phrase."""
        names = self.names
        return np.fromiter((" " not in t for t in names), dtype=np.float64, count=len(names))

    def transform(self, texts: Sequence[str], unit: bool = True) -> sp.csr_matrix:
        """The texts' rows: l2-normalized, or (unit=False) as weighed, for their magnitudes."""
        distinct = list(dict.fromkeys(texts))
        if len(distinct) < len(texts):  # subscribers of one lab often share an interests text
            where = {text: i for i, text in enumerate(distinct)}
            return self.transform(distinct, unit)[[where[text] for text in texts]]
        words, ids, ends = tokenize(texts)
        keys, counts = bags.count(ids, ends, len(words))
        # Local features -> this space's columns (-1: not in the vocabulary).
        known = self.vocabulary.get
        column = np.fromiter(
            (
                *(known(w, -1) for w in words),
                *(known(f"{words[k >> 32]} {words[k & bags.LOW]}", -1) for k in keys.tolist()),
            ),
            dtype=np.int64,
            count=len(words) + len(keys),
        )
        return bags.weighted(counts, column, self.idf, len(self.vocabulary), unit)

    def spelled(self, texts: Sequence[str]) -> sp.csr_matrix:
        """Rows of a subscriber's own texts (interests, keywords), each word or phrase also in
        its other spellings that the vocabulary holds (ranking/spellings.py)."""
        return normalize(spellings.spread(self, texts, self.transform(texts)))

    def knows(self, texts: Sequence[str]) -> bool:
        """Does the vocabulary hold every word and phrase of `texts`? A stored space fitted before
        a subscriber came has none of their words that no stored paper held."""
        words, ids, ends = tokenize(texts)
        keys, _ = bags.count(ids, ends, len(words))
        known = self.vocabulary
        pairs = ((words[k >> 32], words[k & bags.LOW]) for k in keys.tolist())
        phrases = (f"{a} {b}" for a, b in pairs if not both_phrase_only(a, b))
        alone = (w for w in words if w not in PHRASE_ONLY)
        return all(w in known for w in alone) and all(p in known for p in phrases)

    def to_bytes(self) -> bytes:
        arrays: dict[str, np.ndarray] = {
            "version": np.array([VERSION, self.docs]),
            "form": np.array([FORM]),
            "terms": np.frombuffer("\n".join(self.names).encode("utf-8"), dtype=np.uint8),
            "idf": self.idf.astype(np.float64),
            "centroid": self.centroid.astype(np.float32),
        }
        if self.basis is not None:
            arrays["basis_columns"] = self.basis.columns.astype(np.int32)
            arrays["basis"] = self.basis.vectors.astype(np.float16)  # a quarter of float64's size
        if self.named is not None:
            arrays |= named_arrays(self.named) | {"named_docs": np.array([self.named_docs])}
        out = io.BytesIO()
        np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
        return out.getvalue()

    @classmethod
    def from_bytes(cls, blob: bytes) -> Space | None:
        """The space saved by to_bytes(); None if it was made by another analyzer version."""
        with np.load(io.BytesIO(blob)) as saved:
            version, docs = (int(v) for v in saved["version"])
            if version != VERSION or "form" not in saved or int(saved["form"][0]) != FORM:
                return None
            terms = saved["terms"].tobytes().decode("utf-8").split("\n")
            idf = saved["idf"]
            centroid = saved["centroid"].astype(np.float64)
            basis = None
            if "basis" in saved:
                columns = saved["basis_columns"].astype(np.int64)
                basis = latent.Basis(columns, saved["basis"].astype(np.float32))
            named = named_of(saved)
            named_docs = int(saved["named_docs"][0]) if named is not None else docs
        return cls(terms, idf, docs, centroid, basis, named, named_docs)


def named_arrays(named: Mapping[str, int]) -> dict[str, np.ndarray]:
    """Author names and their counts as arrays of a saved space or background file."""
    keys = np.frombuffer("\n".join(named).encode("utf-8"), dtype=np.uint8)
    return {"named": keys, "named_counts": np.fromiter(named.values(), np.int64, len(named))}


def named_of(saved: Mapping[str, np.ndarray]) -> dict[str, int] | None:
    """The names saved by named_arrays() (None: a file saved without them)."""
    if "named" not in saved:
        return None
    keys = saved["named"].tobytes().decode("utf-8").split("\n") if saved["named"].size else []
    return dict(zip(keys, saved["named_counts"].tolist(), strict=True))


def fit(
    texts: Sequence[str],
    keep: Sequence[str] = (),
    known: Sequence[str] | None = None,
    liked: Iterable[int] = (),
    common: int | None = None,
) -> tuple[Space, sp.csr_matrix]:
    """Fit a space on `texts` and return it with their rows. `keep`: texts (interests, keywords)
    whose words survive the min_df cut. `known`: a background's terms (ranking/background.py);
    with one, the words kept are its terms, those of `keep`, those of the texts at `liked`
    (rated papers) that another text holds too, and those of `common` or more texts (a store's
    own words). Raises ValueError when there is no word."""
    n = len(texts)
    words, ids, ends = tokenize_all(texts)
    keys, counts = bags.count(ids, ends, len(words))
    del ids
    width = len(words) + len(keys)
    df = np.zeros(width, np.int64)
    for block in counts:
        df += np.bincount(block.indices, minlength=width)
    wanted = df > 0
    alone = [i for i, w in enumerate(words) if w in PHRASE_ONLY]
    wanted[alone] = False  # in phrases alone, and not in a phrase of two such words but a
    if first := [i for i in alone if words[i] not in PREFIXES]:  # prefix's ("multi task")
        pairs = np.isin(keys >> 32, first) & np.isin(keys & bags.LOW, alone)
        wanted[len(words) + np.flatnonzero(pairs)] = False
    # A term of one paper only dilutes its norm; by today's pool alone that is noise under 1000
    # papers. With a background, a row is of the words it or a subscriber holds, as in a store's
    # space: cut by today's df, a related paper's rare word was kept once an unrelated paper
    # shared it, and that changed the related paper's row.
    # A reader's Greek letter in both spellings (β-decay, beta decay): Space.spelled weighs both.
    own = {
        g for text in dict.fromkeys(keep) for f in analyze(text) for g in (f, *greek_spellings(f))
    }
    # A compound joined by a function word ("out-of-distribution") is a reader's word, in the
    # space only where a reader wrote it: every paper's own ("end-to-end", "in-depth") had made
    # liked papers pull papers of their phrasing (5 liked papers, large pool: -0.017, -0.011).
    unasked = [i for i, w in enumerate(words) if "-" in w and w not in own and compound(w)]
    # So is a word in its mixed case ("GaN" beside "gan", cases.py): a paper's "ImageNet" alone.
    unasked += [i for i, w in enumerate(words) if w not in own and is_cased(w)]
    wanted[unasked] = False
    if known is not None:
        spared, rated = np.zeros(width, bool), np.unique(np.fromiter(liked, np.int64))
        at = bags.BLOCK
        for b in np.unique(rated // at).tolist():
            spared[counts[b][rated[rated // at == b] % at].indices] = True
        spared &= df >= MIN_DF  # a rated paper's word that no other paper holds matches nothing
        spared[bags.columns_of(itertools.chain(own, known), words, keys)] = True
        if common is not None:
            spared |= df >= common
        wanted &= spared
    elif n >= MIN_DF_MIN_DOCS:
        rare = df < MIN_DF
        rare[bags.columns_of(own, words, keys)] = False  # the subscribers' own words stay
        wanted &= ~rare
    columns = np.flatnonzero(wanted)
    if not columns.size:
        raise ValueError("empty vocabulary: the texts hold only stop words")
    low, pairs, mask = len(words), keys.tolist(), bags.LOW
    names = [
        words[c] if c < low else f"{words[pairs[c - low] >> 32]} {words[pairs[c - low] & mask]}"
        for c in columns.tolist()
    ]
    # Columns in alphabetical order, as scikit-learn's vectorizer keeps them: explanations break
    # ties between equal weights alphabetically.
    order = sorted(range(len(names)), key=names.__getitem__)
    position = np.full(width, -1, dtype=np.int64)
    position[columns[order]] = np.arange(len(order))
    idf = idf_of(n, df[columns[order]])
    terms = [names[i] for i in order]
    del names, words, keys, df, wanted, columns, order  # before the rows are weighed beside them
    rows = bags.weighted(counts, position, idf, len(terms))
    del position
    total = np.asarray(rows.sum(axis=0)).ravel()
    centroid = total / max(float(np.linalg.norm(total)), 1e-12)
    release_memory()
    return Space(terms, idf, n, centroid), rows


def release_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing).
    A fit's millions of short-lived strings leave the heap full of holes that the process keeps
    resident, and a container's memory limit counts resident pages."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes
    import ctypes.util

    try:
        trim: Callable[[int], int] = ctypes.CDLL(
            ctypes.util.find_library("c") or "libc.so.6"
        ).malloc_trim
        return trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): its allocator does this itself
        return None


def counted(
    space: Space,
    df: np.ndarray,
    docs: int,
    rows: sp.csr_matrix,
    named: Mapping[str, int] | None = None,
) -> Space:
    """A space fitted on a sample, with the document frequencies `df` of its columns counted on
    all `docs` papers instead; the centroid and the latent basis are the sample's (`rows`, the
    fit's rows) reweighted; `named`: the frequent author names of the `docs` papers."""
    idf = idf_of(docs, df)
    rows, centroid = reweighed(rows, idf / space.idf)
    return Space(list(space.names), idf, docs, centroid, latent.fit(rows), named)


def reweighed(
    rows: sp.csr_matrix, factor: np.ndarray, copy: bool = True
) -> tuple[sp.csr_matrix, np.ndarray]:
    """Rows with each column's weight times `factor`, l2-normalized again, and their centroid.
    copy=False: the rows given are changed in place."""
    rows = rows.copy() if copy else rows
    rows.data *= factor[rows.indices]
    owner = np.repeat(np.arange(rows.shape[0]), np.diff(rows.indptr))
    norms = np.sqrt(np.bincount(owner, weights=rows.data**2, minlength=rows.shape[0]))
    rows.data /= np.maximum(norms, 1e-12)[owner]
    total = np.asarray(rows.sum(axis=0)).ravel()
    return rows, total / max(float(np.linalg.norm(total)), 1e-12)


def idf_of(docs: int, df: np.ndarray) -> np.ndarray:
    idf: np.ndarray = np.log((1 + docs + BACKGROUND_DOCS) / (1 + df)) + IDF_FLOOR
    return idf


def brevity(rows: sp.csr_matrix) -> np.ndarray:
    """Each paper row's weight for how little it says: sqrt(its features / SHORT), at most 1."""
    weights: np.ndarray = np.sqrt(np.minimum(1.0, np.diff(rows.indptr) / SHORT))
    return weights


def shortened(rows: sp.csr_matrix) -> sp.csr_matrix:
    """Paper rows weighed by brevity(), in place (the rows given are changed and returned)."""
    rows.data *= np.repeat(brevity(rows), np.diff(rows.indptr))
    return rows


def normalize(rows: sp.spmatrix) -> sp.csr_matrix:
    """A copy of sparse rows scaled to unit l2 length (a zero row stays zero), as scikit-learn's
    normalize: ranking imports scikit-learn only to cluster a library or fit a basis, since its
    import is a second of every `digest rank`."""
    out = sp.csr_matrix(rows, dtype=np.float64, copy=True)
    norms = np.sqrt(np.asarray(out.multiply(out).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    out.data /= np.repeat(norms, np.diff(out.indptr))
    return out
