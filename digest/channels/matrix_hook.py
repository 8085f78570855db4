"""The matrix-hook channel: a matrix-hookshot generic webhook (POST {text, html} to the hook URL).

What many users mean by "a Matrix webhook": no access token, but also no idempotency key, so
parts are posted at most once, like Slack. The parts are the Matrix channel's, sanitized alike.
"""

from __future__ import annotations

import hashlib

from digest.channels.matrix import MAX_CONTENT, events
from digest.channels.transport import (
    Answer,
    answer,
    client,
    post_at_most_once,
    receipt_detail,
    retry_after,
)
from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings

# Hookshot copies the whole request into the event it sends (its "webhook_data" key), so the event
# holds the text and the HTML twice: each part is half a Matrix event's content, or the homeserver
# refuses the event after hookshot has answered 200, and the part is lost unseen.
HOOK_CONTENT = MAX_CONTENT // 2 - 1_000


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
            for e in events(delivery.message, HOOK_CONTENT, replies=False)
        ]
        with client() as http:
            posted = post_at_most_once(http, self.url, payloads, delivery, refusal, "matrix-hook")
        detail = receipt_detail(
            "matrix-hook", delivery, posted, len(payloads), "message", "via hookshot"
        )
        return Receipt(self.kind, detail)


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
