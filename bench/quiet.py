"""Quiet days: how many picks a reader gets on a day with nothing of its field (none of its
category, or none of its archive: cs, astro-ph, ...), beside a day of every field, for a library
of liked papers, an interests text and both (rank26 F1, F2). A pick on a day of far fields is
padding that only min_score can refuse; the text-only reader is the baseline."""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench import corpus
from bench.tasks import LIKED, SPLITS, Split, _by_category, _sorted, windows
from digest import ranking
from digest.models import Paper, Profile, Subscriber
from digest.ranking import features

POOL = 1000  # a day's papers
SMALL = 100  # a small day's: a feed's, or a quiet field's, where the reader's own are a few
DRAWS = 3  # libraries per field
KINDS = ("interests text", "library of 5", "text and library", "close library of 5")


def readers(split: Split, rng: random.Random) -> list[tuple[str, str, Profile]]:
    """(field, kind, profile) for each field with a first author's text: the text alone, a
    library of LIKED papers of the profile months, and both, DRAWS times; and a close library,
    the library's first paper and its nearest papers of the field by words (a reader who liked a
    few papers on one narrow topic, as readers often start)."""
    early_by = _by_category(windows(split)[0])
    texts = split.texts["first author"]
    out: list[tuple[str, str, Profile]] = []
    for field in (c for c in split.categories if c in texts and len(early_by[c]) >= LIKED):
        for _ in range(DRAWS):
            liked = tuple(rng.sample(early_by[field], LIKED))
            out += [
                (field, KINDS[0], Profile(interests=texts[field])),
                (field, KINDS[1], Profile(library=liked)),
                (field, KINDS[2], Profile(interests=texts[field], library=liked)),
                (field, KINDS[3], Profile(library=nearest(early_by[field], liked[0]))),
            ]
    return out


def nearest(papers: Sequence[Paper], seed: Paper) -> tuple[Paper, ...]:
    """The seed and the LIKED - 1 papers closest to it by words (TF-IDF cosine), of `papers`."""
    _, rows = features.fit([features.paper_text(p) for p in papers])
    at = papers.index(seed)
    closeness = (rows @ rows[at].T).toarray().ravel()
    closeness[at] = np.inf  # first, whatever its twins
    return tuple(papers[i] for i in np.argsort(-closeness, kind="stable")[:LIKED])


def picks(pool: Sequence[Paper], profiles: Sequence[Profile]) -> list[list[Paper]]:
    """Each profile's digest of at most 10 from the pool, min_score at its default."""
    subs = [Subscriber(f"r{i}", p, (), top_k=10) for i, p in enumerate(profiles)]
    ranked = ranking.rank(pool, subs)
    return [[s.paper for s in ranked.get(sub.name, [])] for sub in subs]


def run(split: Split) -> dict[str, dict[str, list[float]]]:
    """{kind: {"quiet": picks per reader, "far": picks on a day of other archives, "day": picks,
    "on topic": of them of the field}}."""
    rng = random.Random(f"quiet-{split.name}")
    late = windows(split)[1]
    found = readers(split, rng)
    out: dict[str, dict[str, list[float]]] = {k: {} for k in KINDS}
    for field in sorted({f for f, _, _ in found}):
        mine = [(k, p) for f, k, p in found if f == field]
        day = _sorted(rng.sample(late, POOL))
        small = _sorted(rng.sample(late, SMALL))
        quiet = _sorted(rng.sample([p for p in late if field not in p.categories], POOL))
        archive = field.split(".")[0] + "."
        others = [p for p in late if not any(c.startswith(archive) for c in p.categories)]
        far = _sorted(rng.sample(others, min(POOL, len(others))))
        profiles = [p for _, p in mine]
        for (kind, _), on_day, on_quiet, on_far, on_small in zip(
            mine,
            picks(day, profiles),
            picks(quiet, profiles),
            picks(far, profiles),
            picks(small, profiles),
            strict=True,
        ):
            figures = out[kind]
            figures.setdefault("quiet", []).append(len(on_quiet))
            figures.setdefault("far", []).append(len(on_far))
            figures.setdefault("day", []).append(len(on_day))
            topical = sum(field in p.categories for p in on_day)
            figures.setdefault("on topic", []).append(topical)
            figures.setdefault("small", []).append(len(on_small))
            figures.setdefault("small on topic", []).append(
                sum(field in p.categories for p in on_small)
            )
            figures.setdefault("small of the field", []).append(
                min(10, sum(field in p.categories for p in small))
            )
    return out


def table(split: Split, result: dict[str, dict[str, list[float]]]) -> str:
    rows = [
        f"### {split.name}: picks of 10 on days of {POOL} papers: without the reader's"
        f" field, without its archive, and of every field; and on a day of {SMALL} of every field",
        "",
        "| reader | n | no paper of the field: picks | none of its archive: picks | day: picks"
        " | day: picks of the field | small day: picks | of the field | the field's (at most 10) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for kind, figures in result.items():
        n = len(figures.get("quiet", []))
        if n:
            keys = (
                "quiet",
                "far",
                "day",
                "on topic",
                "small",
                "small on topic",
                "small of the field",
            )
            mean = [statistics.fmean(figures[k]) for k in keys]
            rows.append(f"| {kind} | {n} | " + " | ".join(f"{m:.2f}" for m in mean) + " |")
    return "\n".join(rows) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quiet", description=__doc__)
    corpus.add_argument(parser)
    parser.add_argument("--split", choices=[*SPLITS, "both"], default="both")
    parser.add_argument("--out", type=Path, help="also write the tables to this .md file")
    args = parser.parse_args(argv)
    corpus.use(args.data)
    names = list(SPLITS) if args.split == "both" else [args.split]
    tables = [table(SPLITS[n], run(SPLITS[n])) for n in names]
    print("\n".join(tables))
    if args.out:
        args.out.write_text("# Quiet days\n\n" + "\n".join(tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
