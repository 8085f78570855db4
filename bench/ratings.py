"""Learning from ratings: a simulated reader rates the top 10 of each day (up: the paper is of the
reader's category; down: it is not) for three days on fresh pools; P@10 on every day, and on a
fourth day after three days of ratings, against the same profile without ratings on the same pool
and against arxiv-sanity-lite's SVM retrained on its own top 10's ratings."""

from __future__ import annotations

import dataclasses
import random
import statistics
from collections.abc import Callable

from bench import corpus
from bench.interests import KEYWORDS
from bench.rankers import Ranker, arxiv_sanity_lite, digest_ranker
from bench.tasks import Query, Split, _by_category, _sorted, windows
from digest.models import Paper

DAYS = 4  # ratings on days 1-3; day 4 is what three days of ratings bring
POOL = 2000
REPEATS = 4  # profiles per category and start


def run(
    split: Split,
    log: Callable[[str], None],
    methods: tuple[str, ...] | None = None,
    ours: Ranker = digest_ranker,
) -> dict[str, object]:
    """{start: {method: {day: [P@10 per profile]}}}; ours: the ranker of the digest rows."""
    rng, early_by, cats, pools = day_pools(split)
    # The reader rates the digest of 10 it gets (Query.shown): a profile that ratings split into
    # several interests draws those 10 from each in turn.
    starts = {
        "interests text only": [  # each style of text once: a repeat would be the same query
            Query(c, text=texts[c], shown=10)
            for texts in split.texts.values()
            for c in cats
            if c in texts
        ],
        "one liked paper": [
            Query(c, (p,), shown=10) for c in cats for p in rng.sample(early_by[c], REPEATS)
        ],
    }
    out: dict[str, object] = {}
    for start, queries in starts.items():
        figures: dict[str, dict[int, list[float]]] = {}
        for method, ranker in (
            ("digest, rated", ours),
            ("digest, no ratings", ours),
            ("arxiv-sanity-lite SVM, rated", arxiv_sanity_lite),
        ):
            if methods and method not in methods:
                continue
            current = list(queries)
            days: dict[int, list[float]] = {}
            for day, pool in enumerate(pools, 1):
                ranked = ranker(pool, current)
                scores, updated = [], []
                for q, rows in zip(current, ranked, strict=True):
                    top = [pool[j] for j in rows[:10]]
                    ups = [p for p in top if corpus.primary(p) == q.group]
                    downs = [p for p in top if corpus.primary(p) != q.group]
                    scores.append(len(ups) / 10)
                    if method.endswith("rated") and day < DAYS:
                        q = dataclasses.replace(
                            q, liked=(*q.liked, *ups), disliked=(*q.disliked, *downs)
                        )
                    updated.append(q)
                days[day] = scores
                current = updated
            figures[method] = days
            log(
                f"{split.name} ratings {start:20} {method:30} "
                + " ".join(f"{statistics.fmean(v):.3f}" for v in days.values())
            )
        out[start] = figures
    return out


def day_pools(
    split: Split,
) -> tuple[random.Random, dict[str, list[Paper]], list[str], list[tuple[Paper, ...]]]:
    """(the split's random source, its profile months' papers by category, the categories with
    enough of them for a profile, the DAYS pools)."""
    rng = random.Random(f"ratings-{split.name}-{split.seeds[0]}")
    early, late = windows(split)
    early_by = _by_category(early)
    rng.shuffle(late)
    # Every day's pool of one size: tune's pool month (6,704 papers) does not hold four of POOL,
    # and a last day of 704 papers capped its P@10 (0.85 for a perfect ranker).
    size = min(POOL, len(late) // DAYS)
    cats = [c for c in split.categories if len(early_by[c]) >= 5]
    return rng, early_by, cats, [_sorted(late[d * size : (d + 1) * size]) for d in range(DAYS)]


def texts(
    split: Split, rankers: dict[str, Ranker], log: Callable[[str], None]
) -> dict[str, dict[str, list[float]]]:
    """{text style: {ranker: P@10 per (text, day pool)}}: the interests texts alone, unrated,
    on every day's pool, four times the queries of a relevance task's texts; and so the keywords
    (bench/interests.py KEYWORDS, three phrases per category)."""
    *_, cats, pools = day_pools(split)
    out: dict[str, dict[str, list[float]]] = {}
    styles = {
        style: [Query(c, text=written[c], shown=10) for c in cats if c in written]
        for style, written in split.texts.items()
    }
    styles["keywords only"] = [Query(c, keywords=KEYWORDS[c], shown=10) for c in cats]
    for style, queries in styles.items():
        for name, ranker in rankers.items():
            values = out.setdefault(style, {}).setdefault(name, [])
            for pool in pools:
                for q, rows in zip(queries, ranker(pool, queries), strict=True):
                    values.append(sum(corpus.primary(pool[j]) == q.group for j in rows[:10]) / 10)
            log(f"{split.name} texts {style:26} {name:40} {statistics.fmean(values):.3f}")
    return out


def table(split: Split, result: dict[str, object]) -> str:
    from bench.relevance import paired

    lines = [
        f"### {split.name}: learning from ratings (P@10 per day; pools of up to {POOL}, fresh each "
        f"day; ratings on days 1-{DAYS - 1})",
        "",
        "| start | method | n | " + " | ".join(f"day {d}" for d in range(1, DAYS + 1)) + " |",
        "|" + " --- |" * (DAYS + 3),
    ]
    diffs = []
    for start, figures in result.items():
        assert isinstance(figures, dict)
        for method, days in figures.items():
            cells = [f"{statistics.fmean(v):.3f}" for v in days.values()]
            lines.append(f"| {start} | {method} | {len(days[1])} | " + " | ".join(cells) + " |")
        rated = figures["digest, rated"][DAYS]
        for other in ("digest, no ratings", "arxiv-sanity-lite SVM, rated"):
            d, se = paired(rated, figures[other][DAYS])
            diffs.append(f"{start}, day {DAYS}: rated digest - {other} = {d:+.3f} (SE {se:.3f})")
    return "\n".join([*lines, "", *(f"- {d}" for d in diffs)])
