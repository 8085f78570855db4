"""The outbox's writes to the state database, in groups: a part's claim committed before its
post, sent marks a few together after their sends, and the leases of the rows on the wire
renewed while they are there."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from digest.models import DigestError
from digest.state import Store
from digest.state.engine import StateAway, StateBusy, StateLost

log = logging.getLogger("digest.outbox")

# Sent marks wait for the next commit, at most this many or this long: a crash can lose these
# few, and then resends them under the same idempotency key (email Message-ID, Matrix txnId).
# A Slack or hookshot row is never resent (each part is claimed, durably, before it is posted):
# its sent mark is committed at once, or a crash would leave its confirmed parts unconfirmed.
MARK_BATCH = 20
MARK_SECONDS = 1.0
# While a message is on the wire its row's lease is renewed this often (seconds): a send may
# last longer than the lease (an SMTP relay has up to 10 minutes to answer the end of DATA, and
# a message may first wait for one of the relay's kept connections).
RENEW_SECONDS = 60.0
# At the end of a pass, marks the database server could not take (stopped, restarting) are
# tried again this long (seconds): the messages went out, and unrecorded they were mailed twice
# by the next run, or their Slack rows marked dead ("nothing was confirmed").
SETTLE_SECONDS = 90.0
# Marks still unwritten when a pass gave up on the server, by state: a long-lived process (digest
# serve) writes them before its next pass sends anything, not mail the messages again.
_UNWRITTEN: dict[str, tuple[list[tuple[int, str, datetime]], dict[int, Any]]] = {}
_UNWRITTEN_LOCK = threading.Lock()


class TakenOver(Exception):
    """The row is no longer this worker's (its lease ended and another worker claimed it, or
    it was sent): raised by a claim of the next part, so that part is not posted here."""


class Marks:
    """The run's writes to the outbox, grouped into few transactions. A claim (a part about to
    be posted) returns once committed; sent marks wait for the next commit, which any claim, a
    full batch (MARK_BATCH), the ticker (every MARK_SECONDS) or the end of the run makes.
    Claims from several threads that arrive while one commit is under way share the next one."""

    def __init__(self, store: Store, lock: threading.Lock, clock: Callable[[], datetime]) -> None:
        self.store, self.lock = store, lock  # the run's lock: the one connection, one at a time
        self.clock = clock  # a claim renews its row's lease from the run's clock
        self.lost: set[int] = set()  # rows found taken over by another worker
        self.queue = threading.Lock()
        self.sent: list[tuple[int, str, datetime]] = []
        # Claims: (parts sent,) or, at most once, (parts sent, the parts that got no answer).
        self.parts: dict[int, tuple[int] | tuple[int, tuple[int, ...]]] = {}
        self.stop = threading.Event()
        # Why the marks cannot be written (a full disk, a database gone), once a commit failed
        # for a reason other than a busy database: a send now could not be recorded, and the
        # next run would send it again, so the delivery loop sends nothing more.
        self.failing: DigestError | None = None
        self.asked = self.written = 0  # claims queued, and queued before the last commit
        # Rows on the wire now (id -> when their lease was last renewed, monotonic): tick()
        # renews them every RENEW_SECONDS, so no send outlasts its lease.
        self.inflight: dict[int, float] = {}
        with _UNWRITTEN_LOCK:  # an earlier pass's, in this process: written first
            self.sent, self.parts = _UNWRITTEN.pop(store.name, ([], {}))

    @property
    def carried(self) -> bool:
        """Does it hold marks an earlier pass could not write?"""
        with self.queue:
            return bool(self.sent or self.parts)

    def mark_sent(self, row_id: int, receipt: str, when: datetime, now: bool = False) -> None:
        """Queue a sent mark; `now`: commit it before returning, as a claim is (an at-most-once
        channel's row: a crash must not leave its confirmed parts looking unanswered)."""
        with self.queue:
            self.sent.append((row_id, receipt, when))
            due = len(self.sent) >= MARK_BATCH
            if now:
                self.asked += 1
            mine = self.asked
        if now:
            self.flush(mine)
        elif due:
            self.flush()

    def tick(self) -> None:
        """Until stopped: commit what waits, every MARK_SECONDS (a run can be slow to the end:
        a long Retry-After, the last Slack posts a second apart)."""
        while not self.stop.wait(MARK_SECONDS):
            try:
                self.flush()
            except DigestError as exc:  # the state database refused, for now (busy, gone)
                # The marks stay queued: the next commit (a claim's, this ticker's, the run's
                # last) writes them, or reports the error that ends the run.
                log.warning("outbox: the sent marks wait for the next commit: %s", exc)
            try:
                self.renew_inflight()
            except DigestError as exc:
                log.warning("outbox: cannot renew the leases of the rows being sent: %s", exc)

    def sending(self, row_id: int, on: bool) -> None:
        """A row goes on the wire (its lease was just renewed), or comes off it."""
        with self.queue:
            if on:
                self.inflight[row_id] = time.monotonic()
            else:
                self.inflight.pop(row_id, None)

    def renew_inflight(self) -> None:
        """Renew the lease of every row on the wire for RENEW_SECONDS or more."""
        now = time.monotonic()
        with self.queue:
            due = [r for r, at in self.inflight.items() if now - at >= RENEW_SECONDS]
        for row_id in due:
            with self.lock:
                mine = self.store.renew(row_id, self.clock())
            with self.queue:
                if row_id in self.inflight:
                    self.inflight[row_id] = now
            if not mine:
                log.warning("outbox row %d: taken over by another worker while sending", row_id)

    def claim(
        self,
        row_id: int,
        parts_sent: int,
        unsure: tuple[int, ...] | None = None,
        kept: tuple[int, tuple[int, ...]] | None = None,
    ) -> bool:
        """Commit a part's claim (and renew the row's lease), with the parts posted that the
        server has not confirmed (at most once); False: the row was taken over. kept: what is
        still true if this claim cannot be committed (the part before it confirmed), queued for
        a later commit then."""
        entry = (parts_sent,) if unsure is None else (parts_sent, unsure)
        with self.queue:
            self.parts[row_id] = entry
            self.asked += 1
            mine = self.asked
        try:
            self.flush(mine)
        except BaseException:
            # Not committed, so the part is not posted: no later commit may record it claimed.
            with self.queue:
                if self.parts.get(row_id) == entry:
                    del self.parts[row_id]
                    if kept is not None:  # a confirmation it carried: not lost with it
                        self.parts[row_id] = kept
            raise
        return row_id not in self.lost

    def _marked(self, sent: list[tuple[int, str, datetime]], claims: list[Any]) -> set[int]:
        try:
            return self.store.mark_many(sent, claims, self.clock())
        except StateLost as exc:
            # The marks set values (sent, parts posted), never add to them: written again on a
            # new connection they are what they were, so one ended session costs no run.
            log.warning("outbox: %s; the marks are written again on a new connection", exc)
            return self.store.mark_many(sent, claims, self.clock())

    def settle(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Commit what waits, trying again for up to SETTLE_SECONDS while the server is away,
        unless told to stop (SIGTERM)."""
        deadline, delay = time.monotonic() + SETTLE_SECONDS, 0.5
        while True:
            try:
                self.flush()
                return
            except DigestError as exc:
                with self.queue:
                    waiting = len(self.sent) + len(self.parts)
                away = isinstance(exc, (StateAway, StateLost))
                if not waiting or stop() or not away or time.monotonic() + delay > deadline:
                    # Kept for this process's next pass, the server away or the disk full
                    # alike: a serve had mailed again what its relay had taken.
                    with self.queue, _UNWRITTEN_LOCK:
                        _UNWRITTEN[self.store.name] = (self.sent, self.parts)
                    if waiting:
                        log.error(
                            "outbox: %d deliveries the servers took are not recorded yet (%s):"
                            " this process records them before it sends again; another run"
                            " may send them again",
                            waiting,
                            exc,
                        )
                    raise
                log.warning("outbox: %d sent marks wait for the state database: %s", waiting, exc)
                for _ in range(int(delay * 10)):  # a stop is heard within a tenth of a second
                    if stop():
                        break
                    time.sleep(0.1)
                delay = min(2 * delay, 8.0)

    def flush(self, claim: int = 0) -> None:
        """Commit what is queued; for a claim, return as soon as a commit has included it."""
        with self.lock:
            if claim and self.written >= claim:
                return
            with self.queue:
                sent, parts, self.sent, self.parts = self.sent, self.parts, [], {}
                upto = self.asked
            if sent or parts:
                claims = [(row_id, *claim) for row_id, claim in parts.items()]
                try:
                    lost = self._marked(sent, claims)
                except BaseException as exc:
                    with self.queue:  # not written: queued again, ahead of what came meanwhile
                        self.sent[:0] = sent
                        self.parts = {**parts, **self.parts}
                    if isinstance(exc, DigestError) and not isinstance(exc, StateBusy):
                        self.failing = self.failing or exc
                    raise
                for row_id in lost:
                    if row_id not in parts:
                        log.warning("outbox row %d: delivered, but taken over meanwhile", row_id)
                self.lost |= lost
            self.written = upto
