"""The runs and workers tables: each run's start, end and summary, and every worker's heartbeat
(what `digest status` and `digest health` read); which run was cut short, and which outbox rows
other workers are sending right now."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from digest.models import DigestError
from digest.state.claims import MARK, alive, holder, token
from digest.state.claims import ended as gone
from digest.state.deliveries import CLOCK, stamp
from digest.state.engine import Engine

FORGET = timedelta(days=7)  # a worker silent this long leaves the workers table
# A run still marked running whose worker has been silent this long is taken for cut short: a
# `digest serve` beats every 30 s, even during a long job; a `digest run` beats only as it starts.
SILENT = {"serve": timedelta(minutes=2), "run": timedelta(hours=12)}
# A `digest run` on PostgreSQL beats this often too (its beat's facts say so, "every"), and is
# taken for cut short after 4 beats missed: one that lost its server and ended on it had read
# "running" for 12 hours (reg33 O2).
RUN_BEAT = 30.0
# A serve polling every minute makes 1,440 runs a day: the runs and their sources' outcomes are
# kept this long, and the last KEEP_LAST runs and each source's last try and last success always.
KEEP = timedelta(days=30)
KEEP_LAST = 100


class Runs:
    """Methods of the store, over its connection."""

    db: Engine
    worker: str
    transaction: Callable[[], AbstractContextManager[Engine]]
    clock: datetime | None = None  # the clock of the run this store started (its leases')

    # runs

    def start_run(self, started: datetime, clock: datetime) -> int:
        self.clock = clock
        with self.transaction() as db:
            row = db.execute(
                "INSERT INTO runs (started_at, clock, worker) VALUES (?, ?, ?) RETURNING id",
                (stamp(started), stamp(clock), self.worker),
            ).fetchone()
            return int(row[0])

    def finish_run(
        self, run_id: int, finished: datetime, outcome: str, summary: dict[str, Any]
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE runs SET finished_at = ?, outcome = ?, summary = ? WHERE id = ?",
                (stamp(finished), outcome, json.dumps(summary), run_id),
            )
            _forget_runs(db, stamp(finished - KEEP))

    # workers

    def beat(self, now: datetime, kind: str, stopped: bool = False, **facts: Any) -> None:
        """This worker's heartbeat: `digest status` and `digest health` list every worker."""
        with self.transaction() as db:
            if db.kind == "postgres":  # health judges a beat on the server's clock: a worker's
                # own, an hour fast, kept a killed worker "alive" for that hour
                facts["server_at"] = db.execute(f"SELECT {CLOCK}").fetchone()[0]
            # Its process as a claim names it (machine, pid namespace, pid): whether it ended is
            # told by that, not by the name's hostname and pid (ops23 F3: a container sharing
            # the host's hostname had been taken for ended, and its run for interrupted).
            facts["process"] = token()
            # Names with a pid change on every restart: forget those gone quiet for a week.
            db.execute("DELETE FROM workers WHERE beat_at < ?", (stamp(now - FORGET),))
            db.execute(
                "INSERT INTO workers (name, kind, beat_at, stopped, facts) VALUES (?,?,?,?,?)"
                " ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, beat_at ="
                " excluded.beat_at, stopped = excluded.stopped, facts = excluded.facts",
                (self.worker, kind, stamp(now), int(stopped), json.dumps(facts)),
            )

    @contextmanager
    def beating(self, every: float = RUN_BEAT, away: float = 0.0) -> Iterator[None]:
        """A `digest run`'s heartbeat: once now and, on PostgreSQL, every `every` seconds from a
        thread of its own until the block ends (on SQLite the run's one connection is not shared
        with a thread that might write inside its transaction; one run at a time holds the file).
        `away`: how long the run waits for a server away, its beats missed as long. The run
        leaves the workers at the end, whatever ended it (ops21 F4)."""
        shared = self.db.kind == "postgres"
        facts: dict[str, Any] = {"every": every, "away": away} if shared else {}
        self.beat(datetime.now(UTC), "run", **facts)  # alive by the wall clock, whatever --now
        done = threading.Event()

        def loop() -> None:
            wait = every
            while not done.wait(wait):
                try:
                    self.beat(datetime.now(UTC), "run", **facts)
                    wait = every
                except DigestError:  # the server away: the run itself says so, if it matters;
                    # soon again, not a whole beat later: a run back at work read interrupted
                    # for half a minute after an outage (ops21 F5)
                    wait = every / 6

        thread = threading.Thread(target=loop, name="run-beat", daemon=True)
        if shared:
            thread.start()
        try:
            yield
        finally:
            done.set()
            if shared:
                thread.join(5.0)  # a beat on the wire ends before leave() deletes the row
            with suppress(DigestError):  # the state away or full: its row reads ended
                self.leave()

    def leave(self) -> None:
        """A `digest run` that ends is no worker any more (the runs table keeps its name); one
        killed stays, its heartbeat growing old, until it is forgotten: its row tells status
        why its run, never ended, was interrupted."""
        with self.transaction() as db:
            db.execute("DELETE FROM workers WHERE name = ?", (self.worker,))

    def server_now(self) -> datetime | None:
        """The database server's clock (PostgreSQL), which every worker's beat is timed on."""
        if self.db.kind != "postgres":
            return None
        (at,) = self.db.execute(f"SELECT {CLOCK}").fetchone()
        return datetime.fromisoformat(str(at).replace("Z", "+00:00"))

    def workers(self) -> list[dict[str, Any]]:
        """Every worker that beat, the latest first: name, kind, beat_at, stopped, facts."""
        rows = self.db.execute(
            "SELECT name, kind, beat_at, stopped, facts FROM workers ORDER BY beat_at DESC, name"
        )
        return [
            {**dict(r), "stopped": bool(r["stopped"]), "facts": json.loads(r["facts"])}
            for r in rows
        ]

    def runs(self, limit: int = 10, now: datetime | None = None) -> list[dict[str, Any]]:
        """The last runs, newest first. One still marked running whose worker is gone (a later
        run of the same worker, a worker silent too long or stopped, a process gone from this
        machine) reads `interrupted`, with `gone` saying why and `new` the papers its sources
        had stored (from source_runs, written as it went): an outage or a kill can leave the
        row no later write reaches. The row itself stays as it is."""
        rows = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,))
        listed = [{**dict(r), "summary": json.loads(r["summary"])} for r in rows]
        workers = {w["name"]: w for w in self.workers()} if listed else {}
        for run in listed:
            if run["outcome"] == "running" and (why := self._gone(run, workers, now)):
                new = self.db.execute(
                    "SELECT sum(new) FROM source_runs WHERE run_id = ?", (run["id"],)
                ).fetchone()[0]
                run.update(outcome="interrupted", gone=why, new=new)
        return listed

    def _gone(
        self, run: dict[str, Any], workers: dict[str, dict[str, Any]], now: datetime | None
    ) -> str:
        """Why the worker of a run still marked running cannot be running it, or ""."""
        name = str(run.get("worker") or "")
        if not name:
            return ""
        worker = workers.get(name)
        if departed(worker) if worker is not None else ended(name):
            return (
                "its process ended before the run's end was written (killed, the machine stopped,"
                " or the state database away or full)"
            )
        later = self.db.execute(
            "SELECT clock FROM runs WHERE worker = ? AND id > ? ORDER BY id LIMIT 1",
            (name, run["id"]),
        ).fetchone()
        if later is not None:  # one worker makes one run at a time
            return f"its worker {name} started another run ({later[0]}) before this one ended"
        if worker is not None and worker["stopped"]:
            return f"its worker {name} stopped before the run ended"
        # By the wall clock: a run's clock is its --now, days away from the moment of a replay.
        beat = worker["beat_at"] if worker is not None else run["started_at"]
        kind = worker["kind"] if worker is not None else "run"
        every = worker["facts"].get("every") if worker is not None else None
        # Four beats, and the while it may wait for a server away (ops21 F5).
        away = float(worker["facts"].get("away") or 0) if worker is not None else 0.0
        limit = timedelta(seconds=4 * every + away) if every else SILENT.get(kind, SILENT["run"])
        # The earlier of `now` and the wall clock: a status asked with a --now ahead called a
        # live run silent for hours.
        wall = datetime.now(UTC)
        silent = min(now or wall, wall) - _instant(beat)
        if silent > limit:
            return f"its worker {name} has given no sign of life since {beat}"
        return ""

    def in_flight(self, now: datetime) -> dict[int, tuple[str, str, bool]]:
        """The pending rows due that a worker is sending right now (its lease is live, on the
        clock `now`): row id -> (the worker's name, its lease's end, whether its process is
        known to have ended). Only on PostgreSQL, as outbox_counts' "in flight"."""
        if self.db.kind != "postgres":
            return {}
        at = stamp(now)
        # The lease on the database server's clock, as outbox_counts() counts it: on --now's,
        # status counted rows "being sent now" and listed the same rows "pending".
        rows = self.db.execute(
            "SELECT id, claimed_by, lease_until FROM outbox WHERE status = 'pending'"
            f" AND lease_until > {CLOCK} AND (next_try_at IS NULL OR next_try_at <= ?)",
            (at,),
        )
        # Whether it ended by the claim's token (this machine, its pid), whatever the worker's
        # name: one named by DIGEST_WORKER and killed had read "being sent now" (ops22 F2).
        return {
            r["id"]: (name, r["lease_until"], gone(claim) if claim != name else ended(name))
            for r in rows
            for claim in [r["claimed_by"]]
            for name in [holder(claim)]
        }


