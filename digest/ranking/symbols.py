"""The analyzer's reading of science's symbols: an ion ("[O III]", "He II"), a formula's subscript
digits ("MoS$_2$"), a quantity ("21 cm"), a hydrogen series line ("Lyα"), a group ("SU(2)"), a
particle ("J/ψ", "ψ(2S)"), a number and its unit as one word ("21 cm", "20 kV"; units.py tells a
unit from its acronym by case), and the numerals and units that are no words alone."""

from __future__ import annotations

import re

from digest.ranking.units import CASED_UNITS

# An ion's element and numeral are joined by this noncharacter, which the punctuation table keeps
# and the analyzer makes a hyphen after its split at hyphens: "he-ii" is not split as "he", "ii".
JOIN = "\ufdd3"
_ELEMENTS = frozenset(
    """H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se
    Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy
    Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am""".split()
)
# Written apart, a lone capital that is a numeral, a word or a band ("V I", "U V", "I II", "B V")
# is no element, and a symbol that is an English word ("As I", "In I") no neutral atom.
_APART_NOT = frozenset("B I U V W Y".split())
_WORD_BEFORE_I = frozenset("As At Am Be In No".split())
# Run together, only the lines' own spellings: "OIII", "HeII", "MgII", "CIV", and "HI", "HeI"
# (neutral hydrogen and helium). Not "CI" (a confidence interval), "NV" (nitrogen-vacancy),
# "NaI(Tl)" and "CsI" (iodides), "PII", "HIV", "SIV", "UV".
_RUN_ONE = frozenset("H C N O S".split())
_RUN_NOT = frozenset({"HIV", "SIV"})
_NUMERAL = re.compile(r"X{0,3}(?:IX|IV|VI{0,3}|I{1,3})|X{1,3}")
# [element] [apart] numeral, the numeral in capitals or in LaTeX's small capitals ("H\,{\sc i}").
# A capital first, so that the search skips to capitals (not a letter, "\\" or "$" before it).
_ION = re.compile(
    r"([A-Z][a-z]?)((?:\s|~|\\[,;: ])*)"
    r"(?:([IVX]+)|\{\\(?:sc|rm|textsc)\s*([ivx]+)\s*\}|\\textsc\{([ivx]+)\})"
    r"(?![\w(]|-(?:[\d-]|[IVX]+\b)|\$?[_^])(\]?)"  # "III-V" semiconductors: no ion
)


def ions(text: str) -> str:
    """The text with each ion's element and numeral as one word, its closing bracket off:
    "[O III]", "[OIII]", "O III" and "O\\,{\\sc iii}" are "O-iii" (the forbidden line and the
    permitted one are one term: readers write either); "III-V" and "II-VI" one word too; a list's
    "(iv)" and a section's "Section IV" no word; a numeral after anything else is left."""
    # str's search first: each pattern's own pass over a text had made the analyzer 1.6x as slow.
    if "iv)" in text or "vi)" in text or "ix)" in text:
        text = _ITEM.sub(_item, text)
    if " IV" in text or " VI" in text or " IX" in text:
        text = _PLACE.sub(_place, text)
    if "I" in text or "V" in text or "X" in text or "\\" in text:
        text = _ION_HYPHEN.sub(r"\1 ", _ION.sub(_ion, text))
    if "I-" in text or "V-" in text:  # after the ions: "O III-V" is no ion
        text = _CLASS.sub(_class, text)
    return text


# The numerals that are words (iv, vi, ix: a reader's IV, VI) are none as a list's item, "(iv)"
# or "iv)", or a part's number, "Section IV", "Paper VI": "why: matched iv" had picked papers
# for an enumeration. Semiconductors' classes are words: "II-VI" had been "vi", "III-V" nothing.
# Each pattern opens with the numeral; what stands before is judged after.
_ITEM = re.compile(r"(?:iv|vi|ix)\)")
_PLACE = re.compile(r"(?:IV|VI|IX)\b")
_PLACES = frozenset(
    "section sec sect part paper fig figs figure figures appendix chapter table eq".split()
)


def _item(match: re.Match[str]) -> str:
    at, text = match.start(), match.string
    before = text[at - 1 : at]
    if before == "(":
        at, before = at - 1, text[at - 2 : at - 1]
    return match[0] if before and (before.isalnum() or before in "_\\") else ")"


