"""What a reader writes about itself is no wish: the journals it cites ("Phys. Rev. Lett. 120,
1234 (2018)", "Nature 2021", "ApJ 900, 12") and its role in its own frame ("I am a PhD student",
"our group"); the same words as a subject ("student performance", "lab automation") stay."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.tokens import analyze
from digest.ranking.wishes import read

TOPIC = "Polymer networks and lipid membranes."
JOURNAL_WORDS = set(
    """phys rev lett chem nature science apj mnras mon astron soc nat commun proc natl acad sci
    physical review letters""".split()
)


@pytest.mark.parametrize(
    "citation",
    [
        "Our results were published in Phys. Rev. Lett. and J. Chem. Phys.",
        "See Phys. Rev. Lett. 120, 1234 (2018) and Phys.Rev.E 108, 024903 (2023).",
        "Earlier work: Nature 2021, Science 2019, ApJ 900, 12 and MNRAS 500, 1.",
        "Mon. Not. R. Astron. Soc. 512, 4 (2022); A&A 650, A12; Nat. Commun. 12, 3 (2021).",
        "Papers in Proc. Natl. Acad. Sci. and Physical Review Letters 120, 12 (2018).",
    ],
)
def test_a_journal_a_reader_cites_is_no_word(citation: str) -> None:
    """rank27 L1: "published in Phys. Rev. Lett." had explained picks as "why: rev, phys"."""
    found = set(analyze(read(f"{TOPIC} {citation}")))
    assert set(analyze(TOPIC)) <= found
    assert not {w for part in found for w in part.split()} & JOURNAL_WORDS


@pytest.mark.parametrize(
    "about",
    [
        "I am a PhD student in stellar physics.",
        "Hello, I am PhD student in stellar physics.",
        "I'm a second-year graduate student working on stellar physics.",
        "Our group studies stellar physics; my lab and my postdocs too.",
        "PhD student in stellar physics.",
        "Postdoc at ETH, stellar physics.",
        "We are a small research team in stellar physics.",
        "My lab works on stellar physics.",
        "Our group develops and tests stellar physics codes.",
    ],
)
def test_a_reader_s_role_is_no_word_its_field_is(about: str) -> None:
    found = set(analyze(read(about)))
    assert {"stellar", "physics"} <= found
    roles = {"phd", "student", "students", "group", "lab", "postdocs", "postdoc", "team"}
    assert not found & roles | {w for w in found if " " in w and set(w.split()) & roles}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Student performance prediction.", "student"),
        ("Lab automation and robotics.", "lab"),
        ("I am interested in lab automation.", "lab"),
        ("Our lab automation platform.", "lab"),
        ("Systems similar to our Local Group of galaxies.", "group"),
        ("A promising dark matter candidate.", "candidate"),
        ("Researchers have used graph networks.", "researchers"),
        ("Nature of dark matter and science of science.", "nature"),
        ("Work by J. A. Smith on soft matter.", "smith"),
        ("Soft Matter and Macromolecules.", "macromolecules"),
        ("Our lab experiments on cold atoms.", "lab"),
        ("Distillation: our student models and teacher models.", "student"),
        ("Our group catalogues of clusters.", "group"),
        ("My team simulations of plasma turbulence.", "team"),
        ("Our lab measurements, and spectra.", "lab"),
    ],
)
def test_the_same_words_as_a_subject_stay(text: str, kept: str) -> None:
    assert kept in analyze(read(text))


def test_a_grant_text_s_journal_explains_no_pick() -> None:
    papers = [
        Paper(
            f"g{i}",
            f"Tracer diffusion in granular gases {i}",
            "Polymer networks in lipid membranes [Phys. Rev. E 108, 024903 (2023)].",
        )
        for i in range(3)
    ] + [
        Paper(f"o{i}", f"Plasma turbulence {i}", "Phys. Rev. Lett. style plasma.") for i in range(3)
    ]
    text = f"{TOPIC} I am a PhD student; our results appeared in Phys. Rev. Lett."
    picks = rank(papers, [Subscriber("ana", Profile(interests=text), (), top_k=6)])["ana"]
    assert not {t for s in picks for t in s.terms} & {"phys", "rev", "lett", "student", "phd"}
    assert {s.paper.id for s in picks} <= {"g0", "g1", "g2"}
