"""OpenReview's abstracts' Markdown as the text it shows: emphasis, headings, bullets, tables,
links (inline and reference-style) without their marks; formulas and code as written."""

from __future__ import annotations

import re

from digest.sources.ligatures import verbatim

# OpenReview renders an abstract as Markdown (its forms say "Add formatting using Markdown and
# formulas using LaTeX"): readers had been mailed its "**", "##" and "[link](url)" as typed. A
# title is one line of plain text there. A formula is no Markdown: "$x**2$", "\(a_b * c\)" and a
# code span are set aside first and put back as they were (a code span without its backticks).
# A mark counts only at a word's edge: "p_value", "2*3*4", "x**2" stay. A few rules, not a
# CommonMark parser (markdown-it-py): that reads "2*3*4" and "$x*y$ or $z*w$" as emphasis, and
# takes the backslash of LaTeX's "\{", so formulas would have to be set aside for it too.
_ASIDE = re.compile(
    r"\$\$[^$]{1,2000}\$\$|\$[^$]{1,500}\$|\\\(.{1,500}?\\\)|\\\[.{1,2000}?\\\]"
    r"|(?<!`)(`{1,3})(?!`)(.{1,500}?)(?<!`)\1(?!`)",  # a code span, its run of backticks whole
    re.DOTALL,
)
_SET_ASIDE = re.compile("\x00([0-9]+)\x00")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)
_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,}).*$", re.MULTILINE)  # a code block's first or last
# A bullet, a rule (or a heading's underline: "---", "===").
_LINE_MARKS = re.compile(r"^ {0,3}(?:[-*+][ \t]+(?=\S)|([-*_=])[ \t]*(?:\1[ \t]*){2,}$)", re.M)
# Emphasis within a paragraph: after its opening mark no blank, no closing bracket or stop, and
# not the mark again ("(*) and (**)" are footnote marks); before its closing one no blank.
_EMPHASIS = re.compile(
    r"(?<![\w*\\])(\*\*\*|\*\*|__|\*|_|~~)(?=[^\s)\]}.,;:!?])(?!\1)"
    r"((?:[^\n]|\n(?![ \t]*\n)){1,300}?)(?<=[^\s\\(\[{])\1(?![\w*])"
)
# A link's address: in <...>, or with parentheses in pairs (one deep), as Wikipedia's
# ".../Foo_(bar)" (it had stopped the link at its first "(", the whole link left as typed);
# then a title in "...", '...' or (...).
_ADDRESS = r"(?:<[^<>\n]{0,2000}>|(?:[^()\s]|\([^()\s]{0,2000}\)){1,2000})"
_TITLE = r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*"""
_INLINE = [
    (re.compile(rf"!?\[([^\[\]\n]{{1,1000}})\]\({_ADDRESS}{_TITLE}\)"), r"\1"),
    (re.compile(r"<((?:https?|mailto):[^\s<>]{1,2000})>"), r"\1"),  # an autolink
    (_EMPHASIS, r"\2"),
]
# A link reference definition, "[1]: https://arxiv.org/abs/2501.00001", a line OpenReview does
# not show: it, and the "[the paper][1]" that used it, had reached readers as typed. One opens
# a paragraph (none interrupts one: "[1]: x" after a line of text is that text).
_LABEL = r"\[([^\[\]\n]{1,999})\]"
_DEFINITION = re.compile(rf" {{0,3}}{_LABEL}:[ \t]*(?:<[^<>\n]*>|\S+){_TITLE}")
# A reference: "[text][label]", "[text][]", or "[label]" alone; a link only where its label is
# defined ("[1]" with no definition is a citation, and stays).
_REFERENCE = re.compile(rf"!?{_LABEL}(?:\[([^\[\]\n]{{0,999}})\])?(?![(:])")
_PARAGRAPHS = re.compile(r"(\n[ \t]*\n)")
# A table's delimiter row's cell: "---", ":--", "--:", ":-:".
_DELIMITER = re.compile(r":?-+:?")
_PIPE = re.compile(r"(?<!\\)\|")


def markdown(text: str) -> str:
    """An abstract's Markdown as the text it shows: emphasis, headings, bullets, rules and code
    fences without their marks, a link or an image as its text, an autolink as its address, a
    table's rows as "cell cell; cell cell", a link reference definition's line gone."""
    if not any(mark in text for mark in "*_#[`~<\n"):
        return text
    aside: list[str] = []

    def set_aside(found: re.Match[str]) -> str:
        # A code span's text is as typed: LaTeX's marks read in it (`a--b` as "a–b") had changed it.
        aside.append(verbatim(found[2]) if found[1] else found[0])
        return f"\x00{len(aside) - 1}\x00"

    text = _ASIDE.sub(set_aside, _FENCE.sub("", text.replace("\x00", "")))
    text, labels = _definitions(_tables(text))
    text = _LINE_MARKS.sub("", _HEADING.sub(lambda found: found[1] or "", text))
    if labels:
        text = _REFERENCE.sub(lambda found: _referenced(found, labels), text)
    for pattern, kept in _INLINE:
        for _ in range(3):  # marks within marks: ***both***, **_both_**
            text, count = pattern.subn(kept, text)
            if not count:
                break
    return _SET_ASIDE.sub(lambda found: aside[int(found[1])], text)


def _tables(text: str) -> str:
    """Each pipe table as one line of its rows, "Model Acc; Ours 91.2": its "|" and its
    "|---|" row had been mailed as typed. A table is a row of cells over a delimiter row of as
    many (GitHub's rule), then the rows with a "|" up to a blank line."""
    if "|" not in text or "-" not in text:
        return text
    lines, kept = text.split("\n"), []
    number = 0
    while number < len(lines):
        if number + 1 < len(lines) and _is_table(lines[number], lines[number + 1]):
            rows = [_cells(lines[number])]
            number += 2
            while number < len(lines) and lines[number].strip() and _PIPE.search(lines[number]):
                rows.append(_cells(lines[number]))
                number += 1
            kept.append("; ".join(" ".join(filter(None, row)) for row in rows if any(row)))
        else:
            kept.append(lines[number])
            number += 1
    return "\n".join(kept)


def _is_table(head: str, delimiters: str) -> bool:
    if not _PIPE.search(head) or not _PIPE.search(delimiters):
        return False
    marks = _cells(delimiters)
    return all(map(_DELIMITER.fullmatch, marks)) and len(marks) == len(_cells(head))


def _cells(row: str) -> list[str]:
    """A table row's cells, without the pipes at its ends; "\\|" is a "|" within a cell."""
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(row)]


def _definitions(text: str) -> tuple[str, set[str]]:
    """The text without its link reference definitions, and their labels."""
    if "]:" not in text:
        return text, set()
    labels: set[str] = set()
    pieces = _PARAGRAPHS.split(text)  # paragraphs, and the blank lines between them
    for number in range(0, len(pieces), 2):
        lines, first = pieces[number].split("\n"), 0
        while first < len(lines) and (found := _DEFINITION.fullmatch(lines[first])):
            if not found[1].strip():  # "[ ]:" labels nothing
                break
            labels.add(_label(found[1]))
            first += 1
        pieces[number] = "\n".join(lines[first:])
    return "".join(pieces), labels


def _referenced(found: re.Match[str], labels: set[str]) -> str:
    """A reference link's text, where its label is defined; else the text as typed."""
    label = found[2] or found[1]
    return found[1] if _label(label) in labels else found[0]


def _label(label: str) -> str:
    """Labels match without case, their blanks collapsed ("[The  Paper]" is "[the paper]")."""
    return " ".join(label.split()).casefold()
