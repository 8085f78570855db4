"""What a reader writes about itself, not its subject: the journals it cites ("Phys. Rev. Lett.
120, 1234 (2018)", "Nature 2021", "ApJ 900, 12") and its role in the first person's frame ("I
am a PhD student", "our group", "my lab"). `unsaid` takes them out of an interests text."""

from __future__ import annotations

import re

from digest.ranking.stopwords import ENGLISH_STOP_WORDS

# The words journal abbreviations are made of (ISO 4, as physics, astronomy, chemistry, biology
# and computing cite them). Read as words, a grant text's "published in Phys. Rev. Lett." had
# explained picks as "why: rev, phys" (rank27 L1).
_ABBREVIATED = frozenset(
    """phys rev lett astrophys astron astronom chem nat commun proc natl acad sci mon not soc
    nucl mater appl opt math biol mol struct comput mech stat theor exp res int inf eng electron
    ann annu adv trans jpn eur am geophys biophys cosmol part rep prog suppl ser curr opin syst
    neurosci quant angew macromol polym lond roy publ j z gen med clin biochem cell genet ecol
    evol environ atmos ocean planet space instrum methods meth condens matter fluid fluids stud
    hist philos found mod spectrosc photon photonics solid state lett mathematical""".split()
)
# Journals a citation names by an acronym or a plain title, followed by its volume or year.
_TITLED = (
    r"ApJ[LS]?|AJ|MNRAS|A&A|A\s*&\s*A|PRL|PR[ABCDEX]|PRResearch|RMP|JHEP|JCAP|PNAS|JACS|EPL"
    r"|NJP|JFM|JCP|CQG|PASP|PASJ|ARA&A|Nature(?:\s+[A-Z][a-z]+){0,2}|Science(?:\s+Advances)?|Cell"
    r"|Physical\s+Review(?:\s+Letters|\s+[A-Z])?|Astrophysical\s+Journal|Soft\s+Matter"
    r"|Macromolecules|Astronomy\s*&\s*Astrophysics|Monthly\s+Notices[\w\s.]*?Society"
)
# A citation's numbers: a series letter, a volume, its page or article number, the year.
_NUMBERS = (
    r"(?:\s*[A-Z](?![\w.]))?\s*(?:\d{1,5}(?:\s*\(\d{1,3}\))?(?:\s*[,:]\s*[A-Za-z]?\d{1,7}"
    r"(?:\s*[-–]\s*\d{1,7})?)?(?:\s*,?\s*\(?(?:19|20)\d{2}\)?)?|\(?(?:19|20)\d{2}\)?)(?!\w|\.\d)"
)
# A run of abbreviations ("Phys. Rev. Lett.", "J. Chem. Phys.", "Mon. Not. R. Astron. Soc.",
# "Phys.Rev.B"), numbers or none; one of its words must be a journal's, which a name's initials
# ("J. A. Smith") are not.
_RUN = re.compile(r"(?<![\w.])((?:[A-Z][a-z]{0,11}\.\s*(?:&\s*)?){2,8})" rf"(?:{_NUMBERS})?")
_CITED = re.compile(rf"(?<![\w&])(?:{_TITLED}){_NUMBERS}")

