"""Followed authors: a followed name matches a paper's author with middle initials added; never
the other way, an initial is no given name, and library authors stay exact."""

from __future__ import annotations

import dataclasses

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import profiles, rank
from digest.ranking.followed import Followed, spelled, umlauts, vancouver

TOPIC = (
    "Differential privacy for federated learning: clients clip their gradients and add Gaussian "
    "noise before secure aggregation; a moments accountant bounds the privacy loss."
)


@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Mary Ma", "Mary A. MA"),  # a middle initial added, the surname in capitals
        ("Mary Ma", "Ma, Mary A."),  # "Last, First"
        ("Ma, Mary", "MARY A. B. MA"),
        ("Mary Ma", "Mary Ma"),
        ("Maria Garcia Lopez", "Maria J. Garcia Lopez"),  # two-word surname
        ("Garcia Lopez, Maria", "Maria J. Garcia Lopez"),
        ("Ludwig van Beethoven", "Ludwig J. van Beethoven"),  # a particle
        ("J. Doe", "J. R. Doe"),  # an initial meets itself, a middle one added
        ("J. A. Doe", "J. A. Doe"),
        ("Eva Tardos", "Éva É. TARDOS"),  # accents and case
        ("Łukasz Kaiser", "Lukasz M. Kaiser"),
        ("Roberto Cesar Jr.", "Roberto M. Cesar Jr."),
        ("Cesar, Jr., Roberto", "Roberto M. Cesar Jr."),
        ("Ana J. Doe", "Ana Q. J. Doe"),  # the "Q." a middle initial before the reader's "J."
        # Initials run together, PubMed style, are initials on either side (rank25 L3).
        ("JA Doe", "J. A. Doe"),
        ("Doe, JA", "J. A. Doe"),
        ("Jane Doe", "Jane AB Doe"),
        ("Jane B. Doe", "Jane AB Doe"),
        ("JP Dupont", "J.-P. Dupont"),
        ("Robert Webster III", "Robert J. Webster III"),  # a numeral is no initials
        ("XU Wei", "XU Wei"),  # as written, too
        ("Xu Wei", "XU Wei"),
        ("Wei Xu", "Wei XU"),
    ],
)
def test_a_followed_name_matches_with_middle_initials_added(followed: str, written: str) -> None:
    assert Followed([followed]).follows(written)


@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Jane Doe", "J. Doe"),  # one way: feeds abbreviate, every J. Doe would be an alert
        # An initial is no given name: "Y. Li" had followed 509 papers of a 20,000 pool, every
        # Yi, Yang and Yu Li (rank25 F3).
        ("Y. Li", "Yang Li"),
        ("J. Doe", "Jane Doe"),
        ("J. A. Doe", "Jane Alice Doe"),
        ("Ana J. Doe", "Ana J. Julia Doe"),
        ("Mary Ma", "M. A. Ma"),
        ("Mary Ma", "Mary Ann Ma"),  # a middle name is no initial
        ("Mary Ma", "Maryam Ma"),
        ("Mary Ma", "Mary Mao"),
        ("Mary Ma", "A. Mary Ma"),  # a first initial is no middle one
        ("J. Doe", "A. J. Doe"),
        ("Jean Dupont", "Jean-Pierre Dupont"),
        ("J. Dupont", "Jean-Pierre Dupont"),
        ("Maria Garcia Lopez", "Maria Lopez"),
        ("Maria Garcia Lopez", "Maria G. Lopez"),
        ("Maria Garcia Lopez", "Maria Garcia"),
        ("Ludwig van Beethoven", "Ludwig Beethoven"),
        ("Mary A. Ma", "Mary Ma"),  # what the reader said is said by the paper
        ("Mary A. Ma", "Mary B. Ma"),
        ("Roberto Cesar", "Roberto M. Cesar Jr."),
        ("Doe", "J. Doe"),  # a surname alone matches only itself
        ("JA Doe", "Jane A. Doe"),  # initials run together are initials, no given name
        ("Jane Doe", "JA Doe"),
        ("JA Doe", "AJ Doe"),
        ("Mary Ma", "MARY AB MA"),  # a name in capitals tells no initials from names
        # A paper's first word in capitals may be its surname (reg48 F1): "XU Han" is no "X. Han".
        ("X. Han", "XU Han"),
        ("L. Miao", "LI Miao"),
        ("J. Doe", "JA Doe"),
        ("J. A. Doe", "JA Doe"),
    ],
)
def test_a_followed_name_refuses_what_it_does_not_say(followed: str, written: str) -> None:
    assert not Followed([followed]).follows(written)


