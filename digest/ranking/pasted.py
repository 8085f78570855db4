"""A BibTeX entry or a LaTeX text pasted as a reader's interests, as the words it is about: an
entry is its title, journal, abstract, keywords and authors, decoded, its @string names expanded;
LaTeX is its text, without citation keys, labels, environment names, comments or macro
definitions (a macro it defines is its text where used). Text with neither reads as written.
"""

from __future__ import annotations

import re
import unicodedata

# An entry opens as "@article{key," (any type, braces or parentheses). A lone "@" (an e-mail
# address, "mAP@0.5") opens none, and neither does "x@y{": the "@" starts a word.
_ENTRY = re.compile(r"(?<![\w@.])@\s*([A-Za-z]+)\s*([{(])")
_KEY = re.compile(r"\s*[^\s,={}()\"#%]*\s*,")
_NO_ENTRIES = {"string", "preamble", "comment"}  # BibTeX's own blocks: markup, all of them
_FIELD = re.compile(r"[\s,]*([A-Za-z][\w\-:.+]*)\s*=\s*")
_BARE = re.compile(r"[^\s,#{}()\"]+")
# What of an entry is a subject. The rest is markup or a pointer: the entry type and key, the
# numbers (volume, year, pages), doi, url, eprint, publisher, note. Pasted whole, an entry had
# been read as "journal, title, author, year": a paper whose abstract names a journal and a
# title had ranked above the entry's own subject.
_SUBJECT = {"title", "subtitle", "booktitle", "journal", "journaltitle", "series", "abstract"}
_SUBJECT |= {"keywords", "author", "editor", "primaryclass"}  # a category code is a subject
# Google Scholar's journal of a preprint: "arXiv preprint arXiv:1706.03762", a pointer.
_PREPRINT = re.compile(r"(?:\barXiv\s+preprint\s+)?\barXiv:\s*\S+", re.IGNORECASE)

# LaTeX, as a reader pastes it: a command or an accent.
_LATEX = re.compile(r"\\(?:[A-Za-z]+|[\"'`^~=.])")
_MATH = re.compile(r"\$\$.+?\$\$|(?<!\\)\$.+?(?<!\\)\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
# A comment: a "%" opening a line or after a blank ("5%", a link's "%20" and "\%" are none).
_COMMENT = re.compile(r"(?:^|(?<=\s))%[^\n]*", re.MULTILINE)
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303"}
_ACCENTS |= {"=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b"}
_ACCENTS |= {"c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331"}
_ACCENT = re.compile(
    r"\\([\"'`^~=.])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
    r"|\\([uvHckrdb])(?:\s*\{\s*(\\?[A-Za-z])\s*\}|\s+([A-Za-z]))"
)
_LETTERS = {"L": "Ł", "l": "ł", "o": "ø", "O": "Ø", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ"}
_LETTERS |= {"OE": "Œ", "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ"}
_LETTER = re.compile(r"\\(" + "|".join(sorted(_LETTERS, key=len, reverse=True)) + r")(?![A-Za-z])")
# Markup with its arguments: a citation's or reference's keys, a label, a file, a length; an
# environment's name. Read as words they had been "smith2023", "fig", "abstract".
_ARGS = r"(?:\s*\[[^\]]*\])*(?:\s*\{[^{}]*\})?"
# BibTeX's sorting commands (\noopsort{a}, \SortNoop{b}) print nothing: "{\noopsort{a}}networks"
# had been "anetworks".
_DROPPED = re.compile(
    r"\\(?:[A-Za-z]*cite[A-Za-z]*|[A-Za-z]*ref|label|url|include\w*|input|bibliography\w*"
    r"|usepackage|documentclass|[vh]space|setlength|[Nn]oop\w*|[Ss]ort[Nn]oop\w*)\*?"
    + _ARGS
    + r"|\\(?:begin|end)\s*\{[^{}]*\}(?:\s*\[[^\]]*\])?"
)
# What is left: an escaped character is that character, a command goes and its arguments stay
# as text (\textbf{x}, \emph{x}, \section{x}, \href{link}{x}), a brace only groups.
_REST = re.compile(r"\\([&%$#_{}])|\\\\|\\[,;:! ]|\\[A-Za-z]+\*?(?:\s*\[[^\]]*\])*|[{}]|(?<!/)~")
_QUOTES = (("``", "\u201c"), ("''", "\u201d"))
# A macro's definition: its name, its number of arguments, an optional one's default, then its
# body ({…}, balanced). Its body had been read as words where it was defined: "\newcommand{\KL}
# [2]{D_{KL}(#1\|#2)}" gave "d_kl", "\renewcommand{\vec}[1]{\boldsymbol{#1}}" a word "1".
_DEFINITION = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|DeclareMathOperator)\*?\s*"
    r"(?:\{\s*\\([A-Za-z]+|.)\s*\}|\\([A-Za-z]+|.))\s*(?:\[\s*(\d)\s*\])?(?:\s*\[([^\]]*)\])?\s*(?=\{)"
    r"|\\[gex]?def\s*\\([A-Za-z]+)((?:\s*#\d)*)\s*(?=\{)"
)
_PARAMETER = re.compile(r"#(\d)")
# A macro's name: its number of arguments, its body, and its first argument's default when that
# one is optional ("\newcommand{\vect}[2][x]{…}": "\vect{t}" and "\vect[y]{t}" are both uses).
Macros = dict[str, tuple[int, str, str | None]]


