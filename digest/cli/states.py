"""The state a command works on: --state, else $DIGEST_STATE, else the config's (the image's
$DIGEST_DEFAULT_STATE standing in for a config that names none); checked, and its URL's password
made known to the log's redactor before anything can print it."""

from __future__ import annotations

import argparse
import logging
import os

from digest.cli.logs import REDACTOR
from digest.models import InputError, Settings

log = logging.getLogger(__name__)


def state_path(args: argparse.Namespace, settings: Settings) -> str:
    """An SQLite file or a postgresql:// URL, whose password is a secret wherever it came from."""
    state, where = chosen(args, settings)
    if where == "[state]":
        moved(state)
    return secret_state(args, state, where)


def moved(state: str) -> None:
    """Warn when a config's own SQLite state is not there yet but the image's default is: the
    image had put every state there, whatever the config named (its DIGEST_STATE)."""
    image = os.environ.get("DIGEST_DEFAULT_STATE", "")
    if not image or "://" in state or os.path.exists(state) or not os.path.isfile(image):
        return
    if os.path.abspath(image) != os.path.abspath(state):
        log.warning(
            "%s: no state there yet, but %s ($DIGEST_DEFAULT_STATE) holds one: the config's"
            " [state] is used; move that file there, or set DIGEST_STATE to it",
            state,
            image,
        )


def chosen(args: argparse.Namespace, settings: Settings | None) -> tuple[str, str]:
    """The state as given, and where: --state, $DIGEST_STATE, else the config's [state]; for a
    config that names none (or the default), $DIGEST_DEFAULT_STATE if set. The image sets that
    one, not $DIGEST_STATE: it had overridden a config's [state] url without a word, and each
    container sent every digest from a private SQLite file. Without settings (no config read
    yet), ("", "") when the config would decide."""
    if getattr(args, "state", None) is not None:  # blank too: refused as --state's
        return args.state, "--state"
    if given := os.environ.get("DIGEST_STATE", ""):
        return given, "DIGEST_STATE"
    if settings is None:
        return "", ""
    fallback = os.environ.get("DIGEST_DEFAULT_STATE", "")
    if fallback and not named(settings):
        return fallback, "DIGEST_DEFAULT_STATE"
    return settings.state_path, "[state]"


def named(settings: Settings) -> bool:
    """Whether the config names a state other than its default, state/digest.db beside it."""
    from digest.config.checks import Checks

    return settings.state_path != Checks(settings.path).path("state/digest.db", "state.path")


def secret_state(args: argparse.Namespace, state: str, where: str = "") -> str:
    """The state, its URL's password (as libpq reads it, in any form) made known to the log's
    redactor before anything can print it; a URL without one is no secret, and is shown."""
    from digest.models.errors import (
        POSTGRES_SCHEMES,
        postgres_secrets,
        postgres_url,
        state_location,
    )

    given = getattr(args, "state", None)
    where = where or ("--state" if given is not None else "DIGEST_STATE")
    if not state.strip() or not (given is None or given.strip()):  # `--state "$UNSET"`
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
