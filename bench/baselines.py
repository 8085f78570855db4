"""The comparison points of bench/scale.py, each run as its own process on the files `digest rank`
reads (papers JSONL, library JSONL files, the config's interests):

  lower   the lower bound: read the files, fit once (the project's own features.fit; the liked
          papers are transformed), build the profile matrix P, one sparse product P.X^T per
          block of papers (scipy), top k per row with argpartition. No explanations, no JSON.
  loop    fit once, then per subscriber cosine_similarity(profile, X) and argpartition.
  svm     arxiv-sanity-lite: its TF-IDF, then a LinearSVC per subscriber (library positive,
          papers negative), decision_function over the papers.

    python -m bench.baselines lower|loop|svm CONFIG PAPERS.jsonl TOP [SAMPLE]

loop and svm time SAMPLE subscribers (default all) after the shared fit and print the seconds of
the fit and of the sample, so that scale.py can extrapolate to every subscriber.
"""

from __future__ import annotations

import json
import sys
import time
import tomllib

import numpy as np
import scipy.sparse as sp
from sklearn.preprocessing import normalize

from digest.ranking import features


def read(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def text(record: dict) -> str:
    return f"{record['title']}. {record['abstract']}"


def load(config: str, papers: str) -> tuple[list[dict], list[dict]]:
    with open(config, "rb") as stream:
        subscribers = tomllib.load(stream)["subscribers"]
    for s in subscribers:
        s["liked"] = read(s["library"]) if s.get("library") else []
    return read(papers), subscribers


def fitted(records: list[dict]) -> tuple[features.Space, sp.csr_matrix]:
    """The project's own fit (ranking.features), the fastest this machine has: the bound is then
    what the product and top-k cost beyond reading the files and fitting."""
    return features.fit([text(r) for r in records])


def profiles(space: features.Space, subscribers: list[dict]) -> sp.csr_matrix:
    interests = space.transform([s.get("interests", "") for s in subscribers])
    liked = [r for s in subscribers for r in s["liked"]]
    rows = space.transform([text(r) for r in liked]) if liked else None
    owners = [i for i, s in enumerate(subscribers) for _ in s["liked"]]
    pick = sp.csr_matrix(
        (np.ones(len(owners)), (owners, range(len(owners)))),
        shape=(len(subscribers), len(owners)),
    )
    library = normalize(pick @ rows) if rows is not None else 0 * interests
    return normalize(interests + library).tocsr()


def lower(config: str, papers: str, top: int) -> None:
    records, subscribers = load(config, papers)
    space, x = fitted(records)
    p = profiles(space, subscribers)
    n, m = p.shape[0], x.shape[0]
    block = max(top + 1, 4_000_000 // n)
    best_s = np.full((n, 0), -np.inf, np.float32)
    best_j = np.zeros((n, 0), np.int64)
    for lo in range(0, m, block):
        scores = (p @ x[lo : lo + block].T).toarray()
        k = min(top, scores.shape[1])
        idx = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        best_s = np.hstack([best_s, np.take_along_axis(scores, idx, 1)])
        best_j = np.hstack([best_j, idx + lo])
        keep = np.argpartition(-best_s, min(top, best_s.shape[1]) - 1, axis=1)[:, :top]
        best_s = np.take_along_axis(best_s, keep, 1)
        best_j = np.take_along_axis(best_j, keep, 1)
    print(json.dumps({"checksum": float(best_s.sum())}))


def loop(config: str, papers: str, top: int, sample: int) -> None:
    from sklearn.metrics.pairwise import cosine_similarity

    start = time.perf_counter()
    records, subscribers = load(config, papers)
    space, x = fitted(records)
    p = profiles(space, subscribers)
    shared = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(min(sample, p.shape[0])):
        scores = cosine_similarity(p[i], x).ravel()
        np.argpartition(-scores, top - 1)[:top]
    print(
        json.dumps(
            {
                "shared": shared,
                "sample": min(sample, p.shape[0]),
                "seconds": time.perf_counter() - start,
            }
        )
    )


def svm(config: str, papers: str, top: int, sample: int) -> None:
    from sklearn.svm import LinearSVC

    from bench.rankers import asl_vectorizer

    start = time.perf_counter()
    records, subscribers = load(config, papers)
    v = asl_vectorizer()
    corpus = [
        " ".join([r["title"], r["abstract"], " ".join(r.get("authors", []))]) for r in records
    ]
    x = v.fit_transform(corpus).astype(np.float32).tocsr()
    shared = time.perf_counter() - start
    start = time.perf_counter()
    done = 0
    for s in subscribers[:sample]:
        if not s["liked"]:
            continue
        pos = v.transform(
            [
                " ".join([r["title"], r["abstract"], " ".join(r.get("authors", []))])
                for r in s["liked"]
            ]
        ).astype(np.float32)
        data = sp.vstack([x, pos]).tocsr()
        labels = np.r_[np.zeros(x.shape[0]), np.ones(pos.shape[0])]
        clf = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01).fit(data, labels)
        scores = clf.decision_function(x)
        np.argpartition(-scores, top - 1)[:top]
        done += 1
    print(json.dumps({"shared": shared, "sample": done, "seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    kind, config, papers, top = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sample = int(sys.argv[5]) if len(sys.argv) > 5 else 10**9
    if kind == "lower":
        lower(config, papers, top)
    elif kind == "loop":
        loop(config, papers, top, sample)
    else:
        svm(config, papers, top, sample)
