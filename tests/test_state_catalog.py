"""The state database's paper catalogue: one row per paper whatever key it arrives under
(a new arXiv version, the OpenReview record of an arXiv preprint), completed by what each
record adds; keys for papers stored before keys were kept; the cache of liked papers."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from digest.models import Digest, Message, Paper, Scored, identity
from digest.models.identity import loose_title_hash, squeezed_title_hash, title_hash
from digest.state import Store
from digest.state.schema import SCHEMA

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
TITLE = "Tight Bounds for Private Federated Learning"
PREPRINT = Paper(
    "2501.01234",
    TITLE,
    "We prove tight bounds.",
    authors=("Ada Lovelace",),
    url="https://arxiv.org/abs/2501.01234",
    source="arxiv",
    categories=("cs.LG",),
)
FORUM = Paper(
    "openreview:F1",
    "Tight bounds for private federated learning",
    "We prove tight bounds (camera ready).",
    venue="NeurIPS 2025 oral",
    url="https://openreview.net/forum?id=F1",
    code_url="https://github.com/acme/tight",
    source="openreview",
    categories=("privacy",),
)


def test_a_new_version_of_a_paper_is_the_same_paper(state: str) -> None:
    with Store(state) as store:
        assert store.add_papers([PREPRINT], NOW) == 1
        v2 = Paper("2501.01234", TITLE + ": revised", "Revised abstract.", source="arxiv")
        assert store.add_papers([v2], NOW) == 0
        ((_, paper),) = store.papers_after(0)
        assert paper.abstract == "We prove tight bounds."  # the first record's text stays


def test_an_openreview_record_of_an_arxiv_preprint_completes_it(state: str) -> None:
    with Store(state) as store:
        store.add_papers([PREPRINT], NOW)
        assert store.add_papers([FORUM], NOW) == 0
        ((_, paper),) = store.papers_after(0)
        assert paper.id == "2501.01234"
        assert paper.venue == "NeurIPS 2025 oral"
        assert paper.code_url == "https://github.com/acme/tight"
        assert paper.categories == ("cs.LG", "privacy")
        assert store.papers.keys_of("2501.01234") == [
            "arxiv:2501.01234",
            title_hash(TITLE),
            squeezed_title_hash(TITLE),
            loose_title_hash(TITLE),
            "openreview:F1",
        ]


def test_the_arxiv_id_of_an_openreview_paper_is_learned_the_other_way_round(
    state: str,
) -> None:
    with Store(state) as store:
        store.add_papers([FORUM], NOW)
        assert store.add_papers([PREPRINT], NOW) == 0
        paper = store.papers.paper("openreview:F1")
        assert paper is not None and paper.aliases == ("2501.01234",)
        # Later, the arXiv id alone is enough to recognize it.
        v3 = Paper("2501.01234", "A retitled version", "x", source="rss:cs.LG")
        assert store.add_papers([v3], NOW) == 0 and store.count_papers() == 1


def test_two_papers_that_share_a_title_stay_two(state: str) -> None:
    other = Paper("2502.00002", TITLE, "A different paper with the same title.")
    with Store(state) as store:
        assert store.add_papers([PREPRINT, other], NOW) == 2


def test_an_id_at_the_bound_that_does_not_compress_is_stored_in_either_state(state: str) -> None:
    """PostgreSQL's index entries hold 2,704 bytes: the id, its keys and the intake's bound."""
    import secrets

    from digest.sources.common import LONGEST_ID, clean

    signed = "https://cdn.example.org/p.pdf?Policy=" + secrets.token_urlsafe(2_200)
    at_bound = signed[:LONGEST_ID]
    chinese = "".join(chr(0x4E00 + secrets.randbelow(20_000)) for _ in range(1_900))  # no zip
    papers = [
        clean(Paper(signed, "A paper behind a signed link", "We sign links.")),
        clean(
            Paper(
                at_bound,
                "Another paper",
                "We sign more links.",
                aliases=("guid:" + signed[: LONGEST_ID - 5],),
            )
        ),
        clean(Paper("doi:10.1/" + at_bound[9:], "A third paper", "We sign DOIs.")),
        clean(Paper("x", "A fourth paper", "Its link.", url="https://doi.org/10.1234/" + chinese)),
    ]
    with Store(state) as store:
        assert store.add_papers(papers, NOW) == 4
        assert store.add_papers(papers, NOW) == 0


WEEKLY = "This week in quantum materials"


def post(n: int, text: str = "", guid: str = "") -> Paper:
    """A blog's weekly post: one title every week, an id and a text of its own."""
    guid = guid or f"guid:https://blog.example.org/?p=10000{n}"
    return Paper(identity.title_hash(WEEKLY) or "", WEEKLY, text or f"Week {n}: spin liquids.",
                 aliases=(guid,), source="blog")  # fmt: skip


