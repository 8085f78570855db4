"""Any RSS 1.0/2.0 or Atom feed (arXiv's daily RSS, journal and bioRxiv feeds), parsed with
feedparser; HTML in entries reduced to text, ids found wherever a feed keeps them.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from datetime import date, datetime
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import feedparser

from digest.models import Notice, Paper, Passed, SourceConfig, SourceError, Warn
from digest.models.identity import (
    abstract_id,
    arxiv_id,
    doi,
    former_ids,
    guid_key,
    kind,
    openreview_id,
    paper_id,
)
from digest.sources import authors, charsets, covers, publishers, scholar
from digest.sources.addresses import check_options, origin, printable, shown
from digest.sources.common import code_links, numeric, read_entries, written_day, xml_safe
from digest.sources.cuts import CutShort, cut_short, framed, last_whole
from digest.sources.latex import to_text
from digest.sources.markup import html_text
from digest.sources.progress import QUIET, Progress
from digest.sources.titles import derive_title
from digest.sources.web import Client, Policy

# arXiv's feeds open each description with "arXiv:2501.01234v1 Announce Type: new Abstract: ".
_ARXIV_PREAMBLE = re.compile(
    r"^\s*arXiv:\S+\s+Announce Type:\s*(\S+)\s*(?:Abstract:\s*)?", re.IGNORECASE
)
# Its old RSS 1.0 feeds end each title with the listing: "Title. (arXiv:1805.09166v1 [hep-ex]
# UPDATED)"; UPDATED marks a new version, CROSS LISTED a paper of another category.
_LISTING = re.compile(
    r"\.?\s*\(arXiv:\s*([^\s()\[\]]+)\s*(?:\[[^\]]*\])?\s*([A-Z][A-Z ]*[A-Z])?\s*\)\s*$"
)
# Headers feedparser would resolve relative links against: the feed's own (often secret) path.
_BASE_HEADERS = {"content-location", "content-base"}
# A bare "&" that starts no entity or character reference ("R&D", "AT&T's"), as sloppy feeds
# write it; not one inside CDATA, which is text as it stands (an unended CDATA runs to the end).
_BARE_AMPERSAND = re.compile(
    rb"(<!\[CDATA\[.*?(?:\]\]>|\Z))|&(?!#[0-9]+;|#[xX][0-9a-fA-F]+;|[A-Za-z_:][\w.:-]*;)",
    re.DOTALL,
)


def feed_problem(feed: Any) -> str | None:
    """What made feedparser stumble, unless it only noted a missing or odd content type."""
    if not feed.get("bozo"):
        return None
    # feedparser's "ThingsNobodyCaresAboutButMe": a wrong or missing Content-Type header, an
    # encoding it overrode; the feed itself read fine.
    if isinstance(feed.get("bozo_exception"), feedparser.ThingsNobodyCaresAboutButMe):
        return None
    return str(feed.get("bozo_exception"))


def parse_feed(
    body: bytes,
    name: str,
    warn: Warn,
    headers: Mapping[str, str] | None = None,
    replacements: bool = False,
    base: str = "",
    url: str = "",
    malformed: list[str] | None = None,
    cut: str = "",
    most: int = Policy().max_bytes,
) -> list[Paper]:
    """The papers of one feed document; a document that is no feed at all is a SourceError
    naming `url`, the address it came from; one cut short is CutShort, with the papers before
    the cut. New versions of older papers are marked `replacement` unless `replacements` takes
    them as new papers. Site-relative links are resolved against `base`, the site the feed
    came from. `cut` says the client saw the body stop short (a compressed stream without its
    end), framed or not. A gzip body no Content-Encoding named is unpacked, to `most` bytes."""
    where = f" from {shown(url)}" if url else ""
    try:
        body, packed = charsets.unpacked(body, most)
    except charsets.Packed as exc:
        raise SourceError(f"{name}: {exc}{where}") from None
    cut = cut or packed
    # Not the headers that name the feed's own address: feedparser would resolve links
    # relative to the feed's path against it, and that path may be the feed's secret.
    kept = {k: v for k, v in (headers or {}).items() if k.lower() not in _BASE_HEADERS}
    body, kept, stray = charsets.settled(body, kept)
    if stray:
        warn(Notice(f"{name}: {stray} bytes that are not UTF-8 read as Windows-1252"))
    # Not feedparser's HTML sanitizing, nor its link resolving: both parse a description's text
    # as HTML and drop what lies between a "<" and a ">" of it ($k<n$ ... $m>2$); html_text does.
    feed = feedparser.parse(
        io.BytesIO(xml_safe(_ampersands_escaped(body, kept))),
        response_headers=kept,
        sanitize_html=False,
        resolve_relative_uris=False,
    )
    if not feed.get("version"):
        why = feed.get("bozo_exception") or "no RSS or Atom elements found"
        if cut:  # cut before its root element: too little came to tell
            raise CutShort(f"{name}: feed cut short, before its document's end ({cut}){where}", [])
        why = printable(" ".join(str(why).split()))
        hint = _linked_feed(body, base)
        raise SourceError(f"{name}: not an RSS or Atom feed ({why}){where}{hint}")
    problem = feed_problem(feed)
    if problem and malformed is not None:
        malformed.append(problem)
    entries = list(feed.entries)
    why = cut_short(problem, body) if problem else ""
    if why and (cut or not framed(headers)):
        # A failed read, not a warning: read as a success, it closed the day on the entries
        # before the cut, and arXiv's daily feed had moved on by the next run. The last entry is
        # the one the body ends in: kept, it was a paper with no abstract, DOI or date.
        papers = _papers(feed, entries[:-1], name, warn, replacements, base, url)
        raise CutShort(f"{name}: feed cut short, before its document's end ({why}){where}", papers)
    if why and not last_whole(body):
        entries = entries[:-1]  # whole as served, but its last entry never ends: no paper
    if problem:  # whole, though malformed (junk after its root, an undeclared &nbsp;)
        warn(Notice(f"{name}: malformed feed ({problem}); kept what could be read"))
    return _papers(feed, entries, name, warn, replacements, base, url)


def _ampersands_escaped(body: bytes, headers: Mapping[str, str]) -> bytes:
    """The body with each bare "&" written "&amp;": feedparser's loose parser, which a feed's
    first bare "&" sends it to, wrote "R&D" back as "R&D;". Only in an encoding where "&" is
    the byte 0x26 and no other character's (not UTF-16, nor ISO-2022's escapes)."""
    if b"&" not in body or b"\x00" in body[:4] or body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return body
    if "2022" in charsets.declared(body) + charsets.charset(headers):
        return body
    return _BARE_AMPERSAND.sub(lambda m: m[1] or b"&amp;", body)


def _papers(
    feed: Any,
    entries: list[Any],
    name: str,
    warn: Warn,
    replacements: bool,
    base: str,
    url: str,
) -> list[Paper]:
    """The papers of these entries of the feed; an entry that cannot be read is skipped, and so
    is a journal's notice (a correction of a paper, which copies its title: it ranked first),
    known by its title and its text, short or about the article it corrects."""
    venue = html_text(str(feed.feed.get("title", "")))
    # An item id the feed gives twice, or its own address, names no one item.
    ids = Counter(str(e.get("id") or "").strip() for e in entries)
    shared = {i for i, n in ids.items() if n > 1} | {str(feed.feed.get("link", "")), url}
    papers = []
    for paper in read_entries(
        entries,
        lambda entry: to_paper(entry, venue, f"rss:{name}", replacements, base, shared),
        warn,
        name,
        "neither title nor abstract",
    ):
        if publishers.is_notice(paper.title, paper.abstract):
            notice = f"{name}: {paper.title[:80]!r} is a journal's notice, not a paper, skipped"
            warn(Passed(notice))
        elif covers.is_cover(paper.title, paper.abstract):
            cover = f"{name}: {paper.title[:80]!r} is an issue's cover or front matter, not a paper"
            warn(Passed(f"{cover}, skipped"))
        else:
            papers.append(paper)
    return papers


def _own_id(
    entry: Mapping[str, Any],
    ident: str,
    source: str,
    shared: Collection[str],
    scholarly: bool = False,
) -> tuple[str, ...]:
    """The item's own id as a key, for a paper known otherwise by its title or text alone; none
    for a Scholar alert's item, whose id (the redirector link) each alert writes anew: one
    paper in two alerts with two snippets had been two items of one feed, sent twice."""
    guid = str(entry.get("id") or "").strip()
    if kind(ident) not in ("t", "h") or scholarly or guid in shared:
        return ()
    key = guid_key(guid, source)
    return (key,) if key else ()


def to_paper(
    entry: Mapping[str, Any],
    venue: str,
    source: str,
    replacements: bool = False,
    base: str = "",
    shared: Collection[str] = (),
) -> Paper | None:
    title = scholar.title(publishers.title(html_text(str(entry.get("title", "")))))
    listing = _LISTING.search(title)
    if listing:
        title = title[: listing.start()]
    # The longer of the description and the content: a publisher's description may be a teaser
    # ("Angewandte Chemie, EarlyView.") with the abstract in content:encoded, or the other way.
    texts = [str(entry.get("summary") or "")] + [
        str(c.get("value", "")) for c in entry.get("content") or ()
    ]
    wrapped = publishers.unwrap(max(texts, key=lambda t: len(html_text(t))))
    raw = wrapped.text
    text = html_text(raw)
    preamble = _ARXIV_PREAMBLE.match(text)
    abstract = to_text(text[preamble.end() :] if preamble else text)
    title = to_text(title)
    if not title and not abstract:
        return None
    # An item may have a description and no title (RSS 2.0 allows it): the title is then derived
    # from the text, as for paper files, after the id (a derived title is no identity).
    derived = "" if title else derive_title(abstract)
    announced = str(entry.get("arxiv_announce_type") or (preamble and preamble[1]) or "")
    replacement = announced.lower().startswith("replace") or bool(
        listing and listing[2] == "UPDATED"
    )
    written = str(entry.get("link", "")).strip()
    link = scholar.target(written)  # Scholar's redirector: its target is the paper's page
    scholarly = link != written
    # "/a/2" is a page of the feed's site. A link relative to the feed's own path is left as it
    # is (so no link): a private feed's token is often its path, and links reach readers.
    link = _public(urljoin(base, link) if link.startswith("/") and base else link)
    # arXiv's own feed says a published paper's DOI in <arxiv:DOI>, its journal in
    # <arxiv:journal_reference>, as its API does.
    named = ("arxiv_doi", "id", "dc_identifier", "prism_doi")
    candidates = [scholar.target(str(entry.get(k, ""))) for k in named] + [link, wrapped.doi]
    venue = str(entry.get("arxiv_journal_reference") or "").strip() or venue
    candidates += [listing[1]] if listing else []
    found_arxiv = next((a for c in candidates if (a := arxiv_id(c))), "")
    found_doi = next((d for c in candidates if (d := doi(c))), "")
    found_openreview = next((o for c in candidates if (o := openreview_id(c))), "")
    ident = paper_id(
        arxiv=found_arxiv,
        doi_=found_doi,
        openreview=found_openreview,
        title=title,
        fallback=abstract_id(abstract or title),
    )
    links = code_links(raw + " " + abstract)
    return Paper(
        id=ident,
        title=title or derived,
        abstract=abstract,
        authors=_authors(entry) or authors.split(wrapped.byline),
        venue=venue,
        url=link,
        code_url=links[0] if links else "",
        published=_published(entry, replacement),
        source=source,
        categories=tuple(t["term"] for t in entry.get("tags", ()) if t.get("term")),
        aliases=tuple(a for a in (found_doi, found_arxiv) if a and a != ident)
        + former_ids(ident, title, abstract)
        + _own_id(entry, ident, source, shared, scholarly=scholarly),
        replacement=replacement and not replacements,
    )


# A web page naming its feed: <link rel="alternate" type="application/rss+xml" href="...">.
_FEED_LINK = re.compile(
    rb"<link\b[^>]*\btype=[\"']?application/(?:rss|atom)\+xml[^>]*>", re.IGNORECASE
)
_HREF = re.compile(rb"\bhref=[\"']?([^\"'\s>]+)", re.IGNORECASE)


def _linked_feed(body: bytes, base: str) -> str:
    """For a web page given as a feed: the feed it links to, as a hint (the site's own pages
    only: a page's text is no place to take an address from blindly)."""
    tag = _FEED_LINK.search(body[:200_000])
    href = _HREF.search(tag[0]) if tag else None
    if href is None:
        return ""
    link = printable(urljoin(base, href[1].decode("ascii", "replace")))
    return f"; the page names its feed: {shown(link)}" if link.startswith("http") else ""


def _conditional(validators: Mapping[str, str]) -> dict[str, str]:
    """The headers of a conditional GET (RFC 9110 13.1), from the last full read's validators."""
    names = {"etag": "If-None-Match", "modified": "If-Modified-Since"}
    return {names[k]: v for k, v in validators.items() if k in names and v}


def _validator(value: str) -> str:
    """A validator to send back as it came: short printable ASCII, or none."""
    return value if len(value) <= 200 and value.isascii() and value.isprintable() else ""


def _public(link: str) -> str:
    """The link without a user or password: those are the feed's, never a reader's."""
    try:
        parts = urlsplit(link)
        if "@" not in parts.netloc:
            return link
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=host))
    except ValueError:  # a broken IPv6 bracket: no link rather than a broken one
        return ""


