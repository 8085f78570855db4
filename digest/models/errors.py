"""The package's exceptions, drawn as a tree, and the redaction of secrets from their messages.

Imports nothing from the package: every other module may import this one.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import re
from typing import NamedTuple
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit

# DigestError
#  ├── ConfigError      bad config, .env or command-line input (exit 2)
#  │    └── ConfigErrors  several of them at once: one line each
#  ├── InputError       a bad input file named on the command line (exit 2)
#  ├── SourceError      a whole source failed; the run goes on with the others
#  ├── StateError       the state database is unusable or locked
#  ├── OutputError      the command's output could not be written (exit 2)
#  └── DeliveryError    a channel could not deliver (retryable or not)


class DigestError(Exception):
    """Base of every error the package raises on purpose; the message is one line for a person."""

    def __init__(self, *args: object) -> None:
        # A server's words may hold a lone surrogate, which no database, log or terminal takes:
        # one in a source's error had failed every run at the journal's write.
        super().__init__(*(storable(a) if isinstance(a, str) else a for a in args))


def storable(text: str) -> str:
    """The text with any lone surrogate as "?": what UTF-8 can hold."""
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


class ConfigError(DigestError):
    pass


class OutputError(DigestError):
    pass


class ConfigErrors(ConfigError):
    """Every problem the config checker found, one line each, so that one round fixes them all."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(dict.fromkeys(problems))  # an inherited default fails once
        super().__init__("\n".join(self.problems))


class InputError(DigestError):
    pass


class SourceError(DigestError):
    pass


class StateError(DigestError):
    pass


class DeliveryError(DigestError):
    """`retryable`: may the outbox try again; `retry_after`: the server's wish, in seconds."""

    def __init__(self, message: str, *, retryable: bool, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*)://")
_POSTGRES_TYPO = re.compile(r"^\s*postgres(?:ql)?:", re.IGNORECASE)


def is_url(value: str) -> bool:
    """Does the value begin as a URL does (scheme://)?"""
    return _SCHEME.match(value) is not None


def state_location(value: str) -> str:
    """A state as given (--state, DIGEST_STATE, [state]): a postgresql:// URL with its scheme in
    lower case (RFC 3986: schemes ignore case) and no blanks around it, or a path as it is. Any
    other URL raises ValueError, naming its scheme alone: it was an SQLite file of that name,
    a fresh state in a folder named after its password."""
    match = _SCHEME.match(value)
    if match is None:
        if _POSTGRES_TYPO.match(value):  # postgresql:/user:password@... : a path that shows it
            raise ValueError("a postgresql URL needs // after postgresql:")
        return value
    scheme = match[1].lower()
    if f"{scheme}://" not in POSTGRES_SCHEMES:
        raise ValueError(f"a {scheme}:// URL is no state: give a postgresql:// URL or a file")
    return f"{scheme}://{value.strip()[len(match[1]) + 3 :]}"


class PostgresURL(NamedTuple):
    """A postgresql:// URL cut where libpq cuts it, not where urllib does: the user name and
    password run to the first '@' met before any '/' (a '#' or '?' in them is theirs, and the
    password is all from the first ':' to that '@'); the host list ends at '/' or '?'."""

    scheme: str
    user: str
    password: str  # as written (percent-encoded or not)
    hosts: str
    dbname: str  # with its leading "/", as written; "" if none
    query: str
    problem: str  # why digest refuses it (libpq would misread it); "" when none


def postgres_url(url: str) -> PostgresURL:
    scheme, _, after = url.partition("://")
    end = next((i for i, c in enumerate(after) if c in "@/"), len(after))
    user = password = ""
    rest = after
    if after[end : end + 1] == "@":
        user, _, password = after[:end].partition(":")
        rest = after[end + 1 :]
    where, _, query = rest.partition("?")
    hosts, slash, dbname = where.partition("/")
    problem = ""
    if "@" in rest:
        # libpq would take what follows the first '@' for a host (or a '/' in a password for
        # the path's start), and quote it back in its errors: part of a password, maybe.
        problem = (
            "an '@' other than the one that ends the user name and password: write an '@' or '/'"
            " in them as %40 or %2F, and any other '@' as %40"
        )
    elif hosts.count("[") != hosts.count("]"):
        problem = "an unclosed [ in the host"
    return PostgresURL(scheme, user, password, hosts, slash + dbname, query, problem)


