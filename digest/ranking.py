"""Ranking: one TF-IDF space over the day's papers and the subscribers' libraries, one sparse
product for all subscribers at once, top-k picks, and the words and liked paper behind each pick."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import (
    ENGLISH_STOP_WORDS,
    TfidfVectorizer,
    strip_accents_unicode,
)
from sklearn.preprocessing import normalize

from digest.models import Paper, Scored, Subscriber

KEYWORD_WEIGHT = 1.5  # keywords are the subscriber's explicit wish: they outweigh free text
AUTHOR_BOOST = 0.15
MAX_TERMS = 5
MAX_DF = 0.5
# A max_df cut on a handful of documents would delete the words that tie them together.
MAX_DF_MIN_DOCS = 50
# Dense scores held at once (subscribers x papers in a chunk): about 32 MB of float64.
CHUNK_CELLS = 4_000_000

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


def make_vectorizer(n_docs: int) -> TfidfVectorizer:
    return TfidfVectorizer(
        analyzer=analyze,
        sublinear_tf=True,
        min_df=1,
        max_df=MAX_DF if n_docs >= MAX_DF_MIN_DOCS else 1.0,
    )


def author_key(name: str) -> str:
    """A name's matching key: "Last, First" and "First Last" give the same one."""
    name = strip_accents_unicode(name).lower()
    if "," in name:
        last, _, first = name.partition(",")
        name = f"{first} {last}"
    return " ".join(re.findall(r"\w+", name))


def exclude_pattern(words: Collection[str]) -> re.Pattern[str] | None:
    """One regex for a subscriber's exclude list: whole words or phrases, plural forms included."""
    parts = [r"[\s-]+".join(map(re.escape, w.split())) for w in words if w.split()]
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?:e?s)?(?!\w)", re.IGNORECASE)


def _group_sum(rows: sp.csr_matrix, columns: list[int], owners: list[int], n: int) -> sp.csr_matrix:
    """Sum of the given rows per owner; normalizing the sum later equals normalizing the mean."""
    pick = sp.csr_matrix(
        (np.ones(len(columns)), (owners, columns)), shape=(n, rows.shape[0]), dtype=rows.dtype
    )
    return normalize(pick @ rows)


def _profiles(
    vectorizer: TfidfVectorizer,
    docs: sp.csr_matrix,
    subscribers: Sequence[Subscriber],
    library_rows: list[list[int]],
) -> sp.csr_matrix:
    n = len(subscribers)
    interests = vectorizer.transform([s.profile.interests for s in subscribers])
    phrases = [(i, kw) for i, s in enumerate(subscribers) for kw in s.profile.keywords]
    if phrases:
        keywords = _group_sum(
            vectorizer.transform([kw for _, kw in phrases]),
            list(range(len(phrases))),
            [i for i, _ in phrases],
            n,
        )
    else:
        keywords = sp.csr_matrix(interests.shape, dtype=interests.dtype)
    owners = [i for i, rows in enumerate(library_rows) for _ in rows]
    library = _group_sum(docs, [r for rows in library_rows for r in rows], owners, n)
    profile = normalize(interests + KEYWORD_WEIGHT * keywords + library).tocsr()
    profile.sort_indices()
    return profile


