"""The config of the delivery channels, [smtp] and [delivery]: a full example loads, each mistake
is one line naming the key, and no secret is ever part of an error or left unredacted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from channel_servers import self_signed

from digest import config
from digest.cli import main
from digest.models import ConfigError

REPO = Path(__file__).resolve().parent.parent
BASE = """
[[sources]]
kind = "seeds"
path = "seeds"

[[subscribers]]
name = "alice"
interests = "differential privacy"
"""
SMTP = """
[smtp]
host = "smtp.example.org"
from = "Paper digest <digest@example.org>"
"""
WEBHOOK = "https://hooks.slack.com/services/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"
FULL = f"""
[smtp]
host = "smtp.example.org"
port = 465
username = "${{SMTP_USER}}"
password = "${{SMTP_PASSWORD}}"
from = "Paper digest <digest@example.org>"

[delivery]
max_attempts = 5
concurrency = 8
max_wait = 30

{BASE}
[[subscribers.channels]]
kind = "email"
to = ["alice@example.org", "Bob <bob@example.org>"]
unsubscribe = "https://digest.example.org/unsubscribe?u=alice"

[[subscribers.channels]]
kind = "slack"
webhook = "{WEBHOOK}"

[[subscribers.channels]]
kind = "matrix"
homeserver = "http://127.0.0.1:8008"
room = "#papers:example.org"
token = "${{MATRIX_TOKEN}}"

