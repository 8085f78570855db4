"""The file channel: writes each digest as <dir>/<day>/<subscriber>.eml and .html, an alert or a
notice as <subscriber>.alert-<n>.eml or .notice-<n>.eml (n: its outbox row). A later digest of
the same day (a schedule that fires more than once a day) takes <subscriber>-<HHMM>.eml, its
period's local time. The default channel and the one to inspect by hand; the .eml opens in any
mail client.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from datetime import datetime
from email.utils import format_datetime, getaddresses, parseaddr
from pathlib import Path

from digest.channels.mime import address, mime
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
        eml = self._message(delivery)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _error(folder, exc) from exc
        # A name is chosen and taken in one step: two rows of one folder (two file channels of
        # a subscriber) are delivered in threads side by side, and both found <name>.eml free.
        with _taking(folder):
            stem = _stem(folder, delivery)
            eml_path = folder / f"{stem}.eml"
            html_path = folder / f"{stem}.html"
            _write_atomic(html_path, delivery.message.html.encode("utf-8"))
            # The .eml last: its presence means the whole delivery is on disk.
            _write_atomic(eml_path, eml)
        return Receipt(channel=self.kind, detail=str(eml_path))

    def _message(self, delivery: Delivery) -> bytes:
        """The .eml as the email channel writes its mail (CRLF, 7-bit, the subject encoded by
        the same code), so the file can later be handed to any relay unchanged. Not the email
        package's: it decodes an encoded word found in a title and writes out the CRLF in it."""
        sender = parseaddr(str(self.settings.smtp.get("from") or DEFAULT_FROM))
        headers = [("From", address(*sender))]
        to = self.config.options.get("to")
        if to:  # each name encoded on its own: an encoded address is no address (RFC 2047 5)
            pairs = getaddresses([to] if isinstance(to, str) else [str(a) for a in to])
            headers.append(("To", ", ".join(address(*p) for p in pairs)))
        headers += [
            ("Subject", delivery.message.subject),
            ("Date", format_datetime(datetime.now().astimezone())),
            ("Message-ID", f"<{delivery.key}@digest.local>"),
        ]
        return mime(headers, delivery.message.text, delivery.message.html)


_FOLDERS: dict[str, threading.Lock] = {}
_FOLDERS_LOCK = threading.Lock()


def _taking(folder: Path) -> threading.Lock:
    """The lock of a folder (by its real path) while a file name in it is chosen and written."""
    key = os.path.realpath(folder)
    with _FOLDERS_LOCK:
        return _FOLDERS.setdefault(key, threading.Lock())


def _stem(folder: Path, delivery: Delivery) -> str:
    """The delivery's file name without .eml/.html. Alerts and notices carry their outbox row.
    A digest takes the first of <subscriber>, <subscriber>-<HHMM> (its period's local time) and
    <subscriber>-<HHMM>-<row> whose .eml is not there yet or is this row's own (its Message-ID):
    the day's first digest keeps the plain name, a later one never overwrites it, and a resend
    of one row finds the file it wrote before and writes it again."""
    stem = safe_name(delivery.subscriber)
    if delivery.purpose != "digest":
        # Alerts and notices share the day's folder with the digest, never its file name.
        return f"{stem}.{delivery.purpose}-{delivery.id}"
    try:
        later = f"{stem}-{datetime.fromisoformat(delivery.period):%H%M}"
    except ValueError:  # not a time (never so in a run): the row alone tells it apart
        later = f"{stem}-{delivery.id}"
    ours = f"message-id: <{delivery.key}@digest.local>".encode("ascii")
    for candidate in (stem, later):
        if _free_or_ours(folder / f"{candidate}.eml", ours):
            return candidate
    return f"{later}-{delivery.id}"  # one row, one name, whatever is there


def _free_or_ours(path: Path, ours: bytes) -> bool:
    """Is there no .eml at path, or one whose header block holds this Message-ID line?"""
    try:
        with path.open("rb") as fh:
            read = bytearray()
            # The whole header block: a To of 2,000 addresses had put the Message-ID past the
            # first 64 KB, and a resend wrote a second file beside its own.
            while chunk := fh.read(_HEAD_BYTES):
                start = max(0, len(read) - 3)
                read += chunk
                if read.find(b"\r\n\r\n", start) >= 0:
                    break
            head = bytes(read).split(b"\r\n\r\n", 1)[0]
    except FileNotFoundError:
        return True
    except OSError as exc:
        raise _error(path, exc) from exc
    return ours in (line.strip().lower() for line in head.splitlines())


# The header block of a digest's .eml (From, To, an encoded Subject, Date, Message-ID) is read
# this much at a time.
_HEAD_BYTES = 64 * 1024


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
