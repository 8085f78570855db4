"""A reader's words in the spellings papers write: a phrase joined or split, a Greek letter
named or written, a unit's acronym in capitals only for a reader who writes it in small letters."""

from __future__ import annotations

import numpy as np
import pytest

from digest.ranking import features, spellings
from digest.ranking.features import fit


def test_a_readers_word_weighs_as_much_as_its_other_spelling_at_most() -> None:
    # A rare spelling (a line-broken "mathemati cal", in two papers) took most of the weight of
    # the reader's "mathematical", as its idf is high.
    space = features.Space(["mathemati cal", "mathematical", "pre training", "pretraining"],
                           np.array([8.0, 2.0, 3.0, 4.0]), 100)  # fmt: skip
    rows = space.spelled(["mathematical", "pretraining"]).toarray()
    assert rows[0][1] == pytest.approx(rows[0][0]) and rows[0][1] > 0
    assert 0 < rows[1][2] < rows[1][3]  # a commoner spelling weighs as its idf says


def test_a_readers_greek_letter_also_weighs_as_its_name_and_back() -> None:
    # A reader's "β-decay" is the papers' "beta decay"; "alpha helix" their "α-helix".
    space = features.Space(["beta decay", "β-decay", "alpha helix", "α-helix", "decay"],
                           np.array([5.0, 6.0, 5.0, 5.0, 2.0]), 100)  # fmt: skip
    rows = space.spelled(["β-decay", "alpha helix"]).toarray()
    assert rows[0][0] > 0 and rows[0][1] > 0 and rows[0][4] == 0
    assert rows[1][2] == pytest.approx(rows[1][3]) and rows[1][2] > 0


def test_a_greek_letter_and_its_name_are_spellings_of_one_term():
    assert spellings.greek_spellings("β-decay") == ("beta decay",)
    assert set(spellings.greek_spellings("alpha helix")) == {"α-helix", "αhelix"}
    assert set(spellings.greek_spellings("hα")) == {"h-alpha", "halpha"}
    assert spellings.greek_spellings("decay") == () and spellings.greek_spellings("mu") == ()
    # A letter after a hyphen stays in its word now: "TNF-α" is the papers' "TNF-alpha" too.
    assert spellings.greek_spellings("tnf-α") == ("tnf alpha",)
    assert spellings.greek_spellings("μm") == spellings.greek_spellings("µs") == ()  # no "mum"


def test_a_readers_acronym_meets_its_papers_and_not_a_units_nor_an_assays_parts() -> None:
    """A "GHZ states" reader had got GHz radio papers ("why: ghz"), an MPC one megaparsecs, a
    ChIP-seq one chip-design papers ("why: chip"), a "psi(2S)" one no "ψ(2S)" paper; the fit
    (many texts tokenized at once) reads them as a reader's one text is read. A reader's unit in
    small letters finds the acronym too ("mpc" means either); in its own spelling ("Mpc") or
    after a number it is the unit: a reader of "100 Mpc scales" had got model predictive
    control, "why: matched MPC" (rank21 F3)."""
    papers = ["GHZ states of twelve qubits", "A 10-20 GHz receiver front end",
              "MPC for quadrotors", "Galaxies within 10 Mpc", "ChIP-seq of histone marks",
              "An on-chip amplifier", "Charmonium $\\psi(2S)$ production",
              "Charmonium decays"]  # fmt: skip
    for keyword, found in [("GHZ states", {0}), ("MPC", {2}), ("ChIP-seq", {4}),
                           ("psi(2S)", {6}), ("mpc", {2, 3}), ("Mpc", {3}),
                           ("scales of 100 mpc", {3})]:  # fmt: skip
        space, rows = fit(papers, keep=[keyword])
        scores = (rows @ space.spelled([keyword]).T).toarray().ravel()
        assert set(np.flatnonzero(scores).tolist()) == found, keyword


