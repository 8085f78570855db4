"""digest.channels.matrix_hook against a local stand-in for a matrix-hookshot generic webhook:
{text, html} per Matrix-sized part, the HTML sanitized, parts posted at most once."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from channel_servers import Dripping, Hookshot, no_proxies
from sample_digests import delivery, message, paper

from digest import outbox, render
from digest.channels import transport
from digest.channels.matrix import events
from digest.channels.matrix_hook import HOOK_CONTENT, MatrixHookChannel
from digest.models import (
    ChannelConfig,
    DeliveryError,
    Digest,
    Message,
    Paper,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)


@pytest.fixture
def hookshot() -> Iterator[Hookshot]:
    server = Hookshot()
    yield server
    server.stop()


def post(url: str, msg: Message, **extra: object) -> str:
    d = delivery(msg, "matrix-hook", {"url": url}, **extra)
    return MatrixHookChannel(d.channel, Settings("t.toml", (), ())).send(d).detail


def test_a_digest_is_posted_as_text_and_sanitized_html(hookshot: Hookshot) -> None:
    assert post(hookshot.url(), message(2, evil=True)) == "1 message via hookshot"
    (payload,) = hookshot.accepted
    assert set(payload) == {"text", "html"}
    assert payload["text"].startswith("Paper digest for ana — 2026-11-30\n\n1. Fast <b>bold</b>")
    assert "<script" not in payload["html"] and "<img" not in payload["html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in payload["html"]


def test_a_long_digest_becomes_several_posts_in_order(hookshot: Hookshot) -> None:
    assert post(hookshot.url(), message(60)) == "3 messages via hookshot"
    heads = [p["text"].split("\n", 1)[0][-5:] for p in hookshot.accepted]
    assert heads == ["(1/3)", "(2/3)", "(3/3)"]


def hookshot_event(payload: dict[str, str]) -> bytes:
    """The event content hookshot makes of a post (GenericHook.ts): the text and HTML, and the
    whole request again under its webhook_data key; canonical JSON, as the size limit counts it."""
    content = {
        "msgtype": "m.notice",
        "body": payload["text"],
        "formatted_body": payload.get("html", ""),
        "format": "org.matrix.custom.html",
        "uk.half-shot.hookshot.webhook_data": payload,
    }
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


@pytest.mark.parametrize("papers", [30, 150, 1000])
def test_each_post_makes_a_hookshot_event_the_homeserver_takes(
    hookshot: Hookshot, papers: int
) -> None:
    # Parts of a Matrix event's size became hookshot events of up to 120 KB: refused by the
    # homeserver after hookshot had answered 200, so the digest was lost while reported sent.
    post(hookshot.url(), message(papers))
    sizes = [len(hookshot_event(p)) for p in hookshot.accepted]
    # 65,536 for the whole event, with the server's hashes and signatures (about 1 KB) beside it
    assert sizes and max(sizes) < 62_000, sizes
    shown = "".join(p["text"] for p in hookshot.accepted)
    assert all(f"part {i}\n" in shown for i in (1, papers // 2, papers))


def test_an_unknown_hook_is_permanent_and_a_5xx_is_not(hookshot: Hookshot) -> None:
    url = hookshot.url()
    with pytest.raises(DeliveryError) as unknown:
        post(url.replace("webhook/6a1f", "webhook/0000"), message(1))
    assert not unknown.value.retryable and "hookshot does not know this webhook" in str(
        unknown.value
    )
    assert "6a1f" not in str(unknown.value) and "0000" not in str(unknown.value)
    hookshot.script.append((502, '{"ok": false, "error": "Bad gateway"}'))
    with pytest.raises(DeliveryError) as busy:
        post(url, message(1))
    assert busy.value.retryable


def test_a_failed_part_is_sent_on_the_next_try_and_none_twice(
    hookshot: Hookshot, tmp_path: Path
) -> None:
    url = hookshot.url()
    config = ChannelConfig("matrix-hook", "matrix-hook", {"url": url})
    settings = Settings("t.toml", (), (Subscriber("ana", Profile("x"), (config,)),))
    store = Store(tmp_path / "state.db")
    digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
    store.record_digest(digest, 1, [("matrix-hook", "matrix-hook", message(60))])
    hookshot.script += [(200, '{"ok": true}'), (500, '{"ok": false, "error": "Failed"}')]
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert len(first.retrying) == 1 and store.outbox()[0].parts_sent == 1
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    heads = [p["text"].split("\n", 1)[0][-5:] for p in hookshot.accepted]
    assert heads == ["(2/3)", "(3/3)"]  # (1/3) was the scripted 200 above
    assert later.sent == ["ana/matrix-hook: 3 messages via hookshot"]  # all confirmed
    assert store.outbox_counts() == {"sent": 1}


def test_a_post_that_timed_out_is_never_reported_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_proxies(monkeypatch)
    monkeypatch.setattr(transport, "DEADLINE", 1.0)
    server = Dripping(b"HTTP/1.1 200 OK\r\n" + b"X: y\r\n" * 500)  # headers, a byte at a time
    try:
        url = f"http://127.0.0.1:{server.port}/webhook/6a1fd0c4"
        config = ChannelConfig("matrix-hook", "matrix-hook", {"url": url})
        settings = Settings("t.toml", (), (Subscriber("ana", Profile("x"), (config,)),))
        store = Store(tmp_path / "state.db")
        digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("matrix-hook", "matrix-hook", message(1))])
        started = time.monotonic()
        first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
        assert time.monotonic() - started < 5
        assert "no complete answer within 1 s" in first.retrying[0]
        later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    finally:
        server.stop()
    assert later.sent == [] and "nothing was confirmed" in later.dead[0]
    assert server.requests == 1


def test_an_alert_with_a_120_kb_venue_is_one_post_of_matrix_size(hookshot: Hookshot) -> None:
    long_venue = dataclasses.replace(paper(1), venue="NeurIPS " * 15_000)
    alert = render.render_alert(
        "ana", NOW.date(), Scored(long_venue, 0.9), ["a keyword"], render.make_environment()
    )
    assert post(hookshot.url(), alert) == "1 message via hookshot"
    (payload,) = hookshot.accepted
    assert len(hookshot_event(payload)) < 62_000
    assert "NeurIPS NeurIPS" in payload["text"]


def with_links(msg: Message) -> Message:
    """The message as [web] makes it: each paper with its signed 👍 / 👎 links."""
    entries = tuple(
        dataclasses.replace(e, up_url=f"https://face.example/r/up{e.rank}?s=x&t=1",
                            down_url=f"https://face.example/r/down{e.rank}?s=x&t=1")
        for e in msg.entries
    )  # fmt: skip
    return dataclasses.replace(msg, entries=entries)


def test_a_hookshot_reader_rates_by_the_web_links_and_is_told_no_reply_is_read(
    hookshot: Hookshot,
) -> None:
    """Nothing reads a hookshot room: its footer had said "to rate: reply +1 -3" all the same,
    and with [web] its messages carried no 👍 / 👎 link: no vote could ever arrive."""
    post(hookshot.url(), with_links(message(2)))
    (payload,) = hookshot.accepted
    assert "to rate" not in payload["text"] and "to rate" not in payload["html"]
    assert "👍 more like this: https://face.example/r/up1?s=x&t=1" in payload["text"]
    assert (
        '<a href="https://face.example/r/down2?s=x&amp;t=1">👎 less like this</a>'
        in (payload["html"])
    )
    post(hookshot.url(), message(1), row=2)  # without [web]: no link, and no instruction
    assert (
        "to rate" not in hookshot.accepted[1]["text"] and "👍" not in hookshot.accepted[1]["text"]
    )


# Matrix's older push rule for "@room" (.m.rule.roomnotif), as Synapse 1.163 matches it: any
# case, wherever it starts ("x@room" too), ended by a non-word character. It applies to any event
# without m.mentions. And a user id as the spec writes one (historical localparts too), which
# clients show as a mention.
ROOM_RULE = re.compile(r"@room(?!\w)", re.IGNORECASE)
USER_ID = re.compile(r"@[!-9;-~]+:[0-9a-z]", re.IGNORECASE)
JOINER = "\u2060"  # WORD JOINER: the reader still sees "@room", the rule no longer does
MENTIONS = Paper(
    id="2611.00001",
    title="Federated privacy for @room-scale sensing",
    abstract="Federated learning with privacy. @ROOM please read; cc @ana:example.org or x@room.",
    authors=("@room", "Ana (@ana:example.org)"),
    venue="@Room workshop",
    url="https://example.org/@room/abs?cc=@ana:example.org",
    code_url="https://github.com/@room/fl-dp",
)


def mentioned(text: str) -> list[str]:
    return ROOM_RULE.findall(text) + USER_ID.findall(text)


def test_a_papers_room_mention_and_user_ids_notify_no_one(hookshot: Hookshot) -> None:
    """Hookshot's event has no m.mentions: "@room" in a paper's title, abstract, authors, venue or
    link pinged the whole room. The "@" gets an invisible word joiner, a link's "@" is %40."""
    env = render.make_environment()
    digest = Digest("ana", "P1", NOW.date(), (Scored(MENTIONS, 0.9, ("privacy",)),), NOW)
    alert = render.render_alert("ana", NOW.date(), Scored(MENTIONS, 0.9), ["by @room"], env)
    post(hookshot.url(), render.render_digest(digest, env))
    post(hookshot.url(), alert, row=2)
    for payload in hookshot.accepted:
        assert [mentioned(payload[part]) for part in ("text", "html")] == [[], []]
        seen = payload["text"].replace(JOINER, "")  # what the reader sees is unchanged
        assert "@ROOM please read; cc @ana:example.org or x@room." in seen
        assert "@room, Ana (@ana:example.org) · @Room workshop" in seen
        assert "https://example.org/%40room/abs?cc=%40ana:example.org" in payload["text"]
        assert 'href="https://example.org/%40room/abs?cc=%40ana:example.org"' in payload["html"]
        assert 'href="https://github.com/%40room/fl-dp"' in payload["html"]
        assert f"@{JOINER}room-scale sensing" in payload["html"]


