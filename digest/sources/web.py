"""The HTTP client every network source shares: connect and read timeouts, a User-Agent naming
the project, a cap on response size, spacing between calls, and retries with backoff for
transient failures only (429, 5xx, network), honouring Retry-After."""

from __future__ import annotations

import codecs
import logging
import re
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from digest import __version__
from digest.models import SourceError, deadline
from digest.models.characters import BIDI, C0, C1
from digest.models.deadline import Deadline, pause
from digest.sources import spacing
from digest.sources.addresses import internal, led, origin, printable, shown
from digest.sources.progress import QUIET, LogLines, Progress

log = logging.getLogger("digest.sources")

USER_AGENT = f"digest/{__version__} (research-paper digest bot; python-httpx)"
# Worth another try: the server is busy or briefly broken. Anything else 4xx/5xx is final.
TRANSIENT = {408, 425, 429, 500, 502, 503, 504}


@dataclass(frozen=True, slots=True)
class Policy:
    """How patient a source is. Seconds throughout; `timeout` is the longest silence allowed."""

    timeout: float = 30.0
    connect_timeout: float = 10.0
    deadline: float = 300.0  # one whole call, headers and body, however slowly they trickle in
    max_bytes: int = 50 * 2**20
    retries: int = 3  # further tries after the first, for transient failures only
    backoff: float = 2.0  # first wait without Retry-After; doubles each time
    longest_wait: float = 300.0  # a Retry-After beyond this fails the source: try on a later run
    interval: float = 0.0  # at least this long between calls to a host, any client's (politeness)
    # A SIGTERM (deadline.interrupt) ends the wait, as it ends a read in flight.
    sleep: Callable[[float], None] = field(default=pause, compare=False)

    def with_options(self, options: Mapping[str, Any]) -> Policy:
        """This policy with the source's `timeout` and `retries` keys applied."""
        changes: dict[str, Any] = {}
        if "timeout" in options:
            changes["timeout"] = float(options["timeout"])
            changes["connect_timeout"] = min(self.connect_timeout, float(options["timeout"]))
        if "retries" in options:
            changes["retries"] = int(options["retries"])
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Response:
    url: str
    status: int
    headers: httpx.Headers
    body: bytes
    # Why the body stops before the end of what was sent (a compressed stream without its end),
    # or "": what did arrive is given to the parser, which keeps the whole entries before the cut.
    cut: str = ""

    @property
    def text(self) -> str:
        return self.body.decode(_charset(self.headers), errors="replace")


class _Unaskable(Exception):
    """An address no request can go to (a port out of range), met before asking it."""

    def __init__(self, url: str, problem: str) -> None:
        super().__init__(problem)
        self.url = url


class _Retry(Exception):
    """A failure worth another try; `wait` is what the server asked for, if it said; `cut`, an
    answer cut short, is what the last try gives if no try brings it whole."""

    def __init__(
        self, problem: str, wait: float | None = None, cut: Response | None = None
    ) -> None:
        super().__init__(problem)
        self.wait, self.cut = wait, cut


