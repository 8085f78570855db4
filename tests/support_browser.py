"""Headless Chromium for the tests: Debian's /usr/bin/chromium driven by playwright (never its own
browser download), one browser per session and a fresh context per test; pages served from
127.0.0.1, and a layout check (screenshot, horizontal overflow) at a given viewport width."""

from __future__ import annotations

import queue
import shutil
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

HOW_TO_GET = "Chromium not found at /usr/bin/chromium: apt-get install chromium"
CHROMIUM = "/usr/bin/chromium"
# Headless, as root (no sandbox), and nothing that talks to Google or anything but the page:
# no background networking, component updates, sync, first-run pages, QUIC, nor any proxy from
# the environment (the tests set a dead one; every page here is on 127.0.0.1).
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # containers give /dev/shm 64 MB, which Chromium can outgrow
    "--no-proxy-server",
]
PHONE = 390  # px: the narrowest common phone viewport (iPhone 12-15), the width we design for
TIMEOUT_MS = 15_000  # a 2-core machine running several suites can be slow; no test waits longer

# The widest elements that stick out past the viewport's right edge, for the failure message.
_OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    const right = el.getBoundingClientRect().right;
    if (right > width + 0.5) {
      const id = el.id ? '#' + el.id : '';
      const cls = el.classList.length ? '.' + [...el.classList].join('.') : '';
      wide.push([right, el.tagName.toLowerCase() + id + cls]);
    }
  }
  wide.sort((a, b) => b[0] - a[0]);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: width,
    widest: wide.slice(0, 5).map(([r, name]) => name + ' (right edge ' + Math.round(r) + ')'),
  };
}"""


@dataclass(frozen=True)
class Layout:
    """What a page looks like at one viewport width."""

    width: int
    scroll_width: int  # document.documentElement.scrollWidth
    inner_width: int  # window.innerWidth
    widest: list[str]  # the elements sticking out furthest, e.g. "table.papers (right edge 612)"
    screenshot: Path | None

    @property
    def overflows(self) -> bool:
        """True when the page scrolls sideways: wider than the viewport."""
        return self.scroll_width > self.inner_width

    def __str__(self) -> str:
        sticking = ", ".join(self.widest) or "no element"
        return (
            f"at {self.width} px the page is {self.scroll_width} px wide "
            f"(viewport {self.inner_width} px); sticking out: {sticking}"
        )


def layout_at(page: Any, width: int, screenshot: Path | None = None, height: int = 844) -> Layout:
    """Resize the viewport to `width`, then measure the page (and save a full-page screenshot
    to `screenshot` when given)."""
    page.set_viewport_size({"width": width, "height": height})
    measured = page.evaluate(_OVERFLOW_JS)
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    return Layout(
        width=width,
        scroll_width=int(measured["scrollWidth"]),
        inner_width=int(measured["innerWidth"]),
        widest=list(measured["widest"]),
        screenshot=screenshot,
    )


@contextmanager
def serve_pages(pages: dict[str, str]) -> Iterator[str]:
    """An HTTP server on 127.0.0.1 answering each path of `pages` with that HTML (404 otherwise);
    yields its base URL, e.g. "http://127.0.0.1:40123"."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path.split("?")[0])
            data = (body if body is not None else "not found").encode()
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test's own assertions say what matters

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class BrowserThread:
    """Playwright and its browser in a thread of their own. Playwright's sync API marks its event
    loop as running in the thread that uses it, which would break every later asyncio.run() in
    the test thread (in-process `digest` commands, servers); here only this thread is marked."""

    def __init__(self) -> None:
        self.calls: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
        self.thread.start()
        self.playwright: Any = None
        self.browser: Any = self.call(self._launch)

    def _launch(self) -> Any:
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        return self.playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=ARGS, timeout=60_000
        )

    def _serve(self) -> None:
        while (item := self.calls.get()) is not None:
            function, result = item
            try:
                result.set_result(function())
            except BaseException as error:  # handed to the caller's thread, raised there
                result.set_exception(error)

    def call(self, function: Callable[[], Any]) -> Any:
        """Run `function` in the browser's thread; its result, or its exception raised here."""
        if threading.current_thread() is self.thread:
            return function()  # a playwright callback (page.on(...)) calling back in
        result: Future[Any] = Future()
        self.calls.put((function, result))
        return result.result()

    def close(self) -> None:
        def stop() -> None:
            try:
                self.browser.close()
            finally:
                self.playwright.stop()

        try:
            self.call(stop)
        finally:
            self.calls.put(None)
            self.thread.join(timeout=30)


class Remote:
    """A playwright object living in the browser's thread: every attribute and method call runs
    there, and playwright objects it returns (locators, responses, ...) come back as Remotes."""

    def __init__(self, browser: BrowserThread, target: Any) -> None:
        object.__setattr__(self, "_browser", browser)
        object.__setattr__(self, "_target", target)

    def _wrap(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self._wrap(item) for item in value]
        if type(value).__module__.startswith("playwright."):
            return Remote(self._browser, value)
        return value

    def __getattr__(self, name: str) -> Any:
        value = self._browser.call(lambda: getattr(self._target, name))
        if not callable(value) or type(value).__module__.startswith("playwright."):
            return self._wrap(value)

        def method(*args: Any, **kwargs: Any) -> Any:
            args = tuple(_target(a) for a in args)
            kwargs = {key: _target(a) for key, a in kwargs.items()}
            return self._wrap(self._browser.call(lambda: value(*args, **kwargs)))

        return method

    def __setattr__(self, name: str, value: Any) -> None:
        self._browser.call(lambda: setattr(self._target, name, _target(value)))

    def __enter__(self) -> Any:  # page.expect_navigation(), page.expect_response(), ...
        return self._wrap(self._browser.call(self._target.__enter__))

    def __exit__(self, *exc: Any) -> Any:
        return self._browser.call(lambda: self._target.__exit__(*exc))

    def __repr__(self) -> str:
        return f"Remote({self._target!r})"


def _target(value: Any) -> Any:
    return object.__getattribute__(value, "_target") if isinstance(value, Remote) else value


def expect(remote: Remote, message: str | None = None) -> Any:
    """playwright's expect() (auto-waiting assertions) for a Remote page or locator."""
    from playwright.sync_api import expect as playwright_expect

    browser = object.__getattribute__(remote, "_browser")
    return Remote(browser, browser.call(lambda: playwright_expect(_target(remote), message)))


@pytest.fixture(scope="session")
def chromium() -> Iterator[BrowserThread]:
    """The session's browser, launched on first use. Playwright gives each launch a fresh
    temporary profile (user-data-dir) and removes it at close."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(HOW_TO_GET)
    browser = BrowserThread()
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def browser_page(chromium: BrowserThread) -> Iterator[Any]:
    """A playwright Page (as a Remote) in a context of its own, with no cookies or storage from
    other tests, 390 px wide like a phone until a test says otherwise."""

    def open_page() -> Any:
        context = chromium.browser.new_context(viewport={"width": PHONE, "height": 844})
        context.set_default_timeout(TIMEOUT_MS)
        return context.new_page()

    page = chromium.call(open_page)
    try:
        yield Remote(chromium, page)
    finally:
        chromium.call(page.context.close)
