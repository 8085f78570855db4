"""Intake streams: a source's papers are deduplicated and stored BATCH at a time as they are read,
so memory does not grow with a file, and an interrupted ingest keeps the batches stored before."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from digest import intake
from digest.models import Settings, SourceConfig
from digest.state import Store

PRIVACY = "We study differential privacy for federated learning with private client updates."


def jsonl(ids: list[str]) -> str:
    rows = [
        {"id": ident, "title": f"Paper {n} on private federated learning", "abstract": PRIVACY}
        for n, ident in enumerate(ids)
    ]
    return "".join(json.dumps(r) + "\n" for r in rows)


def write_jsonl(path: Path, ids: list[str]) -> None:
    path.write_text(jsonl(ids), encoding="utf-8")


def files_settings(path: Path) -> Settings:
    return Settings("test.toml", (SourceConfig("files", "dump", {"path": str(path)}),), ())


NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def test_a_source_larger_than_a_batch_is_stored_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(intake, "BATCH", 4)
    write_jsonl(tmp_path / "dump.jsonl", [f"2611.{n:05d}" for n in range(10)])  # 4 + 4 + 2
    with Store(tmp_path / "s.db") as store:
        (report,), papers = intake.ingest(files_settings(tmp_path / "dump.jsonl"), store, NOW)
        assert (report.read, report.new, report.error) == (10, 10, "")
        assert [p.id for _, p in store.papers_after(0)] == [f"2611.{n:05d}" for n in range(10)]
        assert papers == []  # stored, not held: memory does not grow with the file


def test_a_paper_repeated_in_a_later_batch_is_stored_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(intake, "BATCH", 3)
    # The first paper comes back in the third batch under another form of its arXiv id.
    ids = ["2611.00001", "2611.00002", "2611.00003", "2611.00004", "2611.00005", "2611.00006"]
    write_jsonl(tmp_path / "dump.jsonl", [*ids, "arXiv:2611.00001v2"])
    with Store(tmp_path / "s.db") as store:
        (report,), _ = intake.ingest(files_settings(tmp_path / "dump.jsonl"), store, NOW)
        assert (report.read, report.new) == (7, 6)
        assert [p.id for _, p in store.papers_after(0)] == ids


def test_an_ingest_interrupted_midway_keeps_the_batches_stored_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(intake, "BATCH", 3)
    ids = [f"2611.{n:05d}" for n in range(8)]
    path = tmp_path / "dump.jsonl"
    # A bad line after the eighth paper: its warning is where Ctrl-C (or a kill) arrives.
    path.write_text(jsonl(ids) + "{not json\n" + jsonl(["2611.00008"]), encoding="utf-8")

    class Interrupt(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "invalid JSON" in record.getMessage():
                raise KeyboardInterrupt

    handler = Interrupt()
    logging.getLogger("digest.intake").addHandler(handler)
    try:
        with Store(tmp_path / "s.db") as store, pytest.raises(KeyboardInterrupt):
            intake.ingest(files_settings(path), store, NOW)
    finally:
        logging.getLogger("digest.intake").removeHandler(handler)
    with Store(tmp_path / "s.db") as store:
        assert [p.id for _, p in store.papers_after(0)] == ids[:6]  # two whole batches
        (report,), _ = intake.ingest(files_settings(path), store, NOW)  # the next run
        assert (report.read, report.new, report.skipped) == (9, 3, 1)
        assert [p.id for _, p in store.papers_after(0)] == [*ids, "2611.00008"]


def test_an_unexpected_failure_of_a_source_is_one_line_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("term\nsecond line")

    monkeypatch.setattr(intake.SOURCES["arxiv"], "fetch", broken)
    write_jsonl(tmp_path / "dump.jsonl", ["2611.00001"])
    sources = (
        SourceConfig("arxiv", "ax", {"categories": ["cs.LG"]}),
        SourceConfig("files", "dump", {"path": str(tmp_path / "dump.jsonl")}),
    )
    caplog.set_level(logging.INFO)
    with Store(tmp_path / "s.db") as store:
        (failed, read), _ = intake.ingest(Settings("t.toml", sources, ()), store, NOW)
    assert failed.error == "unexpected KeyError: 'term\\nsecond line'"
    assert (read.new, read.error) == (1, "")
    said = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert "source ax failed after 0 papers: unexpected KeyError" in caplog.text
    assert all(r.exc_info is None and "Traceback" not in r.getMessage() for r in said)


def test_a_skipped_record_is_said_skipped_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    """ "skipped misc: entry 7 has neither title nor abstract, skipped"."""

    def fetch(config: SourceConfig, warn: Any, **kwargs: object) -> Iterator[Any]:
        warn("misc: entry 7 has neither title nor abstract, skipped")
        warn("misc: entry 8 is odd")
        yield from ()

    monkeypatch.setattr(intake.SOURCES["arxiv"], "fetch", fetch)
    caplog.set_level(logging.WARNING)
    with Store(tmp_path / "s.db") as store:
        sources = (SourceConfig("arxiv", "misc", {"categories": ["cs.LG"]}),)
        (read,), _ = intake.ingest(Settings("t.toml", sources, ()), store, NOW)
    assert read.skipped == 2
    assert [r.getMessage() for r in caplog.records][:2] == [
        "misc: entry 7 has neither title nor abstract, skipped",
        "skipped misc: entry 8 is odd",
    ]


def test_a_skip_that_is_no_fault_of_the_source_is_counted_but_not_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    """A venue's withdrawn submissions, a journal's notices: thousands each run, they had each
    been a warning, every run."""
    from digest.models import Passed

    def fetch(config: SourceConfig, warn: Any, **kwargs: object) -> Iterator[Any]:
        for n in range(3000):
            warn(Passed(f"iclr: note {n} is a withdrawn submission, skipped"))
        yield from ()

    monkeypatch.setattr(intake.SOURCES["arxiv"], "fetch", fetch)
    caplog.set_level(logging.WARNING)
    with Store(tmp_path / "s.db") as store:
        sources = (SourceConfig("arxiv", "iclr", {"categories": ["cs.LG"]}),)
        (read,), _ = intake.ingest(Settings("t.toml", sources, ()), store, NOW)
    assert read.skipped == 3000
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


HOSTILE = "Private\x1b[2J\x1b]0;pwned\x07 federated\u202e learning\x00\ufffe"


def test_text_that_could_act_on_a_terminal_is_stripped_from_every_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A JSONL file and an RSS feed alike: the papers stored have clean text."""
    from feedserver import Answer, serve

    row = {
        "id": "2611.00001\x1b[0m",
        "title": HOSTILE,
        "abstract": f"{PRIVACY}\n{HOSTILE}\tend",
        "authors": ["Ada\x9b31m Lovelace"],
        "venue": "ICML\u2066 2026",
        "url": "https://x.org/a\x07",
    }
    (tmp_path / "dump.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    rss = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>News\x1b[31m</title>'
        f"<item><title>{HOSTILE} at scale</title><link>https://x.org/b\x1b[0m</link>"
        f"<description>{PRIVACY} {HOSTILE}</description><author>Bob\x07 Ng</author>"
        "</item></channel></rss>"
    )
    server = next(feeds := serve(monkeypatch))
    server.route("/feed", Answer(body=rss, content_type="application/rss+xml"))
    sources = (
        SourceConfig("files", "dump", {"path": str(tmp_path / "dump.jsonl")}),
        SourceConfig("rss", "feed", {"url": f"{server.url}/feed", "retries": 0}),
    )
    try:
        with Store(tmp_path / "s.db") as store:
            reports, _ = intake.ingest(Settings("t.toml", sources, ()), store, NOW)
            stored = [p for _, p in store.papers_after(0)]
    finally:
        feeds.close()
    assert [(r.read, r.error) for r in reports] == [(1, ""), (1, "")]
    from_file, from_feed = stored
    assert from_file.id == "2611.00001" and from_file.url == "https://x.org/a"
    assert from_file.title == "Private federated learning"
    assert from_feed.title == "Private federated learning at scale"
    assert from_file.abstract == f"{PRIVACY}\nPrivate federated learning\tend"
    assert from_file.authors == ("Ada Lovelace",) and from_file.venue == "ICML 2026"
    assert from_feed.abstract == f"{PRIVACY} Private federated learning"
    assert (from_feed.url, from_feed.venue, from_feed.authors) == (
        "https://x.org/b",
        "News",
        ("Bob Ng",),
    )


