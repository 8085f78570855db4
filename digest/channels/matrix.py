"""The Matrix channel: m.notice events through the client-server API, one per digest part.

Each part's txnId derives from the outbox row, so a retry after a crash returns the original event
instead of posting again. formatted_body keeps only the HTML the spec allows (the homeserver does
not sanitize); events stay under the 65,536-byte limit by splitting long digests."""

from __future__ import annotations

import hashlib
import html
import json
import threading
import time
from typing import Any
from urllib.parse import quote

import httpx
import nh3

from digest.channels.transport import (
    Answer,
    client,
    json_body,
    network,
    one_line,
    request,
    retry_after,
)
from digest.models import ChannelConfig, Delivery, DeliveryError, Entry, Message, Receipt, Settings

# The spec's whole event (with the server's hashes, signatures, ...) must stay under 65,536 bytes.
MAX_CONTENT = 60_000
# The tags and attributes the client-server spec suggests for formatted_body (img only from mxc:).
TAGS = {
    *"font del h1 h2 h3 h4 h5 h6 blockquote p a ul ol sup sub li b i u strong em s".split(),
    *"code hr br div table thead tbody tr th td caption pre span img details summary".split(),
}
ATTRIBUTES = {"font": {"data-mx-bg-color", "data-mx-color", "color"}, "div": {"data-mx-maths"}}
ATTRIBUTES |= {"span": {"data-mx-bg-color", "data-mx-color", "data-mx-spoiler", "data-mx-maths"}}
ATTRIBUTES |= {"a": {"target", "href"}, "img": {"width", "height", "alt", "title", "src"}}
ATTRIBUTES |= {"ol": {"start"}, "code": {"class"}}
LINK_SCHEMES = ("https:", "http:", "ftp:", "mailto:", "magnet:")
# The most of each untrusted field a paper shows, in characters: one paper with a 100 KB venue
# or link would otherwise make its event too large (M_TOO_LARGE loses the whole message). A
# longer link is left out rather than cut: a cut link leads somewhere else.
LINKS = ("url", "code_url", "up_url", "down_url")
LIMITS = {"title": 500, "authors": 300, "venue": 300, "paper_id": 200, "terms": 300}
LIMITS |= {"because": 300, "snippet": 1000, **dict.fromkeys(LINKS, 2000)}
# A paper still too large at those (every character a quote, each 6 bytes as &quot;) is shown
# at a tenth of them: then whatever the input it fits an event beside the heading and footer.
TIGHT = 0.1
HEADING, FOOTER = 300, 1000


def sanitize(fragment: str) -> str:
    """HTML restricted to what Matrix clients are meant to render; anything else is dropped."""
    return nh3.clean(
        fragment,
        tags=TAGS,
        clean_content_tags={"script", "style", "head", "title"},
        attributes=ATTRIBUTES,
        attribute_filter=_attribute,
        url_schemes={"https", "http", "ftp", "mailto", "magnet", "mxc"},
        link_rel=None,
    )


def _attribute(tag: str, name: str, value: str) -> str | None:
    if tag == "img" and name == "src":
        return value if value.startswith("mxc://") else None
    if tag == "a" and name == "href":
        return value if value.lower().startswith(LINK_SCHEMES) else None
    if name == "class":
        return value if all(c.startswith("language-") for c in value.split()) else None
    return value


# Seconds an alias's room is taken from the last lookup: `digest serve` lives for weeks, and an
# alias moves (a room upgrade, an admin pointing it elsewhere). A room that refuses a post is
# looked up again at once.
ALIAS_SECONDS = 600.0
# A post's refusals that may mean the alias no longer names that room (the spec's answers for a
# room one cannot post in, or one that is gone): 403 M_FORBIDDEN, 404 M_NOT_FOUND and the like.
ROOM_REFUSALS = (403, 404)


class RoomRefused(DeliveryError):
    """A post refused by the room itself (403/404): nothing was posted."""