def test_a_feeds_posts_under_one_title_with_ids_and_texts_of_their_own_are_each_a_paper(
    state: str,
) -> None:
    """Every post after the first had been "seen before", lost: the item's own id was only
    ever a reason to merge, never to keep apart."""
    with Store(state) as store:
        assert store.add_papers([post(1)], NOW) == 1
        assert store.add_papers([post(1), post(2), post(3)], NOW) == 2
        assert store.add_papers([post(3), post(2), post(1)], NOW) == 0
        assert len(store.papers_after(0)) == 3
        # Another feed's item of the same title: items of two feeds say nothing of each other.
        other = post(9, guid="guid:https://mirror.example.net/item/99999")
        assert store.add_papers([other], NOW) == 0
        # A post of a title of its own, its id moved to https: one paper still.
        once = dataclasses.replace(post(4), id=identity.title_hash("Spin liquids, week 4") or "",
                                   title="Spin liquids, week 4")  # fmt: skip
        moved = dataclasses.replace(once, aliases=("guid:http://blog.example.org/?p=100004",))
        assert store.add_papers([once], NOW) == 1 and store.add_papers([moved], NOW) == 0


def test_a_first_read_of_a_series_keeps_every_post(state: str) -> None:
    """On a fresh state, the second post had merged into the first, read in the same batch."""
    with Store(state) as store:
        assert store.add_papers([post(1), post(2), post(3)], NOW) == 3
        assert store.add_papers([post(3), post(2), post(1)], NOW) == 0
        assert sorted(p.abstract for _, p in store.papers_after(0)) == [
            f"Week {n}: spin liquids." for n in (1, 2, 3)
        ]


def test_a_preview_knows_a_new_post_of_a_series_as_new(state: str) -> None:
    """canonical() (a preview) had called the week's new post the first one: "nothing new"."""
    with Store(state) as store:
        store.add_papers([post(1)], NOW)
        (first,) = [p.id for _, p in store.papers_after(0)]
        again, new = store.papers.canonical([post(1), post(2)])
        assert (
            again.id == first and new.id not in (first, "") and store.papers.paper(new.id) is None
        )


BLURB = " ".join(["Nature Communications is an open access journal that publishes research"] * 5)


def test_one_feeds_boilerplate_under_titles_of_one_opening_is_no_copy(state: str) -> None:
    """ "The role of the ..." and the journal's blurb: two of four papers had been merged into
    the first of their pair, never sent."""
    titles = [
        "The role of the gut microbiome in Parkinson's disease",
        "The role of the hippocampus in spatial memory consolidation",
        "A single-cell atlas of the developing human heart",
        "A single-cell atlas of the adult mouse kidney",
    ]
    items = [Paper(identity.title_hash(t) or "", t, BLURB) for t in titles]
    with Store(state) as store:
        assert store.add_papers(items, NOW) == 4


