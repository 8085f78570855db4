"""A paper's identity: the forms of arXiv ids, DOIs and OpenReview forums that name one paper,
the title hash as a last resort, and the merge of two records of one paper."""

from __future__ import annotations

import dataclasses
import unicodedata
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from digest.models import Paper
from digest.models.evidence import dedupe
from digest.models.identity import (
    abstract_id,
    arxiv_id,
    doi,
    keys,
    loose_title_hash,
    merge,
    openreview_id,
    paper_id,
    record_id,
    same_paper,
    squeezed_title_hash,
    title_hash,
)


@pytest.mark.parametrize(
    "value",
    [
        "2501.01234",
        "2501.01234v3",
        "arXiv:2501.01234v1",
        "oai:arXiv.org:2501.01234v2",
        "https://arxiv.org/abs/2501.01234v2",
        "http://export.arxiv.org/abs/2501.01234",
        "https://arxiv.org/pdf/2501.01234v1.pdf",
        "10.48550/arXiv.2501.01234",
        "https://doi.org/10.48550/arXiv.2501.01234",
    ],
)
def test_every_form_of_an_arxiv_id_is_one_id_without_version(value: str) -> None:
    assert arxiv_id(value) == "2501.01234"


def test_old_style_arxiv_ids_keep_their_archive_not_a_subject_class() -> None:
    """arXiv names math.GT/0309136 math/0309136: a library citing the first had its own paper,
    listed under the second, recommended back."""
    assert arxiv_id("hep-th/9901001v2") == "hep-th/9901001"
    assert arxiv_id("arXiv:math.gt/0309136") == "math/0309136"
    assert arxiv_id("https://arxiv.org/abs/math.DG/0307245v3") == "math/0307245"
    assert arxiv_id("https://arxiv.org/abs/cs/0112017") == "cs/0112017"


@pytest.mark.parametrize("value", ["", "2501.123", "10.1000/xyz", "https://example.org/2501.01234"])
def test_other_things_are_no_arxiv_id(value: str) -> None:
    assert arxiv_id(value) is None


def test_dois_ignore_case_and_prefix() -> None:
    for value in ("10.1038/S41586-026-00001-X", "doi:10.1038/s41586-026-00001-x",
                  "https://doi.org/10.1038/s41586-026-00001-X"):  # fmt: skip
        assert doi(value) == "10.1038/s41586-026-00001-x"
    assert doi("2501.01234") is None


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("10.1016/j.plb.2026.1 10.1016/j.plb.2026.2", "10.1016/j.plb.2026.1"),  # arXiv's several
        ("info:doi/10.1371/journal.pone.0300000", "10.1371/journal.pone.0300000"),
        ("urn:doi:10.1000/182", "10.1000/182"),
        ("https://doi.org/10.1021/x?ref=rss", "10.1021/x"),
        ("https://dx.doi.org/10.1000/a#abstract", "10.1000/a"),
        ("https://www.doi.org/10.1103/PhysRevLett.1", "10.1103/physrevlett.1"),
        ("10.1103%2FPhysRevLett.2", "10.1103/physrevlett.2"),
        ("https://example.org/10.1000/a", None),
    ],
)
def test_a_doi_is_found_in_the_forms_feeds_write_it(value: str, found: str | None) -> None:
    assert doi(value) == found


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("https://dl.acm.org/doi/10.1145/3701234.3701256?af=R", "10.1145/3701234.3701256"),
        ("https://epubs.siam.org/doi/abs/10.1137/24M1719761?af=R", "10.1137/24m1719761"),
        (
            "https://www.science.org/doi/full/10.1126/science.adq1234#abstract",
            "10.1126/science.adq1234",
        ),
        (
            "https://onlinelibrary.wiley.com/doi/epdf/10.1002/anie.202412345",
            "10.1002/anie.202412345",
        ),
        (
            "https://pubs.acs.org/doi/pdf/10.1021/acs.nanolett.5c01234.pdf",
            "10.1021/acs.nanolett.5c01234",
        ),
        (
            "http://link.aps.org/doi/10.1103/PhysRevLett.134.010001",
            "10.1103/physrevlett.134.010001",
        ),
        (
            "https://journals.sagepub.com/doi/reader/10.1177/0956797625123456/",
            "10.1177/0956797625123456",
        ),
        (
            "https://www.x.org/doi/10.1002/(SICI)1097-0258(19980515)17%3A9%3C1001%3A%3AAID-SIM865%3E"
            "3.0.CO%3B2-B",
            "10.1002/(sici)1097-0258(19980515)17:9<1001::aid-sim865>3.0.co;2-b",
        ),
        # Deeper in the path a page's name follows the DOI; the DOI's own pages only.
        ("https://www.degruyter.com/document/doi/10.1515/xyz-2025-0001/html", None),
        ("https://pubs.acs.org/doi/suppl/10.1021/x/suppl_file/si.pdf", None),
        ("https://example.org/doi/", None),
        ("https://example.org/doi/10.12/x", None),
    ],
)
def test_a_publishers_doi_page_on_any_host_names_its_doi(value: str, found: str | None) -> None:
    """feeds22 F1: a journal's item known by its `/doi/…` link alone and the arXiv record
    naming that DOI had been two papers, sent twice: only doi.org links were read."""
    assert doi(value) == found


