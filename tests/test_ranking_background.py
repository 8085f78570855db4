"""The built-in background: a space fitted on the papers being ranked counts 20,000 arXiv papers
into its document frequencies and takes their latent basis, so that a pool of 10 papers and a
store of 50,000 weigh words alike; without the file, ranking is by the pool's words alone."""

from __future__ import annotations

import logging
import math

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


def test_a_word_the_background_never_saw_is_as_rare_as_in_the_pool_alone() -> None:
    papers = pool("zqxvord appears here", "and zqxvord here", "nothing of it")
    space, rows = fit([paper_text(p) for p in papers])
    joined, _ = background.joined(space, rows)
    docs = 3 + background.load(background.FILE).docs  # type: ignore[union-attr]
    expected = math.log((1 + docs + features.BACKGROUND_DOCS) / (1 + 2)) + features.IDF_FLOOR
    assert joined.idf[space.vocabulary["zqxvord"]] == pytest.approx(expected)


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


def test_the_centroid_of_a_pool_larger_than_the_background_is_mostly_the_pools() -> None:
    papers = pool(*(f"Differential privacy for task {i} of {i % 7} kinds" for i in range(40_000)))
    space, rows = fit([paper_text(p) for p in papers])
    joined, _ = background.joined(space, rows)
    topic = features.normalize(joined.transform(["differential privacy"]))
    assert float((topic @ joined.centroid)[0]) > 0.6


def test_ranking_a_pool_without_a_stored_space_uses_the_background() -> None:
    papers = pool("galaxy cluster redshift survey", "protein folding with language models")
    sub = Subscriber("ana", Profile(interests="galaxies"), ())
    prep = product.prepare(papers, [sub])
    assert prep is not None and prep.space.basis is not None


def test_the_file_survives_its_own_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    texts = [" ".join(rng.choice(words, 8)) for _ in range(200)]
    space, rows = fit(texts)
    df = np.bincount(rows.indices, minlength=space.size)
    basis = latent.fit(rows)
    assert basis is not None
    path = tmp_path / "background.npz"
    path.write_bytes(background.to_bytes(len(texts), list(space.names), rows, basis))
    found = background.load(path)
    assert found is not None and found.docs == 200
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
