"""The Slack channel: an incoming webhook, Block Kit, split to Slack's limits, posted at most once.

A header, two sections per paper, a context line; `text` is the notification (it names the paper
of a one-paper message, an alert). mrkdwn has no escape for *, _, ~ and ` (Slack documents
escapes for &, < and > only, and `verbatim` stops links and mentions, not bold): every untrusted
text (the title, authors, venue, matched words, snippet, "closest to", an alert's reasons)
travels as plain_text, which Slack never formats. The mrkdwn line holds only digest's links (the
paper, PDF, code; &, <, > escaped) and the id as a code span, `verbatim`, so nothing pings.
"""

from __future__ import annotations

import hashlib
from typing import Any

from digest.channels.transport import (
    Answer,
    answer,
    client,
    one_line,
    post_at_most_once,
    receipt_detail,
    retry_after,
)
from digest.models import ChannelConfig, Delivery, DeliveryError, Entry, Message, Receipt, Settings

# Slack's documented limits for one message.
MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_HEADER = 150
# Undocumented: all the text of a message's blocks together. Slack answers msg_blocks_too_long
# from about 12,000 characters "with a buffer for block containers", and has refused 11,341
# (slackapi/bolt-js#2509, #2867): 10,000 leaves room for the JSON around them.
MAX_TEXT = 10_000
MAX_NOTIFICATION = 300
# What Slack's webhook answers mean; every 4xx is permanent, 429 and 5xx are tried again.
HINTS = {
    "invalid_payload": "Slack could not read the message",
    "invalid_blocks": "a block broke Slack's rules",
    "invalid_blocks_format": "a block broke Slack's rules",
    "msg_blocks_too_long": "the blocks hold too much text in all (a user template's footer?)",
    "msg_too_long": "the message is too long",
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
    at_most_once = True  # no idempotency key: the outbox records a confirmed row at once

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config
        self.webhook = str(config.options["webhook"])
        # A webhook URL is a secret: the destination is named by a digest of it.
        self.destination = "slack:" + hashlib.sha256(self.webhook.encode()).hexdigest()[:16]

        # With the Slack app's signing secret the web face can check its clicks: buttons then.
        self.buttons = bool(config.options.get("signing_secret"))

    def send(self, delivery: Delivery) -> Receipt:
        payloads = messages(delivery.message, self.buttons)
        with client() as http:
            posted = post_at_most_once(http, self.webhook, payloads, delivery, refusal, "slack")
        detail = receipt_detail("slack", delivery, posted, len(payloads), "message", "via webhook")
        return Receipt(self.kind, detail)


def refusal(response: Answer) -> DeliveryError:
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
    """The Block Kit payloads for a message, in order, each within Slack's limits: 50 blocks,
    3,000 characters a section, MAX_TEXT characters of text in all. With `buttons`, each paper
    that has rating links gets a 👍 / 👎 actions block; a paper's blocks stay in one message.
    The split counts the buttons either way: a retry resumes at the part number of the first
    try's split, which a signing_secret added or removed since must not move."""
    papers = [[*_heading(e), *_paper_blocks(e), *_buttons(e)] for e in message.entries]
    papers = papers or [[_section(escape(c))] for c in _chunks(message.text, MAX_SECTION - 200)]
    title = message.heading or message.subject
    footer = _clip(message.footer or message.subject, 2000)
    frame = MAX_HEADER + len(footer)  # the header and the context line of each part
    groups: list[list[dict[str, Any]]] = [[]]
    size = frame
    for blocks in papers:
        grown = sum(_text_size(b) for b in blocks)
        full = len(groups[-1]) + len(blocks) > MAX_BLOCKS - 2 or size + grown > MAX_TEXT
        if groups[-1] and full:
            groups.append([])
            size = frame
        groups[-1].extend(blocks)
        size += grown
    notification = title
    if len(message.entries) == 1:  # an alert: the notification says which paper
        notification = f"{title}: {message.entries[0].title}"
    out = []
    for number, group in enumerate(groups, start=1):
        part = f" ({number}/{len(groups)})" if len(groups) > 1 else ""
        heading = _clip(title, MAX_HEADER - len(part)) + part
        # Plain: an alert's footer names the paper's authors (and digest's own footer needs no
        # markup).
        context = {"type": "plain_text", "text": footer, "emoji": False}
        shown = [b for b in group if buttons or b["type"] != "actions"]
        out.append(
            {
                # The notification; mrkdwn, so escaped too.
                "text": escape(_clip(notification, MAX_NOTIFICATION - len(part)) + part),
                "blocks": [
                    {"type": "header", "text": {"type": "plain_text", "text": heading}},
                    *shown,
                    {"type": "context", "elements": [context]},
                ],
                "unfurl_links": False,
                "unfurl_media": False,
            }
        )
    return out


def _buttons(entry: Entry) -> list[dict[str, Any]]:
    """👍 / 👎 for one paper: each button's value is the signed rating link, which the web face
    checks at {base_url}/slack/actions. A link over Slack's 2,000 characters gets no buttons: cut
    there, its token no longer checked and a click recorded nothing, with no word of it."""
    if not (entry.up_url and entry.down_url):
        return []
    if max(len(entry.up_url), len(entry.down_url)) > 2000:  # Slack's bound on a value
        return []
    elements = [
        {
            "type": "button",
            "action_id": f"digest-{vote}-{entry.rank}",  # unique within the message
            "text": {"type": "plain_text", "text": label, "emoji": True},
            "value": url,
        }
        for vote, label, url in (
            ("up", "👍 more like this", entry.up_url),
            ("down", "👎 less like this", entry.down_url),
        )
    ]
    return [{"type": "actions", "block_id": f"rate-{entry.rank}", "elements": elements}]


def _heading(entry: Entry) -> list[dict[str, Any]]:
    """The heading of the section this paper opens (a digest's held alerts, its ranked picks), in
    bold. It is digest's own words, but mrkdwn has no escape for * _ ~ `: none is left in it."""
    if not entry.section:
        return []
    words = escape(_clip(entry.section, 300)).translate(_MARKS)
    return [_section(f"*{words}*")]


_MARKS = str.maketrans("", "", "*_~`")


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text, "verbatim": True}}


