"""The HTTP client of the network sources, against a real server on 127.0.0.1: who it says it
is, what it retries and how long it waits, what it gives up on, and what it refuses to read."""

from __future__ import annotations

import gzip
import logging
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from feedserver import Answer, FeedServer, serve

from digest import __version__
from digest.models import SourceError, deadline
from digest.sources.addresses import check_options, shown
from digest.sources.web import Client, Policy, retry_after


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


class Sleeps(list[float]):
    """Records every wait the client asks for (and waits none of them out)."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(**changes: object) -> tuple[Client, Sleeps]:
    sleeps = Sleeps()
    policy = Policy(timeout=0.3, connect_timeout=0.3, retries=2, backoff=0.01, sleep=sleeps)
    for name, value in changes.items():
        policy = policy.__class__(**{**_fields(policy), name: value})
    return Client("test", policy), sleeps


def _fields(policy: Policy) -> dict[str, object]:
    return {name: getattr(policy, name) for name in policy.__dataclass_fields__}


def test_a_request_names_the_project_and_returns_the_body(server: FeedServer) -> None:
    server.route("/feed", Answer(body="<feed/>"))
    http, sleeps = client()
    response = http.get(f"{server.url}/feed", {"q": "x"})
    assert (response.status, response.body) == (200, b"<feed/>")
    (request,) = server.requests
    assert request.headers["User-Agent"].startswith(f"digest/{__version__} ")
    assert request.query == {"q": "x"}
    assert sleeps == []


def test_a_429_is_retried_after_the_seconds_the_server_asks_for(server: FeedServer) -> None:
    server.route("/feed", Answer(429, headers={"Retry-After": "2"}), Answer(body="ok"))
    http, sleeps = client()
    assert http.get(f"{server.url}/feed").body == b"ok"
    assert sleeps == [2.0]
    assert len(server.requests) == 2


def test_a_503_then_success_backs_off_and_goes_on(server: FeedServer) -> None:
    server.route("/feed", Answer(503), Answer(503), Answer(body="ok"))
    http, sleeps = client()
    assert http.get(f"{server.url}/feed").body == b"ok"
    assert sleeps == [0.01, 0.02]  # the backoff doubles when the server names no time


@pytest.mark.parametrize("shown_in_a_run", [True, False])
def test_each_retry_is_one_log_line(
    server: FeedServer, caplog: pytest.LogCaptureFixture, shown_in_a_run: bool
) -> None:
    """feeds22 F6: the run's progress and the client's own log both said each retry, two INFO
    lines with -v. A run's progress says it (a line under cron); a lookup's client, the log."""
    from digest.sources.progress import LogLines

    caplog.set_level(logging.INFO, logger="digest.sources")
    server.route("/feed", Answer(503), Answer(503), Answer(body="ok"))
    http, _ = client()
    if shown_in_a_run:
        http.progress = LogLines("test")
    assert http.get(f"{server.url}/feed").body == b"ok"
    retries = [m for m in caplog.messages if "retrying in" in m]
    assert len(retries) == 2
    assert retries[0].startswith("source test: HTTP 503 Service Unavailable; retrying in 0.0 s")
    assert (f"({server.url}/feed)" in retries[0]) is not shown_in_a_run  # a lookup names it


def test_a_retry_under_a_terminals_bars_is_one_log_line_too(
    server: FeedServer, caplog: pytest.LogCaptureFixture
) -> None:
    """feeds23 F4: with bars (-v in a terminal) a retry was only the bar's passing note,
    overwritten when the bar finished: no line said it. Each is one line, as under cron."""
    import io

    from rich.console import Console

    from digest.sources.progress import BarDisplay

    caplog.set_level(logging.INFO, logger="digest.sources")
    server.route("/feed", Answer(503), Answer(503), Answer(body="ok"))
    http, _ = client()
    with BarDisplay(Console(file=io.StringIO(), force_terminal=True)) as bars:
        with bars.source("test") as progress:
            http.progress = progress
            assert http.get(f"{server.url}/feed").body == b"ok"
    retries = [m for m in caplog.messages if "retrying in" in m]
    assert len(retries) == 2
    assert retries[0].startswith("source test: HTTP 503 Service Unavailable; retrying in 0.0 s")


def test_a_server_that_stays_down_fails_the_source_after_the_last_try(server: FeedServer) -> None:
    server.route("/feed", Answer(503))
    http, _ = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed?token=abc")
    message = str(info.value)
    assert message == (
        f"test: HTTP 503 Service Unavailable from {server.url}/feed (gave up after 3 tries)"
    )
    assert len(server.requests) == 3


@pytest.mark.parametrize("status", [400, 403, 404, 410])
def test_a_client_error_is_not_retried(server: FeedServer, status: int) -> None:
    server.route("/feed", Answer(status, body="nope", content_type="text/plain"))
    http, sleeps = client()
    with pytest.raises(SourceError, match=f"HTTP {status}"):
        http.get(f"{server.url}/feed")
    assert len(server.requests) == 1 and sleeps == []


@contextmanager
def sigterm_after(seconds: float) -> Iterator[None]:
    """What `digest run`'s SIGTERM handler does (deadline.interrupt), `seconds` into the block."""
    timer = threading.Timer(seconds, deadline.interrupt)
    timer.start()
    try:
        yield
    finally:
        timer.join()
        deadline.resume()