def test_one_feeds_blurb_under_titles_differing_in_one_word_is_no_copy(state: str) -> None:
    """ "… in Parkinson's disease" and "… in Alzheimer's disease" shared 3 of 4 long words: the
    second was never sent. The journal version of the first, its title grown, is the paper."""
    gut = "The role of the gut microbiome in"
    titles = [f"{gut} Parkinson's disease", f"{gut} Alzheimer's disease"]
    items = [Paper(identity.title_hash(t) or "", t, BLURB) for t in titles]
    grown = Paper("10.1/gut.1", f"{titles[0]}: a cohort study", BLURB)
    with Store(state) as store:
        assert store.add_papers(items[:1], NOW) == 1
        assert [p.id for p in store.papers.canonical(items)] == [p.id for p in items]
        assert store.add_papers(items, NOW) == 1
        assert [p.id for p in store.papers.canonical([grown])] == [items[0].id]
        assert store.add_papers([grown], NOW) == 0


def test_a_journal_version_with_its_authors_in_ascii_is_the_preprint(state: str) -> None:
    """ "Paweł Głowacki, Michał Kałuża" on arXiv, "Pawel Glowacki, Michal Kaluza" in the journal's
    feed, one title: "two groups'", and the journal version sent again."""
    title = "Machine learning for quantum materials"
    names = ("Paweł Głowacki", "Michał Kałuża", "Søren Løkke")
    preprint = Paper("2601.01234", title, "Crystals.", authors=names)
    journal = Paper(
        "10.5555/j.1", title, "Crystals, revised.", authors=("P. Glowacki", "M. Kaluza", "S. Lokke")
    )
    other = Paper("10.5555/j.2", title, "Spin glasses.", authors=("Zoe Journalova", "Kenji Sato"))
    with Store(state) as store:
        assert store.add_papers([preprint], NOW) == 1
        assert [p.id for p in store.papers.canonical([journal])] == [preprint.id]
        assert store.add_papers([journal], NOW) == 0
        assert store.add_papers([other], NOW) == 1


def test_a_journal_copy_with_its_label_and_copyright_is_the_preprint(state: str) -> None:
    from test_sources_identity import MERGER

    preprint = Paper("2601.01234", "Graph neural networks predict molecular properties", MERGER)
    text = f"Abstract: {MERGER} © 2026 Elsevier B.V. All rights reserved."
    journal = Paper("10.1/jcp.43", f"{preprint.title} with chemical accuracy", text)
    with Store(state) as store:
        assert store.add_papers([preprint], NOW) == 1
        assert [p.id for p in store.papers.canonical([journal])] == [preprint.id]
        assert store.add_papers([journal], NOW) == 0


def test_two_groups_papers_of_one_generic_title_stay_two(state: str) -> None:
    """An arXiv paper and a journal's paper of one title, two groups' (no author in common):
    the second was silently seen before. A preprint and its journal version share authors."""
    title = "Machine learning for quantum materials"
    ours = Paper(
        "2603.01234", title, "Transformers benchmark.", authors=("Alice Arxivson", "Bo Chen")
    )
    theirs = Paper(
        "10.5555/arcm.42", title, "Graph networks.", authors=("Zoe Journalova", "Kenji Sato")
    )
    journal = Paper(
        "10.5555/arcm.43", title, "Transformers, benchmarked.", authors=("B. Chen", "A. Arxivson")
    )
    with Store(state) as store:
        assert store.add_papers([ours, theirs], NOW) == 2
        assert store.add_papers([journal], NOW) == 0  # ours, published
    with Store(state) as store:
        again = title + " again"  # two feeds' items known by their title alone
        two = [
            Paper(identity.title_hash(again) or "", again, f"Text {n}.", authors=names)
            for n, names in enumerate((ours.authors, theirs.authors))
        ]
        assert store.add_papers(two, NOW) == 2
        assert store.add_papers(two, NOW) == 0


