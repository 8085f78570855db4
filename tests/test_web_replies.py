"""Votes from Matrix rooms, on a real Synapse: a reader replies `+1 -2` (or `👍 2`, to the digest
or to nothing) or reacts 👍 to a one-paper message; the next `digest run` records them for the
room's subscriber (via matrix) and acknowledges with ✅. Chat, the bot's own lines and a resync
count nothing; numbers are the ones the digest shows."""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
import threading
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from channel_servers import StallingProxy, running
from homeserver import Homeserver, shared
from web_project import GRAPHS, IMAGES, papers_file

from digest.cli import main
from digest.config import load
from digest.state import Store
from digest.web import replies
from digest.web.replies import parse_votes

MONDAY = "2026-11-30T09:00:00+00:00"
LATER = "2026-11-30T10:00:00+00:00"
_names = itertools.count(1)
_txn = itertools.count(1)


@pytest.fixture(scope="session")
def homeserver() -> Homeserver:
    return shared(relaxed=True)


def test_votes_are_parsed_only_from_vote_shaped_text() -> None:
    assert parse_votes("+2 -5") == [("up", 2), ("down", 5)]
    assert parse_votes("👍 2 3 👎 5") == [("up", 2), ("up", 3), ("down", 5)]
    assert parse_votes("👍️2, 👎🏽 1") == [("up", 2), ("down", 1)]  # emoji variants
    assert parse_votes(" +1\n") == [("up", 1)]
    for chat in ("I liked 2 a lot", "+2 is great", "2", "", "👍", "-", "+ -", "see 1-2"):
        assert parse_votes(chat) is None, chat


class Room:
    def __init__(self, homeserver: Homeserver, tmp_path: Path) -> None:
        n = next(_names)
        self.hs = homeserver
        self.bot = homeserver.register(f"digestbot{n}")
        self.reader = homeserver.register(f"digestreader{n}")  # unlike test_channels_matrix.py
        me = homeserver.call(self.reader, "GET", "/_matrix/client/v3/account/whoami")["user_id"]
        self.room = homeserver.create_room(self.bot, invite=(me,))
        homeserver.join(self.reader, self.room)
        self.root = tmp_path
        (tmp_path / "feed").mkdir()
        papers_file(tmp_path / "feed" / "monday.jsonl", GRAPHS[:2] + IMAGES[:2])
        (tmp_path / "digest.toml").write_text(
            '[state]\npath = "state.db"\n\n[[sources]]\nkind = "files"\npath = "feed"\n\n'
            '[[subscribers]]\nname = "ana"\n'
            'interests = "deep learning: graph neural networks, diffusion models, molecules"\n'
            'schedule = "0 8 * * *"\ntimezone = "UTC"\ntop_k = 2\nmin_score = 0.0\n\n'
            f'[[subscribers.channels]]\nkind = "matrix"\nhomeserver = "{homeserver.url}"\n'
            f'room = "{self.room}"\ntoken = "{self.bot}"\n',
            encoding="utf-8",
        )

    def run(self, now: str = LATER) -> None:
        assert main(["run", "--config", str(self.root / "digest.toml"), "--now", now]) == 0

    def say(self, token: str, content: dict[str, Any], kind: str = "m.room.message") -> str:
        path = f"/_matrix/client/v3/rooms/{quote(self.room, safe='')}/send/{kind}/t{next(_txn)}"
        return str(self.hs.call(token, "PUT", path, json=content)["event_id"])

    def text(self, body: str, reply_to: str | None = None, token: str | None = None) -> str:
        content: dict[str, Any] = {"msgtype": "m.text", "body": body}
        if reply_to:
            content["body"] = f"> <@digestbot:digest.test> Paper digest for ana\n\n{body}"
            content["m.relates_to"] = {"m.in_reply_to": {"event_id": reply_to}}
        return self.say(token or self.reader, content)

    def events(self, kind: str) -> list[dict[str, Any]]:
        path = f"/_matrix/client/v3/rooms/{quote(self.room, safe='')}/messages"
        page = self.hs.call(self.bot, "GET", path, params={"dir": "f", "limit": 200})
        return [e for e in page["chunk"] if e["type"] == kind]

    def acks(self) -> dict[str, int]:
        """event id -> how many ✅ the bot put on it."""
        found: dict[str, int] = {}
        for e in self.events("m.reaction"):
            rel = e["content"].get("m.relates_to", {})  # a redacted ✅ has no content left
            if rel.get("key") == "✅" and e["sender"].startswith("@digestbot"):
                found[rel["event_id"]] = found.get(rel["event_id"], 0) + 1
        return found

    def ratings(self) -> dict[str, tuple[int, str]]:
        with sqlite3.connect(self.root / "state.db") as db:
            rows = db.execute("SELECT paper_id, rating, via FROM ratings WHERE subscriber = 'ana'")
            return {p: (r, v) for p, r, v in rows}

    def ranked(self) -> list[str]:
        """The paper ids of the digest in the room, in the order (numbers) it shows them."""
        (digest,) = [
            e for e in self.events("m.room.message") if "Paper digest" in e["content"]["body"]
        ]
        return [
            line.split("id ")[1].split()[0]
            for line in digest["content"]["body"].splitlines()
            if " id " in line
        ]


