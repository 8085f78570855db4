"""The shared fixtures work as the other tests rely on: a fresh, isolated PostgreSQL database per
test on 127.0.0.1; a headless Chromium that reads and clicks loopback pages and measures overflow
at a phone's width; a dead proxy for all but loopback; a one-line skip for a missing tool."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from psycopg_pool import ConnectionPool
from support_browser import PHONE, BrowserThread, expect, layout_at, serve_pages
from support_postgres import Cluster

TESTS = Path(__file__).resolve().parent
DEAD_PROXY = "http://127.0.0.1:9"


def test_a_fresh_database_stores_and_reads_back(postgres_url: str) -> None:
    assert postgres_url.startswith("postgresql://digest@127.0.0.1:")
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE papers (id text PRIMARY KEY, title text NOT NULL)")
        conn.execute("INSERT INTO papers VALUES (%s, %s)", ("2501.00001", "Private estimation"))
        conn.commit()
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT id, title FROM papers").fetchall() == [
            ("2501.00001", "Private estimation")
        ]


def test_each_fresh_database_starts_empty_and_sees_no_other(postgres_cluster: Cluster) -> None:
    first, second = postgres_cluster.create_database(), postgres_cluster.create_database()
    assert first != second
    with psycopg.connect(first) as conn:
        conn.execute("CREATE TABLE runs (n int)")
    tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
    with psycopg.connect(second) as conn:
        assert conn.execute(tables).fetchone() == (0,)
    with psycopg.connect(first) as conn:
        assert conn.execute(tables).fetchone() == (1,)


def test_the_server_listens_on_loopback_only_and_not_as_root(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SHOW listen_addresses").fetchone() == ("127.0.0.1",)
        assert conn.execute("SELECT current_user").fetchone() == ("digest",)
        pid = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert pid is not None
        # Read while the connection is open: its backend process ends with it.
        status = Path(f"/proc/{pid[0]}/status").read_text()
    real_uid = next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:"))
    assert real_uid != "0"


def test_a_pool_of_connections_works_on_a_fresh_database(postgres_url: str) -> None:
    with ConnectionPool(postgres_url, min_size=2, max_size=2, open=True, timeout=10) as pool:
        with pool.connection() as one, pool.connection() as two:
            assert one.execute("SELECT pg_backend_pid()").fetchone() != (
                two.execute("SELECT pg_backend_pid()").fetchone()
            )


COUNTER = """<!doctype html><title>Digest</title><h1>Your digest</h1>
<p>Clicked <span id="count">0</span> times</p><button>Rate</button><ul></ul>
<script>
document.querySelector('button').onclick = () => {
  const count = document.getElementById('count');
  count.textContent = String(Number(count.textContent) + 1);
  document.querySelector('ul').insertAdjacentHTML('beforeend', '<li>rated</li>');
};
</script>"""


def test_the_browser_reads_a_loopback_page_and_clicks_a_button(browser_page: Any) -> None:
    with serve_pages({"/": COUNTER}) as base:
        response = browser_page.goto(base + "/")
        assert response.status == 200
        assert browser_page.title() == "Digest"
        assert browser_page.inner_text("h1") == "Your digest"
        browser_page.get_by_role("button", name="Rate").click()
        browser_page.click("button")
        assert browser_page.inner_text("#count") == "2"
        assert browser_page.locator("li").all_inner_texts() == ["rated", "rated"]
        expect(browser_page.locator("#count")).to_have_text("2")
        assert browser_page.goto(base + "/missing").status == 404


WIDE = """<!doctype html><meta name="viewport" content="width=device-width">
<style>body { margin: 8px; font-family: sans-serif; }</style>
<p>A paper title that wraps as it should.</p>
<div id="wide" class="table" style="width: 600px; height: 20px; background: #c00"></div>"""
NARROW = WIDE.replace("width: 600px", "max-width: 600px")


def test_a_wide_element_overflows_a_phone_and_a_narrow_one_does_not(
    browser_page: Any, tmp_path: Path
) -> None:
    with serve_pages({"/wide": WIDE, "/narrow": NARROW}) as base:
        browser_page.goto(base + "/wide")
        wide = layout_at(browser_page, PHONE, screenshot=tmp_path / "wide.png")
        assert wide.overflows, str(wide)
        assert wide.inner_width == PHONE and wide.scroll_width >= 600 + 8
        assert wide.widest[0].startswith("div#wide.table")
        assert (tmp_path / "wide.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert not layout_at(browser_page, 1024).overflows

        browser_page.goto(base + "/narrow")
        narrow = layout_at(browser_page, PHONE)
        assert not narrow.overflows, str(narrow)
        assert narrow.widest == []


def test_asyncio_still_runs_in_a_test_that_drives_the_browser(browser_page: Any) -> None:
    browser_page.set_content("<p>hi</p>")
    assert asyncio.run(asyncio.sleep(0, result="ran")) == "ran"
    assert browser_page.inner_text("p") == "hi"


def test_a_dead_proxy_in_the_environment_does_not_reach_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, DEAD_PROXY)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Chromium not found at /usr/bin/chromium: apt-get install chromium")
    browser = BrowserThread()  # its own launch, so it starts with the proxy in its environment
    try:
        with serve_pages({"/": COUNTER}) as base:
            page = browser.call(browser.browser.new_page)
            assert browser.call(lambda: page.goto(base + "/").status) == 200
            # A second context sees none of the first one's cookies.
            browser.call(lambda: page.evaluate("document.cookie = 'reader=alice'"))
            other = browser.call(browser.browser.new_page)
            browser.call(lambda: other.goto(base + "/"))
            assert browser.call(lambda: other.evaluate("document.cookie")) == ""
            assert browser.call(lambda: page.evaluate("document.cookie")) == "reader=alice"
    finally:
        browser.close()


def test_requests_past_loopback_meet_the_dead_proxy_and_loopback_bypasses_it() -> None:
    for url in ("http://digest.example.invalid/", "https://digest.example.invalid/"):
        with pytest.raises(httpx.ConnectError, match="Connection refused"):  # not a DNS lookup
            httpx.get(url, timeout=5)
    with serve_pages({"/": COUNTER}) as base:
        assert httpx.get(base + "/", timeout=5).status_code == 200
        assert httpx.get(base.replace("127.0.0.1", "localhost") + "/", timeout=5).status_code == 200


def test_missing_tools_skip_with_one_line_naming_the_tests(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent(f"""
        import runpy, sys
        sys.path.insert(0, {str(TESTS)!r})
        import support_browser, support_postgres
        support_postgres.server_binaries = lambda: None
        support_browser.CHROMIUM = "/nonexistent/chromium"
        shared = runpy.run_path({str(TESTS / "conftest.py")!r})
        globals().update((k, v) for k, v in shared.items() if not k.startswith("__"))
        """)
    )
    (tmp_path / "test_needs_tools.py").write_text(
        textwrap.dedent("""
        def test_needs_postgres(postgres_url): pass
        def test_needs_too(postgres_url): pass
        def test_needs_chromium(browser_page): pass
        def test_needs_nothing(): pass
        """)
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert (
        "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql; "
        "skipped 2: test_needs_tools.py::test_needs_postgres test_needs_tools.py::test_needs_too"
    ) in lines, result.stdout
    assert (
        "Chromium not found at /usr/bin/chromium: apt-get install chromium; "
        "skipped 1: test_needs_tools.py::test_needs_chromium"
    ) in lines, result.stdout
    assert "1 passed, 3 skipped" in result.stdout
