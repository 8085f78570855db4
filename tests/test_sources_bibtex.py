"""BibTeX as reference managers export it: LaTeX math and accents read as text, author lists in
every form, one warning line per bad entry (bibtexparser's own messages never reach the user)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from digest.models.identity import title_hash
from digest.sources.bibtex import bib_paper, names, read_bibtex

SOURCE = "library:test.bib"


def paper_of(**fields: str):
    paper = bib_paper(fields, SOURCE)
    assert paper is not None
    return paper


@pytest.mark.parametrize(
    ("title", "text"),
    [
        ("Conformal field theory: {$\\textCFT_1$} models", "Conformal field theory: CFT₁ models"),
        ("A 2.1$\\mu$W wake-up receiver", "A 2.1μW wake-up receiver"),
        ("Splitting H$_2$O with light", "Splitting H₂O with light"),
        ("Radix-2\\(^\\mboxk\\) {FFT} cores", "Radix-2ᵏ FFT cores"),
        ("A \\$5 million {Question}", "A $5 million Question"),
        ("The set \\{x : x > 0\\} is open", "The set {x : x > 0} is open"),
        ("{{Deep}} Learning --- a {Survey}", "Deep Learning — a Survey"),
        ('G{\\"o}del, Escher, {\\AA}ngstr{\\"o}m', "Gödel, Escher, Ångström"),
        ("Nguy{\\~{\\^{e}}}n and Nguy\\~{\\^{e}}n", "Nguyễn and Nguyễn"),  # nested accents
    ],
)
def test_latex_in_titles_reads_as_plain_text(title: str, text: str) -> None:
    assert paper_of(title=title).title == text


def test_mendeleys_arxivid_field_names_the_arxiv_paper() -> None:
    paper = paper_of(ID="x", ENTRYTYPE="article", title="A paper", arxivid="2401.01234")
    assert paper.id == "2401.01234" and paper.url == "https://arxiv.org/abs/2401.01234"


@pytest.mark.parametrize("written", ["10.1002/2017GL076\\_101", "{10.1002/2017GL076{\\_}101}"])
def test_a_doi_escaped_for_latex_is_the_doi(written: str) -> None:
    """Mendeley writes a DOI's underscores as \\_: the paper was recommended back."""
    paper = paper_of(ID="x", ENTRYTYPE="article", title="A paper", doi=written)
    assert paper.id == "10.1002/2017gl076_101"


def test_the_abstract_venue_and_keywords_are_decoded_too() -> None:
    paper = paper_of(
        title="T",
        abstract="Costs fall by 30\\% at $\\mathcal{O}(n)$ per step.",
        journal='Journal of M{\\"u}nster',
        keywords="{privacy}, H$_2$O; learning",
    )
    assert paper.abstract == "Costs fall by 30% at O(n) per step."
    assert paper.venue == "Journal of Münster"
    assert paper.categories == ("privacy", "H₂O", "learning")


# A Crossref abstract as Zotero keeps it and a .bib export writes it: JATS, MathML, entities.
JATS = (
    "<jats:title>Abstract</jats:title><jats:p>We study federated learning &amp; differential"
    " privacy with <mml:math><mml:msub><mml:mi>&#x3b5;</mml:mi><mml:mn>0</mml:mn></mml:msub>"
    "</mml:math> at $k<n$ and <mml:math><mml:mi>p</mml:mi><mml:mo>&lt;</mml:mo>"
    "<mml:mn>0.05</mml:mn></mml:math>.</jats:p>"
)


def test_markup_in_an_entry_reads_as_a_feeds_does() -> None:
    """Its tags and &amp; had been words of a liked paper ("why: matched mml, jats, title"); a
    "<" that opens no element is the text's. Known by its title, as a feed's copy of it is."""
    paper = paper_of(
        title="Growth of <i>E. coli</i> on MoS<sub>2</sub> &amp; graphene",
        abstract=JATS,
        author="Garc&iacute;a, Jos&eacute; and Lee, Ann",
        journal="Journal of R&amp;D",
    )
    assert paper.title == "Growth of E. coli on MoS₂ & graphene"
    assert (
        paper.abstract
        == "We study federated learning & differential privacy with ε₀ at k<n and p<0.05."
    )
    assert (paper.authors, paper.venue) == (("José García", "Ann Lee"), "Journal of R&D")
    assert paper.id == title_hash("Growth of E. coli on MoS₂ & graphene")
    plain = paper_of(title="Bounds for $k<n$ when a<b", abstract="It holds, p < 0.05 & R&D.")
    assert (plain.title, plain.abstract) == ("Bounds for k<n when a<b", "It holds, p < 0.05 & R&D.")


