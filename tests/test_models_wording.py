"""When two titles of one long text are one paper's: the words a copy editor changes, and the
words that make another paper."""

from __future__ import annotations

import pytest

from digest.models.wording import same_title

TITLE = "Graph neural networks predict molecular properties"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (TITLE, f"A survey: {TITLE}"),
        ("Predicting molecular properties using graph networks",
         "Predicting molecular properties with graph networks"),
        ("Two graph networks for molecules", "2 graph networks for molecules"),
        ("Molecular property predictions at scale", "Predicting molecular properties at scale"),
        ("Optimization of molecular graphs", "Optimizing molecular graphs"),
        ("Star formation on small scales", "Star formation in small scales"),
    ],
)  # fmt: skip
def test_a_copy_editors_change_by_the_same_people_is_one_title(one: str, other: str) -> None:
    assert same_title(one, other, same_people=True)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Continual learning of molecules", "Continuous learning of molecules"),
        ("Classical molecular property models", "Classification molecular property models"),
        ("Electronic transport in solid batteries", "Electrolyte transport in solid batteries"),
        ("Graph networks with antibiotics", "Graph networks without antibiotics"),
        (f"{TITLE}, Part I", f"{TITLE}, Part II"),
        (TITLE, f"Erratum: {TITLE}"),
        (TITLE, f"Corrigendum to {TITLE}"),
        (TITLE, f"Retraction notice: {TITLE}"),
        (f"Comment on {TITLE}", f"Reply to comment on {TITLE}"),
        (TITLE, f"Author Correction: {TITLE}"),
        (TITLE, f"Publisher Correction: {TITLE}"),
        (TITLE, f"Notice of Retraction: {TITLE}"),
        (TITLE, f"Statement of Retraction: {TITLE}"),
        (TITLE, f"Editorial Expression of Concern: {TITLE}"),
        (TITLE, f"Publisher's Note: {TITLE}"),
        (TITLE, f"RETRACTED ARTICLE: {TITLE}"),
        (TITLE, f"{TITLE} (Retracted)"),
        (TITLE, f"{TITLE} [Erratum]"),
        (TITLE, f"{TITLE} - Corrigendum"),
    ],
)  # fmt: skip
def test_another_word_or_a_notice_is_another_paper_by_the_same_people_too(
    one: str, other: str
) -> None:
    """A 6-letter start had made "continual" and "continuous" one stem, and a paper's erratum
    quoting its abstract was the paper itself, never sent."""
    assert not same_title(one, other, same_people=True)


def test_a_compound_word_at_the_titles_end_is_no_notice() -> None:
    """ "… for LLM Self-Correction" had been read as a correction notice: its copy with a venue's
    mark was another paper, sent again."""
    one = "Training language models for Self-Correction"
    assert same_title(one, f"{one} (Extended Abstract)", same_people=True)


def test_without_a_name_in_common_only_the_same_words_make_one_title() -> None:
    assert same_title("Deep learning for dwarf galaxies", "Deep learning for a dwarf galaxy", False)
    assert not same_title("Deep learning in small scales", "Deep learning on small scales", False)


OPENS_WITH_A_NOTICE_WORD = (
    "Correction of motion artifacts in brain MRI with deep learning",
    "Response to immunotherapy in advanced melanoma",
    "Retraction dynamics of a soap film",
    "Removal of heavy metals by biochar",
    "Comment-aware recommendation for news",
    "Discussion threads in online health forums",
    "Withdrawal symptoms after long-term opioid use",
    "Notes on quantum gravity",
)
NOTICE_FORMS = (
    "Correction to: {}", "Correction: {}", "{} (Retracted)", "Retraction of “{}”",
    "Comments on “{}”", "Notice of Retraction: {}", "Temporary Removal: {}", "Reply to {}",
)  # fmt: skip


@pytest.mark.parametrize("title", OPENS_WITH_A_NOTICE_WORD)
@pytest.mark.parametrize("form", NOTICE_FORMS)
def test_a_notice_of_a_paper_whose_title_opens_with_its_word_is_news_of_its_own(
    title: str, form: str
) -> None:
    """A title that opened with "Correction", "Response to", "Retraction" was read as a notice:
    "Correction to: Correction of motion artifacts …", quoting the paper's abstract, was a notice
    of the same kind, one paper with it, and never sent."""
    notice = form.format(title)
    assert not same_title(title, notice, same_people=True)
    assert not same_title(notice, title, same_people=False)
    assert same_title(title, f"{title} (extended abstract)", same_people=False)  # its own copy


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Corrections to scaling in the three-dimensional Ising model",
         "Finite-size corrections to scaling in the three-dimensional Ising model"),
        ("Response to drought stress in wheat seedlings",
         "Wheat seedlings' response to drought stress"),
        ("Withdrawal symptoms after long-term opioid use",
         "Opioid withdrawal symptoms after long-term use"),
    ],
)  # fmt: skip
def test_a_title_that_opens_with_a_notice_word_is_no_notice(one: str, other: str) -> None:
    """ "Corrections to scaling …" had been a correction notice: its journal copy, grown at its
    start, was another paper, sent again."""
    assert same_title(one, other, same_people=True)


