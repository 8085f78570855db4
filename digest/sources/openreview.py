"""OpenReview's public API v2: the notes of one venue (accepted papers by venue id, or every
submission of an invitation), paged; title, abstract, authors, keywords, forum link, decision.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from digest.models import Paper, Passed, SourceConfig, SourceError, Warn
from digest.models.identity import arxiv_id
from digest.sources import authors as names
from digest.sources.addresses import check_options, origin, shown
from digest.sources.common import code_links
from digest.sources.latex import to_text
from digest.sources.markdown import markdown
from digest.sources.markup import html_text
from digest.sources.progress import QUIET, Progress
from digest.sources.titles import derive_title
from digest.sources.web import Client, Policy, Response

log = logging.getLogger("digest.sources")

URL = "https://api2.openreview.net"
PAGE = 1000  # the largest page API v2 serves
# Without a count in the answer, pages are read while they come back full, up to this many notes.
MAX_NOTES = 100_000


def value(content: Any, key: str) -> Any:
    """A content field: API v2 wraps each one as {"value": ...}; API v1 did not."""
    field = content.get(key) if isinstance(content, dict) else None
    return field.get("value") if isinstance(field, dict) else field


def _object(found: Any) -> dict[str, Any]:
    return found if isinstance(found, dict) else {}


def web_base(api_url: str) -> str:
    """Where people read a forum: api2.openreview.net serves openreview.net; others themselves.
    Only scheme, host and port: the links reach readers, the API address's credentials
    (user:password@), path and query never do."""
    base = origin(api_url)
    host = urlsplit(base).hostname or ""
    for prefix in ("api2.", "api."):
        if host.startswith(prefix) and host.endswith("openreview.net"):
            return base.replace(f"//{host}", f"//{host[len(prefix) :]}", 1)
    return base


def notes_url(api_url: str) -> str:
    """The API's /notes under the address's path; the address's query (an api_key=...) stays,
    and the client adds the source's own parameters to it."""
    parts = urlsplit(api_url.strip())
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/notes", fragment=""))


def decision(note: Mapping[str, Any]) -> str:
    """The public decision among the replies the note carries, if the API included them."""
    details = _object(note.get("details"))
    replies = details.get("directReplies") or details.get("replies") or []
    for reply in replies if isinstance(replies, list) else []:
        reply = _object(reply)
        invitations = reply.get("invitations") or [reply.get("invitation", "")]
        if not isinstance(invitations, list):
            invitations = [invitations]
        if any(str(i).endswith("/-/Decision") for i in invitations):
            found = value(reply.get("content"), "decision")
            if isinstance(found, str) and found.strip():
                return found.strip()
    return ""


# A submission its authors withdrew or the venue rejected unreviewed: API v2's venueid
# ".../Withdrawn_Submission", API v1's invitation ".../-/Desk_Rejected_Submission", and either's
# venue "ICLR 2026 Conference Withdrawn Submission".
_LEFT_OUT = re.compile(r"(withdrawn|desk[ _-]rejected)[ _-]submission\s*$", re.IGNORECASE)


def withdrawn(note: Mapping[str, Any], venue_id: str) -> str:
    """Why the note is no paper to deliver ("withdrawn", "desk rejected"), or "": for any other
    note, and for every note of a venue that holds only such submissions (asked by name)."""
    if _LEFT_OUT.search(venue_id):
        return ""
    content = _object(note.get("content"))
    invitations = note.get("invitations") or [note.get("invitation")]
    marks = [value(content, "venueid"), value(content, "venue")]
    marks += invitations if isinstance(invitations, list) else []
    for mark in marks:
        found = _LEFT_OUT.search(mark) if isinstance(mark, str) else None
        if found:
            return found[1].lower().replace("_", " ").replace("-", " ")
    return ""


