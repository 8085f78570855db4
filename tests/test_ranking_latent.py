"""The latent component: a basis fitted on the stored corpus, kept with the stored space, that
reorders each interest's best papers by words by their closeness in topic, while the score shown
and held to min_score stays the words' own."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
import scipy.sparse as sp

from digest.models import Paper, Profile, Subscriber
from digest.ranking import latent, rank, rank_pool
from digest.ranking.features import Space, counted, fit, paper_text
from digest.ranking.product import prepare
from tests.test_ranking_pool import in_blocks, mixed, shown, subscribers

# Two topics, each a vocabulary whose words co-occur across that topic's papers.
STARS = "stellar galaxy redshift halo nebula supernova quasar cluster luminosity spectra".split()
CELLS = "protein enzyme membrane receptor genome ribosome kinase mitosis peptide cytokine".split()


def topical(rng: random.Random, words: list[str], n: int, prefix: str) -> list[Paper]:
    return [
        Paper(
            id=f"{prefix}{i:04d}",
            title=" ".join(rng.sample(words, 3)),
            abstract=" ".join(rng.sample(words, 5)),
        )
        for i in range(n)
    ]


def stored(papers: list[Paper]) -> Space:
    """A space fitted as digest/corpus.py fits the stored papers: with its latent basis."""
    space, rows = fit([paper_text(p) for p in papers])
    return counted(space, np.bincount(rows.indices, minlength=space.size), len(papers), rows)


def corpus(seed: int = 0) -> list[Paper]:
    rng = random.Random(seed)
    return topical(rng, STARS, 300, "s") + topical(rng, CELLS, 300, "c")


def test_a_stored_space_has_a_basis_and_a_tiny_corpus_none() -> None:
    space = stored(corpus())
    assert space.basis is not None
    assert space.basis.vectors.shape[1] >= 2
    assert fit(["one paper about stars"])[0].basis is None  # a fit of the pool: words alone
    tiny = sp.csr_matrix(np.eye(3))
    assert latent.fit(tiny) is None  # no column in MIN_DF papers


def test_papers_of_one_topic_are_close_in_the_basis_though_they_share_no_word(
    monkeypatch,
) -> None:
    monkeypatch.setattr(latent, "COMPONENTS", 2)  # two topics: a basis of two directions
    space = stored(corpus())
    assert space.basis is not None
    z = space.basis.project(
        space.transform(["stellar galaxy redshift", "halo nebula supernova", "protein enzyme"])
    )
    assert float(z[0] @ z[1]) > 0.8  # no word shared, one topic
    assert float(z[0] @ z[2]) < 0.2


def test_the_basis_survives_the_state_database() -> None:
    space = stored(corpus())
    again = Space.from_bytes(space.to_bytes())
    assert again is not None and again.basis is not None and space.basis is not None
    assert np.array_equal(again.basis.columns, space.basis.columns)
    assert np.allclose(again.basis.vectors, space.basis.vectors, atol=1e-3)  # kept as float16


def reordered(chosen, z, interest, k):
    """latent.reordered() for one interest, with a basis that is the identity on two columns."""
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))
    (out,) = latent.reordered(
        [chosen], basis, sp.csr_matrix(z), sp.csr_matrix(interest[None, :]), [k], [None]
    )
    scores = [v for v, _ in out]
    assert scores == sorted(scores, reverse=True)  # the scores fall as the order does
    return out


def test_reorder_ranks_by_score_plus_the_weighted_latent_cosine() -> None:
    z = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    interest = np.array([0.0, 1.0])
    chosen = [(0.30, 0), (0.25, 1), (0.10, 2)]
    out = reordered(chosen, z, interest, 2)
    # 0.25 + 0.3 x 1 and 0.10 + 0.3 x 0.8 both beat 0.30 + 0, the best by words
    assert [j for _, j in out] == [1, 2]
    # scored as the mean of the two cosines, weighed 1 and 0.3
    assert out[0][0] == pytest.approx((0.25 + latent.WEIGHT) / (1 + latent.WEIGHT))


def test_an_authors_weight_is_scaled_with_the_latent_cosine_so_a_topic_does_not_outweigh_it():
    # The author's paper (row 0) is off the topic (latent cosine 0) but by an author of the liked
    # papers (weight 0.4 in its score, 0.1 + 0.4); row 1 is on the topic by words and basis.
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))
    z, interest = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0]])), sp.csr_matrix([[0.0, 1.0]])
    chosen = [(0.5, 0), (0.3, 1)]
    weights, written = sp.csr_matrix([[0.4]]), sp.csr_matrix([[1.0], [0.0]])
    plain = latent.reordered([chosen], basis, z, interest, [2], [None])
    assert [j for _, j in plain[0]] == [1, 0]  # 0.3 + 0.3 x 1 beat 0.5 + 0
    authors = (weights, written, weights)  # a library author's weight
    fused = latent.reordered([chosen], basis, z, interest, [2], [None], authors)
    assert [j for _, j in fused[0]] == [0, 1]  # 0.5 + 0.3 x 0.4 beats 0.3 + 0.3 x 1
    assert fused[0][0][0] == pytest.approx((0.5 + latent.WEIGHT * 0.4) / (1 + latent.WEIGHT))


def test_a_papers_followed_authors_add_up_and_of_its_library_authors_the_best_counts():
    # Columns: two authors of the liked papers (0.4, 0.8) and one followed (0.15).
    weights, library = sp.csr_matrix([[0.4, 0.8, 0.15]]), sp.csr_matrix([[0.4, 0.8, 0.0]])
    written = sp.csr_matrix([[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    boost, excess = latent.prior(np.zeros(3, int), np.arange(3), (weights, written, library))
    assert boost == pytest.approx([0.8 + 0.15, 0.4, 0.15])
    assert excess == pytest.approx([0.4, 0.0, 0.0])  # what the product's sum held beyond it


def test_ranked_with_a_basis_the_order_moves_and_the_scores_fall_with_it() -> None:
    papers = corpus()
    space = stored(papers)
    sub = Subscriber("ana", Profile(interests="stellar galaxy"), (), top_k=20)
    with_basis = rank(papers, [sub], space=space)["ana"]
    words = dataclasses.replace(sub, top_k=len(papers))
    plain = Space(list(space.names), space.idf, space.docs, space.centroid)  # no basis
    by_words = {s.paper.id: s.score for s in rank(papers, [words], space=plain)["ana"]}
    assert len(with_basis) == 20
    order = [by_words[s.paper.id] for s in with_basis]
    assert order != sorted(order, reverse=True)  # the latent order moved papers...
    scores = [s.score for s in with_basis]
    assert scores == sorted(scores, reverse=True)  # ...and each one's score is its place's
    assert all(s.paper.id.startswith("s") for s in with_basis)  # all of the asked topic


@pytest.mark.parametrize("floor", [0.15, 0.2])
def test_min_score_holds_on_the_words_score_and_on_the_score_shown(floor) -> None:
    papers = corpus()
    space = stored(papers)
    sub = Subscriber("ana", Profile(interests="stellar galaxy"), (), top_k=300, min_score=floor)
    picks = rank(papers, [sub], space=space)["ana"]
    plain = Space(list(space.names), space.idf, space.docs, space.centroid)  # no basis
    words = {s.paper.id: s.score for s in rank(papers, [sub], space=plain)["ana"]}
    assert picks and all(s.score >= floor for s in picks)
    assert {s.paper.id for s in picks} <= set(words)  # whose words alone score at least floor


def test_whitening_takes_from_each_word_its_share_of_the_rows_projection_on_the_basis():
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))  # column 2: off the axes
    rows = sp.csr_matrix(np.array([[0.6, 0.0, 0.8], [0.0, 1.0, 0.0]]))
    out = latent.whitened(rows, basis, np.array([0.5, 0.0])).toarray()
    kept = np.array([0.6 - 0.5 * 0.6, 0.0, 0.8])
    assert out[0] == pytest.approx(kept / np.linalg.norm(kept))  # the off-axis word weighs more
    assert out[1] == pytest.approx([0.0, 1.0, 0.0])  # a share of 0: as it was
    assert latent.whitened(rows, None, np.array([0.5, 0.5])) is rows  # no basis: words alone


def test_a_row_whose_every_word_lies_on_the_axes_is_kept_whole():
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))
    rows = sp.csr_matrix(np.array([[0.6, 0.8, 0.0], [0.0, 0.0, 0.0]]))
    out = latent.whitened(rows, basis, np.array([1.0, 1.0])).toarray()
    assert out == pytest.approx(rows.toarray())  # not emptied, and the empty row stays empty


def small_field(seed: int) -> list[Paper]:
    """A day of a large field's papers and a few of a small one, whose papers say the large
    field's words too and one of their own (as security papers say "image" and "network")."""
    rng = random.Random(seed)
    large = "image detection segmentation video network training dataset benchmark pixel visual "
    large += "camera scene"
    big, own = large.split(), "privacy attack adversary leakage defense".split()
    papers = [
        Paper(
            id=f"b{i:04d}",
            title=" ".join(rng.sample(big, 3)),
            abstract=" ".join(rng.sample(big, 6)),
        )
        for i in range(600)
    ]
    return papers + [
        Paper(
            id=f"s{i:04d}",
            title=" ".join(rng.sample(big, 3)),
            abstract=" ".join(rng.sample(big, 6) + rng.sample(own, 1)),
        )
        for i in range(40)
    ]