class Client:
    """One source's HTTP client; every failure it gives up on is a SourceError naming the
    source, the address (without its query) and what went wrong."""

    def __init__(self, name: str, policy: Policy, progress: Progress = QUIET) -> None:
        self.name, self.policy, self.progress = name, policy, progress
        self.calls = 0
        self._asked = 0  # requests of the current call: more than one means a redirect
        self._public = True  # the call's first address is not an internal one
        timeout = httpx.Timeout(policy.timeout, connect=policy.connect_timeout)
        # No kept connections: each call's deadline watches the connections it opens.
        self.http = httpx.Client(
            timeout=timeout,
            headers={"User-Agent": USER_AGENT},
            follow_redirects=True,
            limits=httpx.Limits(max_keepalive_connections=0),
            event_hooks={"request": [self._check_request]},
        )

    def _check_request(self, request: httpx.Request) -> None:
        """Every request, a redirect's too: an address that cannot be asked fails at once
        (httpx would try a port out of range, and fail as a network error worth retrying)."""
        self._asked += 1
        port = request.url.port
        if port is not None and not 0 < port <= 65535:
            raise _Unaskable(str(request.url), f"port {port} is out of range 1 to 65535")
        if self._asked == 1:
            self._public = not internal(request.url.host)
        elif self._public and internal(request.url.host):
            # A public feed may not send digest to the machine's own network (a cloud's
            # metadata address, a router's page): the server, not the operator, chose it.
            raise _Unaskable(str(request.url), "an internal address, from a public one")

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(
        self,
        url: str,
        params: Mapping[str, Any] | None = None,
        *,
        explain: Callable[[Response], str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """The response to GET url, after retries; `explain` words a final 4xx/5xx answer;
        `headers` go with the request (a conditional GET's)."""
        where = shown(url)
        for attempt in range(self.policy.retries + 1):
            try:
                response = self._once(url, params, where, headers)
                if response.status in TRANSIENT:
                    wait = retry_after(response.headers.get("retry-after"))
                    raise _Retry(_status(response, explain), wait)
                if response.status >= 400:
                    problem = led(response.url, where) + _status(response, explain)
                    raise SourceError(f"{self.name}: {problem} from {where}")
                return response
            except _Retry as exc:
                problem, wait = str(exc), exc.wait
                if exc.cut is not None and attempt == self.policy.retries:
                    # Read as a body without a length cut short is: the source fails, keeping
                    # the whole entries before the cut (its failing with none had lost them).
                    log.info("source %s: %s from %s; reading what came", self.name, problem, where)
                    return exc.cut
            if attempt == self.policy.retries:
                tries = f"{attempt + 1} tries" if attempt else "1 try"
                raise SourceError(f"{self.name}: {problem} from {where} (gave up after {tries})")
            if wait is None:
                wait = min(self.policy.backoff * 2**attempt, 60.0)
            if wait > self.policy.longest_wait:
                raise SourceError(
                    f"{self.name}: {problem} from {where}; the server asks to wait {wait:.0f} s,"
                    f" longer than {self.policy.longest_wait:.0f} s: a later run will try again"
                )
            said = f"{problem}; retrying in {wait:.1f} s"
            if not isinstance(self.progress, LogLines):  # a bar's note flashes, and was all -v
                log.info("source %s: %s (%s)", self.name, said, where)  # showed of a retry
            self.progress.note(said)  # one line per retry: LogLines's is the log's (-v had two)
            self._wait(wait, where)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _once(
        self,
        url: str,
        params: Mapping[str, Any] | None,
        where: str,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        self._space_out(url, where)
        self.calls += 1
        self._asked = 0
        policy = self.policy
        # Timeouts are per read: the watchdog ends a call whose server drips a byte at a time.
        with Deadline(policy.deadline, stoppable=True) as watch:
            try:
                # The address's own query (an api_key=...) is kept: httpx's params= would
                # replace it. The source's own parameters win where both name one.
                target = httpx.URL(url)
                if params:
                    target = target.copy_merge_params(params)
                trace = {"trace": watch.trace}
                with self.http.stream("GET", target, headers=headers, extensions=trace) as stream:
                    declared = stream.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > policy.max_bytes:
                        raise self._too_large(where)
                    _one_coding(stream.headers, self.name, where, stream.status_code)
                    if stream.status_code >= 400:
                        # An error page is read only so far as to tell what went wrong.
                        return self._read(stream, limit=64 * 1024, where=where)
                    response = self._read(stream, limit=policy.max_bytes, where=where)
                if watch.expired:  # the watchdog's shutdown reads as the end of a body sent
                    # without a length: a feed cut there had been taken whole, exit 0
                    raise SourceError(f"{self.name}: {_unfinished(policy)} from {where}")
                if response.cut:
                    raise _Retry(f"answer cut short ({response.cut})", cut=response)
                return response
            except _Unaskable as exc:
                unaskable = f"an address that cannot be asked ({exc})"
                if self._asked > 1:  # a redirect's: both addresses named
                    problem = f"redirected to {shown(exc.url)}, {unaskable}, from {where}"
                else:
                    problem = f"{unaskable}: {where}"
                raise SourceError(f"{self.name}: {problem}") from None
            except httpx.UnsupportedProtocol as exc:  # a redirect to ftp://, say: final too
                raise SourceError(f"{self.name}: {_detail(exc)} from {where}") from None
            except httpx.TransportError as exc:
                if _bad_redirect(exc):
                    raise SourceError(f"{self.name}: {_detail(exc)} from {where}") from None
                if watch.expired:
                    raise SourceError(f"{self.name}: {_unfinished(policy)} from {where}") from None
                if isinstance(exc, httpx.TimeoutException):
                    raise _Retry(_timeout_problem(exc, policy)) from None
                problem = f"network error ({_detail(exc)})"
                raise _Retry(led(str(exc.request.url), where) + problem) from None
            # Not worth another try: the same address gives the same answer again.
            except httpx.TooManyRedirects:
                raise SourceError(f"{self.name}: too many redirects from {where}") from None
            except httpx.DecodingError as exc:
                problem = f"answer not decodable ({_detail(exc)})"
                raise SourceError(f"{self.name}: {problem} from {where}") from None
            except httpx.RequestError as exc:
                raise SourceError(f"{self.name}: {_detail(exc)} from {where}") from None
            except (httpx.InvalidURL, ValueError) as exc:  # the address, or a redirect's
                raise SourceError(f"{self.name}: bad URL {where} ({_detail(exc)})") from None

    def _read(self, stream: httpx.Response, limit: int, where: str) -> Response:
        started = time.monotonic()
        chunks: list[bytes] = []
        size = 0
        # Decoded bytes are counted, so a small gzip bomb cannot slip past the cap.
        for chunk in stream.iter_bytes():
            size += len(chunk)
            if size > limit:
                if stream.status_code >= 400:
                    break
                raise self._too_large(where)
            chunks.append(chunk)
            if time.monotonic() - started > self.policy.deadline or deadline.interrupted():
                raise SourceError(f"{self.name}: {_unfinished(self.policy)} from {where}")
        unended = stream.status_code < 400 and _unended(stream)
        cut = "its compressed stream stops before its end" if unended else ""
        body = b"".join(chunks)
        return Response(str(stream.url), stream.status_code, stream.headers, body, cut)

    def _too_large(self, where: str) -> SourceError:
        cap = self.policy.max_bytes
        size = f"{cap / 2**20:g} MiB" if cap >= 2**20 else f"{cap} bytes"
        return SourceError(f"{self.name}: response from {where} larger than {size}, abandoned")

    def _space_out(self, url: str, where: str) -> None:
        """`interval` since the last call to the host, by this client or any other: arXiv's
        terms ask it of the whole process, every source and the `like` lookup."""

        def wait(seconds: float) -> None:
            self.progress.note(f"waiting {seconds:.1f} s between calls")
            self._wait(seconds, where)

        try:
            host = origin(url) or where
        except ValueError:  # a port out of range: the call fails, as it is, just after
            host = where
        spacing.space_out(host, self.policy.interval, wait)

    def _wait(self, seconds: float, where: str) -> None:
        """A wait before the next call (a Retry-After, a backoff, arXiv's delay between pages).
        A SIGTERM ends it and the source at once, as it ends a read in flight: waits of up to
        5 and 10 minutes had outlasted systemd's 90 s and Docker's 10 s before their SIGKILL."""
        self.policy.sleep(seconds)
        if deadline.interrupted():
            stopped = f"stopped (SIGTERM) before asking {where} again"
            raise SourceError(f"{self.name}: {stopped}; a later run will ask again")


def retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


# zlib's decompressor, which httpx unpacks gzip and deflate answers with.
_ZLIB = type(zlib.decompressobj())


def _unended(stream: httpx.Response) -> bool:
    """Did a gzip or deflate answer stop before its compressed stream's end? httpx takes what it
    unpacked as the whole body: a feed cut short but framed (a Content-Length of the cut bytes)
    had been read as whole, and the entries after the cut lost with the day's feed."""
    unpacker = getattr(getattr(stream, "_decoder", None), "decompressor", None)  # httpx's own
    return isinstance(unpacker, _ZLIB) and stream.num_bytes_downloaded > 0 and not unpacker.eof


def _one_coding(headers: httpx.Headers, name: str, where: str, status: int = 200) -> None:
    """Refuse an answer compressed more than once ("gzip, gzip"): httpx unpacks each network
    chunk whole, and two layers made 2 KB on the wire 1 GiB in memory before the size cap could
    count it (one layer is at most about a thousand times a chunk). An old name of a coding
    (x-gzip) is read as the coding; one httpx does not unpack (x-compress) is refused, naming it:
    read as it came, it failed as "not an RSS or Atom feed", with a false charset warning."""
    codings = [c.strip() for c in headers.get("content-encoding", "").lower().split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if len(codings) > 1:
        stacked = ", ".join(codings[:5])
        raise SourceError(f"{name}: answer compressed {len(codings)} times ({stacked}) from "
                          f"{where}: refused, as a compression bomb")  # fmt: skip
    if codings and codings[0] in _OLD_NAMES:
        headers["content-encoding"] = _OLD_NAMES[codings[0]]
    elif codings and codings[0] not in _UNPACKED and status < 400:
        coding = printable(codings[0][:40])
        raise SourceError(f"{name}: answer compressed as {coding!r}, which cannot be unpacked, "
                          f"from {where}")  # fmt: skip


try:  # the codings httpx unpacks: gzip and deflate, br and zstd when their packages are there
    from httpx._decoders import SUPPORTED_DECODERS

    _UNPACKED = frozenset(SUPPORTED_DECODERS)
except ImportError:  # a later httpx that moved them: the two it always has
    _UNPACKED = frozenset({"identity", "gzip", "deflate"})
# Names RFC 9110 (8.4.1.3) says to read as the coding: Apache's stock "AddEncoding x-gzip .gz".
_OLD_NAMES = {"x-gzip": "gzip", "x-deflate": "deflate"}


def _bad_redirect(exc: httpx.TransportError) -> bool:
    """A redirect to an address that is no URL: httpx says so only in its message."""
    return isinstance(exc, httpx.RemoteProtocolError) and str(exc).startswith("Invalid URL in")


def _detail(exc: BaseException) -> str:
    return printable(f"{type(exc).__name__}: {exc or 'no detail'}")


def _status(response: Response, explain: Callable[[Response], str] | None) -> str:
    reason = httpx.codes.get_reason_phrase(response.status)
    text = f"HTTP {response.status} {reason}".rstrip()
    try:
        detail = explain(response) if explain and response.body else ""
    except (ValueError, UnicodeError):  # an answer too broken to explain: its status says it
        detail = ""
    detail = " ".join(_UNSHOWN.sub("", detail).split())
    return f"{text}: {detail}" if detail else text


# What a server's words must not carry into a message: controls (a terminal's escape sequences
# start with one), lone surrogates (no database takes them), bidi overrides.
_UNSHOWN = re.compile(f"[{C0}{C1}{BIDI}\ud800-\udfff]")


def _unfinished(policy: Policy) -> str:
    # Final for this run: a server that took the whole deadline once would hold a run (and the
    # run lock) for each try again; a later run asks again.
    if deadline.interrupted():
        return "stopped (SIGTERM) before the answer was read; a later run will ask again"
    return f"response still unfinished after {policy.deadline:g} s; a later run will try again"


def _timeout_problem(exc: httpx.TimeoutException, policy: Policy) -> str:
    if isinstance(exc, httpx.ConnectTimeout | httpx.PoolTimeout):
        return f"no connection within {policy.connect_timeout:g} s"
    return f"no answer within {policy.timeout:g} s"


def _charset(headers: httpx.Headers) -> str:
    content_type = headers.get("content-type", "")
    for part in content_type.split(";")[1:]:
        key, _, value = part.strip().partition("=")
        if key.lower() == "charset" and value:
            try:
                return codecs.lookup(value.strip('"')).name
            except LookupError:
                break  # a charset nobody knows: UTF-8 is the best guess
    return "utf-8"
