"""Slack's interactivity requests: the v0 signature (HMAC-SHA256 of `v0:{timestamp}:{body}` under
the app's signing secret, timestamps at most five minutes off) and the votes a block_actions
payload carries (each button's value is a signed rating link of ours)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qs, urlsplit

from digest.channels.slack import escape

MAX_SKEW = 300  # seconds: Slack's advice against replayed requests
# Where a payload's response_url may point: Slack's own hooks, nowhere else (no request of ours
# goes where a payload says unless it is Slack).
RESPONSE_HOSTS = {"hooks.slack.com"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
SECTION_CHARS = 3000  # Slack's limit for a section's text
TITLE_CHARS = 300  # a title in the confirmation: enough to recognize it


def signed(body: bytes, headers: Mapping[str, str], secrets: Iterable[str], now: float) -> bool:
    """True when one of the signing secrets signed this body, recently."""
    stamp = headers.get("x-slack-request-timestamp", "")
    given = headers.get("x-slack-signature", "")
    # isascii: "²".isdigit() holds, and int() would raise on it; at most 12 digits: a float of
    # 309 overflows, and int() refuses 4,300 (a 500 for anyone, before the signature's check).
    digits = stamp.isascii() and stamp.isdigit() and len(stamp) <= 12
    if not digits or abs(now - int(stamp)) > MAX_SKEW or not given.startswith("v0="):
        return False
    base = b"v0:" + stamp.encode() + b":" + body
    ok = False
    for secret in secrets:  # every secret is tried: the time taken says nothing of which matched
        mine = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
        ok = hmac.compare_digest(mine.encode(), given.encode()) or ok
    return ok


def request_key(headers: Mapping[str, str]) -> tuple[str, int]:
    """(a key for this signed request, the last second its timestamp is accepted): a hash of
    the signature, which covers timestamp and body, so a replay or Slack's own retry has the same
    key. The state database keeps it (votes.py) for every web replica; call it after signed()."""
    given = headers.get("x-slack-signature", "")
    until = int(headers.get("x-slack-request-timestamp", "0")) + MAX_SKEW
    return hashlib.sha256(given.encode()).hexdigest(), until


def votes(body: bytes) -> tuple[list[str], str] | None:
    """(the tokens of the buttons clicked, the payload's response_url) from a form-encoded
    `payload=<JSON>` body; ([], "") for a payload of another type; None for a body that is no
    such payload or whose values have the wrong shapes (actions not a list of objects, a value
    or response_url not a string): signed or not, it is refused."""
    try:
        form = parse_qs(body.decode("utf-8"), max_num_fields=10)
        payload = json.loads(form.get("payload", [""])[0])
    except (UnicodeDecodeError, ValueError, RecursionError):  # nested past the stack: refused
        return None
    if not isinstance(payload, dict):
        return None
    if payload.get("type") != "block_actions":
        return [], ""
    actions, url = payload.get("actions", []), payload.get("response_url", "")
    if not isinstance(actions, list) or not isinstance(url, str):
        return None
    tokens = []
    for action in actions:
        value = action.get("value", "") if isinstance(action, dict) else None
        if not isinstance(value, str):
            return None
        if "/r/" in value:
            tokens.append(value.rsplit("/r/", 1)[1])
    return tokens, url


def response_allowed(url: str) -> bool:
    """https:// to Slack's hooks (http:// only on loopback, for a local stand-in)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = parts.hostname or ""
    scheme_ok = parts.scheme == "https" or (parts.scheme == "http" and host in LOOPBACK)
    return scheme_ok and host in RESPONSE_HOSTS


def confirmation(recorded: list[tuple[str, str]]) -> dict[str, object]:
    """The ephemeral message that tells the clicker (only them) what was recorded. Titles come
    from the internet: the message is a plain_text section (mrkdwn has no escape for *, _, ~
    and `), and `text`, the notification, has &, < and > escaped: nothing pings or links."""
    words = {"up": "👍 more like this", "down": "👎 less like this"}
    lines = [f"Recorded {words.get(vote, vote)}: {_clip(title)}" for title, vote in recorded]
    said = ("\n".join(lines) + "\nThe next digest follows it.")[:SECTION_CHARS]
    return {
        "response_type": "ephemeral",
        "replace_original": False,
        "text": escape(said),
        "blocks": [
            {"type": "section", "text": {"type": "plain_text", "text": said, "emoji": True}}
        ],
    }


def _clip(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"
