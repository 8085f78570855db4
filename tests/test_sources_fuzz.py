"""Odd input never breaks a parser: paper files (JSONL, CSV), seed lists, BibTeX libraries, RSS
and Atom feeds, OpenReview notes and the text helpers give papers, warnings, or the one error
their kind raises (InputError, SourceError), nothing else. Bounded so the suite stays fast."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from digest import library
from digest.models import InputError, Paper, SourceError
from digest.sources import arxiv, authors, latex, openreview, rss
from digest.sources.bibtex import read_bibtex
from digest.sources.files import read_papers
from digest.sources.seeds import parse_seeds

FUZZ = settings(
    max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    database=None,  # no example database written into the repository
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# The characters that matter to these formats, and any others now and then.
_MARKUP = list("@{}=,;\"\\$^_~%#&<>()[]:/'`\n\t -.") + list("aAzZ09éü论 ")
TEXT = st.text(st.sampled_from(_MARKUP) | st.characters(), max_size=200)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["id", "title", "abstract", "authors", "categories", "published", "url", "venue"]


def written(name: str, data: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(dir="."))
    path = folder / name
    path.write_bytes(data)
    return path


def check_papers(papers: object) -> None:
    assert all(isinstance(p, Paper) and isinstance(p.title, str) for p in papers)  # type: ignore[attr-defined]


@FUZZ
@given(st.lists(st.dictionaries(st.sampled_from(FIELDS), JSON) | JSON | TEXT, max_size=6))
def test_jsonl_records_of_any_shape(records: list[object]) -> None:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path = written("papers.jsonl", "\n".join(lines).encode("utf-8", "surrogatepass"))
    check_papers(read_papers(str(path), lambda _: None))


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["a.jsonl", "a.csv", "a.jsonl.gz"]))
def test_paper_files_of_any_bytes(data: bytes, name: str) -> None:
    check_papers(read_papers(str(written(name, data)), lambda _: None))


@FUZZ
@given(st.lists(st.lists(TEXT, max_size=5), max_size=5), st.lists(st.sampled_from(FIELDS)))
def test_csv_rows_of_any_text(rows: list[list[str]], header: list[str]) -> None:
    text = "\n".join(",".join(header)) + "\n" + "\n".join(",".join(r) for r in rows)
    path = written("papers.csv", text.encode("utf-8", "surrogatepass"))
    check_papers(read_papers(str(path), lambda _: None))


@FUZZ
@given(TEXT, st.lists(TEXT, max_size=5))
def test_seed_lists_of_any_text(header: str, paragraphs: list[str]) -> None:
    text = header + "\n\n" + "\n\n".join(paragraphs)
    check_papers(list(parse_seeds(Path("s.txt"), text, lambda _: None)))


_BIB_FIELD = st.tuples(
    st.sampled_from(["title", "author", "abstract", "journal", "keywords", "eprint", "doi", "x"]),
    TEXT,
)
_BIB_ENTRY = st.builds(
    lambda kind, key, fields, close: (
        f"@{kind}{{{key},\n" + ",\n".join(f"  {k} = {{{v}}}" for k, v in fields) + close
    ),
    st.sampled_from(["article", "misc", "string", "comment", "preamble", ""]),
    TEXT,
    st.lists(_BIB_FIELD, max_size=4),
    st.sampled_from(["\n}\n", "", "}", "\n"]),
)


@FUZZ
@given(st.lists(_BIB_ENTRY | TEXT, max_size=5))
def test_bibtex_of_any_shape(blocks: list[str]) -> None:
    try:
        check_papers(read_bibtex(Path("lib.bib"), "\n".join(blocks), lambda _: None))
    except InputError as exc:
        assert str(exc).startswith("lib.bib: ")


@FUZZ
@given(
    st.binary(max_size=300)
    | st.lists(_BIB_ENTRY, max_size=3).map(lambda b: "".join(b).encode("utf-8", "surrogatepass"))
)
def test_a_library_file_of_any_bytes_is_papers_or_one_input_error(data: bytes) -> None:
    try:
        check_papers(library.load(str(written("lib.bib", data))))
    except InputError as exc:
        assert "\n" not in str(exc)


_XML = st.sampled_from(
    [
        "<rss version='2.0'><channel><title>",
        "<item><title>",
        "</title>",
        "<description>",
        "</description>",
        "<dc:creator>",
        "</dc:creator>",
        "<link>",
        "</link>",
        "</item>",
        "<feed xmlns='http://www.w3.org/2005/Atom'>",
        "<entry>",
        "</entry>",
        "<summary>",
        "<arxiv:announce_type>",
        "<pubDate>",
        "</pubDate>",
        "&amp;",
        "&lt;",
        "<![CDATA[",
    ]
)


@FUZZ
@given(st.lists(_XML | TEXT, max_size=20))
def test_feeds_of_any_shape_are_papers_or_one_source_error(parts: list[str]) -> None:
    body = "".join(parts).encode("utf-8", "surrogatepass")
    try:
        check_papers(rss.parse_feed(body, "feed", lambda _: None))
    except SourceError as exc:
        assert str(exc).startswith("feed: ")


_CONTENT = st.dictionaries(
    st.sampled_from(["title", "abstract", "authors", "keywords", "venue", "code", "arxiv"]),
    JSON | JSON.map(lambda v: {"value": v}),
)
_NOTE = st.fixed_dictionaries(
    {"forum": st.just("F1"), "content": _CONTENT | JSON},
    optional={k: JSON for k in ("pdate", "odate", "cdate", "details")}
    | {"details": st.fixed_dictionaries({"directReplies": st.lists(JSON, max_size=3) | JSON})},
)


@FUZZ
@given(st.lists(_XML | TEXT, max_size=20))
def test_arxiv_api_answers_of_any_shape_are_papers_or_one_source_error(parts: list[str]) -> None:
    body = "".join(parts).replace("<entry>", "<entry><id>http://arxiv.org/abs/2501.00001v2</id>")
    try:
        papers, _, _ = arxiv.parse_feed(
            body.encode("utf-8", "surrogatepass"), lambda _: None, "api"
        )
    except SourceError as exc:
        assert str(exc).startswith("api: ")
    else:
        check_papers(papers)


@FUZZ
@given(_NOTE | st.dictionaries(st.sampled_from(["id", "forum", "content", "details"]), JSON))
def test_openreview_notes_of_any_shape(note: dict[str, object]) -> None:
    paper = openreview.to_paper(note, "V", "https://openreview.net")
    assert paper is None or isinstance(paper.title, str) and isinstance(paper.authors, tuple)


@FUZZ
@given(TEXT)
def test_text_helpers_take_any_text(text: str) -> None:
    assert isinstance(latex.to_text(text), str)
    assert isinstance(latex.to_text(text, bibtex=True), str)
    assert all(isinstance(n, str) and n for n in authors.split(text))
