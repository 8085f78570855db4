"""The built-in background: a space fitted on the papers being ranked counts 20,000 arXiv papers
into its document frequencies and takes their latent basis, so that a pool of 10 papers and a
store of 50,000 weigh words alike; without the file, ranking is by the pool's words alone."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import background, features, latent, product, rank
from digest.ranking.features import fit, paper_text


def pool(*texts: str) -> list[Paper]:
    return [Paper(id=f"p{i}", title=t, abstract=t) for i, t in enumerate(texts)]


def test_the_shipped_background_is_of_this_analyzer_version() -> None:
    # Bumping features.VERSION without `python -m bench.background` leaves ranking without it.
    found = background.load(background.FILE)
    assert found is not None
    assert found.docs > 10_000 and len(found.terms) > 50_000
    assert len(found.basis_rows) > 10_000 and found.vectors.dtype == np.int8


def test_a_word_common_in_the_background_weighs_less_than_a_rare_one() -> None:
    # In the pool both words are in every paper: alone, the pool cannot tell them apart.
    papers = pool(*(f"learning spectroscopic note {i}" for i in range(5)))
    space, rows = fit([paper_text(p) for p in papers])
    at = space.vocabulary
    assert space.idf[at["learning"]] == space.idf[at["spectroscopic"]]
    joined, _ = background.joined(space, rows)
    assert joined.idf[at["learning"]] < joined.idf[at["spectroscopic"]]


@pytest.mark.parametrize("others", [1, 3000])
def test_a_subscribers_word_the_background_never_saw_weighs_the_same_in_any_pool(others) -> None:
    # Held by fewer than 3 of its papers: as one of UNSEEN_DF, however many papers hold it today.
    papers = pool("zqxvord appears here", "and zqxvord here", *(["nothing of it"] * others))
    space, rows = fit([paper_text(p) for p in papers], ["zqxvord"], background.terms())
    joined, _ = background.joined(space, rows)
    found = background.load(background.FILE)
    assert found is not None
    expected = features.idf_of(found.docs, np.array([background.UNSEEN_DF]))[0]
    assert joined.idf[joined.vocabulary["zqxvord"]] == pytest.approx(expected)


def test_a_word_neither_the_background_nor_a_subscriber_holds_is_no_feature() -> None:
    # Kept by today's df, a rare word that an unrelated paper happens to share would change the
    # row of a related paper that holds it.
    texts = ["galaxy zqxvord zqmorn", "redshift zqxvord", "galaxy zqlint zqmorn"]
    space, _ = fit(texts, ["zqlint"], background.terms())
    assert {"galaxy", "redshift", "zqlint"} <= set(space.names)
    assert not {"zqxvord", "zqmorn"} & set(space.names)
    # A rated paper's words are a subscriber's own, once another paper holds them too.
    space, _ = fit(texts, (), background.terms(), liked=[0])
    assert {"zqxvord", "zqmorn"} <= set(space.names) and "zqlint" not in space.names


def test_rows_stay_unit_length_and_the_basis_covers_the_pool_words_it_knows() -> None:
    papers = pool("galaxy cluster redshift survey", "protein folding with language models")
    space, rows = fit([paper_text(p) for p in papers])
    joined, again = background.joined(space, rows)
    assert np.allclose(np.sqrt(again.multiply(again).sum(axis=1)), 1.0)
    assert joined.basis is not None
    known = {joined.names[c] for c in joined.basis.columns}
    assert {"galaxy", "redshift", "protein"} <= known
    assert "zqxvord" not in known


@pytest.mark.parametrize("size", [10, 300])
def test_the_centroid_counts_the_background_so_a_pool_on_one_topic_keeps_it(size) -> None:
    # The centroid is the implicit negative: a pool's own, when every paper is on one topic, is
    # that topic, and subtracting it took the topic away from the subscriber who asked for it.
    papers = pool(*(f"Differential privacy for task {i} of {i % 7} kinds" for i in range(size)))
    space, rows = fit([paper_text(p) for p in papers])
    topic = features.normalize(space.transform(["differential privacy"]))
    assert float((topic @ space.centroid)[0]) > 0.6
    joined, _ = background.joined(space, rows)
    topic = features.normalize(joined.transform(["differential privacy"]))
    assert float((topic @ joined.centroid)[0]) < 0.3
    assert np.linalg.norm(joined.centroid) < 1  # the rest is over the background's other terms


def test_the_centroid_is_the_backgrounds_whatever_the_pool() -> None:
    # Of the pool's papers too, unrelated arrivals would move the implicit negative, and with it
    # the related papers' order.
    topic = [f"Differential privacy for task {i} of {i % 7} kinds" for i in range(10)]
    unrelated = [f"Galaxy cluster redshift survey number {i}" for i in range(3000)]
    alone, rows = fit(topic, (), background.terms())
    alone, _ = background.joined(alone, rows)
    mixed, rows = fit(topic + unrelated, (), background.terms())
    mixed, _ = background.joined(mixed, rows)
    for name in alone.names:
        at, there = alone.vocabulary[name], mixed.vocabulary[name]
        assert mixed.centroid[there] == pytest.approx(alone.centroid[at])
        assert mixed.idf[there] == pytest.approx(alone.idf[at])


def test_ranking_a_pool_without_a_stored_space_uses_the_background() -> None:
    papers = pool("galaxy cluster redshift survey", "protein folding with language models")
    sub = Subscriber("ana", Profile(interests="galaxies"), ())
    prep = product.prepare(papers, [sub])
    assert prep is not None and prep.space.basis is not None
    # Its papers' frequent author names weigh library authors, as a store's do.
    shipped = background.load(background.FILE)
    assert shipped is not None and shipped.named
    assert prep.space.named == shipped.named and prep.space.named_docs == shipped.docs


def test_the_file_survives_its_own_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    texts = [" ".join(rng.choice(words, 8)) for _ in range(200)]
    space, rows = fit(texts)
    df = np.bincount(rows.indices, minlength=space.size)
    basis = latent.fit(rows)
    assert basis is not None
    path = tmp_path / "background.npz"
    named = {"ada lovelace": 3}
    path.write_bytes(background.to_bytes(len(texts), list(space.names), rows, basis, named))
    found = background.load(path)
    assert found is not None and found.docs == 200 and found.named == named
    assert np.array_equal(found.frequencies(found.where(space)), np.where(df >= 3, df, 0))
    again = found.basis(found.where(space))
    assert again is not None
    z, w = basis.project(rows), again.project(rows)
    assert np.abs((z * w).sum(axis=1) - 1).max() < 0.01  # int8 moves a direction by < 1%


def test_without_the_file_ranking_is_by_words_alone_and_says_so(words_only, caplog) -> None:
    papers = pool("galaxy cluster redshift survey", "protein folding with language models")
    sub = Subscriber("ana", Profile(interests="galaxy"), ())
    with caplog.at_level(logging.WARNING, logger="digest.ranking"):
        picks = rank(papers, [sub])["ana"]
    assert [s.paper.id for s in picks] == ["p0"]
    assert "no background" in caplog.text


def test_papers_with_known_words_arriving_do_not_switch_the_latent_order_on() -> None:
    # Of today's words the background knows one ("galaxy"): the latent order must not wait for
    # a second one to arrive with unrelated papers, or their arrival reorders these.
    related = [
        Paper(id="a", title="Zqvarn zqvelt", abstract="Zqvarn zqvelt zqvarn zqvelt."),
        Paper(id="b", title="Galaxy zqmorn", abstract="Galaxy zqmorn zqvelt zqpash zqlint."),
        Paper(id="c", title="Zqvelt zqdrom", abstract="Zqvelt zqdrom zqbalt zqcrin."),
    ]
    others = pool(*(f"protein folding with language models, assay {i}" for i in range(50)))
    reader = Subscriber("ana", Profile(interests="zqvarn zqvelt galaxy"), (), top_k=3)
    alone = rank(related, [reader])["ana"]
    mixed = rank([*related, *others], [reader])["ana"]
    assert [s.paper.id for s in mixed] == [s.paper.id for s in alone]
    assert [s.score for s in mixed] == pytest.approx([s.score for s in alone], abs=0.002)


def test_a_paper_saying_a_readers_word_otherwise_changes_no_other_papers_score() -> None:
    # Every background term is a column, held by today's papers or not: with only the ones they
    # held, one paper saying "stellar masses" made that phrase and "masses" columns, which the
    # reader's "stellar mass" takes in, and ten related papers lost a tenth of their scores.
    reader = Subscriber("gal", Profile(interests="stellar mass of galaxies"), ())
    related = pool(*(f"Galaxies and their stellar mass, sample {c}" for c in "abcdefgh"))
    other = Paper(id="x", title="Clay minerals", abstract="Masses of clay, not stellar masses.")
    alone = rank(related, [reader], top_k=8, thresholds=False)["gal"]
    among = rank([*related, other], [reader], top_k=9, thresholds=False)["gal"]
    assert [(s.paper.id, s.score) for s in among if s.paper.id != "x"] == [
        (s.paper.id, s.score) for s in alone
    ]
