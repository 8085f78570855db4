"""The email channel: SMTP with implicit TLS, STARTTLS or (for a local relay) none.

One multipart/alternative message (text, then the CSS-inlined HTML) to every recipient; its
Message-ID derives from the outbox row, so a resend after a crash is recognizably the same mail.
"""

from __future__ import annotations

import email.policy
import email.utils
import smtplib
import socket
import ssl
from datetime import datetime
from email.message import EmailMessage

from digest.channels import connections
from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings

# 7-bit transfer encodings and RFC 2047 headers: any relay takes it, SMTPUTF8 or not.
POLICY = email.policy.SMTP.clone(cte_type="7bit")
TIMEOUT = 30.0
DEFAULT_PORTS = {"tls": 465, "starttls": 587, "none": 25}


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
        # One pool of connections per relay and login, whoever the recipients.
        self.relay = (
            self.host,
            self.port,
            self.security,
            self.username,
            self.password,
            self.ca_file,
        )

    def compose(self, delivery: Delivery) -> EmailMessage:
        envelope = email.utils.parseaddr(self.sender)[1]
        domain = envelope.rpartition("@")[2] or "digest.local"
        msg = EmailMessage(policy=POLICY)
        msg["From"] = self.sender
        msg["To"] = ", ".join(self.to)
        # One line whatever it holds: a newline in a header would start a header of its own.
        msg["Subject"] = " ".join(delivery.message.subject.split())
        msg["Date"] = email.utils.format_datetime(datetime.now().astimezone())
        msg["Message-ID"] = f"<{delivery.key}@{domain}>"
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies, please
        if self.unsubscribe:
            msg["List-Unsubscribe"] = f"<{self.unsubscribe}>"
            if self.unsubscribe.lower().startswith("https:"):
                msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"  # RFC 8058
        msg.set_content(delivery.message.text)
        msg.add_alternative(delivery.message.html, subtype="html")
        return msg

    def send(self, delivery: Delivery) -> Receipt:
        if not self.to:
            raise DeliveryError("email: the channel has no recipient (`to`)", retryable=False)
        msg = self.compose(delivery)
        envelope = email.utils.parseaddr(self.sender)[1]
        delivery.pace()
        try:
            refused = self._transmit(msg, envelope)
        except smtplib.SMTPAuthenticationError as exc:
            raise DeliveryError(
                f"email: the SMTP server refused the login ({_said(exc)})", retryable=False
            ) from None
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            said = "; ".join(f"{a}: {c} {_text(m)}" for a, (c, m) in exc.recipients.items())
            raise DeliveryError(
                f"email: every recipient was refused ({said})",
                retryable=any(400 <= c < 500 for c in codes),
            ) from None
        except smtplib.SMTPNotSupportedError as exc:
            raise DeliveryError(f"email: {exc} (check [smtp].security)", retryable=False) from None
        except smtplib.SMTPResponseException as exc:
            raise DeliveryError(
                f"email: the SMTP server answered {_said(exc)}",
                retryable=400 <= exc.smtp_code < 500,
            ) from None
        except ssl.SSLCertVerificationError as exc:
            raise DeliveryError(
                f"email: the SMTP server's certificate is not trusted ({exc.verify_message});"
                " set [smtp].ca_file for a private CA",
                retryable=False,
            ) from None
        except (OSError, smtplib.SMTPException) as exc:
            reason = str(exc) or type(exc).__name__
            raise DeliveryError(
                f"email: cannot reach {self.host}:{self.port} ({reason})", retryable=True
            ) from None
        detail = f"{msg['Message-ID']} to {len(self.to) - len(refused)} recipient(s)"
        if refused:  # the others have it: a resend would double theirs, so report, not retry
            detail += "; refused: " + ", ".join(f"{a} ({c})" for a, (c, _) in refused.items())
        return Receipt(self.kind, detail)

    def _transmit(self, msg: EmailMessage, envelope: str) -> dict[str, tuple[int, bytes]]:
        """Send on a connection of the relay's pool while the outbox keeps connections, else on
        one opened for this message; the recipients refused (the others have it)."""
        pool = connections.relay(self.relay, self._open)
        if pool is None:
            with self._open() as smtp:
                return smtp.send_message(msg, from_addr=envelope, to_addrs=self.to)
        while True:
            smtp, reused = pool.take()
            try:
                refused = smtp.send_message(msg, from_addr=envelope, to_addrs=self.to)
            except (smtplib.SMTPServerDisconnected, ConnectionError):
                pool.drop(smtp)
                if reused:  # an idle connection the relay had closed: again on another one
                    continue
                raise
            except BaseException:
                pool.drop(smtp)
                raise
            pool.give(smtp)
            return refused

    def _open(self) -> smtplib.SMTP:
        """A connection ready to send: TLS as configured, logged in when there is a username."""
        smtp = self._connect()
        if self.username:
            try:
                smtp.login(self.username, self.password)
            except BaseException:
                smtp.close()
                raise
        return smtp

    def _connect(self) -> smtplib.SMTP:
        # getfqdn() can stall on a host without DNS; the plain host name is enough for EHLO.
        local = socket.gethostname() or "localhost"
        if self.security == "tls":
            return smtplib.SMTP_SSL(
                self.host, self.port, local, timeout=TIMEOUT, context=self._tls()
            )
        smtp = smtplib.SMTP(self.host, self.port, local, timeout=TIMEOUT)
        if self.security == "starttls":
            try:
                smtp.starttls(context=self._tls())
            except BaseException:
                smtp.close()
                raise
        return smtp

    def _tls(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.ca_file:
            context.load_verify_locations(cafile=self.ca_file)
        return context


def _text(raw: bytes | str) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return " ".join(text.split())[:200]


def _said(exc: smtplib.SMTPResponseException) -> str:
    return f"{exc.smtp_code} {_text(exc.smtp_error)}"