def test_the_spelled_apart_name_leaves_the_surname_and_numerals() -> None:
    assert spelled("JA Doe") == "J A Doe" and spelled("Doe, JA") == "Doe, J A"
    assert spelled("Jane AB Doe") == "Jane A B Doe"
    assert (
        spelled("Bo XU") == "Bo XU" and spelled("Robert J. Webster III") == "Robert J. Webster III"
    )
    assert spelled("JANE AB DOE") == "JANE AB DOE"


def test_a_paper_name_of_run_together_initials_names_the_followed_key_once() -> None:
    followed = Followed(["J. A. Doe", "JA Doe", "Jane Doe"])
    assert followed.of("JA Doe") == (
        "ja doe",
    )  # as written: the paper's first word may be a surname
    assert followed.of("Jane AB Doe") == ("jane doe",)


def test_each_followed_key_a_name_is_and_a_name_of_one_word() -> None:
    followed = Followed(["J. Doe", "Jane Doe", "Doe", "Ma, Mary"])
    assert followed.of("Jane Q. Doe") == ("jane doe",)
    assert followed.of("J. Q. Doe") == ("j doe",)
    assert followed.of("Doe") == ("doe",)
    assert followed.of("Mary A. MA") == ("mary ma",)
    assert followed.of("John Smith") == ()
    assert not Followed([]) and not Followed([]).follows("Mary Ma")


def reader(name: str = "ana", **profile: object) -> Subscriber:
    return Subscriber(name, Profile(interests=TOPIC, **profile), (), top_k=10)  # type: ignore[arg-type]


def pool(*authors: tuple[str, ...]) -> list[Paper]:
    return [
        Paper(id=f"p{i}", title=f"Private learning {i}", abstract=f"{TOPIC} Variant {i}.",
              authors=names)
        for i, names in enumerate(authors)
    ]  # fmt: skip


def test_the_digest_says_whom_you_follow_for_a_middle_initial_and_lifts_it() -> None:
    papers = pool(("Jane Roe", "Mary A. MA"), ("Jane Roe",), ("Mary Ann Ma",))
    plain = {s.paper.id: s for s in rank(papers, [reader()], thresholds=False)["ana"]}
    picks = rank(papers, [reader(authors=("Mary Ma",))], thresholds=False)["ana"]
    followed = {s.paper.id: s for s in picks}
    assert followed["p0"].because.startswith("by Mary A. MA, whom you follow")
    assert followed["p0"].score == pytest.approx(plain["p0"].score + profiles.AUTHOR_BOOST)
    for other in ("p1", "p2"):  # "Mary Ann Ma" is another person
        assert "whom you follow" not in followed[other].because
        assert followed[other].score == pytest.approx(plain[other].score)
    assert picks[0].paper.id == "p0"


def test_two_spellings_of_one_followed_author_lift_a_paper_once() -> None:
    papers = pool(("Jane A. Doe",), ("Jane Roe",))
    plain = {s.paper.id: s.score for s in rank(papers, [reader()], thresholds=False)["ana"]}
    both = reader(authors=("Jane Doe", "Jane A. Doe"))
    (doe,) = [s for s in rank(papers, [both], thresholds=False)["ana"] if s.paper.id == "p0"]
    assert doe.score == pytest.approx(plain["p0"] + profiles.AUTHOR_BOOST)
    assert doe.because.startswith("by Jane A. Doe, whom you follow")


def test_library_authors_stay_exact_and_apart_from_another_readers_follows() -> None:
    liked = pool(("Mary Ma", "Wei Li"), ("Mary Ma",))
    papers = pool(("Mary A. Ma",), ("Mary Ma",))
    readers = [reader("ana", library=tuple(liked)), reader("bo", authors=("Mary Ma",))]
    columns = profiles.authors(papers, readers, [liked, []])
    lifted = (columns.weights @ columns.written.T).toarray()
    # Ana liked Mary Ma's papers: the same name lifts hers, "Mary A. Ma" is no library author.
    assert lifted[0, 0] == 0.0 and lifted[0, 1] == pytest.approx(profiles.LIBRARY_AUTHOR_BOOST)
    # Bo follows Mary Ma: both are hers, at the boost alone (not Ana's library weight too).
    assert lifted[1].tolist() == pytest.approx([profiles.AUTHOR_BOOST] * 2)
    assert columns.by_key[1] == {"mary ma": profiles.AUTHOR_BOOST}
    # The papers' columns are the same whichever papers are asked about (product.right_of).
    again = profiles.authors(papers[1:], readers, [liked, []])
    assert again.written.toarray().tolist() == columns.written[1:].toarray().tolist()


def test_a_pool_of_many_names_finds_each_followed_one() -> None:
    names = [f"Author{i} {chr(65 + i % 26)}. Name{i % 5000}" for i in range(200_000)]
    papers = [dataclasses.replace(p, authors=tuple(names[i::5000])) for i, p in enumerate(
        pool(*[()] * 5000))]  # fmt: skip
    readers = [reader(f"r{i}", authors=(f"Author{i} Name{i}", "Mary Ma")) for i in range(50)]
    columns = profiles.authors(papers, readers, [[] for _ in readers])
    assert columns.written.nnz == 50  # Author{i} X. Name{i}, for i < 50