class MatrixChannel:
    kind = "matrix"
    interval = 0.0  # the homeserver says when to slow down (429 with retry_after_ms)
    # (homeserver, alias) -> (room id, when it was looked up): per process, for ALIAS_SECONDS
    _rooms: dict[tuple[str, str], tuple[str, float]] = {}
    _lock = threading.Lock()

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config
        self.homeserver = str(config.options["homeserver"]).rstrip("/")
        self.room = str(config.options["room"])
        self.token = str(config.options["token"])
        # Paced per account, not per room: a homeserver limits what one user sends (a room per
        # reader had hundreds of 429s spend readers' attempts). The token, a secret, hashed.
        account = hashlib.sha256(f"{self.homeserver}\0{self.token}".encode()).hexdigest()[:16]
        self.destination = f"matrix:{account}"

    def send(self, delivery: Delivery) -> Receipt:
        parts = events(delivery.message)
        events_sent: list[str] = []
        with client({"Authorization": f"Bearer {self.token}"}) as http:
            room_id, looked_again = self._room_id(http), not self.room.startswith("#")
            index = delivery.parts_sent
            while index < len(parts):
                delivery.pace()
                try:
                    event = self._put(http, room_id, f"{delivery.key}-{index}", parts[index])
                except RoomRefused:
                    # The alias's room refuses it (the room was upgraded, the alias moved): the
                    # alias looked up once more, the part goes to the room it names now.
                    moved = None if looked_again else self._moved(http, room_id)
                    if moved is None:
                        raise
                    room_id, looked_again = moved, True
                    continue
                events_sent.append(event)
                index += 1
                delivery.progress(index)
        return Receipt(self.kind, " ".join(events_sent) or "all parts were sent before")

    def _put(self, http: httpx.Client, room_id: str, txn: str, content: dict[str, Any]) -> str:
        path = f"/rooms/{quote(room_id, safe='')}/send/m.room.message/{quote(txn, safe='')}"
        asked = False  # whether the bot may join, once
        while True:
            # Unanswered: tried again later, when the same txnId makes the post safe.
            response = self._call(http, "PUT", path, json=content)
            body = json_body(response)
            if response.is_success and isinstance(body.get("event_id"), str):
                return str(body["event_id"])
            if response.is_success:
                # Taken, but with no event id to show for it (a proxy, a homeserver fault): the
                # same txnId on the next try returns the event, or posts it once if it was not.
                raise DeliveryError(
                    f"matrix: the homeserver answered {response.status_code} without an event"
                    " id; tried again later with the same transaction id (never posted twice)",
                    retryable=True,
                )
            error = refusal(response, body)
            if body.get("errcode") == "M_FORBIDDEN" and not asked:
                refused = f"{response.status_code} M_FORBIDDEN: {said(response, body)}"
                asked, cannot = True, self._join(http, room_id, refused)
                if not cannot:
                    continue  # invited, or a public room: joined, now the post
                # A ban, on a homeserver that shows a banned user no state: in its own words.
                both = f"matrix answered {refused}; the join answered {cannot}"
                text = f"matrix: the bot may not post in this room nor join it ({both})"
                error = DeliveryError(text, retryable=False)
            if response.status_code in ROOM_REFUSALS:
                raise RoomRefused(str(error), retryable=error.retryable)
            raise error

    def _join(self, http: httpx.Client, room_id: str, refused: str) -> str:
        """Join the room that refused a post (`refused`, in the homeserver's words), unless a
        moderator removed the bot from it: "" once in, else the answer to the join."""
        removed = self._removed(http, room_id)
        if removed:  # a moderator's "not here": never undone by a join of its own
            again = f"{removed}; not joined again: invite it back to post there"
            raise RoomRefused(f"matrix: {again} (matrix answered {refused})", retryable=False)
        answer = self._call(http, "POST", f"/join/{quote(room_id, safe='')}", json={})
        return (
            "" if answer.is_success else f"{answer.status_code} {said(answer, json_body(answer))}"
        )

    def _removed(self, http: httpx.Client, room_id: str) -> str:
        """Why the bot must not join the room by itself, or "" (invited, a public room never
        joined, or one it left itself): kicked (`leave` set by another; by anyone, when the
        homeserver does not say who) or banned, as its own m.room.member says, by whom, why;
        DeliveryError (retried) while whoami or that state is unanswered (a 5xx, a 429)."""
        whoami = self._call(http, "GET", "/account/whoami")
        me = json_body(whoami).get("user_id")
        if not (whoami.is_success and isinstance(me, str)):  # had been the user "None"
            raise unlearned("GET /account/whoami", whoami)
        path = f"/rooms/{quote(room_id, safe='')}/state/m.room.member/{quote(me, safe='')}"
        answer = self._call(http, "GET", path, params={"format": "event"})  # with its sender
        event = json_body(answer)
        # A failed GET had been read as "never a member": one 500 undid a moderator's kick.
        if not answer.is_success and (answer.status_code, event.get("errcode")) in NO_STATE:
            return ""
        content = event.get("content", event) if answer.is_success else {}
        state = content.get("membership") if isinstance(content, dict) else None
        if not isinstance(state, str):
            raise unlearned("its m.room.member", answer)
        by = str(event.get("sender") or "") if "content" in event else ""
        if state not in ("leave", "ban") or (state == "leave" and by == me):
            return ""
        who = f" by {one_line(by)[:300]}" if by else ""
        why = f": {one_line(str(content['reason']))[:300]}" if content.get("reason") else ""
        return f"the bot was {'banned' if state == 'ban' else 'removed'} from the room{who}{why}"

    def _call(self, http: httpx.Client, method: str, path: str, **kwargs: Any) -> Answer:
        url = f"{self.homeserver}/_matrix/client/v3{path}"
        try:
            return request(http, method, url, **kwargs)
        except httpx.HTTPError as exc:
            raise network("matrix", exc) from None

    def _room_id(self, http: httpx.Client) -> str:
        """The room id to post to: an alias's as looked up within ALIAS_SECONDS, or now."""
        if not self.room.startswith("#"):
            return self.room
        with self._lock:
            room_id, since = self._rooms.get((self.homeserver, self.room), ("", 0.0))
        if room_id and time.monotonic() - since < ALIAS_SECONDS:
            return room_id
        return self._look_up(http)

    def _moved(self, http: httpx.Client, room_id: str) -> str | None:
        """The alias's room now, looked up again, or None when it is still `room_id`."""
        with self._lock:
            self._rooms.pop((self.homeserver, self.room), None)
        now = self._look_up(http)
        return None if now == room_id else now

    def _look_up(self, http: httpx.Client) -> str:
        response = self._call(http, "GET", f"/directory/room/{quote(self.room, safe='')}")
        body = json_body(response)
        if not (response.is_success and isinstance(body.get("room_id"), str)):
            if response.status_code == 404:
                raise DeliveryError(f"matrix: no room has the alias {self.room}", retryable=False)
            raise refusal(response, body)
        with self._lock:
            self._rooms[(self.homeserver, self.room)] = (str(body["room_id"]), time.monotonic())
        return str(body["room_id"])


