"""The relevance tasks and the two splits they are drawn from. TUNE is what ideas and constants are
chosen on; REPORT is what the tables report, with other months, other categories and other seeds
(the interests texts of both authors are written per category, so each split has its own): nothing
of it was looked at while choosing."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bench import corpus, holdout
from bench.interests import (
    INTERESTS,
    KEYWORDS,
    LONG,
    SMALL_FIRST,
    TERSE,
    TUNE_LONG,
    TUNE_TERSE,
)
from digest.models import Paper

LIKED = 5
ONE_FIELD = 15  # the one-field libraries: large enough to be split into interests
SMALL_DAY = 300  # a small day's pool: the many-interests task again on it
MAX_AUTHOR_PAPERS = 15  # a name on more papers than this in eight months is usually several people
# A paper of more authors than this (a survey's collaboration, a data release, a model report) says
# little about which person of a name it is, and is no one author's own in the sense a library
# means: the author task leaves such papers out of libraries and of what is relevant.
MAX_PAPER_AUTHORS = 50


@dataclass(frozen=True)
class Split:
    name: str
    profile_months: tuple[str, ...]  # liked papers, an author's earlier papers, query papers
    pool_months: tuple[str, ...]  # candidate pools
    categories: tuple[str, ...]  # the fields whose papers are relevant
    focus: str  # the one category of the focused pool
    seeds: tuple[int, ...]
    texts: Mapping[str, Mapping[str, str]] = field(
        default_factory=dict
    )  # style -> category -> text


TUNE = Split(
    "tune",
    ("2025-03", "2025-04"),
    ("2025-05",),
    (
        "cs.CV",
        "cs.LG",
        "cond-mat.mtrl-sci",
        "physics.chem-ph",
        "astro-ph.GA",
        "cs.GR",
        "eess.IV",
        "cs.RO",
    ),
    "cs.CV",
    (0,),
    {
        "first author": {
            c: t
            for c, t in INTERESTS.items()
            if c
            in {"cs.CV", "cs.LG", "cond-mat.mtrl-sci", "physics.chem-ph", "astro-ph.GA", "cs.GR"}
        },
        "second author, terse": TUNE_TERSE,
        "second author, long": TUNE_LONG,
    },
)
REPORT = Split(
    "report",
    ("2025-07",),
    ("2025-08", "2025-09", "2025-10"),
    tuple(TERSE),  # cs.CL cs.AI astro-ph.CO .IM .HE .SR .EP gr-qc hep-ph quant-ph
    "cs.CL",
    (7,),
    {
        "first author": {c: t for c, t in INTERESTS.items() if c in TERSE},
        "second author, terse": TERSE,
        "second author, long": LONG,
    },
)
# The small fields of tune's months (20-80 papers a month each, in a pool of every field): a second
# tuning set, for ideas about the case the holdout split below showed weak, so that the holdout's
# own fields stay unseen. Eight profiles per field (bench.ideas --per-category 8) give the n.
SMALL = Split(
    "small",
    TUNE.profile_months,
    TUNE.pool_months,
    ("cs.IR", "cs.CR", "cs.CY", "cs.SE"),
    "cs.LG",
    (3,),
    {"first author": SMALL_FIRST},
)
# A third split, run once to see whether the report split's figures hold on fields and months
# that no choice and no check looked at: small fields (20-80 papers a month) in a pool of every
# field, with texts and keywords written for it alone (bench/holdout.py); the focused pool is
# cs.AI's (a report category, but its cross-lists were never a task).
HOLDOUT = Split(
    "holdout",
    ("2025-06",),
    ("2025-07", "2025-08", "2025-09", "2025-10"),
    tuple(holdout.FIRST),
    "cs.AI",
    (11,),
    {
        "first author": holdout.FIRST,
        "second author, terse": holdout.TERSE,
        "second author, long": holdout.LONG,
    },
)
SPLITS = {"tune": TUNE, "report": REPORT}  # what bench/ideas.py and the others choose from
TUNING = {**SPLITS, "small": SMALL}
EVERY = {**TUNING, "holdout": HOLDOUT}


@dataclass(frozen=True)
class Query:
    group: str  # category or author
    liked: tuple[Paper, ...] = ()
    text: str = ""
    keywords: tuple[str, ...] = ()  # a profile's `keywords`
    disliked: tuple[Paper, ...] = ()  # papers the reader rated down (bench/ratings.py)
    grades: Mapping[str, float] = field(default_factory=dict)  # paper id -> gain; absent: 0
    topics: Mapping[str, str] = field(default_factory=dict)  # many interests: paper id -> topic
    pool: tuple[Paper, ...] = ()  # this query's own candidates (default: the task's)
    shown: int = 0  # how many papers the metric reads: the digest a reader would get (0: DEPTH)


@dataclass(frozen=True)
class Task:
    name: str
    metric: str
    pool: tuple[Paper, ...]
    queries: tuple[Query, ...]


def windows(split: Split) -> tuple[list[Paper], list[Paper]]:
    every = corpus.papers()
    early = [p for p in every if corpus.month(p) in split.profile_months]
    late = [p for p in every if corpus.month(p) in split.pool_months]
    return early, late


def _by_category(papers: Sequence[Paper]) -> dict[str, list[Paper]]:
    out: dict[str, list[Paper]] = defaultdict(list)
    for p in papers:
        out[corpus.primary(p)].append(p)
    return out


def _sorted(papers: Sequence[Paper]) -> tuple[Paper, ...]:
    return tuple(sorted({p.id: p for p in papers}.values(), key=lambda p: p.id))


def of_category(pool: Sequence[Paper], category: str) -> dict[str, float]:
    return {p.id: 1.0 for p in pool if corpus.primary(p) == category}


def build(split: Split, seed: int, per_category: int, authors: int, examples: int) -> list[Task]:
    rng = random.Random(f"{split.name}-{seed}")
    early, late = windows(split)
    early_by = _by_category(early)
    cats = [c for c in split.categories if len(early_by[c]) >= 2 * LIKED]
    large = _sorted(late)
    tasks = []
    for size in (100, 1000, len(large)):
        pool = _sorted(rng.sample(late, size)) if size < len(large) else large
        queries = []
        for c in cats:
            grades = of_category(pool, c)
            if grades:
                for _ in range(per_category):
                    liked = tuple(rng.sample(early_by[c], LIKED))
                    queries.append(Query(c, liked, grades=grades))
        label = "large" if size == len(large) else str(size)
        tasks.append(
            Task(f"5 liked papers, pool {label} ({size})", "nDCG@10", pool, tuple(queries))
        )
    tasks.append(_focused(split, rng, early, late, per_category))
    tasks.append(_authors(rng, early, late, large, authors))
    small, big = _examples(split, rng, early_by, late, large, examples)
    tasks += [small, big]
    for style, texts in split.texts.items():
        queries = tuple(
            Query(c, text=texts[c], grades=of_category(large, c)) for c in cats if c in texts
        )
        tasks.append(Task(f"interests text, {style}", "P@10", large, queries))
    keyed = tuple(Query(c, keywords=KEYWORDS[c], grades=of_category(large, c)) for c in cats)
    tasks.append(Task("keywords only (3 phrases)", "P@10", large, keyed))
    tasks.append(_many(rng, cats, early_by, large, per_category * 6))
    # Its own random source: the tasks above keep the draws they had before it was added.
    one = random.Random(f"{split.name}-{seed}-one")
    tasks.append(_one_field(one, cats, early_by, large, per_category))
    # A small day (a lab's feeds): the interests must not depend on how many papers came.
    day = random.Random(f"{split.name}-{seed}-day")
    small_day = _sorted(day.sample(late, SMALL_DAY))
    tasks.append(_many(day, cats, early_by, small_day, per_category * 6, least=LIKED))
    return [t for t in tasks if t.queries]


def _focused(
    split: Split, rng: random.Random, early: list[Paper], late: list[Paper], count: int
) -> Task:
    """One category's papers only; a profile is 5 liked papers cross-listed to one other category,
    and the pool's papers with that cross-list are relevant."""
    focus = split.focus
    pool = _sorted([p for p in late if corpus.primary(p) == focus])
    cross: dict[str, list[Paper]] = defaultdict(list)
    for p in early:
        if corpus.primary(p) == focus:
            for c in p.categories[1:]:
                cross[c].append(p)
    queries = []
    for c in sorted(cross):
        grades = {p.id: 1.0 for p in pool if c in p.categories[1:]}
        if len(cross[c]) >= 4 * LIKED and len(grades) >= 30:
            for _ in range(count):
                queries.append(Query(c, tuple(rng.sample(cross[c], LIKED)), grades=grades))
    return Task(f"focused pool: {focus} only ({len(pool)})", "nDCG@10", pool, tuple(queries))


