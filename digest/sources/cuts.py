"""Whether a feed's body was cut short in its transfer (a failed read) or is whole as served,
however malformed (a publisher's feed, the same on every read)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from digest.models import Paper, SourceError
from digest.sources.addresses import printable

# A feed's root element (RSS 0.9x/2.0, RSS 1.0's rdf:RDF, Atom), with its prefix if it has one.
_ROOT = re.compile(rb"<((?:[A-Za-z_][\w.-]*:)?(?:rss|RDF|feed))[\s>/]")


class CutShort(SourceError):
    """A feed whose body ends before its document does (a transfer cut short): a failed read,
    whose `papers` are the whole entries before the cut."""

    def __init__(self, message: str, papers: list[Paper]) -> None:
        super().__init__(message)
        self.papers = papers


def framed(headers: Mapping[str, str] | None) -> bool:
    """Whether the answer said how long it is (a length, or chunks): then the client read it
    whole, and a feed that never closes is the publisher's, the same on every read."""
    found = {k.lower(): v for k, v in (headers or {}).items()}
    return "content-length" in found or "chunked" in found.get("transfer-encoding", "").lower()


def last_whole(body: bytes) -> bool:
    """Whether the body's last item or entry has its end tag."""
    start = max(body.rfind(b"<item"), body.rfind(b"<entry"))
    return start >= 0 and re.search(rb"</(?:[\w-]+:)?(?:item|entry)\s*>", body[start:]) is not None


def cut_short(problem: str, body: bytes = b"") -> str:
    """Why the document ended before it should (a transfer cut short), or "" if it did not:
    expat's errors at the end of its input; or, as expat stops at a document's first error (an
    undeclared &nbsp;), a root element `body` opens and never closes. A malformed but whole feed
    (junk or a comment after its root) is not, and lost its last entry on every read when
    judged by its last bytes."""
    if any(end in problem for end in ("no element found", "unclosed token", "unclosed CDATA")):
        return printable(" ".join(problem.split()))
    if b"\x00" in body[:200]:  # UTF-16: its tags are not these bytes
        return ""
    root = _ROOT.search(body[:100_000])
    if root is None or re.search(rb"</" + root[1] + rb"\s*>", body):
        return ""
    return f"no </{root[1].decode()}> at its end"
