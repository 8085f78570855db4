"""digest.channels.email against a real SMTP server (aiosmtpd on 127.0.0.1): plain relay, STARTTLS
with login, implicit TLS with a certificate made here; the mail is parsed back and checked; a
run's connections reused across messages (counted at the server)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from channel_servers import LoopbackSMTP, Mailbox, free_port, password_check, self_signed
from sample_digests import delivery, message, paper

from digest import outbox, render
from digest.channels import connections
from digest.channels import email as email_channel
from digest.channels import smtp as smtp_plumbing
from digest.channels.email import EmailChannel
from digest.models import (
    ChannelConfig,
    Delivery,
    DeliveryError,
    Digest,
    Message,
    Profile,
    Scored,
    Settings,
    Subscriber,
)
from digest.state import Store

FROM = "Paper digest <digest@example.org>"
TO = ["ana@example.org", "Ben Builder <ben@example.org>"]
NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)


@pytest.fixture
def relay() -> Iterator[tuple[LoopbackSMTP, Mailbox]]:
    mailbox = Mailbox()
    server = LoopbackSMTP(mailbox)
    server.start()
    yield server, mailbox
    server.stop()


@pytest.fixture
def cert(tmp_path: Path) -> tuple[Path, Path]:
    return self_signed(tmp_path)


def settings_for(port: int, **smtp: Any) -> Settings:
    base = {"host": "127.0.0.1", "port": port, "security": "none", "from": FROM}
    return Settings("digest.toml", (), (), smtp={**base, **smtp})


def channel(settings: Settings, **options: Any) -> EmailChannel:
    return EmailChannel(ChannelConfig("email", "email", {"to": TO, **options}), settings)


def send(ch: EmailChannel, msg: Message | None = None, **extra: Any) -> Delivery:
    d = delivery(msg or message(2), "email", dict(ch.config.options), **extra)
    ch.send(d)
    return d


def elements(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every real tag of an HTML text with its attributes (escaped text is not a tag)."""
    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Collector(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, attrs))

    Collector().feed(html)
    return found


def test_a_digest_arrives_as_multipart_alternative_text_then_html(relay: Any) -> None:
    server, mailbox = relay
    ch = channel(settings_for(server.port), unsubscribe="https://lists.example.org/u?id=ana")
    sent = send(ch, message(2, subscriber="Zoë"), row=41)
    (mail,) = mailbox.mails
    assert mail.sender == "digest@example.org"
    assert mail.recipients == ["ana@example.org", "ben@example.org"]
    msg = mail.message
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]
    assert msg["Subject"] == "Paper digest for Zoë — 2026-11-30: 2 papers"
    assert "=?utf-8?" in mail.raw.decode("ascii").lower()  # the subject travels RFC 2047-encoded
    assert msg["Message-ID"] == f"<{sent.key}@example.org>"
    assert msg["Date"] and msg["Auto-Submitted"] == "auto-generated"
    assert msg["To"] == "ana@example.org, Ben Builder <ben@example.org>"  # names kept
    assert msg["List-Unsubscribe"] == "<https://lists.example.org/u?id=ana>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text, html = (p.get_content() for p in msg.iter_parts())
    assert "Federated learning under heterogeneity, part 1" in text
    assert 'href="https://arxiv.org/abs/2611.00001?a=1&amp;b=2"' in html


def test_the_same_row_sends_the_same_message_id_again(relay: Any) -> None:
    server, mailbox = relay
    ch = channel(settings_for(server.port))
    send(ch, row=5)
    send(ch, row=5)
    send(ch, row=6)
    ids = [m.message["Message-ID"] for m in mailbox.mails]
    assert ids[0] == ids[1] != ids[2]


def test_a_mailto_unsubscribe_has_no_one_click_header(relay: Any) -> None:
    server, mailbox = relay
    send(channel(settings_for(server.port), unsubscribe="mailto:leave@example.org?subject=stop"))
    msg = mailbox.mails[0].message
    assert msg["List-Unsubscribe"] == "<mailto:leave@example.org?subject=stop>"
    assert msg["List-Unsubscribe-Post"] is None


def test_untrusted_text_is_escaped_and_cannot_inject_headers(relay: Any) -> None:
    server, mailbox = relay
    evil = message(2, evil=True)
    hostile = Message(
        "Digest\r\nBcc: thief@evil.example\r\n\r\nbody", evil.text, evil.html, evil.heading
    )
    send(channel(settings_for(server.port)), hostile)
    mail = mailbox.mails[0]
    assert mail.recipients == ["ana@example.org", "ben@example.org"]
    msg = mail.message
    assert msg["Bcc"] is None and "thief" not in str(msg["To"])
    assert msg["Subject"] == "Digest Bcc: thief@evil.example body"
    html = msg.get_body(("html",)).get_content()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as text, never run
    tags = elements(html)
    assert not {"script", "img", "b"} & {tag for tag, _ in tags}
    assert not [(t, a) for t, attrs in tags for a, v in attrs if a.startswith("on")]
    assert not [v for _, attrs in tags for a, v in attrs if (v or "").startswith("javascript")]


# A literal encoded word in a title, whose text is a CRLF and a header; decoded by the reader
# (or by Python's email package when it sets the subject) it would be a Bcc of its own.
ENCODED_WORD = "x alertword =?utf-8?q?=0D=0ABcc:_x@y?="


@pytest.mark.parametrize(
    ("subject", "shown"),
    [
        (f"Paper alert for ana: {ENCODED_WORD}", f"Paper alert for ana: {ENCODED_WORD}"),
        (f"Zoë: {ENCODED_WORD}", f"Zoë: {ENCODED_WORD}"),
        ("Alert\r\nBcc: victim@example.org\x00 nul", "Alert Bcc: victim@example.org nul"),
        ("Alert \u202eRLO\u2066 and \x1b[31mred\x07", "Alert RLO and [31mred"),
    ],
)
def test_a_title_in_the_subject_cannot_add_a_header(relay: Any, subject: str, shown: str) -> None:
    server, mailbox = relay
    send(channel(settings_for(server.port)), dataclasses.replace(message(1), subject=subject))
    msg = mailbox.mails[0].message
    assert msg.keys() == [
        "From", "To", "Subject", "Date", "Message-ID", "Auto-Submitted", "MIME-Version",
        "Content-Type",
    ]  # fmt: skip
    assert msg["Subject"] == shown
    assert "\r" not in msg["Subject"] and "\n" not in msg["Subject"]


