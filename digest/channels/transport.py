"""What the HTTP channels share: the client, a total deadline per request, Retry-After, errors
that never show a URL (a webhook URL is a secret), and posting the parts of a message at most
once to a server without idempotency, counting only what the server accepted.
"""

from __future__ import annotations

import email.utils
import functools
import math
import re
import ssl
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from digest import __version__
from digest.models import Delivery, DeliveryError, redact
from digest.models.characters import BIDI, C0, C1, SEPARATORS
from digest.models.deadline import Deadline

USER_AGENT = f"digest/{__version__} (research-paper digest bot)"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)  # of silence, per read
DEADLINE = 60.0  # seconds for one whole request and its answer, however slowly they trickle
# The longest wait a server's Retry-After or retry_after_ms is taken at (the outbox's longest
# backoff): a wish for more, up to infinity, is read as this much.
RETRY_AFTER_CEILING = 6 * 3600.0
ANSWER_LIMIT = 64 * 1024  # bytes of an answer read: enough for any error a chat server gives
# Errors raised before a byte of the request left: the server cannot have acted on it.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)
# Control characters (C0, DEL, C1), line separators and bidi controls: a terminal chat client
# obeys ESC, and an override left open turns the rest of a line around.
_UNSHOWN = re.compile(f"[{C0}{C1}{SEPARATORS}{BIDI}]")


def one_line(text: str) -> str:
    """Untrusted text (a paper's id reaches the chats as it came) on one line, without them."""
    return " ".join(_UNSHOWN.sub(" ", text).split())


@functools.cache
def _tls() -> ssl.SSLContext:
    # httpx's CA bundle (or SSL_CERT_FILE), loaded once per process: it costs more than a delivery.
    return httpx.create_ssl_context()


def client(headers: Mapping[str, str] | None = None) -> httpx.Client:
    # No redirects: a webhook that moved should fail loudly, not post somewhere else. No kept
    # connections: each request's deadline watches the connection it opens (Deadline.trace).
    return httpx.Client(
        verify=_tls(),
        timeout=TIMEOUT,
        headers={"User-Agent": USER_AGENT, **(headers or {})},
        follow_redirects=False,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


class Answer:
    """A response's status, headers and (capped) body: what the channels read of an answer."""

    def __init__(
        self, status_code: int, headers: httpx.Headers, body: bytes, url: str = ""
    ) -> None:
        self.status_code, self.headers, self.content = status_code, headers, body
        self.url = url  # asked: a webhook's URL is its secret, which an answer may echo

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    @property
    def reason_phrase(self) -> str:
        return httpx.codes.get_reason_phrase(self.status_code)

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        import json

        return json.loads(self.content)


class Unanswered(httpx.TransportError):
    """The request left but no status came back (within the deadline, or at all)."""


def request(
    http: httpx.Client, method: str, url: str, deadline: float | None = None, **kwargs: Any
) -> Answer:
    """One request under a total deadline. Once the status line says 2xx the server has taken
    it: a body that then stalls or breaks off changes nothing. NOT_SENT errors pass through;
    any other failure after the request left is Unanswered."""
    deadline = DEADLINE if deadline is None else deadline
    with Deadline(deadline) as watch:
        try:
            with http.stream(method, url, extensions={"trace": watch.trace}, **kwargs) as stream:
                status, headers = stream.status_code, stream.headers
                body = b""
                try:
                    for chunk in stream.iter_bytes():
                        body += chunk
                        if len(body) >= ANSWER_LIMIT:
                            break
                except httpx.HTTPError:
                    if not 200 <= status < 300:
                        raise
        except NOT_SENT:
            raise  # nothing left: the caller may send it again
        except httpx.HTTPError as exc:
            if watch.expired:
                raise Unanswered(f"no complete answer within {deadline:g} s") from None
            raise Unanswered(str(exc) or type(exc).__name__) from None
    return Answer(status, headers, body, url)


def retry_after(
    response: httpx.Response | Answer, body: Mapping[str, Any] | None = None
) -> float | None:
    """Seconds the server asks us to wait: Retry-After (seconds or a date), or retry_after_ms;
    within 0 and RETRY_AFTER_CEILING (a server asking for years, or infinity, gets the ceiling);
    None for no wish, or one that is no number (NaN)."""
    value = response.headers.get("Retry-After", "").strip()
    if value:
        try:
            return bounded_wait(float(value))
        except ValueError:
            try:  # an HTTP date
                when = email.utils.parsedate_to_datetime(value).timestamp()
                return bounded_wait(when - time.time())
            except (TypeError, ValueError, OverflowError):
                pass
    wish = body.get("retry_after_ms") if body else None
    if isinstance(wish, int | float) and not isinstance(wish, bool):
        return bounded_wait(float(wish) / 1000)
    return None


def bounded_wait(seconds: float | None) -> float | None:
    """A wait a server asked for, within 0 and RETRY_AFTER_CEILING; None for none or NaN."""
    if seconds is None or math.isnan(seconds):
        return None
    return min(max(0.0, seconds), RETRY_AFTER_CEILING)


def answer(response: httpx.Response | Answer, limit: int = 160) -> str:
    """The server's answer as one short line, for an error message; an echo of the URL asked
    (a webhook's, its secret) is blotted before the cut, which would leave a part unrecognized."""
    text = " ".join(response.text.split())
    text = redact(text, frozenset({_asked(response)} - {""}))
    return text[:limit] + ("…" if len(text) > limit else "") if text else "(empty answer)"


def _asked(response: httpx.Response | Answer) -> str:
    if isinstance(response, Answer):
        return response.url
    try:
        return str(response.request.url)
    except RuntimeError:  # a response made without a request
        return ""


def network(what: str, exc: httpx.HTTPError) -> DeliveryError:
    # str(exc) of a transport error names the cause ("[Errno 111] Connection refused"), not the URL.
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, Unanswered):  # it reached the server: "cannot reach" sent one to the network
        return DeliveryError(f"{what}: the server did not answer ({reason})", retryable=True)
    return DeliveryError(f"{what}: cannot reach the server ({reason})", retryable=True)


