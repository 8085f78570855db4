"""A title's word in its other spellings, as identity reads two titles: the plural's singular
("galaxies" galaxy, "spectra" spectrum), the Greek letter's name ("α" alpha), a number in words
("12" twelve, "2nd" second, "2d" two-dimensional), and British English as American English
spells it ("catalogue" catalog, "programme" program, "sulphur" sulfur, "defence" defense,
"manoeuvre" maneuvre, "grey" gray)."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=1 << 14)  # each pair of titles asks of each word many times
def stems(word: str) -> frozenset[str]:
    """The word, what it may be the plural of ("galaxies" galaxy, "maps" map, "analyses"
    analysis, "spectra" spectrum, "nuclei" nucleus, "indices" index, "mice" mouse) and its other
    spelling ("α" alpha, "2d" two-dimensional, "12" twelve, "1st" first): two words of one stem
    are one."""
    forms = {word, _SAME.get(word, word)}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    for plural, singular in _PLURALS:
        if len(word) > len(plural) + 1 and word.endswith(plural):
            forms.add(word[: -len(plural)] + singular)
    return frozenset(forms)


@functools.lru_cache(maxsize=1 << 14)
def spellings(word: str) -> frozenset[str]:
    """The word as it is and as American English spells it: by rule where there is one (-ogue
    -og, -mme -m, "sulph" "sulf", a noun's -ence -ense, "ae" and "oe" "e" between consonants:
    "haem", "foetal", "manoeuvre"), else by the word ("grey", "mould", "disc", "tyre"). "A
    catalogue of …" and "A catalog of …", "Manoeuvring …" and "Maneuvering …" (two edits) had
    been two papers. Both are kept, not one for the other: "Schroedinger" is German's "ö"."""
    us = _WORDS.get(word, "")
    if not us and word.endswith("s") and word[:-1] in _WORDS:
        us = _WORDS[word[:-1]] + "s"
    us = us or word
    for rule, spelt in _RULES:
        us = rule.sub(spelt, us)
    if len(us) > 5:  # "poet" is no "pet", "does" no "des"
        us = _DIGRAPH.sub("e", us)
    return frozenset({word, us})


_RULES = tuple(
    (re.compile(rule), spelt)
    for rule, spelt in (
        (r"ogue(s?)$", r"og\1"),  # catalogue, dialogue, analogue
        (r"(?<=\w\w\w)mme(s?)$", r"m\1"),  # programme, kilogramme
        (r"sulph", "sulf"),  # sulphur, sulphate, disulphide
        (r"(?<=en)c(e[sd]?|ing)$", r"s\1"),  # defence, licence, licencing, offences
        (r"^scep", "skep"),  # sceptical
        (r"^enquir", "inquir"),  # enquiry
    )
)
# haemoglobin, foetal, oesophagus, manoeuvre, palaeo-; not aerosol, canoes, Michael
_DIGRAPH = re.compile(r"(?<![aeiou])[ao]e(?=[uo]|[bcdfghjkmnpqtvxz]|l.|s[a-z])")
_WORDS = {  # a word's other spelling that no rule gives
    "grey": "gray",
    "greys": "grays",
    "mould": "mold",
    "moult": "molt",
    "disc": "disk",
    "tyre": "tire",
    "artefact": "artifact",
    "aluminium": "aluminum",
    "aeroplane": "airplane",
    "plough": "plow",
    "kerb": "curb",
    "cheque": "check",
    "storey": "story",
    "whilst": "while",
    "amongst": "among",
    "pyjama": "pajama",
    "gaol": "jail",
}

_PLURALS: tuple[tuple[str, str], ...] = (("ies", "y"), ("es", "is"), ("a", "um"), ("a", "on"))
_PLURALS += (("i", "us"), ("ices", "ex"), ("ices", "ix"))
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
_NAMES = {chr(0x3B1 + i + (i > 16)): n for i, n in enumerate(f"{_GREEK} sigma tau".split())}
_NAMES |= {chr(0x3C5 + i): n for i, n in enumerate("upsilon phi chi psi omega".split())}
_NAMES |= {"mice": "mouse", "men": "man", "women": "woman", "children": "child", "feet": "foot"}
NUMBERS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen twenty"
).split()
_ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
    " thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_NAMES |= {str(i): name for i, name in enumerate(NUMBERS, 1)}
_NAMES |= {
    f"{i}{'th' if i > 3 else ('st', 'nd', 'rd')[i - 1]}": n for i, n in enumerate(_ORDINALS, 1)
}
_NAMES |= {f"{i}d": f"{n}dimensional" for i, n in enumerate(NUMBERS[:11], 1)}
_NAMES |= {"100": "hundred", "1000": "thousand"}
_SAME = _NAMES | {name: written for written, name in _NAMES.items()}
