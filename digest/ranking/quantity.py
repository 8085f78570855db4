"""Whether a bare YYMM.NNNNN in a reader's interests text is a quantity, not an arXiv id: the
number of a measurement, told by its unit, its uncertainty or the quantity it names."""

from __future__ import annotations

import re
from itertools import pairwise

from digest.ranking.symbols import UNITS
from digest.ranking.units import CASED_UNITS

# A bare YYMM.NNNNN, without "arXiv" or a version, is a quantity where a unit follows it ("the
# 1203.4567 keV line", "2012.12345 Hz", "a period of 1107.1234 days", "1203.4567 ± 0.2"), or
# after "=", "≈"; numbers listed with "and" or commas before one unit are alike ("lines at
# 1203.4567, 1204.5678 and 1205.1234 keV"). Any word after it had made one a quantity, so an id in
# a sentence or one "id title" line ("Papers like 2506.20115 and 2509.22540", "2506.20115 Sparse
# attention") had been kept as a number, and the reader's papers lost silently (reg38 F4). An id
# alone, in a list of them, or before a title or a sentence, is an id.
# A unit is a whole word: the letters of "2504.12216 d1: Scaling …", "2503.12077 V-Stylist",
# "K-means", "N-body", "GeV-scale" had been read as the units d, V, K, N and GeV, and 259 of the
# 45k corpus's "id title" lines had lost their id silently (reg40 F2); so is a name's, "MAG: …",
# "J&H", "TL;DR", "N+2". An exponent may follow ("cm-1", "cm^-1", "km/s"), and a unit may have
# dots ("a.u."). An uncertainty or a ratio after the number makes a quantity too: "1203.4567 +/-
# 0.2", "1203.4567(3) MHz", "1203.4567:1" (reg40 F3).
_GOES_ON = re.compile(
    r"(?:\s*(?:,\s*(?:(?:and|or|&)\s+)?|(?:and|or|&)\s+)\d{4}\.\d{4,5}(?![\w\-/]|\.\d))*"
    r"(?:\s+([^\W\d_]+(?:\.[^\W\d_]+)*)\.?(?!\w|-[^\W\d_]|[&+$:]|;\w)"
    r"|\s*(?:[°%‰±×]|\+\s*/?\s*-|-\s*/\s*\+)|\(\d{1,3}\)|:\d)",
    re.IGNORECASE,
)
# Units after a number: the ranking's own (symbols.UNITS, units.CASED_UNITS), a prefixed one
# ("keV", "GHz", "kpc", "μK", "mK", "kDa", "µM"), a lone SI symbol, atomic units and astronomy's
# ("Da", "amu", "a.u.", "mas", "Å", "Angstrom"), engineering's ("dBm", "mmHg", "Mbps", "rpm",
# "kWh", "psi", "Torr", "Ω"), a currency, and counts and time spelled out, in small letters and
# plural: a title's "Second language Korean" or "Days of …" is no unit (reg40 F2), nor its
# "token embeddings …", "point cloud …", "pixel motion …": a number with decimals counts no one
# token, and 43 of the 45k corpus's "id title" lines had lost their id (reg42 F3). Without Da,
# amu, mas, Angstrom, "m/z 1203.4567 Da" had been an id (reg40 F3); so had "1203.4567 dBm",
# "1203.4567 Torr", "1203.4567 µM" (reg42 F5).
_UNIT = re.compile(
    r"(?:[kMGTPEmμµnpf]?(?:eV|Hz|pc|Jy|Pa|K|s|g|m|J|W|V|N|L|Gy|Sv|Bq|rad|bar|mol|Da|Wh|Ω|ohms?|cal)"
    r"|[mμµnp]M|[mμµ]as|[fpn]b|[kMG]?bps|[kM]?bp|dBm?|mmHg|rpm|[mk]?Ah|psi|atm|Torr|mTorr|lux|Oe"
    r"|Å|au|AU|a\.u|amu|u|ly|lyr|MJD|JD|BJD|HJD|[Aa]ngstr[oö]ms?|Ångstr[oö]ms?|arcsecs?"
    r"|USD|EUR|GBP|JPY|CNY|CHF|dollars|euros"
    r"|sec|min|hr|h|d|days|hours|years|yrs?|months|weeks|minutes|seconds|nights|orbits"
    r"|kelvin|degrees|deg|percent|percentage|points|pp|times|fold|x|million|billion|trillion"
    r"|microns?|um|M_?sun|[kMGTP]?FLOPs?|flops?|bits|bytes)"
)
# A count spelled out is one where its clause ends or a rate or a span follows: "1203.4567
# tokens", "1203.4567 samples per class", "1203.4567 pixels wide"; "pixels to prognosis: …",
# "parameters vs. context: …" are titles (reg42 F3).
_COUNT = re.compile(
    r"tokens|pixels|counts|photons|samples|epochs|steps|parameters|iterations|events"
)
_COUNTED = re.compile(r"\s*(?:$|[.;)\]}/]|(?:per|each|wide|long|high|deep|across)\b)")
# A lone capital after a number ends the text or a clause when it is a unit: "1203.4567 T",
# "1203.4567 A.", "1203.4567 S/m" (tesla, ampere, siemens); before a word it opens a title:
# "2506.20115 T cells", "2506.20115 A survey" (reg42 F5).
_SYMBOL = re.compile(r"[TGCFAMS]")
_ENDS = re.compile(r"\s*(?:$|[.,;)\]}]|/)")
# A title after the unit's letters, in Title Case ("2506.19288 Da Yu: Towards USV-Based Image
# Captioning", "2507.08799 KV Cache Steering for …"): "Da" and "KV" open its title, no unit; so
# do they in small letters where the title's own subtitle follows, after a colon or a question
# ("2503.14485 lux post facto: learning …", "2504.01040 cal or no cal? -- real-time …",
# "2505.12043 mol for llms: dual-loss …"), which a measurement's words do not write (reg43 F5).
_CLAUSE_END = re.compile(r"[\n,;]")
_TITLE_WORD = re.compile(r"[^\W\d_][\w\-']*")
_SUBTITLED = re.compile(r"\s+[^\W\d_][^:?]*[:?](?:\s|$)")
# An arXiv id of today's scheme has five digits (since 1501): a lone capital or a count ending the
# clause after one is a stray letter or word of a pasted line ("2501.19393 A", "2501.19393
# steps"), not a measurement to five decimals; they had lost the id (reg43 F5).
_TODAY_S = re.compile(r"(?<!\d)\d{4}\.\d{5}$")
# A number after the quantity it measures, a comparison or a currency: "the value of 1203.4567",
# "m/z 1203.4567", "MJD 1203.4567", "mass of 1203.4567", "E = 1203.4567", "$1203.4567" (reg40
# F3). A quantity's name right before a number had made it one too, and a title ending in one
# ("… and Peak Temperature 2507.11100", "… MoS$_2$ 2503.03363", "$" closing its math) had lost
# its id: 454 of the 45k corpus's "title id" lines (reg42 F2). The name measures the number
# where "of", "is", "=" join them, or where the number is a value: a unit or "is", "=" after it.
# A currency sign is one with a space before the number too ("costs $ 1203.4567", "€ 1203.4567"),
# but for a "$" that closes math, after an odd count of them ("MoS$_2$ 2503.03363", "$\langle M
# \rangle $ 2509.07973"): a sign followed by a space had made an id of a price (reg43 F4).
_QUANTITY = (
    r"\b(?:value|mass|price|cost|energy|frequency|wavelength|period|temperature|redshift|distance"
    r"|length|width|weight|ratio|rate|score|epoch|time|flux|luminosity|velocity|speed|pressure"
    r"|density|size|amount|total|sum|mean|average|median|reading)s?"
)
_NAMED = re.compile(
    r"(?:[=≈<>≤≥±×~]\s*|[€£¥]\s*|\$|\b(?:m/z|[MBH]?JD)\s*|"
    + _QUANTITY
    + r"\s+(?:of|is|was|at|=|:)\s*)$",
    re.IGNORECASE,
)
_DOLLAR = re.compile(r"\$\s+$")
# Math's "$" are paired within their own line, an escaped "\$", a price's sign ("$500 Training
# Cost", "$5, liked", "$100k budget") and one before prose aside: every "$" from the start of the
# text had been counted, so one price on an earlier line or in the same one ("budget $5, liked: …
# MoS$_2$ 2503.03363") made the "$" closing a later title's math a price's and its id a number:
# 764 of 764 corpus pairs of such titles had lost the second id (reg44 F2). A price's number is
# followed by a word or a clause's end, not by math ("$5$", "$2x$", "$3 z 6$", "$2 \times 10^3$");
# prose is two words of four letters or more outside braces and commands, as 10 of the corpus's
# 34,658 math spans hold.
_SIGN = re.compile(r"(?<!\\)\$")
_PRICE = re.compile(r"\$\s?\d[\d,.]*+(?:[kKMB]|bn)?(?:\s*(?:[,;:!?)]|$)|\s+[^\W\d_]{2})")
_BRACED = re.compile(r"\{[^{}]*\}")
_PROSE = re.compile(r"(?<![\\\w])[^\W\d_]{4,}")
_NAMES = re.compile(_QUANTITY + r"\s+$", re.IGNORECASE)
_VALUE = re.compile(r"\s*=|\s+(?:is|was|are|were)\b", re.IGNORECASE)


