"""Every test runs in its own empty working directory, so relative paths (out/, state/) written by
the code under test land in tmp_path, never in the repository. The shared fixtures for a real
PostgreSQL (support_postgres.py) and a headless Chromium (support_browser.py) are offered here."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import support_browser
import support_postgres
from support_browser import browser_page, chromium  # noqa: F401 (fixtures)
from support_postgres import postgres_cluster, postgres_url  # noqa: F401 (fixtures)
from support_state import state  # noqa: F401 (fixture: each state test on SQLite and PostgreSQL)

# A tool missing on this machine skips the tests that need it; the summary names them.
MISSING_TOOLS = (support_postgres.HOW_TO_GET, support_browser.HOW_TO_GET)
DEAD_PROXY = "http://127.0.0.1:9"  # nothing listens on the discard port: refused at once
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
PROXY_VARIABLES += tuple(name.lower() for name in PROXY_VARIABLES)
LOOPBACK = ("127.0.0.1", "localhost")


def pytest_configure(config: pytest.Config) -> None:
    """A dead proxy for every client that reads the environment (httpx, urllib, and the
    processes the tests start): a request past 127.0.0.1 fails at once instead of using the
    network. Loopback, where every test server listens, bypasses it."""
    for name in PROXY_VARIABLES:
        os.environ[name] = DEAD_PROXY
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [host.strip() for host in os.environ.get(name, "").split(",") if host.strip()]
        os.environ[name] = ",".join(hosts + [host for host in LOOPBACK if host not in hosts])


@pytest.fixture(autouse=True)
def _own_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # Parsed libraries are cached under XDG_CACHE_HOME: each test gets its own, not ~/.cache.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)
    # The log's redactor is the process's, as a command's is: one test's secrets ("digest" as a
    # password) had blotted another's file names from its messages, in some test orders.
    from digest.cli.logs import REDACTOR

    monkeypatch.setattr(REDACTOR, "secrets", frozenset())
    # So are the library words a run's passes share (corpus._shared_words): a test that reads
    # words otherwise (a patched analyzer) must not meet another test's.
    from digest import corpus

    corpus._shared_words.cache_clear()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per missing tool: how to get it, and which tests it skipped."""
    skipped = terminalreporter.stats.get("skipped", [])
    for reason in MISSING_TOOLS:
        tests = [
            r.nodeid for r in skipped if isinstance(r.longrepr, tuple) and reason in r.longrepr[2]
        ]
        if tests:
            terminalreporter.write_line(f"{reason}; skipped {len(tests)}: {' '.join(tests)}")


@pytest.fixture(params=["at once", "in passes"])
def ranking_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test twice: the new papers ranked at once, and ranked in passes over blocks of
    stored papers (as a day of over LARGE_POOL papers is), with a stored space however small
    the store: a digest or an alert must not depend on which."""
    if request.param == "in passes":
        from digest import corpus, ranking

        monkeypatch.setattr(ranking, "LARGE_POOL", 0)
        monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 1)
    return str(request.param)


@pytest.fixture
def words_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ranking without the built-in background (ranking/background.py): idf from the papers
    given alone, and no latent basis: the words' cosine stands in for it."""
    from digest.ranking import background

    monkeypatch.setattr(background, "FILE", tmp_path / "no-background.npz")
