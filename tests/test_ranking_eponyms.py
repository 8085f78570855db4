"""A reader's named things ("Black-Scholes", "Fama-French") are their phrase: a name that is also
a word ("black", "french") brings no paper alone."""

from __future__ import annotations

from digest.models import Paper, Profile, Subscriber
from digest.ranking import eponyms, rank
from digest.ranking.features import fit, paper_text

HOLES = [
    Paper(
        f"h{i}",
        f"Spinning black holes {i}",
        f"The shadow of a black hole of spin {i}. A black"
        " hole's photon sphere and its black hole horizon.",
    )  # fmt: skip
    for i in range(6)
]
FRENCH = Paper("f1", "A French language model", "We train a French model on French text.")
PRICING = [
    Paper(
        "q1",
        "Option pricing beyond Black-Scholes",
        "We price options under rough volatility"
        " and compare implied volatility with the Black-Scholes benchmark.",
    ),  # fmt: skip
    Paper(
        "q2",
        "The Fama-French factors revisited",
        "Size and value factors of the Fama-French model explain returns of small stocks.",
    ),  # fmt: skip
    Paper("q3", "Dynamic pricing with bandits", "We learn prices online with regret bounds."),
]
POOL = [*HOLES, FRENCH, *PRICING]


def reader(keywords: tuple[str, ...] = (), interests: str = "") -> Subscriber:
    return Subscriber("ana", Profile(interests=interests, keywords=keywords), (), top_k=10)


def test_a_named_keyword_brings_its_papers_and_not_its_names_alone() -> None:
    picks = rank(POOL, [reader(keywords=("Black-Scholes", "option pricing"))])["ana"]
    assert picks[0].paper.id == "q1"
    assert not any(s.paper.id.startswith("h") for s in picks)  # "black" alone: no black hole
    assert all("black" not in s.terms for s in picks)
    picks = rank(POOL, [reader(keywords=("Fama-French factors",))])["ana"]
    assert [s.paper.id for s in picks] == ["q2"]  # not the French language model


def test_an_interests_text_names_them_as_keywords_do() -> None:
    text = "Option pricing and volatility: beyond Black-Scholes, and the Fama–French model."
    picks = rank(POOL, [reader(interests=text)])["ana"]
    assert {s.paper.id for s in picks[:2]} == {"q1", "q2"}
    assert not {"h0", "h1", "h2", "h3", "h4", "h5", "f1"} & {s.paper.id for s in picks}


def test_a_name_the_text_also_uses_as_a_word_stays_a_word() -> None:
    text = "Black holes and their shadows; option pricing beyond Black-Scholes."
    picks = rank(POOL, [reader(interests=text)])["ana"]
    assert any(s.paper.id.startswith("h") for s in picks[:5])


def test_names_stay_words_where_the_vocabulary_has_no_phrase_of_them() -> None:
    """A named thing no paper holds ("Cobb-Douglas" here) keeps its names: the row would be
    empty, not a phrase."""
    holes = [f"Black hole number {i}" for i in range(30)]  # "black scholes": 1 in 37 of "black"
    space, _ = fit([*map(paper_text, POOL), *holes])
    named, plain = eponyms.rows(space, ["Black-Scholes", "Black"]), space.transform(["Black"])
    black, phrase = space.vocabulary["black"], space.vocabulary["black scholes"]
    assert named[0, black] == 0 and named[0, phrase] > 0
    assert named[1, black] == plain[0, black] > 0
    cobb = fit([*map(paper_text, POOL), "Cobb production functions"])[0]
    kept = eponyms.rows(cobb, ["Cobb-Douglas"])
    assert kept[0, cobb.vocabulary["cobb"]] > 0


def test_a_title_case_compound_whose_words_mostly_say_it_keeps_its_words() -> None:
    """ "Multi-Agent", "Non-Hermitian", "Navier-Stokes" written in capitals are no eponyms of
    common words: their words alone mostly mean the thing (a third of "agent" is "multi agent"),
    and cutting them had sunk the reader's own papers below ones that share a general word."""
    texts = [f"Multi-agent reinforcement learning with {i} agents" for i in range(10)]
    texts += [f"An agent for task {i}" for i in range(10)]
    space, _ = fit(texts)
    row = eponyms.rows(space, ["Multi-Agent Reinforcement Learning"])
    assert row[0, space.vocabulary["agent"]] > 0 and row[0, space.vocabulary["multi agent"]] > 0


