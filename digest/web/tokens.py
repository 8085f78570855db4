"""Signed links of the web face: each token binds what it may do (a vote on one paper for one
subscriber, an unsubscribe and a keyed digest of the addresses its mail went to, an archive) and
an expiry, under an HMAC-SHA256 of [web].secret.
Rotating the secret voids every link (an unsubscribe a sent digest carries stays good: see
mailed.py); a changed byte fails the constant-time check."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from digest.channels.email import recipients
from digest.models import Settings, Subscriber
from digest.state import Store, reuses
from digest.state.pauses import mailing, normal
from digest.state.web import link_name

VOTE_DAYS = 180  # a rating link in a digest works this long: long enough for a backlog
VOTES = ("up", "down", "none")  # none: take a rating back (undo)
MAC_BYTES = 16  # 128 bits: forging one is as hard as guessing the secret


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """The bytes of `text`, which must be exactly how _b64 writes them: the decoder alone would
    also take a last character whose unused bits differ, padding, or "+" and "/" for "-" and
    "_", so a changed byte could still pass."""
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise ValueError("not in canonical base64url")
    return data


def _parts(token: str) -> tuple[bytes, bytes] | None:
    """The payload and the MAC of a token in its one spelling, unchecked, or None."""
    if len(token) > 2000 or token.count(".") != 1:
        return None
    body, mac = token.split(".")
    try:
        return _unb64(body), _unb64(mac)
    except (ValueError, TypeError):
        return None


def _fields(payload: bytes, kind: str) -> list[Any] | None:
    """The fields after the kind, an int expiry last, of a payload of `kind`, or None."""
    try:
        fields = json.loads(payload)
    except (ValueError, RecursionError):  # "[[[[…": a payload is read before its MAC in claimed()
        return None
    if not isinstance(fields, list) or len(fields) < 2 or fields[0] != kind:
        return None
    expiry = fields[-1]
    if not isinstance(expiry, int) or isinstance(expiry, bool):
        return None
    return fields[1:]


def claimed(token: str, kind: str) -> list[Any] | None:
    """What a well-formed token says, expiry last, checked by no key: only to know where to
    look for it (mailed.py), never to act on."""
    parts = _parts(token)
    return None if parts is None else _fields(parts[0], kind)


class Signer:
    """Makes and checks tokens: base64url(JSON fields) "." base64url(MAC)."""

    def __init__(self, secret: str) -> None:
        # A key of its own for links, so the raw secret is never used for anything else.
        self.key = hashlib.sha256(b"digest web links\x00" + secret.encode()).digest()

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self.key, payload, hashlib.sha256).digest()[:MAC_BYTES]

    def sign(self, *fields: Any) -> str:
        payload = json.dumps(list(fields), ensure_ascii=False, separators=(",", ":")).encode()
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def check(self, token: str, kind: str, now: float) -> list[Any] | None:
        """The token's fields after its kind, or None: forged, damaged, expired or of another
        kind. The last field of every kind is its expiry (0: none)."""
        fields = self._genuine(token, kind)
        if fields is None or (fields[-1] and fields[-1] < now):
            return None
        return fields[:-1]

    def expired(self, token: str, kind: str, now: float) -> list[Any] | None:
        """The fields of a token this signer made whose time is over, or None: such a link
        is not damaged, and its page can say what it was for and what to do instead."""
        fields = self._genuine(token, kind)
        if fields is None or not fields[-1] or fields[-1] >= now:
            return None
        return fields[:-1]

    def _genuine(self, token: str, kind: str) -> list[Any] | None:
        """The fields after the kind, expiry last, of a token signed with this key."""
        parts = _parts(token)
        if parts is None or not hmac.compare_digest(self._mac(parts[0]), parts[1]):
            return None
        return _fields(parts[0], kind)

    def addresses(self, addresses: Iterable[str]) -> str:
        """An unsubscribe link's digest of the addresses its mail went to (normal(): any case,
        any order): keyed, so the link says which they were to this face alone."""
        text = "\n".join(normal(addresses)).encode()
        mac = hmac.new(self.key, b"unsubscribe addresses\x00" + text, hashlib.sha256)
        return _b64(mac.digest()[:MAC_BYTES])

    def archive_key(self, subscriber: str, since: str = "") -> str:
        """The secret path segment of a subscriber's archive and feed. A reused name's present
        reader's is keyed with `since` too (reuses.since(): the run of its first digest): keyed
        by the name alone, the newcomer's mails carried the earlier reader's key, and each read
        the other's digests (ops25 F2). A name never reused keeps the key its mails carry."""
        text = subscriber + (f"\x00{since}" if since else "")
        mac = hmac.new(self.key, b"archive\x00" + text.encode(), hashlib.sha256)
        return _b64(mac.digest()[:MAC_BYTES])


