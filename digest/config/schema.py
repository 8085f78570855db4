"""The config file's vocabulary: every table, key, source kind and channel kind the checker
accepts, what each value must be, its range, and the built-in defaults."""

from __future__ import annotations

from typing import Any

from digest.config.checks import (
    BOOL,
    INT,
    NUM,
    SMTP_KEYS,
    STR,
    STR_OR_STRS,
    STRS,
    WEB_KEYS,
)

# Options of each source and channel kind: key -> (what it must be, required?).
NETWORK = {"url": (STR, False), "timeout": (NUM, False), "retries": (INT, False)}
SOURCE_KINDS: dict[str, dict[str, tuple[str, bool]]] = {
    "seeds": {"path": (STR, True)},
    "files": {"path": (STR, True)},
    # Network sources: `url` is the API or feed (the public service by default where there is
    # one). Each kind checks its own values (sources.check): categories, ranges, URLs.
    "arxiv": {
        **NETWORK,
        "categories": (STRS, False),
        "query": (STR, False),
        "days": (INT, False),
        "max_results": (INT, False),
        "delay": (NUM, False),
        "replacements": (BOOL, False),  # new versions of papers not seen before count as new
    },
    "rss": {**NETWORK, "url": (STR, True), "replacements": (BOOL, False)},
    "openreview": {**NETWORK, "venue": (STR, True)},
}
CHANNEL_KINDS: dict[str, dict[str, tuple[str, bool]]] = {
    "file": {"dir": (STR, False), "to": (STR_OR_STRS, False)},
    "email": {"to": (STR_OR_STRS, True), "unsubscribe": (STR, False)},
    "slack": {"webhook": (STR, True), "signing_secret": (STR, False)},
    "matrix": {"homeserver": (STR, True), "room": (STR, True), "token": (STR, True)},
    "matrix-hook": {"url": (STR, True)},
}
# Keys a subscriber may set; all but name, interests and library may also stand in [defaults].
# A subscriber's lists of words: an empty entry is an error naming its place.
WORD_LISTS = ("keywords", "exclude", "alert_keywords", "authors")
SUBSCRIBER_KEYS: dict[str, str] = {
    "name": STR,
    "interests": STR,
    "keywords": STRS,
    "exclude": STRS,
    "authors": STRS,
    "library": STR,
    "like": STRS,
    "top_k": INT,
    "min_score": NUM,
    "schedule": STR,
    "timezone": STR,
    "alert_threshold": NUM,
    "alert_keywords": STRS,
    "max_alerts_per_day": INT,
    "on_empty": STR,
    "channels": "a list of tables",
}
TOP_KEYS = {
    *("sources", "subscribers", "defaults", "state", "smtp", "templates", "delivery", "serve"),
    "web",
}
STATE_KEYS = {"path", "url"}  # url: PostgreSQL, shared by several workers
SOURCE_KEYS = {"kind", "name"}  # every source has these beside its kind's own
CHANNEL_KEYS = {"kind"}  # every channel has this beside its kind's own
DEFAULTS_KEYS = set(SUBSCRIBER_KEYS) - {"name", "interests", "library", "like"}
# [serve] of `digest serve`: key -> default duration ("30m", "1h", "90s" or seconds).
SERVE_KEYS = {"poll_every": "30m", "misfire_grace_time": "1h"}
SERVE_SECONDS = {"poll_every": 1800, "misfire_grace_time": 3600}
# [delivery]: key -> (what it must be, the least and the most allowed).
DELIVERY_KEYS: dict[str, tuple[str, float, float]] = {
    "max_attempts": (INT, 1, 100),  # tries before a delivery is dead
    "concurrency": (INT, 1, 64),  # destinations served at the same time (threads)
    # seconds a run waits out a rate limit before leaving it to a later run (a day at most)
    "max_wait": (NUM, 0, 86400),
    # connections to the SMTP relay at once, each reused across messages
    "smtp_connections": (INT, 1, 64),
}
# A subscriber's numbers: key -> (least, most). Scores are cosine similarities, 0 to 1; a huge
# top_k or cap is a typo, and would cost the ranker memory for nothing.
SUBSCRIBER_RANGES: dict[str, tuple[float, float]] = {
    "top_k": (1, 1000),
    "min_score": (0, 1),
    "alert_threshold": (0, 1),
    "max_alerts_per_day": (0, 1000),
}
BUILTIN_DEFAULTS: dict[str, Any] = {
    "top_k": 10,
    "min_score": 0.05,
    "schedule": "0 8 * * *",
    "timezone": "UTC",
    "channels": [{"kind": "file"}],
}


def accepted_keys() -> dict[str, frozenset[str]]:
    """Every place in a config file -> the keys the checker accepts there: "" is the top level,
    "sources.arxiv" one source kind's own keys (beside "sources"), "subscribers.channels.email"
    one channel kind's. docs/configuration.md documents each; tests/test_docs.py compares."""
    places: dict[str, set[str]] = {
        "": TOP_KEYS,
        "state": STATE_KEYS,
        "serve": set(SERVE_KEYS),
        "delivery": set(DELIVERY_KEYS),
        "smtp": SMTP_KEYS,
        "web": WEB_KEYS,
        "sources": SOURCE_KEYS,
        "defaults": DEFAULTS_KEYS,
        "subscribers": set(SUBSCRIBER_KEYS),
        "subscribers.channels": CHANNEL_KEYS,
    }
    places |= {f"sources.{kind}": set(keys) for kind, keys in SOURCE_KINDS.items()}
    places |= {f"subscribers.channels.{kind}": set(keys) for kind, keys in CHANNEL_KINDS.items()}
    return {place: frozenset(keys) for place, keys in places.items()}