SAID = 4000  # characters of a server's error kept here: far more than the outbox shows


def said(response: Answer, body: dict[str, Any]) -> str:
    # Cut by the outbox once its secrets are blotted; this bound only keeps a line a line.
    return " ".join(str(body.get("error") or response.reason_phrase).split())[:SAID]


# The member-state refusals meaning "no such state for you", not "cannot answer now": the spec's
# 404 for a user never in the room, Synapse's 403 to one invited, never joined or banned.
NO_STATE = {(404, "M_NOT_FOUND"), (403, "M_FORBIDDEN")}


def unlearned(what: str, response: Answer) -> DeliveryError:
    """Whether a moderator removed the bot is unknown: no join (it might undo a kick), retried."""
    body, status = json_body(response), response.status_code
    wait = (retry_after(response, body) or 1.0) if status == 429 else None
    code = body.get("errcode") or ""  # a proxy's 502 page had read "502 : Bad Gateway"
    said_now = f"{what} answered {f'{status} {code}'.rstrip()}: {said(response, body)}"
    why = f"whether a moderator removed it is not known ({said_now}): not joined"
    text = f"matrix: the bot may not post in this room, and {why}; tried again later"
    return DeliveryError(text, retryable=True, retry_after=wait)


def refusal(response: Answer, body: dict[str, Any]) -> DeliveryError:
    status = response.status_code
    code = str(body.get("errcode") or "")
    if status == 429 or code == "M_LIMIT_EXCEEDED":
        wait = retry_after(response, body)
        return DeliveryError("matrix: rate limited (429)", retryable=True, retry_after=wait or 1.0)
    hint = {
        "M_UNKNOWN_TOKEN": "the access token was refused (expired, logged out or wrong)",
        "M_MISSING_TOKEN": "no access token was sent",
        "M_FORBIDDEN": "the bot may not post in this room (invite it, or check power levels)",
        "M_TOO_LARGE": "the event is too large",
    }.get(code)
    words = f"{hint}: {said(response, body)}" if hint else said(response, body)
    head = f"{status} {code}".rstrip()  # not "matrix answered 502 : Bad Gateway" (ops20 F4)
    return DeliveryError(f"matrix answered {head}: {words}", retryable=status >= 500)


