"""The stock phrases a publisher puts where an abstract will be (digest/models/placeholders.py),
and the short real texts beside them."""

from __future__ import annotations

import pytest

from digest.models.placeholders import placeholder


@pytest.mark.parametrize(
    "text",
    [
        "The abstract was missing in the first version of this article.",
        "No abstract at first; you see it later.",
        "Abstract: the first version had none; this one does.",
        "The abstract is not in the second version of the article.",
        "The first sentence of the abstract is not correct.",
        "Erratum: the abstract did not state the first author.",
    ],
)
def test_a_sentence_that_tells_of_the_paper_is_no_placeholder(text: str) -> None:
    """reg49 F3: "first" among the stock words had made an erratum's one line no text."""
    assert not placeholder(text)


@pytest.mark.parametrize(
    "text",
    [
        "This content is only available as a PDF.",  # Oxford Academic
        "This article is only available in PDF.",
        "PDF only.",
        "There is no abstract associated with this article.",
        "The abstract of this paper is not yet available; please check back later.",
        "Abstract to follow.",
        "Summary will follow.",
        "Abstract available on request.",
        "Abstract available upon request.",
        "Resumo não disponível.",
        "Resumo indisponível.",
        "Pas de résumé disponible.",
        "Aucun résumé disponible.",
        "Аннотация недоступна.",
        "Аннотация отсутствует.",
        "No hay resumen disponible.",
        "Abstract is unavailable for this article; the first page preview is shown below.",
        "No abstract available. First page PDF preview below.",
    ],
)
def test_publishers_stock_phrases_in_their_languages_are_placeholders(text: str) -> None:
    """reg49 F4: a re-keyed item with such a text had been a second paper, sent twice."""
    assert placeholder(text)


@pytest.mark.parametrize(
    "text",
    [
        "We release the code on request.",
        "Only available as a PDF, this atlas maps every glacier in the Alps.",
        "Results to follow in part two: we prove the bound for planar graphs.",
        "Não há evidência de resistência nos dados.",
        "Pas de lien entre le climat et les rendements.",
        "The abstract machine is only available in PDF form of the manual we extend.",
    ],
)
def test_a_short_text_with_such_words_and_its_own_is_a_text(text: str) -> None:
    assert not placeholder(text)
