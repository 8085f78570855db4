"""Checks of the two tables that point outside digest: [smtp] (the relay, its host, port and CA
file, loaded as a run loads it) and [web] (the face's address and the secret that signs every
link). Every failure is one line, and never shows a secret."""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

from digest.config.checks import (
    EXAMPLE_VALUES,
    INT,
    LOOPBACK,
    SMTP_KEYS,
    STR,
    WEB_KEYS,
    Checks,
    is_file,
    unsafe,
)

SMTP_PORTS = {"tls": 465, "starttls": 587, "none": 25}  # security -> its usual port
MIN_SECRET = 16  # characters of [web].secret: it signs every link
# Different characters of it: 16 spaces had passed. 16 random hex digits hold fewer about once
# in 30,000 draws, `openssl rand -hex 32` never.
MIN_KINDS = 6
MAKE_SECRET = "make one with `openssl rand -hex 32` and keep it in .env"


class ServiceChecks(Checks):
    """[smtp] and [web], beside the checker's vocabulary (loader._Checker adds the rest)."""

    def smtp(self, smtp: dict[str, Any], needed: bool) -> dict[str, Any]:
        for name in SMTP_KEYS:
            if name in smtp:
                self.typed(smtp[name], INT if name == "port" else STR, f"smtp.{name}")
        self.secrets.update(str(smtp[k]) for k in ("password",) if k in smtp)
        security = smtp.get("security", "tls" if smtp.get("port") == 465 else "starttls")
        if security not in SMTP_PORTS:
            raise self.fail("smtp.security", "must be 'tls' (465), 'starttls' (587) or 'none'")
        port = smtp.get("port", SMTP_PORTS[security])
        host = str(smtp.get("host", ""))
        if unsafe(host) or "@" in host or "/" in host:  # user:password@, a URL: shown in errors
            raise self.fail(
                "smtp.host",
                "must be a host name or address (no scheme, user, password, / or space; the port"
                " goes in [smtp].port)",
            )
        if problem := _host_with_port(host):  # delivery had tried "host:19721:587" until dead
            raise self.fail("smtp.host", problem)
        if not 0 < port < 65536:
            raise self.fail("smtp.port", "must be a port number, 1 to 65535")
        if smtp.get("username") and not smtp.get("password"):
            raise self.fail("smtp.password", "missing; a username needs it")
        if security == "none" and smtp.get("password"):
            raise self.fail("smtp.password", "is never sent unencrypted: use security 'starttls'")
        if security == "none" and not _off_the_internet(host):
            raise self.fail(
                "smtp.security",
                "'none' is only for a relay on this machine or a private network (127.0.0.1, a"
                " private address, a one-word host such as compose's 'postfix', *.internal):"
                " every mail's rating, archive and unsubscribe links would cross the internet in"
                " clear; use 'starttls' or 'tls'",
            )
        if smtp.get("ca_file"):
            smtp = {**smtp, "ca_file": self.path(smtp["ca_file"], "smtp.ca_file")}
            if not is_file(smtp["ca_file"]):
                raise self.fail("smtp.ca_file", f"no such file {smtp['ca_file']!r}")
            if problem := _unloadable_ca(smtp["ca_file"]):
                raise self.fail("smtp.ca_file", f"{smtp['ca_file']!r}: {problem}")
        for name in ("host", "from") if needed else ():
            if not str(smtp.get(name, "")).strip():
                raise self.fail(f"smtp.{name}", "missing; the email channel needs it")
        if "from" in smtp:
            self.address(smtp["from"], "smtp.from")
        return {**smtp, "security": security, "port": port} if smtp or needed else {}

    def web(self, web: dict[str, Any]) -> dict[str, Any]:
        """[web]: base_url (https://, http:// only on loopback), listen host:port, secret."""
        if not web:
            return {}
        self.only(web, WEB_KEYS, "web")
        for name in ("base_url", "secret"):
            if name not in web:
                raise self.fail(f"web.{name}", "missing; the web face needs it (a string)")
        for name, value in web.items():
            if name in WEB_KEYS:  # an unknown key is already a line of its own
                self.typed(value, STR, f"web.{name}")
        self.web_url(web["base_url"], "web.base_url")
        if urlsplit(web["base_url"]).query or "#" in web["base_url"]:
            raise self.fail("web.base_url", "must be a plain URL, no ?query or #fragment")
        if "@" in urlsplit(web["base_url"]).netloc:  # it goes into every link of every digest
            raise self.fail("web.base_url", "must not hold a user or password")
        self.secrets.add(web["secret"])
        self.web_secret(web["secret"])
        listen = web.get("listen", "127.0.0.1:8080")
        host, _, port = listen.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536 or not _listenable(host):
            raise self.fail("web.listen", "must be host:port, e.g. '127.0.0.1:8080'")
        return {**web, "base_url": web["base_url"].rstrip("/"), "listen": listen}

    def web_secret(self, secret: str) -> None:
        """A secret that signs links: not blank, not a public example, long and varied enough.
        Never quoted: the line says what is wrong, not the value."""
        if not secret.strip():
            raise self.fail("web.secret", f"is blank; {MAKE_SECRET}")
        if secret.strip() in EXAMPLE_VALUES:
            raise self.fail(
                "web.secret",
                f"is the placeholder of config/.env.example, which anyone can read; {MAKE_SECRET}",
            )
        if len(secret) < MIN_SECRET:
            raise self.fail(
                "web.secret", f"must be at least {MIN_SECRET} characters; {MAKE_SECRET}"
            )
        if len(set(secret)) < MIN_KINDS:
            raise self.fail(
                "web.secret",
                f"has fewer than {MIN_KINDS} different characters, so it is no random secret; "
                f"{MAKE_SECRET}",
            )


