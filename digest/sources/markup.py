"""HTML in a feed's titles and abstracts as plain text: known elements' tags go, a "<" that
opens none stays (an abstract's `$k<n$`), and a formula's parts stay apart (10⁶ is not 106, ½
is not 12): HTML's <sup> and <sub>, MathML's scripts, fractions, roots, fences and tables read
as LaTeX's do, and of JATS's <alternatives> one rendering is read."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from html.parser import HTMLParser

from digest.sources.latex import fraction, root, script

# Read by their names without a prefix: JATS's <jats:p> had run its paragraphs together. Every
# block element is a line of its own (in a list of names one a line), not <p> and <div> alone:
# "<dt>Aim</dt><dd>We", "end.<hr>Next", "<section>A</section><section>B" had read "AimWe".
_LINES = {"p", "br", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote"} | {
    "dl", "dt", "dd", "ul", "ol", "hr", "section", "article", "header", "footer", "aside", "nav",
    "main", "address", "figure", "figcaption", "caption", "table", "thead", "tbody", "tfoot",
    "pre", "center", "details", "summary", "body", "html",
    # JATS's (their prefix's, <jats:fig>): sections, lists, figures and tables, quotes, terms
    "sec", "title", "list", "list-item", "fig", "table-wrap", "def-list", "def-item", "term",
    "def", "disp-quote", "boxed-text", "statement", "abstract", "break",
}  # fmt: skip
# A section's title (JATS's <title>, HTML's headings), a list and its items (_structure), and
# the marks that end a title or an item already.
_HEADINGS = {"title", "h1", "h2", "h3", "h4", "h5", "h6"}
_LISTS = {"ul", "ol", "list"}
_ITEMS = {"li", "list-item"}
_CLOSED = tuple(":.?!;,\u2013\u2014-")
# Blanks but no lines: a table's cells ("Jane</td><td>Doe" is one name) and a formula's parts.
_BLOCKS = _LINES | {"td", "th", "mtable", "disp-formula"}
# A MathML table's rows and cells, a blank (or a row's "; ") at their start only, so that no
# blank comes between a cell and the next row's "; ": the matrix [1 0; 0 1] had read "1001".
_ROWS = {"mtr", "mlabeledtr"}
_CELLS = _ROWS | {"mtd"}
# Elements whose parts are put together, not run together: a base and its script, a numerator
# and its denominator. Each child element is one part (a MathML <mrow> groups several).
_LAYOUT = {
    "sup", "sub", "msqrt", "msup", "msub", "msubsup", "mfrac", "mroot", "mover", "munder",
    "munderover", "mfenced", "mmultiscripts", "alternatives",
}  # fmt: skip
# Layouts inside as many layouts are read as written, their parts run together: each closing
# composed all the text inside it again, and 40,000 nested <sup> took minutes (n² in the depth).
# No formula nests so deep; past it the work is linear, at most this many passes over the text.
_DEEPEST = 32
# MathML's empty elements: a part of the layout they stand in (<none/> holds a script's place,
# <mprescripts/> parts the scripts after the base from those before it), never a parent.
_EMPTY = {"none", "mprescripts", "mspace", "mglyph", "malignmark"}
_VOID = {"br", "img", "hr", "wbr", "col", "meta", "link", "input", "source", "param", "track"}
# MathML's invisible operators (function application, invisible times): no reading of their own.
_INVISIBLE = dict.fromkeys(range(0x2061, 0x2065))


@dataclass
class _Layout:
    tag: str
    attributes: dict[str, str] = field(default_factory=dict)
    # Each part's pieces, joined at the end: a part grown by += was quadratic in its pieces.
    parts: list[list[str]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # each part's element ("" for bare text)
    depth: int = 0  # elements open inside the current part

    def begin(self, name: str, text: str = "") -> None:
        self.parts.append([text] if text else [])
        self.names.append(name)

    def texts(self) -> list[str]:
        return ["".join(part) for part in self.parts]


class _Text(HTMLParser):
    def __init__(self, lines: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.lines = lines  # line breaks kept, as _LINE: a <br> or <p> is one, as "\n" is
        self.parts: list[str] = []
        self.hidden = 0
        self.layouts: list[_Layout] = []
        self.flat: list[str] = []  # layouts open past _DEEPEST, read as written
        self.rows: list[int] = []  # rows begun in each table open
        self.token = False  # in a MathML <mi> or <mo>, whose "log" is a word, not a product
        self.word = False  # such a word was the last text: a letter after it is set apart
        self.text_at = -1  # the place among the parts of the last text (a mark goes after it)
        self.head = -1  # the last text's place when the section title open began
        self.colon = -1  # a title's last text, that a colon follows once text comes after it
        self.items: list[list[int]] = []  # in each list open: the last text before its item
        # open began, and the last text of its last item (-1: none, or an item without text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = tag.rpartition(":")[2]
        if self.layouts and name not in _VOID:
            top = self.layouts[-1]
            if top.depth == 0:
                top.begin(name)
            if name not in _EMPTY:
                top.depth += 1
        self.token = name in ("mi", "mo")
        if not (self.layouts or self.lines or self.hidden):
            self._structure(name, attrs, start=True)
        if name in _HIDDEN:
            self.hidden += 1
        elif name in _BLOCKS or name in _CELLS:
            self._block(name, start=True)
        elif name in _LAYOUT and len(self.layouts) < _DEEPEST:
            self.layouts.append(_Layout(name, {k: v or "" for k, v in attrs}))
        elif name in _LAYOUT:
            self.flat.append(name)
        elif name == "mspace" and _spacing(dict(attrs)):
            self._emit(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <none/>, <mfenced/>; a hidden element closed at once hides nothing.
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        name = tag.rpartition(":")[2]
        self.token = False
        if not (self.layouts or self.lines or self.hidden):
            self._structure(name, [], start=False)
        if name in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif name in _BLOCKS:
            self._block(name, start=False)
        if self.flat and self.flat[-1] == name:
            self.flat.pop()
        elif self.layouts and self.layouts[-1].tag == name:  # closed, even with a part left open
            self.flat.clear()  # those opened past _DEEPEST were inside it
            self._emit(_composed(self.layouts.pop()))
        if self.layouts and name not in _VOID and name not in _EMPTY:
            self.layouts[-1].depth = max(0, self.layouts[-1].depth - 1)

    def _structure(self, name: str, attrs: list[tuple[str, str | None]], *, start: bool) -> None:
        """A section's title read "Methods: We did." (as PubMed's heads are), a list's items apart
        by "; ", a reference's number apart from the word before it: JATS's <title>, <list-item>
        and <xref ref-type="bibr"> had read "Methods We did.", "cells mice", "It works1."."""
        if name in _HEADINGS and start:
            self.head, self.colon = self.text_at, -1
        elif name in _HEADINGS:
            self.colon = self.text_at if self.text_at != self.head else -1
        elif name in _LISTS:
            self.items.append([-1, -1]) if start else self.items and self.items.pop()
        elif name in _ITEMS and self.items and start:
            item = self.items[-1]
            if item[1] >= 0 and item[1] == self.text_at:
                self._mark(";")
            item[0] = self.text_at
        elif name in _ITEMS and self.items:
            item = self.items[-1]
            item[1] = self.text_at if self.text_at != item[0] else -1
        elif name == "xref" and start and ("ref-type", "bibr") in attrs:
            self._emit(" " if self._last()[-1:].isalnum() else "")

    def _mark(self, mark: str) -> None:
        """The mark after the last text, unless that ends in a mark already."""
        text = self.parts[self.text_at].rstrip() if self.text_at >= 0 else ""
        if text and text[-1] not in _CLOSED:
            self.parts[self.text_at] = text + mark + self.parts[self.text_at][len(text) :]

    def _block(self, name: str, *, start: bool) -> None:
        """A blank around a block or a cell; a table's rows apart by "; " (1 0; 0 1)."""
        if name == "mtable" and start:
            self.rows.append(0)
        elif name == "mtable" and self.rows:
            self.rows.pop()
        rows = self.rows if name in _ROWS else []
        line = self.lines and name in _LINES and not self.layouts
        self._emit("; " if rows and rows[-1] else _LINE if line else " ")
        if rows:
            rows[-1] += 1

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        data = data.translate(_INVISIBLE)
        if self.lines:
            data = _BREAK.sub(_LINE, data)
        word = data.strip()
        if self.token and len(word) > 1 and word.isalpha():
            # <mi>n</mi><mi>log</mi><mi>n</mi> is "n log n", as LaTeX's n\log n is.
            data = (" " if self._last()[-1:].isalnum() else "") + word
            self.word = True
        elif word:
            data = " " + data if self.word and data[:1].isalnum() else data
            self.word = False
        if word and self.colon >= 0 and not self.layouts:
            if self.colon == self.text_at:  # nothing but blanks since the title
                self._mark(":")
            self.colon = -1
        self._emit(data)

    def close(self) -> None:
        super().close()
        while self.layouts:  # a layout left open by a cut or broken fragment: its text as it is
            self._emit("".join(self.layouts.pop().texts()))

    def _emit(self, text: str) -> None:
        if not self.layouts:
            self.text_at = len(self.parts) if text.strip() else self.text_at
            self.parts.append(text)
            return
        top = self.layouts[-1]
        if top.depth:
            top.parts[-1].append(text)
        elif text.strip():  # text right inside the element is a part of its own
            top.begin("", text)

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
    if tag in _COMPOSERS:
        return _COMPOSERS[tag](parts, layout)
    if len(parts) != (3 if tag in ("msubsup", "munderover") else 2):
        return "".join(texts)
    if tag == "mfrac":
        return fraction(*parts)
    if tag == "mroot":
        return root(parts[0], parts[1])
    if tag in ("msubsup", "munderover"):
        return parts[0] + script(parts[1], up=False) + script(parts[2], up=True)
    return parts[0] + script(parts[1], up=tag in ("msup", "mover"))


