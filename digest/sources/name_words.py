"""What each word of a name is: initials ("J.-P.", "AB"), a degree ("PhD", "MD"), a surname
written in capitals ("Jane DOE", "Minh N. DO") as European feeds write it, or a "V" that is an
initial ("Acosta, V.") or a roman suffix ("Reagle, V, Joseph M.")."""

from __future__ import annotations

import re

# "D.", "J.-P.", "A. B.", "Th.", or bare capitals "AB", "J-P" as some exports write initials
# (capitals: a script without case, "李华", had been initials, so four Chinese names made two).
INITIALS = re.compile(r"^(?:(?:[^\W\d_][a-z]?\.\s*-?\s*)+|[^\W\d_]{1,3}(?:-[^\W\d_]{1,2})?)$")
# Degrees and post-nominals, a comma part of their own after a name ("Jane Smith, M.D., Ph.D.,
# and John Doe, M.D." had made "M.D." and "Ph.D." authors): none of these is anyone's initials.
DEGREE = re.compile(
    r"^(?:Ph\.?D|D\.?Phil|M\.?Phil|[BDM]\.?Sc|Sc\.?D|Dr\.?P\.?H|Pharm\.?D|Ed\.?D|MBB?Ch\.?B?|MBBS"
    r"|BMBS|MSPH|F(?:RCP[CE]?|RCS|ACS|ACP|AAP|AHA|ESC|RSE|RACP|MedSci)|MRCP|Dr|Prof)\.?$"
)
# Those that may be initials ("M.D." Michael David, "Ph. D." Philipp D.): a degree only after a
# whole name or another degree.
DEGREE_OR_INITIALS = re.compile(
    r"^(?:M\.?D|M\.?P\.?H|R\.?N|F\.?R\.?S|M\.?[SA]|B\.?[SA]|D\.?O|D\.?D\.?S|D\.?V\.?M|M\.?B\.?A"
    r"|N\.?P|P\.?A|J\.?D|M\.?H\.?S|[BM]\.?S\.?N|D\.?M\.?D|PHD|[BDM]SC|Ph\.\s?D)\.?$"
)

# Those letters that are a surname too, as often as not: over the 301,097 names of two words or
# more of the 45k-paper arXiv corpus, "Ma" ends 1,609, "Do" 64, "Ba" 11; no other ends one
# (one "MD" is a degree written: "Zhou Fengjin MD").
_SURNAME_OR_DEGREE = "MA|DO|BA"
SURNAME_OR_DEGREE = re.compile(rf"^(?:{_SURNAME_OR_DEGREE})$")
SURNAME_OR_DEGREE_IN = re.compile(rf"(?<![^\W\d_])(?:{_SURNAME_OR_DEGREE})(?![^\W\d_])")


def is_initials(text: str) -> bool:
    """Whether a word or run of words is initials: dotted, or capitals of a cased script."""
    return bool(INITIALS.match(text)) and ("." in text or text.isupper())


_WORD_END = re.compile(r"[\W\d_]+$")


def capitals_written(text: str) -> bool:
    """Whether a list writes surnames in capitals beside small letters ("Abhi KAMBOJ1"), so that
    its "Minh N. DO" is Minh N. Do, no Minh N. with a degree."""
    words = (_WORD_END.sub("", w) for w in text.split() if w.isupper())
    return any(c.islower() for c in text) and any(
        len(w) > 3
        and w.isalpha()
        and w.isupper()
        and not DEGREE_OR_INITIALS.match(w)
        and not DEGREE.match(w)
        for w in words
    )


def capitals_alone(text: str) -> bool:
    """Whether a list is written in capitals alone ("ABHI KAMBOJ, MINGYU DEREK MA"): each of its
    surnames is in capitals, as in a list that writes them so ("Abhi KAMBOJ")."""
    return not any(c.islower() for c in text) and any(c.isupper() for c in text)


def given_and_middle(words: list[str]) -> bool:
    """Whether words are a given name in full and dotted middle initials alone ("Minh N."), so
    that a capitals word after them is the surname, no degree ("Minh N. DO" had lost its DO). In
    capitals a given name of three letters is one still ("ANA B." had been initials): undotted
    initials before dotted ones are written by no one."""
    middle, given = words[1:], words[0] if words else ""
    return (
        bool(middle)
        and (not is_initials(given) or ("." not in given and len(given) > 1))
        and all_dotted(middle)
    )


def all_dotted(words: list[str]) -> bool:
    """Whether each word is dotted initials ("J.", "A.", "J.-P.")."""
    return all("." in w and is_initials(w) for w in words)


def capitals_surname(words: list[str]) -> bool:
    """Whether a name's last word of capitals after a given name in full is its surname, as
    European feeds write it ("Jane DOE", "Wei LI", "Lev TAL-OR"; or Vancouver's initials, "Doe
    JA"), not the initials of a "Last, First M" name: those are one letter or dotted ("Reagle,
    Joseph M"). "John Smith MD, Jane DOE PhD" had been one reversed name, "Jane DOE John Smith";
    so had "Jane Doe, John A. LEE": initials between a given name in full and the capitals are
    a middle name's; and "Jane Doe, J. A. LEE": no "Last, First" name's given part is dotted
    initials then capitals. In a name with no small letters case says nothing: "WEI PAN" had
    been read as "Pan, Wei" initials ("CATALIN D. SPATARU, WEI PAN" made one name)."""
    last = words[-1]
    if len(last) < 2 or not last.isupper() or not last.replace("-", "").isalpha():
        return False
    if max(map(len, last.split("-"))) < 2:  # "J-P" is initials
        return False
    if not is_initials(words[-2]) or all_dotted(words[:-1]):
        return True
    caseless = not any(c.islower() for c in "".join(words))
    given = not is_initials(words[0]) or (caseless and "." not in words[0])
    return given and all(map(is_initials, words[1:-1]))  # "John A. LEE", "ANH T. NGO"


def initial_v(parts: list[str], i: int, before: str) -> bool:
    """Whether a "V." after a surname of one word (`before`), where a given part falls, is its
    initial, no roman suffix: "Acosta, V." had been "Acosta V." (a suffix follows a whole name,
    "John Smith, V", or given names, "Smith, John, V"). Between a surname and the given names
    that end the name it is the suffix of "Last, Suffix, First", as "Jr." is: "Reagle, V,
    Joseph M." had made three authors, "Reagle", "V" and "Joseph M." (reg44 F5). Not before a
    whole name: "Markov, V., S. Gallerani" is no "S. Gallerani Markov V."."""
    if parts[i].rstrip(".") not in ("V", "v") or " " in before:
        return False
    given = parts[2].split() if i == 1 and len(parts) == 3 else []
    named = bool(given) and given[0][:1].isupper() and not is_initials(given[0])
    return not (named and all(map(is_initials, given[1:])))
