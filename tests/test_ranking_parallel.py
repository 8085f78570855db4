"""Tokenizing a large fit in two processes: each text's own words, the helper's half in this
process's word ids, and this process's work when the helper cannot run."""

from collections import Counter

from digest.ranking import parallel, tokens
from digest.ranking.parallel import tokenize_all
from digest.ranking.tokens import analyze, tokenize


def test_many_texts_tokenized_at_once_give_each_texts_own_words(monkeypatch):
    texts = [f"graph networks for molecules number {i}, then diffusion models" for i in range(30)]
    texts += ["differential privacy in federated learning"] * 5
    for parallel_from in (10**9, 10):  # one process, then two
        monkeypatch.setattr(parallel, "PARALLEL_MIN", parallel_from)
        words, ids, ends = tokenize_all(texts)
        start = 0
        for text, end in zip(texts, ends, strict=True):
            mine = [words[i] for i in ids[start:end] if i >= 0]
            mine = [w for w in mine if w not in tokens.PHRASE_ONLY]  # a word of phrases only
            assert Counter(mine) == Counter(w for w in analyze(text) if " " not in w)
            assert ids[end - 1] == -1  # no bigram spans two texts
            start = end
    assert tokenize([])[0] == []


def test_the_second_half_of_a_large_fit_is_tokenized_by_a_helper_process(monkeypatch):
    texts = [f"graph networks for molecules number {i}" for i in range(40)]
    here = []
    local = tokens.tokenize
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 10)
    monkeypatch.setattr(tokens, "tokenize", lambda part: here.append(len(part)) or local(part))
    words, ids, ends = tokenize_all(texts)
    assert here == [20]  # this process did only its half
    assert (words, ids.tolist(), ends.tolist()) == tuple(
        [local(texts)[0], local(texts)[1].tolist(), local(texts)[2].tolist()]
    )


def test_a_helper_that_cannot_start_or_dies_leaves_the_work_to_this_process(monkeypatch):
    texts = [f"diffusion models for proteins {i}, then graph networks" for i in range(40)]
    expected = [a.tolist() if hasattr(a, "tolist") else a for a in tokenize(texts)]
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 10)
    for broken in ("/nonexistent/python", "/bin/false"):
        monkeypatch.setattr(parallel.sys, "executable", broken)
        got = tokenize_all(texts)
        assert [a.tolist() if hasattr(a, "tolist") else a for a in got] == expected


def test_the_helper_tokenizes_with_the_stop_words_of_this_process(monkeypatch):
    texts = [f"the graph of all networks, number {i}" for i in range(40)]
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 10)
    monkeypatch.setattr(tokens, "STOP_WORDS", frozenset({"graph"}))  # as bench/variants.py does
    words, ids, ends = tokenize_all(texts)
    start = 0
    for end in ends:
        assert [words[i] for i in ids[start:end] if i >= 0] == [
            "the",
            "of",
            "all",
            "networks",
            "number",
        ]
        start = end
