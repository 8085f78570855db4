"""The files source: paper JSONL (plain or gzipped) and CSV become Papers; a bad record is one
warning naming file and line and is skipped, the rest of the file is still read.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from digest.models import InputError, Notice, Paper, SourceConfig, SourceError
from digest.models.evidence import dedupe
from digest.models.identity import abstract_id, title_hash
from digest.sources.files import FilesSource, normalize_id, read_papers
from digest.state import Store

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)

ABSTRACT = (
    "We propose WidgetNet, a graph model that predicts widget failures from sensor logs. "
    "Code: https://github.com/acme/widgetnet."
)
RECORD: dict[str, Any] = {
    "id": "2501.01234v3",
    "title": "WidgetNet: Predicting Widget Failures",
    "abstract": ABSTRACT,
    "authors": ["Ada Lovelace", "Alan Turing"],
    "categories": ["cs.LG", "stat.ML"],
    "published": "2025-01-06",
    "url": "https://arxiv.org/abs/2501.01234v3",
}


def fetch(path: Path) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    config = SourceConfig("files", "files", {"path": str(path)})
    return list(FilesSource().fetch(config, warnings.append)), warnings


def jsonl(*records: Any) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def test_a_jsonl_record_becomes_a_paper(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl"
    path.write_text(jsonl(RECORD | {"venue": "ICML 2026"}), encoding="utf-8")
    papers, warnings = fetch(path)
    assert warnings == []
    assert papers == [
        Paper(
            id="2501.01234",
            title="WidgetNet: Predicting Widget Failures",
            abstract=ABSTRACT,
            authors=("Ada Lovelace", "Alan Turing"),
            venue="ICML 2026",
            url="https://arxiv.org/abs/2501.01234v3",
            code_url="https://github.com/acme/widgetnet",
            published=date(2025, 1, 6),
            source="files:papers.jsonl",
            categories=("cs.LG", "stat.ML"),
        )
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2501.01234v3", "2501.01234"),
        ("2501.01234", "2501.01234"),
        ("arXiv:2501.01234v12", "2501.01234"),
        ("arxiv:0704.0001", "0704.0001"),
        ("hep-th/9901001v1", "hep-th/9901001"),
        ("math.GT/0309136v2", "math/0309136"),
        ("https://arxiv.org/abs/2501.01234v2", "2501.01234"),
        ("10.1145/3580305.3599831", "10.1145/3580305.3599831"),  # a DOI keeps its dots and digits
        ("rJXMpikCZ", "rJXMpikCZ"),  # an OpenReview id
        ("paper-v2", "paper-v2"),
    ],
)
def test_arxiv_ids_lose_prefix_and_version_other_ids_stay(raw: str, expected: str) -> None:
    assert normalize_id(raw) == expected


@pytest.mark.parametrize("given", ["n/a", "none", "x", "javascript:alert(1)", "github.com/a/b"])
def test_a_code_url_that_is_no_web_address_is_missing(tmp_path: Path, given: str) -> None:
    """sec1 F2: an export's "n/a" or a `javascript:` code_url, never shown, had also hidden the
    abstract's own code link."""
    path = tmp_path / "junk.jsonl"
    path.write_text(jsonl({"abstract": ABSTRACT, "code_url": given}))
    (paper,), _ = fetch(path)
    assert paper.code_url == "https://github.com/acme/widgetnet"


def test_missing_fields_are_derived_from_the_abstract(tmp_path: Path) -> None:
    path = tmp_path / "bare.jsonl"
    path.write_text(
        jsonl(
            {"abstract": ABSTRACT},
            {"id": "", "abstract": ABSTRACT, "code_url": "https://gitlab.com/acme/given"},
        )
    )
    papers, warnings = fetch(path)
    assert warnings == []
    assert [p.id for p in papers] == [abstract_id(ABSTRACT)] * 2
    assert (
        papers[0].title == "WidgetNet: a graph model that predicts widget failures from sensor logs"
    )
    assert papers[0].code_url == "https://github.com/acme/widgetnet"
    assert papers[1].code_url == "https://gitlab.com/acme/given"  # given wins over found
    assert papers[0].authors == () and papers[0].published is None


