"""The arXiv API (Atom): new papers of some categories and/or a search query in a window of
submission days, paged politely; and the lookup of single papers by id for `like` lists.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import feedparser

from digest.models import Notice, Paper, SourceConfig, SourceError, Warn
from digest.models.identity import arxiv_id, doi, plausible_arxiv_id
from digest.sources import authors, publishers
from digest.sources.addresses import check_options, check_range, printable, shown
from digest.sources.common import code_links, day, read_entries, xml_safe
from digest.sources.cuts import CutShort, cut_short
from digest.sources.latex import to_text
from digest.sources.progress import QUIET, Progress
from digest.sources.rss import feed_problem
from digest.sources.web import Client, Policy, Response

log = logging.getLogger("digest.sources")

URL = "https://export.arxiv.org/api/query"
DELAY = 3.0  # seconds between calls: what the arXiv API terms of use ask of every client
DAYS = 7
MAX_RESULTS = 1000
PAGE = 200
# "ti:", "abs:", "cat:"...: a query written in arXiv's own search syntax is passed as it is.
_FIELD = re.compile(r"\b(?:ti|au|abs|co|jr|cat|rn|id|all|submittedDate):", re.IGNORECASE)
_VERSION = re.compile(r"v\d+$")
_CATEGORY = re.compile(r"^[a-z][a-z-]*(?:\.[A-Za-z][A-Za-z-]*)?$")  # cs.LG, hep-th, q-bio.NC
# The API serves at most 30000 results to one query.
_RANGES = {"days": (1, 3650), "max_results": (1, 30000), "delay": (0, 600)}


@dataclass(frozen=True, slots=True)
class Options:
    url: str
    categories: tuple[str, ...]
    query: str
    days: int
    max_results: int
    delay: float
    replacements: bool = False

    @classmethod
    def of(cls, config: SourceConfig) -> Options:
        raw = config.options
        return cls(
            url=str(raw.get("url") or URL),
            categories=tuple(raw.get("categories", ())),
            query=str(raw.get("query", "")).strip(),
            days=int(raw.get("days", DAYS)),
            max_results=int(raw.get("max_results", MAX_RESULTS)),
            delay=float(raw.get("delay", DELAY)),
            replacements=raw.get("replacements") is True,
        )


# arXiv lists a paper once announced, up to 78 hours after its submission (Thursday afternoon's
# and Friday's come out on Sunday night); holidays add a day. A window ending at the run's clock
# had moved past them: `days = 2` lost every Monday's listing, and nine days off lost three.
LISTED = timedelta(days=4)


def search_query(options: Options, now: datetime, since: datetime | None = None) -> str:
    """categories OR-ed, AND the query, AND the window of submission dates ending at `now`
    (from `since`, else `days` before it)."""
    parts = []
    if options.categories:
        parts.append("(" + " OR ".join(f"cat:{c}" for c in options.categories) + ")")
    if options.query:
        words = options.query
        if not _FIELD.search(words):
            words = " AND ".join(f"all:{w}" for w in words.split())
        parts.append(f"({words})")
    until = now.astimezone(UTC)
    since = (since or until - timedelta(days=options.days)).astimezone(UTC)
    stamp = "%Y%m%d%H%M"
    parts.append(f"submittedDate:[{since.strftime(stamp)} TO {until.strftime(stamp)}]")
    return " AND ".join(parts)


def parse_feed(
    body: bytes,
    warn: Warn,
    where: str,
    url: str = "",
    dates: list[date] | None = None,
    withdrawn: bool = False,
) -> tuple[list[Paper], int | None, int]:
    """The papers of one API answer, its opensearch:totalResults (None when absent) and how many
    entries it held (skipped ones too: the next page starts after them); into `dates`, each
    entry's <updated> day, its version's, by which the listing is sorted. An error the API words
    in its feed is a SourceError, whatever the HTTP status said; an answer cut short is
    CutShort, with the papers before the cut. A withdrawn paper is skipped (Passed), unless
    `withdrawn` keeps it."""
    feed = feedparser.parse(io.BytesIO(xml_safe(body)))
    tail = f" from {url}" if url else ""
    if not feed.get("version"):
        why = feed.get("bozo_exception") or "no Atom feed in the answer"
        why = printable(" ".join(str(why).split()))
        raise SourceError(f"{where}: not an arXiv API answer ({why}){tail}")
    if (problem := api_error(feed.entries)) is not None:
        raise SourceError(f"{where}: arXiv API error: {problem}{tail}")
    problem = feed_problem(feed)
    if problem and (why := cut_short(problem, body)):
        # As for a feed: the entry the body ends in is no paper, and the page's end is unread
        # (counted in its entries, the next page had started after what was never read).
        papers = _papers(feed.entries[:-1], warn, where, withdrawn)
        raise CutShort(
            f"{where}: answer cut short, before its document's end ({why}){tail}", papers
        )
    if problem:
        warn(Notice(f"{where}: malformed Atom ({problem}); kept what could be read"))
    total_text = str(feed.feed.get("opensearch_totalresults", "")).strip()
    papers = _papers(feed.entries, warn, where, withdrawn)
    if dates is not None:
        stamps = (dict(e) for e in feed.entries)
        dates += [d for s in stamps if (d := day(s.get("updated"), s.get("updated_parsed")))]
    return papers, int(total_text) if total_text.isdigit() else None, len(feed.entries)


def _papers(
    entries: Sequence[Mapping[str, Any]], warn: Warn, where: str, withdrawn: bool = False
) -> list[Paper]:
    lacks = "no arXiv id, title or abstract"
    return read_entries(entries, to_paper, warn, where, lacks, None if withdrawn else gone)


def gone(entry: Mapping[str, Any]) -> str:
    """Why the entry is no paper to deliver: its id "is withdrawn" (its comment or its summary
    says this version is, `publishers.withdrawn`), as OpenReview's withdrawn submissions are
    none; or nothing."""
    if publishers.withdrawn(str(entry.get("arxiv_comment", "")), str(entry.get("summary", ""))):
        return f"{arxiv_id(str(entry.get('id', ''))) or 'an entry'} is withdrawn"
    return ""


def api_error(entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The API's error message, when its answer is one: an entry whose id is
    http://arxiv.org/api/errors#..., the message in its summary (sometimes served with 200)."""
    for entry in entries:
        ident = str(entry.get("id", ""))
        if "arxiv.org/api/errors" in ident:
            summary = " ".join(str(entry.get("summary", "")).split())
            return summary or ident.partition("#")[2] or "no detail"
    return None