def _place(match: re.Match[str]) -> str:
    text, at = match.string, match.start()
    if not at or not text[at - 1].isspace():
        return match[0]
    before = text[max(0, at - 12) : at].split()
    return "" if before and before[-1].rstrip(".").lower() in _PLACES else match[0]


_CLASS = re.compile(r"(I{1,3}|IV|VI{0,2})-(I{1,3}|IV|VI{0,2})(?![\w-])")


def _class(match: re.Match[str]) -> str:
    before = match.string[match.start() - 1 : match.start()]
    word = before and (before.isalnum() or before in "_-")
    return match[0] if word else f"{match[1]}{JOIN}{match[2]}"


# An ion before a hyphen and a word is the ion and that word: "HI-rich" is "h-i" and "rich".
_ION_HYPHEN = re.compile("(" + JOIN + r"[ivx]+)-(?=[^\W\d_])")


def _ion(match: re.Match[str]) -> str:
    element, apart, capitals, *small, closed = match.groups()
    numeral = capitals or small[0] or small[1]
    at = match.start()
    before = match.string[at - 1] if at else " "
    if before.isalnum() or before in "_\\$" or element not in _ELEMENTS:
        return match[0]
    if not _NUMERAL.fullmatch(numeral.upper()):
        return match[0]
    if capitals and before != "[":
        if apart and (element in _APART_NOT or (numeral == "I" and element in _WORD_BEFORE_I)):
            return match[0]
        if not apart and not _run_together(element, numeral):
            return match[0]
    return f"{element}{JOIN}{numeral.lower()}{' ' if closed else ''}"


def _run_together(element: str, numeral: str) -> bool:
    """Is an element and its numeral written together ("OIII", "FeII") an ion, not an acronym?"""
    if element + numeral in ("HI", "HeI"):
        return True
    if len(numeral) < 2 or element + numeral in _RUN_NOT:
        return False
    return len(element) == 2 or element in _RUN_ONE


# A Roman numeral alone is a number, as digits are: "Paper II", "Type II", "Population III", an
# enumeration's "(iii)" had matched one another ("why: matched ii, iii"). "xi" is a Greek letter;
# "iv", "vi" and "ix" are also acronyms (instrumental variables, variational inference) a reader
# lists as keywords: they stay words.
NUMERALS = frozenset("ii iii vii viii".split())
# Units that name no topic alone: "cm" of "cm^-3", "mol" of "kcal/mol", "km s^-1", "Gyr", "dex"
# had explained picks ("why: matched cm" for a reader's 21-cm line). Energy, frequency and
# distance units stay words: "TeV", "GHz", "kpc" name a band or a scale ("TeV halos").
UNITS = frozenset(
    """cm km nm μm mol mmol μmol nmol kcal kj erg yr kyr myr gyr dex mag arcsec arcmin mjy μjy kda
    mbar kbar ppm ppb μg""".split()
)
NOT_WORDS = NUMERALS | UNITS
# A whole number and such a unit after it are one word, apart, hyphenated or run together
# ("21 cm", "21-cm", "21cm", "$21$~cm", "21\\,cm" are "21cm"); not a power's or a range's
# digits ("10$^{21}$ cm^-2", "10-21 cm"), nor a decimal's ("0.3 dex"). A digit first, so that the
# search skips to digits (what stands before the number is judged after).
_QUANTITY = re.compile(
    r"(\d\d*)\$?(?:[\s~{-]|\\[,;: ])*(" + "|".join(sorted(UNITS | CASED_UNITS)) + r")(?!\w)"
)


def quantities(text: str) -> str:
    """The (lower-cased) text with a whole number and its unit as one word: "21-cm" is "21cm"."""
    return _QUANTITY.sub(_quantity, text)


def _quantity(match: re.Match[str]) -> str:
    at = match.start()
    if at and (match.string[at - 1].isalnum() or match.string[at - 1] in "_.,^{-"):
        return match[0]
    return match[1] + match[2]


