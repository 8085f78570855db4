"""A word's other number as the built-in background holds it (digest/ranking/plurals.py)."""

from __future__ import annotations

import pytest

from digest.ranking.plurals import other


@pytest.mark.parametrize(
    ("word", "forms"),
    [("epoch", ("epochs",)), ("flyby", ("flybys",)), ("synthesis", ("syntheses",)),
     ("census", ("censuses",)), ("bus", ("buses",)), ("ellipsis", ("ellipses",)),
     ("portfolios", ("portfolioses", "portfolio")), ("regexes", ("regexis", "regexe", "regex"))],
)  # fmt: skip
def test_a_word_whose_candidates_the_background_does_not_hold_takes_them_all(
    word: str, forms: tuple[str, ...]
) -> None:
    """reg45 F1: with no candidate held, "synthesis", "census", "portfolios" had no other
    number, and "epoch", "flyby" only the unheld "epoches", "flybies" (a -ch said /k/, a -y)."""
    assert other(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [("systematics", ()), ("systematic", ()), ("intrinsics", ()), ("numerics", ()),
     ("plastics", ()), ("metrics", ("metric",)), ("metric", ("metrics",)),
     ("heuristics", ("heuristic",)), ("statistics", ("statistic",)),
     ("harmonics", ("harmonic",))],
)  # fmt: skip
def test_an_ics_noun_is_no_plural_of_a_far_more_common_adjective(
    word: str, forms: tuple[str, ...]
) -> None:
    """rank25 F1: "systematics" had taken in every "systematic review" (37 -> 960 papers),
    "intrinsics" every "intrinsic"; nouns whose -ic the background holds as often stay."""
    assert other(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [("bases", ("basis", "base")), ("base", ("bases",)), ("basis", ("bases",)),
     ("ansatz", ("ansatzes",)), ("analyses", ("analysis",)), ("leaves", ("leaf",)),
     ("leave", ()), ("cases", ("case",))],
)  # fmt: skip
def test_a_plural_meets_a_second_singular_that_more_papers_write(
    word: str, forms: tuple[str, ...]
) -> None:
    """rank25 F2: "bases" had been "basis" alone, and "base" had no plural; the verbs
    "analyse", "leave" (fewer papers than "analysis", "leaf") stay apart."""
    assert other(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [("dynamic", ()), ("semantic", ()), ("robotic", ()), ("graphic", ()), ("analytic", ()),
     ("fus", ()), ("ris", ()), ("odis", ()), ("metric", ("metrics",))],
)  # fmt: skip
def test_no_field_for_its_adjective_nor_a_plural_the_counts_refused(
    word: str, forms: tuple[str, ...]
) -> None:
    """reg46: "dynamic" had found every "dynamics" (3,745 -> 6,376 papers), "semantic",
    "robotic" their fields; an acronym in -s its refused plural ("FUS" "fuses": 5 -> 287)."""
    assert other(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [("demographic", ("demographics",)), ("demographics", ("demographic",)),
     ("infographic", ("infographics",)), ("comic", ("comics",)), ("comics", ("comic",)),
     ("thermodynamic", ()), ("proteomic", ()), ("spintronic", ()), ("graphic", ())],
)  # fmt: skip
def test_a_noun_that_merely_ends_like_a_field_keeps_its_other_number(
    word: str, forms: tuple[str, ...]
) -> None:
    """reg47 F1: "demographics" (which ends in "graphics") and "comics" (in "omics") had been
    taken for fields: "demographic" lost 73 of its 316 papers; compounds of a field stay fields."""
    assert other(word) == forms


@pytest.mark.parametrize(
    ("word", "forms"),
    [("matrix", ("matrices",)), ("matrices", ("matrix",)), ("spectrum", ("spectra",)),
     ("spectra", ("spectrum",)), ("nuclei", ("nucleus",)), ("criterion", ("criteria",)),
     ("phenomena", ("phenomenon",)), ("corpora", ("corpus",)), ("formulae", ("formula",)),
     ("medium", ("mediums",)), ("data", ())],
)  # fmt: skip
def test_a_latin_or_greek_plural_is_its_words_other_number(
    word: str, forms: tuple[str, ...]
) -> None:
    """rank25 L1: "spectra" had been "spectras", "matrices" "matrice": a reader's "spectrum"
    missed every "spectra". Media and data, of other meanings, stay out."""
    assert other(word) == forms


def test_a_rule_finds_a_latin_plural_and_its_singular() -> None:
    from digest.ranking.rules import exclude_pattern

    pairs = [("spectrum", "the spectra of"), ("nuclei", "a nucleus"),
             ("local minima", "a local minimum"), ("formula", "closed formulae")]  # fmt: skip
    for rule, text in pairs:
        pattern = exclude_pattern([rule])
        assert pattern is not None and pattern.search(text), (rule, text)


def test_a_case_split_words_plural_rule_keeps_its_case() -> None:
    """reg46: "pLMs" had matched "PLMs" (pretrained language models) in 76 of its 85 papers."""
    from digest.ranking.rules import exclude_pattern

    pattern = exclude_pattern(["pLMs"])
    assert pattern is not None
    assert pattern.search("protein pLMs") and pattern.search("a pLM embeds")
    assert not pattern.search("PLMs are pretrained")
