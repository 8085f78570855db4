"""A title's word in its other spellings, as identity reads two titles: the plural's singular
("galaxies" galaxy, "spectra" spectrum), the Greek letter's name ("α" alpha), a number in words
("12" twelve, "2nd" second, "2d" two-dimensional), and British English as American English
spells it ("catalogue" catalog, "programme" program, "sulphur" sulfur, "defence" defense,
"manoeuvre" maneuver, "grey" gray, "odour" odor, "learnt" learned)."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=1 << 14)  # each pair of titles asks of each word many times
def stems(word: str) -> frozenset[str]:
    """The word, what it may be the plural of ("galaxies" galaxy, "maps" map, "analyses"
    analysis, "spectra" spectrum, "nuclei" nucleus, "indices" index, "mice" mouse) and its
    other spelling as a whole form ("α" alpha, "2d" two-dimensional, "12" twelve, "1st" first,
    "catalogues" catalogs): two words of one stem are one. A spelling is matched whole, in
    a key of its own, never cut again: "alumina" (a plural's "aluminum") had been one with
    "aluminium", "hundreds" (a plural's "hundred") with "100", "seconds" with "2nd"."""
    forms = {word, _ALSO.get(word, word)}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    for plural, singular in _PLURALS:
        if len(word) > len(plural) + 1 and word.endswith(plural):
            forms.add(word[: -len(plural)] + singular)
    if word in _WRITTEN:  # the very word: "hundreds" and "seconds" are no number
        forms.add(_NUMBER + _WRITTEN[word])
    whole = {word, word[:-1]} if word[:-1] in forms else {word}  # "discs" as "disc" too
    return frozenset(forms | {_SPELT + f for w in whole for f in spellings(w)})


_SPELT = "="  # no word has it (normalize leaves none): a spelling's key, never a stem's
_NUMBER = "+"  # the key of a number, as its digits or in words


@functools.lru_cache(maxsize=1 << 14)
def spellings(word: str) -> frozenset[str]:
    """The word as it is and as American English spells it: by rule where there is one (-logue
    -log, -gramme -gram, "sulph" "sulf", "defence" "defense", a British root's "ae" or "oe":
    "haem", "foetal", "oesophagus"), else by the word ("grey", "mould", "disc", "tyre"). "A
    catalogue of …" and "A catalog of …" had been two papers; so had a British word that is no
    whole rule's: "greyscale", "odour" (under the one-edit rule's 5 letters), "learnt",
    "practising", "colourisation" (two edits, one per family). Both are kept, not one for the
    other. Rules are for British words only: "ae" out of any word had made "maestro" one with
    "metro", an "-ence" out of any word "emergence" one with "EmergENS"."""
    us = _WORDS.get(word, "")
    if not us and word.endswith("s") and word[:-1] in _WORDS:
        us = _WORDS[word[:-1]] + "s"
    if not us and (root := _ROOTED.match(word)):  # "greyscale", "ploughing", "mouldy"
        us = _WORDS[root[0]] + word[root.end() :]
    us = us or word
    for rule, spelt in _RULES:
        us = rule.sub(spelt, us)
    us = _DIGRAPH.sub(lambda root: root[0].replace("ae", "e").replace("oe", "e"), us)
    return frozenset({word, us})


# The British roots whose "-our" is "-or" in American English: "four", "tour", "your", "hour"
# are no "for", "tor" or "hor"; "odour" had been another word than "odor" (4 letters, under
# the one-edit rule's 5)
_OUR = (
    "arb|ard|arm|behavi|cand|clam|col|demean|endeav|fav|ferv|flav|glam|harb|hon|hum|lab|neighb"
    "|od|parl|ranc|rig|rum|savi|sav|splend|succ|tum|val|vap|vig"
)
# The British roots whose "-re" is "-er" in American English, at the start of a longer word
# ("centreline", "fibreglass", "centrepiece", "metreage"): one edit only at the word's end
# ("centres"), the r and e swapped within had been a typo's, another paper without authors.
# After a unit's or a size's prefix too ("kilometrescale", "millimetrewave", "nanofibres"):
# anchored at the word's start, those had been another paper (reg38); not anywhere, where
# "splitreason" holds "litre".
_RE = "|".join(
    word[:-2]
    for word in "centre fibre theatre metre litre spectre calibre lustre sabre meagre"
    " ochre sceptre mitre titre".split()
)
_SIZES = "kilo|centi|milli|micro|nano|pico|femto|deci|hecto|mega|giga|sub|super|macro|multi"
_RULES = tuple(
    (re.compile(rule), spelt)
    for rule, spelt in (
        (r"(?<=[lg])ogue(s?)$", r"og\1"),  # catalogue, dialogue, analogue, pedagogue; no vogue
        (r"(?<=gram)me(s?)$", r"\1"),  # programme, kilogramme; no "streamme"
        (r"sulph", "sulf"),  # sulphur, sulphate, disulphide
        (r"^(def|off|lic|pret)enc(e[sd]?|ing)$", r"\1ens\2"),  # defence, licencing, offences
        (r"^scep", "skep"),  # sceptical
        (r"^enquir", "inquir"),  # enquiry
        (r"^manoeuvr(?:e(?=s?$))?", "maneuver"),  # manoeuvre, manoeuvring, manoeuvrable
        (r"practis(?=e|ing)", "practic"),  # practising: the verb; before -ise
        (rf"({_OUR})our", r"\1or"),  # odour, colourisation, unfavourable, neighbourhood
        (r"(?<=\w\w)is(e[sdr]?|ers|ing|ations?|able)$", r"iz\1"),  # colourised, anaesthetised
        (r"(?<=\w\w)ys(e[sdr]?|ers|ing)$", r"yz\1"),  # haemolysed, catalysed
        (r"(learn|burn|dream|leap|spoil|lean)t$", r"\1ed"),  # learnt, sunburnt, dreamt
        (r"(spel|spil|dwel)t$", r"\1led"),  # spelt, spilt
        (rf"^((?:{_SIZES})*(?:{_RE}))re(?=[a-z])(?!d$)", r"\1er"),  # centreline, kilometrescale
    )
)
# The British roots with an "ae" or "oe" American English drops: haemoglobin, leukaemia, foetal,
# oesophagus, palaeo-, paediatric; not maestro, aerosol, poets, Noether, Michael
_DIGRAPH = re.compile(
    r"haem|aemi|aesth|caes|palae|gynaec|paed|aetiol|faec|mediaev|archaeo"
    r"|oesoph|oestr|foet|rrhoe|amoeb|coeli|oedem|homoeo|pnoe"
)
_WORDS = {  # a word's other spelling that no rule gives
    "grey": "gray",
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
    "jewellery": "jewelry",
    "cosy": "cozy",
}
# A root above opens its longer words too ("greyscale", "ploughing", "mouldy", "chequebook"):
# only the whole word had been read, "Greyscale image …" sent again. Not "disc" ("discrete"),
# "cheque" ("chequered" is "checkered").
_ROOTED = re.compile("|".join(sorted(set(_WORDS) - {"disc", "cheque", "whilst", "amongst"})))

_PLURALS: tuple[tuple[str, str], ...] = (("ies", "y"), ("es", "is"), ("a", "um"), ("a", "on"))
_PLURALS += (("i", "us"), ("ices", "ex"), ("ices", "ix"))
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho"
_NAMES = {chr(0x3B1 + i + (i > 16)): n for i, n in enumerate(f"{_GREEK} sigma tau".split())}
_NAMES |= {chr(0x3C5 + i): n for i, n in enumerate("upsilon phi chi psi omega".split())}
_NAMES |= {"mice": "mouse", "men": "man", "women": "woman", "children": "child", "feet": "foot"}
_ALSO = _NAMES | {name: written for written, name in _NAMES.items()}  # a stem, both ways
NUMBERS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen twenty"
).split()
ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
    " thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_WRITTEN = {str(i): name for i, name in enumerate(NUMBERS, 1)}
_WRITTEN |= {
    f"{i}{'th' if i > 3 else ('st', 'nd', 'rd')[i - 1]}": n for i, n in enumerate(ORDINALS, 1)
}
_WRITTEN |= {f"{i}d": f"{n}dimensional" for i, n in enumerate(NUMBERS[:11], 1)}
_WRITTEN |= {"100": "hundred", "1000": "thousand"}
_WRITTEN |= {name: name for name in _WRITTEN.values()}  # a number's key is its name
