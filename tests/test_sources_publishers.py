"""Publishers' wrapping around an abstract in their feeds: taken off, and what it says kept."""

from __future__ import annotations

import gzip
import json
import time
from itertools import islice
from pathlib import Path

import pytest

from digest.sources.authors import split
from digest.sources.markup import html_text
from digest.sources.publishers import (
    OWN_WORK_WORDS,
    Unwrapped,
    is_notice,
    title,
    unwrap,
    withdrawn,
)

NATURE = (
    '<p>Nature, Published online: 02 December 2026; <a href="https://www.nature.com/articles/'
    's41586-026-01234-5">doi:10.1038/s41586-026-01234-5</a></p>We demonstrate error correction.'
)
APS = (
    "Author(s): Xiaoling Wu, Zhuqing Wang, and Fan Yang<br /><p>We report a time crystal.</p>"
    "<br/>[Phys. Rev. Lett. 137, 230601] Published Tue Dec 01, 2026"
)
SCIENCEDIRECT = (
    "<p>Publication date: February 2027</p><p><b>Source:</b> Artificial Intelligence, Volume 333"
    "</p><p>Author(s): Maria Garcia, Li Wei</p>"
)


def test_natures_published_online_line_goes_and_its_doi_stays() -> None:
    found = unwrap(NATURE)
    assert (found.text, found.doi) == (
        "We demonstrate error correction.",
        "10.1038/s41586-026-01234-5",
    )


def test_aps_byline_and_journal_tail_go_and_the_authors_stay() -> None:
    found = unwrap(APS)
    assert found.text == "<p>We report a time crystal.</p>"
    assert found.byline == "Xiaoling Wu, Zhuqing Wang, and Fan Yang"


def test_a_sciencedirect_item_is_its_authors_and_no_abstract() -> None:
    found = unwrap(SCIENCEDIRECT)
    assert (found.text, found.byline) == ("", "Maria Garcia, Li Wei")
    with_abstract = unwrap(SCIENCEDIRECT + "<p>We survey graph networks.</p>")
    assert with_abstract.text == "<p>We survey graph networks.</p>"


def test_an_abstract_that_only_mentions_such_words_is_left_alone() -> None:
    for text in (
        "We study when a paper is published online; doi: see below.",
        "Building on Nature, Published online: 2 December 2026; doi:10.1038/s41586-026-01234-5. "
        "We study kagome spin liquids.",
        "<p>As shown in (Nature, Published online: 2 December 2026; doi:10.1038/x), magnets"
        " order.</p>",
        "Author(s): what a study owes them. <p>More text.</p>",
        "The author(s): a study of bylines.<br/>More text.",
        "<p>Source: a survey of sources.</p><p>We read them all.</p>",
        "Results [Phys. Rev. Lett. 137, 230601] Published Tue Dec 01, 2026 and more after it.",
    ):
        assert unwrap(text).text == text and not unwrap(text).doi


PUBMED = (
    '<div><p style="color: #4aa564;">Nature. 2026 Mar 2. doi: 10.1038/s41586-026-10160-8. Online'
    " ahead of print.</p><p><b>ABSTRACT</b></p><p>A quantum processor predicts protein folding."
    '</p><p style="color: lightgray">PMID:<a href="https://pubmed.ncbi.nlm.nih.gov/41999999/">'
    "41999999</a> | DOI:<a href=https://doi.org/10.1038/s41586-026-10160-8>10.1038/s41586-026-"
    "10160-8</a></p></div>"
)


def test_pubmeds_citation_label_and_pmid_lines_go_and_the_doi_stays() -> None:
    """The digest read "Nature. 2026 Mar 2. doi: ... ABSTRACT A quantum ... PMID:41999999"."""
    found = unwrap(PUBMED)
    assert found.text == "<p>A quantum processor predicts protein folding.</p>"
    assert found.doi == "10.1038/s41586-026-10160-8"


