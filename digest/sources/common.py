"""Code links the sources find in abstracts and comments (GitHub, GitLab, Hugging Face, ...),
and clean(): a paper's text without what could act on a terminal or reorder what a reader sees,
cut to sizes no real paper reaches (its fields' lengths, its number of authors).
read_entries(): a page's entries to papers, one unreadable entry skipped; day(), written_day():
an entry's date, or none when it cannot be a date. Normalization and the
abstract hash are identity's (models/identity.py); titles: titles.py.
"""

from __future__ import annotations

import dataclasses
import email.utils
import re
from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit

from digest.models import Paper, Passed, Warn
from digest.models.characters import BIDI, C0_BUT_WHITESPACE, C1, SEPARATORS

# --- text a reader's terminal, mail client or chat must not be handed -------------------------

# Whole escape sequences, so that no "[31m" is left behind: CSI (ESC [ or the C1 byte), OSC
# (ESC ], ended by BEL or ESC \; unended, only ESC ] goes), the two-character ones (ESC @ to _).
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]?"
)
# C0 controls but the whitespace ones, DEL, C1 controls, the bidi embeddings, overrides and
# isolates (U+202A-202E, U+2066-2069), lone surrogates, and the non-characters of every plane.
_BMP = C0_BUT_WHITESPACE + C1 + BIDI + "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
_ASTRAL = "".join(
    chr(plane | 0xFFFE) + chr(plane | 0xFFFF) for plane in range(0x10000, 0x110000, 0x10000)
)
_UNSAFE = re.compile(f"[{_BMP}{_ASTRAL}]")
# NEL, a C1 control that is a line break (EBCDIC's, and Unicode's): a break, not deleted (two
# words of a title had been glued into one).
NEL = "\x85"
# What sends a text the slow way: a set of 32 single astral characters makes a search ten times
# slower than this range (which also sends rare CJK of plane 2 the slow way, to no harm).
_ASTRAL_RANGE = "\U0001fffe-\U0010ffff"
_UNSAFE_IN_TEXT = re.compile(f"[{_BMP}\\x0b-\\x0d{_ASTRAL_RANGE}]")  # an abstract keeps \n, \t
_UNSAFE_IN_LINE = re.compile(f"[{_BMP}\\x09-\\x0d{SEPARATORS}{_ASTRAL_RANGE}]")


_CHARREF = re.compile(rb"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));")


def xml_safe(body: bytes) -> bytes:
    """A feed's bytes without numeric references to what XML forbids (a lone surrogate such as
    &#xD800;, a NUL, a code point past U+10FFFF): feedparser's loose parser fails the whole feed
    on one, where the other items are good."""
    if b"&#" not in body:
        return body

    def kept(match: re.Match[bytes]) -> bytes:
        code = int(match[1], 16) if match[1] else int(match[2])
        allowed = code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD
        return match[0] if allowed or 0x10000 <= code <= 0x10FFFF else b""

    return _CHARREF.sub(kept, body)


def clean_text(text: str) -> str:
    """An abstract without escape sequences, controls (line breaks and tabs stay; a carriage
    return is a line break), bidi overrides and non-characters."""
    if not _UNSAFE_IN_TEXT.search(text):
        return text
    text = _SEQUENCE.sub("", text).replace("\r\n", "\n").replace("\r", "\n").replace(NEL, "\n")
    return _UNSAFE.sub("", text.replace("\x0b", "\n").replace("\x0c", "\n")).strip()


def clean_line(text: str) -> str:
    """A title, a name or a venue on one line: as clean_text, a line break or tab a space."""
    if not _UNSAFE_IN_LINE.search(text):
        return text
    return " ".join(_UNSAFE.sub("", _SEQUENCE.sub("", text).replace(NEL, " ")).split())


def clean_token(text: str) -> str:
    """An id or a URL: as clean_line, and no whitespace inside."""
    if not _UNSAFE_IN_LINE.search(text):
        return text
    return "".join(_UNSAFE.sub("", _SEQUENCE.sub("", text).replace(NEL, " ")).split())


# The longest title, venue, author name and abstract kept, in characters; longer ones are cut,
# with "…". A feed item's 10 MB title went whole into a 22 MB e-mail that the relay refused, and
# the reader's whole digest with it. Real ones are far shorter (arXiv's abstracts: 1,920 at most).
LONGEST = {"title": 1_000, "venue": 500, "abstract": 20_000}
LONGEST_NAME = 300
# The most authors a paper keeps: the first ones, the rest left out. One feed item of 500,000
# names made a 22 MB feed.atom that took the web face to 1.2 GB. The largest collaborations
# sign about 5,000 (ATLAS and CMS together); a digest shows three and "et al." anyway, and a
# followed author is matched among the names kept.
MOST_AUTHORS = 5_000
# A link longer than this (bytes of UTF-8) is dropped, not cut (a cut link leads elsewhere), as
# Matrix's messages drop it: one item's 4 MB <link> made a 12 MB e-mail the relay refused, the
# digest with it. An id or alias of more than LONGEST_ID bytes is none: the paper is known by its
# title or abstract. In bytes, under PostgreSQL's 2,704 for an index entry, with the prefixes of
# the keys made of them: one item's signed URL of 2,860 characters stopped every run.
LONGEST_LINK = 2_000
LONGEST_ID = 2_000