def test_a_link_holding_a_sources_secret_is_dropped_on_the_way_in(tmp_path: Path) -> None:
    """A private feed may echo its token into its items' links; links reach readers, so such a
    link is no link (the paper stays). Other links are kept as they are."""
    rows = [
        {
            "id": "a1",
            "title": "Private federated learning",
            "abstract": PRIVACY,
            "url": "https://lab.example/item/1?token=sekritFEEDTOKEN42",
        },
        {
            "id": "a2",
            "title": "Public federated learning",
            "abstract": PRIVACY,
            "url": "https://lab.example/item/2",
        },
    ]
    path = tmp_path / "dump.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    settings = Settings(
        "t.toml",
        (SourceConfig("files", "dump", {"path": str(path)}),),
        (),
        secrets=frozenset({"https://lab.example/feed?token=sekritFEEDTOKEN42"}),
    )
    _, papers = intake.ingest(settings, None, NOW)
    assert {p.id.rpartition(":")[2]: p.url for p in papers} == {
        "a1": "",
        "a2": "https://lab.example/item/2",
    }


def test_a_sources_secret_in_its_papers_text_is_blotted_on_the_way_in(
    tmp_path: Path, feeds: Any
) -> None:
    """A private feed built its items' descriptions from the address it was asked on: the token
    reached the state database, the digests and the web archive."""
    from feedserver import Answer

    token = "SECRETenvItemsTOK44"
    text = f"We study private learning. See {feeds.url}/item/0?token={token} for code."
    feeds.route("/feed", Answer(body=FEED.format(text), content_type="application/rss+xml"))
    source = SourceConfig("rss", "lab", {"url": f"{feeds.url}/feed?token={token}"})
    settings = Settings("t.toml", (source,), (), secrets=frozenset({token, "smtp-pass-not-here"}))
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        ((_, paper),) = store.papers_after(0)
    assert token not in paper.abstract and "[redacted]" in paper.abstract
    assert paper.abstract.startswith("We study private learning.")
    assert token not in (tmp_path / "s.db").read_bytes().decode("latin-1")


