"""The arxiv source against a real server on 127.0.0.1 answering in the arXiv API's Atom:
the query it asks, paging by opensearch totals, the politeness delay, ids without version,
errors the API words itself, and the lookup of liked papers by id."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from typing import Any
from xml.sax.saxutils import escape

import pytest
from feedserver import Answer, FeedServer, serve

from digest.models import Paper, Passed, SourceConfig, SourceError
from digest.sources.arxiv import ArxivSource, gone, search_query
from digest.sources.web import Policy

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


def entry(
    ident: str,
    title: str,
    abstract: str = "",
    *,
    categories: tuple[str, ...] = ("cs.LG",),
    comment: str = "",
    doi: str = "",
    published: str = "2026-11-27T18:00:00Z",
    updated: str = "",
) -> str:
    """One <entry> as the arXiv API writes it (version in the id, primary category first)."""
    cats = "".join(
        f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in categories
    )
    extra = f"<arxiv:comment>{escape(comment)}</arxiv:comment>" if comment else ""
    extra += f"<arxiv:doi>{doi}</arxiv:doi>" if doi else ""
    return f"""
  <entry>
    <id>http://arxiv.org/abs/{ident}</id>
    <updated>{updated or published}</updated>
    <published>{published}</published>
    <title>{escape(title)}</title>
    <summary>  {escape(abstract or title + " is studied here at length.")}
    </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    {extra}
    <link href="http://arxiv.org/abs/{ident}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{ident}" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="{categories[0]}" scheme="http://arxiv.org/schemas/atom"/>
    {cats}
  </entry>"""


def feed(entries: list[str], total: int | None, start: int = 0) -> str:
    totals = (
        f"""<opensearch:totalResults>{total}</opensearch:totalResults>
  <opensearch:startIndex>{start}</opensearch:startIndex>
  <opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"""
        if total is not None
        else ""
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=cat:cs.LG</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2026-11-30T00:00:00-05:00</updated>
  {totals}{"".join(entries)}
</feed>
"""


ERROR_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">ArXiv Query: search_query=&amp;id_list=1234&amp;start=0</title>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>
    <title>Error</title>
    <summary>incorrect id format for 1234</summary>
  </entry>
</feed>
"""

PAPERS = [entry(f"2611.0{i:04d}v1", f"Paper number {i} on federated learning") for i in range(5)]


def paged(query: dict[str, str]) -> Answer:
    """The API's paging: `start` and `max_results` cut the listing; the total stays."""
    start, size = int(query["start"]), int(query["max_results"])
    return Answer(body=feed(PAPERS[start : start + size], len(PAPERS), start))


def source(**options: object) -> SourceConfig:
    return SourceConfig("arxiv", "arxiv", {"categories": ["cs.LG"], "delay": 0.01, **options})


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def fetch(
    server: FeedServer, page: int = 2, **options: object
) -> tuple[list[Paper], list[str], Sleeps]:
    sleeps, warnings = Sleeps(), []
    arxiv = ArxivSource(Policy(timeout=2, backoff=0.01, sleep=sleeps), page=page)
    config = source(url=f"{server.url}/api/query", **options)
    return list(arxiv.fetch(config, warnings.append, now=NOW)), warnings, sleeps


def test_a_cut_below_what_the_last_read_covered_is_not_said(server: FeedServer) -> None:
    """A busy category (more than max_results in `days`) is cut every day, below the papers
    read the day before: each daily run had said to raise max_results, though nothing was
    lost. Said when the cut falls after LISTED before the last read."""
    days = ["29", "28", "27", "24", "23"]
    listing = [
        entry(
            f"2611.1{i:04d}v1",
            f"Paper {i} on federated learning",
            published=f"2026-11-{d}T12:00:00Z",
        )
        for i, d in enumerate(days)
    ]

    def newest_first(query: dict[str, str]) -> Answer:
        start, size = int(query["start"]), int(query["max_results"])
        return Answer(body=feed(listing[start : start + size], len(listing), start))

    server.route("/api/query", newest_first)
    arxiv = ArxivSource(Policy(timeout=2, backoff=0.01, sleep=Sleeps()), page=2)
    last_read = NOW - timedelta(days=1)  # margin: 2026-11-25

    def warnings(max_results: int) -> list[str]:
        said: list[str] = []
        config = source(url=f"{server.url}/api/query", max_results=max_results, days=7)
        list(arxiv.fetch(config, said.append, now=NOW, last_read=last_read))
        return [str(w) for w in said]

    assert warnings(4) == []  # the one left (11-23) was the last read's to read
    assert warnings(3) == [  # 11-26 or 11-25 may be among those left
        "arxiv: 5 papers in the window, the newest 3 read (max_results); raise it to read the rest"
    ]
    # A new version of an old paper among those read, listed by its version's day: its first
    # version's day (2023, or the window's first) had hidden the cut.
    for first in ("2023-01-05", "2026-11-23"):
        version = "2026-11-28T12:00:00Z"
        old = entry(
            "2301.00001v3", "A new version", published=f"{first}T12:00:00Z", updated=version
        )
        listing.insert(2, old)
        assert warnings(4) != [], first  # 11-24 and 11-23 are left: 11-25 or 11-26 may be too
        del listing[2]


