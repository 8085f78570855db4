"""The email channel: SMTP with implicit TLS, STARTTLS or (for a local relay) none.

One multipart/alternative message (text, then the CSS-inlined HTML) to every recipient; its
Message-ID derives from the outbox row, so a resend after a crash is recognizably the same mail.
"""

from __future__ import annotations

import binascii
import email.utils
import re
import secrets
import smtplib
import socket
import ssl
from datetime import datetime
from email.header import Header
from typing import Any

from digest.channels import connections
from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings
from digest.models.characters import BIDI, C0, C1, SEPARATORS
from digest.models.deadline import Deadline

TIMEOUT = 30.0  # seconds of silence, per read
DEADLINE = 120.0  # seconds for the whole conversation, however slowly the relay answers
DEFAULT_PORTS = {"tls": 465, "starttls": 587, "none": 25}
CRLF = "\r\n"
# Controls (C0, DEL, C1) and line separators: a CR or LF in a header would start one of its own.
_CONTROLS = re.compile(f"[{C0}{C1}{SEPARATORS}]")
# Bidi embeddings, overrides and isolates: in a subject they would turn the rest of it around.
_BIDI = re.compile(f"[{BIDI}]")
# A plain word longer than this is sent as encoded words, which can be folded anywhere.
_LONGEST_WORD = 60


def recipients(to: object) -> list[str]:
    """The addresses of a `to` value: one string (commas allowed) or a list of strings."""
    values = [to] if isinstance(to, str) else [str(t) for t in to or ()]  # type: ignore[attr-defined]
    return [addr for _, addr in email.utils.getaddresses(values) if addr]


