"""What a reader refuses in prose ("not interested in surveys", "anything except LLMs", "no LLMs
please", "(not X)", "Avoid X", "X, not Y", "X rather than Y"): no wish. `refused` takes those
words out of an interests text; `refusals` names the sentences that refuse papers (a contrast
weighs, refuses none), for a warning pointing to `exclude`."""

from __future__ import annotations

import re

# Cues whose scope runs to the sentence's end or to a turn ("but", "rather"): "Not interested in
# surveys or literature reviews" had made surveys the reader's first picks, "why: survey". A cue
# a statement uses ("does not follow a power law", "except that", "except in the limit") is none.
# "I dislike", "not keen on", "nothing with", "without X please" had still been wishes (reg51 F2).
_SENTENCE_CUES = re.compile(
    r"\b(?:(?:not|no\s+longer|less|never)\s+(?:(?:very|really|so|too|that|particularly|much"
    r"|at\s+all|even)\s+)*interested\s+(?:in|by)"
    r"|no\s+interest\s+in|uninterested\s+in|not\s+(?:really\s+)?into"
    r"|not\s+so\s+much|not\s+a\s+(?:big\s+)?fan\s+of"
    r"|I\s*(?:do\s+not|don['’]?t|never|no\s+longer)\s+(?:really\s+|much\s+|usually\s+)?"
    r"(?:follow|read|care\s+(?:much\s+)?(?:about|for)|need|want|like|work\s+on)"
    r"|I\s*(?:really\s+|rather\s+)?(?:dislike|hate|detest)"
    r"|not\s+(?:(?:very|really|too|so|that)\s+)?(?:keen\s+on|fond\s+of)"
    r"|nothing\s+(?:on|about|with|involving)"
    r"|without(?=[^.!?\n;]*?\bplease\b)"
    r"|please\s+(?:skip|avoid|exclude|ignore|omit|no|not|(?:leave|filter)\s+out)"
    r"|except(?:ing)?(?:\s+for)?(?!\s+(?:that|when|where|if|in|at|on|as|to|by|with|under|near"
    r"|within|during|for\s+(?:a|an|the|some|small|large|very)\b)\b)"
    r"|excluding|with\s+the\s+exception\s+of"
    r"|(?:any|every)(?:thing|one|\s+topic|\s+field|\s+area)\s+but"
    r"|(?<!each\s)(?<!another\s)other\s+than"
    r"|(?:sauf|except[ée]e?s?|hormis|au[ßs]er|ausgenommen|excepto|salvo"
    r"|no\s+me\s+interesan?|nicht\s+interessiert\s+an|pas\s+int[ée]ress[ée]e?s?\s+par))\b",
    re.IGNORECASE,
)
# An imperative heading its sentence ("Avoid LLM papers.", "Skip surveys", "Don't send me
# LLM papers"): a refusal to its sentence's end or turn (reg51 F2). "Skip connections",
# "skip-gram" and "skip lists" are the names of things, not imperatives.
_IMPERATIVE = re.compile(
    r"(?:^|(?<=[\n(;:.!?]))[ \t]*(?:[-*•+>][ \t]+)?(?:please\s+)?"
    r"(?:avoid|exclude|ignore|omit|(?:leave|filter)\s+out"
    r"|skip(?!-|\s+(?:connections?|lists?|grams?)\b)(?!\s+(?-i:[A-Z][a-z]))"
    r"|(?:do\s+not|don['’]?t)\s+(?:send|show|recommend|suggest|give)(?:\s+me)?)\b(?!-)",
    re.IGNORECASE,
)
# A refusal said after what it refuses ("LLMs are not my thing", "LLMs: not interested"): its
# scope runs back to its clause's start.
_AFTER = re.compile(
    r"(?:\s(?:is|are)\s+(?:not|n['’]t)\s+(?:really\s+)?(?:my\s+(?:thing|cup\s+of\s+tea|interest)"
    r"|for\s+me|of\s+interest\s+to\s+me)|:\s*not\s+(?:really\s+)?interested)"
    r"(?=\s*(?:[.!?;,\n)]|$))",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(r"[\n(,;.!?](?=\s)|[\n(]|\bbut\b")
# "X rather than Y", "X instead of Y": Y is dropped, X stays; the scope ends with the clause.
# It weighs X over Y, and refuses no papers: no `refusals` warning (reg51 F3).
_CONTRAST = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.IGNORECASE)
# "no X", "not X" heading a clause: a refusal only where a reader's voice says so (a list
# item, "(not X)", "please", another refusal in the sentence, capitals, a verbless clause that
# ends its sentence: "No LLM papers.", "Graph learning, not LLMs.", "... but not LLMs", "- no
# LLMs!"); "no-regret", "no free lunch", "Not only ... but also", "No prior work has ..." are
# statements, and "(not only at high redshift)" is one in brackets too (reg51 F1).
_HEAD = re.compile(
    r"(?:^|(?<=[\n(,;:.!?/])|(?<=\s[—–-]\s)|(?<=\bbut\s))"
    r"[ \t]*(?:[-*•+>][ \t]+)?(no|not)\s+(?=\w)",
    re.I,
)
# A closing "not Y" that is no topic but a circumstance or a description ("its own work, not a
# category's bounds", "in some cases but not in others", "but not both", "not significantly").
_CIRCUMSTANCE = re.compile(
    r"(?:no|not)\s+(?:a|an|the|this|that|these|those|its|their|his|her|our|my|any|every|each"
    r"|both|either|others?|in|on|for|with|from|across|at|by|as|via|within|during|under|over"
    r"|through|between|about|\w+ly|\w+ing)\b",
    re.IGNORECASE,
)
_TITLE = re.compile(r"(?:[A-Z][a-z]+\s+)+[A-Z][a-z]+\b")  # "No Language Left Behind"
# A heading "no" naming a result or a problem ("No three in line problem", "no-hair theorem"
# spelt without its hyphen) is that name.
_NAMED = re.compile(
    r"\b(?:problem|theorem|conjecture|lemma|principle|paradox|hypothesis|inequality|law|puzzle"
    r"|property|condition)\W*$",
    re.IGNORECASE,
)
_IDIOM = re.compile(
    r"(?:only|just|merely|simply|necessarily|yet|all|always|even|much|least|to|be|been|a\s+single"
    r"|clear|well|fully|surprisingly|longer|more|less|fewer|matter|doubt|one|further|other|such"
    r"|need|way|prior|previous|existing|free\s+lunch|reference|regret|cloning|hair|go|signall?ing"
    r"|boundary|show|code|loss|significant|known|explicit|additional|direct|universal|exception"
    r"|the\s+same)\b",
    re.IGNORECASE,
)
_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|will|would|should"
    r"|may|might|must|shall|exists?|\w{3,}ed)\b",
    re.IGNORECASE,
)
# What makes the words before a closing "not Y" a statement, which an abstract's "X, not Y" is.
_STATED = re.compile(
    rf"{_VERB.pattern}|\b(?:we|they|it|this|these|here|our|their|either)\b", re.IGNORECASE
)
# A sentence ends at ".", "!", "?" before a space, at a line's end, ";" or ":" (a list follows).
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[;:\n]")
_TURN = re.compile(r"\b(?:but|rather|instead|however|while|whereas|though)\b|\s[—–-]\s|[)\]]")
_CLAUSE_END = re.compile(r"[,;:.!?\n)\]]|\s[—–-]\s|\b(?:but|and\s+(?:also|especially))\b")
_FULL_STOP = re.compile(r"[.!?](?=\s|$)|\n")
_PLEASE = re.compile(r"[^.!?\n;]*?\bplease\b", re.IGNORECASE)


