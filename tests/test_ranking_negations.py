"""What a reader refuses in prose is no wish: "not interested in X", "except X", "no X please",
"(not X)", "X rather than Y" leave X's words out of the interests; a negation that refuses
nothing ("non-linear", "not only", "no-regret", "without supervision") keeps every word."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.negations import refusals
from digest.ranking.tokens import analyze
from digest.ranking.wishes import read

WANTED = "Program analysis and formal verification of software."


def words(text: str) -> set[str]:
    return {w for w in analyze(read(text)) if " " not in w}


@pytest.mark.parametrize(
    "refusal",
    [
        "Not interested in surveys.",
        "I am not really interested in surveys or literature reviews.",
        "Anything except surveys: no literature reviews, no tutorials.",
        "Anything but surveys.",
        "No surveys please.",
        "Excluding surveys and literature reviews.",
        "Topics other than surveys.",
        "I do not follow surveys.",
        "I don't care about literature reviews or surveys.",
        "(not surveys)",
        "\n- NOT surveys\n- NO literature reviews / tutorials\n",
        "Everything, with the exception of surveys.",
        "No surveys, no tutorials.",
        "Alles außer surveys.",
        "Avoid surveys and literature reviews.",
        "Skip surveys.",
        "Please exclude literature reviews and surveys.",
        "Don't send me surveys.",
        "I dislike surveys.",
        "Not keen on surveys.",
        "Surveys are not my thing.",
        "Literature reviews: not interested.",
        "Nothing with surveys.",
        "No surveys.",
    ],
)
def test_a_refusal_leaves_its_words_out_of_the_wishes(refusal: str) -> None:
    """rank27 F1: "Not interested in surveys. Anything except LLMs" had made the surveys and
    LLM papers the reader's picks, "why: survey, llms"."""
    found = words(f"{WANTED} {refusal}")
    assert not found & {"surveys", "survey", "literature", "reviews", "tutorials"}
    assert {"program", "analysis", "formal", "verification", "software"} <= found
    assert refusals(f"{WANTED} {refusal}")  # and validate can name it


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        (
            "Empirical studies of fuzzing rather than surveys.",
            {"empirical", "fuzzing"},
            {"surveys"},
        ),
        (
            "Fuzzing instead of model checking, and static analysis.",
            {"fuzzing", "static"},
            {"model"},
        ),
        ("I follow fuzzing but not so much symbolic execution.", {"fuzzing"}, {"symbolic"}),
        ("Not interested in theory but in simulations.", {"simulations"}, {"theory"}),
    ],
)
def test_what_a_refusal_is_contrasted_with_stays(text: str, kept: set[str], gone: set[str]) -> None:
    found = words(text)
    assert kept <= found
    assert not found & gone


@pytest.mark.parametrize(
    "text",
    [
        "Non-linear dynamics, not only chaos but also solitons.",
        "No-regret learning without supervision; unsupervised methods cannot fail.",
        "No free lunch theorems for optimization.",
        "No prior work has studied graph neural networks on manifolds.",
        "Not all neurons are equal in spiking networks.",
        "The bound holds except that it is loose, except in the limit of large graphs.",
        "Embeddings of words are more similar to each other than to images.",
        "There is no consensus on dark energy, and no evidence of decay.",
        "Models that do not follow a power law, with no labels.",
        "Skip connections and skip-gram embeddings.",
        "Avoiding catastrophic forgetting; ignorance priors.",
        "Machine translation, e.g. No Language Left Behind.",
        "Existing methods are either fast or expressive, but not both.",
        "MLLMs outperform humans on some tasks but not on others.",
        "A person names the topics of their own work, not a category's bounds.",
        "We propose a solver for sparse systems, not dense ones.",
        "However, no single model consistently outperforms others across all tasks.",
    ],
)
def test_a_negation_that_refuses_nothing_keeps_every_word(text: str) -> None:
    assert analyze(read(text)) == analyze(text)
    assert not refusals(text)


def test_refusals_names_each_refusing_sentence_as_written() -> None:
    text = f"{WANTED} Not interested in surveys. Anything except LLMs: no LLM agents."
    assert refusals(text) == [
        "Not interested in surveys.",
        "Anything except LLMs: no LLM agents.",
    ]


def reader(name: str, interests: str) -> Subscriber:
    return Subscriber(name, Profile(interests=interests), (), top_k=6)


def test_a_reader_who_refuses_surveys_and_llms_ranks_as_one_who_never_named_them() -> None:
    papers = [
        Paper(f"p{i}", f"Static program analysis {i}", "Formal verification of software.")
        for i in range(3)
    ] + [
        Paper(f"s{i}", f"A survey of large language models {i}", "We survey LLMs and agents.")
        for i in range(3)
    ]
    refusing = (
        f"{WANTED} Not interested in surveys. Anything except LLMs: no large language models."
    )
    picks = rank(papers, [reader("neg", refusing), reader("pos", WANTED)], thresholds=False)
    assert [(s.paper.id, s.score) for s in picks["neg"]] == [
        (s.paper.id, s.score) for s in picks["pos"]
    ]
    assert not {t for s in picks["neg"] for t in s.terms} & {"survey", "llms", "large language"}


@pytest.mark.parametrize(
    "tail",
    [
        ", no surveys.",
        ", not surveys.",
        " but not surveys.",
        " - no surveys!",
        " without surveys please.",
    ],
)
def test_a_lone_refusal_closing_a_reader_s_sentence_refuses(tail: str) -> None:
    """reg51 F2: "Graph learning, no LLMs", "... but not LLMs" had stayed wishes, no warning: a
    reader's verbless "X, not Y" refuses Y, as an abstract's "we propose X, not Y" does not."""
    text = f"Program analysis and formal verification of software{tail}"
    assert "surveys" not in words(text)
    assert {"program", "analysis", "formal", "verification", "software"} <= words(text)
    assert refusals(text) == [" ".join(text.split())]


@pytest.mark.parametrize(
    "text",
    [
        "Galaxy evolution (not only at high redshift) and quenching.",
        "Transformers (not just LLMs) and vision models.",
        "Causal inference (not least in epidemiology).",
        "Graph learning (not necessarily deep) and spectral methods.",
        "Protein design (no matter the method) and folding.",
        "Word sense disambiguation (not the same as entity linking).",
        "Combinatorics\nNo free lunch\nNo three in line problem",
        "Extremal graph theory\n- No rainbow subgraph conjecture\n- Ramsey numbers",
        "Spin glasses\n- Not only mean-field models\n- finite dimensions",
    ],
)
def test_an_idiom_or_a_name_in_brackets_or_a_list_refuses_nothing(text: str) -> None:
    """reg51 F1: "(not only at high redshift)" and the list item "No three in line problem"
    had been refusals, their words out and validate warning; after a comma they were kept."""
    assert analyze(read(text)) == analyze(text)
    assert not refusals(text)


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("How to design for collaboration rather than replacement.", "replacement"),
        ("I am interested in systems that act rather than only predict.", "predict"),
        ("Exact solvers instead of heuristics.", "heuristics"),
    ],
)
def test_a_contrast_weighs_and_refuses_no_papers(text: str, gone: str) -> None:
    """reg51 F3: validate had told the bench's own readers that "X rather than Y" refuses
    papers and to use exclude; Y's words still leave the wishes."""
    assert gone not in words(text)
    assert not refusals(text)
    assert refusals(f"{text} No surveys please.") == ["No surveys please."]