def test_a_plos_by_line_is_the_authors() -> None:
    found = unwrap("<p>by Jane Doe, Rahul Gupta</p>\n<p>Machine learning predicts expression.</p>")
    assert (found.text, found.byline) == (
        "<p>Machine learning predicts expression.</p>",
        "Jane Doe, Rahul Gupta",
    )
    prose = "<p>by the end of 2026, doi: 10.1/x. we had built it.</p><p>More.</p>"
    assert unwrap(prose).text == prose  # a sentence, not a byline or a citation line


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("By Jane Doe and John Smith", ("Jane Doe", "John Smith")),
        ("by Jane M. Doe, Rahul Gupta", ("Jane M. Doe", "Rahul Gupta")),
        ("by J. Doe, A. Smith", ("J. Doe", "A. Smith")),
        (
            "BY J.-P. Serre, Jan van der Berg &amp; 李华",
            ("J.-P. Serre", "Jan van der Berg", "李华"),
        ),
        (
            " By  Ada Lovelace, Alan Turing, and Grace Hopper ",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
    ],
)
def test_a_by_line_of_any_case_and_initials_is_the_authors(
    line: str, names: tuple[str, ...]
) -> None:
    """reg35 F4: "By A and B" and "by Jane M. Doe, ..." had stayed in the abstract, and the paper
    had no authors."""
    found = unwrap(f"<p>{line}</p><p>We study things at length.</p>")
    assert found.text == "<p>We study things at length.</p>"
    assert split(found.byline) == names


def test_a_by_lines_entities_are_its_text() -> None:
    found = unwrap("Author(s): Jane Doe &amp; John Smith<br />We study things.")
    assert split(found.byline) == ("Jane Doe", "John Smith")  # not "Jane Doe &amp"


@pytest.mark.parametrize(
    "prose",
    [
        "By Monday, we had built it.",
        "By means of a new sampler, we fit the model.",
        "by the end of 2026, doi: 10.1/x. we had built it.",
        "By Design: How Models Learn",
        "By contrast, Smith et al. find more.",
    ],
)
def test_a_sentence_opening_with_by_stays_the_abstract(prose: str) -> None:
    text = f"<p>{prose}</p><p>More.</p>"
    assert unwrap(text) == Unwrapped(text)


@pytest.mark.parametrize("text", ["<p>by " + " " * 2_000, "<p>Source:" + " " * 2_000 + "x"])
def test_a_long_run_of_blanks_in_a_line_is_read_at_once(text: str) -> None:
    """A by-line's and ScienceDirect's lines had tried each split of the blanks: 2,000 of them
    took 4 and 13 seconds, 100,000 many minutes."""
    started = time.perf_counter()
    assert unwrap(text).text == text.strip()
    assert time.perf_counter() - started < 1.0


ACS = (
    '<p><img alt="TOC Graphic" src="https://pubs.acs.org/cms/10.1021/x/nl6b01234_0005.gif" /></p>'
    "<div><cite>Nano Letters</cite></div><div>DOI: 10.1021/acs.nanolett.6b01234</div>"
)


def test_an_acs_items_journal_and_doi_lines_go_and_the_doi_stays() -> None:
    """The digest showed "Nano Letters DOI: 10.1021/acs.nanolett.6b01234" as the abstract."""
    found = unwrap(ACS)
    assert found.doi == "10.1021/acs.nanolett.6b01234" and "cite" not in found.text
    with_abstract = unwrap("<p>We predict excitons.</p>" + ACS.split("</p>", 1)[1])
    assert with_abstract.text == "<p>We predict excitons.</p>"
    assert with_abstract.doi == "10.1021/acs.nanolett.6b01234"
    # An issue's feed: the citation line instead of the DOI.
    issue = ACS.split("<div>")[0] + (
        "<div><cite>Nano Letters</cite>, Volume 26, Issue 10, Page 4100-4107, March 11, 2026."
        " <br /></div>"
    )
    assert "cite" not in unwrap(issue).text and unwrap(issue).doi == ""


