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
# Fields that end other words only as themselves: "demographics", "infographics" are the plurals
# of "demographic", "infographic", not fields of graphics; and a field's tail after fewer than
# three letters is no field ("comics" is no "-omics"). Both had lost their singulars (reg47 F1).
_WHOLE = frozenset({"graphics"})


def _field(word: str) -> bool:
    """Is `word` (small letters) one of OTHER_MEANING, or a compound of one (thermodynamics,
    bioinformatics, spintronics, proteomics)?"""
    for meaning in OTHER_MEANING:
        if word == meaning:
            return True
        if word.endswith(meaning) and not (
            meaning.endswith("ics") and (meaning in _WHOLE or len(word) - len(meaning) < 3)
        ):
            return True
    return False


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


# Latin and Greek plurals that English's rules do not make: "matrices" had been "matrice",
# "spectra" "spectras", so a reader's "spectrum" missed every "spectra" (rank25 L1). Words whose
# other form means another thing stay out: media (medium), data, quanta, momenta (an optimizer's
# momentum), errata.
_LATIN = {
    **{w: w[:-2] + "ices" for w in ("matrix", "index", "vertex", "apex", "vortex", "cortex",
                                    "helix", "simplex", "appendix", "codex")},
    **{w: w[:-2] + "a" for w in ("spectrum", "bacterium", "stratum", "curriculum", "minimum",
                                 "maximum", "optimum", "memorandum", "addendum")},
    **{w: w[:-2] + "i" for w in ("nucleus", "locus", "stimulus", "fungus", "alumnus", "radius",
                                 "focus", "torus", "annulus", "modulus", "calculus", "bacillus")},
    **{w: w[:-2] + "a" for w in ("criterion", "phenomenon", "automaton", "polyhedron",
                                 "tetrahedron", "octahedron")},
    **{w: w + "e" for w in ("formula", "antenna", "nebula", "supernova", "larva", "alga",
                            "vertebra", "lamina")},
    "corpus": "corpora", "genus": "genera", "schema": "schemata", "stigma": "stigmata",
}  # fmt: skip
# A plural finds its singular only where the singular is, in most of its uses, that noun. Counted
# over the 45k papers of 2025 (each use by its neighbours): a verb ("we focus on": 2,593 of
# 3,470 "focus"), a name of another thing (OpenAI's "Codex", the APEX telescope), a quantity or
# an adjective ("a maximum of", "maximum likelihood", "non-maximum suppression", "minimum
# description length", "attain optimum performance": 9 in 10 "maximum", "minimum", 20 of 36
# "optimum") are no foci, codices, apices, extrema. "foci" had taken in 3,191 papers, "maxima" 531
# more, for a reader's keyword and an exclude rule alike: other() answers both, and a rule drops
# mail. The singular still finds these plurals, which are only the noun. (Held two-way by the
# same count: "elastic modulus" is the noun of "elastic moduli", "spectral index" of "indices",
# "curriculum learning" of "curricula".)
_SINGULAR_ONLY = frozenset({"foci", "codices", "apices", "maxima", "minima", "optima"})
_SINGULAR_OF = {v: k for k, v in _LATIN.items() if v not in _SINGULAR_ONLY}


@functools.lru_cache(maxsize=1 << 16)
def _other(word: str, _file: Path) -> tuple[str, ...]:
    if word in _SINGULAR_OF:
        return (_SINGULAR_OF[word],)
    if word in _LATIN:
        # beside the regular plural as other words take it, held or not: "antennas", which the
        # background lacks, had been left for "antennae" alone (20 of 93 papers lost, reg49 F2)
        regular = _regular(word, _file)
        return (_LATIN[word], *(p for p in regular if p != _LATIN[word]))
    return _regular(word, _file)


def _regular(word: str, _file: Path) -> tuple[str, ...]:
    """The word's other number by English's rules, as the background holds it."""
    if len(word) < 3 or not word.isalpha() or _field(word) or word in _ACRONYMS:
        return ()
    if word.endswith(("ic", "ics")):
        return _of_ics(word, _share(_file))
    if word.endswith("s") and not word.endswith("ss"):
        return _of_plural(word)
    candidates = [p for p in _plurals(word) if not _field(p)]
    plural = tuple(p for p in _held(candidates) if word in _singular(p))
    if plural or any(p in _known() for p in candidates) or len(candidates) < len(_plurals(word)):
        return plural  # "leaves" is of leaf, "means" of no "mean"
    return tuple(candidates)