@dataclass(frozen=True)
class Links:
    """The links of one subscriber's messages: what render.py needs, as values and calls."""

    base_url: str
    signer: Signer
    subscriber: str
    expires: int  # epoch seconds for vote links
    # The addresses the subscriber's e-mail goes to (None: not known, a link of before): an
    # older mail's link had named the subscriber alone, and after a rename and the name given
    # to another reader it stopped the newcomer's mail, never the clicker's.
    addresses: tuple[str, ...] | None = None
    since: str = ""  # a reused name's present reader: the cut its archive key is keyed with

    def vote(self, paper_id: str, vote: str) -> str:
        # A long id by its hash: whole, it made a token over what check() takes (and Slack a
        # button's value), and the link never worked.
        token = self.signer.sign("v", self.subscriber, link_name(paper_id), vote, self.expires)
        return f"{self.base_url}/r/{token}"

    def unsubscribe(self) -> str:
        # No expiry: an old mail's unsubscribe link must still work (after a rotation too: the
        # face finds it in the digests it sent, mailed.py).
        if self.addresses is None:
            return f"{self.base_url}/u/{self.signer.sign('u', self.subscriber, 0)}"
        went = self.signer.addresses(self.addresses)
        return f"{self.base_url}/u/{self.signer.sign('u', self.subscriber, went, 0)}"

    def archive(self) -> str:
        return f"{self.base_url}/a/{self.signer.archive_key(self.subscriber, self.since)}/"

    def digest_page(self, period: str) -> str:
        return f"{self.archive()}d/{quote(period, safe='')}"


def addresses_of(subscriber: Subscriber) -> tuple[str, ...]:
    """Every address of the subscriber's e-mail channels: those its mail goes to."""
    return normal(
        a for to in mailing([subscriber], recipients)[subscriber.name].values() for a in to
    )


def links_for(
    web: Mapping[str, Any], subscriber: str | Subscriber, now: datetime, since: str = ""
) -> Links | None:
    """The subscriber's links when [web] is set, else None (digests then carry no links). Given
    the Subscriber, its unsubscribe link says the addresses its mail goes to; given a name, it
    names the subscriber alone, as links did before. `since`: the archive key's (Links.since)."""
    if not web:
        return None
    expires = int(now.timestamp()) + VOTE_DAYS * 86400
    base, signer = str(web["base_url"]).rstrip("/"), Signer(str(web["secret"]))
    if isinstance(subscriber, str):
        return Links(base, signer, subscriber, expires, since=since)
    return Links(base, signer, subscriber.name, expires, addresses_of(subscriber), since)


def links_in(
    settings: Settings, store: Store, subscriber: Subscriber, now: datetime
) -> Links | None:
    """links_for() of a subscriber as a run renders its mail: of a reused name, its present
    reader's archive key (reuses.since; the cut is this run's clock on its first digest)."""
    at = None
    if settings.web and reuses.maybe(store.web.db, subscriber.name, addresses_of(subscriber)):
        whole = mailing(settings.subscribers, recipients)  # only then: a run renders thousands
        at = reuses.since(store.web, subscriber.name, whole)
    return links_for(settings.web, subscriber, now, at or "")
