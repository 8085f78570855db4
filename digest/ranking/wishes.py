"""A reader's interests text as the ranking reads it: a link, an e-mail address, a DOI or an
arXiv id is a pointer, not words, an arXiv category code ("cs.LG", "hep-th") is the subject it
names, a pasted BibTeX entry or LaTeX text is the words it is about (pasted.py); what the reader
refuses (negations.py) and says of itself (asides.py) are no wishes."""

from __future__ import annotations

import re
from collections.abc import Sequence

from digest.models.identity import arxiv_id, plausible_arxiv_id
from digest.models.values import Subscriber
from digest.ranking.asides import unsaid
from digest.ranking.negations import refused
from digest.ranking.pasted import plain
from digest.ranking.quantity import measured

# arXiv's category taxonomy (arxiv.org/category_taxonomy), each subject as its name says it.
# Read as letters, "cs.LG, hep-th, astro-ph.CO" had been "cs", "lg", "hep th", "astro ph": a
# theorist's picks matched "ph" (pH) and "cs" (caesium).
_SUBJECTS = {
    "cs": "computer science",
    "cs.AI": "artificial intelligence",
    "cs.AR": "hardware architecture",
    "cs.CC": "computational complexity",
    "cs.CE": "computational engineering, finance, and science",
    "cs.CG": "computational geometry",
    "cs.CL": "computation and language",
    "cs.CR": "cryptography and security",
    "cs.CV": "computer vision and pattern recognition",
    "cs.CY": "computers and society",
    "cs.DB": "databases",
    "cs.DC": "distributed, parallel, and cluster computing",
    "cs.DL": "digital libraries",
    "cs.DM": "discrete mathematics",
    "cs.DS": "data structures and algorithms",
    "cs.ET": "emerging technologies",
    "cs.FL": "formal languages and automata theory",
    "cs.GL": "general literature",
    "cs.GR": "graphics",
    "cs.GT": "computer science and game theory",
    "cs.HC": "human computer interaction",
    "cs.IR": "information retrieval",
    "cs.IT": "information theory",
    "cs.LG": "machine learning",
    "cs.LO": "logic in computer science",
    "cs.MA": "multiagent systems",
    "cs.MM": "multimedia",
    "cs.MS": "mathematical software",
    "cs.NA": "numerical analysis",
    "cs.NE": "neural and evolutionary computing",
    "cs.NI": "networking and internet architecture",
    "cs.OH": "computer science",
    "cs.OS": "operating systems",
    "cs.PF": "performance",
    "cs.PL": "programming languages",
    "cs.RO": "robotics",
    "cs.SC": "symbolic computation",
    "cs.SD": "sound",
    "cs.SE": "software engineering",
    "cs.SI": "social and information networks",
    "cs.SY": "systems and control",
    "econ": "economics",
    "econ.EM": "econometrics",
    "econ.GN": "economics",
    "econ.TH": "theoretical economics",
    "eess": "electrical engineering and systems science",
    "eess.AS": "audio and speech processing",
    "eess.IV": "image and video processing",
    "eess.SP": "signal processing",
    "eess.SY": "systems and control",
    "math": "mathematics",
    "math.AC": "commutative algebra",
    "math.AG": "algebraic geometry",
    "math.AP": "analysis of PDEs",
    "math.AT": "algebraic topology",
    "math.CA": "classical analysis and ODEs",
    "math.CO": "combinatorics",
    "math.CT": "category theory",
    "math.CV": "complex variables",
    "math.DG": "differential geometry",
    "math.DS": "dynamical systems",
    "math.FA": "functional analysis",
    "math.GM": "mathematics",
    "math.GN": "general topology",
    "math.GR": "group theory",
    "math.GT": "geometric topology",
    "math.HO": "history of mathematics",
    "math.IT": "information theory",
    "math.KT": "K-theory and homology",
    "math.LO": "mathematical logic",
    "math.MG": "metric geometry",
    "math.MP": "mathematical physics",
    "math.NA": "numerical analysis",
    "math.NT": "number theory",
    "math.OA": "operator algebras",
    "math.OC": "optimization and control",
    "math.PR": "probability",
    "math.QA": "quantum algebra",
    "math.RA": "rings and algebras",
    "math.RT": "representation theory",
    "math.SG": "symplectic geometry",
    "math.SP": "spectral theory",
    "math.ST": "statistics theory",
    "astro-ph": "astrophysics",
    "astro-ph.CO": "cosmology and nongalactic astrophysics",
    "astro-ph.EP": "earth and planetary astrophysics",
    "astro-ph.GA": "astrophysics of galaxies",
    "astro-ph.HE": "high energy astrophysical phenomena",
    "astro-ph.IM": "instrumentation and methods for astrophysics",
    "astro-ph.SR": "solar and stellar astrophysics",
    "cond-mat": "condensed matter",
    "cond-mat.dis-nn": "disordered systems and neural networks",
    "cond-mat.mes-hall": "mesoscale and nanoscale physics",
    "cond-mat.mtrl-sci": "materials science",
    "cond-mat.other": "condensed matter",
    "cond-mat.quant-gas": "quantum gases",
    "cond-mat.soft": "soft condensed matter",
    "cond-mat.stat-mech": "statistical mechanics",
    "cond-mat.str-el": "strongly correlated electrons",
    "cond-mat.supr-con": "superconductivity",
    "gr-qc": "general relativity and quantum cosmology",
    "hep-ex": "high energy physics experiment",
    "hep-lat": "high energy physics lattice",
    "hep-ph": "high energy physics phenomenology",
    "hep-th": "high energy physics theory",
    "math-ph": "mathematical physics",
    "nlin": "nonlinear sciences",
    "nlin.AO": "adaptation and self-organizing systems",
    "nlin.CD": "chaotic dynamics",
    "nlin.CG": "cellular automata and lattice gases",
    "nlin.PS": "pattern formation and solitons",
    "nlin.SI": "exactly solvable and integrable systems",
    "nucl-ex": "nuclear experiment",
    "nucl-th": "nuclear theory",
    "physics": "physics",
    "physics.acc-ph": "accelerator physics",
    "physics.ao-ph": "atmospheric and oceanic physics",
    "physics.app-ph": "applied physics",
    "physics.atm-clus": "atomic and molecular clusters",
    "physics.atom-ph": "atomic physics",
    "physics.bio-ph": "biological physics",
    "physics.chem-ph": "chemical physics",
    "physics.class-ph": "classical physics",
    "physics.comp-ph": "computational physics",
    "physics.data-an": "data analysis, statistics and probability",
    "physics.ed-ph": "physics education",
    "physics.flu-dyn": "fluid dynamics",
    "physics.gen-ph": "physics",
    "physics.geo-ph": "geophysics",
    "physics.hist-ph": "history and philosophy of physics",
    "physics.ins-det": "instrumentation and detectors",
    "physics.med-ph": "medical physics",
    "physics.optics": "optics",
    "physics.plasm-ph": "plasma physics",
    "physics.pop-ph": "popular physics",
    "physics.soc-ph": "physics and society",
    "physics.space-ph": "space physics",
    "quant-ph": "quantum physics",
    "q-bio": "quantitative biology",
    "q-bio.BM": "biomolecules",
    "q-bio.CB": "cell behavior",
    "q-bio.GN": "genomics",
    "q-bio.MN": "molecular networks",
    "q-bio.NC": "neurons and cognition",
    "q-bio.OT": "quantitative biology",
    "q-bio.PE": "populations and evolution",
    "q-bio.QM": "quantitative methods",
    "q-bio.SC": "subcellular processes",
    "q-bio.TO": "tissues and organs",
    "q-fin": "quantitative finance",
    "q-fin.CP": "computational finance",
    "q-fin.EC": "economics",
    "q-fin.GN": "finance",
    "q-fin.MF": "mathematical finance",
    "q-fin.PM": "portfolio management",
    "q-fin.PR": "pricing of securities",
    "q-fin.RM": "risk management",
    "q-fin.ST": "statistical finance",
    "q-fin.TR": "trading and market microstructure",
    "stat": "statistics",
    "stat.AP": "applied statistics",
    "stat.CO": "statistical computation",
    "stat.ME": "statistical methodology",
    "stat.ML": "machine learning",
    "stat.OT": "statistics",
    "stat.TH": "statistics theory",
}
_BY_LOWER = {code.lower(): name for code, name in _SUBJECTS.items()}

