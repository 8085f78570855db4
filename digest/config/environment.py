"""The config file's text, and what its ${VAR}s stand for: .env files and the process
environment, and the substitution that remembers which values went into secret keys (for
redaction)."""

from __future__ import annotations

import codecs
import io
import logging
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dotenv import dotenv_values
from dotenv.parser import parse_stream

from digest.config.checks import SECRET_KEYS, config_folder
from digest.models import ConfigError
from digest.models.errors import postgres_secrets

log = logging.getLogger(__name__)

MAX_CONFIG = 4 * 2**20  # bytes: a config of thousands of subscribers is a few hundred KiB


def config_text(file: Path) -> str:
    """The config's text: UTF-8, with or without the BOM Windows editors write; else a
    ConfigError naming the line of the first byte that is not."""
    # Read up to a bound: /dev/zero named as the config was read without end. A pipe is a config
    # (`--config <(envsubst < digest.toml)`, /dev/stdin); a folder or a socket is not.
    mode = file.stat().st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise ConfigError(f"{file}: not a regular file; name the config file")
    with file.open("rb") as handle:
        data = handle.read(MAX_CONFIG + 1)
    if len(data) > MAX_CONFIG:
        raise ConfigError(f"{file}: over {MAX_CONFIG // 2**20} MiB: not a config file")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ConfigError(f"{file}: is UTF-16: save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            f"{file}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x}): save the file as UTF-8"
        ) from None


_DOTENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")  # with no ":-default"
_VAR = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# What a shell, compose or systemd would read as a variable but this config does not: $NAME with
# the braces forgotten, and a ${...} whose inside is no name (${SMTP-PASSWORD}, ${}, ${X:-y}).
# $$ comes first, so that "pa$$w0rd" is "pa$w0rd" and holds no $w0rd.
_SHELL_VAR = re.compile(r"\$\$|\$([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_$])|\$\{([^}]*)\}")
# A ${...} a shell would read (${SMTP-PASSWORD}, ${X:-y}), not TeX's math in an interests text:
# ${\cal N}=4$, ${}^{3}$He, ${\rm SU}(N)$ had refused the whole config.
_SHELL_FORM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_:\-=?+.,/@ ]*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WRITE = "write ${%s}, or $$ for a literal $"


def environment(
    file: Path, environ: Mapping[str, str] | None, wanted: Iterable[str] = ()
) -> dict[str, str]:
    """The values ${VAR} may name: the .env beside the config file and in the working folder,
    then the process environment, which wins, so an operator can override one value per run.

    A .env beside the config that cannot be read is an error. One in the working folder only
    when the config's ${VAR}s (`wanted`) may need it: one it names is bound there, or set
    nowhere else. Else it is a warning: cron runs in $HOME, where another tool's .env had
    stopped every command of a config that names no ${VAR} at all. A folder named .env (a
    virtualenv's, often) is an error only when a ${VAR} is set nowhere else, and else says
    nothing."""
    beside, *elsewhere = dotenv_paths(file)
    process = os.environ if environ is None else environ
    needed = set(wanted) - set(process)
    merged: dict[str, str] = {}
    broken: list[tuple[Path, ConfigError]] = []
    for dotenv in (beside, *elsewhere):
        if not os.path.lexists(dotenv):  # a folder or a dangling link is there, and unreadable
            continue
        try:
            merged.update(dotenv_file(dotenv))
        except ConfigError as exc:
            if dotenv == beside and not dotenv.is_dir():
                raise
            broken.append((dotenv, exc))
    merged.update(process)
    for dotenv, problem in broken:
        if needed & (_bound(dotenv) | (needed - set(merged))):
            raise problem
        if not dotenv.is_dir():  # a folder: a virtualenv is often named .env
            log.warning("%s; not read, as %s names no ${VAR} it would give", problem, file)
    return merged


def dotenv_paths(file: Path) -> list[Path]:
    """The .env files a config reads, in order: beside it (for a config from a pipe, in the
    working folder), then in the working folder; one file named two ways is read once."""
    named = [Path(config_folder(file)) / ".env", Path.cwd() / ".env"]
    return list(dict.fromkeys(Path(os.path.abspath(p)) for p in named))