def ambiguous(name: str, papers: Sequence[Paper]) -> bool:
    """A name that may stand for several people: initials only, very many papers, or papers in
    both computer science and the physical sciences."""
    given = name.replace("-", " ").split()[:-1]
    if not given or any(len(g.rstrip(".")) <= 1 for g in given):
        return True
    if len(papers) > MAX_AUTHOR_PAPERS:
        return True
    fields = {corpus.primary(p).split(".")[0] in {"cs", "eess", "stat", "math"} for p in papers}
    return len(fields) > 1


def _authors(
    rng: random.Random, early: list[Paper], late: list[Paper], large: tuple[Paper, ...], count: int
) -> Task:
    """An author's earlier papers (>= 2) as the library; their later papers (>= 2) are relevant;
    papers of more than MAX_PAPER_AUTHORS authors are in neither."""
    before: dict[str, list[Paper]] = defaultdict(list)
    after: dict[str, list[Paper]] = defaultdict(list)
    for papers, into in ((early, before), (late, after)):
        for p in papers:
            for name in set(p.authors):
                into[name].append(p)
    eligible = sorted(
        n
        for n in before
        if len(before[n]) >= 2
        and len(after.get(n, ())) >= 2
        and not ambiguous(n, before[n] + after[n])
    )
    chosen = sorted(rng.sample(eligible, min(count, len(eligible))))
    # Sampled before the cut of MAX_PAPER_AUTHORS, so the other tasks' samples stay as they were.
    queries = []
    for n in chosen:
        mine = [p for p in before[n] if len(p.authors) <= MAX_PAPER_AUTHORS]
        later = [p for p in after[n] if len(p.authors) <= MAX_PAPER_AUTHORS]
        if len(mine) >= 2 and len(later) >= 2:
            queries.append(Query(n, tuple(mine), grades={p.id: 1.0 for p in later}))
    return Task(
        f"author's earlier papers, pool large ({len(large)})", "Recall@20", large, tuple(queries)
    )


