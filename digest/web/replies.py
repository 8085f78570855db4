"""Readers' votes from Matrix rooms: a /sync with the bot's token from the stored `since`, replies
such as `+2 -5` or `👍 2 👎 5` (numbers as the digest shows them; to a digest, or to nothing: the
room's latest digest) and 👍/👎 reactions to a one-paper message (an alert), recorded for the
subscriber whose channel the message went out on (the reply gets a ✅); a redaction of such an
event undoes its votes and takes its ✅ back. Anything else is ignored; an event is never counted
twice."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx

from digest.channels.transport import client, json_body
from digest.models import Settings, redact
from digest.state import Store
from digest.state.web import Sent

log = logging.getLogger("digest.web.replies")

TIMEOUT = httpx.Timeout(10.0, connect=5.0)  # a run must not wait long on a homeserver
TIMELINE = 100  # events per room a first sync looks back on
# Events a run reads back in a room that was busy since the last (a vote among 10,000 chat lines
# is older than a reader can expect to count).
MAX_EVENTS = 5000
UP, DOWN, ACK = "👍", "👎", "✅"
VOTING, REDACTION = ["m.room.message", "m.reaction"], "m.room.redaction"
_VOTE = re.compile(r"(\+|-|👍|👎)\s*(\d+(?:\s*[, ]\s*\d+)*)")
_NOISE = re.compile("[\ufe0f\U0001f3fb-\U0001f3ff]")  # variation selector, skin tones
_FILTER = json.dumps(
    {
        "presence": {"not_types": ["*"]},
        "account_data": {"not_types": ["*"]},
        "room": {
            "timeline": {"limit": TIMELINE, "types": [*VOTING, REDACTION]},
            "state": {"lazy_load_members": True, "types": []},
            "ephemeral": {"not_types": ["*"]},
            "account_data": {"not_types": ["*"]},
        },
    },
    separators=(",", ":"),
)


_PAGE_FILTER = json.dumps({"types": [*VOTING, REDACTION]}, separators=(",", ":"))


def parse_votes(text: str) -> list[tuple[str, int]] | None:
    """[("up", 2), ("down", 5)] from "+2 -5" or "👍 2 👎 5"; None when the text is anything
    else (a chat line that mentions a number is not a vote)."""
    text = _NOISE.sub("", text).replace("−", "-")
    if _VOTE.sub(" ", text).strip(" ,;\t\n") or not _VOTE.search(text):
        return None
    votes = []
    for sign, numbers in _VOTE.findall(text):
        vote = "up" if sign in ("+", UP) else "down"
        votes += [(vote, int(n)) for n in re.findall(r"\d+", numbers)]
    return votes


def _dict(value: Any) -> dict[str, Any]:
    """`value` if it is a JSON object, else {}: any room member writes an event's content, and a
    malformed one must be skipped, not stop every later run."""
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def malformed(event: dict[str, Any]) -> bool:
    """True when a value digest reads from the event has the wrong type (a content that is not
    an object, a relation or reply that is not one, a body or key that is not a string): such an
    event is skipped, never guessed at."""
    content = event.get("content")
    if not isinstance(content, dict) or not isinstance(event.get("event_id", ""), str):
        return True
    relation = content.get("m.relates_to", {})
    reply = relation.get("m.in_reply_to", {}) if isinstance(relation, dict) else None
    if not isinstance(relation, dict) or not isinstance(reply, dict):
        return True
    texts = [content.get(k, "") for k in ("body", "msgtype")]
    texts += [relation.get(k, "") for k in ("rel_type", "event_id", "key")]
    return not all(isinstance(t, str) for t in [*texts, reply.get("event_id", "")])


def _body(content: dict[str, Any]) -> str:
    """The reply's own text: the quoted fallback of the message replied to is dropped."""
    lines = _str(content.get("body")).splitlines()
    if _dict(content.get("m.relates_to")).get("m.in_reply_to"):
        while lines and lines[0].startswith(">"):
            lines.pop(0)
    return "\n".join(lines)


@dataclass
class Room:
    room_id: str
    channels: list[tuple[str, str]] = field(default_factory=list)  # (subscriber, channel name)


def read(settings: Settings, store: Store, now: datetime) -> int:
    """Read every Matrix account's rooms once; the number of votes recorded. A homeserver that
    fails is logged and skipped: the run goes on."""
    accounts: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for sub in settings.subscribers:
        for channel in sub.channels:
            if channel.kind == "matrix":
                o = channel.options
                key = (str(o["homeserver"]).rstrip("/"), str(o["token"]))
                accounts.setdefault(key, []).append((sub.name, channel.name, str(o["room"])))
    recorded = 0
    for (homeserver, token), channels in accounts.items():
        try:
            recorded += _Account(homeserver, token, store, now).read(channels)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            # Whose replies: several bots and rooms share one homeserver.
            whose = ", ".join(f"{sub}/{name}" for sub, name, _ in channels)
            said = str(exc) if isinstance(exc, ValueError | httpx.HTTPError) else ""
            reason = redact(
                said or f"unexpected answer ({type(exc).__name__}: {exc})", settings.secrets
            )
            log.warning("%s: Matrix replies not read from %s: %s", whose, homeserver, reason)
    return recorded


