"""Subscriber names given on the command line (`preview --subscriber`, `feedback`, `ratings`,
`resume`, `retry --subscriber` and `--drop`): found as the config knows them, and, when none is,
a one-line answer that names the closest few."""

from __future__ import annotations

import difflib
import unicodedata

from digest.models import InputError, Settings

LISTED = 10  # up to this many subscribers, a mistyped name is answered with all their names
CLOSEST = 3  # past it, with the closest few (10,000 names had made one line of 170 KB)


def subscriber(settings: Settings, name: str) -> str:
    """The configured spelling of `name`: "José" typed (NFC) or pasted from a Mac (NFD) is one
    name, as the config's own duplicate check takes it. An unknown name is bad input."""
    wanted = unicodedata.normalize("NFC", name)
    for sub in settings.subscribers:
        if unicodedata.normalize("NFC", sub.name) == wanted:
            return sub.name
    names = [s.name for s in settings.subscribers]
    raise InputError(f"no subscriber named {name!r} in {settings.path}; {_known(wanted, names)}")


def label(given: str, labels: set[str]) -> str | None:
    """The stored SUBSCRIBER/CHANNEL label `given` names (its name in either form), or None."""
    wanted = unicodedata.normalize("NFC", given)
    return next((k for k in labels if unicodedata.normalize("NFC", k) == wanted), None)


def _known(wanted: str, names: list[str]) -> str:
    if not names:
        return "known: none"
    if len(names) <= LISTED:
        return f"known: {', '.join(names)}"
    forms = {unicodedata.normalize("NFC", n): n for n in names}
    close = difflib.get_close_matches(wanted, list(forms), n=CLOSEST, cutoff=0.6)
    if close:
        return f"closest: {', '.join(forms[c] for c in close)} (of {len(names):,} subscribers)"
    return f"known: {', '.join(names[:CLOSEST])} and {len(names) - CLOSEST:,} more"