def _top(
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


def _terms(
    profile: sp.csr_matrix, s: int, papers: sp.csr_matrix, j: int, names: np.ndarray
) -> tuple[str, ...]:
    """The features that add most to score(s, j), as words; a bigram absorbs its own unigrams."""
    ps, pe = profile.indptr[s], profile.indptr[s + 1]
    xs, xe = papers.indptr[j], papers.indptr[j + 1]
    common, a, b = np.intersect1d(
        profile.indices[ps:pe], papers.indices[xs:xe], assume_unique=True, return_indices=True
    )
    weight = profile.data[ps:pe][a] * papers.data[xs:xe][b]
    chosen: list[str] = []
    # Feature indices follow the sorted vocabulary, so ties fall back to alphabetical order.
    for t in np.lexsort((common, -weight)):
        if weight[t] <= 0 or len(chosen) == MAX_TERMS:
            break
        term = str(names[common[t]])
        words = term.split()
        if len(words) == 1:
            if not any(term in c.split() for c in chosen):
                chosen.append(term)
            continue
        covered = [c for c in chosen if c in words]
        if covered:
            chosen[chosen.index(covered[0])] = term
            chosen = [c for c in chosen if c not in covered[1:]]
        else:
            chosen.append(term)
    return tuple(chosen)


def rank(
    papers: Sequence[Paper],
    subscribers: Sequence[Subscriber],
    *,
    top_k: int | None = None,
    thresholds: bool = True,
    allowed: Mapping[str, Collection[str]] | None = None,
) -> dict[str, list[Scored]]:
    """Every subscriber name -> its picks among `papers`, best first.

    top_k overrides each subscriber's own; thresholds=False ignores min_score; allowed restricts a
    subscriber to the given paper ids. With thresholds, a paper with neither shared words nor a
    followed author is never a pick; without, every paper is ranked.
    """
    picks: dict[str, list[Scored]] = {s.name: [] for s in subscribers}
    papers = list(papers)
    m, n = len(papers), len(subscribers)
    if not m or not n:
        return picks

    # Library papers join the fit so that their vocabulary exists in the space.
    corpus = list(papers)
    row_of: dict[str, int] = {}
    for i, p in enumerate(papers):
        row_of.setdefault(p.id, i)
    liked: list[list[Paper]] = []
    for s in subscribers:
        unique: dict[str, Paper] = {}
        for p in s.profile.library:
            unique.setdefault(p.id, p)
        liked.append(list(unique.values()))
        for p in liked[-1]:
            if p.id not in row_of:
                row_of[p.id] = len(corpus)
                corpus.append(p)
    vectorizer = make_vectorizer(len(corpus))
    try:
        docs = vectorizer.fit_transform([p.text for p in corpus]).tocsr()
    except ValueError:  # nothing but stop words: nothing can match anything
        return picks
    docs.sort_indices()
    library_rows = [[row_of[p.id] for p in lib] for lib in liked]
    profile = _profiles(vectorizer, docs, subscribers, library_rows)
    x = docs[:m]

    ids = [p.id for p in papers]
    limits = [max(0, top_k if top_k is not None else s.top_k) for s in subscribers]
    floors = np.array([s.min_score if thresholds else -np.inf for s in subscribers])
    excludes = [exclude_pattern(s.profile.exclude) for s in subscribers]
    blocked = [np.array([r for r in rows if r < m], dtype=np.intp) for rows in library_rows]
    permitted: list[np.ndarray | None] = []
    for s in subscribers:
        only = None if allowed is None else allowed.get(s.name)
        rows = sorted({row_of[i] for i in only if i in row_of and row_of[i] < m}) if only else []
        permitted.append(None if only is None else np.array(rows, dtype=np.intp))
    followers: dict[str, set[int]] = {}
    for si, s in enumerate(subscribers):
        for name in s.profile.authors:
            followers.setdefault(author_key(name), set()).add(si)
    followed: dict[tuple[int, int], list[str]] = {}
    for j, p in enumerate(papers):
        for name in p.authors:
            for si in sorted(followers.get(author_key(name), ())):
                authors = followed.setdefault((si, j), [])
                if name not in authors:
                    authors.append(name)

    def acceptor(si: int, lo: int) -> Callable[[int], bool]:
        pattern = excludes[si]
        if pattern is None:
            return lambda j: True
        return lambda j: not pattern.search(f"{papers[j + lo].title}\n{papers[j + lo].abstract}")

    best: list[list[tuple[float, int]]] = [[] for _ in subscribers]
    chunk = max(1, CHUNK_CELLS // n)
    for lo in range(0, m, chunk):
        hi = min(m, lo + chunk)
        block = (profile @ x[lo:hi].T).toarray()
        for si, j in followed:
            if lo <= j < hi:
                block[si, j - lo] += AUTHOR_BOOST
        # `digest rank` (no thresholds) ranks every paper; a digest never carries a zero match.
        ok = (block > 0) & (block >= floors[:, None]) if thresholds else np.ones(block.shape, bool)
        chunk_ids = ids[lo:hi]
        for si in range(n):
            if not limits[si]:
                continue
            mask = ok[si]
            if permitted[si] is not None:
                inside = permitted[si][(permitted[si] >= lo) & (permitted[si] < hi)] - lo
                mask = np.zeros_like(mask)
                mask[inside] = ok[si, inside]
            mask[blocked[si][(blocked[si] >= lo) & (blocked[si] < hi)] - lo] = False
            candidates = np.flatnonzero(mask)
            if not candidates.size:
                continue
            local = _top(block[si], candidates, limits[si], chunk_ids, acceptor(si, lo))
            merged = best[si] + [(float(block[si, j]), j + lo) for j in local]
            best[si] = sorted(merged, key=lambda c: (-c[0], ids[c[1]]))[: limits[si]]

    names = vectorizer.get_feature_names_out()
    for si, s in enumerate(subscribers):
        if not best[si]:
            continue
        chosen = [j for _, j in best[si]]
        nearest: list[str] = [""] * len(chosen)
        if library_rows[si]:
            sims = (docs[library_rows[si]] @ x[chosen].T).toarray()
            for c, li in enumerate(sims.argmax(axis=0)):
                if sims[li, c] > 0:
                    nearest[c] = f"closest to: {liked[si][li].title or liked[si][li].id}"
        for c, (score, j) in enumerate(best[si]):
            reasons = [nearest[c]] if nearest[c] else []
            if (si, j) in followed:
                reasons.append(f"by {', '.join(followed[si, j])}, whom you follow")
            terms = _terms(profile, si, x, j, names)
            picks[s.name].append(Scored(papers[j], score, terms, "; ".join(reasons)))
    return picks
