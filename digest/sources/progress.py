"""Fetch progress: what a source tells while it reads (how many papers to expect, what it waits
for), shown as one rich progress bar per source in a terminal and as plain log lines otherwise.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol, TextIO

from digest.models.characters import BIDI, C0, C1, SEPARATORS

log = logging.getLogger("digest.sources")


class Progress(Protocol):
    """What a source may report while it fetches; every call is optional for the source."""

    def expect(self, total: int) -> None: ...  # papers the source expects to yield in all

    def advance(self, count: int = 1) -> None: ...  # papers yielded so far grew by count

    def note(self, text: str) -> None: ...  # what it is doing: "page 2 of 5", "waiting 3 s"


class Quiet:
    """Progress that shows nothing: for sources called outside a run (tests, library lookups)."""

    def expect(self, total: int) -> None:
        pass

    def advance(self, count: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        pass


QUIET = Quiet()


class Display(Protocol):
    """Shows the progress of every source of one run; used as a context manager around them."""

    def __enter__(self) -> Display: ...

    def __exit__(self, *exc: object) -> None: ...

    def source(self, name: str) -> AbstractContextManager[Progress]: ...


class LogLines:
    """Progress as INFO log lines (cron, pipes): one line per note, none per paper."""

    def __init__(self, name: str) -> None:
        self.name = name

    def expect(self, total: int) -> None:
        log.info("source %s: %d papers to read", self.name, total)

    def advance(self, count: int = 1) -> None:
        pass

    def note(self, text: str) -> None:
        log.info("source %s: %s", self.name, text)


class LogDisplay:
    def __enter__(self) -> LogDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    @contextmanager
    def source(self, name: str) -> Iterator[Progress]:
        log.info("source %s: fetching", name)
        yield LogLines(name)


class _Bar:
    def __init__(self, bars: Any, task: Any) -> None:
        self.bars, self.task = bars, task

    def expect(self, total: int) -> None:
        self.bars.update(self.task, total=total)

    def advance(self, count: int = 1) -> None:
        self.bars.advance(self.task, count)

    def note(self, text: str) -> None:
        # The whole story goes to the run summary; a bar has room for its gist. A server's words
        # are in it: none of their controls reaches the terminal (the columns take no markup).
        text = _UNSHOWN.sub("", text)
        self.bars.update(self.task, note=text if len(text) <= 48 else text[:47] + "…")


_UNSHOWN = re.compile(f"[{C0}{C1}{SEPARATORS}{BIDI}]")


class BarDisplay:
    """One bar per source (name, papers so far of expected, what it is doing, time taken)."""

    def __init__(self, console: Any) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.table import Column

        self.bars = Progress(
            SpinnerColumn(finished_text="✓"),
            TextColumn(
                "{task.description}", "bold", markup=False, table_column=Column(no_wrap=True)
            ),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[note]}", markup=False),
            console=console,
        )

    def __enter__(self) -> BarDisplay:
        self.bars.start()
        # While bars are drawn, rich stands a proxy in for sys.stderr that prints above them;
        # log handlers still hold the real stream and would write across the bars.
        self.moved = [
            (h, h.setStream(sys.stderr))
            for h in logging.getLogger().handlers
            if isinstance(h, logging.StreamHandler) and h.stream is sys.__stderr__
        ]
        return self

    def __exit__(self, *exc: object) -> None:
        for handler, stream in self.moved:
            handler.setStream(stream)
        self.bars.stop()

    @contextmanager
    def source(self, name: str) -> Iterator[Progress]:
        task = self.bars.add_task(name, total=None, note="")
        try:
            yield _Bar(self.bars, task)
        finally:
            done = next(t.completed for t in self.bars.tasks if t.id == task)
            # A source whose total was never known still ends as a full bar.
            self.bars.update(task, total=done, completed=done)


def display(stream: TextIO | None = None) -> Display:
    """Bars when `stream` (stderr by default) is a terminal; log lines otherwise."""
    stream = stream or sys.stderr
    interactive = hasattr(stream, "isatty") and stream.isatty() and os.environ.get("TERM") != "dumb"
    if not interactive:
        return LogDisplay()
    from rich.console import Console

    return BarDisplay(Console(file=stream))