def measured(text: str, start: int, end: int) -> bool:
    """Whether the bare number at text[start:end] is a quantity: the quantity it measures named
    before it, or a unit or an uncertainty after it (of it or of the numbers it is listed with)."""
    # What names a number is read on its own line: a line ending in "$", "=" or "€" before one
    # that holds the id alone ("…MoS$_2$\n2503.03363") had made it a price or a value, and the id
    # was lost (191 of the 45k corpus's 1,071 titles with "$", reg45 F4): "$" matches before a
    # newline that ends the searched span too. An id alone on its line is an id.
    before = max(text.rfind("\n", 0, start) + 1, start - 40)
    if _NAMED.search(text, before, start) or _priced(text, before, start):
        return True
    if _NAMES.search(text, before, start) and _VALUE.match(text, end):
        return True
    goes = _GOES_ON.match(text, end)
    if not goes or not goes[1]:
        return bool(goes)
    weak = not _TODAY_S.search(text, start, end)
    return _unit(goes[1], text, goes.end(1), weak)


def _priced(text: str, before: int, start: int) -> bool:
    """Whether a "$" and a space before the number open it as a price, not close math."""
    dollar = _DOLLAR.search(text, before, start)
    return dollar is not None and not _in_math(text, dollar.start())


def _in_math(text: str, end: int) -> bool:
    """Whether math opened by a "$" is still open at `end`, read from the start of its line: a
    "$" opens it unless escaped ("\\$"), a price's or before prose; the next one closes it."""
    signs = [m.start() for m in _SIGN.finditer(text, text.rfind("\n", 0, end) + 1, end)]
    opened = False
    for at, after in pairwise([*signs, end]):
        opened = not opened and not _PRICE.match(text, at) and _math(text[at + 1 : after])
    return opened


