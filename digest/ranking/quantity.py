"""Whether a bare YYMM.NNNNN in a reader's interests text is a quantity, not an arXiv id: the
number of a measurement, told by its unit, its uncertainty or the quantity it names."""

from __future__ import annotations

import re

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
# ("keV", "GHz", "kpc", "μK", "mK", "kDa"), a lone SI symbol, atomic units and astronomy's
# ("Da", "amu", "a.u.", "mas", "Å", "Angstrom"), a currency, a count (tokens, bits, photons), and
# time spelled out, in small letters: a title's "Second language Korean" or "Days of …" is no
# unit (reg40 F2). Without Da, amu, mas, Angstrom, "m/z 1203.4567 Da" had been an id (reg40 F3).
_UNIT = re.compile(
    r"(?:[kMGTPEmμµnpf]?(?:eV|Hz|pc|Jy|Pa|K|s|g|m|J|W|V|N|L|Gy|Sv|Bq|rad|bar|mol|Da)|[mμµ]as|[fpn]b"
    r"|Å|au|AU|a\.u|amu|u|ly|lyr|MJD|JD|BJD|HJD|[Aa]ngstr[oö]ms?|Ångstr[oö]ms?|arcsecs?"
    r"|USD|EUR|GBP|JPY|CNY|CHF|dollars?|euros?"
    r"|sec|min|hr|h|d|days?|hours?|years?|yrs?|months?|weeks?|minutes?|seconds?|nights?|orbits?"
    r"|kelvin|degrees?|deg|percent|percentage|points?|pp|times|fold|x|million|billion|trillion"
    r"|microns?|um|M_?sun|[kMGTP]?FLOPs?|flops?|tokens?|bits?|bytes?|pixels?|counts?|photons?)"
)
# A number after the quantity it measures, a comparison or a currency: "the value 1203.4567 is",
# "m/z 1203.4567", "MJD 1203.4567", "mass of 1203.4567", "E = 1203.4567", "$1203.4567" (reg40 F3).
_NAMED = re.compile(
    r"(?:[=≈<>≤≥±×~$€£¥]|\b(?:m/z|(?:[MBH]?JD|value|mass|price|cost|energy|frequency|wavelength"
    r"|period|temperature|redshift|distance|length|width|weight|ratio|rate|score|epoch|time"
    r"|flux|luminosity|velocity|speed|pressure|density|size|amount|total|sum|mean|average"
    r"|median|reading)s?(?:\s+(?:of|is|was|at|=|:))?))\s*$",
    re.IGNORECASE,
)


def measured(text: str, start: int, end: int) -> bool:
    """Whether the bare number at text[start:end] is a quantity: the quantity it measures named
    before it, or a unit or an uncertainty after it (of it or of the numbers it is listed with)."""
    if _NAMED.search(text, max(0, start - 40), start):
        return True
    goes = _GOES_ON.match(text, end)
    return bool(goes and (not goes[1] or _unit(goes[1])))


def _unit(word: str) -> bool:
    return bool(_UNIT.fullmatch(word)) or word.lower() in UNITS | CASED_UNITS