def test_a_sigterm_ends_a_retry_after_wait_at_once(server: FeedServer) -> None:
    """A Retry-After of 2 minutes (5 are allowed) had held a SIGTERMed run to its end, past
    systemd's 90 s and Docker's 10 s before their SIGKILL."""
    server.route("/feed", Answer(503, headers={"Retry-After": "120"}), Answer(body="ok"))
    http = Client("test", Policy(timeout=2))  # the real wait, not a recorded one
    began = time.monotonic()
    with sigterm_after(0.5), pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed")
    assert time.monotonic() - began < 10 and len(server.requests) == 1
    assert str(info.value) == (
        f"test: stopped (SIGTERM) before asking {server.url}/feed again; a later run will ask again"
    )


def test_a_wait_longer_than_allowed_fails_now_instead_of_stalling_the_run(
    server: FeedServer,
) -> None:
    server.route("/feed", Answer(429, headers={"Retry-After": "3600"}))
    http, sleeps = client(longest_wait=60.0)
    with pytest.raises(SourceError, match="asks to wait 3600 s.*a later run will try again"):
        http.get(f"{server.url}/feed")
    assert sleeps == [] and len(server.requests) == 1


def test_retry_after_may_be_an_http_date() -> None:
    now = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    assert retry_after(format_datetime(now + timedelta(seconds=30), usegmt=True), now) == 30.0
    assert retry_after(format_datetime(now - timedelta(seconds=30), usegmt=True), now) == 0.0
    assert retry_after("7") == 7.0
    assert retry_after("soon") is None and retry_after(None) is None


def test_a_response_that_never_ends_times_out_and_is_retried(server: FeedServer) -> None:
    server.route("/feed", Answer(body="<feed>" + "x" * 500, stall=True))
    http, sleeps = client(retries=1)
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed")
    assert "no answer within 0.3 s" in str(info.value)
    assert "gave up after 2 tries" in str(info.value)
    assert len(server.requests) == 2 and len(sleeps) == 1


def test_a_trickle_that_never_finishes_hits_the_deadline(server: FeedServer) -> None:
    server.route("/feed", Answer(body="<feed>", trickle=0.02))
    http, _ = client(retries=0, deadline=0.3)
    with pytest.raises(SourceError, match="response still unfinished after 0.3 s"):
        http.get(f"{server.url}/feed")


def test_a_trickle_without_a_length_cut_at_the_deadline_is_not_taken_whole(
    server: FeedServer,
) -> None:
    # The watchdog's shutdown read as the end of a body sent without a length: the part read
    # was taken for the whole feed (one item of three), exit 0.
    server.route("/feed", Answer(body="<feed>" + "x" * 200, trickle=0.02, unframed=True))
    http, _ = client(retries=0, deadline=0.3)
    with pytest.raises(SourceError, match="response still unfinished after 0.3 s"):
        http.get(f"{server.url}/feed")


def test_an_oversized_response_is_abandoned_whether_declared_or_not(server: FeedServer) -> None:
    big = "x" * 5000
    server.route("/declared", Answer(body=big))
    server.route("/chunked", Answer(body=big, chunked=True))
    http, sleeps = client(max_bytes=4096)
    for path in ("/declared", "/chunked"):
        with pytest.raises(SourceError, match="larger than 4096 bytes, abandoned"):
            http.get(f"{server.url}{path}")
    assert len(server.requests) == 2 and sleeps == []  # too large is not worth another try


def test_a_refused_connection_is_a_network_error_worth_retrying() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    http, sleeps = client(retries=1)
    with pytest.raises(SourceError, match="network error.*gave up after 2 tries"):
        http.get(f"http://127.0.0.1:{port}/feed")
    assert len(sleeps) == 1