def test_the_second_groups_later_records_find_its_paper_not_the_first_groups(
    state: str,
) -> None:
    """The title leads to group A's paper; group B's journal version, by B's names, to B's
    preprint: it had been a third paper, sent again (and the preview agrees)."""
    title = "Machine learning for quantum materials"
    theirs = Paper("10.5555/a.1", title, "Crystals.", authors=("Zoe Journalova", "Kenji Sato"))
    ours = Paper("2601.09999", title, "Transformers.", authors=("Alice Arxivson", "Bo Chen"))
    journal = Paper("10.5555/b.2", title, "Revised.", authors=("B. Chen", "A. Arxivson"))
    third = Paper("10.5555/c.3", title, "Spin glasses.", authors=("Yuki Tanaka", "Ole Berg"))
    with Store(state) as store:
        assert store.add_papers([theirs], NOW) == 1
        assert store.add_papers([ours], NOW) == 1
        assert [p.id for p in store.papers.canonical([journal, third])] == [ours.id, third.id]
        assert store.add_papers([journal], NOW) == 0
        assert store.add_papers([third], NOW) == 1  # a third group's: no name of B's
        assert "10.5555/b.2" in (store.papers.paper(ours.id) or ours).aliases
        assert store.add_papers([journal, third], NOW) == 0
    with Store(state) as store:  # in one batch
        retitled = [dataclasses.replace(p, title=f"Deep {title}") for p in (theirs, ours, journal)]
        retitled = [dataclasses.replace(p, id=f"{p.id}9") for p in retitled]
        assert store.add_papers(retitled, NOW) == 2


def test_a_venues_copy_with_the_whole_abstract_is_not_new_the_next_day(state: str) -> None:
    from test_sources_identity import MERGER

    title = "The chemodynamical memory of a major merger in a NIHAO-UHD Milky Way analogue II"
    preprint = Paper("2510.20233", f"{title}: Were Splash stars heated or born hot?", MERGER)
    copy = Paper("10.1093/mnrasl/slaf123", f"{title} (extended abstract)", MERGER)
    with Store(state) as store:
        assert store.add_papers([preprint], NOW) == 1
    with Store(state) as store:
        assert store.add_papers([copy], NOW) == 0


def test_a_journal_version_whose_title_grew_is_the_preprint_by_its_whole_text(
    state: str,
) -> None:
    from test_sources_identity import MERGER

    preprint = Paper("2601.01234", "Graph neural networks predict molecular properties", MERGER)
    journal = Paper("10.1/jcp.42", preprint.title + " with chemical accuracy", MERGER)
    with Store(state) as store:
        assert store.add_papers([preprint], NOW) == 1
        assert store.add_papers([journal], NOW) == 0


def test_duplicates_within_one_batch_are_one_paper(state: str) -> None:
    crosslisted = Paper("2501.01234", TITLE, "We prove tight bounds.", categories=("cs.CR",))
    with Store(state) as store:
        assert store.add_papers([PREPRINT, FORUM, crosslisted], NOW) == 1
        ((_, paper),) = store.papers_after(0)
        assert paper.categories == ("cs.LG", "privacy", "cs.CR")


def test_a_paper_sent_under_one_key_is_not_sent_under_another(state: str) -> None:
    with Store(state) as store:
        store.add_papers([PREPRINT], NOW)
        digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(PREPRINT, 0.5),), NOW)
        store.record_digest(digest, store.latest_seq(), [("file", "file", Message("s", "t", "h"))])
        store.add_papers([FORUM], NOW)
        (known,) = store.papers.canonical([FORUM])
        assert known.id == "2501.01234"
        assert store.sent_ids("ana", [known.id]) == {"2501.01234"}


JOURNAL = Paper(
    "10.1103/PhysRevLett.137.230601", "Dissipative time crystal in a Rydberg gas", "We observe."
)
V2 = Paper("2609.01234", "A time crystal in a driven Rydberg gas", "We observe it.",
           aliases=("10.1103/physrevlett.137.230601",))  # fmt: skip


