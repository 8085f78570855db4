"""The stock phrases a publisher puts where an abstract will be ("Abstract not available yet.",
Wiley's "No abstract is available for this article.", "N/A", CNKI's "暂无摘要"): no text of the
paper, as an empty one is not (placeholder)."""

from __future__ import annotations

import re

from digest.models.texts import LONG_TEXT, normalize

# A word for the abstract and a word of its absence, in a short text: the class, not a list of
# sentences (Cambridge's "An abstract is not available for this content so a preview has been
# provided. Please use the Get access link above ..." is 31 words).
_ABSTRACT = (
    r"(?:\b(?:abstracts?|summary|synopsis|r[eé]sum[eé]|resumen|resumo|riassunto"
    r"|zusammenfassung|abstrakt|streszczenie|аннотация|реферат)\b|摘要|要旨|抄録|概要|요약|초록)"
)
_ABSENT = (
    r"(?:\b(?:no|not|none|nil|null|n a|without|un ?available|pending|forthcoming|soon|yet|missing"
    r"|withheld|tba|tbd|keine?|nicht|pas|non|sin|sem|nessun[oa]?|brak|нет|n[aã]o|aucune?|ningun[oa]?"
    r"|indispon[ií]ve(?:l|is)|indisponibles?|недоступн[аоы]?|отсутствует|(?:to|will) follow"
    r"|(?:up)?on request)\b|暂无|无|無|なし|없음)"
)
# A text that says there is none but in the PDF, with no abstract word (Oxford Academic's "This
# content is only available as a PDF."): read as no text too (reg49 F4).
_PDF_ONLY = r"\bonly (?:available|accessible|provided) (?:as|in|via) (?:an? )?pdf\b|\bpdf only\b"
# The two words side by side or apart by words that say nothing else ("no abstract is
# available", "abstract for this article is not", "暂无摘要", "pas de résumé"): a short
# abstract's "in summary, we show that not only" or "no bound; the abstract machine" is no
# placeholder. Portuguese "não", French "pas de", "to follow", "on request" had been missed.
_NEAR = (
    r" ?(?:(?:is|are|was|has|have|been|be|currently|presently|still|yet|available|provided|given"
    r"|for|of|to|this|these|the|an|a|article|paper|chapter|item|content|here|there|de|d|di|du"
    r"|hay) )*"
)
_SAYS_NONE = re.compile(rf"{_ABSTRACT}{_NEAR}{_ABSENT}|{_ABSENT}{_NEAR}{_ABSTRACT}|{_PDF_ONLY}")
_ABSENT_WORD = re.compile(rf"{_ABSENT}|{_ABSTRACT}|\d+")  # "no", "summary", a number
# Whole texts that stand for no text at all.
_BARE = re.compile(
    r"(?:n a|na|none|null|nil|tba|tbd|to be (?:announced|added|confirmed|provided)"
    r"|coming soon|forthcoming|pending|not available|unavailable|abstract|summary"
    r"|no (?:description|content|text)(?: available)?)"
)


# The words a stock phrase has around its "no abstract": of the item and where to read it
# ("... for this conference paper", "Please use the Get access link above", "verfügbar"), none
# of them a word of a paper's own. A short text with any other word is a text: "In summary, no
# significant differences were found" and "We find no abstract reasoning in LLMs" had been
# placeholders, and a blog's second weekly post, read as no text, folded into the first.
# Cambridge's "... a full PDF is available via the 'Save PDF' action button", "This article does
# not have an abstract", "withheld at author's request" had been texts (feeds26 F2). No word of a
# version's order: "The abstract was missing in the first version of this article." says what
# an erratum corrects, and had been a placeholder (reg49 F3); the page a publisher shows in its
# stead is "first page" (_FIRST_PAGE).
_STOCK = set(
    """a an the this that these its it is are was were has have had been be will so and or but
    as at by for from in into of on to with here there above below when until please use see
    click get access link information how more full text pdf html view read download preview
    provided given supplied shown added published publication online print version page site
    website publisher journal author authors article articles paper papers chapter book item
    content contents record entry document conference proceedings meeting review letter note
    editorial commentary report issue available currently presently still time moment now
    later soon provisional you your via save action button does did request requested s t
    associated attached check back again
    de la le du des der die das für fur zur para por da do
    disponible disponibles disponivel disponível disponibile verfugbar verfügbar vorhanden
    dostepne dostępne доступна доступен""".split()
)


_FIRST_PAGE = re.compile(r"\bfirst page\b")


def placeholder(text: str) -> bool:
    """Whether a text tells nothing of its paper: none, or a short stock phrase where its
    abstract will be, and no word of its own beside it. Two items of one feed under one title,
    the first "Abstract not available yet." and the second the abstract, had been two papers
    (their texts differed): sent twice."""
    if len(text.split(maxsplit=LONG_TEXT)) > LONG_TEXT:
        return False  # a long text, told without reading it all (merge asks of every copy)
    words = normalize(text)
    if not words or _BARE.fullmatch(words):
        return True
    rest, said = _SAYS_NONE.subn(" ", words)
    rest = _FIRST_PAGE.sub(" ", rest)
    return bool(said) and all(w in _STOCK or _ABSENT_WORD.fullmatch(w) for w in rest.split())
