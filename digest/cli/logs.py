"""The command's log: one line per event on stderr, every known secret redacted before any
handler sees it, and safe for a terminal (a warning may quote a paper's title)."""

from __future__ import annotations

import logging
import sys

from digest.cli.terminal import shown
from digest.models import redact


class Redactor(logging.Filter):
    """Replaces every known secret in a log record before any handler sees it."""

    secrets: frozenset[str] = frozenset()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            record.msg, record.args = redact(record.getMessage(), self.secrets), None
        return True


REDACTOR = Redactor()


class Shown(logging.Formatter):
    """Formats a record as the terminal may show it: its control characters escaped, and known
    secrets redacted again, since a library's traceback text never passes through the filter."""

    def format(self, record: logging.LogRecord) -> str:
        return shown(redact(super().format(record), REDACTOR.secrets))


def setup_logging(verbose: int) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(Shown("digest: %(levelname)s: %(message)s"))
    handler.addFilter(REDACTOR)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel([logging.WARNING, logging.INFO, logging.DEBUG][min(verbose, 2)])
    # httpx logs every request URL at INFO, and a webhook's URL is its secret: channels and
    # sources log what matters themselves.
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
