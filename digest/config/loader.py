"""The config file: TOML plus `.env` plus ${VAR} substitution, checked key by key into Settings.

Checks the file against its schema (schema.py); each error is one line naming the file, the key
path and what is allowed.
"""

from __future__ import annotations

import functools
import os
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from digest.config import crontab
from digest.config.checks import SMTP_KEYS, STR, is_folder
from digest.config.environment import config_text, environment, substitute, variables
from digest.config.schema import (
    BUILTIN_DEFAULTS,
    CHANNEL_KEYS,
    CHANNEL_KINDS,
    DEFAULTS_KEYS,
    DELIVERY_KEYS,
    SERVE_KEYS,
    SERVE_SECONDS,
    SOURCE_KEYS,
    SOURCE_KINDS,
    STATE_KEYS,
    SUBSCRIBER_KEYS,
    SUBSCRIBER_RANGES,
    TOP_KEYS,
    WORD_LISTS,
)
from digest.config.schema import accepted_keys as accepted_keys  # its old home, kept
from digest.config.services import ServiceChecks
from digest.models import (
    ChannelConfig,
    ConfigError,
    Profile,
    Settings,
    SourceConfig,
    Subscriber,
    safe_name,
)
from digest.models.credentials import url_credentials
from digest.models.errors import (
    POSTGRES_SCHEMES,
    ConfigErrors,
    is_url,
    postgres_secrets,
    postgres_url,
    state_location,
)


