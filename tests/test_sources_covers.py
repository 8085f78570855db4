"""An issue's cover and front-matter items in a journal's feed: no papers (feeds24 F1); papers
whose titles open with such words are kept."""

from __future__ import annotations

import pytest

from digest.sources.covers import is_cover

PAPER = "Photocatalytic Nitrogen Fixation on Single Atom Catalysts in Water"
BLURB = (
    "The cover picture shows single platinum atoms on carbon nitride that fix nitrogen under"
    " visible light in water. Ammonia forms at room temperature with a yield of 120 micromoles"
    " per gram per hour, as the quantum materials and cells of the catalyst are tuned. More"
    " information can be found in the Research Article by A. Lovelace, A. Turing and"
    " co-workers (DOI: 10.1002/anie.202412345)."
)
ABSTRACT = (
    "We introduce a framework that covers every vertex of a graph with few cliques, prove that"
    " it is optimal up to a constant factor, and show on twelve benchmarks that it outperforms"
    " the best known heuristics by a wide margin while using a tenth of their memory and time."
)


@pytest.mark.parametrize(
    "head",
    [
        "Front Cover",
        "Inside Front Cover",
        "Inside Back Cover",
        "Back Cover",
        "Cover Picture",
        "Cover Feature",
        "Cover Profile",
        "Frontispiece",
        "Inside Cover",
    ],
)
@pytest.mark.parametrize(
    "issue", ["Angew. Chem. Int. Ed. 49/2025", "Chem. Eur. J. 68/2025", "Small 3/2025"]
)
def test_a_cover_of_an_issue_is_no_paper_whatever_its_text(head: str, issue: str) -> None:
    """A cover copies its paper's title and authors: it had ranked above the paper, and came
    again as a new paper when the issue came out."""
    title = f"{head}: {PAPER} ({issue})"
    assert is_cover(title, BLURB)
    assert is_cover(title, "")
    assert is_cover(title, ABSTRACT)  # the issue in its title says what it is


def test_a_cover_without_its_issue_is_known_by_its_blurb_or_its_lack_of_text() -> None:
    assert is_cover(f"Front Cover: {PAPER}", BLURB)
    assert is_cover(f"Cover Feature: {PAPER}", "No abstract is available for this article.")
    pointer = "Gold nanorods glow in cells. More information can be found in the Communication by"
    assert is_cover(f"Back Cover: {PAPER}", pointer + " J. Doe et al.")


def test_a_blurb_under_the_papers_own_title_with_the_issue_is_a_cover() -> None:
    assert is_cover(f"{PAPER} (Angew. Chem. Int. Ed. 49/2025)", BLURB)
    assert not is_cover(f"{PAPER} (Angew. Chem. Int. Ed. 49/2025)", ABSTRACT)
    assert not is_cover(PAPER, "More information can be found in the Research Article by J. Doe.")


@pytest.mark.parametrize(
    "title",
    [
        "Issue Information",
        "Editorial Board",
        "Masthead",
        "Table of Contents",
        "In This Issue",
        "Cover Picture",
        "Graphical Abstract: Angew. Chem. Int. Ed. 49/2025",
        "Editorial Board: Angew. Chem. Int. Ed. 49/2025",
        "Issue Information (Adv. Mater. 12-13/2025)",
    ],
)
def test_an_issues_front_matter_is_no_paper(title: str) -> None:
    assert is_cover(title, "Highlights of this issue: proteins in cells and quantum materials.")


@pytest.mark.parametrize(
    "title",
    [
        "Cover: A Framework for Clique Covers of Sparse Graphs",
        "Back Cover: Clique Covers of Sparse Graphs Revisited",
        "Covering Numbers of Sparse Graphs",
        "Cover Trees for Nearest Neighbor Search",
        "Front-Door Adjustment with Hidden Mediators",
        "Table of Contents Generation for Long Documents",
        "In This Issue of Nature: a Corpus Study of Science Journalism",
        "Graphical Abstract Generation with Diffusion Models",
        "[Re] Improving Interpretation Faithfulness for Vision Transformers",
    ],
)
def test_a_paper_whose_title_opens_with_such_words_is_kept(title: str) -> None:
    assert not is_cover(title, ABSTRACT)


def test_a_paper_that_speaks_of_a_cover_picture_within_its_text_is_kept() -> None:
    text = ABSTRACT + " The cover picture shows our graph in colour."
    assert not is_cover("Clique Covers of Sparse Graphs", text)