def clean(paper: Paper) -> Paper:
    """The paper with every text field cleaned and cut to LONGEST, and its first MOST_AUTHORS
    authors; the same object when there was nothing to do. Every paper passes here on its way
    in: the sources' (intake), libraries', liked papers'."""
    paper = _cut(paper)
    # One search over all the short fields: most papers have nothing to clean.
    lines = (paper.id, paper.title, paper.venue, paper.url, paper.code_url, paper.source)
    short = " ".join((*lines, *paper.authors, *paper.categories, *paper.aliases))
    if not _UNSAFE_IN_LINE.search(short) and not _UNSAFE_IN_TEXT.search(paper.abstract):
        return paper
    changes: dict[str, Any] = {
        name: new
        for name, old, new in (
            ("id", paper.id, clean_token(paper.id)),
            ("title", paper.title, clean_line(paper.title)),
            ("abstract", paper.abstract, clean_text(paper.abstract)),
            ("venue", paper.venue, clean_line(paper.venue)),
            ("url", paper.url, clean_token(paper.url)),
            ("code_url", paper.code_url, clean_token(paper.code_url)),
            ("source", paper.source, clean_line(paper.source)),
        )
        if new != old
    }
    for name, cleaner in (
        ("authors", clean_line),
        ("categories", clean_line),
        ("aliases", clean_token),
    ):
        values: tuple[str, ...] = getattr(paper, name)
        kept = tuple(v for v in map(cleaner, values) if v)
        if kept != values:
            changes[name] = kept
    return dataclasses.replace(paper, **changes) if changes else paper


def _cut(paper: Paper) -> Paper:
    long = {k: getattr(paper, k) for k, n in LONGEST.items() if len(getattr(paper, k)) > n}
    names = paper.authors[:MOST_AUTHORS] if len(paper.authors) > MOST_AUTHORS else paper.authors
    if any(len(a) > LONGEST_NAME for a in names):
        names = tuple(a if len(a) <= LONGEST_NAME else a[: LONGEST_NAME - 1] + "…" for a in names)
    links: dict[str, Any] = {
        k: "" for k in ("url", "code_url") if not _fits(getattr(paper, k), LONGEST_LINK)
    }
    aliases = tuple(a for a in paper.aliases if _fits(a))
    kept = not long and not links and names is paper.authors and aliases == paper.aliases
    if kept and _fits(paper.id):
        return paper
    cut: dict[str, Any] = {k: v[: LONGEST[k] - 1].rstrip() + "…" for k, v in long.items()}
    paper = dataclasses.replace(paper, authors=names, aliases=aliases, **links, **cut)
    if not _fits(paper.id):
        from digest.models.identity import record_id

        paper = dataclasses.replace(paper, id=record_id(paper.title, paper.abstract)[0])
    return paper


def _fits(text: str, most: int = LONGEST_ID) -> bool:
    """Is an id (or a link: its keys are made of it) at most `most` bytes in UTF-8 (a character
    is at most 4)? A doi.org link of 1,900 Chinese characters had made a key of 5,700 bytes."""
    if len(text) * 4 <= most:
        return True
    return len(text) <= most and len(text.encode("utf-8", "surrogatepass")) <= most


# --- code links -------------------------------------------------------------------------------

_CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")
_URL_CHARS = r"""[^\s<>"'`{}\[\]()|\\^，。；：！？、）】」“”‘’]+"""
_HOSTS = "|".join(map(re.escape, _CODE_HOSTS))
# A URL with a scheme, or a bare "github.com/owner/repo".
_URL = re.compile(rf"(?:https?://|(?<![\w/.@-])(?=(?:www\.)?(?:{_HOSTS})/)){_URL_CHARS}", re.I)
_TRAILING = ".,;:!?'\")]}>…"