[[subscribers.channels]]
kind = "matrix-hook"
url = "https://hookshot.example.org/webhook/7c1e0a2b-4d3f-4e5a-9b8c-1d2e3f4a5b6c"
"""
ENV = {"SMTP_USER": "digest-bot", "SMTP_PASSWORD": "pw-9f8e7d6c", "MATRIX_TOKEN": "syt_ZGln_abc"}


def load(tmp_path: Path, body: str, environ: dict[str, str] | None = None) -> config.Settings:
    path = tmp_path / "digest.toml"
    path.write_text(body, encoding="utf-8")
    return config.load(path, environ=environ or {})


def error_of(tmp_path: Path, body: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, body, ENV)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "digest.toml") + ": ")
    return message.split(": ", 1)[1]


def test_every_channel_kind_loads_with_smtp_and_delivery(tmp_path: Path) -> None:
    settings = load(tmp_path, FULL, ENV)
    (alice,) = settings.subscribers
    assert [c.name for c in alice.channels] == ["email", "slack", "matrix", "matrix-hook"]
    assert settings.smtp["security"] == "tls"  # port 465 means implicit TLS
    assert settings.delivery == {"max_attempts": 5, "concurrency": 8, "max_wait": 30}
    hook = alice.channels[3].options["url"]
    # Values from the environment and secrets written in the file alike; not the user name
    # ("digest-bot"): no credential, and a short one would blot that word from every line.
    assert settings.secrets == {"pw-9f8e7d6c", "syt_ZGln_abc", WEBHOOK, hook}


def test_a_password_written_in_the_file_is_a_secret_too(tmp_path: Path) -> None:
    settings = load(tmp_path, SMTP + 'username = "bot"\npassword = "literal-pw-42"\n' + BASE)
    assert settings.secrets == {"literal-pw-42"}


def test_smtp_defaults_to_starttls_on_587(tmp_path: Path) -> None:
    settings = load(
        tmp_path, SMTP + BASE + '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org"\n'
    )
    assert (settings.smtp["security"], settings.smtp["port"]) == ("starttls", 587)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            BASE + '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org"\n',
            "smtp.host: missing; the email channel needs it",
        ),
        (
            '[smtp]\nhost = "h"\n'
            + BASE
            + '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org"\n',
            "smtp.from: missing; the email channel needs it",
        ),
        (
            SMTP + 'security = "ssl"\n' + BASE,
            "smtp.security: must be 'tls' (465), 'starttls' (587)",
        ),
        (SMTP + "port = 0\n" + BASE, "smtp.port: must be a port number, 1 to 65535"),
        (
            '[smtp]\nhost = "relay\\nX-Injected: 1"\nfrom = "d@x.org"\n' + BASE,
            "smtp.host: must be a host name or address (no scheme, user, password, / or space;"
            " the port goes in [smtp].port)",
        ),
        (  # the password went into every "cannot reach" line, status and the state
            '[smtp]\nhost = "digest:S3KRITpw@relay"\nfrom = "d@x.org"\n' + BASE,
            "smtp.host: must be a host name or address (no scheme, user, password, / or space;"
            " the port goes in [smtp].port)",
        ),
        (SMTP + 'port = "587"\n' + BASE, "smtp.port: must be an integer, not a string"),
        (
            SMTP + 'security = "none"\nusername = "u"\npassword = "p4ss"\n' + BASE,
            "smtp.password: is never sent unencrypted",
        ),
        (SMTP + 'username = "u"\n' + BASE, "smtp.password: missing; a username needs it"),
        (SMTP + 'ca_file = "nope.pem"\n' + BASE, "smtp.ca_file: no such file '"),
        (
            '[smtp]\nhost = "h"\nfrom = "digest"\n' + BASE,
            "smtp.from: 'digest' is not one e-mail address",
        ),
        (
            SMTP + BASE + '[[subscribers.channels]]\nkind = "email"\nto = "jürgen@exämple.org"\n',
            "'jürgen@exämple.org': an address must be ASCII (a name may be any text)",
        ),
        (
            BASE + '[[subscribers.channels]]\nkind = "email"\n',
            "subscribers.alice.channels[0].to: missing; email needs it",
        ),
        (
            SMTP + BASE + '[[subscribers.channels]]\nkind = "email"\nto = []\n',
            "subscribers.alice.channels[0].to: is empty; email needs it",
        ),
        (
            BASE
            + '[[subscribers.channels]]\nkind = "matrix"\nhomeserver = "https://m.org"\n'
            + 'room = "!r:m.org"\ntoken = " "\n',
            "subscribers.alice.channels[0].token: is empty; matrix needs it",
        ),
        (
            SMTP + BASE + '[[subscribers.channels]]\nkind = "email"\nto = ["a@x.org", "b"]\n',
            "subscribers.alice.channels[0].to[1]: 'b' is not one e-mail address",
        ),
        (
            SMTP
            + BASE
            + '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org\\r\\nBcc: e@x"\n',
            "subscribers.alice.channels[0].to: 'a@x.org\\r\\nBcc: e@x' is not one e-mail address",
        ),
        (
            SMTP
            + BASE
            + '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org"\nunsubscribe = "ftp://x"\n',
            "channels[0].unsubscribe: must be an https:// URL or a mailto: address",
        ),
        (
            BASE + '[[subscribers.channels]]\nkind = "matrix"\nhomeserver = "https://m.org"\n'
            'room = "papers"\ntoken = "t"\n',
            "channels[0].room: must be a room id (!…) or an alias (#name:server)",
        ),
        (
            BASE + '[[subscribers.channels]]\nkind = "matrix"\nhomeserver = "https://m.org"\n'
            'room = "!abc:m.org"\n',
            "channels[0].token: missing; matrix needs it",
        ),
        (
            BASE + '[[subscribers.channels]]\nkind = "matrix"\n'
            'homeserver = "https://bot:pw-secret@m.org"\nroom = "!abc:m.org"\ntoken = "t"\n',
            "channels[0].homeserver: must not hold a user or password (use token)",
        ),
        ("[delivery]\nconcurrency = 0\n" + BASE, "delivery.concurrency: must be 1 to 64, not 0"),
        ("[delivery]\nretries = 3\n" + BASE, "delivery.retries: unknown key; allowed: concurrency"),
    ],
)
def test_each_mistake_is_one_line_naming_the_key(tmp_path: Path, body: str, expected: str) -> None:
    assert expected in error_of(tmp_path, body)


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.slack.com/services/T0/B0/SeCrEtToKeN",  # http off the loopback
        "http://192.168.1.5/services/T0/B0/SeCrEtToKeN",
        "ftp://127.0.0.1/services/T0/B0/SeCrEtToKeN",
        "hooks.slack.com/services/T0/B0/SeCrEtToKeN",
        "https://hooks.slack.com/services/T0/B0/SeCrEtToKeN extra",
    ],
)
def test_a_bad_webhook_is_refused_without_showing_it(tmp_path: Path, url: str) -> None:
    body = BASE + f'[[subscribers.channels]]\nkind = "slack"\nwebhook = "{url}"\n'
    message = error_of(tmp_path, body)
    assert message.startswith("subscribers.alice.channels[0].webhook: must be")
    assert "SeCrEtToKeN" not in message


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8080/hook", "http://localhost/hook", "https://hooks.example.org/x"]
)
def test_http_is_accepted_on_the_loopback_only(tmp_path: Path, url: str) -> None:
    body = BASE + f'[[subscribers.channels]]\nkind = "matrix-hook"\nurl = "{url}"\n'
    assert load(tmp_path, body).subscribers[0].channels[0].options["url"] == url


def test_room_ids_of_every_version_and_aliases_are_accepted(tmp_path: Path) -> None:
    for room in ("!abc123:example.org", "!9b-xjxBAAWjQ676l6OKTfjr7gRC_jQPFfriy9", "#papers:m.org"):
        body = BASE + (
            '[[subscribers.channels]]\nkind = "matrix"\nhomeserver = "https://m.org"\n'
            f'room = "{room}"\ntoken = "syt_x"\n'
        )
        assert load(tmp_path, body).subscribers[0].channels[0].options["room"] == room


# --- [smtp]'s host and CA file, as a run will use them -----------------------------------------


@pytest.mark.parametrize(
    ("host", "given"),
    [
        ("127.0.0.1:19721", " (port = 19721)"),
        ("smtp.example.org:587", " (port = 587)"),
        ("[::1]:25", " (port = 25)"),
        ("[::1]", ""),
        ("smtp.example.org:", ""),
    ],
)
def test_a_host_holding_a_port_is_refused_with_the_port_key(
    tmp_path: Path, host: str, given: str
) -> None:
    """Delivery had tried "cannot reach 127.0.0.1:19721:587" until the row was dead."""
    body = SMTP.replace('"smtp.example.org"', f'"{host}"') + BASE
    assert error_of(tmp_path, body) == (
        "smtp.host: must be the host alone, with no :port (an IPv6 address without brackets,"
        f" as ::1); the port goes in [smtp].port{given}"
    )


@pytest.mark.parametrize("host", ["smtps://smtp.example.org", "smtp.example.org 587"])
def test_a_host_written_as_a_url_or_with_a_space_points_to_the_port_key(
    tmp_path: Path, host: str
) -> None:
    body = SMTP.replace('"smtp.example.org"', f'"{host}"') + BASE
    assert error_of(tmp_path, body).endswith("; the port goes in [smtp].port)")


@pytest.mark.parametrize("host", ["::1", "fe80::1%eth0", "2001:db8::25", "relay.example.org"])
def test_ipv6_addresses_and_host_names_are_hosts(tmp_path: Path, host: str) -> None:
    body = SMTP.replace('"smtp.example.org"', f'"{host}"') + BASE
    assert load(tmp_path, body).smtp["host"] == host


def der_and_pem(folder: Path) -> tuple[Path, Path]:
    """One real CA certificate, as a CA hands it out in DER (relay-ca.crt) and as PEM."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    pem = self_signed(folder)[0]
    der = folder / "relay-ca.crt"
    der.write_bytes(x509.load_pem_x509_certificate(pem.read_bytes()).public_bytes(Encoding.DER))
    return der, pem


