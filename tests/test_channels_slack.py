"""digest.channels.slack against a local server that behaves as Slack documents incoming webhooks:
Block Kit within the limits, escaped and verbatim text, Slack's error strings, 429 Retry-After,
and parts posted at most once."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

import pytest
from channel_servers import Dripping, SlackWebhook, no_proxies
from sample_digests import delivery, message, paper

from digest import marks, outbox
from digest.channels import transport
from digest.channels.slack import SlackChannel, messages
from digest.models import (
    ChannelConfig,
    Delivery,
    Digest,
    Entry,
    Message,
    Profile,
    Receipt,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store, stamp

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)


@pytest.fixture
def slack() -> Iterator[SlackWebhook]:
    server = SlackWebhook(rate=100, burst=100)
    yield server
    server.stop()


def post(url: str, msg: Message, **extra: Any) -> Delivery:
    d = delivery(msg, "slack", {"webhook": url}, **extra)
    SlackChannel(d.channel, Settings("t.toml", (), ())).send(d)
    return d


def text_size(payload: dict[str, Any]) -> int:
    """All the text of a payload's blocks: what Slack's msg_blocks_too_long counts."""
    return sum(len(t["text"]) for t in mrkdwn_texts(payload)) + len(
        payload["blocks"][0]["text"]["text"]
    )


def mrkdwn_texts(payload: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for block in payload["blocks"]:
        found += [block["text"]] if block["type"] == "section" else []
        found += block.get("elements", [])
    return found


def test_a_digest_is_a_header_a_section_per_paper_and_a_context_line(slack: SlackWebhook) -> None:
    post(slack.url(), message(3))
    (payload,) = slack.accepted
    kinds = [b["type"] for b in payload["blocks"]]
    assert kinds == ["header", *["section"] * 6, "context"]  # two sections per paper
    assert payload["blocks"][0]["text"] == {
        "type": "plain_text",
        "text": "Paper digest for ana — 2026-11-30",
    }
    assert payload["text"] == "Paper digest for ana — 2026-11-30"  # the notification fallback
    free, marked = payload["blocks"][1]["text"], payload["blocks"][2]["text"]
    assert free["type"] == "plain_text" and free["text"].startswith(
        "1. Federated learning under heterogeneity, part 1\n"
        "Ana Author, Ben Builder · arXiv cs.LG · score 0.90\nwhy: matched federated, drift\n"
        "Paper 1 studies federated learning"
    )
    assert marked == {
        "type": "mrkdwn",
        "text": "id `2611.00001` · <https://arxiv.org/abs/2611.00001?a=1&amp;b=2|paper> · "
        "<https://arxiv.org/pdf/2611.00001|PDF> · <https://github.com/example/p1|code>",
        "verbatim": True,
    }
    assert payload["unfurl_links"] is False and payload["unfurl_media"] is False


def test_untrusted_text_pings_nobody_and_breaks_no_markup(slack: SlackWebhook) -> None:
    post(slack.url(), message(2, evil=True))
    (payload,) = slack.accepted
    texts = mrkdwn_texts(payload)
    marked = [t for t in texts if t["type"] == "mrkdwn"]
    assert marked and all(t["verbatim"] is True for t in marked)
    assert all(t["type"] in ("mrkdwn", "plain_text") for t in texts)
    body = "\n".join(t["text"] for t in marked)
    assert "<!" not in body  # no <!channel>, <!here>, <!everyone> markup survives
    assert "javascript" not in body
    # The only links are the ones the digest makes per paper.
    assert body.count("<https://") == 5  # two papers, two PDFs, one code link (none for evil)
    shown = "\n".join(t["text"] for t in texts if t["type"] == "plain_text")
    assert "1. Fast <b>bold</b> & robust" in shown  # plain_text: shown as written, never read


def test_a_long_digest_is_split_in_order_within_slacks_limits(slack: SlackWebhook) -> None:
    post(slack.url(), message(100))
    count = len(slack.accepted)
    assert count >= 5 and slack.answers == [200] * count
    headers = [p["blocks"][0]["text"]["text"] for p in slack.accepted]
    assert headers == [
        f"Paper digest for ana — 2026-11-30 ({n}/{count})" for n in range(1, count + 1)
    ]
    assert all(len(p["blocks"]) <= 50 for p in slack.accepted)
    assert all(text_size(p) <= 10_000 for p in slack.accepted)  # msg_blocks_too_long
    ranks = [
        int(b["text"]["text"].split(".", 1)[0])
        for p in slack.accepted
        for b in p["blocks"]
        if b["type"] == "section" and b["text"]["type"] == "plain_text"
    ]
    assert ranks == list(range(1, 101))


def test_held_alerts_and_the_picks_each_open_with_a_bold_heading(slack: SlackWebhook) -> None:
    post(slack.url(), message(2, held=2))
    (payload,) = slack.accepted
    sections = [b["text"] for b in payload["blocks"] if b["type"] == "section"]
    headings = [t["text"] for t in sections if t["text"].startswith("*")]
    assert headings == [
        "*Held alerts: 2 papers that matched your alert rules, held for this digest*",
        "*Ranked picks: 2 new papers, best match first*",
    ]
    shown = [t["text"] for t in sections if t["type"] == "plain_text"]
    assert [int(t.split(".", 1)[0]) for t in shown] == [1, 2, 3, 4]  # ranks run on
    assert "alert: mentions “secure aggregation”; held: the daily cap" in shown[0]
    assert payload["blocks"][1]["text"]["text"].startswith("*Held alerts")  # before paper 1


def test_a_held_alerts_reasons_stay_plain_text_and_ping_nobody(slack: SlackWebhook) -> None:
    post(slack.url(), message(1, evil=True, held=1))
    (payload,) = slack.accepted
    texts = mrkdwn_texts(payload)
    marked = "\n".join(t["text"] for t in texts if t["type"] == "mrkdwn")
    assert "<!" not in marked and "<script>" not in marked
    shown = "\n".join(t["text"] for t in texts if t["type"] == "plain_text")
    assert "by Fast <b>bold</b> & robust: <script>alert(1)</script> for <!channel>" in shown


def test_a_hundred_held_alerts_are_all_posted_within_slacks_limits(slack: SlackWebhook) -> None:
    post(slack.url(), message(5, held=100))
    assert len(slack.accepted) >= 5 and slack.answers == [200] * len(slack.accepted)
    assert all(len(p["blocks"]) <= 50 for p in slack.accepted)
    assert all(text_size(p) <= 10_000 for p in slack.accepted)
    ranks = [
        int(b["text"]["text"].split(".", 1)[0])
        for p in slack.accepted
        for b in p["blocks"]
        if b["type"] == "section" and b["text"]["type"] == "plain_text"
    ]
    assert ranks == list(range(1, 106))


def test_overlong_titles_snippets_and_names_are_cut_to_fit(slack: SlackWebhook) -> None:
    entry = Entry(1, "T" * 4000, "https://example.org/x", snippet="word & " * 900)
    msg = Message("s", "t", "h", heading="Paper digest for " + "Zoë " * 80, entries=(entry,))
    post(slack.url(), msg)
    (payload,) = slack.accepted  # the server checks 150 / 3000 itself and said 200
    assert len(payload["blocks"][0]["text"]["text"]) <= 150
    assert len(payload["blocks"][1]["text"]["text"]) <= 3000


def test_a_message_without_papers_is_posted_as_its_text(slack: SlackWebhook) -> None:
    post(slack.url(), Message("Nothing new today", "No new papers <matched> today.", "<p>x</p>"))
    (payload,) = slack.accepted
    assert payload["blocks"][1]["text"]["text"] == "No new papers &lt;matched&gt; today."


def test_parts_already_sent_are_not_posted_again(slack: SlackWebhook) -> None:
    count = len(messages(message(60)))
    post(slack.url(), message(60), parts_sent=2)
    heads = [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted]
    assert heads == [f"({n}/{count})" for n in range(3, count + 1)]


# Through the outbox: how a run treats each answer.


def setup(tmp_path: Path, url: str, count: int = 1) -> tuple[Settings, Store]:
    config = ChannelConfig("slack", "slack", {"webhook": url})
    sub = Subscriber("ana", Profile(interests="x"), (config,))
    settings = Settings("t.toml", (), (sub,), secrets=frozenset({url}))
    store = Store(tmp_path / "state.db")
    digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
    store.record_digest(digest, 1, [("slack", "slack", message(count))])
    return settings, store


@pytest.mark.parametrize(
    ("state", "status"),
    [
        ("channel_is_archived", 410),
        ("channel_not_found", 404),
        ("no_service", 404),
        ("action_prohibited", 403),
    ],
)
def test_slacks_permanent_answers_kill_the_delivery_with_the_reason(
    slack: SlackWebhook, tmp_path: Path, state: str, status: int
) -> None:
    settings, store = setup(tmp_path, slack.url(state=state))
    result = outbox.deliver(store, settings, NOW)
    (dead,) = result.dead
    assert dead.startswith(f"ana/slack: slack answered {status} {state}: ")
    assert store.outbox("dead")[0].last_error.startswith(f"slack answered {status} {state}")
    assert "services/T0" not in dead  # the webhook URL is a secret


def test_an_answer_that_echoes_the_webhook_is_blotted_before_it_is_cut(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    # Cut first, the echo would end inside the token: a prefix no redaction recognizes.
    url = slack.url(secret="S3CRETabcdefghijklmnopqr")
    slack.script.append((404, "padding " * 6 + "Requested: " + url.split("/", 3)[3]))
    settings, store = setup(tmp_path, url)
    (dead,) = outbox.deliver(store, settings, NOW).dead
    assert "S3CRE" not in dead + store.outbox("dead")[0].last_error
    assert "Requested: [redacted]" in dead


@pytest.mark.parametrize("said", ["invalid_payload", "invalid_blocks"])
def test_a_refused_payload_is_dead_too(slack: SlackWebhook, tmp_path: Path, said: str) -> None:
    slack.script.append((400, said))
    settings, store = setup(tmp_path, slack.url())
    assert (
        outbox.deliver(store, settings, NOW)
        .dead[0]
        .startswith(f"ana/slack: slack answered 400 {said}")
    )


def test_a_5xx_is_tried_again_and_nothing_is_doubled(slack: SlackWebhook, tmp_path: Path) -> None:
    settings, store = setup(tmp_path, slack.url(), count=30)  # two messages
    slack.script.append((200, "ok"))  # the first part goes through (the server "posts" it)
    slack.script.append((503, "service_unavailable"))
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert first.retrying == ["ana/slack: slack answered 503 service_unavailable"]
    assert store.outbox()[0].parts_sent == 1
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1
    assert [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted] == ["(2/2)"]


def test_a_gateways_504_or_502_is_no_answer_and_that_part_is_never_posted_again(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    # A proxy that gave up waiting for Slack: Slack may have posted it. Unclaimed like a 503,
    # the part was posted again on the next run.
    settings, store = setup(tmp_path, slack.url(), count=45)  # three messages
    slack.script += [(200, "ok"), (504, "Gateway Timeout")]
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert first.retrying == [
        "ana/slack: slack: a gateway answered 504 for part 2 of 3; it may have been posted and"
        " is not posted again"
    ]
    assert store.outbox()[0].parts_sent == 2
    outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    # Scripted answers post nothing: part 3 alone was posted on the next run, part 2 never again.
    assert [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted] == ["(3/3)"]
    assert store.outbox_counts() == {"sent": 1}


def test_a_429_is_waited_out_within_the_run(tmp_path: Path) -> None:
    server = SlackWebhook(rate=1 / 3, burst=1)  # stricter than Slack: one message per 3 s
    try:
        settings, store = setup(tmp_path, server.url(), count=30)
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert 429 in server.answers  # the server did refuse a burst
    assert len(result.sent) == 1 and store.outbox_counts() == {"sent": 1}
    assert [p["blocks"][0]["text"]["text"][-5:] for p in server.accepted] == ["(1/2)", "(2/2)"]
    assert store.outbox()[0].attempts == 1


def test_a_lost_answer_never_posts_that_part_again(slack: SlackWebhook, tmp_path: Path) -> None:
    settings, store = setup(tmp_path, slack.url(), count=45)  # three messages
    slack.drop_after = 1  # takes part 2, then hangs up without an answer
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert first.retrying == [
        "ana/slack: slack: no answer for part 2 of 3 (Server disconnected without sending a "
        "response.); it may have been posted and is not posted again"
    ]
    assert store.outbox()[0].parts_sent == 2  # part 2 counts as sent: Slack may have it
    outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    headers = [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted]
    assert headers == ["(1/3)", "(2/3)", "(3/3)"]  # each once
    assert store.outbox_counts() == {"sent": 1}


# A server that takes the request and then drips its answer, a byte at a time.


@pytest.fixture
def dripping(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dripping]:
    no_proxies(monkeypatch)
    monkeypatch.setattr(transport, "DEADLINE", 1.0)
    server = Dripping(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + b"X: y\r\n" * 500)
    yield server
    server.stop()


def test_a_dripping_answer_is_given_up_at_the_deadline(dripping: Dripping, tmp_path: Path) -> None:
    settings, store = setup(tmp_path, f"http://127.0.0.1:{dripping.port}/services/T/B/x")
    started = time.monotonic()
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert time.monotonic() - started < 5
    assert first.retrying == [
        "ana/slack: slack: no answer for part 1 of 1 (no complete answer within 1 s); it may"
        " have been posted and is not posted again"
    ]


def test_a_send_that_timed_out_is_never_reported_sent(dripping: Dripping, tmp_path: Path) -> None:
    settings, store = setup(tmp_path, f"http://127.0.0.1:{dripping.port}/services/T/B/x")
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2), rand=lambda: 0.5)
    assert later.sent == []  # the server confirmed nothing: not "sent 1 message"
    (dead,) = later.dead
    assert (
        "part 1 of 1 had no answer recorded on an earlier try" in dead
        and "nothing was confirmed" in dead
    )
    assert dripping.requests == 1  # and it was not posted twice
    assert store.outbox_counts() == {"dead": 1}


def test_a_receipt_counts_only_the_parts_the_server_took(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    settings, store = setup(tmp_path, slack.url(), count=45)  # three messages
    slack.drop_after = 1  # takes part 2, then hangs up without an answer
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    (sent,) = later.sent
    assert sent.endswith(
        "2 of 3 messages confirmed via webhook; part 2 had no answer recorded on an earlier try"
        " and may be missing"
    )


def test_an_answer_that_stalls_after_200_is_still_a_post(monkeypatch: pytest.MonkeyPatch) -> None:
    no_proxies(monkeypatch)
    monkeypatch.setattr(transport, "DEADLINE", 1.0)
    server = Dripping(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nok", every=0.001)
    try:
        url = f"http://127.0.0.1:{server.port}/services/T/B/x"
        d = delivery(message(1), "slack", {"webhook": url})
        receipt = SlackChannel(d.channel, Settings("t.toml", (), ())).send(d)
    finally:
        server.stop()
    assert receipt.detail == "1 message via webhook"


# Formatting, the total size of a message's blocks, and what the notification says.


def test_formatting_marks_in_free_text_stay_literal(slack: SlackWebhook) -> None:
    """mrkdwn has no escape for * and _ (verbatim only stops links and mentions): the title,
    abstract, authors and "closest to" go as plain_text, shown as written."""
    entry = Entry(
        1,
        "A *bold* _it_ ~s~ `tick` title",
        "https://example.org/x",
        authors="J_Smith, *Star* Author",
        snippet="We prove *bold* claims about _italic_ bounds and ~strike~ `code`.",
        because="closest to: *Liked* paper",
    )
    post(slack.url(), Message("s", "t", "h", heading="Paper digest for ana", entries=(entry,)))
    (payload,) = slack.accepted
    marked = [t["text"] for t in mrkdwn_texts(payload) if t["type"] == "mrkdwn"]
    plain = [t["text"] for t in mrkdwn_texts(payload) if t["type"] == "plain_text"]
    marks = ("*bold*", "_italic_", "*Star*", "_it_", "~s~", "`tick`")
    assert not any(mark in text for text in marked for mark in marks)
    free, footer = plain
    assert free.startswith("1. A *bold* _it_ ~s~ `tick` title\n")
    assert "We prove *bold* claims about _italic_ bounds and ~strike~ `code`." in free
    assert "J_Smith, *Star* Author" in free and "closest to: *Liked* paper" in free


def test_an_alerts_reasons_in_its_footer_stay_literal(slack: SlackWebhook) -> None:
    entry = Entry(1, "A title", "https://example.org/x")
    footer = "why now: by *Eve* _Star_, whom you follow; mentions “~x~”"
    msg = Message("s", "t", "h", heading="Paper alert for ana", entries=(entry,), footer=footer)
    post(slack.url(), msg)
    (payload,) = slack.accepted
    (context,) = payload["blocks"][-1]["elements"]
    assert context == {"type": "plain_text", "text": footer, "emoji": False}


def test_links_too_long_for_a_section_leave_the_id_alone(slack: SlackWebhook) -> None:
    url = "https://example.org/" + "a" * 2_000
    entry = Entry(1, "A title", url, code_url=url, pdf_url=url, paper_id="2611.00001")
    post(slack.url(), Message("s", "t", "h", heading="Paper digest for ana", entries=(entry,)))
    (payload,) = slack.accepted
    assert payload["blocks"][2]["text"]["text"] == "id `2611.00001`"


def test_the_blocks_of_one_message_never_hold_too_much_text(slack: SlackWebhook) -> None:
    long = "words " * 600  # a section's worth of snippet each
    entries = tuple(Entry(n, f"Paper {n}", snippet=long, authors="A. Author") for n in range(1, 13))
    post(slack.url(), Message("s", "t", "h", heading="Paper digest for ana", entries=entries))
    assert slack.answers == [200] * len(slack.accepted)  # no msg_blocks_too_long
    assert len(slack.accepted) >= 4
    assert all(text_size(p) <= 10_000 for p in slack.accepted)
    ranks = [
        b["text"]["text"].split(".", 1)[0]
        for p in slack.accepted
        for b in p["blocks"]
        if b["type"] == "section" and b["text"]["type"] == "plain_text"
    ]
    assert ranks == [str(n) for n in range(1, 13)]


def test_msg_blocks_too_long_is_explained_and_permanent(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    settings, store = setup(tmp_path, slack.url())
    slack.script.append((400, "msg_blocks_too_long"))
    out = outbox.deliver(store, settings, NOW)
    assert out.dead == [
        "ana/slack: slack answered 400 msg_blocks_too_long: the blocks hold too much text in all"
        " (a user template's footer?)"
    ]


def test_an_alerts_notification_names_the_paper(slack: SlackWebhook) -> None:
    entry = Entry(1, "Membership inference on <tiny> models", "https://example.org/x")
    post(slack.url(), Message("s", "t", "h", heading="Paper alert for ana", entries=(entry,)))
    (payload,) = slack.accepted
    assert payload["text"] == "Paper alert for ana: Membership inference on &lt;tiny&gt; models"


def test_an_alerts_notification_names_a_long_title_without_spaces(slack: SlackWebhook) -> None:
    # Cut back to its last space, the notification was "Paper alert for ana:…", no paper named.
    entry = Entry(1, "联邦学习中的差分隐私" * 40, "https://example.org/x")
    post(slack.url(), Message("s", "t", "h", heading="Paper alert for ana", entries=(entry,)))
    (payload,) = slack.accepted
    assert payload["text"].startswith("Paper alert for ana: 联邦学习中的差分隐私联邦学习")
    assert payload["text"].endswith("…") and len(payload["text"]) <= 300
    worded = Entry(1, "Membership inference " * 30, "https://example.org/x")
    post(slack.url(), Message("s", "t", "h", heading="Paper alert for ana", entries=(worded,)))
    assert slack.accepted[1]["text"].endswith("inference…")  # at a word's end where one is near


def rated(count: int) -> Message:
    from sample_digests import DAY, PERIOD, paper

    from digest import render
    from digest.web.tokens import links_for

    items = tuple(Scored(paper(n), 0.9 - n / 1000, ("federated",)) for n in range(1, count + 1))
    links = links_for({"base_url": "https://digest.example.org", "secret": "x" * 32}, "ana", NOW)
    return render.render_digest(
        Digest("ana", PERIOD, DAY, items, NOW), render.make_environment(), links
    )


def post_with(url: str, msg: Message, **options: Any) -> None:
    d = delivery(msg, "slack", {"webhook": url, **options})
    SlackChannel(d.channel, Settings("t.toml", (), ())).send(d)


def test_with_a_signing_secret_each_paper_gets_thumbs_buttons(slack: SlackWebhook) -> None:
    post_with(slack.url(), rated(2), signing_secret="s3cret")
    (payload,) = slack.accepted
    kinds = [b["type"] for b in payload["blocks"]]
    paper = ["section", "section", "actions"]  # its line, its free text, its buttons
    assert kinds == ["header", *paper, *paper, "context"]
    up, down = payload["blocks"][3]["elements"]
    assert up["text"]["text"].startswith("👍") and down["text"]["text"].startswith("👎")
    assert up["value"].startswith("https://digest.example.org/r/") and up["value"] != down["value"]
    ids = [
        e["action_id"] for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]
    assert len(ids) == len(set(ids)) == 4


def test_a_paper_with_a_3000_character_id_gets_whole_buttons_and_none_is_ever_cut(
    slack: SlackWebhook,
) -> None:
    """Its rating links were over 2,000 characters, and each button's value was cut there: a
    click was refused by the web face's check, and recorded nothing, with no word of it."""
    import dataclasses

    from digest.web.tokens import links_for

    msg = rated(2)
    long_id = "https://feeds.example.org/item?" + "x" * 3000
    links = links_for({"base_url": "https://digest.example.org", "secret": "x" * 32}, "ana", NOW)
    assert links is not None
    first = dataclasses.replace(
        msg.entries[0],
        paper_id=long_id,
        up_url=links.vote(long_id, "up"),
        down_url=links.vote(long_id, "down"),
    )
    huge = dataclasses.replace(msg.entries[1], up_url=f"{links.base_url}/r/{'a' * 2000}")
    post_with(slack.url(), dataclasses.replace(msg, entries=(first, huge)), signing_secret="s")
    (payload,) = slack.accepted
    (actions,) = [b for b in payload["blocks"] if b["type"] == "actions"]  # none for `huge`
    up, down = actions["elements"]
    assert (up["value"], down["value"]) == (first.up_url, first.down_url)
    for button in (up, down):
        assert len(button["value"]) <= 2000
        assert links.signer.check(button["value"].rsplit("/", 1)[1], "v", NOW.timestamp())


