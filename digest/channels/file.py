"""The file channel: writes each digest as <dir>/<day>/<subscriber>.eml and .html, an alert or a
notice as <subscriber>.alert-<n>.eml or .notice-<n>.eml (n: its outbox row). The default channel
and the one to inspect by hand; the .eml opens in any mail client.
"""

from __future__ import annotations

import contextlib
import email.policy
import os
import re
import tempfile
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings

DEFAULT_FROM = "digest <digest@localhost>"

# SMTP policy for CRLF line ends; 7-bit so the file can later be handed to any relay unchanged.
_POLICY = email.policy.SMTP.clone(cte_type="7bit")
_UNSAFE = re.compile(r"[^\w.-]")


def safe_name(name: str) -> str:
    """A file name for a subscriber: letters, digits, '-', '_', '.'; never hidden, never '..'."""
    cleaned = _UNSAFE.sub("_", name).lstrip(".")
    return cleaned[:120] or "_"


class FileChannel:
    kind = "file"

    def __init__(self, config: ChannelConfig, settings: Settings) -> None:
        self.config = config
        self.settings = settings
        self.dir = Path(str(config.options.get("dir", "out")))

    def send(self, delivery: Delivery) -> Receipt:
        folder = self.dir / delivery.day.isoformat()
        stem = safe_name(delivery.subscriber)
        if delivery.purpose != "digest":
            # Alerts and notices share the day's folder with the digest, never its file name.
            stem = f"{stem}.{delivery.purpose}-{delivery.id}"
        eml_path = folder / f"{stem}.eml"
        html_path = folder / f"{stem}.html"
        eml = self._message(delivery).as_bytes(policy=_POLICY)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _error(folder, exc) from exc
        _write_atomic(html_path, delivery.message.html.encode("utf-8"))
        # The .eml last: its presence means the whole delivery is on disk.
        _write_atomic(eml_path, eml)
        return Receipt(channel=self.kind, detail=str(eml_path))

    def _message(self, delivery: Delivery) -> EmailMessage:
        msg = EmailMessage(policy=_POLICY)
        msg["From"] = str(self.settings.smtp.get("from") or DEFAULT_FROM)
        to = self.config.options.get("to")
        if to:
            msg["To"] = to if isinstance(to, str) else ", ".join(str(a) for a in to)
        # The renderer already makes the subject one line; a hand-built Delivery may not have.
        msg["Subject"] = " ".join(delivery.message.subject.split())
        msg["Date"] = format_datetime(datetime.now().astimezone())
        msg["Message-ID"] = f"<{delivery.key}@digest.local>"
        msg.set_content(delivery.message.text)
        msg.add_alternative(delivery.message.html, subtype="html")
        return msg


def _write_atomic(path: Path, data: bytes) -> None:
    """Write via a temp file in the same folder and os.replace, so readers never see half a file."""
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise _error(path, exc) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _error(path: Path, exc: OSError) -> DeliveryError:
    reason = exc.strerror or str(exc)
    return DeliveryError(f"file: cannot write {path}: {reason}", retryable=True)
