"""Addresses of network sources: which a source may ask (its config's `url`, a redirect's
target), and how messages show them (no query, no credentials, one line)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from digest.models.characters import C0, C1

_CONTROL = re.compile(f"[{C0}{C1}]")
# RFC 3986's own pattern, less query and fragment: (scheme and //)(netloc)(path).
_PARTS = re.compile(r"((?:[^:/?#]+:)?//)?([^/?#]*)([^?#]*)")


def check_options(options: Mapping[str, Any]) -> tuple[str, str] | None:
    """(key, problem) for a bad `url`, `timeout` or `retries` of a network source, else None."""
    if "url" in options and (problem := url_problem(str(options["url"]))):
        return "url", problem
    return check_range(options, {"timeout": (0.001, 3600), "retries": (0, 10)})


def url_problem(url: str) -> str | None:
    """What makes `url` no address a source can fetch, else None. It is named as shown() gives
    it (no query, no credentials): a secret's parts stay out of the config's error line."""
    named = f"'{shown(url)}'"
    if _CONTROL.search(url):
        return f"must not hold control characters, not {named}"
    try:
        parts = urlsplit(url)
        port = parts.port  # urlsplit checks the port only when asked for it
    except ValueError as exc:
        return f"is not a valid URL ({exc}): {named}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"must be an http(s) URL, not {named}"
    if any(c.isspace() for c in parts.netloc):
        return f"must not hold a space in its host, not {named}"
    if port == 0:
        return f"must name a port from 1 to 65535, not {named}"
    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        return f"is not a valid URL ({exc}): {named}"
    return None


def check_range(
    options: Mapping[str, Any], ranges: Mapping[str, tuple[float, float]]
) -> tuple[str, str] | None:
    for name, (least, most) in ranges.items():
        if name in options and not least <= options[name] <= most:
            return name, f"must be between {least:g} and {most:g}, not {options[name]!r}"
    return None


def shown(url: str) -> str:
    """The address as messages show it: no query string, no credentials, on one line."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:  # an IPv6 address keeps its brackets
            host = f"[{host}]"
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        return printable(urlunsplit((parts.scheme, host, parts.path, "", "")))
    except ValueError:  # a port out of range, a broken IPv6 bracket: cut it by hand
        found = _PARTS.match(url)
        assert found is not None  # every part is optional: any text matches
        start, netloc, path = found.groups(default="")
        return printable(start + netloc.rpartition("@")[2] + path)


def origin(url: str) -> str:
    """scheme://host[:port] of an address, without its credentials (user:password@), path,
    query or fragment: a base for links that reach readers. '' when it has no host."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not parts.scheme or not host:
        return ""
    if ":" in host:  # an IPv6 address keeps its brackets
        host = f"[{host}]"
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}"


def printable(text: str) -> str:
    """Text for a one-line message: control characters written as escapes."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def internal(host: str) -> bool:
    """Is the host an address of a private network, this machine, a link or no one (10.0.0.0/8,
    127.0.0.1, 169.254.0.0/16, ::1, fc00::/7...), or localhost? Names are not looked up."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return not address.is_global or address.is_multicast


def led(final: str, where: str) -> str:
    """ "redirected to <final>, " when the answer came from the address that `where` redirected
    to, else "": a moved feed's 404 had named only the address asked, whose server had answered
    a 301 (feeds24 F7)."""
    to = shown(final)
    return "" if to == where else f"redirected to {to}, "