# A code as readers write it, in any case: a subject ("cs.LG", "stat.ml", "astro-ph.CO",
# "cond-mat.str-el") or an archive with a hyphen ("hep-th", "quant-ph"). An archive of one word
# alone ("math", "physics") is a word, and stays one; so is "cs.LG" inside a longer token.
_CODE = re.compile(
    r"(?<![\w.\-/])([a-z]+(?:-[a-z]+)?(?:\.[a-z]+(?:-[a-z]+)?)?)(?![\w\-/]|\.\w)", re.IGNORECASE
)
# Pointers: read as words they had been a scholar page's "citations" and "user", a repository's
# owner, a DOI's journal.
_POINTERS = re.compile(
    r"(?:\b[a-z][a-z0-9+.\-]*://|\bwww\.)[^\s<>\"')\]]+"  # a link, with or without its scheme
    r"|[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*\.[a-z]{2,}\b"  # an e-mail address ("mAP@0.5" is none)
    r"|\b(?:doi:\s*)?10\.\d{4,9}/[^\s<>\"']+"  # a DOI
    # A bare domain, in small letters: "ASP.NET", "ML.NET" and "Amazon.com" are names; not .ai or
    # .io, which "cs.ai" and a word's ".io" would be.
    r"|(?-i:\b[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.(?:com|org|net|edu|gov))(?:/[^\s<>\"')\]]*)?(?!\w)",
    re.IGNORECASE,
)

