"""The package's exceptions, drawn as a tree, and the redaction of secrets from their messages.

Imports nothing from the package: every other module may import this one.
"""

from __future__ import annotations

# DigestError
#  ├── ConfigError      bad config, .env or command-line input (exit 2)
#  ├── InputError       a bad input file named on the command line (exit 2)
#  ├── SourceError      a whole source failed; the run goes on with the others
#  ├── StateError       the state database is unusable or locked
#  └── DeliveryError    a channel could not deliver (retryable or not)


class DigestError(Exception):
    """Base of every error the package raises on purpose; the message is one line for a person."""


class ConfigError(DigestError):
    pass


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
    """The text with every known secret (token, password, webhook URL) blotted out."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "[redacted]")
    return text
