"""The web face's config as it is on disk, and what the face answers with from it: read again when
the file or a .env it reads changes, so that an unsubscribe or a new subscriber's link means what
the next `digest run` will do. [state] and [web].listen are the face's own: changed, they are
said to need a restart, and while [state] names another database the face writes nothing."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from digest.config.environment import dotenv_paths
from digest.models import DigestError, Settings
from digest.web.tokens import Signer

log = logging.getLogger("digest.web")

EVERY = 2.0  # seconds between two looks at the files: a stat each, on the face's own loop
LISTEN = "127.0.0.1:8080"  # [web].listen when the config gives none

Stamp = tuple[tuple[int, int, int] | None, ...]


class View:
    """What the face answers with, from one reading of the config."""

    def __init__(self, settings: Settings) -> None:
        self.base_url = str(settings.web["base_url"]).rstrip("/")
        self.signer = Signer(str(settings.web["secret"]))
        self.subscribers = {s.name: s for s in settings.subscribers}
        self.archives = {self.signer.archive_key(name): name for name in self.subscribers}
        self.slack_secrets = [
            str(c.options["signing_secret"])
            for s in settings.subscribers
            for c in s.channels
            if c.kind == "slack" and c.options.get("signing_secret")
        ]


class Current:
    """The settings a face answers with; load(): the config read again (raises DigestError)."""

    def __init__(
        self,
        settings: Settings,
        load: Callable[[], Settings] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings, self.load, self.clock = settings, load, clock
        self.started = settings  # its state and listen are the face's until it is restarted
        self.moved = ""  # why the face writes nothing now: [state] names another database
        self.files = _files(settings)
        self.stamp = _stamp(self.files)
        self.looked = clock()
        self.seen = (settings, View(settings))

    def view(self) -> View:
        settings = self.get()
        if self.seen[0] is not settings:
            self.seen = (settings, View(settings))
        return self.seen[1]

    def check(self) -> str:
        """Before a write: why the face must not write ("" when it may), the files looked at now
        (a vote or an unsubscribe moments after [state] changed is refused too)."""
        self.get(now=True)
        return self.moved

    def get(self, now: bool = False) -> Settings:
        if self.load is None or (not now and self.clock() - self.looked < EVERY):
            return self.settings
        self.looked = self.clock()
        stamp = _stamp(self.files)
        if stamp == self.stamp:
            return self.settings
        self.stamp = stamp
        try:
            fresh = self.load()
        except DigestError as exc:  # mid-edit, or a mistake: the face keeps its last good one
            log.warning(
                "web: %s changed and does not load; the face goes on as it was: %s",
                self.settings.path,
                exc,
            )
            return self.settings
        if not fresh.web:
            log.warning("web: %s has no [web] table now; the face goes on as it was", fresh.path)
            return self.settings
        log.info("web: %s read again", self.settings.path)
        self._unapplied(fresh)
        self.settings = fresh
        return fresh

    def _unapplied(self, fresh: Settings) -> None:
        """Say what of the fresh config the face cannot take live. Its database is opened once:
        a vote or unsubscribe written there after [state] changed went where no run read it."""
        before, started, path = self.settings, self.started, fresh.path
        if fresh.state_path != before.state_path:
            back = fresh.state_path == started.state_path
            self.moved = "" if back else f"{path}: [state] changed: restart digest web"
            log.warning("web: %s", _BACK.format(path) if back else self.moved + _REFUSED)
        listen, where = _listen(fresh), _listen(started)
        if listen != _listen(before) and listen != where:
            log.warning("web: %s: [web].listen changed: %s", path, _RELISTEN.format(listen, where))


_BACK = "{}: [state] is back as it was: votes and unsubscribes are taken again"
_REFUSED = " (until then votes and unsubscribes are refused, 503: it writes to its state at start)"
_RELISTEN = "restart digest web to listen on {} (it listens on {} still)"


def _listen(settings: Settings) -> str:
    return str(settings.web.get("listen", LISTEN))


def _files(settings: Settings) -> tuple[Path, ...]:
    config = Path(settings.path)
    return (config, *dotenv_paths(config))


def _stamp(files: tuple[Path, ...]) -> Stamp:
    def one(path: Path) -> tuple[int, int, int] | None:
        try:
            found = os.stat(path)
        except OSError:
            return None
        return found.st_mtime_ns, found.st_size, found.st_ino

    return tuple(one(path) for path in files)
