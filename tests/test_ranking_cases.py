"""A word whose case is its meaning: a reader's "GaN" is gallium nitride, not GANs; "AdS" is
anti-de Sitter space, not advertising or autonomous-driving "ADS" (rank23 F2)."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.cases import cased_words, is_cased
from digest.ranking.features import fit
from digest.ranking.tokens import analyze


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("GaN HEMTs on SiC substrates", ["GaN", "SiC"]),
        ("protein pLMs", ["pLM"]),  # a plural's s is no part of the name
        ("PaLM, and palm oil", ["PaLM"]),
        # Mixed case that means nothing apart (papers of one field write it every way), and
        # names too rare in the corpus to tell: their small letters, as any word.
        ("LLaMA, AutoEncoder, DeepFake, kNN, LiDAR, LoRA, LoRa, AdS/CFT", []),
        ("GAN, GANs, Deep Learning, gan", []),  # capitals, Title Case, small letters
        ("at 5 GHz and 3 meV, 10 mW", []),  # a unit's own spelling is the unit's (units.py)
    ],
)
def test_a_word_whose_case_the_corpus_tells_apart_is_kept_in_its_case(text, words):
    assert cased_words(text) == words


def test_the_split_words_are_those_whose_spellings_papers_use_in_other_fields():
    """bench/cases.py's rule: GaN's papers are materials, GAN's vision; LLaMA's and Llama's are
    both language."""
    from bench.cases import split_words

    def paper(i: int, text: str, category: str) -> Paper:
        return Paper(f"x{i}", text, "An abstract.", categories=(category,))

    papers = [paper(i, "GaN diodes", "cond-mat.mtrl-sci") for i in range(4)]
    papers += [paper(10 + i, "A GAN for faces", "cs.CV") for i in range(4)]
    papers += [paper(20 + i, "LLaMA tuning", "cs.CL") for i in range(4)]
    papers += [paper(30 + i, "Llama tuning", "cs.CL") for i in range(4)]
    assert [w for w, *_ in split_words(papers)] == ["GaN"]


def test_the_analyzer_gives_a_mixed_case_word_beside_its_small_letters_in_no_phrase():
    assert analyze("GaN HEMTs") == ["gan", "hemts", "GaN", "gan hemts"]
    # Where the word in place is another ("mos2", "chip-seq"), nothing is added.
    assert "MoS" not in analyze("MoS$_2$ films") and "ChIP" not in analyze("ChIP-seq reads")


def test_a_mixed_case_word_is_a_column_only_where_a_reader_wrote_it():
    papers = ["GaN transistors for power", "GAN image synthesis", "ImageNet with GaN"]
    space, _ = fit(papers)
    assert not [t for t in space.names if is_cased(t)]  # the space is what it was
    space, _ = fit([*papers, "GaN power devices"], keep=["GaN power devices"])
    assert [t for t in space.names if is_cased(t)] == ["GaN"]
    assert not space.knows(["SiC substrates"])  # a store's space is refitted for a new one


NITRIDE = [
    Paper(f"n{i}", f"{title}", f"We grow GaN layers. {text}")
    for i, (title, text) in enumerate(
        [
            ("Vertical GaN power diodes", "Breakdown voltage of the diodes is high."),
            ("Strain in GaN superlattices", "X-ray diffraction maps the strain."),
            ("Contacts to p-type GaN", "A multilayer metal contact lowers resistance."),
        ]
    )
]
ADVERSARIAL = [
    Paper(f"g{i}", title, f"A GAN generates images. {text}")
    for i, (title, text) in enumerate(
        [
            ("GAN inversion for editing", "The GAN latent space edits faces."),
            ("Conditional GAN for sketches", "GAN training with a sketch prior."),
            ("GAN-based super-resolution", "A GAN upsamples photos."),
            ("Face aging with a GAN", "A GAN ages faces reliably."),
        ]
    )
]


def sub(name: str, **profile) -> Subscriber:
    return Subscriber(name, Profile(**profile), (), top_k=7, min_score=0.0)


def test_a_readers_gan_in_its_case_puts_the_nitride_papers_first_and_says_so():
    picks = rank(NITRIDE + ADVERSARIAL, [sub("chip", keywords=("GaN",))])["chip"]
    assert {p.paper.id for p in picks[:3]} == {"n0", "n1", "n2"}
    assert all(p.terms[0] == "GaN" for p in picks[:3])
    # A paper that writes it in another case still matches, below: the reader's word counts a
    # quarter there (a "LIDAR" paper for a "LiDAR" reader).
    assert {p.paper.id for p in picks[3:]} == {"g0", "g1", "g2", "g3"}
    assert all(0 < p.score < picks[2].score for p in picks[3:])


def test_a_reader_who_writes_the_word_in_capitals_or_both_cases_reads_every_paper_alike():
    for words in (("GAN",), ("GaN and GAN",)):
        picks = rank(NITRIDE + ADVERSARIAL, [sub("any", keywords=words)])["any"]
        assert len(picks) == 7
        if words == ("GAN",):  # no case asked: the GAN papers, which say it most, lead
            assert picks[0].paper.id.startswith("g")


def test_a_palm_reader_gets_the_language_model_papers_before_palm_trees():
    pool = [
        Paper("l1", "Scaling PaLM", "PaLM is a language model; we scale PaLM further."),
        Paper("l2", "PaLM for reasoning", "Prompting PaLM on reasoning benchmarks."),
        Paper("t1", "Palm oil plantations", "Palm trees and palm oil yield from satellites."),
        Paper("t2", "Palm vein recognition", "Biometric palm images; palm veins are matched."),
    ]
    picks = rank(pool, [sub("lm", keywords=("PaLM",))])["lm"]
    assert [p.paper.id for p in picks[:2]] in (["l1", "l2"], ["l2", "l1"])


def test_a_name_whose_case_means_nothing_finds_every_spelling_alike():
    """rank25 F4: a reader's "LLaMA" kept apart had got a quarter of the "Llama" papers' score."""
    pool = [
        Paper("a", "Tuning LLaMA", "We fine-tune LLaMA on instructions."),
        Paper("b", "Tuning Llama", "We fine-tune Llama on instructions."),
    ]
    picks = rank(pool, [sub("ml", keywords=("LLaMA",))])["ml"]
    assert picks[0].score == pytest.approx(picks[1].score)