@pytest.fixture
def room(homeserver: Homeserver, tmp_path: Path) -> Room:
    r = Room(homeserver, tmp_path)
    r.run(MONDAY)
    return r


def test_a_plain_reply_rates_the_latest_digest_and_gets_a_tick(room: Room) -> None:
    first, second = room.ranked()
    vote = room.text("+1 -2")
    room.run()
    assert room.ratings() == {first: (1, "matrix"), second: (-1, "matrix")}
    assert room.acks() == {vote: 1}


def test_a_reply_to_the_digest_counts_and_chat_or_the_bots_own_lines_do_not(room: Room) -> None:
    first, second = room.ranked()
    (digest,) = [
        e["event_id"] for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")
    ]
    reply = room.text("👍 2", reply_to=digest)
    chat = room.text("I liked 1 a lot")
    own = room.text("-1", token=room.bot)
    room.run()
    assert room.ratings() == {second: (1, "matrix")}
    assert set(room.acks()) == {reply} and chat not in room.acks() and own not in room.acks()


def test_a_vote_in_the_digests_thread_counts(room: Room) -> None:
    first, _ = room.ranked()
    (digest,) = [
        e["event_id"] for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")
    ]
    chat = room.text("what do you think?")  # an earlier line in the thread
    relation = {"rel_type": "m.thread", "event_id": digest, "is_falling_back": True,
                "m.in_reply_to": {"event_id": chat}}  # fmt: skip
    vote = room.say(room.reader, {"msgtype": "m.text", "body": "+1", "m.relates_to": relation})
    room.run()
    assert room.ratings() == {first: (1, "matrix")}
    assert room.acks() == {vote: 1}