# An arXiv id, "arXiv" before it or not ("arXiv:2506.20115", "2506.20115v2", "hep-th/9711200"):
# a pointer to a paper, as a DOI is. Read as words, "arXiv:2506.20115, arXiv:2509.22540" had been
# the word "arxiv", the whole profile: every pick a paper whose abstract says "arXiv"; and
# "hep-th/9711200" had been "hep th". The word "arXiv" before an id is the pointer's, with a colon
# or not, and the words readers put between ("arXiv 2506.20115", "arXiv id 2506.20115", "arXiv
# preprint arXiv:2506.20115"): without the colon it had stayed, the profile "arxiv" again. So is
# its dot or hyphen ("arXiv.2506.20115", a DOI's tail; "ArXiv-2506.20115"): "arxiv" a word again.
_ARXIV_ID = re.compile(
    r"(?<![\w.\-/])((?:arXiv(?:\s+(?:preprint|e-?prints?|paper|id|identifier|number|no\.|nr\.|#))*"
    r"(?:\s*:?\s*|[.\-]))+)?"
    r"(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[a-z]{2})?/\d{7})(v\d+)?(?![\w\-/]|\.\d)",
    re.IGNORECASE,
)
_LISTED = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,3}[.)]|\[\d{1,3}\])?[ \t]*(\d{4}\.\d)", re.MULTILINE)


def read(text: str) -> str:
    """The text with its pointers, the journals it cites, its reader's role and what its reader
    refuses dropped, and its arXiv category codes as their subjects; a BibTeX entry or LaTeX in
    it is read as its text first (its doi and url fields are gone). Read as wishes, "Not
    interested in surveys. Anything except LLMs" had made surveys and LLM papers the picks
    (rank27 F1), and "published in Phys. Rev. Lett." explained them as "rev, phys" (L1)."""
    text = _POINTERS.sub(" ", plain(text))
    text = _ARXIV_ID.sub(lambda m: " " if _is_id(m) else m[0], text)
    return _CODE.sub(_subject, refused(unsaid(text)))


def _is_id(match: re.Match[str]) -> bool:
    """Whether an `_ARXIV_ID` match is an arXiv id: one "arXiv" names is; a bare one, when it is
    plausible (a month 01-12, an archive arXiv has) and no quantity."""
    if match[1]:
        return True
    ident = arxiv_id(match[2])
    if not ident or not plausible_arxiv_id(ident):
        return False
    if match[3] or "/" in ident:
        return True
    if _unschemed(ident):
        return False
    text = match.string
    return not measured(text, match.start(), match.end()) or _listed(text, match.start())


def _unschemed(ident: str) -> bool:
    """Whether a bare YYMM.NNNN(N) is none arXiv gave: its ids of that form began in 0704, with
    five digits in 1501 ("0612.12345" is a number, not an id)."""
    if "/" in ident:
        return False
    month, number = ident.split(".")
    return month < "0704" or (len(number) == 5) != (month >= "1501")


def _listed(text: str, at: int) -> bool:
    """Whether the bare number at text[at] opens a line of a list of them (two lines or more)."""
    lines = [m.start(1) for m in _LISTED.finditer(text)]
    return len(lines) >= 2 and at in lines


def arxiv_ids(text: str) -> list[str]:
    """The arXiv ids a reader wrote in the text, each once, as `like` takes them ("arXiv:…", a
    bare id, an abs link): papers, which the text does not read. A pasted entry's eprint is its
    entry's, not one of them."""
    text = plain(text)
    found: list[tuple[int, str]] = []
    for link in _POINTERS.finditer(text):  # an abs or pdf link, with its scheme or without
        at = link[0].rstrip(".,;:!?)]}>\"'")  # a link's end in a sentence or a list
        ident = arxiv_id(at) or arxiv_id("https://" + at) or _linked(at)
        found += [(link.start(), ident)] if ident else []
    text = _POINTERS.sub(lambda m: " " * len(m[0]), text)  # where they were, for the order
    found += [(m.start(), _ident(m)) for m in _ARXIV_ID.finditer(text) if _is_id(m)]
    ids = [ident for _, ident in sorted(found) if plausible_arxiv_id(ident)]
    return list(dict.fromkeys(ids))


# A link whose last part is an arXiv id names it: huggingface.co/papers/ID, alphaxiv.org/abs/ID;
# dropped as links, their papers had been lost silently, no id named for `like`.
_LINKED = re.compile(r"/(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?/?$")


def _linked(link: str) -> str:
    found = _LINKED.search(link.split("?")[0].split("#")[0])
    return found[1] if found else ""


def _ident(match: re.Match[str]) -> str:
    return arxiv_id(match[2]) or match[2]


def _subject(match: re.Match[str]) -> str:
    code = match[1]
    if "." not in code and "-" not in code:
        return code  # "math", "stat", "cs": words (or caesium)
    return _BY_LOWER.get(code.lower(), code)


def interests(subscribers: Sequence[Subscriber]) -> list[str]:
    """Each subscriber's interests text, read."""
    return [read(s.profile.interests) for s in subscribers]
