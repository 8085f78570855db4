"""Explanations: the words that add most to a pick's score (bigrams absorbing their own words,
equal weights in alphabetical order) and the liked paper each pick is closest to, for all picks
at once in batches that give what one pick at a time would."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from digest.ranking import explain as explanations
from digest.ranking.explain import closest, terms

NAMES = np.array(
    ["attack", "differential", "differential privacy", "federated", "graph", "privacy", "zebra"],
    dtype=object,
)


def rows(*weights: dict[str, float]) -> sp.csr_matrix:
    column = {n: i for i, n in enumerate(NAMES)}
    dense = np.zeros((len(weights), len(NAMES)))
    for r, row in enumerate(weights):
        for name, value in row.items():
            dense[r, column[name]] = value
    return sp.csr_matrix(dense)


def test_terms_are_the_heaviest_shared_features_heaviest_first():
    profile = rows({"federated": 0.9, "graph": 0.1, "zebra": 0.5})
    paper = rows({"federated": 0.5, "graph": 0.9, "attack": 0.7})
    assert terms(profile, paper, [(0, 0)], NAMES) == [("federated", "graph")]


def test_a_bigram_absorbs_its_own_words_and_a_covered_word_is_not_repeated():
    profile = rows({"differential": 0.8, "privacy": 0.7, "differential privacy": 0.5})
    paper = rows({"differential": 0.8, "privacy": 0.7, "differential privacy": 0.5})
    assert terms(profile, paper, [(0, 0)], NAMES) == [("differential privacy",)]


def test_a_term_in_two_spellings_is_said_once_in_its_heaviest():
    """A reader's "self-supervised" had been explained "selfsupervised, self supervised", their
    "mpc" as "MPC, mpc": one term twice (rank21 F7)."""
    names = np.array(
        ["MPC", "mpc", "self supervised", "selfsupervised", "supervised"], dtype=object
    )
    both = sp.csr_matrix(np.array([[0.3, 0.2, 0.5, 0.6, 0.4]]))
    assert terms(both, both, [(0, 0)], names) == [("selfsupervised", "supervised", "MPC")]


def test_equal_weights_fall_back_to_alphabetical_order():
    profile = rows({"zebra": 0.5, "attack": 0.5, "graph": 0.5})
    paper = rows({"zebra": 0.5, "attack": 0.5, "graph": 0.5})
    assert terms(profile, paper, [(0, 0)], NAMES) == [("attack", "graph", "zebra")]


def test_negative_contributions_never_explain_a_pick():
    profile = rows({"attack": -0.5, "graph": 0.5})
    paper = rows({"attack": 0.9, "graph": 0.1})
    assert terms(profile, paper, [(0, 0)], NAMES) == [("graph",)]


def test_batches_give_the_same_terms_as_one_pick_at_a_time(monkeypatch):
    rng = np.random.default_rng(3)
    profile = sp.random(6, len(NAMES), density=0.7, random_state=1, format="csr")
    papers = sp.random(9, len(NAMES), density=0.7, random_state=2, format="csr")
    picks = [(int(rng.integers(6)), int(rng.integers(9))) for _ in range(40)]
    one_by_one = [terms(profile, papers, [pick], NAMES)[0] for pick in picks]
    monkeypatch.setattr(explanations, "BATCH", 7)
    monkeypatch.setattr(explanations, "CANDIDATES", 2)  # forces the slow path now and then
    assert terms(profile, papers, picks, NAMES) == one_by_one


def test_each_pick_is_closest_to_the_liked_paper_it_is_most_similar_to():
    docs = rows(
        {"graph": 1.0},  # 0: liked by subscriber 0
        {"privacy": 1.0},  # 1: liked by subscriber 0
        {"zebra": 1.0},  # 2: a pick sharing nothing with the library
        {"privacy": 0.6, "graph": 0.1},  # 3: a pick, closer to liked paper 1
        {"graph": 0.5, "privacy": 0.5},  # 4: a pick, equally close to both
    )
    best = [[(0.9, 3), (0.5, 2), (0.4, 4)], [(0.3, 3)]]
    found = closest(docs, docs, [[0, 1], []], best)
    assert found == [[1, -1, 0], [-1]]  # equals: the first liked; no library: -1


def test_overlapping_words_of_chinese_or_japanese_say_the_run_the_paper_holds():
    """A Japanese pick was explained "ライ, イバ, シー, バシ, プラ": fragments of プライバシー."""
    from digest.ranking.explain import joined

    text = "連合学習と差分プライバシーの研究"
    assert joined(["ライ", "イバ", "シー", "バシ", "プラ"], text) == ("プライバシー",)
    chinese = "联邦学习中的差分隐私保护"
    assert joined(["隐私", "privacy", "分隐", "差分"], chinese) == ("差分隐私", "privacy")
    # Two words that overlap by a letter but never stand together in the text stay two.
    assert joined(["学习", "习惯"], "学习 and 习惯") == ("学习", "习惯")


def test_a_japanese_pick_is_explained_in_whole_words():
    from digest.models import Paper, Profile, Subscriber
    from digest.ranking import rank

    paper = Paper("j1", "差分プライバシーによる連合学習", "連合学習と差分プライバシーの研究。")
    other = Paper("j2", "銀河の形成", "銀河の形成と進化の研究。")
    reader = Subscriber("ja", Profile(interests="連合学習と差分プライバシー"), ())
    (pick, *_) = rank([paper, other], [reader], thresholds=False)["ja"]
    assert pick.paper.id == "j1" and "プライバシー" in pick.terms
    assert not [t for t in pick.terms if t in ("ライ", "イバ", "バシ")]


def test_a_compound_is_said_once_without_its_own_words():
    """ "why: llm-as-a-judge, a-judge, llm" and "out-of-distribution, distribution" had said a
    reader's compound two or three times (reg34 F4)."""
    from digest.ranking.explain import _words

    names = ["3d generation", "distribution", "federated learning", "llm", "llm-as-a-judge",
             "judge", "out-of-distribution", "text-to-3d", "text"]  # fmt: skip
    assert _words(names, [3, 4, 5])[0] == ["llm-as-a-judge"]
    assert _words(names, [4, 3])[0] == ["llm-as-a-judge"]
    assert _words(names, [2, 1, 6])[0] == ["federated learning", "out-of-distribution"]


