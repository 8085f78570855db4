"""Every test runs in its own empty working directory, so relative paths (out/, state/) written by
the code under test land in tmp_path, never in the repository. The shared fixtures for a real
PostgreSQL (support_postgres.py) and a headless Chromium (support_browser.py) are offered here."""

from __future__ import annotations

from pathlib import Path

import pytest
import support_browser
import support_postgres
from support_browser import browser_page, chromium  # noqa: F401 (fixtures)
from support_postgres import postgres_cluster, postgres_url  # noqa: F401 (fixtures)

# A tool missing on this machine skips the tests that need it; the summary names them.
MISSING_TOOLS = (support_postgres.HOW_TO_GET, support_browser.HOW_TO_GET)


@pytest.fixture(autouse=True)
def _own_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per missing tool: how to get it, and which tests it skipped."""
    skipped = terminalreporter.stats.get("skipped", [])
    for reason in MISSING_TOOLS:
        tests = [
            r.nodeid for r in skipped if isinstance(r.longrepr, tuple) and reason in r.longrepr[2]
        ]
        if tests:
            terminalreporter.write_line(f"{reason}; skipped {len(tests)}: {' '.join(tests)}")
