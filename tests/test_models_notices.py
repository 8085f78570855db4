"""Which titles are notices about a paper (a reply, a letter, a correction), and so never one
record with the paper whose title they carry."""

from __future__ import annotations

import pytest

from digest.models.notices import notice
from digest.models.wording import same_title

PAPERS = (
    "Quantum error correction with surface codes",
    "Spin crossover in iron complexes under pressure",
    "The role of dark matter in galaxy formation",
)
REPLIES = (
    "{}—Reply", "{}: Reply", "{} - Reply", "{} (Reply)", "{} — Response", "{}: Response",
    "{}: a reply", "{} [Replies]", "In Reply: {}", "In reply to “{}”", "In Response: {}",
)  # fmt: skip
LETTERS = (
    "Clarification to: {}", "Clarification regarding “{}”", "{}: Clarification",
    "Correspondence: “{}”", "Correspondence on: {}", "Re: “{}”", "RE: “{}”", "In reply to “{}”",
    "Letter to the editor regarding “{}”", "Letter to the Editor: {}",
    "Letters to the editor regarding {}",
)  # fmt: skip
PRINTED = ("{} (vol 5, pg 12, 2024)", "{} (Vol. 37, p. 1234, 2019)", "{} (vol 10, art no e3, 2020)")


@pytest.mark.parametrize("form", REPLIES + LETTERS + PRINTED)
@pytest.mark.parametrize("paper", PAPERS)
def test_a_reply_or_letter_titled_after_the_paper_is_another_record(form: str, paper: str) -> None:
    """JAMA's "<letter's title>—Reply", "In Reply: …", "…: Response", a "Clarification to:", a
    "Correspondence: “…”", a letter's "Re: “…”" and Web of Science's correction "… (vol 5, pg
    12, 2024)" had been no notice forms: quoting the paper's abstract, the notice and the paper
    were one record, one of them never sent (reg31)."""
    for title in (form.format(paper), form.format(paper.lower())):
        assert_another_record(paper, title)


def assert_another_record(paper: str, title: str) -> None:
    assert notice(title)
    assert not same_title(paper, title, same_people=True)
    assert not same_title(title, paper, same_people=False)


@pytest.mark.parametrize(
    "paper",
    ["Quantum Error Correction with Surface Codes", "Efficacy of Statins in mRNA Trials",
     "Spin Crossover in Iron(II) Complexes under Pressure", "Superconductivity"],
)  # fmt: skip
def test_a_letters_re_before_a_title_cased_title_is_a_notice(paper: str) -> None:
    """ "Re: " as letters pages write it: the answered paper's title in title case."""
    assert_another_record(paper, f"Re: {paper}")


@pytest.mark.parametrize(
    "form",
    ["Re: {}", "RE: {}", "Clarification: {}", "Correspondence: {}", "Correspondence - {}",
     "In Reply To: {}", "In Response To: {}"],
)  # fmt: skip
@pytest.mark.parametrize(
    "paper",
    PAPERS + ("Relation extraction revisited", "Thinking about LLM reasoning",
              "Matching points between images with transformers"),
)  # fmt: skip
def test_a_head_that_may_be_the_papers_own_name_is_no_notice(form: str, paper: str) -> None:
    """ "RE" (relation extraction), "Correspondence" and "Clarification" (a paper's topic), "In
    Reply To" (a mail header) may head a paper's own title: a letter's head only with a
    quoted title after it, "Re" so cased before a title-cased one, or "to", "on", "regarding"
    after "Clarification", "Correspondence". Read as notices, the title and its journal copy
    without the head had been two papers, sent twice (reg32)."""
    title = form.format(paper)
    assert notice(title) == ""
    assert same_title(paper, title, same_people=True)
    assert same_title(title, paper, same_people=False)


