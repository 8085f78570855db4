"""The runs and workers tables: each run's start, end and summary, and every worker's heartbeat
(what `digest status` and `digest health` read)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any

from digest.state.deliveries import stamp
from digest.state.engine import Engine

FORGET = timedelta(days=7)  # a worker silent this long leaves the workers table


class Runs:
    """Methods of the store, over its connection."""

    db: Engine
    worker: str
    transaction: Callable[[], AbstractContextManager[Engine]]

    # runs

    def start_run(self, started: datetime, clock: datetime) -> int:
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

    # workers

    def beat(self, now: datetime, kind: str, stopped: bool = False, **facts: Any) -> None:
        """This worker's heartbeat: `digest status` and `digest health` list every worker."""
        with self.transaction() as db:
            # Names with a pid change on every restart: forget those gone quiet for a week.
            db.execute("DELETE FROM workers WHERE beat_at < ?", (stamp(now - FORGET),))
            db.execute(
                "INSERT INTO workers (name, kind, beat_at, stopped, facts) VALUES (?,?,?,?,?)"
                " ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, beat_at ="
                " excluded.beat_at, stopped = excluded.stopped, facts = excluded.facts",
                (self.worker, kind, stamp(now), int(stopped), json.dumps(facts)),
            )

    def leave(self) -> None:
        """A `digest run` that ends is no worker any more (the runs table keeps its name); one
        killed stays, its heartbeat growing old, until it is forgotten."""
        with self.transaction() as db:
            db.execute("DELETE FROM workers WHERE name = ?", (self.worker,))

    def workers(self) -> list[dict[str, Any]]:
        """Every worker that beat, the latest first: name, kind, beat_at, stopped, facts."""
        rows = self.db.execute(
            "SELECT name, kind, beat_at, stopped, facts FROM workers ORDER BY beat_at DESC, name"
        )
        return [
            {**dict(r), "stopped": bool(r["stopped"]), "facts": json.loads(r["facts"])}
            for r in rows
        ]

    def runs(self, limit: int = 10) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,))
        return [{**dict(r), "summary": json.loads(r["summary"])} for r in rows]