def grade(query: Paper, candidate: Paper) -> float:
    """3: shares an author; 2: same primary category and one more category in common; 1: same
    primary category; 0: otherwise."""
    if set(query.authors) & set(candidate.authors):
        return 3.0
    if corpus.primary(query) != corpus.primary(candidate):
        return 0.0
    return 2.0 if set(query.categories[1:]) & set(candidate.categories[1:]) else 1.0


def _examples(
    split: Split,
    rng: random.Random,
    early_by: dict[str, list[Paper]],
    late: list[Paper],
    large: tuple[Paper, ...],
    count: int,
) -> tuple[Task, Task]:
    """Query by example with graded relevance: one earlier paper; candidates on their own pool of
    200 (every grade-3 and up to 30 grade-2, 60 grade-1, the rest grade 0, half of those from the
    same archive) and on the large pool."""
    late_by = _by_category(late)
    small, big = [], []
    per = max(1, count // len(split.categories))
    for c in split.categories:
        shuffled = list(early_by.get(c, ()))
        rng.shuffle(shuffled)
        found = 0
        archive = [p for p in late if corpus.primary(p).split(".")[0] == c.split(".")[0]]
        others = [p for p in archive if corpus.primary(p) != c]
        for q in shuffled:
            if found == per:
                break
            grades = {p.id: grade(q, p) for p in late if grade(q, p) > 0}
            if sum(g >= 2 for g in grades.values()) < 3:
                continue
            found += 1
            big.append(Query(c, (q,), grades=grades))
            by_grade = defaultdict(list)
            for p in late_by[c]:
                by_grade[grades.get(p.id, 0.0)].append(p)
            authored = [p for p in late if grades.get(p.id) == 3.0]
            chosen = authored + _some(rng, by_grade[2.0], 30) + _some(rng, by_grade[1.0], 60)
            # A prolific co-author's papers alone can pass 200: then the pool is just larger.
            chosen += _some(rng, others, max(0, 200 - len(chosen)) // 2)
            rest = [p for p in late if p.id not in grades]
            chosen += rng.sample(rest, max(0, 200 - len({p.id for p in chosen})))
            pool = _sorted(chosen)
            small.append(
                Query(c, (q,), grades={p.id: grades.get(p.id, 0.0) for p in pool}, pool=pool)
            )
    return (
        Task("one paper, graded, own pool of 200", "nDCG@20", (), tuple(small)),
        Task(f"one paper, graded, pool large ({len(large)})", "nDCG@20", large, tuple(big)),
    )


def _some(rng: random.Random, papers: list[Paper], k: int) -> list[Paper]:
    return rng.sample(papers, min(k, len(papers)))


def _one_field(
    rng: random.Random,
    cats: list[str],
    early_by: dict[str, list[Paper]],
    large: tuple[Paper, ...],
    count: int,
) -> Task:
    """Libraries of ONE_FIELD papers of one category (a library as most readers have one: large,
    and of one field), on the large pool: what grouping a library into interests must not cost."""
    queries = []
    for c in cats:
        if len(early_by[c]) >= ONE_FIELD + LIKED:
            grades = of_category(large, c)
            for _ in range(count):
                queries.append(Query(c, tuple(rng.sample(early_by[c], ONE_FIELD)), grades=grades))
    name = f"{ONE_FIELD} liked papers of one field, pool large ({len(large)})"
    return Task(name, "nDCG@10", large, tuple(queries))


def _many(
    rng: random.Random,
    cats: list[str],
    early_by: dict[str, list[Paper]],
    large: tuple[Paper, ...],
    count: int,
    least: int = 15,
) -> Task:
    """Libraries of 3 categories x 5 papers; the top 15 should hold >= 3 of each category (of
    the categories with `least` papers in the pool)."""
    queries = []
    sized = [c for c in cats if len(of_category(large, c)) >= least]
    for _ in range(count):
        three = sorted(rng.sample(sized, 3))
        liked = tuple(p for c in three for p in rng.sample(early_by[c], LIKED))
        topics = {p.id: corpus.primary(p) for p in large if corpus.primary(p) in three}
        queries.append(
            Query("+".join(three), liked, grades=dict.fromkeys(topics, 1.0), topics=topics)
        )
    size = "large" if least == 15 else str(len(large))
    return Task(
        f"3 interests x 5 papers, pool {size} ({len(large)})",
        "topics with 3+ in top 15",
        large,
        tuple(queries),
    )
