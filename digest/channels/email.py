"""The email channel: SMTP with implicit TLS, STARTTLS or (for a local relay) none.

One multipart/alternative message (text, then the CSS-inlined HTML) to every recipient; its
Message-ID derives from the outbox row, so a resend after a crash is recognizably the same mail.
"""

from __future__ import annotations

import contextlib
import email.utils
import os
import smtplib
import socket
import ssl
from datetime import datetime

from digest.channels import connections
from digest.channels.mime import address, ascii_uri, mime
from digest.channels.refusals import (
    TOOK,
    Refusals,
    closed_at_rcpt,
    listed,
    partly,
    said,
    too_many,
)
from digest.channels.smtp import (
    Conversation,
    DataUnanswered,
    Watched,
    WatchedSSL,
    close_quietly,
)
from digest.channels.transport import Resumed
from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings

TIMEOUT = 30.0  # seconds of silence, per read
DEADLINE = 120.0  # seconds for the whole conversation, however slowly the relay answers
DEFAULT_PORTS = {"tls": 465, "starttls": 587, "none": 25}
# A relay silent from the start may be one speaking TLS at once, waiting for our hello as we wait
# for its greeting (security = "starttls" on port 465): said beside the retry, which may be right.
GREETING_HINT = '; no greeting: a port that speaks TLS at once needs [smtp].security = "tls"'


STALE = (smtplib.SMTPServerDisconnected, ConnectionError, smtplib.SMTPSenderRefused)


def recipients(to: object) -> list[str]:
    """The addresses of a `to` value: one string (commas allowed) or a list of strings."""
    return [addr for _, addr in _named(to)]