@pytest.mark.parametrize(
    "text",
    [
        "Nano Letters DOI: 10.1021/acs.nanolett.6b01234",
        "<p><i>J. Phys. Chem. A</i></p><p>doi:10.1021/acs.jpca.6b01234.</p>",
        "DOI: 10.1021/acs.jpca.6b01234",
    ],
)
def test_a_journals_name_and_a_doi_alone_are_no_abstract(text: str) -> None:
    found = unwrap(text)
    assert found.text == "" and found.doi.startswith("10.1021/acs.")


@pytest.mark.parametrize(
    ("text", "abstract"),
    [
        (  # SIAM's eTOC: the line, a break, the label, the abstract
            "SIAM Journal on Optimization, Volume 36, Issue 2, Page 1234-1260, June 2026. <br/>"
            " Abstract. A polynomial matrix inequality is positive.",
            "A polynomial matrix inequality is positive.",
        ),
        (  # an abbreviated name, in paragraphs, the label on its own line
            "<p>SIAM J. Appl. Math., Volume 86, Issue 1, Pages e2026001, 3 February 2026.<br></p>"
            "<p><b>Abstract</b><br/>We prove a bound.</p>",
            "We prove a bound.</p>",
        ),
        (
            "Journal of Clinical Oncology, Ahead of Print. <br/>Purpose: We test.",
            "Purpose: We test.",
        ),
        ("Volume 36, Issue 2, Page 1-20, June 2026. Abstract: We test.", "We test."),
        (  # no label: the abstract's first word stays
            "SIAM J. Optim., Volume 36, Issue 2, June 2026.<br/>Abstract reasoning is hard.",
            "Abstract reasoning is hard.",
        ),
        # A citation line alone is no abstract.
        ("Science, Volume 390, Issue 6777, Page 1050-1055, December 2025. <br/>", ""),
        ("Proceedings A: Mathematical, Physical Sciences, Volume 482, Issue 2300, May 2026.", ""),
    ],
)
def test_an_atypon_citation_line_and_its_abstract_label_go(text: str, abstract: str) -> None:
    """SIAM's and Science's items had "SIAM Journal on Optimization, Volume 36, ..." as the
    abstract, or as its start."""
    assert unwrap(text).text == abstract


@pytest.mark.parametrize(
    "text",
    [
        "We measured the volume of cells in this study, Volume 3, Issue 2. We find more.",
        "Large Volume 3 corpora are used. We study them.",
        "May 2026. We study the weather of that month.",
        "In June 2026, Volume 4 of the series appeared. <br/>It is reviewed.",
    ],
)
def test_prose_naming_a_volume_or_a_month_stays_the_abstract(text: str) -> None:
    assert unwrap(text).text == text


def test_a_status_before_the_title_goes_and_a_bracketed_formula_stays() -> None:
    assert title("[ASAP] Graph Neural Networks") == "Graph Neural Networks"
    assert title("[Just Accepted] Exciton Dynamics") == "Exciton Dynamics"
    for kept in ("[18F]FDG PET imaging of tumours", "[Re] Reproducing a result", "Plain"):
        assert title(kept) == kept


