"""The face's answers and request bodies: an HTML page with its own CSP, a refusal in one line,
and a body read up to a bound (app.py's routes use them)."""

from __future__ import annotations

import html

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from digest.web.pages import BARE_CSP, csp, page


def respond(body: str | bytes, status: int = 200, media: str = "text/html") -> Response:
    """An answer with its CSP (the page's own styles); pages.Strict adds the other headers."""
    text = body if isinstance(body, str) else body.decode("utf-8", "replace")
    policy = csp(text) if media == "text/html" else BARE_CSP
    headers = {"Content-Security-Policy": policy}
    return Response(body, status, headers=headers, media_type=f"{media}; charset=utf-8")


def refused(status: int, title: str, why: str) -> Response:
    return respond(page(title, f"<p>{html.escape(why)}</p>"), status)


class TooLarge(Exception):
    pass


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, or TooLarge past `limit` bytes (announced or actually sent)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise TooLarge
    except ClientDisconnect:  # cut short: nobody is left to answer, and it is no fault of ours
        raise TooLarge from None
    return body