# A Greek letter's command is the letter, joined to the word it is written in: an abstract's
# "$\Lambda$CDM" and "H$\alpha$" are the reader's "ΛCDM" and "Hα" (read as "cdm" and nothing,
# they had matched 2 of the 225 papers that say ΛCDM).
_GREEK_NAMES = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
    " sigma tau upsilon phi chi psi omega"
).split()
GREEK = {name: chr(0x3B1 + i + (i > 16)) for i, name in enumerate(_GREEK_NAMES)}  # no ς
_GREEK_COMMAND = re.compile(r"\$?\\(?:var)?(" + "|".join(_GREEK_NAMES) + r")(?![a-z])\$?", re.I)
LETTER_NAMES = {letter: name for name, letter in GREEK.items()}
# A math letter before a hyphen is the letter too: "$p$-adic", "$k$-means", "$L^2$-norm" are
# "p-adic", "k-means", "l2-norm" as typed (the letter had gone: "adic", "means", "norm").
_MATH_LETTER = re.compile(r"\$([a-z])(?:[_^]\{?(\d)\}?)?\$(?=-[^\W\d_])", re.I)
# ... and after one ("high-$z$" is "high-z"), and a Greek letter typed inside dollars anywhere
# ("Ly$α$", "Lyman-$α$" as "Ly$\alpha$": they had been "ly" and "lyman").
_LETTER_IN_DOLLARS = re.compile(
    r"\$(?:(?<=[^\W\d_]-\$)([a-z])\$(?!\w)|([\u0391-\u03a9\u03b1-\u03c9])\$)", re.I
)


# A letterlike symbol's power is in its word as its subscript is: "$\mathbb{R}^3$",
# "$\mathbb{CP}^2$" are "r3", "cp2", as the decoded "ℝ³", "ℂℙ²" (NFKC's "R3") and a reader's "R3".
_LETTERLIKE_POWER = re.compile(
    r"\\math(?:bb|bbm|ds|cal|scr|frak|bf)\s*(?:\{\s*([a-z]{1,3})\s*\}|([a-z]))"
    r"\s*\^\s*(?:\{\s*(\d{1,3})\s*\}|(\d{1,3})(?!\d))\$?"
)


def latex_letters(text: str) -> str:
    """Greek letters' commands as the letters, a math letter by a hyphen as the letter, a
    subscript's digits in their word, a letterlike symbol's power's too."""
    if "\\" in text:
        if "\\infty" in text:
            text = infinities(text)
        text = _GREEK_COMMAND.sub(lambda m: GREEK[m[1].lower()], text)
        if "^" in text:
            text = _LETTERLIKE_POWER.sub(lambda m: (m[1] or m[2]) + (m[3] or m[4]), text)
    if "$" in text:
        text = _MATH_LETTER.sub(r"\1\2", text)
        text = _LETTER_IN_DOLLARS.sub(lambda m: m[1] or m[2], text)
    return subscripts(text) if "_" in text else text


# A subscript's digits belong to their word: "MoS$_2$", "MoS$_{2}$", "CO$_2$", "H$_2$O",
# "$\mathrm{CO}_2$", "$S_8$", "$\sigma_{8}$" are the typed "MoS2", "CO2", "H2O", "S8", "σ8" (and
# the Unicode "MoS₂": its "₂" is a 2 to NFKC). The math's closing "$" goes with them.
_SUBSCRIPT = re.compile(r"(?<=[^\W_])\}?\$?_(?:\{(\d{1,3})\}|(\d{1,3})(?!\d))\$?")


def subscripts(text: str) -> str:
    """The text with each subscript's digits joined to their word."""
    return _SUBSCRIPT.sub(lambda m: m[1] or m[2], text) if "_" in text else text


# The lines of hydrogen's series with their Greek letter are one word, however written:
# "Lyα", "Ly$\alpha$", "Ly-alpha", "Lyman-α", "Lyman alpha" are "lyman-α" (as "Hα" and
# "H$\alpha$" are "hα"); "Paβ", "Brγ" too. "Lyman-break", "Lyman continuum" are other words.
_SERIES_NAMES = {"ly": "lyman", "pa": "paschen", "br": "brackett"}
_LETTERS = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}
_SERIES = re.compile(
    r"(?<![\w-])(?:(lyman|paschen|brackett|ly)[\s-]|(ly|pa|br)-?)"
    r"(α|β|γ|δ|alpha|beta|gamma|delta)(?!\w)",
    re.I,
)


