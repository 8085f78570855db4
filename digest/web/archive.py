"""A subscriber's archive: the index of past digests (HTML), each digest's page with its links to
the face made good for now, and feed.atom, one entry per paper sent (title, link, its first
authors, the "why" line, published), read from the state."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from digest.models import Entry, Message
from digest.models.characters import BIDI
from digest.render import shown_name
from digest.state import Store
from digest.state.lineage import Parts, whose
from digest.web.pages import page
from digest.web.tokens import Links

ATOM = "http://www.w3.org/2005/Atom"
ET.register_namespace("", ATOM)
FEED_DIGESTS = 30  # the feed holds the papers of this many latest digests
# An entry names this many authors, then "et al.": every name of a paper of 500,000 (stored
# before intake kept MOST_AUTHORS) made a 22 MB feed and 333 MB of the face's memory a GET.
FEED_AUTHORS = 10
# Characters XML 1.0 cannot hold at all (titles and links come from the internet), lone
# surrogates included: the feed must parse whatever a paper carries.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Bidi controls: a link that holds one shows a reader another address than it opens.
_BIDI = re.compile(f"[{BIDI}]")


@dataclass(frozen=True, slots=True)
class Shelf:
    """The digests an archive key shows: a reader's, `name` its name now (or of an earlier
    reader, the name it held), made under each name in its `parts` (lineage.whose reads them:
    of a reused name its spans on the runs' clock, holders.py), keyed with `since`
    (Links.since). `earlier`: not the name's present reader (its pages' unsubscribe links name
    the name alone)."""

    name: str
    since: str = ""
    parts: Parts | None = None  # None: all the name's
    earlier: bool = False

    def where(self) -> tuple[str, list[str]]:
        return whose(self.name, self.parts or ())


def digests(store: Store, shelf: Shelf, limit: int = 200) -> list[dict[str, Any]]:
    """The shelf's digests that had papers, newest first, one a period: a reader renamed the day
    its digest was made had it made again under the new name (before ops28 F2)."""
    if shelf.parts is None:
        return [dict(d, subscriber=shelf.name) for d in store.web.digests(shelf.name, limit)]
    where, args = shelf.where()
    rows = store.web.db.execute(
        "SELECT id, subscriber, period, day, made_at, picked FROM digests"
        f" WHERE {where} AND picked > 0 ORDER BY made_at DESC, id DESC",
        args,
    )
    out: dict[str, dict[str, Any]] = {}
    for row in map(dict, rows):
        out.setdefault(str(row["period"]), row)
    return list(out.values())[:limit]


def message(store: Store, shelf: Shelf, period: str) -> Message | None:
    """The message of the shelf's digest of that period, None when the shelf has none."""
    where, args = shelf.where()
    row = store.web.db.execute(
        f"SELECT subscriber FROM digests WHERE {where} AND period = ?"
        " ORDER BY picked > 0 DESC, made_at DESC, id DESC LIMIT 1",
        (*args, period),
    ).fetchone()
    return None if row is None else store.web.digest_message(str(row[0]), period)


def index(store: Store, shelf: Shelf) -> str:
    subscriber = shelf.name
    listed = digests(store, shelf)
    items = "".join(
        f'<li><a href="d/{quote(d["period"], safe="")}">{html.escape(d["day"])}</a>'
        f' <span class="muted">· {d["picked"]} paper{"s" if d["picked"] != 1 else ""}</span></li>'
        for d in listed
    )
    body = f"<ul>{items}</ul>" if items else "<p>No digest yet.</p>"
    body += '<p><a href="feed.atom">Atom feed</a> (one entry per paper)</p>'
    return page(f"Past digests for {subscriber}", body)


# A rating link kept as it was mailed must work at least this much longer (seconds): else it is
# signed again, so that a page read now still rates when the reader gets to it.
KEEP_FOR = 7 * 86400
GONE = (
    '<p style="margin:0 0 12px; color:#59636e;">Some links of this digest no longer work'
    " and were taken out of this page.</p>"
)


def relinked(message: Message, period: str, links: Links, now: float) -> str:
    """The digest's stored page with its links to the face (👍/👎, view in browser, the archive,
    unsubscribe) made with the secret and base URL in force now: signed when it was sent, every
    one died when the secret rotated, and its rating links after VOTE_DAYS. A rating link that
    still works stays as it was mailed. A link to the face that cannot be made again (no paper
    id for it) is taken out, and a line at the top says so. Only the href of one of the
    message's own links changes: a title or abstract that names a face address (or a paper's
    own link there) stays as it was mailed."""
    fresh, bases = _fresh(message, period, links, now)
    if not bases:
        return message.html  # made without [web]: no link to the face
    face = "|".join(re.escape(html.escape(b, quote=False)) for b in sorted(bases, key=len)[::-1])
    # An attribute, never text: the template escapes a paper's quotes, so its text cannot hold
    # ' href="'. A text that merely named a face address had been cut out of the page.
    pattern = re.compile(rf"\s+href=(?P<q>[\"'])(?P<url>(?:{face})/[rua]/[^\"'<>\s]*)(?P=q)")
    gone = 0

    def swap(found: re.Match[str]) -> str:
        nonlocal gone
        url = html.unescape(found["url"])
        archive = next((old for old in fresh if old.endswith("/") and url.startswith(old)), "")
        if url not in fresh and not archive:
            return found[0]  # not the message's own link: the paper's, as it was mailed
        new = fresh.get(url) or (fresh[archive] + url[len(archive) :] if archive else "")
        if not new:
            gone += 1
            return ""  # the attribute with it: what is left is text, not a link
        return found[0].replace(found["url"], html.escape(new))

    page_html = pattern.sub(swap, message.html)
    if gone:
        opened = re.search(r"<body\b[^>]*>", page_html)
        at = opened.end() if opened else 0
        page_html = page_html[:at] + GONE + page_html[at:]
    return page_html