def _is_code_url(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    if host.endswith(".github.io"):
        return True
    on_host = any(host == h or host.endswith("." + h) for h in _CODE_HOSTS)
    return on_host and parts.path.strip("/") != ""


def code_links(text: str) -> list[str]:
    """URLs pointing at code or a project page, in order of appearance, without duplicates."""
    lowered = text.lower()
    # Most abstracts name no URL at all: skip the costly scan (it needs "http" or a code host).
    if "http" not in lowered and not any(host in lowered for host in _CODE_HOSTS):
        return []
    # LaTeX escapes the underscore inside \href text; unescaped, both halves name one URL.
    text = re.sub(r"\\([_%#&~])", r"\1", text)
    found: list[str] = []
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        if not url.lower().startswith(("http://", "https://")):
            url = "https://" + url
        if _is_code_url(url) and url not in found:
            found.append(url)
    return found


# A date written year first ("2026-03-02", "2026/03/02", ISO's with a time after it).
_YEAR_FIRST = re.compile(r"\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_YEAR_MONTH = re.compile(r"(\d{4})[-/.](\d{1,2})")
# A Unix time is taken for one from 1990 on (no feed dates a paper earlier by a Unix time).
_UNIX_FROM = datetime(1990, 1, 1, tzinfo=UTC).timestamp()


def written_day(written: Any, parsed: Any) -> date | None:
    """The day as the feed wrote it, in its own zone: feedparser's parsed time is in UTC, which
    dated a Tokyo publisher's midnight items a day early. None when it cannot be a date."""
    text = str(written or "").strip()
    if text.isdigit() or numeric(text):  # day's: a Unix time (fromisoformat: 2025120310111)
        return day(text, parsed)
    iso = text.replace("Z", "+00:00")
    for read, given in ((email.utils.parsedate_to_datetime, text), (datetime.fromisoformat, iso)):
        try:
            return read(given).date()
        except (TypeError, ValueError, IndexError, OverflowError):
            continue
    return day(text, parsed)


def day(written: Any, parsed: Any) -> date | None:
    """The day of a date as the feed wrote it, and as feedparser read it (`parsed`); None when
    it cannot be a date. feedparser reads MySQL's no-date "0000-00-00" as year -1, which no date
    holds (the entry had been lost as unreadable), and turns "2026-13-45" into 2027-01-01; it
    reads a Unix time's digits as a year and a month (1764756000: December 1764)."""
    text = str(written or "").strip()
    if text.isascii() and text.isdigit():
        return _digits(text)
    if found := _YEAR_MONTH.fullmatch(text):  # "2025.12", a number that is a month
        year, month, number = int(found[1]), int(found[2]), 1
    elif numeric(text):  # "1764756000.5", "+1764756000": feedparser's year 1764 too
        return unix_day(float(text.replace(",", ".")))
    elif match := _YEAR_FIRST.match(text):
        year, month, number = (int(part) for part in match.groups())
    elif parsed:
        year, month, number = parsed[:3]
    else:
        return None
    try:
        return date(year, month, number)
    except (TypeError, ValueError, OverflowError):  # year 0 or -1, month 13, day 45
        return None


def _digits(text: str) -> date | None:
    """A date of digits alone: a year (W3CDTF's "2025", its first day, as feedparser reads it:
    it had been read as a Unix time of 1970, so no date), ISO's basic 20260302, or a Unix time
    (a time in milliseconds has 13 digits; a longer number is none, and never reaches int(),
    which refuses 4,300)."""
    if len(text) == 4:
        return date(int(text), 1, 1) if int(text) else None  # year 0 is none
    if len(text) != 8:
        return unix_day(int(text)) if len(text) <= 13 else None
    try:
        return date(int(text[:4]), int(text[4:6]), int(text[6:]))
    except ValueError:
        return None


# A number, with a sign, a fraction or an exponent too ("1764756000.5", "-1764756000"): a Unix
# time or no date (but a year and month, "2025.12"). Only digits alone had been read so; the
# rest went to feedparser, which reads a year and a month in the digits: December 1764.
_NUMBER = re.compile(r"[-+]?(?:[0-9]+[.,]?[0-9]*|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?")


def numeric(text: str) -> bool:
    """Is the text a number alone, which only a Unix time (or none) reads as a date?"""
    return _NUMBER.fullmatch(text.strip()) is not None


def unix_day(stamp: float) -> date | None:
    """The UTC day of a Unix time in seconds or milliseconds (JavaScript's), if it is one from
    1990 to tomorrow; else None. feedparser had read the pubDate 1764756000 (2025-12-03) as the
    year 1764, month 12, and that date had reached the archive feed."""
    latest = datetime.now(UTC).timestamp() + 86_400
    for seconds in (stamp, stamp / 1000):  # the two ranges lie far apart: never both
        if _UNIX_FROM <= seconds <= latest:
            return datetime.fromtimestamp(seconds, UTC).date()
    return None


def read_entries(
    entries: Iterable[Any],
    to_paper: Callable[[Any], Paper | None],
    warn: Warn,
    where: str,
    lacks: str,
    passed: Callable[[Any], str] | None = None,
) -> list[Paper]:
    """The papers of a page's or feed's entries; an entry that cannot be read, or that lacks
    what makes a paper (`lacks` says what, to the operator), is skipped with a warning. One that
    `passed` says is no paper to deliver ("2602.02004 is withdrawn") is skipped as Passed."""
    papers = []
    for number, entry in enumerate(entries, start=1):
        try:
            why = passed(entry) if passed is not None else ""
            paper = None if why else to_paper(entry)
        except Exception as exc:  # one entry's odd text must not lose the page's other papers
            warn(f"{where}: entry {number} cannot be read ({type(exc).__name__}), skipped")
            continue
        if why:
            warn(Passed(f"{where}: {why}, skipped"))
        elif paper is None:
            warn(f"{where}: entry {number} has {lacks}, skipped")
        else:
            papers.append(paper)
    return papers
