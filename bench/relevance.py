"""Relevance benchmark: four seeded ranking tasks over the shared arXiv corpus, four rankers side by
side (scikit-learn defaults, arxiv-sanity-lite, BM25, this project), one table.

    .venv/bin/python -m bench.relevance            # or: make bench-relevance
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

from bench import corpus
from bench.interests import INTERESTS
from digest import ranking
from digest.models import Paper, Profile, Subscriber

RESULTS = Path(__file__).resolve().parent / "results"
DEPTH = 100  # every ranker returns its top 100; MRR counts a first hit within them
CATEGORIES = tuple(INTERESTS)  # the categories with >= 150 later papers, one interests text each
LIKED = 5
MAX_AUTHOR_PAPERS = 15  # a name on more papers than this in eight months is usually several people


@dataclass(frozen=True)
class Query:
    group: str  # category or author: results are averaged per group, then over groups
    liked: tuple[Paper, ...]
    text: str
    relevant: frozenset[str]


@dataclass(frozen=True)
class Task:
    name: str
    metrics: tuple[str, ...]
    pool: tuple[Paper, ...]
    queries: tuple[Query, ...]


# Rankers: (pool, queries) -> for each query the pool indices of its top DEPTH, best first.
Ranker = Callable[[Sequence[Paper], Sequence[Query]], list[list[int]]]


def top_rows(scores: np.ndarray, depth: int = DEPTH) -> list[list[int]]:
    """Best `depth` columns of each row, best first; ties go to the lower index (paper id order)."""
    out = []
    for row in scores:
        take = min(depth, row.size)
        part = np.argpartition(-row, take - 1)[:take]
        out.append([int(j) for j in sorted(part, key=lambda j: (-row[j], j))])
    return out


def sklearn_default(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
    """TfidfVectorizer() as shipped; profile = mean of the liked papers' vectors (or the text)."""
    liked = _liked(queries)
    vectorizer = TfidfVectorizer()
    x = vectorizer.fit_transform([f"{p.title} {p.abstract}" for p in [*pool, *liked]]).tocsr()
    row = {p.id: len(pool) + i for i, p in enumerate(liked)}
    profiles = []
    for q in queries:
        if q.liked:
            profiles.append(sp.csr_matrix(x[[row[p.id] for p in q.liked]].mean(axis=0)))
        else:
            profiles.append(vectorizer.transform([q.text]))
    scores = (normalize(sp.vstack(profiles)) @ x[: len(pool)].T).toarray()
    return top_rows(scores)


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
    """Its serve.py svm_rank: a LinearSVC per profile, liked papers positive, the pool negative,
    papers ranked by decision_function. A text profile is one positive "paper" made of the text."""
    liked = _liked(queries)
    vectorizer = asl_vectorizer()
    x = vectorizer.fit_transform([asl_text(p) for p in [*pool, *liked]]).astype(np.float32).tocsr()
    row = {p.id: len(pool) + i for i, p in enumerate(liked)}
    candidates = x[: len(pool)]
    out = []
    for q in queries:
        if q.liked:
            positives = x[[row[p.id] for p in q.liked]]
        else:
            positives = vectorizer.transform([q.text]).astype(np.float32)
        features = sp.vstack([candidates, positives]).tocsr()
        labels = np.r_[np.zeros(len(pool)), np.ones(positives.shape[0])]
        clf = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01)
        clf.fit(features, labels)
        out += top_rows(clf.decision_function(candidates)[None, :])
    return out


def bm25(
    pool: Sequence[Paper], queries: Sequence[Query], k1: float = 1.2, b: float = 0.75
) -> list[list[int]]:
    """Okapi BM25 (Lucene's idf), English stop words; the query is the liked papers' text (or
    the interests text), each query word weighed by how often it occurs there."""
    liked = _liked(queries)
    counter = CountVectorizer(stop_words="english", strip_accents="unicode")
    counts = counter.fit_transform([f"{p.title} {p.abstract}" for p in [*pool, *liked]]).tocsr()
    tf = counts[: len(pool)].astype(np.float64).tocsr()
    n = tf.shape[0]
    df = np.bincount(tf.indices, minlength=tf.shape[1])
    idf = np.log1p((n - df + 0.5) / (df + 0.5))
    length = np.asarray(tf.sum(axis=1)).ravel()
    norm = k1 * (1 - b + b * length / length.mean())
    per_nonzero = np.repeat(norm, np.diff(tf.indptr))
    tf.data = tf.data * (k1 + 1) / (tf.data + per_nonzero) * idf[tf.indices]
    row = {p.id: len(pool) + i for i, p in enumerate(liked)}
    bags = []
    for q in queries:
        if q.liked:
            bags.append(sp.csr_matrix(counts[[row[p.id] for p in q.liked]].sum(axis=0)))
        else:
            bags.append(counter.transform([q.text]))
    scores = (sp.vstack(bags).astype(np.float64) @ tf.T).toarray()
    return top_rows(scores)