def test_every_capitalised_spelling_of_the_phrase_is_a_named_thing():
    """ "Black--Scholes", "BLACK-SCHOLES" had kept "black": 20 of 20 black-hole picks, while
    "Black-Scholes" brought none. In small letters a compound is no name (below)."""
    for name in ("Black--Scholes", "BLACK-SCHOLES", "Black\u2013Scholes", "Black\u2010Scholes",
                 "Black-Scholes"):  # fmt: skip
        picks = rank(POOL, [reader(keywords=(name, "option pricing"))])["ana"]
        assert picks[0].paper.id == "q1", name
        assert not any(s.paper.id.startswith("h") for s in picks), name
        assert all("black" not in s.terms for s in picks), name
    for name in ("FAMA-FRENCH factors", "Fama--French factors"):
        assert [s.paper.id for s in rank(POOL, [reader(keywords=(name,))])["ana"]] == ["q2"]


def test_a_small_letters_compound_whose_words_mostly_say_it_keeps_its_words():
    """As in Title Case: "multi-agent", "navier-stokes" keep "agent", "stokes"."""
    texts = [f"Multi-agent reinforcement learning with {i} agents" for i in range(10)]
    texts += [f"An agent for task {i}" for i in range(10)]
    space, _ = fit(texts)
    for text in ("multi-agent reinforcement learning", "MULTI-AGENT reinforcement learning"):
        row = eponyms.rows(space, [text])
        assert row[0, space.vocabulary["agent"]] > 0, text
        assert row[0, space.vocabulary["multi agent"]] > 0, text


def test_a_compound_in_small_letters_is_no_name_and_keeps_its_words():
    """ "intra-cluster light" had lost "cluster" (a prefix's phrase is always a small share of
    its word): low-light image papers, "why: light"; "protein-protein interactions" "protein"."""
    texts = [f"Galaxy cluster {i} and its cluster members" for i in range(30)]
    texts += ["Intra cluster light in a galaxy cluster", "Low light image enhancement"]
    space, _ = fit(texts)
    row = eponyms.rows(space, ["intra-cluster light"])
    assert row[0, space.vocabulary["cluster"]] > 0
    assert row[0, space.vocabulary["cluster light"]] > 0


def test_a_title_case_prefix_compound_or_a_word_twice_is_no_name():
    """reg27 F8: a keyword in Title Case, "Intra-Cluster Light", had lost "cluster"."""
    texts = [f"Galaxy cluster {i} and its cluster members" for i in range(30)]
    texts += ["Intra cluster light in a galaxy cluster", "Protein protein interactions"]
    texts += [f"Protein folding {i}" for i in range(30)]
    space, _ = fit(texts)
    for text, word in [("Intra-Cluster Light", "cluster"), ("INTRA-CLUSTER LIGHT", "cluster"),
                       ("Protein-Protein Interactions", "protein")]:  # fmt: skip
        assert eponyms.rows(space, [text])[0, space.vocabulary[word]] > 0, text


def test_two_names_and_a_slash_add_their_phrase_and_keep_their_names():
    """ "PyTorch/TensorFlow", "Transformer/Mamba" had been named things whose names were cut:
    a PyTorch paper met no "PyTorch/TensorFlow" reader (reg37 F1). A slash between two names is
    a choice as "CPU/GPU" is; "AdS/CFT" adds its phrase "ads cft", its names stay words."""
    texts = [f"Job ads and ADS testing {i}" for i in range(30)]
    texts += [f"PyTorch training pipelines {i}" for i in range(20)]
    texts += [f"Transformer layers {i}" for i in range(20)]
    texts += ["The AdS/CFT correspondence and holography", "PyTorch/TensorFlow interop"]
    texts += ["CPU/GPU kernels", "A CPU cache", "Transformer/Mamba hybrid models", "Mamba blocks"]
    space, _ = fit(texts)
    for text, names, phrase in [("AdS/CFT", ["ads", "cft"], "ads cft"),
                                ("PyTorch/TensorFlow", ["pytorch", "tensorflow"], None),
                                ("Transformer/Mamba hybrids", ["transformer", "mamba"], None),
                                ("CPU/GPU", ["cpu", "gpu"], None)]:  # fmt: skip
        row = eponyms.rows(space, [text])
        assert all(row[0, space.vocabulary[n]] > 0 for n in names), text
        assert phrase is None or row[0, space.vocabulary[phrase]] > 0, text