def _math(span: str) -> bool:
    """Whether a span between two "$" reads as math: no two words of prose outside braces."""
    return len(_PROSE.findall(_BRACED.sub(" ", _BRACED.sub(" ", span)))) < 2


def _unit(word: str, text: str, end: int, weak: bool = True) -> bool:
    """Whether a word after a number is its unit; `weak` whether a lone capital or a count ending
    the clause is evidence enough (not after an id of today's scheme)."""
    if _SYMBOL.fullmatch(word):
        ends = _ENDS.match(text, end)
        return ends is not None and (weak or "/" in ends[0])
    if _COUNT.fullmatch(word):
        counted = _COUNTED.match(text, end)
        return counted is not None and (weak or bool(counted[0].strip(" .;)]}")))
    if not (_UNIT.fullmatch(word) or word.lower() in UNITS | CASED_UNITS):
        return False
    clause = _CLAUSE_END.split(text[end:], 1)[0]
    return not (_titled(clause) or _SUBTITLED.match(clause))


def _titled(rest: str) -> bool:
    """Whether the rest of a clause is a title in Title Case: two words or more, each of four
    letters or more capitalised ("for", "in" are not)."""
    words = _TITLE_WORD.findall(rest)
    long = [w for w in words if len(w) > 3]
    return len(words) >= 2 and bool(long) and all(w[0].isupper() for w in long)