def _published(entry: Mapping[str, Any], replacement: bool) -> date | None:
    """The paper's date. A replacement's pubDate is the day the new version was listed: only
    an Atom <published> older than its <updated> is the paper's own date."""
    # dict.get: feedparser would answer a missing updated_parsed with published_parsed.
    published, updated = dict(entry).get("published_parsed"), dict(entry).get("updated_parsed")
    if replacement:
        original = published if published and updated and published[:3] < updated[:3] else None
        return written_day(entry.get("published"), original) if original else None
    # A number feedparser reads no date in ("+1764756000") is a Unix time all the same.
    if published or numeric(str(entry.get("published") or "")):
        return written_day(entry.get("published"), published)
    if updated or numeric(str(entry.get("updated") or "")):
        return written_day(entry.get("updated"), updated)
    return None


def _authors(entry: Mapping[str, Any]) -> tuple[str, ...]:
    # dc:creator often holds the whole list in one string ("Kukla, D., Crampton, A."), a name a line
    names = [html_text(str(a.get("name", "")), True) for a in entry.get("authors", ()) if a]
    if not names and entry.get("author"):
        names = [html_text(str(entry["author"]), True)]
    return authors.split(names)


class RssSource:
    """`url`: one RSS 1.0, RSS 2.0 or Atom feed."""

    kind = "rss"
    conditional = True  # fetch() takes `validators`: a conditional GET

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy or Policy()

    def check(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        return check_options(options)

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = None,
        progress: Progress = QUIET,
        validators: dict[str, str] | None = None,
    ) -> Iterator[Paper]:
        """`validators`: the ETag and Last-Modified of the last full read, asked with (a 304
        is no papers, and sets "unchanged"); replaced by this answer's."""
        url = config.options.get("url")
        if not isinstance(url, str) or not url.strip():
            raise SourceError(f"source {config.name!r}: rss needs the feed's `url`")
        policy = self.policy.with_options(config.options)
        asked = _conditional(validators or {})
        with Client(config.name, policy, progress) as client:
            progress.note("fetching the feed")
            response = client.get(url, headers=asked)
        if response.status == 304:
            if not asked or validators is None:  # a cache in between answered for someone else
                raise SourceError(f"{config.name}: 304 Not Modified, unasked, from {shown(url)}")
            validators["unchanged"] = "1"
            progress.note("not changed since the last read")
            return iter(())
        if validators is not None:
            validators.clear()
            validators.update(
                etag=_validator(response.headers.get("etag", "")),
                modified=_validator(response.headers.get("last-modified", "")),
            )
        replacements = config.options.get("replacements") is True
        # The site the feed came from (after redirects): its root only, never the feed's path
        # or query, where a private feed keeps its token, nor the credentials of its address.
        root = origin(response.url)
        base = f"{root}/" if root else ""
        malformed: list[str] = []
        failed: SourceError | None = None
        try:
            papers = parse_feed(response.body, config.name, warn, response.headers, replacements,
                                base, url, malformed, response.cut, policy.max_bytes)  # fmt: skip
        except CutShort as cut:
            papers, failed = cut.papers, cut
        if validators is not None and malformed:  # cut short, perhaps: read it whole next time
            validators.clear()
        progress.expect(len(papers))
        return _then_failed(papers, failed) if failed else iter(papers)


def _then_failed(papers: list[Paper], failed: SourceError) -> Iterator[Paper]:
    """The papers read before a failure, then the failure: they are kept, and the source is
    reported failed (as an API's error after some pages)."""
    yield from papers
    raise failed