def test_a_long_word_in_a_title_is_folded_under_78_characters_a_line(relay: Any) -> None:
    server, mailbox = relay
    subject = "Paper alert for ana: " + "w" * 2000 + " end"
    send(channel(settings_for(server.port)), dataclasses.replace(message(1), subject=subject))
    (mail,) = mailbox.mails
    head = mail.raw.split(b"\r\n\r\n", 1)[0]
    assert max(len(line) for line in head.split(b"\r\n")) <= 78
    assert mail.message["Subject"] == subject


def test_css_in_a_users_style_block_is_inlined(relay: Any, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "digest.html").write_text(
        "<html><head><style>h2 { color: #123456 } @media (max-width: 600px) { h2 { color: red } }"
        "</style></head><body>{% for item in items %}<h2>{{ item.title }}</h2>{% endfor %}"
        "</body></html>"
    )
    env = render.make_environment(str(templates))
    digest = Digest("ana", "P", NOW.date(), (Scored(paper(1), 0.5),), NOW)
    server, mailbox = relay
    send(channel(settings_for(server.port)), render.render_digest(digest, env))
    html = mailbox.mails[0].message.get_body(("html",)).get_content()
    assert '<h2 style="color: #123456;">' in html
    assert "@media (max-width: 600px)" in html  # kept for the clients that read it


def test_starttls_with_login(cert: tuple[Path, Path]) -> None:
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*cert)
    mailbox = Mailbox()
    server = LoopbackSMTP(
        mailbox,
        tls_context=context,
        require_starttls=True,
        authenticator=password_check("digest-bot", "c0rrect-h0rse"),
        auth_required=True,
    )
    server.start()
    try:
        smtp = {
            "security": "starttls",
            "username": "digest-bot",
            "password": "c0rrect-h0rse",
            "ca_file": str(cert[0]),
        }
        send(channel(settings_for(server.port, **smtp)))
        with pytest.raises(DeliveryError) as wrong:
            send(channel(settings_for(server.port, **{**smtp, "password": "wr0ng-h0rse"})))
        with pytest.raises(DeliveryError) as untrusted:
            send(channel(settings_for(server.port, **{**smtp, "ca_file": ""})))
        (cert[0].parent / "renewed").mkdir()
        other = self_signed(cert[0].parent / "renewed")[0]  # a CA that did not sign the relay
        with pytest.raises(DeliveryError) as wrong_ca:
            send(channel(settings_for(server.port, **{**smtp, "ca_file": str(other)})))
    finally:
        server.stop()
    (mail,) = mailbox.mails
    assert mail.login == "digest-bot" and mail.tls
    assert not wrong.value.retryable and "refused the login (535" in str(wrong.value)
    assert "wr0ng" not in str(wrong.value)
    assert not untrusted.value.retryable and "certificate is not trusted" in str(untrusted.value)
    assert "set [smtp].ca_file for a private CA" in str(untrusted.value)
    said = str(wrong_ca.value)  # already set: the file is what is wrong, not its absence
    assert f"no CA in [smtp].ca_file ({other.name}) signed it" in said and "set [smtp]" not in said


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_implicit_tls_with_login(cert: tuple[Path, Path]) -> None:
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*cert)
    mailbox = Mailbox()
    server = LoopbackSMTP(
        mailbox,
        ssl_context=context,
        authenticator=password_check("digest-bot", "c0rrect-h0rse"),
        auth_required=True,
        auth_require_tls=False,  # the whole session is TLS; aiosmtpd only tracks STARTTLS
    )
    server.start()
    try:
        smtp = {
            "security": "tls",
            "username": "digest-bot",
            "password": "c0rrect-h0rse",
            "ca_file": str(cert[0]),
        }
        send(channel(settings_for(server.port, **smtp)))
    finally:
        server.stop()
    assert [m.login for m in mailbox.mails] == ["digest-bot"]


def test_a_ca_file_that_is_not_pem_is_named_not_the_security_setting(
    cert: tuple[Path, Path], tmp_path: Path
) -> None:
    """A DER .crt (as many CAs hand one out) gave "TLS with host:port failed; check
    [smtp].security against the port", and the row was dead after one try."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    der = tmp_path / "relay-ca.crt"
    der.write_bytes(x509.load_pem_x509_certificate(cert[0].read_bytes()).public_bytes(Encoding.DER))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*cert)
    mailbox = Mailbox()
    server = LoopbackSMTP(mailbox, ssl_context=context)
    server.start()
    try:
        with pytest.raises(DeliveryError) as error:
            send(channel(settings_for(server.port, security="tls", ca_file=str(der))))
        send(channel(settings_for(server.port, security="tls", ca_file=str(cert[0]))))
    finally:
        server.stop()
    assert str(error.value) == (
        f"email: cannot load [smtp].ca_file {str(der)!r} (NO_CERTIFICATE_OR_CRL_FOUND): it must"
        " hold PEM certificates"
    )
    assert error.value.retryable  # mended, the file serves the next try: no `digest retry`
    assert len(mailbox.mails) == 1  # the same relay, trusted through the PEM


def test_starttls_refuses_a_server_that_does_not_offer_it(relay: Any) -> None:
    server, mailbox = relay
    with pytest.raises(DeliveryError) as error:
        send(channel(settings_for(server.port, security="starttls")))
    assert not error.value.retryable and "STARTTLS" in str(error.value)
    assert mailbox.mails == []


def test_tls_spoken_to_a_plain_relay_is_dead_at_once_and_names_the_security_setting(
    relay: Any,
) -> None:
    # Retried as "cannot reach" for a week of daily runs, it sent the operator to the network.
    server, mailbox = relay
    with pytest.raises(DeliveryError) as error:
        send(channel(settings_for(server.port, security="tls")))
    said = str(error.value)
    assert not error.value.retryable and "check [smtp].security (now 'tls')" in said
    assert mailbox.mails == []


def test_a_relay_that_never_greets_is_retried_with_the_implicit_tls_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # starttls against port 465: both sides wait for the other to speak first.
    monkeypatch.setattr(email_channel, "TIMEOUT", 0.3)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        with pytest.raises(DeliveryError) as error:
            send(channel(settings_for(silent.getsockname()[1], security="starttls")))
    said = str(error.value)
    assert error.value.retryable and "cannot reach" in said
    assert 'no greeting: a port that speaks TLS at once needs [smtp].security = "tls"' in said


def greeting_server(greeting: str, close: bool) -> tuple[int, threading.Event]:
    """A TCP server on 127.0.0.1 that greets with `greeting`, then closes (Exim's connect ACL),
    or answers every command with 503 until QUIT (RFC 5321 3.1 after a 554 greeting)."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        with listener:
            listener.settimeout(0.1)
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                with conn, conn.makefile("rb") as lines:
                    conn.sendall(greeting.encode() + b"\r\n")
                    for line in [] if close else lines:
                        bye = line.upper().startswith(b"QUIT")
                        conn.sendall(b"221 Bye\r\n" if bye else b"503 5.5.1 Bad sequence\r\n")
                        if bye:
                            break

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1], stop