def test_a_ca_file_that_is_not_pem_is_refused_by_validate_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It passed validate, and the run's e-mail died on its first try blaming
    [smtp].security and the port."""
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    der, pem = der_and_pem(tmp_path)
    (tmp_path / "notes.txt").write_text("the relay's CA: ask Ana\n")
    email = '[[subscribers.channels]]\nkind = "email"\nto = "a@x.org"\n'
    path = tmp_path / "digest.toml"
    for name in (der.name, "notes.txt"):
        path.write_text(SMTP + f'ca_file = "{name}"\n' + BASE + email, encoding="utf-8")
        code = main(["validate", "--config", str(path)])
        out, err = capsys.readouterr()
        assert code == 2 and out == ""
        assert err == (
            f"digest: {path}: smtp.ca_file: {str(tmp_path / name)!r}: not a PEM certificate "
            "bundle (NO_CERTIFICATE_OR_CRL_FOUND); a DER .crt converts with "
            "`openssl x509 -inform der -in ca.crt -out ca.pem`\n"
        )
    path.write_text(SMTP + f'ca_file = "{pem.name}"\n' + BASE + email, encoding="utf-8")
    code = main(["validate", "--config", str(path)])
    assert code == 0, capsys.readouterr().err


# --- [smtp].security = "none": the mail, bearer links and all, unencrypted -----------------------


@pytest.mark.parametrize("host", ["smtp.example.org", "8.8.4.4", "2606:4700::1111", "mx.lab.org"])
def test_no_encryption_is_refused_for_a_relay_across_the_internet(
    tmp_path: Path, host: str
) -> None:
    body = SMTP.replace('"smtp.example.org"', f'"{host}"') + 'security = "none"\n' + BASE
    assert error_of(tmp_path, body) == (
        "smtp.security: 'none' is only for a relay on this machine or a private network"
        " (127.0.0.1, a private address, a one-word host such as compose's 'postfix',"
        " *.internal): every mail's rating, archive and unsubscribe links would cross the"
        " internet in clear; use 'starttls' or 'tls'"
    )


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1", "127.0.0.2", "::1", "localhost", "LocalHost.", "127.1",
        # a relay of the same compose project, the docker host, a private network's
        "postfix", "172.17.0.1", "host.docker.internal", "10.0.0.25", "fd00::25", "mail.lan",
    ],
)  # fmt: skip
def test_no_encryption_is_kept_for_a_relay_on_this_machine_or_a_private_network(
    tmp_path: Path, host: str
) -> None:
    body = SMTP.replace('"smtp.example.org"', f'"{host}"') + 'security = "none"\n' + BASE
    smtp = load(tmp_path, body).smtp
    assert (smtp["host"], smtp["security"], smtp["port"]) == (host, "none", 25)
