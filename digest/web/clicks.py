"""Slack clicks and one-click unsubscribes that are not lost: a click's votes (an unsubscribe's
pauses) and its key are written in one transaction before Slack is answered, when the database
answers within ACK_BUDGET; otherwise Slack is answered anyway and the click is kept (in memory,
and on disk beside an SQLite state: spool.py) and tried again until the database takes it, once
by its key, whichever face or run writes it. A record in the spool that no state could take (a
damaged file) is dropped with a warning; the others are written all the same."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from digest.channels.transport import client
from digest.models import DigestError
from digest.state import Store
from digest.state.deliveries import stamp
from digest.web import slack
from digest.web.access import Access
from digest.web.spool import Spool

log = logging.getLogger("digest.web")

ACK_BUDGET = 2.0  # seconds: Slack gives up at 3, and the way back to Slack takes its share
FIRST_RETRY, LAST_RETRY = 1.0, 60.0  # seconds between tries of the kept clicks, doubling
WRITERS = 4  # clicks written at once (a PostgreSQL pool holds 4 connections)
LOOK = 5.0  # seconds between two looks at the spool for clicks another face kept (and died with)
# A record read back from the spool holds names, paper ids and keys of NAME_CHARS at most (far
# past any a config or a feed gives), a pause's channel and its addresses of CHANNEL_CHARS, times
# up to AHEAD past this host's clock (faces on one SQLite file share it): else it is damaged.
NAME_CHARS, CHANNEL_CHARS, AHEAD = 4096, 1 << 20, timedelta(days=1)


@dataclass(frozen=True)
class Click:
    key: str  # slack.request_key() or an unsubscribe's: a replay has the same one
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
        self.spooled: set[str] = set()  # the keys of kept clicks read from the spool or put there
        self.left: set[str] = set()  # keys not adopted again: refused (logged once), unmarked
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
                self._keep(click)
                future.add_done_callback(lambda _: self._written(click))
            return None

    def _written(self, click: Click) -> None:
        """The write that outlasted the answer ended: unless it left the click kept, the spool's
        copy is done."""
        with self.lock:
            kept = click in self.kept
            if not kept:
                self.spooled.discard(click.key)
        if not kept and self.spool:
            self.spool.done([click.key])

    def _keep(self, click: Click) -> None:
        """The click on disk: spooled once seen there (a full disk leaves it in memory alone)."""
        if self.spool is None:
            return
        self.spool.keep(_record(click))
        if click.key in (self._waiting() or ()):
            with self.lock:
                self.spooled.add(click.key)

    def _waiting(self) -> set[str] | None:
        """The keys waiting in the spool; None when it cannot be read (load() says why; one of
        done lines alone is emptied): then no click counts as written elsewhere."""
        if self.spool is None:
            return None
        keys = {str(r["key"]) for r in self.spool.load()}
        return None if not keys and self.spool.waiting() else keys

    def _take(self, click: Click) -> bool:
        with self.lock:
            self.writing.add(click.key)
        try:
            return self._write(click, late=False)
        except DigestError as exc:  # the database is unreachable, locked or failing: kept
            self._later(click, exc)
            return True
        finally:
            with self.lock:
                self.writing.discard(click.key)

    def _later(self, click: Click, why: DigestError) -> None:
        """Keep the click to be tried again, unless take() put it in the spool and a run's
        settle() or another face wrote it since (again, it undid a `digest resume` made since)."""
        with self.lock:
            spooled = click.key in self.spooled
        if spooled and (waiting := self._waiting()) is not None and click.key not in waiting:
            with self.lock:
                self.spooled.discard(click.key)
            return
        what = "an unsubscribe" if click.pauses else "a Slack click"
        log.warning("web: %s is kept to be recorded later (%s)", what, why)
        if not spooled:
            self._keep(click)
        with self.lock:
            self.kept.append(click)
        self._start()
        self.wake.set()

    def _adopt(self) -> bool:
        """Take up the clicks waiting in the spool that this face does not hold (another
        face's); True when any click waits in this face now."""
        if self.spool is None or not self.spool.waiting():
            with self.lock:
                return bool(self.kept)
        loaded = _read(self.spool)
        with self.lock:
            held = self.writing | self.left | {c.key for c in self.kept}
            new = [c for c in loaded if c.key not in held]
            self.kept += new
            self.spooled |= {c.key for c in new}
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
        """Record it once: False when taken before (a replay, a settle() while this waited)."""
        with self.access.lease() as store:
            recorded = _recorded(store, click, late)
        if recorded is None:
            return False
        if click.pauses:
            log.info("web: %s unsubscribed from e-mail", click.pauses[0][0])
        for subscriber, paper_id, _, vote in recorded:
            log.info("web: %s rated %s %s (slack)", subscriber, paper_id, vote)
        if recorded:  # in a thread of its own: the answer to Slack does not wait for it
            said = [(title, vote) for _, _, title, vote in recorded]
            threading.Thread(target=confirm, args=(said, click.response_url), daemon=True).start()
        return True

    def _retry(self) -> None:
        delay = FIRST_RETRY
        try:
            while not self.stopping.is_set():
                try:
                    delay = self._round(delay)
                except Exception:  # the thread had died of it, and no kept click was tried again
                    log.exception("web: the kept clicks could not be tried (again in a minute)")
                    self.stopping.wait(LAST_RETRY)
        finally:  # ended all the same (stopped, or worse): the next kept click starts another
            with self.lock:
                if self.retrier is threading.current_thread():
                    self.retrier = None

    def _round(self, delay: float) -> float:
        """One look at the spool, one try of the kept clicks if any; the delay before the next."""
        if not self._adopt():  # nothing waits: the spool is looked at again in LOOK seconds
            self.wake.wait(LOOK if self.spool else None)
            self.wake.clear()
            return FIRST_RETRY
        if self.stopping.wait(delay):
            return delay
        return FIRST_RETRY if self.flush() else min(2 * delay, LAST_RETRY)

    def flush(self) -> bool:
        """Try every kept click once, oldest first; True when none is left."""
        if self.access.moved():  # they wait in the spool, for a face on the state they came to
            with self.lock:
                return not self.kept
        with self.lock:  # out of kept, in writing: a look at the spool meanwhile adopts none
            batch, self.kept = self.kept, []
            self.writing |= (keys := {c.key for c in batch})
        done: list[str] = []
        failed = batch  # until tried: whatever goes wrong meanwhile, none is lost
        try:
            failed = self._each(self._unwritten(batch), done)
        finally:
            unmarked = bool(self.spool and done and not self.spool.done(done))
            with self.lock:
                self.left |= set(done) if unmarked else set()
                self.spooled -= set(done)
                self.kept[:0] = [c for c in failed if c.key not in done]
                self.writing -= keys
        with self.lock:
            return not self.kept

    def _each(self, batch: list[Click], done: list[str]) -> list[Click]:
        """Write the clicks in turn, adding those written to `done`; those left (state away)."""
        for n, click in enumerate(batch):
            try:
                self._write(click, late=True)  # False (taken before, by a run or face): done
            except DigestError as exc:
                log.info("web: still waiting for the state (%s): %s", exc, _what(batch[n:]))
                return batch[n:]  # no use trying the others now
            except Exception as exc:  # one click the state refuses: the others are written
                with self.lock:
                    self.left.add(click.key)
                where = f"left in {self.spool.path}" if self.spool else "lost"
                log.warning("web: %s not recorded, %s (%r)", _what([click]), where, exc)
                continue
            done.append(click.key)
        return []

    def _unwritten(self, batch: list[Click]) -> list[Click]:
        """The batch less the clicks done in the spool since (by a run's settle(), another face):
        this face's own too, not only those read from it. Paused again, one undid a resume."""
        with self.lock:
            spooled = self.spooled & {c.key for c in batch}
        if not spooled or (waiting := self._waiting()) is None:
            return batch
        gone = spooled - waiting
        with self.lock:
            self.spooled -= gone
        return [c for c in batch if c.key not in gone]

    def stop(self) -> None:
        """Let the writes in progress end, try the kept clicks a last time, and say how many
        are lost (the database stayed away until the web face stopped)."""
        self.pool.shutdown(wait=True)
        self.stopping.set()
        self.wake.set()
        if (retrier := self.retrier) is not None:  # (None again once it has ended)
            retrier.join(timeout=5)  # a try in progress ends; its clicks return to kept
        if self.kept and not self.flush():
            if self.spool:
                log.warning("web: left waiting in %s: %s", self.spool.path, _what(self.kept))
            else:
                log.warning("web: not recorded (no database): %s", _what(self.kept))


def settle(store: Store) -> int:
    """Write the clicks a face kept beside this SQLite state (a face that died with them, or
    one still waiting for the lock), before a run delivers: an unsubscribe pauses, a Slack
    click's votes count (unconfirmed in Slack); how many were written. Without it the next run
    had mailed a reader told "Unsubscribed". Each is written once, with its key: a spool a run
    cannot mark done (a face's, of another user) had it written by every run, undoing each
    resume. Those written or taken before are marked done; one the state refuses waits."""
    if (
        not isinstance(store.path, Path)
        or not (spool := Spool(Path(f"{store.path}.clicks"))).waiting()
    ):
        return 0
    written: list[Click] = []
    done: list[str] = []
    try:
        for click in _read(spool):
            if (fresh := _settled(store, click, spool)) is not None:
                done.append(click.key)
                written += [click] * fresh
    finally:  # the database gone away midway (DigestError): those written are done all the same
        spool.done(done)
    if written:
        log.warning("kept by a web face in %s, recorded now: %s", spool.path, _what(written))
    return len(written)


def _settled(store: Store, click: Click, spool: Spool) -> bool | None:
    """Write one kept click: True, False when it was taken before, None when the state refuses
    it (said in the log), and it waits."""
    try:
        return _recorded(store, click, True) is not None
    except DigestError:
        raise  # the database itself: the others would fail too
    except Exception as exc:  # one record's own fault had ended every run in a traceback
        log.warning("%s not recorded, left in %s (%r)", _what([click]), spool.path, exc)
        return None


def _recorded(store: Store, click: Click, late: bool) -> list[tuple[str, str, str, str]] | None:
    """The click written with its key in one transaction (votes.click); None: taken before."""
    return store.votes.click(click.key, click.until, click.votes, click.at, late, click.pauses)


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


def _read(spool: Spool) -> list[Click]:
    """The clicks waiting in the spool; a damaged record (a time out of range had ended every run
    and retry thread, a wrong type, a name of a megabyte) is marked done, with one warning."""
    read = {str(r["key"]): _click(r) for r in spool.load()}
    damaged = {key: why for key, why in read.items() if isinstance(why, str)}
    if damaged:
        what = "a kept click" if len(damaged) == 1 else f"{len(damaged)} kept clicks"
        why = "; ".join(dict.fromkeys(damaged.values()))
        log.warning("%s: %s that cannot be recorded, skipped: %s", spool.path, what, why)
        spool.done(damaged)
    return [click for click in read.values() if isinstance(click, Click)]


def _click(record: dict[str, Any]) -> Click | str:
    """A click read back from the spool, or what is wrong with the record (its values unsaid)."""
    try:
        votes = tuple((s, p, v) for s, p, v in _texts(record["votes"], NAME_CHARS, NAME_CHARS, 4))
        pauses = _texts(record.get("pauses", []), NAME_CHARS, CHANNEL_CHARS)
        key = _texts([[record["key"]]], 2 * NAME_CHARS)[0][0]
        until, at = _moment(record["until"]), _moment(record["at"])
    except KeyError as exc:
        return f"no {exc}"
    except (TypeError, ValueError) as exc:
        return str(exc)
    if any(v not in ("up", "down") for _, _, v in votes):
        return "a vote neither up nor down"
    if at > datetime.now(UTC) + AHEAD:
        return "a click after now"
    return Click(key, until, at, votes, "", tuple((s, c) for s, c in pauses))


def _texts(items: Any, *most: int) -> list[tuple[str, ...]]:
    """Lists of len(most) texts, each of at most its many characters, and UTF-8 (SQLite refuses
    a lone surrogate: UnicodeEncodeError, a ValueError)."""
    lists: list[Any] = items if isinstance(items, list) else [None]
    if not all(isinstance(i, list) and len(i) == len(most) for i in lists):
        raise TypeError(f"not lists of {len(most)} texts")
    for item in lists:
        for text, chars in zip(item, most, strict=True):
            if not isinstance(text, str) or len(text) > chars:
                raise TypeError(f"not a text of {chars} characters at most")
            text.encode()
    return [tuple(item) for item in lists]


def _moment(text: Any) -> datetime:
    """A time of the record, one the state can store as it stores every time (stamp(): in UTC,
    a four-digit year): a year 1 east of UTC or 9999 west of it had raised OverflowError."""
    try:
        moment = datetime.fromisoformat(text).astimezone(UTC)  # (one without a zone: local)
        if len(stamp(moment)) == len("2000-01-01T00:00:00Z"):
            return moment
    except (TypeError, ValueError, OverflowError):
        pass
    raise ValueError("a time that cannot be stored")
