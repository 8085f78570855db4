"""Slack clicks and one-click unsubscribes that are not lost: a click's votes and its request's
key are written in one transaction before Slack is answered, when the database answers within
ACK_BUDGET; otherwise Slack is answered anyway and the click is kept (in memory, and on disk
beside an SQLite state: spool.py) and tried again until the database takes it. An unsubscribe
(a mail provider posts it once) is kept the same way."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from digest.channels.transport import client
from digest.models import DigestError
from digest.state import Store
from digest.web import slack
from digest.web.access import Access
from digest.web.spool import Spool

log = logging.getLogger("digest.web")

ACK_BUDGET = 2.0  # seconds: Slack gives up at 3, and the way back to Slack takes its share
FIRST_RETRY, LAST_RETRY = 1.0, 60.0  # seconds between tries of the kept clicks, doubling
WRITERS = 4  # clicks written at once (a PostgreSQL pool holds 4 connections)
LOOK = 5.0  # seconds between two looks at the spool for clicks another face kept (and died with)


@dataclass(frozen=True)
class Click:
    key: str  # slack.request_key(): a replay has the same one
    until: datetime  # after this the request's timestamp is refused anyway
    at: datetime  # when it was clicked: a later rating is not replaced by a late write
    votes: tuple[tuple[str, str, str], ...]  # (subscriber, paper id, up|down)
    response_url: str = field(repr=False)  # in memory only: it can post to the channel
    pauses: tuple[tuple[str, str], ...] = ()  # an unsubscribe: (subscriber, channel) to pause


class Clicks:
    """The clicks being written and those kept for another try: in this process's memory, and
    in the spool when there is one, which every face on the state looks at while it runs: a
    click another face kept (stopped or crashed since, or still waiting) is written by whichever
    face reaches the database first."""

    def __init__(self, access: Access, spool: Spool | None = None) -> None:
        self.access, self.spool = access, spool
        self.pool = ThreadPoolExecutor(WRITERS, thread_name_prefix="digest-slack")
        self.lock = threading.Lock()
        self.wake, self.stopping = threading.Event(), threading.Event()
        self.retrier: threading.Thread | None = None
        self.kept: list[Click] = []
        self.writing: set[str] = set()  # the keys of this face's clicks being written now
        self.adopted: set[str] = set()  # the keys of kept clicks read from the spool
        if spool:
            self._adopt()
            self._start()  # the spool is looked at every LOOK seconds while the face runs

    async def take(self, click: Click) -> bool | None:
        """True once the click is recorded or kept to be tried again; False for a request taken
        before (a replay); None when the database did not answer within ACK_BUDGET: the write
        goes on in its thread (and the click is kept if it fails), Slack is answered now.
        Raises StateMoved when the config names another state now."""
        self.access.writable()
        future = self.pool.submit(self._take, click)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), ACK_BUDGET)
        except TimeoutError:
            # Answered as done while the database still waits (30 s for a lock): on disk first,
            # or a crash meanwhile lost a click the reader was told was taken.
            if self.spool:
                self.spool.keep(_record(click))
                future.add_done_callback(lambda _: self._written(click))
            return None

    def _written(self, click: Click) -> None:
        """The write that outlasted the answer ended: unless it left the click kept, the spool's
        copy is done."""
        with self.lock:
            kept = click in self.kept
        if not kept and self.spool:
            self.spool.done([click.key])

    def _take(self, click: Click) -> bool:
        with self.lock:
            self.writing.add(click.key)
        try:
            return self._write(click, late=False)
        except DigestError as exc:  # the database is unreachable, locked or failing: kept
            what = "an unsubscribe" if click.pauses else "a Slack click"
            log.warning("web: %s is kept to be recorded later (%s)", what, exc)
            if self.spool:
                self.spool.keep(_record(click))
            with self.lock:
                self.kept.append(click)
            self._start()
            self.wake.set()
            return True
        finally:
            with self.lock:
                self.writing.discard(click.key)

    def _adopt(self) -> bool:
        """Take up the clicks waiting in the spool that this face does not hold (another
        face's); True when any click waits in this face now."""
        if self.spool is None or not self.spool.waiting():
            with self.lock:
                return bool(self.kept)
        loaded = [c for c in map(_click, self.spool.load()) if c is not None]
        with self.lock:
            held = self.writing | {c.key for c in self.kept}
            new = [c for c in loaded if c.key not in held]
            self.kept += new
            self.adopted |= {c.key for c in new}
            waiting = bool(self.kept)
        if new:
            log.warning("web: waiting in %s, tried again now: %s", self.spool.path, _what(new))
        return waiting

    def _start(self) -> None:
        with self.lock:
            if self.retrier is None:
                self.retrier = threading.Thread(target=self._retry, name="digest-slack-retry")
                self.retrier.daemon = True
                self.retrier.start()

    def _write(self, click: Click, late: bool) -> bool:
        if click.pauses:  # an unsubscribe: pausing twice is pausing once
            with self.access.lease() as store:
                for subscriber, channel in click.pauses:
                    store.web.pause(subscriber, [channel], click.at)
            log.info("web: %s unsubscribed from e-mail", click.pauses[0][0])
            return True
        with self.access.lease() as store:
            recorded = store.votes.click(click.key, click.until, click.votes, click.at, late)
        if recorded is None:
            return False
        for subscriber, paper_id, _, vote in recorded:
            log.info("web: %s rated %s %s (slack)", subscriber, paper_id, vote)
        if recorded:  # in a thread of its own: the answer to Slack does not wait for it
            said = [(title, vote) for _, _, title, vote in recorded]
            threading.Thread(target=confirm, args=(said, click.response_url), daemon=True).start()
        return True

    def _retry(self) -> None:
        delay = FIRST_RETRY
        while not self.stopping.is_set():
            if not self._adopt():  # nothing waits: the spool is looked at again in LOOK seconds
                self.wake.wait(LOOK if self.spool else None)
                self.wake.clear()
                delay = FIRST_RETRY
                continue
            if self.stopping.wait(delay):
                return
            delay = FIRST_RETRY if self.flush() else min(2 * delay, LAST_RETRY)

    def flush(self) -> bool:
        """Try every kept click once, oldest first; True when none is left."""
        if self.access.moved():  # they wait in the spool, for a face on the state they came to
            with self.lock:
                return not self.kept
        with self.lock:
            batch, self.kept = self.kept, []
        batch = self._unwritten(batch)
        failed, done = [], []
        for n, click in enumerate(batch):
            try:
                self._write(click, late=True)  # False (taken before, by another face): done too
            except DigestError as exc:
                log.info("web: still waiting for the state (%s): %s", exc, _what(batch[n:]))
                failed = batch[n:]  # the database is still away: no use trying the others now
                break
            done.append(click.key)
        if self.spool and done:
            self.spool.done(done)
        with self.lock:
            self.adopted -= set(done)
            self.kept[:0] = failed
            return not self.kept

    def _unwritten(self, batch: list[Click]) -> list[Click]:
        """The batch less the clicks read from the spool that another face has written since:
        an unsubscribe paused again after it was written could undo a `digest resume`."""
        if self.spool is None or not self.adopted & {c.key for c in batch}:
            return batch
        waiting = {r["key"] for r in self.spool.load()}
        with self.lock:
            gone = {c.key for c in batch if c.key in self.adopted and c.key not in waiting}
            self.adopted -= gone
        return [c for c in batch if c.key not in gone]

    def stop(self) -> None:
        """Let the writes in progress end, try the kept clicks a last time, and say how many
        are lost (the database stayed away until the web face stopped)."""
        self.pool.shutdown(wait=True)
        self.stopping.set()
        self.wake.set()
        if self.retrier is not None:
            self.retrier.join(timeout=5)  # a try in progress ends; its clicks return to kept
        if self.kept and not self.flush():
            if self.spool:
                log.warning("web: left waiting in %s: %s", self.spool.path, _what(self.kept))
            else:
                log.warning("web: not recorded (no database): %s", _what(self.kept))


def settle(store: Store) -> int:
    """Write the clicks a face kept beside this SQLite state (a face that died with them, or
    one still waiting for the lock), before a run delivers: an unsubscribe pauses, a Slack
    click's votes count (unconfirmed in Slack); how many were written. Without it the next run
    had mailed a reader told "Unsubscribed". Writing one twice is writing it once."""
    if (
        not isinstance(store.path, Path)
        or not (spool := Spool(Path(f"{store.path}.clicks"))).waiting()
    ):
        return 0
    clicks = [c for c in map(_click, spool.load()) if c is not None]
    for click in clicks:
        for subscriber, channel in click.pauses:
            store.web.pause(subscriber, [channel], click.at)
        if click.votes:
            store.votes.click(click.key, click.until, click.votes, click.at, True)
    spool.done([c.key for c in clicks])
    if clicks:
        log.warning("kept by a web face in %s, recorded now: %s", spool.path, _what(clicks))
    return len(clicks)


def confirm(recorded: list[tuple[str, str]], response_url: str) -> None:
    """Tell the clicker (only them) in Slack what was recorded; a failure here loses nothing."""
    if not slack.response_allowed(response_url):
        return
    try:
        with client() as http:
            http.post(response_url, json=slack.confirmation(recorded), timeout=5)
    except httpx.HTTPError as exc:
        log.info("web: no confirmation in Slack (%s)", type(exc).__name__)


def _what(clicks: list[Click]) -> str:
    """What these clicks are, for the log: "an unsubscribe", "2 Slack clicks' votes"..."""
    pauses = sum(1 for c in clicks if c.pauses)
    votes = len(clicks) - pauses
    said = ["an unsubscribe" if pauses == 1 else f"{pauses} unsubscribes"] if pauses else []
    if votes:
        said.append("a Slack click's votes" if votes == 1 else f"{votes} Slack clicks' votes")
    return " and ".join(said)


def _record(click: Click) -> dict[str, Any]:
    """The click as the spool keeps it: everything but the response_url."""
    at, until = click.at.isoformat(), click.until.isoformat()
    votes, pauses = [list(v) for v in click.votes], [list(p) for p in click.pauses]
    return {"key": click.key, "until": until, "at": at, "votes": votes, "pauses": pauses}


def _click(record: dict[str, Any]) -> Click | None:
    """A click read back from the spool, or None for a record of the wrong shapes."""
    try:
        votes = tuple((str(s), str(p), str(v)) for s, p, v in record["votes"])
        if any(v not in ("up", "down") for _, _, v in votes):
            return None
        pauses = tuple((str(s), str(c)) for s, c in record.get("pauses", ()))
        until, at = datetime.fromisoformat(record["until"]), datetime.fromisoformat(record["at"])
        return Click(str(record["key"]), until, at, votes, "", pauses)
    except (KeyError, TypeError, ValueError):
        return None
