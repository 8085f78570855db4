"""A readable title for a paper that arrives without one: the method it names, what it studies, or
its first clause, cut at a word boundary to about 100 characters."""

from __future__ import annotations

import re
from itertools import islice
from typing import NamedTuple

from digest.sources.common import LONGEST
from digest.sources.latex import to_text

_FIELD_ACRONYMS = frozenset(
    "AI ML RL DP FL NLP CV LLM VLM LMM MLLM GNN CNN RNN MLP GPU TPU API SGD KV SD KD MoE GAN VAE "
    "SOTA IID MPC RLHF CoT VQA SNR SVD RGB PPO DPO GRPO NCO SFT TSF MSE PDE ODE SDE".split()
)
_PLURAL_ACRONYM = re.compile(r"[A-Z][A-Za-z]*[A-Z]s")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
# The verb may come late ("we offer ..., provide ..., and present FOCUS"), but never after a
# "that", which starts a claim about something else ("we show that X introduces ...").
_SUBJECT = r"\b(?:we|this (?:paper|work|study))\s+(?:(?!that\b)[^.;:]){0,160}?\b"
_VERBS = (
    r"propose[sd]?|introduce[sd]?|present(?:s|ed)?|develop(?:s|ed)?"
    r"|investigate[sd]?|stud(?:y|ies|ied)|explore[sd]?"
)
_INTRO = re.compile(
    _SUBJECT + r"(?:" + _VERBS + r"|design(?:s|ed)?|construct(?:s|ed)?|formulate[sd]?)\b"
    r"(?:\s+and\s+\w+)?\s*",
    re.IGNORECASE,
)
_STUDY = re.compile(
    _SUBJECT + r"(?:" + _VERBS + r"|focus(?:es)? on|conduct(?:s|ed)?)\s+", re.IGNORECASE
)
# An object that points back ("these issues", "two settings") means nothing as a title.
_POINTS_BACK = re.compile(
    r"(?:this|that|such|it|them|our|two|three|several|various|the above)\b"
    r"|.{0,50}\b(?:these|those)\b",
    re.IGNORECASE,
)
_NAMING = re.compile(r",?\s*\b(?:termed|dubbed|named|namely|called)\s*,?\s*$", re.IGNORECASE)
_COMMA_OR_PAREN = re.compile(r"\s*[,(]")
_ARTICLE_AFTER_COMMA = re.compile(r",\s+(?:an?|the)\s")
# A name this near the verb counts in parentheses alone: "we propose a solver (WSolve)".
_NEAR = 13
# "We use X to ...", "This study aimed to ...", "We show that X": the subject and its verb go.
_OPENER = re.compile(
    r"^(?:(?:in|with) this (?:paper|work|study|article)|here|recently|nowadays),?\s+"
    r"(?:(?:we|this (?:paper|work|study))\s+[a-z]+\s+(?:that\s+|to\s+)?)?"
    r"|^(?:we|this (?:paper|work|study))\s+[a-z]+\s+(?:that\s+|to\s+)?",
    re.IGNORECASE,
)
_STRONG_BREAK = re.compile(
    r"[,;:]\s|\s?[—–]\s?|\s(?:which|that|by|via|through|using|while|where|whereas|based on)\s"
)
_WEAK_BREAK = re.compile(r"\s(?:with|without|to|in|for|from|on|at|across|as)\s")
_LIST_ITEM = re.compile(r"(?:[\w'/-]+\s){0,2}[\w'/-]+,")
_LIST_LAST = re.compile(r"(?:and|or)\s")
_LIST_BEFORE = re.compile(r",\s(?:[\w'/-]+\s){0,2}[\w'/-]+$")
_ADJECTIVE_END = re.compile(r"\w(?:ic|al|ive|ous|ful|able|ible|ant|ent|less)$")
_CONNECTORS = frozenset("of for with via in and on to from".split())
_INNER_NAME = re.compile(r"([A-Z][\w\s-]{0,80}?)\s\((" + _TOKEN.pattern + r")\)")
# FOCUS, Federated Optimization with Exact Convergence via Push-pull Strategy, a ...
_APPOSED_EXPANSION = re.compile(
    r",\s*((?:[A-Z][\w-]*\s+(?:(?:of|for|with|via|in|and)\s+)?)+[A-Z][\w-]*),"
)
# "..., a solver for X, and show that ...": the sentence moves on to another claim.
_NEXT_CLAIM = re.compile(
    r",?\s+and\s+(?:we\s+)?(?:show|demonstrate|prove|evaluate|apply|use|provide|establish|develop"
    r"|introduce|propose|present|validate|release|conduct|analy[sz]e|derive|find|further|then)\b.*",
    re.IGNORECASE,
)
_HEAD_NOUN = re.compile(r"\s+(family|framework|benchmark|dataset|model|suite|library)\b")
_DANGLING = frozenset("a an the of for to in on and or with by via from as at that which".split())