@pytest.mark.parametrize("view", ["abstract", "full", "pdf", "epdf", "pdfdirect", "references",
                                  "citedby", "suppinfo", "figures", "abstract;jsessionid=A1.f02",
                                  "full/", "FULL"])  # fmt: skip
def test_a_view_after_the_doi_on_its_page_is_no_part_of_it(view: str) -> None:
    """feeds23 F1: Wiley's links before 2019 put the view after the DOI: the DOI read
    "10.1002/anie.202412345/abstract", a conflict with the arXiv record naming the DOI (sent
    twice). A DOI's own slashes stay where no view's name ends it."""
    page = "https://onlinelibrary.wiley.com/doi/10.1002/anie.202412345/"
    assert doi(page + view) == "10.1002/anie.202412345"
    assert doi("https://x.org/doi/10.1093/mnras/stae123/7512345") == "10.1093/mnras/stae123/7512345"
    sici = "10.1002/(SICI)1097-4636(199706)35:4<421::AID-JBM2>3.0.CO;2-C"
    assert doi(f"https://onlinelibrary.wiley.com/doi/{sici}/{view}") == sici.lower()


def test_two_dois_with_one_placeholder_text_are_two_papers_by_the_abstract_hash() -> None:
    """feeds23 F2: an item of a short title known by a DOI keeps its former abstract hash as a
    key (rss former_ids); it finds the paper stored under it, not another DOI's."""
    from digest.models.identity import former_ids

    text = "No abstract available."
    one, two = (Paper(d, "Graphene", text, aliases=former_ids(d, "Graphene", text))
                for d in ("10.1021/a.1", "10.1021/a.2"))  # fmt: skip
    stored = Paper(abstract_id(text), "Graphene", text)  # as stored before its link was read
    assert abstract_id(text) in keys(one)
    assert same_paper(abstract_id(text), keys(stored), keys(one))
    assert not same_paper(abstract_id(text), keys(one), keys(two))
    assert former_ids("10.1021/a.1", "Graphene of many layers", text) == ()  # its title, then


def test_a_journals_item_linking_its_doi_page_is_the_arxiv_record_naming_that_doi() -> None:
    arxiv = Paper("2512.02222", "Neural scaling laws for dense retrieval of patient records", "x",
                  aliases=("10.1145/3701234.3701256",))  # fmt: skip
    link = "https://dl.acm.org/doi/10.1145/3701234.3701256?af=R"
    journal = Paper("t:df0d9662d190d340", "Scaling Laws of Neural Dense Retrievers", "y", url=link)
    assert "doi:10.1145/3701234.3701256" in set(keys(arxiv)) & set(keys(journal))


def test_openreview_forums_from_ids_and_links() -> None:
    assert openreview_id("openreview:Xy12") == "Xy12"
    assert openreview_id("https://openreview.net/forum?id=Xy12&noteId=z") == "Xy12"
    assert openreview_id("https://openreview.net/pdf?id=Xy12") == "Xy12"
    assert openreview_id("https://example.org/forum?id=Xy12") is None


def test_a_title_identifies_only_when_it_says_enough() -> None:
    assert title_hash("Private  Federated Learning!") == title_hash("private federated learning")
    assert title_hash("Introduction") is None and title_hash("Attention, please") is None


def test_sources_choose_the_strongest_id_they_have() -> None:
    assert paper_id(arxiv="arXiv:2501.01234v2", doi_="10.1000/x", title="A B C") == "2501.01234"
    assert paper_id(doi_="DOI:10.1000/X", openreview="F1", title="A B C") == "10.1000/x"
    assert paper_id(openreview="F1", title="A B C") == "openreview:F1"
    assert paper_id(title="Graph neural networks everywhere") == title_hash(
        "graph neural networks everywhere"
    )
    assert paper_id(title="Hi", fallback="h:abc") == "h:abc"


TITLE = "Tight Bounds for Private Federated Learning"


def test_a_title_as_publishers_rewrite_it_is_one_title() -> None:
    # A journal's copy of an arXiv paper was sent again under its rewritten title.
    for arxiv, journal in (
        (
            "Privacy and Utility in Federated Fine-Tuning",
            "Privacy & Utility in Federated Finetuning",
        ),
        ("Schrödinger Bridges for Private Synthesis", "Schrodinger bridges for private synthesis"),
        ("Pre-Training Language Models Privately", "Pretraining language models privately"),
    ):
        assert loose_title_hash(arxiv) == loose_title_hash(journal) is not None
        first = Paper("2501.00001", arxiv, "x")
        copy = Paper("10.1000/j.1", journal, "x")
        assert len(dedupe([first, copy])) == 1
    assert loose_title_hash("Privacy in Federated Learning") != loose_title_hash(
        "Privacy in Federated Unlearning"
    )
    assert loose_title_hash("Attention") is None  # too short to tell papers apart, as before
    # Nothing else is folded: another script's marks make another word, digits stay apart.
    for one, two in (
        ("カラスの研究について", "ガラスの研究について"),
        ("Release notes for Version 1.4", "Release notes for Version 14"),
        ("Results at 2.5 GeV beam energy", "Results at 25 GeV beam energy"),
    ):
        assert loose_title_hash(one) != loose_title_hash(two)
    # Two arXiv papers of one rewritten title stay two, as two of one title do.
    one, other = (
        Paper("2501.00001", "Pre-Training at Scale", "x"),
        Paper("2502.00002", "Pretraining at scale", "y"),
    )
    assert len(dedupe([one, other])) == 2