def series(text: str) -> str:
    """The (Greek-lettered) text with each series line as one word, in small letters: the
    analyzer's text, and an exclude or alert rule's (and the text it is searched in)."""
    if any(letter in text for letter in "αβγδΑΒΓΔ") or any(n in text for n in _LETTERS):
        return _SERIES.sub(_line, text)
    return text


def _line(match: re.Match[str]) -> str:
    written, letter = (match[1] or match[2]).lower(), match[3].lower()
    return f"{_SERIES_NAMES.get(written, written)}-{_LETTERS.get(letter, letter)}"


# A group's name and its number (or N) is one word: "SU(2)", "$\mathrm{SO}(3)$",
# "SE(3)-equivariant" are su(2), so(3), se(3) ("su" had matched SU(3) papers and "Su et al."),
# not "O(n)", "SL(2,R)".
_GROUP_NUMBER = re.compile(r"\((\d{1,2}|[nN])\)(?:\s*\})?(?:_\{?\w\}?)?(?!\w)(-(?=[^\W\d_]))?")
_GROUPS = "SU|SO|SE|SL|GL|Sp|Spin|USp|PSL|PGL|PSU|U"
_GROUP_NAME = re.compile(rf"(?<![\w\\])(?:{_GROUPS})$")
_BRACED_GROUP = re.compile(rf"\{{\s*({_GROUPS})\s*\}}(?=\()")  # \mathrm{SU}(2): \mathrm{SU(2)


def groups(text: str) -> str:
    """The text with each group's number after its name ("SU(2)") in the noncharacters that the
    analyzer's punctuation table reads as parentheses."""
    if "}(" in text:
        text = _BRACED_GROUP.sub(r"{\1", text)
    return _GROUP_NUMBER.sub(_group, text)


def _group(match: re.Match[str]) -> str:
    if not _GROUP_NAME.search(match.string, max(0, match.start() - 8), match.start()):
        return match[0]
    return f"\ufdd0{match[1]}\ufdd1{' ' if match[2] else ''}"


# A particle named by a capital and a Greek letter is one word however written: "J/ψ", "$J/\psi$",
# "J/$\psi$", "J/psi" are "j/ψ" (charmonium had been nothing, or "psi"); the slash is the
# analyzer's mark. Not a ratio in math: "$V/\sigma \sim 4$", "$(R/λ)^2$", "$T/κ=1$",
# "$\Delta V/\Delta z$" (a command before a variable), nor a unit's "$μ$A/$μ$m", stay apart.
_NAMED = "|".join(f"(?i:{name[0]}){name[1:]}" for name in _GREEK_NAMES)  # "Psi", "psi", not "PSI"
_SLASHED_GREEK = re.compile(
    rf"/(?<=[A-Z]/)(?<![\w/][A-Z]/)\$?(?:\\({_NAMED})(?![A-Za-z]|\s*[A-Za-z])\$?"
    rf"|({_NAMED}|[\u0391-\u03a9\u03b1-\u03c9])(?!\$?[^\W\d_])\$?)"
    r"(?!\s*(?:[=<>~^_)]|\\(?:sim|simeq|approx|propto|le|ge|ll|gg|cdot|times)(?![a-z])))"
)


def slashed(text: str) -> str:
    """The text with a capital, a slash and a Greek letter (its name, its command) as the
    capital, the analyzer's slash and the letter."""
    return _SLASHED_GREEK.sub(_slashed, text)


def _slashed(match: re.Match[str]) -> str:
    letter = match[1] or match[2]
    return "\ufdd2" + GREEK.get(letter.lower(), letter)


# A Greek-lettered particle's state or mass is its word: "ψ(2S)", "Υ(1S)", "Λ(1405)" are
# "ψ(2s)", "υ(1s)", "λ(1405)" (they had been "2s", "1s": every paper's "2S" state met); its
# letter's name is the letter, as after "J/": "psi(2S)", "Upsilon(1S)" had been "psi", "2s".
_STATE = re.compile(r"\((?<=[\u03b1-\u03c9]\()(?<![\w\\][\u03b1-\u03c9]\()(\d[spdf]|\d{4})\)\$?")
_STATE_OPEN = re.compile(r"\((?=(?:\d[spdf]|\d{4})\))")
_NAME_BEFORE = re.compile(rf"(?<![\w\\])({'|'.join(_GREEK_NAMES)})\Z")


