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
    """Whether a piece of letters and digits looks made: hex of 8+ ("C0FFEE12", "9e107d9d"), or
    no name with its number ("YOLOv8n", "NeurIPS2025", "SN2023ixf", "BNT162b2", "1000Genomes",
    "word2vec") nor formula ("CsPbBr3"): a search feed's ?keys=YOLOv8 had been blotted."""
    if len(piece) < 6 or _formula(piece):
        return False
    if len(piece) >= 8 and _HEX.fullmatch(piece):
        return True
    runs = _RUN.findall(piece)
    return not _designation(runs)


_HEX = re.compile(r"[0-9a-f]+|[0-9A-F]+")
_RUN = re.compile(r"\d+|[^\W\d_]+")


def _designation(runs: list[str]) -> bool:
    """Whether runs of letters and digits are a name and its number ("ResNet50", "Tiger200K";
    an acronym's with a short tail: "YOLOv8n", "SN2023ixf", "BNT162b2", "GRB221009A"), a number
    and its name ("1000Genomes", "2MASS", a year's "2024ggi"), or two names joined by a 2 or a 4
    ("word2vec", "NL2SQL")."""
    first, *rest = runs
    after = "".join(rest)
    if first.isdigit():
        named = len(rest) == 1 and rest[0][0].isupper() and _name(rest[0], first=False)
        named = named and (len(first) <= 2 or re.fullmatch("[A-Z][a-z]+", rest[0]) is not None)
        named = named and first[0] != "0"
        return bool(named) or bool(_YEAR.fullmatch(first) and re.fullmatch("[a-z]{1,4}", after))
    if len(rest) == 2 and rest[0] in ("2", "4") and _name(first) and _name(rest[1]):
        return not (first + rest[1]).isupper() or len(first + rest[1]) <= 5
    if not _name(first, year=_YEAR.fullmatch(rest[0]) is not None):
        return False
    if first.rstrip("v").isupper():
        return bool(_ACRONYM_AFTER.fullmatch(after))
    return bool((_NUMBER if first[0].islower() else _NUMBER_CAPITAL).fullmatch(after))


_YEAR = re.compile(r"(?:19|20)\d\d")
_ACRONYM_AFTER = re.compile(r"\d+(?:[a-z]{1,3}|[a-z]\d)?|\d{4,}[A-Z]")
_NUMBER_CAPITAL = re.compile(r"\d+[A-Z]?")
_NUMBER = re.compile(r"\d+")


def _name(letters: str, year: bool = False, first: bool = True) -> bool:
    """Whether letters read as a name: up to three words or acronyms ("ResNet", "NeurIPS", "BNT",
    longer ones before a year: "INTERSPEECH2025"), a version's "v" at its end ("YOLOv"), a small
    prefix ("mRNA", "scRNA"). A capital alone begins it ("LLaMA"; "3DBonsai" after a number)."""
    letters = letters[:-1] if len(letters) > 1 and letters[-1] in "vV" else letters
    parts = _PART.findall(letters)
    alone = [i for i, p in enumerate(parts) if len(p) == 1 and p.isupper()]
    if len(parts) > 3 or any(alone) or (alone and not first and parts[0] != "D"):
        return False
    if len(parts) > 1 and parts[0].islower():
        return len(parts[0]) <= 3 and _camel("".join(parts[1:]), 99 if year else 5)
    return _camel(letters, 99 if year else 5)


def _camel(letters: str, acronym: int = 5) -> bool:
    """Whether letters are words and acronyms run together ("lastUpdatedDate", "DeepSeek"), one
    word of two letters at most ("LLaMA")."""
    parts = _PART.findall(letters)
    short = sum(len(p) == 2 and p.istitle() for p in parts)
    return short <= 1 and all(len(p) <= acronym if p.isupper() else _worded(p) for p in parts)


_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def _worded(part: str) -> bool:
    """Whether a part of a name reads as a word: three letters or more (two after a capital:
    "LLaMA") with a vowel, never four consonants in a row, and in small letters alone a third
    of them vowels past four letters."""
    low = part.lower()
    vowels = sum(c in "aeiouy" for c in low)
    if part.islower() and len(part) > 4 and 3 * vowels < len(part):
        return False
    return len(low) >= (2 if part[0].isupper() else 3) and vowels > 0 and not _CLUSTER.search(low)


_CLUSTER = re.compile(r"[^aeiouy]{4}")


def _formula(piece: str) -> bool:
    """Whether a piece is a chemical formula: element symbols each with its count, never 0 or 1
    ("CsPbBr3", "Bi2Sr2CaCu2O8"; not "AB12CD34", "C0FFEE12"); in capitals alone, only the
    symbols of organic chemistry ("CH3COOH"; not "WICNHO5K")."""
    at = 0
    while at < len(piece):
        symbol = _SYMBOL.match(piece, at)
        if symbol is None or symbol[1] not in ELEMENTS:
            return False
        at = symbol.end()
    return bool(piece) and (not piece.isupper() or set(piece) <= _ORGANIC)


_ORGANIC = frozenset("CHNOSPFBIK0123456789")
_SYMBOL = re.compile(r"([A-Z][a-z]?)(?:[2-9]|[1-9]\d)?(?![\d])")
ELEMENTS = frozenset(
    """H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se
    Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy
    Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf
    Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og""".split()
)


def _random(piece: str) -> bool:
    """Whether a piece looks random: its case changes 4+ times and not between words, acronyms
    or element symbols ("lastUpdatedDate", "LongCodeBench", "CsPbBr3" are none), it holds 10+
    digits in a row, or it is 20+ long and no word ("immunohistochemistry": letters, a capital
    first at most, a third of them vowels, never five consonants in a row)."""
    low = piece.lower()
    word = _WORD.fullmatch(piece) and 3 * sum(c in "aeiouy" for c in low) >= len(low)
    changes = len(re.findall(r"(?=[a-z][A-Z]|[A-Z][a-z])", piece))
    camel = _formula(piece) or all(map(_camel, re.findall(r"[^\W\d_]+", piece)))
    return (
        (changes >= 4 and not camel)
        or bool(re.search(r"\d{10}", piece))
        or (len(piece) >= 20 and not word)
    )


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
