"""Each ranking idea's effect on the relevance tasks: the project's ranker as shipped, then with one
idea switched off (or one rejected idea switched on), measured on the TUNE split (what ideas are
chosen on) and then checked on the REPORT split; bench/results/ideas.md.

    .venv/bin/python -m bench.ideas [--data PATH] [--split tune|report|small|both]

`small` is tune's months with four small fields (bench/tasks.py SMALL): a second tuning set.

With --ratings, the variants of RATED (bench/variants.py) instead, each on bench/ratings.py's
days (the relevance tasks hold no rating, so these ideas cannot move them);
bench/results/ideas-ratings.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bench import corpus, rankers, relevance, trials
from bench.tasks import SPLITS, TUNING
from bench.variants import RATED, VARIANTS, variant


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=[*TUNING, "both"], default="both")
    parser.add_argument("--per-category", type=int, default=4, help="profiles per category")
    parser.add_argument(
        "--baselines", action="store_true", help="arxiv-sanity-lite and BM25 beside the variants"
    )
    parser.add_argument("--only", nargs="+", help="these variants (and shipped) only")
    parser.add_argument("--ratings", action="store_true", help="the ideas of RATED, on ratings")
    parser.add_argument(
        "--texts", action="store_true", help="the ideas of VARIANTS, on interests texts alone"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    corpus.use(args.data)
    if args.ratings:
        return _ratings(
            args.split, args.only, Path(args.out or relevance.RESULTS / "ideas-ratings")
        )
    if args.texts:
        return _texts(args.split, args.only, Path(args.out or relevance.RESULTS / "ideas-texts"))
    args.out = args.out or str(relevance.RESULTS / "ideas")
    names = [n for n in VARIANTS if n == "shipped" or not args.only or n in args.only]
    ranks: dict[str, rankers.Ranker] = {n: variant(VARIANTS[n][1]) for n in names}
    ranks.update(trials.chosen(args.only))
    if args.baselines:
        ranks.update({"BM25": rankers.bm25, "arxiv-sanity-lite": rankers.arxiv_sanity_lite})
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    chosen = list(SPLITS) if args.split == "both" else [args.split]
    scale = {"per_category": args.per_category, "authors": 80, "examples": 40}
    texts, results = [], {}
    for key in chosen:
        results[key] = relevance.run_split(TUNING[key], ranks, scale, log)
        texts.append(_table(key, results[key]))
        print(texts[-1] + "\n", flush=True)
    out = Path(args.out)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    relevance.written(
        out,
        "Ranking ideas, one at a time",
        "Command: `python -m bench.ideas` (the tasks of bench/tasks.py). Row `shipped` is the "
        "ranker as it ships; every other row switches one idea off (-) or one idea on (+), and "
        "shows its difference from shipped, paired over queries (standard error in brackets).",
        texts,
    )
    return 0


def _ratings(split: str, only: Sequence[str] | None, out: Path) -> int:
    """Every RATED variant's P@10 on each day of the ratings bench, paired with shipped's."""
    from bench import ratings

    names = [n for n in RATED if n == "shipped" or not only or n in only]
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    texts = []
    for key in list(SPLITS) if split == "both" else [split]:
        runs = {}
        for name in names:
            ranker = variant(RATED[name][1])
            runs[name] = ratings.run(TUNING[key], log, ("digest, rated",), ranker)
        head = "| variant | start | " + " | ".join(f"day {d}" for d in range(2, ratings.DAYS + 1))
        lines = [f"### {key}", "", head + " |", "|" + " --- |" * (ratings.DAYS + 1)]
        for name in names:
            for start, figures in runs[name].items():
                assert isinstance(figures, dict)
                cells = []
                for day in range(2, ratings.DAYS + 1):
                    base = runs["shipped"][start]["digest, rated"][day]  # type: ignore[index]
                    cells.append(_cell(name, figures["digest, rated"][day], base))
                lines.append(f"| {name} | {start} | " + " | ".join(cells) + " |")
        texts.append(_shown(lines))
    return _written(
        out,
        "# Ranking ideas on ratings, one at a time\n\n"
        "Command: `python -m bench.ideas --ratings` (bench/ratings.py's reader: the top 10 of "
        "each day rated for three days). Row `shipped` is P@10 of the rated profile as it "
        "ships; every other row is its difference from shipped, paired over profiles "
        "(standard error in brackets).",
        texts,
    )


def _shown(lines: list[str]) -> str:
    """A split's table, printed as it is done."""
    text = "\n".join(lines)
    print(text + "\n", flush=True)
    return text


def _written(out: Path, head: str, tables: list[str]) -> int:
    out.with_suffix(".md").write_text(head + "\n\n" + "\n\n".join(tables) + "\n", encoding="utf-8")
    return 0


def _cell(name: str, mine: Sequence[float], base: Sequence[float]) -> str:
    """A table cell: shipped's mean, or another row's paired difference from it (its SE)."""
    if name == "shipped":
        return f"{np.mean(mine):.3f}"
    d, se = relevance.paired(list(mine), list(base))
    return f"{d:+.3f} ({se:.3f})"


def _texts(split: str, only: Sequence[str] | None, out: Path) -> int:
    """Every VARIANT's P@10 on the interests texts alone over the ratings bench's day pools (four
    times a relevance task's queries), paired with shipped's, beside BM25 and arxiv-sanity-lite."""
    from bench import ratings

    names = [n for n in VARIANTS if n == "shipped" or not only or n in only]
    ranks = {n: variant(VARIANTS[n][1]) for n in names}
    ranks.update({"BM25": rankers.bm25, "arxiv-sanity-lite": rankers.arxiv_sanity_lite})
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)  # noqa: E731
    texts = []
    for key in list(SPLITS) if split == "both" else [split]:
        result = ratings.texts(TUNING[key], ranks, log)
        styles = list(result)
        lines = [
            f"### {key}",
            "",
            "| variant | "
            + " | ".join(f"{s} (n {len(result[s]['shipped'])})" for s in styles)
            + " |",
            "|" + " --- |" * (len(styles) + 1),
        ]
        lines += [
            f"| {name} | "
            + " | ".join(_cell(name, result[s][name], result[s]["shipped"]) for s in styles)
            + " |"
            for name in ranks
        ]
        texts.append(_shown(lines))
    return _written(
        out,
        "# Ranking ideas on interests texts, one at a time\n\n"
        "Command: `python -m bench.ideas --texts` (each interests text alone, unrated, on each "
        "of bench/ratings.py's four day pools; P@10, the paper's primary category as relevance). "
        "Row `shipped` is the ranker as it ships; every other row (BM25 and arxiv-sanity-lite "
        "too) is its difference from shipped, paired over (text, pool) (standard error in "
        "brackets).",
        texts,
    )


def _table(split: str, result: dict[str, object]) -> str:
    tasks = result["tasks"]
    assert isinstance(tasks, dict)
    names = list(next(iter(tasks.values()))["values"])
    lines = [
        f"### {split}",
        "",
        "| variant | " + " | ".join(tasks) + " |",
        "|" + " --- |" * (len(tasks) + 1),
    ]
    for name in names:
        cells = []
        for entry in tasks.values():
            values = entry["values"]
            if name == "shipped":
                cells.append(f"{np.mean(values[name]):.3f}")
            else:
                d, se = relevance.paired(values[name], values["shipped"])
                cells.append(f"{d:+.3f} ({se:.3f})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
