"""HTML in a feed's titles and abstracts as plain text: known elements' tags go, a "<" that
opens none stays (an abstract's `$k<n$`), superscripts stay raised (10⁶ is not 106)."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from html.parser import HTMLParser

_BLOCKS = {"p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.sup = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self.parts.append(" ")
        elif tag == "sup":
            self.sup += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:  # <br/>; a hidden element closed at once hides nothing
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self.parts.append(" ")
        elif tag == "sup":
            self.sup = max(0, self.sup - 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.sup and data.strip():
            # Raised where Unicode has every character (10⁶, Fe³⁺: NFKC reads them as they
            # were, so identity is as before); "5<sup>th</sup>" stays "5th".
            raised = data.strip().translate(_SUPERSCRIPT)
            data = raised if set(raised) <= _RAISED else data
        self.parts.append(data)


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
# A superscript that a reader needs as one: 10<sup>6</sup> cells are not 106 (charges too: Fe3+).
_SUPERSCRIPT = str.maketrans("0123456789+-−=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿ")
_RAISED = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")


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
