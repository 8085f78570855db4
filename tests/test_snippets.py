"""digest.snippets: a paper's text as a digest shows it, the abstract cut to a few sentences."""

from __future__ import annotations

import pytest
from support_alarm import in_time

from digest.snippets import snippet, split_sentences


def test_snippet_keeps_three_sentences_without_splitting_abbreviations_or_decimals() -> None:
    abstract = (
        "Models, e.g. BERT, overfit by 3.5 points on average. "
        "As shown by Smith et al. (2020) and J. R. Doe, i.e. Others, this holds (Fig. 2). "
        "We fix it! Fourth sentence is dropped."
    )
    assert snippet(abstract) == (
        "Models, e.g. BERT, overfit by 3.5 points on average. "
        "As shown by Smith et al. (2020) and J. R. Doe, i.e. Others, this holds (Fig. 2). "
        "We fix it!"
    )


def test_a_k_a_ends_no_sentence() -> None:
    abstract = "We propose Video-Skill-CoT (a.k.a. Video-SKoT), a framework. It works. Third. Cut."
    assert (
        snippet(abstract)
        == "We propose Video-Skill-CoT (a.k.a. Video-SKoT), a framework. It works. Third."
    )


def test_snippet_drops_to_two_sentences_rather_than_cutting() -> None:
    first, second, third = "A" * 150 + ".", "B" * 150 + ".", "C" * 150 + "."
    assert snippet(f"{first} {second} {third}") == f"{first} {second}"


def test_snippet_cuts_a_long_text_at_a_word_boundary_with_an_ellipsis() -> None:
    abstract = " ".join(["heterogeneity"] * 60) + "."
    out = snippet(abstract, limit=100)
    assert len(out) <= 100
    assert out.endswith("heterogeneity…")


def test_snippet_cleans_latex_and_whitespace() -> None:
    abstract = (
        "We bound the\n  error by $\\mathcal{O}(\\sqrt{n})$ with \\emph{high}\tprobability"
        " and \\alpha = 5\\%."
    )
    assert snippet(abstract) == "We bound the error by O(√n) with high probability and α = 5%."


def test_snippet_keeps_dollars_and_braces_that_are_not_latex() -> None:
    abstract = "A $5 million grant and $10 more fund {x : x > 0}, at 2.1$\\mu$W in H$_2$O."
    assert snippet(abstract) == "A $5 million grant and $10 more fund {x : x > 0}, at 2.1μW in H₂O."


def test_snippet_of_an_empty_abstract_is_empty() -> None:
    assert snippet("   ") == ""


@pytest.mark.parametrize("run", ["." * 100_000, "?" * 100_000, "?!" * 50_000])
def test_a_run_of_end_marks_in_an_abstract_is_read_once(run: str) -> None:
    """A feed's abstract of end marks was read again from each of them, for every subscriber's
    digest (5 s for 20,000 dots, while the run held the state lock)."""
    abstract = f"Federated learning privacy study {run} end"
    assert in_time(lambda: snippet(abstract)) == "Federated learning privacy study…"
    text = f"Widgets fail{run} Sensors help{run[:999]} Done{run}"
    assert in_time(lambda: split_sentences(text)) == [
        f"Widgets fail{run}",
        f"Sensors help{run[:999]}",
        f"Done{run}",
    ]


def test_a_text_of_initials_is_one_sentence_read_once() -> None:
    """Each initial that ends no sentence had all the sentence before it split into words."""
    text = "By " + "A. " * 100_000 + "Smith. Done."
    assert in_time(lambda: split_sentences(text)) == ["By " + "A. " * 100_000 + "Smith.", "Done."]


# --- templates folder ---------------------------------------------------------------------------