def test_a_paper_is_known_by_every_key_it_carries() -> None:
    arxiv = Paper("2501.01234", TITLE, "x", aliases=("10.1000/tight",))
    titled = [title_hash(TITLE), squeezed_title_hash(TITLE), loose_title_hash(TITLE)]
    assert keys(arxiv) == ["arxiv:2501.01234", "doi:10.1000/tight", *titled]
    forum = Paper("openreview:F1", TITLE, "x", url="https://openreview.net/forum?id=F1")
    assert keys(forum) == ["openreview:F1", *titled]
    seed = Paper("h:0123456789abcdef", "A derived title from the abstract", "x")
    assert keys(seed) == ["h:0123456789abcdef"]  # a derived title is no identity
    plain = Paper("p1", "Hi", "x")
    assert keys(plain) == ["p1"]


def test_a_title_match_is_refused_when_the_arxiv_ids_differ() -> None:
    one = keys(Paper("2501.00001", TITLE, "x"))
    other = keys(Paper("2502.00002", TITLE, "y"))
    assert not same_paper(title_hash(TITLE) or "", one, other)
    forum = keys(Paper("openreview:F1", TITLE, "z"))
    assert same_paper(title_hash(TITLE) or "", one, forum)


def test_a_paper_stored_with_a_subject_class_in_its_arxiv_key_is_the_listed_one() -> None:
    """Stored before the class was dropped, from a paper file that wrote math.GT/0309136: the
    same file read again is the paper kept, not a namesake with another arXiv id."""
    stored = ["arxiv:math.GT/0309136", title_hash(TITLE) or ""]
    assert same_paper(title_hash(TITLE) or "", stored, keys(Paper("math/0309136", TITLE, "x")))
    assert not same_paper(title_hash(TITLE) or "", stored, keys(Paper("math/0309137", TITLE, "x")))


def test_a_preprint_and_its_journal_version_of_one_title_are_one_paper() -> None:
    """A preprint server's DOI (bioRxiv's 10.1101) and the journal's always differ, as an arXiv
    id and a DOI do; two preprints of one title stay two."""
    title = "Protein language models predict variant effects"
    preprint = keys(Paper("10.1101/2026.11.28.612345", title, "x"))
    journal = keys(Paper("10.1038/s41592-026-05555-5", title.title(), "y"))
    other_preprint = keys(Paper("10.1101/2026.12.01.600001", title, "z"))
    assert same_paper(title_hash(title) or "", preprint, journal)
    assert not same_paper(title_hash(title) or "", preprint, other_preprint)
    other_journal = keys(Paper("10.1126/science.abc1234", title, "w"))
    assert not same_paper(title_hash(title) or "", journal, other_journal)


JOURNAL = "10.1038/s41586-026-01234-5"


@pytest.mark.parametrize(
    "preprint",
    [
        "10.64898/2025.12.01.691234",  # bioRxiv and medRxiv since December 2025 (feeds22 F5)
        "10.64898/2025.12.01.691234v2",
        "10.1101/2025.10.14.25337964",
        "10.1101/123456",  # bioRxiv's first numbers
        "10.31223/x5t34h",  # EarthArXiv, no longer on OSF
        "10.31224/4321",  # engrXiv, the same
        "10.31220/agrirxiv.2021.00012",  # AgriRxiv
        "10.31236/osf.io/abcde",  # SportRxiv on OSF
        "10.51224/srxiv.460",  # SportRxiv since
        "10.32942/x2mp9h",  # EcoEvoRxiv
        "10.51094/jxiv.749",  # Jxiv
        "10.2196/preprints.51234",  # JMIR Preprints
        "10.1590/SciELOPreprints.1234",
        "10.7287/peerj.preprints.3151v1",
        "10.12688/verixiv.123.1",
        "10.5194/egusphere-2023-666",
        "10.5194/hess-2022-123",  # a Copernicus journal's discussion paper
        "10.1149/osf.io/abcde",  # ECSarXiv: OSF's, the Electrochemical Society's prefix
        "10.21203/rs.3.rs-7712345/v1",
    ],
)
def test_every_preprint_servers_doi_is_one_paper_with_its_journal_version(preprint: str) -> None:
    title = "Dopamine neurons encode prediction errors for cells in freely moving mice"
    one, journal = keys(Paper(preprint, title, "x")), keys(Paper(JOURNAL, title, "y"))
    assert same_paper(title_hash(title) or "", one, journal)
    assert same_paper(title_hash(title) or "", journal, one)


