"""LaTeX's text-mode punctuation in prose, outside its commands and math: ``quotes'' and
`quotes', `--` and `---` between words, `~` ties, the control space `\\ `: where nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Stand-ins, in the text these rules read, for what latex.to_text converts (math, a command):
# a span that reads as text, and one that says nothing (\cite, \label).
SPAN, QUIET = "\ue100", "\ue101"
HOLDERS = SPAN + QUIET
MARKS = re.compile(r"--|[~`]|\\ ")  # a text without any of them has nothing to change here
# Around text no rule reads (an OpenReview abstract's Markdown code span, `a--b`): latex.to_text
# keeps it as written, and drops the marks.
VERBATIM = re.compile("\ue102([^\ue103]*)\ue103")

_AFTER_WORD = rf"(?:(?<=[^\W_])|(?<=[{HOLDERS}]))"
# A `~` ties words: "Fig.~1", "10--20~keV", "models~(LLMs)", "[O~III]~$\lambda$", before a
# citation ("benchmark~\cite{x}." is "benchmark.", no blank before the stop). Elsewhere it means
# "approximately": not between words ("~10 K", "~ 5%"), and before a number after a variable or a
# number ("z~6", "T_eff~1000K", "Recall@1~0.45", "radius~1.26"), arXiv's abstracts' most usual
# `~` before a number. A tie before a number follows a name with a capital ("NGC~55", "HR~8799",
# "HoloLens~2"), and the number is whole ("DFT~2.04" is approximate).
# A `--` or `---` between words or numbers is a dash ("Hartree--Fock", "10--20", "(LLMs)--which",
# "datasets -- either"); not a command's flag (" --help"), nor an arrow ("-->", "<--").
_RULES = re.compile(
    r"(?P<tilde>~)"
    rf"|(?P<dash>(?:{_AFTER_WORD}|(?<=[%)\]}}\"”’']))(?:---|--)(?=[^\W_]|[{SPAN}(\[$\\]))"
    # Between blanks too, arXiv's usual form: "datasets -- either in context".
    rf"|(?P<spaced>(?:(?<=[^\W_] )|(?<=[{HOLDERS}%)\]}}\"”’',.;:] ))(?:---|--)"
    rf"(?= (?:[^\W_]|[{SPAN}(\[$\\“‘`])))"
    # The control space after an abbreviation's stop: "i.e.\ the".
    rf"|(?P<space>(?:{_AFTER_WORD}|(?<=\.))\\(?= ))"
)
_TIE = re.compile(rf"(?:{_AFTER_WORD}|(?<=[.:;,)\]}}]))~(?=[^\W\d_]|[{SPAN}(\[])|(?<=[.:;])~(?=\d)")
_NAME = re.compile(r"(?<![\w\\.])(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{2,}$")
_WHOLE = re.compile(r"\d+(?![.,]?\d|[eE][-+]?\d)")
# But a symbol's `~` is "approximately", and so is one before a quantity: "Tc~90 K", "pH~7",
# "kT~80 eV", "IC50~5 nM", "Mvir~3e13", "f_esc,Lya~30%", "BTCV:~84.64%" had lost it, shown as
# exact. A symbol, before a number: two letters not both capitals (Tc, Kd, pH, Re; "HR~8799",
# "SN~1987A" are names). A quantity: a number with a unit, a percent or a power of ten after it.
_SYMBOL = re.compile(r"(?<![\w\\.])[A-Za-z](?:[a-z]|(?<=[a-z])[A-Z])$")
_PREFIXED = r"[kMGTmµμunp]?(?:eV|Hz|Da|pc|yr|bar|mol|erg|Pa)|[kMGTmµμunp][KMmsgWVAJTL]"
_QUANTITY = re.compile(  # a bare letter's unit after a blank: "1987A", "4329A" are names
    rf"\d+(?:[.,]\d+)?(?:\s?(?:%|[×x]\s?10|°|{_PREFIXED}|dB|dex|mag|au|AU|min|Mo|M⊙|Msun)"
    r"|\s[KMmsgWVJTLh])(?![\w-])"
)
# ``Quoted'' (or ``quoted" as some close it) and `quoted', each mark with its partner: a lone
# '' (arcseconds: 0.5'') or ` stays, as does an apostrophe within single quotes ("`Hund's rule'").
_QUOTES = re.compile(
    r"``(?=\S)(?P<double>(?:(?!``|''|\")[^\n]){1,300}?)(?<=\S)(?:''(?!')|\"(?!\w))"
    rf"|(?<![`\w])`(?=[^\W_]|{SPAN})(?P<single>[^`\n]{{0,300}}?)(?<=[^\s`])'(?![\w'])"
)
# What is not LaTeX's: an address keeps its `~` and `--` (https://host/~user/a--b).
_URL = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+", re.IGNORECASE)


def verbatim(text: str) -> str:
    """The text, marked for latex.to_text to keep as written."""
    return f"\ue102{text}\ue103"


def punctuated(text: str) -> str:
    """The text with LaTeX's text-mode marks as the characters they print, outside addresses."""
    if not MARKS.search(text):
        return text
    text = _outside_urls(text, _RULES, _rule)
    return _outside_urls(text, _QUOTES, _quote) if "`" in text else text


def _outside_urls(
    text: str, pattern: re.Pattern[str], change: Callable[[re.Match[str]], str]
) -> str:
    found = "//" in text or "www." in text.lower()
    urls = [m.span() for m in _URL.finditer(text)] if found else []

    def replace(match: re.Match[str]) -> str:
        if any(start <= match.start() < end for start, end in urls):
            return match[0]
        return change(match)

    return pattern.sub(replace, text)


def _rule(match: re.Match[str]) -> str:
    kind = match.lastgroup
    if kind in ("dash", "spaced"):
        return "—" if match[0] == "---" else "–"
    if kind == "space":
        return ""
    return _tilde(match.string, match.start())


def _tilde(text: str, at: int) -> str:
    if text.startswith(QUIET, at + 1):
        return ""
    if _QUANTITY.match(text, at + 1) or (
        text[at + 1 : at + 2].isdigit() and _SYMBOL.search(text, max(0, at - 3), at)
    ):
        return "~"
    whole = _WHOLE.match(text, at + 1)
    if _TIE.match(text, at) and (whole or not text[at + 1 : at + 2].isdigit()):
        return " "  # "Fig.~1", "Lett.~121"; "BTCV:~84.64%" is approximate
    return " " if whole and _NAME.search(text, max(0, at - 100), at) else "~"


def _quote(match: re.Match[str]) -> str:
    if match["double"] is not None:
        return f"“{match['double']}”"
    return f"‘{match['single']}’"
