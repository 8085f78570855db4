"""HTML in a feed's titles and abstracts as plain text: known elements' tags go, a "<" that
opens none stays (an abstract's `$k<n$`), and a formula's parts stay apart (10⁶ is not 106, ½
is not 12): HTML's <sup> and <sub>, MathML's scripts, fractions and roots read as LaTeX's do."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from html.parser import HTMLParser

from digest.sources.latex import fraction, root, script

_BLOCKS = {"p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"}
# Elements whose parts are put together, not run together: a base and its script, a numerator
# and its denominator. Each child element is one part (a MathML <mrow> groups several).
_LAYOUT = {
    "sup", "sub", "msqrt", "msup", "msub", "msubsup", "mfrac", "mroot", "mover", "munder",
    "munderover",
}  # fmt: skip
_VOID = {"br", "img", "hr", "wbr", "col", "meta", "link", "input", "source", "param", "track"}
# MathML's invisible operators (function application, invisible times): no reading of their own.
_INVISIBLE = dict.fromkeys(range(0x2061, 0x2065))


@dataclass
class _Layout:
    tag: str
    # Each part's pieces, joined at the end: a part grown by += was quadratic in its pieces.
    parts: list[list[str]] = field(default_factory=list)
    depth: int = 0  # elements open inside the current part

    def texts(self) -> list[str]:
        return ["".join(part) for part in self.parts]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.layouts: list[_Layout] = []
        self.token = False  # in a MathML <mi> or <mo>, whose "log" is a word, not a product
        self.word = False  # such a word was the last text: a letter after it is set apart

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = tag.rpartition(":")[2]
        if self.layouts and name not in _VOID:
            top = self.layouts[-1]
            if top.depth == 0:
                top.parts.append([])
            top.depth += 1
        self.token = name in ("mi", "mo")
        if name in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self._emit(" ")
        elif name in _LAYOUT:
            self.layouts.append(_Layout(name))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:  # <br/>; a hidden element closed at once hides nothing
            self._emit(" ")

    def handle_endtag(self, tag: str) -> None:
        name = tag.rpartition(":")[2]
        self.token = False
        if name in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self._emit(" ")
        if self.layouts and self.layouts[-1].tag == name:  # closed, even with a part left open
            self._emit(_composed(self.layouts.pop()))
        if self.layouts and name not in _VOID:
            self.layouts[-1].depth = max(0, self.layouts[-1].depth - 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        data = data.translate(_INVISIBLE)
        word = data.strip()
        if self.token and len(word) > 1 and word.isalpha():
            # <mi>n</mi><mi>log</mi><mi>n</mi> is "n log n", as LaTeX's n\log n is.
            data = (" " if self._last()[-1:].isalnum() else "") + word
            self.word = True
        elif word:
            data = " " + data if self.word and data[:1].isalnum() else data
            self.word = False
        self._emit(data)

    def close(self) -> None:
        super().close()
        while self.layouts:  # a layout left open by a cut or broken fragment: its text as it is
            self._emit("".join(self.layouts.pop().texts()))

    def _emit(self, text: str) -> None:
        if not self.layouts:
            self.parts.append(text)
            return
        top = self.layouts[-1]
        if top.depth:
            top.parts[-1].append(text)
        elif text.strip():  # text right inside the element is a part of its own
            top.parts.append([text])

    def _last(self) -> str:
        """The text just before the current place (a few characters are enough)."""
        pieces = self.layouts[-1].parts[-1] if self.layouts and self.layouts[-1].parts else []
        return next((p for p in reversed(pieces if self.layouts else self.parts) if p), "")


def _composed(layout: _Layout) -> str:
    """The text of a layout element: its parts put together as LaTeX's would be; parts of a
    number that does not fit (<mroot>x3</mroot> with no elements) run together as written."""
    texts, tag = layout.texts(), layout.tag
    parts = [text.strip() for text in texts]
    if tag in ("sup", "sub"):
        return script("".join(texts), up=tag == "sup")
    if tag == "msqrt":
        return root("".join(parts))
    if len(parts) != (3 if tag in ("msubsup", "munderover") else 2):
        return "".join(texts)
    if tag == "mfrac":
        return fraction(*parts)
    if tag == "mroot":
        return root(parts[0], parts[1])
    if tag in ("msubsup", "munderover"):
        return parts[0] + script(parts[1], up=False) + script(parts[2], up=True)
    return parts[0] + script(parts[1], up=tag in ("msup", "mover"))


def html_text(fragment: str) -> str:
    """The readable text of an HTML fragment (entities decoded), whitespace collapsed. A "<"
    that opens no tag is text: `$k<n$ when $m>2$` and `<psi|H|psi>` are an abstract's, and an
    author types them into a title as often as a feed writes <b> or <sub>."""
    if "<" not in fragment and "&" not in fragment:
        return " ".join(fragment.split())
    parser = _Text()
    closed = {name.lower() for name in _CLOSING.findall(fragment)}
    parser.feed(_TAG_OR_LESS.sub(functools.partial(_escaped, closed=closed), fragment))
    parser.close()
    return " ".join("".join(parser.parts).split())


# Any "<": a tag is a known element's (or a namespaced one's: <jats:p>, <mml:mi>) with no
# attributes or with some that hold "="; a comment, a doctype or a CDATA section is markup too.
# The attributes run greedy to the ">" (a "/" of a self-closing tag among them): lazy, with the
# blanks after them, "<a" and 100,000 blanks took minutes, the blanks tried every way.
_TAG_OR_LESS = re.compile(
    r"<(?:(/?)([A-Za-z][A-Za-z0-9-]*(?::[A-Za-z][\w.-]*)?)(\s[^<>]*)?/?>|!--|!\[CDATA\[|!DOCTYPE)?",
    re.IGNORECASE,
)
_ELEMENTS = set(
    "a abbr acronym address article aside b bdi bdo big blockquote body br caption center cite"
    " code col colgroup dd del dfn div dl dt em figcaption figure font footer h1 h2 h3 h4 h5 h6"
    " head header hr html i img ins kbd li link main mark math meta mi mn mo mrow msub msubsup"
    " msup mfrac msqrt mtext nav ol p pre q s samp script section small span strike strong style"
    " sub sup table tbody td tfoot th thead title tr tt u ul var wbr".split()
)
# Elements publishers write that are also words an abstract puts in angle brackets ("a prompt
# <template>", "the <label> token"): a tag only where the text closes it (or it has attributes,
# or closes itself); else the words stay.
_WHEN_CLOSED = set(
    # HTML5 that lab blogs write, and SVG
    "picture source time noscript details summary template video audio track canvas iframe"
    " object embed param data meter progress ruby rt rp dialog output svg"
    " path g circle rect line polyline polygon ellipse defs use text tspan symbol clippath"
    # MathML beyond the common ones (APS, Elsevier)
    " maction menclose merror mfenced mglyph mlabeledtr mmultiscripts mover mpadded mphantom"
    " mprescripts mroot ms mspace mstyle mtable mtd mtr munder munderover none semantics"
    " annotation annotation-xml"
    # JATS without its prefix, and IEEE's (Crossref-fed journal feeds)
    " italic bold sc monospace underline overline roman sans-serif xref sec label list"
    " list-item inline-formula disp-formula tex-math alternatives ext-link named-content"
    " styled-content uri inline-graphic graphic".split()
)
_CLOSING = re.compile(r"</([A-Za-z][\w.:-]*)\s*>")
# Elements whose text is no reading: MathML's annotation repeats the formula as TeX.
_HIDDEN = {"script", "style", "noscript", "template", "annotation", "annotation-xml", "svg"}


def _escaped(match: re.Match[str], closed: Collection[str] = ()) -> str:
    whole, name = match[0], match[2]
    attributes = (match[3] or "").rstrip().removesuffix("/")  # <br /> has none
    if whole != "<" and name is None:  # a comment, a doctype, CDATA
        return whole
    lower = "" if name is None else name.lower()
    written = lower in closed or "=" in attributes or whole.endswith("/>")
    tag = name is not None and (
        lower in _ELEMENTS or ":" in name or (lower in _WHEN_CLOSED and written)
    )
    if tag and (not attributes.strip() or ("=" in attributes and not match[1])):
        return whole
    return "&lt;" + whole[1:]
