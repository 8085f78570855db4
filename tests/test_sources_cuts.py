"""Whether a feed's body was cut short in its transfer or is whole as served: a length read in
full (or chunks) says whole; a document that never closes, unframed, says cut; a gzip or deflate
stream without its end says cut, framed or not, and its readers (rss, the arXiv API) keep the
whole entries that unpacked before the cut."""

from __future__ import annotations

import gzip
import hashlib
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from feedserver import Answer, FeedServer, serve

from digest.cli import main
from digest.models import Paper, SourceConfig, SourceError
from digest.sources.arxiv import ArxivSource
from digest.sources.cuts import cut_short, framed, last_whole
from digest.sources.rss import RssSource
from digest.sources.web import Policy

FEED = b'<?xml version="1.0"?><rss version="2.0"><channel><item><title>A</title></item>'


def test_an_answer_that_said_its_length_or_came_in_chunks_is_framed() -> None:
    assert framed({"Content-Length": "120"}) and framed({"transfer-encoding": "chunked"})
    assert not framed({"Content-Type": "application/rss+xml"}) and not framed(None)


def test_a_root_that_never_closes_is_a_cut_and_junk_after_a_closed_one_is_not() -> None:
    assert cut_short("mismatched tag", FEED) == "no </rss> at its end"
    assert cut_short("junk after document element", FEED + b"</channel></rss><x>") == ""
    assert cut_short("no element found: line 1, column 80", b"").startswith("no element found")


def test_the_last_item_is_whole_only_with_its_end_tag() -> None:
    assert last_whole(FEED)
    assert not last_whole(FEED + b"<item><title>B")
    assert last_whole(b"<feed><entry><title>B</title></atom:entry>")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


def words(i: int) -> str:
    """Text that packs about as tightly as an abstract does (a repeated one packs to nothing)."""
    return " ".join(hashlib.sha256(f"{i}.{n}".encode()).hexdigest()[:9] for n in range(12))


RSS = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Widgets</title>\n'
    + "".join(
        f"<item><title>Widget paper {i}</title><link>https://example.org/p/{i}</link>"
        f"<guid>https://example.org/p/{i}</guid><description>{words(i)}</description></item>\n"
        for i in range(20)
    )
    + "</channel></rss>\n"
).encode()
ATOM = (
    '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" '
    'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n'
    "<opensearch:totalResults>20</opensearch:totalResults>\n"
    + "".join(
        f"<entry><id>http://arxiv.org/abs/2611.{i:05d}v1</id><title>Paper {i}</title>"
        f"<summary>{words(i)}</summary><published>2026-11-27T18:00:00Z</published>"
        "<author><name>Ada Lovelace</name></author></entry>\n"
        for i in range(20)
    )
    + "</feed>\n"
).encode()
PACKERS: dict[str, Callable[[bytes], bytes]] = {"gzip": gzip.compress, "deflate": zlib.compress}