def test_a_message_without_papers_has_its_mentions_broken_in_text_and_html(
    hookshot: Hookshot,
) -> None:
    notice = Message(
        subject="Note",
        text="Quiet week. @room and @ana:example.org: see https://example.org/@room",
        html='<p>Quiet week. &#64;room and @ana:example.org: <a href="https://x.org/">@room</a></p>',
    )
    post(hookshot.url(), notice)
    (payload,) = hookshot.accepted
    assert [mentioned(payload[part]) for part in ("text", "html")] == [[], []]
    assert payload["text"].endswith("see https://example.org/%40room")
    assert f'<a href="https://x.org/">@{JOINER}room</a>' in payload["html"]


def test_a_message_without_an_at_sign_is_posted_as_the_matrix_channel_makes_it(
    hookshot: Hookshot,
) -> None:
    msg = with_links(message(40))
    post(hookshot.url(), msg)
    made = events(msg, HOOK_CONTENT, replies=False)
    assert hookshot.accepted == [{"text": e["body"], "html": e["formatted_body"]} for e in made]


def test_posts_full_of_broken_mentions_still_make_events_the_homeserver_takes(
    hookshot: Hookshot,
) -> None:
    """Each "@" broken adds three bytes: the parts are sized after it, not before."""
    crowded = [
        dataclasses.replace(
            paper(n), title="@a:1" * 200, abstract="@room " * 300, venue="x@r:9" * 100,
            authors=("@b:2" * 100,), url=f"https://example.org/{'@a:b' * 400}",
        )
        for n in range(1, 151)
    ]  # fmt: skip
    scored = tuple(Scored(p, 0.5, ("@c:d",) * 50, "closest to: " + "@room " * 60) for p in crowded)
    digest = Digest("ana", "P1", NOW.date(), scored, NOW)
    post(hookshot.url(), render.render_digest(digest, render.make_environment()))
    sizes = [len(hookshot_event(p)) for p in hookshot.accepted]
    assert max(sizes) < 62_000, sizes
    assert not any(mentioned(p["text"]) or mentioned(p["html"]) for p in hookshot.accepted)
