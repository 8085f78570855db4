"""LaTeX in paper text (BibTeX fields, OpenReview and arXiv abstracts) as plain Unicode text,
converted only where it is LaTeX: `2.1$\\mu$W` reads 2.1μW, while `$5 million` and `{x : x > 0}`
outside BibTeX stay as written. Spans go through pylatexenc one by one, cached.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache
from typing import Any

from digest.sources import ligatures

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
# Unicode's lowered and raised characters: NFKC reads each as the plain one (identity's title
# hash of "10⁶" is that of "106", as the flattened text of before). "−" is MathML's minus.
_SUBSCRIPT = dict(
    zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)
_SUPERSCRIPT = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ",
        strict=True,
    )
)
_SCRIPTED = set(_SUBSCRIPT.values()) | set(_SUPERSCRIPT.values())
_SCRIPT = re.compile(rf"([_^])\s*({_GROUP}|\\[A-Za-z]+(?:\s*{_GROUP})*|[^\s\\{{}}])")
# What needs no parentheses after a "^", a "/" or a "√": a number, or one character with its own
# scripts (x², xᵢ); after a "_" or around a "/" a run of letters too (W_eff, dx/dt).
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_ORDINALS = {"st", "nd", "rd", "th"}
# Function names: set apart from a letter before them (n log n, not "nlog n"), as TeX does.
_FUNCTIONS = set(
    "arccos arcsin arctan arg cos cosh cot coth csc deg det dim exp gcd hom inf ker lg lim"
    " liminf limsup ln log max min Pr sec sin sinh sup tan tanh".split()
)
_FUNCTION = re.compile(r"\\(" + "|".join(sorted(_FUNCTIONS)) + r")(?![A-Za-z])\s*")
# Old font switches ({\rm eff}, {\bf x}): they change the look only.
_SWITCHES = "rm it bf sf tt sl sc em cal mit".split()
_SWITCH = re.compile(r"\\(?:" + "|".join(_SWITCHES) + r")(?![A-Za-z])\s*")
# Font and box commands whose argument is the text (pylatexenc drops some of them in math).
_KEEP = (
    "mbox texttt textsf textrm textbf textit textsc textnormal textup text mathtt mathsf mathrm"
    " mathbf mathit operatorname boldsymbol bm"
).split()
# A command with no argument: one pylatexenc does not know (\R, a path's \Users) stays as written.
_BARE = re.compile(r"\\([A-Za-z]+)\*?(?![A-Za-z]|\s*[{\[])")
_BEFORE_SCRIPT = re.compile(r"(\\[A-Za-z]+)(?=\s*[_^])")
_SHIELD = 0xE000  # private-use characters hold the place of such commands through a conversion
_HELD = re.compile(f"[{chr(_SHIELD)}-{chr(_SHIELD + 0xFFF)}]")  # as many as a conversion holds
_BIBTEX_PUNCTUATION = (("---", "—"), ("--", "–"), ("``", "“"), ("''", "”"), ("~", " "))
_BIBTEX_MARKS = re.compile(r"[{}~\-`']")
_HOLDER = re.compile(f"[{ligatures.HOLDERS}]")


def is_math(content: str) -> bool:
    """Whether `$content$` is math rather than text between two dollar amounts ("$5 and $10"):
    math has no words of prose once its commands are set aside. Text ending in a blank before
    its closing dollar is math only when no amount can be in it: a command or one identifier,
    as IEEE's exported TeX writes `$\\epsilon $` and authors `$k $-means`."""
    bare = content.strip()
    if not bare or content[-1].isspace() and not _spaced_math(bare):
        return False
    return not any(c.isspace() for c in content) or not _WORD.search(_COMMAND.sub(" ", content))


def _spaced_math(bare: str) -> bool:
    if bare[0].isdigit():  # "$5 and $", "$ 20 million ... $": an amount
        return False
    return re.search(r"\\[A-Za-z]", bare) is not None or bare.isidentifier()


