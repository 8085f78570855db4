"""The feature space: no common-word cut, idf over a background of pseudo-documents, the min_df
cut on large corpora that spares the subscribers' own words, and a fitted space (with its
centroid) that survives a round trip through bytes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from digest.ranking import features
from digest.ranking.features import SHORT, Space, brevity, fit, shortened


def test_large_corpora_drop_words_of_one_paper_but_keep_the_subscribers_words(monkeypatch):
    monkeypatch.setattr(features, "MIN_DF_MIN_DOCS", 4)
    texts = [
        "graph networks for molecules",
        "graph networks for proteins",
        "diffusion models for images zebrafish",
        "diffusion models for video",
    ]
    space, rows = fit(texts, keep=["proteins please"])
    vocabulary = set(space.names)
    assert {"graph", "networks", "diffusion"} <= vocabulary
    assert "zebrafish" not in vocabulary and "video" not in vocabulary  # one paper each
    assert "proteins" in vocabulary  # a subscriber asked for it
    assert rows.shape == (4, space.size)
    assert np.allclose(np.sqrt(rows.multiply(rows).sum(axis=1)), 1.0)
    small, _ = fit(texts[:3])  # below MIN_DF_MIN_DOCS nothing is dropped
    assert "zebrafish" in set(small.names)


def test_no_word_is_cut_for_being_common_and_idf_counts_a_background():
    texts = [f"federated learning with differential privacy, part {i}" for i in range(60)]
    texts += ["graph networks for molecules"]
    space, rows = fit(texts)
    vocabulary = set(space.names)
    assert {"federated learning", "differential privacy", "federated", "privacy"} <= vocabulary
    assert rows[:60].nnz and np.all(space.idf > 1)  # no zero or negative weight
    # BACKGROUND_DOCS pseudo-documents that hold no word: a word in every paper keeps weight.
    common = space.idf[space.vocabulary["federated"]]
    assert common == pytest.approx(np.log((1 + 61 + features.BACKGROUND_DOCS) / 61) + 1)
    assert space.centroid.shape == (space.size,)
    assert np.linalg.norm(space.centroid) == pytest.approx(1.0)


def test_a_space_survives_a_round_trip_through_bytes():
    texts = ["graph networks for molecules", "diffusion models for images", "graph diffusion"]
    space, rows = fit(texts)
    again = Space.from_bytes(space.to_bytes())
    assert again is not None and again.size == space.size and again.docs == 3
    assert abs(again.transform(texts) - rows).max() == pytest.approx(0.0)
    assert list(again.names) == list(space.names)
    assert again.centroid == pytest.approx(space.centroid, abs=1e-6)


def test_a_space_of_another_analyzer_version_is_not_reused(monkeypatch):
    space, _ = fit(["graph networks", "diffusion models"])
    blob = space.to_bytes()
    monkeypatch.setattr(features, "VERSION", features.VERSION + 1)
    assert Space.from_bytes(blob) is None


def test_nothing_but_stop_words_cannot_be_fitted():
    with pytest.raises(ValueError):
        fit(["the and of", "a an the"])


def test_normalize_scales_rows_to_unit_length_as_scikit_learn_does():
    import scipy.sparse as sp
    from sklearn.preprocessing import normalize as theirs

    from digest.ranking.features import normalize

    rows = sp.csr_matrix(np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 1.0]]))
    ours = normalize(rows)
    assert np.allclose(ours.toarray(), theirs(rows).toarray())
    assert rows[0, 0] == 3.0  # a copy: the rows given are unchanged


def test_a_paper_of_few_features_weighs_as_one_of_short_features():
    space, _ = fit(["alpha beta gamma delta", " ".join(f"w{i}x" for i in range(60))] * 2)
    x = space.transform(["alpha beta", " ".join(f"w{i}x" for i in range(60))])
    weights = brevity(x)
    assert weights[0] == pytest.approx(math.sqrt(3 / SHORT))  # alpha, beta, "alpha beta"
    assert weights[1] == 1.0  # an abstract's length is weighed as it is
    y = shortened(x.copy())
    norms = np.sqrt(np.asarray(y.multiply(y).sum(axis=1)).ravel())
    assert norms == pytest.approx(weights)


def test_a_readers_t_cell_meets_papers_on_t_cells_however_written_and_no_other_cells() -> None:
    """A keyword "T cell" read as "cell" ranked blood-cell and battery-cell papers with the
    T-cell ones, and "T-cell" scored 0 a paper that writes "T cells"."""
    papers = ["T cell receptor repertoires of CD8 T cells", "T-cell exhaustion in infection",
              "Battery cells and solar cells", "Red blood cell counts"]  # fmt: skip
    space, rows = fit(papers, keep=["T cell", "T-cell"])
    for keyword in ("T cell", "T-cell", "t cell"):
        scores = (rows @ space.spelled([keyword]).T).toarray().ravel()
        assert scores[0] > 0 and scores[1] > 0 and scores[2] == scores[3] == 0, keyword


def test_a_readers_line_or_ion_meets_its_papers_and_no_unit_or_numeral_of_others() -> None:
    """A "21-cm" keyword matched every paper with a "cm" unit (SiC radicals' cm^-1 first), an
    "[O III]" keyword every "Population III", "Paper II" and Mg II paper; a "Lyman-α" keyword
    Lyman-break papers and not "Lyα"."""
    papers = ["The 21 cm signal of cosmic dawn", "HI 21cm intensity mapping",
              "SiC radicals at 3 cm$^{-1}$ resolution", "[OIII] emitters at z=3",
              "Population III stars. Paper II", "Mg II absorbers", "Ly$\\alpha$ emitters",
              "Lyman-break galaxies"]  # fmt: skip
    for keyword, found in [("21-cm", {0, 1}), ("[O III]", {3}), ("Lyman-α", {6})]:
        space, rows = fit(papers, keep=[keyword])
        scores = (rows @ space.spelled([keyword]).T).toarray().ravel()
        assert set(np.flatnonzero(scores).tolist()) == found, keyword


def test_a_compound_of_function_words_is_a_column_only_where_a_reader_wrote_it() -> None:
    """ "difference-in-differences" as "difference" alone had put a radio-galaxy paper first for
    an econometrician's keyword (rank21 F5); every paper's own compounds ("end-to-end") as
    columns had made liked papers pull papers of their phrasing."""
    papers = ["A difference-in-differences design for minimum wages",
              "Difference imaging of transients, with differences between pipelines",
              "End-to-end training of speech models", "End-to-end driving policies"]  # fmt: skip
    space, rows = fit(papers, keep=["difference-in-differences"])
    assert "difference-in-differences" in space.vocabulary
    assert "end-to-end" not in space.vocabulary and "end" in space.vocabulary
    scores = (rows @ space.spelled(["difference-in-differences"]).T).toarray().ravel()
    assert scores[0] > 1.3 * scores[1] > 0  # the compound weighs beside its words
    assert "difference-in-differences" not in fit(papers)[0].vocabulary
