"""The delivery loop: send the outbox rows that are due, then mark each sent, pending or dead.

A failure is retried with exponential backoff and jitter (or the server's Retry-After, when
longer) on the run's clock, up to MAX_ATTEMPTS; one channel failing never stops the others.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from digest.channels import CHANNELS
from digest.models import ChannelConfig, Delivery, DeliveryError, Settings, redact
from digest.store import OutboxRow, Store

log = logging.getLogger("digest.outbox")

MAX_ATTEMPTS = 8
FIRST_BACKOFF = 60.0  # seconds; doubles each attempt
MAX_BACKOFF = 6 * 3600.0


@dataclass
class Outcome:
    sent: list[str] = field(default_factory=list)  # "alice/file: out/2026-11-30/alice.eml"
    retrying: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)


def backoff(attempts: int, retry_after: float | None, rand: Callable[[], float]) -> float:
    """Seconds to wait after the given number of failed attempts (jitter spreads a herd)."""
    delay = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** (attempts - 1)) * (0.8 + 0.4 * rand())
    return max(delay, retry_after or 0.0)


def deliver(
    store: Store,
    settings: Settings,
    now: datetime,
    *,
    channels: Mapping[str, type] | None = None,
    rand: Callable[[], float] = random.random,
) -> Outcome:
    registry = CHANNELS if channels is None else channels
    outcome = Outcome()
    for row in store.due(now):
        label = f"{row.subscriber}/{row.channel}"
        config = _channel_config(settings, row)
        if config is None:
            store.mark_failed(row.id, "the channel is no longer in the config", None)
            outcome.dead.append(f"{label}: the channel is no longer in the config")
            continue
        delivery = Delivery(
            id=row.id,
            subscriber=row.subscriber,
            period=row.period,
            day=row.day,
            channel=config,
            message=row.message,
            attempts=row.attempts,
        )
        try:
            receipt = registry[config.kind](config, settings).send(delivery)
        except DeliveryError as exc:
            reason = redact(str(exc), settings.secrets)
            attempts = row.attempts + 1
            if exc.retryable and attempts < MAX_ATTEMPTS:
                wait = backoff(attempts, exc.retry_after, rand)
                store.mark_failed(row.id, reason, now + timedelta(seconds=wait))
                log.warning(
                    "%s: attempt %d failed (%s); next try in %.0f s", label, attempts, reason, wait
                )
                outcome.retrying.append(f"{label}: {reason}")
            else:
                store.mark_failed(row.id, reason, None)
                log.error("%s: delivery is dead after %d attempt(s): %s", label, attempts, reason)
                outcome.dead.append(f"{label}: {reason}")
            continue
        store.mark_sent(row.id, receipt.detail, now)
        log.info("%s: delivered (%s)", label, receipt.detail)
        outcome.sent.append(f"{label}: {receipt.detail}")
    return outcome


def _channel_config(settings: Settings, row: OutboxRow) -> ChannelConfig | None:
    # Today's config, not the one at render time: a fixed webhook or token applies on retry.
    for sub in settings.subscribers:
        if sub.name == row.subscriber:
            for channel in sub.channels:
                if channel.name == row.channel and channel.kind == row.kind:
                    return channel
    return None
