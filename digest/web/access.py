"""The web face's way to the state database: each call runs in a worker thread, never on the
event loop, so a slow or locked database holds up only the requests that wait for it. PostgreSQL
calls share one Store (its pool); SQLite ones each lease a connection of their own."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

from digest.models import DigestError
from digest.state import Store
from digest.state.engine import StateBusy
from digest.web.current import Current

T = TypeVar("T")
# Writes (votes, undos) at the database at once. A locked SQLite state holds each for up to
# 30 s: 40 of them had filled the threads every request shares, and a rating page that reads at
# once under the lock took 29 s. More wait their turn in the event loop, no thread taken, up to
# QUEUED seconds, then answer "try again" (503): a burst of votes on an idle state all pass.
WRITERS = 4
QUEUED = 5.0
# A page's line of what is in force (a rating, a pause) is left out past this many seconds: a
# rating page under a lock on the ratings must still ask. GLANCERS threads of their own do those
# reads, so ones stuck behind a lock take no thread that other requests need.
GLANCE = 2.0
GLANCERS = 4


class StateMoved(DigestError):
    """The config names another state database than the one the face opened: nothing is written
    where no run would read it (answered 503, as a state away is)."""


class Access:
    def __init__(self, state: str, current: Current | None = None) -> None:
        self.state, self.current = state, current
        first = Store(state)  # opened (and migrated) now: a bad state fails the start
        self.shared = first if first.shared else None
        self.free: list[Store] = [] if self.shared else [first]
        self.opened = [first]
        self.lock = threading.Lock()
        self.turns: asyncio.Semaphore | None = None  # a write's turn at the WRITERS threads
        self.writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="digest-web-write")
        self.glances = ThreadPoolExecutor(GLANCERS, thread_name_prefix="digest-web-glance")

    @contextmanager
    def lease(self) -> Iterator[Store]:
        """A store for this thread's call: the shared one, or an SQLite connection no other
        thread uses meanwhile (one connection's transactions would interleave)."""
        if self.shared is not None:
            yield self.shared
            return
        with self.lock:
            store = self.free.pop() if self.free else None
        if store is None:
            store = Store(self.state)
            with self.lock:
                self.opened.append(store)
        try:
            yield store
        finally:
            with self.lock:
                self.free.append(store)

    async def __call__(self, work: Callable[[Store], T]) -> T:
        """`work(store)` in starlette's threadpool."""
        return await run_in_threadpool(self._leased, work)

    def writable(self) -> None:
        """Raise StateMoved when the config (looked at now) names another state."""
        if self.current is not None and (why := self.current.check()):
            raise StateMoved(why)

    def moved(self) -> bool:
        """Whether the config named another state when last looked at (no look now)."""
        return self.current is not None and bool(self.current.moved)

    async def write(self, work: Callable[[Store], T]) -> T:
        """`work(store)`, a write, in threads of its own, WRITERS at most."""
        self.writable()
        if self.turns is None:  # made in the event loop that waits on it
            self.turns = asyncio.Semaphore(WRITERS)
        try:
            await asyncio.wait_for(self.turns.acquire(), QUEUED)
        except TimeoutError:
            raise StateBusy(f"{WRITERS} writes have waited for the state database") from None
        try:
            return await asyncio.wrap_future(self.writers.submit(self._leased, work))
        finally:
            self.turns.release()

    async def glance(self, work: Callable[[Store], T], wait: float = GLANCE) -> T | None:
        """`work(store)`, a read a page can do without: None when the state cannot answer
        within `wait` seconds (locked, away), and the page goes on without it."""
        future = self.glances.submit(self._leased, work)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except (TimeoutError, DigestError):
            return None

    def _leased(self, work: Callable[[Store], T]) -> T:
        with self.lease() as store:
            return work(store)

    def close(self) -> None:
        self.writers.shutdown(wait=True)
        self.glances.shutdown(wait=True, cancel_futures=True)
        with self.lock:
            for store in self.opened:
                store.close()
            self.opened, self.free = [], []
