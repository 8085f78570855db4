"""The rankers the relevance benchmark compares, each (pool, queries) -> every query's top DEPTH
pool indices, best first: this project, arxiv-sanity-lite's TF-IDF + per-profile SVM, and BM25."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

from bench import corpus
from bench.tasks import EVERY, Query
from digest import ranking
from digest.models import Paper, Profile, Subscriber
from digest.ranking import background, features, profiles

DEPTH = 100
Ranker = Callable[[Sequence[Paper], Sequence[Query]], list[list[int]]]


def top_rows(scores: np.ndarray, depth: int = DEPTH) -> list[list[int]]:
    """Best `depth` columns of each row, best first; ties go to the lower index (paper id order)."""
    out = []
    for row in np.atleast_2d(scores):
        take = min(depth, row.size)
        part = np.argpartition(-row, take - 1)[:take]
        out.append([int(j) for j in sorted(part, key=lambda j: (-row[j], j))])
    return out


def _rated(queries: Sequence[Query]) -> list[Paper]:
    return list({p.id: p for q in queries for p in (*q.liked, *q.disliked)}.values())


def asl_text(p: Paper) -> str:
    return " ".join([p.title, p.abstract, " ".join(p.authors)])


def asl_vectorizer() -> TfidfVectorizer:
    """arxiv-sanity-lite's compute.py settings (title, abstract and author names are indexed)."""
    return TfidfVectorizer(
        input="content",
        encoding="utf-8",
        decode_error="replace",
        strip_accents="unicode",
        lowercase=True,
        analyzer="word",
        stop_words="english",
        token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b",
        ngram_range=(1, 2),
        max_features=20000,
        norm="l2",
        use_idf=True,
        smooth_idf=True,
        sublinear_tf=True,
        max_df=0.1,
        min_df=5,
    )


def arxiv_sanity_lite(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
    """Its serve.py svm_rank: a LinearSVC per profile, liked papers positive, the rest of the pool
    negative, ranked by decision_function. The interests text is one more positive "paper"; papers
    rated down stay negatives (they are not in the pool)."""
    from sklearn.svm import LinearSVC

    rated = _rated(queries)
    vectorizer = asl_vectorizer()
    x = vectorizer.fit_transform([asl_text(p) for p in [*pool, *rated]]).astype(np.float32).tocsr()
    row = {p.id: len(pool) + i for i, p in enumerate(rated)}
    candidates = x[: len(pool)]

    def one(q: Query) -> list[int]:
        positive = [x[[row[p.id] for p in q.liked]]] if q.liked else []
        if q.text or q.keywords:  # keywords: one more positive "paper" of their phrases
            wish = " ".join([q.text, *q.keywords]).strip()
            positive.append(vectorizer.transform([wish]).astype(np.float32))
        negative = x[[row[p.id] for p in q.disliked]] if q.disliked else x[:0]
        ups = sp.vstack(positive).tocsr()
        features = sp.vstack([candidates, negative, ups]).tocsr()
        labels = np.r_[np.zeros(len(pool) + negative.shape[0]), np.ones(ups.shape[0])]
        clf = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01)
        clf.fit(features, labels)
        return top_rows(clf.decision_function(candidates))[0]

    # liblinear releases the GIL: two fits at a time on two cores.
    with ThreadPoolExecutor(2) as threads:
        return list(threads.map(one, queries))


def bm25(
    pool: Sequence[Paper], queries: Sequence[Query], k1: float = 1.2, b: float = 0.75
) -> list[list[int]]:
    """Okapi BM25 (Lucene's idf), English stop words; the query is the liked papers' text and the
    interests text and keywords, each word weighed by how often it occurs there."""
    return top_rows(bm25_scores(pool, queries, k1, b))