def postgres_secrets(url: str) -> frozenset[str]:
    """What a postgresql:// URL holds that is secret: its password as libpq reads it, any
    password of its query and, when libpq would misread it, all that may have been meant as
    one (from the first ':' to the last '@'). A URL without any holds none."""
    parts = postgres_url(url)
    found = {parts.password}
    for pair in parts.query.split("&"):
        key, _, value = pair.partition("=")
        if "password" in unquote(key).lower():
            found.add(value)
    if parts.problem:
        after = url.partition("://")[2]
        colon, last = after.find(":"), after.rfind("@")
        if 0 <= colon < last:
            found.add(after[colon + 1 : last])
    return frozenset(s for s in found if s)


def redact(text: str, secrets: frozenset[str]) -> str:
    """The text with every known secret (token, password, webhook URL) blotted out, in every
    form a message may hold it: percent-encoded or decoded, JSON-escaped, in any letter case, and
    for a URL also as shown elsewhere (host lower-cased, without its query or credentials, the
    path alone, a long path segment or query value alone)."""
    if not secrets or not text:
        return text
    ends, short = _index(secrets)
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer ("İ"): positions shift
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    found: list[tuple[int, int]] = []  # (start, end) of every form found
    for end in range(1, len(low) + 1):
        for form in ends.get(low[max(0, end - KEY) : end], ()):
            if len(form) <= end and low.startswith(form, end - len(form)):
                if not _cut_short(form, low, end):
                    found.append((end - len(form), end))
    found += [(at, at + len(form)) for form in short for at in _occurrences(low, form)]
    # A text redacted before (a log line passes the filter, then the formatter) keeps its blots
    # whole, where a short secret ("t") would cut into "[redacted]" itself.
    blots = [(m, m + len(BLOT)) for m in _occurrences(text, BLOT)]
    found = [f for f in found if not any(f[0] < b and a < f[1] for a, b in blots)]
    out: list[str] = []
    last = 0
    # Leftmost, then longest: the whole URL is blotted, not a part of it; overlaps merge.
    for start, end in sorted(found, key=lambda m: (m[0], -m[1])):
        if end <= last:
            continue  # within one blotted already
        if start >= last:
            out += [text[last:start], BLOT]
        last = end  # an overlapping one makes the blot before it longer
    out.append(text[last:])
    return "".join(out)


BLOT = "[redacted]"
ERROR_LIMIT = 600  # characters of a failure's message kept, cut after its secrets are blotted
_PATH_CHAR = re.compile(r"[a-z0-9_~-]+")  # not ".": an address may end a sentence


def shortened(text: str, limit: int = ERROR_LIMIT) -> str:
    """A message cut to `limit` characters. Cut only after redact(): a cut first can leave a
    secret's beginning, which no form matches."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cut_short(form: str, text: str, end: int) -> bool:
    """Whether a web address's form ends inside a longer path segment of the text: the secret
    feed's /or is not the other feed's /or2."""
    return "://" in form and end < len(text) and bool(_PATH_CHAR.fullmatch(form[-1] + text[end]))


def _occurrences(text: str, part: str) -> list[int]:
    return [m.start() for m in re.finditer(f"(?={re.escape(part)})", text)]


KEY = 4  # forms are found by their last characters: one dictionary look-up per position


@functools.lru_cache(maxsize=32)
def _index(secrets: frozenset[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Every form of every secret, lower-cased, by its last KEY characters (a secret's ending is
    its random part: the buckets stay small, where beginnings share "https://hooks..."); the
    forms shorter than KEY apart. A dictionary, not one regular expression: thousands of webhook
    URLs make an alternation of 100,000 forms, seconds to compile and milliseconds a line."""
    forms = {form.lower() for secret in secrets if secret for form in _forms(secret)}
    ends: dict[str, list[str]] = {}
    for form in forms:
        if len(form) >= KEY:
            ends.setdefault(form[-KEY:], []).append(form)
    return ends, sorted(f for f in forms if len(f) < KEY)


PART = 8  # a part of a URL shorter than this ("/rss", "v=2") is not a secret by itself
SEGMENT = 12  # nor a single path segment shorter than this ("atom.xml", "services")