def events(
    message: Message, limit: int = MAX_CONTENT, replies: bool = True
) -> list[dict[str, Any]]:
    """m.notice contents for a message, in order, each of at most `limit` bytes. replies: the
    room's replies and reactions are read back as ratings (a bot's room, not a hookshot's)."""
    if not message.entries:
        return _plain_events(message, limit)
    title = _clip(message.heading or message.subject, HEADING)
    footer = _clip(message.footer, FOOTER)
    if replies and any(e.paper_id for e in message.entries):  # digest/web/replies.py reads them
        how = "react 👍 / 👎" if len(message.entries) == 1 else "reply e.g. “+1 -3” (👍 1 👎 3)"
        footer = f"{footer} · to rate: {how}" if footer else f"to rate: {how}"
    frame = _size(_content(title + " (99/99)", footer, []))
    pieces = [_piece(e, limit - frame) for e in message.entries]
    groups: list[list[tuple[str, str]]] = [[]]
    used = frame
    for piece in pieces:
        # + 4: the "\n\n" that joins it to the body, JSON-escaped
        grown = _size({"b": piece[0], "f": piece[1]}) - _size({"b": "", "f": ""}) + 4
        if groups[-1] and used + grown > limit:
            groups.append([])
            used = frame
        groups[-1].append(piece)
        used += grown
    count = len(groups)
    return [
        _content(title + (f" ({n}/{count})" if count > 1 else ""), footer, group)
        for n, group in enumerate(groups, start=1)
    ]


def _content(title: str, footer: str, pieces: list[tuple[str, str]]) -> dict[str, Any]:
    body = "\n\n".join([title, *(text for text, _ in pieces), *([footer] if footer else [])])
    head = f"<h4>{html.escape(title)}</h4>"
    foot = f"<p><em>{html.escape(footer)}</em></p>" if footer else ""
    formatted = head + "".join(fragment for _, fragment in pieces) + foot
    content = {"msgtype": "m.notice", "body": body, "format": "org.matrix.custom.html"}
    # Intentional mentions: none, so "@room" in an abstract pings nobody.
    return content | {"formatted_body": formatted, "m.mentions": {}}


def _piece(entry: Entry, room: int) -> tuple[str, str]:
    """A paper's (text, sanitized HTML), each field clipped so that the two fit `room` bytes."""
    for scale in (1.0, TIGHT):
        shown = _shown(entry, scale)
        piece = (_entry_text(shown), sanitize(_entry_html(shown)))
        if _size({"b": piece[0], "f": piece[1]}) <= room:
            break
    return piece


