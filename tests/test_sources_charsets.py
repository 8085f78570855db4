"""Which encoding a feed's bytes are in: a stray Windows-1252 byte in a UTF-8 feed costs that
character, not every accented letter of the feed; a server's default Latin-1 header gives way to
the document's own declaration when the bytes read in it."""

from __future__ import annotations

from digest.sources.charsets import settled

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