def digest_ranker(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
    """This project: every profile a subscriber, all ranked in one digest.ranking.rank call."""
    subscribers = [
        Subscriber(f"q{i}", Profile(interests=q.text, library=q.liked), (), top_k=DEPTH)
        for i, q in enumerate(queries)
    ]
    picks = ranking.rank(pool, subscribers, top_k=DEPTH, thresholds=False)
    index = {p.id: i for i, p in enumerate(pool)}
    return [[index[s.paper.id] for s in picks[f"q{i}"]] for i in range(len(queries))]


RANKERS: dict[str, Ranker] = {
    "scikit-learn TfidfVectorizer defaults, mean profile": sklearn_default,
    "arxiv-sanity-lite (TF-IDF + LinearSVC per profile)": arxiv_sanity_lite,
    "BM25 (k1=1.2, b=0.75)": bm25,
    "digest (this project)": digest_ranker,
}


def _liked(queries: Sequence[Query]) -> list[Paper]:
    return list({p.id: p for q in queries for p in q.liked}.values())


# --- tasks ----------------------------------------------------------------------------------


def ambiguous(name: str, papers: Sequence[Paper]) -> bool:
    """A name that may stand for several people: initials only, very many papers, or papers in
    both computer science and the physical sciences."""
    given = name.replace("-", " ").split()[:-1]
    if not given or any(len(g.rstrip(".")) <= 1 for g in given):
        return True
    if len(papers) > MAX_AUTHOR_PAPERS:
        return True
    fields = {corpus.primary(p).split(".")[0] in {"cs", "eess", "stat", "math"} for p in papers}
    return len(fields) > 1


def author_queries(
    rng: random.Random, earlier: Sequence[Paper], later: Sequence[Paper], count: int
) -> list[tuple[str, list[Paper], list[Paper]]]:
    """(name, earlier papers, later papers) of `count` unambiguous authors with >= 3 and >= 2."""
    before: dict[str, list[Paper]] = defaultdict(list)
    after: dict[str, list[Paper]] = defaultdict(list)
    for p in earlier:
        for name in set(p.authors):
            before[name].append(p)
    for p in later:
        for name in set(p.authors):
            after[name].append(p)
    eligible = sorted(
        name
        for name in before
        if len(before[name]) >= 3
        and len(after.get(name, ())) >= 2
        and not ambiguous(name, before[name] + after[name])
    )
    chosen = rng.sample(eligible, min(count, len(eligible)))
    return [(name, before[name], after[name]) for name in sorted(chosen)]


def build_tasks(seed: int, pool_size: int, per_category: int, authors: int) -> list[Task]:
    rng = random.Random(seed)
    earlier, later = corpus.split()
    pool = tuple(sorted(rng.sample(later, pool_size), key=lambda p: p.id))
    by_category: dict[str, list[Paper]] = defaultdict(list)
    for p in earlier:
        by_category[corpus.primary(p)].append(p)
    relevant = {c: frozenset(p.id for p in pool if corpus.primary(p) == c) for c in CATEGORIES}
    liked, one = [], []
    for c in CATEGORIES:
        for _ in range(per_category):
            liked.append(Query(c, tuple(rng.sample(by_category[c], LIKED)), "", relevant[c]))
            one.append(Query(c, (rng.choice(by_category[c]),), "", relevant[c]))
    text = [Query(c, (), INTERESTS[c], relevant[c]) for c in CATEGORIES]
    found = author_queries(rng, earlier, later, authors)
    extra = {p.id: p for _, _, theirs in found for p in theirs}
    author_pool = tuple(sorted({**{p.id: p for p in pool}, **extra}.values(), key=lambda p: p.id))
    by_author = [
        Query(name, tuple(mine), "", frozenset(p.id for p in theirs))
        for name, mine, theirs in found
    ]
    return [
        Task("liked papers", ("nDCG@10", "P@10"), pool, tuple(liked)),
        Task("author", ("Recall@20", "MRR"), author_pool, tuple(by_author)),
        Task("one paper", ("nDCG@10",), pool, tuple(one)),
        Task("interests text", ("P@10",), pool, tuple(text)),
    ]


# --- metrics --------------------------------------------------------------------------------


def measure(metric: str, ranked: Sequence[str], relevant: frozenset[str]) -> float:
    hits = [1.0 if pid in relevant else 0.0 for pid in ranked]
    if metric == "P@10":
        return sum(hits[:10]) / 10
    if metric == "nDCG@10":
        dcg = sum(h / np.log2(i + 2) for i, h in enumerate(hits[:10]))
        ideal = sum(1 / np.log2(i + 2) for i in range(min(10, len(relevant))))
        return dcg / ideal if ideal else 0.0
    if metric == "Recall@20":
        return sum(hits[:20]) / len(relevant) if relevant else 0.0
    if metric == "MRR":
        return next((1 / (i + 1) for i, h in enumerate(hits) if h), 0.0)
    raise ValueError(metric)


def evaluate(task: Task, ranker: Ranker) -> tuple[dict[str, float], float]:
    """Each metric averaged per group, then over groups; and the ranker's wall time."""
    start = time.perf_counter()
    ranked = ranker(task.pool, task.queries)
    elapsed = time.perf_counter() - start
    figures: dict[str, float] = {}
    for metric in task.metrics:
        per_group: dict[str, list[float]] = defaultdict(list)
        for q, rows in zip(task.queries, ranked, strict=True):
            ids = [task.pool[j].id for j in rows]
            per_group[q.group].append(measure(metric, ids, q.relevant))
        figures[metric] = statistics.fmean(statistics.fmean(v) for v in per_group.values())
    return figures, elapsed


def run(
    rankers: dict[str, Ranker],
    seeds: Sequence[int],
    pool_size: int,
    per_category: int,
    authors: int,
    log: Callable[[str], None] = print,
) -> dict[str, object]:
    """{task: {metric: {ranker: [figure per seed]}}} plus timings and the run's settings."""
    figures: dict[str, dict[str, dict[str, list[float]]]] = {}
    timings: dict[str, float] = defaultdict(float)
    sizes: dict[str, list[int]] = {}
    for seed in seeds:
        for task in build_tasks(seed, pool_size, per_category, authors):
            sizes[task.name] = [len(task.pool), len(task.queries)]
            for name, ranker in rankers.items():
                got, elapsed = evaluate(task, ranker)
                timings[name] += elapsed
                for metric, value in got.items():
                    figures.setdefault(task.name, {}).setdefault(metric, {}).setdefault(
                        name, []
                    ).append(value)
                log(f"seed {seed} {task.name:15} {name[:40]:40} {elapsed:6.1f}s  {got}")
    return {
        "settings": {
            "seeds": list(seeds),
            "pool": pool_size,
            "profiles_per_category": per_category,
            "authors": authors,
            "categories": list(CATEGORIES),
            "pool_and_queries_per_task": sizes,
        },
        "figures": figures,
        "seconds": dict(timings),
    }


def table(result: dict[str, object]) -> str:
    """Markdown: one row per ranker, one column per (task, metric); mean over seeds."""
    figures = result["figures"]
    assert isinstance(figures, dict)
    columns = [(task, metric) for task, metrics in figures.items() for metric in metrics]
    names = list(next(iter(next(iter(figures.values())).values())))
    head = "| ranker | " + " | ".join(f"{t}: {m}" for t, m in columns) + " | seconds |"
    lines = [head, "|" + " --- |" * (len(columns) + 2)]
    seconds = result["seconds"]
    assert isinstance(seconds, dict)
    for name in names:
        cells = []
        for task, metric in columns:
            values = figures[task][metric][name]
            best = max(statistics.fmean(v) for v in figures[task][metric].values())
            mean = statistics.fmean(values)
            cell = f"{mean:.3f}"
            cells.append(f"**{cell}**" if mean == best else cell)
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {seconds[name]:.0f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--pool", type=int, default=5000, help="candidate papers per task")
    parser.add_argument("--per-category", type=int, default=6, help="profiles per category")
    parser.add_argument("--authors", type=int, default=120, help="author profiles per seed")
    parser.add_argument("--out", default=str(RESULTS / "relevance"), help="writes OUT.md, OUT.json")
    args = parser.parse_args(argv)
    result = run(
        RANKERS,
        args.seeds,
        args.pool,
        args.per_category,
        args.authors,
        log=lambda line: print(line, file=sys.stderr),
    )
    text = table(result)
    print(text)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    settings = result["settings"]
    out.with_suffix(".md").write_text(
        f"# Relevance\n\nCommand: `.venv/bin/python -m bench.relevance` "
        f"(seeds {args.seeds}, pool {args.pool}).\nSettings: `{json.dumps(settings)}`\n\n"
        f"Mean over seeds; per seed in {out.with_suffix('.json').name}. Best per column in bold."
        f"\n\n{text}\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