def test_calls_are_spaced_by_the_interval(server: FeedServer) -> None:
    server.route("/feed", Answer(body="ok"))
    http, sleeps = client(interval=30.0)
    http.get(f"{server.url}/feed")
    http.get(f"{server.url}/feed")
    assert len(sleeps) == 1 and 29.0 < sleeps[0] <= 30.0


def test_messages_show_the_address_without_query_or_credentials() -> None:
    assert (
        shown("https://user:pw@example.org:8443/api?key=secret") == "https://example.org:8443/api"
    )
    assert shown("http://[::1]:8080/feed?key=secret") == "http://[::1]:8080/feed"
    # An address urlsplit refuses is cut by hand, credentials and query still left out.
    assert shown("//user:pw@example.org:99999/a://b?key=secret") == "//example.org:99999/a://b"


def test_a_bad_url_is_named_without_its_query() -> None:
    found = check_options({"url": "http://127.0.0.1:99999/x?key=s3cr3t"})
    assert found is not None and "s3cr3t" not in found[1]


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"url": "ftp://example.org/feed"}, ("url", "must be an http(s) URL")),
        ({"url": "example.org/feed"}, ("url", "must be an http(s) URL")),
        ({"url": "http://127.0.0.1:99999/x"}, ("url", "is not a valid URL (Port out of range")),
        ({"url": "http://127.0.0.1:abc/x"}, ("url", "is not a valid URL (Port could not be")),
        ({"url": "http://127.0.0.1:0/x"}, ("url", "must name a port from 1 to 65535")),
        ({"url": "http://[::1/x"}, ("url", "is not a valid URL (Invalid IPv6 URL)")),
        ({"url": "http://127.0.0.1/x\u0000"}, ("url", "control characters, not 'http://127")),
        ({"url": "http://127.0.0.1/x\n"}, ("url", "must not hold control characters")),
        ({"url": "http://exa mple.org/x"}, ("url", "must not hold a space in its host")),
        ({"url": "http://[::1]:8080/feed?key=s3cr3t"}, None),
        ({"timeout": 0}, ("timeout", "must be between 0.001 and 3600")),
        ({"retries": 11}, ("retries", "must be between 0 and 10")),
        ({"url": "https://example.org/feed", "timeout": 5, "retries": 2}, None),
    ],
)
def test_network_options_are_checked(options: dict[str, object], problem: object) -> None:
    found = check_options(options)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found[0] == problem[0] and problem[1] in found[1]  # type: ignore[index]


def test_a_server_that_drips_its_headers_hits_the_deadline(server: FeedServer) -> None:
    """Per-read timeouts never end a server sending a byte every 50 ms; the deadline does."""
    from channel_servers import Dripping

    dripping = Dripping(b"HTTP/1.1 200 OK\r\n" + b"X-Slow: y\r\n" * 1000)
    try:
        http, _ = client(retries=0, deadline=0.5)
        started = time.monotonic()
        with pytest.raises(SourceError, match="response still unfinished after 0.5 s"):
            http.get(f"http://127.0.0.1:{dripping.port}/feed")
        assert time.monotonic() - started < 3
    finally:
        dripping.stop()


def test_a_redirect_loop_fails_the_source_in_one_line_without_retrying(
    server: FeedServer,
) -> None:
    server.route("/loop", Answer(302, headers={"Location": "/loop?token=abc"}))
    http, sleeps = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/loop?token=abc")
    assert str(info.value) == f"test: too many redirects from {server.url}/loop"
    assert sleeps == []