def test_a_vote_among_more_lines_than_one_sync_holds_still_counts(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A sync gives a room's last TIMELINE events; a busy room's earlier ones are read back to
    # the last read's position, or the vote (and an undo) among them would be lost. A timeline
    # of 10 here: the same reads back, in several pages, for a tenth of the chat.
    monkeypatch.setattr(replies, "TIMELINE", 10)
    monkeypatch.setattr(replies, "_FILTER", replies._FILTER.replace('"limit":100', '"limit":10'))
    assert '"limit":10,' in replies._FILTER
    first, second = room.ranked()
    room.run()  # the bot's read position: now
    vote = room.text("+1")
    for n in range(replies.TIMELINE + 30):
        room.text(f"chat line {n}")
    room.run()
    assert room.ratings() == {first: (1, "matrix")}
    assert room.acks() == {vote: 1}
    redact(room, vote)
    for n in range(replies.TIMELINE + 20):
        room.text(f"more chat {n}")
    room.run()
    assert room.ratings() == {}


def test_nothing_is_counted_twice_on_a_resync(room: Room) -> None:
    first, second = room.ranked()
    vote = room.text("-1")
    room.run()
    assert main(["feedback", "--config", str(room.root / "digest.toml"), "ana", first, "up"]) == 0
    with sqlite3.connect(room.root / "state.db") as db:
        db.execute("DELETE FROM matrix_since")  # a lost sync position: the next /sync starts over
    room.run()
    room.run()
    assert room.ratings() == {first: (1, "cli")}  # the old "-1" was not applied again
    assert room.acks() == {vote: 1}


def test_a_thumbs_up_reaction_to_a_one_paper_message_rates_it(room: Room) -> None:
    config = (room.root / "digest.toml").read_text(encoding="utf-8")
    (room.root / "digest.toml").write_text(
        config.replace("top_k = 2", "top_k = 1"), encoding="utf-8"
    )
    papers_file(room.root / "feed" / "tuesday.jsonl", [GRAPHS[2]])
    room.run("2026-12-01T09:00:00+00:00")
    alert = [e for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")][-1]
    relation = {"rel_type": "m.annotation", "event_id": alert["event_id"], "key": "👍"}
    room.say(room.reader, {"m.relates_to": relation}, kind="m.reaction")
    room.run("2026-12-01T10:00:00+00:00")
    assert room.ratings() == {"g3": (1, "matrix")}
    assert room.acks() == {alert["event_id"]: 1}


MALFORMED = [
    "junk",  # a content that is no object
    {"msgtype": "m.text", "body": "+1", "m.relates_to": "x"},
    {"msgtype": "m.text", "body": "+1", "m.relates_to": {"m.in_reply_to": "notadict"}},
    {"msgtype": "m.text", "body": "+1", "m.relates_to": {"m.in_reply_to": {"event_id": 5}}},
    {"msgtype": "m.text", "body": ["+1"]},
    {"msgtype": ["m.text"], "body": "+1"},
]


class Tampering(StallingProxy):
    """The homeserver as seen through it: every /sync answer carries, before the room's real
    events, events that a room member could have sent with content of the wrong shapes."""

    def __init__(self, upstream: str, room: str) -> None:
        self.room, self.syncs = room, 0
        self.resumed: list[bool] = []  # per /sync: did it start from a stored position?
        super().__init__(upstream)

    def handle(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Any:
        status, content, answer_headers = super().handle(method, path, body, headers)
        if method != "GET" or not path.startswith("/_matrix/client/v3/sync"):
            return status, content, answer_headers
        self.syncs += 1
        self.resumed.append("since=" in path)
        sync = json.loads(content)
        timeline = sync.setdefault("rooms", {}).setdefault("join", {}).setdefault(self.room, {})
        events = timeline.setdefault("timeline", {}).setdefault("events", [])
        bad = [{"type": "m.room.message", "content": c} for c in MALFORMED]
        bad += [{"type": "m.reaction", "content": {"m.relates_to": "x"}},
                {"type": "m.reaction", "content": {"m.relates_to": {
                    "rel_type": "m.annotation", "event_id": ["$x"], "key": "👍"}}}]  # fmt: skip
        for n, event in enumerate(bad):
            event |= {"event_id": f"$bad{self.syncs}-{n}:digest.test", "sender": "@eve:digest.test"}
        events[:0] = bad
        return status, json.dumps(sync).encode(), answer_headers


def test_malformed_events_are_skipped_and_the_sync_position_moves_past_them(
    homeserver: Homeserver, tmp_path: Path
) -> None:
    room = Room(homeserver, tmp_path)
    with running(Tampering(homeserver.url, room.room)) as proxy:
        config = room.root / "digest.toml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace(homeserver.url, proxy.url), encoding="utf-8")
        room.run(MONDAY)  # exits 0: the malformed events neither crash it nor count
        first, _ = room.ranked()
        vote = room.text("+1")
        room.run()
        assert proxy.resumed == [False, True]  # the second run synced from where the first left
        assert room.ratings() == {first: (1, "matrix")}  # and counted the reply after them
        assert room.acks() == {vote: 1}
        with sqlite3.connect(room.root / "state.db") as db:
            skipped = db.execute("SELECT count(*) FROM matrix_seen WHERE event_id LIKE '$bad%'")
            assert skipped.fetchone()[0] == 2 * (len(MALFORMED) + 2)


def test_an_edited_reply_counts_nothing_more_even_after_a_newer_digest(room: Room) -> None:
    first, _ = room.ranked()
    (monday,) = [
        e["event_id"] for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")
    ]
    reply = room.text("+1", reply_to=monday)
    room.run()
    papers_file(room.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    room.run("2026-12-01T09:00:00+00:00")  # a newer digest is now the room's latest
    relation = {"rel_type": "m.replace", "event_id": reply}
    new = {"msgtype": "m.text", "body": "-1"}
    for body in (" * -1", "-1"):  # as Element writes an edit, and as a client without "* " does
        room.say(room.reader, {"msgtype": "m.text", "body": body, "m.new_content": new,
                               "m.relates_to": relation})  # fmt: skip
    room.run("2026-12-01T10:00:00+00:00")
    assert room.ratings() == {first: (1, "matrix")}  # not the -1 on Tuesday's first paper
    assert set(room.acks()) == {reply}


def test_a_plain_reply_rates_the_latest_digest_even_after_many_quiet_day_notices(
    homeserver: Homeserver, tmp_path: Path
) -> None:
    room = Room(homeserver, tmp_path)
    config = room.root / "digest.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("top_k = 2", 'top_k = 2\non_empty = "notify"'), "utf-8")
    room.run(MONDAY)
    first, _ = room.ranked()
    for day in range(1, 8):  # a week of days with nothing new: a notice each, no digest
        room.run(f"2026-12-0{day}T09:00:00+00:00")
    assert len(room.events("m.room.message")) == 8
    vote = room.text("+1")
    room.run("2026-12-07T10:00:00+00:00")
    assert room.ratings() == {first: (1, "matrix")}  # Monday's digest is still the latest
    assert room.acks() == {vote: 1}


def test_a_reply_to_a_digest_counts_however_many_messages_went_out_since(room: Room) -> None:
    first, second = room.ranked()
    (digest,) = [
        e["event_id"] for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")
    ]
    with sqlite3.connect(room.root / "state.db") as db:  # sixty alerts and notices since
        db.executemany(
            "INSERT INTO outbox (digest_id, subscriber, period, day, channel, kind, message,"
            " status, created_at, sent_at, receipt, purpose) SELECT NULL, subscriber, ?, day,"
            " channel, kind, message, 'sent', created_at, sent_at, ?, 'notice' FROM outbox"
            " WHERE purpose = 'digest'",
            [(f"notice:{n}", f"$later{n}:digest.test") for n in range(60)],
        )
    vote = room.text("+2", reply_to=digest)
    room.run()
    assert room.ratings() == {second: (1, "matrix")}
    assert room.acks() == {vote: 1}


class Together(StallingProxy):
    """The homeserver as two workers meet it at the same minute: each /sync waits for the other
    (so both read the same events) and each ✅ for the other's, or a few seconds."""

    def __init__(self, upstream: str) -> None:
        self.syncs, self.acks = threading.Barrier(2, timeout=10), threading.Barrier(2, timeout=3)
        self.armed = False
        super().__init__(upstream)

    def handle(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Any:
        meet = self.syncs if "/sync" in path else self.acks if "/send/m.reaction/" in path else None
        with contextlib.suppress(threading.BrokenBarrierError):
            if meet is not None and self.armed:
                meet.wait()
        return super().handle(method, path, body, headers)


def test_two_workers_reading_at_once_count_a_vote_once(room: Room) -> None:
    first, _ = room.ranked()
    with running(Together(room.hs.url)) as proxy:
        config = room.root / "digest.toml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace(room.hs.url, proxy.url), encoding="utf-8")
        room.run()  # the sync position through the proxy
        room.text("+1")
        proxy.armed = True
        settings = load(config)
        now = datetime.fromisoformat(LATER)
        counted: list[int] = []

        def worker() -> None:
            with Store(str(room.root / "state.db")) as store:
                counted.append(replies.read(settings, store, now))

        workers = [threading.Thread(target=worker) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(30)
    assert sorted(counted) == [0, 1]  # one of them counted it, the other saw it taken
    assert room.ratings() == {first: (1, "matrix")}


def redact(room: Room, event_id: str, token: str | None = None) -> None:
    """What a client does to remove a reaction or delete a message."""
    path = (
        f"/_matrix/client/v3/rooms/{quote(room.room, safe='')}/redact/"
        f"{quote(event_id, safe='')}/r{next(_txn)}"
    )
    room.hs.call(token or room.reader, "PUT", path, json={"reason": "changed my mind"})


def test_removing_a_thumbs_up_reaction_takes_its_vote_back(room: Room) -> None:
    config = (room.root / "digest.toml").read_text(encoding="utf-8")
    (room.root / "digest.toml").write_text(
        config.replace("top_k = 2", "top_k = 1"), encoding="utf-8"
    )
    papers_file(room.root / "feed" / "tuesday.jsonl", [GRAPHS[2]])
    room.run("2026-12-01T09:00:00+00:00")
    alert = [e for e in room.events("m.room.message") if e["sender"].startswith("@digestbot")][-1]
    relation = {"rel_type": "m.annotation", "event_id": alert["event_id"], "key": "👍"}
    reaction = room.say(room.reader, {"m.relates_to": relation}, kind="m.reaction")
    room.run("2026-12-01T10:00:00+00:00")
    assert room.ratings() == {"g3": (1, "matrix")}
    assert room.acks() == {alert["event_id"]: 1}
    redact(room, reaction)
    room.run("2026-12-01T11:00:00+00:00")
    assert room.ratings() == {}
    assert room.acks() == {}  # the ✅ goes with the vote it acknowledged
    room.run("2026-12-01T12:00:00+00:00")  # read again: nothing more changes
    assert room.ratings() == {}
    again = room.say(room.reader, {"m.relates_to": relation}, kind="m.reaction")
    room.run("2026-12-01T13:00:00+00:00")
    assert room.ratings() == {"g3": (1, "matrix")} and room.acks() == {alert["event_id"]: 1}
    down = {**relation, "key": "👎"}
    room.say(room.reader, {"m.relates_to": down}, kind="m.reaction")
    room.run("2026-12-01T14:00:00+00:00")
    assert room.ratings() == {"g3": (-1, "matrix")} and room.acks() == {alert["event_id"]: 1}
    redact(room, again)
    room.run("2026-12-01T15:00:00+00:00")
    assert room.acks() == {alert["event_id"]: 1}  # the 👎 still stands on the alert


def test_a_reply_deleted_after_it_was_read_takes_all_its_votes_back(room: Room) -> None:
    first, second = room.ranked()
    vote = room.text("+1 -2")
    room.run()
    assert room.ratings() == {first: (1, "matrix"), second: (-1, "matrix")}
    assert room.acks() == {vote: 1}
    redact(room, vote)
    room.run("2026-11-30T11:00:00+00:00")
    assert room.ratings() == {}
    assert room.acks() == {}


def test_deleting_an_older_reply_leaves_the_later_vote_standing(room: Room) -> None:
    first, _ = room.ranked()
    older = room.text("+1")
    room.run()
    later = room.text("-1")
    room.run("2026-11-30T11:00:00+00:00")
    redact(room, older)
    room.run("2026-11-30T12:00:00+00:00")
    assert room.ratings() == {first: (-1, "matrix")}  # the reader's current vote is the later one
    redact(room, later)
    room.run("2026-11-30T13:00:00+00:00")
    assert room.ratings() == {}  # what it replaced was the older vote, deleted before it


def test_a_deleted_reply_gives_back_the_rating_it_replaced(room: Room) -> None:
    first, _ = room.ranked()
    config = str(room.root / "digest.toml")
    assert main(["feedback", "--config", config, "ana", first, "down"]) == 0
    vote = room.text("+1")
    room.run()
    assert room.ratings() == {first: (1, "matrix")}
    redact(room, vote)
    room.run("2026-11-30T11:00:00+00:00")
    assert room.ratings() == {first: (-1, "cli")}


class Forging(StallingProxy):
    """The homeserver as seen through it: the next /sync carries a redaction of `target` from a
    member who may not redact it, which the homeserver never applied."""

    def __init__(self, upstream: str, room: str) -> None:
        self.room, self.target = room, ""
        super().__init__(upstream)

    def handle(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Any:
        status, content, answer_headers = super().handle(method, path, body, headers)
        if not (self.target and method == "GET" and path.startswith("/_matrix/client/v3/sync")):
            return status, content, answer_headers
        sync = json.loads(content)
        timeline = sync.setdefault("rooms", {}).setdefault("join", {}).setdefault(self.room, {})
        forged = {"type": "m.room.redaction", "sender": "@eve:digest.test",
                  "event_id": "$forged:digest.test", "redacts": self.target,
                  "content": {"redacts": self.target}}  # fmt: skip
        timeline.setdefault("timeline", {}).setdefault("events", []).append(forged)
        self.target = ""
        return status, json.dumps(sync).encode(), answer_headers


def test_a_redaction_the_homeserver_did_not_apply_undoes_nothing(
    homeserver: Homeserver, tmp_path: Path
) -> None:
    room = Room(homeserver, tmp_path)
    with running(Forging(homeserver.url, room.room)) as proxy:
        config = room.root / "digest.toml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace(homeserver.url, proxy.url), encoding="utf-8")
        room.run(MONDAY)
        first, _ = room.ranked()
        vote = room.text("+1")
        room.run()
        proxy.target = vote
        room.run("2026-11-30T11:00:00+00:00")
        assert proxy.target == ""  # the forged redaction was in that sync
    assert room.ratings() == {first: (1, "matrix")}


def test_replies_not_read_say_whose_they_are_in_one_line_without_the_token(
    homeserver: Homeserver, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Several bots and rooms share a homeserver: the homeserver alone named none of them.
    room = Room(homeserver, tmp_path)
    config = room.root / "digest.toml"
    text = config.read_text(encoding="utf-8").replace(room.bot, "syt_revoked_s3cret_token")
    config.write_text(text, encoding="utf-8")
    settings = load(config)
    with Store(room.root / "state.db") as store, caplog.at_level("WARNING"):
        assert replies.read(settings, store, datetime.fromisoformat(LATER)) == 0
    (said,) = [r.getMessage() for r in caplog.records]
    assert said == (
        f"ana/matrix: Matrix replies not read from {homeserver.url}: account: 401 M_UNKNOWN_TOKEN"
    )