def plain(text: str) -> str:
    """The text with each BibTeX entry as its subject fields and LaTeX as its text; a text with
    neither, as written ("O(n^{2})", "ana@uni.edu" and "5%" stay)."""
    if not _ENTRY.search(text) and not _LATEX.search(text):
        return text
    text, macros = _definitions(text)  # a @preamble's too: they hold for the whole paste
    entries = [m for m in _ENTRY.finditer(text) if _is_entry(text, m)]
    if not entries and not _LATEX.search(text):
        return text
    strings = _strings(text, entries)
    out: list[str] = []
    done = 0
    for match in entries:
        if match.start() < done:
            continue  # an "@" inside an entry read already (an abstract's e-mail address)
        out.append(latex(text[done : match.start()], macros))
        end, fields = _entry(text, match, strings, macros)
        # A sentence each: read as one, a title's last word and an author's name had been a phrase.
        out.append(".\n" + "".join(f"{field}.\n" for field in fields if field))
        done = end
    out.append(latex(text[done:], macros))
    return "".join(out)


def _definitions(text: str) -> tuple[str, Macros]:
    """The text without its macro definitions, and the macros they define."""
    macros: Macros = {}
    out: list[str] = []
    done = 0
    for match in _DEFINITION.finditer(text):
        if match.start() < done:
            continue  # a definition inside another's body
        out.append(text[done : match.start()] + " ")
        end = _close(text, match.end())
        if end < 0:  # a paste cut inside the body: the text after its "{" is the reader's still
            done = match.end() + 1
            continue
        name = match[1] or match[2] or match[5]
        count = int(match[3]) if match[3] else len(_PARAMETER.findall(match[6] or ""))
        macros[name] = (count, text[match.end() + 1 : end - 1], match[4] if count else None)
        done = end
    out.append(text[done:])
    return "".join(out), macros


def _strings(text: str, entries: list[re.Match[str]]) -> dict[str, str]:
    """The @string names the text defines, lower-cased (BibTeX ignores their case): their values,
    each of the names defined before it expanded."""
    strings: dict[str, str] = {}
    for match in entries:
        if match[1].lower() != "string":
            continue
        close = "}" if match[2] == "{" else ")"
        i = match.end()
        while (field := _FIELD.match(text, i)) is not None and i < len(text) and text[i] != close:
            value, i = _value(text, field.end(), strings)
            strings[field[1].lower()] = value
    return strings


def _is_entry(text: str, match: re.Match[str]) -> bool:
    return match[1].lower() in _NO_ENTRIES or _KEY.match(text, match.end()) is not None


def _entry(
    text: str, match: re.Match[str], strings: dict[str, str], macros: Macros
) -> tuple[int, list[str]]:
    """Where the entry ends, and its subject fields' values as text. An entry without its
    closing brace ends with the text, as a paste cut short does."""
    close = "}" if match[2] == "{" else ")"
    if match[1].lower() in _NO_ENTRIES:
        return _skip(text, match.end() - 1), []
    at = _KEY.match(text, match.end())
    i = at.end() if at else match.end()
    fields: list[str] = []
    while i < len(text):
        field = _FIELD.match(text, i)
        if field is None:
            stop = re.compile(r"[\s,]*").match(text, i)
            i = stop.end() if stop else i
            if i >= len(text) or text[i] == close:
                return i + 1, fields
            i = _skip(text, i)  # not a field: skipped to its end
            continue
        value, i = _value(text, field.end(), strings)
        if field[1].lower() in _SUBJECT:
            fields.append(_PREPRINT.sub(" ", latex(value, macros)).strip())
    return len(text), fields


def _value(text: str, i: int, strings: dict[str, str]) -> tuple[str, int]:
    """A field's value ({…}, "…", a number or an @string name, joined by "#") and where it ends;
    a name is its @string's value (it had been nothing: `title = t1 # " error correction"` lost
    its "Quantum"), a number or a name the text does not define reads as nothing."""
    parts: list[str] = []
    while i < len(text):
        if text[i] in '{"':
            end = _skip(text, i)
            parts.append(text[i + 1 : end - 1])
        elif bare := _BARE.match(text, i):
            end = bare.end()
            parts.append(strings.get(bare[0].lower(), ""))
        else:
            break
        join = re.compile(r"\s*#\s*").match(text, end)
        i = join.end() if join else end
        if not join:
            break
    return " ".join(parts), i