def _fenced(parts: list[str], layout: _Layout) -> str:
    """<mfenced>: its parts between its fences, apart by its separators: the n-th separator
    after the n-th part, the last one again when they run out (MathML's defaults "(", ")",
    ","). Its parts had run together: [0,1] read "01"."""
    given = layout.attributes
    separators = "".join(given.get("separators", ",").split())
    marks = [
        separators[min(n, len(separators) - 1)] if separators else "" for n in range(len(parts))
    ]
    inner = "".join(mark + part for mark, part in zip(["", *marks], parts, strict=False))
    return given.get("open", "(").strip() + inner + given.get("close", ")").strip()


def _multiscripts(parts: list[str], layout: _Layout) -> str:
    """<mmultiscripts>: a base, then (subscript, superscript) pairs after it and, past an
    <mprescripts/>, before it: the isotope ¹⁴₆C, not "C614" (its parts as written)."""
    names = layout.names
    cut = names.index("mprescripts") if "mprescripts" in names else len(parts)
    base, after, before = parts[0] if cut else "", parts[1:cut], parts[cut + 1 :]
    pre = "".join(_raised(up, True) + _raised(down, False) for down, up in _pairs(before))
    post = "".join(script(down, up=False) + script(up, up=True) for down, up in _pairs(after))
    return pre + base + post


