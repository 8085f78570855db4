"""The file channel: writes each digest as <dir>/<day>/<subscriber>.eml and .html, an alert or a
notice as <subscriber>.alert-<n>.eml or .notice-<n>.eml (n: its outbox row). The default channel
and the one to inspect by hand; the .eml opens in any mail client.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import datetime
from email.utils import format_datetime, formataddr, parseaddr
from pathlib import Path

from digest.channels.mime import mime
from digest.models import ChannelConfig, Delivery, DeliveryError, Receipt, Settings, safe_name

DEFAULT_FROM = "digest <digest@localhost>"


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
        eml = self._message(delivery)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _error(folder, exc) from exc
        _write_atomic(html_path, delivery.message.html.encode("utf-8"))
        # The .eml last: its presence means the whole delivery is on disk.
        _write_atomic(eml_path, eml)
        return Receipt(channel=self.kind, detail=str(eml_path))

    def _message(self, delivery: Delivery) -> bytes:
        """The .eml as the email channel writes its mail (CRLF, 7-bit, the subject encoded by
        the same code), so the file can later be handed to any relay unchanged. Not the email
        package's: it decodes an encoded word found in a title and writes out the CRLF in it."""
        sender = parseaddr(str(self.settings.smtp.get("from") or DEFAULT_FROM))
        headers = [("From", formataddr(sender, charset="utf-8"))]
        to = self.config.options.get("to")
        if to:
            headers.append(("To", to if isinstance(to, str) else ", ".join(str(a) for a in to)))
        headers += [
            ("Subject", delivery.message.subject),
            ("Date", format_datetime(datetime.now().astimezone())),
            ("Message-ID", f"<{delivery.key}@digest.local>"),
        ]
        return mime(headers, delivery.message.text, delivery.message.html)


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
