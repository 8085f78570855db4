"""A DOI as sources write it: bare, with a `doi:` prefix, a doi.org address or a publisher's
`/doi/` page, in the lowercase form identity keys it by."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_DOI_PREFIXES = ("info:doi/", "urn:doi:", "doi:")
_DOI_HOSTS = ("doi.org", "dx.doi.org", "www.doi.org")
# A publisher's page of a DOI (Atypon's SIAM, Science, ACM, T&F, Wiley, APS's link.aps.org):
# `/doi/10.x/y`, or one of its views (`/doi/abs/`, `/doi/full/`, `/doi/pdf/`...). Only the
# DOI was read from doi.org links, so a journal's item known by such a link alone and the arXiv
# record naming its DOI were two papers, sent twice. `/doi/` must open the path: deeper (De
# Gruyter's `/document/doi/10.x/y/html`, Emerald's `.../doi/10.x/y/full/html`) a page's name
# follows the DOI, and no rule tells the two apart.
_DOI_PAGE = re.compile(
    r"/doi/(?:(?:abs|full|pdf|epdf|pdfdirect|pdfplus|epub|book|reader)/)?(10\.\d{4,9}/[^/].*)",
    re.IGNORECASE,
)
# What may follow the DOI on its page: `/doi/pdf/10.x/y.pdf`, `.../y/`, and the view Wiley's links
# (every one before 2019, still in feeds) put after it, `/doi/10.1002/y/abstract` (`/full`,
# `/pdf`, `/epdf;jsessionid=…`): read as the DOI's, the journal's copy of an arXiv paper naming
# 10.1002/y had been a paper of its own, sent twice. A DOI's own suffix may hold slashes
# (10.1093/mnras/stae123, SICI's): only a view's name, as a last segment, goes.
_VIEWS = (
    "abs|abstract|full|fulltext|fullhtml|html|pdf|epdf|pdfdirect|pdfplus|epub|reader|summary"
    "|references|citedby|suppinfo|figures|tables|media|metrics|toc|issuetoc"
)
_PAGE_END = re.compile(rf"(?:\.pdf|/(?:{_VIEWS}))*/?$", re.IGNORECASE)
_SESSION = re.compile(r";jsessionid=[^/]*", re.IGNORECASE)  # the server's, on any segment


def doi(value: str) -> str | None:
    """A DOI in lowercase (DOIs ignore case) from '10.x/y', 'doi:10.x/y', 'info:doi/10.x/y', a
    doi.org URL or a publisher's `/doi/` page (their path: a '?ref=rss' is no part of it); of
    several, space-separated (arXiv's <arxiv:doi> may hold more than one), the first."""
    text = value.strip()
    low = text.lower()
    text = next((text[len(p) :].lstrip() for p in _DOI_PREFIXES if low.startswith(p)), text)
    if low.startswith(("http://", "https://")):
        try:
            parts = urlsplit(text)
        except ValueError:
            return None
        page = _DOI_PAGE.match(parts.path)
        if (parts.hostname or "") in _DOI_HOSTS:
            text = parts.path.lstrip("/")
        elif page:
            text = _PAGE_END.sub("", _SESSION.sub("", page[1]), count=1)
        else:
            return None
    words = unquote(text).split()
    match = _DOI.match(words[0]) if words else None
    return match[0].rstrip(".,;").lower() if match else None
