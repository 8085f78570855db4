"""The benchmarks' own wiring (bench/): what can break without a benchmark run noticing."""

from __future__ import annotations

import pytest

from bench import ideas, patches, variants


@pytest.mark.parametrize("table", ["VARIANTS", "RATED"])
def test_every_idea_patches_a_name_its_module_has(table):
    # patched() would raise mid-run, an hour in, for a name that moved to another module.
    for name, (_, patch) in getattr(variants, table).items():
        for owner, attribute in patch:
            assert hasattr(owner, attribute), f"{name}: {owner.__name__}.{attribute}"


def test_a_variant_of_how_rows_are_made_fits_its_own_stored_space():
    from bench import rankers

    ranker = variants.variant(patches.phrases_weighed(2.0))
    seen = []

    def spy(pool, queries):
        seen.append(rankers._STORED)
        return []

    with patches.patched({(rankers, "digest_ranker"): spy}):
        ranker([], [])
    assert seen and seen[0] is not rankers._STORED


def test_a_table_cell_is_shippeds_mean_or_a_paired_difference_from_it():
    assert ideas._cell("shipped", [0.5, 0.7], [0.5, 0.7]) == "0.600"
    assert ideas._cell("variant", [0.6, 0.9], [0.5, 0.7]) == "+0.150 (0.050)"


def test_a_scale_rerun_replaces_only_the_rows_it_measured(tmp_path):
    # Twice a rerun of a few sizes rewrote the whole table with those rows alone.
    from bench import scale

    def row(n, method, seconds):
        return {
            "papers": n,
            "subscribers": 100,
            "method": method,
            "seconds": seconds,
            "peak_rss_mb": 300.0,
            "note": "",
        }

    rows = [row(10_000, "digest rank", 2.0), row(10_000, "lower bound", 1.6)]
    rows = scale.merged(rows, row(10_000, "digest rank", 1.8))
    rows = scale.merged(rows, row(50_000, "digest rank", 6.0))
    assert sorted((r["papers"], r["method"], r["seconds"]) for r in rows) == [
        (10_000, "digest rank", 1.8),
        (10_000, "lower bound", 1.6),
        (50_000, "digest rank", 6.0),
    ]
    table = scale.save(rows, tmp_path / "scale")
    assert "| 10000 | 100 | digest rank | 1.8 | 300 | 1.12 | 1.00 |  | earlier |" in table
    assert (tmp_path / "scale.json").exists()


def test_the_daily_rows_survive_a_save_and_take_no_ratio(tmp_path):
    import json

    from bench import scale

    rows = [
        {
            "papers": 200_000,
            "subscribers": 1000,
            "method": method,
            "seconds": seconds,
            "peak_rss_mb": 900.0,
            "note": "",
        }
        for method, seconds in (("lower bound", 30.0), ("daily: first run (fits the space)", 90.0))
    ]
    table = scale.save(rows, tmp_path / "scale")
    kept = json.loads((tmp_path / "scale.json").read_text())
    assert sorted(r["method"] for r in kept) == sorted(r["method"] for r in rows)
    assert "| daily: first run (fits the space) | 90.0 | 900 |  |  |" in table


def test_the_author_task_leaves_papers_of_very_many_authors_out_of_libraries_and_answers():
    import random

    from bench import tasks
    from digest.models import Paper

    crowd = tuple(f"Member Number{i}" for i in range(tasks.MAX_PAPER_AUTHORS))

    def paper(i, authors):
        return Paper(
            f"p{i}", f"title {i}", "abstract", authors=authors, categories=("astro-ph.HE",)
        )

    early = [
        paper(1, ("Ada Lovelace", "Bo Li")),
        paper(2, ("Ada Lovelace",)),
        paper(3, ("Ada Lovelace", *crowd)),
    ]
    late = [
        paper(4, ("Ada Lovelace",)),
        paper(5, ("Ada Lovelace", "Bo Li")),
        paper(6, ("Ada Lovelace", *crowd)),
    ]
    rng, again = random.Random(0), random.Random(0)
    task = tasks._authors(rng, early, late, tuple(late), 10)
    (query,) = [q for q in task.queries if q.group == "Ada Lovelace"]
    assert [p.id for p in query.liked] == ["p1", "p2"]
    assert set(query.grades) == {"p4", "p5"}
    # Sampled as before the cut: the tasks built after it draw the same papers.
    again.sample(sorted(["Ada Lovelace"]), 1)
    assert rng.random() == again.random()


def test_an_unseen_background_holds_only_the_other_sides_papers_of_other_months(tmp_path):
    # bench/unseen.py: were a pool paper or a paper of the ranked fields in the background, it
    # would measure a background that has seen them.
    import datetime

    import numpy as np

    from bench import corpus, tasks, unseen
    from digest.models import Paper

    words = "graph network vision model galaxy star dust spectra lensing image".split()

    def paper(i, category, month):
        text = " ".join(words[(i + k) % len(words)] for k in range(6))
        return Paper(
            f"p{i}",
            f"title {words[i % len(words)]}",
            text,
            categories=(category,),
            published=datetime.date(2025, month, 1),
        )

    papers = [
        paper(i, category, month)
        for i, (category, month) in enumerate(
            [(c, m) for c in ("cs.CV", "eess.IV", "astro-ph.GA") for m in (3, 5, 6, 7)] * 4
        )
    ]
    with patches.patched({(corpus, "papers"): lambda: tuple(papers)}):
        path, size = unseen.made(tasks.TUNE, "physics", tmp_path)
    # Tune's months are March to May: of June and July, cs and eess only.
    assert size == sum(
        1 for p in papers if p.published.month in (6, 7) and p.categories[0] != "astro-ph.GA"
    )
    with np.load(path) as saved:
        assert int(saved["version"][1]) == size
    physics = unseen.side_split(tasks.TUNE, "physics")
    assert set(physics.categories) == {"cond-mat.mtrl-sci", "physics.chem-ph", "astro-ph.GA"}
    assert all(set(t) <= set(physics.categories) for t in physics.texts.values())
    assert physics.focus in physics.categories


