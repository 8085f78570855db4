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
    "Clarification: {}", "{}: Clarification", "Correspondence: {}", "Re: {}", "RE: “{}”",
    "Letter to the editor regarding “{}”", "Letter to the Editor: {}",
    "Letters to the editor regarding {}",
)  # fmt: skip
PRINTED = ("{} (vol 5, pg 12, 2024)", "{} (Vol. 37, p. 1234, 2019)", "{} (vol 10, art no e3, 2020)")


@pytest.mark.parametrize("form", REPLIES + LETTERS + PRINTED)
@pytest.mark.parametrize("paper", PAPERS)
def test_a_reply_or_letter_titled_after_the_paper_is_another_record(form: str, paper: str) -> None:
    """JAMA's "<letter's title>—Reply", "In Reply: …", "…: Response", a "Clarification:", a
    "Correspondence:", a letter's "Re: …" and Web of Science's correction "… (vol 5, pg 12,
    2024)" had been no notice forms: quoting the paper's abstract, the notice and the paper were
    one record, one of them never sent (reg31)."""
    for title in (form.format(paper), form.format(paper.lower())):
        assert notice(title)
        assert not same_title(paper, title, same_people=True)
        assert not same_title(title, paper, same_people=False)


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
