"""`digest retry`'s two ways with the outbox, under the run lock: dead deliveries queued again
and every due one sent (the part on the wire finished when `stop` holds), or, with `--drop`, the
named dead ones given up; each says what it did in its summary lines."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from datetime import datetime

from digest.cli import names
from digest.cli.terminal import say
from digest.models import DeliveryError, InputError, Settings
from digest.state import Store

log = logging.getLogger("digest")
Stop = Callable[[], bool]


class _WouldPost(Exception):
    """A part is left to post: the dry try stops before it."""


def _refuse(*_: object) -> None:
    raise _WouldPost


def _unsendable(store: Store, settings: Settings, subscriber: str | None) -> dict[int, str]:
    """The dead deliveries no try can send again (row id -> "label: why", as the outbox says
    it): at most once (Slack, hookshot), every part posted and none confirmed, which are never
    posted twice. A dry try finds them, the real one's twin: a channel paces itself before each
    post, and this try's pace refuses, so nothing leaves."""
    from digest.channels import CHANNELS
    from digest.channels.transport import Resumed
    from digest.models import redact
    from digest.models.errors import shortened
    from digest.outbox import channel_config

    found = {}
    for row in store.outbox("dead"):
        config = channel_config(settings, row)
        if subscriber not in (None, row.subscriber) or config is None or not row.unconfirmed:
            continue
        factory = CHANNELS[config.kind]
        if not getattr(factory, "at_most_once", False) or row.message is None:
            continue
        try:
            channel = factory(config, settings)
            dry = Resumed(
                row.id, row.subscriber, row.period, row.day, config, row.message,
                parts_sent=row.parts_sent, purpose=row.purpose, unconfirmed=row.unconfirmed,
                pace=_refuse, progress=_refuse,
            )  # fmt: skip
            channel.send(dry)
        except DeliveryError as exc:
            if not exc.retryable:
                reason = shortened(redact(str(exc), settings.secrets))
                found[row.id] = f"{row.subscriber}/{row.channel}: {reason}"
        except Exception:  # noqa: BLE001 (a part left to post, or a fault the real try meets)
            pass
    return found


def resend(
    args: argparse.Namespace, settings: Settings, path: str, clock: datetime, stop: Stop
) -> int:
    """`digest retry`: the dead deliveries queued again, and every due one sent."""
    from digest import outbox
    from digest.state import Store
    from digest.state.lock import run_lock
    from digest.web import clicks

    # Never beside a run: two senders of one row could post it twice.
    with run_lock(path, 60.0, stop), Store(path) as store:
        clicks.settle(store)  # an unsubscribe a dead web face kept: before anything is mailed
        stuck = _unsendable(store, settings, args.subscriber)
        revived = store.revive_dead(args.subscriber, keep=list(stuck))
        # --subscriber: that subscriber's deliveries alone (its revived and due ones).
        out = outbox.deliver(store, settings, clock, subscriber=args.subscriber, stop=stop)
        counts = store.outbox_counts()
    # A delivery no try can send again was called "queued again", and its refusal, the same as
    # before, "dead now": said apart, with what to do.
    for item in stuck.values():
        if item in out.dead:
            out.dead.remove(item)
    pending, dead = counts.get("pending", 0), counts.get("dead", 0)
    kept = f", {len(stuck)} left dead (no try can send {'it' if len(stuck) == 1 else 'them'})"
    lines = [
        f"retry: {revived} dead deliver{'y' if revived == 1 else 'ies'} queued again"
        f"{kept if stuck else ''}; {len(out.sent)} sent, {len(out.retrying)} retrying,"
        f" {len(out.dead)} dead now; {pending} pending, {dead} dead in all"
    ]
    lines += [f"  sent {item}" for item in out.sent]
    lines += [f"  retrying {item}" for item in out.retrying]
    lines += [f"  dead {item}" for item in out.dead]
    for item in stuck.values():
        label = item.split(": ", 1)[0]
        lines.append(f"  still dead {item}; give it up: digest retry --drop {label}")
    say("\n".join(lines))
    return 1 if pending or dead else 0


def drop(
    args: argparse.Namespace, settings: Settings, path: str, clock: datetime, stop: Stop
) -> int:
    """`digest retry --drop`: the named dead deliveries are given up (kept, as dropped)."""
    from digest.models import redact
    from digest.state import Store
    from digest.state.lock import run_lock

    with run_lock(path, 60.0, stop), Store(path) as store:
        whose = args.subscriber
        dead = {
            f"{r.subscriber}/{r.channel}"
            for r in store.outbox("dead")
            if whose is None or r.subscriber == whose
        }
        labels = []
        for given in args.drop:
            if (label := names.label(given, dead)) is None:
                known = ", ".join(sorted(dead)) or "none"
                of = "" if whose is None else f" with --subscriber {whose}"
                raise InputError(f"--drop {given}: no dead delivery of it{of}; dead: {known}")
            labels.append(label)
        dropped = store.drop_dead(labels, args.subscriber, clock)
        counts = store.outbox_counts()
    pending, dead_now = counts.get("pending", 0), counts.get("dead", 0)
    lines = [
        f"retry: {len(dropped)} dead deliver{'y' if len(dropped) == 1 else 'ies'} dropped (given"
        f" up, not sent again); {pending} pending, {dead_now} dead in all"
    ]
    for row in dropped:
        log.warning("dropped the dead delivery %s/%s %s", row.subscriber, row.channel, row.period)
        reason = redact(row.last_error, settings.secrets)
        lines.append(
            f"  dropped {row.subscriber}/{row.channel} {row.purpose} {row.period}: {reason}"
        )
    say("\n".join(lines))
    return 1 if pending or dead_now else 0
