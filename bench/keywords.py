"""Interests texts with keywords, which no bench.relevance task holds: each text of a split with
its own three keywords, with one generic word of its field, and with one precise keyword (a word
or phrase on few papers, mostly its field's); digest with the keywords' weights switched, and BM25.

    .venv/bin/python -m bench.keywords [--data PATH] [--split tune|report|holdout|both]
                                       [--precise W ...] [--out PATH]

--precise: PRECISE_WEIGHT values to run beside the shipped one (0: the share of words alone).
A precise keyword's task grades a paper 1 for its field and 1 for holding the keyword (nDCG@10)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench import corpus, rankers, relevance
from bench.interests import KEYWORDS
from bench.tasks import EVERY, Query, Split, Task, _sorted, of_category, windows
from digest.ranking import profiles, tokens

PER_FIELD = 3  # precise keywords drawn per field and text
RARE = (10, 0.005)  # a precise keyword: on at least 10 papers and at most 0.5 % of the pool...
OWN = 0.6  # ...at least 60 % of them its field's
COMMON = 0.1  # a generic word: the commonest word on at least 10 % of the field's papers


def tasks(split: Split) -> list[Task]:
    _, late = windows(split)
    pool = _sorted(late)
    terms = {p.id: set(tokens.analyze(f"{p.title} {p.abstract}")) for p in pool}
    df: Counter[str] = Counter(t for held in terms.values() for t in held)
    by_field: dict[str, Counter[str]] = {}
    for p in pool:
        by_field.setdefault(corpus.primary(p), Counter()).update(terms[p.id])
    rng = random.Random(f"keywords-{split.name}")
    out = []
    for style, texts in split.texts.items():
        fields = [c for c in split.categories if c in texts]
        precise, own, generic = [], [], []
        for c in fields:
            grades = of_category(pool, c)
            for word in _precise(rng, texts[c], by_field[c], df, len(pool)):
                graded = {p.id: grades.get(p.id, 0.0) + (word in terms[p.id]) for p in pool}
                precise.append(Query(c, text=texts[c], keywords=(word,), grades=graded))
            if c in KEYWORDS:
                own.append(Query(c, text=texts[c], keywords=KEYWORDS[c], grades=grades))
                word = _generic(by_field[c], df, sum(1 for p in pool if corpus.primary(p) == c))
                generic.append(Query(c, text=texts[c], keywords=(word,), grades=grades))
        out += [
            Task(f"text + one precise keyword, {style}", "nDCG@10", pool, tuple(precise)),
            Task(f"text + its three keywords, {style}", "P@10", pool, tuple(own)),
            Task(f"text + one generic word, {style}", "P@10", pool, tuple(generic)),
        ]
    return [t for t in out if t.queries]


def _precise(
    rng: random.Random, text: str, field: Counter[str], df: Counter[str], size: int
) -> list[str]:
    """Words and phrases rare in the pool, mostly the field's, that the text does not hold."""
    said = set(tokens.analyze(text))
    least, most = RARE[0], max(2 * RARE[0], RARE[1] * size)
    found = sorted(
        t
        for t, n in field.items()
        if least <= df[t] <= most and n >= OWN * df[t] and not said & {t, *t.split()}
    )
    return rng.sample(found, min(PER_FIELD, len(found)))


def _generic(field: Counter[str], df: Counter[str], size: int) -> str:
    common = [w for w, n in field.items() if n >= COMMON * size and " " not in w]
    return max(sorted(common), key=lambda w: df[w])


def measured(split: Split, weights: Sequence[float]) -> str:
    shipped = profiles.PRECISE_WEIGHT
    lines = [f"## {split.name}", "", _head(weights)]
    for task in tasks(split):
        values: dict[str, list[float]] = {}
        for w in (shipped, *weights):
            profiles.PRECISE_WEIGHT = w
            values[f"{w:g}"] = relevance.evaluate(task, rankers.digest_ranker)[0]
        profiles.PRECISE_WEIGHT = shipped
        values["BM25"] = relevance.evaluate(task, rankers.bm25)[0]
        base = values[f"{shipped:g}"]
        cells = [f"{statistics.fmean(v):.3f}" for v in values.values()]
        diffs = [relevance.paired(base, v) for k, v in values.items() if k != f"{shipped:g}"]
        cells += [f"{d:+.3f} ({se:.3f})" for d, se in diffs]
        lines.append(f"| {task.name} | {task.metric} | {len(base)} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def _head(weights: Sequence[float]) -> str:
    shipped = f"{profiles.PRECISE_WEIGHT:g}"
    names = [shipped, *(f"{w:g}" for w in weights), "BM25"]
    head = ["task", "metric", "n", *(f"digest, precise {n}" for n in names[:-1]), "BM25"]
    head += [f"shipped - {n} (SE)" for n in names[1:]]
    return "| " + " | ".join(head) + " |\n|" + "---|" * len(head)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=["tune", "report", "holdout", "both"], default="both")
    parser.add_argument("--precise", type=float, action="append", default=[])
    parser.add_argument("--out", default=str(relevance.RESULTS / "keywords"), help="OUT.md")
    args = parser.parse_args(argv)
    corpus.use(args.data)
    chosen = ["tune", "report"] if args.split == "both" else [args.split]
    tables = [measured(EVERY[name], args.precise) for name in chosen]
    defaults = {n: parser.get_default(n) for n in vars(args)}
    command = relevance.command_of(args, defaults, "python -m bench.keywords")
    command += "".join(f" --precise {w:g}" for w in args.precise)
    intro = (
        f"`{command}`. Shipped: `profiles.PRECISE_WEIGHT` = {profiles.PRECISE_WEIGHT:g}; "
        "0 is the keywords' share of the words alone. Differences are paired per query."
    )
    relevance.written(Path(args.out), "Interests texts with keywords", intro, tables)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