def to_text(value: str, *, bibtex: bool = False, marks: bool = True) -> str:
    """The plain text of `value`. With bibtex=True the whole value is LaTeX source, as BibTeX
    fields are: bare braces only group (they go), `~` is a space, `--` a dash. Else its text-mode
    punctuation is read where it can be nothing else (ligatures.py): ``quotes'', "Hartree--Fock",
    "Fig.~1" had reached readers as written; text marked verbatim (ligatures.verbatim) stays.
    With marks=False that punctuation stays as it is: a text converted once (snippets.tidy's,
    as stored), read again, had its address's "~" and "--" read (an address: `x.org/a~b`)."""
    if "\ue102" in value:
        return _around_verbatim(value, bibtex, marks)
    if "\\" not in value and "$" not in value:
        if not marks or not (_BIBTEX_MARKS if bibtex else ligatures.MARKS).search(value):
            return value
    value = _LOST_BRACES.sub(lambda m: f"\\{m[1] or m[3]}{{{m[2] or m[4]}}}", value)
    literals, spans = _pieces(value)
    if bibtex or not marks or any(c in value for c in ligatures.HOLDERS):
        literals = [_literal(text, bibtex) for text in literals]
    else:
        holders = (ligatures.SPAN if span else ligatures.QUIET for span in spans)
        marked = "".join(t + h for t, h in zip(literals, holders, strict=False)) + literals[-1]
        literals = _HOLDER.split(ligatures.punctuated(marked))
    return "".join(t + s for t, s in zip(literals, spans, strict=False)) + literals[-1]


_STAND_IN = "\ua66e"  # a letter (ꙮ) in the verbatim text's place: the rules see a word there


def _around_verbatim(value: str, bibtex: bool, marks: bool) -> str:
    """The text converted around its verbatim parts, which stay as written."""
    kept = ligatures.VERBATIM.findall(value)
    if _STAND_IN not in value:
        read = to_text(ligatures.VERBATIM.sub(_STAND_IN, value), bibtex=bibtex, marks=marks)
        parts = read.split(_STAND_IN)
        if len(parts) == len(kept) + 1:
            return "".join(t + k for t, k in zip(parts, [*kept, ""], strict=True))
    pieces = ligatures.VERBATIM.split(value)  # odd: verbatim
    return "".join(
        p if n % 2 else to_text(p, bibtex=bibtex, marks=marks) for n, p in enumerate(pieces)
    )


def _pieces(value: str) -> tuple[list[str], list[str]]:
    """The text between LaTeX's spans, as written, and each span converted (one fewer)."""
    literals: list[str] = []
    spans: list[str] = []
    start = done = 0
    while match := _SPAN.search(value, done):
        math = next((match[g] for g in ("display", "inline", "paren", "bracket") if match[g]), None)
        if match["inline"] is not None and not is_math(math or ""):
            # Not math: the first dollar is text; the second may open math of its own.
            done = match.end() - 1
            continue
        literals.append(value[start : match.start()])
        spans.append(_convert(match.group()) if math is None else _math(math))
        start = done = match.end()
    literals.append(value[start:])
    return literals, spans


def _literal(text: str, bibtex: bool) -> str:
    if not bibtex:
        return text
    text = text.replace("{", "").replace("}", "")
    for source, target in _BIBTEX_PUNCTUATION:
        text = text.replace(source, target)
    return text


@lru_cache(maxsize=8192)
def _math(content: str) -> str:
    """Math as text: symbols in Unicode, sub- and superscripts by script(), function names
    apart from the letters around them, font switches gone."""
    kept: list[str] = []

    def shield(text: str) -> str:
        if len(kept) >= 0x1000:
            return text
        kept.append(text)
        return chr(_SHIELD + len(kept) - 1)

    def scripted(match: re.Match[str]) -> str:
        inner = match[2][1:-1] if match[2].startswith("{") else match[2]
        # Converted on its own, with its commands as written: its placeholders are its own.
        text = script(_math(_restored(inner, kept)), up=match[1] == "^")
        # Anything but letters (T^(2/3), x*) goes through pylatexenc held: "%" or "{" is text.
        return text if all(c.isalnum() or c in _SCRIPTED for c in text) else shield(text)

    content = _prepared(content)
    content = _BARE.sub(lambda m: m[0] if _known(m[1]) else shield(m[0]), content)
    # A command then its script: `\ell` then `ₚ` read as one unknown command `\ellₚ`, and lost.
    content = _BEFORE_SCRIPT.sub(r"\1{}", content)
    return _restored(" ".join(_convert("$" + _SCRIPT.sub(scripted, content) + "$").split()), kept)