def test_a_small_stores_papers_are_of_the_months_before_the_pool_and_its_fields():
    # bench/trials.py small_store: a pool paper counted into the background would measure a
    # store that has seen today's papers, which a run never counts.
    import datetime

    from bench import corpus, tasks, trials
    from digest.models import Paper

    def paper(i, category, month):
        return Paper(
            f"p{i}", "t", "a", categories=(category,), published=datetime.date(2025, month, 2)
        )

    cells = [(c, m) for c in ("cs.CV", "astro-ph.GA", "q-bio.BM") for m in (3, 4, 5)] * 10
    papers = [paper(i, c, m) for i, (c, m) in enumerate(cells)]
    pool = [p for p in papers if p.published.month == 5]
    with patches.patched({(corpus, "papers"): lambda: tuple(papers)}):
        stored = trials.stored_before(pool, 12)
        physics = trials.stored_before(pool, 100, ["astro-ph.GA"])
    assert len(stored) == 12 and not set(stored) & set(pool)
    assert {p.published.month for p in stored} == {3, 4}  # tune's profile months
    assert {p.categories[0] for p in stored} == {"cs.CV", "astro-ph.GA"}
    assert set(tasks.TUNE.categories) >= {"cs.CV", "astro-ph.GA"}
    assert len(physics) == 20 and {p.categories[0] for p in physics} == {"astro-ph.GA"}


def test_a_relevance_page_names_every_flag_it_was_made_with():
    import argparse

    from bench import relevance

    defaults = {"split": "all", "seeds": None, "per_category": 4, "authors": 80, "examples": 40}
    defaults |= {"no_ratings": False, "no_day_pools": False}

    def page(**changed):
        return relevance.command_of(argparse.Namespace(**(defaults | changed)), defaults)

    assert page() == "python -m bench.relevance"
    assert page(split="report", per_category=8, no_ratings=True, no_day_pools=True) == (
        "python -m bench.relevance --split report --per-category 8 --no-ratings --no-day-pools"
    )
    assert page(split="tune", seeds=[1, 2], authors=5, examples=5) == (
        "python -m bench.relevance --split tune --seeds 1 2 --authors 5 --examples 5"
    )


def test_a_precise_keyword_is_rare_mostly_its_fields_and_not_in_the_text():
    import random
    from collections import Counter

    from bench import keywords

    df = Counter({"nickelate": 12, "kagome": 15, "phonon": 400, "quantum": 3000, "lensing": 14})
    field = Counter({"nickelate": 11, "kagome": 14, "phonon": 300, "quantum": 900, "lensing": 1})
    text = "kagome metals and their phonons"
    picked = keywords._precise(random.Random(1), text, field, df, 10_000)
    # "kagome": in the text; "phonon": too common; "lensing": another field's.
    assert picked == ["nickelate"]
    assert keywords._generic(field, df, 1000) == "quantum"


def test_the_quiet_day_bench_counts_a_readers_picks_above_min_score():
    from bench import quiet, tasks
    from digest.models import Paper, Profile

    privacy = [Paper(id=f"p{i}", title=f"Private learning {i}", abstract="Differential privacy "
                     f"for federated learning: clients add noise to gradients, variant {i}.")
               for i in range(3)]  # fmt: skip
    stars = [Paper(id=f"s{i}", title=f"Stellar winds {i}", abstract="Massive stars lose mass "
                   f"through radiation-driven winds observed in the ultraviolet, survey {i}.")
             for i in range(5)]  # fmt: skip
    reader = Profile(interests="differential privacy in federated learning")
    (day,) = quiet.picks(privacy + stars, [reader])
    (far,) = quiet.picks(stars, [reader])
    assert {p.id for p in day} == {"p0", "p1", "p2"} and far == []
    result = {kind: {"quiet": [1.0], "far": [0.0], "day": [3.0], "on topic": [3.0], "small": [2.0],
                     "small on topic": [1.0], "small of the field": [4.0]}
              for kind in quiet.KINDS}  # fmt: skip
    page = quiet.table(tasks.REPORT, result)
    assert "| interests text | 1 | 1.00 | 0.00 | 3.00 | 3.00 | 2.00 | 1.00 | 4.00 |" in page


def test_the_quiet_day_benchs_close_library_is_a_paper_and_its_nearest_by_words():
    from bench import quiet
    from digest.models import Paper

    def paper(i: int, words: str) -> Paper:
        return Paper(id=f"p{i}", title=f"Paper {i}", abstract=words)

    winds = [paper(i, f"Stellar winds of massive stars, survey {i}.") for i in range(5)]
    other = [paper(10 + i, f"Peptide folding in water, assay {i}.") for i in range(5)]
    papers = other[:3] + winds + other[3:]
    close = quiet.nearest(papers, winds[2])
    assert close[0] == winds[2] and set(close) == set(winds)
