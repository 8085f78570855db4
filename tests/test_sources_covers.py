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


# feeds25 F3: a "Cover…:" title with a short text had been read as a cover whatever its head.
SHORT_TEXTS = [
    "",
    "A comprehensive video quality evaluator for user generated video is presented.",
    "We present COVER, a video quality evaluator for user generated video, with attack tests.",
]


@pytest.mark.parametrize(
    "title",
    [
        "COVER: A Comprehensive Video Quality Evaluator",
        "COVER: A Heuristic Greedy Adversarial Attack on Prompt-based Learning in Language Models",
        "FRONTISPIECE: A Benchmark for Book Illustration Retrieval",
        "Cover Story: How Science Magazines Frame Quantum Materials",
        "Cover Art: Generating Album Covers with Diffusion Models",
        "Cover Page: Layout Analysis of Scanned Theses",
        "Cover: Clique Covers of Sparse Graphs",
        "Cover picture: how images shape science communication",
    ],
)
@pytest.mark.parametrize("text", SHORT_TEXTS)
def test_a_paper_under_a_covers_word_with_a_short_text_is_kept(title: str, text: str) -> None:
    """An acronym in capitals, a head no publisher writes ("Cover Story:", "Cover:"), or one not
    written as publishers write it is a paper's title: only the issue or a blurb tells a cover."""
    assert not is_cover(title, text)
    acronym = title.split(":")[0].isupper()  # a paper's name, never a head
    assert is_cover(f"{title} (Small 3/2025)", text) == (not acronym)


@pytest.mark.parametrize(
    "head",
    # RSC writes "Front cover", "Inside back cover"; Wiley "Cover Image" (feeds26 F3)
    ["Front Cover", "Inside Back Cover", "Cover Picture", "Frontispiece", "Front cover",
     "Inside back cover", "Cover Image"],
)  # fmt: skip
def test_a_publishers_head_with_hardly_a_text_is_a_cover_unless_the_text_is_the_authors(
    head: str,
) -> None:
    assert is_cover(f"{head}: {PAPER}", "Our Front Cover shows single platinum atoms at work.")
    assert is_cover(f"{head}: {PAPER}", "")
    assert is_cover(f"{head}: {PAPER}", "Single platinum atoms fix nitrogen under visible light.")
    assert not is_cover(f"{head}: {PAPER}", "We study the covers of 500 journals and their papers.")
    assert not is_cover(f"{head}: {PAPER}", "Our survey of 500 journals' covers finds hype grew.")


# feeds25 F4: Wiley's covers by volume and issue, ACS's and others' front matter.
WILEY_BLURB = (
    "The cover image is based on the Research Article Self-healing polymer networks for quantum"
    " materials and proteins by Ada Lovelace et al., https://doi.org/10.1002/app.56123."
)
ACS_TEXT = "Journal of the American Chemical Society, Volume 147, Issue 49, Page i-ii, 2025."


@pytest.mark.parametrize(
    "title",
    [
        "Cover Image, Volume 142, Issue 12",
        "Front Cover, Volume 13, Issue 2",
        "Back Cover Image, Volume 26, Issue 2",
        "Inside Front Cover - Vol. 12, No. 3",
        "Issue Information - Volume 23, Issue 4",
        "Editorial Board (Vol. 12, No. 3)",
        "Cover Image (Volume 7, Issue 2, December 2025)",
        "Masthead: Volume 64, Issues 3-4",
    ],
)
@pytest.mark.parametrize("text", [WILEY_BLURB, "", ACS_TEXT, ABSTRACT])
def test_a_cover_or_front_matter_by_volume_and_issue_is_no_paper(title: str, text: str) -> None:
    """Wiley's journals without "(Small 3/2025)" title their covers "Cover Image, Volume 142,
    Issue 12": it had been picked, as its paper was."""
    assert is_cover(title, text)


def test_a_blurb_based_on_its_research_article_tells_a_cover() -> None:
    paper = "Self-healing polymer networks for quantum materials and proteins"
    assert is_cover(paper, WILEY_BLURB)  # opens as a blurb and points to its article
    assert is_cover(f"{paper} (Volume 142, Issue 12)", WILEY_BLURB)
    assert is_cover(f"Cover Story: {paper}", WILEY_BLURB)
    profile = "Invited for this month's cover is the group of Ada Lovelace at the University."
    assert is_cover(f"Cover Profile: {paper}", profile + " " + ABSTRACT)
    read = "Polymer networks heal. Read the full text of the Research Article at 10.1002/app.56123."
    assert is_cover(f"Cover Story: {paper}", read)
    assert not is_cover(f"{paper} (Volume 142, Issue 12)", ABSTRACT)
    assert not is_cover(paper, ABSTRACT + " Our model is based on the article by Lovelace.")


