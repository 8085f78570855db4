"""smtplib under one deadline per message's conversation: the socket watched from the moment it
connects, and the end of DATA given the 10 minutes RFC 5321 allows a relay to answer it."""

from __future__ import annotations

import smtplib
import socket
import threading
from typing import Any

from digest.models.deadline import Deadline

# Seconds the relay has to answer the end of the message's DATA (RFC 5321 4.5.3.2.6: 10
# minutes), whatever TIMEOUT and DEADLINE say: a relay that stores the message, then answers
# slowly, must not be sent it again. The conversation's deadline is extended to this much then.
DATA_REPLY = 600.0


class DataUnanswered(smtplib.SMTPException):
    """The whole message went out after DATA, and no answer to its end came: the relay may have
    it (not "cannot reach"; and never sent again at once on another connection)."""


class Conversation(Deadline):
    """The deadline of one message's conversation, which its end of DATA extends: from then the
    relay has at least DATA_REPLY seconds to answer."""

    def __init__(self, seconds: float) -> None:
        self._generation = 0
        super().__init__(seconds)

    def __enter__(self) -> Conversation:
        super().__enter__()
        return self

    def at_least(self, seconds: float) -> None:
        """From now, expire no sooner than in `seconds`."""
        with self._lock:
            if self.expired:
                return
            self._timer.cancel()
            self._generation += 1
            self._timer = threading.Timer(seconds, self._expire, args=(self._generation,))
            self._timer.daemon = True
            self._timer.start()

    def _expire(self, generation: int = 0) -> None:
        with self._lock:
            current = generation == self._generation
        if current:  # not a timer replaced by at_least() that fired meanwhile
            super()._expire()


class Watched(smtplib.SMTP):
    """SMTP whose socket the deadline watches from the moment it connects (before the greeting:
    a relay can drip that too), and which waits DATA_REPLY seconds for the answer to the end of
    the message's DATA."""

    def __init__(self, deadline: Conversation, **kwargs: Any) -> None:
        self.deadline = deadline
        super().__init__(**kwargs)

    def _get_socket(self, host: str, port: int, timeout: float) -> socket.socket:
        sock: socket.socket = super()._get_socket(host, port, timeout)  # type: ignore[misc]
        self.deadline.watch(sock)
        return sock

    def data(self, msg: Any) -> tuple[int, bytes]:
        """smtplib's data(), but the answer to the final "." gets DATA_REPLY seconds (the
        conversation's deadline extended to match), and none at all is DataUnanswered."""
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        if isinstance(msg, str):
            msg = smtplib._fix_eols(msg).encode("ascii")  # type: ignore[attr-defined]
        quoted = smtplib._quote_periods(msg)  # type: ignore[attr-defined]
        if quoted[-2:] != smtplib.bCRLF:
            quoted += smtplib.bCRLF
        self.send(quoted + b"." + smtplib.bCRLF)
        self.deadline.at_least(DATA_REPLY)
        if self.sock is not None:
            self.sock.settimeout(DATA_REPLY)
        try:
            code, reply = self.getreply()
        except (OSError, smtplib.SMTPServerDisconnected) as exc:
            raise DataUnanswered(str(exc) or type(exc).__name__) from None
        if self.sock is not None:
            self.sock.settimeout(self.timeout)
        return code, reply


class WatchedSSL(smtplib.SMTP_SSL, Watched):
    """SMTP_SSL's _get_socket wraps what Watched's returns: the plain socket is watched, so
    the TLS handshake is under the deadline too."""

    def __init__(self, deadline: Conversation, **kwargs: Any) -> None:
        self.deadline = deadline
        smtplib.SMTP_SSL.__init__(self, **kwargs)


def close_quietly(smtp: smtplib.SMTP) -> None:
    try:
        smtp.close()
    except OSError:
        pass
