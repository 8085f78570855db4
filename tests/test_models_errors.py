"""redact(): a secret never shows, in whatever form a message holds it."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from digest.models import redact
from digest.sources.web import shown

FEED = "https://Feeds.Example.ORG:8443/private/s3cr3t-t0ken-42/atom.xml?key=k3y-abcdef&x=1"
WEBHOOK = "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX"
SECRETS = frozenset({FEED, WEBHOOK, "p4ss w0rd/+"})


@pytest.mark.parametrize(
    "form",
    [
        FEED,
        shown(FEED),  # host lower-cased, no query: as source errors show it
        FEED.lower(),
        FEED.split("?")[0],
        quote(FEED, safe=""),
        json.dumps(FEED)[1:-1].replace("/", "\\/"),
        "/private/s3cr3t-t0ken-42/atom.xml",  # the path alone, as a request line shows it
        "private/s3cr3t-t0ken-42/atom.xml",
        "s3cr3t-t0ken-42",
        "k3y-abcdef",  # a query value alone
        WEBHOOK,
        WEBHOOK.upper(),
        "/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "p4ss w0rd/+",
        quote("p4ss w0rd/+", safe=""),
        "p4ss+w0rd%2F%2B",
    ],
)
def test_every_form_of_a_secret_is_blotted(form: str) -> None:
    text = redact(f"rss: HTTP 403 from {form} (try later)", SECRETS)
    assert text == "rss: HTTP 403 from [redacted] (try later)"


def test_text_around_and_other_urls_stay() -> None:
    text = "feed https://feeds.example.org:8443/public/atom.xml is fine; /rss too"
    assert redact(text, SECRETS) == text
    assert redact("", SECRETS) == "" and redact("x", frozenset()) == "x"


def test_thousands_of_secrets_cost_little_per_line() -> None:
    """2,000 webhook URLs (about 60,000 forms): one regular expression of them all took seconds
    to compile and 30 ms a line; the index takes a fraction of that."""
    import time

    hooks = frozenset(
        f"https://hooks.slack.com/services/T{n:05d}/B{n:05d}/{n:024x}" for n in range(2000)
    )
    line = "alice/slack: attempt 1 failed (slack answered 500) from https://hooks.slack.com/x"
    started = time.perf_counter()
    for _ in range(200):
        assert redact(line, hooks) == line
    assert redact(f"at {sorted(hooks)[7].upper()}.", hooks) == "at [redacted]."
    assert time.perf_counter() - started < 3.0


@pytest.mark.parametrize(
    ("url", "echo"),
    [
        (
            "postgresql://digest:S3KRIT%zz@db:5432/digest",
            'invalid percent-encoded token: "S3KRIT%zz"',
        ),
        ("postgresql://digest@db/digest?password=S3KRIT%zz", 'token: "S3KRIT%zz"'),
        ("postgres://digest@db/digest?sslmode=require&password=pw-42", "password pw-42 refused"),
    ],
)
def test_a_database_url_s_password_is_blotted_however_the_server_quotes_it(
    url: str, echo: str
) -> None:
    text = redact(f"cannot connect ({echo})", frozenset({url}))
    assert "S3KRIT" not in text and "pw-42" not in text and "[redacted]" in text


def test_a_text_redacted_twice_keeps_its_blots_whole() -> None:
    # A log line passes the filter, then the formatter: a short secret must not cut into the blot.
    once = redact("matrix token t refused", frozenset({"t"}))
    assert (
        redact(once, frozenset({"t"}))
        == once
        == "ma[redacted]rix [redacted]oken [redacted] refused"
    )


@pytest.mark.parametrize("mark", ["#", "?"])
def test_a_database_password_with_a_hash_or_a_question_mark_is_blotted_whole(mark: str) -> None:
    """urllib ends a URL's user part at '#' or '?': libpq does not, nor does the redactor."""
    from digest.models.errors import postgres_secrets

    url = f"postgresql://digest:Hunter2{mark}Xyzzy42@127.0.0.1:55697/d1"
    echo = f'password "Hunter2{mark}Xyzzy42" refused; from {url}'
    for secrets in (frozenset({url}), postgres_secrets(url)):
        text = redact(echo, secrets)
        assert "Hunter2" not in text and "Xyzzy42" not in text and "[redacted]" in text
