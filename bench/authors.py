"""The author task over every eligible author of a split, with the sharper Recall@5 and @10 beside
Recall@20, at several library-author boosts and with the author-weighting ideas measured against
them: where bench/relevance.py's 80 sampled authors all score 1.0 on tune, this still tells them
apart. Only tune is for choosing.

    .venv/bin/python -m bench.authors [--data PATH] [--split tune|report] [--boosts 0.2 0.4 ...]
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence

import scipy.sparse as sp

from bench import corpus, tasks
from bench.patches import patched
from digest import ranking
from digest.models import Paper, Profile, Scored, Subscriber
from digest.ranking import product, profiles
from digest.ranking.features import Space
from digest.ranking.tokens import author_key

DEPTH = 100
CUTS = (5, 10, 20)

# A library author's weight times factor(papers of the pool with that name, the liked papers they
# are on): a name on many papers is several people or a large lab; a paper of hundreds of authors
# says little about any one of them.
Factor = Callable[[int, list[Paper]], float]
WEIGHTS: dict[str, Factor] = {
    "2 / sqrt(pool papers)": lambda df, mine: 2 / math.sqrt(max(df, 1)),
    "1.5 / (1 + ln pool papers)": lambda df, mine: 1.5 / (1 + math.log(max(df, 1))),
    "min(1, 10 / authors), averaged": lambda df, mine: statistics.fmean(
        min(1.0, 10 / len(p.authors)) for p in mine
    ),
}


# The same specificity from the stored corpus (every paper of the split's months) instead of
# today's pool: a name's papers there per PER papers, so that it means one thing on any day.
PER = 6_704  # the tune split's pool month
STORED: dict[str, Factor] = {
    f"2 / sqrt(stored papers per {PER:,})": lambda df, mine: 2 / math.sqrt(max(df, 1)),
}


def weighed(factor: Factor, counts: dict[str, float] | None = None) -> object:
    """profiles.authors with every library author's weight times `factor` of the name's papers in
    the pool (or in `counts`)."""
    original = profiles.authors

    def authors(papers, subscribers, liked, space=None):  # type: ignore[no-untyped-def]
        # In place of the specificity the space's names give (rank() joins the built-in
        # background's): multiplied by it, the factor counted each name twice.
        by_author, written, weights, _ = original(papers, subscribers, liked, None)
        df = (
            counts
            if counts is not None
            else Counter(author_key(a) for p in papers for a in set(p.authors))
        )
        new = []
        for lib, mine in zip(liked, weights, strict=True):
            on = {k: [p for p in lib if k in {author_key(a) for a in p.authors}] for k in mine}
            new.append({k: w * factor(df.get(k, 0), on[k]) for k, w in mine.items()})
        index = {k: i for i, k in enumerate(sorted({k for w in weights for k in w}))}
        cells = [(si, index[k], w) for si, ws in enumerate(new) for k, w in ws.items()]
        rows = sp.csr_matrix(
            ([c[2] for c in cells], ([c[0] for c in cells], [c[1] for c in cells])),
            shape=by_author.shape,
        )
        return profiles.Authors(rows, written, new, rows)  # the libraries follow no one

    return authors


def recalls(ids: Sequence[str], relevant: set[str]) -> list[float]:
    """Recall@k for each cut; @5 and @10 count against min(k, relevant), so 1.0 is reachable."""
    return [
        sum(i in relevant for i in ids[:k]) / (min(k, len(relevant)) if k < 20 else len(relevant))
        for k in CUTS
    ]


def run(
    split: tasks.Split, boost: float, combine: str = "sum", factor: str = ""
) -> tuple[int, list[float]]:
    """(queries, mean Recall@5, @10, @20) with LIBRARY_AUTHOR_BOOST = boost. combine: how a
    paper's library authors' weights add up, "max" as shipped, or "sum" or "noisy-or" (the top
    100 re-sorted); factor names one of WEIGHTS."""
    task = next(
        t
        for t in tasks.build(split, split.seeds[0], per_category=1, authors=10**6, examples=1)
        if t.name.startswith("author")
    )
    subscribers = [
        Subscriber(f"q{i}", Profile(library=q.liked), (), top_k=DEPTH)
        for i, q in enumerate(task.queries)
    ]
    patch: dict[tuple[object, str], object] = {(profiles, "LIBRARY_AUTHOR_BOOST"): boost}
    if factor in STORED:
        every = [
            p
            for p in corpus.papers()
            if corpus.month(p) in {*split.profile_months, *split.pool_months}
        ]
        named = Counter(author_key(a) for p in every for a in set(p.authors))
        counts = {k: c * PER / len(every) for k, c in named.items()}
        patch[(product, "authors")] = patch[(profiles, "authors")] = weighed(STORED[factor], counts)
    elif factor:
        patch[(product, "authors")] = patch[(profiles, "authors")] = weighed(WEIGHTS[factor])
    with patched(patch):
        picks = ranking.rank(task.pool, subscribers, top_k=DEPTH, thresholds=False)
        # The weights rank() gave: with the built-in background's name counts, as it joins them.
        from digest.ranking import background

        found = background.load(background.FILE) if not factor else None
        known = None if found is None else Space.__new__(Space)
        if known is not None and found is not None:
            known.named, known.named_docs = found.named, found.docs
        weights = profiles.authors(
            task.pool, subscribers, [list(q.liked) for q in task.queries], known
        ).by_key
    rows = []
    for i, q in enumerate(task.queries):
        chosen = picks[f"q{i}"]
        if combine != "max":
            chosen = sorted(chosen, key=lambda p: -best_author(p, weights[i], combine))
        rows.append(recalls([p.paper.id for p in chosen], set(q.grades)))
    return len(rows), [statistics.fmean(r[c] for r in rows) for c in range(len(CUTS))]


def best_author(pick: Scored, weights: dict[str, float], combine: str) -> float:
    """The pick's score with its library authors' boosts combined by `combine` instead of their
    best one's: "sum" (as before December 2026) or "noisy-or" (1 - the product of 1 - each)."""
    found = [weights[k] for k in {author_key(a) for a in pick.paper.authors} if k in weights]
    if combine == "sum":
        return pick.score - max(found, default=0.0) + sum(found)
    return pick.score - max(found, default=0.0) + 1 - math.prod(1 - min(w, 1.0) for w in found)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=["tune", "report"], default="tune")
    parser.add_argument("--boosts", type=float, nargs="+", default=[0.1, 0.2, 0.3, 0.4, 0.6, 1.0])
    parser.add_argument(
        "--combine", action="store_true", help="also the sum and noisy-or of a paper's authors"
    )
    parser.add_argument("--weights", action="store_true", help="also every WEIGHTS factor")
    args = parser.parse_args(argv)
    corpus.use(args.data)
    split = tasks.SPLITS[args.split]
    print(f"| split | boost | variant | authors | {' | '.join(f'Recall@{k}' for k in CUTS)} |")
    print("| --- " * (4 + len(CUTS)) + "|")
    for boost in args.boosts:
        shown = [("max", "")] + ([("sum", ""), ("noisy-or", "")] if args.combine else [])
        shown += [("max", f) for f in [*WEIGHTS, *STORED]] if args.weights else []
        for combine, factor in shown:
            n, means = run(split, boost, combine, factor)
            cells = " | ".join(f"{m:.4f}" for m in means)
            name = factor or {"sum": "the sum over a paper's authors", "noisy-or": "noisy-or"}.get(
                combine, "shipped"
            )
            print(f"| {split.name} | {boost} | {name} | {n} | {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