def _shown(entry: Entry, scale: float) -> dict[str, Any]:
    """The fields of a paper as shown: every untrusted one clipped to its limit times `scale`."""
    limit = {name: int(n * scale) for name, n in LIMITS.items()}
    shown: dict[str, Any] = {"rank": entry.rank, "score": _clip(entry.score, 20)}
    shown["section"] = _clip(entry.section, HEADING)  # digest's own words; escaped all the same
    for name, n in limit.items():
        value = ", ".join(entry.terms) if name == "terms" else getattr(entry, name)
        shown[name] = (value if len(value) <= n else "") if name in LINKS else _clip(value, n)
    return shown


def _entry_text(e: dict[str, Any]) -> str:
    lines = [e["section"], ""] if e["section"] else []
    lines += [f"{e['rank']}. {e['title']}"]
    lines += [f"   {e['url']}"] if e["url"] else []
    facts = [x for x in (e["authors"], e["venue"]) if x]
    facts += [f"score {e['score']}"] if e["score"] else []
    facts += [f"id {e['paper_id']}"] if e["paper_id"] else []
    lines += ["   " + " · ".join(facts)] if facts else []
    why = [f"matched {e['terms']}"] if e["terms"] else []
    why += [e["because"]] if e["because"] else []
    lines += ["   why: " + " — ".join(why)] if why else []
    lines += [f"   {e['snippet']}"] if e["snippet"] else []
    lines += [f"   code: {e['code_url']}"] if e["code_url"] else []
    if e["up_url"] and e["down_url"]:  # [web]'s signed links: a GET only shows a button
        lines += [f"   👍 more like this: {e['up_url']}", f"   👎 less like this: {e['down_url']}"]
    return "\n".join(lines)


def _entry_html(e: dict[str, Any]) -> str:
    esc = html.escape
    title = esc(e["title"])
    name = f'<a href="{esc(e["url"])}">{title}</a>' if e["url"] else title
    lines = [f"<b>{e['rank']}. {name}</b>"]
    facts = [esc(x) for x in (e["authors"], e["venue"]) if x]
    facts += [f"score {esc(e['score'])}"] if e["score"] else []
    facts += [f"id <code>{esc(e['paper_id'])}</code>"] if e["paper_id"] else []
    lines += [" · ".join(facts)] if facts else []
    why = [f"matched {esc(e['terms'])}"] if e["terms"] else []
    why += [esc(e["because"])] if e["because"] else []
    lines += ["<i>why: " + " — ".join(why) + "</i>"] if why else []
    lines += [esc(e["snippet"])] if e["snippet"] else []
    lines += [f'<a href="{esc(e["code_url"])}">code</a>'] if e["code_url"] else []
    if e["up_url"] and e["down_url"]:
        up, down = esc(e["up_url"]), esc(e["down_url"])
        lines += [f'<a href="{up}">👍 more like this</a> · <a href="{down}">👎 less like this</a>']
    head = f"<h5>{esc(e['section'])}</h5>" if e["section"] else ""
    return head + "<p>" + "<br>".join(lines) + "</p>"


def _plain_events(message: Message, limit: int) -> list[dict[str, Any]]:
    """A message without entries: its text (and its HTML when everything fits one event)."""
    single = {"msgtype": "m.notice", "body": message.text, "m.mentions": {}}
    single |= {"format": "org.matrix.custom.html", "formatted_body": sanitize(message.html)}
    if _size(single) <= limit:
        return [single]
    chunks: list[str] = [""]
    step = limit // 8  # characters: even 6 JSON bytes each stay under the limit
    for line in message.text.splitlines(keepends=True):
        for piece in (line[i : i + step] for i in range(0, len(line), step)):
            if _size({"body": chunks[-1] + piece}) > limit:
                chunks.append("")
            chunks[-1] += piece
    return [{"msgtype": "m.notice", "body": c, "m.mentions": {}} for c in chunks if c.strip()]


def _size(value: dict[str, Any]) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def _clip(text: str, limit: int) -> str:
    text = one_line(text)
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"