def _restored(text: str, kept: list[str]) -> str:
    """The held texts back in their places, in one pass (one pass per text was quadratic)."""
    if not kept:
        return text

    def back(match: re.Match[str]) -> str:
        number = ord(match[0]) - _SHIELD
        return kept[number] if number < len(kept) else match[0]

    return _HELD.sub(back, text)


def _prepared(content: str) -> str:
    """Math source with its spacing fixed before conversion: a blank between a base and its
    script goes (IEEE's `\\ell _{1}` is ℓ₁, not "ℓ ₁"), a function name is written as a word with
    a blank where a letter would run into it (`n\\log n`, `\\log\\log n`), \\dfrac is \\frac, and a
    font switch (`{\\rm eff}`) goes."""
    content = re.sub(r"(?<!\\)\s+(?=[_^])", "", content)
    content = re.sub(r"\\[dtc]frac(?![A-Za-z])", r"\\frac", content)
    content = _SWITCH.sub("", content)
    return _FUNCTION.sub(_function, content)


def _function(match: re.Match[str]) -> str:
    name = {"limsup": "lim sup", "liminf": "lim inf"}.get(match[1], match[1])
    before = match.string[match.start() - 1 : match.start()]
    after = match.string[match.end() : match.end() + 1]
    left = " " if before.isalnum() or before in ")]}" else ""
    right = " " if after.isalnum() or after in "\\{" else ""
    return left + name + right


def script(text: str, *, up: bool) -> str:
    """A superscript (up) or subscript: in Unicode where Unicode has every character (10⁶, H₂O,
    2ᵏ), an ordinal inline (5th, kth), a mark inline (x*, f′, H∞); else marked so that it does
    not run into its base as another number: T^(2/3), n^α, W_eff."""
    text = text.strip()
    table = _SUPERSCRIPT if up else _SUBSCRIPT
    if up and text in _ORDINALS:
        return text
    # Commas and dashes stay as they are between raised characters: citations¹,²⁻⁴, xᵢ,ⱼ.
    if all(c in table or c in ",–" for c in text):
        return "".join(table.get(c, c) for c in text)
    if not any(c.isalnum() for c in text):
        return text
    return ("^" if up else "_") + _grouped(text, loose=not up)


def fraction(numerator: str, denominator: str) -> str:
    """a/b, each part in parentheses unless it is one term: 1/2, (a+b)/2, n/(log n)."""
    return f"{_grouped(numerator.strip(), loose=True)}/{_grouped(denominator.strip(), loose=True)}"


def root(body: str, index: str = "") -> str:
    """√s, √(x+1), ∛x; another index raised before the sign (ⁿ√x) or, if Unicode cannot raise
    it, in brackets after it."""
    index = index.strip()
    sign = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index)
    if sign is None:
        raised = script(index, up=True)
        sign = raised + "√" if raised[:1] not in ("^", "_") else f"√[{index}]"
    return sign + _grouped(body.strip(), loose=False)


def _grouped(text: str, *, loose: bool) -> str:
    one = (
        _NUMBER.fullmatch(text)
        or ((text[:1].isalnum() or len(text) == 1) and all(c in _SCRIPTED for c in text[1:]))
        or (loose and all(c.isalnum() for c in text))
    )
    return text if one or not text else f"({text})"


def _known(name: str) -> bool:
    return _converter().latex_context.get_macro_spec(name) is not None