def _fresh(
    message: Message, period: str, links: Links, now: float
) -> tuple[dict[str, str], set[str]]:
    """Each link to the face the message was sent with and the one to serve for it now ("": none
    can be made), and the face's base URLs in them."""
    fresh: dict[str, str] = {}
    bases = set()
    for entry in message.entries:
        for old, vote in ((entry.up_url, "up"), (entry.down_url, "down")):
            if "/r/" not in old:
                continue
            bases.add(old.rsplit("/r/", 1)[0])
            works = old.startswith(f"{links.base_url}/r/") and links.signer.check(
                old.rsplit("/r/", 1)[1], "v", now + KEEP_FOR
            )
            fresh[old] = (
                old if works else links.vote(entry.paper_id, vote) if entry.paper_id else ""
            )
    if "/a/" in message.view_url:
        base, path = message.view_url.rsplit("/a/", 1)
        bases.add(base)
        fresh[f"{base}/a/{path.split('/', 1)[0]}/"] = links.archive()
        fresh[message.view_url] = links.digest_page(period)
    if "/u/" in message.unsubscribe_url:
        base, token = message.unsubscribe_url.rsplit("/u/", 1)
        bases.add(base)
        # One that still works stays: it says the addresses its mail went to, which a link made
        # now (the subscriber's addresses today) may not be.
        good = base == links.base_url and links.signer.check(token, "u", now) is not None
        fresh[message.unsubscribe_url] = message.unsubscribe_url if good else links.unsubscribe()
    return fresh, bases


def _text(value: str) -> str:
    return _NOT_XML.sub("", value)


def _stamp(value: str) -> str:
    """The state's stamps are already RFC 3339 (UTC, Z); dates become midnight UTC."""
    if len(value) == 10:
        return f"{value}T00:00:00Z"
    return value


def _link(url: str, fallback: str) -> str:
    """`url`, unless a character of it has no place in a link of the feed: then `fallback`."""
    if _NOT_XML.search(url) or _BIDI.search(url) or any(ch.isspace() for ch in url):
        return fallback
    return url


def add(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    # Attribute values are filtered as text is: an href is written into the document as well.
    clean = {name: _text(value) for name, value in attrs.items()}
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", clean)
    if text is not None:
        element.text = _text(text)
    return element


def feed(store: Store, shelf: Shelf, archive_url: str) -> bytes:
    """A valid Atom 1.0 document (RFC 4287) of the papers sent to the subscriber."""
    root = ET.Element(f"{{{ATOM}}}feed")
    subscriber, made = shelf.name, digests(store, shelf, FEED_DIGESTS)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    add(root, "id", f"{archive_url}feed.atom")
    add(root, "title", f"Paper digest for {shown_name(subscriber)}")
    add(root, "updated", made[0]["made_at"] if made else now)
    add(root, "link", rel="self", href=f"{archive_url}feed.atom")
    add(root, "link", rel="alternate", type="text/html", href=archive_url)
    add(add(root, "author"), "name", "digest")
    add(root, "generator", "digest")
    for d in made:
        sent = store.web.digest_message(d["subscriber"], d["period"])
        page_url = f"{archive_url}d/{quote(d['period'], safe='')}"
        for entry in sent.entries if sent else ():
            if entry.paper_id:
                _entry(store, root, entry, d["made_at"], page_url)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def _entry(store: Store, root: ET.Element, entry: Entry, made: str, page_url: str) -> None:
    paper = store.papers.paper(entry.paper_id)
    item = add(root, "entry")
    add(item, "id", f"{page_url}#{quote(entry.paper_id, safe='')}")
    add(item, "title", entry.title)
    add(item, "link", rel="alternate", href=_link(entry.url, page_url) or page_url)
    if _link(entry.pdf_url, ""):
        add(item, "link", rel="related", type="application/pdf", href=entry.pdf_url)
    published = paper.published.isoformat() if paper and paper.published else made
    add(item, "published", _stamp(published))
    add(item, "updated", made)
    names = (paper.authors if paper else ()) or ("unknown",)
    for name in names[:FEED_AUTHORS] + (("et al.",) if len(names) > FEED_AUTHORS else ()):
        add(add(item, "author"), "name", name)
    why = [f"matched {', '.join(entry.terms)}"] if entry.terms else []
    why += [entry.because] if entry.because else []
    add(item, "summary", "why: " + " — ".join(why) if why else entry.snippet)
    if entry.snippet:
        add(item, "content", entry.snippet, type="text")
