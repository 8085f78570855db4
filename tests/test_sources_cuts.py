"""Whether a feed's body was cut short in its transfer or is whole as served: a length read in
full (or chunks) says whole; a document that never closes, unframed, says cut."""

from __future__ import annotations

from digest.sources.cuts import cut_short, framed, last_whole

FEED = b'<?xml version="1.0"?><rss version="2.0"><channel><item><title>A</title></item>'


def test_an_answer_that_said_its_length_or_came_in_chunks_is_framed() -> None:
    assert framed({"Content-Length": "120"}) and framed({"transfer-encoding": "chunked"})
    assert not framed({"Content-Type": "application/rss+xml"}) and not framed(None)


def test_a_root_that_never_closes_is_a_cut_and_junk_after_a_closed_one_is_not() -> None:
    assert cut_short("mismatched tag", FEED) == "no </rss> at its end"
    assert cut_short("junk after document element", FEED + b"</channel></rss><x>") == ""
    assert cut_short("no element found: line 1, column 80", b"").startswith("no element found")


def test_the_last_item_is_whole_only_with_its_end_tag() -> None:
    assert last_whole(FEED)
    assert not last_whole(FEED + b"<item><title>B")
    assert last_whole(b"<feed><entry><title>B</title></atom:entry>")
