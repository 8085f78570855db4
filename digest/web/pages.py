"""The web face's HTML: one small page shell (own styles, no third-party resource) and the strict
headers every answer carries, with a Content-Security-Policy whose style hashes are computed from
the page itself (a stored digest's inline styles are allowed one by one, never 'unsafe-inline').
`Strict` puts the headers on every answer, starlette's own (404, 405, 500) included, and logs a
failed request in one line."""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import logging
from html.parser import HTMLParser

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from digest.render import shown_name
from digest.snippets import plain

log = logging.getLogger("digest.web")

STYLE = (
    "body{margin:0;background:#f4f5f7;color:#1f2328;font:16px/1.5 -apple-system,'Segoe UI',"
    "Helvetica,Arial,sans-serif}main{max-width:40rem;margin:0 auto;padding:24px 20px;"
    "background:#fff;overflow-wrap:anywhere}h1{font-size:1.3rem;margin:0 0 .5rem}p{margin:0 0 1rem}"
    "a{color:#0b57d0}.muted{color:#59636e;font-size:.9rem}form{display:inline}"
    "button{font:inherit;padding:.5rem 1.1rem;border:1px solid #0b57d0;border-radius:6px;"
    "background:#0b57d0;color:#fff;cursor:pointer}button.quiet{background:#fff;color:#0b57d0}"
    "ul{padding-left:1.2rem}li{margin:0 0 .4rem}"
)


def page(title: str, body: str, status_line: str = "") -> str:
    """A whole HTML page; `body` is HTML the caller escaped. Every page's text comes through
    here, so here it loses the controls no message shows either (render.shown_name): a
    subscriber name's U+202E had turned the archive's and the unsubscribe page's text around
    (web2 F2). None of them has a place in the page's own markup."""
    note = f'<p class="muted">{html.escape(status_line)}</p>' if status_line else ""
    title, body = html.escape(shown_name(title)), plain(body)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{title}</title><style>{STYLE}</style></head>"
        f"<body><main><h1>{title}</h1>{body}{plain(note)}</main></body></html>\n"
    )


def button_form(action: str, label: str, quiet: bool = False) -> str:
    """A POST form to `action` (a path on this site, with its signed token) with one button."""
    css = ' class="quiet"' if quiet else ""
    return (
        f'<form method="post" action="{html.escape(action)}">'
        f'<button type="submit"{css}>{html.escape(label)}</button></form>'
    )


class _Styles(HTMLParser):
    """Collects what a CSP must allow: <style> blocks and style="" attributes, as parsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.attributes: set[str] = set()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "style" and value is not None:
                self.attributes.add(value)
        if tag == "style":
            self._in_style = True
            self.blocks.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.blocks[-1] += data


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@functools.lru_cache(maxsize=256)  # a digest page is read again and again: parse it once
def csp(document: str) -> str:
    """default-src 'none', and styles only those of this very document."""
    styles = _Styles()
    styles.feed(document)
    styles.close()
    allowed = sorted({_hash(b) for b in styles.blocks} | {_hash(a) for a in styles.attributes})
    if styles.attributes:
        allowed.insert(0, "'unsafe-hashes'")  # CSP 3: hashes may then match style attributes
    style = " ".join(allowed) or "'none'"
    return (
        f"default-src 'none'; style-src {style}; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    )


# Every answer's headers; an HTML page's CSP is made per document, any other answer gets BARE_CSP.
BARE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class Strict:
    """ASGI middleware around the whole app: an answer that lacks one of HEADERS or a CSP gets it,
    whoever made it (a route, a redirect, starlette's 404 or 405, the 500 of an exception)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.defaults = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        self.defaults.append((b"content-security-policy", BARE_CSP.encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def strict(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in self.defaults if k not in have]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, strict)
        except Exception as exc:  # starlette has answered 500 and re-raises for the server to log
            # uvicorn would log the whole traceback, whose messages may quote a token or a secret:
            # one line names the kind of address and the kind of error instead.
            place = "/" + str(scope.get("path", "")).lstrip("/").split("/", 1)[0]
            log.error("web: %s %s… failed (%s)", scope.get("method"), place, type(exc).__name__)