@pytest.mark.parametrize(
    "article",
    [
        "10.2196/51234",  # a JMIR journal's article: JMIR Preprints' prefix is its publisher's
        "10.1590/s0034-8910.2020054001234",  # a SciELO journal's
        "10.1101/gr.279479.124",  # Genome Research, a CSHL journal under bioRxiv's old prefix
        "10.1101/gad.351234.123",
        "10.5194/hess-27-1234-2023",  # the final paper of a discussion
        "10.12688/f1000research.13040.1",
        "10.1002/anie.202412345",
    ],
)
def test_a_journal_article_under_a_preprint_servers_publisher_is_no_preprint(article: str) -> None:
    # Two journals' DOIs of one title are two papers: only a preprint's DOI is a kind of its own.
    title = "Dopamine neurons encode prediction errors for cells in freely moving mice"
    one, journal = keys(Paper(article, title, "x")), keys(Paper(JOURNAL, title, "y"))
    assert not same_paper(title_hash(title) or "", one, journal)


def test_a_preprint_on_the_publishers_prefix_is_its_journal_version_there() -> None:
    # Genome Research's paper and its bioRxiv preprint, both 10.1101: had been two preprints.
    title = "Long-read assemblies resolve segmental duplications in primate genomes"
    preprint = keys(Paper("10.1101/2024.05.11.592705", title, "x"))
    assert same_paper(
        title_hash(title) or "", preprint, keys(Paper("10.1101/gr.279479.124", title, "y"))
    )
    assert not same_paper(
        title_hash(title) or "", preprint, keys(Paper("10.1101/123456", title, "z"))
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("10.20944/preprints202611.0042.v1", "10.20944/preprints202611.0042.v2"),
        ("10.21203/rs.3.rs-7712345/v1", "https://doi.org/10.21203/rs.3.rs-7712345/v2"),
        ("10.26434/chemrxiv-2026-ab12c-v1", "10.26434/chemrxiv-2026-ab12c-v3"),
        ("10.22541/au.170000000.12345678/v1", "10.22541/au.170000000.12345678/v2"),
        ("10.31219/osf.io/abcde_v1", "10.31219/osf.io/abcde_v2"),
        ("10.36227/techrxiv.12345678.v1", "10.36227/techrxiv.12345678"),
        ("10.33774/coe-2023-abc12-v1", "10.33774/coe-2023-abc12-v2"),  # Cambridge Open Engage
        ("10.3762/bxiv.2021.12.v1", "10.3762/bxiv.2021.12.v2"),  # Beilstein Archives
        ("10.12688/f1000research.13040.1", "10.12688/f1000research.13040.2"),
        ("10.12688/wellcomeopenres.17512.1", "10.12688/wellcomeopenres.17512.3"),
        ("10.31124/advance.7926932.v1", "10.31124/advance.7926932.v2"),  # SAGE Advance
        ("10.6084/m9.figshare.123456.v1", "10.6084/m9.figshare.123456.v2"),
        ("10.35542/osf.io/abcde_v1", "10.35542/osf.io/abcde_v2"),  # EdArXiv
        # eLife's Reviewed Preprints and Version of Record, one DOI a version, any case
        ("10.7554/eLife.101234.1", "https://doi.org/10.7554/eLife.101234.2"),
        ("10.7554/elife.101234", "10.7554/ELIFE.101234.3"),  # the paper's own DOI
        ("10.35241/emeraldopenres.14515.1", "10.35241/emeraldopenres.14515.2"),
        ("10.3310/nihropenres.13837.1", "10.3310/nihropenres.13837.2"),
        ("10.15694/mep.2021.000131.1", "10.15694/mep.2021.000131.2"),  # MedEdPublish
        ("10.7287/peerj.preprints.3151v1", "10.7287/peerj.preprints.3151v2"),
        ("10.1101/2024.12.02.626299v1", "10.1101/2024.12.02.626299v2"),  # bioRxiv's address
        ("10.1101/2025.10.14.25337964", "10.1101/2025.10.14.25337964v2"),  # medRxiv
    ],
)
def test_a_new_version_of_a_preprint_is_the_same_paper(first: str, second: str) -> None:
    # Preprints.org, Research Square, ChemRxiv, Authorea, OSF and TechRxiv write the version
    # into the DOI: v2 had been a new paper, sent again, and a title match was refused.
    title = "Scaling laws for protein language models across families"
    one, two = (keys(Paper(ident, title, "x")) for ident in (first, second))
    assert set(one) & {k for k in two if k.startswith("doi:")}  # known by one key
    before = [k for k in one if not k.startswith("doi:") or k == f"doi:{first}"]
    assert same_paper(title_hash(title) or "", before, two)  # a paper stored before the fix


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("10.1109/5.771073", "10.1109/5.771074"),  # a journal DOI's bare number is no version
        ("10.26434/chemrxiv-2026-ab12c-v2.1", "10.26434/chemrxiv-2026-ab12c-v2.2"),  # files
        ("10.20944/preprints202611.0042.v2.supp", "10.20944/preprints202611.0042.v2"),
        ("10.12688/f1000research.13040.1", "10.12688/f1000research.13041.1"),
        ("10.7554/eLife.101234.1", "10.7554/eLife.101235.1"),  # two eLife papers
        ("10.7554/eLife.34408", "10.7554/eLife.34408.011"),  # a figure's or a review's DOI
        ("10.7554/eLife.90696.3", "10.7554/eLife.90696.3.sa4"),
        ("10.1016/s0140-6736(20)30183-5", "10.1016/s0140-6736(20)30183-2"),  # the Lancet
        ("10.4230/lipics.icalp.2020.1", "10.4230/lipics.icalp.2020.2"),  # LIPIcs papers
        ("10.1007/978-3-030-58452-8_1", "10.1007/978-3-030-58452-8_2"),  # Springer chapters
        ("10.1080/00031305.2016.1154108", "10.1080/00031305.2016.1154102"),  # T&F
        ("10.3310/hta23010", "10.3310/hta23011"),  # NIHR's journals, no versions
        ("10.1101/gr.279479.124", "10.1101/gr.279479.125"),  # CSHL's journals
    ],
)
def test_a_doi_that_only_ends_like_a_version_names_another_work(first: str, second: str) -> None:
    title = "Scaling laws for protein language models across families"
    one, two = (keys(Paper(ident, title, "x")) for ident in (first, second))
    assert not {k for k in one if k.startswith("doi:")} & set(two)