class EmailChannel:
    kind = "email"
    interval = 0.0

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        smtp = settings.smtp
        self.config = config
        self.host = str(smtp.get("host") or "localhost")
        self.security = str(smtp.get("security") or "starttls")
        self.port = int(smtp.get("port") or DEFAULT_PORTS.get(self.security, 587))
        self.username = str(smtp.get("username") or "")
        self.password = str(smtp.get("password") or "")
        self.sender = str(smtp.get("from") or "digest <digest@localhost>")
        self.ca_file = str(smtp.get("ca_file") or "")
        self.to = recipients(config.options.get("to"))
        self.unsubscribe = str(config.options.get("unsubscribe") or "")
        self.destination = f"smtp:{self.host}:{self.port}:{','.join(sorted(self.to))}"
        self.deadline = DEADLINE
        # One pool of connections per relay and login, whoever the recipients.
        self.relay = (
            self.host,
            self.port,
            self.security,
            self.username,
            self.password,
            self.ca_file,
        )

    def compose(self, delivery: Delivery) -> tuple[str, bytes]:
        """(Message-ID, the message as sent). Written out here rather than by the email
        package, which costs ten times as much a message (its header registry and pure-Python
        quoted-printable): at hundreds of messages a second that was most of a run's CPU."""
        envelope = email.utils.parseaddr(self.sender)[1]
        domain = envelope.rpartition("@")[2] or "digest.local"
        message_id = f"<{delivery.key}@{domain}>"
        name, address = email.utils.parseaddr(self.sender)
        headers = [
            ("From", email.utils.formataddr((name, address), charset="utf-8")),
            ("To", ", ".join(self.to)),
            ("Subject", delivery.message.subject),
            ("Date", email.utils.format_datetime(datetime.now().astimezone())),
            ("Message-ID", message_id),
            ("Auto-Submitted", "auto-generated"),  # RFC 3834: no vacation replies, please
        ]
        # The web face's one-click link ([web]) first, then the channel's own `unsubscribe`.
        links = [u for u in (delivery.message.unsubscribe_url, self.unsubscribe) if u]
        if links:
            headers.append(("List-Unsubscribe", ", ".join(f"<{u}>" for u in links)))
            if delivery.message.unsubscribe_url or self.unsubscribe.lower().startswith("https:"):
                headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))  # RFC 8058
        return message_id, mime(headers, delivery.message.text, delivery.message.html)

    def send(self, delivery: Delivery) -> Receipt:
        if not self.to:
            raise DeliveryError("email: the channel has no recipient (`to`)", retryable=False)
        message_id, msg = self.compose(delivery)
        envelope = email.utils.parseaddr(self.sender)[1]
        delivery.pace()
        # While the outbox keeps connections, wait for the relay's turn first: the deadline is
        # the message's own, from the moment it has a connection (or may open one), not the
        # time queued behind other messages for one of smtp_connections.
        pool = connections.relay(self.relay)
        idle = pool.wait() if pool is not None else None
        with Deadline(self.deadline) as deadline:
            try:
                if pool is None:
                    refused = self._converse(msg, envelope, deadline)
                else:
                    refused = self._transmit(msg, envelope, deadline, pool, idle)
            except (OSError, smtplib.SMTPException) as exc:
                if deadline.expired:
                    raise DeliveryError(
                        f"email: {self.host}:{self.port} did not finish within "
                        f"{self.deadline:g} s (a stalled or dripping server)",
                        retryable=True,
                    ) from None
                raise self._error(exc) from None
        detail = f"{message_id} to {len(self.to) - len(refused)} recipient(s)"
        if refused:  # the others have it: a resend would double theirs, so report, not retry
            detail += "; refused: " + ", ".join(f"{a} ({c})" for a, (c, _) in refused.items())
        return Receipt(self.kind, detail)

    def _transmit(
        self,
        msg: bytes,
        envelope: str,
        deadline: Deadline,
        pool: connections.Relay,
        idle: smtplib.SMTP | None,
    ) -> dict[str, tuple[int, bytes]]:
        """Send on the relay pool's connection `idle` (the deadline watches it for this
        message), or on one opened in the place wait() kept; the recipients refused (the
        others have it)."""
        smtp, reused = idle, idle is not None
        while True:
            if smtp is None:
                smtp, reused = pool.open(lambda: self._open(deadline)), False
            elif smtp.sock is not None:
                deadline.watch(smtp.sock)
            try:
                refused = smtp.sendmail(envelope, self.to, msg)
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                if reused and not deadline.expired:  # an idle connection the relay had closed
                    pool.replace(smtp)
                    smtp = None
                    continue  # again, on a new one
                pool.drop(smtp)
                raise
            except BaseException:
                pool.drop(smtp)
                raise
            pool.give(smtp)
            return refused

    def _open(self, deadline: Deadline) -> smtplib.SMTP:
        """A connection ready to send: TLS as configured, logged in when there is a username."""
        smtp = self._connect(deadline)
        try:
            if self.username:
                smtp.login(self.username, self.password)
        except BaseException:
            _close(smtp)
            raise
        return smtp

    def _converse(
        self, msg: bytes, envelope: str, deadline: Deadline
    ) -> dict[str, tuple[int, bytes]]:
        smtp = self._open(deadline)
        try:
            refused = smtp.sendmail(envelope, self.to, msg)
        except BaseException:
            _close(smtp)
            raise
        # DATA got its 250: the relay has the message. Whatever QUIT answers (421, 554), a
        # dropped connection or a timeout now, it is sent; sending it again would double it.
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            pass
        finally:
            smtp.close()
        return refused

    def _error(self, exc: BaseException) -> DeliveryError:
        """A failure before the relay accepted the message, as a DeliveryError."""
        try:
            raise exc
        except smtplib.SMTPAuthenticationError as exc:
            return DeliveryError(
                f"email: the SMTP server refused the login ({_said(exc)})", retryable=False
            )
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            said = "; ".join(f"{a}: {c} {_text(m)}" for a, (c, m) in exc.recipients.items())
            return DeliveryError(
                f"email: every recipient was refused ({said})",
                retryable=any(400 <= c < 500 for c in codes),
            )
        except smtplib.SMTPNotSupportedError as exc:
            return DeliveryError(f"email: {exc} (check [smtp].security)", retryable=False)
        except smtplib.SMTPResponseException as exc:
            return DeliveryError(
                f"email: the SMTP server answered {_said(exc)}",
                retryable=400 <= exc.smtp_code < 500,
            )
        except ssl.SSLCertVerificationError as exc:
            return DeliveryError(
                f"email: the SMTP server's certificate is not trusted ({exc.verify_message});"
                " set [smtp].ca_file for a private CA",
                retryable=False,
            )
        except (OSError, smtplib.SMTPException) as exc:
            reason = str(exc) or type(exc).__name__
            return DeliveryError(
                f"email: cannot reach {self.host}:{self.port} ({reason})", retryable=True
            )

    def _connect(self, deadline: Deadline) -> smtplib.SMTP:
        # getfqdn() can stall on a host without DNS; the plain host name is enough for EHLO.
        local = socket.gethostname() or "localhost"
        smtp: smtplib.SMTP
        if self.security == "tls":
            smtp = _WatchedSSL(deadline, local_hostname=local, timeout=TIMEOUT, context=self._tls())
        else:
            smtp = _Watched(deadline, local_hostname=local, timeout=TIMEOUT)
        # The name TLS verifies: smtplib's __init__ sets it only when it connects, and here
        # connect() comes after, under the deadline.
        smtp._host = self.host  # type: ignore[attr-defined]
        try:
            smtp.connect(self.host, self.port)
            if self.security == "starttls":
                smtp.starttls(context=self._tls())
        except BaseException:
            _close(smtp)
            raise
        return smtp

    def _tls(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.ca_file:
            context.load_verify_locations(cafile=self.ca_file)
        return context


class _Watched(smtplib.SMTP):
    """SMTP whose socket the deadline watches from the moment it connects (before the greeting:
    a relay can drip that too)."""

    def __init__(self, deadline: Deadline, **kwargs: Any) -> None:
        self.deadline = deadline
        super().__init__(**kwargs)

    def _get_socket(self, host: str, port: int, timeout: float) -> socket.socket:
        sock: socket.socket = super()._get_socket(host, port, timeout)  # type: ignore[misc]
        self.deadline.watch(sock)
        return sock


class _WatchedSSL(smtplib.SMTP_SSL, _Watched):
    """SMTP_SSL's _get_socket wraps what _Watched's returns: the plain socket is watched, so
    the TLS handshake is under the deadline too."""

    def __init__(self, deadline: Deadline, **kwargs: Any) -> None:
        self.deadline = deadline
        smtplib.SMTP_SSL.__init__(self, **kwargs)


def _close(smtp: smtplib.SMTP) -> None:
    try:
        smtp.close()
    except OSError:
        pass


def mime(headers: list[tuple[str, str]], text: str, html: str) -> bytes:
    """A multipart/alternative message (text, then HTML) with these headers, CRLF line ends and
    only 7-bit lines of at most 998 characters. The Subject is untrusted text: see _header."""
    parts = [_body(text), _body(html)]
    boundary = "=_" + secrets.token_hex(12)  # "=_" never occurs in quoted-printable text
    while any(boundary.encode() in body for _, body in parts):
        boundary = "=_" + secrets.token_hex(12)
    head = "".join(_header(k, v, text=k == "Subject") for k, v in headers)
    head += f'MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="{boundary}"'
    out = [head.encode("ascii"), b"\r\n\r\n"]
    for subtype, (cte, body) in zip(("plain", "html"), parts, strict=True):
        out.append(
            f'--{boundary}\r\nContent-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: {cte}\r\n\r\n".encode("ascii")
        )
        out += [body, b"\r\n"]  # the line break before a boundary belongs to the boundary
    out.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(out)


def header_value(value: str) -> str:
    """A header value on one line: controls and line breaks become spaces, bidi controls go."""
    return " ".join(_BIDI.sub("", _CONTROLS.sub(" ", value)).split())


def _header(name: str, value: str, text: bool = False) -> str:
    """One header field, folded at spaces under 78 characters a line where it can be; RFC 2047
    words for text beyond ASCII. In free `text` (a subject holding a title) a literal "=?" would
    be decoded by the reader as an encoded word of the sender's (one that may hold a CRLF), and a
    long word could not be folded: such text is encoded, whatever it holds."""
    value = header_value(value)
    words = value.split(" ")
    if not value.isascii() or (text and ("=?" in value or max(map(len, words)) > _LONGEST_WORD)):
        return f"{name}: {Header(value, 'utf-8', header_name=name).encode(linesep=CRLF)}\r\n"
    lines = [f"{name}:"]
    for word in words:
        if len(lines[-1]) + 1 + len(word) > 78 and lines[-1] != f"{name}:":
            lines.append("")
        lines[-1] += " " + word
    return "\r\n".join(lines) + "\r\n"


def _body(text: str) -> tuple[str, bytes]:
    """(transfer encoding, CRLF lines) of a text part: 7bit when it is short-lined ASCII, else
    quoted-printable (binascii's, in C), so that any relay takes it, SMTPUTF8 or not."""
    raw = text.encode("utf-8")
    lines = raw.splitlines()
    if raw.isascii() and all(len(line) <= 998 for line in lines):
        return "7bit", b"\r\n".join(lines) + b"\r\n"
    return "quoted-printable", b"\r\n".join(
        binascii.b2a_qp(raw, istext=True).splitlines()
    ) + b"\r\n"


def _text(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return " ".join(text.split())[:200]


def _said(exc: smtplib.SMTPResponseException) -> str:
    return f"{exc.smtp_code} {_text(exc.smtp_error)}"