def refused(text: str) -> str:
    """The text without the words its reader refuses, each span a comma (a phrase ends there)."""
    out, at = [], 0
    for start, end in _spans(text):
        out += [text[at:start], " , "]
        at = end
    return "".join(out) + text[at:]


def refusals(text: str) -> list[str]:
    """The sentences of the text that refuse something, as written, each once: a `digest
    validate` warning names them and points to `exclude`, which is what a refusal does. A
    contrast ("collaboration rather than replacement") weighs, and refuses no papers."""
    found = []
    for start, _ in _spans(text, contrasts=False):
        begin = _sentence(text, start)
        end = _FULL_STOP.search(text, start)
        found.append(" ".join(text[begin : end.end() if end else len(text)].split()))
    return list(dict.fromkeys(found))


def _spans(text: str, contrasts: bool = True) -> list[tuple[int, int]]:
    """The refused spans of the text (a cue and its scope), in order, merged where they meet."""
    cues = [*_SENTENCE_CUES.finditer(text), *_IMPERATIVE.finditer(text)]
    spans = [(m.start(), _scope_end(text, m.end(), _TURN)) for m in cues]
    spans += [(_clause_start(text, m.start()), m.end()) for m in _AFTER.finditer(text)]
    if contrasts:
        spans += [
            (m.start(), _scope_end(text, m.end(), _CLAUSE_END)) for m in _CONTRAST.finditer(text)
        ]
    spans += _heads(text)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _clause_start(text: str, at: int) -> int:
    """Where the clause that ends at `at` begins: after its sentence's or clause's mark."""
    return max((m.end() for m in _CLAUSE_START.finditer(text, 0, at)), default=0)