def bm25_scores(
    pool: Sequence[Paper], queries: Sequence[Query], k1: float = 1.2, b: float = 0.75
) -> np.ndarray:
    """Every query's BM25 score of every pool paper (queries x pool)."""
    rated = _rated(queries)
    counter = CountVectorizer(stop_words="english", strip_accents="unicode")
    counts = counter.fit_transform([f"{p.title} {p.abstract}" for p in [*pool, *rated]]).tocsr()
    tf = counts[: len(pool)].astype(np.float64).tocsr()
    df = np.bincount(tf.indices, minlength=tf.shape[1])
    idf = np.log1p((tf.shape[0] - df + 0.5) / (df + 0.5))
    length = np.asarray(tf.sum(axis=1)).ravel()
    norm = k1 * (1 - b + b * length / max(length.mean(), 1e-9))
    tf.data = tf.data * (k1 + 1) / (tf.data + np.repeat(norm, np.diff(tf.indptr))) * idf[tf.indices]
    row = {p.id: len(pool) + i for i, p in enumerate(rated)}
    bags = []
    for q in queries:
        bag = sp.csr_matrix((1, tf.shape[1]))
        if q.liked:
            bag = bag + sp.csr_matrix(counts[[row[p.id] for p in q.liked]].sum(axis=0))
        if q.text or q.keywords:
            bag = bag + counter.transform([" ".join([q.text, *q.keywords])])
        bags.append(bag)
    return (sp.vstack(bags).astype(np.float64) @ tf.T).toarray()


def digest_ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
    """This project as `digest run` ranks: in the stored corpus's space (stored_space), every
    query a subscriber, all ranked in one digest.ranking.rank call."""
    return digest_lists(pool, queries, stored_space(pool))


def digest_on_pool(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
    """This project as `digest rank` ranks: in a space fitted on the pool, no latent basis."""
    return digest_lists(pool, queries)


_STORED: dict[str, ranking.Space] = {}


def stored_corpus(pool: Sequence[Paper]) -> tuple[str, list[Paper]]:
    """The split whose months hold `pool`, and every paper of its months: the stored corpus a
    `digest run` over that split would rank in (("", []) for a pool of no split's months). A
    split whose pool months are exactly the pool's comes first: the holdout's pools are of months
    that the report split's months hold too."""
    months = {corpus.month(p) for p in pool}
    splits = sorted(EVERY.values(), key=lambda s: set(s.pool_months) != months)
    for split in splits:
        wanted = {*split.profile_months, *split.pool_months}
        if months <= wanted:
            return split.name, [p for p in corpus.papers() if corpus.month(p) in wanted]
    return "", []


def stored_space(pool: Sequence[Paper]) -> ranking.Space | None:
    """The space a `digest run` would rank `pool` in: fitted, with its latent basis, on the
    stored corpus (stored_corpus), as digest/corpus.py fits the stored papers; None for a pool
    of no split's months."""
    name, every = stored_corpus(pool)
    if name and name not in _STORED:
        texts = [features.paper_text(p) for p in every]
        space, rows = background.fitted(texts, (), len(texts))
        df = np.bincount(rows.indices, minlength=space.size)
        named = profiles.frequent(profiles.name_counts(every), len(texts))
        _STORED[name] = background.blended(background.stored(space, df, len(texts), rows, named))
    return _STORED.get(name)


def digest_lists(
    pool: Sequence[Paper], queries: Sequence[Query], space: ranking.Space | None = None
) -> list[list[int]]:
    """Every query's top DEPTH by digest.ranking.rank (in `space`, if given), its head (the
    q.shown the metric reads) ranked as a digest of that size: a profile of several interests
    draws its picks from each in turn, and the latent order reaches 30 papers deep, so the top
    15 of 100 picks is not the digest of 15 its reader gets."""
    lists = _picked(pool, queries, DEPTH, space)
    several = [i for i, q in enumerate(queries) if 0 < q.shown < DEPTH]
    for cut in sorted({queries[i].shown for i in several}):
        mine = [i for i in several if queries[i].shown == cut]
        heads = _picked(pool, [queries[i] for i in mine], cut, space)
        for i, head in zip(mine, heads, strict=True):
            lists[i] = [*head, *(j for j in lists[i] if j not in set(head))][:DEPTH]
    return lists


def _picked(
    pool: Sequence[Paper], queries: Sequence[Query], k: int, space: ranking.Space | None
) -> list[list[int]]:
    subscribers = [
        Subscriber(
            f"q{i}",
            Profile(interests=q.text, keywords=q.keywords, library=q.liked, disliked=q.disliked),
            (),
            top_k=k,
        )
        for i, q in enumerate(queries)
    ]
    picks = ranking.rank(pool, subscribers, top_k=k, thresholds=False, space=space)
    index = {p.id: i for i, p in enumerate(pool)}
    return [[index[s.paper.id] for s in picks[f"q{i}"]] for i in range(len(queries))]


RANKERS: dict[str, Ranker] = {
    "digest": digest_ranker,
    "arxiv-sanity-lite": arxiv_sanity_lite,
    "BM25": bm25,
    "digest rank": digest_on_pool,  # the same ranker with no store: what `digest rank` does
}