def to_paper(entry: Mapping[str, Any]) -> Paper | None:
    ident = arxiv_id(str(entry.get("id", "")))
    title = " ".join(to_text(str(entry.get("title", ""))).split())
    raw = " ".join(str(entry.get("summary", "")).split())
    abstract = " ".join(to_text(raw).split())
    if not ident or not (title or abstract):
        return None
    primary = (entry.get("arxiv_primary_category") or {}).get("term", "")
    tags = [t.get("term", "") for t in entry.get("tags", ())]
    comment = str(entry.get("arxiv_comment", ""))
    links = code_links(f"{comment} {raw}")
    journal_doi = doi(str(entry.get("arxiv_doi", "")))
    link = _link(str(entry.get("link", "")), ident)
    # <published> is the first version's date, <updated> this version's.
    plain = dict(entry)  # dict.get: feedparser answers a missing key with a stand-in
    stamp = "published" if plain.get("published_parsed") else "updated"
    return Paper(
        id=ident,
        title=title,
        abstract=abstract,
        authors=authors.split([str(a.get("name", "")) for a in entry.get("authors", ())]),
        venue=str(entry.get("arxiv_journal_ref", "")).strip() or f"arXiv {primary}".strip(),
        url=link,
        code_url=links[0] if links else "",
        published=day(plain.get(stamp), plain.get(f"{stamp}_parsed")),
        source="arxiv",
        categories=tuple(c for c in dict.fromkeys([primary, *tags]) if c),
        aliases=(journal_doi,) if journal_doi else (),
    )


