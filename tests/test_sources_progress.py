"""Fetch progress: a bar per source in a terminal, plain log lines anywhere else."""

from __future__ import annotations

import io
import logging

import pytest
from rich.console import Console

from digest.sources import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_or_file_gets_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="digest.sources")
    shown = progress.display(io.StringIO())
    assert isinstance(shown, progress.LogDisplay)
    with shown, shown.source("arxiv") as bar:
        bar.expect(450)
        bar.advance(200)
        bar.note("page 2 of 3")
    assert caplog.messages == [
        "source arxiv: fetching",
        "source arxiv: 450 papers to read",
        "source arxiv: page 2 of 3",
    ]


def test_a_terminal_gets_a_bar_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")
    assert isinstance(progress.display(Terminal()), progress.BarDisplay)
    screen = io.StringIO()
    shown = progress.BarDisplay(Console(file=screen, force_terminal=True, width=100))
    with shown:
        with shown.source("arxiv") as bar:
            bar.expect(3)
            bar.advance(3)
            bar.note("3 new")
        with shown.source("nature-feed") as bar:
            bar.advance(7)  # a feed whose size was never announced still ends as a full bar
    text = screen.getvalue()
    assert "arxiv" in text and "3/3" in text and "3 new" in text
    assert "nature-feed" in text and "7/7" in text


def test_a_servers_words_in_a_bar_act_on_no_terminal_and_are_no_markup() -> None:
    """A retry's note quotes the server: its escapes had set the window's title and cleared the
    screen, and a "[/bold]" had rich print a traceback over the bars."""
    screen = io.StringIO()
    shown = progress.BarDisplay(Console(file=screen, force_terminal=True, width=120))
    with shown:
        with shown.source("[red]or") as bar:
            bar.note("HTTP 503 \x1b]0;PWNED\x1b\\\x1b[2J [/bold] x; retrying")
    text = screen.getvalue()
    assert "PWNED" in text and "[/bold]" in text and "[red]or" in text
    assert "\x1b]0;" not in text and "\x1b[2J" not in text


def test_a_dumb_terminal_gets_log_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert isinstance(progress.display(Terminal()), progress.LogDisplay)