def test_the_query_ors_categories_ands_the_query_and_windows_the_days() -> None:
    config = source(categories=["cs.LG", "cs.CL"], query="federated unlearning", days=3)
    from digest.sources.arxiv import Options

    assert search_query(Options.of(config), NOW) == (
        "(cat:cs.LG OR cat:cs.CL) AND (all:federated AND all:unlearning)"
        " AND submittedDate:[202611270800 TO 202611300800]"
    )
    own_syntax = source(categories=[], query='abs:"machine unlearning" ANDNOT ti:survey')
    assert search_query(Options.of(own_syntax), NOW).startswith(
        '(abs:"machine unlearning" ANDNOT ti:survey) AND submittedDate:'
    )


def test_pages_are_fetched_until_the_total_with_the_delay_between_calls(
    server: FeedServer,
) -> None:
    server.route("/api/query", paged)
    papers, warnings, sleeps = fetch(server, page=2, delay=3.0)
    assert [p.id for p in papers] == [f"2611.0{i:04d}" for i in range(5)]
    assert warnings == []
    requests = server.hits("/api/query")
    assert [(r.query["start"], r.query["max_results"]) for r in requests] == [
        ("0", "2"),
        ("2", "2"),
        ("4", "2"),
    ]
    first = requests[0].query
    assert first["sortBy"] == "submittedDate" and first["sortOrder"] == "descending"
    assert first["search_query"].startswith("(cat:cs.LG) AND submittedDate:[")
    # The default delay of 3 s before each next call (recorded here, not waited out).
    assert len(sleeps) == 2 and all(2.5 < s <= 3.0 for s in sleeps)


def test_a_window_holding_more_than_max_results_says_what_was_left(server: FeedServer) -> None:
    """A long catch-up reads the newest max_results papers: the oldest were left in silence."""
    server.route("/api/query", paged)
    papers, warnings, _ = fetch(server, page=2, max_results=3)
    assert len(papers) == 3
    assert [str(w) for w in warnings] == [
        "arxiv: 5 papers in the window, the newest 3 read (max_results); raise it to read the rest"
    ]
    _, warnings, _ = fetch(server, page=2, max_results=5)
    assert warnings == []


def test_without_a_total_pages_are_asked_for_while_they_come_back_full(
    server: FeedServer,
) -> None:
    def untold(query: dict[str, str]) -> Answer:
        start, size = int(query["start"]), int(query["max_results"])
        return Answer(body=feed(PAPERS[start : start + size], None))

    server.route("/api/query", untold)
    papers, warnings, _ = fetch(server, page=2)
    assert [p.id for p in papers] == [f"2611.0{i:04d}" for i in range(5)]
    assert warnings == []
    assert [r.query["start"] for r in server.hits("/api/query")] == ["0", "2", "4"]
    papers, _, _ = fetch(server, page=2, max_results=3)  # the limit still holds
    assert len(papers) == 3


def test_without_a_total_an_empty_page_ends_the_listing(server: FeedServer) -> None:
    server.route("/api/query", Answer(body=feed(PAPERS[:2], None)), Answer(body=feed([], None)))
    papers, warnings, _ = fetch(server, page=2)
    assert len(papers) == 2 and warnings == []
    assert [r.query["start"] for r in server.hits("/api/query")] == ["0", "2"]


def test_max_results_caps_what_is_read(server: FeedServer) -> None:
    server.route("/api/query", paged)
    papers, _, _ = fetch(server, page=2, max_results=3)
    assert len(papers) == 3 and len(server.hits("/api/query")) == 2