def test_a_readers_unit_in_small_letters_is_the_acronym_too():
    """A paper's "MPC" (model predictive control) is no Mpc; a reader who writes "mpc" means
    either: "mpc for legged robots" had got megaparsec papers only."""
    texts = [f"MPC for legged robot {i}" for i in range(5)]
    texts += [f"A galaxy at 5 Mpc, number {i}" for i in range(5)]
    space, _ = fit(texts)
    row = space.spelled(["mpc for legged robots"])
    assert row[0, space.vocabulary["MPC"]] > 0 and row[0, space.vocabulary["mpc"]] > 0
    assert space.spelled(["MPC"])[0, space.vocabulary["mpc"]] == 0  # in capitals: the acronym


def test_a_readers_acronym_in_small_letters_meets_it_in_capitals_and_a_quantity_does_not():
    """A reader's "kv cache" and "ml potentials" in small letters mean the acronyms, alone or in
    a phrase; their "RHEED at 20 kV" and "5 mL" are quantities, no acronym: a thin-film reader
    had got KV-cache papers first (rank21 F1)."""
    texts = [f"Efficient KV cache compression, idea {i}" for i in range(4)]
    texts += [f"ML potentials for alloys, idea {i}" for i in range(4)]
    texts += [f"RHEED of oxide films grown at 20 kV, sample {i}" for i in range(4)]
    space, rows = fit(texts)
    for reader, found in [("kv cache", set(range(4))), ("ml potentials", set(range(4, 8))),
                          ("oxide films, RHEED at 20 kV, 5 mL", set(range(8, 12)))]:  # fmt: skip
        scores = (rows @ space.spelled([reader]).T).toarray().ravel()
        assert set(np.flatnonzero(scores).tolist()) == found, reader
    row = space.spelled(["kv cache"])  # the papers' phrase, though no paper writes "kv"
    assert row[0, space.vocabulary["KV cache"]] > 0 and row[0, space.vocabulary["KV"]] > 0


def test_a_readers_word_with_a_capital_first_means_its_small_letters() -> None:
    """A keyword "Mt-Bench" had been the unit's word "mt" only: the reader never met "MT-Bench"
    papers, "Kv cache" no KV-cache paper (reg37 F6). A capital first (Title Case, a list's first
    word) means what the small letters mean, both; a unit's own spelling ("mT") is the unit."""
    texts = [f"Judging chat assistants on MT-Bench, idea {i}" for i in range(4)]
    texts += [f"Efficient KV cache compression, idea {i}" for i in range(4)]
    texts += [f"The mT scale of magnetic fields, sample {i}" for i in range(4)]
    space, rows = fit(texts)
    for reader, found in [("Mt-Bench", {0, 1, 2, 3, 8, 9, 10, 11}), ("Kv cache", {4, 5, 6, 7}),
                          ("mT", {8, 9, 10, 11})]:  # fmt: skip
        scores = (rows @ space.spelled([reader]).T).toarray().ravel()
        assert set(np.flatnonzero(scores).tolist()) == found, reader
    for reader, phrase in [("Mt-Bench", "MT bench"), ("Kv cache", "KV cache")]:
        assert space.spelled([reader])[0, space.vocabulary[phrase]] > 0, reader
    assert space.spelled(["mT"])[0, space.vocabulary["MT"]] == 0


def test_a_readers_word_after_a_names_digit_is_the_acronym_too() -> None:
    """ "gpt-4 mt" in small letters means GPT-4 MT (machine translation), as a paper reads it:
    a name's digit is no number (reg37 F2), "5 mt" is."""
    texts = [f"How good is GPT-4 MT for language {i}?" for i in range(4)]
    texts += [f"Fields of 5 mT in sample {i}" for i in range(4)]
    space, rows = fit(texts)
    assert space.spelled(["gpt-4 mt"])[0, space.vocabulary["MT"]] > 0
    assert space.spelled(["fields of 5 mt"])[0].nnz and "MT" not in {
        space.names[c] for c in space.spelled(["fields of 5 mt"]).indices
    }


