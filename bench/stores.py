"""Small stores: `digest run` ranks in a space of its own once 1000 papers are stored (its idf,
centroid and latent basis), and below that in the papers given joined with the built-in
background. This puts both side by side on stores of N papers (today's pool plus other papers
of the split's months), so the switch is measured, not assumed; and, as the store grows, how
the same papers' scores move (`min_score`, `alert_threshold`); bench/results/stores.md.

    .venv/bin/python -m bench.stores [--data PATH] [--split tune|report|both] [--sizes N ...]
                                     [--scale-only]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench import corpus, rankers, relevance
from bench.tasks import SPLITS, Query, Split, build
from digest import ranking
from digest.models import Paper, Profile, Subscriber
from digest.ranking import Space, background, features

RESULTS = Path(__file__).resolve().parent / "results"
WAYS = ("own space", "joined with the background")


def store(pool: Sequence[Paper], size: int, split: Split) -> list[Paper]:
    """The pool and, up to `size` papers, others of the split's months (the same ones for
    every pool of one size)."""
    ids = {p.id for p in pool}
    months = {*split.profile_months, *split.pool_months}
    others = [p for p in corpus.papers() if corpus.month(p) in months]
    fill = random.Random(f"{split.name}-{size}").sample(others, min(size, len(others)))
    return [*pool, *(p for p in fill if p.id not in ids)][:size] if size > len(pool) else [*pool]


def space_of(papers: Sequence[Paper], joined: bool) -> Space:
    """A stored space as digest/corpus.py fits it (own), or as a fit on the papers given is
    joined with the built-in background (ranking/background.py)."""
    texts = [features.paper_text(p) for p in papers]
    if joined:
        space, rows = features.fit(texts, known=background.terms())
        return background.joined(space, rows)[0]
    space, rows = background.fitted(texts, (), len(texts))
    df = np.bincount(rows.indices, minlength=space.size)
    return background.blended(background.stored(space, df, len(texts), rows))


def ranker(size: int, joined: bool, split: Split) -> rankers.Ranker:
    def rank(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        return rankers.digest_lists(pool, queries, space_of(store(pool, size, split), joined))

    return rank


def run(split: Split, sizes: Sequence[int]) -> list[str]:
    """One table row per (task, store size) whose pool fits in the store."""
    rows = []
    for task in build(split, split.seeds[0], per_category=4, authors=80, examples=40):
        pool = len(task.pool) or len(task.queries[0].pool)
        for size in (s for s in sizes if s >= pool):
            own, joined = (relevance.evaluate(task, ranker(size, j, split))[0] for j in (0, 1))
            d, se = relevance.paired(joined, own)
            rows.append(
                f"| {task.name} | {task.metric} | {size} | {len(own)} | "
                f"{statistics.fmean(own):.3f} | {statistics.fmean(joined):.3f} | "
                f"{d:+.3f} ({se:.3f}) |"
            )
            print(f"{split.name} {rows[-1]}", file=sys.stderr, flush=True)
    return rows


def scale(split: Split, sizes: Sequence[int]) -> list[str]:
    """Per store size and kind of reader, each reader's top 10 of a day of 100 papers with no
    store, and what those papers score in the store: the median over readers of each reader's
    median ratio (quartiles in brackets)."""
    tasks = {t.name: t for t in build(split, split.seeds[0], per_category=2, authors=0, examples=0)}
    day = tasks["5 liked papers, pool 100 (100)"]
    readers = [("5 liked papers", q) for q in day.queries]
    readers += [
        (t.name, q)
        for t in tasks.values()
        if "only" in t.name or "text," in t.name
        for q in t.queries
        if not t.name.endswith("2000")
    ]
    subscribers = [
        Subscriber(f"q{i}", Profile(interests=q.text, keywords=q.keywords, library=q.liked), ())
        for i, (_, q) in enumerate(readers)
    ]
    alone = _scores(day.pool, subscribers, None, 10)
    rows = []
    for size in sizes:
        space = space_of(store(day.pool, size, split), joined=False)
        stored = _scores(day.pool, subscribers, space, len(day.pool))
        by_kind: dict[str, list[float]] = {}
        for s, (kind, _) in zip(subscribers, readers, strict=True):
            mine = [stored[s.name].get(i, 0.0) / v for i, v in alone[s.name].items() if v > 0]
            if mine:
                by_kind.setdefault(kind.split(",")[0], []).append(statistics.median(mine))
        for kind, ratios in by_kind.items():
            q1, mid, q3 = np.percentile(ratios, [25, 50, 75])
            rows.append(f"| {kind} | {size} | {len(ratios)} | {mid:.3f} ({q1:.3f}-{q3:.3f}) |")
            print(f"{split.name} {rows[-1]}", file=sys.stderr, flush=True)
    return rows


def _scores(
    pool: Sequence[Paper], subscribers: Sequence[Subscriber], space: Space | None, top: int
) -> dict[str, dict[str, float]]:
    picks = ranking.rank(pool, subscribers, top_k=top, thresholds=False, space=space)
    return {name: {s.paper.id: s.score for s in got} for name, got in picks.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=["tune", "report", "both"], default="both")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 10000])
    parser.add_argument("--scale-only", action="store_true", help="only the scores' scale")
    parser.add_argument(
        "--out", help="default: results/stores.md, stores-scale.md with --scale-only"
    )
    args = parser.parse_args(argv)
    corpus.use(args.data)
    out = args.out or str(RESULTS / ("stores-scale.md" if args.scale_only else "stores.md"))
    head = "| task | metric | stored papers | n | " + " | ".join(WAYS) + " | joined - own (SE) |"
    text = [
        "# Small stores",
        "",
        f"Command: `python -m bench.stores --sizes {' '.join(map(str, args.sizes))}"
        f"{' --scale-only' if args.scale_only else ''}`.",
    ]
    for key in SPLITS if args.split == "both" else [args.split]:
        split = SPLITS[key]
        if not args.scale_only:
            text += ["", f"### {key}", "", head, "|" + " --- |" * 7, *run(split, args.sizes)]
        text += ["", f"### {key}: scores in a store of N papers / with no store", ""]
        text += ["| readers | stored papers | n | median ratio (quartiles) |", "|" + " --- |" * 4]
        text += scale(split, [s for s in args.sizes if s >= 1000])
    Path(out).write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
