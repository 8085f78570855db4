"""Delivery channels: one module per kind, each a class whose send() delivers one outbox row.

A channel raises DeliveryError(retryable=...) on failure; the outbox decides when to try again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from digest.channels.email import EmailChannel
from digest.channels.file import FileChannel
from digest.channels.matrix import MatrixChannel
from digest.channels.matrix_hook import MatrixHookChannel
from digest.channels.slack import SlackChannel
from digest.models import ChannelConfig, Delivery, Receipt, Settings


class Channel(Protocol):
    """Optional too: `destination` (rows for one destination are sent one after another; others
    concurrently) and `interval` (the fewest seconds between two messages to it)."""

    kind: str

    def send(self, delivery: Delivery) -> Receipt: ...


# Built from the channel's config and the shared settings (SMTP, secrets).
ChannelFactory = Callable[[ChannelConfig, Settings], Channel]

CHANNELS: dict[str, ChannelFactory] = {
    "file": FileChannel,
    "email": EmailChannel,
    "slack": SlackChannel,
    "matrix": MatrixChannel,
    "matrix-hook": MatrixHookChannel,
}

__all__ = [
    "CHANNELS",
    "Channel",
    "ChannelFactory",
    "EmailChannel",
    "FileChannel",
    "MatrixChannel",
    "MatrixHookChannel",
    "SlackChannel",
]