@pytest.mark.parametrize("seed", [0, 1])
def test_on_a_day_of_many_papers_a_small_fields_reader_gets_more_of_it(monkeypatch, seed):
    papers = small_field(seed)
    space = stored(papers)
    liked = tuple(dataclasses.replace(p, id=f"liked-{p.id}") for p in papers[600:605])
    pool = papers[:600] + papers[605:]
    reader = Subscriber("ana", Profile(library=liked), (), top_k=20)

    def theirs() -> int:
        return sum(s.paper.id.startswith("s") for s in rank(pool, [reader], space=space)["ana"])

    whitened = theirs()
    monkeypatch.setattr(latent, "WHITEN", 0.0)
    assert whitened > theirs()


def test_whitening_grows_with_the_days_papers_on_the_topic_as_the_centroids_weight_does(
    monkeypatch,
) -> None:
    papers = small_field(0)
    space = stored(papers)
    liked = tuple(dataclasses.replace(p, id=f"liked-{p.id}") for p in papers[600:605])
    reader = Subscriber("ana", Profile(library=liked), (), top_k=20)

    def moved(pool: list[Paper]) -> float:
        """1 - the cosine of the reader's row with its row unwhitened."""
        row = prepare(pool, [reader], space).interest.vectors
        with monkeypatch.context() as m:
            m.setattr(latent, "WHITEN", 0.0)
            plain = prepare(pool, [reader], space).interest.vectors
        return 1.0 - float(row.multiply(plain).sum())

    small_day, large_day = moved(papers[:40] + papers[605:625]), moved(papers)
    assert 0.0 < small_day < large_day  # a ramp, as for the centroid: on a small day it is slight


