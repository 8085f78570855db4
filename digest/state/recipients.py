"""Which channel of today's config an outbox row goes to: its subscriber's of that name and kind,
or none, when the name is gone from the config or the row was made for an earlier reader of a
name reused since (reuses.py: who held the name when)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from digest.models import ChannelConfig, Settings
from digest.state.deliveries import OutboxRow
from digest.state.holders import Holders
from digest.state.pauses import mailing
from digest.state.reuses import present
from digest.state.web import Web

GONE = "the channel is no longer in the config"
EARLIER = "made for an earlier reader of the name, whose channel is no longer in the config"


def channel_config(settings: Settings, row: OutboxRow) -> ChannelConfig | None:
    # Today's config, not the one at render time: a fixed webhook or token applies on retry.
    mine = (c for s in settings.subscribers if s.name == row.subscriber for c in s.channels)
    return next((c for c in mine if c.name == row.channel and c.kind == row.kind), None)


class Recipients:
    """A delivery pass's rows, each to its channel of today's config and why none. A row left
    pending (the relay down) when its name was reused (dana renamed dana1, a newcomer named
    dana at d2@) had been sent on the newcomer's channel: her digest, her archive key and an
    unsubscribe link that stops dana1, mailed to him (ops27 F1). It is dead, as after the
    rename alone (the row's name gone from the config). `recipients` reads an e-mail channel's
    `to` as the channel does; who held a name when is read once, on the first row's call, and
    for the reused names alone (reuses.present: a pass sends thousands)."""

    def __init__(
        self, settings: Settings, web: Web, recipients: Callable[[Any], list[str]]
    ) -> None:
        self.settings, self.web, self.recipients = settings, web, recipients
        self._reused: dict[str, Holders] | None = None

    def __call__(self, row: OutboxRow) -> tuple[ChannelConfig | None, str]:
        config = channel_config(self.settings, row)
        if config is None:
            return None, GONE
        if self._reused is None:
            self._reused = present(self.web, mailing(self.settings.subscribers, self.recipients))
        found = self._reused.get(row.subscriber)
        # A row is stamped with its run's clock, as the readers' spans are (holders.py).
        if found is not None and not found.present.holds(row.created_at):
            return None, EARLIER
        return config, ""
