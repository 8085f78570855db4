"""digest.channels.slack against a local server that behaves as Slack documents incoming webhooks:
Block Kit within the limits, escaped and verbatim text, Slack's error strings, 429 Retry-After,
and parts posted at most once."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from channel_servers import SlackWebhook
from sample_digests import delivery, message, paper

from digest import outbox
from digest.channels.slack import SlackChannel
from digest.models import (
    ChannelConfig,
    Delivery,
    Digest,
    Entry,
    Message,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store

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
    assert kinds == ["header", "section", "section", "section", "context"]
    assert payload["blocks"][0]["text"] == {
        "type": "plain_text",
        "text": "Paper digest for ana — 2026-11-30",
    }
    assert payload["text"] == "Paper digest for ana — 2026-11-30"  # the notification fallback
    first = payload["blocks"][1]["text"]["text"]
    assert first.startswith(
        "*1.* <https://arxiv.org/abs/2611.00001?a=1&amp;b=2|Federated learning under "
        "heterogeneity, part 1>\nAna Author, Ben Builder · arXiv cs.LG · score 0.90 · id "
        "`2611.00001`\n"
        "_why: matched federated, drift_\nPaper 1 studies federated learning"
    )
    assert first.endswith(
        "<https://arxiv.org/pdf/2611.00001|PDF> · <https://github.com/example/p1|code>"
    )
    assert payload["unfurl_links"] is False and payload["unfurl_media"] is False


def test_untrusted_text_pings_nobody_and_breaks_no_markup(slack: SlackWebhook) -> None:
    post(slack.url(), message(2, evil=True))
    (payload,) = slack.accepted
    texts = mrkdwn_texts(payload)
    assert texts and all(t["type"] == "mrkdwn" and t["verbatim"] is True for t in texts)
    body = "\n".join(t["text"] for t in texts)
    assert "&lt;!channel&gt;" in body and "&lt;!everyone&gt;" in body
    assert "<!" not in body  # no <!channel>, <!here>, <!everyone> markup survives
    assert "&lt;script&gt;" in body and "&amp; robust" in body
    assert "javascript" not in body.replace("href='javascript:alert(1)'", "")
    # The only links are the ones the digest makes per paper.
    assert body.count("<https://") == 5  # two titles, two PDFs, one code link (none for evil)


def test_a_long_digest_is_split_in_order_within_slacks_limits(slack: SlackWebhook) -> None:
    post(slack.url(), message(100))
    assert len(slack.accepted) == 3 and slack.answers == [200, 200, 200]
    headers = [p["blocks"][0]["text"]["text"] for p in slack.accepted]
    assert headers == [f"Paper digest for ana — 2026-11-30 ({n}/3)" for n in (1, 2, 3)]
    assert all(len(p["blocks"]) <= 50 for p in slack.accepted)
    ranks = [
        int(b["text"]["text"].split(".*", 1)[0].lstrip("*"))
        for p in slack.accepted
        for b in p["blocks"]
        if b["type"] == "section"
    ]
    assert ranks == list(range(1, 101))


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
    post(slack.url(), message(100), parts_sent=2)
    assert [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted] == ["(3/3)"]


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
    settings, store = setup(tmp_path, slack.url(), count=60)  # two messages
    slack.script.append((200, "ok"))  # the first part goes through (the server "posts" it)
    slack.script.append((503, "service_unavailable"))
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert first.retrying == ["ana/slack: slack answered 503 service_unavailable"]
    assert store.outbox()[0].parts_sent == 1
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1
    assert [p["blocks"][0]["text"]["text"][-5:] for p in slack.accepted] == ["(2/2)"]


def test_a_429_is_waited_out_within_the_run(tmp_path: Path) -> None:
    server = SlackWebhook(rate=1 / 3, burst=1)  # stricter than Slack: one message per 3 s
    try:
        settings, store = setup(tmp_path, server.url(), count=60)
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert 429 in server.answers  # the server did refuse a burst
    assert len(result.sent) == 1 and store.outbox_counts() == {"sent": 1}
    assert [p["blocks"][0]["text"]["text"][-5:] for p in server.accepted] == ["(1/2)", "(2/2)"]
    assert store.outbox()[0].attempts == 1


def test_a_lost_answer_never_posts_that_part_again(slack: SlackWebhook, tmp_path: Path) -> None:
    settings, store = setup(tmp_path, slack.url(), count=100)  # three messages
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
    assert kinds == ["header", "section", "actions", "section", "actions", "context"]
    up, down = payload["blocks"][2]["elements"]
    assert up["text"]["text"].startswith("👍") and down["text"]["text"].startswith("👎")
    assert up["value"].startswith("https://digest.example.org/r/") and up["value"] != down["value"]
    ids = [
        e["action_id"] for b in payload["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]
    assert len(ids) == len(set(ids)) == 4


def test_without_a_signing_secret_there_are_no_buttons(slack: SlackWebhook) -> None:
    post_with(slack.url(), rated(2))
    (payload,) = slack.accepted
    assert "actions" not in [b["type"] for b in payload["blocks"]]


def test_a_long_digest_with_buttons_keeps_each_paper_with_its_buttons(slack: SlackWebhook) -> None:
    post_with(slack.url(), rated(60), signing_secret="s3cret")
    assert len(slack.accepted) == 3  # 24 papers (48 blocks) a message
    for payload in slack.accepted:
        kinds = [b["type"] for b in payload["blocks"]]
        assert len(kinds) <= 50
        assert kinds[1:-1] == ["section", "actions"] * ((len(kinds) - 2) // 2)
