"""Author lists as every source format writes them, split into 'First Last' names: BibTeX's
"Last, First and ...", bioRxiv's "Kukla, D., Crampton, A.", Vancouver's "Zhang W, Rossi M",
"A, B, and C", semicolons, names one a line, "et al.", suffixes ("Reagle, Jr., Joseph M." is
Joseph M. Reagle Jr.), degrees ("Jane Smith, M.D.", "Jane Smith PhD" are Jane Smith), titles and
affiliation marks ("Dr. Jane Doe1"), a by-line's "By" and collaborations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from digest.sources.name_degrees import bare, ends_in_degree_letters, list_context
from digest.sources.name_marks import is_team
from digest.sources.name_pairs import PARTICLE, and_list, marked, top_level, whole_names
from digest.sources.name_words import (
    DEGREE,
    DEGREE_OR_INITIALS,
    capitals_surname,
    initial_v,
    is_initials,
)

_SUFFIX = re.compile(r"^(?:jr|sr|junior|senior|ii|iii|iv|v|2nd|3rd)\.?$", re.IGNORECASE)
# Chinese, Japanese and Korean write a whole name as one word: "张伟" is no surname alone.
_CJK_NAME = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u00b7]{2,}"
)
_CJK_MARKS = str.maketrans({"\uff0c": ", ", "\u3001": ", ", "\uff1b": "; "})
_ET_AL = re.compile(
    r"(?:,?\s*\bet\.?\s+al\b\.?|,?\s*\band\s+others\b|,?\s*\bothers\b|\s*…|\.\.\.)\s*$", re.I
)
_COLLABORATION = re.compile(r"\(([^()]*\b(?:collaboration|consortium|group|team)\b[^()]*)\)", re.I)
_ASIDE = re.compile(r"\s*\([^()]*\)")
# As Dutch, Belgian and French lists write a particle where the surname leads ("Van Dijk, Bram");
# not "Al" or "Bin", which lead given names too ("Al Roth").
_LEADING_PARTICLE = re.compile(r"^(?:Van|Von|De|Den|Del|Della|Di|Da|Du|La|Le|Dos|Das|Ter|Ten)\b")
_AND = re.compile(r"(?:,\s*|\s+)(?:and|&)\s+", re.IGNORECASE)
_SEMICOLON = re.compile(r";")
_COMMA = re.compile(r",")
# A name with none of these is one plain name, "Ada Lovelace": most of a paper file's names.
_LIST_MARKS = re.compile(r"[,;(){}&…]|\.\.\.|\b(?:and|et|others)\b", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")
_NOT_NAMES = frozenset(("and", "others", "et al", "et al.", "anonymous"))
# A feed's by-line written into its author field: "By Jane Doe and John Smith" ("By Jane Doe" had
# been an author). Not "By" alone before one word, which may be a name.
_BY = re.compile(r"^\s*by\s+(?=[^\W\d_]\S*\s+\S)", re.IGNORECASE)


def split(value: str | Iterable[str]) -> tuple[str, ...]:
    """'First Last' names from one string holding a whole list, or from a list of strings each
    of which may hold one name ("Last, First") or several."""
    if not isinstance(value, str):
        items = [item for item in value if isinstance(item, str)]
        # Read in the list's context, as a string of them is ("Darshi SHAH", "Shin Won DO" had
        # lost its DO): only where a name ends in a degree's letters, for a million names a day;
        # a name alone has none ("C. HANHART MD" is no list in capitals alone).
        capitals, degrees = False, 0
        if len(items) > 1 and any(map(ends_in_degree_letters, items)):
            capitals, degrees = list_context("\n".join(items))
        found = [name for item in items for name in _split_text(item, capitals, degrees)]
        return tuple(dict.fromkeys(found))
    return _split_text(value)


# Names repeat across the papers of a file (and a day's feeds): each form is split once. A line of
# a field of names one a line is split knowing whether its field writes surnames in `capitals`
# and how many of its names carry `degrees` ("Darshi SHAH\nShin Won DO" had lost its DO).
@functools.lru_cache(maxsize=1 << 16)
def _split_text(value: str, capitals: bool = False, degrees: int = 0) -> tuple[str, ...]:
    value = value if value.isascii() else value.translate(_CJK_MARKS)
    value = _BY.sub("", value, count=1)
    if (by_line := _by_line(value)) is not None:
        return by_line
    text = " ".join(value.split())
    if not _LIST_MARKS.search(text):
        text = bare(text, False, capitals, degrees)
        return (text,) if _is_name(text) else ()
    collaborations = [" ".join(c.split()) for c in _COLLABORATION.findall(text)]
    text = _ASIDE.sub("", _COLLABORATION.sub("", text))
    groups = [
        [_ET_AL.sub("", part).strip(" ,") for part in top_level(group, _AND)]
        for group in top_level(text, _SEMICOLON)
    ]
    ordered = len(groups) > 1 or any(map(_is_surname_first, (p for g in groups for p in g)))
    own_capitals, own_degrees = list_context(text)
    capitals, degrees = capitals or own_capitals, max(degrees, own_degrees)
    names = [
        n
        for group in groups
        for part in group
        for n in _names(part, ordered, capitals, degrees, and_list(group, ordered))
    ]
    names += [c for c in collaborations if c not in names]
    return tuple(dict.fromkeys(n for n in names if _is_name(n)))


def _by_line(value: str) -> tuple[str, ...] | None:
    """The names of a field that holds them one a line ("Ada Lovelace\nAlan Turing"), or None
    when its lines are one list wrapped ("Smith,\n John"; "John\n Smith"). A line break had
    never parted two names: three authors became one. Lines run on where a list's mark ends or
    opens one, and where a line is a piece of its neighbour's name ("Jan van\n der Berg",
    "Joseph M.\n Reagle Jr."). The rest are names when each reads as whole names, or when two
    do: then a line that is not a whole name ("Najeebullah", "Mengnan du", "OpenAI") is one of
    its own (one such line had glued every author of the field into one). Not in a list parted
    by "and" within a line (BibTeX's, whose lines are wrapped wherever: "van der\n Berg, Jan")."""
    lines = [line.strip() for line in value.splitlines() if line.strip()]
    if len(lines) < 2 or any(_AND.search(line) for line in lines):
        return None
    pieces = [lines[0]]
    for line in lines[1:]:
        if _runs_on(pieces[-1], line):
            pieces[-1] += " " + line
        else:
            pieces.append(line)
    capitals, degrees = list_context(value)
    found = [_split_text(piece, capitals, degrees) for piece in pieces]
    whole = [bool(names) and all(map(_is_whole, names)) for names in found]
    if len(pieces) < 2 or (not all(whole) and sum(whole) < 2):
        return None
    return tuple(dict.fromkeys(name for names in found for name in names))


# A line's last word that is a suffix or a name's own: "Rithanya V" (an initial), "Henry Senior"
# (a surname) had run on as "Reagle Jr." does, gluing two authors into one.
_NAME_OR_SUFFIX = re.compile(r"^(?:v|senior|junior)$", re.IGNORECASE)
_ENDS_LIST = re.compile(r"(?:[,;&]|\band)$", re.IGNORECASE)
_OPENS_LIST = re.compile(r"^(?:[,;&]|and\b)", re.IGNORECASE)


def _runs_on(before: str, line: str) -> bool:
    """Whether a line goes on the text before it: after or before a list's mark; a surname
    with its suffix ("Reagle Jr.") or a suffix alone; a surname's piece ("der Berg", "Berg")
    after a line that ends in a particle or in initials ("Jan van", "Joseph M.")."""
    if _ENDS_LIST.search(before) or _OPENS_LIST.match(line):
        return True
    words, last = line.split(), before.split()[-1]
    if len(words) <= 2 and _SUFFIX.match(words[-1]) and not _NAME_OR_SUFFIX.match(words[-1]):
        return True
    if not (PARTICLE.fullmatch(last) or is_initials(last)):
        return False
    one_word = len(words) == 1 and bool(_LETTER.search(line))  # no team's ":" after "AI"
    return bool(PARTICLE.match(line)) or (one_word and not _CJK_NAME.fullmatch(line))


def _is_whole(name: str) -> bool:
    """Whether a name found alone on its line is a whole one: two words or more ("Ada Lovelace",
    "Zhang W."), not initials alone, not a surname with its suffix alone ("Reagle Jr."), not
    ending in a particle ("Jan van"); or one word of Chinese, Japanese or Korean."""
    words = name.split()
    if len(words) == 1:
        return bool(_CJK_NAME.fullmatch(name))
    if is_initials(name) or PARTICLE.fullmatch(words[-1]):
        return False
    return not (len(words) == 2 and _SUFFIX.match(words[1]) and not _NAME_OR_SUFFIX.match(words[1]))


def one(name: str) -> str:
    """One name as 'First Last': "Last, First", "Last, Jr., First" and "Last, First, Jr."."""
    found = split(name)
    return found[0] if found else ""


_NOT_IN_NAMES = re.compile(r"[\d:;!?\[\]<>=/\\\"“”]")
_JOINING = frozenset(("and", "&", "et", "al", "al."))


def names_alone(text: str) -> bool:
    """Whether a text is names alone, as a by-line lists them ("Jane M. Doe, Rahul Gupta and
    J.-P. Serre"), not a sentence ("the end of 2026, we had built it"): each word a capital's
    (or a script's without case), a particle's or a list's ("and", "et al.")."""
    words = text.replace(",", " ").split()
    if not words or len(words) > 2_000 or _NOT_IN_NAMES.search(text):
        return False
    return all(
        w[0].isupper()
        or (w[0].isalpha() and not w[0].islower())
        or w.lower() in _JOINING
        or PARTICLE.fullmatch(w)
        for w in words
    )


def _is_surname_first(part: str) -> bool:
    """Whether a piece of a list is plainly one "Last, First" name: a one-word or particle's
    surname, then given names ("Lovelace, Ada", "van der Berg, Jan")."""
    pieces = _parts(part)
    if len(pieces) != 2 or _full_name(pieces[0], pieces[1]):
        return False
    return len(pieces[0].split()) == 1 or bool(PARTICLE.match(pieces[0]))


def _names(
    segment: str,
    ordered: bool = False,
    capitals: bool = False,
    degrees: int = 0,
    listed: bool = False,
) -> list[str]:
    """The names of one segment with no " and " or ";" left: commas decide. `ordered`: the list
    writes "Last, First" (its pieces are parted by semicolons, or one of them plainly is one),
    so that two parts are one name also when the surname is several words ("Rodríguez de la
    Fuente, Juan Carlos" had made two authors, "Juan Carlos" one). `capitals`: the list
    writes surnames in capitals ("Abhi KAMBOJ"); `degrees`: how many of its names carry a degree
    ("Jane Doe MD"); `listed`: the segment is a piece of an "A, B and C" list."""
    parts = _without_degrees(_parts(segment, capitals, degrees))
    # Suffixes belong to the name before them: ("Reagle", "Jr.") then ("Joseph M.", "").
    items: list[list[str]] = []
    for i, part in enumerate(parts):
        if (
            _SUFFIX.match(part)
            and items
            and not (len(items) % 2 and initial_v(parts, i, items[-1][0]))
        ):
            items[-1][1] = part
        else:
            items.append([part, ""])
    if not items:
        return []
    last, given = items[0][0], items[1][0] if len(items) == 2 else ""
    # "Last, First" also when the given names are several words ("Maldacena, Juan Martin"): a
    # lone word, or a particle's name, before the comma is a surname, not a whole name.
    surname = len(last.split()) == 1 or bool(PARTICLE.match(last))
    if (
        len(items) == 2
        and (_is_given(given) or surname or ordered)
        and not _full_name(last, given, ordered)
        and not (not ordered and whole_names(segment, items, capitals, listed))
    ):
        return [_join(given, last, items[0][1] or items[1][1])]
    # "Jane Doe1, R. T.3": a mark after a first part of two words and after the last ends two
    # whole names, no surname of "Doe, J." pairs ("Zhang†, Y." is one; "Garcia Lopez1, J." and
    # "Garcia Lopez†, M., Doe‡, J." mark their surnames alone and had been parted from them).
    pairs = len(items) % 2 == 0 and all(is_initials(g) for g, _ in items[1::2])
    parts = [part for part, _ in items]
    if (
        (pairs and not (" " in items[0][0] and all(marked(segment))))
        or _surname_pairs(parts)
        or _initialled_pairs(parts)
    ):
        return [
            _join(given, last, s1 or s2)
            for (last, s1), (given, s2) in zip(items[::2], items[1::2], strict=True)
        ]
    return [_join("", name, suffix) for name, suffix in items]


def _parts(segment: str, capitals: bool = False, degrees: int = 0) -> list[str]:
    """The comma parts of a segment that hold a letter ("Jane Doe1,2": its "2" is a mark), each
    without its title, marks and degrees."""
    parts = [part for part in top_level(segment, _COMMA) if _LETTER.search(part)]
    vancouver = any(map(_ends_in_initials, parts)) and not any(map(_first_last, parts))
    return [bare(part, vancouver, capitals, degrees) for part in parts]


def _first_last(part: str) -> bool:
    """Whether a part is plainly a 'First Last' name, which no Vancouver list holds: its last
    word no initials nor degree ("John Smith"), or a surname in capitals no initials are ("John
    SMITH MD"): then "Jane DOE" beside it is a European feed's surname, its "MD" a degree."""
    words = part.split()
    if len(words) < 2 or is_team(part) or not any(c.islower() for c in words[0]):
        return False
    if any(w.isalpha() and w.isupper() and not is_initials(w) for w in words[1:]):
        return True
    last = words[-1]
    return not (is_initials(last) or DEGREE.match(last) or DEGREE_OR_INITIALS.match(last))


def _ends_in_initials(part: str) -> bool:
    """Whether a part is a name of Vancouver's form ("Smith J", "García Márquez JA"), initials
    that may be a degree ("Lee MD") aside."""
    words = part.split()
    if len(words) < 2 or DEGREE_OR_INITIALS.match(words[-1]):
        return False
    return is_initials(words[-1]) and not is_initials(words[0])


def _surname_pairs(parts: list[str]) -> bool:
    """Whether a comma list is "Last, First, Last, First" with given names in full: its
    surnames one word or a particle's, one of them a particle's at least ("van der Berg, Jan,
    de la Cruz, Maria" had made four authors, two of them first names alone), its given names
    no particle's and no Chinese, Japanese or Korean name. A particle written with a capital
    ("Van der Berg, Jan, De la Cruz, Maria", still four) leads a surname when each given name
    is one word or ends in initials ("Al Gore, Bill Clinton" are whole names). A list of
    one-word parts alone stays names of one word ("Najeebullah, Diwaker")."""
    if len(parts) < 4 or len(parts) % 2:
        return False
    lasts, givens = parts[::2], parts[1::2]
    if not any(PARTICLE.match(p) for p in lasts) and not (
        any(_LEADING_PARTICLE.match(p) for p in lasts) and all(map(_is_given, givens))
    ):
        return False
    led = all(
        (len(p.split()) == 1 or PARTICLE.match(p) or _LEADING_PARTICLE.match(p))
        and not _full_name(p, "")
        for p in lasts
    )
    return led and not any(PARTICLE.match(g) or _CJK_NAME.fullmatch(g) for g in givens)


def _initialled_pairs(parts: list[str]) -> bool:
    """Whether a comma list is "Last, First M., Last, First M.": surnames of one word, each
    followed by a given name and initials ("Doe, Jane M, Smith, John A" had made four authors,
    two of them given names alone)."""
    if len(parts) < 4 or len(parts) % 2:
        return False
    givens = [g.split() for g in parts[1::2]]
    return all(len(p.split()) == 1 and not is_initials(p) for p in parts[::2]) and all(
        len(g) > 1 and not is_initials(g[0]) and all(map(is_initials, g[1:])) for g in givens
    )


def _without_degrees(parts: list[str]) -> list[str]:
    """The comma parts without degrees and titles ("Jane Smith, MD, PhD"): they vanish. One
    written as initials ("M.D.") goes only after a whole name or another degree, and never in a
    "Last, Initials" list ("Smith, M.D., Doe, J.", "García Márquez, M.A., Smith, J.")."""
    if not any(len(p) < 12 and (DEGREE.match(p) or DEGREE_OR_INITIALS.match(p)) for p in parts):
        return parts  # nearly every list
    pairs = len(parts) % 2 == 0 and all(is_initials(p) for p in parts[1::2])
    listed = pairs and any(len(p.split()) == 1 for p in parts[::2])
    kept: list[str] = []
    after_name = False
    for part in parts:
        if DEGREE.match(part):
            after_name = bool(kept)
            continue
        if after_name and not listed and DEGREE_OR_INITIALS.match(part):
            continue
        kept.append(part)
        after_name = _ends_name(kept)
    return kept


def _ends_name(kept: list[str]) -> bool:
    """Whether the parts so far end on a whole name, which a degree may follow: 'First Last'
    ("Jane Smith"), Vancouver's "Lee J", or a "Last, First" pair ("Doe, Jane"). A degree had
    been kept only after the first ("Doe, Jane, MD" made three authors, "Lee J, MD" "MD Lee J")."""
    part, words = kept[-1], kept[-1].split()
    if len(words) > 1 and not is_initials(part):
        if is_initials(words[-1]) or not PARTICLE.match(part):
            return True
    pairs = len(kept) % 2 == 0 and not any(map(is_initials, kept[1::2]))
    return pairs and all(len(p.split()) == 1 or PARTICLE.match(p) for p in kept[::2])


def _join(given: str, last: str, suffix: str) -> str:
    return " ".join(p for p in (given, last, suffix) if p)


def _is_given(text: str) -> bool:
    """A given-name part: initials, one word, or words ending in initials ("Joseph M.")."""
    words = text.split()
    return is_initials(text) or len(words) == 1 or is_initials(words[-1])


def _full_name(first: str, second: str, ordered: bool = False) -> bool:
    """Whether "first, second" are two whole names ("Ada Lovelace, Alan Turing") rather than
    one "Last, First" ("van der Berg, Jan", "Reagle, Joseph M."). A first part that ends in
    initials ("Zhang W., Rossi M.", Vancouver's "Zhang W, Rossi M", "de la Fuente JC") or is a
    Chinese name ("张伟, 李华") is a whole name: no surname does or is; both had become one
    reversed name. In an `ordered` list ("Last, First; ...") that is all that makes two."""
    words = first.split()
    if _CJK_NAME.fullmatch(second):  # "Wei Zhang, 李华" had been "李华 Wei Zhang"
        return True
    if len(words) == 1:
        return bool(_CJK_NAME.fullmatch(first))
    if is_initials(words[-1]) and not is_initials(first):
        return True
    if PARTICLE.match(first) or ordered:
        return False
    given = second.split()
    return len(given) > 1 and (not is_initials(given[-1]) or capitals_surname(given))


def _is_name(name: str) -> bool:
    """A name has a letter (so it is not a year or a number) and is not a stray word of the
    list."""
    name = name.strip()
    found = _LETTER.search(name)  # a word character that is no digit: nearly always a letter
    if found is None or not (found.group().isalpha() or any(c.isalpha() for c in name)):
        return False
    return name.lower() not in _NOT_NAMES
