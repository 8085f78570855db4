"""clean(): a paper's text fields lose what could act on a reader's terminal or reorder what
the reader sees (escape sequences, controls, bidi overrides, non-characters); the rest stays."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime, timedelta

import pytest

from digest.models import Paper
from digest.models.identity import title_hash
from digest.sources.common import clean, clean_line, clean_text, clean_token, day

ESCAPES = "\x1b[2J\x1b[31m\x1b]0;pwned\x07\x1b]8;;http://evil\x1b\\\x9b1m\x07\x00\x7f\x85"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
NONCHARACTERS = "\ufffe\uffff\ufdd0\U0001fffe\U0010ffff"


def test_escape_sequences_go_whole_and_no_stray_brackets_are_left() -> None:
    assert clean_line(f"Private{ESCAPES} learning") == "Private learning"
    assert clean_line("Cut at the end\x1b[") == "Cut at the end"
    assert clean_line("A \x1b]title never ended") == "A title never ended"  # only ESC ] goes


def test_bidi_overrides_isolates_and_non_characters_go() -> None:
    assert clean_line(f"Safe{BIDI} title{NONCHARACTERS}") == "Safe title"


def test_an_abstract_keeps_its_lines_and_tabs_a_title_does_not() -> None:
    text = "First line\r\nsecond\tline\rthird\x0cfourth"
    assert clean_text(text) == "First line\nsecond\tline\nthird\nfourth"
    assert clean_line(text) == "First line second line third fourth"
    assert clean_token("https://x.org/a\n/b\x07") == "https://x.org/a/b"
    assert clean_token("adv\u2028id") == "advid"  # a line break to some mail clients
    # NEL (U+0085) is a C1 control but a line break too: two words, not one.
    assert clean_line("Line\u2028separator\u0085next") == "Line separator next"
    assert clean_text("one\u0085two") == "one\ntwo" and clean_token("a\u0085b") == "ab"


def test_text_of_every_language_and_emoji_stays_as_it_is() -> None:
    for text in ("Zoë’s café", "差分隐私 𠀀", "خصوصية تفاضلية", "Emoji 🙂 and ∑ math"):
        assert clean_line(text) == text and clean_text(text) == text


def test_every_text_field_of_a_paper_is_cleaned_and_a_clean_paper_is_kept_as_it_is() -> None:
    dirty = Paper(
        id="2501.01234\x1b[0m",
        title=f"Title{ESCAPES}",
        abstract=f"Line one\x00\nline two{BIDI}",
        authors=(f"Ada{ESCAPES} Lovelace", "\x1b[8m"),
        venue="ICML\u202e 2026",
        url="https://arxiv.org/abs/2501.01234\x07",
        code_url="https://github.com/a/b\x1b[0m",
        source="rss:feed",
        categories=("cs.LG\x00",),
        aliases=("10.1/x\x9b0m",),
    )
    paper = clean(dirty)
    assert (paper.id, paper.title, paper.abstract) == ("2501.01234", "Title", "Line one\nline two")
    assert (paper.authors, paper.venue) == (("Ada Lovelace",), "ICML 2026")
    assert (paper.url, paper.code_url) == (
        "https://arxiv.org/abs/2501.01234",
        "https://github.com/a/b",
    )
    assert (paper.categories, paper.aliases) == (("cs.LG",), ("10.1/x",))
    assert clean(paper) is paper


def test_a_title_abstract_venue_or_name_past_any_real_ones_is_cut() -> None:
    # A feed item's 10 MB title went whole into a 22 MB e-mail that the relay refused: the
    # reader lost the whole digest.
    huge = Paper(
        id="t:1",
        title="privacy " * 1_310_720,
        abstract="word " * 100_000,
        authors=("Ada Lovelace", "x" * 5_000),
        venue="v" * 10_000,
    )
    paper = clean(huge)
    assert len(paper.title) <= 1_000 and paper.title.endswith("privacy…")
    assert len(paper.abstract) <= 20_000 and paper.abstract.endswith("…")
    assert paper.authors[0] == "Ada Lovelace" and len(paper.authors[1]) == 300
    assert len(paper.venue) == 500
    real = Paper(id="2501.01234", title="A" * 300, abstract="b " * 960, authors=("C D",))
    assert clean(real) is real


def test_an_id_is_bounded_in_bytes_under_an_index_entrys_limit() -> None:
    """PostgreSQL refuses an index entry over 2,704 bytes, compressed first, which a signed URL's
    random query does not survive: one feed item's id of 2,860 characters stopped every run.
    Characters of three bytes count three times."""
    title = "Private federated learning at scale"
    signed = "https://cdn.example.org/p.pdf?Policy=" + secrets.token_urlsafe(2_100)
    kept = "https://cdn.example.org/p.pdf?Policy=" + secrets.token_urlsafe(1_400)
    wide = "doi:10.1/" + "論" * 700  # 2,109 bytes
    assert clean(Paper(id=signed, title=title, abstract="x")).id == title_hash(title)
    assert clean(Paper(id=wide, title=title, abstract="x")).id == title_hash(title)
    assert clean(Paper(id=kept, title=title, abstract="x")).id == kept
    aliases = clean(Paper(id="a", title=title, abstract="x", aliases=(signed, wide, kept))).aliases
    assert aliases == (kept,)
    # A link's keys (doi:, openreview:) are made of it: a link of 1,900 Chinese characters.
    link = "https://doi.org/10.1234/" + "論" * 1_900
    assert clean(Paper(id="a", title=title, abstract="x", url=link)).url == ""


def test_a_link_or_id_past_any_real_ones_is_dropped_not_cut() -> None:
    """One feed item's 4 MB <link> made a 12 MB e-mail the relay refused, and the reader lost
    the whole digest. A cut link would lead elsewhere: it goes; an id that long is none, and the
    paper is known by its title, as an item without an id is."""
    title = "Private federated learning at scale"
    huge = Paper(
        id="doi:10.1/" + "c" * 3_000_000,
        title=title,
        abstract="We study privacy.",
        url="https://example.org/p/" + "q" * 4_000_000,
        code_url="https://github.com/a/" + "b" * 3_000,
        aliases=("10.1/" + "d" * 5_000, "10.1/ok"),
    )
    paper = clean(huge)
    assert (paper.url, paper.code_url, paper.aliases) == ("", "", ("10.1/ok",))
    assert paper.id == title_hash(title)
    real = Paper(id="2501.01234", title=title, abstract="x", url="https://a.org/" + "p" * 1_900)
    assert clean(real) is real


def test_a_paper_keeps_its_first_five_thousand_authors() -> None:
    """One feed item of 500,000 names was stored whole and written whole into the archive's
    feed.atom (22 MB; the web face took 1.2 GB). The largest collaborations sign about 5,000:
    such a paper keeps every name, and a longer list keeps its first 5,000, in order."""
    names = tuple(f"W{i} L{i}" for i in range(500_000))
    paper = clean(Paper(id="t:1", title="Half a million authors", abstract="", authors=names))
    assert paper.authors == names[:5_000]
    signed = Paper(id="t:2", title="Combined measurement", abstract="", authors=names[:5_000])
    assert clean(signed) is signed


def test_a_day_that_cannot_be_a_date_is_none() -> None:
    """feedparser reads MySQL's no-date "0000-00-00" as the year -1 and rolls a month 13 over
    into the next year: no date, never an exception or another day."""
    assert day("0000-00-00T00:00:00Z", (-1, 11, 30)) is None
    assert day("2026-13-45", (2027, 1, 1)) is None
    assert day("2026-00-00", (2025, 11, 30)) is None
    assert day("Wed, 30 Nov -0001 00:00:00 +0000", (-1, 11, 30)) is None
    assert day("2026/03/02", (2026, 12, 1)) == date(2026, 3, 2)
    assert day("20260302", (2026, 3, 2)) == date(2026, 3, 2)
    assert day("", None) is None


def test_a_date_of_digits_alone_is_a_unix_time_from_1990_to_tomorrow_or_none() -> None:
    """feeds21 F7: feedparser reads the pubDate 1764756000 as December 1764; the day took it."""
    assert day("1764756000", (1764, 12, 1)) == date(2025, 12, 3)
    assert day(" 1764756000000 ", (1764, 12, 1)) == date(2025, 12, 3)  # milliseconds
    assert day("631152000", (6311, 5, 2)) == date(1990, 1, 1)
    assert day("631151999", None) is None  # 1989: no feed dates a paper so
    now = datetime.now(UTC)
    assert day(str(int(now.timestamp())), None) == now.date()
    assert day(str(int((now + timedelta(days=2)).timestamp())), None) is None
    assert day("20251203", (2025, 12, 3)) == date(2025, 12, 3)  # ISO's basic form stays a date
    assert day("20251340", (2026, 2, 9)) is None
    assert day("9" * 5000, (9999, 12, 31)) is None  # past int()'s 4,300 digits: none, no error
    assert day("0", (2000, 1, 1)) is None


def test_a_date_of_four_digits_is_a_year_and_its_first_day() -> None:
    """reg32 F3: W3CDTF's year alone, `<dc:date>2025</dc:date>`, had gone the Unix-time way
    (2025 seconds: 1970, so no date); feedparser reads it as the year's first day."""
    assert day("2025", (2025, 1, 1)) == date(2025, 1, 1)
    assert day(" 1998 ", None) == date(1998, 1, 1)
    assert day("0000", (-1, 1, 1)) is None
    assert day("2025-12", (2025, 12, 1)) == date(2025, 12, 1)  # a year and month, as before


@pytest.mark.parametrize(
    "written",
    [
        "1764756000.5",
        "+1764756000",
        "1764756000000.25",
        "1.764756e9",
        "1764756000,5",
        " 1764756e3 ",
    ],
)
def test_a_number_of_any_form_is_a_unix_time(written: str) -> None:
    """reg35 F7: only digits alone were read as a Unix time; "1764756000.5" went to feedparser's
    reading, the year 1764, month 12, and dated the paper so."""
    assert day(written, (1764, 12, 1)) == date(2025, 12, 3)


@pytest.mark.parametrize(
    "written", ["-1764756000", "2025.", "0.5", ".5", "1e999", "-0", "12.2025", "+2025"]
)
def test_a_number_that_is_no_unix_time_of_now_is_no_date(written: str) -> None:
    """feedparser read "-1764756000" as 2026-06-25 and "2025." as December 2025."""
    assert day(written, (2026, 6, 25)) is None


def test_a_year_and_a_month_are_a_month_however_parted() -> None:
    assert day("2025.12", (2025, 12, 1)) == date(2025, 12, 1)
    assert day("2025/12", None) == date(2025, 12, 1)
    assert day("2025.13", (2026, 1, 1)) is None