PAPER = "Deep networks for channel estimation in massive MIMO"


@pytest.mark.parametrize(
    "notice",
    [
        f"Comments on “{PAPER}”", f'Discussion of "{PAPER}"', f"Rejoinder: {PAPER}",
        f"Temporary Removal: {PAPER}", f"Editor's note: {PAPER}", f"{PAPER} (retraction notice)",
        f"{PAPER}: Addendum", f"A reply to “{PAPER}”", f"Authors' response to comments on {PAPER}",
        f"Invited discussion of {PAPER}", f"WITHDRAWN: {PAPER}", f"{PAPER} (Withdrawn)",
        f"Retraction Note to: {PAPER}", f"Commentary on ‘{PAPER}’", f"{PAPER} — Retraction Note",
        f"Rejoinder to the discussion of {PAPER}", f"Erratum to: {PAPER}",
        f"Corrections to “{PAPER}”", f"Expression of Concern regarding: {PAPER}",
    ],
)  # fmt: skip
@pytest.mark.parametrize("same_people", [True, False])
def test_every_notice_or_commentary_frame_around_a_title_is_another_record(
    notice: str, same_people: bool
) -> None:
    """IEEE's "Comments on “…”", "Discussion of", "Rejoinder:", Elsevier's "Temporary Removal:",
    "… (retraction notice)" were no notice forms: quoting the paper's abstract, with no author
    or one, the notice and the paper were one record, one of them never sent."""
    assert not same_title(PAPER, notice, same_people)
    assert not same_title(notice, PAPER, same_people)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Transfer learning from English to German", "Transfer learning from German to English"),
        ("Heating of electrons by ions in plasma", "Heating of ions by electrons in plasma"),
        ("English-German translation with transformers",
         "German-English translation with transformers"),
        ("Machine learning for physics", "Physics for machine learning"),
        ("Upper bounds on the chromatic number", "Upper and lower bounds on the chromatic number"),
        ("Sparse or dense retrieval", "Sparse or dense or hybrid retrieval"),
        (PAPER, f"{PAPER}: Part II"),
        (PAPER, f"{PAPER}, part 2"),
        (PAPER, f"{PAPER} II"),
        ("Observing the early universe", "Observers of the early universe"),
    ],
)  # fmt: skip
def test_words_reordered_or_added_for_another_part_are_another_paper(one: str, other: str) -> None:
    """Titles were compared as sets of words: "from German to English" was "from English to
    German", "Upper and lower bounds" a grown "Upper bounds", under one 40-word text (a two-part
    paper's, a feed's blurb): the second paper never sent."""
    assert not same_title(one, other, same_people=True)
    assert not same_title(other, one, same_people=False)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Graph neural networks for molecules: a survey",
         "A survey of graph neural networks for molecules"),
        ("Large language models: self-correction", "Large language models and self-correction"),
        ("Optimal transport for domain adaptation",
         "Optimal transport for unsupervised domain adaptation"),
        ("Graph neural networks for molecules",
         "Graph neural networks for molecules and materials"),
        ("Towards robust graph neural networks", "Robust graph neural networks"),
        ("Self-supervised pre-training at scale", "Self supervised pretraining at scale"),
    ],
)  # fmt: skip
def test_a_part_moved_or_a_word_added_by_a_copy_editor_is_one_title(one: str, other: str) -> None:
    assert same_title(one, other, same_people=False)
    assert same_title(other, one, same_people=False)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Deep learning for weather forecasting", "Deep-learning-based weather forecasting"),
        ("Diffusion models for MRI reconstruction", "Diffusion model-based MRI reconstruction"),
        ("Large language models for code", "LLMs for code"),
        ("Benchmarking LLM agents on web tasks",
         "Benchmarking large language model agents on web tasks"),
        ("GNNs for molecules", "Graph neural networks for molecules"),
    ],
)  # fmt: skip
def test_the_same_peoples_x_based_y_or_acronym_is_one_title(one: str, other: str) -> None:
    """ "Deep-learning-based …" for "Deep learning for …", "LLMs" for "Large language models":
    one group's paper, its abstract the same, had been sent twice."""
    assert same_title(one, other, same_people=True)
    assert same_title(other, one, same_people=True)
    assert not same_title(one, other, same_people=False)  # one word for another: two groups'