FEED = """<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://x</link>
<description>d</description><item><title>Private federated learning</title>
<link>https://example.org/p/1</link><description>{}</description></item></channel></rss>"""
TOKEN = "tok-S3CRET-991"


@pytest.fixture
def feeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from feedserver import serve

    yield from serve(monkeypatch)


def feed(**headers: str) -> Any:
    from feedserver import Answer

    return Answer(body=FEED.format(PRIVACY), content_type="application/rss+xml", headers=headers)


def test_a_feed_is_asked_whether_it_changed_and_a_304_is_nothing_new(
    tmp_path: Path, feeds: Any
) -> None:
    from feedserver import Answer

    server = feeds
    with Store(tmp_path / "s.db") as store:
        full = feed(ETag='"v1"', **{"Last-Modified": "Mon, 30 Nov 2026 08:00:00 GMT"})
        server.route("/feed", full, Answer(304))
        settings = Settings(
            "t.toml", (SourceConfig("rss", "lab", {"url": f"{server.url}/feed"}),), ()
        )
        (first,), _ = intake.ingest(settings, store, NOW)
        (second,), _ = intake.ingest(settings, store, NOW)
    asked = [{k.lower(): v for k, v in r.headers.items()} for r in server.hits("/feed")]
    assert (first.new, first.unchanged) == (1, False) and "if-none-match" not in asked[0]
    assert (second.read, second.unchanged, second.error) == (0, True, "")
    assert asked[1]["if-none-match"] == '"v1"'
    assert asked[1]["if-modified-since"] == "Mon, 30 Nov 2026 08:00:00 GMT"