def test_a_journal_copy_read_before_the_arxiv_record_naming_its_doi_is_folded_into_it(
    state: str,
) -> None:
    """The journal's feed was read first (its own title, a DOI), then the arXiv v2 that names
    that DOI: two papers of one, and the reader got the paper a second time."""
    v1 = Paper("2609.01234", "A time crystal in a driven Rydberg gas", "We observe it.")
    with Store(state) as store:
        store.add_papers([v1], NOW)
        digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(v1, 0.5),), NOW)
        store.record_digest(digest, store.latest_seq(), [("file", "file", Message("s", "t", "h"))])
        assert store.add_papers([JOURNAL], NOW) == 1  # nothing says yet that it is v1's paper
        assert store.add_papers([V2], NOW) == 0
        ((_, paper),) = store.papers_after(0)
        assert paper.id == "2609.01234"
        (known,) = store.papers.canonical([JOURNAL])
        assert known.id == "2609.01234"


def test_in_one_batch_the_copy_is_not_counted_new(state: str) -> None:
    v1 = Paper("2609.01234", "A time crystal in a driven Rydberg gas", "We observe it.")
    with Store(state) as store:
        store.add_papers([v1], NOW)
        assert store.add_papers([JOURNAL, V2], NOW) == 0
        assert len(store.papers_after(0)) == 1


def test_a_copy_a_reader_got_already_is_never_taken_back(state: str) -> None:
    v1 = Paper("2609.01234", "A time crystal in a driven Rydberg gas", "We observe it.")
    with Store(state) as store:
        store.add_papers([v1, JOURNAL], NOW)
        digest = Digest("ana", "P1", date(2026, 11, 30), (Scored(JOURNAL, 0.5),), NOW)
        store.record_digest(digest, store.latest_seq(), [("file", "file", Message("s", "t", "h"))])
        store.add_papers([V2], NOW)
        assert len(store.papers_after(0)) == 2  # ana's copy stays, and so does its record


def test_an_alert_of_the_copy_moves_to_the_paper_it_is_folded_into(state: str) -> None:
    """The journal copy was alerted, then the arXiv record naming its DOI folded it away: the
    alert named a paper no longer there, and the next digest gave the paper again."""
    v1 = Paper("2609.01234", "A time crystal in a driven Rydberg gas", "We observe it.")
    with Store(state) as store:
        store.add_papers([v1, JOURNAL], NOW)
        for reader in ("ana", "ben"):
            store.journal.record_alert(reader, JOURNAL.id, date(2026, 11, 30), 0.9, [], NOW, [])
        store.journal.record_alert("ben", v1.id, date(2026, 11, 30), 0.8, [], NOW, [])
        store.add_papers([V2], NOW)
        assert [p.id for _, p in store.papers_after(0)] == ["2609.01234"]
        for reader in ("ana", "ben"):  # ben had both: one alert stays
            assert store.journal.alerted_ids(reader, [v1.id, JOURNAL.id]) == {v1.id}


def test_papers_kept_before_keys_existed_get_theirs_on_opening(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA[0] + "PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO papers (id, title, abstract, authors, categories, venue, url, code_url,"
        " published, source, first_seen) VALUES (?,?,?,'[]','[]','','','',NULL,'files',?)",
        ("2501.01234", TITLE, "Old abstract.", "2026-11-01T00:00:00Z"),
    )
    db.commit()
    db.close()
    with Store(path) as store:
        titled = [title_hash(TITLE), squeezed_title_hash(TITLE), loose_title_hash(TITLE)]
        assert store.papers.keys_of("2501.01234") == ["arxiv:2501.01234", *titled]
        assert store.add_papers([FORUM], NOW) == 0
        assert store.count_papers() == 1


