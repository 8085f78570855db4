"""Checks of config values: types, unknown keys and kinds, and the values whose shape matters
(paths, URLs, mail addresses, Matrix rooms, durations); services.py adds the [smtp] and [web]
tables. Every failure is one line."""

from __future__ import annotations

import email.utils
import math
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from digest.models import ConfigError
from digest.models.errors import ConfigErrors

STR, INT, NUM, BOOL, STRS = (
    "a string",
    "an integer",
    "a number",
    "true or false",
    "a list of strings",
)
STR_OR_STRS = "a string or a list of strings"
SMTP_KEYS = {"host", "port", "security", "username", "password", "from", "ca_file"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_MAILBOX = re.compile(r"[^@\s]+@[^@\s]+")
_ROOM = re.compile(r"![^\s:]+(:\S+)?|#[^\s:]+:\S+")  # !id (v12: no server part), #alias:server
# Values substituted into these keys are secrets: they are redacted wherever they could show.
# Not `username`: a login name is no credential (SES's is a key id, SendGrid's "apikey"), and a
# short common one ("digest") blotted from every line would garble all the output.
SECRET_KEYS = {"password", "token", "webhook", "url", "secret", "signing_secret"}
WEB_KEYS = {"base_url", "listen", "secret"}  # [web]: the reader-facing HTTP face
# The values config/.env.example holds (tests/test_config.py keeps the two in step). They are
# public: a key that signs links, or checks Slack's signature, with one of them lets anyone forge
# votes, unsubscribes and archive links (an uncommented copy of the example had passed validate).
EXAMPLE_VALUES = frozenset(
    {
        "digest@example.org",
        "change-me",
        "https://hooks.slack.com/services/T000/B000/XXXX",
        "syt_...",
        "https://hookshot.example.org/webhook/00000000-0000-0000-0000-000000000000",
        "change-me-to-32-random-characters",
        "0123456789abcdef0123456789abcdef",
    }
)
YEAR = 365 * 86400  # the longest duration: beyond it a timer overflows, and it means "never"
_DURATION = re.compile(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?")


class _Abandon(Exception):
    """A table whose keys failed (each already recorded) is not checked further."""


def exists(path: str | Path) -> bool:
    """Whether anything is there; a name the system cannot hold (too long, a NUL) is nothing."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def is_folder(path: str) -> bool:
    """Whether a folder is there; a name the system cannot hold (too long, a NUL) is none."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def is_file(path: str) -> bool:
    """Whether a file is there; a name the system cannot hold (too long, a NUL) is none."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


class Checks:
    """The checker's vocabulary; loader._Checker adds the shape of the whole file.

    Problems are gathered, not raised one at a time: `gather()` records a failing check and goes
    on with the next, and `done()` raises them all as one ConfigErrors, a line each."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.base = config_folder(file)  # relative paths in the file start here
        self.secrets: set[str] = set()  # secrets written literally in the file
        self.errors: list[str] = []

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.file}: {key}: {problem}")

    @contextmanager
    def gather(self) -> Iterator[None]:
        try:
            yield
        except _Abandon:
            pass
        except ConfigErrors as exc:
            self.errors.extend(exc.problems)
        except ConfigError as exc:
            self.errors.append(str(exc))

    def settle(self, before: int) -> None:
        """Abandon the table being checked if a problem was recorded since `before`."""
        if len(self.errors) > before:
            raise _Abandon

    def done(self) -> None:
        if self.errors:
            raise ConfigErrors(self.errors)

    def path(self, value: str, key: str) -> str:
        """A path as written in the file, resolved against the file's folder (`~` expanded). One
        no file system can hold fails here, naming its key: a NUL had passed validate, then failed
        where the path was first used (a traceback for the state, a delivery retried till dead)."""
        if unholdable := _unholdable(value):
            raise self.fail(key, f"{value!r} holds {unholdable}, which no file or folder name can")
        written = Path(value)
        try:
            written = written.expanduser()
        except RuntimeError:  # "~name" of no such user: a name as written, as a shell keeps it
            pass
        if written.is_absolute():
            return str(written)
        joined = os.path.join(self.base, written)
        normal = os.path.normpath(joined)
        # "config/../seeds" is "seeds" unless config/ is a symbolic link to elsewhere.
        if ".." in Path(joined).parts and os.path.realpath(joined) != os.path.realpath(normal):
            return joined
        return normal

    def kind(self, table: dict[str, Any], key: str, kinds: Mapping[str, Any], what: str) -> str:
        kind = table.get("kind")
        if not isinstance(kind, str) or kind not in kinds:
            allowed = ", ".join(repr(k) for k in kinds)
            if kind is None:
                got = "missing"
            elif isinstance(kind, str):
                got = f"unknown {what} kind {kind!r}"
            else:
                got = f"must be a string, not {_kind_of(kind)}"
            raise self.fail(f"{key}.kind", f"{got}; allowed: {allowed}")
        return str(kind)

    def options(
        self, table: dict[str, Any], key: str, spec: dict[str, tuple[str, bool]], extra: set[str]
    ) -> dict[str, Any]:
        before = len(self.errors)
        self.only(table, set(spec) | extra, key)
        for name, (what, required) in spec.items():
            with self.gather():
                if name in table:
                    self.typed(table[name], what, f"{key}.{name}")
                elif required:
                    raise self.fail(f"{key}.{name}", f"missing; {table['kind']} needs it ({what})")
        self.settle(before)
        return {k: v for k, v in table.items() if k not in extra}

    def only(self, table: Mapping[str, Any], allowed: set[str], key: str) -> None:
        for name in table:
            if name not in allowed:
                where = f"{key}.{name}" if key else name
                problem = f"unknown key; allowed: {', '.join(sorted(allowed))}"
                self.errors.append(str(self.fail(where, problem)))

    def table(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table, not {_kind_of(value)}")
        return value

    def array(self, data: dict[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise self.fail(key, f"must be an array of tables ([[{key}]]), not {_kind_of(value)}")
        return value

    def typed(self, value: Any, what: str, key: str) -> Any:
        ok = {
            STR: isinstance(value, str),
            INT: isinstance(value, int) and not isinstance(value, bool),
            NUM: isinstance(value, int | float) and not isinstance(value, bool),
            BOOL: isinstance(value, bool),
            STRS: isinstance(value, list) and all(isinstance(v, str) for v in value),
            STR_OR_STRS: isinstance(value, str)
            or (isinstance(value, list) and all(isinstance(v, str) for v in value)),
        }.get(what, True)
        if not ok and isinstance(value, list) and what in (STRS, STR_OR_STRS):
            i, item = next((i, v) for i, v in enumerate(value) if not isinstance(v, str))
            raise self.fail(key, f"must be {what}; [{i}] is {_kind_of(item)}")
        if not ok:
            raise self.fail(key, f"must be {what}, not {_kind_of(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(key, f"must be a finite number, not {value}")
        return value

    def within(self, value: float, least: float, most: float, key: str) -> None:
        if not least <= value <= most:
            raise self.fail(key, f"must be {least:g} to {most:g}, not {value!r}")

    def channel(self, kind: str, options: dict[str, Any], key: str) -> None:
        self.secrets.update(str(v) for k, v in options.items() if k in SECRET_KEYS)
        for name in ("webhook", "homeserver", "url") if kind != "file" else ():
            if name in options:
                self.web_url(options[name], f"{key}.{name}")
        if "@" in urlsplit(str(options.get("homeserver", ""))).netloc:
            # Not a secret key, so shown in logs: Matrix signs in with `token`, never a URL's.
            raise self.fail(f"{key}.homeserver", "must not hold a user or password (use token)")
        if str(options.get("signing_secret", "")).strip() in EXAMPLE_VALUES:
            raise self.fail(
                f"{key}.signing_secret",
                "is the example of config/.env.example, which anyone can read: give the Slack "
                "app's own (Basic Information > App Credentials)",
            )
        if "room" in options and not _ROOM.fullmatch(options["room"]):
            raise self.fail(f"{key}.room", "must be a room id (!…) or an alias (#name:server)")
        to = options.get("to", []) if kind in ("email", "file") else []  # the .eml's To, too
        for i, value in enumerate([to] if isinstance(to, str) else to):
            self.address(value, f"{key}.to" if isinstance(to, str) else f"{key}.to[{i}]")
        link = str(options.get("unsubscribe", ""))
        if link and not re.fullmatch(r"mailto:[^\s<>]+@[^\s<>]+", link, re.IGNORECASE):
            self.web_url(link, f"{key}.unsubscribe", "an https:// URL or a mailto: address")

    def web_url(self, value: str, key: str, what: str = "an https:// URL") -> None:
        # The value may be a secret (a webhook's token is in its path): errors never show it.
        try:
            parts = urlsplit(value)
            host = parts.hostname or ""
        except ValueError:
            host, parts = "", urlsplit("")
        if unsafe(value) or not host or parts.scheme not in ("https", "http") or "<" in value:
            raise self.fail(key, f"must be {what}")
        if parts.scheme == "http" and host not in LOOPBACK:
            raise self.fail(key, "must be https:// (http:// only for 127.0.0.1 or localhost)")
        try:
            port = parts.port
        except ValueError:  # :99999, :abc
            port = 0
        if port == 0:  # every link to it dead
            raise self.fail(key, "has a port no address can have (give 1 to 65535, or none)")

    def address(self, value: str, key: str) -> None:
        found = [addr for _, addr in email.utils.getaddresses([value])]
        if unsafe(value, space=False) or len(found) != 1 or not _MAILBOX.fullmatch(found[0]):
            raise self.fail(key, f"{value!r} is not one e-mail address (e.g. 'Ana <ana@x.org>')")
        if not found[0].isascii():  # a relay takes it only with SMTPUTF8, which few offer
            raise self.fail(key, f"{found[0]!r}: an address must be ASCII (a name may be any text)")

    def duration(self, value: Any, key: str) -> float:
        """Seconds from "30m", "1h30m", "90s", "2d" or a number of seconds; at least one second."""
        match = _DURATION.fullmatch(value) if isinstance(value, str) else None
        if match and any(match.groups()):
            try:
                d, h, m, sec = (int(g or 0) for g in match.groups())
            except ValueError:  # over 4,300 digits: Python's limit of int(), far past a year
                raise self.fail(key, "must be a duration of at most 365d") from None
            value = ((d * 24 + h) * 60 + m) * 60 + sec
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 1:
            raise self.fail(key, "must be a duration such as '30m', '1h' or '90s' (at least 1s)")
        if value > YEAR:
            raise self.fail(key, "must be a duration of at most 365d")
        return float(value)


def config_folder(file: str | os.PathLike[str]) -> str:
    """Where a config's relative paths (its default state and out/ too) and its .env start: its
    own folder; for a config read from a descriptor, which has none (`--config <(envsubst ...)`
    is /dev/fd/63, /dev/stdin a /proc/self/fd link), the working directory."""
    folder = os.path.dirname(file) or "."
    whole = os.path.abspath(folder)
    if whole in ("/dev", "/dev/fd") or re.fullmatch(r"/proc/[^/]+/fd", whole):
        try:
            return os.getcwd()
        except OSError:  # a working directory removed under the process
            return "."
    return folder


def _unholdable(name: str) -> str:
    """What in a path no file system can hold, or "": a NUL (every system call takes a path as
    a C string, which a NUL ends), or a character the file system's encoding has no bytes for
    (a lone surrogate from ${VAR}, say)."""
    if "\x00" in name:
        return "a NUL character"
    try:
        os.fsencode(name)
    except UnicodeEncodeError as exc:
        return f"the character U+{ord(name[exc.start]):04X}"
    return ""


def unsafe(text: str, space: bool = True) -> bool:
    """Control characters (a CR/LF would inject a header) or, for URLs and ids, spaces."""
    return any(ord(c) < 32 or ord(c) == 127 or (space and c.isspace()) for c in text)


def _kind_of(value: Any) -> str:
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }
    return names.get(type(value), type(value).__name__)