def _forms(secret: str) -> set[str]:
    forms: set[str] = set()
    for text in {secret, unquote(secret)}:
        forms |= _encodings(text)
    if "://" not in secret:  # a password or token: SMTP AUTH and HTTP Basic send it in base64
        forms |= _base64(secret) | _parts(secret)
    if secret.lower().startswith(POSTGRES_SCHEMES):  # its password as libpq reads it
        for part in postgres_secrets(secret):
            forms |= {f for text in {part, unquote(part)} for f in _encodings(text)}
    try:
        parts = urlsplit(secret)
        host, port = parts.hostname, parts.port
    except ValueError:
        return forms
    if parts.password:  # any scheme's: a postgresql:// URL's too; HTTP Basic sends it in base64
        password = unquote(parts.password)
        forms |= _encodings(parts.password) | _encodings(password) | _base64(password)
        forms |= _parts(password)
        forms |= _base64(f"{unquote(parts.username or '')}:{password}")
    elif parts.username and len(parts.username) >= PART:
        # A user name alone as the credential (a token as https://TOKEN@host/...): HTTP Basic
        # sends "TOKEN:", which a server quoted back in base64.
        user = unquote(parts.username)
        forms |= _encodings(parts.username) | _encodings(user) | _base64(f"{user}:")
        forms |= _parts(user)
    # libpq takes a password from the query as well, and quotes it back in its errors.
    forms |= {v for k, v in parse_qsl(parts.query) if "password" in k.lower() and v}
    if parts.scheme not in ("http", "https") or not host:
        return {form for form in forms if form}
    hosts = {host}
    with contextlib.suppress(UnicodeError):
        hosts.add(host.encode("idna").decode("ascii"))
    paths = {parts.path, unquote(parts.path), quote(unquote(parts.path))}
    query = f"?{parts.query}" if parts.query else ""
    for name in hosts:
        base = f"{parts.scheme}://{name}" + (f":{port}" if port else "")
        for path in paths:
            for url in (base + path, base + path + query, base + path.rstrip("/")):
                forms |= _encodings(url)
    for path in paths:
        for tail in (path + query, path, path.lstrip("/")):
            if len(tail.strip("/")) >= PART:  # a server may quote its path in base64 too
                forms |= _encodings(tail) | _base64(tail.strip("/"))
        segments = {seg for seg in path.split("/") if len(seg) >= SEGMENT}
        forms |= segments | {part for seg in segments for part in _parts(seg) | _base64(seg)}
    if parts.query:
        forms |= _encodings(parts.query)
        values = {v for _, v in parse_qsl(parts.query) if len(v) >= PART}
        forms |= values | {part for v in values for part in _parts(v) | _base64(v)}
    return {form for form in forms if form}


PARTS_FROM = 16  # characters of a token whose beginnings and ends are looked for
PART_LEAST = 10  # and the fewest characters of such a part


def _parts(token: str) -> set[str]:
    """The beginnings and ends of a long token (a password, a webhook's secret segment) of at
    least half of it: a server that quotes a token cut short ("SECRETpartialHOOKab...") shows
    most of it. A short one's parts would be words ("password" of "password123")."""
    if len(token) < PARTS_FROM:
        return set()
    parts = set()
    # As an address carries it too: "?key=Zx9%2FQw%2B8..." cut short showed most of the key.
    for form in {token, quote(token, safe=""), quote_plus(token)}:
        least = max(PART_LEAST, -(-len(form) // 2))
        parts |= {t for k in range(least, len(form)) for t in (form[:k], form[-k:])}
    return parts


def _encodings(text: str) -> set[str]:
    return {
        text,
        quote(text, safe=""),
        quote(text, safe="/:"),
        quote_plus(text),
        json.dumps(text)[1:-1],
        json.dumps(text, ensure_ascii=False)[1:-1],
        text.replace("/", "\\/"),  # JSON may escape "/" too
    }


BASE64_LEAST = 6  # bytes of a secret whose base64 is looked for: fewer give too short a form


def _base64(text: str) -> set[str]:
    """The base64 characters that only the secret's own bytes decide, at each of the three
    places it may start within a group of three bytes, standard and URL-safe: a secret inside a
    longer encoded string (SMTP's "\0user\0password") is found without knowing the rest."""
    raw = text.encode()
    if len(raw) < BASE64_LEAST:
        return set()
    forms = set()
    for skip in range(3):
        encoded = base64.b64encode(bytes(skip) + raw + bytes(2)).decode("ascii")
        # Character i holds bits 6i..6i+6; the secret's are 8 x skip .. 8 x (skip + len).
        part = encoded[-(-8 * skip // 6) : 8 * (skip + len(raw)) // 6]
        forms |= {part, part.translate(str.maketrans("+/", "-_"))}
    return forms