def test_a_feed_whose_address_holds_a_secret_is_read_whole_and_keeps_nothing(
    tmp_path: Path, feeds: Any
) -> None:
    # Blotted, every such address is "[redacted]": a ${FEED_URL} pointed at another feed had
    # sent it the old feed's validators, and its 304 hid the new feed's papers.
    server = feeds
    with Store(tmp_path / "s.db") as store:
        server.route(f"/feed/{TOKEN}", feed(ETag='"v1"'))
        url = f"{server.url}/feed/{TOKEN}"
        source = SourceConfig("rss", "lab", {"url": url})
        settings = Settings("t.toml", (source,), (), secrets=frozenset({url}))
        for _ in range(2):
            intake.ingest(settings, store, NOW)
        assert store.db.execute("SELECT count(*) FROM feed_validators").fetchone()[0] == 0
    assert not any(
        "if-none-match" in {k.lower() for k in r.headers} for r in server.hits(f"/feed/{TOKEN}")
    )


def test_a_feed_cut_short_is_read_whole_the_next_time(tmp_path: Path, feeds: Any) -> None:
    # A body cut off without a Content-Length parses as a malformed feed: its validators had been
    # kept, and every later 304 hid the papers after the cut.
    from feedserver import Answer

    server = feeds
    body = FEED.format(PRIVACY)
    cut = Answer(body=body[: body.index("</item>")], content_type="application/rss+xml",
                 headers={"ETag": '"v1"'})  # fmt: skip
    with Store(tmp_path / "s.db") as store:
        server.route("/feed", cut)
        settings = Settings(
            "t.toml", (SourceConfig("rss", "lab", {"url": f"{server.url}/feed"}),), ()
        )
        intake.ingest(settings, store, NOW)
        assert store.journal.validators("lab", f"{server.url}/feed") == {}


def test_a_feeds_validators_are_kept_only_once_its_papers_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, feeds: Any
) -> None:
    # A crash between reading the feed and storing its papers must leave the next read a full
    # one: a 304 then would lose those papers for good.
    server = feeds
    with Store(tmp_path / "s.db") as store:
        server.route("/feed", feed(ETag='"v1"'))
        settings = Settings(
            "t.toml", (SourceConfig("rss", "lab", {"url": f"{server.url}/feed"}),), ()
        )

        def crash(*args: object) -> int:
            raise KeyboardInterrupt

        kept = store.add_papers
        monkeypatch.setattr(store, "add_papers", crash)
        with pytest.raises(KeyboardInterrupt):
            intake.ingest(settings, store, NOW)
        assert store.journal.validators("lab", f"{server.url}/feed") == {}
        monkeypatch.setattr(store, "add_papers", kept)
        (report,), _ = intake.ingest(settings, store, NOW)
    second = {k.lower() for k in server.hits("/feed")[1].headers}
    assert report.new == 1 and "if-none-match" not in second


ITEMS = """<?xml version="1.0"?><rss version="2.0"><channel><title>IEEE</title>
<link>https://ieee.example</link><description>d</description>{}</channel></rss>"""
ITEM = (
    '<item><title>{}</title><guid isPermaLink="false">{}</guid><description>{}</description></item>'
)