def _pairs(scripts: list[str]) -> list[tuple[str, str]]:
    return list(zip(scripts[::2], [*scripts[1::2], ""], strict=False))


def _raised(text: str, up: bool) -> str:
    """A script before its base: marked ones in parentheses, ^(q)C, that no reader joins _cC."""
    written = script(text, up=up)
    marked = written[:1] in ("^", "_") and not written[1:].startswith("(")
    return f"{written[0]}({written[1:]})" if marked else written


def _alternative(parts: list[str], layout: _Layout) -> str:
    """JATS's <alternatives>: one of its renderings, not all ("T_c = 40 KT_c=40K"). The MathML
    first: read here as every other formula is, into plain text, where the TeX is source that
    only latex.to_text reads (not every caller runs it), and is often a whole LaTeX document
    (\\documentclass … \\begin{document}$…$); else the first that has any text."""
    chosen = [part for name, part in zip(layout.names, parts, strict=True) if name == "math"]
    return next((part for part in [*chosen, *parts] if part), "")


def _spacing(attributes: dict[str, str | None]) -> bool:
    """Whether an <mspace> is a blank: a line break, or a width above zero (a named one too,
    "thinmathspace"); not a kerning (a negative width) nor its default, none."""
    if attributes.get("linebreak") in ("newline", "indentingnewline"):
        return True
    width = (attributes.get("width") or "").strip().lower()
    number = re.match(r"[-+]?(?:\d+\.?\d*|\.\d+)", width)
    if number:
        return float(number[0]) > 0
    return width[:1].isalpha() and not width.startswith("negative")