def test_the_versions_of_an_elife_paper_are_one_paper_but_two_papers_stay_two() -> None:
    # eLife's Reviewed Preprint day 1 and its revision day 2 (feeds21 F9): had been sent twice.
    title = "Dopamine neurons encode reward prediction errors in freely moving mice"
    authors = ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    one, two, other = (
        Paper(f"10.7554/elife.{n}", title, "x", authors=authors)
        for n in ("101234.1", "101234.2", "101299.1")
    )
    assert len(dedupe([one, two])) == 1
    assert len(dedupe([one, other])) == 2


def test_versions_of_two_different_preprints_of_one_title_stay_two_papers() -> None:
    title = "Scaling laws for protein language models across families"
    one = keys(Paper("10.20944/preprints202611.0042.v1", title, "x"))
    other = keys(Paper("10.20944/preprints202611.0099.v2", title, "y"))
    assert not same_paper(title_hash(title) or "", one, other)
    journal = keys(Paper("10.1038/s41586-026-01234-5", title, "z"))  # its journal version
    assert same_paper(title_hash(title) or "", one, journal)


@pytest.mark.parametrize(
    ("now", "before"),
    [
        (
            "Regret O(T^(2/3)) for bandits with many arms",
            "Regret O(T2/3) for bandits with many arms",
        ),
        ("The n^α law of large random graphs", "The nα law of large random graphs"),
        ("The T_c of thin niobium films", "The Tc of thin niobium films"),
        ("Sorting in O(n log n) for learned keys", "Sorting in O(nlog n) for learned keys"),
        ("The Φ^4 theory on a lattice of spins", "The Φ4 theory on a lattice of spins"),
        (
            "Sorting spin-1/2 chains with matrix products",
            "Sorting spin-12 chains with matrix products",
        ),
        ("Corrections of order 3^(1/2) in the loop", "Corrections of order 31/2 in the loop"),
        ("Towers of 2^2ⁿ states in a spin chain", "Towers of 22^n states in a spin chain"),
        (
            "Sorting spin-½ chains with matrix products",
            "Sorting spin-12 chains with matrix products",
        ),
    ],
)
def test_a_title_whose_math_reads_otherwise_now_finds_the_paper_stored_before(
    now: str, before: str
) -> None:
    # Scripts are marked now (T^(2/3)), function names spaced, fractions written: a paper stored
    # under the older text, read again from a feed without an id, would have been sent again.
    assert squeezed_title_hash(before) in keys(Paper("", now, "x"))
    own = keys(Paper("", "Graph learning with torch_geometric at scale", "x"))
    assert title_hash("Graph learning with torch_geometric at scale") in own
    # Digits keep their boundary: these are two papers.
    for one, other in [
        (
            "Release notes of Version 1.4 of the toolkit",
            "Release notes of Version 14 of the toolkit",
        ),
        ("A 1-2 GHz amplifier in silicon", "A 12 GHz amplifier in silicon"),
        ("A 1 2 3 counting game for kids", "A 123 counting game for kids"),
    ]:
        assert not {k for k in keys(Paper("", one, "x")) if k} & set(keys(Paper("", other, "x")))