class _Account:
    def __init__(self, homeserver: str, token: str, store: Store, now: datetime) -> None:
        self.homeserver, self.store, self.now = homeserver, store, now
        self.key = hashlib.sha256(f"{homeserver}\x00{token}".encode()).hexdigest()[:24]
        self.http = client({"Authorization": f"Bearer {token}"})
        self.http.timeout = TIMEOUT

    def api(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = self.http.request(method, f"{self.homeserver}/_matrix/client/v3{path}", **kwargs)
        body = json_body(response)
        if not response.is_success:
            raise ValueError(
                f"{path.split('?')[0].split('/')[1]}: {response.status_code} "
                f"{body.get('errcode', '')}"
            )
        return body

    def read(self, channels: Iterable[tuple[str, str, str]]) -> int:
        with self.http:
            me = str(self.api("GET", "/account/whoami")["user_id"])
            rooms: dict[str, Room] = {}
            for subscriber, name, room in channels:
                room_id = room
                if room.startswith("#"):
                    room_id = str(
                        self.api("GET", f"/directory/room/{quote(room, safe='')}")["room_id"]
                    )
                rooms.setdefault(room_id, Room(room_id)).channels.append((subscriber, name))
            params = {"timeout": "0", "filter": _FILTER}
            since = self.store.web.since(self.key)
            if since:
                params["since"] = since
            sync = self.api("GET", "/sync", params=params)
            joined = _dict(_dict(sync.get("rooms")).get("join"))
            recorded = 0
            for room_id, place in rooms.items():
                timeline = _dict(_dict(joined.get(room_id)).get("timeline"))
                for event in self.timeline(room_id, timeline, since):
                    if isinstance(event, dict) and event.get("sender") != me:
                        recorded += self.event(place, event)
            self.store.web.save_since(self.key, str(sync["next_batch"]))
        return recorded

    def timeline(self, room_id: str, timeline: dict[str, Any], since: str | None) -> list[Any]:
        """The room's events since the last read, oldest first. A sync gives the last TIMELINE
        of them; when more came (`limited`: a busy room, the bot's own ✅ among them), the rest
        are read back page by page to the last read's position, up to MAX_EVENTS: a vote or an
        undo among them would be lost otherwise. A first read looks back TIMELINE events only."""
        events = timeline.get("events")
        events = list(events) if isinstance(events, list) else []
        start = _str(timeline.get("prev_batch"))
        if not (since and timeline.get("limited") and start):
            return events
        earlier: list[Any] = []
        path = f"/rooms/{quote(room_id, safe='')}/messages"
        params = {"dir": "b", "to": since, "limit": str(TIMELINE), "filter": _PAGE_FILTER}
        while start and len(earlier) < MAX_EVENTS:
            page = self.api("GET", path, params={**params, "from": start})
            chunk = page.get("chunk")
            if not isinstance(chunk, list) or not chunk:
                break
            earlier += chunk
            start = _str(page.get("end"))
        if len(earlier) >= MAX_EVENTS:
            log.warning(
                "matrix: more than %d events in %s since the last read; the oldest were not read",
                MAX_EVENTS,
                room_id,
            )
        return earlier[::-1] + events

    def event(self, room: Room, event: dict[str, Any]) -> int:
        event_id = _str(event.get("event_id"))
        if event.get("type") == REDACTION:
            self.redaction(room, event)
            return 0
        # Taken first, so that of two workers reading the room at once only one counts it.
        if not event_id or self.store.web.seen(event_id):
            return 0
        if not self.store.web.claim(event_id, self.now):
            return 0
        if malformed(event):  # from a room member: skipped (and seen), the run goes on
            log.info("matrix: a malformed event in %s was skipped", room.room_id)
            return 0
        content = _dict(event.get("content"))
        relation = _dict(content.get("m.relates_to"))
        votes: list[tuple[str, str, str]] = []  # (subscriber, paper id, vote)
        ack_on = event_id
        if event.get("type") == "m.reaction":
            key = _NOISE.sub("", _str(relation.get("key")))
            target = self.sent(room, _str(relation.get("event_id")))
            if relation.get("rel_type") == "m.annotation" and key in (UP, DOWN) and target:
                if len(target.message.entries) == 1 and target.message.entries[0].paper_id:
                    vote = "up" if key == UP else "down"
                    votes.append((target.subscriber, target.message.entries[0].paper_id, vote))
                    ack_on = _str(relation["event_id"])  # a reaction is acknowledged on its alert
        elif relation.get("rel_type") == "m.replace":
            # An edit relates to the edited line, not to a digest (with no reply in it, it would
            # read as a vote on the room's latest one): it counts nothing; a new reply does.
            pass
        elif event.get("type") == "m.room.message" and content.get("msgtype") == "m.text":
            parsed = parse_votes(_body(content))
            # A reply names the message; in a thread, its root is the digest.
            named = [_str(_dict(relation.get("m.in_reply_to")).get("event_id"))]
            if relation.get("rel_type") == "m.thread":
                named.insert(0, _str(relation.get("event_id")))
            found = [s for e in named if e and (s := self.sent(room, e))]
            target = found[0] if found else None if any(named) else self.latest(room)
            if parsed and target:
                entries = {e.rank: e for e in target.message.entries if e.paper_id}
                votes += [
                    (target.subscriber, entries[n].paper_id, v) for v, n in parsed if n in entries
                ]
        # One vote per paper (the last one given), and only for papers the state knows.
        kept = {(s, p): v for s, p, v in votes if self.store.papers.paper(p) is not None}
        if kept:
            voted = [(s, p, v) for (s, p), v in kept.items()]
            self.store.votes.matrix(event_id, room.room_id, voted, self.now)
        for (subscriber, paper_id), vote in kept.items():
            log.info("matrix: %s rated %s %s", subscriber, paper_id, vote)
        if votes:
            self.ack(room.room_id, ack_on, event_id)
        return len(votes)

    def redaction(self, room: Room, event: dict[str, Any]) -> None:
        """A redaction of an event that voted undoes its votes (those still current). Only once
        the homeserver shows the event redacted: a redaction event alone proves nothing (one
        from a member without the power to redact is kept in the room but never applied)."""
        event_id = _str(event.get("event_id"))
        content = _dict(event.get("content"))
        # Room version 11 moved `redacts` into the content; older rooms keep it at the top.
        target = _str(content.get("redacts")) or _str(event.get("redacts"))
        if not event_id or not target or self.store.web.seen(event_id):
            return
        if not self.store.votes.carried(target, room.room_id):
            return  # not a vote of ours (a chat line, a vote redacted before it was read)
        if not self.redacted(room.room_id, target):
            log.info("matrix: a redaction in %s that was not applied was ignored", room.room_id)
            self.store.web.mark_seen(event_id, self.now)
            return
        if not self.store.web.claim(event_id, self.now):
            return
        for subscriber, paper_id, rating in self.store.votes.undo(target, room.room_id, self.now):
            log.info("matrix: %s's vote on %s was redacted (now %s)", subscriber, paper_id, rating)
        if ack := self.store.votes.unacked(target, room.room_id):
            self.unack(room.room_id, ack)

    def redacted(self, room_id: str, event_id: str) -> bool:
        """True when the homeserver serves the event as redacted."""
        path = f"/rooms/{quote(room_id, safe='')}/event/{quote(event_id, safe='')}"
        response = self.http.get(f"{self.homeserver}/_matrix/client/v3{path}")
        if response.status_code in (403, 404):  # not in this room, or not the bot's to see
            return False
        if not response.is_success:  # the read stops; the next run reads the redaction again
            raise ValueError(f"event: {response.status_code}")
        return bool(_dict(json_body(response).get("unsigned")).get("redacted_because"))

    def sent(self, room: Room, event_id: str) -> Sent | None:
        """The message of ours (digest, alert) that went out as this event, in this room."""
        for subscriber, channel in room.channels if event_id else ():
            if sent := self.store.web.sent_as(subscriber, channel, event_id):
                return sent
        return None

    def latest(self, room: Room) -> Sent | None:
        found = [  # however many alerts and quiet-day notices came after it
            s
            for subscriber, channel in room.channels
            for s in self.store.web.sent_messages(subscriber, channel, limit=1, purpose="digest")
        ]
        return max(found, key=lambda s: s.row_id, default=None)

    def ack(self, room_id: str, target: str, event_id: str) -> None:
        """A ✅ on `target` for the vote of `event_id`, remembered so that it goes when the vote
        does. The transaction id names both: after a ✅ was removed, a new vote gets a new one."""
        digest = hashlib.sha256(f"{target}\n{event_id}".encode()).hexdigest()[:16]
        relation = {"rel_type": "m.annotation", "event_id": target, "key": ACK}
        path = f"/rooms/{quote(room_id, safe='')}/send/m.reaction/digest-ack-{digest}"
        try:
            ack = _str(self.api("PUT", path, json={"m.relates_to": relation}).get("event_id"))
        except ValueError as exc:  # a ✅ already there (M_DUPLICATE_ANNOTATION) is fine
            log.info("matrix: no new ✅ on %s (%s)", target, exc)
            ack = ""
        self.store.votes.acked(event_id, room_id, target, ack)

    def unack(self, room_id: str, ack: str) -> None:
        """Take back a ✅ whose votes were all taken back."""
        txn = "digest-unack-" + hashlib.sha256(ack.encode()).hexdigest()[:16]
        path = f"/rooms/{quote(room_id, safe='')}/redact/{quote(ack, safe='')}/{txn}"
        try:
            self.api("PUT", path, json={"reason": "the vote it acknowledged was taken back"})
        except ValueError as exc:  # the ✅ stays; the votes are undone all the same
            log.info("matrix: the ✅ %s stays (%s)", ack, exc)