def read_days(server: Any, tmp_path: Path, *days: list[tuple[str, str]], secret: str = "") -> Store:
    from feedserver import Answer

    bodies = [ITEMS.format("".join(ITEM.format(t, g, PRIVACY) for t, g in day)) for day in days]
    server.route("/toc", *(Answer(body=b, content_type="application/rss+xml") for b in bodies))
    source = SourceConfig("rss", "ieee", {"url": f"{server.url}/toc"})
    settings = Settings("t.toml", (source,), (), secrets=frozenset({secret} - {""}))
    store = Store(tmp_path / "s.db")
    for _ in days:
        intake.ingest(settings, store, NOW)
    return store


def test_an_item_whose_title_was_corrected_is_known_by_its_own_id(tmp_path: Path, feeds: Any):
    """With no DOI, a corrected title ("Learing") was a new paper, sent again."""
    guid = "ieee-10999003"
    day1 = [("Deep Learing for Quantum Materials Discovery", guid)]
    day2 = [("Deep Learning for Quantum Materials Discovery", guid)]
    with read_days(feeds, tmp_path, day1, day2) as store:
        assert store.count_papers() == 1


def test_an_item_id_given_twice_or_too_short_to_name_one_item_merges_nothing(
    tmp_path: Path, feeds: Any
) -> None:
    day1 = [("Quantum error correction with surface codes", "toc-2026-03"),
            ("Graph neural networks for protein folding", "toc-2026-03"),
            ("Spiking networks on neuromorphic chips", "1")]  # fmt: skip
    day2 = [
        ("Diffusion models for weather forecasting", "1"),  # a position, reused
        ("Topological photonics in silicon waveguides", "https://j.example/featured"),
    ]
    day3 = [("Protein language models for enzyme design", "https://j.example/featured")]
    with read_days(feeds, tmp_path, day1, day2, day3) as store:
        assert store.count_papers() == 6  # a link with no item's number names no one item


def test_an_item_id_holding_a_secret_is_no_key(tmp_path: Path, feeds: Any) -> None:
    token = "tok-S3CRET-4417"
    day = [("Deep learning for quantum materials", f"https://private.example/{token}/item-77001")]
    with read_days(feeds, tmp_path, day, secret=token) as store:
        keys = [r[0] for r in store.db.execute("SELECT key FROM paper_keys")]
        assert store.count_papers() == 1 and not [k for k in keys if token in k]


PRIVATE = """<?xml version="1.0"?><rss version="2.0"><channel><title>Private</title>
<link>{0}/</link><description>d</description>{1}</channel></rss>"""
LINKED = "<item><title>{}</title><link>{}</link><guid>{}</guid><description>{}</description></item>"


def test_a_link_under_a_private_feeds_folder_is_dropped_however_short_its_token(
    tmp_path: Path, feeds: Any
) -> None:
    """A feed at /f/<token>/feed.rss, its address given as ${VAR}, builds its items' links under
    /f/<token>/. A token of 10 characters is too short to blot from log lines as a word, and
    such links went to every reader's digest and into the state database. An address under
    that folder in the feed's own text is blotted; one elsewhere stays."""
    from feedserver import Answer

    token = "ab12cd34ef"
    under, public = f"{feeds.url}/f/{token}/item/1", f"{feeds.url}/public/item/2"
    items = [(f"Private federated learning {n}", link) for n, link in enumerate((under, public))]
    items.append(("Elsewhere federated learning", "https://example.org/p/3"))
    told = "".join(LINKED.format(t, u, u, f"{PRIVACY} More at {u}.") for t, u in items)
    body = PRIVATE.format(feeds.url, told)
    feeds.route(f"/f/{token}/feed.rss", Answer(body=body, content_type="application/rss+xml"))
    source = SourceConfig("rss", "lab", {"url": f"{feeds.url}/f/{token}/feed.rss"})
    settings = Settings("t.toml", (source,), (), secrets=frozenset({source.options["url"]}))
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        papers = {paper.title: paper for _, paper in store.papers_after(0)}
    urls = {title: paper.url for title, paper in papers.items()}
    assert urls == {items[0][0]: "", items[1][0]: public, items[2][0]: "https://example.org/p/3"}
    told = {title: paper.abstract.rpartition(" ")[2] for title, paper in papers.items()}
    assert told == {items[0][0]: "[redacted].", items[1][0]: f"{public}.",
                    items[2][0]: "https://example.org/p/3."}  # fmt: skip
    assert token not in (tmp_path / "s.db").read_bytes().decode("latin-1")