def test_without_a_signing_secret_there_are_no_buttons(slack: SlackWebhook) -> None:
    post_with(slack.url(), rated(2))
    (payload,) = slack.accepted
    assert "actions" not in [b["type"] for b in payload["blocks"]]


def test_a_long_digest_with_buttons_keeps_each_paper_with_its_buttons(slack: SlackWebhook) -> None:
    post_with(slack.url(), rated(60), signing_secret="s3cret")
    assert len(slack.accepted) >= 4  # 16 papers (48 blocks) a message at most
    for payload in slack.accepted:
        kinds = [b["type"] for b in payload["blocks"]]
        assert len(kinds) <= 50 and text_size(payload) <= 10_000
        assert kinds[1:-1] == ["section", "section", "actions"] * ((len(kinds) - 2) // 3)


def test_control_and_bidi_characters_of_an_id_never_reach_the_channel(
    slack: SlackWebhook,
) -> None:
    """render cleans a paper's text but leaves its id as stored (votes name papers by it)."""
    entry = Entry(1, "A title", paper_id="esc\x1b]0;PWNED\x07\x1b[2J\u202eid", score="0.50")
    post(slack.url(), Message("s", "t", "h", heading="Paper alert for ana", entries=(entry,)))
    (payload,) = slack.accepted
    shown = "\n".join(t["text"] for t in mrkdwn_texts(payload))
    assert not [c for c in shown if ord(c) < 32 and c != "\n" or c in "\x9b\u202e"]
    assert "id `esc ]0;PWNED [2J id`" in shown


# A confirmed message is recorded at once; one that can never be confirmed can be given up.


class Watching:
    """A channel that, when sent, notes the outbox rows sent so far as another connection sees
    them: what a SIGKILL at that moment would leave."""

    kind = "watch"
    seen: ClassVar[list[list[str]]] = []

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.state = Path(str(config.options["state"]))

    def send(self, delivery: Delivery) -> Receipt:
        with Store(self.state) as other:
            self.seen.append([r.subscriber for r in other.outbox("sent")])
        return Receipt(self.kind, "seen")


def test_a_confirmed_message_is_recorded_at_once(
    slack: SlackWebhook, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(marks, "MARK_SECONDS", 60.0)  # no ticker commit within the test
    state = tmp_path / "state.db"
    configs = [
        ChannelConfig("slack", "slack", {"webhook": slack.url()}),
        ChannelConfig("watch", "watch", {"state": str(state)}),
    ]
    subs = tuple(
        Subscriber(name, Profile("x"), (c,)) for name, c in zip("ab", configs, strict=True)
    )
    settings = Settings("t.toml", (), subs, delivery={"concurrency": 1})  # a, then b
    store = Store(state)
    for sub in subs:
        digest = Digest(sub.name, "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [(sub.channels[0].name, sub.channels[0].kind, message(1))])
    Watching.seen = []
    registry = {"slack": SlackChannel, "watch": Watching}
    result = outbox.deliver(store, settings, NOW, channels=registry)
    assert len(result.sent) == 2
    assert Watching.seen == [["a"]]  # a kill after Slack's 200 would lose nothing it confirmed


CONFIG = """
[[sources]]
kind = "files"
path = "papers.jsonl"

[[subscribers]]
name = "ana"
interests = "x"
[[subscribers.channels]]
kind = "slack"
webhook = "{url}"
"""


def test_a_dead_unconfirmed_delivery_can_be_dropped_by_retry(
    dripping: Dripping, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from digest.cli import main

    url = f"http://127.0.0.1:{dripping.port}/services/T/B/x"
    settings, store = setup(tmp_path, url)
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)  # no answer: claimed, maybe posted
    outbox.deliver(store, settings, NOW + timedelta(minutes=2))  # dead: nothing was confirmed
    assert store.outbox_counts() == {"dead": 1}
    (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(url=url), encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "state.db")]
    now = ["--now", (NOW + timedelta(minutes=3)).isoformat()]
    assert main(["status", *common, *now]) == 1
    capsys.readouterr()
    assert main(["retry", *common, *now, "--drop", "ana/other"]) == 2  # not a dead one
    assert "--drop ana/other: no dead delivery of it; dead: ana/slack" in capsys.readouterr().err
    assert main(["retry", *common, *now, "--drop", "ana/slack"]) == 0
    out = capsys.readouterr().out
    assert "retry: 1 dead delivery dropped (given up, not sent again); 0 pending, 0 dead" in out
    assert "  dropped ana/slack digest P1: slack: part 1 of 1 had no answer recorded" in out
    assert "services/T" not in out  # the webhook is a secret
    (row,) = store.outbox()
    assert row.status == "dropped" and "nothing was confirmed" in row.last_error
    assert main(["status", *common, *now]) == 0  # no longer needs attention
    assert "deliveries: 0 pending, 0 dead, 1 dropped" in capsys.readouterr().out
    assert main(["retry", *common, *now]) == 0 and dripping.requests == 1  # never posted again


# The receipt names only the parts that may really be missing.


def test_a_part_posted_before_a_429_waited_out_counts_as_confirmed(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    settings, store = setup(tmp_path, slack.url(), count=30)  # two messages
    slack.script.append((200, "ok"))  # part 1 posted
    slack.script.append((429, "rate_limited"))  # part 2 refused: waited out, sent again
    result = outbox.deliver(store, settings, NOW, sleep=lambda s: None)
    assert result.sent == ["ana/slack: 2 messages via webhook"]
    assert store.outbox_counts() == {"sent": 1} and store.outbox()[0].attempts == 1


def test_a_part_posted_before_a_5xx_counts_as_confirmed_on_the_next_run(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    settings, store = setup(tmp_path, slack.url(), count=30)  # two messages
    slack.script += [(200, "ok"), (500, "internal_error")]
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert later.sent == ["ana/slack: 2 messages via webhook"]


def test_a_part_unanswered_stays_named_through_later_refusals(
    slack: SlackWebhook, tmp_path: Path
) -> None:
    settings, store = setup(tmp_path, slack.url(), count=45)  # three messages
    slack.drop_after = 0  # takes part 1, then hangs up without an answer
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    slack.script.append((500, "internal_error"))  # part 2 refused on the next try
    outbox.deliver(store, settings, NOW + timedelta(minutes=2), rand=lambda: 0.5)
    (row,) = store.outbox()
    assert (row.parts_sent, row.unconfirmed) == (1, (1,))
    final = outbox.deliver(store, settings, NOW + timedelta(hours=1))
    assert final.sent == [
        "ana/slack: 2 of 3 messages confirmed via webhook; part 1 had no answer recorded on an"
        " earlier try and may be missing"
    ]
    heads = [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted]
    assert heads == ["(1/3)", "(2/3)", "(3/3)"]  # each once


# A server that asks to wait for ever: the longest backoff, and the run ends as any run does.


@pytest.mark.parametrize(
    "wish", ["99999999999999", "inf", "1e400", "Fri, 31 Dec 9999 23:59:59 GMT"]
)
def test_a_retry_after_of_ages_is_read_as_the_ceiling(wish: str) -> None:
    answer = transport.Answer(429, transport.httpx.Headers({"Retry-After": wish}), b"")
    assert transport.retry_after(answer) == transport.RETRY_AFTER_CEILING
    assert transport.retry_after(answer) == outbox.MAX_BACKOFF


def test_a_retry_after_that_is_no_number_is_no_wish() -> None:
    answer = transport.Answer(429, transport.httpx.Headers({"Retry-After": "nan"}), b"")
    assert transport.retry_after(answer) is None
    plain = transport.Answer(429, transport.httpx.Headers(), b"")
    assert transport.retry_after(plain, {"retry_after_ms": True}) is None
    assert transport.retry_after(plain, {"retry_after_ms": float("nan")}) is None
    assert transport.retry_after(plain, {"retry_after_ms": -5}) == 0.0
    assert transport.retry_after(plain, {"retry_after_ms": 1e300}) == outbox.MAX_BACKOFF


def test_a_huge_retry_after_never_ends_a_run_and_counts_the_attempt(
    slack: SlackWebhook, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from digest.cli import main

    url = slack.url()
    store = Store(tmp_path / "state.db")
    period = "2026-11-30T00:00:00+00:00"  # an earlier period's digest, not delivered yet
    digest = Digest("ana", period, NOW.date(), (Scored(paper(1), 0.5),), NOW)
    store.record_digest(digest, 1, [("slack", "slack", message(1))])
    slack.script.append((429, "rate_limited", {"Retry-After": "99999999999999"}))
    (tmp_path / "papers.jsonl").write_text("", encoding="utf-8")
    config = tmp_path / "digest.toml"
    config.write_text(CONFIG.format(url=url), encoding="utf-8")
    common = ["--config", str(config), "--state", str(tmp_path / "state.db")]
    assert main(["run", *common, "--now", NOW.isoformat()]) == 1  # attention: one is pending
    out = capsys.readouterr().out
    assert "0 sent, 1 retrying, 0 dead" in out
    assert "retrying ana/slack: slack: rate limited (429)" in out
    (row,) = store.outbox()
    assert row.status == "pending" and row.attempts == 1
    ceiling = NOW + timedelta(seconds=outbox.MAX_BACKOFF)
    assert stamp(ceiling) <= str(row.next_try_at) <= stamp(ceiling + timedelta(minutes=1))
    (run,) = store.runs()
    assert run["outcome"] == "attention" and run["finished_at"]
    later = NOW + timedelta(seconds=outbox.MAX_BACKOFF + 60)
    assert main(["run", *common, "--now", later.isoformat()]) == 0
    assert len(slack.accepted) == 1


# A split digest resumed after the buttons were set up (or taken away): the parts stay the
# first try's, so that each paper is posted once.


class Refusing(SlackWebhook):
    """Takes `take` messages, then answers 503 service_unavailable to every post."""

    take = 1

    def _answer(
        self, method: str, path: str, body: bytes
    ) -> tuple[int, str, dict[str, str]] | None:
        if len(self.accepted) >= self.take:
            return 503, "service_unavailable", {}
        return super()._answer(method, path, body)


def ranks_posted(payloads: list[dict[str, Any]]) -> list[int]:
    """The rank of every paper the messages show, in order (its plain text opens "N. title")."""
    texts = [b["text"]["text"] for p in payloads for b in p["blocks"] if b["type"] == "section"]
    return [int(t.split(".", 1)[0]) for t in texts if t.split(".", 1)[0].isdigit()]


@pytest.mark.parametrize("before", [False, True], ids=["secret-added", "secret-removed"])
def test_a_retry_after_the_signing_secret_changed_posts_each_paper_once(
    tmp_path: Path, before: bool
) -> None:
    server = Refusing(rate=100, burst=100)
    try:
        url = server.url()
        msg = rated(40)
        settings: list[Settings] = []
        for secret in (before, not before):
            options = {"webhook": url, **({"signing_secret": "s3cret"} if secret else {})}
            sub = Subscriber("ana", Profile("x"), (ChannelConfig("slack", "slack", options),))
            settings.append(Settings("t.toml", (), (sub,), secrets=frozenset({url})))
        store = Store(tmp_path / "state.db")
        digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("slack", "slack", msg)])
        first = outbox.deliver(store, settings[0], NOW, rand=lambda: 0.5, sleep=lambda s: None)
        server.take = 99
        later = outbox.deliver(store, settings[1], NOW + timedelta(minutes=5), sleep=lambda s: None)
    finally:
        server.stop()
    assert first.retrying and len(server.accepted) >= 3 and later.sent
    assert ranks_posted(server.accepted) == list(range(1, 41))  # each once, in order
    kinds = [[b["type"] for b in p["blocks"]] for p in server.accepted]
    assert ("actions" in kinds[0]) is before and all(
        ("actions" in k) is not before for k in kinds[1:]
    )