def test_a_title_stored_before_math_read_otherwise_finds_its_paper_after_the_upgrade(
    tmp_path: Path,
) -> None:
    # "O(n\log n)" was "O(nlog n)" to an older digest: a journal's copy of the paper, read with
    # the text the sources write now and no id of its own, was a new paper, sent again.
    path, before = tmp_path / "old.db", "Sorting in O(nlog n) for learned keys"
    with Store(path) as store:
        store.add_papers([Paper("2501.01234", before, "Old.")], NOW)
    with sqlite3.connect(path) as db:  # as a state of schema 13 had it: no run-together key
        db.execute("DELETE FROM paper_keys WHERE key = ?", (squeezed_title_hash(before),))
        db.execute("PRAGMA user_version = 13")
    now = "Sorting in O(n log n) for learned keys"
    with Store(path) as store:
        assert store.add_papers([Paper(title_hash(now) or "", now, "The same.")], NOW) == 0


def test_an_upgrade_cut_short_while_keying_old_papers_keys_them_on_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Keyed after the last migration step's commit, a crash between the two left the version
    # current and the old papers without keys for good: a repeat of them was stored again.
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA[0] + "PRAGMA user_version = 1;")
        db.execute(
            "INSERT INTO papers (id, title, abstract, authors, categories, venue, url, code_url,"
            " published, source, first_seen) VALUES (?,?,?,'[]','[]','','','',NULL,'files',?)",
            ("2501.01234", TITLE, "Old abstract.", "2026-11-01T00:00:00Z"),
        )
    keys = identity.keys

    def crash(paper: Paper) -> list[str]:
        raise KeyboardInterrupt  # the process stopped here

    monkeypatch.setattr(identity, "keys", crash)
    with pytest.raises(KeyboardInterrupt):
        Store(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] < len(SCHEMA)
    monkeypatch.setattr(identity, "keys", keys)
    with Store(path) as store:
        titled = [title_hash(TITLE), squeezed_title_hash(TITLE), loose_title_hash(TITLE)]
        assert store.papers.keys_of("2501.01234") == ["arxiv:2501.01234", *titled]
        assert store.add_papers([FORUM], NOW) == 0


def test_liked_papers_and_unknown_ids_are_remembered(state: str) -> None:
    with Store(state) as store:
        assert store.papers.liked(["2501.01234"]) == {}
        store.papers.remember_liked({"2501.01234": PREPRINT, "2501.99999": None}, NOW)
    with Store(state) as store:
        found = store.papers.liked(["2501.01234", "2501.99999", "2502.00001"])
        assert found == {"2501.01234": PREPRINT, "2501.99999": None}


def test_one_paper_arriving_under_many_ids_of_no_kind_is_stored_once(tmp_path: Path) -> None:
    title = "Private federated learning with secure aggregation"
    copies = [Paper(f"copy{i:04d}", title, "We study differential privacy.") for i in range(300)]
    with Store(tmp_path / "s.db") as store:
        assert store.add_papers(copies, NOW) == 1
        kept = store.papers.paper("copy0000")
        assert kept is not None and kept.title == title


SAT = "Sparse Attention Transformers for Protein Structure Prediction"
PEOPLE = ("Ada Lovelace", "Alan Turing", "Grace Hopper")
SAT_TEXT = "We introduce a sparse attention transformer that predicts protein structure."
RETITLED = "Single-sequence protein structure prediction with linear-memory attention"
NMETH = Paper("10.1038/s41592-025-01234-5", RETITLED, "Proteins fold.", authors=PEOPLE)
ICLR = Paper("openreview:AbCdEfGh12", SAT, SAT_TEXT, authors=PEOPLE, venue="ICLR 2026 Poster")
ARXIV = Paper("2512.04444", SAT, SAT_TEXT, authors=PEOPLE, aliases=(NMETH.id,), venue="arXiv")