def _of_plural(word: str) -> tuple[str, ...]:
    """A word in -s: a singular's plurals (bias, gas, lens, virus, analysis), or a plural's
    singulars; where the background holds none of them, every candidate the rules give: an
    unheld "synthesis", "census", "ellipsis", "portfolios" had lost its other number (reg45 F1)."""
    plural = _held(_plurals(word))
    if (
        plural
        and not _held(_singulars(word))
        and (_df(word) >= max(map(_df, plural)) or not _df(word))
    ):
        return plural  # no acronym's plural ("cas", "pos" of "cases", "poses"), nor "eras"
    if single := _singular(word, held=True):
        return single  # "analyses" is "analysis", not the verb "analyse"; "bases" both
    if plural:  # a plural the counts refused, as an acronym's: "FUS" no "fuses", "RIS" no "rises"
        return ()  # (reg46: 5 papers had become 287)
    # "us" and "is" end no plural ("status", "synthesis"), "es" no singular ("studies"); "as",
    # "os", "ns" either ("canvas", "portfolios", "microlens", "KPIs").
    plurals = () if word.endswith("es") else tuple(_plurals(word))
    return plurals + (() if word.endswith(("us", "is")) else tuple(_singulars(word, True)))


def _of_ics(word: str, share: float) -> tuple[str, ...]:
    """A noun in -ics and its -ic, unless the -ic is an adjective: far more papers write it than
    the -ics, beyond what nine in ten of the background's nouns show between their numbers.
    "systematics" had taken in every "systematic review", "intrinsics" "intrinsic" (rank25 F1);
    "metrics", "heuristics" stay nouns of "metric", "heuristic"."""
    noun = word if word.endswith("s") else word + "s"
    if _field(noun):  # a field: "dynamic" had found every "dynamics" (reg46)
        return ()
    adjective, held = noun[:-1], _df(noun)
    if _df(adjective) > share * held or (not held and _df(adjective)):
        return ()
    return (adjective,) if word == noun else (noun,)


@functools.cache
def _share(_file: Path) -> float:
    """How many times more papers write a noun's singular than its plural, at most, for nine in
    ten of the background's nouns in -s (10 for the built-in one)."""
    known = _known()
    ratios = sorted(n / known[w + "s"] for w, n in known.items() if w + "s" in known)
    return ratios[len(ratios) * 9 // 10] if ratios else 1.0


def _singular(plural: str, held: bool = False) -> tuple[str, ...]:
    """The plural's singulars as other() reads them (all candidates where none is held; none
    then if held): the likelier, and another reading that more papers write ("bases": "basis"
    and "base", which "knowledge bases" had missed, rank25 F2; "analyses" no verb "analyse")."""
    found = _held(_singulars(plural))
    if found:
        return tuple(f for i, f in enumerate(found) if not i or _df(f) >= _df(found[0]))
    return () if held else tuple(_singulars(plural, True))


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
    elif word.endswith("xes"):
        forms = [word[:-2] + "is", word[:-1], word[:-2]]  # axes, regexes
    elif word.endswith("ses"):
        forms = [word[:-2] + "is", word[:-1], *([] if regular else [word[:-2]])]  # analyses,
        # cases, biases
    elif re.search("(?:ch|sh|z|o)es$", word):
        forms = [word[:-1], word[:-2]]  # caches, approaches, sizes, haloes
    else:
        forms = [word[:-1]]
    return [form for form in forms if len(form) >= 3]


def _plurals(word: str) -> list[str]:
    """A singular's regular plurals."""
    if word.endswith("is") and len(word) > 3:
        return [word[:-2] + "es"]  # analysis
    if word.endswith("ch"):
        return [word + "es", word + "s"]  # approaches; epochs, techs: a "ch" said /k/
    if word.endswith(("s", "x", "z", "sh")):
        return [word + "es"]  # bias, class, box
    if word.endswith("y") and word[-2] not in "aeiou":
        return [word[:-1] + "ies", word + "s"]  # policies; flybys
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