@pytest.mark.parametrize(
    ("greeting", "close", "retryable"),
    [
        (
            "554 5.7.1 Service unavailable; client [127.0.0.1] blocked using zen.spamhaus.org",
            True,
            False,
        ),
        ("554 5.7.1 Your IP is on a blocklist", False, False),
        ("421 4.3.2 Service not available, closing", True, True),
    ],
    ids=["554 and close", "554 then 503 to all", "421 and close"],
)
@pytest.mark.parametrize("kept", [False, True], ids=["alone", "in a run"])
def test_a_greeting_that_refuses_the_connection_is_said_in_the_relays_own_words(
    tmp_path: Path, greeting: str, close: bool, retryable: bool, kept: bool
) -> None:
    port, stop = greeting_server(greeting, close)
    try:
        if kept:
            settings, store = outbox_setup(tmp_path, port)
            result = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
            (said,) = result.retrying if retryable else result.dead
        else:
            with pytest.raises(DeliveryError) as error:
                send(channel(settings_for(port)))
            said = str(error.value)
            assert error.value.retryable is retryable
    finally:
        stop.set()
    assert said.endswith(
        f"email: the SMTP server refused the connection in its greeting: {greeting}"
    )
    assert "cannot reach" not in said and "503" not in said


# Through the outbox: what a run does with each kind of answer.


