"""A reader's interests text as the ranking reads it: links, e-mail addresses and DOIs are no
words, and an arXiv category code is the subject it names."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.tokens import analyze
from digest.ranking.wishes import read

PH = [
    Paper(f"ph{i}", f"Soil pH and caesium uptake {i}", "We measure pH and Cs in soils of farms.")
    for i in range(4)
]
THEORY = [
    Paper(
        f"th{i}",
        f"Holography and quantum gravity {i}",
        "High energy physics theory: string theory, holography and a quantum theory of gravity.",
    )
    for i in range(3)
]
CITES = [
    Paper(
        f"c{i}", f"Citation counts of users {i}", "We count citations of users of Google Scholar."
    )
    for i in range(3)
]
GRAPHS = [
    Paper(f"g{i}", f"Graph neural networks {i}", "Message passing on graphs with neural networks.")
    for i in range(3)
]


def reader(interests: str) -> Subscriber:
    return Subscriber("ana", Profile(interests=interests), (), top_k=5)


@pytest.mark.parametrize(
    ("code", "subject"),
    [
        ("cs.LG", "machine learning"),
        ("stat.ML", "machine learning"),
        ("CS.CV", "computer vision and pattern recognition"),
        ("hep-th", "high energy physics theory"),
        ("astro-ph.CO", "cosmology and nongalactic astrophysics"),
        ("cond-mat.str-el", "strongly correlated electrons"),
        ("physics.flu-dyn", "fluid dynamics"),
        ("q-bio.NC", "neurons and cognition"),
        ("quant-ph", "quantum physics"),
    ],
)
def test_an_arxiv_category_code_is_its_subject(code: str, subject: str) -> None:
    assert read(f"Papers in {code}, please.") == f"Papers in {subject}, please."


def test_words_that_are_no_category_code_stay_as_written() -> None:
    text = "Self-supervised learning, e.g. contrastive; math and physics, Cs and pH, cs.XYZ"
    assert read(text) == text


def test_links_addresses_and_dois_are_no_words() -> None:
    text = (
        "Graph learning; see https://scholar.google.com/citations?user=Ab1 and "
        "www.example.org/lab, github.com/ana/graph-nets, ana.b@uni-x.edu, doi:10.1103/PhysRevLett.1"
        " or 10.1038/s41586-020-2649-2."
    )
    assert analyze(read(text)) == analyze("Graph learning; see and")


def test_a_reader_of_category_codes_gets_their_subjects_not_ph_or_caesium() -> None:
    # Read as letters, "hep-th" and "quant-ph" had been "hep th", "quant ph": pH papers won.
    picks = rank([*PH, *THEORY], [reader("hep-th, gr-qc, quant-ph")])["ana"]
    assert {s.paper.id for s in picks[:3]} == {"th0", "th1", "th2"}
    assert not any(s.paper.id.startswith("ph") for s in picks)


def test_a_scholar_link_in_the_interests_brings_no_citation_papers() -> None:
    text = "Graph neural networks. My papers: https://scholar.google.com/citations?user=x"
    picks = rank([*CITES, *GRAPHS], [reader(text)])["ana"]
    assert {s.paper.id for s in picks} == {"g0", "g1", "g2"}


def test_names_with_a_dot_or_an_at_are_words():
    """ "ASP.NET" had been read as a domain and "mAP@0.5" as an e-mail address: a reader of
    .NET got nothing, and `digest validate` refused the config."""
    for text in ("ASP.NET, VB.NET and ML.NET", "evaluated by mAP@0.5", "Amazon.com reviews"):
        assert read(text) == text
