"""Fields the built-in background has never seen: `digest rank` (and a store of fewer than 1000
papers) weighs words by digest/ranking/background.npz, of the corpus's fields. Here it ranks one
side of a split's fields (physics, or cs) with a background made of the other side's papers only,
beside the shipped background and BM25; bench/results/unseen.md.

    .venv/bin/python -m bench.unseen [--data PATH] [--split tune|report|both] [--variant NAME]
                                     [--store N]

The backgrounds are of the months outside the split's, so that no pool paper is in them.
`--variant` adds the unseen-background ranker with one of bench/variants.py's patches; `--store N`
adds it as a store of N earlier papers of the side's fields could rank (bench/trials.py
small_store: their document frequencies counted into the background's; measured and dropped).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import corpus, rankers, relevance, trials
from bench.background import built
from bench.patches import patched
from bench.tasks import SPLITS, Query, Split
from bench.variants import VARIANTS
from digest.models import Paper
from digest.ranking import background

CS = ("cs", "eess")  # the archives of one side; every other archive is the other side
BASE = "digest rank, unseen background"
# The report split's cs side is two fields (cs.CL, cs.AI), too few for the many-interests task.
SIDES = {"tune": ("physics", "cs"), "report": ("physics",)}
FOCUS = {("tune", "cs"): "cs.CV", ("tune", "physics"): "astro-ph.GA"}
FOCUS |= {("report", "physics"): "astro-ph.CO"}


def is_cs(category: str) -> bool:
    return category.split(".")[0] in CS


def made(split: Split, side: str, folder: Path) -> tuple[Path, int]:
    """The background file of the other side's papers, of the months outside the split's, and
    how many papers it holds."""
    months = {*split.profile_months, *split.pool_months}
    papers = [
        p
        for p in corpus.papers()
        if corpus.month(p)
        and corpus.month(p) not in months
        and is_cs(corpus.primary(p)) != (side == "cs")
    ]
    path = folder / f"{split.name}-{side}.npz"
    path.write_bytes(built(papers)[0])
    return path, len(papers)


def on(path: Path, ranker: rankers.Ranker, patch: dict | None = None) -> rankers.Ranker:
    """`ranker` with the background file at `path` (and a variant's patch)."""

    def run(pool: Sequence[Paper], queries: Sequence[Query]) -> list[list[int]]:
        with patched({(background, "FILE"): path, **(patch or {})}):
            return ranker(pool, queries)

    return run


def side_split(split: Split, side: str) -> Split:
    categories = tuple(c for c in split.categories if is_cs(c) == (side == "cs"))
    texts = {s: {c: t for c, t in d.items() if c in categories} for s, d in split.texts.items()}
    return dataclasses.replace(
        split, categories=categories, focus=FOCUS[(split.name, side)], texts=texts
    )


def table(title: str, result: dict[str, dict]) -> str:
    names = list(next(iter(result.values()))["values"])
    others = [n for n in names if n != BASE]
    head = ["task", "metric", "n", *names, *(f"{o} - {BASE} (SE)" for o in others)]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for name, entry in result.items():
        values = entry["values"]
        cells = [f"{statistics.fmean(values[n]):.3f}" for n in names]
        for o in others:
            d, se = relevance.paired(values[o], values[BASE])
            cells.append(f"{d:+.3f} ({se:.3f})")
        lines.append(
            f"| {name} | {entry['metric']} | {len(values[BASE])} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=[*SPLITS, "both"], default="both")
    parser.add_argument("--variant", action="append", default=[], choices=list(VARIANTS))
    parser.add_argument("--store", action="append", default=[], type=int, help="earlier papers")
    parser.add_argument("--per-category", type=int, default=4, help="profiles per category")
    parser.add_argument("--out", default=str(relevance.RESULTS / "unseen"), help="writes OUT.md")
    args = parser.parse_args(argv)
    corpus.use(args.data)
    chosen = list(SPLITS) if args.split == "both" else [args.split]
    scale = {"per_category": args.per_category, "authors": 0, "examples": 40}
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    texts = []
    with tempfile.TemporaryDirectory() as folder:
        for key in chosen:
            for side in SIDES[key]:
                split = side_split(SPLITS[key], side)
                path, size = made(SPLITS[key], side, Path(folder))
                ranks = {
                    "digest rank": rankers.digest_on_pool,
                    BASE: on(path, rankers.digest_on_pool),
                    "BM25": rankers.bm25,
                }
                for name in args.variant:
                    ranks[f"{BASE}, {name}"] = on(path, rankers.digest_on_pool, VARIANTS[name][1])
                for count in args.store:
                    stored = trials.small_store(count, split.categories)
                    ranks[f"{BASE}, a store of {count} earlier papers"] = on(path, stored)
                result = relevance.run_split(split, ranks, scale, log)["tasks"]
                title = (
                    f"{key}, {side} fields ({' '.join(split.categories)}) with a background of "
                    f"{size} papers of the {'other' if side == 'cs' else 'cs and eess'} "
                    "archives only, of the months outside the split's"
                )
                texts.append(table(title, result))
                print(texts[-1] + "\n", flush=True)
    defaults = {n: parser.get_default(n) for n in vars(args)}
    command = relevance.command_of(args, defaults, "python -m bench.unseen")
    command += "".join(f" --variant '{v}'" for v in args.variant)
    command += "".join(f" --store {n}" for n in args.store)
    relevance.written(
        Path(args.out), "Fields the background has never seen", f"Command: `{command}`.", texts
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