def test_an_entry_becomes_a_paper_without_its_version(server: FeedServer) -> None:
    one = entry(
        "2611.01234v3",
        "Private   Federated\n  Learning at Scale",
        "We study DP for FL.",
        categories=("cs.LG", "cs.CR"),
        comment="12 pages; code: https://github.com/acme/pfl.",
        doi="10.1000/PFL.2026",
    )
    server.route("/api/query", Answer(body=feed([one], 1)))
    (paper,), _, _ = fetch(server)
    assert paper.id == "2611.01234"
    assert paper.title == "Private Federated Learning at Scale"
    assert paper.abstract == "We study DP for FL."
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.categories == ("cs.LG", "cs.CR")
    assert paper.url == "http://arxiv.org/abs/2611.01234"
    assert paper.code_url == "https://github.com/acme/pfl"
    assert paper.published == date(2026, 11, 27)
    assert paper.aliases == ("10.1000/pfl.2026",)
    assert paper.venue == "arXiv cs.LG" and paper.source == "arxiv"


def test_an_empty_window_is_no_papers_and_no_error(server: FeedServer) -> None:
    server.route("/api/query", Answer(body=feed([], 0)))
    papers, warnings, _ = fetch(server)
    assert papers == [] and warnings == []
    assert len(server.hits("/api/query")) == 1


