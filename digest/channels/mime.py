"""A digest as an e-mail message: multipart/alternative (text, then HTML), 7-bit CRLF lines, and
header fields that untrusted text (a title in a subject) can neither break nor add to."""

from __future__ import annotations

import binascii
import re
import secrets
from email.header import Header
from email.utils import formataddr
from urllib.parse import quote

from digest.models.characters import BIDI, C0, C1, SEPARATORS

CRLF = "\r\n"
# Controls (C0, DEL, C1) and line separators: a CR or LF in a header would start one of its own.
_CONTROLS = re.compile(f"[{C0}{C1}{SEPARATORS}]")
# Bidi embeddings, overrides and isolates: in a subject they would turn the rest of it around.
_BIDI = re.compile(f"[{BIDI}]")
# scheme://authority, then the rest (path, query, fragment) of a URI
_AUTHORITY = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)(.*)", re.DOTALL)
# A plain word longer than this is sent as encoded words, which can be folded anywhere.
_LONGEST_WORD = 60
# email.header's line length for encoded words: its 76 made words of 76 and 77 characters once
# folded (it does not count the folding space), where RFC 2047 allows 75.
_WORD = 74


def mime(headers: list[tuple[str, str]], text: str, html: str) -> bytes:
    """A multipart/alternative message (text, then HTML) with these headers, CRLF line ends and
    only 7-bit lines of at most 998 characters. The Subject is untrusted text: see _header."""
    parts = [_body(text), _body(html)]
    boundary = "=_" + secrets.token_hex(12)  # "=_" never occurs in quoted-printable text
    while any(boundary.encode() in body for _, body in parts):
        boundary = "=_" + secrets.token_hex(12)
    head = "".join(_header(k, v, text=k == "Subject") for k, v in headers)
    head += f'MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="{boundary}"'
    out = [head.encode("ascii"), b"\r\n\r\n"]
    for subtype, (cte, body) in zip(("plain", "html"), parts, strict=True):
        out.append(
            f'--{boundary}\r\nContent-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: {cte}\r\n\r\n".encode("ascii")
        )
        out += [body, b"\r\n"]  # the line break before a boundary belongs to the boundary
    out.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(out)


def address(name: str, addr: str) -> str:
    """`name <addr>` for From or To: a name beyond ASCII as RFC 2047 words of at most 75
    characters, which _header folds between (formataddr makes one word of any length: a long
    name made a header line past 998 characters)."""
    name = header_value(name)
    if not name or name.isascii():
        return formataddr((name, addr))
    return f"{Header(name, 'utf-8', _WORD).encode(linesep=' ')} <{addr}>"


def ascii_uri(uri: str) -> str:
    """A URI for a structured header (List-Unsubscribe) in ASCII, as RFC 3986 and 6068 write
    it and a browser sends an IRI: its host as IDNA, any other character beyond ASCII as
    percent-encoded UTF-8. RFC 2047 words are not allowed there, and no client read them."""
    if uri.isascii():
        return uri
    if uri[:7].lower() == "mailto:":  # mailto:local@host,other@host?subject=...
        to, mark, query = uri[7:].partition("?")
        return uri[:7] + ",".join(map(_ascii_address, to.split(","))) + mark + _percent(query)
    found = _AUTHORITY.fullmatch(uri)
    if not found:
        return _percent(uri)
    scheme, authority, rest = found.groups()
    userinfo, at, host_port = authority.rpartition("@")
    host, colon, port = host_port.partition(":")  # beyond ASCII: a name, never [IPv6]
    return f"{scheme}{_percent(userinfo)}{at}{_ascii_host(host)}{colon}{port}{_percent(rest)}"


def _ascii_address(address: str) -> str:
    local, at, host = address.rpartition("@")
    return f"{_percent(local)}{at}{_ascii_host(host)}" if at else _percent(address)


def _ascii_host(host: str) -> str:
    """IDNA of a host name beyond ASCII (exämple.org: xn--exmple-cua.org); one IDNA cannot
    encode, percent-encoded (RFC 3986 3.2.2 allows it)."""
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return _percent(host)


def _percent(text: str) -> str:
    """Each character beyond ASCII as percent-encoded UTF-8; ASCII as it is."""
    return "".join(c if c.isascii() else quote(c, safe="", errors="surrogatepass") for c in text)


def header_value(value: str) -> str:
    """A header value on one line: controls and line breaks become spaces, bidi controls go."""
    return " ".join(_BIDI.sub("", _CONTROLS.sub(" ", value)).split())


def _header(name: str, value: str, text: bool = False) -> str:
    """One header field, folded at spaces under 78 characters a line where it can be; RFC 2047
    words for text beyond ASCII. In free `text` (a subject holding a title) a literal "=?" would
    be decoded by the reader as an encoded word of the sender's (one that may hold a CRLF), and a
    long word could not be folded: such text is encoded, whatever it holds."""
    value = header_value(value)
    words = value.split(" ")
    if not value.isascii() or (text and ("=?" in value or max(map(len, words)) > _LONGEST_WORD)):
        encoded = Header(value, "utf-8", _WORD, header_name=name).encode(linesep=CRLF)
        return f"{name}: {encoded}\r\n"
    lines = [f"{name}:"]
    for word in words:
        if len(lines[-1]) + 1 + len(word) > 78 and lines[-1] != f"{name}:":
            lines.append("")
        lines[-1] += " " + word
    return "\r\n".join(lines) + "\r\n"


def _body(text: str) -> tuple[str, bytes]:
    """(transfer encoding, CRLF lines) of a text part: 7bit when it is short-lined ASCII, else
    quoted-printable (binascii's, in C), so that any relay takes it, SMTPUTF8 or not."""
    raw = text.encode("utf-8")
    lines = raw.splitlines()
    if raw.isascii() and all(len(line) <= 998 for line in lines):
        return "7bit", b"\r\n".join(lines) + b"\r\n"
    return "quoted-printable", b"\r\n".join(
        binascii.b2a_qp(raw, istext=True).splitlines()
    ) + b"\r\n"
