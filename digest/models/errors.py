"""The package's exceptions, drawn as a tree, and the redaction of secrets from their messages.

Imports nothing from the package: every other module may import this one.
"""

from __future__ import annotations

import functools
import json
import re
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit

# DigestError
#  ├── ConfigError      bad config, .env or command-line input (exit 2)
#  │    └── ConfigErrors  several of them at once: one line each
#  ├── InputError       a bad input file named on the command line (exit 2)
#  ├── SourceError      a whole source failed; the run goes on with the others
#  ├── StateError       the state database is unusable or locked
#  └── DeliveryError    a channel could not deliver (retryable or not)


class DigestError(Exception):
    """Base of every error the package raises on purpose; the message is one line for a person."""


class ConfigError(DigestError):
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


def redact(text: str, secrets: frozenset[str]) -> str:
    """The text with every known secret (token, password, webhook URL) blotted out, in every
    form a message may hold it: percent-encoded or decoded, JSON-escaped, in any letter case, and
    for a URL also as shown elsewhere (host lower-cased, without its query or credentials, the
    path alone, a long path segment or query value alone)."""
    if not secrets or not text:
        return text
    pattern = _pattern(secrets)
    return pattern.sub("[redacted]", text) if pattern else text


@functools.lru_cache(maxsize=32)
def _pattern(secrets: frozenset[str]) -> re.Pattern[str] | None:
    forms = {form for secret in secrets if secret for form in _forms(secret)}
    if not forms:
        return None
    # Longest first: the whole URL is blotted before a part of it would be.
    alternatives = sorted(forms, key=lambda f: (-len(f), f))
    return re.compile("|".join(re.escape(f) for f in alternatives), re.IGNORECASE)


PART = 8  # a part of a URL shorter than this ("/rss", "v=2") is not a secret by itself
SEGMENT = 12  # nor a single path segment shorter than this ("atom.xml", "services")


def _forms(secret: str) -> set[str]:
    forms: set[str] = set()
    for text in {secret, unquote(secret)}:
        forms |= _encodings(text)
    try:
        parts = urlsplit(secret)
        host, port = parts.hostname, parts.port
    except ValueError:
        return forms
    if parts.scheme not in ("http", "https") or not host:
        return forms
    hosts = {host}
    try:
        hosts.add(host.encode("idna").decode("ascii"))
    except UnicodeError:
        pass
    paths = {parts.path, unquote(parts.path), quote(unquote(parts.path))}
    query = f"?{parts.query}" if parts.query else ""
    for name in hosts:
        base = f"{parts.scheme}://{name}" + (f":{port}" if port else "")
        for path in paths:
            for url in (base + path, base + path + query, base + path.rstrip("/")):
                forms |= _encodings(url)
    for path in paths:
        for tail in (path + query, path, path.lstrip("/")):
            if len(tail.strip("/")) >= PART:
                forms |= _encodings(tail)
        forms |= {seg for seg in path.split("/") if len(seg) >= SEGMENT}
    if parts.query:
        forms |= _encodings(parts.query)
        forms |= {v for _, v in parse_qsl(parts.query) if len(v) >= PART}
    if parts.password:
        forms |= _encodings(parts.password)
    return {form for form in forms if form}


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