def _plain(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "plain_text", "text": text, "emoji": False}}


def _text_size(block: dict[str, Any]) -> int:
    """The text a block holds: a section's, or its elements' (an actions block's labels)."""
    if "text" in block:
        return len(block["text"]["text"])
    return sum(len(e.get("text", {}).get("text", "")) for e in block.get("elements", ()))


def _paper_blocks(entry: Entry) -> list[dict[str, Any]]:
    """A paper: its untrusted text as plain_text (rank and title, authors, venue and score, the
    matched words, "closest to", the snippet shortened to a section's 3,000 characters), then its
    mrkdwn line (the id, the paper, PDF and code links)."""
    facts = [_clip(x, 300) for x in (entry.authors, entry.venue) if x]
    if entry.score:
        facts.append(f"score {entry.score}")
    plain = [f"{entry.rank}. {_clip(entry.title, 500)}", " · ".join(facts)]
    if entry.terms:
        plain.append(_clip(f"why: matched {', '.join(entry.terms)}", 300))
    if entry.because:
        plain.append(_clip(entry.because, 300))
    room = MAX_SECTION - sum(len(p) + 1 for p in plain)
    if entry.snippet and room > 20:
        plain.append(_clip(entry.snippet, room))
    blocks = [_plain("\n".join(p for p in plain if p))]
    marks = (
        [f"id `{escape(_clip(entry.paper_id.replace('`', ''), 200))}`"] if entry.paper_id else []
    )
    links = ((entry.url, "paper"), (entry.pdf_url, "PDF"), (entry.code_url, "code"))
    marks += [link(u, label) for u, label in links if u]
    line = " · ".join(marks)
    if len(line) > MAX_SECTION:  # links too long for a section: the id alone
        line = marks[0] if entry.paper_id else ""
    return [*blocks, _section(line)] if line else blocks


def _clip(text: str, limit: int) -> str:
    text = one_line(text)
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    # At a word's end when one is near: a title without spaces (Chinese) is cut where it must be,
    # not back to the space before it, which left an alert's notification naming no paper.
    space = cut.rfind(" ")
    return (cut[:space] if space >= len(cut) - 40 else cut) + "…"


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
