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
    state = secret_state(args, state, where)
    if where == "[state]":
        moved(state)
    return state


def moved(state: str) -> None:
    """Refuse a config's own state that holds nothing yet while the image's default holds one:
    an earlier image put every state there, whatever the config named (its DIGEST_STATE). A
    warning had let the first run start afresh, and send every paper of the history again."""
    image = os.environ.get("DIGEST_DEFAULT_STATE", "")
    if not image or not os.path.isfile(image) or not os.path.getsize(image):
        return
    if "://" not in state and os.path.abspath(image) == os.path.abspath(state):
        return
    if not _fresh(state):
        return
    raise InputError(
        f"{_shown(state)}: no state there yet, but {image} ($DIGEST_DEFAULT_STATE) holds one, which"
        " an earlier image used whatever the config named; a run here would send its papers"
        f" again: move that state there, or set DIGEST_STATE={image} to keep using it (or"
        f" DIGEST_STATE={_shown(state)} to start afresh there)"
    )


def _shown(state: str) -> str:
    from digest.state.engine import shown

    return shown(state)


def _fresh(state: str) -> bool:
    """Does the state hold nothing yet (no file; a database without digest's tables)? A server
    that cannot be asked now is left to the command to report."""
    if "://" not in state:
        return not os.path.exists(state)
    from digest.models import DigestError
    from digest.state.engine import connect

    try:
        engine = connect(state, timeout=10)
    except DigestError:
        return False
    try:
        with engine.errors():
            return engine.version() == 0
    except DigestError:
        return False
    finally:
        engine.close()


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