def to_paper(note: Mapping[str, Any], venue_id: str, web: str) -> Paper | None:
    content = _object(note.get("content"))
    raw_abstract = _string(value(content, "abstract"))
    title, abstract = plain(_string(value(content, "title"))), plain(markdown(raw_abstract))
    forum = _ident(note.get("forum")) or _ident(note.get("id"))
    if not forum or not (title or abstract):
        return None
    authors = names.split(_strings(value(content, "authors")))
    keywords = tuple(k for k in map(plain, _keywords(value(content, "keywords"))) if k)
    venue = plain(_string(value(content, "venue"))) or venue_id
    verdict = decision(note)
    if verdict and verdict.lower() not in venue.lower():
        venue = f"{venue} ({verdict})"
    code = value(content, "code")
    links = [code] if isinstance(code, str) and code.startswith("http") else []
    links += code_links(raw_abstract)
    stamp = note.get("pdate") or note.get("odate") or note.get("cdate")
    published: date | None = None
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        try:
            published = datetime.fromtimestamp(stamp / 1000, UTC).date()
        except (OverflowError, OSError, ValueError):  # a time no calendar holds: no date
            published = None
    # Some venues ask authors for their arXiv version; the store then links the two records.
    arxiv = arxiv_id(str(value(content, "arxiv") or value(content, "arXiv") or ""))
    return Paper(
        id=f"openreview:{forum}",
        # A note with an abstract and no title had been mailed under an empty heading: its title
        # is derived from its text, as an RSS item's is (the forum, not the title, is its id).
        title=title or derive_title(abstract),
        abstract=abstract,
        authors=authors,
        venue=venue,
        url=f"{web}/forum?id={forum}",
        code_url=links[0] if links else "",
        published=published,
        source="openreview",
        categories=keywords,
        aliases=(arxiv,) if arxiv else (),
    )


def plain(text: str) -> str:
    """Text as authors typed it into OpenReview's forms: HTML entities and tags, LaTeX."""
    return " ".join(to_text(html_text(text)).split())


def _string(found: Any) -> str:
    """A text field, however a venue's form stored it: a string, a list of strings, a number,
    or one more {"value": ...} wrapping. Lists within lists are read however deep they go,
    without recursion (valid JSON may nest deeper than Python's stack)."""
    parts: list[str] = []
    stack = [found]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            item = item.get("value")
        if isinstance(item, list | tuple):
            stack.extend(reversed(item))
        elif isinstance(item, str | int | float) and not isinstance(item, bool):
            parts.append(str(item))
    return " ".join(parts)


def _ident(found: Any) -> str:
    """A note's id or forum: a string (or a number), never the text of some other structure."""
    if isinstance(found, str | int) and not isinstance(found, bool):
        return str(found).strip()
    return ""


def _strings(found: Any) -> tuple[str, ...]:
    if isinstance(found, dict):
        found = found.get("value")
    if isinstance(found, str):
        found = [found]
    if not isinstance(found, list):
        return ()
    return tuple(s.strip() for s in found if isinstance(s, str) and s.strip())


def _keywords(found: Any) -> tuple[str, ...]:
    """Keywords as a list, or as one string the way API v1 forms kept them: "privacy, FL"."""
    if isinstance(found, dict):
        found = found.get("value")
    if isinstance(found, str):
        found = re.split(r"[,;]", found)
    return _strings(found)


def explain(response: Response) -> str:
    """The API's message, on one line: a server's newline must not start a log line of its own."""
    try:
        body = json.loads(response.body)
    except (ValueError, RecursionError):
        return ""
    message = body.get("message", "") if isinstance(body, dict) else ""
    return " ".join(message.split()) if isinstance(message, str) else ""