@pytest.mark.parametrize(
    "notice",
    [
        "Author Correction: Graph neural networks reveal hidden order",  # Nature
        "Publisher Correction: Graph neural networks",
        "Retraction Note: Protein structure prediction",
        "Retraction Note to: Protein structure prediction",  # Springer
        "Correction to “Graph Neural Networks Predict Exciton Dynamics”",  # ACS, Wiley
        'Correction to "Graph Neural Networks"',
        "Correction to: Graph neural networks",  # Springer
        "Corrigendum to “Spin liquids” [J. Magn. Magn. Mater. 512 (2020) 1]",  # Elsevier
        "Corrigendum: Spin liquids",  # Frontiers
        "Erratum: Spin liquids [Phys. Rev. B 99, 104401 (2019)]",  # APS
        "ERRATUM to Spin liquids",
        "Retraction: Deep learning for protein folding",  # PLOS
        "Expression of Concern: Deep learning",
        "Editorial Expression of Concern",  # Science, PNAS
        "Editorial Expression of Concern and Correction",
        "Addendum: Graph networks",
        "Addendum to “Graph networks”",
        "Correction",  # PNAS, the paper named in the text
        "Correction for Chen et al., Graph networks for magnets",  # PNAS
        "Notice of Retraction: A graph network",  # IEEE
        "RETRACTED: A graph network",  # Elsevier
        "Retraction notice to “Deep nets” [Neural Netw. 12 (2020) 1–10]",  # Elsevier
        "Retraction Notice: Deep nets",
        "Statement of Retraction: Deep nets",  # Taylor & Francis
        "WITHDRAWN: Deep nets",  # Elsevier
        "Publisher's Note: Deep nets",  # APS, MDPI
        "Publisher’s Note: Deep nets",
        "Corrections to “Graph Neural Networks for Quantum Materials”",  # IEEE
        "RETRACTED ARTICLE: Protein language models learn materials",  # Springer
        "Retraction of “Neural Networks for Protein Graph Learning”",  # ACS
        "Retraction Statement: Deep nets",  # Wiley
        "Editorial Retraction",  # Science
        "Editorial retraction: Deep nets",
        "Withdrawal: Deep nets",
        "Withdrawal Notice: Deep nets",
        "Notice of Retraction",
        "Notice of Retraction Deep nets for graphs",  # IEEE Xplore's line break, read as a space
        "Erratum to: Spin liquids",  # Springer
        "Correction: Deep nets",
        "Retracted: Deep nets",  # Hindawi
        "EXPRESSION OF CONCERN: Deep nets",
        "publisher correction: deep nets",
        "Editorial Expression of Concern and Retraction",
    ],
)
def test_a_journals_notice_about_a_paper_is_a_notice(notice: str) -> None:
    assert is_notice(notice)


@pytest.mark.parametrize(
    "paper",
    [
        "Error correction codes for neutral-atom arrays",
        "Retraction of a soap film from a wire frame",
        "Correction factors: a review of dosimetry",
        "Corrections to scaling in the Ising model",
        "Correction to the Born approximation at low energy",
        "Correction for publication bias in meta-analysis",
        "Erratic motion of active particles",
        "Expression of concern in adolescents: a survey",
        "Retractions in science: who, why, when",
        "Addendum to the theory of superconductivity",
        "Withdrawn species of the Amazon basin",
        "Correction of motion artifacts in MRI with deep learning",
        "Retraction kinetics of the chameleon tongue",
        "Withdrawal of dopamine agonists in Parkinson's disease",
        "Corrections to scaling: a renormalization-group study",
        "Retracted sea ice and its albedo",
        # A Comment and its Reply are papers, with abstracts of their own (arXiv has them too).
        'Comment on "Dynamical Dark Energy at Late Time ΛCDM"',
        'Reply to "Emergent LLM behaviors are observationally equivalent to data leakage"',
    ],
)
def test_a_papers_title_that_only_uses_such_words_is_a_paper(paper: str) -> None:
    assert not is_notice(paper)


STUDY = (
    "We study how a widely used practice affects outcomes, propose a method to measure it, and"
    " evaluate the method on three datasets drawn from practice, where it improves over strong"
    " baselines while staying cheap to run and easy to deploy."
)
# A notice's own text: a line, or what it does to the article it is about.
NOTICE_TEXTS = [
    "",
    "Correction to: Nature https://doi.org/10.1038/s41586-026-01234-5",
    "The original version of this Article contained an error in the affiliation of the second"
    " author, which was given as the University of X; the correct affiliation is the University"
    " of Y. This has been corrected in both the PDF and HTML versions of the Article.",
    "After publication of this article, concerns were raised about the integrity of Figures 2"
    " and 4, in which several panels appear to overlap. The authors could not provide the raw"
    " data underlying these panels, and the editors therefore retract this article in full.",
    "The authors regret that the printed version of the above article contained a number of"
    " errors in Table 2, where the values of the second column had been shifted by one row."
    " The authors would like to apologise for any inconvenience caused.",
]


