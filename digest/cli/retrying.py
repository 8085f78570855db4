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
from digest.models import InputError, Settings

log = logging.getLogger("digest")
Stop = Callable[[], bool]


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
        revived = store.revive_dead(args.subscriber)
        # --subscriber: that subscriber's deliveries alone (its revived and due ones).
        out = outbox.deliver(store, settings, clock, subscriber=args.subscriber, stop=stop)
        counts = store.outbox_counts()
    pending, dead = counts.get("pending", 0), counts.get("dead", 0)
    lines = [
        f"retry: {revived} dead deliver{'y' if revived == 1 else 'ies'} queued again; "
        f"{len(out.sent)} sent, {len(out.retrying)} retrying, {len(out.dead)} dead now; "
        f"{pending} pending, {dead} dead in all"
    ]
    lines += [f"  sent {item}" for item in out.sent]
    lines += [f"  retrying {item}" for item in out.retrying]
    lines += [f"  dead {item}" for item in out.dead]
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
