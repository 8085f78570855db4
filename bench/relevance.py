"""Relevance benchmark: the tasks of bench/tasks.py on both splits, this project beside
arxiv-sanity-lite and BM25 in the same run, with paired differences and their standard errors;
then the learning-from-ratings task (bench/ratings.py). One command prints every table:

    .venv/bin/python -m bench.relevance [--data PATH] [--split tune|report|holdout|both|all]

Which is which: TUNE (ideas and constants are chosen on it) = profiles from 2025-03..04, pools
from 2025-05, categories cs.CV cs.LG cond-mat.mtrl-sci physics.chem-ph astro-ph.GA cs.GR eess.IV
cs.RO, seed 0, the first author's interests texts. REPORT (never looked at while choosing) =
profiles from 2025-07, pools from 2025-08..10, categories cs.CL cs.AI astro-ph.CO astro-ph.IM
astro-ph.HE astro-ph.SR astro-ph.EP gr-qc hep-ph quant-ph, seed 7, a second author's texts too.
HOLDOUT (run once, after the choices; bench/tasks.py) = profiles from 2025-06, pools from
2025-07..10, seven small fields neither of the others has, seed 11, texts of its own.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from bench import corpus
from bench.rankers import RANKERS, Ranker
from bench.tasks import EVERY, SPLITS, Query, Split, Task, build

RESULTS = Path(__file__).resolve().parent / "results"
OURS = "digest"


def measure(metric: str, ranked: Sequence[str], query: Query) -> float:
    gains = [query.grades.get(pid, 0.0) for pid in ranked]
    if metric == "P@10":
        return sum(g > 0 for g in gains[:10]) / 10
    if metric.startswith("nDCG@"):
        k = int(metric[5:])
        dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))
        best = sorted(query.grades.values(), reverse=True)[:k]
        ideal = sum(g / math.log2(i + 2) for i, g in enumerate(best))
        return dcg / ideal if ideal else 0.0
    if metric == "Recall@20":
        relevant = sum(g > 0 for g in query.grades.values())
        return sum(g > 0 for g in gains[:20]) / relevant if relevant else 0.0
    if metric == "topics with 3+ in top 15":
        found = Counter(query.topics[pid] for pid in ranked[:15] if pid in query.topics)
        topics = set(query.topics.values())
        return sum(found[t] >= 3 for t in topics) / len(topics)
    raise ValueError(metric)


def shown(metric: str) -> int:
    """How many papers of a ranked list the metric reads."""
    found = re.search(r"(?:@| top )(\d+)", metric)
    return int(found.group(1)) if found else 0


def evaluate(task: Task, ranker: Ranker) -> tuple[list[float], float]:
    """The metric of every query, and the ranker's wall time. Each query says how many papers
    the metric reads: a digest of that many is what its reader sees."""
    queries = [dataclasses.replace(q, shown=shown(task.metric)) for q in task.queries]
    start = time.perf_counter()
    if task.pool:
        pools = [task.pool] * len(queries)
        ranked = ranker(task.pool, queries)
    else:  # each query on its own small pool
        pools = [q.pool for q in queries]
        ranked = [ranker(q.pool, [q])[0] for q in queries]
    elapsed = time.perf_counter() - start
    values = [
        measure(task.metric, [pool[j].id for j in rows], q)
        for q, pool, rows in zip(queries, pools, ranked, strict=True)
    ]
    return values, elapsed


def paired(ours: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """Mean paired difference and its standard error."""
    diffs = [a - b for a, b in zip(ours, theirs, strict=True)]
    if len(diffs) < 2:
        return (diffs[0] if diffs else 0.0), float("nan")
    return statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def run_split(
    split: Split,
    rankers: dict[str, Ranker],
    scale: dict[str, int],
    log: Callable[[str], None],
) -> dict[str, object]:
    """{task: {"metric", "queries", "pool", "values": {ranker: [per query]}}} and timings."""
    out: dict[str, dict[str, object]] = {}
    seconds: dict[str, float] = dict.fromkeys(rankers, 0.0)
    for seed in split.seeds:
        for task in build(split, seed, **scale):
            entry = out.setdefault(task.name, {"metric": task.metric, "values": {}})
            entry["pool"] = len(task.pool) or len(task.queries[0].pool)
            for name, ranker in rankers.items():
                values, elapsed = evaluate(task, ranker)
                seconds[name] += elapsed
                entry["values"].setdefault(name, []).extend(values)  # type: ignore[union-attr]
                log(
                    f"{split.name} seed {seed} {task.name[:44]:44} {name:18} {elapsed:6.1f}s "
                    f"{statistics.fmean(values):.3f} (n={len(values)})"
                )
    return {"tasks": out, "seconds": seconds}


def table(split: Split, result: dict[str, object]) -> str:
    tasks = result["tasks"]
    assert isinstance(tasks, dict)
    names = list(next(iter(tasks.values()))["values"])
    others = [n for n in names if n != OURS]
    head = ["task", "metric", "n", *names, *(f"{OURS} - {o} (SE)" for o in others)]
    lines = [
        f"### {split.name}: profiles {', '.join(split.profile_months)}; pools "
        f"{', '.join(split.pool_months)}; seeds {list(split.seeds)}; categories "
        f"{' '.join(split.categories)}",
        "",
        "| " + " | ".join(head) + " |",
        "|" + " --- |" * len(head),
    ]
    for name, entry in tasks.items():
        values = entry["values"]
        means = {n: statistics.fmean(values[n]) for n in names}
        best = max(means.values())
        cells = [f"**{means[n]:.3f}**" if means[n] == best else f"{means[n]:.3f}" for n in names]
        for o in others:
            d, se = paired(values[OURS], values[o])
            mark = " ✓" if d > 0 and d >= 2 * se else ""
            cells.append(f"{d:+.3f} ({se:.3f}){mark}")
        lines.append(
            f"| {name} | {entry['metric']} | {len(values[OURS])} | " + " | ".join(cells) + " |"
        )
    for name, entry in tasks.items():
        if entry["metric"] == "topics with 3+ in top 15":
            values = entry["values"]
            every = ", ".join(
                f"{n} {sum(v == 1.0 for v in values[n])}/{len(values[n])}" for n in names
            )
            lines.append(f"\n{name}: libraries with 3+ of every topic in the top 15: {every}.")
    seconds = result["seconds"]
    assert isinstance(seconds, dict)
    lines.append("")
    lines.append(
        "Seconds: "
        + ", ".join(f"{n} {s:.0f}" for n, s in seconds.items())
        + ". ✓: the paired difference is at least 2 standard errors above zero."
    )
    return "\n".join(lines)


def _with_day_pools(result: dict[str, object], styles: dict[str, dict[str, list[float]]]) -> None:
    """The texts and keywords on bench/ratings.py's four day pools as rows of the split's table:
    four times the queries of the rows above (one text per category), so that a difference of a
    few hundredths can stand out of the noise."""
    from bench.ratings import DAYS, POOL

    tasks = result["tasks"]
    assert isinstance(tasks, dict)
    for style, values in styles.items():
        name = f"{style if style.startswith('keywords') else 'interests text, ' + style}"
        tasks[f"{name}, {DAYS} day pools of {POOL}"] = {"metric": "P@10", "values": values}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument(
        "--split", choices=["tune", "report", "holdout", "both", "all"], default="all"
    )
    parser.add_argument("--seeds", type=int, nargs="+", help="replace the split's own seeds")
    parser.add_argument("--per-category", type=int, default=4, help="profiles per category")
    parser.add_argument("--authors", type=int, default=80, help="author profiles per seed")
    parser.add_argument("--examples", type=int, default=40, help="query-by-example papers")
    parser.add_argument("--no-ratings", action="store_true", help="skip the ratings task")
    parser.add_argument(
        "--no-day-pools", action="store_true", help="skip the texts on the four day pools"
    )
    parser.add_argument("--out", default=str(RESULTS / "relevance"), help="writes OUT.md, OUT.json")
    args = parser.parse_args(argv)
    corpus.use(args.data)
    from bench import ratings

    chosen = {"both": list(SPLITS), "all": list(EVERY)}.get(args.split, [args.split])
    scale = {"per_category": args.per_category, "authors": args.authors, "examples": args.examples}
    texts, results = [], {}
    for key in chosen:
        split = EVERY[key]
        if args.seeds:
            split = Split(**{**split.__dict__, "seeds": tuple(args.seeds)})
        log = lambda line: print(line, file=sys.stderr)  # noqa: E731
        results[key] = run_split(split, RANKERS, scale, log)
        if not args.no_day_pools:
            _with_day_pools(results[key], ratings.texts(split, RANKERS, log))
        texts.append(table(split, results[key]))
        print(texts[-1] + "\n", flush=True)
        if not args.no_ratings:
            results[key]["ratings"] = ratings.run(split, log)
            texts.append(ratings.table(split, results[key]["ratings"]))
            print(texts[-1] + "\n", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    command = command_of(args, {n: parser.get_default(n) for n in vars(args)})
    written(
        out,
        "Relevance",
        f"Command: `{command}`; per-query figures in {out.with_suffix('.json').name}. Best mean "
        "per row in bold.",
        texts,
    )
    return 0


def command_of(
    args: argparse.Namespace,
    defaults: Mapping[str, object],
    program: str = "python -m bench.relevance",
) -> str:
    """The command line a results page says it was made by: every option of these that changed
    what it measured (a page of twice the queries once said only `--split report`); not the
    paths. `program`: the bench whose options `args` are (it need not have all of them)."""
    flags = []
    for name in ("split", "seeds", "per_category", "authors", "examples"):
        value = getattr(args, name, defaults.get(name))
        if value != defaults.get(name):
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            flags.append(f"--{name.replace('_', '-')} {shown}")
    flags += [
        f"--{n.replace('_', '-')}"
        for n in ("no_ratings", "no_day_pools")
        if getattr(args, n, False)
    ]
    return " ".join([program, *flags])


def written(out: Path, heading: str, intro: str, tables: Sequence[str]) -> None:
    """A results page: OUT.md with its heading, a paragraph on how it was made, and the tables."""
    page = f"# {heading}\n\n{intro}\n\n" + "\n\n".join(tables) + "\n"
    out.with_suffix(".md").write_text(page, encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