_COMPOSERS = {"mfenced": _fenced, "mmultiscripts": _multiscripts, "alternatives": _alternative}


def html_text(fragment: str, lines: bool = False) -> str:
    """The readable text of an HTML fragment (entities decoded), whitespace collapsed (`lines`:
    but line breaks, as a list of names one a line writes them). A "<" that opens no tag is
    text: `$k<n$ when $m>2$` and `<psi|H|psi>` are an abstract's, and an author types them into
    a title as often as a feed writes <b> or <sub>."""
    if not lines:
        return " ".join(_read(fragment).split())
    kept = _read(fragment, lines=True)
    return "\n".join(filter(None, (" ".join(line.split()) for line in kept.split(_LINE))))


def plain(text: str, lines: bool = False) -> str:
    """html_text of a text that markup is rare in (a paper file's, a BibTeX field's), or the text
    as written, its blanks too, where reading finds no markup in it: a plain abstract, and the
    id of its hash, stay what they were; `$k<n$` and "p < 0.05" are text either way."""
    if "<" not in text and "&" not in text or not _MAYBE_MARKUP.search(text):
        return text  # most texts, and "p < 0.05" or "R & D": not parsed, a library read as fast
    read = html_text(text, lines)
    return text if read.split() == text.split() else read


def _read(fragment: str, lines: bool = False) -> str:
    """The fragment's text, its whitespace as it came (`lines`: each line break as _LINE)."""
    if "<" not in fragment and "&" not in fragment:
        return _BREAK.sub(_LINE, fragment) if lines else fragment
    parser = _Text(lines)
    closed = {name.lower() for name in _CLOSING.findall(fragment)}
    parser.feed(_TAG_OR_LESS.sub(functools.partial(_escaped, closed=closed), fragment))
    parser.close()
    return "".join(parser.parts)


# Where markup can begin: a tag, a comment or a declaration, an entity. No other "<" or "&" is
# read as any (_TAG_OR_LESS).
_MAYBE_MARKUP = re.compile(r"<[A-Za-z/!]|&[#A-Za-z]")
_LINE = "\ufdd6"  # a noncharacter no text holds: a line break through the parser
# Line breaks in a list of names: "\n" and every other str.splitlines() knows, and the elements
# that break a line (_LINES). Only "\n" had been carried through the parser: "Jane Doe<br/>John
# Smith", "<p>Jane Doe</p><p>John Smith</p>" and U+2028 between names had made one author of two.
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


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
    " styled-content uri inline-graphic graphic break"
    # the rest of what JATS's <alternatives> holds: <textual-form>, unknown, had been escaped to
    # text, and its tags, a part with text, were the rendering chosen, the formula dropped
    " textual-form chem-struct preformat private-char media array supplementary-material"
    " inline-supplementary-material".split()
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
