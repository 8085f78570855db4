"""Which encoding a feed's bytes are in, where the feed and its server disagree or a publisher's
tool slipped: a stray Windows-1252 byte in a UTF-8 feed, a Chinese feed's own declaration against
a server's default Latin-1 header; and a body still compressed though no Content-Encoding said
so (a feed.xml.gz served as it lies). feedparser reads the result."""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping

# Compressed bodies by their first bytes; no XML document starts so (it starts with "<", a byte
# order mark or a blank: 0x1F is a control character XML forbids).
_PACKED = {
    b"\x1f\x8b": "gzip", b"\x1f\x9d": "compress", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz",
    b"\x28\xb5\x2f\xfd": "zstd", b"PK\x03\x04": "zip",
}  # fmt: skip


class Packed(ValueError):
    """A compressed body that cannot be read: its words say why, for the source's one line."""


def unpacked(body: bytes, most: int) -> tuple[bytes, str]:
    """(the body, why it stops short or ""), a gzip body unpacked: a pre-compressed feed.xml.gz
    served with no Content-Encoding, or gzipped once more on the way. Read as it came, its bytes
    were "not UTF-8 read as Windows-1252", then "not well-formed". At most `most` bytes come out
    (the client's cap on an answer, so a small gzip bomb fails here as there); another packing,
    or gzip within gzip, is Packed."""
    packing = next((name for magic, name in _PACKED.items() if body.startswith(magic)), "")
    if packing != "gzip":
        if packing:
            raise Packed(f"{packing}-compressed, with no Content-Encoding saying so: not read")
        return body, ""
    out: list[bytes] = []
    size, rest = 0, body
    while rest.startswith(b"\x1f\x8b"):  # a gzip file may hold several members, one after another
        unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out.append(unpacker.decompress(rest, most - size + 1))
        except zlib.error as exc:
            raise Packed(f"gzip-compressed, and broken ({exc})") from None
        size += len(out[-1])
        if size > most:
            raise Packed(f"gzip-compressed, and larger than {_size(most)} unpacked: abandoned")
        if not unpacker.eof:
            return b"".join(out), "its gzip stream stops before its end"
        rest = unpacker.unused_data
    text = b"".join(out)
    if text.startswith(tuple(_PACKED)):
        raise Packed("compressed twice: refused, as a compression bomb")
    return text, ""


def _size(most: int) -> str:
    return f"{most / 2**20:g} MiB" if most >= 2**20 else f"{most} bytes"


# The encoding an XML declaration names, in its first bytes.
_DECLARED = re.compile(rb"^\s*<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([A-Za-z0-9._-]{1,40})[\"']")
_CHARSET = re.compile(r";\s*charset\s*=\s*[\"']?([A-Za-z0-9._-]+)", re.IGNORECASE)
# Charsets a server sends when nobody set one (Apache's AddDefaultCharset, a framework's
# default): a document that declares another, and reads cleanly in it, is in that one.
_DEFAULTS = {"iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii", "windows-1252", "cp1252"}
_UTF8 = {"utf-8", "utf8"}
_ESCAPED = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape keeps it


def declared(body: bytes) -> str:
    """The encoding the document's XML declaration names ("" if none), lower case."""
    found = _DECLARED.match(body[:300])
    return found[1].decode("ascii").lower() if found else ""


def charset(headers: Mapping[str, str]) -> str:
    """The charset the Content-Type header names ("" if none), lower case."""
    kind = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    found = _CHARSET.search(kind)
    return found[1].lower() if found else ""


def settled(body: bytes, headers: Mapping[str, str]) -> tuple[bytes, dict[str, str], int]:
    """(the body, the headers to read it with, how many bytes were not UTF-8): a server's
    default charset gives way to the document's own declaration when the bytes read cleanly in
    that; a UTF-8 document's bytes that are not UTF-8 are read as Windows-1252, each alone (read
    as one document, every accented letter of every item had become two)."""
    headers = dict(headers)
    if body.startswith((b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"<\x00", b"\x00<")):
        return body, headers, 0  # a byte order mark says it all; UTF-16 without one is no UTF-8
    own, served = declared(body), charset(headers)
    if served in _DEFAULTS and own and own != served and (own in _UTF8 or _reads(body, own)):
        key = next(k for k in headers if k.lower() == "content-type")
        headers[key] = _CHARSET.sub("", headers[key])
        served = ""
    if (own and own not in _UTF8) or (served and served not in _UTF8):
        return body, headers, 0
    text = body.decode("utf-8", errors="surrogateescape")
    bad = len(_ESCAPED.findall(text))
    if not bad:
        return body, headers, 0
    text = _ESCAPED.sub(lambda m: bytes([ord(m[0]) - 0xDC00]).decode("cp1252", "replace"), text)
    return text.encode("utf-8"), headers, bad


def _reads(body: bytes, encoding: str) -> bool:
    try:
        body.decode(encoding)
    except (LookupError, UnicodeDecodeError):
        return False
    return True