def cut(coding: str, document: bytes) -> tuple[Answer, int]:
    """The document packed, cut at 60 % and framed by the cut's own Content-Length (the server
    the cut came through had no more), and how many whole entries unpack before the cut."""
    packed = PACKERS[coding](document)[: len(PACKERS[coding](document)) * 6 // 10]
    unpacker = zlib.decompressobj(zlib.MAX_WBITS | 32)  # gzip or zlib, by its header
    came = unpacker.decompress(packed) + unpacker.flush()
    whole = came.count(b"</item>") + came.count(b"</entry>")
    assert not unpacker.eof and 0 < whole < 19
    assert came.count(b"<item>") + came.count(b"<entry>") == whole + 1  # ends inside an entry
    return Answer(body=packed, headers={"Content-Encoding": coding}), whole


def read(source: RssSource | ArxivSource, config: SourceConfig) -> tuple[list[Paper], str]:
    """The papers the source gives, then its failure ("" if none)."""
    papers: list[Paper] = []
    try:
        for paper in source.fetch(config, lambda _: None, now=datetime(2026, 11, 30, tzinfo=UTC)):
            papers.append(paper)
    except SourceError as exc:
        return papers, str(exc)
    return papers, ""


def rss(server: FeedServer, retries: int = 0) -> tuple[list[Paper], str]:
    config = SourceConfig("rss", "feed", {"url": f"{server.url}/feed"})
    return read(RssSource(Policy(timeout=2, retries=retries, backoff=0.01)), config)


def arxiv(server: FeedServer) -> tuple[list[Paper], str]:
    options = {"url": f"{server.url}/api/query", "categories": ["cs.LG"], "max_results": 20}
    source = ArxivSource(Policy(timeout=2, retries=0), page=20)
    return read(source, SourceConfig("arxiv", "arxiv", options))


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
def test_a_compressed_feed_cut_short_keeps_the_whole_entries_before_the_cut(
    server: FeedServer, coding: str
) -> None:
    """Its Content-Length said whole, so the body had been read as a feed whole as served (its
    later entries lost, exit 0); then the stream's missing end failed it with none kept."""
    answer, whole = cut(coding, RSS)
    server.route("/feed", answer)
    papers, failure = rss(server)
    assert [p.title for p in papers] == [f"Widget paper {i}" for i in range(whole)]
    assert failure.startswith("feed: feed cut short, before its document's end (")
    assert failure.endswith(f") from {server.url}/feed")


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
def test_an_arxiv_answer_compressed_and_cut_short_keeps_its_whole_entries(
    server: FeedServer, coding: str
) -> None:
    answer, whole = cut(coding, ATOM)
    server.route("/api/query", answer)
    papers, failure = arxiv(server)
    assert [p.id for p in papers] == [f"2611.{i:05d}" for i in range(whole)]
    assert failure.startswith("arxiv: answer cut short, before its document's end (")
    assert failure.endswith(f") from {server.url}/api/query")


def test_a_cut_the_next_try_brings_whole_is_read_whole(server: FeedServer) -> None:
    answer, _ = cut("gzip", RSS)
    server.route("/feed", answer, Answer(body=gzip.compress(RSS), headers=answer.headers))
    papers, failure = rss(server, retries=1)
    assert len(papers) == 20 and failure == ""
    assert len(server.hits("/feed")) == 2


def test_a_feed_cut_before_its_root_is_cut_short_not_a_page_that_is_no_feed(
    server: FeedServer,
) -> None:
    packed = gzip.compress(RSS)
    server.route("/feed", Answer(body=packed[:12], headers={"Content-Encoding": "gzip"}))
    papers, failure = rss(server)
    assert papers == [] and failure == (
        "feed: feed cut short, before its document's end (its compressed stream stops before "
        f"its end) from {server.url}/feed"
    )


def test_a_whole_gzip_body_of_several_members_is_no_cut(server: FeedServer) -> None:
    """A stream that ends where its last member does is whole (read as today: httpx, as curl,
    unpacks the first member), whatever members follow it."""
    half = RSS.index(b"<item>", len(RSS) // 2)
    members = gzip.compress(RSS[:half]) + gzip.compress(RSS[half:])
    server.route("/feed", Answer(body=members, headers={"Content-Encoding": "gzip"}))
    papers, failure = rss(server)
    assert failure == "" and papers
    assert [p.title for p in papers] == [f"Widget paper {i}" for i in range(len(papers))]


def test_the_run_says_the_source_failed_and_how_many_it_kept(
    server: FeedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the changelog promises of "a gzip body without its end": FAILED … (kept N read
    before), exit 1, and the kept papers in the day's digest."""
    answer, whole = cut("gzip", RSS)
    server.route("/feed", answer)
    (tmp_path / "digest.toml").write_text(
        f'[[sources]]\nkind = "rss"\nname = "w"\nurl = "{server.url}/feed"\nretries = 0\n'
        '[[subscribers]]\nname = "ana"\ninterests = "widget papers"\nmin_score = 0\n'
    )
    code = main(["run", "--config", "digest.toml", "--now", "2026-11-30T09:00+00:00"])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "  source w: FAILED: w: feed cut short, before its document's end (" in out
    assert f") from {server.url}/feed (kept {whole} read before) (" in out
    assert f"papers: {whole} read, 0 skipped, {whole} new" in out