def test_an_entry_that_cannot_be_read_costs_that_entry_not_the_page(
    server: FeedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from digest.sources import arxiv

    reading = arxiv.to_paper

    def odd(entry: Any) -> Paper | None:
        if "2611.00002" in str(entry.get("id")):
            raise RecursionError("maximum recursion depth exceeded")
        return reading(entry)

    monkeypatch.setattr(arxiv, "to_paper", odd)
    server.route("/api/query", Answer(body=feed(PAPERS[:3], 3)))
    papers, warnings, _ = fetch(server, page=10)
    assert [p.id for p in papers] == ["2611.00000", "2611.00001"]
    assert warnings == ["arxiv: entry 3 cannot be read (RecursionError), skipped"]


def test_an_empty_page_short_of_the_total_is_asked_again_once(server: FeedServer) -> None:
    pages = [Answer(body=feed(PAPERS[:2], 4)), Answer(body=feed([], 4, 2))]
    server.route("/api/query", *pages, Answer(body=feed(PAPERS[2:4], 4, 2)))
    papers, warnings, _ = fetch(server)
    assert len(papers) == 4 and warnings == []
    assert [r.query["start"] for r in server.hits("/api/query")] == ["0", "2", "2"]


def until_failure(server: FeedServer, page: int) -> tuple[list[Paper], list[str], Any]:
    """The papers the source gives before it fails, its warnings, and the failure's info."""
    papers: list[Paper] = []
    warnings: list[str] = []
    arxiv = ArxivSource(Policy(timeout=2, sleep=Sleeps()), page=page)
    with pytest.raises(SourceError) as info:
        for paper in arxiv.fetch(source(url=f"{server.url}/api/query"), warnings.append, now=NOW):
            papers.append(paper)
    return papers, warnings, info


def test_a_page_short_of_the_total_empty_twice_fails_the_source(server: FeedServer) -> None:
    """Taken for the listing's end, it had been a success: the papers after it never read."""
    server.route("/api/query", Answer(body=feed(PAPERS[:2], 5)), Answer(body=feed([], 5, 2)))
    papers, warnings, info = until_failure(server, page=2)
    assert len(papers) == 2 and warnings == []
    assert str(info.value) == (
        f"arxiv: listing cut short: empty page at 2 of 5, twice, from {server.url}/api/query"
    )
    assert [r.query["start"] for r in server.hits("/api/query")] == ["0", "2", "2"]


def test_a_sigterm_ends_the_delay_between_pages_at_once(server: FeedServer) -> None:
    """arXiv's `delay` (up to 10 minutes) had held a SIGTERMed run to its end."""
    from test_sources_web import sigterm_after

    server.route("/api/query", paged)
    papers: list[Paper] = []
    warnings: list[str] = []
    config = source(url=f"{server.url}/api/query", delay=600)
    arxiv = ArxivSource(Policy(timeout=2), page=2)  # the real wait, not a recorded one
    began = time.monotonic()
    with sigterm_after(0.5), pytest.raises(SourceError) as info:
        for paper in arxiv.fetch(config, warnings.append, now=NOW):
            papers.append(paper)
    assert time.monotonic() - began < 10 and len(papers) == 2
    assert str(info.value) == (
        f"arxiv: stopped (SIGTERM) before asking {server.url}/api/query again; "
        "a later run will ask again"
    )


def test_the_apis_own_error_message_is_shown(server: FeedServer) -> None:
    server.route("/api/query", Answer(400, body=ERROR_FEED))
    with pytest.raises(SourceError) as info:
        fetch(server)
    assert "HTTP 400 Bad Request: incorrect id format for 1234" in str(info.value)


def test_an_api_error_served_with_200_fails_the_source_with_the_apis_message(
    server: FeedServer,
) -> None:
    server.route("/api/query", Answer(body=ERROR_FEED))
    with pytest.raises(SourceError) as info:
        fetch(server)
    assert str(info.value) == (
        f"arxiv: arXiv API error: incorrect id format for 1234 from {server.url}/api/query"
    )


def test_a_lookup_answered_with_an_api_error_fails_rather_than_finds_nothing(
    server: FeedServer,
) -> None:
    server.route("/api/query", Answer(body=ERROR_FEED))
    config = source(url=f"{server.url}/api/query")
    with pytest.raises(SourceError, match="arXiv API error: incorrect id format for 1234"):
        ArxivSource(Policy(timeout=2)).lookup(["2611.01234"], config)


def test_a_malformed_but_whole_answer_is_read_and_paging_goes_on(server: FeedServer) -> None:
    junk = feed(PAPERS[:2], 3) + "<!-- cached --> junk"
    server.route("/api/query", Answer(body=junk), Answer(body=feed(PAPERS[2:3], 3, 2)))
    papers, warnings, _ = fetch(server)
    assert [p.id for p in papers] == ["2611.00000", "2611.00001", "2611.00002"]
    assert len(warnings) == 1 and "malformed Atom" in warnings[0]


def test_an_answer_cut_short_keeps_its_whole_entries_and_fails_the_source(
    server: FeedServer,
) -> None:
    """Counted in the page's entries, the one the body ended in was skipped, and the page's
    entries after the cut were never read: the next page started after them."""
    body = feed(PAPERS[:3], 5)
    cut = body[: body.index("</entry>") + 8] + "<entry><id>http://arxiv.org/abs/2611.0"
    server.route("/api/query", Answer(body=cut), Answer(body=feed(PAPERS[1:3], 5, 1)))
    papers, warnings, info = until_failure(server, page=3)
    assert [p.id for p in papers] == ["2611.00000"] and warnings == []
    assert str(info.value).startswith("arxiv: answer cut short, before its document's end (")
    assert str(info.value).endswith(f") from {server.url}/api/query")
    assert len(server.hits("/api/query")) == 1


def test_an_answer_that_is_no_feed_fails_the_source(server: FeedServer) -> None:
    server.route("/api/query", Answer(body="<html><body>Maintenance</body></html>"))
    with pytest.raises(SourceError, match="not an arXiv API answer") as info:
        fetch(server)
    assert str(info.value).endswith(f") from {server.url}/api/query")


def test_a_429_with_retry_after_is_waited_out_then_paging_goes_on(server: FeedServer) -> None:
    server.route(
        "/api/query", Answer(429, headers={"Retry-After": "1"}), Answer(body=feed(PAPERS[:1], 1))
    )
    papers, _, sleeps = fetch(server)
    assert len(papers) == 1 and 1.0 in sleeps


def test_categories_and_query_are_checked_before_any_call() -> None:
    arxiv = ArxivSource()
    assert arxiv.check({"categories": ["cs LG"]}) == (
        "categories[0]",
        "'cs LG' is not an arXiv category (e.g. 'cs.LG', 'hep-th', 'q-bio.NC')",
    )
    assert arxiv.check({}) == (
        "",
        "arxiv needs `categories` (e.g. ['cs.LG']) or a `query`, or both",
    )
    assert arxiv.check({"query": "x", "max_results": 50000})[0] == "max_results"  # type: ignore[index]
    assert arxiv.check({"categories": ["astro-ph.GA", "hep-th"], "days": 2}) is None
    with pytest.raises(SourceError, match="needs `categories` or `query`"):
        arxiv.fetch(SourceConfig("arxiv", "arxiv", {}), print)


def test_lookup_by_ids_returns_the_papers_arxiv_knows(server: FeedServer) -> None:
    server.route("/api/query", Answer(body=feed([PAPERS[1], PAPERS[3]], 2)))
    arxiv = ArxivSource(Policy(timeout=2))
    config = SourceConfig("arxiv", "arxiv", {"url": f"{server.url}/api/query", "delay": 0})
    found = arxiv.lookup(["2611.00001v2", "arXiv:2611.00003", "2611.09999"], config)
    assert sorted(found) == ["2611.00001", "2611.00003"]
    (request,) = server.requests
    assert request.query["id_list"] == "2611.00001,2611.00003,2611.09999"


def test_an_id_arxiv_cannot_have_is_unknown_and_not_asked(server: FeedServer) -> None:
    """arXiv refuses a whole lookup over one malformed id: one typo in `like` had kept every
    digest of its reader waiting for good. A subject class is no part of arXiv's own id."""
    old = entry("math/0309136v1", "An old paper on knots")
    server.route("/api/query", Answer(body=feed([PAPERS[1], old], 2)))
    config = SourceConfig("arxiv", "arxiv", {"url": f"{server.url}/api/query", "delay": 0})
    found = ArxivSource(Policy(timeout=2)).lookup(
        ["2611.00001", "hepth/9711201", "1234.1234", "math.GT/0309136"], config
    )
    assert sorted(found) == ["2611.00001", "math/0309136"]
    (request,) = server.requests
    assert request.query["id_list"] == "2611.00001,math/0309136"


def test_a_version_of_a_paper_first_submitted_before_the_window_is_a_replacement(
    server: FeedServer,
) -> None:
    # NOW is 2026-11-30; the default window is 7 days. 2601.00001 was submitted in January and
    # comes back because of its v4: new only to a store that has it.
    old = entry("2601.00001v4", "An old paper revised", published="2026-01-05T10:00:00Z")
    fresh = entry("2611.00002v2", "A new paper revised at once")
    server.route("/api/query", Answer(body=feed([old, fresh], 2)))
    (revised, new), _, _ = fetch(server)
    assert revised.replacement and revised.published == date(2026, 1, 5)
    assert not new.replacement
    (revised, _), _, _ = fetch(server, replacements=True)
    assert not revised.replacement


def test_api_text_reads_as_plain_text_and_authors_are_whole_names(server: FeedServer) -> None:
    paper = entry(
        "2611.00003v1", "Sub-$\\mu$W inference in $\\mathcal{O}(n)$", "H$_2$O for $5 a day."
    )
    paper = paper.replace("<name>Alan Turing</name>", "<name>STAR Collaboration</name>")
    server.route("/api/query", Answer(body=feed([paper], 1)))
    (found,), _, _ = fetch(server)
    assert found.title == "Sub-μW inference in O(n)"
    assert found.abstract == "H₂O for $5 a day."
    assert found.authors == ("Ada Lovelace", "STAR Collaboration")


def test_the_query_of_the_api_address_is_kept_beside_the_search(server: FeedServer) -> None:
    server.route(
        "/api/query", lambda q: Answer(body=feed(PAPERS[:1], 1)) if "id_list" in q else paged(q)
    )
    sleeps, warnings = Sleeps(), []
    arxiv = ArxivSource(Policy(timeout=2, backoff=0.01, sleep=sleeps), page=10)
    config = source(url=f"{server.url}/api/query?api_key=AXKEY")
    papers = list(arxiv.fetch(config, warnings.append, now=NOW))
    assert len(papers) == 5
    (request,) = server.requests
    assert request.query["api_key"] == "AXKEY" and request.query["start"] == "0"
    assert request.query["search_query"].startswith("(cat:cs.LG) AND submittedDate:")
    assert list(arxiv.lookup(["2611.00000"], config)) == ["2611.00000"]
    assert server.requests[-1].query["api_key"] == "AXKEY"
    assert server.requests[-1].query["id_list"] == "2611.00000"


def test_a_link_with_credentials_or_no_address_gives_way_to_the_abstract_page(
    server: FeedServer,
) -> None:
    mirror = entry("2611.00001v1", "A paper on private federated learning").replace(
        'href="http://arxiv.org/abs/2611.00001v1" rel="alternate"',
        'href="http://user:MIRRORPASS@mirror.example/abs/2611.00001v1" rel="alternate"',
    )
    relative = entry("2611.00002v1", "A paper on private federated learning too").replace(
        'href="http://arxiv.org/abs/2611.00002v1" rel="alternate"',
        'href="abs/2611.00002v1" rel="alternate"',
    )
    server.route("/api/query", Answer(body=feed([mirror, relative], 2)))
    papers, _, _ = fetch(server)
    assert [p.url for p in papers] == [
        "https://arxiv.org/abs/2611.00001",
        "https://arxiv.org/abs/2611.00002",
    ]


def test_every_source_and_the_lookup_share_one_delay_between_calls(server: FeedServer) -> None:
    """arXiv asks one call in `delay` of every client: a second arxiv source and the `like`
    lookup, each with a client of its own, had called it 0.06 s after the last call."""

    def api(query: dict[str, str]) -> Answer:
        return Answer(body=feed([PAPERS[1]], 1)) if "id_list" in query else paged(query)

    server.route("/api/query", api)
    arxiv = ArxivSource(Policy(timeout=2), page=5)  # the real sleep: the gaps are measured
    url = f"{server.url}/api/query"
    arxiv.lookup(["2611.00001"], SourceConfig("arxiv", "arxiv", {"url": url, "delay": 0.3}))
    for query in ("federated", "privacy"):
        list(arxiv.fetch(source(url=url, query=query, delay=0.3), print, now=NOW))
    times = [r.at for r in server.requests]
    assert len(times) == 3
    # The server's receipt times jitter on a loaded machine; the defect's gap was 0.06 s.
    assert all(later - earlier >= 0.2 for earlier, later in pairwise(times))


WITHDRAWN = [
    # The classic withdrawal: the summary and the comment say it, and nothing else is left.
    entry(
        "2611.02004v2",
        "Graph networks for spin liquids",
        "This paper has been withdrawn by the author due to a crucial error in Theorem 2.",
        comment="This paper has been withdrawn",
    ),
    # arXiv's present practice: the abstract is kept, the comment gives the reason.
    entry(
        "2611.02005v3",
        "Federated learning at scale",
        comment="Withdrawn: the authors found an error in the dataset",
    ),
    entry(
        "2611.02006v2",
        "Diffusion samplers",
        comment="12 pages; withdrawn by arXiv administrators due to text overlap",
    ),
]
KEPT = [
    entry("2611.02007v1", "Drug safety", "Drugs withdrawn from the market are studied here."),
    entry("2611.02008v1", "A new proof", comment="10 pages; supersedes the withdrawn 2301.00001"),
    entry("2611.02009v1", "Old results", comment="This work was withdrawn from ICLR 2025"),
    entry(
        "2611.02010v1", "A fix", comment="Supersedes 2401.00001, which was withdrawn by the authors"
    ),
    entry("2611.02011v1", "A redo", comment="which was withdrawn by arXiv administrators"),
]


def test_a_withdrawn_paper_is_skipped_as_openreview_skips_a_withdrawn_submission(
    server: FeedServer,
) -> None:
    """Withdrawn before the first read (a source's first week, a query's long `days`): the
    withdrawn versions had been delivered, one as the first pick, with no sign of it."""
    server.route("/api/query", Answer(body=feed(WITHDRAWN + KEPT, 5)))
    papers, warnings, _ = fetch(server, page=10)
    assert [p.id for p in papers] == [f"2611.020{n:02}" for n in range(7, 12)]
    assert warnings == [f"arxiv: 2611.0200{n} is withdrawn, skipped" for n in (4, 5, 6)]
    assert all(isinstance(w, Passed) for w in warnings)


def test_a_liked_paper_withdrawn_since_is_still_found_by_the_lookup(server: FeedServer) -> None:
    server.route("/api/query", Answer(body=feed(WITHDRAWN[1:2], 1)))
    config = SourceConfig("arxiv", "arxiv", {"url": f"{server.url}/api/query", "delay": 0})
    assert list(ArxivSource(Policy(timeout=2)).lookup(["2611.02005"], config)) == ["2611.02005"]


def test_an_entry_dated_with_what_cannot_be_a_date_is_kept_with_no_date(
    server: FeedServer,
) -> None:
    """A mirror's "0000-00-00" (the year -1 to feedparser) had lost the entry as unreadable,
    and failed the whole page where the listing's order is read from <updated>."""
    stamps = ["0000-00-00T00:00:00Z", "2026-13-45T00:00:00Z", "2026-11-27T18:00:00Z"]
    entries = [entry(f"2611.0300{n}v1", f"Paper {n}", published=s) for n, s in enumerate(stamps)]
    server.route("/api/query", Answer(body=feed(entries, 3)))
    papers, warnings, _ = fetch(server, page=10)
    assert [p.published for p in papers] == [None, None, date(2026, 11, 27)]
    assert warnings == []


# A live paper's history, read as its withdrawal: the paper had been lost ("skipped").
HISTORY_COMMENTS = [
    "This paper has been withdrawn from ICML 2025 and is under review at NeurIPS 2025; 9 pages",
    "The paper is withdrawn from the AAAI-26 proceedings; extended version, 12 pages",
    "This paper has been withdrawn by the authors from NeurIPS 2025; under review elsewhere",
    "Withdrawn ICLR 2025 submission, revised; 9 pages",
    "Reinstated after being withdrawn by arXiv admin in error",
    "Withdrawn by arXiv admin in error; reinstated",
    "v1 withdrawn by arXiv admin (text overlap flag); this version rewritten",
    "This version replaces one withdrawn by arXiv administrators",
    "Withdrawn-from-market drugs dataset; 10 pages",
    "Withdrawn from ICLR 2025",
    "Paper was withdrawn by arXiv admin in 2024, now revised",
]
HISTORY_SUMMARIES = [
    "This paper was withdrawn from the conference track and is extended here. We study unlearning.",
    "The article is withdrawn from sale in many markets; we study why.",
    "This paper was withdrawn by its authors after review. We study X. We propose Y. We test Z.",
]
# How arXiv words a withdrawn version: by its authors or by its administrators.
WITHDRAWAL_COMMENTS = [
    "This paper has been withdrawn by the author(s)",
    "This paper has been withdrawn",
    "withdrawn",
    "Withdrawn due to an error in the proof of Lemma 3",
    "This submission has been withdrawn by arXiv administrators due to inappropriate text overlap",
    "arXiv admin note: this submission has been withdrawn by arXiv administrators",
    "The authors have withdrawn this paper because of a flaw in the experiments",
    "This article has been withdrawn at the request of the authors",
    "9 pages. Withdrawn (an error in Theorem 1)",
    "This version is withdrawn.",
]


@pytest.mark.parametrize("comment", HISTORY_COMMENTS)
def test_a_comment_telling_a_live_papers_history_keeps_it(comment: str) -> None:
    assert gone({"id": "http://arxiv.org/abs/2611.00001v2", "arxiv_comment": comment}) == ""


@pytest.mark.parametrize("summary", HISTORY_SUMMARIES)
def test_an_abstract_telling_of_a_withdrawal_keeps_its_paper(summary: str) -> None:
    assert gone({"id": "http://arxiv.org/abs/2611.00002v1", "summary": summary}) == ""


def test_a_summary_that_is_a_withdrawal_alone_skips_its_version() -> None:
    summary = "This paper has been withdrawn by the author. A corrected version is 2612.00001."
    assert gone({"id": "http://arxiv.org/abs/2611.00004v2", "summary": summary})


@pytest.mark.parametrize("comment", WITHDRAWAL_COMMENTS)
def test_a_comment_saying_this_version_is_withdrawn_skips_it(comment: str) -> None:
    entry = {"id": "http://arxiv.org/abs/2611.00003v2", "arxiv_comment": comment}
    assert gone(entry) == "2611.00003 is withdrawn"


def test_live_papers_with_a_withdrawal_in_their_history_are_delivered(server: FeedServer) -> None:
    """reg22 F3: "has been withdrawn from ICML 2025" and an abstract's "was withdrawn from the
    conference track" had been skipped as withdrawn: live papers never delivered."""
    history = [
        entry(f"2611.040{n:02}v2", f"Paper {n}", comment=c) for n, c in enumerate(HISTORY_COMMENTS)
    ]
    history += [entry(f"2611.041{n:02}v1", f"Work {n}", s) for n, s in enumerate(HISTORY_SUMMARIES)]
    withdrawal = entry("2611.04200v2", "Gone", comment=WITHDRAWAL_COMMENTS[0])
    server.route("/api/query", Answer(body=feed([*history, withdrawal], len(history) + 1)))
    papers, warnings, _ = fetch(server, page=20)
    assert len(papers) == len(history)
    assert warnings == ["arxiv: 2611.04200 is withdrawn, skipped"]


# reg23 F10: a comment that tells of a past withdrawal after "(" or ";", or names the venue it
# was withdrawn from further on, is a live paper's history; these had been skipped.
PAST_WITHDRAWALS = [
    "25 pages. Submitted to ICLR 2025 (withdrawn)",
    "12 pages; withdrawn, then accepted at AAAI 2026",
    "Journal version. (Withdrawn at the request of the program chairs from the ISIT proceedings)",
    "Earlier version submitted to ICLR 2025 (withdrawn due to reviewer conflicts); accepted at"
    " ICML 2025",
    "This paper has been withdrawn by the corresponding author from ICASSP 2025. Extended"
    " journal version",
    "Withdrawn by the first two authors from NeurIPS 2024; this is the full version",
    "Camera-ready. This version is withdrawn from the workshop track and moved to the main track",
]
# reg23 F11: the authors' reasons ("uploaded in error", "by mistake") and another paper's
# "reinstated" had undone these withdrawals.
WITHDRAWALS_IN_ERROR = [
    "This paper has been withdrawn as it was uploaded in error",
    "Withdrawn: submitted in error",
    "This submission has been withdrawn by the author as it was submitted by mistake",
    "This paper has been withdrawn by the author since it was posted by mistake as a new"
    " submission instead of a replacement",
    "Withdrawn; the results were reinstated in arXiv:2502.00001",
    "This paper has been withdrawn by the authors, as it was merged into arXiv:2501.00002",
]
# A withdrawal's summary: the statement, then a reason or a pointer in as many sentences.
WITHDRAWAL_SUMMARIES = [
    "This paper has been withdrawn by the authors. The main theorem is false. A counterexample"
    " is given in Section 3 of arXiv:2502.00002.",
    "This paper was withdrawn because it was submitted in error.",
    "This paper has been withdrawn by the author. Please see arXiv:2501.00001 for the corrected"
    " version. Thanks to all.",
    # reg25 F4: a reason after ";" had been read as a study's ("we found").
    "This paper has been withdrawn by the authors since the proof of Theorem 1 is incorrect; we"
    " found a counterexample.",
    "This paper has been withdrawn by the authors. We found an error.",  # reg27 F6
]


@pytest.mark.parametrize("comment", PAST_WITHDRAWALS)
def test_a_withdrawal_told_after_the_first_sentence_or_from_a_venue_keeps_the_paper(
    comment: str,
) -> None:
    assert gone({"id": "http://arxiv.org/abs/2611.00005v2", "arxiv_comment": comment}) == ""


@pytest.mark.parametrize("comment", WITHDRAWALS_IN_ERROR)
def test_a_withdrawal_for_an_upload_in_error_skips_the_version(comment: str) -> None:
    entry = {"id": "http://arxiv.org/abs/2611.00006v2", "arxiv_comment": comment}
    assert gone(entry) == "2611.00006 is withdrawn"


@pytest.mark.parametrize("summary", WITHDRAWAL_SUMMARIES)
def test_a_short_summary_opening_with_the_withdrawal_skips_the_version(summary: str) -> None:
    entry = {"id": "http://arxiv.org/abs/2611.00007v2", "summary": summary}
    assert gone(entry) == "2611.00007 is withdrawn"


def test_only_arxivs_own_error_or_this_papers_reinstatement_undoes_a_withdrawal() -> None:
    for comment in (
        "Withdrawn by arXiv admin in error; reinstated",
        "This paper was withdrawn in error. This paper has been reinstated.",
    ):
        assert gone({"id": "http://arxiv.org/abs/2611.00008v2", "arxiv_comment": comment}) == ""


def test_live_papers_with_a_past_withdrawal_in_their_comment_are_delivered(
    server: FeedServer,
) -> None:
    """reg23 F10: "Submitted to ICLR 2025 (withdrawn)" and the like had left the source with
    no papers ("0 read, 3 skipped")."""
    live = [
        entry(f"2611.050{n:02}v1", f"Live {n}", comment=c) for n, c in enumerate(PAST_WITHDRAWALS)
    ]
    gone_ = [entry("2611.05100v2", "Gone", comment=WITHDRAWALS_IN_ERROR[0])]
    gone_ += [entry("2611.05101v2", "Gone too", WITHDRAWAL_SUMMARIES[0])]
    server.route("/api/query", Answer(body=feed(live + gone_, len(live) + 2)))
    papers, warnings, _ = fetch(server, page=20)
    assert [p.title for p in papers] == [f"Live {n}" for n in range(len(live))]
    assert warnings == [f"arxiv: 2611.0510{n} is withdrawn, skipped" for n in (0, 1)]


def test_a_withdrawal_whose_reason_names_another_papers_venue_skips_the_version() -> None:
    """reg25 F3: the replacement's venue in the reason had made the withdrawal a live paper."""
    comment = (
        "This paper has been withdrawn since it has been superseded by arXiv:2502.00001, which"
        " will appear in ICML 2025"
    )
    entry = {"id": "http://arxiv.org/abs/2611.00008v2", "arxiv_comment": comment}
    assert gone(entry) == "2611.00008 is withdrawn"


def test_withdrawn_in_favour_of_another_paper_skips_the_version() -> None:
    """reg27 F7: "Withdrawn in favour of arXiv:…" had been no withdrawal."""
    for comment in ("Withdrawn in favour of arXiv:2502.00001", "Withdrawn in favor of 2502.00001"):
        entry = {"id": "http://arxiv.org/abs/2611.00009v2", "arxiv_comment": comment}
        assert gone(entry) == "2611.00009 is withdrawn", comment