def _skip(text: str, i: int) -> int:
    """The end of the group opening at text[i] ({…}, "…" or (…)), balanced in its braces, or of
    a bare value up to the next comma; the text's end if it never closes."""
    if text[i] not in '{"(':
        comma = re.compile(r"[^,{}()]*").match(text, i)
        return max(comma.end() if comma else i, i + 1)
    end = _close(text, i)
    return end if end >= 0 else len(text)


_CLOSERS = {"{": "}", '"': '"', "(": ")", "[": "]"}


def _close(text: str, i: int) -> int:
    """The end of the group opening at text[i] ({…}, "…", (…) or […]), balanced in its braces;
    -1 if it never closes (a paste cut short)."""
    closer = _CLOSERS[text[i]]
    depth = 0
    for j in range(i + 1, len(text)):
        c = text[j]
        if c == closer and depth == 0 and text[j - 1] != "\\":
            return j + 1
        if c == "{" and text[j - 1] != "\\":
            depth += 1
        elif c == "}" and text[j - 1] != "\\":
            depth -= 1
    return -1


def latex(text: str, macros: Macros | None = None) -> str:
    """LaTeX as text, its math ($…$, \\(…\\), \\[…\\]) as written, as it was before; a macro of
    `macros` used in its text is its body."""
    out: list[str] = []
    done = 0
    for math in _MATH.finditer(text):
        out.append(_prose(text[done : math.start()], macros or {}))
        out.append(math[0])
        done = math.end()
    out.append(_prose(text[done:], macros or {}))
    return "".join(out)


def _prose(text: str, macros: Macros) -> str:
    """Text outside math, its macros expanded: a body of math is math, as written."""
    text = _COMMENT.sub("", text)
    expanded = _expanded(text, macros)
    return _text(text) if expanded == text else latex(expanded)


def _expanded(text: str, macros: Macros) -> str:
    """Each use of a macro as its body, its arguments ({…} or one character) in their places, a
    body of math ("D_{KL}(#1\\|#2)") as $…$; once, not again in the bodies (no macro can loop)."""
    if not macros:
        return text
    names = "|".join(map(re.escape, sorted(macros, key=len, reverse=True)))
    out: list[str] = []
    done = 0
    for use in re.finditer(r"\\(" + names + r")(?![A-Za-z])\s*", text):
        if use.start() < done:
            continue  # inside the arguments of the macro before
        count, body, default = macros[use[1]]
        args, i = _arguments(text, use.end() if count else use.end(1), count, default)
        out.append(text[done : use.start()] + " " + _filled(body, args) + " ")
        done = i
    out.append(text[done:])
    return "".join(out)


def _arguments(text: str, i: int, count: int, default: str | None) -> tuple[list[str], int]:
    """A use's `count` arguments from text[i] on ({…} or one character), and where they end; an
    optional first one ([…]) is its default when not given. "\\vect[y]{t}" had been read with
    "[" and "y" as its two arguments, "]t" left over."""
    args: list[str] = []
    for n in range(count):
        i = len(text) - len(text[i:].lstrip())
        if n == 0 and default is not None:
            end = _close(text, i) if text[i : i + 1] == "[" else -1
            args.append(text[i + 1 : end - 1] if end >= 0 else default)
            i = end if end >= 0 else i
            continue
        end = _skip(text, i) if text[i : i + 1] == "{" else min(i + 1, len(text))
        args.append(text[i + 1 : end - 1] if text[i : i + 1] == "{" else text[i:end])
        i = end
    return args, i


def _filled(body: str, args: list[str]) -> str:
    """A macro's body with its arguments in their places (one it was not given: nothing)."""
    filled = _PARAMETER.sub(lambda m: args[int(m[1]) - 1] if int(m[1]) <= len(args) else "", body)
    return f"${filled}$" if _MATHS.search(body) else filled


_MATHS = re.compile(r"[_^]|\\(?:ensuremath|math[a-z]*|[a-z]*frac|operatorname)(?![A-Za-z])")


def _text(text: str) -> str:
    text = _COMMENT.sub("", text)
    text = _ACCENT.sub(_accented, text)  # before the letters: \'{\i} is í
    text = _LETTER.sub(lambda m: _LETTERS[m[1]], text)
    text = _DROPPED.sub(" ", text)
    text = _REST.sub(_rest, text)
    for source, target in _QUOTES:
        text = text.replace(source, target)
    return unicodedata.normalize("NFC", text)


def _accented(match: re.Match[str]) -> str:
    mark = match[1] or match[4]
    letter = next(g for g in (match[2], match[3], match[5], match[6]) if g)
    base = {"\\i": "i", "\\j": "j"}.get(letter, letter.lstrip("\\"))  # \'{\i}: í
    return base + _ACCENTS[mark]


def _rest(match: re.Match[str]) -> str:
    whole = match[0]
    if match[1]:
        return match[1]  # \& is "&"
    if whole == "\\\\":
        return "\n"
    return " " if whole[-1] in ",;:! ~" else ""  # a space (\, ~), or a command or brace: nothing
