"""digest.channels.matrix against a real Synapse homeserver on 127.0.0.1: the room is read back
through /messages — one event per digest part, HTML sanitized, long digests split, retries that
never post twice, and a real 429 from a homeserver with Synapse's default rate limits."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from channel_servers import StallingProxy, running
from homeserver import SERVER_NAME, Homeserver, shared
from sample_digests import delivery, message, paper

from digest import outbox, render
from digest.channels import matrix as matrix_channel
from digest.channels.matrix import MAX_CONTENT, TAGS, MatrixChannel, events
from digest.models import (
    ChannelConfig,
    DeliveryError,
    Digest,
    Entry,
    Message,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store, stamp

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)
_names = itertools.count(1)


@pytest.fixture(scope="session")
def homeserver() -> Homeserver:
    return shared(relaxed=True)


@pytest.fixture
def room(homeserver: Homeserver) -> tuple[str, str]:
    """A fresh bot user and a room it created: (access token, room id)."""
    token = homeserver.register(f"bot{next(_names)}")
    return token, homeserver.create_room(token)


def channel(homeserver: Homeserver, token: str, room: str) -> MatrixChannel:
    options = {"homeserver": homeserver.url, "room": room, "token": token}
    return MatrixChannel(ChannelConfig("matrix", "matrix", options), Settings("t.toml", (), ()))


def send(homeserver: Homeserver, token: str, room: str, msg: Message, **extra: Any) -> str:
    ch = channel(homeserver, token, room)
    return ch.send(delivery(msg, "matrix", dict(ch.config.options), **extra)).detail


def tags_of(html: str) -> list[tuple[str, dict[str, str | None]]]:
    found: list[tuple[str, dict[str, str | None]]] = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, dict(attrs)))

    Collector().feed(html)
    return found


def test_a_digest_is_one_notice_with_sanitized_html(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    receipt = send(homeserver, token, room_id, message(3, evil=True))
    (event,) = homeserver.messages(token, room_id)
    assert receipt == event["event_id"]
    content = event["content"]
    assert content["msgtype"] == "m.notice"
    assert content["format"] == "org.matrix.custom.html"
    assert content["m.mentions"] == {}
    assert content["body"].startswith("Paper digest for ana — 2026-11-30\n\n1. Fast <b>bold</b>")
    html = content["formatted_body"]
    tags = tags_of(html)
    assert {tag for tag, _ in tags} <= TAGS
    assert not {"script", "img"} & {tag for tag, _ in tags}
    assert not [a for _, attrs in tags for a in attrs if a.startswith("on")]
    hrefs = [attrs["href"] for tag, attrs in tags if tag == "a"]
    assert all(h and h.startswith("https://") for h in hrefs) and len(hrefs) == 5
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown, not run


def test_a_long_digest_is_split_into_events_under_the_size_limit(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    send(homeserver, token, room_id, message(150))
    events = homeserver.messages(token, room_id)
    assert len(events) >= 3
    count = len(events)
    headings = [e["content"]["body"].split("\n", 1)[0] for e in events]
    assert headings == [
        f"Paper digest for ana — 2026-11-30 ({n}/{count})" for n in range(1, 1 + count)
    ]
    assert all(len(json.dumps(e, ensure_ascii=False).encode()) < 65_536 for e in events)
    ranks = [
        int(line.split(".", 1)[0])
        for e in events
        for line in e["content"]["body"].split("\n")
        if line[:1].isdigit()
    ]
    assert ranks == list(range(1, 151))  # in order, none lost, none twice


def test_a_retry_of_the_same_row_returns_the_original_events(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    msg = message(150)
    first = send(homeserver, token, room_id, msg, row=9)
    # A crash before the outbox recorded anything: the whole row is sent again, same txnIds.
    again = send(homeserver, token, room_id, msg, row=9)
    assert first == again
    assert len(homeserver.messages(token, room_id)) == len(first.split())


def test_parts_the_server_has_are_not_sent_again(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    receipt = send(homeserver, token, room_id, message(150), parts_sent=2)
    events = homeserver.messages(token, room_id)
    assert [e["event_id"] for e in events] == receipt.split()
    assert events[0]["content"]["body"].split("\n", 1)[0].endswith("(3/3)")


def test_an_alias_is_resolved_to_its_room(homeserver: Homeserver) -> None:
    token = homeserver.register(f"bot{next(_names)}")
    alias = f"papers{next(_names)}"
    room_id = homeserver.create_room(token, alias=alias)
    send(homeserver, token, f"#{alias}:{SERVER_NAME}", message(1))
    assert len(homeserver.messages(token, room_id)) == 1
    with pytest.raises(DeliveryError) as missing:
        send(homeserver, token, f"#nowhere:{SERVER_NAME}", message(1))
    assert not missing.value.retryable and "no room has the alias" in str(missing.value)


def owned_alias_room(homeserver: Homeserver) -> tuple[str, str, str, str]:
    """A room an owner made under an alias, the bot (power 0) invited: (owner's token, bot's
    token, bot's user id, alias)."""
    owner, name = homeserver.register(f"owner{next(_names)}"), f"bot{next(_names)}"
    token, alias = homeserver.register(name), f"papers{next(_names)}"
    homeserver.create_room(owner, alias=alias, invite=(f"@{name}:{SERVER_NAME}",))
    return owner, token, f"@{name}:{SERVER_NAME}", f"#{alias}:{SERVER_NAME}"


def upgrade(homeserver: Homeserver, owner: str, alias: str, bot: str) -> tuple[str, str]:
    """The alias's room upgraded by its owner (Element's /upgrade: the alias moves to the new
    room, the old one no longer lets a power-0 bot post) and the bot invited there: (old, new)."""
    old = homeserver.call(owner, "GET", f"/_matrix/client/v3/directory/room/{quote(alias)}")
    path = f"/_matrix/client/v3/rooms/{quote(old['room_id'])}/upgrade"
    new = homeserver.call(owner, "POST", path, json={"new_version": "10"})["replacement_room"]
    invite = f"/_matrix/client/v3/rooms/{quote(new)}/invite"
    homeserver.call(owner, "POST", invite, json={"user_id": bot})
    return old["room_id"], new


def test_after_a_room_upgrade_the_alias_is_followed_to_the_new_room_in_the_same_process(
    homeserver: Homeserver,
) -> None:
    # `digest serve` runs every job in one process: the alias's room, looked up on the first
    # digest, is locked by the upgrade (the bot may no longer post there) and the alias moved.
    owner, token, bot, alias = owned_alias_room(homeserver)
    send(homeserver, token, alias, message(1))
    old, new = upgrade(homeserver, owner, alias, bot)
    send(homeserver, token, alias, message(2), row=2)
    assert len(homeserver.messages(owner, old)) == 1  # the first digest only
    (event,) = homeserver.messages(owner, new)
    assert event["sender"] == bot and event["content"]["body"] == events(message(2))[0]["body"]


def test_an_upgrade_between_the_parts_of_a_digest_sends_the_rest_to_the_new_room_once(
    homeserver: Homeserver,
) -> None:
    owner, token, bot, alias = owned_alias_room(homeserver)
    paced: list[tuple[str, str]] = []

    def pace() -> None:  # before each part: the room is upgraded before the second
        if len(paced) == 1:
            paced.append(upgrade(homeserver, owner, alias, bot))
        paced.append(("", ""))

    receipt = send(homeserver, token, alias, message(150), row=7, pace=pace)
    old, new = paced[1]
    parts = [e["body"] for e in events(message(150))]
    assert [e["content"]["body"] for e in homeserver.messages(owner, old)] == parts[:1]
    assert [e["content"]["body"] for e in homeserver.messages(owner, new)] == parts[1:]
    assert len(receipt.split()) == len(parts)


def test_an_alias_pointed_at_another_room_is_followed_after_a_while(
    homeserver: Homeserver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The old room still takes the bot's posts, so nothing refuses them: only time tells.
    owner, token, bot, alias = owned_alias_room(homeserver)
    send(homeserver, token, alias, message(1))
    other = homeserver.create_room(owner, invite=(bot,))
    directory = f"/_matrix/client/v3/directory/room/{quote(alias)}"
    old = homeserver.call(owner, "GET", directory)["room_id"]
    homeserver.call(owner, "DELETE", directory)
    homeserver.call(owner, "PUT", directory, json={"room_id": other})
    send(homeserver, token, alias, message(2), row=2)  # within ALIAS_SECONDS: the room it knew
    monkeypatch.setattr(matrix_channel, "ALIAS_SECONDS", 0.0)
    send(homeserver, token, alias, message(3), row=3)
    assert len(homeserver.messages(owner, old)) == 2
    (event,) = homeserver.messages(owner, other)
    assert event["content"]["body"] == events(message(3))[0]["body"]


def test_a_room_that_refuses_the_bot_is_looked_up_once_more_and_still_dead(
    homeserver: Homeserver,
) -> None:
    owner, token, bot, alias = owned_alias_room(homeserver)
    send(homeserver, token, alias, message(1))
    room_id = homeserver.call(owner, "GET", f"/_matrix/client/v3/directory/room/{quote(alias)}")
    kick = f"/_matrix/client/v3/rooms/{quote(room_id['room_id'])}/ban"
    homeserver.call(owner, "POST", kick, json={"user_id": bot})
    with pytest.raises(DeliveryError) as banned:
        send(homeserver, token, alias, message(2), row=2)
    assert not banned.value.retryable and "M_FORBIDDEN" in str(banned.value)
    assert len(homeserver.messages(owner, room_id["room_id"])) == 1


def test_an_invited_bot_joins_then_posts(homeserver: Homeserver) -> None:
    owner = homeserver.register(f"owner{next(_names)}")
    name = f"bot{next(_names)}"
    token = homeserver.register(name)
    room_id = homeserver.create_room(owner, invite=(f"@{name}:{SERVER_NAME}",))
    send(homeserver, token, room_id, message(1))
    (event,) = homeserver.messages(owner, room_id)
    assert event["sender"] == f"@{name}:{SERVER_NAME}"


def bot_in_a_room(homeserver: Homeserver, public: bool) -> tuple[str, str, str, str]:
    """A moderator's room (public, or invite-only with the bot invited) where the bot has
    posted a digest: (moderator's token, bot's token, bot's user id, room id)."""
    owner, name = homeserver.register(f"mod{next(_names)}"), f"bot{next(_names)}"
    token, bot = homeserver.register(name), f"@{name}:{SERVER_NAME}"
    if public:
        made = {"preset": "public_chat", "visibility": "public"}
        room_id = homeserver.call(owner, "POST", "/_matrix/client/v3/createRoom", json=made)
        room_id = room_id["room_id"]
    else:
        room_id = homeserver.create_room(owner, invite=(bot,))
    send(homeserver, token, room_id, message(1))  # never a member: it joins, then posts
    return owner, token, bot, room_id


def membership(homeserver: Homeserver, token: str, room_id: str, user: str) -> str:
    path = f"/_matrix/client/v3/rooms/{quote(room_id)}/state/m.room.member/{quote(user)}"
    return str(homeserver.call(token, "GET", path)["membership"])


@pytest.mark.parametrize("public", [True, False], ids=["public-room", "invite-only-room"])
def test_a_bot_kicked_from_a_room_does_not_join_it_again_and_says_who_removed_it(
    homeserver: Homeserver, public: bool
) -> None:
    owner, token, bot, room_id = bot_in_a_room(homeserver, public)
    kick = f"/_matrix/client/v3/rooms/{quote(room_id)}/kick"
    homeserver.call(owner, "POST", kick, json={"user_id": bot, "reason": "no bots please"})
    with pytest.raises(DeliveryError) as kicked:
        send(homeserver, token, room_id, message(2), row=2)
    said = str(kicked.value)
    mod = homeserver.call(owner, "GET", "/_matrix/client/v3/account/whoami")["user_id"]
    assert said.startswith(f"matrix: the bot was removed from the room by {mod}: no bots please;")
    assert "invite it back" in said and f"not in room {room_id}" in said  # Synapse's own words
    assert not kicked.value.retryable
    assert membership(homeserver, owner, room_id, bot) == "leave"  # still out
    assert len(homeserver.messages(owner, room_id)) == 1


def test_a_banned_bot_is_dead_in_the_homeservers_words_and_stays_out(
    homeserver: Homeserver,
) -> None:
    owner, token, bot, room_id = bot_in_a_room(homeserver, public=True)
    ban = f"/_matrix/client/v3/rooms/{quote(room_id)}/ban"
    homeserver.call(owner, "POST", ban, json={"user_id": bot, "reason": "spam"})
    with pytest.raises(DeliveryError) as banned:
        send(homeserver, token, room_id, message(2), row=2)
    assert not banned.value.retryable and "banned" in str(banned.value)
    assert membership(homeserver, owner, room_id, bot) == "ban"


def test_a_kicked_bot_invited_back_joins_and_posts(homeserver: Homeserver) -> None:
    owner, token, bot, room_id = bot_in_a_room(homeserver, public=False)
    for action in ("kick", "invite"):
        path = f"/_matrix/client/v3/rooms/{quote(room_id)}/{action}"
        homeserver.call(owner, "POST", path, json={"user_id": bot})
    send(homeserver, token, room_id, message(2), row=2)
    assert membership(homeserver, owner, room_id, bot) == "join"
    assert len(homeserver.messages(owner, room_id)) == 2


def test_a_bot_that_left_a_public_room_itself_joins_it_again(homeserver: Homeserver) -> None:
    owner, token, bot, room_id = bot_in_a_room(homeserver, public=True)
    homeserver.call(token, "POST", f"/_matrix/client/v3/rooms/{quote(room_id)}/leave", json={})
    send(homeserver, token, room_id, message(2), row=2)
    assert len(homeserver.messages(owner, room_id)) == 2


def test_at_room_in_an_abstract_notifies_nobody(homeserver: Homeserver) -> None:
    bot_name, reader_name = f"bot{next(_names)}", f"reader{next(_names)}"
    token, reader = homeserver.register(bot_name), homeserver.register(reader_name)
    room_id = homeserver.create_room(token, invite=(f"@{reader_name}:{SERVER_NAME}",))
    homeserver.join(reader, room_id)
    highlights = "/_matrix/client/v3/notifications"

    def highlighted() -> int:
        page = homeserver.call(reader, "GET", highlights, params={"only": "highlight"})
        return len(page["notifications"])

    send(homeserver, token, room_id, message(2, evil=True))  # its abstract says @room
    assert highlighted() == 0
    # The control: the same words without m.mentions do ping the room.
    path = f"/_matrix/client/v3/rooms/{room_id}/send/m.room.message/control"
    homeserver.call(token, "PUT", path, json={"msgtype": "m.text", "body": "hey @room"})
    assert highlighted() == 1


def test_a_refused_token_or_a_closed_room_is_permanent(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    with pytest.raises(DeliveryError) as bad_token:
        send(homeserver, "syt_Ym90_NotARealTokenAtAll_0a1b2c", room_id, message(1))
    assert not bad_token.value.retryable and "M_UNKNOWN_TOKEN" in str(bad_token.value)
    outsider = homeserver.register(f"outsider{next(_names)}")
    with pytest.raises(DeliveryError) as closed:
        send(homeserver, outsider, room_id, message(1))
    assert not closed.value.retryable and "M_FORBIDDEN" in str(closed.value)
    assert homeserver.messages(token, room_id) == []


def test_a_real_429_is_waited_out_on_the_runs_clock(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    strict = shared(relaxed=False)  # Synapse's default limits: a burst of 10, then 0.2/s
    token = strict.register(f"bot{next(_names)}")
    room_id = strict.create_room(token)
    options = {"homeserver": strict.url, "room": room_id, "token": token}
    names = [f"reader{n}" for n in range(11)]  # one more than the burst
    subs = tuple(
        Subscriber(n, Profile(interests="x"), (ChannelConfig("matrix", "matrix", options),))
        for n in names
    )
    settings = Settings("t.toml", (), subs, secrets=frozenset({token}))
    store = Store(tmp_path / "state.db")
    for name in names:
        digest = Digest(name, "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("matrix", "matrix", message(1, subscriber=name))])
    with caplog.at_level(logging.INFO, logger="digest.outbox"):
        result = outbox.deliver(store, settings, NOW)
    waits = [r.getMessage() for r in caplog.records if "rate limited" in r.getMessage()]
    assert waits, "the homeserver never said 429: the test proves nothing"
    assert len(result.sent) == 11 and store.outbox_counts() == {"sent": 11}
    bodies = [e["content"]["body"].split("\n", 1)[0] for e in strict.messages(token, room_id)]
    assert sorted(bodies) == sorted(f"Paper digest for {n} — 2026-11-30" for n in names)


def test_each_paper_shows_its_number_and_id_and_the_footer_says_how_to_rate(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    send(homeserver, token, room_id, message(2))
    (event,) = homeserver.messages(token, room_id)
    body, html = event["content"]["body"], event["content"]["formatted_body"]
    assert "1. Federated learning under heterogeneity, part 1" in body
    assert "id 2611.00001" in body and "id <code>2611.00002</code>" in html
    assert "to rate: reply e.g. “+1 -3”" in body  # read back by digest/web/replies.py


def test_with_the_web_face_each_paper_also_carries_its_signed_rating_links() -> None:
    msg = message(2)
    entries = tuple(
        dataclasses.replace(e, up_url=f"https://face.example/r/u{e.rank}?s=a&t=1",
                            down_url=f"https://face.example/r/d{e.rank}?s=a&t=1")
        for e in msg.entries
    )  # fmt: skip
    (event,) = events(dataclasses.replace(msg, entries=entries))
    body, html = event["body"], event["formatted_body"]
    assert "👎 less like this: https://face.example/r/d2?s=a&t=1" in body
    assert '<a href="https://face.example/r/u1?s=a&amp;t=1">👍 more like this</a>' in html
    assert "to rate: reply" in body  # the room's replies are read too


def test_held_alerts_and_the_picks_each_open_with_an_escaped_heading() -> None:
    (event,) = events(message(1, evil=True, held=2))
    body, html = event["body"], event["formatted_body"]
    heading = "Held alerts: 2 papers that matched your alert rules, held for this digest"
    assert f"<h5>{heading}</h5><p><b>1. " in html
    assert "<h5>Ranked picks: 1 new paper</h5><p><b>3. " in html
    assert body.index(heading) < body.index("1. Federated") < body.index("3. Fast")
    # A reason quotes the paper's text: escaped in the HTML, as written in the body.
    assert "by Fast &lt;b&gt;bold&lt;/b&gt; &amp; robust: &lt;script&gt;" in html
    assert "<script>" not in html and "by Fast <b>bold</b> & robust" in body
    assert [tag for tag, _ in tags_of(html)].count("h5") == 2


# 100 KB of the text that costs most per character: a quote is 6 bytes as &quot; in the HTML,
# an astral letter 4 in UTF-8.
HUGE = ('NeurIPS "𝔸" ' * 10_000)[:100_000]
HUGE_FIELDS = {
    "title": HUGE,
    "authors": HUGE,
    "venue": HUGE,
    "paper_id": HUGE,
    "because": "closest to: " + HUGE,
    "snippet": HUGE,
    "terms": (HUGE,),
    "url": "https://example.org/" + "a" * 100_000,
    "code_url": "https://example.org/" + "%22" * 33_000,
}


def event_bytes(content: dict[str, Any]) -> int:
    return len(json.dumps(content, ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("field", sorted(HUGE_FIELDS))
def test_one_huge_field_of_a_paper_still_fits_an_event(field: str) -> None:
    fields: dict[str, Any] = {"title": "A title", "paper_id": "2611.00001", "score": "0.50"}
    entry = Entry(1, **{**fields, field: HUGE_FIELDS[field]})
    msg = Message("Paper alert for ana: A title", "", "", "Paper alert for ana", (entry,), "why")
    (content,) = events(msg)
    assert event_bytes(content) <= MAX_CONTENT < 65_536
    assert content["body"].split("\n")[2].startswith("1. ")


def test_papers_whose_every_field_is_huge_are_split_and_each_event_fits() -> None:
    entries = tuple(Entry(n, score="0.50", **HUGE_FIELDS) for n in range(1, 21))
    huge = "Paper digest for ana " + HUGE
    contents = events(Message(huge, "", "", huge, entries, footer=HUGE))
    assert len(contents) > 1
    assert all(event_bytes(c) <= MAX_CONTENT for c in contents)
    ranks = [int(line.split(".")[0]) for c in contents for line in c["body"].split("\n")[1:]
             if line[:1].isdigit()]  # fmt: skip
    assert ranks == list(range(1, 21))


def test_many_tiny_papers_are_split_counting_the_breaks_between_them() -> None:
    # The blank line between two papers is 4 bytes of JSON that the split did not count: 1,000
    # one-word papers made an event of 62,673 bytes, past what the limit leaves the server.
    entries = tuple(Entry(n, title="x", paper_id=f"2611.{n:05d}") for n in range(1, 1_001))
    contents = events(Message("Digest", "", "", "Digest", entries))
    assert len(contents) > 1 and all(event_bytes(c) <= MAX_CONTENT for c in contents)


def test_a_paper_too_large_even_when_clipped_is_shown_shorter() -> None:
    astral = "𝔸" * 100_000  # 4 bytes each, in the text and in the HTML
    link = "https://example.org/" + '"' * 1_980  # as long a link as is shown; &quot; each
    fields = {k: (astral,) if k == "terms" else astral for k in HUGE_FIELDS}
    entry = Entry(1, score="0.50", **{**fields, "url": link, "code_url": link})
    (content,) = events(Message(astral, "", "", astral, (entry,), footer=astral))
    assert event_bytes(content) <= MAX_CONTENT
    assert content["body"].split("\n")[2].startswith("1. 𝔸𝔸𝔸")


def test_an_alert_with_a_120_kb_venue_reaches_the_room(
    homeserver: Homeserver, room: tuple[str, str]
) -> None:
    token, room_id = room
    long_venue = dataclasses.replace(paper(1), venue="NeurIPS " * 15_000)
    alert = render.render_alert(
        "ana", NOW.date(), Scored(long_venue, 0.9), ["a keyword"], render.make_environment()
    )
    send(homeserver, token, room_id, alert)
    (event,) = homeserver.messages(token, room_id)
    assert "Federated learning under heterogeneity, part 1" in event["content"]["body"]
    assert "NeurIPS NeurIPS" in event["content"]["body"]


def test_control_and_bidi_characters_of_an_id_never_reach_the_room() -> None:
    """render cleans a paper's text but leaves its id as stored (replies name papers by it)."""
    entry = Entry(1, "A title", paper_id="esc\x1b]0;PWNED\x07\x1b[2J\u202eid", score="0.50")
    (content,) = events(Message("s", "", "", "Paper alert for ana", (entry,), "why"))
    shown = content["body"] + content["formatted_body"]
    assert not [c for c in shown if ord(c) < 32 and c != "\n" or c in "\x9b\u202e"]
    assert "id esc ]0;PWNED [2J id" in content["body"]


# Answers a proxy in front of the homeserver may give.


def proxied(
    homeserver: Homeserver, proxy: StallingProxy, tmp_path: Path
) -> tuple[Settings, Store, str, str]:
    """One digest for ana to a fresh room, through the proxy; (.., token, room id)."""
    token = homeserver.register(f"bot{next(_names)}")
    room_id = homeserver.create_room(token)
    options = {"homeserver": proxy.url, "room": room_id, "token": token}
    sub = Subscriber("ana", Profile(interests="x"), (ChannelConfig("matrix", "matrix", options),))
    settings = Settings("t.toml", (), (sub,), secrets=frozenset({token}))
    store = Store(tmp_path / "state.db")
    digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
    store.record_digest(digest, 1, [("matrix", "matrix", message(1))])
    return settings, store, token, room_id


def test_a_200_without_an_event_id_is_tried_again_and_posted_once(
    homeserver: Homeserver, tmp_path: Path
) -> None:
    with running(StallingProxy(homeserver.url)) as proxy:
        proxy.script.append((True, 200, {}))  # the homeserver took it; the proxy lost the body
        settings, store, token, room_id = proxied(homeserver, proxy, tmp_path)
        first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
        assert first.dead == [] and first.sent == []
        (said,) = first.retrying
        assert "answered 200 without an event id" in said and "same transaction id" in said
        later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1 and store.outbox_counts() == {"sent": 1}
    (event,) = homeserver.messages(token, room_id)  # the retry got the original event back
    assert later.sent == [f"ana/matrix: {event['event_id']}"]


def test_a_put_the_homeserver_took_but_never_answered_is_said_so_and_posted_once(
    homeserver: Homeserver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "cannot reach the server" sent the operator after a network fault that was not there.
    from digest.channels import transport

    monkeypatch.setattr(transport, "DEADLINE", 1.0)
    with running(StallingProxy(homeserver.url)) as proxy:
        proxy.stall_after = 0
        settings, store, token, room_id = proxied(homeserver, proxy, tmp_path)
        first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
        (said,) = first.retrying
        assert "matrix: the server did not answer" in said and "cannot reach" not in said
        proxy.stall_after = None
        proxy.release.set()
        later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1 and len(homeserver.messages(token, room_id)) == 1


def test_a_retry_after_ms_of_ages_waits_the_longest_backoff(
    homeserver: Homeserver, tmp_path: Path
) -> None:
    limited = {"errcode": "M_LIMIT_EXCEEDED", "error": "Too many", "retry_after_ms": 1e300}
    with running(StallingProxy(homeserver.url)) as proxy:
        proxy.script.append((False, 429, limited))
        settings, store, _, _ = proxied(homeserver, proxy, tmp_path)
        result = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert result.retrying == ["ana/matrix: matrix: rate limited (429)"]
    (row,) = store.outbox()
    assert row.status == "pending" and row.attempts == 1
    ceiling = NOW + timedelta(seconds=outbox.MAX_BACKOFF)
    assert stamp(ceiling) <= str(row.next_try_at) <= stamp(ceiling + timedelta(minutes=1))


def test_a_refusal_keeps_a_long_error_whole_for_the_outbox_to_blot() -> None:
    """A homeserver (or a proxy before it) may quote the request's Authorization header late
    in its error: cut here, the token's first characters would escape the redaction."""
    import httpx

    from digest.channels.matrix import refusal
    from digest.channels.transport import Answer

    said = "x" * 190 + " Bearer syt_sekritMATRIXtoken0123"
    error = refusal(Answer(401, httpx.Headers(), b""), {"errcode": "M_BAD", "error": said})
    assert "syt_sekritMATRIXtoken0123" in str(error)


def test_the_rooms_of_one_account_are_one_destination_paced_together() -> None:
    """A homeserver limits what one user sends: paced per room, hundreds of rooms made
    thousands of 429s, each spending a reader's attempt."""

    def of(room: str, token: str) -> str:
        options = {"homeserver": "http://127.0.0.1:1", "room": room, "token": token}
        return MatrixChannel(
            ChannelConfig("matrix", "matrix", options), Settings("t", (), ())
        ).destination

    assert of("!a:x", "syt_one") == of("!b:x", "syt_one") != of("!a:x", "syt_two")
    assert "syt_one" not in of("!a:x", "syt_one")  # a token is a secret


class Unanswering(StallingProxy):
    """Forwards to the homeserver, but answers requests whose path holds `part` itself: a busy
    homeserver's 500, a 429, a proxy's 502 page or its own 404."""

    def __init__(self, upstream: str, part: str, status: int, answer: Any) -> None:
        self.part, self.status, self.answer = part, status, answer
        super().__init__(upstream)

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, bytes, dict[str, str]]:
        if self.part in path:
            answer = self.answer
            data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
            return self.status, data, {"Content-Type": "application/json", "Retry-After": "7"}
        return super().handle(method, path, body, headers)


WHOAMI, MEMBER = "/account/whoami", "/state/m.room.member/"
BUSY = {"errcode": "M_UNKNOWN", "error": "busy"}


@pytest.mark.parametrize(
    ("part", "status", "answer"),
    [
        (WHOAMI, 500, BUSY),
        (WHOAMI, 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow down"}),
        (WHOAMI, 200, {}),  # no user_id
        (MEMBER, 500, BUSY),
        (MEMBER, 429, {"errcode": "M_LIMIT_EXCEEDED", "error": "slow down"}),
        (MEMBER, 502, b"<html>Bad Gateway</html>"),
        (MEMBER, 404, {"errcode": "M_UNRECOGNIZED", "error": "Unrecognized request"}),
    ],
    ids=["whoami-500", "whoami-429", "whoami-no-id", "state-500", "state-429", "state-502", "404"],
)
def test_a_kicked_bot_that_cannot_learn_its_membership_does_not_join_and_tries_later(
    homeserver: Homeserver, part: str, status: int, answer: Any
) -> None:
    """Its user id had become "None" (whose state is a 404: never a member) and a failed state
    GET had been "never removed": one busy answer and the bot rejoined, and posted, where a
    moderator had kicked it."""
    owner, token, bot, room_id = bot_in_a_room(homeserver, public=True)  # a join would work
    kick = f"/_matrix/client/v3/rooms/{quote(room_id)}/kick"
    homeserver.call(owner, "POST", kick, json={"user_id": bot, "reason": "no bots please"})
    with running(Unanswering(homeserver.url, part, status, answer)) as proxy:
        options = {"homeserver": proxy.url, "room": room_id, "token": token}
        ch = MatrixChannel(ChannelConfig("matrix", "matrix", options), Settings("t", (), ()))
        with pytest.raises(DeliveryError) as unknown:
            ch.send(delivery(message(2), "matrix", options, row=2))
    said = str(unknown.value)
    assert unknown.value.retryable and said.startswith("matrix: the bot may not post in this room")
    assert f"answered {status}" in said and "not joined; tried again later" in said
    assert " : " not in said  # a 502 page without an error code: "answered 502 : Bad Gateway"
    assert unknown.value.retry_after == (7.0 if status == 429 else None)
    assert membership(homeserver, owner, room_id, bot) == "leave"  # still out
    assert len(homeserver.messages(owner, room_id)) == 1
    with pytest.raises(DeliveryError) as later:  # answered: removed, and said so
        send(homeserver, token, room_id, message(2), row=2)
    assert str(later.value).startswith("matrix: the bot was removed from the room by ")


def test_a_refusal_without_an_error_code_says_the_status_alone() -> None:
    """A proxy's 502 page had read "matrix answered 502 : Bad Gateway" (ops20 F4)."""
    import httpx

    from digest.channels.matrix import refusal
    from digest.channels.transport import Answer

    page = Answer(502, httpx.Headers({"content-type": "text/html"}), b"<html>Bad Gateway</html>")
    said = str(refusal(page, {}))
    assert said.startswith("matrix answered 502: ") and " : " not in said
    coded = Answer(403, httpx.Headers(), b"{}")
    assert str(refusal(coded, {"errcode": "M_FORBIDDEN"})).startswith(
        "matrix answered 403 M_FORBIDDEN: "
    )