@pytest.mark.parametrize(
    "title",
    [
        "Re:Form -- Reducing Human Priors in Scalable Formal Software Verification",
        "Re:Verse -- Can Your VLM Read a Manga?",
        "In response to drought, wheat seedlings close their stomata",
        "Correspondence between quantum codes and lattices",
        "Stimulus-Response learning in recurrent networks",
        "Dark energy: a response function approach",
        "Tumour immunity: Call and Response",
        "Galaxy formation (2024)",
        "Galaxy formation (vol. 2 of the lecture notes)",
    ],
)
def test_a_title_with_a_notices_word_in_it_is_no_notice(title: str) -> None:
    """Only the forms are notices: a name "Re:Form", a title that opens "In response to …" or
    "Correspondence between …", or ends in a phrase with "Response" in it, is a paper's."""
    assert notice(title) == ""


@pytest.mark.parametrize(
    "form",
    ["Letter: {}", "Letters: {}", "Reader comment: {}", "Concerns regarding “{}”",
     "Concerns about “{}”", "Letter in response to “{}”"],
)  # fmt: skip
@pytest.mark.parametrize("paper", PAPERS)
def test_a_letters_page_form_is_a_notice_never_the_paper(form: str, paper: str) -> None:
    """AP&T's "Letter: X", "Reader comment: X", "Concerns regarding “X”" had been copies of X,
    the letter never sent (reg34)."""
    title = form.format(paper)
    assert notice(title)
    assert not same_title(paper, title, True)


@pytest.mark.parametrize(
    "form",
    ["Letter re: “{}”", "Letter re: {}", "Letter concerning “{}”", "Letter to the editor re: “{}”",
     "Concerns about the study “{}”", "Concerns raised by “{}”", "Concerns over the paper “{}”",
     "Concerns: {}", "Comment and concerns: {}", "Comments & concerns: {}"],
)  # fmt: skip
@pytest.mark.parametrize("paper", PAPERS)
def test_a_letters_re_concerning_or_concerns_is_a_notice(form: str, paper: str) -> None:
    """ "Letter re: “X”", "Letter concerning “X”", "Concerns about the study “X”", "Concerns: X"
    and "Comment and concerns: X" had been copies of X: quoting its abstract, the letter was one
    record with the paper, never sent (reg36)."""
    assert_another_record(paper, form.format(paper))


@pytest.mark.parametrize(
    "form",
    ["Concerns regarding {}", "Concerns about {}", "Concerns about the study {}",
     "Concerns raised by {}", "Letter concerning {}"],
)  # fmt: skip
@pytest.mark.parametrize("paper", PAPERS)
def test_an_unquoted_letters_form_before_the_papers_title_makes_another_paper(
    form: str, paper: str
) -> None:
    """Unquoted, "Concerns regarding …" may head a paper's own title ("Concerns regarding
    privacy in LLMs"): no notice alone, but grown by it the paper's title is the letter's."""
    title = form.format(paper)
    assert not same_title(paper, title, True) and not same_title(title, paper, False)


@pytest.mark.parametrize(
    "title",
    ["User Concerns Regarding Social Robots for Mood Regulation: A Case Study on the "
     "\"Sunday Blues\"",
     "Concerns about the “right to be forgotten” in language models",
     "Concerned citizens and the smart city: a survey"],
)  # fmt: skip
def test_a_papers_own_title_about_concerns_is_no_notice(title: str) -> None:
    assert notice(title) == ""


@pytest.mark.parametrize(
    "form",
    ["Response from the authors: {}", "Responses from authors: {}", "Letter from the editor: {}",
     "Concerns about Smith et al., “{}”", "Concerns about the paper by Smith et al. “{}”",
     "Concerns regarding Ángel and de Vries et al. “{}”"],
)  # fmt: skip
@pytest.mark.parametrize("paper", PAPERS)
def test_a_letter_from_its_writers_or_about_named_authors_is_a_notice(
    form: str, paper: str
) -> None:
    """ "Response from the authors: X", "Letter from the editor: X" and "Concerns about Smith et
    al., “X”" had been copies of X, the letter never sent (reg38)."""
    assert_another_record(paper, form.format(paper))


@pytest.mark.parametrize(
    "title",
    ["Response from the ground: seismic records of storms", "Letter from Birmingham jail",
     "Concerns about Smith et al. on privacy in LLMs"],
)  # fmt: skip
def test_a_from_or_et_al_without_the_form_is_no_notice(title: str) -> None:
    assert notice(title) == ""