def test_a_rated_down_papers_words_keep_their_weight_below_zero() -> None:
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))
    rows = sp.csr_matrix(np.array([[0.6, -0.2, 0.7]]))
    out = latent.whitened(rows, basis, np.array([0.5])).toarray()[0]
    assert out[1] < 0 and out[1] / out[2] == pytest.approx(-0.2 / 0.7)


def test_passes_over_blocks_pick_what_one_rank_picks_with_a_basis() -> None:
    pool = mixed(600)
    subs = subscribers(pool)
    space = stored(pool)
    assert space.basis is not None
    whole = rank(pool, subs, space=space)
    passes = rank_pool(in_blocks(pool, 97), subs, space=space)
    assert shown(passes) == shown(whole)
    assert all(whole.values())


def test_a_paper_that_shares_no_word_stays_below_every_one_that_does() -> None:
    # Ranked without thresholds (`digest rank`), papers of score 0 reach the reorder too; their
    # closeness in the basis alone must not lift them over a paper that shares a word.
    z = np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    interest = np.array([0.0, 1.0])
    chosen = [(0.02, 2), (0.0, 0), (0.0, 1)]
    assert [j for _, j in reordered(chosen, z, interest, 3)] == [2, 0, 1]


def test_every_interest_keeps_its_own_limit_and_papers() -> None:
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))
    x = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]]))
    profile = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    best = [[(0.2, 1), (0.1, 0)], [], [(0.3, 2), (0.2, 0), (0.1, 1)]]
    out = latent.reordered(best, basis, x, profile, [2, 5, 1], [None, None, 0.5])
    assert [j for _, j in out[0]] == [0, 1]  # 0.1 + 0.3 x 1 beats 0.2 + 0
    assert out[1] == []
    assert out[2] == []  # (0.3 + 0.3 x 0.99) / 1.3 is below its floor of 0.5
    out = latent.reordered(best, basis, x, profile, [2, 5, 1], [None, None, 0.4])
    assert [j for _, j in out[2]] == [2]