def json_body(response: httpx.Response | Answer) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


# Answers of a proxy or load balancer whose upstream took the request and gave no answer in
# time (504) or a broken one (502): as unknown as no answer at all. Any other refusal (a 500 or
# 503 is the server's own "not done") unclaims the part, to be posted again later.
GATEWAY_LOST = frozenset({502, 504})


def post_at_most_once(
    http: httpx.Client,
    url: str,
    payloads: Sequence[Mapping[str, Any]],
    delivery: Delivery,
    refusal: Callable[[Answer], DeliveryError],
    what: str,
) -> int:
    """POST each part not yet sent, claiming it in the outbox first, so that a crash or a lost
    answer never posts it twice (the server keeps no idempotency key: it may then be missing).

    Returns how many parts this call posted and the server accepted. A refused part is
    unclaimed before raising."""
    posted = 0
    for index in range(delivery.parts_sent, len(payloads)):
        delivery.pace()
        delivery.progress(index + 1)
        try:
            response = request(http, "POST", url, json=payloads[index])
        except NOT_SENT as exc:
            delivery.progress(index)
            raise network(what, exc) from None
        except Unanswered as exc:
            # The request left: the server may have posted it. Claimed it stays; the rest waits.
            raise DeliveryError(
                f"{what}: no answer for part {index + 1} of {len(payloads)} ({exc}); it may"
                " have been posted and is not posted again",
                retryable=True,
            ) from None
        if response.status_code in GATEWAY_LOST:
            # A gateway that gave up waiting for the server: the server may have posted it.
            raise DeliveryError(
                f"{what}: a gateway answered {response.status_code} for part {index + 1} of"
                f" {len(payloads)}; it may have been posted and is not posted again",
                retryable=True,
            )
        if not response.is_success:
            delivery.progress(index)
            raise refusal(response)
        posted += 1
        if index + 1 < len(payloads):
            # Confirmed now, not with the next part's claim a pace later: a crash within that
            # second had called a part Slack took "may be missing", and the row dead.
            delivery.progress(index + 1)
    return posted


@dataclass(frozen=True, slots=True)
class Resumed(Delivery):
    """A delivery handed over by the outbox, which knows which of the parts claimed on earlier
    tries the server never confirmed (no answer, or a crash while one was on the wire), and,
    for a message some of whose recipients have it already, which are still owed it."""

    unconfirmed: tuple[int, ...] = ()  # part numbers, from 1
    owed: tuple[str, ...] = ()  # addresses; () = every recipient


class Owed(DeliveryError):
    """Some recipients have the message and these (`owed`) do not: the outbox records them, and
    a later try (or `digest retry`) sends the same message to them alone. Raised only by a try
    that reached recipients who had not had it: progress, never counted as a failed attempt."""

    def __init__(self, message: str, *, retryable: bool, owed: tuple[str, ...]) -> None:
        super().__init__(message, retryable=retryable)
        self.owed = owed


def unconfirmed(delivery: Delivery) -> tuple[int, ...]:
    """The parts before delivery.parts_sent that may be missing. Without the outbox's record (a
    plain Delivery), the last claimed one, to be safe."""
    if isinstance(delivery, Resumed):
        return tuple(sorted(n for n in delivery.unconfirmed if 0 < n <= delivery.parts_sent))
    return (delivery.parts_sent,) if delivery.parts_sent else ()


def receipt_detail(
    what: str, delivery: Delivery, posted: int, total: int, unit: str, via: str
) -> str:
    """What the receipt says: only messages the server confirmed count. `posted` parts were
    confirmed now, the parts before delivery.parts_sent on earlier tries, less those that got no
    answer recorded then (claimed, never posted twice: they may be missing), which the receipt
    names. "Got no answer" had been said of a part the server took while the state database was
    away to record it (reg53 F2).
    When nothing at all was confirmed, the delivery is not sent: a DeliveryError, dead, for a
    person to see."""
    missing = unconfirmed(delivery)
    plural = unit if total == 1 else unit + "s"
    if not missing:
        return f"{total} {plural} {via}"
    accepted = total - len(missing)
    names = ", ".join(str(n) for n in missing)
    parts = f"part {names}" if len(missing) == 1 else f"parts {names}"
    if accepted <= 0:
        raise DeliveryError(
            f"{what}: {parts} of {total} had no answer recorded on an earlier try and"
            f" {'is' if len(missing) == 1 else 'are'} not posted again (at most once): it may be"
            " missing; nothing was confirmed",
            retryable=False,
        )
    return (
        f"{accepted} of {total} {unit}s confirmed {via}; {parts} had no answer recorded on an "
        f"earlier try and may be missing"
    )