def test_merging_completes_the_known_record_and_keeps_its_id_and_text() -> None:
    known = Paper(
        "2501.01234", TITLE, "Preprint abstract.", authors=("Ada",), categories=("cs.LG",)
    )
    forum = Paper(
        "openreview:F1",
        TITLE + " (camera ready)",
        "Camera-ready abstract.",
        venue="NeurIPS 2025 oral",
        code_url="https://github.com/acme/tight",
        published=date(2025, 10, 9),
        categories=("privacy",),
    )
    merged = merge(known, forum)
    assert (merged.id, merged.title, merged.abstract) == (known.id, TITLE, "Preprint abstract.")
    assert merged.venue == "NeurIPS 2025 oral"
    assert merged.code_url == "https://github.com/acme/tight"
    assert merged.published == date(2025, 10, 9)
    assert merged.categories == ("cs.LG", "privacy")
    assert merged.aliases == ("openreview:F1",)
    assert merge(merged, forum) == merged
    listed = Paper("2501.01234", TITLE, "x", venue="cs.LG updates on arXiv.org")
    assert merge(listed, forum).venue == "NeurIPS 2025 oral"
    assert merge(merged, listed).venue == "NeurIPS 2025 oral"


def test_dedupe_keeps_one_record_per_paper_in_first_seen_order() -> None:
    v1 = Paper("2501.01234", TITLE, "v1 abstract")
    other = Paper("2502.00002", TITLE, "another paper that shares the title")
    forum = Paper("openreview:F1", TITLE.upper(), "", code_url="https://github.com/a/b")
    v2 = Paper("2501.01234", "Tight bounds, revised", "v2 abstract")
    out = dedupe([v1, other, forum, v2])
    assert [p.id for p in out] == ["2501.01234", "2502.00002"]
    assert out[0].code_url == "https://github.com/a/b" and out[0].abstract == "v1 abstract"


def test_dedupe_merges_many_records_of_one_paper_as_merging_them_one_by_one_does() -> None:
    first = Paper("seed-1", TITLE, "abstract", aliases=("2501.01234",))
    rest = [
        Paper("doi:10.1/x", TITLE, "", venue="NeurIPS", aliases=("openreview:F1",)),
        Paper("copy-b", TITLE, "", code_url="https://github.com/a/b", categories=("cs.LG",)),
        Paper("copy-c", TITLE, "", categories=("cs.CR", "cs.LG"), aliases=("copy-b",)),
    ]
    by_hand = first
    for other in rest:
        by_hand = merge(by_hand, other)
    (out,) = dedupe([first, *rest])
    assert out == by_hand


PLACEHOLDER = "No abstract available."


def test_a_record_without_id_is_known_by_its_title_and_its_former_abstract_hash() -> None:
    ident, aliases = record_id(TITLE, PLACEHOLDER)
    assert (ident, aliases) == (title_hash(TITLE), (abstract_id(PLACEHOLDER),))
    record = Paper(ident, TITLE, PLACEHOLDER, aliases=aliases)
    t = title_hash(TITLE) or ""
    squeezed, loose = squeezed_title_hash(TITLE), loose_title_hash(TITLE)
    assert keys(record) == [t, squeezed, loose, "title:" + t[2:], abstract_id(PLACEHOLDER)]
    # A title too short to tell papers apart leaves the abstract hash, as before.
    assert record_id("Attention", PLACEHOLDER) == (abstract_id(PLACEHOLDER), ())
    assert record_id(TITLE, "") == (title_hash(TITLE), (abstract_id(TITLE),))


def file_record(title: str, abstract: str) -> Paper:
    ident, aliases = record_id(title, abstract)
    return Paper(ident, title, abstract, source="files:a.jsonl", aliases=aliases)


def test_an_abstract_match_is_refused_when_both_records_have_their_own_differing_titles() -> None:
    one = file_record(TITLE, PLACEHOLDER)
    other = file_record("Diffusion models for weather forecasting", PLACEHOLDER)
    h = abstract_id(PLACEHOLDER)
    assert not same_paper(h, keys(one), keys(other))
    assert same_paper(h, keys(one), keys(one))
    # A paper stored the old way (its abstract hash, no title keys) is the record's paper.
    old = Paper(h, TITLE, PLACEHOLDER)
    assert keys(old) == [h]
    assert same_paper(h, keys(old), keys(one))
    # A seed paper (abstract hash, derived title) is still matched by its abstract.
    assert same_paper(h, [h], keys(Paper(h, "A derived title", PLACEHOLDER)))
    assert [p.id for p in dedupe([one, other, one])] == [one.id, other.id]


def test_a_file_record_and_a_feed_item_with_one_title_are_one_paper() -> None:
    text = "We analyze federated learning when only some clients participate in each round."
    record = file_record(TITLE, text)
    item = Paper(paper_id(title=TITLE.upper(), fallback=abstract_id(text)), TITLE.upper(), text)
    assert title_hash(TITLE) in keys(item)
    (merged,) = dedupe([record, item])
    assert merged.id == record.id == title_hash(TITLE)


MERGER = (
    "We study the chemodynamical memory of a major merger in a NIHAO-UHD Milky Way analogue. "
    "Using the simulated stars we trace the Splash population back to its birth, and we ask "
    "whether these stars were heated by the merger or were already born on hot orbits; we find "
    "that most were born hot, in the turbulent gas disc before the merger, and few were heated."
)