def test_a_public_feed_given_as_a_variable_keeps_its_items_links(
    tmp_path: Path, feeds: Any
) -> None:
    """Only a folder that holds a token (a segment mixing letters and digits, or a long one)
    is a secret's place: a journal's feed at /prl/recent.xml, given as ${VAR} all the same,
    keeps its items' links under /prl/."""
    from feedserver import Answer

    link = f"{feeds.url}/prl/abstract/10.1103/x1"
    told = LINKED.format("Private federated learning", link, link, PRIVACY)
    feeds.route("/prl/recent.xml", Answer(body=PRIVATE.format(feeds.url, told),
                                           content_type="application/rss+xml"))  # fmt: skip
    source = SourceConfig("rss", "prl", {"url": f"{feeds.url}/prl/recent.xml"})
    settings = Settings("t.toml", (source,), (), secrets=frozenset({source.options["url"]}))
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        assert [paper.url for _, paper in store.papers_after(0)] == [link]


def test_a_feeds_short_key_never_reaches_a_reader_in_its_items_links(
    tmp_path: Path, feeds: Any
) -> None:
    """A feed at ?key=qwertyuiop builds its items' links with the key. Too short and word-like
    to blot from text, it is still a whole part of those links: they are dropped, as a longer
    key's are; a link that holds the word within another is kept."""
    from feedserver import Answer

    keyed, other = f"{feeds.url}/item/1?key=qwertyuiop", f"{feeds.url}/item/qwertyuiopx"
    items = [(f"Private federated learning {n}", link) for n, link in enumerate((keyed, other))]
    told = "".join(LINKED.format(t, u, u, f"{PRIVACY} More at {u}.") for t, u in items)
    feeds.route("/feed.rss", Answer(body=PRIVATE.format(feeds.url, told),
                                    content_type="application/rss+xml"))  # fmt: skip
    source = SourceConfig("rss", "lab", {"url": f"{feeds.url}/feed.rss?key=qwertyuiop"})
    secrets = frozenset({"qwertyuiop"})  # the address written out: its key, by url_credentials
    settings = Settings("t.toml", (source,), (), secrets=secrets)
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        papers = {paper.title: paper for _, paper in store.papers_after(0)}
    urls = {title: paper.url for title, paper in papers.items()}
    assert urls == {items[0][0]: "", items[1][0]: other}
    assert "key=qwertyuiop" not in (tmp_path / "s.db").read_bytes().decode("latin-1")
    told = {title: paper.abstract.rpartition(" ")[2] for title, paper in papers.items()}
    assert told == {items[0][0]: "[redacted].", items[1][0]: f"{other}."}


