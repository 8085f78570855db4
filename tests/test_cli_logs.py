"""The command's log: one line per event, secrets redacted wherever a record carries them, the
text of a traceback included, and safe for a terminal."""

from __future__ import annotations

import logging

import pytest

from digest.cli.logs import REDACTOR, setup_logging

SECRET = "xoxb-1234-sekret-webhook-token"


@pytest.fixture
def log(monkeypatch):
    """Sets logging up as a command does, on the test's own stderr, with one known secret."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    monkeypatch.setattr(REDACTOR, "secrets", frozenset({SECRET}))

    def start() -> logging.Logger:
        setup_logging(0)  # in the test itself: capsys swaps stderr only once the test runs
        return logging.getLogger("digest.test")

    yield start
    root.handlers[:], root.level = handlers, level


def test_a_secret_in_a_message_or_its_arguments_is_blotted_out(log, capsys) -> None:
    log = log()
    log.warning("posting to %s failed", SECRET)
    log.warning(f"posting to {SECRET.upper()} failed")
    err = capsys.readouterr().err
    assert err.count("digest: WARNING: posting to") == 2
    assert "sekret" not in err.lower()


def test_a_secret_in_a_libraries_traceback_is_blotted_out(log, capsys) -> None:
    log = log()
    try:
        raise RuntimeError(f"cannot reach https://hooks.example/{SECRET}")
    except RuntimeError:
        log.error("the post failed", exc_info=True)
    err = capsys.readouterr().err
    assert "RuntimeError" in err and "the post failed" in err
    assert "sekret" not in err


def test_control_characters_in_a_line_are_escaped(log, capsys) -> None:
    log = log()
    log.warning("title \x1b[2Jcleared")
    err = capsys.readouterr().err
    assert "\x1b" not in err and "cleared" in err
