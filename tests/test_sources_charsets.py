"""Which encoding a feed's bytes are in: a stray Windows-1252 byte in a UTF-8 feed costs that
character, not every accented letter of the feed; a server's default Latin-1 header gives way to
the document's own declaration when the bytes read in it. A gzip body no Content-Encoding named
is unpacked, to the same cap as the client's."""

from __future__ import annotations

import gzip

import pytest

from digest.sources.charsets import Packed, settled, unpacked

GERMAN = "Größenabhängige Quantenmaterialien: Jürgen Weiß"


def test_a_stray_windows_1252_byte_in_utf8_is_that_character_alone() -> None:
    body = f'<?xml version="1.0" encoding="UTF-8"?><t>{GERMAN}</t><t>it'.encode() + b"\x92s</t>"
    fixed, headers, stray = settled(body, {"Content-Type": "application/rss+xml; charset=utf-8"})
    assert fixed.decode("utf-8").endswith(f"<t>{GERMAN}</t><t>it’s</t>") and stray == 1
    assert headers == {"Content-Type": "application/rss+xml; charset=utf-8"}


def test_clean_utf8_or_a_declared_other_encoding_is_left_alone() -> None:
    body = f"<t>{GERMAN}</t>".encode()
    assert settled(body, {}) == (body, {}, 0)
    latin = f'<?xml version="1.0" encoding="ISO-8859-1"?><t>{GERMAN}</t>'.encode("latin-1")
    assert settled(latin, {}) == (latin, {}, 0)


def test_a_servers_default_charset_gives_way_to_the_documents_own() -> None:
    """Apache's AddDefaultCharset ISO-8859-1 over a GB2312 feed: every title was mojibake."""
    body = '<?xml version="1.0" encoding="GB2312"?><t>基于图神经网络</t>'.encode("gb2312")
    _, headers, _ = settled(body, {"content-type": "text/xml; charset=ISO-8859-1"})
    assert headers == {"content-type": "text/xml"}
    # A charset the server chose on purpose (not a default) stands.
    _, headers, _ = settled(body, {"content-type": "text/xml; charset=Shift_JIS"})
    assert headers == {"content-type": "text/xml; charset=Shift_JIS"}


def test_utf16_without_a_byte_order_mark_is_no_utf8_to_repair() -> None:
    body = '<?xml version="1.0" encoding="UTF-16"?><t>Größe</t>'.encode("utf-16-le")
    assert settled(body, {}) == (body, {}, 0)


FEED = f'<?xml version="1.0" encoding="UTF-8"?><rss><t>{GERMAN}</t></rss>'.encode()


def test_a_gzip_body_is_unpacked_member_by_member_and_any_other_body_is_left() -> None:
    assert unpacked(gzip.compress(FEED), 1000) == (FEED, "")
    assert unpacked(gzip.compress(FEED[:9]) + gzip.compress(FEED[9:]), 1000) == (FEED, "")
    assert unpacked(FEED, 10) == (FEED, "")  # no packing: no cap either (the client's own)
    assert unpacked(b"", 10) == (b"", "")
    # gzip's own tool ignores what follows the last member (a server's padding): so here
    assert unpacked(gzip.compress(FEED) + b"\x00" * 8, 1000) == (FEED, "")


def test_a_gzip_body_stops_at_the_cap_and_says_where_it_is_cut() -> None:
    bomb = gzip.compress(b" " * 2**24)  # 16 MiB of blanks in about 16 KB
    with pytest.raises(Packed, match="larger than 1 MiB unpacked: abandoned"):
        unpacked(bomb, 2**20)
    with pytest.raises(Packed, match="larger than 1000 bytes"):  # counted over every member
        unpacked(gzip.compress(b" " * 600) * 2, 1000)
    assert unpacked(gzip.compress(b" " * 1000), 1000) == (b" " * 1000, "")  # the cap itself
    whole = gzip.compress(FEED * 50)
    body, cut = unpacked(whole[: len(whole) // 2], 10**6)
    assert cut == "its gzip stream stops before its end" and (FEED * 50).startswith(body)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"\x1f\x8b\x08\x00" + b"junk" * 10, "gzip-compressed, and broken"),
        (gzip.compress(gzip.compress(FEED)), "compressed twice: refused"),
        (b"BZh91AY&SY" + b"\x00" * 20, "bzip2-compressed, with no Content-Encoding"),
        (b"\xfd7zXZ\x00\x00" + b"\x00" * 20, "xz-compressed"),
        (b"\x28\xb5\x2f\xfd" + b"\x00" * 20, "zstd-compressed"),
        (b"\x1f\x9d\x90" + b"\x00" * 20, "compress-compressed"),
    ],
)
def test_a_body_that_cannot_be_unpacked_says_what_it_is(body: bytes, why: str) -> None:
    with pytest.raises(Packed, match=why):
        unpacked(body, 10**6)
