"""Deliveries per second to each channel's local server (the test suite's servers, on 127.0.0.1).

Run on demand: `.venv/bin/python -m bench.channels [N]` (needs the test extra: aiosmtpd, Synapse).
Slack's own pace (one message per second per webhook) is not applied here: this measures the
channel and the server, not the rate limit.
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from channel_servers import Hookshot, LoopbackSMTP, Mailbox, SlackWebhook  # noqa: E402
from homeserver import shared  # noqa: E402
from sample_digests import delivery, message, paper  # noqa: E402

from digest import outbox  # noqa: E402
from digest.channels import CHANNELS  # noqa: E402
from digest.models import (  # noqa: E402
    ChannelConfig,
    Digest,
    Message,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store  # noqa: E402

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)


def rate(count: int, channel: Any, msg: Message, kind: str, options: dict[str, str]) -> float:
    start = time.perf_counter()
    for row in range(1, count + 1):
        channel.send(delivery(msg, kind, options, row))
    return count / (time.perf_counter() - start)


def main(count: int) -> None:
    msg = message(10)  # a ten-paper digest: about 5 KB of text and 14 KB of HTML
    mailbox, slack, hook = Mailbox(), SlackWebhook(rate=1e9, burst=1e9), Hookshot()
    smtp = LoopbackSMTP(mailbox)
    smtp.start()
    server = shared(relaxed=True)
    token = server.register("benchbot")
    room = server.create_room(token)
    mail = {"host": "127.0.0.1", "port": smtp.port, "from": "d <d@example.org>", "security": "none"}
    settings = Settings("bench", (), (), smtp=mail)
    targets = {
        "email": {"to": "ana@example.org"},
        "slack": {"webhook": slack.url()},
        "matrix": {"homeserver": server.url, "room": room, "token": token},
        "matrix-hook": {"url": hook.url()},
    }
    print(f"{count} deliveries of a 10-paper digest to each server, one after another:")
    try:
        for kind, options in targets.items():
            channel = CHANNELS[kind](ChannelConfig(kind, kind, options), settings)
            per_second = rate(count, channel, msg, kind, options)
            print(f"  {kind:<12} {per_second:7.1f} deliveries/s")
        print(f"the outbox, {count} rows over all four kinds at once (concurrency 4):")
        print(f"  {'all':<12} {through_outbox(count, targets, settings):7.1f} deliveries/s")
    finally:
        smtp.stop()
        slack.stop()
        hook.stop()


def through_outbox(count: int, targets: dict[str, dict[str, str]], base: Settings) -> float:
    kinds = list(targets)
    subs = tuple(
        Subscriber(f"s{n}", Profile("x"), (ChannelConfig(k, k, targets[k]),))
        for n in range(count)
        for k in [kinds[n % len(kinds)]]
    )
    settings = Settings("bench", (), subs, smtp=base.smtp)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "state.db")
        for sub in subs:
            digest = Digest(sub.name, "P", NOW.date(), (Scored(paper(1), 0.5),), NOW)
            kind = sub.channels[0].kind
            store.record_digest(digest, 1, [(kind, kind, message(10, subscriber=sub.name))])
        start = time.perf_counter()
        # Slack is paced to one message a second per webhook: leave it out of the wall clock.
        result = outbox.deliver(store, settings, NOW, sleep=lambda s: None)
        elapsed = time.perf_counter() - start
        assert len(result.sent) == count, result
    return count / elapsed


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