def test_a_readers_units_own_spelling_is_no_acronym_and_a_years_name_no_number() -> None:
    """A reader's "Mw" (a moment magnitude) had been the Milky Way's "MW" too, "Gb" "GB", "Ma"
    (mega-annum) "MA" (reg39 F4): units' own spellings, the unit only. "wmt2014 mt" means
    WMT2014 MT, as a paper reads it: a name's four digits are no number (reg39 F5)."""
    texts = [f"The MW disk and its GB MB MA satellites, case {i}" for i in range(4)]
    texts += [f"Quakes of Mw 7, Gb links, Mb genomes, 5 Ma old, case {i}" for i in range(4)]
    texts += [f"WMT2014 MT systems, case {i}" for i in range(4)]
    space, rows = fit(texts)
    for reader, acronym in [("Mw", "MW"), ("Gb", "GB"), ("Mb", "MB"), ("Ma", "MA")]:
        assert space.spelled([reader])[0, space.vocabulary[acronym]] == 0, reader
    assert space.spelled(["wmt2014 mt"])[0, space.vocabulary["MT"]] > 0


@pytest.mark.parametrize(
    ("term", "forms"),
    [("labor markets", ["labor market"]), ("smart contract", ["smart contracts"]),
     ("llms", ["llm"]), ("study", ["studies"]), ("studies", ["study"]),
     ("analysis", ["analyses"]), ("approaches", ["approache", "approach"]), ("box", ["boxes"]),
     ("physics", []), ("news", []), ("status", ["statuses"]), ("gas", ["gases"]),
     ("class", ["classes"])],
)  # fmt: skip
def test_a_readers_noun_is_also_in_its_other_number(term: str, forms: list[str]) -> None:
    """rank23 F1: a reader's "labor markets" met no "labor market" paper (an exclude rule
    read both); the last word of a term in the singular or a regular plural, not a word that
    ends in -s without being one ("physics", "news", "status")."""
    assert spellings.numbers(term) == forms


def test_a_readers_plural_weighs_on_its_singular_as_the_vocabulary_holds_it() -> None:
    space = features.Space(["labor", "labor market", "labor markets", "markets", "market"],
                           np.array([5.0, 7.0, 8.0, 4.0, 3.0]), 100)  # fmt: skip
    (row,) = space.spelled(["labor markets"]).toarray()
    assert row[1] > 0 and row[4] > 0  # the singulars, as their idf weighs them
    assert row[1] < row[2] and row[4] < row[3]


@pytest.mark.parametrize(
    ("term", "forms"),
    [("scaling laws", ["scaling law"]), ("normalizing flows", ["normalizing flow"]),
     ("evaluation metrics", ["evaluation metric"]), ("heuristics", ["heuristic"]),
     ("gender bias", ["gender biases"]), ("gender biases", ["gender bias"]),
     ("fermi gas", ["fermi gases"]), ("lenses", ["lens"]), ("virus", ["viruses"]),
     ("dark matter haloes", ["dark matter halo"]), ("movies", ["movie"]),
     ("x-rays", ["x-ray"]), ("x-ray", ["x-rays"]), ("t-cells", ["t-cell"]),
     ("n-grams", ["n-gram"]), ("p-values", ["p-value"]),
     ("public goods", []), ("means", []), ("leaves", ["leaf"]), ("analyses", ["analysis"]),
     ("fluid dynamics", []), ("good", []), ("mean", []), ("leave", []),
     ("dos", []), ("los", []), ("doses", ["dose"]),  # DOS, LOS: acronyms, no "doses", "loses"
     ("epoch", ["epochs"]), ("knowledge base", ["knowledge bases"]),
     ("knowledge bases", ["knowledge basis", "knowledge base"]), ("flyby", ["flybys"]),
     ("weak lensing systematics", []), ("camera intrinsics", [])],  # reg45 F1, rank25 F1, F2
)  # fmt: skip
def test_a_plural_in_ws_ics_or_es_and_a_hyphened_word_meet_their_other_number(
    term: str, forms: list[str]
) -> None:
    """rank24 F1, F3, F4, F6: "laws", "metrics" had no singular (endings -ws, -ics blocked),
    "bias" was "bia" and "biases" "biase", "movies" "movy", "x-rays" none; "goods" took in
    "good", "leaves" "leave", "analyses" the verb "analyse"."""
    assert spellings.numbers(term) == forms
