"""A Google Scholar alert's marks before a title and its redirector links (feeds24 F2)."""

from __future__ import annotations

import pytest

from digest.models.identity import arxiv_id, doi, title_hash
from digest.sources.scholar import target, title

TITLE = "Sparse attention transformers for protein structure prediction"


@pytest.mark.parametrize(
    "marks", ["[PDF] ", "[HTML] ", "[BOOK][B] ", "[CITATION][C] ", "[DOC] ", "[PS] ", " [PDF]  "]
)
def test_scholars_marks_of_the_kind_of_copy_are_off_the_title(marks: str) -> None:
    """ "[PDF] X" had been another title than X: the paper an arXiv source had sent came again,
    and again as "[HTML] X"."""
    assert title(marks + TITLE) == TITLE
    assert title_hash(title(marks + TITLE)) == title_hash(TITLE)


@pytest.mark.parametrize(
    "written",
    [
        "[Re] Improving Interpretation Faithfulness for Vision Transformers",
        "[C/N] Ages for Red Giants and their Implications for Galactic Archaeology",
        "[Social] Allostasis: Or, How I Learned To Stop Worrying and Love The Noise",
        "[De|Re]constructing VLMs' Reasoning in Counting",
        "[C II] emission of star-forming galaxies at z ~ 6",
        "[pdf] lowercase is no mark of Scholar's",
        "[PDF]",  # a mark and nothing else: no title to keep
        TITLE,
    ],
)
def test_a_titles_own_brackets_stay(written: str) -> None:
    assert title(written) == written


@pytest.mark.parametrize(
    ("link", "found"),
    [
        (
            "https://scholar.google.com/scholar_url?url=https://arxiv.org/pdf/2512.04444&hl=en"
            "&sa=X&d=1234567890&ei=Q1aa&scisig=AFWwaQ1aa&oi=scholaralrt",
            "https://arxiv.org/pdf/2512.04444",
        ),
        (  # a country's host, the target written escaped
            "https://scholar.google.co.uk/scholar_url?url=https%3A%2F%2Fdoi.org%2F10.1038%2Fs4158"
            "6-025-01234-5&hl=en&ei=x",
            "https://doi.org/10.1038/s41586-025-01234-5",
        ),
        (
            "http://scholar.google.com.au/scholar_url?hl=en&url=https://a.org/p/1",
            "https://a.org/p/1",
        ),
    ],
)
def test_a_scholar_redirector_link_is_read_as_its_target(link: str, found: str) -> None:
    assert target(link) == found


def test_the_target_names_its_arxiv_id_or_doi() -> None:
    link = "https://scholar.google.com/scholar_url?url=https://arxiv.org/pdf/2512.04444&hl=en"
    assert arxiv_id(link) is None  # as identity reads the link itself
    assert arxiv_id(target(link)) == "2512.04444"
    link = "https://scholar.google.de/scholar_url?url=https://doi.org/10.1002/anie.202412345&ei=x"
    assert doi(target(link)) == "10.1002/anie.202412345"


@pytest.mark.parametrize(
    "link",
    [
        "https://scholar.google.com/citations?user=abc&hl=en",  # a profile, no redirector
        "https://scholar.google.com/scholar_url?hl=en&ei=x",  # no target
        "https://scholar.google.com/scholar_url?url=javascript:alert(1)",  # no web address
        "https://example.org/scholar_url?url=https://a.org/p/1",  # not Scholar's
        "https://arxiv.org/abs/2512.04444",
        "http://[::1",  # broken: left as it is
        "",
    ],
)
def test_other_links_stay(link: str) -> None:
    assert target(link) == link
