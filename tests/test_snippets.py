"""digest.snippets: a paper's text as a digest shows it, the abstract cut to a few sentences."""

from __future__ import annotations

from digest.snippets import snippet


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


# --- templates folder ---------------------------------------------------------------------------
