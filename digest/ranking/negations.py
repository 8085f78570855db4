"""What a reader refuses in prose ("not interested in surveys", "anything except LLMs", "no LLMs
please", "(not X)", "X rather than Y"): no wish. `refused` takes those words out of an interests
text; `refusals` names the sentences that hold them, for a warning pointing to `exclude`."""

from __future__ import annotations

import re

# Cues whose scope runs to the sentence's end or to a turn ("but", "rather"): "Not interested in
# surveys or literature reviews" had made surveys the reader's first picks, "why: survey". A cue
# a statement uses ("does not follow a power law", "except that", "except in the limit") is none.
_SENTENCE_CUES = re.compile(
    r"\b(?:(?:not|no\s+longer|less|never)\s+(?:(?:very|really|so|too|that|particularly|much"
    r"|at\s+all|even)\s+)*interested\s+(?:in|by)"
    r"|no\s+interest\s+in|uninterested\s+in|not\s+(?:really\s+)?into"
    r"|not\s+so\s+much|not\s+a\s+(?:big\s+)?fan\s+of"
    r"|I\s*(?:do\s+not|don['’]?t|never|no\s+longer)\s+(?:really\s+|much\s+|usually\s+)?"
    r"(?:follow|read|care\s+(?:much\s+)?(?:about|for)|need|want|like|work\s+on)"
    r"|nothing\s+(?:on|about)"
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
# "X rather than Y", "X instead of Y": Y is refused, X stays; the scope ends with the clause.
_CONTRAST = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.IGNORECASE)
# "no X", "not X" heading a clause: a refusal only where a reader's voice says so (a list
# item, "(not X)", "please", another refusal in the sentence, capitals); "no-regret", "no
# free lunch", "Not only ... but also", "No prior work has ..." are statements.
_HEAD = re.compile(r"(?:^|(?<=[\n(,;:.!?/]))[ \t]*(?:[-*•+>][ \t]+)?(no|not)\s+(?=\w)", re.I)
_IDIOM = re.compile(
    r"(?:only|just|merely|simply|necessarily|yet|all|always|even|much|least|to|be|been|a\s+single"
    r"|clear|well|fully|surprisingly|longer|more|less|fewer|matter|doubt|one|further|other|such"
    r"|need|way|prior|previous|existing|free\s+lunch|reference|regret|cloning|hair|go|signall?ing"
    r"|boundary|show|code|loss|significant|known|explicit|additional|direct|universal|exception)\b",
    re.IGNORECASE,
)
_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|will|would|should"
    r"|may|might|must|shall|exists?|\w{3,}ed)\b",
    re.IGNORECASE,
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
    validate` warning names them and points to `exclude`, which is what a refusal does."""
    found = []
    for start, _ in _spans(text):
        begin = _sentence(text, start)
        end = _FULL_STOP.search(text, start)
        found.append(" ".join(text[begin : end.end() if end else len(text)].split()))
    return list(dict.fromkeys(found))


def _spans(text: str) -> list[tuple[int, int]]:
    """The refused spans of the text (a cue and its scope), in order, merged where they meet."""
    spans = [(m.start(), _scope_end(text, m.end(), _TURN)) for m in _SENTENCE_CUES.finditer(text)]
    spans += [(m.start(), _scope_end(text, m.end(), _CLAUSE_END)) for m in _CONTRAST.finditer(text)]
    spans += _heads(text)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _scope_end(text: str, at: int, turn: re.Pattern[str]) -> int:
    """Where a cue's scope, from `at`, ends: the sentence's end or the turn, whichever is first;
    a colon right after the cue opens its list ("Not interested in: surveys, reviews")."""
    at += len(text[at:]) - len(text[at:].lstrip(" \t:"))
    ends = [m.start() for m in (_SENTENCE_END.search(text, at), turn.search(text, at)) if m]
    return min(ends, default=len(text))


def _heads(text: str) -> list[tuple[int, int]]:
    """The refusals clause-heading "no X" / "not X" make where a reader's voice says so."""
    found = [(m, end) for m in _HEAD.finditer(text) if (end := _headed(text, m))]
    sentences = [_sentence(text, m.start(1)) for m, _ in found]
    return [
        (m.start(1), end)
        for (m, end), sentence in zip(found, sentences, strict=True)
        if _said(text, m) or (not _IDIOM.match(text, m.end()) and _listed(text, m, sentences))
    ]


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
    """Whether the reader says a heading "no X" refuses, whatever X is: "(not X)", "please", or
    a refusal earlier in its sentence ("Anything except LLMs: no large language models, no code
    generation")."""
    at = head.start(1)
    return (
        text[:at].rstrip(" \t").endswith("(")
        or bool(_PLEASE.match(text, head.end()))
        or bool(_SENTENCE_CUES.search(text, _sentence(text, at), at))
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
