"""The Slack channel: an incoming webhook, Block Kit, split to Slack's limits, posted at most once.

A header, one section per paper, a context line; `text` is the notification fallback. Untrusted
text is escaped for mrkdwn and every text object is `verbatim`, so an abstract pings nobody.
"""

from __future__ import annotations

import hashlib
from typing import Any

import httpx

from digest.channels.transport import answer, post_at_most_once, retry_after, session
from digest.models import ChannelConfig, Delivery, DeliveryError, Entry, Message, Receipt, Settings

# Slack's documented limits for one message.
MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_HEADER = 150
# What Slack's webhook answers mean; every 4xx is permanent, 429 and 5xx are tried again.
HINTS = {
    "invalid_payload": "Slack could not read the message",
    "invalid_blocks": "a block broke Slack's rules",
    "invalid_blocks_format": "a block broke Slack's rules",
    "no_text": "the message had no text",
    "action_prohibited": "an admin has restricted posting to this channel",
    "invalid_token": "the webhook's token is no longer valid",
    "no_service": "the webhook is disabled, removed or wrong",
    "no_service_id": "the webhook URL is incomplete",
    "no_team": "the workspace is gone",
    "team_disabled": "the workspace is disabled",
    "channel_not_found": "the channel was deleted",
    "channel_is_archived": "the channel is archived",
    "posting_to_general_channel_denied": "only admins may post to this channel",
}


class SlackChannel:
    kind = "slack"
    interval = 1.0  # Slack allows about one message per second per webhook

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config
        self.webhook = str(config.options["webhook"])
        # A webhook URL is a secret: the destination is named by a digest of it.
        self.destination = "slack:" + hashlib.sha256(self.webhook.encode()).hexdigest()[:16]

        # With the Slack app's signing secret the web face can check its clicks: buttons then.
        self.buttons = bool(config.options.get("signing_secret"))

    def send(self, delivery: Delivery) -> Receipt:
        payloads = messages(delivery.message, self.buttons)
        with session() as http:
            post_at_most_once(http, self.webhook, payloads, delivery, refusal, "slack")
        count = len(payloads)
        return Receipt(self.kind, f"{count} message{'s' if count > 1 else ''} via webhook")


def refusal(response: httpx.Response) -> DeliveryError:
    status, said = response.status_code, answer(response, 80)
    if status == 429:
        wait = retry_after(response)
        return DeliveryError("slack: rate limited (429)", retryable=True, retry_after=wait or 1.0)
    hint = HINTS.get(said)
    reason = f"slack answered {status} {said}" + (f": {hint}" if hint else "")
    return DeliveryError(reason, retryable=status >= 500)


def escape(text: str) -> str:
    """mrkdwn-safe text: Slack reads &, < and > as markup (<!channel>, <url|label>)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def link(url: str, label: str) -> str:
    # In <url|label> the URL must not close the link or start a label: percent-encode those.
    safe = url.replace("|", "%7C").replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")
    return f"<{escape(safe)}|{escape(label)}>"


def messages(message: Message, buttons: bool = False) -> list[dict[str, Any]]:
    """The Block Kit payloads for a message, in order, each within Slack's limits; with
    `buttons`, each paper that has rating links gets a 👍 / 👎 actions block."""
    papers = [[_section(_paper(e)), *_buttons(e, buttons)] for e in message.entries] or [
        [_section(escape(chunk))] for chunk in _chunks(message.text, MAX_SECTION - 200)
    ]
    per_message = MAX_BLOCKS - 2  # a header and a context line frame each message
    groups: list[list[dict[str, Any]]] = [[]]
    for blocks in papers:  # a paper's section and its buttons stay in one message
        if groups[-1] and len(groups[-1]) + len(blocks) > per_message:
            groups.append([])
        groups[-1].extend(blocks)
    title = message.heading or message.subject
    footer = message.footer or message.subject
    out = []
    for number, group in enumerate(groups, start=1):
        part = f" ({number}/{len(groups)})" if len(groups) > 1 else ""
        heading = _clip(title, MAX_HEADER - len(part)) + part
        context = {"type": "mrkdwn", "text": escape(_clip(footer, 2000)), "verbatim": True}
        out.append(
            {
                "text": escape(heading),  # the notification; mrkdwn, so escaped too
                "blocks": [
                    {"type": "header", "text": {"type": "plain_text", "text": heading}},
                    *group,
                    {"type": "context", "elements": [context]},
                ],
                "unfurl_links": False,
                "unfurl_media": False,
            }
        )
    return out


def _buttons(entry: Entry, wanted: bool) -> list[dict[str, Any]]:
    """👍 / 👎 for one paper: each button's value is the signed rating link (under Slack's 2000
    characters), which the web face checks at {base_url}/slack/actions."""
    if not (wanted and entry.up_url and entry.down_url):
        return []
    elements = [
        {
            "type": "button",
            "action_id": f"digest-{vote}-{entry.rank}",  # unique within the message
            "text": {"type": "plain_text", "text": label, "emoji": True},
            "value": url[:2000],
        }
        for vote, label, url in (
            ("up", "👍 more like this", entry.up_url),
            ("down", "👎 less", entry.down_url),
        )
    ]
    return [{"type": "actions", "block_id": f"rate-{entry.rank}", "elements": elements}]


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}


def _paper(entry: Entry) -> str:
    """One paper as mrkdwn, shortening its snippet until it fits a section's 3000 characters."""
    snippet = entry.snippet
    while True:
        text = _paper_text(entry, snippet)
        if len(text) <= MAX_SECTION or not snippet:
            return text[:MAX_SECTION] if len(text) > MAX_SECTION else text
        snippet = _clip(snippet, max(0, len(snippet) - (len(text) - MAX_SECTION) - 8))


def _paper_text(entry: Entry, snippet: str) -> str:
    title = _clip(entry.title, 500)
    name = link(entry.url, title) if entry.url else escape(title)
    lines = [f"*{entry.rank}.* {name}"]
    facts = [escape(_clip(x, 300)) for x in (entry.authors, entry.venue) if x]
    if entry.score:
        facts.append(f"score {escape(entry.score)}")
    if entry.paper_id:
        facts.append(f"id `{escape(entry.paper_id)}`")
    if facts:
        lines.append(" · ".join(facts))
    why = [f"matched {escape(', '.join(entry.terms))}"] if entry.terms else []
    if entry.because:
        why.append(escape(_clip(entry.because, 300)))
    if why:
        lines.append("_why: " + " — ".join(why) + "_")
    if snippet:
        lines.append(escape(snippet))
    extra = [link(u, label) for u, label in ((entry.pdf_url, "PDF"), (entry.code_url, "code")) if u]
    if extra:
        lines.append(" · ".join(extra))
    return "\n".join(lines)


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut + "…"


def _chunks(text: str, size: int) -> list[str]:
    """Text cut at line ends (long lines anywhere) into pieces under `size` once escaped."""
    pieces: list[str] = []
    current = ""
    for line in text.splitlines():
        for part in _split_long(line, size):
            candidate = f"{current}\n{part}" if current else part
            if current and len(escape(candidate)) > size:
                pieces.append(current)
                candidate = part
            current = candidate
    pieces.append(current)
    return [p for p in pieces if p.strip()] or ["(empty)"]


def _split_long(line: str, size: int) -> list[str]:
    out, current, width = [], "", 0
    for char in line:
        grown = len(escape(char))
        if width + grown > size:
            out.append(current)
            current, width = "", 0
        current, width = current + char, width + grown
    out.append(current)
    return out
