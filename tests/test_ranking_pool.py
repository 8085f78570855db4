"""A pool ranked in passes over its blocks picks what one rank() over all of it picks: the same
papers in the same order, with the same scores, words and reasons, whatever the block size."""

from __future__ import annotations

import dataclasses
import random

import pytest

from digest.models import Paper, Profile, Scored, Subscriber
from digest.ranking import frequencies, profiles, rank, rank_pool
from digest.ranking.features import fit, paper_text
from tests.test_ranking import PRIVACY, load_seed_papers

AUTHORS = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Cynthia Dwork", "Emmy Noether"]


def mixed(count: int, seed: int = 0, first: int = 0) -> list[Paper]:
    """Papers of three sentences drawn from the seed abstracts: a pool of realistic words, with
    topics that overlap as a day's arXiv listing does."""
    rng = random.Random(seed)
    sentences = [s for p in load_seed_papers() for s in p.abstract.split(". ") if len(s) > 40]
    return [
        Paper(
            id=f"2601.{first + i:05d}",
            title=rng.choice(sentences)[:90],
            abstract=". ".join(rng.sample(sentences, 3)),
            authors=tuple(rng.sample(AUTHORS, 2)),
        )
        for i in range(count)
    ]


def subscribers(pool: list[Paper]) -> list[Subscriber]:
    rng = random.Random(1)
    library = tuple(  # 12 liked papers: the library is split into interests
        dataclasses.replace(p, id=f"liked-{p.id}") for p in rng.sample(pool, 12)
    )
    return [
        Subscriber("ana", Profile(interests=PRIVACY, keywords=("federated",)), ()),
        Subscriber("bo", Profile(library=library), (), top_k=5),
        Subscriber(
            "cy",
            Profile(interests="graph neural networks", authors=("Grace Hopper",)),
            (),
            top_k=15,
            min_score=0.05,
        ),
    ]


def shown(picks: dict[str, list[Scored]]) -> dict[str, list[tuple]]:
    return {
        name: [(s.paper.id, s.score, s.terms, s.because) for s in scored]
        for name, scored in picks.items()
    }


def in_blocks(pool: list[Paper], size: int):
    return lambda: (pool[i : i + size] for i in range(0, len(pool), size))


@pytest.fixture(scope="module")
def pool() -> list[Paper]:
    return mixed(600)


@pytest.mark.parametrize("size", [37, 250])
@pytest.mark.parametrize("thresholds", [True, False])
def test_passes_over_blocks_pick_what_one_rank_picks(pool, size, thresholds) -> None:
    subs = subscribers(pool)
    space, _ = fit([paper_text(p) for p in pool])
    whole = rank(pool, subs, space=space, thresholds=thresholds)
    passes = rank_pool(in_blocks(pool, size), subs, space=space, thresholds=thresholds)
    assert shown(passes) == shown(whole)
    assert all(whole.values())  # every subscriber got picks: the comparison compares something


def test_with_the_centroids_whole_weight_the_passes_pick_what_one_rank_picks(
    pool, monkeypatch
) -> None:
    # The centroid's weight is whole from POOL_MIN papers sharing a word: on this pool it is, and
    # what the passes select must still hold what rank() over the whole pool picks.
    monkeypatch.setattr(profiles, "POOL_MIN", 40)
    subs = subscribers(pool)
    large = pool + mixed(1400, seed=2, first=len(pool))  # candidates are a small share of it
    space, _ = fit([paper_text(p) for p in large])
    whole = rank(large, subs, space=space, top_k=2)
    passes = rank_pool(in_blocks(large, 150), subs, space=space, top_k=2)
    assert shown(passes) == shown(whole)


def test_allowed_is_asked_for_the_selection_only(pool) -> None:
    subs = subscribers(pool)
    space, _ = fit([paper_text(p) for p in pool])
    asked: list[int] = []

    def allowed_in(selection):
        asked.append(len(selection))
        return {"ana": {p.id for p in selection if int(p.id[-1]) % 2 == 0}}

    picks = rank_pool(in_blocks(pool, 100), subs, space=space, allowed_in=allowed_in)
    assert asked and asked[0] < len(pool)
    assert picks["ana"] and all(int(s.paper.id[-1]) % 2 == 0 for s in picks["ana"])
    assert any(int(s.paper.id[-1]) % 2 for s in picks["bo"])  # the others are not restricted


def test_extra_papers_join_the_selection_whatever_their_score(pool) -> None:
    subs = [dataclasses.replace(subscribers(pool)[0], top_k=3)]
    space, _ = fit([paper_text(p) for p in pool])
    by_ada = {p.id for p in pool if "Ada Lovelace" in p.authors}
    picks = rank_pool(
        in_blocks(pool, 100),
        subs,
        space=space,
        top_k=len(pool),
        thresholds=False,
        keep=3,
        extra=lambda s: lambda p: "Ada Lovelace" in p.authors,
    )
    chosen = [s.paper.id for s in picks["ana"]]
    assert len(set(chosen) & by_ada) >= 3  # the best 3 of hers at least, beside the best 3


def test_frequencies_count_each_paper_once_per_word(pool) -> None:
    space, rows = fit([paper_text(p) for p in pool])
    df, count = frequencies([pool[:250], pool[250:]], space)
    assert count == len(pool)
    assert (df == (rows > 0).sum(axis=0).A1).all()


def test_an_empty_pool_gives_every_subscriber_nothing(pool) -> None:
    space, _ = fit([paper_text(p) for p in pool])
    picks = rank_pool(lambda: iter([]), subscribers(pool), space=space)
    assert picks == {"ana": [], "bo": [], "cy": []}