@pytest.mark.parametrize(
    "order",
    [
        (NMETH, ICLR, ARXIV),
        (ICLR, NMETH, ARXIV),
        (NMETH, ARXIV, ICLR),
        (ICLR, ARXIV, NMETH),
        (ARXIV, NMETH, ICLR),
        (ARXIV, ICLR, NMETH),
    ],  # fmt: skip
)
@pytest.mark.parametrize("batched", [False, True])
def test_one_paper_whatever_the_order_of_the_sources(
    state: str, order: tuple[Paper, ...], batched: bool
) -> None:
    """A retitled journal item and the OpenReview record read before the arXiv record linking
    both (the DOI, the title): the copy its title matched had stayed a paper, sent beside it."""
    with Store(state) as store:
        if batched:
            assert store.add_papers(order, NOW) == 1  # the copy is not counted new
        else:
            for record in order:
                store.add_papers([record], NOW)
        ((_, paper),) = store.papers_after(0)
        wanted = {"arxiv:2512.04444", f"doi:{NMETH.id.lower()}", ICLR.id}
        assert set(store.papers.keys_of(paper.id)) >= wanted


def test_a_title_alone_folds_no_stored_paper_into_another(state: str) -> None:
    """The arXiv record's title is another stored paper's, whose names and text say nothing of
    it (another group's, no authors): it stays a paper; an arXiv id of its own too."""
    others = [
        dataclasses.replace(ICLR, authors=("Li Wei", "Zhang Min"), abstract="Other words."),
        dataclasses.replace(ICLR, authors=(), abstract="Other words."),
        Paper("2512.09999", SAT, SAT_TEXT, authors=PEOPLE),
    ]
    for other in others:
        with Store(state) as store:
            store.add_papers([NMETH, other], NOW)
            store.add_papers([ARXIV], NOW)
            assert len(store.papers_after(0)) == 2, other
            store.db.execute("DELETE FROM paper_keys")
            store.db.execute("DELETE FROM papers")


def test_copies_a_reader_got_before_the_fold_stay_and_nothing_comes_again(state: str) -> None:
    """A state made before: both copies stored and sent. The arXiv record folds neither and is
    not new; nor are they read again."""
    with Store(state) as store:
        store.add_papers([NMETH, ICLR], NOW)
        scored = (Scored(NMETH, 0.5), Scored(ICLR, 0.4))
        digest = Digest("ana", "P1", date(2026, 11, 30), scored, NOW)
        store.record_digest(digest, store.latest_seq(), [("file", "file", Message("s", "t", "h"))])
        assert store.add_papers([ARXIV], NOW) == 0
        assert store.add_papers([NMETH, ICLR, ARXIV], NOW) == 0
        assert len(store.papers_after(0)) == 2


def test_a_workshops_and_the_conferences_forum_of_one_work_are_one_paper(state: str) -> None:
    workshop = dataclasses.replace(ICLR, id="openreview:WkShOp4321", venue="ICLR 2026 Workshop GEM")
    with Store(state) as store:
        assert store.add_papers([workshop], NOW) == 1
        assert store.add_papers([ICLR], NOW) == 0
        (known,) = store.papers.canonical([ICLR])
        assert known.id == workshop.id
        same_venue = dataclasses.replace(ICLR, id="openreview:Other1234", venue=workshop.venue)
        assert store.add_papers([same_venue], NOW) == 1  # two notes of one venue: two papers


def test_a_re_keyed_items_placeholder_replaced_by_its_abstract_is_one_paper(state: str) -> None:
    """A feed gave each read a new item id: "Abstract not available yet." then the abstract had
    been two papers, sent twice; the abstract replaces the placeholder."""
    title = "Quantum materials for room temperature superconducting cables in grids"
    first = Paper(identity.title_hash(title) or "", title, "Abstract not available yet.",
                  aliases=("guid:rss:jcpl:b8f3c2d1e0b94f7a2222222222222222",))  # fmt: skip
    second = dataclasses.replace(
        first, abstract="We report cables.", aliases=("guid:rss:jcpl:d8f3c2d1e0b94f7a4444",)
    )
    with Store(state) as store:
        assert store.add_papers([first], NOW) == 1
        assert store.add_papers([second], NOW) == 0
        ((_, paper),) = store.papers_after(0)
        assert paper.abstract == "We report cables."
