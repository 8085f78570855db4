"""The matrix-hook channel: a matrix-hookshot generic webhook (POST {text, html} to the hook URL).

What many users mean by "a Matrix webhook": no access token, but also no idempotency key, so
parts are posted at most once, like Slack. The parts are the Matrix channel's, sanitized alike,
with every mention ("@room", "@ana:example.org") broken: hookshot cannot send m.mentions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from typing import Any

from digest.channels.matrix import MAX_CONTENT, events, sanitize
from digest.channels.transport import (
    Answer,
    answer,
    client,
    post_at_most_once,
    receipt_detail,
    retry_after,
)
from digest.models import (
    ChannelConfig,
    Delivery,
    DeliveryError,
    Entry,
    Message,
    Receipt,
    Settings,
)

# Hookshot copies the whole request into the event it sends (its "webhook_data" key), so the event
# holds the text and the HTML twice: each part is half a Matrix event's content, or the homeserver
# refuses the event after hookshot has answered 200, and the part is lost unseen.
HOOK_CONTENT = MAX_CONTENT // 2 - 1_000
# Hookshot's event has no m.mentions, so Matrix's older rules notify on "@room" (the whole room,
# when the bot may: hookshot's setup makes it a moderator) and clients pill a user id, wherever
# the text came from. The "@" that starts either is broken: a WORD JOINER after it, invisible, or
# %40 in a link, which leads to the same place.
MENTION = re.compile(r"@(?=room|[^\s:@]+:[0-9a-z\[])", re.IGNORECASE)
JOINER = "\u2060"
# A tag of sanitized HTML (nh3 quotes every attribute with "): its href is left as it is.
_TAG = re.compile(r'(<(?:[^>"]|"[^"]*")*>)')


class MatrixHookChannel:
    kind = "matrix-hook"
    interval = 0.0
    at_most_once = True  # no idempotency key: the outbox records a confirmed row at once

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config
        self.url = str(config.options["url"])
        # The hook URL is its own secret: the destination is named by a digest of it.
        self.destination = "matrix-hook:" + hashlib.sha256(self.url.encode()).hexdigest()[:16]

    def send(self, delivery: Delivery) -> Receipt:
        payloads = [
            {"text": e["body"], **({"html": e["formatted_body"]} if "formatted_body" in e else {})}
            # Nothing reads a hookshot room's replies: its readers rate by [web]'s links.
            for e in events(unmentioned(delivery.message), HOOK_CONTENT, replies=False)
        ]
        with client() as http:
            posted = post_at_most_once(http, self.url, payloads, delivery, refusal, "matrix-hook")
        detail = receipt_detail(
            "matrix-hook", delivery, posted, len(payloads), "message", "via hookshot"
        )
        return Receipt(self.kind, detail)


def unmentioned(message: Message) -> Message:
    """The message with each mention in its text, its HTML and its papers broken; before the
    parts are made, so that their sizes count the characters this adds."""
    return dataclasses.replace(
        message,
        subject=_text(message.subject),
        text=_text(message.text),
        html=_html(message.html),
        heading=_text(message.heading),
        footer=_text(message.footer),
        entries=tuple(_entry(e) for e in message.entries),
    )


def _entry(entry: Entry) -> Entry:
    values = {name: getattr(entry, name) for name in Entry.__dataclass_fields__}
    texts: dict[str, Any] = {n: _text(v) for n, v in values.items() if isinstance(v, str)}
    return dataclasses.replace(entry, **texts, terms=tuple(_text(t) for t in entry.terms))


def _text(text: str) -> str:
    return re.sub(r"\S+", _word, text) if "@" in text else text


def _word(match: re.Match[str]) -> str:
    word = match.group()
    return MENTION.sub("%40" if "://" in word else "@" + JOINER, word)


def _html(markup: str) -> str:
    # Sanitized first: "&#64;room" is an "@" to a client, and nh3 writes it out as one.
    pieces = _TAG.split(sanitize(markup))
    return "".join(piece if n % 2 else _text(piece) for n, piece in enumerate(pieces))


def refusal(response: Answer) -> DeliveryError:
    status = response.status_code
    if status == 429:
        wait = retry_after(response)
        return DeliveryError(
            "matrix-hook: rate limited (429)", retryable=True, retry_after=wait or 1.0
        )
    hint = (
        " (hookshot does not know this webhook: removed, or a wrong URL)" if status == 404 else ""
    )
    return DeliveryError(
        f"matrix-hook answered {status} {answer(response, 120)}{hint}", retryable=status >= 500
    )