def test_a_short_key_is_found_as_a_whole_word_anywhere_in_a_link_or_an_address(
    tmp_path: Path, feeds: Any
) -> None:
    """As a file's name (/files/KEY.pdf), a path parameter (;key=KEY), or in an address written
    without its scheme, the key had reached readers; a search feed's word is no key at all."""
    from feedserver import Answer

    pdf, param = f"{feeds.url}/files/qwertyuiop.pdf", f"{feeds.url}/item/2;key=qwertyuiop"
    bare = "www.lab.example/x?key=qwertyuiop"
    items = [("Private federated learning 1", pdf), ("Private federated learning 2", param)]
    told = "".join(LINKED.format(t, u, u, f"{PRIVACY} Mirror: {bare}, or {u}.") for t, u in items)
    feeds.route("/feed.rss", Answer(body=PRIVATE.format(feeds.url, told),
                                    content_type="application/rss+xml"))  # fmt: skip
    source = SourceConfig("rss", "lab", {"url": f"{feeds.url}/feed.rss?key=qwertyuiop"})
    settings = Settings("t.toml", (source,), (), secrets=frozenset({"qwertyuiop"}))
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        papers = [paper for _, paper in store.papers_after(0)]
    assert [paper.url for paper in papers] == ["", ""]
    assert all(p.abstract.endswith("Mirror: [redacted], or [redacted].") for p in papers)
    assert "qwertyuiop" not in (tmp_path / "s.db").read_bytes().decode("latin-1")


def test_a_search_feeds_word_is_no_key_and_its_links_reach_readers(
    tmp_path: Path, feeds: Any
) -> None:
    from feedserver import Answer

    from digest.models.credentials import url_credentials

    link, code = f"{feeds.url}/article/4411?keyword=privacy", "https://github.com/tf/privacy"
    items = [("Private federated learning", link)]
    told = "".join(LINKED.format(t, u, u, f"{PRIVACY} Code: {code}.") for t, u in items)
    feeds.route("/feed.rss", Answer(body=PRIVATE.format(feeds.url, told),
                                    content_type="application/rss+xml"))  # fmt: skip
    address = f"{feeds.url}/feed.rss?keyword=privacy"
    source = SourceConfig("rss", "lab", {"url": address})
    settings = Settings("t.toml", (source,), (), secrets=url_credentials(address))
    with Store(tmp_path / "s.db") as store:
        intake.ingest(settings, store, NOW)
        ((_, paper),) = store.papers_after(0)
    assert (paper.url, paper.code_url) == (link, code)
    assert paper.abstract.endswith(f"Code: {code}.")


SMTP_CONFIG = """
[[sources]]
kind = "files"
path = "papers.jsonl"
[smtp]
host = "127.0.0.1"
port = 2525
security = "starttls"
username = "digest"
password = "${SMTP_PASSWORD}"
from = "Digest <d@example.org>"
[[subscribers]]
name = "ana"
interests = "private federated learning"
[[subscribers.channels]]
kind = "file"
dir = "out"
"""


@pytest.mark.parametrize("password", ["e", "digest"])
def test_a_short_or_word_like_secret_is_no_part_of_any_papers_text(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    password: str,
) -> None:
    """An SMTP password "e" (or "digest", the config under /srv/digest/) is also in the source's
    path; it had been blotted from every stored title and abstract for good ("Th[redacted]
    conv[redacted]ntional..."), and every link holding it dropped. A log line still blots it."""
    from digest.cli import main

    folder = tmp_path / "digest"
    folder.mkdir()
    (folder / "digest.toml").write_text(SMTP_CONFIG, encoding="utf-8")
    (folder / ".env").write_text(f"SMTP_PASSWORD={password}\n", encoding="utf-8")
    told = {
        "id": "2611.00001",
        "title": "A digest of the conventional approach to private federated learning",
        "abstract": f"{PRIVACY} We release the code.",
        "url": "https://example.org/digest/2611.00001",
    }
    (folder / "papers.jsonl").write_text(json.dumps(told) + "\n", encoding="utf-8")
    monkeypatch.delenv("SMTP_PASSWORD", raising=False)
    monkeypatch.chdir(folder)
    assert main(["-v", "run", "--config", "digest.toml", "--now", "2026-11-30T09:00Z"]) == 0
    with Store(folder / "state" / "digest.db") as store:
        ((_, paper),) = store.papers_after(0)
    assert (paper.title, paper.abstract, paper.url) == (
        told["title"],
        told["abstract"],
        told["url"],
    )
    assert "[redacted]" in capsys.readouterr().err  # the log's lines: every secret, however short
