"""The config file: TOML plus `.env` plus ${VAR} substitution, checked key by key into Settings.

Owns the schema of every key, source kind and channel kind; each error is one line naming the
file, the key path and what is allowed.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

from digest.config.checks import (
    BOOL,
    INT,
    NUM,
    SECRET_KEYS,
    SMTP_KEYS,
    STR,
    STR_OR_STRS,
    STRS,
    WEB_KEYS,
    Checks,
)
from digest.models import ChannelConfig, ConfigError, Profile, Settings, SourceConfig, Subscriber

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
STATE_KEYS = {"path", "url"}
SOURCE_KEYS = {"kind", "name"}  # every source has these beside its kind's own
CHANNEL_KEYS = {"kind"}  # every channel has this beside its kind's own
DEFAULTS_KEYS = set(SUBSCRIBER_KEYS) - {"name", "interests", "library", "like"}
# [serve] of `digest serve`: key -> default duration ("30m", "1h", "90s" or seconds).
SERVE_KEYS = {"poll_every": "30m", "misfire_grace_time": "1h"}
# [delivery]: key -> (what it must be, the least value allowed).
DELIVERY_KEYS: dict[str, tuple[str, float]] = {
    "max_attempts": (INT, 1),  # tries before a delivery is dead
    "concurrency": (INT, 1),  # destinations served at the same time
    "max_wait": (NUM, 0),  # seconds a run waits out a rate limit before leaving it to a later run
    "smtp_connections": (INT, 1),  # connections to the SMTP relay at once, reused across messages
}
BUILTIN_DEFAULTS: dict[str, Any] = {
    "top_k": 10,
    "min_score": 0.05,
    "schedule": "0 8 * * *",
    "timezone": "UTC",
    "channels": [{"kind": "file"}],
}
_VAR = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


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


def load(path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> Settings:
    """Read, substitute and check a config file; raise ConfigError with one line on any problem."""
    file = Path(path)
    try:
        raw = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read config file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML: {exc}") from None
    env = _environment(file, environ)
    secrets: set[str] = set()
    data = _substitute(raw, env, str(file), "", secrets)
    return _Checker(str(file)).settings(data, frozenset(secrets))


def _environment(file: Path, environ: Mapping[str, str] | None) -> dict[str, str]:
    # The process environment wins over .env, so an operator can override one value per run.
    merged: dict[str, str] = {}
    for dotenv in dict.fromkeys([file.parent / ".env", Path.cwd() / ".env"]):
        if dotenv.is_file():
            merged.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
    merged.update(os.environ if environ is None else environ)
    return merged


def _substitute(value: Any, env: Mapping[str, str], file: str, key: str, secrets: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _substitute(v, env, file, _join(key, k), secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, env, file, f"{key}[{i}]", secrets) for i, v in enumerate(value)]
    if not isinstance(value, str) or "$" not in value:
        return value

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return "$"
        if name not in env:
            raise ConfigError(f"{file}: {key}: ${{{name}}} is not set (in the environment or .env)")
        if key.rsplit(".", 1)[-1] in SECRET_KEYS and env[name]:
            secrets.add(env[name])
        return env[name]

    return _VAR.sub(replace, value)


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


class _Checker(Checks):
    def settings(self, data: dict[str, Any], secrets: frozenset[str]) -> Settings:
        self.only(data, TOP_KEYS, "")
        defaults = self.table(data.get("defaults", {}), "defaults")
        self.only(defaults, DEFAULTS_KEYS, "defaults")
        state = self.table(data.get("state", {}), "state")
        self.only(state, STATE_KEYS, "state")
        state_path = self.state(state)
        smtp = self.table(data.get("smtp", {}), "smtp")
        self.only(smtp, SMTP_KEYS, "smtp")
        # No `templates` key: the built-in set; a folder given here overrides them one by one.
        templates = self.typed(data.get("templates", ""), STR, "templates")
        if templates and not Path(templates).is_dir():
            raise self.fail(
                "templates",
                f"no such folder {templates!r} (relative paths start "
                "from the directory digest runs in)",
            )
        sources: list[SourceConfig] = []
        for i, raw in enumerate(self.array(data, "sources")):
            source = self.source(raw, f"sources[{i}]")
            if source.name in {s.name for s in sources}:
                raise self.fail(
                    f"sources[{i}].name",
                    f"duplicate source name {source.name!r}; give each source its own `name`",
                )
            sources.append(source)
        subscribers = [
            self.subscriber(s, defaults, f"subscribers[{i}]")
            for i, s in enumerate(self.array(data, "subscribers"))
        ]
        seen: set[str] = set()
        for sub in subscribers:
            if sub.name in seen:
                raise self.fail(f"subscribers.{sub.name}", "duplicate subscriber name")
            seen.add(sub.name)
        mailing = any(c.kind == "email" for sub in subscribers for c in sub.channels)
        smtp = self.smtp(smtp, mailing)
        delivery = self.table(data.get("delivery", {}), "delivery")
        self.only(delivery, set(DELIVERY_KEYS), "delivery")
        for name, (what, least) in DELIVERY_KEYS.items():
            if name in delivery and self.typed(delivery[name], what, f"delivery.{name}") < least:
                raise self.fail(f"delivery.{name}", f"must be at least {least:g}")
        serve = self.table(data.get("serve", {}), "serve")
        self.only(serve, set(SERVE_KEYS), "serve")
        every = {k: self.duration(serve.get(k, v), f"serve.{k}") for k, v in SERVE_KEYS.items()}
        web = self.web(self.table(data.get("web", {}), "web"))
        for sub in subscribers if not web else ():
            for i, channel in enumerate(sub.channels):
                if channel.options.get("signing_secret"):
                    raise self.fail(
                        f"subscribers.{sub.name}.channels[{i}].signing_secret",
                        "needs a [web] table (base_url, secret): Slack posts the clicks there",
                    )
        return Settings(
            path=self.file,
            sources=tuple(sources),
            subscribers=tuple(subscribers),
            state_path=state_path,
            templates=templates,
            smtp=smtp,
            secrets=secrets | frozenset(v for v in self.secrets if v),
            delivery=delivery,
            poll_every=every["poll_every"],
            misfire_grace_time=every["misfire_grace_time"],
            web=web,
        )

    def state(self, state: dict[str, Any]) -> str:
        """[state]: `path` an SQLite file, or `url` a PostgreSQL database (its password a
        secret); not both."""
        if "url" in state:
            if "path" in state:
                raise self.fail("state.url", "give [state].url or [state].path, not both")
            url = str(self.typed(state["url"], STR, "state.url"))
            if not url.startswith(("postgresql://", "postgres://")):
                raise self.fail("state.url", "must be a postgresql:// URL")
            password = urlsplit(url).password
            if password:
                self.secrets.update({password, url})
            return url
        path = str(self.typed(state.get("path", "state/digest.db"), STR, "state.path"))
        if not path.strip():
            raise self.fail("state.path", "must not be empty (the SQLite file of the state)")
        return path

    def source(self, raw: Any, key: str) -> SourceConfig:
        table = self.table(raw, key)
        kind = self.kind(table, key, SOURCE_KINDS, "source")
        options = self.options(table, key, SOURCE_KINDS[kind], extra=SOURCE_KEYS)
        # An unnamed source is called by its path ("seeds"), else by its kind ("arxiv").
        default = str(options.get("path", kind))
        name = self.typed(table.get("name", default), STR, f"{key}.name")
        return SourceConfig(kind=kind, name=name, options=options)

    def subscriber(self, raw: Any, defaults: dict[str, Any], key: str) -> Subscriber:
        table = self.table(raw, key)
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.fail(f"{key}.name", "every subscriber needs a name (a non-empty string)")
        key = f"subscribers.{name}"
        self.only(table, set(SUBSCRIBER_KEYS), key)
        merged = {**BUILTIN_DEFAULTS, **defaults, **table}

        def where(k: str) -> str:  # an inherited value is reported where it was written
            return f"{key}.{k}" if k in table else f"defaults.{k}"

        for k, v in merged.items():
            if k != "channels":
                self.typed(v, SUBSCRIBER_KEYS[k], where(k))
        tz = merged["timezone"]
        try:
            ZoneInfo(tz)
        except (ZoneInfoNotFoundError, ValueError):
            raise self.fail(
                where("timezone"),
                f"unknown time zone {tz!r} (use an IANA name such as 'Europe/Berlin' or 'UTC')",
            ) from None
        self.schedule(merged["schedule"], where("schedule"), tz)
        if merged["top_k"] < 1:
            raise self.fail(where("top_k"), "must be at least 1")
        if merged.get("on_empty", "skip") not in ("skip", "notify"):
            raise self.fail(where("on_empty"), "must be 'skip' or 'notify'")
        if merged.get("max_alerts_per_day", 0) < 0:
            raise self.fail(where("max_alerts_per_day"), "must be 0 (no alerts) or more")
        channels = self.channels(merged["channels"], where("channels"))
        profile = Profile(
            interests=merged.get("interests", "").strip(),
            keywords=tuple(merged.get("keywords", ())),
            exclude=tuple(merged.get("exclude", ())),
            authors=tuple(merged.get("authors", ())),
            library=(),
        )
        if not (profile.interests or profile.keywords or "library" in merged or merged.get("like")):
            raise self.fail(
                key, "says nothing about its interests: set interests, keywords, library or like"
            )
        threshold = merged.get("alert_threshold")
        return Subscriber(
            name=name,
            profile=profile,
            channels=channels,
            top_k=merged["top_k"],
            min_score=float(merged["min_score"]),
            schedule=merged["schedule"],
            timezone=tz,
            alert_threshold=None if threshold is None else float(threshold),
            library_path=merged.get("library", ""),
            likes=tuple(x.strip() for x in merged.get("like", ())),
            alert_keywords=tuple(merged.get("alert_keywords", ())),
            max_alerts_per_day=merged.get("max_alerts_per_day", 5),
            on_empty=merged.get("on_empty", "skip"),
        )

    def channels(self, raw: Any, key: str) -> tuple[ChannelConfig, ...]:
        if not isinstance(raw, list) or not raw:
            raise self.fail(key, "must be a non-empty list of tables ([[subscribers.channels]])")
        out: list[ChannelConfig] = []
        for i, item in enumerate(raw):
            where = f"{key}[{i}]"
            table = self.table(item, where)
            kind = self.kind(table, where, CHANNEL_KINDS, "channel")
            options = self.options(table, where, CHANNEL_KINDS[kind], extra=CHANNEL_KEYS)
            self.channel(kind, options, where)
            count = sum(1 for c in out if c.kind == kind)
            out.append(ChannelConfig(kind, kind if count == 0 else f"{kind}-{count + 1}", options))
        return tuple(out)

    def schedule(self, expr: str, key: str, tz: str) -> None:
        try:
            _check_crontab(expr, tz)
        except ValueError as exc:
            raise self.fail(
                key, f"not a crontab expression ({exc}); e.g. '0 8 * * mon-fri' is 8:00 on weekdays"
            ) from None


@functools.cache
def _check_crontab(expr: str, tz: str) -> None:
    """Raises ValueError for a bad expression. Cached: thousands of subscribers share a few."""
    from apscheduler.triggers.cron import CronTrigger

    CronTrigger.from_crontab(expr, timezone=tz)