# Markup is read in one pass over the text. Tried at each "[" of a run, or at each "*" of a line
# of marks that never close, a regex read on to the end of the text: 20,000 of them took seconds.
# "**" is tried before "*", as `\*{1,2}` did.
_EMPHASIS = {
    mark: re.compile(rf"{re.escape(mark)}(?=\S)(.+?)(?<=\S){re.escape(mark)}")
    for mark in ("**", "*", "__")
}
_CLOSING = {mark: re.compile(rf"(?<=\S)(?={re.escape(mark)})") for mark in _EMPHASIS}
_MARK = re.compile(r"(?=\*|__)")
# Only the first space of a run starts a match, or the run was read again from each of its spaces.
_SPACE_BEFORE_MARK = re.compile(r"(?<!\s)\s++([,.;:!?])")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“])|(?<=[。！？])\s*")
_ABBREVIATION_END = re.compile(r"\b(?:e\.g|i\.e|et al|vs|cf|Fig|Eq|Sec)\.$")


def _unlink(text: str) -> str:
    """Markdown links as their text: "[text](url)" becomes "text"."""
    out: list[str] = []
    done = at = 0
    while (opening := text.find("[", at)) >= 0:
        closing = text.find("]", opening)
        if closing < 0:
            break  # every "[" after this one lacks its "]" too
        if text.startswith("(", closing + 1):
            end = text.find(")", closing + 2)
            if end < 0:
                break  # and no later "](" has its ")"
            out += (text[done:opening], text[opening + 1 : closing])
            done = at = end + 1
        else:
            at = closing + 1  # each "[" before this "]" closes here too, and fails as this one
    out.append(text[done:])
    return "".join(out)


def _unemphasize(line: str) -> str:
    """The line with Markdown emphasis ("**bold**", "*it*", "__bold__") dropped."""
    # Where each mark can last close: a mark that opens after it is passed over, not read on.
    last = {
        m: max((c.start() for c in close.finditer(line)), default=-1)
        for m, close in _CLOSING.items()
    }
    out: list[str] = []
    done = 0
    for at in (m.start() for m in _MARK.finditer(line)):
        if at < done:
            continue
        for mark, emphasis in _EMPHASIS.items():
            found = last[mark] > at + len(mark) and emphasis.match(line, at)
            if found:
                out += (line[done:at], found[1])
                done = found.end()
                break
    out.append(line[done:])
    return "".join(out)


def _clean(text: str) -> str:
    """Markup-free text: LaTeX where it is LaTeX ($5 and {x : x > 0} stay), Markdown links and
    emphasis dropped."""
    text = _unlink(to_text(text))
    text = text.replace("``", '"').replace("''", '"')
    # Emphasis never spans lines.
    text = "\n".join(_unemphasize(line) for line in text.split("\n"))
    text = _SPACE_BEFORE_MARK.sub(r"\1", text)
    return " ".join(text.split())


def _sentences(text: str) -> list[str]:
    # Each sentence as its pieces, joined at the end: growing one string and searching all of it
    # again at each "Fig." made a text of abbreviations quadratic.
    sentences: list[list[str]] = []
    for piece in _SENTENCE_BREAK.split(text):
        # "e.g." and "et al." end in a period without ending the sentence.
        if sentences and _ABBREVIATION_END.search(sentences[-1][-1]):
            sentences[-1].append(piece)
        elif piece.strip():
            sentences.append([piece.strip()])
    return [" ".join(pieces) for pieces in sentences]


def _strong(part: str, compound: bool = False) -> bool:
    if part[:1].isdigit():  # "3DScenePrompt" is coined, "3D" and "46B" are not
        return len(part) >= 5 and any(c.islower() for c in part) and any(c.isupper() for c in part)
    if len(part) < 2:
        return False
    if compound and part.isupper():
        return True  # "AR-RAG", "CS-Probing": short capitals count inside a coined compound
    if any(c.isdigit() for c in part):
        return True
    return len(part) >= 3 and any(c.isupper() for c in part[1:])


def _is_name(token: str) -> bool:
    """A coined method name (AdaSPEC, FOCUS, AR-RAG, ProGen3), not a field acronym or a word."""
    if token in _FIELD_ACRONYMS or _PLURAL_ACRONYM.fullmatch(token):
        return False
    parts = token.split("-")
    if len(parts) > 1 and not all(p[:1].isupper() or p[:1].isdigit() for p in parts):
        return False  # "MPC-friendly", "LLM-based" describe, they do not name
    return any(_strong(p, len(parts) > 1) for p in parts)