@pytest.mark.parametrize(
    "target",
    ["http://10.255.255.1/feed.xml", "http://169.254.169.254/latest/meta-data/", "http://[::1]/x",
     "http://localhost:8080/admin"],
)  # fmt: skip
def test_a_public_feed_cannot_redirect_to_an_internal_address(
    server: FeedServer, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    # The redirect was followed: a feed's server made digest ask a private network, or a
    # cloud's metadata address. The public feed is reached through the test server as a proxy,
    # so that nothing leaves this machine; the refusal comes before any connection.
    server.route("/redir", Answer(302, headers={"Location": target}))
    with monkeypatch.context() as proxied:
        proxied.setenv("HTTP_PROXY", server.url)
        http, sleeps = client()
        with pytest.raises(SourceError) as info:
            http.get("http://feeds.example.org/redir")
    assert str(info.value).startswith(f"test: redirected to {shown(target)}, an address that")
    assert "an internal address, from a public one" in str(info.value)
    assert len(server.requests) == 1 and sleeps == []
    # Between addresses of this machine, as here, a redirect is followed.
    server.route("/here", Answer(302, headers={"Location": f"{server.url}/feed"}))
    server.route("/feed", Answer(body="<feed/>"))
    assert client()[0].get(f"{server.url}/here").body == b"<feed/>"


def test_a_body_that_is_not_the_encoding_it_claims_fails_the_source(server: FeedServer) -> None:
    lying = Answer(body=b"not gzip at all" * 10, headers={"Content-Encoding": "gzip"})
    server.route("/feed", lying)
    http, sleeps = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed")
    message = str(info.value)
    assert message.startswith("test: answer not decodable (DecodingError: ")
    assert message.endswith(f" from {server.url}/feed") and "\n" not in message
    assert sleeps == []


@pytest.mark.parametrize(("coding", "pack"), [("gzip", gzip.compress), ("deflate", zlib.compress)])
def test_a_compressed_answer_cut_short_is_retried_then_given_as_cut(
    server: FeedServer, coding: str, pack: Callable[[bytes], bytes]
) -> None:
    """httpx takes what it unpacked of a stream without its end for the whole body: a feed cut
    there, framed by the cut's own Content-Length, had been read whole, its later items lost.
    Cut on every try, what did unpack is given marked `cut`: a reader keeps its whole entries
    and fails the source (failing it here had kept none)."""
    whole = b"".join(b"<item><title>Paper %d</title></item>" % n for n in range(3000))
    packed = pack(whole)
    headers = {"Content-Encoding": coding}
    cut = Answer(body=packed[: len(packed) * 3 // 4], headers=headers)
    server.route("/feed", cut, Answer(body=packed, headers=headers))
    http, sleeps = client()
    response = http.get(f"{server.url}/feed")
    assert (response.body, response.cut, len(sleeps)) == (whole, "", 1)
    server.route("/cut", cut)
    response = http.get(f"{server.url}/cut")
    assert response.cut == "its compressed stream stops before its end"
    assert whole.startswith(response.body) and 0 < len(response.body) < len(whole)
    assert len(server.hits("/cut")) == 3 and len(sleeps) == 3  # 1 for /feed, 2 for /cut
    server.route("/empty", Answer(body=b"", headers=headers))  # no body at all is not cut
    response = http.get(f"{server.url}/empty")
    assert (response.body, response.cut) == (b"", "")


def test_a_whole_gzip_answer_of_several_members_is_not_cut(server: FeedServer) -> None:
    first, second = b"<item>first</item>" * 50, b"<item>second</item>" * 50
    members = gzip.compress(first) + gzip.compress(second)
    server.route("/feed", Answer(body=members, headers={"Content-Encoding": "gzip"}))
    http, sleeps = client()
    response = http.get(f"{server.url}/feed")
    assert response.cut == "" and sleeps == [] and len(server.hits("/feed")) == 1
    assert (first + second).startswith(response.body) and response.body  # as curl: the first


def test_an_answer_compressed_twice_is_refused_before_it_is_unpacked(server: FeedServer) -> None:
    # "gzip, gzip": 2 KB on the wire unpacked to 1 GiB in memory before the 50 MiB cap counted
    # a byte (httpx unpacks a network chunk whole).
    inner = gzip.compress(b" " * 2**26, compresslevel=9)  # 64 MiB of blanks, about 64 KB
    bomb = gzip.compress(inner, compresslevel=9)
    assert len(bomb) < 2_000
    server.route("/feed", Answer(body=bomb, headers={"Content-Encoding": "gzip, gzip"}))
    http, _ = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed")
    assert str(info.value) == (
        f"test: answer compressed 2 times (gzip, gzip) from {server.url}/feed: refused, "
        "as a compression bomb"
    )
    # Compressed once, the same bytes are read and counted: too large.
    server.route("/once", Answer(body=inner, headers={"Content-Encoding": "gzip"}))
    with pytest.raises(SourceError, match="larger than 50 MiB, abandoned"):
        http.get(f"{server.url}/once")


@pytest.mark.parametrize(
    ("coding", "pack"), [("x-gzip", gzip.compress), ("X-Deflate", zlib.compress)]
)
def test_an_old_name_of_a_coding_is_read_as_the_coding(
    server: FeedServer, coding: str, pack: Callable[[bytes], bytes]
) -> None:
    """RFC 9110 8.4.1.3: x-gzip is gzip (Apache's stock "AddEncoding x-gzip .gz" sends it). Read
    as it came, the feed failed as "not an RSS or Atom feed", with a false charset warning."""
    whole = b"<rss><channel><item><title>Paper</title></item></channel></rss>" * 20
    server.route("/feed", Answer(body=pack(whole), headers={"Content-Encoding": coding}))
    response = client()[0].get(f"{server.url}/feed")
    assert (response.body, response.cut) == (whole, "")
    cut = Answer(body=pack(whole)[:-30], headers={"Content-Encoding": coding})
    server.route("/cut", cut)  # and one cut short is seen to be, as gzip's is
    assert client(retries=0)[0].get(f"{server.url}/cut").cut


@pytest.mark.parametrize("coding", ["x-compress", "compress", "snappy"])
def test_a_coding_that_cannot_be_unpacked_fails_the_source_naming_it(
    server: FeedServer, coding: str
) -> None:
    server.route("/feed", Answer(body=b"\x1f\x9d\x90<rss>", headers={"Content-Encoding": coding}))
    http, sleeps = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed?key=secret")
    assert str(info.value) == (
        f"test: answer compressed as {coding!r}, which cannot be unpacked, from {server.url}/feed"
    )
    assert sleeps == []


@pytest.mark.parametrize(
    ("url", "shows"),
    [
        ("http://user:pw@127.0.0.1:99999/feed?key=secret", "http://127.0.0.1:99999/feed"),
        ("http://127.0.0.1:abc/feed?key=secret", "http://127.0.0.1:abc/feed"),
        ("http://127.0.0.1/feed\x00?key=secret", "http://127.0.0.1/feed\\x00"),
        ("http://[::1/feed", "http://[::1/feed"),
    ],
)
def test_an_address_that_cannot_be_asked_fails_the_source_naming_it(url: str, shows: str) -> None:
    http, _ = client(retries=0)
    with pytest.raises(SourceError) as info:
        http.get(url)
    message = str(info.value)
    assert message.startswith("test: ") and shows in message
    assert "secret" not in message and "pw" not in message and "\n" not in message


@pytest.mark.parametrize("location", ["http://[::1", "ftp://127.0.0.1/feed"])
def test_a_redirect_to_an_unusable_address_fails_the_source_without_retrying(
    server: FeedServer, location: str
) -> None:
    server.route("/feed", Answer(302, headers={"Location": location}))
    http, sleeps = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/feed")
    assert str(info.value).endswith(f" from {server.url}/feed")
    assert sleeps == [] and len(server.requests) == 1


def test_a_redirect_to_a_port_out_of_range_fails_at_once_naming_where_it_led(
    server: FeedServer,
) -> None:
    target = "http://user:pw@127.0.0.1:99999/x?key=secret"
    server.route("/badport", Answer(301, headers={"Location": target}))
    http, sleeps = client()
    with pytest.raises(SourceError) as info:
        http.get(f"{server.url}/badport?token=abc")
    assert str(info.value) == (
        "test: redirected to http://127.0.0.1:99999/x, an address that cannot be asked"
        f" (port 99999 is out of range 1 to 65535), from {server.url}/badport"
    )
    assert sleeps == [] and len(server.requests) == 1


def test_a_moved_feeds_failure_names_where_it_was_moved(server: FeedServer) -> None:
    """feeds24 F7: a 301 to an address that answers 404, or where nothing listens, had been
    "HTTP 404 Not Found from <the address asked>", whose server had answered."""
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        closed = free.getsockname()[1]
    server.route("/old", Answer(301, headers={"Location": "/gone?token=abc"}))
    server.route("/dead", Answer(301, headers={"Location": f"http://127.0.0.1:{closed}/x"}))
    http, _ = client(retries=0)
    with pytest.raises(SourceError) as moved:
        http.get(f"{server.url}/old?token=abc")
    with pytest.raises(SourceError) as dead:
        http.get(f"{server.url}/dead")
    assert str(moved.value) == (
        f"test: redirected to {server.url}/gone, HTTP 404 Not Found from {server.url}/old"
    )
    assert str(dead.value).startswith(
        f"test: redirected to http://127.0.0.1:{closed}/x, network error ("
    )
    assert str(dead.value).endswith(f" from {server.url}/dead (gave up after 1 try)")
    server.route("/here", Answer(404))  # not moved: the address asked alone
    with pytest.raises(SourceError) as missing:
        http.get(f"{server.url}/here")
    assert str(missing.value) == f"test: HTTP 404 Not Found from {server.url}/here"


def test_the_addresss_own_query_is_kept_beside_the_sources_parameters(
    server: FeedServer,
) -> None:
    server.route("/api", Answer(body="ok"))
    http, _ = client()
    http.get(f"{server.url}/api?api_key=K3Y&start=9", {"start": 0, "q": "x"})
    (request,) = server.requests
    assert request.query == {"api_key": "K3Y", "start": "0", "q": "x"}
