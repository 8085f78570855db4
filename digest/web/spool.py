"""The clicks (Slack votes, unsubscribes) a web face keeps while the state database is away, on
disk beside an SQLite state (`<db>.clicks`), so that a face stopped or crashed meanwhile loses
none: every face on that state reads them and writes them. One JSON line per click kept, one per
click done. A done line that cannot be written (a spool of another user) costs no second write:
the state keeps each click's key (state/votes.py)."""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

log = logging.getLogger("digest.web")


class Spool:
    def __init__(self, path: Path) -> None:
        self.path = path

    def keep(self, record: dict[str, Any]) -> None:
        """Add a kept click (its key, times and votes: no URL, nothing secret)."""
        try:
            self._append([record])
        except OSError as exc:  # a full or read-only disk: the click still waits in memory
            log.warning("web: %s: cannot keep a click on disk (%s)", self.path, _why(exc))

    def done(self, keys: Iterable[str]) -> bool:
        """These clicks are in the database now; with nothing left waiting, the file is
        emptied. False when they could not be marked: they stay listed (their keys in the state
        keep them from being recorded twice)."""
        marks = [{"done": key} for key in keys]
        try:
            self._append(marks)
        except OSError as exc:  # a spool another user's face owns, a full disk: one line
            what = "a click" if len(marks) == 1 else f"{len(marks)} clicks"
            said = "%s: cannot mark %s as recorded (%s): still listed there, but not recorded twice"
            log.warning(said, self.path, what, _why(exc))
            return False
        try:
            with self._locked("rb+") as file:
                if file is not None and not _waiting(file.read()):
                    file.truncate(0)
        except OSError as exc:
            log.warning("web: %s: cannot empty the kept clicks (%s)", self.path, _why(exc))
        return True

    def waiting(self) -> bool:
        """Whether the file holds anything (a stat, no lock): a look every few seconds is cheap."""
        try:
            return self.path.stat().st_size > 0
        except OSError:
            return False

    def load(self) -> list[dict[str, Any]]:
        """The clicks still waiting, oldest first."""
        try:
            with self._locked("rb") as file:
                return [] if file is None else _waiting(file.read())
        except OSError as exc:
            log.warning("web: %s: cannot read the kept clicks (%s)", self.path, _why(exc))
            return []

    def _append(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        text = "".join(json.dumps(r) + "\n" for r in records).encode()
        with self._locked("ab+") as file:
            assert file is not None
            size = file.seek(0, os.SEEK_END)
            if size:  # after a line a crash cut short, a new line: that one alone is lost
                file.seek(size - 1)
                text = text if file.read(1) == b"\n" else b"\n" + text
            file.write(text)
            file.flush()
            os.fsync(file.fileno())  # on disk before the click counts as kept

    @contextmanager
    def _locked(self, mode: str) -> Iterator[IO[bytes] | None]:
        """The file, locked against the other faces on this state (None: there is none)."""
        try:
            file = self.path.open(mode)
        except FileNotFoundError:
            if mode != "ab+":
                yield None
                return
            raise
        with file:
            fcntl.flock(file, fcntl.LOCK_EX)
            yield file


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _waiting(data: bytes) -> list[dict[str, Any]]:
    kept: dict[str, dict[str, Any]] = {}
    for line in data.splitlines():
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):  # a line cut short by a crash (bad UTF-8 too), or
            continue  # a damaged one nested past json's depth: the rest still counts
        if not isinstance(record, dict):
            continue
        if isinstance(record.get("done"), str):
            kept.pop(record["done"], None)
        elif isinstance(record.get("key"), str):
            kept[record["key"]] = record
    return list(kept.values())