@lru_cache(maxsize=16384)
def _convert(span: str) -> str:
    bare = _BARE.fullmatch(span)
    if bare and not _known(bare[1]):
        return span  # not LaTeX we know: perhaps not LaTeX at all (C:\Users\name)
    try:
        text = _converter().latex_to_text(span, latex_context=_walker_context())
    except Exception:  # pylatexenc on malformed LaTeX: the source is more use than nothing
        return span
    if "%s" in text and "%s" not in span:  # an accent without its argument ("R\widehat,")
        return span
    # \mathcal{O} is 𝒪, a letter few fonts have: the plain O reads the same.
    text = "".join(
        unicodedata.normalize("NFKC", c) if 0x1D400 <= ord(c) <= 0x1D7FF else c for c in text
    )
    return unicodedata.normalize("NFC", text.replace("\xa0", " "))


@lru_cache(maxsize=1)
def _walker_context() -> Any:
    """The parser's macro table, made once: made again for every span, it was a quarter of the
    time a paper file's LaTeX took to read."""
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import MacroSpec

    context = get_default_latex_context_db()
    # Unknown to it, \href{url}{text} had been read without its arguments, and kept as written.
    context.add_context_category("digest", prepend=True, macros=[MacroSpec("href", "{{")])
    return context


@lru_cache(maxsize=1)
def _converter() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    # Its complaint of an accent without its argument, which _convert answers with the source,
    # had reached the log as "WARNING: Error in configuration", naming no paper or source.
    logging.getLogger("pylatexenc").setLevel(logging.ERROR)

    context = get_default_latex_context_db()
    # Citations and labels say nothing in a digest; a URL is worth its text (as written: its
    # "--" is no dash), a link its text; \mbox is text.
    quiet = ("cite", "citep", "citet", "ref", "eqref", "label", "footnote")
    context.add_context_category(
        "digest",
        prepend=True,
        macros=[MacroTextSpec(name, simplify_repl="") for name in quiet]
        + [MacroTextSpec("url", simplify_repl=_url), MacroTextSpec("href", simplify_repl=_href)]
        + [MacroTextSpec(name, discard=False) for name in _KEEP]
        + [MacroTextSpec(name, simplify_repl="") for name in _SWITCHES]
        + [MacroTextSpec("frac", simplify_repl=_frac), MacroTextSpec("sqrt", simplify_repl=_sqrt)],
    )
    return LatexNodes2Text(latex_context=context, math_mode="text")


def _arguments(node: Any, l2tobj: Any) -> list[str]:
    found = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else []
    return [l2tobj.nodelist_to_text([arg]) if arg is not None else "" for arg in found]


def _frac(node: Any, l2tobj: Any) -> str:
    parts = [*_arguments(node, l2tobj), "", ""]
    return fraction(parts[0], parts[1])


def _sqrt(node: Any, l2tobj: Any) -> str:
    parts = ["", "", *_arguments(node, l2tobj)][-2:]  # [index], {body}
    return root(parts[1], parts[0])


def _url(node: Any, l2tobj: Any) -> str:
    found = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else []
    written = str(found[-1].latex_verbatim()) if found and found[-1] is not None else ""
    return written[1:-1] if written.startswith("{") else written


def _href(node: Any, l2tobj: Any) -> str:
    """A link's text and its address ("here" alone, or "this URL", had said nothing); the text
    alone when it writes the address."""
    found = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else []
    if len(found) < 2 or found[0] is None or found[1] is None:
        return " ".join(_arguments(node, l2tobj))
    address, written = (str(arg.latex_verbatim())[1:-1].strip() for arg in found[:2])
    address = re.sub(r"\\([#_%&~$])", r"\1", address)  # escaped as LaTeX asks: \# is #
    bare = re.sub(r"^[a-z]+://(?:www\.)?|/$", "", address, flags=re.IGNORECASE)
    if "\\" not in written and bare and bare.lower() in written.lower():
        return written  # the address as its text: as written, its "--" no dash
    text = " ".join(l2tobj.nodelist_to_text([found[1]]).split())
    if not text or not address:
        return text or address
    return text if bare.lower() in text.lower() else f"{text} ({address})"