def _forget_runs(db: Engine, before: str) -> None:
    """Runs started before `before` leave, with their sources' rows, but for the last KEEP_LAST
    runs and the runs of each source's last try and last success (what `sources()` reads). Each
    kept set is found once: asked row by row, the first run after an upgrade over 10,000 old
    runs took 94 s, holding the lock."""
    row = db.execute(
        "SELECT min(id) FROM (SELECT id FROM runs ORDER BY id DESC LIMIT ?) AS last", (KEEP_LAST,)
    ).fetchone()
    if row is None or row[0] is None:
        return
    kept = (
        "SELECT max(run_id) FROM source_runs GROUP BY source UNION"
        " SELECT max(run_id) FROM source_runs WHERE error = '' GROUP BY source"
    )
    db.execute(
        f"DELETE FROM source_runs WHERE at < ? AND run_id < ? AND run_id NOT IN ({kept})",
        (before, row[0]),
    )
    db.execute(
        "DELETE FROM runs WHERE started_at < ? AND id < ?"
        " AND id NOT IN (SELECT run_id FROM source_runs)",
        (before, row[0]),
    )


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def departed(worker: dict[str, Any]) -> bool:
    """Whether a worker's process is known to have ended: by the process its beat names (a
    claim's token), or, for a beat of an older digest, by its name (ended())."""
    process = worker["facts"].get("process")
    if process:
        return gone(f"{worker['name']}{MARK}{process}")
    return ended(str(worker["name"]))


def ended(worker: str) -> bool:
    """Whether the worker is a process of this machine (the default name, hostname:pid) that is
    no longer there; of another machine, or named by $DIGEST_WORKER, nothing is known."""
    host, _, pid = worker.rpartition(":")
    return host == socket.gethostname() and pid.isdigit() and not alive(int(pid))
