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
_WHOLE = re.compile(r"\d+(?![.,]?\d)")
# ``Quoted'' (or ``quoted" as some close it) and `quoted', each mark with its partner: a lone
# '' (arcseconds: 0.5'') or ` stays, as does an apostrophe within single quotes ("`Hund's rule'").
_QUOTES = re.compile(
    r"``(?=\S)(?P<double>(?:(?!``|''|\")[^\n]){1,300}?)(?<=\S)(?:''(?!')|\"(?!\w))"
    rf"|(?<![`\w])`(?=[^\W_]|{SPAN})(?P<single>[^`\n]{{0,300}}?)(?<=[^\s`])'(?![\w'])"
)
# What is not LaTeX's: an address keeps its `~` and `--` (https://host/~user/a--b).
_URL = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+", re.IGNORECASE)


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
    if _TIE.match(text, at):
        return " "
    named = _NAME.search(text, max(0, at - 100), at) and _WHOLE.match(text, at + 1)
    return " " if named else "~"


def _quote(match: re.Match[str]) -> str:
    if match["double"] is not None:
        return f"“{match['double']}”"
    return f"‘{match['single']}’"