def outbox_setup(tmp_path: Path, port: int) -> tuple[Settings, Store]:
    config = ChannelConfig("email", "email", {"to": TO})
    sub = Subscriber("ana", Profile(interests="x"), (config,))
    settings = Settings(
        "t.toml",
        (),
        (sub,),
        smtp={"host": "127.0.0.1", "port": port, "security": "none", "from": FROM},
    )
    store = Store(tmp_path / "state.db")
    digest = Digest("ana", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
    store.record_digest(digest, 1, [("email", "email", message(1))])
    return settings, store


def test_a_4xx_answer_is_tried_again_later_and_then_delivered_once(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.script.append("451 4.3.0 Mailbox busy, try again later")
    settings, store = outbox_setup(tmp_path, server.port)
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    said = "the SMTP server answered 451 4.3.0 Mailbox busy, try again later"
    assert first.retrying == [f"ana/email: email: {said}"]
    assert mailbox.mails == []
    assert outbox.deliver(store, settings, NOW + timedelta(seconds=30)).sent == []
    later = outbox.deliver(store, settings, NOW + timedelta(seconds=61))
    assert len(later.sent) == 1 and len(mailbox.mails) == 1
    assert store.outbox_counts() == {"sent": 1}


def test_a_5xx_answer_is_dead_at_once_with_the_reason(relay: Any, tmp_path: Path) -> None:
    server, mailbox = relay
    mailbox.script.append("550 5.7.1 Relaying denied")
    settings, store = outbox_setup(tmp_path, server.port)
    result = outbox.deliver(store, settings, NOW)
    assert result.dead == ["ana/email: email: the SMTP server answered 550 5.7.1 Relaying denied"]
    (row,) = store.outbox("dead")
    assert row.last_error == "email: the SMTP server answered 550 5.7.1 Relaying denied"


def test_a_server_that_is_down_then_up_loses_nothing(tmp_path: Path) -> None:
    port = free_port()
    settings, store = outbox_setup(tmp_path, port)
    down = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    assert len(down.retrying) == 1 and "cannot reach 127.0.0.1" in down.retrying[0]
    mailbox = Mailbox()
    server = LoopbackSMTP(mailbox, port=port)
    server.start()
    try:
        up = outbox.deliver(store, settings, NOW + timedelta(minutes=5))
    finally:
        server.stop()
    assert len(up.sent) == 1 and len(mailbox.mails) == 1


# After DATA's 250 the relay has the message: nothing said or lost afterwards unsends it.


@dataclass
class AnswersAfterData(Mailbox):
    """A relay that accepts the message (250), then answers QUIT with `quit`, or (quit = "")
    drops the connection right after its 250."""

    quit: str = "421 4.3.2 Service shutting down"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        if not self.quit:
            asyncio.get_running_loop().call_later(0.05, server.transport.close)
        return answer

    async def handle_QUIT(self, server: Any, session: Any, envelope: Any) -> str:
        return self.quit or "221 Bye"


@pytest.mark.parametrize(
    "quit",
    ["421 4.3.2 Service shutting down", "554 5.3.0 Transaction failed", ""],
    ids=["QUIT 421", "QUIT 554", "connection dropped"],
)
def test_a_mail_the_relay_accepted_is_sent_whatever_comes_after(tmp_path: Path, quit: str) -> None:
    mailbox = AnswersAfterData(quit=quit)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        for minutes in (0, 10, 100, 1000):  # every later run: nothing is sent again
            outbox.deliver(store, settings, NOW + timedelta(minutes=minutes), rand=lambda: 0.5)
    finally:
        server.stop()
    assert len(mailbox.mails) == 1
    assert store.outbox_counts() == {"sent": 1}


def dripping_server(payload: bytes, every: float = 0.05) -> tuple[int, threading.Event]:
    """A TCP server on 127.0.0.1 that sends `payload` one byte at a time, then nothing."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn, listener:
            for byte in payload:
                if stop.wait(every):
                    return
                try:
                    conn.send(bytes([byte]))
                except OSError:
                    return
            stop.wait()

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1], stop


def test_a_relay_that_drips_its_greeting_is_given_up_at_the_deadline() -> None:
    port, stop = dripping_server(b"220 " + b"x" * 10_000)  # one line, never ended
    ch = channel(settings_for(port))
    ch.deadline = 1.0
    started = time.monotonic()
    try:
        with pytest.raises(DeliveryError) as error:
            send(ch)
    finally:
        stop.set()
    assert time.monotonic() - started < 5
    assert error.value.retryable
    assert f"127.0.0.1:{port} did not finish within 1 s" in str(error.value)


def test_the_web_faces_one_click_link_goes_first_in_list_unsubscribe(relay: Any) -> None:
    server, mailbox = relay
    web = dataclasses.replace(message(1), unsubscribe_url="https://digest.example.org/u/abc.def")
    one = ["ana@example.org"]
    send(channel(settings_for(server.port), to=one, unsubscribe="mailto:leave@example.org"), web)
    msg = mailbox.mails[0].message
    listed = msg["List-Unsubscribe"].strip()  # folded: it is a long header
    assert listed == "<https://digest.example.org/u/abc.def>, <mailto:leave@example.org>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"  # RFC 8058


def test_a_mail_to_several_addresses_offers_no_one_click_that_stops_it_for_all(
    relay: Any,
) -> None:
    """The face's link stops the channel, every address of `to`: one co-recipient's mail
    provider posting RFC 8058's one-click had stopped it for the whole lab, unsaid. Its page
    asks, and says it stops every address."""
    server, mailbox = relay
    web = dataclasses.replace(message(1), unsubscribe_url="https://digest.example.org/u/abc.def")
    lab = ["ana@example.org", "colleague@example.org"]
    send(channel(settings_for(server.port), to=lab), web)
    msg = mailbox.mails[0].message
    assert msg["List-Unsubscribe"].strip() == "<https://digest.example.org/u/abc.def>"
    assert msg["List-Unsubscribe-Post"] is None
    own = "https://lists.example.org/leave"  # the operator's own list manager knows who asks
    send(channel(settings_for(server.port), to=lab, unsubscribe=own), web)
    listed = mailbox.mails[1].message
    assert listed["List-Unsubscribe"].strip() == f"<{own}>"
    assert listed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def raw_header(raw: bytes, name: str) -> str:
    """A header field as it travelled: unfolded, never decoded (a parser decodes RFC 2047)."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").replace("\r\n ", " ")
    (line,) = [h for h in head.split("\r\n") if h.lower().startswith(name.lower() + ":")]
    return line.split(":", 1)[1].strip()


@pytest.mark.parametrize(
    ("web", "own", "listed"),
    [
        (  # [web].base_url on an IDN host under an accented path, and a mailto: of its own
            "https://papers.exämple.org/dïgest/u/WyJ1IiwiYW5hIiwwXQ.aKhO",
            "mailto:désinscription@exämple.org?subject=désabonner",
            "<https://papers.xn--exmple-cua.org/d%C3%AFgest/u/WyJ1IiwiYW5hIiwwXQ.aKhO>,"
            " <mailto:d%C3%A9sinscription@xn--exmple-cua.org?subject=d%C3%A9sabonner>",
        ),
        (  # no [web]: the channel's own https link is the one-click one
            "",
            "https://example.org/désabonner?u=ana&n=Zoë",
            "<https://example.org/d%C3%A9sabonner?u=ana&n=Zo%C3%AB>",
        ),
    ],
    ids=["web face and mailto", "own https"],
)
def test_an_unsubscribe_uri_beyond_ascii_is_written_in_ascii_not_encoded_words(
    relay: Any, web: str, own: str, listed: str
) -> None:
    # RFC 2369/8058 hold <URI>s: encoded words there (RFC 2047 5 forbids them) left no client
    # an unsubscribe button, and no one-click.
    server, mailbox = relay
    msg = dataclasses.replace(message(1), unsubscribe_url=web)
    send(channel(settings_for(server.port), to=["ana@example.org"], unsubscribe=own), msg)
    (mail,) = mailbox.mails
    assert raw_header(mail.raw, "List-Unsubscribe") == listed
    assert raw_header(mail.raw, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"


def test_with_the_web_faces_link_a_channels_https_link_is_not_a_second_one_click(
    relay: Any,
) -> None:
    # RFC 8058: one HTTPS URI beside List-Unsubscribe-Post; which of two a provider posts to is
    # undefined, so one of the two ways to leave never fired.
    server, mailbox = relay
    web = dataclasses.replace(message(1), unsubscribe_url="https://digest.example.org/u/abc.def")
    own = "https://lists.example.org/u?id=ana"
    send(channel(settings_for(server.port), to=["ana@example.org"], unsubscribe=own), web)
    msg = mailbox.mails[0].message
    assert msg["List-Unsubscribe"].strip() == "<https://digest.example.org/u/abc.def>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


ENCODED_WORD = re.compile(rb"=\?[^?]+\?[bq]\?[^?]*\?=", re.IGNORECASE)


@pytest.mark.parametrize(
    "name", ["論文ダイジェスト配信サービス・研究室の自動送信ボット（毎日）", "Zoë " * 120]
)
def test_a_long_name_beyond_ascii_is_encoded_words_of_at_most_75_characters(
    relay: Any, name: str
) -> None:
    # formataddr wrote the name as one encoded word of any length: 132 characters for 30 kana
    # (RFC 2047 allows 75), and a header line past RFC 5322's 998 for a long name.
    server, mailbox = relay
    subject = 'Paper alert for zoë "q", o\'neil: Zebra ' + "word " * 12 + "x" * 200
    ch = channel(settings_for(server.port, **{"from": f"{name} <digest@example.org>"}))
    send(ch, dataclasses.replace(message(1), subject=subject))
    (mail,) = mailbox.mails
    head = mail.raw.split(b"\r\n\r\n", 1)[0]
    assert max(len(w) for w in ENCODED_WORD.findall(head)) <= 75
    assert max(len(line) for line in head.split(b"\r\n")) <= 80
    # RFC 2047 6.2: white space between encoded words is no part of the text (the email
    # package's address parser keeps it; its decode_header follows the RFC).
    unfolded = re.sub(rb"\r\n[ \t]", b" ", head).decode("ascii")
    (sender,) = re.findall(r"^From: (.*)$", unfolded, re.MULTILINE)
    shown = " ".join(name.split())
    assert str(make_header(decode_header(sender))) == f"{shown} <digest@example.org>"
    assert mail.message["Subject"] == subject and not mail.message.defects


# Connections reused: a run keeps a few open to the relay and sends message after message on them.


@dataclass
class Sessions(Mailbox):
    """Also keeps each mail's SMTP session: aiosmtpd makes one per connection."""

    sessions: list[Any] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.sessions.append(session)
        return await super().handle_DATA(server, session, envelope)

    @property
    def connections(self) -> int:
        return len({id(s) for s in self.sessions})


def many_setup(tmp_path: Path, port: int, count: int, **delivery: Any) -> tuple[Settings, Store]:
    subs = tuple(
        Subscriber(f"s{n}", Profile("x"), (ChannelConfig("email", "email", {"to": f"s{n}@x.org"}),))
        for n in range(count)
    )
    smtp = {"host": "127.0.0.1", "port": port, "security": "none", "from": FROM}
    settings = Settings("t.toml", (), subs, smtp=smtp, delivery=delivery)
    store = Store(tmp_path / "state.db")
    for sub in subs:
        digest = Digest(sub.name, "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("email", "email", message(1, subscriber=sub.name))])
    return settings, store


def delivered(mailbox: Any, tmp_path: Path, count: int, **delivery: Any) -> tuple[Any, Store]:
    """One delivery run of `count` rows through a relay on 127.0.0.1 that `mailbox` plays."""
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = many_setup(tmp_path, server.port, count, **delivery)
        return outbox.deliver(store, settings, NOW), store
    finally:
        server.stop()


WANTED = [f"s{n}@x.org" for n in range(12)]


def test_a_run_reuses_a_few_connections_for_many_messages(tmp_path: Path) -> None:
    mailbox = Sessions()
    result, store = delivered(mailbox, tmp_path, 12, smtp_connections=2)
    assert len(result.sent) == 12 and store.outbox_counts() == {"sent": 12}
    assert sorted(m.recipients[0] for m in mailbox.mails) == sorted(
        f"s{n}@x.org" for n in range(12)
    )
    assert 1 <= mailbox.connections <= 2  # twelve messages, concurrently, on two connections


def test_each_send_outside_a_run_has_its_own_connection() -> None:
    mailbox = Sessions()
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        ch = channel(settings_for(server.port))
        send(ch)
        send(ch, row=2)
    finally:
        server.stop()
    assert len(mailbox.mails) == 2 and mailbox.connections == 2


def test_a_connection_the_relay_dropped_is_replaced_and_the_mail_still_goes(
    tmp_path: Path,
) -> None:
    port = free_port()
    first, second = Sessions(), Sessions()
    ch = channel(settings_for(port))
    server = LoopbackSMTP(first, port=port)
    server.start()
    with connections.kept():
        send(ch)
        server.stop()  # the relay restarts: the connection kept from the first mail is dead
        server = LoopbackSMTP(second, port=port)
        server.start()
        try:
            send(ch, row=2)
            pool = connections.relay(ch.relay)
        finally:
            server.stop()
    assert len(first.mails) == 1 and len(second.mails) == 1
    assert second.mails[0].message["Message-ID"] != first.mails[0].message["Message-ID"]
    assert pool is not None and pool.opened == 2


def test_a_login_is_made_once_per_connection(cert: tuple[Path, Path], tmp_path: Path) -> None:
    cert_file, key_file = cert
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_file, key_file)
    mailbox = Sessions()
    server = LoopbackSMTP(
        mailbox,
        tls_context=context,
        require_starttls=True,
        authenticator=password_check("digest", "s3cret"),
        auth_required=True,
    )
    server.start()
    try:
        settings, store = many_setup(tmp_path, server.port, 5, smtp_connections=1)
        login = {"security": "starttls", "username": "digest", "password": "s3cret"}
        settings = dataclasses.replace(
            settings, smtp={**settings.smtp, **login, "ca_file": str(cert_file)}
        )
        result = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert len(result.sent) == 5 and mailbox.connections == 1
    assert all(m.login == "digest" and m.tls for m in mailbox.mails)


@dataclass
class Throttling(Sessions):
    """A relay that takes `per_connection` messages on one connection, then answers MAIL FROM
    with 421 and hangs up: Exim's and many providers' "too many messages"."""

    per_connection: int = 2

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if sum(s is session for s in self.sessions) >= self.per_connection:
            return "421 4.7.0 too many messages on this connection"
        envelope.mail_from = address
        return "250 OK"


def test_a_relay_that_closes_a_busy_connection_gets_the_next_mail_on_a_new_one(
    tmp_path: Path,
) -> None:
    """It had failed the message (an attempt spent, sent a run later)."""
    mailbox = Throttling()
    result, store = delivered(mailbox, tmp_path, 5, smtp_connections=1)
    assert len(result.sent) == 5 and not result.retrying and len(mailbox.mails) == 5
    assert mailbox.connections == 3


@dataclass
class Slow(Mailbox):
    """A relay that takes `seconds` over each message's DATA: a slow but working relay."""

    seconds: float = 0.4

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(self.seconds)
        return await super().handle_DATA(server, session, envelope)


def test_time_queued_for_a_kept_connection_is_not_counted_against_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(email_channel, "DEADLINE", 1.0)  # each message: 0.4 s of its 1 s
    mailbox = Slow()
    # five messages, one connection: the last waits 1.6 s for its turn
    result, store = delivered(mailbox, tmp_path, 5, smtp_connections=1)
    assert result.retrying == [] and len(result.sent) == 5 and len(mailbox.mails) == 5


# One recipient refused at RCPT while the others take the message.


def test_a_recipient_refused_for_now_gets_the_same_mail_later_and_the_others_no_second(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["ben@example.org"] = ["450 4.2.1 Mailbox busy, try later"]
    settings, store = outbox_setup(tmp_path, server.port)
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    (said,) = first.retrying  # not sent: ben does not have it
    assert first.sent == [] and "went to 1 of 2 recipient(s)" in said
    assert "refused for now: ben@example.org: 450 4.2.1 Mailbox busy, try later" in said
    (row,) = store.outbox("pending")
    # ana has it: a try that reached someone is no failed attempt
    assert row.owed == ("ben@example.org", "took:ana@example.org") and row.attempts == 0
    assert [m.recipients for m in mailbox.mails] == [["ana@example.org"]]
    later = outbox.deliver(store, settings, NOW + timedelta(seconds=61))
    assert later.sent == [
        f"ana/email: {mailbox.mails[0].message['Message-ID']} to 1 remaining recipient(s)"
    ]
    assert [m.recipients for m in mailbox.mails] == [["ana@example.org"], ["ben@example.org"]]
    first_id, second_id = (m.message["Message-ID"] for m in mailbox.mails)
    assert first_id == second_id  # the same message, to the one still owed it
    assert store.outbox_counts() == {"sent": 1}
    assert outbox.deliver(store, settings, NOW + timedelta(days=1)).sent == []


def test_a_recipient_refused_for_good_beside_one_refused_for_now_is_said_to_be_for_good(
    relay: Any,
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["ben@example.org"] = ["450 4.2.1 Mailbox busy, try later"]
    mailbox.rcpt_script["cy@example.org"] = ["550 5.1.1 No such user"]
    with pytest.raises(DeliveryError) as error:
        send(channel(settings_for(server.port), to=[*TO, "cy@example.org"]))
    said = str(error.value)
    assert error.value.retryable and "went to 1 of 3 recipient(s)" in said
    assert "refused for now: ben@example.org: 450 4.2.1 Mailbox busy, try later;" in said
    assert said.endswith("later; refused: cy@example.org: 550 5.1.1 No such user")


def test_a_recipient_refused_for_good_is_dead_not_sent_and_retry_sends_it_to_them_alone(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["ben@example.org"] = ["550 5.1.1 No such user"]
    settings, store = outbox_setup(tmp_path, server.port)
    result = outbox.deliver(store, settings, NOW)
    assert result.sent == [] and result.retrying == []
    (said,) = result.dead  # what a run's summary shows; `digest run` exits 1 on it
    assert "went to 1 of 2 recipient(s); refused: ben@example.org: 550 5.1.1 No such user" in said
    (row,) = store.outbox("dead")
    assert row.owed == ("ben@example.org", "took:ana@example.org")
    # The operator fixes the mailbox; `digest retry` revives the row: ben alone gets it.
    assert store.revive_dead() == 1
    again = outbox.deliver(store, settings, NOW + timedelta(minutes=1))
    assert len(again.sent) == 1 and store.outbox_counts() == {"sent": 1}
    assert [m.recipients for m in mailbox.mails] == [["ana@example.org"], ["ben@example.org"]]


def with_to(settings: Settings, to: list[str]) -> Settings:
    """The settings with the subscriber's `to` edited, as an operator edits the config."""
    config = ChannelConfig("email", "email", {"to": to})
    return dataclasses.replace(
        settings, subscribers=(Subscriber("ana", Profile(interests="x"), (config,)),)
    )


def test_an_address_corrected_in_to_after_a_5xx_gets_the_same_mail_and_no_one_else_again(
    relay: Any, tmp_path: Path
) -> None:
    # The commonest "550 no such user": a typo in `to`, whose fix is editing `to`.
    server, mailbox = relay
    mailbox.rcpt_script["zoe@exmaple.org"] = ["550 5.1.1 Recipient address rejected"]
    settings, store = outbox_setup(tmp_path, server.port)
    settings = with_to(settings, ["ana@example.org", "Zoë <zoe@exmaple.org>", "cy@example.org"])
    (said,) = outbox.deliver(store, settings, NOW).dead
    assert "went to 2 of 3 recipient(s); refused: zoe@exmaple.org: 550" in said
    # Fixed (ana's address written another way, which is still ana), then `digest retry`.
    settings = with_to(settings, ["Ana@Example.org", "Zoë <zoe@example.org>", "cy@example.org"])
    assert store.revive_dead() == 1
    again = outbox.deliver(store, settings, NOW + timedelta(minutes=30))
    assert len(again.sent) == 1 and "to 1 remaining recipient(s)" in again.sent[0]
    assert [m.recipients for m in mailbox.mails] == [
        ["ana@example.org", "cy@example.org"],
        ["zoe@example.org"],
    ]
    assert len({m.message["Message-ID"] for m in mailbox.mails}) == 1  # the same message
    assert store.outbox_counts() == {"sent": 1}
    assert outbox.deliver(store, settings, NOW + timedelta(days=1)).sent == []


def test_a_corrected_address_refused_again_is_owed_still_and_those_who_took_it_stay_out(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["zoe@exmaple.org"] = ["550 5.1.1 Domain not found"]
    mailbox.rcpt_script["zoe@exmpale.org"] = ["550 5.1.1 Domain not found"]
    settings, store = outbox_setup(tmp_path, server.port)
    outbox.deliver(store, with_to(settings, ["ana@example.org", "zoe@exmaple.org"]), NOW)
    for typo, minutes in (("zoe@exmpale.org", 10), ("zoe@example.org", 20)):  # a second try
        assert store.revive_dead() == 1
        later = NOW + timedelta(minutes=minutes)
        outbox.deliver(
            store, with_to(settings, ["ana@example.org", "ben@example.org", typo]), later
        )
    assert [m.recipients for m in mailbox.mails] == [
        ["ana@example.org"],
        ["ben@example.org"],  # added with the first fix: it had not taken the message
        ["zoe@example.org"],
    ]
    assert store.outbox_counts() == {"sent": 1}


def test_a_recipient_still_owed_but_no_longer_in_to_is_not_mailed(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["ben@example.org"] = ["451 4.3.0 Greylisted"]
    settings, store = outbox_setup(tmp_path, server.port)
    outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    config = ChannelConfig("email", "email", {"to": ["ana@example.org"]})  # ben removed
    settings = dataclasses.replace(
        settings, subscribers=(Subscriber("ana", Profile(interests="x"), (config,)),)
    )
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1 and "no longer in `to`; nothing more sent" in later.sent[0]
    assert len(mailbox.mails) == 1


# A relay's limit of recipients per transaction (RFC 5321 §4.5.3.1.10: 452, "too many
# recipients"; Gmail takes 100, Amazon SES 50, Postfix smtpd_recipient_limit): the rest at once.

LAB = [f"r{n}@lab.example.org" for n in range(1, 8)]


@dataclass
class Limited(Sessions):
    """Takes at most `limit` recipients in one transaction (or, `per_connection`, in one
    connection) and answers `answer` to each RCPT past it; `closes`: a MAIL after the first
    transaction of a connection is answered 421, closing it."""

    limit: int = 2
    answer: str = "452 4.5.3 Too many recipients"
    per_connection: bool = False
    closes: bool = False
    taken: dict[int, int] = field(default_factory=dict)  # id(session) -> recipients taken

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.closes and self.taken.get(id(session)):
            return "421 4.7.0 one message a connection"  # smtplib closes the connection
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        earlier = self.taken.get(id(session), 0) if self.per_connection else 0
        if earlier + len(envelope.rcpt_tos) >= self.limit:
            return self.answer
        return await super().handle_RCPT(server, session, envelope, address, options)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.taken[id(session)] = self.taken.get(id(session), 0) + len(envelope.rcpt_tos)
        return await super().handle_DATA(server, session, envelope)


@pytest.mark.parametrize(
    "answer",
    ["452 4.5.3 Too many recipients", "452 Too many recipients", "552 5.5.3 Too many recipients"],
)
@pytest.mark.parametrize("kept", [False, True], ids=["own-connection", "kept-connections"])
def test_recipients_past_the_relays_limit_get_the_same_mail_at_once_in_further_transactions(
    answer: str, kept: bool
) -> None:
    mailbox = Limited(limit=2, answer=answer)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        ch = channel(settings_for(server.port), to=LAB)
        with connections.kept() if kept else contextlib.nullcontext():
            receipt = ch.send(delivery(message(2), "email", dict(ch.config.options)))
    finally:
        server.stop()
    assert [m.recipients for m in mailbox.mails] == [LAB[0:2], LAB[2:4], LAB[4:6], LAB[6:7]]
    assert len({m.message["Message-ID"] for m in mailbox.mails}) == 1
    assert mailbox.connections == 1  # one after the other, on the same connection
    assert receipt.detail.endswith("to 7 recipient(s)")


def test_a_long_to_past_a_per_connection_limit_progresses_every_run_and_never_goes_dead(
    tmp_path: Path,
) -> None:
    mailbox = Limited(limit=2, per_connection=True)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        settings = dataclasses.replace(with_to(settings, LAB), delivery={"max_attempts": 1})
        runs = [outbox.deliver(store, settings, NOW + timedelta(hours=h)) for h in range(4)]
    finally:
        server.stop()
    for run in runs[:3]:  # each run took two more: no failed attempt, not dead
        (said,) = run.retrying
        assert "refused for now" in said and "452 4.5.3 Too many recipients" in said
    assert [r.dead for r in runs] == [[], [], [], []] and len(runs[3].sent) == 1
    assert sorted(a for m in mailbox.mails for a in m.recipients) == sorted(LAB)  # each once
    assert len({m.message["Message-ID"] for m in mailbox.mails}) == 1
    assert store.outbox_counts() == {"sent": 1}


def test_a_connection_lost_between_transactions_leaves_the_rest_owed_and_no_one_twice(
    tmp_path: Path,
) -> None:
    mailbox = Limited(limit=3, closes=True)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        settings = with_to(settings, LAB)
        first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
        (row,) = store.outbox("pending")
        later = [outbox.deliver(store, settings, NOW + timedelta(hours=h)) for h in (1, 2)]
    finally:
        server.stop()
    (said,) = first.retrying
    assert "went to 3 of 7 recipient(s); refused for now: r4@lab.example.org: 452" in said
    assert row.attempts == 0 and row.owed[:4] == tuple(LAB[3:])
    assert [m.recipients for m in mailbox.mails] == [LAB[0:3], LAB[3:6], LAB[6:7]]
    assert len(later[1].sent) == 1 and store.outbox_counts() == {"sent": 1}


def test_a_421_at_one_rcpt_says_the_relay_closed_there_and_the_retry_goes_to_everyone(
    relay: Any, tmp_path: Path
) -> None:
    server, mailbox = relay
    mailbox.rcpt_script["ben@example.org"] = ["421 4.7.0 too busy, closing"]
    settings, store = outbox_setup(tmp_path, server.port)
    first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
    (said,) = first.retrying
    assert said == (
        "ana/email: email: the SMTP server closed the connection at RCPT for ben@example.org"
        " (421 4.7.0 too busy, closing): the message went to no one, not even the recipients it"
        " had accepted before"
    )
    assert mailbox.mails == [] and store.outbox("pending")[0].owed == ()
    later = outbox.deliver(store, settings, NOW + timedelta(minutes=2))
    assert len(later.sent) == 1
    assert [m.recipients for m in mailbox.mails] == [["ana@example.org", "ben@example.org"]]


def test_a_421_at_rcpt_after_a_refusal_names_both() -> None:
    import smtplib

    refused = {"cy@example.org": (550, b"5.1.1 No such user"), "ben@example.org": (421, b"bye")}
    error = EmailChannel.__new__(EmailChannel)._error(smtplib.SMTPRecipientsRefused(refused))
    assert error.retryable and str(error).endswith(
        "for ben@example.org (421 bye): the message went to no one, not even the recipients it"
        " had accepted before; refused before it: cy@example.org: 550 5.1.1 No such user"
    )


# The answer to the end of DATA: RFC 5321 4.5.3.2.6 gives the relay 10 minutes.


def test_a_relay_that_keeps_the_mail_and_answers_data_slowly_gets_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Scaled down: 0.3 s of silence per read, 1 s for the conversation, a 1.5 s answer to the
    # end of DATA (a relay scanning the mail it has already queued).
    monkeypatch.setattr(email_channel, "TIMEOUT", 0.3)
    monkeypatch.setattr(email_channel, "DEADLINE", 1.0)
    mailbox = Mailbox(answer_after=1.5)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        first = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)  # kept connections
        assert first.retrying == [] and len(first.sent) == 1, first
        for minutes in (10, 100):
            outbox.deliver(store, settings, NOW + timedelta(minutes=minutes))
        ch = channel(settings_for(server.port))  # and a connection of its own, outside a run
        send(ch)
    finally:
        server.stop()
    assert len(mailbox.mails) == 2  # one per send: never a second copy
    assert store.outbox_counts() == {"sent": 1}


def test_no_answer_to_the_end_of_data_says_the_relay_may_have_the_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(smtp_plumbing, "DATA_REPLY", 0.5)
    mailbox = Mailbox(answer_after=3.0)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        result = outbox.deliver(store, settings, NOW, rand=lambda: 0.5)
        with pytest.raises(DeliveryError) as alone:
            send(channel(settings_for(server.port)))
    finally:
        server.stop()
    (said,) = result.retrying
    for text in (said, str(alone.value)):
        assert "gave no answer to its end of DATA" in text
        assert "the relay may have the message" in text and "cannot reach" not in text
    assert alone.value.retryable


def test_a_login_refused_for_now_is_tried_again_and_a_wrong_one_is_not(
    cert: tuple[Path, Path],
) -> None:
    """sec1 F1: a relay's "454 Too many login attempts" (RFC 4954's temporary failure) or "421
    closing" to AUTH had made every digest of the pass dead, as a wrong password is."""
    import ssl

    from aiosmtpd.smtp import AuthResult

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*cert)
    answers = ["454 4.7.0 Too many login attempts, please try again later", "421 4.7.0 Closing"]
    now = {"answer": answers[0]}

    def throttled(*_: object) -> AuthResult:  # smtplib tries each mechanism: the same answer
        return AuthResult(success=False, handled=False, message=now["answer"])

    server = LoopbackSMTP(
        Mailbox(), tls_context=context, require_starttls=True, authenticator=throttled
    )
    smtp = {"security": "starttls", "username": "digest-bot", "password": "c0rrect-h0rse",
            "ca_file": str(cert[0])}  # fmt: skip
    server.start()
    try:
        refusals = []
        for answer in answers:
            now["answer"] = answer
            with pytest.raises(DeliveryError) as refused:
                send(channel(settings_for(server.port, **smtp)))
            refusals.append(refused.value)
    finally:
        server.stop()
    throttle, closing = refusals
    assert throttle.retryable and "refused the login for now (454 4.7.0 Too many" in str(throttle)
    assert closing.retryable and "(421" in str(closing)
    assert all("c0rrect" not in str(r) for r in refusals)


def test_a_long_smtp_reply_is_kept_whole_for_the_outbox_to_blot() -> None:
    """A relay may quote the credentials it got after a long preamble; cut here, the password's
    first characters would escape the redaction, which the outbox does before its own cut."""
    import smtplib

    said = "x" * 190 + " bad credentials sekrit-user:sekrit-PASS-1234"
    error = EmailChannel.__new__(EmailChannel)._error(
        smtplib.SMTPAuthenticationError(535, said.encode())
    )
    assert "sekrit-PASS-1234" in str(error)


def test_a_connection_used_up_by_one_readers_recipients_is_no_failed_attempt_for_the_next(
    tmp_path: Path,
) -> None:
    """A relay's per-connection limit left the kept connection used up: the next reader's mail
    on it was refused at its first RCPT, a failed attempt each run, until it went dead."""
    mailbox = Limited(limit=3, per_connection=True)
    server = LoopbackSMTP(mailbox)
    server.start()
    try:
        settings, store = outbox_setup(tmp_path, server.port)
        solo = Subscriber(
            "solo", Profile(interests="x"), (ChannelConfig("email", "email", {"to": TO}),)
        )
        lab = with_to(settings, LAB).subscribers[0]
        settings = dataclasses.replace(
            settings, subscribers=(lab, solo), delivery={"smtp_connections": 1, "max_attempts": 1}
        )
        digest = Digest("solo", "P1", NOW.date(), (Scored(paper(1), 0.5),), NOW)
        store.record_digest(digest, 1, [("email", "email", message(1))])
        first = outbox.deliver(store, settings, NOW)
    finally:
        server.stop()
    assert sum("solo/email" in s for s in first.sent) == 1 and first.dead == []
    solos = [m for m in mailbox.mails if "ana@example.org" in m.recipients]
    assert len(solos) == 1 and len(solos[0].recipients) == 2  # on a new connection, once


# A kept connection the relay ends with 421 before the message went (its per-connection cap).


@dataclass
class UsedUp(Sessions):
    """Takes `per_connection` messages on one connection, then ends it with 421 at `step`: the
    first RCPT, a later RCPT (after the first was taken), or the DATA command (DataRefused)."""

    per_connection: int = 2
    step: str = "rcpt"

    def used_up(self, session: Any) -> bool:
        return sum(s is session for s in self.sessions) >= self.per_connection

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        here = {"rcpt": True, "later rcpt": bool(envelope.rcpt_tos)}.get(self.step, False)
        if here and self.used_up(session):
            return "421 4.7.0 Too many messages for this connection"
        return await super().handle_RCPT(server, session, envelope, address, options)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.step == "end of data" and self.used_up(session):
            return "421 4.7.0 Too many messages for this connection"
        return await super().handle_DATA(server, session, envelope)


class DataRefused(LoopbackSMTP):
    """aiosmtpd whose answer to the DATA command is the handler's 421 once it is used up."""

    def factory(self) -> Any:
        from aiosmtpd.smtp import SMTP

        class Server(SMTP):
            async def smtp_DATA(self, arg: str) -> None:
                handler = self.event_handler
                if handler.step == "data" and handler.used_up(self.session):
                    await self.push("421 4.7.0 Too many messages for this connection")
                    return
                await super().smtp_DATA(arg)

        return Server(self.handler, **self.SMTP_kwargs)


def pairs_delivered(mailbox: UsedUp, tmp_path: Path, count: int) -> tuple[Any, Store]:
    """One run of `count` rows, each to two addresses, on one kept connection at a time."""
    server = DataRefused(mailbox)
    server.start()
    try:
        settings, store = many_setup(tmp_path, server.port, count, smtp_connections=1)
        subs = tuple(
            dataclasses.replace(
                s, channels=(ChannelConfig("email", "email", {"to": [f"{s.name}@x.org", TO[0]]}),)
            )
            for s in settings.subscribers
        )
        return outbox.deliver(store, dataclasses.replace(settings, subscribers=subs), NOW), store
    finally:
        server.stop()


@pytest.mark.parametrize("step", ["rcpt", "later rcpt", "data"])
def test_a_kept_connection_ended_with_421_before_the_message_went_is_replaced(
    tmp_path: Path, step: str
) -> None:
    """A 421 at the first RCPT of a reused connection had been the message's own failed attempt
    ("closed the connection at RCPT ... went to no one"), while the same 421 at MAIL FROM got a
    new connection: nothing was sent on it either way."""
    mailbox = UsedUp(step=step)
    result, store = pairs_delivered(mailbox, tmp_path, 6)
    assert result.retrying == [] and len(result.sent) == 6, result
    assert store.outbox_counts() == {"sent": 6}
    assert sorted(m.recipients[0] for m in mailbox.mails) == [f"s{n}@x.org" for n in range(6)]
    assert all(len(m.recipients) == 2 for m in mailbox.mails)
    assert mailbox.connections == 3  # two messages on each, then a new one


def test_a_421_at_rcpt_on_the_new_connection_too_stays_a_failed_attempt(tmp_path: Path) -> None:
    """The kept connection is replaced once: a relay that ends the new one at RCPT as well is
    answered by the retry later, not by connection after connection now."""
    mailbox = UsedUp(per_connection=99)
    mailbox.rcpt_script["s1@x.org"] = ["421 4.3.2 closing"] * 5
    result, store = pairs_delivered(mailbox, tmp_path, 3)
    (said,) = result.retrying
    assert said.startswith("s1/email: email: the SMTP server closed the connection at RCPT")
    assert len(result.sent) == 2 and 3 <= len(mailbox.rcpt_script["s1@x.org"]) <= 4
    assert all("s1@x.org" not in m.recipients for m in mailbox.mails)


def test_a_421_to_the_end_of_data_is_a_failed_attempt_not_sent_again_at_once(
    tmp_path: Path,
) -> None:
    """The relay had the whole message then: that one waits for the retry, as before."""
    mailbox = UsedUp(step="end of data")
    result, store = pairs_delivered(mailbox, tmp_path, 3)
    (said,) = result.retrying
    assert "the SMTP server answered 421 4.7.0 Too many messages" in said
    assert len(result.sent) == 2 and len(mailbox.mails) == 2 and mailbox.connections == 1