def test_a_reader_following_run_together_initials_is_told_of_the_paper() -> None:
    papers = pool(("Jane Roe",), ("J. A. Doe",))
    plain = {s.paper.id: s.score for s in rank(papers, [reader()], thresholds=False)["ana"]}
    picks = rank(papers, [reader(authors=("JA Doe",))], thresholds=False)["ana"]
    assert picks[0].paper.id == "p1"
    assert picks[0].score == pytest.approx(plain["p1"] + profiles.AUTHOR_BOOST)
    assert picks[0].because.startswith("by J. A. Doe, whom you follow")


# "Surname Initials", as PubMed and Vancouver-style CVs write co-authors, had been read with the
# surname "JA", "I" and followed nobody (rank27 F2): it reads as "Surname, Initials" does.
@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Smith JA", "J. A. Smith"),
        ("Smith JA", "J. A. B. Smith"),  # a middle initial added
        ("Jiménez-Serra I", "I. Jiménez-Serra"),
        ("Rubiño-Martín JA", "J. A. Rubiño-Martín"),
        ("Rubiño-Martín JA", "J.A. Rubino-Martin"),
        ("van der Berg JH", "J. H. van der Berg"),
        ("Smith J", "J. R. Smith"),
        ("Kóspál Á", "Á. Kóspál"),  # an accented initial
        ("Cesar RM Jr", "R. M. Cesar Jr."),
        ("Webster RJ III", "R. J. Webster III"),
        ("Devaprabha A R", "A. R. Devaprabha"),  # initials apart
        ("Merritt JD", "JD Merritt"),  # a paper's run-together initials
        ("Dong LI", "LI Dong"),  # whose first word in capitals is a surname
        ("Wei XU", "Wei Xu"),  # still as written: capitals may be a surname
        ("Smith JA", "Smith JA"),
    ],
)
def test_a_followed_name_of_surname_and_initials_reads_as_one(followed: str, written: str) -> None:
    assert Followed([followed]).follows(written)


@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Smith JA", "Jane A. Smith"),  # initials are no given name, as "Smith, JA"'s are not
        ("Smith JA", "J. Smith"),
        ("Smith JA", "A. J. Smith"),
        ("Smith J", "A. J. Smith"),
        ("Smith JA", "Ja Smith"),  # initials together meet a paper's capitals alone
        ("Merritt JD", "Jd Merritt"),
        ("Dong LI", "Li Dong"),  # a given name Li, surname Dong: another person
        ("Robert Webster III", "I. Robert Webster"),  # a numeral is no initial
        ("Li Wei", "W. Li"),
        ("Wei XU", "W. Xu"),
    ],
)
def test_a_followed_name_of_surname_and_initials_refuses_others(
    followed: str, written: str
) -> None:
    assert not Followed([followed]).follows(written)


# Capitals after a name are read both ways: as the surname ("Wei XU" is Wei Xu) and as initials,
# as PubMed writes "Ali MA" (M. A. Ali), which a check for Pinyin syllables had lost (reg51 F5).
@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Wei XU", "Wei Xu"),
        ("Wei XU", "XU Wei"),
        ("Chen MA", "Chen Ma"),
        ("Jiaxin GUO", "Jiaxin Guo"),
        ("Xiao-Ming LI", "Xiao-Ming Li"),
        ("Smith MA", "M. A. Smith"),
        ("Lee MA", "M. A. Lee"),
        ("Kim SJ", "S. J. Kim"),
        ("Ali MA", "M. A. Ali"),
        ("Amin MA", "M. A. Amin"),
        ("Wei SJ", "S. J. Wei"),
        ("Zihan A", "A. Zihan"),
        ("Medina GE", "G. E. Medina"),
    ],
)
def test_capitals_after_a_name_are_its_surname_and_its_initials(
    followed: str, written: str
) -> None:
    assert Followed([followed]).follows(written)


def test_a_name_is_read_as_surname_and_initials_only_when_written_so() -> None:
    assert (
        vancouver("Smith JA") == "Smith, JA" and vancouver("van der Berg JH") == "van der Berg, JH"
    )
    assert vancouver("Cesar RM Jr") == "Cesar Jr, RM" and vancouver("Smith IVA") == "Smith, IVA"
    for other in ("Robert Webster III", "J. Smith", "Smith J.", "Smith, JA", "MARY MA", "Li Wei",
                  "Smith", "XU LI", "JA Smith"):  # fmt: skip
        assert vancouver(other) is None, other


