"""The outbox's writes to the state database, in groups: a part's claim committed before its
post, sent marks a few together after their sends, and the leases of the rows on the wire
renewed while they are there; while the database cannot take them, the rows held back, and
claimed again once it can."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

from digest.models import DigestError
from digest.state import OutboxRow, Store
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
# The kinds a send unrecorded is sent twice by (channels.md, Guarantees): e-mail, whose relay
# keeps no Message-ID. A file is written again in place, Matrix gives the first event back for
# its txnId, and a Slack or hookshot part claimed is never posted again (dead, maybe missing).
TWICE = frozenset({"email"})
# Marks still unwritten when a pass gave up on the server, by state: a long-lived process (digest
# serve) writes them before its next pass sends anything, not mail the messages again.
_Unwritten = tuple[list[tuple[int, str, datetime]], dict[int, Any], dict[int, tuple[str, str]]]
_UNWRITTEN: dict[str, _Unwritten] = {}
_UNWRITTEN_LOCK = threading.Lock()
T = TypeVar("T")


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
        # The claims of this pass a commit wrote, by row: a claim's `kept` is news (a part the
        # server took) only against one of them, the part before having been claimed here.
        self.committed: dict[int, tuple[int] | tuple[int, tuple[int, ...]]] = {}
        self.stop = threading.Event()
        # Why the marks cannot be written (a full disk, a database gone), once a commit failed
        # for a reason other than a busy database: a send now could not be recorded, and the
        # next run would send it again, so the delivery loop holds back every row. Cleared by
        # the next commit that succeeds (the server back, the marks written): a stale one had
        # held back the rest of the pass, and ended the run "the server is still unreachable".
        self.failing: DigestError | None = None
        self.left: set[int] = set()  # rows held back meanwhile: sent once a commit succeeds
        self.labels: dict[int, tuple[str, str]] = {}  # id -> ("ana/email", kind), for the log
        self.asked = self.written = 0  # claims queued, and queued before the last commit
        self.tried: int | None = None  # rows held back the last time: fewer each time
        # Rows on the wire now (id -> when their lease was last renewed, monotonic): tick()
        # renews them every RENEW_SECONDS, so no send outlasts its lease.
        self.inflight: dict[int, float] = {}
        with _UNWRITTEN_LOCK:  # an earlier pass's, in this process: written first
            self.sent, self.parts, self.labels = _UNWRITTEN.pop(store.name, ([], {}, {}))

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

    @contextmanager
    def ticking(self, stop: Callable[[], bool]) -> Iterator[None]:
        """The ticker runs while the block sends; at its end, every mark is committed."""
        self.stop.clear()
        ticker = threading.Thread(target=self.tick, name="deliver-marks", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            self.stop.set()
            ticker.join()
            self.settle(stop)

    def tick(self) -> None:
        """Until stopped: commit what waits, every MARK_SECONDS (a run can be slow to the end:
        a long Retry-After, the last Slack posts a second apart). Each failure is told once
        until a tick succeeds again, not every second the server is away (ops31 F4)."""
        told: set[str] = set()
        while not self.stop.wait(MARK_SECONDS):
            for what, step in (
                ("the sent marks wait for the next commit", self.flush),
                ("cannot renew the leases of the rows being sent", self.renew_inflight),
            ):
                try:
                    step()
                except DigestError as exc:  # the state database refused, for now (busy, gone)
                    # The marks stay queued: the next commit (a claim's, this ticker's, the
                    # run's last) writes them, or reports the error that ends the run.
                    level = logging.DEBUG if what in told else logging.WARNING
                    log.log(level, "outbox: %s: %s", what, exc)
                    told.add(what)
                else:
                    told.discard(what)

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
                    if kept is not None and self._news(row_id, kept):  # a confirmation: kept
                        self.parts[row_id] = kept
            raise
        return row_id not in self.lost

    def _news(self, row_id: int, kept: tuple[int, tuple[int, ...]]) -> bool:
        """Does `kept` record a part the server took that no commit wrote? The row as loaded
        (the first claim of a send, never committed) had been kept as a confirmation, and a
        Slack row never posted was named "taken, not recorded" when the server stayed away
        (ops31 F1): a part is taken only after a claim of this pass was committed."""
        return row_id in self.committed and kept != self.committed[row_id]

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

        def waiting() -> str:
            with self.queue:
                count = len(self.sent) + len(self.parts)
            return f"{count} sent mark{'' if count == 1 else 's'}" if count else ""

        try:
            patiently(self.flush, stop, waiting)
        except DigestError as exc:
            # Kept for this process's next pass, the server away or the disk full alike: a
            # serve had mailed again what its relay had taken.
            with self.queue, _UNWRITTEN_LOCK:
                _UNWRITTEN[self.store.name] = (self.sent, self.parts, self.labels)
                rows = sorted({row_id for row_id, *_ in self.sent} | set(self.parts))
            if rows:
                log.error("outbox: %s", self.unrecorded(rows, exc))
            raise

    def unrecorded(self, rows: list[int], exc: DigestError) -> str:
        """Which deliveries the servers took and the state did not record, and what becomes of
        them. "This process records them before it sends again" had been said by a `digest
        run` ending on the next line, naming none of the readers who then got a mail twice."""
        named = [self.labels.get(r, (f"outbox row {r}", "")) for r in rows]
        twice = _counted(label for label, kind in named if kind in TWICE)
        others = _counted(label for label, kind in named if kind not in TWICE)
        said = (
            "1 delivery the servers took is not recorded"
            if len(rows) == 1
            else f"{len(rows)} deliveries the servers took are not recorded"
        ) + f" ({exc}); "
        said += "`digest serve` records them before its next pass sends anything, but after"
        said += " this process ends (`digest run`, `digest retry`) the next run "
        if twice:
            said += f"sends these a second time: {', '.join(twice)}"
            said += f"; none of the others twice: {', '.join(others)}" if others else ""
        else:
            said += f"sends none of them twice: {', '.join(others)}"
        return said

    def refused(self, exc: DigestError, row_id: int) -> None:
        """The state database failed during the row's send (before or after its post): it and
        the rest wait until a commit succeeds."""
        log.info("%s: held back (%s)", self.label(row_id), exc)
        with self.queue:
            self.failing = self.failing or exc
            self.left.add(row_id)

    def held_back(self, row_id: int) -> bool:
        """Does the row wait (a send now could not be recorded)? If so, it is sent later in the
        pass, once a commit succeeds, or left for the next run."""
        with self.queue:
            if self.failing is None:
                return False
            self.left.add(row_id)
        log.info("%s: held back (the state cannot be written now)", self.label(row_id))
        return True

    def label(self, row_id: int) -> str:
        return self.labels.get(row_id, (f"outbox row {row_id}", ""))[0]

    def again(
        self, due: Callable[[], list[OutboxRow]], stop: Callable[[], bool]
    ) -> list[OutboxRow]:
        """The rows held back, claimed again (as they are now: a part claimed or confirmed
        meanwhile counts) once the database takes a claim; [] when none, or when stopping, or
        when the last try got none of them out (a server that keeps going away)."""
        with self.queue:
            left, self.left = self.left, set()
            tried, self.tried = self.tried, len(left)
        if not left or stop() or (tried is not None and len(left) >= tried):
            if left and not stop():
                log.warning(
                    "outbox: %d deliveries left for the next run (the state database"
                    " went away each time they were tried)",
                    len(left),
                )
            return []
        rows = patiently(
            due,
            stop,
            lambda: f"{len(left)} {'delivery' if len(left) == 1 else 'deliveries'} held back",
        )
        self.failing = None  # the claim was committed: sends can be recorded again
        rows = [row for row in rows if row.id in left]  # not those sent, their marks written
        log.info("outbox: the state database is back; sending the %d held back", len(rows))
        return rows

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
                self.failing = None  # written: the server is back, the disk has room
                with self.queue:
                    self.committed.update(parts)
                for row_id in lost:
                    if row_id not in parts:
                        log.warning("outbox row %d: delivered, but taken over meanwhile", row_id)
                self.lost |= lost
            self.written = upto


def _counted(labels: Iterable[str]) -> list[str]:
    """Each label once, with how many deliveries it names: two periods' digests of one channel
    had read "s10/email, s10/email" (ops21 F3)."""
    counts = Counter(labels)
    return [f"{label} (x{n})" if n > 1 else label for label, n in sorted(counts.items())]


def patiently(action: Callable[[], T], stop: Callable[[], bool], waiting: Callable[[], str]) -> T:
    """action(), tried again while the database server is away (stopped, restarting), for up
    to SETTLE_SECONDS, unless told to stop (SIGTERM); `waiting` says what waits for it ("":
    nothing, so no wait). The wait is told once as it starts and once as it ends: told on every
    try, it had filled a run's output with 14 identical lines (ops31 F4)."""
    started, delay, what = time.monotonic(), 0.5, ""
    while True:
        try:
            done = action()
        except (StateAway, StateLost) as exc:
            over = stop() or time.monotonic() + delay > started + SETTLE_SECONDS
            if not what:  # the wait starts, unless nothing waits or there is no time for one
                what = "" if over else waiting()
                if not what:
                    raise
                again = f"tried again for up to {SETTLE_SECONDS:.0f} s"
                verb = "waits" if what.startswith("1 ") else "wait"
                log.warning("outbox: %s %s for the state database: %s; %s", what, verb, exc, again)
            elif over:
                why = "stopping: " if stop() else ""
                _waited(f"{why}gave up waiting for the state database", started, what)
                raise
            for _ in range(int(delay * 10)):  # a stop is heard within a tenth of a second
                if stop():
                    break
                time.sleep(0.1)
            delay = min(2 * delay, 8.0)
        else:
            if what:
                _waited("the state database is back", started, what)
            return done


def _waited(end: str, started: float, what: str) -> None:
    """The end of a wait, told as its start was."""
    log.warning("outbox: %s after %.0f s (%s waited)", end, time.monotonic() - started, what)
