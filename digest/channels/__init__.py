"""Delivery channels: one module per kind, each a class whose send() delivers one outbox row.

A channel raises DeliveryError(retryable=...) on failure; the outbox decides when to try again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from digest.channels.file import FileChannel
from digest.models import ChannelConfig, Delivery, Receipt, Settings


class Channel(Protocol):
    kind: str

    def send(self, delivery: Delivery) -> Receipt: ...


# Built from the channel's config and the shared settings (SMTP, secrets).
ChannelFactory = Callable[[ChannelConfig, Settings], Channel]

CHANNELS: dict[str, ChannelFactory] = {
    "file": FileChannel,
}

__all__ = ["CHANNELS", "Channel", "ChannelFactory", "FileChannel"]