def _host_with_port(host: str) -> str:
    """Why an [smtp] host that holds a port (or brackets) is none, or "": an IP address, IPv6
    too (::1), is a host."""
    try:
        ipaddress.ip_address(host)
        return ""
    except ValueError:
        pass
    if ":" not in host and "[" not in host and "]" not in host:
        return ""
    port = host.rpartition(":")[2]
    given = f" (port = {int(port)})" if port.isascii() and port.isdigit() and len(port) < 6 else ""
    return (
        "must be the host alone, with no :port (an IPv6 address without brackets, as ::1); the "
        f"port goes in [smtp].port{given}"
    )


def _off_the_internet(host: str) -> bool:
    """Whether a relay at `host` is on this machine or a private network (no host given:
    localhost, the default): a relay in the same compose project ("postfix"), the docker host
    (172.17.0.1, host.docker.internal) had been refused `security = "none"`, every run with it."""
    name = host.lower().rstrip(".").strip("[]")
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        try:  # the short forms a resolver takes: "127.1", "10.1"
            address = ipaddress.ip_address(socket.inet_aton(name))
        except OSError:  # a name: no dot (a compose service), or a private zone's
            return not name or name in LOOPBACK or "." not in name or name.endswith(_PRIVATE)
    return address.is_loopback or address.is_private or address.is_link_local


# RFC 6761 and 6762, RFC 8375, and the names container platforms give the host and services.
_PRIVATE = (".localhost", ".local", ".localdomain", ".internal", ".lan", ".home.arpa")


def _unloadable_ca(path: str) -> str:
    """Why ssl cannot load a CA file as a run does, or "": a DER .crt or any other text had
    passed validate, and the e-mail died on its first try blaming [smtp].security."""
    try:
        ssl.create_default_context(cafile=path)
    except ssl.SSLError as exc:
        return (
            f"not a PEM certificate bundle ({exc.reason or exc}); a DER .crt converts with "
            "`openssl x509 -inform der -in ca.crt -out ca.pem`"
        )
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    return ""


def _listenable(host: str) -> bool:
    """An IP address ([::1] too) or a host name; not "999.1.1.1", which `digest web` could only
    fail on ("Unknown error -2") after validate had said OK."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare)
        return True
    except ValueError:
        return bool(re.fullmatch(r"[A-Za-z0-9.-]+", bare)) and not re.fullmatch(r"[\d.]+", bare)