def test_a_compound_and_the_phrase_that_goes_on_from_it_are_said_as_the_text_writes_them():
    from digest.ranking.explain import joined

    text = "EOOD: Entropy-based Out-of-Distribution Detection. We detect shifts."
    terms = ["out-of-distribution", "distribution detection", "shifts"]
    assert joined(terms, text) == ("out-of-distribution detection", "shifts")
    said = joined(["text-to-3d", "3d generation"], "Text\u2010to\u20103D Generation")
    assert said == ("text-to-3d generation",)
    apart = "text-to-3D models, and 3D generation"  # not one phrase in the text: both said
    assert joined(["text-to-3d", "3d generation"], apart) == ("text-to-3d", "3d generation")


def test_a_term_is_said_once_whichever_number_comes_first() -> None:
    """rank24 F2: the singular said first, its plural was said again ("scaling law, scaling
    laws", "movie, movies"): only the plural's numbers were looked up."""
    names = ["movie", "movies", "scaling law", "scaling laws", "x-ray", "x-rays"]
    chosen, _ = explanations._words(names, [0, 1, 2, 3, 4, 5])
    assert chosen == ["movie", "scaling law", "x-ray"]


def test_a_term_and_its_plural_the_background_holds_but_no_rule_gave_are_said_once() -> None:
    """reg45 F1: "epoch, epochs", "synthesis, syntheses", "flyby, flybys" had been said twice:
    the other number's candidates were none or unheld ("epoches")."""
    names = ["epoch", "epochs", "synthesis", "syntheses", "flyby", "flybys"]
    chosen, _ = explanations._words(names, [0, 1, 2, 3, 4, 5])
    assert chosen == ["epoch", "synthesis", "flyby"]