@pytest.mark.parametrize(
    "paper",
    [
        "Withdrawal: A Qualitative Study of Opioid Tapering in Primary Care",
        "Correction of “hallucinations” in large language models via retrieval",
        "Retraction of “scientific” claims on social media: a federated analysis",
        "Errata: detecting errors in published tables with language models",
        "Expression of Concern: how editors word their doubts",
        "Correction: a history of proofreading",
    ],
)
def test_a_notice_shaped_title_with_an_abstract_of_its_own_is_a_paper(paper: str) -> None:
    """reg22 F6: these had been skipped as a journal's notices by their first words."""
    assert is_notice(paper)  # the title alone has a notice's form
    assert not is_notice(paper, STUDY)


@pytest.mark.parametrize("text", NOTICE_TEXTS)
@pytest.mark.parametrize(
    "notice",
    ["Author Correction: Graph neural networks", "Withdrawal: Deep nets", "Retraction: Deep nets"],
)
def test_a_notice_with_a_notices_text_is_a_notice(notice: str, text: str) -> None:
    assert is_notice(notice, text)


@pytest.mark.parametrize(
    "notice",
    [
        "Correction to “Graph Neural Networks Predict Exciton Dynamics”",
        "Retraction of 'Neural Networks for Protein Graph Learning'",
        "Erratum: Spin liquids on the kagome lattice [Phys. Rev. B 99, 104401 (2019)]",
        "Correction for Chen et al., Graph networks for magnets",
    ],
)
def test_a_notice_naming_its_paper_is_one_whatever_its_text(notice: str) -> None:
    assert is_notice(notice, STUDY)


TITLE = "Machine learning predicts soil organic carbon across Europe"
# reg23 F9: notices worded otherwise than the few phrasings known, 30 words or more: delivered as
# papers, first in the digests of their paper's readers.
WORDED_NOTICES = {
    "Corrigendum: ": "In the published article, there was an error in Figure 3 as published. The"
    " legend for panel B was incorrect. The corrected Figure 3 and its caption appear below. The"
    " authors apologize for this error and state that this does not change the scientific"
    " conclusions of the article in any way. The original article has been updated.",
    "Retraction Note: ": "The Editors-in-Chief have retracted this article because of concerns"
    " regarding the integrity of the peer review process. After an investigation, the Editors no"
    " longer have confidence in the results and conclusions reported in this article. The authors"
    " have not responded to correspondence from the editor about this retraction.",
    "Correction: ": "There are errors in the Funding statement. The correct Funding statement is:"
    " This work was supported by the National Science Foundation under grant 12345 and by the"
    " European Research Council. The funders had no role in study design, data collection and"
    " analysis, decision to publish, or preparation of the manuscript.",
    "Erratum: ": "An error appeared in Table 2 of the article as originally published: the values"
    " in the third column were reported in grams rather than kilograms, and the totals in the last"
    " row were therefore off by a factor of one thousand. The corrected table is reproduced below;"
    " the conclusions are unaffected.",
    "Expression of Concern: ": "The Journal Editors are issuing this Expression of Concern to"
    " alert readers to concerns about image duplication in Figures 2 and 4 raised after"
    " publication. The authors were contacted and provided some of the original data, which did"
    " not fully resolve the concerns, and an investigation by the institution is ongoing.",
    "Author Correction: ": "In our paper we made an error in the calculation of the spin"
    " susceptibility, which led to an incorrect sign of the second term in Eq. (12). We have"
    " repeated the calculation and the corrected results are shown in the new Fig. 2; the main"
    " conclusions of the paper remain unchanged.",
    "Correction to: ": "Following publication of the original article, we have been notified that"
    " the grant number in the Funding section was incorrect. It should read: National Natural"
    " Science Foundation of China, grant 12345678. The original article has been corrected"
    " accordingly.",
    "Retracted: ": "This article has been retracted by Hindawi following an investigation"
    " undertaken by the publisher. This investigation has uncovered evidence of one or more of the"
    " following indicators of systematic manipulation of the publication process: discrepancies"
    " in scope and in the description of the research reported, and inappropriate citations.",
}