def test_a_conference_copy_with_the_whole_abstract_and_a_cut_title_is_the_paper() -> None:
    """ "… analogue II: Were Splash stars heated or already born hot?" came back from a venue as
    "… analogue II (extended abstract)" with its 60-word abstract: listed twice in one digest,
    and sent again under the venue's DOI the next day."""
    title = "The chemodynamical memory of a major merger in a NIHAO-UHD Milky Way analogue II"
    preprint = Paper(
        "2510.20233", f"{title}: Were Splash stars heated or already born hot?", MERGER
    )
    copy = Paper("10.1093/mnrasl/slaf123", f"{title} (extended abstract)", MERGER)
    assert len(dedupe([preprint, copy])) == 1
    # A text too short to tell (a placeholder), or one feed's boilerplate under other titles,
    # makes no copy.
    short = "No abstract is available for this article; see the full text."
    assert len(dedupe([dataclasses.replace(preprint, abstract=short),
                       dataclasses.replace(copy, abstract=short)])) == 2  # fmt: skip
    halo = "Stellar streams in the outer halo"
    other = Paper(title_hash(halo) or "", halo, MERGER)
    assert len(dedupe([copy, other])) == 2


def test_a_journals_label_and_copyright_around_the_whole_abstract_make_no_new_paper() -> None:
    """A journal version with a title grown at its end and its record's "Abstract:" label,
    structured heads or copyright line was a second paper: its text key differed."""
    preprint = Paper("2601.01234", "Graph neural networks predict molecular properties", MERGER)
    grown = f"{preprint.title} with chemical accuracy"
    wrapped = (
        f"Abstract {MERGER}",
        f"ABSTRACT: {MERGER}",
        f"Summary: {MERGER}",
        f"Abstract— {MERGER}",
        f"Background: {MERGER}",
        f"Abstract: Background: {MERGER.replace('. Using', '. Methods: Using', 1)}",
        f"{MERGER.replace('. Using', '. Methods and findings: Using', 1)}",
        f"{MERGER} © 2026 Elsevier B.V. All rights reserved.",
        f"{MERGER} © 2026 The Author(s). Published by Elsevier B.V.",
        f"{MERGER} Copyright (c) 2026 Wiley-VCH GmbH",
        f"{MERGER} Published by Oxford University Press on behalf of the RAS.",
        f"{MERGER} This article is protected by copyright. All rights reserved.",
        f"{MERGER}\nKeywords: galaxies; Milky Way; stellar populations",
        f"{MERGER} Index Terms: galaxy formation, simulations",
    )
    for text in wrapped:
        journal = Paper("10.1093/mnras/stab042", grown, text)
        assert len(dedupe([preprint, journal])) == 1, text
    # A sentence of the abstract that only speaks of them stays: another text is another key.
    told = f"{MERGER} The catalogue was published by the Gaia collaboration."
    assert len(dedupe([preprint, Paper("10.1093/mnras/stab043", grown, told)])) == 2


def test_the_text_key_of_an_abstract_without_a_journals_parts_is_the_one_stored() -> None:
    """The papers stored before keep their key: the journal's copy of each is found by it. One
    with such parts keeps its former key too, beside its bare text's."""
    from digest.models.identity import bare_abstract

    title = "Graph neural networks predict molecular properties"
    texts = [k for k in keys(Paper("2601.01234", title, MERGER)) if k.startswith("a:")]
    assert texts[0] == "a:e0253fcad1321adf" and len(texts) == 2  # as stored before; the text's own
    assert bare_abstract(MERGER) == MERGER
    asked = MERGER.replace("we ask", "we ask:")  # a colon of the text's own: no head
    assert bare_abstract(asked) == asked
    labelled = [k for k in keys(Paper("2601.01234", title, f"Abstract: {MERGER}")) if k[:2] == "a:"]
    assert len(labelled) == 4 and texts[0] in labelled


def test_a_journal_version_whose_title_changed_in_its_first_words_is_the_paper() -> None:
    """The text key took the title's first four words: "A survey of …", "Scalable …", a typo
    fixed or a word changed in them, with the whole abstract, had been a second paper, sent
    again."""
    title = "Graph neural networks predict molecular properties"
    preprint = Paper("2601.01234", title, MERGER, authors=("Ana Lima", "Bo Chen"))
    for changed in (
        f"A survey: {title}",
        f"Scalable {title.lower()}",
        f"The {title}",
        "Graph neural network predicts molecular properties",
        "Grpah neural networks predict molecular properties",
    ):
        journal = Paper("10.1000/j.2", changed, MERGER, authors=("A. Lima", "B. Chen"))
        assert len(dedupe([preprint, journal])) == 1, changed
    # Another paper of the same end and the same boilerplate text, by other people, is another.
    other = Paper("10.1000/j.3", f"Transformers {title[6:]}", MERGER, authors=("Cy Park", "Di Wu"))
    assert len(dedupe([preprint, other])) == 2
    # Its title's words not in the other's: a changed word of a text of no names in common.
    unnamed = Paper("10.1000/j.4", "Message passing predicts molecular properties", MERGER)
    assert len(dedupe([preprint, unnamed])) == 2


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=40))
@settings(max_examples=500, deadline=None)
def test_ascii_text_is_normalized_as_the_pattern_reads_it(text: str) -> None:
    """ASCII takes a table (four times as fast: every paper's keys normalize its abstract): the
    words must be the ones the Unicode pattern makes, as stored keys were."""
    from digest.models.texts import _NOT_WORD, normalize

    slow = " ".join(_NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text).lower()).split())
    assert normalize(text) == slow