@pytest.mark.parametrize(
    ("author", "expected"),
    [
        ("Reagle, Jr., Joseph M.", ("Joseph M. Reagle Jr.",)),
        ("Reagle, Jr., Joseph M. and Lovelace, Ada", ("Joseph M. Reagle Jr.", "Ada Lovelace")),
        ("Kukla, D. and Crampton, A. and others", ("D. Kukla", "A. Crampton")),
        ("{Barnes and Noble} and Erd{\\H{o}}s, P{\\'a}l", ("Barnes and Noble", "Pál Erdős")),
        ("{STAR Collaboration} and Adamczyk, L.", ("STAR Collaboration", "L. Adamczyk")),
        ("Ada Lovelace and Alan Turing", ("Ada Lovelace", "Alan Turing")),
    ],
)
def test_author_fields_become_first_last_names(author: str, expected: tuple[str, ...]) -> None:
    assert names(author) == expected


BAD = """@article{good, title = {A good entry}}

@article{broken,
  title = {A field that never closes,
  year = 2021
}

@article{good, title = {The same key again}}
@article{twice, title = {One}, title = {Two}}
@misc{empty, year = {2020}}
@book{last, title = {Reading goes on}}
"""


def test_each_bad_entry_is_one_line_with_file_line_and_reason(caplog) -> None:
    path = Path("lib.bib")
    warnings: list[str] = []
    with caplog.at_level(logging.DEBUG):
        papers = read_bibtex(path, BAD, warnings.append)
    assert [p.title for p in papers] == ["A good entry", "Reading goes on"]
    assert warnings == [
        "lib.bib:3: bad BibTeX entry skipped (Unexpected block start: `@article`. "
        "Was still looking for field-value closing `,` or `}`)",
        "lib.bib:8: bad BibTeX entry skipped (duplicate key 'good')",
        "lib.bib:9: bad BibTeX entry skipped (field title twice)",
        "lib.bib:10: entry 'empty' has neither title nor abstract, skipped",
    ]
    # bibtexparser's own multi-line messages are not logged to the user.
    assert not [r for r in caplog.records if r.name.startswith("bibtexparser")]


def test_bibtexparser_messages_do_not_reach_stderr(capfd) -> None:
    read_bibtex(Path("lib.bib"), BAD, lambda _: None)
    assert capfd.readouterr().err == ""


def test_string_macros_and_concatenations_are_resolved(tmp_path: Path) -> None:
    text = """@string{neur = "Neural Information Processing"}
@string{full = neur # " Systems"}
@article{a, title = {Plain macro}, journal = neur}
@article{b, title = {Macro} # " and " # {braces}, journal = neur # { Systems}}
@article{c, title = "Quoted " # "concat title", journal = full}
@article{d, title = {C# is kept}, journal = {Vol. } # 12 # ", " # dec}
@article{e, title = {Unknown macro}, journal = nomacro # { kept}}
"""
    papers = read_bibtex(tmp_path / "lib.bib", text, lambda _: None)
    assert [(p.title, p.venue) for p in papers] == [
        ("Plain macro", "Neural Information Processing"),
        ("Macro and braces", "Neural Information Processing Systems"),
        ("Quoted concat title", "Neural Information Processing Systems"),
        ("C# is kept", "Vol. 12, December"),
        ("Unknown macro", "nomacro # kept"),  # as written: nothing is guessed
    ]


def test_a_volume_its_papers_cite_is_no_paper_and_gives_them_its_venue(tmp_path: Path) -> None:
    """JabRef and biblatex users keep a conference's @proceedings once, its papers crossref it:
    the volume had been a liked paper ("closest to: Proceedings of the 2024 ACM ...")."""
    text = """@inproceedings{a, title = {Side channels in enclaves}, crossref = {ccs24}}
@inproceedings{b, title = {Fuzzing kernels}, booktitle = {Its own venue}, crossref = {CCS24}}
@proceedings{ccs24, title = {Proceedings of CCS 2024}, year = {2024}, eprint = {2401.00001},
  doi = {10.1145/3658644}, note = {arXiv:2401.00002}}
@book{knuth, title = {The Art of Computer Programming}, author = {Knuth, Donald}}
"""
    papers = read_bibtex(tmp_path / "lib.bib", text, lambda _: None)
    assert [(p.title, p.venue) for p in papers] == [
        ("Side channels in enclaves", "Proceedings of CCS 2024"),
        ("Fuzzing kernels", "Its own venue"),
        ("The Art of Computer Programming", ""),  # a book no paper cites is the reader's
    ]
    assert len({p.id for p in papers}) == 3 and not any(p.aliases for p in papers[:2])


