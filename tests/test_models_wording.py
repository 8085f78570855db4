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
