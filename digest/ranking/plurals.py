"""A word's other number, singular or regular plural, as the built-in background's words hold
it: one rule for a reader's terms (spellings.numbers) and for exclude and alert rules (rules.py)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

# Plurals whose singular means another thing, and fields named in -ics whose -ic is an adjective
# ("public goods" had taken in "good", "means" "mean", "fluid dynamics" would "dynamic"); a word
# ends in one of these to be none (thermodynamics, bioinformatics, proteomics).
OTHER_MEANING = (
    *("goods", "means", "news", "odds", "series", "species", "data", "humanities", "basics"),
    *("specifics", "physics", "mathematics", "economics", "dynamics", "tronics", "optics"),
    *("kinetics", "genetics", "omics", "robotics", "acoustics", "linguistics", "analytics"),
    *("semantics", "mechanics", "photonics", "plasmonics", "phononics", "magnonics", "politics"),
    *("ethics", "aesthetics", "logistics", "informatics", "graphics", "econometrics"),
    *("biometrics", "psychometrics", "scientometrics", "bibliometrics", "kinematics", "statics"),
    *("energetics", "iatrics", "phonetics", "pragmatics", "semiotics", "forensics", "academics"),
    *("organics", "therapeutics", "photovoltaics"),
)
# Acronyms that papers write in capitals and the analyzer reads in small letters, no singulars of
# a plural in -es: DOS (density of states) is no "doses", LOS (line of sight) no "loses".
_ACRONYMS = frozenset({"dos", "los", "sos", "cos", "nos", "pos", "cas"})
# A word in -s that the background does not hold in either number is a singular where its
# ending says so (status, chaos, alias, iris): "new" must not match "news".
_SINGULAR_ENDINGS = ("ss", "us", "is", "as", "os")
# -f and -fe nouns whose plural is -ves (leaf, half, shelf, wolf, dwarf, thief; life, knife);
# "nerves", "moves", "motives" are no plurals of NeRF, MOF, motif.
_VES = re.compile(r"(?:l|ea|oa|ar|ie)ves$")
_IVES = re.compile(r"(?:l|w|kn)ives$")


def other(word: str) -> tuple[str, ...]:
    """The word (small letters) in its other number: a plural's one singular, a singular's
    plurals; of the English rules' candidates those the background holds, else all of them."""
    from digest.ranking import background  # which imports the features, which import us

    return _other(word, background.FILE)


@functools.lru_cache(maxsize=1 << 16)
def _other(word: str, _file: Path) -> tuple[str, ...]:
    if len(word) < 3 or not word.isalpha() or word.endswith(OTHER_MEANING) or word in _ACRONYMS:
        return ()
    if word.endswith("s") and not word.endswith("ss"):
        plural = _held(_plurals(word))  # a singular in -s: bias, gas, lens, virus, analysis
        if plural and _df(word) >= max(map(_df, plural)) and not _held(_singulars(word)):
            return plural  # no acronym's plural ("cas", "pos" of "cases", "poses"), nor "eras"
        single = _held(_singulars(word))
        if single:
            return single[:1]  # "analyses" is "analysis", not the verb "analyse"
        return () if word.endswith(_SINGULAR_ENDINGS) else tuple(_singulars(word, True))
    candidates = [p for p in _plurals(word) if not p.endswith(OTHER_MEANING)]
    plural = tuple(p for p in _held(candidates) if word in _singular(p))
    if plural or any(p in _known() for p in candidates) or len(candidates) < len(_plurals(word)):
        return plural  # "leaves" is of leaf, "means" of no "mean"
    return tuple(candidates)


def _singular(plural: str) -> tuple[str, ...]:
    """The plural's singular as other() reads it (all candidates where none is held)."""
    forms = _singulars(plural)
    found = _held(forms)
    return found[:1] if found else tuple(_singulars(plural, True))


def _singulars(word: str, regular: bool = False) -> list[str]:
    """A plural's possible singulars, the likelier first; regular: only those the rules give
    without the background (no "movie" of "movies", "leaf" of "leaves", "bias" of "biases")."""
    if word.endswith("ies"):
        forms = [word[:-3] + "y", *([] if regular else [word[:-1]])]  # studies, movies
    elif word.endswith("ves"):
        cut = word[:-3]
        fs = [cut + "f"] if _VES.search(word) else [cut + "fe"] if _IVES.search(word) else []
        forms = [*([] if regular else fs), word[:-1]]  # leaves -> leaf, lives -> life, curves
    elif word.endswith("sses"):
        forms = [word[:-2]]  # classes
    elif word.endswith(("ses", "xes")):
        forms = [word[:-2] + "is", word[:-1], *([] if regular else [word[:-2]])]  # analyses,
        # cases, biases, axes
    elif re.search("(?:ch|sh|z|o)es$", word):
        forms = [word[:-1], word[:-2]]  # caches, approaches, sizes, haloes
    else:
        forms = [word[:-1]]
    return [form for form in forms if len(form) >= 3]


def _plurals(word: str) -> list[str]:
    """A singular's regular plurals."""
    if word.endswith("is") and len(word) > 3:
        return [word[:-2] + "es"]  # analysis
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return [word + "es"]  # bias, class, box
    if word.endswith("y") and word[-2] not in "aeiou":
        return [word[:-1] + "ies"]
    if word.endswith("o"):
        return [word + "s", word + "es"]  # halos, haloes
    if word.endswith("f") and _VES.search(word[:-1] + "ves"):
        return [word + "s", word[:-1] + "ves"]
    if word.endswith("fe") and _IVES.search(word[:-2] + "ves"):
        return [word + "s", word[:-2] + "ves"]
    return [word + "s"]


def _held(forms: list[str]) -> tuple[str, ...]:
    known = _known()
    return tuple(form for form in forms if form in known)


def _df(word: str) -> int:
    return _known().get(word, 0)


def _known() -> dict[str, int]:
    """The background's single words and their papers (none without one: every candidate is
    then taken)."""
    from digest.ranking import background

    return _known_of(background.FILE)


@functools.cache
def _known_of(file: Path) -> dict[str, int]:
    from digest.ranking import background

    found = background.load(file)
    if found is None:
        return {}
    return {t: int(df) for t, df in zip(found.terms, found.df.tolist(), strict=True) if t.isalpha()}


def cased(word: str, form: str) -> str:
    """A form of the word's small letters in the word's own case ("LLMs" -> "LLM", "STUDIES" ->
    "STUDY")."""
    low = word.lower()
    k = next((i for i, (a, b) in enumerate(zip(low, form, strict=False)) if a != b), len(form))
    k = min(k, len(low))
    rest = form[k:].upper() if word.isupper() else form[k:]
    return word[:k] + rest