def load(path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> Settings:
    """Read, substitute and check a config file; raise ConfigError with one line on any problem."""
    file = Path(path)
    try:
        raw = tomllib.loads(config_text(file))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read config file ({exc})") from None
    except ValueError as exc:  # TOMLDecodeError; an integer of more than 4,300 digits
        raise ConfigError(f"{file}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{file}: not valid TOML: arrays or tables nested too deeply") from None
    secrets: set[str] = set()
    try:
        env = environment(file, environ, variables(raw))
        unset: list[str] = []
        data = substitute(raw, env, str(file), "", secrets, unset)
    except RecursionError:
        raise ConfigError(f"{file}: arrays or tables nested too deeply") from None
    if unset:  # the checks would only repeat them as empty values
        raise ConfigErrors(unset)
    checker = _Checker(str(file))
    try:
        return checker.settings(data, frozenset(secrets))
    except ConfigError as exc:
        # A check may quote a value that is also a secret (one ${VAR} for a password and a
        # `from`): blotted here, before the log's redactor knows any secret. Only as quoted, so
        # that a short test secret cannot blot the file's path in every message.
        known = [v for v in secrets | checker.secrets if v]
        problems = exc.problems if isinstance(exc, ConfigErrors) else (str(exc),)
        quoted = [functools.reduce(_unquote_secret, known, p) for p in problems]
        raise (
            ConfigErrors(quoted) if isinstance(exc, ConfigErrors) else ConfigError(quoted[0])
        ) from None


def _unquote_secret(problem: str, secret: str) -> str:
    return problem.replace(repr(secret), "'[redacted]'")


class _Checker(ServiceChecks):
    def settings(self, data: dict[str, Any], secrets: frozenset[str]) -> Settings:
        """Settings, or ConfigErrors with every problem found: each part is checked even when
        another failed (a part that depends on a failed one is left out, never guessed)."""
        self.only(data, TOP_KEYS, "")
        tables: dict[str, dict[str, Any]] = {}
        for name in ("defaults", "state", "smtp", "delivery", "serve", "web"):
            tables[name] = {}
            with self.gather():
                tables[name] = self.table(data.get(name, {}), name)
        defaults = tables["defaults"]
        self.only(defaults, DEFAULTS_KEYS, "defaults")
        state = tables["state"]
        self.only(state, STATE_KEYS, "state")
        state_path = self.path("state/digest.db", "state.path")
        with self.gather():
            state_path = self.state(state)
        self.only(tables["smtp"], SMTP_KEYS, "smtp")
        # No `templates` key: the built-in set; a folder given here overrides them one by one.
        templates = ""
        with self.gather():
            templates = self.typed(data.get("templates", ""), STR, "templates")
            templates = self.path(templates, "templates") if templates else ""
            if templates and not is_folder(templates):
                raise self.fail(
                    "templates",
                    f"no such folder {templates!r} (relative paths start from the config "
                    "file's folder)",
                )
        sources: list[SourceConfig] = []
        with self.gather():
            for i, raw in enumerate(self.array(data, "sources")):
                with self.gather():
                    source = self.source(raw, f"sources[{i}]")
                    if source.name in {s.name for s in sources}:
                        raise self.fail(
                            f"sources[{i}].name",
                            f"duplicate source name {source.name!r}; give each source its own "
                            "`name`",
                        )
                    sources.append(source)
        subscribers: list[Subscriber] = []
        names: set[str] = set()  # a set, not a scan: 10,000 subscribers made the scan 6 s
        with self.gather():
            for i, raw in enumerate(self.array(data, "subscribers")):
                with self.gather():
                    sub = self.subscriber(raw, defaults, f"subscribers[{i}]")
                    # "José" typed (NFC) or pasted from a Mac (NFD) is one name to a reader.
                    seen = unicodedata.normalize("NFC", sub.name)
                    if seen in names:
                        raise self.fail(f"subscribers.{sub.name}", "duplicate subscriber name")
                    subscribers.append(sub)
                    names.add(seen)
        mailing = any(c.kind == "email" for sub in subscribers for c in sub.channels)
        smtp: dict[str, Any] = {}
        with self.gather():
            smtp = self.smtp(tables["smtp"], mailing)
        delivery = tables["delivery"]
        self.only(delivery, set(DELIVERY_KEYS), "delivery")
        for name, (what, least, most) in DELIVERY_KEYS.items():
            if name in delivery:
                with self.gather():
                    value = self.typed(delivery[name], what, f"delivery.{name}")
                    self.within(value, least, most, f"delivery.{name}")
        serve = tables["serve"]
        self.only(serve, set(SERVE_KEYS), "serve")
        every = {k: float(v) for k, v in SERVE_SECONDS.items()}
        for k, v in SERVE_KEYS.items():
            with self.gather():
                every[k] = self.duration(serve.get(k, v), f"serve.{k}")
        web: dict[str, Any] = {}
        with self.gather():
            if "web" in data and not tables["web"]:  # [web] written, nothing in it
                raise self.fail("web", "is empty: give base_url and secret, or leave [web] out")
            web = self.web(tables["web"])
        # With a [web] written but broken, its own lines say so: "needs a [web] table" was false.
        for sub in subscribers if "web" not in data else ():
            for i, channel in enumerate(sub.channels):
                if channel.options.get("signing_secret"):
                    self.errors.append(
                        str(
                            self.fail(
                                f"subscribers.{sub.name}.channels[{i}].signing_secret",
                                "needs a [web] table (base_url, secret): Slack posts the clicks "
                                "there",
                            )
                        )
                    )
        self.shared_files(subscribers)
        self.done()
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

    def shared_files(self, subscribers: list[Subscriber]) -> None:
        """Two subscribers whose names make one file name in one folder ("a/b" and "a_b", or "Ana"
        and "ana" where case is ignored) would overwrite each other's digests."""
        owner: dict[tuple[str, str], str] = {}
        for sub in subscribers:
            for i, channel in enumerate(sub.channels):
                if channel.kind != "file":
                    continue
                # Absolute: a relative --config gave one channel a relative dir, another not.
                folder = os.path.abspath(str(channel.options["dir"]))
                key = (folder, safe_name(sub.name).casefold())
                other = owner.setdefault(key, sub.name)
                if other != sub.name:
                    problem = (
                        f"writes the same files as subscriber {other!r} "
                        f"({safe_name(sub.name)}.eml in {channel.options['dir']}); rename one or"
                        " give it a dir"
                    )
                    self.errors.append(
                        str(self.fail(f"subscribers.{sub.name}.channels[{i}]", problem))
                    )

    def state(self, state: dict[str, Any]) -> str:
        """[state]: `path` an SQLite file, or `url` a PostgreSQL database (its password, as libpq
        reads it, a secret; a URL without one is none); not both."""
        if "url" in state:
            if "path" in state:
                raise self.fail("state.url", "give [state].url or [state].path, not both")
            url = str(self.typed(state["url"], STR, "state.url"))
            try:
                url = state_location(url)
            except ValueError:
                url = ""
            if not url.startswith(POSTGRES_SCHEMES):
                raise self.fail("state.url", "must be a postgresql:// URL")
            self.secrets.update(postgres_secrets(url))
            # An unclosed [, or an '@' libpq would misread (part of a password would show).
            if problem := postgres_url(url).problem:
                raise self.fail("state.url", f"is not a valid postgresql:// URL: {problem}")
            return url
        path = str(self.typed(state.get("path", "state/digest.db"), STR, "state.path"))
        if not path.strip():
            raise self.fail("state.path", "must name a file (leave it out for state/digest.db)")
        if is_url(path):  # an SQLite file named after the URL, its password in a folder's name
            raise self.fail("state.path", "must name a file: a postgresql:// URL is [state].url")
        return self.path(path, "state.path")

    def source(self, raw: Any, key: str) -> SourceConfig:
        table = self.table(raw, key)
        kind = self.kind(table, key, SOURCE_KINDS, "source")
        options = self.options(table, key, SOURCE_KINDS[kind], extra=SOURCE_KEYS)
        # An unnamed source is called by its path as written ("seeds"), else by its kind
        # ("arxiv"): the name keys the source's journal, so it never changes with the folder.
        default = str(options.get("path", kind))
        name = self.typed(table.get("name", default), STR, f"{key}.name")
        if "path" in options:
            options["path"] = self.path(options["path"], f"{key}.path")
        # A feed's token or password written in the file is as secret as one from .env.
        self.secrets.update(url_credentials(str(options.get("url", ""))))
        return SourceConfig(kind=kind, name=name, options=options)

    def subscriber(self, raw: Any, defaults: dict[str, Any], key: str) -> Subscriber:
        table = self.table(raw, key)
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.fail(f"{key}.name", "every subscriber needs a name (a non-empty string)")
        if any(unicodedata.category(c) == "Cc" for c in name):  # a NUL no command line can type
            raise self.fail(f"{key}.name", "must not hold control characters")
        key = f"subscribers.{name}"
        before = len(self.errors)
        self.only(table, set(SUBSCRIBER_KEYS), key)
        merged = {**BUILTIN_DEFAULTS, **defaults, **table}

        def where(k: str) -> str:  # an inherited value is reported where it was written
            return f"{key}.{k}" if k in table else f"defaults.{k}"

        for k, v in merged.items():
            if k != "channels" and k in SUBSCRIBER_KEYS:
                with self.gather():
                    self.typed(v, SUBSCRIBER_KEYS[k], where(k))
        self.settle(before)  # the checks below need the right types
        tz = merged["timezone"]
        with self.gather():
            try:
                ZoneInfo(tz)
            except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: too long for a path
                raise self.fail(
                    where("timezone"),
                    f"unknown time zone {tz!r} (use an IANA name such as 'Europe/Berlin' or 'UTC')",
                ) from None
            self.schedule(merged["schedule"], where("schedule"), tz)
        for k, (least, most) in SUBSCRIBER_RANGES.items():
            if k in merged:
                with self.gather():
                    self.within(merged[k], least, most, where(k))
        for k in WORD_LISTS:
            for i in [i for i, w in enumerate(merged.get(k, ())) if not w.strip()]:
                with self.gather():  # dropped, it shifted every later entry's number
                    raise self.fail(f"{where(k)}[{i}]", "is empty")
        with self.gather():
            if merged.get("on_empty", "skip") not in ("skip", "notify"):
                raise self.fail(where("on_empty"), "must be 'skip' or 'notify'")
        channels: tuple[ChannelConfig, ...] = ()
        with self.gather():
            channels = self.channels(merged["channels"], where("channels"))
        profile = Profile(
            interests=merged.get("interests", "").strip(),
            keywords=tuple(merged.get("keywords", ())),
            exclude=tuple(merged.get("exclude", ())),
            authors=tuple(merged.get("authors", ())),
            library=(),
        )
        library = str(merged.get("library", "")).strip()
        if not (profile.interests or profile.keywords or library or merged.get("like")):
            raise self.fail(
                key, "says nothing about its interests: set interests, keywords, library or like"
            )
        self.settle(before)
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
            library_path=self.path(library, where("library")) if library else "",
            likes=tuple(x.strip() for x in merged.get("like", ())),
            alert_keywords=tuple(merged.get("alert_keywords", ())),
            max_alerts_per_day=merged.get("max_alerts_per_day", 5),
            on_empty=merged.get("on_empty", "skip"),
        )

    def channels(self, raw: Any, key: str) -> tuple[ChannelConfig, ...]:
        if not isinstance(raw, list) or not raw:
            raise self.fail(key, "must be a non-empty list of tables ([[subscribers.channels]])")
        before = len(self.errors)
        out: list[ChannelConfig] = []
        for i, item in enumerate(raw):
            where = f"{key}[{i}]"
            with self.gather():
                table = self.table(item, where)
                kind = self.kind(table, where, CHANNEL_KINDS, "channel")
                options = self.options(table, where, CHANNEL_KINDS[kind], extra=CHANNEL_KEYS)
                for name, (_, required) in CHANNEL_KINDS[kind].items():
                    value = options.get(name)
                    if required and (value == [] or str(value).strip() == ""):
                        # to = [], or a ${VAR} set to nothing: the digest would die at delivery
                        raise self.fail(f"{where}.{name}", f"is empty; {kind} needs it")
                self.channel(kind, options, where)
                if kind == "file":  # written or not, the folder is the config's: out/ beside it
                    options["dir"] = self.path(options.get("dir", "out"), f"{where}.dir")
                count = sum(1 for c in out if c.kind == kind)
                out.append(
                    ChannelConfig(
                        kind, kind if count == 0 else f"{kind}-{count + 1}", options, where
                    )
                )
        self.settle(before)
        return tuple(out)

    def schedule(self, expr: str, key: str, tz: str) -> None:
        try:
            crontab.check(expr, tz)
        except ValueError as exc:
            raise self.fail(
                key, f"not a crontab expression ({exc}); e.g. '0 8 * * mon-fri' is 8:00 on weekdays"
            ) from None