def _drop_asides(text: str) -> str:
    text = re.sub(r"\s*\([^()]*\)", "", text)
    return " ".join(text.split())


def _tidy_phrase(text: str) -> str:
    """A description without hype words, with a/an agreeing with what now follows."""
    text = _drop_asides(text).strip(" ,;:.")
    text = re.sub(r"^(an?|the)\s+(?:novel|new)\b,?\s*", r"\1 ", text, flags=re.IGNORECASE)
    text = re.sub(r"^(?:novel|new)\s+", "", text)
    first = re.match(r"an?\s+(\S+)", text, flags=re.IGNORECASE)
    if first:
        word = re.sub(r"[^A-Za-z].*", "", first[1]) or first[1]
        # Acronyms are read letter by letter: "an LMM benchmark", "an RL framework".
        acronym = word.isupper() and len(word) > 1
        vowel = word[0] in ("AEFHILMNORSX" if acronym else "aeiouAEIOU")
        text = ("an " if vowel else "a ") + text[first.start(1) :]
    return text


def _expansion_before(text: str, letters: int) -> str:
    """The words before "(NAME)" that spell it out: the capitalized run, else one per capital."""
    words = text.split()
    taken: list[str] = []
    for word in reversed(words):
        if not (word[:1].isupper() or (taken and word in _CONNECTORS)):
            break
        taken.insert(0, word)
    while taken and taken[0] in _CONNECTORS:
        taken.pop(0)
    return " ".join(taken or words[-letters:]).strip(" ,")


class _Coined(NamedTuple):
    name: str  # "AdaSPEC", or "ProGen3 family" when a head noun follows the name
    expansion: str  # "Autoregressive Retrieval Augmentation" for AR-RAG, or ""
    before: str  # between the intro verb and the name: "a novel ToF imaging paradigm, termed"
    after: str  # the rest of the sentence
    labelled: bool  # "termed NAME", ", NAME,": `before` is what the name stands for


def _coined(seg: str, within: int | None = None) -> _Coined | None:
    """The method name coined right after an intro verb, with whatever spells it out; among the
    first `within` words when given.

    Each word is weighed where it stands in `seg`, without cutting `seg` at it: the cut words
    were as long as the text, and a text of 4,000 names took seconds."""
    previous = 0  # where the word before starts: a "termed" before the name is in it
    for number, tok in enumerate(islice(_TOKEN.finditer(seg), within)):
        name, start, end = tok.group(), tok.start(), tok.end()
        since, previous = previous, start
        # Before the third word stand two, which are neither nothing nor "the".
        first = number < 2 and seg[:start].strip().lower() in ("", "the")
        in_parens = seg.endswith("(", 0, start) and seg.startswith(")", end)
        appositive = seg.endswith(", ", 0, start) and _COMMA_OR_PAREN.match(seg, end) is not None
        # A plain capitalized word names a method only in "we propose Mozart, a ...".
        capital = first and name[:1].isupper() and _ARTICLE_AFTER_COMMA.match(seg, end)
        if not (_is_name(name) or capital):
            continue
        if not (first or appositive or capital or in_parens and number < _NEAR):
            if not _NAMING.search(seg, since, start):
                continue
        before, after = seg[:start], seg[end:]
        expansion = ""
        inner = _INNER_NAME.match(seg, tok.start())
        if first and inner and _is_name(inner[2]):
            # "SymmetryPreserving Conformer Ensemble networks (SPiCE)": the name is in parentheses.
            name, expansion, after = inner[2], inner[1], seg[inner.end() :]
        elif in_parens:
            expansion = _expansion_before(before[:-1], sum(c.isupper() for c in name))
            before, after = before[: before.rfind(expansion)], after[1:]
        spelled = re.match(r"\s*\(([^()]+)\)", after) or _APPOSED_EXPANSION.match(after)
        if not expansion and spelled and len(spelled[1].split()) >= 2:
            expansion, after = spelled[1], after[spelled.end(1) :].lstrip(")")
        head = _HEAD_NOUN.match(after)
        if head and not expansion:
            name, after = f"{name} {head[1]}", after[head.end() :]
        labelled = appositive or _NAMING.search(before) is not None
        return _Coined(name, expansion.strip(), _NAMING.sub("", before), after, labelled)
    return None


def _describe(name: str, expansion: str, description: str) -> str:
    if expansion and description:
        return f"{name}: {expansion}, {description}"
    if description.startswith(("which ", "that ")):
        return f"{name}, {description}"
    return f"{name}: {expansion or description}" if expansion or description else name


