"""The unsubscribe links the digest mailed: a `u` token that one of a subscriber's sent mails (a
digest, an alert, a notice) carries is theirs whatever secret signed it, so rotating [web].secret
leaves the one-click unsubscribe of every older mail working (a provider posts it once)."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from digest.state import Store

FIRST = 16  # a channel's newest mails read at first; four times as many while there are more
MOST = 2048  # a channel's newest mails read at all: years of daily digests and their alerts


class Mailed:
    """Per subscriber, the unsubscribe tokens their sent mails carry: each channel's history
    read once per face, then only what was sent since. A token is one per secret, so the set
    stays tiny; a forged token costs one look at each channel's newest mails."""

    def __init__(self) -> None:
        # One read at a time: a flood of forged tokens naming many readers holds one history in
        # memory, not one per waiting request.
        self.lock = threading.Lock()
        self.read: dict[tuple[str, str], int] = {}  # (subscriber, channel): newest row read
        self.tokens: dict[str, frozenset[str]] = {}

    def carries(self, store: Store, subscriber: str, channels: Iterable[str], token: str) -> bool:
        """True when a sent mail of the subscriber (a digest, an alert or a notice: a reader on
        alerts alone had no digest to carry it), in one of these channels, carries this very
        unsubscribe token."""
        with self.lock:
            known = set(self.tokens.get(subscriber, ()))
            if token not in known:
                for channel in channels:
                    known |= self._since(store, subscriber, channel)
                self.tokens[subscriber] = frozenset(known)
        return token in known

    def _since(self, store: Store, subscriber: str, channel: str) -> set[str]:
        """The tokens of the channel's mails sent since the last read, up to MOST of them."""
        last, limit = self.read.get((subscriber, channel), 0), FIRST
        rows = store.web.sent_messages(subscriber, channel, limit)
        while len(rows) == limit and rows[-1].row_id > last and limit < MOST:
            limit = min(limit * 4, MOST)
            rows = store.web.sent_messages(subscriber, channel, limit)
        if rows:
            self.read[(subscriber, channel)] = max(last, rows[0].row_id)
        links = (r.message.unsubscribe_url for r in rows if r.row_id > last)
        # base_url may have changed since: the token alone counts.
        return {link.rsplit("/u/", 1)[1] for link in links if "/u/" in link}
