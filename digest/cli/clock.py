"""The clock a command runs on (`--now`, else the real time), and the guard on a `--now` ahead of
the real clock: a digest made for a later period holds back every run on the real clock until
that period comes ("clock behind"), so a command that records on its clock refuses one more than
AHEAD ahead, and `digest status` names each subscriber a digest made ahead holds back."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from digest.models import InputError, Settings

if TYPE_CHECKING:
    from digest.state import Store

# A week: a replay of the coming week (tests/test_cron.py's) goes through; 2027 typed for 2026,
# or a month's slip, does not.
AHEAD = timedelta(days=7)
LISTED = 3  # subscribers held back named in status; the rest counted


def now(args: argparse.Namespace) -> datetime:
    """The clock of a command that only reads (status, preview, health): any --now."""
    return args.now or datetime.now().astimezone()


def recording(args: argparse.Namespace) -> datetime:
    """The clock of a command that records on it (run, retry, feedback): a --now more than AHEAD
    past the real time is bad input. Digests, retry times and ratings stamped a year ahead had
    stopped every real run for that year, and no command undid them."""
    moment: datetime | None = args.now
    if moment is None:
        return datetime.now().astimezone()
    real = datetime.now(UTC)
    ahead = moment - real
    if ahead > AHEAD:
        raise InputError(
            f"--now {moment.isoformat()} is {ahead.days} d {ahead.seconds // 3600} h ahead of"
            f" this machine's clock ({real:%Y-%m-%dT%H:%MZ}); what is made on it would hold"
            f" back every run on the real clock until then: check the date (at most"
            f" {AHEAD.days} days ahead)"
        )
    return moment


def held_back(settings: Settings, store: Store, at: datetime) -> list[str]:
    """`digest status`'s lines for the subscribers whose last digest is for a period after `at`:
    a run makes none of theirs until then ("clock behind"); none when there is none."""
    from digest.periods import behind

    found = []
    for sub in settings.subscribers:
        last = store.last_digest(sub.name)
        try:
            if last is not None and behind(last[0], at):
                found.append((sub.name, datetime.fromisoformat(last[0]), sub.timezone))
        except (TypeError, ValueError):  # a period with no time, or none with its offset
            continue
    if not found:
        return []
    lines = [
        "clock behind: the last digest of these is for a period after this clock, and no run"
        " makes theirs until it comes (a --now ahead, or a clock stepped back: see"
        " docs/deployment.md, What a run says):"
    ]
    for name, period, zone in found[:LISTED]:
        local = period.astimezone(ZoneInfo(zone))
        lines.append(f"  {name}: its last digest is of {local:%a %Y-%m-%d %H:%M %Z} ({zone})")
    if len(found) > LISTED:
        lines.append(f"  and {len(found) - LISTED:,} more")
    return lines