def test_a_followed_key_is_the_name_as_written_whatever_reading_meets() -> None:
    followed = Followed(["Smith JA", "Jiménez-Serra I"])
    assert followed.keys == ["jimenez serra i", "smith ja"]
    assert followed.of("J. A. Smith") == ("smith ja",)
    assert followed.of("I. Jiménez-Serra") == ("jimenez serra i",)
    assert followed.of("John Smith") == ()


# German names in transliteration ("Moeller", "Mueller") had not met "Möller", "Müller", nor the
# reverse (rank27 L2). Only ä, ö, ü are spelled out: "Joel", "Poe" meet no "Jöl", "Pö" reading.
@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Thomas Moeller", "Thomas Möller"),
        ("Thomas Möller", "Thomas Moeller"),
        ("Jörg Müller", "Joerg Mueller"),
        ("Joerg Mueller", "Jörg Müller"),
        ("Jorg Mueller", "Jörg Müller"),  # one word spelled out, the other not
        ("Joerg Muller", "Jörg Müller"),
        ("Müller, Jörg", "JOERG MUELLER"),
        ("Baer", "Bär"),
        ("Bär", "Baer"),
        ("Boehm", "Böhm"),
        ("Hans Uebel", "Hans Übel"),  # a capital
        ("Hans Mueller", "Hans Mu\u0308ller"),  # the umlaut a combining mark
        ("Moeller T", "T. Möller"),
        ("Möller T", "T. Moeller"),
        ("Thomas Möller", "Thomas Moller"),  # accents aside, as before
    ],
)
def test_a_followed_german_name_meets_its_transliteration(followed: str, written: str) -> None:
    assert Followed([followed]).follows(written)


@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Joel Smith", "Jol Smith"),
        ("Noel Doe", "Nol Doe"),
        ("Raoul Doe", "Raul Doe"),
        ("Samuel Doe", "Samul Doe"),
        ("Poe", "Po"),
        ("Mueller", "Muller"),  # in ASCII two names: only an umlaut is spelled out
        ("Thomas Moeller", "Thomas Moller"),
        ("Jorg Muller", "Joerg Mueller"),
        ("Thomas Moeller", "Thomas Möllner"),
    ],
)
def test_a_transliteration_is_spelled_from_an_umlaut_only(followed: str, written: str) -> None:
    assert not Followed([followed]).follows(written)


# A paper's "Jöl" had been spelled "Joel", so a followed "Joel" followed it (reg51 F6): a name's
# closing "-ael", "-oel" is two syllables (Michael, Joel, Goel), never "-äl", "-öl". Turkish
# "-gül" names are written "-guel" too.
@pytest.mark.parametrize(
    ("followed", "written"),
    [
        ("Joel Moore", "Jöl Moore"),
        ("Jöl Moore", "Joel Moore"),
        ("Michael Doe", "Michäl Doe"),
        ("Noel Doe", "NÖL DOE"),
        ("Goel", "Göl"),
        ("Joel Moeller", "Jöl Möller"),
    ],
)
def test_a_closing_ael_or_oel_is_no_umlaut(followed: str, written: str) -> None:
    assert not Followed([followed]).follows(written)


def test_an_umlaut_before_a_closing_l_is_spelled_out_elsewhere() -> None:
    assert umlauts("Jöl Möller") == ["Jöl Moeller"] and umlauts("Jöl") == []
    assert Followed(["Ayseguel Tuemer"]).follows("Aysegül Tümer")
    assert Followed(["Jöl Moeller"]).follows("Jöl Möller")
    assert Followed(["Thomas Moeller"]).follows("Thomas Möller")  # "ö" before "ll"


def test_the_umlaut_spellings_are_word_by_word() -> None:
    assert sorted(umlauts("Jörg Müller")) == ["Joerg Mueller", "Joerg Müller", "Jörg Mueller"]
    assert umlauts("Jorg Muller") == [] and umlauts("Noël Łukasz") == []


def test_a_reader_following_a_cv_name_and_a_transliteration_is_told_of_both() -> None:
    papers = pool(("Jane Roe",), ("I. Jiménez-Serra",), ("Thomas Möller",), ("Ines Jiménez",))
    plain = {s.paper.id: s.score for s in rank(papers, [reader()], thresholds=False)["ana"]}
    mine = reader(authors=("Jiménez-Serra I", "Thomas Moeller"))
    picks = {s.paper.id: s for s in rank(papers, [mine], thresholds=False)["ana"]}
    assert picks["p1"].because.startswith("by I. Jiménez-Serra, whom you follow")
    assert picks["p2"].because.startswith("by Thomas Möller, whom you follow")
    for lifted in ("p1", "p2"):
        assert picks[lifted].score == pytest.approx(plain[lifted] + profiles.AUTHOR_BOOST)
    for other in ("p0", "p3"):
        assert picks[other].score == pytest.approx(plain[other])