def _named_title(coined: _Coined, limit: int) -> str:
    """ "Name: expansion, description": what the name stands for, then what the method is."""
    name, expansion, after = coined.name, coined.expansion, _NEXT_CLAIM.sub("", coined.after)
    pre = _tidy_phrase(coined.before)
    following = re.match(r"\s*,\s*((?:an?|the|which|that|\w+ing)\s[^;:]*)", after)
    if coined.labelled and len(pre.split()) > 2:
        # "a probing tool to enable ...": the purpose only when all of it fits in a title.
        purpose = re.match(r"\s*,?\s*((?:which|that|to|for)\s[^;:]*)", after)
        whole = f"{pre} {_drop_asides(purpose[1])}" if purpose else pre
        description = whole if len(_describe(name, expansion, whole)) <= limit else pre
    elif following:
        description = _tidy_phrase(following[1])
    elif " " in name and not expansion:
        return _drop_asides(name + re.split(r"[,;:]", after)[0])  # "ProGen3 family of ..."
    else:
        description = ""
    if re.match(r"which \w+ (?:two|three|four|several|the following)\b", description):
        description = ""  # "which introduces two key innovations" says nothing on its own
    return _describe(name, expansion, description)


def _study_object(sentence: str) -> str | None:
    """The object of "we propose/study ...", when it is a phrase that stands on its own."""
    verb = _STUDY.search(sentence)
    obj = _tidy_phrase(re.split(r"[;:]", sentence[verb.end() :])[0]) if verb else ""
    return obj if len(obj.split()) >= 3 and not _POINTS_BACK.match(obj) else None


def _inside_list(text: str, comma: int, resume: int) -> bool:
    """Whether the comma separates list items ("audio, visual, and ...") or adjectives
    ("realistic, synthetic fingerprints"): no place for a cut."""
    if _LIST_ITEM.match(text, resume) or _ADJECTIVE_END.search(text, 0, comma):
        return True
    return bool(_LIST_LAST.match(text, resume) and _LIST_BEFORE.search(text, 0, comma))


def _fit(text: str, limit: int) -> str:
    """Cut to `limit` at a clause break when one is near the end, else at a word and mark it."""
    text = text.strip(" ,;:.")
    if len(text) <= limit:
        return text
    # A preposition may cut too, but only late: early, it drops what the phrase is about.
    for breaks, shortest in ((_STRONG_BREAK, 0.45), (_WEAK_BREAK, 0.7)):
        cuts = [
            m.start()
            for m in breaks.finditer(text)
            if shortest * limit <= m.start() <= limit
            and not (m.group().startswith(",") and _inside_list(text, m.start(), m.end()))
        ]
        if cuts:
            return text[: cuts[-1]].rstrip(" ,;:")
    cut = text[: limit - 1]  # room for the ellipsis
    if " " in cut and not text[limit - 1].isspace():
        cut = cut[: cut.rfind(" ")]
    words = cut.rstrip(" ,;:.-").split(" ")
    while len(words) > 1 and words[-1].lower() in _DANGLING:
        words.pop()
    return " ".join(words).rstrip(" ,;:.-") + "…"


def derive_title(abstract: str, limit: int = 100) -> str:
    """A readable title of at most `limit` characters for a paper known only by its abstract.

    Prefers the coined method ("AdaSPEC: a method that incorporates ..."), then the object of
    "we propose/study ...", then the first sentence without its "In this paper, we" opener.
    """
    # A feed's item is titled before intake cuts its abstract: the title comes from what is kept.
    sentences = _sentences(_clean(abstract[: LONGEST["abstract"]]))
    if not sentences:
        return ""
    first = re.match(r"(" + _TOKEN.pattern + r")\s+is\s+((?:an?|the)\s.*)", sentences[0])
    if first and _is_name(first[1]):
        return _fit(f"{first[1]}: {_tidy_phrase(first[2])}", limit)
    for sentence in sentences:
        within: int | None = None
        for intro in _INTRO.finditer(sentence):
            coined = _coined(sentence[intro.end() :], within)
            if coined:
                return _fit(_named_title(coined, limit), limit)
            # A later intro's words are this one's tail, which named nothing. Past its first
            # _NEAR words, where a name in parentheses counts, a word is weighed as it was here
            # ("we propose" 1,800 times in a sentence read it 1,800 times whole: 18 s).
            within = _NEAR
        our = re.match(r"Our\s+((?:[A-Z][\w-]*\s+){1,6})\((" + _TOKEN.pattern + r")\)", sentence)
        if our and _is_name(our[2]):
            return _fit(f"{our[2]}: {our[1].strip()}", limit)
    for sentence in sentences:
        obj = _study_object(sentence)
        if obj:
            return _fit(obj[:1].upper() + obj[1:], limit)
    opening = _drop_asides(sentences[0])
    rest = _OPENER.sub("", opening)
    opening = rest if len(rest.split()) >= 3 else opening
    return _fit(opening[:1].upper() + opening[1:], limit)