def _link(given: str, ident: str) -> str:
    """The answer's own link without its version, unless it is no full web address or carries
    credentials (a mirror's answer): arXiv's abstract page then. Never built from the API's
    address, which may hold a key or a password."""
    link = _VERSION.sub("", given.strip())
    try:
        parts = urlsplit(link)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:  # a broken IPv6 bracket, a port out of range
        usable = False
    return link if usable and "@" not in parts.netloc else f"https://arxiv.org/abs/{ident}"


def _mark_replacements(papers: Iterator[Paper], since: date) -> Iterator[Paper]:
    """A paper first submitted before the window came because of a new version: new only to a
    store that already has it (the window counts versions when arXiv dates them by update)."""
    for paper in papers:
        old = paper.published is not None and paper.published < since
        yield replace(paper, replacement=True) if old else paper


_SUBJECT = re.compile(r"\.[A-Za-z]{2}/")


def _plausible(ident: str) -> bool:
    return arxiv_id(ident) == ident and plausible_arxiv_id(ident)


def explain(response: Response) -> str:
    """What the API said was wrong: its error feed holds one entry whose summary says it."""
    feed = feedparser.parse(io.BytesIO(xml_safe(response.body)))
    entries = feed.get("entries") or []
    return " ".join(str(entries[0].get("summary", "")).split()) if entries else ""