@pytest.mark.parametrize(("form", "text"), WORDED_NOTICES.items())
def test_a_notice_worded_as_publishers_word_them_is_a_notice(form: str, text: str) -> None:
    assert len(text.split()) >= OWN_WORK_WORDS
    assert is_notice(form + TITLE, text)


@pytest.mark.parametrize("form", WORDED_NOTICES)
def test_a_notice_form_over_a_research_abstract_is_a_paper(form: str) -> None:
    assert not is_notice(form + "a history of proofreading", STUDY)


CORPUS = Path("/work/shared/data/arxiv-2025.jsonl.gz")


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared arXiv corpus is not here")
def test_no_arxiv_abstract_reads_as_a_notice_or_a_withdrawal() -> None:
    """A sample of the 45k arXiv abstracts of 2025 (all pass; bench-sized runs read them all):
    under any notice's title, each reads as a paper's (the short ones aside), and none says that
    its paper is withdrawn."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        sample = [json.loads(line) for line in islice(lines, 0, 45_000, 45)]
    for paper in sample:
        text = paper["abstract"]
        assert not withdrawn("", text), text
        if len(text.split()) >= OWN_WORK_WORDS:
            for form in ("Erratum: x", "Withdrawal: x"):
                assert not is_notice(form, text), (form, text)


@pytest.mark.parametrize(
    "text",
    [
        "<jats:title>Abstract</jats:title><jats:p>Proteins fold fast in cells.</jats:p>",
        "<h3>Abstract</h3><p>Proteins fold fast in cells.</p>",
        "<p><b>Abstract</b></p><p>Proteins fold fast in cells.</p>",
        "<p><strong>ABSTRACT:</strong></p><p>Proteins fold fast in cells.</p>",
        "<div><h2>Summary</h2><p>Proteins fold fast in cells.</p></div>",
        "<jats:sec><jats:title>Abstract</jats:title><jats:p>Proteins fold fast in cells.</jats:p>"
        "</jats:sec>",
        (  # a graphical abstract's heading and picture, then the abstract's
            "<jats:title>Graphical Abstract</jats:title><jats:p>"
            '<jats:graphic xlink:href="a.png"/></jats:p><jats:title>Abstract</jats:title>'
            "<jats:p>Proteins fold fast in cells.</jats:p>"
        ),
    ],
)
def test_an_abstract_heading_at_the_texts_start_goes(text: str) -> None:
    """feeds24 F4: Crossref's abstracts open with <jats:title>Abstract</jats:title> nearly always,
    and the abstract had read "Abstract Proteins fold ..."."""
    assert html_text(unwrap(text).text) == "Proteins fold fast in cells."


@pytest.mark.parametrize(
    "text",
    [
        "<p><i>Abstract</i> art is older than writing.</p>",  # a word of the prose
        "<p>Abstract interpretation of programs is sound.</p>",
        "<p>We study art.</p><h3>Abstract</h3><p>More.</p>",  # not at the start
        "Abstract algebra<br/>is old.",
    ],
)
def test_an_abstract_that_opens_with_the_word_keeps_it(text: str) -> None:
    first = html_text(text).split()[0]
    assert html_text(unwrap(text).text).split()[0] == first


def test_a_crossref_structured_abstract_reads_as_pubmeds() -> None:
    text = (
        "<jats:title>Abstract</jats:title><jats:sec><jats:title>Background</jats:title><jats:p>"
        "Genes matter.</jats:p></jats:sec><jats:sec><jats:title>Methods</jats:title><jats:p>We "
        "used <jats:list><jats:list-item><jats:p>cells</jats:p></jats:list-item><jats:list-item>"
        "<jats:p>mice</jats:p></jats:list-item></jats:list></jats:p></jats:sec>"
    )
    assert html_text(unwrap(text).text) == "Background: Genes matter. Methods: We used cells; mice"