def variables(value: Any) -> set[str]:
    """The names of the ${VAR}s in a config's values ($${X} is none: it is the text "${X}")."""
    if isinstance(value, dict):
        return set().union(*(variables(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(variables(v) for v in value))
    if not isinstance(value, str):
        return set()
    return {m.group(1) for m in _VAR.finditer(value) if m.group(1)}


def _bound(path: Path) -> set[str]:
    """The names a .env's well-formed lines bind, read as far as it can be."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return set()
    return {b.key for b in parse_stream(io.StringIO(text)) if b.key}


def dotenv_file(path: Path) -> dict[str, str]:
    """A .env file's values; a file it cannot read or a line it cannot parse is a ConfigError
    naming the file (and line): python-dotenv would only warn, twice, without the file's name."""
    if problem := _not_a_file(path):
        raise ConfigError(f"{path}: cannot read the .env file ({problem})")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the .env file ({exc})") from None
    if "\x00" in text:  # python-dotenv reads past it, and the values it holds go missing
        raise ConfigError(f"{path}: not a .env file (it holds NUL bytes)")
    known = set(os.environ)
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            raise ConfigError(f"{path}:{binding.original.line}: not a NAME=value line")
        # python-dotenv fills a ${NAME} of a later line, or of none, with "" and says nothing: a
        # webhook had lost its secret part, and validate said OK.
        for name in _DOTENV_REF.findall(binding.value or ""):
            if name not in known:
                raise ConfigError(
                    f"{path}:{binding.original.line}: ${{{name}}} is not set above this line"
                    " (a .env is read from the top) nor in the environment"
                )
        if binding.key:
            known.add(binding.key)
    values = dotenv_values(stream=io.StringIO(text))
    return {k: v for k, v in values.items() if v is not None}


def _not_a_file(path: Path) -> str:
    """Why a .env that is there is no file to read, or "": a secrets mount that is missing left
    a dangling link, a folder took its name; either had been skipped without a word."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:  # there (lexists), so a link to nothing
        return f"a symbolic link to {os.readlink(path)}, which does not exist"
    except OSError:
        return ""  # the read says why
    if stat.S_ISDIR(mode):
        return "it is a folder"
    return "" if stat.S_ISREG(mode) else "not a regular file"


def substitute(
    value: Any,
    env: Mapping[str, str],
    file: str,
    key: str,
    secrets: set[str],
    unset: list[str] | None = None,
) -> Any:
    """The config's values with each ${VAR} replaced ($$ is a $); a value put into a secret key
    goes into `secrets`. A variable that is not set is one line in `unset` (and "" here), so
    that one round names them all; without `unset`, the first raises ConfigError."""
    if isinstance(value, dict):
        return {
            k: substitute(v, env, file, _join(key, k), secrets, unset) for k, v in value.items()
        }
    if isinstance(value, list):
        return [
            substitute(v, env, file, _item(key, i, v), secrets, unset) for i, v in enumerate(value)
        ]
    if not isinstance(value, str) or "$" not in value:
        return value

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return "$"
        if name not in env:
            problem = f"{file}: {key}: ${{{name}}} is not set (in the environment or .env)"
            if unset is None:
                raise ConfigError(problem)
            unset.append(problem)
            return ""
        if key.rsplit(".", 1)[-1] in SECRET_KEYS and env[name]:
            secrets.update(_secret_part(key, env[name]))
        return env[name]

    if problem := shell_variable(value, env, key):
        if unset is None:
            raise ConfigError(f"{file}: {key}: {problem}")
        unset.append(f"{file}: {key}: {problem}")
    return _VAR.sub(replace, value)


def shell_variable(value: str, env: Mapping[str, str], key: str) -> str:
    """Why a value holds a variable written as a shell writes it, or "": a value that is just
    `$NAME`, a `$NAME` whose NAME is set, or a `${...}` that is no name. Taken as text, a
    `[web] secret = "$DIGEST_WEB_SECRET"` had signed links with a key anyone could guess. Any
    other `$` stays a `$` ("costs $5", "pa$w0rd"). A secret key's text is quoted only when it is
    a name that is set: else it may be part of a password."""
    secret = key.rsplit(".", 1)[-1] in SECRET_KEYS
    for match in _SHELL_VAR.finditer(value):
        bare, braced, form = match.group(1), match.group(2), match.group(0)
        # "$_" is a LaTeX subscript (MoS$_{2}$, SLE$_\kappa$), and `_` the shell's last word,
        # set by bash and unset by cron: the config's verdict had been its launcher's.
        if bare not in (None, "_") and (bare in env or form == value.strip()):
            shown = f"{form!r} is" if bare in env or not secret else "holds a $ and a name,"
            name = bare if bare in env or not secret else "NAME"
            return f"{shown} a variable as a shell writes it: {_WRITE % name}"
        shell = braced is not None and (_SHELL_FORM.fullmatch(braced) or form == value.strip())
        if shell and not _NAME.fullmatch(braced or ""):
            shown = "holds a ${...} that" if secret else f"{form!r}"
            return (
                f"{shown} names no variable (letters, digits and _, not first a digit; no"
                f" default or other shell form): {_WRITE % 'NAME'}"
            )
    return ""


def _secret_part(key: str, value: str) -> frozenset[str]:
    """What of a value put into a secret key is secret: all of it, but of a whole state URL
    only its password (a URL without one is no secret, and error lines name the database)."""
    if key == "state.url" and "://" in value:
        return postgres_secrets(value)
    return frozenset([value])


def _item(key: str, i: int, value: Any) -> str:
    """A list item's key path, a subscriber by its name as the checker names it
    (`subscribers.alice.channels[0].webhook`, not `subscribers[0]...`)."""
    name = value.get("name") if isinstance(value, dict) and key == "subscribers" else None
    return f"{key}.{name}" if isinstance(name, str) and name else f"{key}[{i}]"


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name