@pytest.mark.parametrize(
    ("first", "second", "papers"),
    [("Grayscale image colorization with diffusion priors",
      "Greyscale image colourisation with diffusion priors", 1),
     ("Odor source localization with mobile robots",
      "Odour source localisation with mobile robots", 1),
     ("Black holes in de Sitter space", "Black holes in anti-de Sitter space", 2),
     ("Lower bounds for sorting networks", "Upper & lower bounds for sorting networks", 2),
     ("Supervised learning of phases", "Semi-supervised learning of phases", 2),
     ("Vedolizumab versus ustekinumab in Crohn's disease",
      "Letter: Vedolizumab versus ustekinumab in Crohn's disease", 2)],
)  # fmt: skip
def test_a_journal_copy_of_one_abstract_is_one_paper_by_its_words_not_by_the_abstract(
    first: str, second: str, papers: int
) -> None:
    """A feed that quotes the paper's abstract under a journal's copy, an "anti-de Sitter" paper
    or a letter: a British spelling had sent the copy again, "anti-", "&", "Semi-" and "Letter:"
    had lost the second paper (reg34)."""
    preprint = Paper("2503.01234", first, MERGER, authors=("Ana Lima", "Bo Chen"))
    journal = Paper("10.1000/j.5", second, MERGER, authors=("Ana Lima", "Bo Chen"))
    assert len(dedupe([preprint, journal])) == papers


@pytest.mark.parametrize(
    ("first", "second", "authors", "papers"),
    [("Domain adaptation of language models for finance",
      "Domain adaptation of language models for finance through continued pretraining", True, 1),
     ("Excursion set approach to primordial black holes",
      "Excursion set approach to primordial black holes: cloud-in-cloud and mass function "
      "revisited", True, 1),
     ("Centreline extraction from fibre images of composites",
      "Centerline extraction from fiber images of composites", False, 1),
     ("Scaling laws for sparse mixture-of-experts",
      "Letter re: “Scaling laws for sparse mixture-of-experts”", True, 2),
     ("Benchmarking LLM agents on web tasks",
      "Concerns about the study “Benchmarking LLM agents on web tasks”", True, 2),
     ("Supervised learning of speech", "Self supervised learning of speech", True, 2),
     ("Deep image prior for inverse problems",
      "Revisiting deep image prior for inverse problems", True, 2)],
)  # fmt: skip
def test_a_copys_subtitle_or_spelling_is_one_paper_and_a_letter_or_sequel_another(
    first: str, second: str, authors: bool, papers: int
) -> None:
    """A sequel's word in a grown subtitle and a British "centreline" in a record without
    authors had sent a journal's copy again; "Letter re: “…”", "Concerns about the study “…”"
    and a spaced "Self supervised" had lost the second paper, never sent (reg36)."""
    people = ("Ana Lima", "Bo Chen")
    preprint = Paper("2503.01234", first, MERGER, authors=people)
    journal = Paper("10.1000/j.5", second, MERGER, authors=people if authors else ())
    assert len(dedupe([preprint, journal])) == papers


def test_two_forums_differ_unless_asked_to_let_the_records_say() -> None:
    """A workshop's and the main conference's forum of one work: same_paper's ids alone say two;
    forums=False leaves it to evidence.one_work (title, authors, text)."""
    key = title_hash(TITLE) or ""
    one, other = keys(Paper("openreview:A1", TITLE, "x")), keys(Paper("openreview:B2", TITLE, "x"))
    assert not same_paper(key, one, other)
    assert same_paper(key, one, other, forums=False)
    arxiv = keys(Paper("2501.00001", TITLE, "x")), keys(Paper("2502.00002", TITLE, "x"))
    assert not same_paper(key, *arxiv, forums=False)  # other ids still differ


def test_the_abstract_replaces_a_placeholder_in_a_merge() -> None:
    """The known record's text wins, but "Abstract not available yet." is no text: it had
    stayed the paper's text after the abstract came."""
    stock = Paper("t:1", TITLE, "Abstract not available yet.")
    assert merge(stock, Paper("t:1", TITLE, "We prove it.")).abstract == "We prove it."
    assert merge(stock, Paper("t:1", TITLE, "N/A")).abstract == "Abstract not available yet."
    assert merge(Paper("t:1", TITLE, "We prove."), Paper("t:1", TITLE, "Other.")).abstract == (
        "We prove."
    )
