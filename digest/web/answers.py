"""The face's answers and request bodies: an HTML page with its own CSP, a refusal in one line,
a body read up to a bound (app.py's routes use them), and the answers where no route does (404,
405, 500, the state database away)."""

from __future__ import annotations

import html
import logging

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from digest.web.pages import BARE_CSP, csp, page

log = logging.getLogger("digest.web")


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


def _place(request: Request) -> str:
    """The kind of address, never its token: "/u…", "/r…"."""
    return "/" + request.url.path.lstrip("/").split("/", 1)[0] + "…"


async def not_found(request: Request, exc: Exception) -> Response:
    """starlette's handlers of what no route answers, with the face's pages and headers."""
    return refused(404, "Not found", "There is nothing at this address.")


async def not_allowed(request: Request, exc: Exception) -> Response:
    answer = refused(405, "Not allowed", "This address does not take that kind of request.")
    allow = getattr(exc, "headers", None) or {}  # RFC 9110: a 405 says what is allowed
    answer.headers["Allow"] = allow.get("Allow", "GET, HEAD")
    return answer


async def unavailable(request: Request, exc: Exception) -> Response:
    # The state database is down or busy: nothing was recorded, and a later try may be.
    # A 503 with Retry-After says so to a mail provider's one-click unsubscribe too.
    log.error("web: %s %s not done: %s", request.method, _place(request), exc)
    answer = refused(
        503, "Try again shortly", "The digest cannot record this just now; nothing was changed."
    )
    answer.headers["Retry-After"] = "60"
    return answer


async def failed(request: Request, exc: Exception) -> Response:
    return refused(500, "Something went wrong", "The digest could not answer; try again later.")