class OpenReviewSource:
    """`venue`: a venue id such as `NeurIPS.cc/2025/Conference` (its published papers) or an
    invitation such as `ICLR.cc/2026/Conference/-/Submission` (every public submission)."""

    kind = "openreview"

    def __init__(self, policy: Policy | None = None, page: int = PAGE) -> None:
        self.policy, self.page = policy or Policy(), page

    def check(self, options: Mapping[str, Any]) -> tuple[str, str] | None:
        if not str(options.get("venue", "")).strip():
            return "venue", "must name a venue, e.g. 'NeurIPS.cc/2025/Conference'"
        return check_options(options)

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = None,
        progress: Progress = QUIET,
    ) -> Iterator[Paper]:
        venue = config.options.get("venue")
        if not isinstance(venue, str) or not venue.strip():
            raise SourceError(f"source {config.name!r}: openreview needs a `venue`")
        return self._pages(config, venue.strip(), warn, progress)

    def _pages(
        self, config: SourceConfig, venue: str, warn: Warn, progress: Progress
    ) -> Iterator[Paper]:
        url = str(config.options.get("url") or URL).strip()
        web, notes_at, where = web_base(url), notes_url(url), shown(url)
        by = "invitation" if "/-/" in venue else "content.venueid"
        offset, total, seen, empty = 0, None, set[str](), 0
        with Client(config.name, self.policy.with_options(config.options), progress) as client:
            while offset < min(MAX_NOTES, MAX_NOTES if total is None else total):
                progress.note(f"notes from {offset}")
                params = {by: venue, "limit": self.page, "offset": offset}
                response = client.get(notes_at, params, explain=explain)
                notes, count = _notes(response, config.name, where)
                if offset == 0 and count is not None:
                    total = count
                    progress.expect(min(total, MAX_NOTES))
                    if total > MAX_NOTES:  # a server's count bounds nothing: one said 10**12
                        warn(f"{config.name}: the venue counts {total} notes; the first "
                             f"{MAX_NOTES} are read")  # fmt: skip
                if not notes and total:
                    empty += 1  # short of its own count: asked again once, as for arXiv
                    if empty == 1:
                        continue
                    # A failed source, as for arXiv: taken for the end, the notes after it had
                    # never been read, and the run was "ok".
                    stop = f"listing cut short: empty page at {offset} of {total}, twice"
                    raise SourceError(f"{config.name}: {stop}, from {where}")
                if offset == 0 and not notes:
                    log.warning("source %s: no notes for venue %r", config.name, venue)
                ids = {_ident(n.get("id")) for n in notes if isinstance(n, dict)} - {""}
                if not notes or (offset and ids and ids <= seen):
                    return  # the end; or a server that ignores the offset: nothing new to read
                seen, empty = seen | ids, 0
                for number, note in enumerate(notes, start=offset + 1):
                    paper = _read(note, number, venue, web, config.name, warn)
                    if paper is not None:
                        yield paper
                offset += len(notes)
                if total is None and len(notes) < self.page:
                    return  # no count to go by: a page short of full is the last one


def _read(note: Any, number: int, venue: str, web: str, name: str, warn: Warn) -> Paper | None:
    """The note's paper, or None after a warning: a note that cannot be read, one that is no
    paper, and a withdrawn or desk-rejected submission (no paper a reader follows)."""
    try:
        gone = withdrawn(note, venue) if isinstance(note, dict) else ""
        paper = to_paper(note, venue, web) if isinstance(note, dict) and not gone else None
    except RecursionError:  # a value nested deeper than the stack: one note
        warn(f"{name}: note {number} is nested too deeply, skipped")
        return None
    except Exception as exc:  # one note's odd value must not lose the venue
        warn(f"{name}: note {number} cannot be read ({type(exc).__name__}), skipped")
        return None
    if gone:
        warn(Passed(f"{name}: note {number} is a {gone} submission, skipped"))
    elif paper is None:
        warn(f"{name}: note {number} has no forum, title or abstract")
    return paper


def _notes(response: Response, name: str, where: str) -> tuple[list[Any], int | None]:
    if response.cut:  # a JSON page cut short holds no whole note worth its parse error
        raise SourceError(f"{name}: answer cut short ({response.cut}) from {where}")
    try:
        body = json.loads(response.body)
    except ValueError as exc:
        problem = " ".join(str(exc).split())
        raise SourceError(
            f"{name}: the OpenReview answer is not JSON ({problem}) from {where}"
        ) from None
    except RecursionError:  # valid-looking, but nested deeper than the parser goes
        problem = "nested too deeply to read"
        raise SourceError(
            f"{name}: the OpenReview answer is not JSON ({problem}) from {where}"
        ) from None
    if not isinstance(body, dict) or not isinstance(body.get("notes"), list):
        raise SourceError(f"{name}: the OpenReview answer has no `notes` list from {where}")
    count = body.get("count")
    return body["notes"], count if isinstance(count, int) else None