class ArxivSource:
    """`categories` and/or `query`, `days` back from the run's clock, at most `max_results`,
    `delay` seconds between calls; `url` is the API endpoint (a mirror or a test server)."""

    kind = "arxiv"
    catches_up = True  # fetch() takes `last_read`: the window reaches back before it

    def __init__(self, policy: Policy | None = None, page: int = PAGE) -> None:
        self.policy, self.page = policy or Policy(), page

    def check(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        """(key, problem) for values the API would refuse or misread, else None."""
        for i, category in enumerate(options.get("categories", ())):
            if not _CATEGORY.match(category):
                example = "e.g. 'cs.LG', 'hep-th', 'q-bio.NC'"
                return f"categories[{i}]", f"{category!r} is not an arXiv category ({example})"
        if not options.get("categories") and not str(options.get("query", "")).strip():
            return "", "arxiv needs `categories` (e.g. ['cs.LG']) or a `query`, or both"
        return check_options(options) or check_range(options, _RANGES)

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = None,
        progress: Progress = QUIET,
        last_read: datetime | None = None,
    ) -> Iterator[Paper]:
        """The papers submitted within the window: `days` before `now`, and back to LISTED
        before `last_read` (the source's last successful read), so that arXiv's listing delay
        or a run's downtime loses nothing."""
        options = Options.of(config)
        if not options.categories and not options.query:
            raise SourceError(f"source {config.name!r}: arxiv needs `categories` or `query`")
        now = now or datetime.now(UTC)
        since = now.astimezone(UTC) - timedelta(days=options.days)
        if last_read is not None and last_read - LISTED < since:
            since = last_read.astimezone(UTC) - LISTED
            when = since.strftime("%Y-%m-%d %H:%M UTC")
            log.info("source %s: reading from %s, %d days before its last read", config.name,
                     when, LISTED.days)  # fmt: skip
        query = search_query(options, now, since)
        margin = None if last_read is None else (last_read.astimezone(UTC) - LISTED).date()
        papers = self._pages(config, options, query, warn, progress, margin)
        return papers if options.replacements else _mark_replacements(papers, since.date())

    def _client(self, config: SourceConfig, options: Options, progress: Progress) -> Client:
        # Retries count as calls too: the politeness delay separates every one of them.
        policy = replace(self.policy.with_options(config.options), interval=options.delay)
        return Client(config.name, policy, progress)

    def _pages(
        self,
        config: SourceConfig,
        options: Options,
        query: str,
        warn: Warn,
        progress: Progress,
        margin: date | None = None,
    ) -> Iterator[Paper]:
        """The window's papers, newest first, at most max_results; said when the cut may leave
        papers unread: it falls after `margin` (LISTED before the last read, which read what
        came before), or there was no last read. Where it falls is told by the day of the
        versions read (the listing's order): an old paper's first day had hidden a cut."""
        start, total, empty_pages = 0, None, 0
        oldest: date | None = None
        with self._client(config, options, progress) as client:
            while start < options.max_results and (total is None or start < total):
                size = min(self.page, options.max_results - start)
                pages = f" of {-(-min(total, options.max_results) // self.page)}" if total else ""
                progress.note(f"page {start // self.page + 1}{pages}")
                days: list[date] = []
                try:
                    papers, count, entries = self._page(
                        client, options, query, start, size, warn, days
                    )
                except CutShort as cut:  # its whole entries kept; the source failed
                    yield from cut.papers
                    raise
                if total is None and count is not None:
                    total = count
                    progress.expect(min(total, options.max_results))
                if not entries:
                    # The API now and then answers a page short of its own total with nothing;
                    # asking again once is what its documentation suggests. Without a total, an
                    # empty page is the end of the listing.
                    empty_pages += 1
                    if not total:
                        return
                    if empty_pages > 1:
                        # A failed source, as an API error there is: taken for the listing's
                        # end, the papers after it had never been read, and the run was "ok".
                        empty = f"empty page at {start} of {total}, twice"
                        short = f"listing cut short: {empty}, from {shown(options.url)}"
                        raise SourceError(f"{config.name}: {short}")
                    continue
                empty_pages = 0
                yield from papers
                start += entries
                oldest = min(days, default=oldest)
                if total is None and entries < size:
                    return  # no total to go by: a page short of full is the last one
        left = total is not None and total > start >= options.max_results
        if left and (margin is None or oldest is None or oldest > margin):
            # The oldest of the window left unread (a long catch-up): said, not silent. Past
            # the margin, they were the last read's: a busy category had warned every day.
            warn(Notice(f"{config.name}: {total} papers in the window, the newest {start} read"
                        f" (max_results); raise it to read the rest"))  # fmt: skip

    def _page(
        self,
        client: Client,
        options: Options,
        query: str,
        start: int,
        size: int,
        warn: Warn,
        days: list[date] | None = None,
    ) -> tuple[list[Paper], int | None, int]:
        params = {
            "search_query": query,
            "start": start,
            "max_results": size,
            "sortBy": "submittedDate",
            "sortOrder": "descending",
        }
        response = client.get(options.url, params, explain=explain)
        return parse_feed(response.body, warn, client.name, shown(options.url), days)

    def lookup(self, ids: Sequence[str], config: SourceConfig | None = None) -> dict[str, Paper]:
        """The papers of these arXiv ids ({id: Paper}); ids arXiv does not know are left out."""
        config = config or SourceConfig("arxiv", "arxiv", {})
        options = Options.of(config)
        # Not an id arXiv could have (a month 13, an archive it has not): unknown, never asked,
        # since arXiv refuses the whole call over one. A subject class is no part of the id
        # arXiv answers with (math.GT/0309136 is math/0309136).
        asked = {i: _SUBJECT.sub("/", i) for x in ids if (i := arxiv_id(x) or x)}
        wanted = [q for q in dict.fromkeys(asked.values()) if _plausible(q)]
        by_query: dict[str, Paper] = {}
        with self._client(config, options, QUIET) as client:
            for first in range(0, len(wanted), 100):
                chunk = wanted[first : first + 100]
                params = {"id_list": ",".join(chunk), "max_results": len(chunk)}
                response = client.get(options.url, params, explain=explain)
                where = shown(options.url)
                # A liked paper withdrawn since is still the reader's pick: kept.
                papers, _, _ = parse_feed(
                    response.body, lambda _: None, config.name, where, withdrawn=True
                )
                by_query.update((p.id, p) for p in papers if p.id in chunk)
        return {i: by_query[q] for i, q in asked.items() if q in by_query}