def test_bad_jsonl_lines_are_warned_with_file_and_line_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    good = RECORD | {"id": "2501.00001"}
    path.write_text(
        jsonl(
            good,
            "",  # blank lines are not records
            "{not json",
            [1, 2],
            {"id": "x", "title": "", "abstract": "  "},
            RECORD | {"authors": "Ada Lovelace"},
            RECORD | {"published": "06/01/2025"},
            RECORD | {"published": "2025-02-30"},
            RECORD | {"id": 2501.01234},
            RECORD | {"title": ["not", "text"]},
            RECORD | {"id": "2501.00002", "published": None},
        ),
        encoding="utf-8",
    )
    papers, warnings = fetch(path)
    assert [p.id for p in papers] == ["2501.00001", "2501.00002"]
    assert warnings == [
        f"{path}:3: invalid JSON (unexpected character, expected a string key at column 2)",
        f"{path}:4: expected a JSON object, got list",
        f"{path}:5: record has neither abstract nor title",
        f'{path}:6: authors must be a list of strings, got "Ada Lovelace"',
        f'{path}:7: published must be YYYY-MM-DD or null, got "06/01/2025"',
        f'{path}:8: published must be YYYY-MM-DD or null, got "2025-02-30"',
        f"{path}:9: id must be a string, got float",
        f"{path}:10: title must be a string, got list",
    ]


def test_invalid_utf8_skips_one_line_and_a_bom_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    first = b"\xef\xbb\xbf" + json.dumps(RECORD).encode() + b"\n"
    bad = b'{"abstract": "caf\xe9"}\n'
    path.write_bytes(first + bad + json.dumps(RECORD | {"id": "2501.00009"}).encode() + b"\n")
    papers, warnings = fetch(path)
    assert [p.id for p in papers] == ["2501.01234", "2501.00009"]
    offset = len(first) + bad.index(b"\xe9")
    assert warnings == [f"{path}:2: not valid UTF-8 (byte 0xe9 at offset {offset})"]


def test_gzipped_jsonl_is_read_through_gzip(tmp_path: Path) -> None:
    path = tmp_path / "papers.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(
            jsonl(
                RECORD, RECORD | {"id": "arXiv:2502.00002v1", "published": "2025-02-03T17:00:00Z"}
            )
        )
    papers, warnings = fetch(path)
    assert warnings == []
    assert [(p.id, p.published) for p in papers] == [
        ("2501.01234", date(2025, 1, 6)),
        ("2502.00002", date(2025, 2, 3)),
    ]
    assert papers[0].source == "files:papers.jsonl.gz"


def test_a_corrupt_gzip_is_one_warning(tmp_path: Path) -> None:
    (tmp_path / "broken.jsonl.gz").write_bytes(b"this is not gzip at all")
    papers, warnings = fetch(tmp_path / "broken.jsonl.gz")
    assert papers == []
    assert len(warnings) == 1 and warnings[0].startswith(
        f"{tmp_path / 'broken.jsonl.gz'}: cannot read"
    )


def test_csv_has_the_same_columns_with_semicolon_lists(tmp_path: Path) -> None:
    path = tmp_path / "papers.csv"
    path.write_text(
        "id,title,abstract,authors,categories,published,url,venue\n"
        f'2501.01234v2,WidgetNet,"{ABSTRACT}",'
        "Ada Lovelace; Alan Turing,cs.LG;stat.ML,2025-01-06,,ICML\n"
        ',,"A multi-line abstract about\nwidget graphs and sensors.",,,,,\n',
        encoding="utf-8",
    )
    papers, warnings = fetch(path)
    assert warnings == []
    first, second = papers
    assert first.id == "2501.01234"
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert first.categories == ("cs.LG", "stat.ML")
    assert (first.published, first.url, first.venue) == (date(2025, 1, 6), "", "ICML")
    assert first.source == "files:papers.csv"
    assert second.id == abstract_id("A multi-line abstract about widget graphs and sensors.")
    assert second.title == "A multi-line abstract about widget graphs and sensors"


def test_bad_csv_rows_are_warned_with_the_line_they_start_on(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "title,abstract,published\n"
        'Good one,"An abstract that spans\ntwo lines.",2025-01-01\n'
        "Too,many,fields,here\n"
        "No date,An abstract.,yesterday\n"
        ",,\n"
        "Good two,Another abstract.,\n",
        encoding="utf-8",
    )
    papers, warnings = fetch(path)
    assert [p.title for p in papers] == ["Good one", "Good two"]
    assert warnings == [
        f"{path}:4: row has 4 fields, the header has 3",
        f'{path}:5: published must be YYYY-MM-DD or null, got "yesterday"',
    ]


def test_a_csv_with_a_windows_1252_row_is_read_whole_with_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(
        "title,abstract,authors\nZoë’s first,An abstract in UTF-8.,Zoë Ng\n".encode()
        + 'Café privacy,Federated learning in cafés.,"Lovelace, Ada"\n'.encode("cp1252")
        + b"Third,Another abstract.,Bob\n"
    )
    papers, warnings = fetch(path)
    assert [p.title for p in papers] == ["Zoë’s first", "Café privacy", "Third"]
    assert papers[1].abstract == "Federated learning in cafés." and papers[1].authors == (
        "Ada Lovelace",
    )
    offset = len("title,abstract,authors\nZoë’s first,An abstract in UTF-8.,Zoë Ng\nCaf".encode())
    assert warnings == [
        f"{path}:3: not valid UTF-8 (byte 0xe9 at offset {offset});"
        " lines that are not UTF-8 read as Windows-1252"
    ]


