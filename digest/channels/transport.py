"""What the HTTP channels share: the client (one kept per delivery run), Retry-After, errors
that never show a URL (a webhook URL is a secret), and posting the parts of a message at most
once to a server without idempotency.
"""

from __future__ import annotations

import email.utils
import functools
import ssl
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import httpx

from digest import __version__
from digest.channels import connections
from digest.models import Delivery, DeliveryError

USER_AGENT = f"digest/{__version__} (research-paper digest bot)"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)
# Errors raised before a byte of the request left: the server cannot have acted on it.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


@functools.cache
def _tls() -> ssl.SSLContext:
    # httpx's CA bundle (or SSL_CERT_FILE), loaded once per process: it costs more than a delivery.
    return httpx.create_ssl_context()


def client(headers: Mapping[str, str] | None = None) -> httpx.Client:
    # No redirects: a webhook that moved should fail loudly, not post somewhere else.
    return httpx.Client(
        verify=_tls(),
        timeout=TIMEOUT,
        headers={"User-Agent": USER_AGENT, **(headers or {})},
        follow_redirects=False,
    )


@contextmanager
def session(headers: Mapping[str, str] | None = None) -> Iterator[httpx.Client]:
    """The client for one send: while the outbox keeps connections, the one shared client for
    these headers (keep-alive, left open); else a client of its own, closed after."""
    shared = connections.http_client(headers, lambda: client(headers))
    if shared is not None:
        yield shared
        return
    with client(headers) as http:
        yield http


def retry_after(response: httpx.Response, body: Mapping[str, Any] | None = None) -> float | None:
    """Seconds the server asks us to wait: Retry-After (seconds or a date), or retry_after_ms."""
    value = response.headers.get("Retry-After", "").strip()
    if value:
        try:
            return max(0.0, float(value))
        except ValueError:
            try:  # an HTTP date
                return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
            except (TypeError, ValueError):
                pass
    if body and isinstance(body.get("retry_after_ms"), int | float):
        return max(0.0, float(body["retry_after_ms"]) / 1000)
    return None


def answer(response: httpx.Response, limit: int = 160) -> str:
    """The server's answer as one short line, for an error message."""
    text = " ".join(response.text.split())
    return text[:limit] + ("…" if len(text) > limit else "") if text else "(empty answer)"


def network(what: str, exc: httpx.HTTPError) -> DeliveryError:
    # str(exc) of a transport error names the cause ("[Errno 111] Connection refused"), not the URL.
    reason = str(exc) or type(exc).__name__
    return DeliveryError(f"{what}: cannot reach the server ({reason})", retryable=True)


def json_body(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def post_at_most_once(
    http: httpx.Client,
    url: str,
    payloads: Sequence[Mapping[str, Any]],
    delivery: Delivery,
    refusal: Callable[[httpx.Response], DeliveryError],
    what: str,
) -> int:
    """POST each part not yet sent, claiming it in the outbox first, so that a crash or a lost
    answer never posts it twice (the server keeps no idempotency key: it may then be missing).

    Returns how many parts this call posted. A refused part is unclaimed before raising."""
    posted = 0
    for index in range(delivery.parts_sent, len(payloads)):
        delivery.pace()
        delivery.progress(index + 1)
        try:
            response = http.post(url, json=payloads[index])
        except NOT_SENT as exc:
            delivery.progress(index)
            raise network(what, exc) from None
        except httpx.HTTPError as exc:
            # The request left: the server may have posted it. Claimed it stays; the rest waits.
            reason = str(exc) or type(exc).__name__
            raise DeliveryError(
                f"{what}: no answer for part {index + 1} of {len(payloads)} ({reason}); it may"
                " have been posted and is not posted again",
                retryable=True,
            ) from None
        if not response.is_success:
            delivery.progress(index)
            raise refusal(response)
        posted += 1
    return posted
