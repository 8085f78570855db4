"""Each ranking idea's effect on the relevance tasks: the project's ranker as shipped, then with one
idea switched off (or one rejected idea switched on), same tasks and seeds; bench/results/ideas.md.

    .venv/bin/python -m bench.ideas            # or: make bench-ideas
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from bench import relevance
from digest import ranking
from digest.models import Paper
from digest.ranking import features, tokens

Patch = dict[tuple[object, str], object]


# name -> (what the row shows, patches applied to the shipped ranker)
VARIANTS: dict[str, tuple[str, Patch]] = {
    "shipped": ("all kept ideas on", {}),
    "- authors of liked papers": (
        "no author signal from the library",
        {(ranking, "LIBRARY_AUTHOR_BOOST"): 0.0},
    ),
    "- Rocchio against the pool": ("no pool-mean negative", {(ranking, "POOL_WEIGHT"): 0.0}),
    "- pseudo relevance feedback": (
        "no expansion with the first pass's best papers",
        {(ranking, "FEEDBACK_WEIGHT"): 0.0},
    ),
    "- min_df 2 on large corpora": ("words of one paper kept", {(features, "MIN_DF"): 1}),
    "- bigrams (unigrams only)": ("no phrase bigrams", {(tokens, "BIGRAMS"): False}),
    "- domain stop words": (
        "English stop words only",
        {(tokens, "STOP_WORDS"): tokens.ENGLISH_STOP_WORDS},
    ),
    "title twice (not once)": (
        "the title counted twice",
        {(ranking, "paper_text"): lambda p: f"{p.title}. {p.title}. {p.abstract}"},
    ),
    "max_df 0.1 (arxiv-sanity-lite's)": ("stricter common-word cut", {(features, "MAX_DF"): 0.1}),
    "stronger feedback (0.6)": (
        "pseudo relevance feedback weight 0.6",
        {(ranking, "FEEDBACK_WEIGHT"): 0.6},
    ),
}


@contextlib.contextmanager
def patched(patch: Patch) -> Iterator[None]:
    saved = {key: getattr(*key) for key in patch}
    try:
        for (owner, name), value in patch.items():
            setattr(owner, name, value)
        yield
    finally:
        for (owner, name), value in saved.items():
            setattr(owner, name, value)


def variant(patch: Patch) -> relevance.Ranker:
    def ranker(pool: Sequence[Paper], queries: Sequence[relevance.Query]) -> list[list[int]]:
        with patched(patch):
            return relevance.digest_ranker(pool, queries)

    return ranker


def mmr(lam: float, depth: int = 30) -> relevance.Ranker:
    """Maximal marginal relevance over the shipped ranker's top `depth`: each next pick maximizes
    lam * score - (1 - lam) * (highest similarity to a paper already picked)."""

    def ranker(pool: Sequence[Paper], queries: Sequence[relevance.Query]) -> list[list[int]]:
        ranked = relevance.digest_ranker(pool, queries)
        space, x = features.fit([features.paper_text(p) for p in pool])
        out = []
        for rows in ranked:
            head = rows[:depth]
            sims = (x[head] @ x[head].T).toarray()
            score = np.linspace(1.0, 0.5, len(head))  # rank-based relevance, best first
            chosen: list[int] = []
            left = list(range(len(head)))
            while left:
                redundancy = (
                    sims[np.ix_(left, chosen)].max(axis=1) if chosen else np.zeros(len(left))
                )
                best = max(
                    range(len(left)), key=lambda i: lam * score[left[i]] - (1 - lam) * redundancy[i]
                )
                chosen.append(left.pop(best))
            out.append([head[i] for i in chosen] + rows[depth:])
        return out

    return ranker


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--out", default=str(relevance.RESULTS / "ideas"))
    args = parser.parse_args(argv)
    rankers: dict[str, relevance.Ranker] = {name: variant(p) for name, (_, p) in VARIANTS.items()}
    rankers["+ MMR diversity (lambda 0.7)"] = mmr(0.7)
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    result = relevance.run(rankers, args.seeds, 5000, 6, 120, log=log)
    text = relevance.table(result)
    print(text)
    out = Path(args.out)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(
        "# Ranking ideas, one at a time\n\n"
        f"Command: `.venv/bin/python -m bench.ideas` (seeds {args.seeds}; the relevance tasks of "
        "bench/relevance.py). Row `shipped` is the ranker as it ships; every other row switches "
        "one idea off (-) or one rejected idea on.\n\n" + text + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
