"""The state a command works on: --state, else $DIGEST_STATE, else the config's; checked, and its
URL's password made known to the log's redactor before anything can print it."""

from __future__ import annotations

import argparse
import os

from digest.cli.logs import REDACTOR
from digest.models import InputError, Settings


def state_path(args: argparse.Namespace, settings: Settings) -> str:
    """An SQLite file or a postgresql:// URL, whose password is a secret wherever it came from."""
    return secret_state(args, args.state or os.environ.get("DIGEST_STATE") or settings.state_path)


def secret_state(args: argparse.Namespace, state: str) -> str:
    """The state, its URL's password (as libpq reads it, in any form) made known to the log's
    redactor before anything can print it; a URL without one is no secret, and is shown."""
    from digest.models.errors import (
        POSTGRES_SCHEMES,
        postgres_secrets,
        postgres_url,
        state_location,
    )

    where = "--state" if args.state is not None else "DIGEST_STATE"
    if not state.strip() or not (args.state is None or args.state.strip()):  # `--state "$UNSET"`
        raise InputError(f"{where}: blank; give a file or a postgresql:// URL, or leave it out")
    try:
        state = state_location(state)
    except ValueError as e:
        raise InputError(f"{where}: {e}") from None
    if os.path.exists(state) and not (os.path.isfile(state) or os.path.isdir(state)):
        raise InputError(f"{state}: not a regular file; name a state database file")  # /dev/null
    if state.strip() == ":memory:":  # SQLite's own name for a database that is never written
        raise InputError(
            f"{where}: ':memory:' keeps nothing between runs (every run would send everything"
            " again): give a file or a postgresql:// URL"
        )
    if state.startswith(POSTGRES_SCHEMES):
        REDACTOR.secrets = REDACTOR.secrets | postgres_secrets(state)
        # An unclosed [, or an '@' libpq would misread (part of a password would show).
        if problem := postgres_url(state).problem:
            raise InputError(f"{where}: not a valid postgresql:// URL: {problem}")
    return state


def exists(state: str) -> bool:
    """Is there a state to read? A database server always has one (made on first use)."""
    from digest.models.errors import POSTGRES_SCHEMES

    return state.startswith(POSTGRES_SCHEMES) or os.path.exists(state)
