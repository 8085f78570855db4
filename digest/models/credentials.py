"""Which values of a web address written in the config are credentials: the password of its
user part, and the query values a name marks (token, key, x-api-key), or a name that may be one
(keys, session) with a value that looks made, not written as a search feed's words are."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from digest.models.errors import BASE64_LEAST


def url_credentials(url: str) -> frozenset[str]:
    """What a web address written in the config holds that is a credential: the password of its
    user part, and the values of its query's keys that name one (token, key, secret, ...)."""
    try:
        parts = urlsplit(url)
        found = {parts.password or ""}
    except ValueError:
        return frozenset()
    for key, value in parse_qsl(parts.query):
        if len(value) >= BASE64_LEAST and _holds_credential(key, value):
            found.add(value)
    return frozenset(v for v in found if v)


def _holds_credential(name: str, value: str) -> bool:
    """Whether a query value is a credential by its name: the name or a run of its words is one
    (key, pass, x-api-key, authKey, userpass, X-Amz-Signature), or a word may be (keys, sortKey,
    session, auth) and the value looks made, as a search feed's ?keys=CRISPR does not."""
    split = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    words = [w for w in re.split(r"[^a-z0-9]+", split) if w]
    joined = "".join(words)
    runs = {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}
    if joined == "key" or any(r in _CREDENTIAL_NAMES or _OWNED.fullmatch(r) for r in runs):
        return True
    maybe = (w in _MAYBE_NAMES or w.endswith(_CREDENTIAL_ENDS) for w in words)
    return (joined in _MAYBE_NAMES or any(maybe)) and _made(value)


def _made(value: str) -> bool:
    """Whether a value looks made, not written: three of its pieces (between blanks and - _ . , :
    / +) mix letters and digits (a key's groups), or one looks random. Words with blanks between
    them are text."""
    text = len(value.split()) > 1 and any(c.isalpha() and len(c) > 2 for c in value.split())
    pieces = [p for p in re.split(r"[\s\-_.,:/+]+", value) if p]
    mixed = [p for p in pieces if re.search(r"\d", p) and re.search(r"[^\W\d_]", p)]
    if not text and (len(mixed) >= 3 or any(map(_jumbled, mixed))):
        return True
    return any(map(_random, pieces))


def _jumbled(piece: str) -> bool:
    """Whether a piece of letters and digits looks made: they take turns twice or more in 6+
    characters ("9e107d9d", "Zq81xk"), or once in 12+, or it opens with a digit ("1abcdefgh").
    A name and its number ("YOLOv8", "ResNet50", "NeurIPS2025") takes one turn, and a formula
    ("CH3NH3PbI3", "LiFePO4") is none: a search feed's ?keys=YOLOv8 had been blotted."""
    turns = len(_TURN.findall(piece))
    if len(piece) < 6 or (len(piece) <= 12 and _FORMULA.fullmatch(piece)):
        return False
    return turns >= 2 or len(piece) >= 12 or piece[0].isdigit()


_TURN = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")
_FORMULA = re.compile(r"(?:[A-Z][a-z]?\d*)+")


def _random(piece: str) -> bool:
    """Whether a piece looks random: its case changes 5+ times ("lastUpdatedDate" 4), it holds
    10+ digits in a row, or it is 20+ long and no word ("immunohistochemistry": letters, a
    capital first at most, a third of them vowels, never five consonants in a row)."""
    low = piece.lower()
    word = _WORD.fullmatch(piece) and 3 * sum(c in "aeiouy" for c in low) >= len(low)
    changes = len(re.findall(r"(?=[a-z][A-Z]|[A-Z][a-z])", piece))
    return changes >= 5 or bool(re.search(r"\d{10}", piece)) or (len(piece) >= 20 and not word)


_WORD = re.compile(r"(?i:(?!.*[^aeiouy]{5}))[A-Za-z][a-z]+")
_CREDENTIAL_ENDS = ("key", "keys", "token", "tokens", "secret", "password", "signature")
_CREDENTIAL_NAMES = frozenset(
    """token tokens tokenid secret password passwd pwd pass passphrase passcode authorization sig
    authentication authcode hmac signature credential credentials jwt otp jsessionid phpsessid
    sessid sessionid""".split()
)
# A key, password or token named for whom or what it opens (x-api-key, authKey, userpass).
_OWNED = re.compile(
    r"(?:api|app|auth|access|account|admin|client|consumer|db|dev|developer|feed|ftp|license|login"
    r"|mail|master|partner|pass|private|proxy|rss|secret|shared|signing|smtp|subscription|user)"
    r"(?:keys?|tokens?|pass)"
)
_MAYBE_NAMES = frozenset("key keys session sid auth sign appid".split())
