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
    r"|withheld|tba|tbd|keine?|nicht|pas|non|sin|sem|nessun[oa]?|brak|нет)\b|暂无|无|無|なし|없음)"
)
# The two words side by side or apart by words that say nothing else ("no abstract is
# available", "abstract for this article is not", "暂无摘要"): a short abstract's "in summary,
# we show that not only" or "no bound; the abstract machine" is no placeholder.
_NEAR = (
    r" ?(?:(?:is|are|was|has|have|been|be|currently|presently|still|yet|available|provided|given"
    r"|for|of|to|this|these|the|an|a|article|paper|chapter|item|content|here|there) )*"
)
_SAYS_NONE = re.compile(rf"{_ABSTRACT}{_NEAR}{_ABSENT}|{_ABSENT}{_NEAR}{_ABSTRACT}")
# Whole texts that stand for no text at all.
_BARE = re.compile(
    r"(?:n a|na|none|null|nil|tba|tbd|to be (?:announced|added|confirmed|provided)"
    r"|coming soon|forthcoming|pending|not available|unavailable|abstract|summary"
    r"|no (?:description|content|text)(?: available)?)"
)


def placeholder(text: str) -> bool:
    """Whether a text tells nothing of its paper: none, or a short stock phrase where its
    abstract will be. Two items of one feed under one title, the first "Abstract not available
    yet." and the second the abstract, had been two papers (their texts differed): sent twice."""
    if len(text.split(maxsplit=LONG_TEXT)) > LONG_TEXT:
        return False  # a long text, told without reading it all (merge asks of every copy)
    words = normalize(text)
    if not words:
        return True
    return bool(_BARE.fullmatch(words) or _SAYS_NONE.search(words))