@pytest.mark.parametrize("name", ["export.csv", "export.jsonl"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_file_saved_as_utf16_with_its_bom_is_read(
    name: str, encoding: str, tmp_path: Path
) -> None:
    """Excel's "Unicode text" and a PowerShell redirect write UTF-16: it was "binary file"."""
    path = tmp_path / name
    if name.endswith(".csv"):
        text = 'title,abstract,authors\r\nZoë’s privacy,"Federated, private.",Zoë Ng\r\n'
    else:
        text = jsonl(RECORD | {"title": "Zoë’s privacy", "authors": ["Zoë Ng"]})
    path.write_bytes(
        text.encode(encoding) if encoding == "utf-16" else b"\xfe\xff" + text.encode(encoding)
    )
    papers, warnings = fetch(path)
    assert [(p.title, p.authors) for p in papers] == [("Zoë’s privacy", ("Zoë Ng",))]
    assert warnings == []


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-8", "cp1252"])
def test_a_tab_separated_csv_is_read_in_any_encoding_read(encoding: str, tmp_path: Path) -> None:
    """Excel's "Unicode Text" is UTF-16 and tab-separated: the header read as one column,
    "id\ttitle\tabstract", and the file was refused."""
    path = tmp_path / "export.csv"
    text = (
        "id\ttitle\tabstract\tauthors\r\n"
        '2501.00001\tCafé privacy, a study\t"Private, and\r\nfederated."\tZoë Ng; Bo Li\r\n'
        "2501.00002\tSecond\tAnother abstract.\t\r\n"
    )
    path.write_bytes(text.encode(encoding))
    papers, warnings = fetch(path)
    assert [(p.id, p.title, p.authors) for p in papers] == [
        ("2501.00001", "Café privacy, a study", ("Zoë Ng", "Bo Li")),
        ("2501.00002", "Second", ()),
    ]
    assert papers[0].abstract == "Private, and\r\nfederated."
    assert [w for w in warnings if "Windows-1252" not in w] == []
    # A comma-separated file whose fields hold tabs stays comma-separated.
    path.write_text('title,abstract\n"A\ttitle",An\tabstract.\n', encoding="utf-8")
    assert [(p.title, p.abstract) for p in fetch(path)[0]] == [("A\ttitle", "An\tabstract.")]


def test_a_nul_byte_in_a_csv_row_is_left_out_and_the_file_read(tmp_path: Path) -> None:
    # One NUL anywhere had skipped the whole file as binary: 20 good rows, or 500,000.
    path = tmp_path / "export.csv"
    rows = [f"Paper {n} on privacy,{'An abstract of some length. ' * 40},Ada Ng" for n in range(20)]
    rows[5] = rows[5].replace("some length", "some\x00 length")
    path.write_text("title,abstract,authors\n" + "\n".join(rows) + "\n", encoding="utf-8")
    papers, warnings = fetch(path)
    assert len(papers) == 20 and "some length" in papers[5].abstract
    assert warnings == [f"{path}:7: a NUL byte (and any later ones) left out"]
    assert isinstance(warnings[0], Notice)  # a notice: no record is skipped
    (tmp_path / "image.csv").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"x" * 5000)
    assert fetch(tmp_path / "image.csv") == (
        [],
        [f"{tmp_path / 'image.csv'}: binary file, skipped"],
    )


def test_a_csv_without_usable_header_is_one_warning(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("")
    (tmp_path / "b.csv").write_text("name,year\nfoo,2020\n")
    papers, warnings = fetch(tmp_path)
    assert papers == []
    assert warnings == [
        f"{tmp_path / 'a.csv'}: empty file, no header row",
        f"{tmp_path / 'b.csv'}:1: header row needs an 'abstract' or 'title' column,"
        " got ['name', 'year']",
    ]


def test_a_folder_reads_jsonl_gz_and_csv_sorted_and_ignores_the_rest(tmp_path: Path) -> None:
    (tmp_path / "b.csv").write_text(f'id,abstract\n2501.00002,"{ABSTRACT}"\n')
    (tmp_path / "a.jsonl").write_text(jsonl(RECORD | {"id": "2501.00001"}))
    with gzip.open(tmp_path / "c.jsonl.gz", "wt") as out:
        out.write(jsonl(RECORD | {"id": "2501.00003"}))
    (tmp_path / "d.json").write_text(json.dumps(RECORD))
    (tmp_path / "e.txt").write_text("Seeds\n\n" + ABSTRACT)
    (tmp_path / "f.jsonl").write_bytes(b"\x00\x01binary")
    papers, warnings = fetch(tmp_path)
    assert [(p.id, p.source) for p in papers] == [
        ("2501.00001", "files:a.jsonl"),
        ("2501.00002", "files:b.csv"),
        ("2501.00003", "files:c.jsonl.gz"),
    ]
    assert warnings == [f"{tmp_path / 'f.jsonl'}: binary file, skipped"]


def test_a_line_too_long_to_be_a_record_is_skipped_not_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One 1.5 GB line in 1.4 MB of gzip ended a library's read in a MemoryError.
    from digest.sources import files

    monkeypatch.setattr(files, "MAX_LINE", 2**20)
    with gzip.open(tmp_path / "bomb.jsonl.gz", "wb") as out:
        out.write(b'{"title": "' + b"x" * 3 * 2**20 + b'"}\n')
        out.write(jsonl(RECORD).encode())
    warnings: list[str] = []
    papers = read_papers(str(tmp_path / "bomb.jsonl.gz"), warnings.append)
    assert [p.id for p in papers] == ["2501.01234"]
    assert warnings == [f"{tmp_path / 'bomb.jsonl.gz'}:1: a line over 1 MiB, skipped"]


def test_a_missing_path_fails_the_source(tmp_path: Path) -> None:
    missing = tmp_path / "gone.jsonl"
    with pytest.raises(SourceError, match=re.escape(f"{missing}: no such file or folder")):
        FilesSource().fetch(SourceConfig("files", "files", {"path": str(missing)}), print)


def test_read_papers_reads_one_file_for_the_rank_command(tmp_path: Path) -> None:
    path = tmp_path / "rank.jsonl"
    path.write_text(jsonl(RECORD, "oops"))
    warnings: list[str] = []
    papers = read_papers(str(path), warnings.append)
    assert [p.id for p in papers] == ["2501.01234"]
    assert warnings == [
        f"{path}:2: invalid JSON (unexpected character, expected a JSON value at column 1)"
    ]
    with pytest.raises(InputError, match="no such file"):
        read_papers(str(tmp_path / "missing.jsonl"), warnings.append)
    with pytest.raises(InputError, match="a folder; name one paper file"):
        read_papers(str(tmp_path), warnings.append)
    with pytest.raises(InputError, match="not a regular file"):
        read_papers("/dev/null", warnings.append)


def test_csv_and_jsonl_authors_split_as_reference_managers_write_them(tmp_path: Path) -> None:
    path = tmp_path / "zotero.csv"
    path.write_text(
        "title,authors\n"
        '"One","Kukla, D., Crampton, A., Wood, D., Khetani, S."\n'
        '"Two","Reagle, Jr., Joseph M.; Lovelace, Ada"\n'
        '"Three","Ada Lovelace, Alan Turing and Grace Hopper et al."\n',
        encoding="utf-8",
    )
    papers, warnings = fetch(path)
    assert warnings == []
    assert [p.authors for p in papers] == [
        ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani"),
        ("Joseph M. Reagle Jr.", "Ada Lovelace"),
        ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
    ]
    lines = tmp_path / "lines.jsonl"
    lines.write_text(jsonl(RECORD | {"authors": ["Lovelace, Ada", "Reagle, Jr., Joseph M."]}))
    (paper,), _ = fetch(lines)
    assert paper.authors == ("Ada Lovelace", "Joseph M. Reagle Jr.")


def test_a_csv_abstract_of_a_megabyte_is_read_like_a_jsonl_one(tmp_path: Path) -> None:
    huge = "learning " * 120_000  # about 1 MB: far beyond csv's default cap of 128 KiB a field
    path = tmp_path / "big.csv"
    path.write_text(
        "id,title,abstract\n"
        "2612.1,A first learning paper,x\n"
        f'2612.2,Huge,"{huge}"\n'
        "2612.3,After the huge learning paper,y\n",
        encoding="utf-8",
    )
    papers, warnings = fetch(path)
    assert warnings == []
    assert [p.id for p in papers] == ["2612.1", "2612.2", "2612.3"]
    assert len(papers[1].abstract) == len(huge.strip())


def test_a_csv_record_the_reader_refuses_is_skipped_and_the_rest_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """csv.Error on one record (here a field over a lowered cap) loses that record alone."""
    import csv

    from digest.sources import files

    path = tmp_path / "capped.csv"
    path.write_text(
        "id,title,abstract\n"
        "2612.1,A first paper,x\n"
        f'2612.2,Too long,"{"word " * 100}"\n'
        "2612.3,After the long paper,y\n",
        encoding="utf-8",
    )
    before = csv.field_size_limit()
    monkeypatch.setattr(files, "CSV_FIELD_LIMIT", 100)
    csv.field_size_limit(100)
    try:
        papers, warnings = fetch(path)
    finally:
        csv.field_size_limit(before)
    assert [p.id for p in papers] == ["2612.1", "2612.3"]
    assert warnings == [
        f"{path}:3: bad CSV (field larger than field limit (100)); record skipped",
    ]


def test_a_nul_byte_in_one_jsonl_line_skips_that_line_alone(tmp_path: Path) -> None:
    path = tmp_path / "nul.jsonl"
    first = json.dumps(RECORD | {"id": "2501.00001"}).encode() + b"\n"
    bad = b'{"id": "2501.00002", "title": "A\x00B"}\n'
    path.write_bytes(first + bad + json.dumps(RECORD | {"id": "2501.00003"}).encode() + b"\n")
    papers, warnings = fetch(path)
    assert [p.id for p in papers] == ["2501.00001", "2501.00003"]
    offset = len(first) + bad.index(b"\x00")
    assert warnings == [f"{path}:2: a NUL byte at offset {offset}, line skipped"]


PLACEHOLDER = "No abstract available."


def test_records_without_ids_are_known_by_their_titles_not_a_shared_abstract(
    tmp_path: Path,
) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(
        jsonl(
            {"title": "First distinct paper on federated learning", "abstract": PLACEHOLDER},
            {"title": "Second distinct paper on diffusion models", "abstract": PLACEHOLDER},
        )
    )
    papers, warnings = fetch(path)
    assert warnings == []
    assert [p.id for p in papers] == [
        title_hash("First distinct paper on federated learning"),
        title_hash("Second distinct paper on diffusion models"),
    ]
    # The abstract hash such records were known by before stays: see the store tests below.
    assert [p.aliases for p in papers] == [(abstract_id(PLACEHOLDER),)] * 2
    assert len(dedupe(papers)) == 2
    with Store(str(tmp_path / "state.db")) as store:
        assert store.add_papers(papers, NOW) == 2
        assert store.add_papers(fetch(path)[0], NOW) == 0  # and the next run: none new


def old_style(record: dict[str, str]) -> Paper:
    """A file record as the files source made it before records were known by their title."""
    abstract, title = record.get("abstract", ""), record["title"]
    return Paper(abstract_id(abstract or title), title, abstract, source="files:b.jsonl")


def test_a_record_stored_under_its_old_abstract_hash_is_still_that_paper(
    tmp_path: Path,
) -> None:
    """A store filled before the change holds file records under 'h:<abstract hash>' only; the
    same records read now are those papers (never new again), and a record that shares only the
    placeholder abstract (it was swallowed before) is now a paper of its own."""
    first = {"title": "First distinct paper on federated learning", "abstract": PLACEHOLDER}
    real = {"title": "Secure aggregation for federated learning", "abstract": ABSTRACT}
    no_abstract = {"title": "A paper without any abstract at all"}
    second = {"title": "Second distinct paper on diffusion models", "abstract": PLACEHOLDER}
    with Store(str(tmp_path / "state.db")) as store:
        olds = [old_style(first), old_style(real), old_style(no_abstract)]
        assert store.add_papers(olds, NOW) == 3
        assert olds[0].id.startswith("h:") and store.papers.keys_of(olds[0].id) == [olds[0].id]
        path = tmp_path / "b.jsonl"
        path.write_text(jsonl(first, real, no_abstract, second))
        papers, _ = fetch(path)
        assert store.add_papers(papers, NOW) == 1  # only the second placeholder record
        stored = [p for _, p in store.papers_after(0)]
        assert [p.id for p in stored] == [*(p.id for p in olds), papers[3].id]
        assert [p.title for p in stored][-1] == second["title"]
        # Each old paper now carries its title keys too: the next runs find it directly.
        assert title_hash(first["title"]) in store.papers.keys_of(olds[0].id)
        assert store.add_papers(fetch(path)[0], NOW) == 0


def test_a_file_record_and_a_feed_item_of_one_title_are_one_paper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from feedserver import Answer, FeedServer, serve

    from digest.sources.rss import RssSource

    title = "Federated learning under partial client participation"
    text = "We analyze federated learning when only some clients participate in each round."
    path = tmp_path / "a.jsonl"
    path.write_text(jsonl({"title": title, "abstract": text}))
    rss = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title>'
        f"<item><title>{title.upper()}</title><description>{text}</description></item>"
        "</channel></rss>"
    )
    server: FeedServer
    for server in serve(monkeypatch):
        server.route("/rss", Answer(body=rss, content_type="application/rss+xml"))
        config = SourceConfig("feed", "rss", {"url": f"{server.url}/rss", "retries": 0})
        items = list(RssSource().fetch(config, print))
    records, _ = fetch(path)
    assert len(dedupe([*records, *items])) == 1
    with Store(str(tmp_path / "state.db")) as store:
        assert store.add_papers(records, NOW) == 1
        assert store.add_papers(items, NOW) == 0
    # A file paper stored the old way, under its abstract hash, is found by a later feed item
    # once its record has been read again (each run reads the files).
    with Store(str(tmp_path / "old.db")) as store:
        store.add_papers([old_style({"title": title, "abstract": text})], NOW)
        assert store.add_papers(records, NOW) == 0
        assert store.add_papers(items, NOW) == 0


# Titles as arXiv's metadata and data dumps write them, and as a journal's feed lists the same
# papers: read as text (the arXiv, RSS and OpenReview sources' to_text).
LATEX = {
    "Physical properties of galaxies and the UV Luminosity Function from $z\\sim6$ to "
    "$z\\sim14$ in COSMOS-Web": "Physical properties of galaxies and the UV Luminosity "
    "Function from z∼6 to z∼14 in COSMOS-Web",
    "H I Properties of Field Galaxies at $\\boldsymbol{z\\approx 0.2}$-0.6": "H I Properties "
    "of Field Galaxies at z≈ 0.2-0.6",
    "The Size-Mass Relation of Lyman-Alpha Emitters across $3 \\lesssim z < 7$": "The Size-Mass "
    "Relation of Lyman-Alpha Emitters across 3 ≲ z < 7",
    "Interlayer excitons in MoS$_2$/WSe$_{2}$ heterobilayers": "Interlayer excitons in MoS₂/WSe₂ "
    "heterobilayers",
}
LATEX_TEXT = "We grow MoS$_2$ for 2.1$\\mu$W at $\\sigma_8 = 0.8$; it costs $5 and $10 a day."
READ_TEXT = "We grow MoS₂ for 2.1μW at σ₈ = 0.8; it costs $5 and $10 a day."


def test_latex_in_titles_and_abstracts_reads_as_text_in_jsonl_csv_and_rank_papers(
    tmp_path: Path,
) -> None:
    records = [{"title": t, "abstract": LATEX_TEXT, "authors": ["Ada Lovelace"]} for t in LATEX]
    (tmp_path / "a.jsonl").write_text(jsonl(*records), encoding="utf-8")
    rows = "".join(f'"{r["title"]}","{r["abstract"]}"\n' for r in records)
    (tmp_path / "b.csv").write_text("title,abstract\n" + rows, encoding="utf-8")
    papers, warnings = fetch(tmp_path)
    assert warnings == []
    assert [p.title for p in papers] == [*LATEX.values()] * 2
    assert {p.abstract for p in papers} == {READ_TEXT}  # a dollar amount stays as written
    ranked = read_papers(str(tmp_path / "a.jsonl"), print)  # `digest rank --papers`
    assert [(p.title, p.abstract) for p in ranked] == [(p.title, p.abstract) for p in papers[:4]]


def test_a_paper_only_ranked_keeps_its_abstracts_latex_for_the_analyzer(tmp_path: Path) -> None:
    """Decoding every abstract cost `digest rank` a second per 10,000 papers; the title, its
    identity and what a reader sees, is read as text."""
    record = {"title": "MoS$_2$ films", "abstract": "We grow MoS$_2$ at $z\\sim6$ scales."}
    (tmp_path / "a.jsonl").write_text(jsonl(record), encoding="utf-8")
    [paper] = read_papers(str(tmp_path / "a.jsonl"), print, links=False)
    assert (paper.title, paper.abstract) == ("MoS₂ films", record["abstract"])
    # One without a title is known by its abstract: by the id a run stores (its text read), or
    # a library's paper had been recommended back to its reader.
    (tmp_path / "b.jsonl").write_text(jsonl({"abstract": record["abstract"]}), encoding="utf-8")
    [ranked] = read_papers(str(tmp_path / "b.jsonl"), print, links=False)
    [stored], _ = fetch(tmp_path / "b.jsonl")
    assert ranked.id == stored.id and ranked.abstract == record["abstract"]


def test_latex_is_read_once_a_title_derived_from_the_abstract_too(tmp_path: Path) -> None:
    """An escaped dollar is a dollar: read twice, `\\$x\\$` would become math and lose them."""
    text = "The \\$x\\$ notation for MoS$_2$ films is ours. We grow them."
    (tmp_path / "a.jsonl").write_text(jsonl({"abstract": text}), encoding="utf-8")
    [paper], _ = fetch(tmp_path / "a.jsonl")
    assert paper.abstract == "The $x$ notation for MoS₂ films is ours. We grow them."
    assert paper.title == "The $x$ notation for MoS₂ films is ours"


def journal_feed(items: list[tuple[str, str]]) -> str:
    """A journal's RSS feed: each (DOI, title) an item with the text read as text."""
    body = "".join(
        f"<item><title>{title}</title><link>https://doi.org/{doi}</link>"
        f"<description>{READ_TEXT}</description>"
        "<dc:creator>Ada Lovelace, Grace Hopper</dc:creator></item>"
        for doi, title in items
    )
    return (
        '<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<channel><title>MNRAS</title>{body}</channel></rss>"
    )


def test_a_latex_title_from_a_file_and_its_journal_copy_in_a_feed_are_one_paper(
    state: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Day 1 a paper file (an arXiv id, or none), day 2 a journal's feed of the same papers
    under DOIs, their titles read as text (or written in LaTeX, which the feed source reads):
    nothing new on day 2, so nothing sent again."""
    from feedserver import Answer, FeedServer, serve

    from digest.sources.rss import RssSource

    titles = list(LATEX)
    authors = ["Ada Lovelace", "Grace Hopper"]
    records = [
        {"id": f"2510.2595{i}", "title": t, "abstract": LATEX_TEXT, "authors": authors}
        for i, t in enumerate(titles[:2])
    ] + [{"title": t, "abstract": LATEX_TEXT, "authors": authors} for t in titles[2:]]
    (tmp_path / "a.jsonl").write_text(jsonl(*records), encoding="utf-8")
    dois = [f"10.1093/mnras/staf100{i}" for i in range(len(titles))]
    copies = [(d, LATEX[t]) for d, t in zip(dois, titles, strict=True)]
    copies[1] = (dois[1], titles[1])  # a feed that writes its titles in LaTeX
    server: FeedServer
    for server in serve(monkeypatch):
        rss = journal_feed(copies)
        server.route("/rss", Answer(body=rss, content_type="application/rss+xml"))
        config = SourceConfig("mnras", "rss", {"url": f"{server.url}/rss", "retries": 0})
        items = list(RssSource().fetch(config, print))
    records_read, _ = fetch(tmp_path / "a.jsonl")
    assert [p.title for p in items] == [p.title for p in records_read]
    assert len(dedupe([*records_read, *items])) == len(titles)
    with Store(state) as store:
        assert store.add_papers(records_read, NOW) == len(titles)
    with Store(state) as store:  # the next day's run
        assert store.add_papers(items, NOW) == 0
        assert store.add_papers(fetch(tmp_path / "a.jsonl")[0], NOW) == 0


def written_the_old_way(record: dict[str, str]) -> Paper:
    """A file record as the files source stored it before it read LaTeX: the title and text as
    written, known by the title's hash (the abstract's when the title is too short)."""
    abstract, title = record["abstract"], record["title"]
    key = title_hash(title)
    aliases = (abstract_id(abstract),) if key else ()
    return Paper(key or abstract_id(abstract), title, abstract, aliases=aliases, source="files")


def test_a_paper_stored_under_its_latex_title_is_found_by_the_record_read_as_text(
    state: str, tmp_path: Path
) -> None:
    """An upgrade sends nothing again: papers stored with their LaTeX as written, known by its
    title's hash, by their abstract's (a title too short, or stored before titles were keys),
    are the records read now, which keep the ids they had."""
    titles = [*LATEX, "MoS$_2$ films"]
    records = [{"title": t, "abstract": f"Paper {i}. {LATEX_TEXT}"} for i, t in enumerate(titles)]
    (tmp_path / "a.jsonl").write_text(jsonl(*records), encoding="utf-8")
    papers, _ = fetch(tmp_path / "a.jsonl")
    olds = [written_the_old_way(r) for r in records]
    olds[1] = old_style(records[1])  # stored under its abstract hash alone
    assert [p.id for p in papers] == [written_the_old_way(r).id for r in records]
    with Store(state) as store:
        assert store.add_papers(olds, NOW) == len(olds)
    with Store(state) as store:
        assert store.add_papers(papers, NOW) == 0
        stored = [p for _, p in store.papers_after(0)]
        assert [p.title for p in stored] == [r["title"] for r in records]  # the stored text stays
        # And the journal's copy later, read as text: found by the title keys the run added.
        copy = dataclasses.replace(papers[0], id="10.1093/mnras/staf1000", aliases=())
        assert store.add_papers([copy], NOW) == 0


# An abstract as Crossref's API writes it (and Zotero keeps it, and a CSV or JSONL export of
# either): JATS paragraphs and heading, MathML formulas, HTML entities.
JATS = (
    "<jats:title>Abstract</jats:title><jats:p>We study federated learning &amp; differential"
    " privacy with <mml:math><mml:msub><mml:mi>&#x3b5;</mml:mi><mml:mn>0</mml:mn></mml:msub>"
    "</mml:math> at <mml:math><mml:mi>p</mml:mi><mml:mo>&lt;</mml:mo><mml:mn>0.05</mml:mn>"
    "</mml:math>.</jats:p>"
)
JATS_TEXT = "We study federated learning & differential privacy with ε₀ at p<0.05."
MARKED_TITLE = "Growth of <i>E. coli</i> on MoS<sub>2</sub> &amp; graphene"
MARKED_TITLE_TEXT = "Growth of E. coli on MoS₂ & graphene"


def test_markup_in_titles_abstracts_and_names_reads_as_a_feeds_does(tmp_path: Path) -> None:
    """A library exported from Crossref or Zotero had ranked on the words "mml, jats, title, mo,
    mi" and shown its tags and &amp; in a digest: a run, `digest rank --papers` and a library
    (an abstract left to the analyzer) read the markup away, as the RSS source does."""
    names = ["Jos&eacute; Garc&iacute;a", "Ann Lee"]
    record = {"title": MARKED_TITLE, "abstract": JATS, "authors": names, "venue": "R&amp;D"}
    (tmp_path / "a.jsonl").write_text(jsonl(record), encoding="utf-8")
    row = f'"{MARKED_TITLE}","{JATS}","{"; ".join(names)}",R&amp;D\n'
    (tmp_path / "b.csv").write_text("title,abstract,authors,venue\n" + row, encoding="utf-8")
    papers, warnings = fetch(tmp_path)
    ranked = read_papers(str(tmp_path / "a.jsonl"), print, links=False)
    assert warnings == []
    read = (MARKED_TITLE_TEXT, JATS_TEXT, ("José García", "Ann Lee"), "R&D")
    assert [(p.title, p.abstract, p.authors, p.venue) for p in [*papers, *ranked]] == [read] * 3


def test_a_less_than_sign_that_opens_no_element_stays_and_a_plain_text_stays_as_written(
    tmp_path: Path,
) -> None:
    """`$k<n$`, "p < 0.05" and "a<b" are an abstract's own text, beside markup or not; an
    abstract without markup is as it was, to its blanks (a library's, left to the analyzer)."""
    marked = "For <i>all</i> $k<n$, a<b holds &amp; p < 0.05."
    written = "For all $k<n$, a<b holds & p < 0.05;\n  R&D as  written."
    (tmp_path / "a.jsonl").write_text(jsonl({"abstract": marked}, {"abstract": written}))
    run = [p.abstract for p in fetch(tmp_path / "a.jsonl")[0]]
    ranked = [p.abstract for p in read_papers(str(tmp_path / "a.jsonl"), print, links=False)]
    assert run == [
        "For all k<n, a<b holds & p < 0.05.",
        "For all k<n, a<b holds & p < 0.05;\n  R&D as  written.",
    ]
    assert ranked == ["For all $k<n$, a<b holds & p < 0.05.", written]


def test_a_record_with_markup_keeps_its_id_and_is_its_feed_copy(state: str, tmp_path: Path) -> None:
    """An upgrade sends nothing again: a record known by its abstract, stored when its markup
    was read as words, keeps that id (a library's copy too); a feed's item of the same text,
    read as text, is the same paper, by the hash of the record's text read now."""
    from digest.sources import rss
    from digest.sources.latex import to_text

    (tmp_path / "a.jsonl").write_text(jsonl({"abstract": JATS}), encoding="utf-8")
    before = Paper(abstract_id(to_text(JATS)), "An earlier derived title", JATS, source="files")
    [paper], _ = fetch(tmp_path / "a.jsonl")
    [ranked] = read_papers(str(tmp_path / "a.jsonl"), print, links=False)
    assert paper.id == ranked.id == before.id and paper.abstract == JATS_TEXT
    item = rss.to_paper({"summary": JATS}, "", "rss:journal")
    assert item is not None and item.abstract == JATS_TEXT
    assert len(dedupe([paper, item])) == 1
    with Store(state) as store:
        assert store.add_papers([before], NOW) == 1
        assert store.add_papers([paper], NOW) == 0
        assert store.add_papers([item], NOW) == 0