def test_a_paper_like_one_rated_down_loses_its_cosine_with_it_from_the_order() -> None:
    basis = latent.Basis(np.arange(2), np.eye(2, dtype=np.float32))  # column 2: words only
    x = sp.csr_matrix(np.array([[0.0, 0.6, 0.8], [0.6, 0.8, 0.0]]))
    interest = sp.csr_matrix([[0.0, 1.0, 0.0]])
    chosen = [(0.30, 0), (0.30, 1)]
    downs = sp.csr_matrix(np.array([[0.0, 0.0, 1.0]]))  # shares paper 0's own word
    plain = latent.reordered([chosen], basis, x, interest, [2], [None])
    assert [j for _, j in plain[0]] == [0, 1]  # closer to the interest in the basis
    out = latent.reordered([chosen], basis, x, interest, [2], [None], None, (downs, [[0]]))
    assert [j for _, j in out[0]] == [1, 0]
    key = 0.30 + latent.WEIGHT - latent.DISLIKED_NEAR * 0.8
    assert out[0][1][0] == pytest.approx(key / (1 + latent.WEIGHT))


def test_the_closest_rated_down_paper_counts_and_only_the_interests_own() -> None:
    x = sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0]]))
    docs = sp.csr_matrix(np.array([[0.6, 0.8], [1.0, 0.0], [0.0, 1.0]]))
    owner, papers = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 0, 1, 1])
    near = latent.nearest_disliked(x, docs, [[0, 1], [2], []], owner, papers)
    assert near.tolist() == pytest.approx([1.0, 0.8, 0.0, 1.0, 0.0])


def test_a_twin_of_a_paper_rated_down_leaves_the_digest(monkeypatch) -> None:
    # Six papers rated down, each the asked words over another topic: their Rocchio mean is
    # mostly the asked words, so it alone keeps a new copy of one of them among the picks.
    rng = random.Random(3)
    others = [[f"{c}{k}word" for k in range(10)] for c in "abcdefg"]
    papers = topical(rng, STARS, 300, "s")
    for t, words in enumerate(others):
        papers += topical(rng, words, 100, f"t{t}-")
    asked = "stellar galaxy redshift"
    downs = tuple(
        Paper(id=f"d{i}", title=asked, abstract=" ".join(rng.sample(others[i], 6)))
        for i in range(6)
    )
    # Not the same paper by identity (its title differs; one that is, is blocked by its keys).
    twin = dataclasses.replace(downs[0], id="twin", title=f"{asked} revisited")
    space = stored(papers + list(downs))
    sub = Subscriber("ana", Profile(interests=asked, disliked=downs), (), top_k=20)
    monkeypatch.setattr(latent, "DISLIKED_NEAR", 0.0)
    monkeypatch.setattr(latent, "WHITEN", 0.0)  # which sinks it too: the asked words lie on an axis
    assert twin.id in [s.paper.id for s in rank([*papers, twin], [sub], space=space)["ana"]]
    monkeypatch.undo()
    picks = [s.paper.id for s in rank([*papers, twin], [sub], space=space)["ana"]]
    assert len(picks) == 20 and twin.id not in picks
