"""The units the analyzer reads by their case: a unit's spelling in capitals not after a number is
an acronym ("GHZ", "MPC", "DB", "MT"), after a number or in its own case the unit."""

from __future__ import annotations

import re

# Those units are read by their case: in capitals, not after a number, they are acronyms, a term
# of their own in capitals ("GHZ states", Greenberger-Horne-Zeilinger; "MPC", model predictive
# control; "EV", "PC", "GEV"): lower-cased, a GHZ reader had got GHz radio papers, "why: ghz",
# and MPC readers megaparsecs (the 45k corpus: GHz in 197 papers, GHZ 3; Mpc 265, MPC 17; eV
# 254, EV 19; pc 324, PC 43). The analyzer marks them, and writes them in capitals in the end.
# So are the units that name nothing alone, after a number ("20 kV", "5 mL", "10 dB", "5 mW":
# joined to it, symbols.quantities) and in capitals acronyms ("KV cache", "ML", "DB" a database,
# "MW" the Milky Way, "MT" machine translation, "FS" feature selection, "KB" a knowledge base):
# a thin-film reader's "20 kV" had picked KV-cache papers, and a "DB" reader's digest had been
# denoising papers' "33.89 dB" (reg34 F3: dB 190 papers, 176 after a number; DB 33). A unit
# written in capitals after a number ("10 MW", "2 TB") is the unit, as "20 KV" is: megawatts and
# milliwatts, terabytes and tuberculosis are told by the number, not by the case.
CASED_UNITS = frozenset(
    """kv ml ms mm kg ns db mv kw mw mg pf mt pm ma fs ps kb mk gb mb tb""".split()
)
_PREFIXED = r"[KMGTP]?HZ|[KMGTPE]?EV|[KMG]?PC"
# A unit's letters in small letters whose capitals are an acronym (spellings, rules).
UNIT_ACRONYM = re.compile(_PREFIXED.lower() + "|" + "|".join(sorted(CASED_UNITS)))
CAPITALS = "\ufdd5"
_CAPITALS_OF = "|".join(sorted(u.upper() for u in CASED_UNITS))
_UNIT_CAPITALS = re.compile(rf"(?<![\w-])(?:{_PREFIXED})(?!\w)|(?<!\w)(?:{_CAPITALS_OF})(?!\w)")
# A number before: "16-GB" too. Not a name's digits, after a letter or a word's hyphen ("GPT-4
# MT", "TNG50 MW", "HIV-1 TB", "Gaia DR3 MW"): "MT" had been read as a unit there, while
# symbols._quantity joins no such digit to it, so it ended a bare "mt", neither the acronym nor a
# quantity, and "MT", "MW", "TB" readers and rules lost those papers (reg37 F2).
_NUMBER_BEFORE = re.compile(
    r"(?<![^\W_])(?<!\.)(?<![^\W\d_]-)\d+(?:\.\d+)?\$?(?:[\s~-]|\\[,;: ])*\Z"
)
_HINTS = re.compile(rf"HZ|EV|PC|{_CAPITALS_OF}")  # one scan: most texts hold none


def unit_capitals(text: str) -> str:
    """The text with each unit's spelling in capitals that is an acronym marked as one."""
    if _HINTS.search(text):
        return _UNIT_CAPITALS.sub(_unit_capitals, text)
    return text


def capitals(tokens: list[str]) -> list[str]:
    """The tokens, each marked one in capitals, unmarked: "GHZ", not "ghz"."""
    return [t.replace(CAPITALS, "").upper() if CAPITALS in t else t for t in tokens]


def _unit_capitals(match: re.Match[str]) -> str:
    if _NUMBER_BEFORE.search(match.string, max(0, match.start() - 8), match.start()):
        return match[0]  # "at 1.4 GHZ": the unit, in a text in capitals
    return CAPITALS + match[0]


def unit_case(word: str) -> bool:
    """Is the word a unit in its own spelling, small letters and capitals ("GHz", "Mpc", "mL",
    "dB")? The ranking reads it as the unit alone, never as the acronym in capitals."""
    return word in _OWN_SPELLINGS


# A unit's own spellings in small letters and capitals. Any mixed case had been one: "Kv cache",
# "Mt-Bench", "Ms Marco", "Db", a Title Case keyword or a list's first word, were read as units
# only, and an alert or a reader missed KV-cache, MT-Bench, MS MARCO papers (reg37 F6). A capital
# first and small letters after mean what the small letters mean. The elements whose symbol a
# unit's letters spell ("Mg", "Tb", "Pm") are their own spellings too: "MG", "TB" are no element.
# The list had left out units of these letters that papers write (reg39 F4; 45k corpus papers):
# meV 73, mHz 10, mG 7 (milligauss), mS 3 (siemens), mM 2 (millimolar), Gb 2 (gigabits,
# gigabases), Mb, Mw (moment magnitude, a polymer's mass), Ma (mega-annum), kG: a "meV" rule had
# found "MEV bots", "Mw" the Milky Way's "MW". Not "Mt" (megatonnes): "Mt-Bench" means MT-Bench.
_OWN_SPELLINGS = frozenset(
    [p + "Hz" for p in ("", "m", "k", "M", "G", "T", "P")]
    + [p + "eV" for p in ("", "m", "k", "M", "G", "T", "P", "E")]
    + ["Mpc", "Gpc"]
    + "kV mL dB mV kW mW Mw pF mT pM mA Ma kB Gb Mb mK mS nS pS mG kG mM Mg Tb Pm".split()
)


def name_digits() -> list[str]:
    """Lookbehinds (each of a fixed width) for a name's digits and the blank or hyphen after
    them, which _NUMBER_BEFORE reads as no number, for a rule's or a reader's word that begins
    there. Up to ten digits: a year's four had been a number ("WMT2014 MT", "IWSLT2017 MT"),
    and rules "MT" missed what the analyzer reads as MT (reg39 F5)."""
    return [
        rf"(?<={before}\d[\d.]{{{n}}}[\s-])"
        for before in (r"[^\W\d_]", r"[^\W\d_]-")
        for n in range(_NAME_WIDTH)
    ]


_NAME_WIDTH = 10