def _scope_end(text: str, at: int, turn: re.Pattern[str]) -> int:
    """Where a cue's scope, from `at`, ends: the sentence's end or the turn, whichever is first;
    a colon right after the cue opens its list ("Not interested in: surveys, reviews")."""
    at += len(text[at:]) - len(text[at:].lstrip(" \t:"))
    ends = [m.start() for m in (_SENTENCE_END.search(text, at), turn.search(text, at)) if m]
    return min(ends, default=len(text))


def _heads(text: str) -> list[tuple[int, int]]:
    """The refusals clause-heading "no X" / "not X" make where a reader's voice says so; an
    idiom or a name ("not only", "No three in line problem") is a statement in brackets, a
    list or a sentence of its own as after a comma."""
    found = [(m, end) for m in _HEAD.finditer(text) if (end := _headed(text, m))]
    sentences = [  # where each refusal-like head's sentence begins, for "one of two"
        _sentence(text, m.start(1))
        for m, end in found
        if not _idiom(text, m, end) and not _CIRCUMSTANCE.match(text, m.start(1))
    ]
    return [
        (m.start(1), end)
        for m, end in found
        if _said(text, m) or (not _idiom(text, m, end) and _voiced(text, m, end, sentences))
    ]


def _idiom(text: str, head: re.Match[str], end: int) -> bool:
    """Whether a heading "no X" is an idiom or a name ("No Language Left Behind")."""
    named = _NAMED.search(text, head.end(), end) or _TITLE.match(text, head.end())
    return bool(_IDIOM.match(text, head.end()) or named)


def _voiced(text: str, head: re.Match[str], end: int, sentences: list[int]) -> bool:
    """Whether a heading "no X" that is no idiom is a reader's refusal: in brackets, in a
    list, or a verbless clause ending a sentence without a verb ("Graph learning, no LLMs.")."""
    at = head.start(1)
    bracketed = text[:at].rstrip(" \t").endswith("(")
    return bracketed or _listed(text, head, sentences) or _last(text, at, end)


def _last(text: str, at: int, end: int) -> bool:
    """Whether the clause from `at` to `end` ends its sentence, and the sentence says nothing
    before it ("We propose X, not Y." is a statement)."""
    closes = re.match(r"[ \t]*(?:[.!?](?=\s|$)|\n|$)", text[end:])
    said = _STATED.search(text, _sentence(text, at), at) or _CIRCUMSTANCE.match(text, at)
    return bool(closes) and not said and len(text[at:end].split()) <= 5


def _headed(text: str, head: re.Match[str]) -> int:
    """Where the clause a "no" / "not" heads ends (at "please", if it says it), 0 if the clause
    is a statement ("No prior work has ...", "Not all neurons are equal")."""
    rest = text[head.end() :]
    end = head.end() + (m.start() if (m := _CLAUSE_END.search(rest)) else len(rest))
    if _VERB.search(text, head.end(), end) or end == head.end():
        return 0
    please = _PLEASE.match(rest)
    return head.end() + please.end() if please else end


def _said(text: str, head: re.Match[str]) -> bool:
    """Whether the reader says a heading "no X" refuses, whatever X is: "please", or a refusal
    earlier in its sentence ("Anything except LLMs: no large language models, no code
    generation")."""
    at, begin = head.start(1), _sentence(text, head.start(1))
    return (
        bool(_PLEASE.match(text, head.end()))
        or bool(_SENTENCE_CUES.search(text, begin, at))
        or bool(_IMPERATIVE.search(text, begin, at))
    )


def _listed(text: str, head: re.Match[str], sentences: list[int]) -> bool:
    """Whether a heading "no X" that is no idiom ("no free lunch", "not only") is a list's
    refusal: in capitals ("NO LLMs"), a list item, or one of two in a sentence ("No LLMs, no
    surveys.")."""
    at = head.start(1)
    return head[1].isupper() or _item(text, at) or sentences.count(_sentence(text, at)) > 1


def _item(text: str, at: int) -> bool:
    """Whether `at` opens a line of a list: a bulleted line, or a line of a text of three or
    more."""
    line = text[text.rfind("\n", 0, at) + 1 : at]
    lines = sum(1 for row in text.splitlines() if row.strip())
    return bool(re.fullmatch(r"[ \t]*[-*•+>][ \t]+", line)) or (lines >= 3 and not line.strip())


def _sentence(text: str, at: int) -> int:
    """Where the sentence holding `at` begins."""
    return max((m.end() for m in _FULL_STOP.finditer(text, 0, at)), default=0)
