"""redact(): a secret never shows, in whatever form a message holds it."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from support_alarm import in_time

from digest.models import redact
from digest.sources.addresses import shown

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

    hooks = frozenset(
        f"https://hooks.slack.com/services/T{n:05d}/B{n:05d}/{n:024x}" for n in range(2000)
    )
    line = "alice/slack: attempt 1 failed (slack answered 500) from https://hooks.slack.com/x"
    assert in_time(lambda: [redact(line, hooks) for _ in range(200)]) == [line] * 200
    assert redact(f"at {sorted(hooks)[7].upper()}.", hooks) == "at [redacted]."


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


@pytest.mark.parametrize("user", ["u", "us", "use", "mailer"])
def test_a_password_sent_in_base64_is_blotted_wherever_it_starts(user: str) -> None:
    """SMTP's AUTH PLAIN is base64("\\0user\\0password"): a relay that quotes it back in its
    refusal must not hand the password to whoever reads the error, whatever the user's length."""
    import base64

    sent = base64.b64encode(f"\0{user}\0sekrit-PASS-1234".encode()).decode()
    text = redact(
        f"535 authentication failed for AUTH PLAIN {sent}", frozenset({"sekrit-PASS-1234"})
    )
    before, blot, after = text.rpartition(" ")[2].partition("[redacted]")
    # What is left shown encodes the user's name and a byte or two around the password at most.
    assert blot and len(before) <= (len(user) + 2) * 4 // 3 + 2 and len(after) <= 4


def test_a_url_s_credentials_are_blotted_decoded_and_as_http_basic_sends_them() -> None:
    import base64

    url = "http://aruser:sekrit%40PW%3Ax%2Fy@127.0.0.1:18811/arxiv"
    basic = base64.b64encode(b"aruser:sekrit@PW:x/y").decode()
    text = redact(f"401 for Basic {basic} (aruser:sekrit@PW:x/y)", frozenset({url}))
    assert "sekrit" not in text and basic[4:-4] not in text


def test_a_user_name_as_a_url_s_credential_is_blotted_as_http_basic_sends_it() -> None:
    import base64

    url = "http://SECRETuserTOK55@127.0.0.1:18812/slack/x"
    basic = base64.b64encode(b"SECRETuserTOK55:").decode()
    text = redact(f"slack answered 400 auth=Basic {basic} for SECRETuserTOK55", frozenset({url}))
    assert "SECRETuserTOK55" not in text and basic[:16] not in text


def test_a_secret_address_does_not_blot_a_longer_one_it_begins() -> None:
    secret = frozenset({"http://127.0.0.1:18816/or?token=abcdefgh1234"})
    text = "from http://127.0.0.1:18816/or2/notes; from http://127.0.0.1:18816/or/notes"
    assert redact(text, secret) == "from http://127.0.0.1:18816/or2/notes; from [redacted]/notes"


def test_a_message_is_cut_after_its_secrets_are_blotted() -> None:
    from digest.models.errors import shortened

    text = "x" * 580 + " Bearer syt_sekritMATRIXtoken"
    assert "syt_sek" in shortened(text)  # cut first, no form of the token is left whole
    assert "syt" not in shortened(redact(text, frozenset({"syt_sekritMATRIXtoken"})))


@pytest.mark.parametrize(
    "quoted",
    [
        "hook SECRETpartialHOOKab...",  # a server's quote of the hook's segment, cut short
        "token …tialHOOKabcdef",  # its end, as a log shows the last characters
        "Bearer syt_ZGlnZXN0_aBcDeFgHiJkLmNo…",  # a Matrix token cut short
    ],
)
def test_most_of_a_long_token_is_blotted_where_a_server_quoted_it_cut_short(quoted: str) -> None:
    secrets = frozenset(
        {
            "https://hooks.example.org/hook/SECRETpartialHOOKabcdef",
            "syt_ZGlnZXN0_aBcDeFgHiJkLmNoPqRsTuV",
        }
    )
    text = redact(f"matrix answered 400: {quoted}", secrets)
    assert "[redacted]" in text
    assert "tialHOOK" not in text and "HiJkLm" not in text


def test_a_key_cut_short_is_blotted_as_an_address_carries_it_too() -> None:
    """A base64 key in a feed's query travels percent-encoded: a request line quoted cut short
    showed 15 of its 22 characters."""
    from digest.models.credentials import url_credentials

    secrets = url_credentials("https://feeds.example.org/f.xml?key=Zx9%2FQw%2B8Lm%3DPq7Rt3Yu6Ab")
    for quoted in ("GET /f.xml?key=Zx9%2FQw%2B8Lm%3DPq7R…", "invalid key Zx9/Qw+8Lm=Pq7..."):
        text = redact(f"feed answered 403: {quoted}", secrets)
        assert "[redacted]" in text and "Lm" not in text, text


def test_a_short_secret_s_beginning_is_not_blotted_in_plain_words() -> None:
    text = "smtp: the server refused the password for ana"
    assert redact(text, frozenset({"password123"})) == text
    # a long token's parts are at least half of it: a few of its characters are no form of it
    assert redact("id SECRETpart", frozenset({"SECRETpartialHOOKabcdef"})) == "id SECRETpart"


def test_a_short_path_segment_of_a_secret_address_is_no_secret_in_a_log_line() -> None:
    """A private feed's short path token is kept from readers where links are taken in
    (intake.unlinked drops a link under the feed's folder); a log line keeps such a word, as it
    keeps "services" of a webhook: blotted everywhere, short segments would blot plain words."""
    feed = "http://feeds.example/f/ab12cd34ef/feed.rss"
    text = "lab: 3 items, the first ab12cd34ef; services back"
    assert redact(text, frozenset({feed, WEBHOOK})) == text
    assert redact(f"HTTP 500 from {feed}", frozenset({feed})) == "HTTP 500 from [redacted]"


@pytest.mark.parametrize("encode", ["b64encode", "urlsafe_b64encode"])
@pytest.mark.parametrize(
    "before", ["", "/webhook/", "x/webhook/", "http://127.0.0.1:18960/webhook/"]
)
def test_a_hook_s_path_quoted_in_base64_is_blotted(encode: str, before: str) -> None:
    """A hookshot answering "400 no hook <base64 of its path>" had shown the hook's secret in
    stdout, `digest status` and outbox.last_error."""
    import base64

    hook = "http://127.0.0.1:18960/webhook/HookshotSecret-77aa-bb88-cc99"
    quoted = getattr(base64, encode)(f"{before}HookshotSecret-77aa-bb88-cc99".encode()).decode()
    text = redact(f"matrix-hook answered 400 no hook {quoted}", frozenset({hook}))
    shown = text.rpartition(" ")[2]
    # What is left shown encodes the address before the secret, and a byte at its end at most.
    assert "[redacted]" in shown
    assert len(shown.replace("[redacted]", "")) <= len(base64.b64encode(before.encode())) + 4


def test_a_short_hook_path_adds_no_base64_form_that_hits_other_text() -> None:
    hook = "https://hooks.example.org/h/x1"
    text = "slack answered 400: token eyJhbGciOiJIUzI1NiJ9 unknown for aC94MQ and /h/x2"
    assert redact(text, frozenset({hook})) == text