# A reader's role and group, in its own frame: "I am (a) PhD student", "as a postdoc", "our
# group", "my lab", a profile opening "PhD student in ...". Its field words stay ("I am a
# machine learning engineer"); "student performance prediction", "lab automation" and "I am
# interested in lab automation" are subjects: the role must close its noun phrase.
_ROLES = (
    r"students?|postdocs?|post-docs?|postdoctoral(?:\s+(?:researcher|fellow|scholar)s?)?"
    r"|(?<=\bPhD\s)candidates?|(?<=\bdoctoral\s)candidates?"
    r"|researchers?|scientists?|engineers?|professors?|lecturers?|faculty|fellows?|PIs?"
    r"|principal\s+investigators?|group\s+leaders?|undergrad(?:uate)?s?|grad(?:uate)?s?"
    r"|groups?|labs?|laborator(?:y|ies)|teams?|supervisors?|advisors?|collaborators?"
    r"|colleagues?|thesis|dissertation"
)
_STATUS = (
    r"PhD|Ph\.\s*D\.?|DPhil|doctoral|master['’]?s?|MSc|BSc|undergraduate|graduate|grad|senior"
    r"|junior|assistant|associate|full|visiting|research|first-year|second-year|third-year"
    r"|final-year|(?:first|second|third|fourth|final)\s+year|young|small|new|former|current"
)
_ROLE = rf"((?:(?:{_STATUS})\s+)*(?:{_ROLES}))(?=['’]s\b|[^\w'’-]|$)"
_FRAMED = re.compile(
    r"(?:\bI\s*(?:am|['’]m)|\bwe\s+are|\b(?:our|my))"
    rf"((?:\s+(?:an?|the))?(?:\s+[\w'’-]+){{0,3}}?\s+){_ROLE}",
    re.IGNORECASE,
)
_OPENING = re.compile(
    rf"^([ \t]*(?:[-*•][ \t]+)?)((?:(?:{_STATUS})\s+)+(?:{_ROLES})|post-?docs?(?:toral\s+\w+)?)"
    r"(?=['’]s\b|[^\w'’-]|$)",
    re.IGNORECASE | re.MULTILINE,
)
_STATUS_WORD = re.compile(rf"\b(?:{_STATUS})\b", re.IGNORECASE)
# After the role, what closes its noun phrase: punctuation, a function word, a verb ("our
# group studies", "working on", "funded by"); a noun ("lab automation") goes on with it.
_CLOSED = re.compile(r"\s*(?:$|[^\w\s]|(\w+)(?!\w))")
# A word in "s" after the role is its plural noun, not its verb: by a noun's suffix
# ("experiments", "catalogues", "simulations", "members") or by what follows it ("models and",
# "chats of", "results."); "our group studies stellar physics", "my lab works on" are verbs.
_NOUN_SUFFIX = re.compile(
    r"(?:ments|tions|sions|logues|gues|ures|ities|nesses|ances|ences|isms|ists|ers|ors|ships"
    r"|els|als|ums|ics)$"
)
_PLURAL_GOES_ON = re.compile(r"\s*(?:$|[^\w\s'’-]|of\b|(and|or)\b)", re.IGNORECASE)


def unsaid(text: str) -> str:
    """The text without the journals it cites and the roles its reader gives itself."""
    text = _CITED.sub(" , ", text)
    text = _RUN.sub(_run, text)
    return _OPENING.sub(_role, _FRAMED.sub(_role, text))


def _run(match: re.Match[str]) -> str:
    words = re.findall(r"[A-Za-z]+", match[1])
    return " , " if any(w.lower() in _ABBREVIATED and len(w) > 1 for w in words) else match[0]


def _role(match: re.Match[str]) -> str:
    """A role in its frame, dropped with its status words when it closes its noun phrase; the
    words between stay, unless they are status words or a stop word leads them ("I am
    interested in lab automation": no frame)."""
    between = match[1].split()
    if any(w.lower() in ENGLISH_STOP_WORDS - {"a", "an", "the"} for w in between):
        return match[0]
    if match[2][:1].isupper() and any(w[:1].isupper() for w in between):
        return match[0]  # a name: "our Local Group" is astronomers' subject
    if not _closes(match.string, match.end()):
        return match[0]
    kept = _STATUS_WORD.sub(" ", match[1])
    return match[0][: match.start(1) - match.start()] + kept + " , "


def _closes(text: str, at: int) -> bool:
    """Whether the role ends its noun phrase at `at`: a stop word, a verb or punctuation follows.
    A word in "s" after it had always been read as its verb ("our group studies"), and "our lab
    experiments", "our student models and ...", "group catalogues of ..." lost the role word
    (reg51 F4): a plural noun ends in a noun's suffix or goes on with "of", "and", a mark."""
    following = _CLOSED.match(text, at)
    if not following or not following[1]:
        return True
    word = following[1].lower()
    if word in ENGLISH_STOP_WORDS or word.endswith(("ing", "ed")):
        return True
    return _verb(word) and not _noun_goes_on(text, following.end())


def _verb(word: str) -> bool:
    return word.endswith("s") and not _NOUN_SUFFIX.search(word)


def _noun_goes_on(text: str, at: int) -> bool:
    """Whether what follows a word in "s" makes it a plural noun: "of", a mark, or "and" with
    no second verb ("models and teacher models"; "designs and understands" are verbs)."""
    after = _PLURAL_GOES_ON.match(text, at)
    if not after:
        return False
    second = re.match(r"\s*(\w+)\b", text[after.end() :]) if after[1] else None
    return not (second and _verb(second[1].lower()))
