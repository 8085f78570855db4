"""Several interests in one profile: a large library split into groups of like papers, the
interests text as one more interest, a paper scored by its best match, and a digest that draws
from every interest."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.interests import draw

TOPICS = {
    "privacy": "federated clients differential privacy noise gradient clipping budget secure "
    "aggregation membership inference attack server rounds",
    "galaxies": "galaxy stellar redshift halo spectra telescope supernova quasar nebula dust "
    "star formation metallicity survey",
    "chemistry": "molecular catalysis reaction solvent density functional orbital ligand "
    "spectroscopy electron transfer enzyme kinetics bond",
}


def papers_of(topic: str, count: int, prefix: str, rng: random.Random) -> list[Paper]:
    words = TOPICS[topic].split()
    out = []
    for i in range(count):
        w = rng.sample(words, 8)
        out.append(Paper(id=f"{prefix}{topic}{i:03d}", title=" ".join(w[:3]),
                         abstract=" ".join(w[3:]) + "."))  # fmt: skip
    return out


def test_a_library_of_three_topics_gets_picks_from_each_and_says_which_interest():
    rng = random.Random(3)
    # The first topic has the most and the closest-matching papers today: one mean vector would
    # fill the digest with it.
    library = [p for t in TOPICS for p in papers_of(t, 5, "lib-", rng)]
    pool = papers_of("privacy", 60, "new-", rng) + papers_of("galaxies", 8, "new-", rng)
    pool += papers_of("chemistry", 8, "new-", rng)
    reader = Subscriber("ana", Profile(library=tuple(library)), (), top_k=15, min_score=0.0)
    picks = rank(pool, [reader])["ana"]
    assert len(picks) == 15
    by_topic = Counter(next(t for t in TOPICS if t in s.paper.id) for s in picks)
    assert all(by_topic[t] >= 3 for t in TOPICS), by_topic
    assert all(s.because.startswith("your interest: ") for s in picks)
    assert all("closest to: " in s.because for s in picks)
    for s in picks:  # the interest named is the one the paper is about
        topic = next(t for t in TOPICS if t in s.paper.id)
        named = s.because.split(";")[0].removeprefix("your interest: ").replace(",", " ")
        assert set(named.split()) <= set(TOPICS[topic].split())


def test_a_small_library_stays_one_interest():
    rng = random.Random(4)
    library = papers_of("privacy", 3, "lib-", rng) + papers_of("galaxies", 2, "lib-", rng)
    pool = papers_of("privacy", 20, "new-", rng) + papers_of("galaxies", 20, "new-", rng)
    reader = Subscriber("ana", Profile(library=tuple(library)), (), top_k=10, min_score=0.0)
    picks = rank(pool, [reader])["ana"]
    assert not any(s.because.startswith("your interest") for s in picks)


def test_the_interests_text_is_an_interest_of_its_own():
    rng = random.Random(5)
    library = [p for t in ("galaxies", "chemistry") for p in papers_of(t, 5, "lib-", rng)]
    pool = [p for t in TOPICS for p in papers_of(t, 10, "new-", rng)]
    profile = Profile(interests="federated learning, differential privacy", library=tuple(library))
    picks = rank(pool, [Subscriber("ana", profile, (), top_k=9, min_score=0.0)])["ana"]
    texts = [s for s in picks if s.because.startswith("your interest: your interests text")]
    assert len(texts) >= 3 and all("privacy" in s.paper.id for s in texts)


def test_draw_takes_each_interest_in_turn_and_keeps_a_papers_best_score():
    order = np.arange(10)
    lists = [[(0.9, 1), (0.8, 2), (0.7, 3)], [(0.5, 4), (0.45, 2), (0.4, 5)], []]
    assert draw(lists, 4, order) == [(0.9, 1, 0), (0.8, 2, 0), (0.5, 4, 1), (0.4, 5, 1)]
    assert draw(lists, 10, order) == [
        (0.9, 1, 0), (0.8, 2, 0), (0.7, 3, 0), (0.5, 4, 1), (0.4, 5, 1)
    ]  # fmt: skip
    assert draw([[(0.3, 7), (0.3, 6)]], 1, order) == [(0.3, 7, 0)]  # one interest: as ranked
    assert draw([[(0.3, 7)], [(0.3, 6)]], 2, order) == [(0.3, 6, 1), (0.3, 7, 0)]  # ties: paper


def test_a_library_of_copies_and_a_pool_of_one_still_rank():
    rng = random.Random(6)
    copy = papers_of("galaxies", 1, "lib-", rng)[0]
    library = tuple(
        Paper(id=f"lib-{i}", title=copy.title, abstract=copy.abstract) for i in range(8)
    )
    pool = papers_of("galaxies", 1, "new-", rng)
    picks = rank(pool, [Subscriber("ana", Profile(library=library), (), min_score=0.0)])["ana"]
    assert [s.paper for s in picks] == pool and picks[0].score > 0