def test_a_book_its_chapters_cite_is_the_readers_and_gives_them_its_authors(
    tmp_path: Path,
) -> None:
    """Every crossref target had been left out as a volume: a liked @book that a chapter cites
    vanished without a word, and the chapter had no authors (BibTeX fills them from the book)."""
    text = """@book{goodfellow2016, title = {Deep Learning: An Introduction},
  author = {Goodfellow, Ian and Bengio, Yoshua}, abstract = {Deep learning, from the start.},
  publisher = {MIT Press}, year = {2016}, doi = {10.5555/dl}, eprint = {2401.00003}}
@incollection{ch9, title = {Convolutional Networks}, crossref = {goodfellow2016}}
@inbook{ch10, title = {Sequence Modeling}, author = {Ng, Andrew}, crossref = {goodfellow2016}}
@article{review, title = {A Review of the Book}, crossref = {goodfellow2016}}
@book{edited, title = {Handbook of Graph Learning}, editor = {Doe, Jane}}
@incollection{g1, title = {Graph Kernels Revisited}, crossref = {edited}}
@mvbook{set, title = {Collected Works}, author = {Euler, Leonhard}}
@inbook{vol1, title = {On Bridges}, crossref = {set}}
"""
    warnings: list[str] = []
    papers = {p.title: p for p in read_bibtex(tmp_path / "lib.bib", text, warnings.append)}
    assert list(papers) == [
        "Deep Learning: An Introduction",
        "Convolutional Networks",
        "Sequence Modeling",
        "A Review of the Book",
        "Graph Kernels Revisited",
        "On Bridges",
    ]  # an edited book (no author, no abstract) and an @mvbook are volumes
    book, chapter = papers["Deep Learning: An Introduction"], papers["Convolutional Networks"]
    assert book.authors == chapter.authors == ("Ian Goodfellow", "Yoshua Bengio")
    assert chapter.venue == "Deep Learning: An Introduction" and warnings == []
    assert papers["Sequence Modeling"].authors == ("Andrew Ng",)  # its own, not the book's
    assert papers["A Review of the Book"].authors == ()  # an article is no part of the book
    assert papers["On Bridges"].authors == ("Leonhard Euler",)
    # The book's ids stay the book's: its chapters are papers of their own (reg11 #3).
    assert book.id == "2401.00003" and not ({chapter.id} | set(chapter.aliases)) & {
        "2401.00003",
        "10.5555/dl",
    }


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_library_saved_as_utf16_with_its_bom_is_read(encoding: str, tmp_path: Path) -> None:
    """Windows tools' "Unicode" export had been read as Windows-1252: no papers at all."""
    from digest.sources.bibtex import decode

    text = "@article{a, title = {Gödel and Ångström}, author = {Lovelace, Ada}}\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    warnings: list[str] = []
    (paper,) = read_bibtex(
        tmp_path / "l.bib", decode(data, tmp_path / "l.bib", warnings.append), warnings.append
    )
    assert paper.title == "Gödel and Ångström" and warnings == []


def test_an_entry_that_cannot_be_read_costs_that_entry_not_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An entry's abstract raised (a RecursionError in its LaTeX): a traceback, and no digest
    # for any subscriber of the run.
    from digest.sources import bibtex

    reading = bibtex.bib_paper

    def odd(fields: dict[str, str], source: str):  # type: ignore[no-untyped-def]
        if fields.get("title") == "Pricing":
            raise RecursionError("maximum recursion depth exceeded")
        return reading(fields, source)

    monkeypatch.setattr(bibtex, "bib_paper", odd)
    text = "@article{good, title={Privacy}, year={2024}}\n\n@article{dol, title={Pricing}}\n"
    warnings: list[str] = []
    papers = read_bibtex(Path("lib.bib"), text, warnings.append)
    assert [p.title for p in papers] == ["Privacy"]
    assert warnings == ["lib.bib:3: entry 'dol' cannot be read (RecursionError), skipped"]