@pytest.mark.parametrize(
    "title",
    [
        "Issue Editorial Masthead",
        "Issue Publication Information",
        "Editorial Masthead",
        "IFC - Editorial Board",
        "Editorial Board (IFC)",
        "Editorial Board and Contents",
        "Graphical abstract TOC",
        "Graphical contents list",
        "Contents list",
        "Contents",
        "Inside Front Cover",
        "Outside Back Cover",
        "Front cover",
        "Inside back cover",
        "Issue Cover",
        "On the Cover",
        "Front Matter",
        "Backmatter",
        "Title Page",
        "Author Index",
        "Aims and Scope",
        "Information for Authors",
        "Issue Highlights",
        "Masthead and Table of Contents",
        "Issue Information ‐ TOC",
    ],
)
@pytest.mark.parametrize(
    "text", ["", ACS_TEXT, "Highlights: proteins in cells, quantum materials."]
)
def test_the_front_matter_of_journals_issues_is_no_paper(title: str, text: str) -> None:
    """ACS's "Issue Editorial Masthead" and "Issue Publication Information" had been picked; the
    same pieces as Elsevier, Springer, RSC, AIP, IOP and Cell Press feeds title them."""
    assert is_cover(title, text)


@pytest.mark.parametrize(
    "title",
    [
        "Masthead Detection in Historical Newspaper Scans",
        "Editorial Board Diversity and Citation Impact in Economics Journals",
        "Issue Information Extraction from Bug Reports with Language Models",
        "Contents-Aware Image Compression",
        "Index Coding with Side Information",
        "On the Cover Time of Random Walks on Graphs",
        "Front Matter Parsing for Scholarly PDFs",
        "Cover Image Generation for Podcasts with Diffusion Models",
        "Advertisement Click Prediction with Graph Networks",
        "Title Page Detection in Digitised Books, Volume 2",
        "Table of Contents Extraction: A Benchmark, Issue 3",
        "Cover Image Generation (Volume 7, Issue 2)",
    ],
)
@pytest.mark.parametrize("text", ["", ABSTRACT])
def test_a_paper_whose_title_opens_with_front_matters_words_is_kept(title: str, text: str) -> None:
    assert not is_cover(title, text)


# reg49 F5: Wiley's "Cover Art: <title>" with no text, RSC's covers with their long blurb.
RSC_BLURB = (
    "Showcasing research from Professor Ada Lovelace's laboratory, Department of Chemistry,"
    " University of Cambridge, UK. Light-switchable spin crossover in iron complexes. The spin"
    " state of iron(II) complexes is switched by light at room temperature, which opens a route"
    " to molecular memories. As featured in: See Ada Lovelace et al., Chem. Sci., 2025, 16, 1234."
)


@pytest.mark.parametrize("head", ["Cover Art", "Front Cover", "Cover Image", "Inside back cover"])
def test_a_publishers_cover_head_with_no_text_is_a_cover(head: str) -> None:
    assert is_cover(f"{head}: {PAPER}", "")


@pytest.mark.parametrize(
    "title", [f"Front cover: {PAPER}", f"Inside back cover: {PAPER}", PAPER, "Back cover"]
)
def test_rscs_showcasing_blurb_tells_a_cover(title: str) -> None:
    assert is_cover(title, RSC_BLURB)


@pytest.mark.parametrize(
    "title",
    [
        "Cover Art: Generating Album Covers with Diffusion Models",
        "Front Cover: Designing Book Covers with Diffusion Models",
        "Cover Image: Generating Cover Images for Podcasts",
        "Cover Art: Cover Art and Streaming Success",
    ],
)
def test_a_cover_head_that_names_the_papers_own_topic_is_a_paper(title: str) -> None:
    """The head's words again after it ("Album Covers"): the paper's subject, no cover."""
    assert not is_cover(title, "")
    assert is_cover(f"{title} (Small 3/2025)", "")


def test_a_paper_that_showcases_research_is_kept() -> None:
    text = "Showcasing research from ten labs, we build a benchmark of spin crossover complexes."
    assert not is_cover(PAPER, text + " " + ABSTRACT)
    assert not is_cover(PAPER, "Our method, as featured in: the 2024 challenge, wins. " + ABSTRACT)