def _named(to: object) -> list[tuple[str, str]]:
    """(name, address) of each recipient of a `to` value, for the To header."""
    values = [to] if isinstance(to, str) else [str(t) for t in to or ()]  # type: ignore[attr-defined]
    return [(name, addr) for name, addr in email.utils.getaddresses(values) if addr]


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
        self.to_header = ", ".join(address(n, a) for n, a in _named(config.options.get("to")))
        self.unsubscribe = str(config.options.get("unsubscribe") or "")
        self.destination = f"smtp:{self.host}:{self.port}:{','.join(sorted(self.to))}"
        self.deadline = DEADLINE
        # One pool of connections per relay and login, whoever the recipients.
        login = (self.username, self.password, self.ca_file)
        self.relay = (self.host, self.port, self.security, *login)

    def compose(self, delivery: Delivery) -> tuple[str, bytes]:
        """(Message-ID, the message as sent). Written out here rather than by the email
        package, which costs ten times as much a message (its header registry and pure-Python
        quoted-printable): at hundreds of messages a second that was most of a run's CPU."""
        envelope = email.utils.parseaddr(self.sender)[1]
        domain = envelope.rpartition("@")[2] or "digest.local"
        message_id = f"<{delivery.key}@{domain}>"
        name, addr = email.utils.parseaddr(self.sender)
        headers = [
            ("From", address(name, addr)),
            ("To", self.to_header),  # with the names `to` gives, as the file channel writes
            ("Subject", delivery.message.subject),
            ("Date", email.utils.format_datetime(datetime.now().astimezone())),
            ("Message-ID", message_id),
            ("Auto-Submitted", "auto-generated"),  # RFC 3834: no vacation replies, please
        ]
        # The web face's one-click link ([web]) first, then the channel's own `unsubscribe`. The
        # face's link stops the mail to every address of `to`: to several, its page asks and says
        # so, never one co-recipient's provider's one-click; a list manager's own link knows who.
        face, own = delivery.message.unsubscribe_url, self.unsubscribe
        several, own_web = len(self.to) > 1, own.lower().startswith("https:")
        face = "" if several and own_web else face
        links = [ascii_uri(u) for u in (face, own) if u]
        if face and not own.lower().startswith("mailto:"):
            links = links[:1]  # RFC 8058: one HTTPS URI beside One-Click (others may be mailto:)
        if links:
            headers.append(("List-Unsubscribe", ", ".join(f"<{u}>" for u in links)))
            if (face and not several) or (own_web and not face):
                headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))
        return message_id, mime(headers, delivery.message.text, delivery.message.html)

    def send(self, delivery: Delivery) -> Receipt:
        if not self.to:
            raise DeliveryError("email: the channel has no recipient (`to`)", retryable=False)
        message_id, msg = self.compose(delivery)
        rcpts, owed, took = self._due(delivery)
        if not rcpts:
            gone = f"the recipients still owed it ({', '.join(owed)}) are no longer in `to`"
            return Receipt(self.kind, f"{message_id}: {gone}; nothing more sent")
        envelope = email.utils.parseaddr(self.sender)[1]
        delivery.pace()
        # While the outbox keeps connections, wait for the relay's turn first: the deadline is
        # the message's own, from the moment it has a connection (or may open one), not the
        # time queued behind other messages for one of smtp_connections.
        pool = connections.relay(self.relay)
        idle = pool.wait() if pool is not None else None
        with Conversation(self.deadline) as deadline:
            try:
                if pool is None:
                    refused = self._converse(msg, envelope, rcpts, deadline)
                else:
                    refused = self._transmit(msg, envelope, rcpts, deadline, pool, idle)
            except DataUnanswered as exc:
                raise DeliveryError(
                    f"email: {self.host}:{self.port} took the message but gave no answer to its"
                    f" end of DATA ({exc}): the relay may have the message; tried again later"
                    " with the same Message-ID",
                    retryable=True,
                ) from None
            except (OSError, smtplib.SMTPException) as exc:
                if deadline.expired:
                    raise DeliveryError(
                        f"email: {self.host}:{self.port} did not finish within "
                        f"{self.deadline:g} s (a stalled or dripping server)",
                        retryable=True,
                    ) from None
                raise self._error(exc) from None
        if refused:
            raise partly(message_id, rcpts, refused, took)
        more = " remaining" if owed else ""
        return Receipt(self.kind, f"{message_id} to {len(rcpts)}{more} recipient(s)")

    def _due(self, delivery: Delivery) -> tuple[list[str], tuple[str, ...], set[str]]:
        """(whom to send it to now, the addresses owed it, those that took it). After some
        recipients took the message and others were refused, the same message goes to everyone
        in `to` now who has not taken it: the ones still owed it, and an address corrected in
        `to` since (a typo's 550) in place of its refused one; no one who has it gets it twice."""
        recorded = delivery.owed if isinstance(delivery, Resumed) else ()
        owed = tuple(a for a in recorded if not a.startswith(TOOK))
        took = {a.removeprefix(TOOK).lower() for a in recorded if a.startswith(TOOK)}
        if not owed:
            return list(self.to), (), set()
        if not took:  # a row from before those that took it were recorded beside the owed
            return [a for a in self.to if a in owed], owed, took
        return [a for a in self.to if a.lower() not in took], owed, took

    def _transmit(
        self,
        msg: bytes,
        envelope: str,
        rcpts: list[str],
        deadline: Conversation,
        pool: connections.Relay,
        idle: smtplib.SMTP | None,
    ) -> Refusals:
        """Send on the relay pool's connection `idle` (the deadline watches it for this
        message), or on one opened in the place wait() kept; the recipients refused (the
        others have it)."""
        smtp, reused = idle, idle is not None
        while True:
            if smtp is None:
                smtp, reused = pool.open(lambda: self._open(deadline)), False
            elif smtp.sock is not None:
                deadline.watch(smtp.sock)
            if isinstance(smtp, Watched):  # its end of DATA extends this message's deadline
                smtp.deadline = deadline
            try:
                refused, broken = _batches(smtp, envelope, rcpts, msg)
            except (*STALE, smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as exc:
                if reused and _stale(exc, smtp) and not deadline.expired:
                    pool.replace(smtp)
                    smtp = None
                    continue  # again, on a new one
                pool.drop(smtp)
                raise
            except BaseException:
                pool.drop(smtp)
                raise
            (pool.drop if broken else pool.give)(smtp)
            return refused

    def _open(self, deadline: Conversation) -> smtplib.SMTP:
        """A connection ready to send: TLS as configured, logged in when there is a username."""
        smtp = self._connect(deadline)
        try:
            if self.username:
                smtp.login(self.username, self.password)
        except BaseException:
            close_quietly(smtp)
            raise
        return smtp

    def _converse(
        self, msg: bytes, envelope: str, rcpts: list[str], deadline: Conversation
    ) -> Refusals:
        smtp = self._open(deadline)
        try:
            refused, _ = _batches(smtp, envelope, rcpts, msg)
        except BaseException:
            close_quietly(smtp)
            raise
        # DATA got its 250: the relay has the message. Whatever QUIT answers (421, 554), a
        # dropped connection or a timeout now, it is sent; sending it again would double it.
        with contextlib.suppress(OSError, smtplib.SMTPException):
            smtp.quit()
        smtp.close()
        return refused

    def _error(self, exc: BaseException) -> DeliveryError:
        """A failure before the relay accepted the message, as a DeliveryError."""
        try:
            raise exc
        except smtplib.SMTPAuthenticationError as exc:
            # smtplib raises this for any answer to AUTH but success: a 454 (RFC 4954's
            # temporary failure, a relay's throttle) or a 421 had made the mail dead (sec1 F1).
            if 400 <= exc.smtp_code < 500:
                return DeliveryError(
                    f"email: the SMTP server refused the login for now ({said(exc)})",
                    retryable=True,
                )
            return DeliveryError(
                f"email: the SMTP server refused the login ({said(exc)})", retryable=False
            )
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            return DeliveryError(
                closed_at_rcpt(exc.recipients)
                or f"email: every recipient was refused ({listed(exc.recipients)})",
                retryable=any(400 <= c < 500 for c in codes),
            )
        except smtplib.SMTPNotSupportedError as exc:
            return DeliveryError(f"email: {exc} (check [smtp].security)", retryable=False)
        except smtplib.SMTPConnectError as exc:  # its greeting: a blocklist's 554, a busy 421
            return DeliveryError(
                f"email: the SMTP server refused the connection in its greeting: {said(exc)}",
                retryable=400 <= exc.smtp_code < 500,
            )
        except smtplib.SMTPResponseException as exc:
            return DeliveryError(
                f"email: the SMTP server answered {said(exc)}",
                retryable=400 <= exc.smtp_code < 500,
            )
        except ssl.SSLCertVerificationError as exc:
            # Set already, it is the wrong file (a certificate renewed under another CA).
            fix = "set [smtp].ca_file for a private CA"
            if self.ca_file:
                fix = f"no CA in [smtp].ca_file ({os.path.basename(self.ca_file)}) signed it"
            return DeliveryError(
                f"email: the SMTP server's certificate is not trusted ({exc.verify_message});"
                f" {fix}",
                retryable=False,
            )
        except ssl.SSLError as exc:
            # Not a server away: TLS spoken to a plain port (WRONG_VERSION_NUMBER), or the like.
            return DeliveryError(
                f"email: TLS with {self.host}:{self.port} failed ({exc.reason or exc});"
                f" check [smtp].security (now {self.security!r}) against the port",
                retryable=False,
            )
        except (OSError, smtplib.SMTPException) as exc:
            reason = str(exc) or type(exc).__name__
            if self.security != "tls" and not isinstance(exc, ConnectionRefusedError):
                reason += GREETING_HINT if getattr(exc, "greeting", False) else ""
            return DeliveryError(
                f"email: cannot reach {self.host}:{self.port} ({reason})", retryable=True
            )

    def _connect(self, deadline: Conversation) -> smtplib.SMTP:
        # getfqdn() can stall on a host without DNS; the plain host name is enough for EHLO.
        local = socket.gethostname() or "localhost"
        smtp: smtplib.SMTP
        if self.security == "tls":
            smtp = WatchedSSL(deadline, local_hostname=local, timeout=TIMEOUT, context=self._tls())
        else:
            smtp = Watched(deadline, local_hostname=local, timeout=TIMEOUT)
        # The name TLS verifies: smtplib's __init__ sets it only when it connects, and here
        # connect() comes after, under the deadline.
        smtp._host = self.host  # type: ignore[attr-defined]
        try:
            try:
                code, greeting = smtp.connect(self.host, self.port)
            except (smtplib.SMTPServerDisconnected, TimeoutError) as exc:
                exc.greeting = True  # type: ignore[union-attr]  # no greeting came: see _error
                raise
            if code != 220:  # smtplib checks the greeting only when its __init__ connects
                raise smtplib.SMTPConnectError(code, greeting)
            if self.security == "starttls":
                smtp.starttls(context=self._tls())
        except BaseException:
            close_quietly(smtp)
            raise
        return smtp

    def _tls(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        if self.ca_file:
            try:
                context.load_verify_locations(cafile=self.ca_file)
            except (ssl.SSLError, OSError) as exc:
                # Our file, not the relay's TLS: a DER .crt had been "check [smtp].security
                # against the port", dead at once. Retried: once the file is mended, `digest
                # serve` sends without a `digest retry`.
                reason = getattr(exc, "reason", None) or exc.strerror or exc
                raise DeliveryError(
                    f"email: cannot load [smtp].ca_file {self.ca_file!r} ({reason}): it must hold"
                    " PEM certificates",
                    retryable=True,
                ) from None
        return context


def _batches(smtp: smtplib.SMTP, sender: str, to: list[str], msg: bytes) -> tuple[Refusals, bool]:
    """sendmail, then again at once on the same connection to those refused as too many for one
    transaction (RFC 5321 §4.5.3.1.10) while others were taken, until none of them is taken:
    (the recipients refused in the end, whether the connection broke)."""
    refused = smtp.sendmail(sender, to, msg)
    while more := [a for a in to if a in refused and too_many(refused[a])]:
        try:
            again = smtp.sendmail(sender, more, msg)
        except smtplib.SMTPRecipientsRefused as exc:  # none of them, this time
            # A 421 closed the connection: those it had accepted before were not sent it either.
            closed = any(code == 421 for code, _ in exc.recipients.values())
            used_up = any(map(too_many, exc.recipients.values()))  # no more on this connection
            return (refused if closed else refused | exc.recipients), closed or used_up
        except (OSError, smtplib.SMTPException):  # those before have it: these stay owed
            return refused, True
        refused = {a: r for a, r in refused.items() if a not in more} | again
    return refused, False


def _stale(exc: Exception, smtp: smtplib.SMTP) -> bool:
    """Was nothing sent on a kept connection, which a new one may do: the relay had closed it
    while idle, or ends it with 421 before the message went ("too many messages"; at MAIL FROM,
    at any RCPT, or to the DATA command), or it is used up (every recipient refused as too many
    for it). Either had been a failed attempt for the next reader. A 421 at RCPT had been read
    as the message's own refusal: smtplib closes there, and the recipients it accepted before
    were never sent it either, so nothing went on that connection."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        refusals = exc.recipients.values()
        return any(code == 421 for code, _ in refusals) or all(map(too_many, refusals))
    if isinstance(exc, smtplib.SMTPDataError):
        # The DATA command's own 421 leaves the connection open (smtplib closes it only for a
        # 421 to the message's end, after the relay saw the whole message: never sent again).
        return exc.smtp_code == 421 and smtp.sock is not None
    return not isinstance(exc, smtplib.SMTPSenderRefused) or exc.smtp_code == 421
