"""LaTeX in paper text (BibTeX fields, OpenReview and arXiv abstracts) as plain Unicode text,
converted only where it is LaTeX: `2.1$\\mu$W` reads 2.1μW, while `$5 million` and `{x : x > 0}`
outside BibTeX stay as written. Spans go through pylatexenc one by one, cached.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

MATH = 500  # characters of a \(...\) or \[...\] span, at most
# Balanced math, a command with its arguments, an accent on one letter, an escaped character.
_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_SPAN = re.compile(
    r"\$\$(?P<display>[^$]+)\$\$"
    r"|\$(?P<inline>[^$]+)\$"
    # At most MATH characters: an unclosed \( scanned to the end of the text, for each of them.
    rf"|\\\((?P<paren>.{{1,{MATH}}}?)\\\)"
    rf"|\\\[(?P<bracket>.{{1,{MATH}}}?)\\\]"
    r"|\\[\"'`^~=.]\s*(?:\{(?:[^{}]|\{[^{}]*\})*\}|\\?[A-Za-z])"
    rf"|\\[A-Za-z]+\*?(?:\s*\[[^\]{{}}]*\])?(?:\s*{_GROUP})*"
    r"|\\[^A-Za-z\s]"
    r"|\{\\(?:[^{}]|\{[^{}]*\})*\}",  # {\"u}, {\~{\^{e}}}: a group opening with a command
    re.DOTALL,
)
# A command whose braces an export lost: `\textCFT` was `\text{CFT}`, `\mboxk` was `\mbox{k}`.
_LOST_BRACES = re.compile(
    r"\\(text|mathrm|mathit|mathbf)([A-Z0-9][A-Za-z0-9]*)|\\(mbox)([A-Za-z0-9]+)"
)
_COMMAND = re.compile(r"\\[A-Za-z]+\*?(?:\s*\{[^{}]*\})?")
_WORD = re.compile(r"[^\W\d_]{4,}")
_SUBSCRIPT = dict(
    zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)
_SUPERSCRIPT = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ",
        strict=True,
    )
)
_SCRIPT = re.compile(r"([_^])\s*(\{[^{}]*\}|\\[A-Za-z]+\s*(?:\{[^{}]*\})?|[^\s\\{}])")
# Font and box commands whose argument is the text (pylatexenc drops some of them in math).
_KEEP = (
    "mbox texttt textsf textrm textbf textit textsc textnormal textup text mathtt mathsf mathrm"
    " mathbf mathit operatorname boldsymbol bm"
).split()
# A command with no argument: one pylatexenc does not know (\R, a path's \Users) stays as written.
_BARE = re.compile(r"\\([A-Za-z]+)\*?(?![A-Za-z]|\s*[{\[])")
_BEFORE_SCRIPT = re.compile(r"(\\[A-Za-z]+)(?=\s*[_^])")
_SHIELD = 0xE000  # private-use characters hold the place of such commands through a conversion
_BIBTEX_PUNCTUATION = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("~", " "))


def is_math(content: str) -> bool:
    """Whether `$content$` is math rather than text between two dollar amounts ("$5 and $10"):
    math has no words of prose once its commands are set aside."""
    if not content.strip() or content[-1].isspace():
        return False
    return not any(c.isspace() for c in content) or not _WORD.search(_COMMAND.sub(" ", content))


def to_text(value: str, *, bibtex: bool = False) -> str:
    """The plain text of `value`. With bibtex=True the whole value is LaTeX source, as BibTeX
    fields are: bare braces only group (they go), `~` is a space, `--` a dash."""
    if "\\" not in value and "$" not in value:
        if not bibtex or not any(c in value for c in "{}~-`'"):
            return value
    value = _LOST_BRACES.sub(lambda m: f"\\{m[1] or m[3]}{{{m[2] or m[4]}}}", value)
    out: list[str] = []
    done = 0
    while match := _SPAN.search(value, done):
        out.append(_literal(value[done : match.start()], bibtex))
        math = next((match[g] for g in ("display", "inline", "paren", "bracket") if match[g]), None)
        done = match.end()
        if math is None:
            out.append(_convert(match.group()))
        elif match["inline"] is not None and not is_math(math):
            # Not math: the first dollar is text; the second may open math of its own.
            out.append("$" + _literal(math, bibtex))
            done -= 1
        else:
            out.append(_math(math))
    out.append(_literal(value[done:], bibtex))
    return "".join(out)


def _literal(text: str, bibtex: bool) -> str:
    if not bibtex:
        return text
    text = text.replace("{", "").replace("}", "")
    for source, target in _BIBTEX_PUNCTUATION:
        text = text.replace(source, target)
    return text


@lru_cache(maxsize=8192)
def _math(content: str) -> str:
    """Math as text: symbols in Unicode, sub- and superscripts raised or lowered where Unicode
    has the letters (H₂O, 2ᵏ), else written inline."""

    def script(match: re.Match[str]) -> str:
        inner = match[2][1:-1] if match[2].startswith("{") else match[2]
        text = _convert(f"${inner}$").strip()
        table = _SUBSCRIPT if match[1] == "_" else _SUPERSCRIPT
        if text and all(c in table for c in text):
            return "".join(table[c] for c in text)
        return text

    kept: list[str] = []

    def shield(match: re.Match[str]) -> str:
        if _known(match[1]) or len(kept) >= 0x1000:
            return match[0]
        kept.append(match[0])
        return chr(_SHIELD + len(kept) - 1)

    content = _BARE.sub(shield, content)
    # A command then its script: `\ell` then `ₚ` read as one unknown command `\ellₚ`, and lost.
    content = _BEFORE_SCRIPT.sub(r"\1{}", content)
    text = " ".join(_convert("$" + _SCRIPT.sub(script, content) + "$").split())
    for number, command in enumerate(kept):
        text = text.replace(chr(_SHIELD + number), command)
    return text


def _known(name: str) -> bool:
    return _converter().latex_context.get_macro_spec(name) is not None


@lru_cache(maxsize=16384)
def _convert(span: str) -> str:
    bare = _BARE.fullmatch(span)
    if bare and not _known(bare[1]):
        return span  # not LaTeX we know: perhaps not LaTeX at all (C:\Users\name)
    try:
        text = _converter().latex_to_text(span)
    except Exception:  # pylatexenc on malformed LaTeX: the source is more use than nothing
        return span
    # \mathcal{O} is 𝒪, a letter few fonts have: the plain O reads the same.
    text = "".join(
        unicodedata.normalize("NFKC", c) if 0x1D400 <= ord(c) <= 0x1D7FF else c for c in text
    )
    return unicodedata.normalize("NFC", text.replace("\xa0", " "))


@lru_cache(maxsize=1)
def _converter() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    context = get_default_latex_context_db()
    # Citations and labels say nothing in a digest; a URL is worth its text; \mbox is text.
    quiet = ("cite", "citep", "citet", "ref", "eqref", "label", "footnote")
    context.add_context_category(
        "digest",
        prepend=True,
        macros=[MacroTextSpec(name, simplify_repl="") for name in quiet]
        + [MacroTextSpec("url", simplify_repl="%s")]
        + [MacroTextSpec(name, discard=False) for name in _KEEP],
    )
    return LatexNodes2Text(latex_context=context, math_mode="text")
