"""Small stores: `digest run` ranks in a space of its own once 1000 papers are stored (its idf,
centroid and latent basis), and below that in the papers given joined with the built-in
background. This puts both side by side on stores of N papers (today's pool plus other papers
of the split's months), so the switch is measured, not assumed; bench/results/stores.md.

    .venv/bin/python -m bench.stores [--data PATH] [--split tune|report|both] [--sizes N ...]
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
from digest.models import Paper
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
    space, rows = features.fit(texts)
    return background.stored(
        space, np.bincount(rows.indices, minlength=space.size), len(texts), rows
    )


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=["tune", "report", "both"], default="both")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 10000])
    parser.add_argument("--out", default=str(RESULTS / "stores.md"))
    args = parser.parse_args(argv)
    corpus.use(args.data)
    head = "| task | metric | stored papers | n | " + " | ".join(WAYS) + " | joined - own (SE) |"
    text = [
        "# Small stores",
        "",
        f"Command: `python -m bench.stores --sizes {' '.join(map(str, args.sizes))}`.",
    ]
    for key in SPLITS if args.split == "both" else [args.split]:
        split = SPLITS[key]
        text += ["", f"### {key}", "", head, "|" + " --- |" * 7, *run(split, args.sizes)]
    Path(args.out).write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