def states(text: str) -> str:
    """The (lower-cased) text with a Greek letter's state in the analyzer's parentheses, the
    letter's name before it as the letter."""
    parts: list[str] = []
    done = 0
    for match in _STATE_OPEN.finditer(text):
        name = _NAME_BEFORE.search(text, max(done, match.start() - 8), match.start())
        if name:
            parts += (text[done : name.start()], GREEK[name[1]])
            done = match.start()
    if parts:
        text = "".join(parts) + text[done:]
    return _STATE.sub("\ufdd0\\1\ufdd1", text) if not text.isascii() else text


# The number of supersymmetries is the theory's name: "$\mathcal{N}=4$ SYM", "N=4 SYM", "𝒩=4"
# are "n=4" (they had been "sym"). A plain N is that only before a supersymmetric word: "N=4"
# alone is a study's size ("N=12 participants"), and a small "n=4" always.
EQUALS = "\ufdd4"
_SUPERSYMMETRY = re.compile(r"=(?<=[N}\s\U0001d4a9]=)\s*(\d)(?!\d)\$?")  # "=" first: fast
_SUPERSYMMETRIC_N = re.compile(
    r"(?:\{\s*)?\\(?:math(?:cal|scr)|cal|scr)(?![a-z])\s*(?:\{\s*N\s*\}|N)(?:\s*\})?"
    r"\s*\Z|(?:\U0001d4a9|(?<![\w\\{])(N))\s*\Z"
)  # "$\mathcal{N}=4$", "${\cal N}=4$", "$\mathscr{N}=4$" (the last two had read no n=4)
_SUPERSYMMETRIC = re.compile(r"\s*(?:SYM|SQCD|SCFT|SUSY|SUGRA|[Ss]uper)")


def supersymmetries(text: str) -> str:
    """The text with each theory's number of supersymmetries as one word, "N" and the mark "=",
    which the analyzer reads as "=" in its word."""
    parts: list[str] = []
    done = 0
    for match in _SUPERSYMMETRY.finditer(text):
        n = _SUPERSYMMETRIC_N.search(text, max(done, match.start() - 16), match.start())
        if n and (not n[1] or _SUPERSYMMETRIC.match(text, match.end())):
            parts += (text[done : n.start()], f" N{EQUALS}{match[1]} ")
            done = match.end()
    return "".join(parts) + text[done:] if parts else text


# An ∞ before a hyphen and a word is "infinity": "∞-categories", "$(\infty,1)$-categories" read
# as "infinity-categories" (they had been "categories"); "L∞", "H∞" are left.
_INFINITY = re.compile(
    r"(?<![\w\\])\$?(?:\(\s*)?(?:\\infty(?![a-z])|∞)(?:\s*,\s*[\dn]\s*\))?\$?-(?=[^\W\d_])"
)


def infinities(text: str) -> str:
    """The (lower-cased) text with an ∞ before a hyphen and a word as "infinity"."""
    return _INFINITY.sub("infinity-", text)


# A language's name of a letter and "++" or "#" ("c++", "c#") is one word, with its version or
# without; any other "+" or "#" ends a phrase like other punctuation. A version is two digits or
# a digit and a letter ("c++17", "c#10", "c++0x", "c++2a"), or dotted ("c#7.3"): one digit is a
# note's octave, "C#4" and "F#5" are pitches, no C# (rules read them alike: rules._bounded).
SYMBOL_VERSION = r"\d(?:\d+|[a-z]|(?=\.\d))(?![\w+#])"
_SYMBOLS = re.compile(rf"(?<![\w+#])([a-z](?:\+\+|#))(?:{SYMBOL_VERSION}|(?![\w+#]))|[+#]")


def languages(text: str) -> str:
    """The (lower-cased) text with a language's name and its version (no word) set apart, any
    other "+" or "#" a phrase's end."""
    return _SYMBOLS.sub(_symbol, text)


def _symbol(match: re.Match[str]) -> str:
    """A language's name, its version (no word) set apart; any other "+" or "#" a phrase's end."""
    if not match[1]:
        return "|"
    return f"{match[1]} | " if len(match[0]) > len(match[1]) else f"{match[1]} "
