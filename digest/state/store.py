"""The state database's connection: opening it (engine.py: an SQLite file or a PostgreSQL URL),
migrating the schema (schema.py, versioned by the engine) and the transactions every table module
writes in."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path

from digest.models import Paper, StateError
from digest.state import claims, engine
from digest.state.catalog import Catalog, row_paper
from digest.state.deliveries import Deliveries, stamp
from digest.state.journal import Journal
from digest.state.ratings import Ratings
from digest.state.runs import Runs
from digest.state.schema import KEYED_BY_INSTANT, LOOSE_TITLES, SCHEMA, TOKENS
from digest.state.votes import Votes
from digest.state.web import Web

log = logging.getLogger("digest.state")


def worker_name() -> str:
    """This process's name among the workers sharing a database: $DIGEST_WORKER, else
    hostname:pid. Several processes may go by one name (its claims are each one's: claims.py)."""
    return os.environ.get("DIGEST_WORKER") or f"{socket.gethostname()}:{os.getpid()}"


class Store(Deliveries, Runs):
    """The state database: opens it, migrates it, and owns its transactions; the tables live in
    catalog.py (store.papers), journal.py (store.journal), ratings.py (store.ratings), web.py
    (store.web), votes.py (store.votes), deliveries.py (digests, outbox) and runs.py (runs,
    workers): the last two as methods of the store itself."""

    def __init__(
        self,
        state: str | Path,
        *,
        worker: str | None = None,
        timeout: float | None = None,
        upgrade: bool = True,
    ) -> None:
        """`upgrade=False` for the commands that promise to change no state: an older digest's
        state is refused rather than moved, one way, past what that digest (in cron) reads."""
        if not str(state):
            raise StateError("the state database's path is empty ([state].path or --state)")
        self.path = state if engine.is_url(state) else Path(state)
        self.db = engine.connect(state, timeout)
        self.name = self.db.name  # what may be printed (no password)
        self.worker = worker or worker_name()
        # Its claims are this process's, not the name's: a second live process under the same
        # DIGEST_WORKER had taken and sent again every row the first was sending.
        self.claim = claims.claim(self.worker)
        self.papers = Catalog(self.db, self.transaction, stamp)
        self.journal = Journal(self.db, self.transaction, stamp)
        self.ratings = Ratings(self.db, self.transaction, stamp)
        self.web = Web(self.db, self.transaction, stamp)
        self.votes = Votes(self.db, self.transaction, stamp)
        try:
            self._migrate(upgrade)
        except BaseException:
            self.db.close()
            raise

    @property
    def shared(self) -> bool:
        """Several workers may use this database at once (PostgreSQL)."""
        return self.db.kind == "postgres"

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self, upgrade: bool = True) -> None:
        # Each step under a lock, the version read inside it: workers starting together on an
        # empty database migrate it once.
        first = self.db.version()
        if first == len(SCHEMA):
            return
        if not upgrade and 0 < first < len(SCHEMA):
            raise StateError(
                f"{self.name}: made by an older digest (schema {first}), or by a first run cut"
                " short; `digest run` upgrades it, one way (back it up first; a run may be at it"
                " now)"
            )
        for number, script in enumerate(SCHEMA, start=1):
            with self.transaction() as db:
                db.lock("schema")
                version = db.version()
                if version > len(SCHEMA):
                    raise StateError(f"{self.name}: made by a newer digest (schema {version})")
                if version >= number:
                    continue
                if version == 0 and (others := db.tables()):
                    # Another program's database: taking it over would write 20 tables into it.
                    shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
                    raise StateError(f"{self.name}: not a digest state database (it holds {shown})")
                db.script(script)
                if number == len(SCHEMA):
                    # In the last step's commit: a crash between the two had left the papers
                    # kept before keys without theirs, and no later start would key them.
                    self.papers.key_unkeyed(db)
                if number == LOOSE_TITLES and first > 0:  # after: it keys only a bare store
                    log.warning(
                        "%s: upgrading to schema %d: keying the stored papers once (a minute a"
                        " few hundred thousand; a stop leaves the state as it was)",
                        self.name,
                        number,
                    )
                    self.papers.key_loose_titles(db)
                if number == TOKENS and 0 < first < KEYED_BY_INSTANT:
                    db.execute("UPDATE outbox SET token = '-'")
                db.set_version(number)

    def transaction(self) -> AbstractContextManager[engine.Engine]:
        return self.db.transaction()

    # papers

    def add_papers(self, papers: Iterable[Paper], now: datetime) -> int:
        """Keep the papers not known under any of their keys, complete the known ones; return
        how many were new (see catalog.py)."""
        return self.papers.add(papers, now)

    def papers_after(self, seq: int) -> list[tuple[int, Paper]]:
        rows = self.db.execute("SELECT * FROM papers WHERE seq > ? ORDER BY seq", (seq,))
        return [(row["seq"], row_paper(row)) for row in rows]

    def paper_blocks(
        self, after: int, through: int | None = None, size: int = 20_000, every: int = 1
    ) -> Iterator[list[tuple[int, Paper]]]:
        """The papers after seq `after` (up to `through`), oldest first, `size` at a time: a page
        per query, so that no engine holds them all (psycopg fetches a whole result). every=k:
        only the papers whose seq is a multiple of k (an even sample)."""
        last = after
        high = self.latest_seq() if through is None else through
        while True:
            rows = self.db.execute(
                "SELECT * FROM papers WHERE seq > ? AND seq <= ? AND seq % ? = 0"
                " ORDER BY seq LIMIT ?",
                (last, high, max(1, every), size),
            ).fetchall()
            if not rows:
                return
            yield [(row["seq"], row_paper(row)) for row in rows]
            last = rows[-1]["seq"]

    def count_after(self, seq: int) -> int:
        return int(
            self.db.execute("SELECT count(*) FROM papers WHERE seq > ?", (seq,)).fetchone()[0]
        )

    def latest_seq(self) -> int:
        return int(self.db.execute("SELECT coalesce(max(seq), 0) FROM papers").fetchone()[0])

    def count_papers(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM papers").fetchone()[0])
